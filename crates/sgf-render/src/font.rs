//! The vendored ASCII subset of DejaVu Sans Bold, turned into SVG path data.
//!
//! Text drawn from these outlines looks the same in every browser and in PNG
//! output, and resvg needs no text stack. Characters outside the subset are
//! left to the caller (an SVG `<text>` with a font stack).

use std::fmt::Write as _;
use std::sync::OnceLock;

use ttf_parser::{Face, GlyphId, OutlineBuilder};

static FONT_DATA: &[u8] = include_bytes!("../assets/DejaVuSans-Bold-ascii.ttf");

/// One glyph: its outline in font units (y up) and its advance.
#[derive(Clone, Debug)]
pub(crate) struct Glyph {
    /// SVG path data, empty for a space.
    pub path: String,
    /// Advance width in em.
    pub advance: f64,
    /// Lowest and highest ink, in em (0 for a space).
    pub y_min: f64,
    pub y_max: f64,
}

/// The font: the printable ASCII glyphs.
pub(crate) struct Font {
    /// Font units per em.
    pub units_per_em: f64,
    glyphs: Vec<Option<Glyph>>,
}

struct PathData(String);

impl OutlineBuilder for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{} {}", x.round(), y.round());
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{} {}", x.round(), y.round());
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "Q{} {} {} {}",
            x1.round(),
            y1.round(),
            x.round(),
            y.round()
        );
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "C{} {} {} {} {} {}",
            x1.round(),
            y1.round(),
            x2.round(),
            y2.round(),
            x.round(),
            y.round()
        );
    }
    fn close(&mut self) {
        self.0.push('Z');
    }
}

impl Font {
    fn load() -> Option<Font> {
        let face = Face::parse(FONT_DATA, 0).ok()?;
        let upem = f64::from(face.units_per_em());
        let glyphs = (0x20u8..0x7f)
            .map(|b| {
                let id: GlyphId = face.glyph_index(b as char)?;
                let advance = f64::from(face.glyph_hor_advance(id)?) / upem;
                let mut pd = PathData(String::new());
                let bbox = face.outline_glyph(id, &mut pd);
                let (y_min, y_max) = bbox.map_or((0.0, 0.0), |r| {
                    (f64::from(r.y_min) / upem, f64::from(r.y_max) / upem)
                });
                Some(Glyph {
                    path: pd.0,
                    advance,
                    y_min,
                    y_max,
                })
            })
            .collect();
        Some(Font {
            units_per_em: upem,
            glyphs,
        })
    }

    /// The glyph of a character, if the subset has it.
    pub fn glyph(&self, c: char) -> Option<&Glyph> {
        let b = u32::from(c);
        if !(0x20..0x7f).contains(&b) {
            return None;
        }
        self.glyphs[(b - 0x20) as usize].as_ref()
    }

    /// Whether every character of `s` has a glyph.
    pub fn covers(&self, s: &str) -> bool {
        s.chars().all(|c| self.glyph(c).is_some())
    }

    /// Width of a covered string, in em.
    pub fn width(&self, s: &str) -> f64 {
        s.chars()
            .map(|c| self.glyph(c).map_or(0.6, |g| g.advance))
            .sum()
    }

    /// The vertical extent of the ink of a string, in em (y up).
    pub fn ink(&self, s: &str) -> (f64, f64) {
        let mut lo = f64::MAX;
        let mut hi = f64::MIN;
        for g in s.chars().filter_map(|c| self.glyph(c)) {
            if g.path.is_empty() {
                continue;
            }
            lo = lo.min(g.y_min);
            hi = hi.max(g.y_max);
        }
        if lo > hi { (0.0, 0.73) } else { (lo, hi) }
    }
}

/// The font, parsed once. `None` only if the vendored file were damaged.
pub(crate) fn font() -> Option<&'static Font> {
    static FONT: OnceLock<Option<Font>> = OnceLock::new();
    FONT.get_or_init(Font::load).as_ref()
}

/// An estimate of the width of text in em for characters outside the font:
/// wide (CJK) characters take a full em.
pub(crate) fn estimate_width(s: &str) -> f64 {
    s.chars().map(char_width).sum()
}

/// The width [`estimate_width`] gives one character, in em.
pub(crate) fn char_width(c: char) -> f64 {
    if let Some(g) = font().and_then(|f| f.glyph(c)) {
        g.advance
    } else if is_wide(c) {
        1.0
    } else {
        0.6
    }
}

/// East Asian wide characters (CJK ideographs, kana, hangul, full-width forms).
pub(crate) fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_has_printable_ascii() {
        let f = font().expect("the vendored font parses");
        assert!(f.covers("ABC xyz 0123456789 !?+-"));
        assert!(!f.covers("黑"));
        assert!(f.glyph('8').unwrap().path.starts_with('M'));
        assert!(f.glyph(' ').unwrap().path.is_empty());
        let (lo, hi) = f.ink("10");
        assert!(lo.abs() < 0.05 && (0.6..0.8).contains(&hi), "{lo} {hi}");
        assert!(f.width("10") > 1.0);
        assert_eq!(estimate_width("甲乙"), 2.0);
    }
}
