//! # sgf-render: board diagrams of Go positions
//!
//! Pictures of the position at any node of an SGF record, with its markup
//! drawn as viewers draw it (`TR`, `CR`, `SQ`, `MA`, `SL`, `LB`, `AR`, `LN`,
//! `DD`, `VW`, `TB`/`TW`), the last move, move numbers, variation markers as
//! `ST` asks, captures and the player to move; as SVG, PNG or text. Book-style
//! figures (`FG`, `PM`) are split by [`figure`].
//!
//! ```
//! use sgf_core::parse;
//! use sgf_render::{RenderOptions, render_svg, render_text, TextStyle};
//!
//! let doc = parse(b"(;SZ[9];B[ee];W[ce]TR[ee]LB[gc:a])").document;
//! let node = doc.game(0).unwrap().main_line().last().unwrap().id();
//! let opts = RenderOptions::default();
//! let svg = render_svg(&doc, node, &opts).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains("class=\"mark tr\""));
//! let text = render_text(&doc, node, &opts, TextStyle::Ascii).unwrap();
//! assert!(text.contains("^X"));
//! ```
//!
//! The same through a [`Diagram`], with the geometry a viewer needs:
//!
//! ```
//! use sgf_core::{parse, Point};
//! use sgf_render::{Diagram, RenderOptions, TextStyle};
//!
//! let doc = parse(b"(;SZ[9];B[ee];W[cc]TR[ee])").document;
//! let node = doc.game(0).unwrap().main_line().last().unwrap().id();
//! let opts = RenderOptions::default();
//! let diagram = Diagram::at(&doc, node, &opts).unwrap();
//! let svg = diagram.to_svg(&opts);                    // self-contained, with a viewBox
//! let png = diagram.to_png(&opts, 600).unwrap();      // longer side 600 px
//! let text = diagram.to_text(&opts, TextStyle::Ascii);
//! let g = diagram.geometry(&opts);                    // map a click to a point
//! let (x, y) = g.center(Point::new(4, 4));
//! assert_eq!(g.point_at(x + 3.0, y - 5.0), Some(Point::new(4, 4)));
//! assert!(svg.contains("viewBox") && png.starts_with(b"\x89PNG") && text.contains("^X"));
//! ```
//!
//! ## For interactive clients
//! The SVG is self-contained and deterministic, sized by the board through
//! its `viewBox`; [`geometry`](Diagram::geometry) (also written into the root element's
//! `data-*` attributes) maps a click to a point. Stones and markup have
//! stable classes and a `data-pt` attribute with the SGF point.
//!
//! ## Fonts
//! Coordinates, numbers and ASCII labels are drawn from a bundled ASCII
//! subset of DejaVu Sans Bold as `<path>` glyphs, so SVG and PNG look the
//! same on every machine. Other text (CJK labels) is an SVG `<text>` with a
//! font stack for browsers; PNG output, which has no text stack, draws the
//! label's outline box in its place, unless the `cjk-png` feature is on and
//! a CJK font is found (see [`png_has_cjk_text`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diagram;
pub mod figure;
mod font;
pub mod geometry;
pub mod options;
pub mod raster;
mod svg;
mod text;

use std::fmt;

use sgf_core::{Document, NodeId};

pub use diagram::{Diagram, Note, NoteAt, Region, Shape, Status};
pub use figure::{
    Figure, FigureOptions, FiguresPage, Pictures, StreamedFigure, figure_file_name, figures,
    figures_html, figures_title, try_for_each_figure, try_for_each_figure_streamed,
    write_figures_html,
};
pub use geometry::Geometry;
pub use options::{MoveNumbers, RenderOptions, TextStyle, Theme, Variations};
pub use raster::ImageFormat;

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The node is not part of a game of the document.
    NoSuchNode,
    /// The requested PNG size is out of range (1–16384 pixels).
    BadSize(u32),
    /// The rasteriser refused the drawing (a bug: the SVG is our own).
    Raster(String),
    /// The requested JPEG quality is out of range (1–100).
    BadQuality(u8),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::NoSuchNode => {
                f.write_str("the node is not part of a game of this document")
            }
            RenderError::BadSize(s) => write!(f, "image size {s} is out of range (1-16384 pixels)"),
            RenderError::Raster(e) => write!(f, "cannot rasterise the diagram: {e}"),
            RenderError::BadQuality(q) => write!(f, "JPEG quality {q} is out of range (1-100)"),
        }
    }
}

impl std::error::Error for RenderError {}

/// The diagram at `node` as a standalone SVG document.
///
/// # Errors
/// [`RenderError::NoSuchNode`] when `node` is not in a game of `doc`.
pub fn render_svg(
    doc: &Document,
    node: NodeId,
    opts: &RenderOptions,
) -> Result<String, RenderError> {
    Ok(Diagram::at(doc, node, opts)?.to_svg(opts))
}

/// The diagram at `node` as PNG bytes; the longer side is `size_px` pixels.
///
/// # Errors
/// [`RenderError::NoSuchNode`] when `node` is not in a game of `doc`;
/// [`RenderError::BadSize`] for a size outside 1–16384.
pub fn render_png(
    doc: &Document,
    node: NodeId,
    opts: &RenderOptions,
    size_px: u32,
) -> Result<Vec<u8>, RenderError> {
    Diagram::at(doc, node, opts)?.to_png(opts, size_px)
}

/// The diagram at `node` as a PNG, JPEG or BMP picture; the longer side is
/// `size_px` pixels.
///
/// # Errors
/// As [`render_png`], and [`RenderError::BadQuality`] for a JPEG quality
/// outside 1–100.
pub fn render_image(
    doc: &Document,
    node: NodeId,
    opts: &RenderOptions,
    size_px: u32,
    format: ImageFormat,
) -> Result<Vec<u8>, RenderError> {
    Diagram::at(doc, node, opts)?.to_image(opts, size_px, format)
}

/// The diagram at `node` as text.
///
/// # Errors
/// [`RenderError::NoSuchNode`] when `node` is not in a game of `doc`.
pub fn render_text(
    doc: &Document,
    node: NodeId,
    opts: &RenderOptions,
    style: TextStyle,
) -> Result<String, RenderError> {
    Ok(Diagram::at(doc, node, opts)?.to_text(opts, style))
}

/// Where the diagram at `node` draws each point (as [`render_svg`] lays it out).
///
/// # Errors
/// [`RenderError::NoSuchNode`] when `node` is not in a game of `doc`.
pub fn geometry(
    doc: &Document,
    node: NodeId,
    opts: &RenderOptions,
) -> Result<Geometry, RenderError> {
    Ok(Diagram::at(doc, node, opts)?.geometry(opts))
}

impl Diagram {
    /// The layout of the SVG and PNG drawings.
    pub fn geometry(&self, opts: &RenderOptions) -> Geometry {
        Geometry::of(self, opts.coordinates)
    }

    /// A standalone SVG document.
    pub fn to_svg(&self, opts: &RenderOptions) -> String {
        svg::write(self, opts, false)
    }

    /// [`Diagram::to_svg`] written into `out` as it is drawn, the same
    /// bytes, without holding the drawing (a figure of a long game lists a
    /// million moves under it).
    ///
    /// # Errors
    /// The first error of `out`; what was written before it stays written.
    pub fn write_svg(&self, opts: &RenderOptions, out: impl std::io::Write) -> std::io::Result<()> {
        let mut out = IoFmt { out, error: None };
        let r = svg::write_to(self, &self.notes, opts, false, &mut out);
        out.result(r)
    }

    /// Text; coordinates as `opts` says.
    pub fn to_text(&self, opts: &RenderOptions, style: TextStyle) -> String {
        match style {
            TextStyle::Sensei => text::write_sensei(self, opts.coordinates),
            _ => text::write(self, opts.coordinates, style),
        }
    }

    /// PNG bytes, the longer side `size_px` pixels.
    ///
    /// # Errors
    /// [`RenderError::BadSize`] for a size outside 1–16384.
    pub fn to_png(&self, opts: &RenderOptions, size_px: u32) -> Result<Vec<u8>, RenderError> {
        self.to_image(opts, size_px, ImageFormat::Png)
    }

    /// A PNG, JPEG or BMP picture, the longer side `size_px` pixels; the
    /// three are encoded from the same pixels.
    ///
    /// ```
    /// use sgf_render::{Diagram, ImageFormat, RenderOptions};
    ///
    /// let doc = sgf_core::parse(b"(;SZ[9];B[ee])").document;
    /// let node = doc.game(0).unwrap().main_line().last().unwrap().id();
    /// let opts = RenderOptions::default();
    /// let d = Diagram::at(&doc, node, &opts).unwrap();
    /// let jpg = d.to_image(&opts, 300, ImageFormat::Jpeg { quality: 85 }).unwrap();
    /// let bmp = d.to_image(&opts, 300, ImageFormat::Bmp).unwrap();
    /// assert!(jpg.starts_with(&[0xff, 0xd8, 0xff]) && bmp.starts_with(b"BM"));
    /// ```
    ///
    /// # Errors
    /// [`RenderError::BadSize`] for a size outside 1–16384,
    /// [`RenderError::BadQuality`] for a JPEG quality outside 1–100.
    pub fn to_image(
        &self,
        opts: &RenderOptions,
        size_px: u32,
        format: ImageFormat,
    ) -> Result<Vec<u8>, RenderError> {
        if !(1..=16384).contains(&size_px) {
            return Err(RenderError::BadSize(size_px));
        }
        if let ImageFormat::Jpeg { quality } = format
            && !(1..=100).contains(&quality)
        {
            return Err(RenderError::BadQuality(quality));
        }
        let options = raster_options();
        // Without a CJK font, text the bundled glyphs lack is drawn as its box.
        let boxes = !has_fonts(&options);
        let pixmap = rasterise(&svg::write(self, opts, boxes), size_px, &options)?;
        raster::encode(&pixmap, format)
    }
}

/// Whether PNG output draws text outside the bundled ASCII glyphs (the
/// `cjk-png` feature with a CJK font found); otherwise it draws outline boxes.
pub fn png_has_cjk_text() -> bool {
    has_fonts(&raster_options())
}

#[cfg(feature = "cjk-png")]
fn has_fonts(options: &resvg::usvg::Options<'_>) -> bool {
    !options.fontdb.is_empty()
}

#[cfg(not(feature = "cjk-png"))]
fn has_fonts(_: &resvg::usvg::Options<'_>) -> bool {
    false
}

/// The rasteriser's options: with the `cjk-png` feature, a font database
/// holding the first CJK font found (loaded once).
#[cfg(feature = "cjk-png")]
fn raster_options() -> resvg::usvg::Options<'static> {
    use std::sync::{Arc, OnceLock};
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    let db = DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        let candidates = std::env::var_os("QIPU_CJK_FONT")
            .map(std::path::PathBuf::from)
            .into_iter()
            .chain(CJK_FONTS.iter().map(std::path::PathBuf::from));
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                db.load_font_data(bytes);
                if !db.is_empty() {
                    break;
                }
            }
        }
        // The SVG asks for a stack of CJK families; whatever was found serves them all.
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first())
            .map(|(name, _)| name.clone());
        if let Some(family) = family {
            db.set_sans_serif_family(family);
        }
        Arc::new(db)
    });
    resvg::usvg::Options {
        fontdb: Arc::clone(db),
        ..resvg::usvg::Options::default()
    }
}

#[cfg(not(feature = "cjk-png"))]
fn raster_options() -> resvg::usvg::Options<'static> {
    resvg::usvg::Options::default()
}

/// Where Debian and most Linux systems keep CJK fonts.
#[cfg(feature = "cjk-png")]
const CJK_FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
];

/// Rasterises an SVG of ours; the longer side becomes `size_px` pixels.
fn rasterise(
    svg: &str,
    size_px: u32,
    options: &resvg::usvg::Options<'_>,
) -> Result<resvg::tiny_skia::Pixmap, RenderError> {
    use resvg::{tiny_skia, usvg};
    let tree =
        usvg::Tree::from_str(svg, options).map_err(|e| RenderError::Raster(e.to_string()))?;
    let s = tree.size();
    let scale = size_px as f32 / s.width().max(s.height());
    let w = (s.width() * scale).round().max(1.0) as u32;
    let h = (s.height() * scale).round().max(1.0) as u32;
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| RenderError::Raster("empty image".into()))?;
    resvg::render(
        &tree,
        // Stretched by under half a pixel so that the picture fills the
        // rounded size: no half-transparent last row or column.
        tiny_skia::Transform::from_scale(w as f32 / s.width(), h as f32 / s.height()),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// An [`std::io::Write`] seen as a [`std::fmt::Write`], so that the one
/// writer of SVG and HTML (into a `String`) also writes to a file; keeps
/// the first I/O error, which `fmt::Error` cannot carry.
pub(crate) struct IoFmt<W> {
    pub(crate) out: W,
    pub(crate) error: Option<std::io::Error>,
}

impl<W: std::io::Write> std::fmt::Write for IoFmt<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.error.is_some() {
            return Err(std::fmt::Error);
        }
        self.out.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

impl<W> IoFmt<W> {
    /// The outcome of writing: the I/O error kept, if any.
    pub(crate) fn result(mut self, r: std::fmt::Result) -> std::io::Result<()> {
        self.take_error(r)
    }

    /// The outcome of a piece of writing: the I/O error kept (taken), if any.
    pub(crate) fn take_error(&mut self, r: std::fmt::Result) -> std::io::Result<()> {
        match (self.error.take(), r) {
            (Some(e), _) => Err(e),
            (None, Ok(())) => Ok(()),
            (None, Err(_)) => Err(std::io::Error::other("formatting failed")),
        }
    }
}
