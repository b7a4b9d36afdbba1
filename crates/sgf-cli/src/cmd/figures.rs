//! `qipu figures`: a game split into book-style diagrams, one picture each (SVG, PNG, JPEG or BMP), plus an HTML index.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use sgf_go::GameInfo;
use sgf_render::figure::{FigureFlags, FigureOptions, figures};
use sgf_render::{Figure, ImageFormat, Theme};

use crate::cmd::render::ThemeArg;
use crate::input;

/// Picture formats of figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FigureFormat {
    /// Scalable vector graphics.
    Svg,
    /// PNG images.
    Png,
    /// JPEG images (quality from --quality).
    #[value(alias = "jpeg")]
    Jpg,
    /// 24-bit BMP images.
    Bmp,
}

impl FigureFormat {
    /// The raster format, `None` for SVG.
    fn image(self, quality: u8) -> Option<ImageFormat> {
        match self {
            FigureFormat::Svg => None,
            FigureFormat::Png => Some(ImageFormat::Png),
            FigureFormat::Jpg => Some(ImageFormat::Jpeg { quality }),
            FigureFormat::Bmp => Some(ImageFormat::Bmp),
        }
    }
}

/// Split a game into printed figures (at each FG, or every N moves): one picture each and an index page.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// Directory to write `figure-001.svg` (or .png, .jpg, .bmp), … and `index.html` into (created if needed).
    #[arg(short, long)]
    pub output: String,
    /// Picture format of the figures.
    #[arg(long, value_enum, default_value_t = FigureFormat::Svg)]
    pub format: FigureFormat,
    /// Longer side of PNG, JPEG or BMP figures in pixels.
    #[arg(long, default_value_t = 800)]
    pub size: u32,
    /// JPEG quality, 1 (smallest file) to 100 (best picture).
    #[arg(long, default_value_t = ImageFormat::DEFAULT_JPEG_QUALITY, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub quality: u8,
    /// Game of the collection (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Also start a new figure every N moves.
    #[arg(long)]
    pub every: Option<u32>,
    /// Remove captured stones in figures whose FG sets no flags (default: keep them, as books do).
    #[arg(long)]
    pub remove_captured: bool,
    /// Colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    pub theme: ThemeArg,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The file name of figure `n`; `ext` without the dot.
fn file_name(n: usize, ext: &str) -> String {
    format!("figure-{n:03}.{ext}")
}

/// The index page: the figures in order (pictures `figure-NNN.ext`), each
/// with its moves not shown and its comments.
pub fn index_html(title: &str, figs: &[Figure], ext: &str) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
<style>\nbody{{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}}\n\
section{{margin:2rem 0;border-top:1px solid #ccc;padding-top:1rem}}\n\
img{{width:100%;max-width:36rem;height:auto;display:block}}\n.not-shown{{font-weight:bold}}\n\
.comments li{{margin:.3rem 0;white-space:pre-wrap}}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        html_escape(title),
        html_escape(title)
    );
    for f in figs {
        let _ = writeln!(
            h,
            "<section class=\"figure\" id=\"figure-{}\">\n<h2>{}</h2>\n<img src=\"{}\" alt=\"{}\">",
            f.number,
            html_escape(&f.title()),
            file_name(f.number, ext),
            html_escape(&f.title())
        );
        if !f.not_shown.is_empty() {
            let _ = writeln!(
                h,
                "<p class=\"not-shown\">{}</p>",
                html_escape(&f.not_shown.join(", "))
            );
        }
        if !f.comments.is_empty() {
            h.push_str("<ul class=\"comments\">\n");
            for (n, c) in &f.comments {
                let head = n.map_or(String::new(), |n| format!("<b>{n}</b> "));
                let _ = writeln!(h, "<li>{head}{}</li>", html_escape(c));
            }
            h.push_str("</ul>\n");
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let loaded = input::load(&args.file)?.require_games()?;
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    let doc = &loaded.parsed.document;
    let game = loaded.game_index(args.game)?;
    let opts = FigureOptions {
        every: args.every.filter(|&n| n > 0),
        defaults: FigureFlags {
            remove_captured: args.remove_captured,
            ..FigureFlags::default()
        },
    };
    let figs = figures(doc, game, &opts);
    let theme = match args.theme {
        ThemeArg::Light => Theme::Light,
        ThemeArg::Dark => Theme::Dark,
    };
    let dir = Path::new(&args.output);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let image = args.format.image(args.quality);
    let ext = image.map_or("svg", ImageFormat::extension);
    for f in &figs {
        let path = dir.join(file_name(f.number, ext));
        let bytes = match image {
            None => f.to_svg(theme).into_bytes(),
            Some(format) => f
                .to_image(theme, args.size, format)
                .with_context(|| format!("cannot draw figure {}", f.number))?,
        };
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let info = GameInfo::of(doc, game);
    let title = match (&info.name, &info.black, &info.white) {
        (Some(n), _, _) if !n.is_empty() => n.clone(),
        (_, Some(b), Some(w)) => format!("{b} (Black) – {w} (White)"),
        _ => format!("{} – game {}", loaded.name, args.game),
    };
    let index = dir.join("index.html");
    std::fs::write(&index, index_html(&title, &figs, ext))
        .with_context(|| format!("cannot write {}", index.display()))?;
    eprintln!("{} figure(s) written to {}", figs.len(), dir.display());
    Ok(0)
}
