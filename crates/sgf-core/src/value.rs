//! Typed values: Number, Real, Double, Color and the letter-pair points
//! used by Go (`a`–`z` = 1–26, `A`–`Z` = 27–52).
//!
//! Parsing is strict (FF\[4\] syntax, surrounding white space allowed); the
//! checker reports and repairs what these functions reject.

use std::fmt;

/// A colour: black or white.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black (`B`).
    Black,
    /// White (`W`).
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// `B` or `W`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }
}

/// A board point, 0-based: `x` is the column from the left, `y` the row from the top.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column (0 = `a`).
    pub x: u8,
    /// Row (0 = `a`).
    pub y: u8,
}

impl Point {
    /// A point.
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
    /// The two SGF letters.
    pub fn to_sgf(self) -> [u8; 2] {
        [coord_letter(self.x), coord_letter(self.y)]
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.to_sgf();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// The letter for a 0-based coordinate (0–25 → `a`–`z`, 26–51 → `A`–`Z`).
pub fn coord_letter(c: u8) -> u8 {
    if c < 26 { b'a' + c } else { b'A' + (c - 26) }
}

/// The 0-based coordinate of a letter.
pub fn coord_of(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b - b'a'),
        b'A'..=b'Z' => Some(b - b'A' + 26),
        _ => None,
    }
}

fn trim(raw: &[u8]) -> &[u8] {
    let s = raw
        .iter()
        .position(|b| !crate::lexer::is_ws(*b))
        .unwrap_or(raw.len());
    let e = raw
        .iter()
        .rposition(|b| !crate::lexer::is_ws(*b))
        .map_or(s, |e| e + 1);
    &raw[s..e]
}

/// Number: `[+-]digits`.
pub fn parse_number(raw: &[u8]) -> Option<i64> {
    let t = trim(raw);
    let digits = t
        .strip_prefix(b"+")
        .or_else(|| t.strip_prefix(b"-"))
        .unwrap_or(t);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(t)
        .ok()?
        .trim_start_matches('+')
        .parse()
        .ok()
}

/// Real: Number with an optional `.digits` fraction.
pub fn parse_real(raw: &[u8]) -> Option<f64> {
    let t = trim(raw);
    let body = t
        .strip_prefix(b"+")
        .or_else(|| t.strip_prefix(b"-"))
        .unwrap_or(t);
    let (int, frac) = match body.iter().position(|&b| b == b'.') {
        Some(p) => (&body[..p], Some(&body[p + 1..])),
        None => (body, None),
    };
    if int.is_empty() || !int.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if let Some(f) = frac
        && (f.is_empty() || !f.iter().all(u8::is_ascii_digit))
    {
        return None;
    }
    std::str::from_utf8(t)
        .ok()?
        .trim_start_matches('+')
        .parse()
        .ok()
}

/// Double: `1` or `2`.
pub fn parse_double(raw: &[u8]) -> Option<u8> {
    match trim(raw) {
        b"1" => Some(1),
        b"2" => Some(2),
        _ => None,
    }
}

/// Color: `B` or `W`.
pub fn parse_color(raw: &[u8]) -> Option<Color> {
    match trim(raw) {
        b"B" => Some(Color::Black),
        b"W" => Some(Color::White),
        _ => None,
    }
}

/// A point written as two letters.
pub fn parse_point(raw: &[u8]) -> Option<Point> {
    match raw {
        [a, b] => Some(Point::new(coord_of(*a)?, coord_of(*b)?)),
        _ => {
            let t = trim(raw);
            if t.len() == 2 && t.len() != raw.len() {
                parse_point(t)
            } else {
                None
            }
        }
    }
}

/// A compressed rectangle `ul:lr` or a single point (1×1).
pub fn parse_rect(raw: &[u8]) -> Option<(Point, Point)> {
    match raw.iter().position(|&b| b == b':') {
        Some(c) => Some((parse_point(&raw[..c])?, parse_point(&raw[c + 1..])?)),
        None => parse_point(raw).map(|p| (p, p)),
    }
}

/// The points of a rectangle, row by row. Reversed corners are normalised.
pub fn rect_points(a: Point, b: Point) -> impl Iterator<Item = Point> {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Point::new(x, y)))
}

/// Compresses a set of points into rectangles (greedy, row-major), as
/// `AB[aa:cc]` lists are written. The result covers exactly the input set.
pub fn compress_points(points: &[Point]) -> Vec<(Point, Point)> {
    use std::collections::BTreeSet;
    let mut left: BTreeSet<(u8, u8)> = points.iter().map(|p| (p.y, p.x)).collect();
    let mut out = Vec::new();
    while let Some(&(y, x)) = left.iter().next() {
        // Widest run on this row, then extend down while the whole run is present.
        let mut x1 = x;
        while x1 < 51 && left.contains(&(y, x1 + 1)) {
            x1 += 1;
        }
        let mut y1 = y;
        'down: while y1 < 51 {
            for xx in x..=x1 {
                if !left.contains(&(y1 + 1, xx)) {
                    break 'down;
                }
            }
            y1 += 1;
        }
        for yy in y..=y1 {
            for xx in x..=x1 {
                left.remove(&(yy, xx));
            }
        }
        out.push((Point::new(x, y), Point::new(x1, y1)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number(b"12"), Some(12));
        assert_eq!(parse_number(b"+3"), Some(3));
        assert_eq!(parse_number(b"-3"), Some(-3));
        assert_eq!(parse_number(b" 7 "), Some(7));
        assert_eq!(parse_number(b"3.0"), None);
        assert_eq!(parse_number(b""), None);
        assert_eq!(parse_real(b"6.5"), Some(6.5));
        assert_eq!(parse_real(b"-0.5"), Some(-0.5));
        assert_eq!(parse_real(b"7"), Some(7.0));
        assert_eq!(parse_real(b"6."), None);
        assert_eq!(parse_real(b".5"), None);
        assert_eq!(parse_real(b"6,5"), None);
        assert_eq!(parse_double(b"2"), Some(2));
        assert_eq!(parse_double(b"3"), None);
        assert_eq!(parse_color(b"W"), Some(Color::White));
        assert_eq!(parse_color(b"w"), None);
    }

    #[test]
    fn points() {
        assert_eq!(parse_point(b"aa"), Some(Point::new(0, 0)));
        assert_eq!(parse_point(b"sZ"), Some(Point::new(18, 51)));
        assert_eq!(parse_point(b"a"), None);
        assert_eq!(parse_point(b"a1"), None);
        assert_eq!(Point::new(26, 3).to_string(), "Ad");
        assert_eq!(
            parse_rect(b"aa:cc"),
            Some((Point::new(0, 0), Point::new(2, 2)))
        );
        assert_eq!(rect_points(Point::new(0, 0), Point::new(2, 1)).count(), 6);
    }

    #[test]
    fn compression_covers_exactly() {
        let pts: Vec<Point> = rect_points(Point::new(0, 0), Point::new(2, 2))
            .chain([Point::new(5, 5), Point::new(6, 5)])
            .collect();
        let rects = compress_points(&pts);
        assert_eq!(rects.len(), 2);
        let mut back: Vec<Point> = rects.iter().flat_map(|&(a, b)| rect_points(a, b)).collect();
        back.sort();
        let mut want = pts.clone();
        want.sort();
        assert_eq!(back, want);
    }
}
