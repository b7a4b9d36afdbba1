//! The SVG writer: a self-contained, deterministic picture of a [`Diagram`].
//!
//! Stable hooks for clients: the root `<svg>` has class `qipu-diagram` and
//! `data-*` attributes with the geometry; every stone is a
//! `<circle class="stone black|white" data-pt="dd">`; markup elements carry
//! classes (`mark tr|cr|sq|ma|sl`, `label`, `number`, `variation`, `last-move`,
//! `territory`, `dim`, `line`, `arrow`) and `data-pt`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use sgf_core::{Color, Point};
use sgf_go::Stone;

use crate::diagram::{Diagram, Shape};
use crate::font::{self, font};
use crate::geometry::{Geometry, Notes, STONE_R};
use crate::options::{RenderOptions, Theme};

/// The colours of a theme.
pub(crate) struct Palette {
    pub background: &'static str,
    pub board: &'static str,
    pub line: &'static str,
    pub ink: &'static str,
    pub coord: &'static str,
    pub black: &'static str,
    pub black_stroke: Option<&'static str>,
    pub white: &'static str,
    pub white_stroke: &'static str,
    pub on_black: &'static str,
    pub on_white: &'static str,
    pub accent: &'static str,
    pub variation: &'static str,
    pub select: &'static str,
    pub halo: &'static str,
}

pub(crate) fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Light => Palette {
            background: "#dcb35c",
            board: "#dcb35c",
            line: "#2b2115",
            ink: "#1a1a1a",
            coord: "#3b2f1e",
            black: "#161616",
            black_stroke: None,
            white: "#f6f5f0",
            white_stroke: "#3a3a3a",
            on_black: "#ffffff",
            on_white: "#161616",
            accent: "#d0342c",
            variation: "#1d5fd1",
            select: "#2f7fff",
            halo: "#ffffff",
        },
        Theme::Dark => Palette {
            background: "#23262b",
            board: "#2f343b",
            line: "#8d96a3",
            ink: "#ececec",
            coord: "#aab2bd",
            black: "#08090b",
            black_stroke: Some("#737d8a"),
            white: "#e6e6e6",
            white_stroke: "#9aa0a8",
            on_black: "#f2f2f2",
            on_white: "#111111",
            accent: "#ff6b5e",
            variation: "#6aa8ff",
            select: "#4a90ff",
            halo: "#000000",
        },
    }
}

/// Fonts a browser should use for text outside the bundled ASCII glyphs.
const FONT_STACK: &str = "'Noto Sans CJK SC','Noto Sans CJK JP','Source Han Sans SC','WenQuanYi Micro Hei','Microsoft YaHei','PingFang SC','Hiragino Sans','Malgun Gothic',sans-serif";

/// A number with at most two decimals, without trailing zeros.
pub(crate) fn num(x: f64) -> String {
    let mut s = format!("{:.2}", x);
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" { "0".into() } else { s }
}

/// Escapes text for XML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            // Attributes are always written in double quotes, so `'` stays as it is.
            '"' => o.push_str("&quot;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// The characters whose glyphs a drawing uses, in order: ASCII ones (all
/// the bundled font has) as flags, as each letter of a million notes is
/// looked up.
#[derive(Default)]
struct Glyphs {
    ascii: u128,
    other: BTreeSet<char>,
}

impl Glyphs {
    fn insert(&mut self, c: char) {
        match u32::from(c) {
            n @ 0..128 => self.ascii |= 1 << n,
            _ => {
                self.other.insert(c);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.ascii == 0 && self.other.is_empty()
    }

    /// In the order of the characters.
    fn iter(&self) -> impl Iterator<Item = char> + '_ {
        (0..128u8)
            .filter(|&n| self.ascii & (1 << n) != 0)
            .map(char::from)
            .chain(self.other.iter().copied())
    }
}

/// How text is anchored horizontally.
#[derive(Clone, Copy, PartialEq)]
enum Anchor {
    Middle,
    Start,
}

struct Writer<W> {
    /// Where the drawing goes: a `String`, a stream, or nowhere (the pass
    /// that finds the glyphs to define first).
    body: W,
    glyphs: Glyphs,
    /// The prefix of ids, escaped.
    prefix: String,
    /// Drawing for a rasteriser without a text stack: no `<text>`.
    raster: bool,
    /// Only the glyphs used are wanted: text is not written (a figure of a
    /// long game has a hundred thousand lines of notes).
    measure: bool,
}

impl<W: std::fmt::Write> Writer<W> {
    /// Draws `s` centred vertically on `y`, horizontally per `anchor` at `x`.
    #[allow(clippy::too_many_arguments)]
    fn text(
        &mut self,
        s: &str,
        x: f64,
        y: f64,
        size: f64,
        fill: &str,
        class: &str,
        anchor: Anchor,
        pt: Option<Point>,
    ) {
        if self.measure {
            if let Some(f) = font()
                && f.covers(s)
            {
                for c in s.chars() {
                    if f.glyph(c).is_some_and(|g| !g.path.is_empty()) {
                        self.glyphs.insert(c);
                    }
                }
            }
            return;
        }
        let data = pt.map_or(String::new(), |p| format!(" data-pt=\"{p}\""));
        match font() {
            Some(f) if f.covers(s) => {
                let w = f.width(s) * size;
                let (lo, hi) = f.ink(s);
                let x0 = if anchor == Anchor::Middle {
                    x - w / 2.0
                } else {
                    x
                };
                let base = y + (lo + hi) / 2.0 * size;
                let scale = size / f.units_per_em;
                let _ = write!(
                    self.body,
                    "<g class=\"{class}\"{data} fill=\"{fill}\" transform=\"translate({} {}) scale({} {})\">",
                    num(x0),
                    num(base),
                    fmt_scale(scale),
                    fmt_scale(-scale)
                );
                let mut adv = 0.0;
                for c in s.chars() {
                    let Some(g) = f.glyph(c) else { continue };
                    if !g.path.is_empty() {
                        self.glyphs.insert(c);
                        // In pieces, not formatted: one per letter of a
                        // figure's million notes.
                        let _ = self.body.write_str("<use href=\"#");
                        let _ = self.body.write_str(&self.prefix);
                        let _ = match u8::try_from(c) {
                            Ok(b) => {
                                const HEX: &[u8; 16] = b"0123456789abcdef";
                                let h = [b'g', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]];
                                self.body
                                    .write_str(std::str::from_utf8(&h).unwrap_or_default())
                            }
                            Err(_) => write!(self.body, "g{:02x}", c as u32),
                        };
                        if adv > 0.0 {
                            let _ = write!(
                                self.body,
                                "\" x=\"{}\"/>",
                                Whole((adv * f.units_per_em).round())
                            );
                        } else {
                            let _ = self.body.write_str("\"/>");
                        }
                    }
                    adv += g.advance;
                }
                let _ = self.body.write_str("</g>\n");
            }
            _ if self.raster => {
                // No glyphs for this text without a text stack: its outline box,
                // so the picture still shows that a label is there.
                let w = font::estimate_width(s) * size;
                let x0 = if anchor == Anchor::Middle {
                    x - w / 2.0
                } else {
                    x
                };
                let _ = writeln!(
                    self.body,
                    "<rect class=\"{class} no-glyphs\"{data} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{}\"/>",
                    num(x0),
                    num(y - 0.45 * size),
                    num(w),
                    num(0.9 * size),
                    num(0.12 * size),
                    num(0.08 * size)
                );
            }
            _ => {
                let anchor = if anchor == Anchor::Middle {
                    "middle"
                } else {
                    "start"
                };
                let _ = writeln!(
                    self.body,
                    "<text class=\"{class}\"{data} x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" font-family=\"{}\" text-anchor=\"{anchor}\" dominant-baseline=\"central\" fill=\"{fill}\">{}</text>",
                    num(x),
                    num(y),
                    num(size),
                    esc(FONT_STACK),
                    esc(s)
                );
            }
        }
    }
}

/// A rounded number written as `{}` writes it, without the float
/// formatting where it is a whole number (one per letter of a figure's
/// million notes).
struct Whole(f64);

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        // Whole numbers below 2^53 are exact as integers; -0 keeps its sign.
        if x.fract() == 0.0 && x.abs() < 9.0e15 && !(x == 0.0 && x.is_sign_negative()) {
            write!(f, "{}", x as i64)
        } else {
            write!(f, "{x}")
        }
    }
}

fn fmt_scale(s: f64) -> String {
    let t = format!("{:.6}", s);
    let t = t.trim_end_matches('0').trim_end_matches('.').to_string();
    if t == "-0" { "0".into() } else { t }
}

/// Width of text in em, with the bundled font where it covers the text.
fn text_width(s: &str) -> f64 {
    match font() {
        Some(f) if f.covers(s) => f.width(s),
        _ => font::estimate_width(s),
    }
}

/// A font size that fits `s` into `max_w`, at most `max_size`, at least `min_size`.
fn fit(s: &str, max_size: f64, max_w: f64, min_size: f64) -> f64 {
    let w = text_width(s);
    if w <= 0.0 {
        return max_size;
    }
    (max_w / w).min(max_size).max(min_size)
}

/// Column and row coordinate labels.
fn coord_labels(d: &Diagram) -> (Vec<String>, Vec<String>) {
    let size = d.size;
    if size.cols <= 25 {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        (
            (0..size.cols)
                .map(|x| (letters[x as usize] as char).to_string())
                .collect(),
            (0..size.rows)
                .map(|y| (size.rows - y).to_string())
                .collect(),
        )
    } else {
        let l = |i: u8| (sgf_core::value::coord_letter(i) as char).to_string();
        (
            (0..size.cols).map(l).collect(),
            (0..size.rows).map(l).collect(),
        )
    }
}

/// Draws `d` as SVG. `raster` leaves out `<text>` (for resvg without a text stack).
pub(crate) fn write(d: &Diagram, opts: &RenderOptions, raster: bool) -> String {
    write_with_notes(d, &d.notes, opts, raster)
}

/// [`write`] with `notes` under the board in place of `d.notes`.
pub(crate) fn write_with_notes(
    d: &Diagram,
    notes: &dyn Notes,
    opts: &RenderOptions,
    raster: bool,
) -> String {
    let g = Geometry::with_notes(d, notes, opts.coordinates);
    // One pass: the body is drawn first, as the glyphs it uses are defined before it.
    let (body, glyphs, _) = body(d, notes, &g, opts, raster, String::new(), false);
    let mut out = String::with_capacity(body.len() + 4096);
    let _ = head(d, &g, opts, &glyphs, &mut out);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// [`write_with_notes`] into `out` as it is drawn, holding nothing of the
/// drawing: the body is gone through twice, first only to find the glyphs
/// it uses and the number of lines of notes (which set the height).
pub(crate) fn write_to(
    d: &Diagram,
    notes: &dyn Notes,
    opts: &RenderOptions,
    raster: bool,
    out: &mut impl std::fmt::Write,
) -> std::fmt::Result {
    // The width, all that the first pass needs, does not depend on the notes.
    let g = Geometry::with_note_lines(d, opts.coordinates, 0);
    let (_, glyphs, lines) = body(d, notes, &g, opts, raster, Discard, true);
    let g = Geometry::with_note_lines(d, opts.coordinates, lines);
    head(d, &g, opts, &glyphs, out)?;
    body(d, notes, &g, opts, raster, &mut *out, false);
    out.write_str("</svg>\n")
}

/// A drawing target that keeps nothing.
struct Discard;

impl std::fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> std::fmt::Result {
        Ok(())
    }
}

/// The opening `<svg>` element and the definitions of `glyphs`.
fn head(
    d: &Diagram,
    g: &Geometry,
    opts: &RenderOptions,
    glyphs: &Glyphs,
    out: &mut impl std::fmt::Write,
) -> std::fmt::Result {
    let v = d.drawn_view();
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qipu-diagram\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" data-cols=\"{}\" data-rows=\"{}\" data-x0=\"{}\" data-y0=\"{}\" data-x1=\"{}\" data-y1=\"{}\" data-cell=\"{}\" data-origin-x=\"{}\" data-origin-y=\"{}\">",
        num(g.width),
        num(g.height),
        num(g.width),
        num(g.height),
        d.size.cols,
        d.size.rows,
        v.x0,
        v.y0,
        v.x1,
        v.y1,
        num(g.cell),
        num(g.origin_x),
        num(g.origin_y)
    )?;
    if let Some(f) = font()
        && !glyphs.is_empty()
    {
        out.write_str("<defs>\n")?;
        for ch in glyphs.iter() {
            if let Some(gl) = f.glyph(ch) {
                writeln!(
                    out,
                    "<path id=\"{}g{:02x}\" d=\"{}\"/>",
                    esc(&opts.id_prefix),
                    ch as u32,
                    gl.path
                )?;
            }
        }
        out.write_str("</defs>\n")?;
    }
    Ok(())
}

/// Draws the body of `d` laid out as `g` (all but [`head`] and the closing
/// tag) with `notes` under the board, into `body`; returns it, the glyphs
/// it uses and the number of lines of notes. `measure` only finds those:
/// its text is not written.
fn body<W: std::fmt::Write>(
    d: &Diagram,
    notes: &dyn Notes,
    g: &Geometry,
    opts: &RenderOptions,
    raster: bool,
    body: W,
    measure: bool,
) -> (W, Glyphs, usize) {
    let pal = palette(opts.theme);
    let c = g.cell;
    let mut w = Writer {
        body,
        glyphs: Glyphs::default(),
        prefix: esc(&opts.id_prefix),
        raster,
        measure,
    };
    let v = d.drawn_view();
    let contrast = |p: Point| match d.stone(p) {
        Stone::Black => pal.on_black,
        Stone::White => pal.on_white,
        Stone::Empty => pal.ink,
    };
    let _ = writeln!(
        w.body,
        "<rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        num(g.width),
        num(g.height),
        pal.background
    );
    // The board: the drawn region plus half a cell around it.
    let (left, top) = g.center(Point::new(v.x0, v.y0));
    let (right, bottom) = g.center(Point::new(v.x1, v.y1));
    let pad = if opts.coordinates {
        0.6 * c
    } else {
        0.6 * c - 1.0
    };
    if pal.board != pal.background {
        let _ = writeln!(
            w.body,
            "<rect class=\"board\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            num(left - pad),
            num(top - pad),
            num(right - left + 2.0 * pad),
            num(bottom - top + 2.0 * pad),
            pal.board
        );
    }
    // Grid: one segment per run of drawn points along each line. A run goes
    // on half a cell toward a neighbour on the board that is not drawn (past
    // the edge of a partial view, into points a VW hides), and stops at the
    // board's edge, which is drawn thicker.
    let mut thin = String::new();
    let mut thick = String::new();
    let (cols, rows) = (d.size.cols, d.size.rows);
    for y in v.y0..=v.y1 {
        let edge = (y == 0 || y + 1 == rows) && rows > 1;
        for (start, end) in runs(v.x0, v.x1, |x| d.visible(Point::new(x, y))) {
            let (x1, cy) = g.center(Point::new(start, y));
            let (x2, _) = g.center(Point::new(end, y));
            let a = if start > 0 { x1 - 0.5 * c } else { x1 };
            let b = if end + 1 < cols { x2 + 0.5 * c } else { x2 };
            if b > a {
                let dst = if edge { &mut thick } else { &mut thin };
                let _ = write!(dst, "M{} {}H{}", num(a), num(cy), num(b));
            }
        }
    }
    for x in v.x0..=v.x1 {
        let edge = (x == 0 || x + 1 == cols) && cols > 1;
        for (start, end) in runs(v.y0, v.y1, |y| d.visible(Point::new(x, y))) {
            let (cx, y1) = g.center(Point::new(x, start));
            let (_, y2) = g.center(Point::new(x, end));
            let a = if start > 0 { y1 - 0.5 * c } else { y1 };
            let b = if end + 1 < rows { y2 + 0.5 * c } else { y2 };
            if b > a {
                let dst = if edge { &mut thick } else { &mut thin };
                let _ = write!(dst, "M{} {}V{}", num(cx), num(a), num(b));
            }
        }
    }
    let _ = writeln!(
        w.body,
        "<g class=\"grid\" stroke=\"{}\" fill=\"none\" stroke-linecap=\"square\"><path stroke-width=\"{}\" d=\"{thin}\"/><path stroke-width=\"{}\" d=\"{thick}\"/></g>",
        pal.line,
        num(c * 0.03),
        num(c * 0.06)
    );
    let in_view = |p: &Point| v.contains(*p);
    let points: Vec<Point> = (v.y0..=v.y1)
        .flat_map(|y| (v.x0..=v.x1).map(move |x| Point::new(x, y)))
        .collect();
    for p in d.hoshi.iter().filter(|p| in_view(p) && d.visible(**p)) {
        // A star point under a stone or markup would read as part of it.
        if d.stone(*p) != Stone::Empty
            || d.has_markup(*p)
            || d.variations.iter().any(|(q, _)| q == p)
            || d.territory.iter().any(|(q, _)| q == p)
        {
            continue;
        }
        let (x, y) = g.center(*p);
        let _ = writeln!(
            w.body,
            "<circle class=\"star\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
            num(x),
            num(y),
            num(c * 0.1),
            pal.line
        );
    }
    // Stones.
    for p in points.iter().filter(|p| d.visible(**p)) {
        let (x, y) = g.center(*p);
        match d.stone(*p) {
            Stone::Black => {
                let stroke = pal.black_stroke.map_or(String::new(), |s| {
                    format!(" stroke=\"{s}\" stroke-width=\"{}\"", num(c * 0.03))
                });
                let _ = writeln!(
                    w.body,
                    "<circle class=\"stone black\" data-pt=\"{p}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{stroke}/>",
                    num(x),
                    num(y),
                    num(c * STONE_R),
                    pal.black
                );
            }
            Stone::White => {
                let _ = writeln!(
                    w.body,
                    "<circle class=\"stone white\" data-pt=\"{p}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    num(x),
                    num(y),
                    num(c * (STONE_R - 0.015)),
                    pal.white,
                    pal.white_stroke,
                    num(c * 0.03)
                );
            }
            Stone::Empty => {}
        }
    }
    // Dimmed points (DD): a veil of the board colour.
    for p in points.iter().filter(|p| d.visible(**p) && d.is_dimmed(**p)) {
        let (x, y) = g.center(*p);
        let _ = writeln!(
            w.body,
            "<rect class=\"dim\" data-pt=\"{p}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.62\"/>",
            num(x - c / 2.0),
            num(y - c / 2.0),
            num(c),
            num(c),
            pal.board
        );
    }
    // Territory: small squares of the owner's colour.
    for &(p, col) in d.territory.iter().filter(|(p, _)| d.visible(*p)) {
        let (x, y) = g.center(p);
        let (fill, stroke) = match col {
            Color::Black => (pal.black, pal.on_black),
            Color::White => (pal.white, pal.on_white),
        };
        let s = c * 0.34;
        let _ = writeln!(
            w.body,
            "<rect class=\"territory {}\" data-pt=\"{p}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            if col == Color::Black {
                "black"
            } else {
                "white"
            },
            num(x - s / 2.0),
            num(y - s / 2.0),
            num(s),
            num(s),
            num(c * 0.03)
        );
    }
    // Shapes, in the contrasting colour of what they stand on.
    let sw = num(c * 0.075);
    for &(p, shape) in d.shapes.iter().filter(|(p, _)| d.visible(*p)) {
        // A label on the same point wins: both together cannot be read.
        if shape != Shape::Selected && d.labels.iter().any(|(q, _)| *q == p) {
            continue;
        }
        let (x, y) = g.center(p);
        let col = contrast(p);
        let data = format!("data-pt=\"{p}\"");
        let _ = match shape {
            Shape::Triangle => {
                let r = c * 0.3;
                let h = r * 0.866;
                writeln!(
                    w.body,
                    "<path class=\"mark tr\" {data} d=\"M{} {}L{} {}L{} {}Z\" fill=\"none\" stroke=\"{col}\" stroke-width=\"{sw}\" stroke-linejoin=\"round\"/>",
                    num(x),
                    num(y - r),
                    num(x + h),
                    num(y + r / 2.0),
                    num(x - h),
                    num(y + r / 2.0)
                )
            }
            Shape::Circle => writeln!(
                w.body,
                "<circle class=\"mark cr\" {data} cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"{sw}\"/>",
                num(x),
                num(y),
                num(c * 0.24)
            ),
            Shape::Square => {
                let s = c * 0.4;
                writeln!(
                    w.body,
                    "<rect class=\"mark sq\" {data} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"{sw}\"/>",
                    num(x - s / 2.0),
                    num(y - s / 2.0),
                    num(s),
                    num(s)
                )
            }
            Shape::Cross => {
                let s = c * 0.2;
                writeln!(
                    w.body,
                    "<path class=\"mark ma\" {data} d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{col}\" stroke-width=\"{sw}\" stroke-linecap=\"round\"/>",
                    num(x - s),
                    num(y - s),
                    num(x + s),
                    num(y + s),
                    num(x + s),
                    num(y - s),
                    num(x - s),
                    num(y + s)
                )
            }
            Shape::Selected => {
                let s = c * 0.86;
                writeln!(
                    w.body,
                    "<rect class=\"mark sl\" {data} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" fill-opacity=\"0.42\"/>",
                    num(x - s / 2.0),
                    num(y - s / 2.0),
                    num(s),
                    num(s),
                    num(c * 0.12),
                    pal.select
                )
            }
        };
    }
    // Move numbers on stones (not under a shape or a label).
    for p in points.iter().filter(|p| d.visible(**p)) {
        let n = d.number(*p);
        if n == 0 || d.has_markup(*p) {
            continue;
        }
        let s = n.to_string();
        let size = fit(&s, c * 0.52, c * 0.8, c * 0.3);
        let fill = if d.last_move == Some(*p) {
            pal.accent
        } else {
            contrast(*p)
        };
        let (x, y) = g.center(*p);
        w.text(&s, x, y, size, fill, "number", Anchor::Middle, Some(*p));
    }
    // Labels: the grid is cleared under labels on empty points so they read.
    for (p, text) in d.labels.iter().filter(|(p, _)| d.visible(*p)) {
        let (x, y) = g.center(*p);
        let size = fit(text, c * 0.58, c * 0.86, c * 0.3);
        if d.stone(*p) == Stone::Empty {
            let tw = (text_width(text) * size + c * 0.16).max(c * 0.62);
            let _ = writeln!(
                w.body,
                "<rect class=\"label-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                num(x - tw / 2.0),
                num(y - c * 0.34),
                num(tw),
                num(c * 0.68),
                pal.board
            );
        }
        w.text(
            text,
            x,
            y,
            size,
            contrast(*p),
            "label",
            Anchor::Middle,
            Some(*p),
        );
    }
    // Variation markers.
    for (p, letter) in d.variations.iter().filter(|(p, _)| d.visible(*p)) {
        let (x, y) = g.center(*p);
        if d.stone(*p) == Stone::Empty {
            let _ = writeln!(
                w.body,
                "<circle class=\"variation-bg\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                num(x),
                num(y),
                num(c * 0.36),
                pal.board
            );
        }
        let size = fit(letter, c * 0.52, c * 0.8, c * 0.3);
        let fill = if d.stone(*p) == Stone::Empty {
            pal.variation
        } else {
            contrast(*p)
        };
        w.text(
            letter,
            x,
            y,
            size,
            fill,
            "variation",
            Anchor::Middle,
            Some(*p),
        );
    }
    // The last move, when nothing else is on it.
    if let Some(p) = d.last_move
        && d.visible(p)
        && d.number(p) == 0
        && !d.has_markup(p)
    {
        let (x, y) = g.center(p);
        let _ = writeln!(
            w.body,
            "<circle class=\"last-move\" data-pt=\"{p}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
            num(x),
            num(y),
            num(c * 0.17),
            pal.accent
        );
    }
    // Lines and arrows on top, with a halo so they read across stones.
    let lw = c * 0.08;
    for (is_arrow, list) in [(false, &d.lines), (true, &d.arrows)] {
        for &(a, b) in list {
            if !(in_view(&a) && in_view(&b)) {
                continue;
            }
            let (x1, y1) = g.center(a);
            let (x2, y2) = g.center(b);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            let head = c * 0.36;
            let (ex, ey) = if is_arrow {
                (x2 - ux * head * 0.8, y2 - uy * head * 0.8)
            } else {
                (x2, y2)
            };
            let class = if is_arrow { "arrow" } else { "line" };
            let mut path = format!("M{} {}L{} {}", num(x1), num(y1), num(ex), num(ey));
            let mut tip = String::new();
            if is_arrow {
                let (bx, by) = (x2 - ux * head, y2 - uy * head);
                let (nx, ny) = (-uy * c * 0.17, ux * c * 0.17);
                tip = format!(
                    "M{} {}L{} {}L{} {}Z",
                    num(x2),
                    num(y2),
                    num(bx + nx),
                    num(by + ny),
                    num(bx - nx),
                    num(by - ny)
                );
                path.push_str(&tip);
            }
            let _ = write!(
                w.body,
                "<g class=\"{class}\" data-from=\"{a}\" data-to=\"{b}\"><path d=\"{path}\" fill=\"{}\" stroke=\"{}\" stroke-opacity=\"0.55\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/><path d=\"M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                if is_arrow { pal.halo } else { "none" },
                pal.halo,
                num(lw * 2.2),
                num(x1),
                num(y1),
                num(ex),
                num(ey),
                pal.ink,
                num(lw)
            );
            if is_arrow {
                let _ = write!(w.body, "<path d=\"{tip}\" fill=\"{}\"/>", pal.ink);
            }
            let _ = w.body.write_str("</g>\n");
        }
    }
    // Coordinates.
    if opts.coordinates {
        let (cols, rows) = coord_labels(d);
        let size = c * 0.42;
        let off = c * 0.92;
        for x in v.x0..=v.x1 {
            let (cx, _) = g.center(Point::new(x, v.y0));
            let s = cols.get(x as usize).map_or("", String::as_str);
            w.text(
                s,
                cx,
                top - off,
                size,
                pal.coord,
                "coord",
                Anchor::Middle,
                None,
            );
            w.text(
                s,
                cx,
                bottom + off,
                size,
                pal.coord,
                "coord",
                Anchor::Middle,
                None,
            );
        }
        for y in v.y0..=v.y1 {
            let (_, cy) = g.center(Point::new(v.x0, y));
            let s = rows.get(y as usize).map_or("", String::as_str);
            let size = fit(s, size, c * 0.75, c * 0.25);
            w.text(
                s,
                left - off,
                cy,
                size,
                pal.coord,
                "coord",
                Anchor::Middle,
                None,
            );
            w.text(
                s,
                right + off,
                cy,
                size,
                pal.coord,
                "coord",
                Anchor::Middle,
                None,
            );
        }
    }
    if let Some(t) = &d.title {
        let size = fit(t, c * 0.55, g.width - c * 0.6, c * 0.25);
        w.text(
            t,
            g.width / 2.0,
            g.title_height * 0.55,
            size,
            pal.ink,
            "title",
            Anchor::Middle,
            None,
        );
    }
    if let Some(st) = d.status {
        let y = g.status_top + 0.5 * c;
        let icon = c * 0.26;
        let x0 = c * 0.35;
        let (fill, stroke) = match st.to_play {
            Color::Black => (pal.black, pal.black_stroke.unwrap_or(pal.black)),
            Color::White => (pal.white, pal.white_stroke),
        };
        let _ = writeln!(
            w.body,
            "<circle class=\"to-play {}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            if st.to_play == Color::Black {
                "black"
            } else {
                "white"
            },
            num(x0 + icon),
            num(y),
            num(icon),
            num(c * 0.03)
        );
        let text = format!(
            "{} to play   move {}   captures: B {}  W {}",
            if st.to_play == Color::Black {
                "Black"
            } else {
                "White"
            },
            st.move_number,
            st.captures[0],
            st.captures[1]
        );
        let tx = x0 + 2.0 * icon + c * 0.2;
        let size = fit(&text, c * 0.45, g.width - tx - c * 0.3, c * 0.12);
        w.text(&text, tx, y, size, pal.coord, "status", Anchor::Start, None);
    }
    let note_size = g.note_size();
    let mut i = 0;
    crate::geometry::note_lines(notes, d.size, g.note_width(), note_size, |line| {
        let y = g.notes_top + c * (0.2 + crate::geometry::NOTE_LINE * (i as f64 + 0.5));
        w.text(
            line,
            c * 0.3,
            y,
            note_size,
            pal.ink,
            "note",
            Anchor::Start,
            None,
        );
        i += 1;
    });
    (w.body, w.glyphs, i)
}

/// The runs `(first, last)` of consecutive indices in `lo..=hi` where `on` holds.
fn runs(lo: u8, hi: u8, on: impl Fn(u8) -> bool) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut start = None;
    for i in lo..=hi {
        match (on(i), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i - 1));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, hi));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(40.0), "40");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(esc("a<b&\"c\""), "a&lt;b&amp;&quot;c&quot;");
    }
}
