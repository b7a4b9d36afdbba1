//! Go points and moves: board sizes up to 52×52, square or rectangular,
//! passes as `[]` (and `[tt]` on boards up to 19×19), compressed point lists.

use std::fmt;

use sgf_core::{Node, Point, Span, Value};

/// Largest board side for Go in SGF (`a`–`z`, `A`–`Z`).
pub const MAX_SIZE: u8 = 52;

/// A board size: columns × rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// Columns (width).
    pub cols: u8,
    /// Rows (height).
    pub rows: u8,
}

impl BoardSize {
    /// A square board.
    pub fn square(n: u8) -> BoardSize {
        BoardSize { cols: n, rows: n }
    }
    /// Whether the point is on the board.
    pub fn contains(self, p: Point) -> bool {
        p.x < self.cols && p.y < self.rows
    }
    /// Number of points.
    pub fn points(self) -> usize {
        self.cols as usize * self.rows as usize
    }
    /// Whether `[tt]` means a pass (boards up to 19×19).
    pub fn tt_is_pass(self) -> bool {
        self.cols <= 19 && self.rows <= 19
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::square(19)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cols == self.rows {
            write!(f, "{}", self.cols)
        } else {
            write!(f, "{}x{}", self.cols, self.rows)
        }
    }
}

/// Why a size could not be read as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeIssue {
    /// Not a number or `n:m`: the default 19×19 is used.
    Invalid,
    /// `SZ[n:n]`: a square board written as a rectangle.
    SquareComposed,
    /// Outside 1–52: clamped.
    OutOfRange,
    /// A dimension below 1 (`SZ[0]`, `SZ[19:0]`): the default 19×19 is
    /// used (`sgf-core` reports it for every game, `V029`).
    NoPoint,
}

/// Reads `SZ` from a root node: the size used and what was wrong with it.
pub fn board_size(root: &Node<'_>) -> (BoardSize, Option<(SizeIssue, Span)>) {
    let Some(v) = root.value("SZ") else {
        return (BoardSize::default(), None);
    };
    parse_size(v.raw(), v.span())
}

/// Reads a raw `SZ` value.
pub fn parse_size(raw: &[u8], span: Span) -> (BoardSize, Option<(SizeIssue, Span)>) {
    let num = |b: &[u8]| sgf_core::value::parse_number(b);
    let (c, r) = match raw.iter().position(|&b| b == b':') {
        Some(i) => (num(&raw[..i]), num(&raw[i + 1..])),
        None => {
            let n = num(raw);
            (n, n)
        }
    };
    let (Some(c), Some(r)) = (c, r) else {
        return (BoardSize::default(), Some((SizeIssue::Invalid, span)));
    };
    if c < 1 || r < 1 {
        return (BoardSize::default(), Some((SizeIssue::NoPoint, span)));
    }
    let clamp = |n: i64| n.clamp(1, MAX_SIZE as i64) as u8;
    let size = BoardSize {
        cols: clamp(c),
        rows: clamp(r),
    };
    if c < 1 || r < 1 || c > MAX_SIZE as i64 || r > MAX_SIZE as i64 {
        return (size, Some((SizeIssue::OutOfRange, span)));
    }
    if raw.contains(&b':') && c == r {
        return (size, Some((SizeIssue::SquareComposed, span)));
    }
    (size, None)
}

/// A move: a point or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A pass.
    Pass,
    /// A stone at a point.
    Play(Point),
}

impl Move {
    /// The point, if not a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Pass => None,
            Move::Play(p) => Some(p),
        }
    }
}

/// What was odd about a move or point value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoordIssue {
    /// Not two letters (or empty for a pass).
    Invalid,
    /// Off the board.
    OutsideBoard,
    /// `[tt]` pass (FF\[3\] style) on a board up to 19×19.
    TtPass,
    /// Upper-case letters on a board of 26 lines or less: read as lower case.
    Uppercase,
    /// `[ss]` on an 18×18 board, or `[tt]` on a larger one: some tools write a pass this way.
    AmbiguousPass,
}

/// A parsed move value, with what was odd about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    /// The move, `None` when unreadable or off the board.
    pub mv: Option<Move>,
    /// What was odd.
    pub issue: Option<CoordIssue>,
}

/// Reads a coordinate pair, accepting upper case on small boards (read as lower case).
fn letters(raw: &[u8], size: BoardSize) -> Result<(Point, Option<CoordIssue>), CoordIssue> {
    let t = trim(raw);
    if t.len() != 2 {
        return Err(CoordIssue::Invalid);
    }
    let big = size.cols > 26 || size.rows > 26;
    let mut issue = None;
    let mut coord = |b: u8| -> Result<u8, CoordIssue> {
        match b {
            b'a'..=b'z' => Ok(b - b'a'),
            b'A'..=b'Z' if big => Ok(b - b'A' + 26),
            b'A'..=b'Z' => {
                issue = Some(CoordIssue::Uppercase);
                Ok(b - b'A')
            }
            _ => Err(CoordIssue::Invalid),
        }
    };
    let x = coord(t[0])?;
    let y = coord(t[1])?;
    Ok((Point::new(x, y), issue))
}

fn trim(raw: &[u8]) -> &[u8] {
    let s = raw
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(raw.len());
    let e = raw
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(s, |e| e + 1);
    &raw[s..e]
}

/// Reads a move value (`B`/`W`) on a board of `size`.
#[inline]
pub fn parse_move(raw: &[u8], size: BoardSize) -> ParsedMove {
    // The common case, two lower-case letters on the board, without the
    // general path (`tt` may be a pass: that goes the long way).
    if let [a, b] = *raw {
        let (x, y) = (a.wrapping_sub(b'a'), b.wrapping_sub(b'a'));
        if x < size.cols.min(26) && y < size.rows.min(26) && (x, y) != (19, 19) {
            return ParsedMove {
                mv: Some(Move::Play(Point::new(x, y))),
                issue: None,
            };
        }
    }
    parse_move_slow(raw, size)
}

#[cold]
fn parse_move_slow(raw: &[u8], size: BoardSize) -> ParsedMove {
    let t = trim(raw);
    if t.is_empty() {
        return ParsedMove {
            mv: Some(Move::Pass),
            issue: None,
        };
    }
    if t == b"tt" && size.tt_is_pass() {
        return ParsedMove {
            mv: Some(Move::Pass),
            issue: Some(CoordIssue::TtPass),
        };
    }
    match letters(t, size) {
        Ok((p, issue)) => {
            if !size.contains(p) {
                // One past the last line: some tools write their pass this way.
                let pass_like = t[0] == t[1] && p.x == size.cols && p.y == size.rows;
                return ParsedMove {
                    mv: None,
                    issue: Some(if pass_like {
                        CoordIssue::AmbiguousPass
                    } else {
                        CoordIssue::OutsideBoard
                    }),
                };
            }
            let ambiguous = t == b"tt" && !size.tt_is_pass();
            ParsedMove {
                mv: Some(Move::Play(p)),
                issue: if ambiguous {
                    Some(CoordIssue::AmbiguousPass)
                } else {
                    issue
                },
            }
        }
        Err(e) => ParsedMove {
            mv: None,
            issue: Some(e),
        },
    }
}

/// Reads a single point (no pass) on a board of `size`.
pub fn parse_point(raw: &[u8], size: BoardSize) -> Result<(Point, Option<CoordIssue>), CoordIssue> {
    let (p, issue) = letters(raw, size)?;
    if size.contains(p) {
        Ok((p, issue))
    } else {
        Err(CoordIssue::OutsideBoard)
    }
}

/// One entry of a point list: the points it stands for and its problems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListEntry {
    /// The points (a rectangle expands to all of them; off-board points are dropped).
    pub points: Vec<Point>,
    /// What was odd.
    pub issue: Option<CoordIssue>,
    /// The corners were given lower-right first.
    pub reversed: bool,
    /// Span of the value.
    pub span: Span,
}

/// Expands a point list (`AB[aa][bb:cc]`, `TR`, `VW`, …) on a board of `size`,
/// one value at a time: a list of a million rectangles is not expanded
/// all at once.
pub fn point_list<'d>(
    values: impl Iterator<Item = Value<'d>>,
    size: BoardSize,
) -> impl Iterator<Item = ListEntry> {
    values.filter_map(move |v| list_entry(&v, size))
}

/// One value of a point list, expanded; `None` for `[]` (an empty elist).
fn list_entry(v: &Value<'_>, size: BoardSize) -> Option<ListEntry> {
    {
        let raw = v.raw();
        let span = v.span();
        let (a, b) = match raw.iter().position(|&c| c == b':') {
            Some(i) => (&raw[..i], Some(&raw[i + 1..])),
            None => (raw, None),
        };
        if b.is_none() && trim(a).is_empty() {
            // `[]`: an empty elist.
            return None;
        }
        let pa = letters(a, size);
        let pb = b.map(|b| letters(b, size));
        let entry = match (pa, pb) {
            (Ok((p, i1)), None) => {
                if size.contains(p) {
                    ListEntry {
                        points: vec![p],
                        issue: i1,
                        reversed: false,
                        span,
                    }
                } else {
                    ListEntry {
                        points: vec![],
                        issue: Some(CoordIssue::OutsideBoard),
                        reversed: false,
                        span,
                    }
                }
            }
            (Ok((p, i1)), Some(Ok((q, i2)))) => {
                let reversed = q.x < p.x || q.y < p.y;
                let all: Vec<Point> = sgf_core::value::rect_points(p, q).collect();
                let inside: Vec<Point> =
                    all.iter().copied().filter(|&x| size.contains(x)).collect();
                let issue = if inside.len() != all.len() {
                    Some(CoordIssue::OutsideBoard)
                } else {
                    i1.or(i2)
                };
                ListEntry {
                    points: inside,
                    issue,
                    reversed,
                    span,
                }
            }
            (Err(e), _) | (_, Some(Err(e))) => ListEntry {
                points: vec![],
                issue: Some(e),
                reversed: false,
                span,
            },
        };
        Some(entry)
    }
}

/// The points of a list property of a node, expanded, in order.
pub fn points_of(node: &Node<'_>, ident: &str, size: BoardSize) -> Vec<Point> {
    each_point(node, ident, size).collect()
}

/// [`points_of`] one at a time, without a list of them all (a list of
/// rectangles can give each point of the board thousands of times).
pub fn each_point<'d>(
    node: &Node<'d>,
    ident: &str,
    size: BoardSize,
) -> impl Iterator<Item = Point> + use<'d> {
    point_list(node.values(ident), size).flat_map(|e| e.points)
}

/// The two corners of an FF\[1\]–FF\[3\] `VW[ul][lr]` (upper left, lower
/// right), when `VW` has that form: exactly two single points on the board.
pub fn old_view_corners(node: &Node<'_>, size: BoardSize) -> Option<(Point, Point)> {
    let mut vals = node.values("VW");
    let (a, b) = (vals.next()?, vals.next()?);
    if vals.next().is_some() || a.raw().contains(&b':') || b.raw().contains(&b':') {
        return None;
    }
    let (Ok((pa, _)), Ok((pb, _))) = (parse_point(a.raw(), size), parse_point(b.raw(), size))
    else {
        return None;
    };
    (size.contains(pa) && size.contains(pb)).then_some((pa, pb))
}

/// The points `VW` shows in a file of format version `ff`: in FF\[4\] its
/// point list (each point once, however often the list gives it); before,
/// two points are the corners of the view.
pub fn view_points(node: &Node<'_>, size: BoardSize, ff: i64) -> Vec<Point> {
    if ff < 4
        && let Some((a, b)) = old_view_corners(node, size)
    {
        let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        return (y0..=y1)
            .flat_map(|y| (x0..=x1).map(move |x| Point::new(x, y)))
            .collect();
    }
    let mut once = std::collections::HashSet::new();
    each_point(node, "VW", size)
        .filter(|p| once.insert(*p))
        .collect()
}

/// Human coordinates: `Q16` (letters without I, rows from the bottom) on
/// boards up to 25 columns, the SGF letters otherwise.
pub fn human(p: Point, size: BoardSize) -> String {
    if size.cols <= 25 {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        format!(
            "{}{}",
            letters[p.x as usize] as char,
            size.rows as u32 - p.y as u32
        )
    } else {
        p.to_string()
    }
}

/// A piece of a comment: plain text, a point written in human
/// coordinates (`Q16`), or a web address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPiece<'a> {
    /// Text without a reference.
    Text(&'a str),
    /// A point of the board, as written.
    Point(&'a str, Point),
    /// An `http://` or `https://` address.
    Link(&'a str),
}

/// Splits a comment into text, points and web addresses, for a viewer to
/// make the references clickable. A point is an upper-case column letter
/// (no `I`) and a row number standing alone (`D4`, `Q16.`), read as
/// [`parse_human`] reads it on this board; an address runs to the next
/// white space, without a final `.`, `,`, `;`, `:`, `!`, `?` or `)`.
pub fn text_pieces(text: &str, size: BoardSize) -> Vec<TextPiece<'_>> {
    let mut out = Vec::new();
    let mut plain = 0;
    let mut i = 0;
    let b = text.as_bytes();
    let boundary = |k: usize| k >= b.len() || !b[k].is_ascii_alphanumeric();
    while i < b.len() {
        let at_word = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        let rest = &text[i..];
        if at_word && (rest.starts_with("http://") || rest.starts_with("https://")) {
            let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let url = rest[..len].trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
            if url.len() > "https://".len() {
                if plain < i {
                    out.push(TextPiece::Text(&text[plain..i]));
                }
                out.push(TextPiece::Link(url));
                i += url.len();
                plain = i;
                continue;
            }
        }
        if at_word && b[i].is_ascii_uppercase() {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let end = i + 1 + digits;
            if (1..=2).contains(&digits)
                && boundary(end)
                && let Some(p) = parse_human(&text[i..end], size)
            {
                if plain < i {
                    out.push(TextPiece::Text(&text[plain..i]));
                }
                out.push(TextPiece::Point(&text[i..end], p));
                i = end;
                plain = i;
                continue;
            }
        }
        i += 1;
        while i < b.len() && !text.is_char_boundary(i) {
            i += 1;
        }
    }
    if plain < b.len() {
        out.push(TextPiece::Text(&text[plain..]));
    }
    out
}

/// Reads human (GTP) coordinates, the inverse of [`human`]: a column
/// letter without `I` (either case) and a row number from the bottom, on
/// boards of up to 25 columns. `None` when not such a point of the board.
pub fn parse_human(s: &str, size: BoardSize) -> Option<Point> {
    let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let s = s.trim();
    let first = s.as_bytes().first()?.to_ascii_uppercase();
    let x = letters.iter().position(|&l| l == first)?;
    let digits = s.get(1..)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return None;
    }
    let row: u32 = digits.parse().ok()?;
    if size.cols > 25 || row == 0 || row > size.rows as u32 {
        return None;
    }
    let p = Point::new(x as u8, (size.rows as u32 - row) as u8);
    size.contains(p).then_some(p)
}

/// The GTP vertex of a point (`Q16`: a column letter without `I`, the row
/// counted from the bottom), as [`human`] writes it; `None` when GTP cannot
/// name it: off the board, or a board wider than 25 columns. The inverse is
/// [`parse_human`].
pub fn gtp_vertex(p: Point, size: BoardSize) -> Option<String> {
    (size.cols <= 25 && size.contains(p)).then(|| human(p, size))
}

/// A point in the `(row, col)` order of sgfmill and other libraries that
/// count rows from the bottom (row 0 is the bottom line, as in GTP); SGF
/// points count rows from the top. `None` off the board.
pub fn row_col_from_bottom(p: Point, size: BoardSize) -> Option<(u8, u8)> {
    size.contains(p).then(|| (size.rows - 1 - p.y, p.x))
}

/// The inverse of [`row_col_from_bottom`]: the point at `(row, col)` with
/// row 0 at the bottom, `None` off the board.
pub fn from_row_col_from_bottom(row: u8, col: u8, size: BoardSize) -> Option<Point> {
    (row < size.rows && col < size.cols).then(|| Point::new(col, size.rows - 1 - row))
}

/// The star points (hoshi) of a board: the usual nine on 19×19 and five on
/// 9×9 and 13×13, and sensible ones for other sizes and rectangles (lines 3
/// or 4 from each edge, the centre on odd sides, side stars only when both
/// sides are 15 or more). Row-major order.
pub fn star_points(size: BoardSize) -> Vec<Point> {
    fn lines(n: u8) -> Vec<u8> {
        if n < 7 {
            return if n % 2 == 1 && n >= 5 {
                vec![n / 2]
            } else {
                vec![]
            };
        }
        let edge = if n < 13 { 2 } else { 3 };
        let mut v = vec![edge, n - 1 - edge];
        if n % 2 == 1 && n >= 9 {
            v.insert(1, n / 2);
        }
        v
    }
    let xs = lines(size.cols);
    let ys = lines(size.rows);
    let mut out = Vec::new();
    for &y in &ys {
        for &x in &xs {
            // Side stars only on large boards (19×19 has nine, 13×13 and 9×9 five).
            let mid_x = size.cols % 2 == 1 && x == size.cols / 2;
            let mid_y = size.rows % 2 == 1 && y == size.rows / 2;
            if (mid_x || mid_y) && !(mid_x && mid_y) && size.cols.min(size.rows) < 15 {
                continue;
            }
            out.push(Point::new(x, y));
        }
    }
    out
}

/// The fixed handicap placement of GTP (`fixed_handicap`) and of the
/// usual rules: `n` stones (2 to 9) on the star points of a square board
/// of 7 lines or more, 3-3 points below 13 lines, 4-4 points from 13; the
/// sides and centre only on odd sizes from 9 lines, and at most 4 stones
/// otherwise. In GTP's order (D4, Q16, D16, Q4, then sides and centre).
/// `None` when the board or the number does not allow it.
pub fn handicap_points(size: BoardSize, n: u32) -> Option<Vec<Point>> {
    if size.cols != size.rows || size.cols < 7 || !(2..=9).contains(&n) {
        return None;
    }
    let s = size.cols;
    let odd_big = s % 2 == 1 && s >= 9;
    if n > 4 && !odd_big {
        return None;
    }
    let e = if s >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (e, s - 1 - e, s / 2);
    // As GTP lists them: (column, row from the top).
    let (d4, q16, d16, q4) = ((lo, hi), (hi, lo), (lo, lo), (hi, hi));
    let (d10, q10, k4, k16, k10) = ((lo, mid), (hi, mid), (mid, hi), (mid, lo), (mid, mid));
    let list: Vec<(u8, u8)> = match n {
        2 => vec![d4, q16],
        3 => vec![d4, q16, d16],
        4 => vec![d4, q16, d16, q4],
        5 => vec![d4, q16, d16, q4, k10],
        6 => vec![d4, q16, d16, q4, d10, q10],
        7 => vec![d4, q16, d16, q4, d10, q10, k10],
        8 => vec![d4, q16, d16, q4, d10, q10, k4, k16],
        _ => vec![d4, q16, d16, q4, d10, q10, k4, k16, k10],
    };
    Some(list.into_iter().map(|(x, y)| Point::new(x, y)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_and_bottom_left_order() {
        let s19 = BoardSize::square(19);
        // pd is the upper-right star point: Q16, sgfmill's (15, 15).
        let pd = Point::new(15, 3);
        assert_eq!(gtp_vertex(pd, s19).as_deref(), Some("Q16"));
        assert_eq!(parse_human("Q16", s19), Some(pd));
        // I is skipped: the ninth column is J.
        assert_eq!(gtp_vertex(Point::new(8, 18), s19).as_deref(), Some("J1"));
        assert_eq!(gtp_vertex(Point::new(19, 0), s19), None);
        assert_eq!(gtp_vertex(Point::new(0, 0), BoardSize::square(26)), None);
        assert_eq!(row_col_from_bottom(pd, s19), Some((15, 15)));
        assert_eq!(from_row_col_from_bottom(15, 15, s19), Some(pd));
        let rect = BoardSize { cols: 9, rows: 5 };
        assert_eq!(row_col_from_bottom(Point::new(2, 0), rect), Some((4, 2)));
        assert_eq!(from_row_col_from_bottom(4, 2, rect), Some(Point::new(2, 0)));
        assert_eq!(from_row_col_from_bottom(5, 0, rect), None);
        assert_eq!(row_col_from_bottom(Point::new(9, 0), rect), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size(b"19", Span::default()).0, BoardSize::square(19));
        let (s, i) = parse_size(b"19:13", Span::default());
        assert_eq!(s, BoardSize { cols: 19, rows: 13 });
        assert!(i.is_none());
        assert_eq!(
            parse_size(b"19:19", Span::default()).1.unwrap().0,
            SizeIssue::SquareComposed
        );
        let (s, i) = parse_size(b"60", Span::default());
        assert_eq!(s, BoardSize::square(52));
        assert_eq!(i.unwrap().0, SizeIssue::OutOfRange);
        assert_eq!(
            parse_size(b"x", Span::default()).1.unwrap().0,
            SizeIssue::Invalid
        );
    }

    #[test]
    fn moves() {
        let s19 = BoardSize::square(19);
        assert_eq!(parse_move(b"", s19).mv, Some(Move::Pass));
        let tt = parse_move(b"tt", s19);
        assert_eq!(
            (tt.mv, tt.issue),
            (Some(Move::Pass), Some(CoordIssue::TtPass))
        );
        assert_eq!(
            parse_move(b"pd", s19).mv,
            Some(Move::Play(Point::new(15, 3)))
        );
        assert_eq!(parse_move(b"ta", s19).issue, Some(CoordIssue::OutsideBoard));
        let up = parse_move(b"DD", s19);
        assert_eq!(
            (up.mv, up.issue),
            (
                Some(Move::Play(Point::new(3, 3))),
                Some(CoordIssue::Uppercase)
            )
        );
        let s52 = BoardSize::square(52);
        assert_eq!(
            parse_move(b"ZZ", s52).mv,
            Some(Move::Play(Point::new(51, 51)))
        );
        assert_eq!(
            parse_move(b"tt", s52).mv,
            Some(Move::Play(Point::new(19, 19)))
        );
        assert_eq!(
            parse_move(b"tt", s52).issue,
            Some(CoordIssue::AmbiguousPass)
        );
        let s18 = BoardSize::square(18);
        assert_eq!(
            parse_move(b"ss", s18).issue,
            Some(CoordIssue::AmbiguousPass)
        );
        assert_eq!(parse_move(b"ss", s18).mv, None);
        assert_eq!(parse_move(b"st", s18).issue, Some(CoordIssue::OutsideBoard));
        let rect = BoardSize { cols: 9, rows: 5 };
        assert_eq!(
            parse_move(b"ie", rect).mv,
            Some(Move::Play(Point::new(8, 4)))
        );
        assert_eq!(
            parse_move(b"if", rect).issue,
            Some(CoordIssue::OutsideBoard)
        );
        assert_eq!(parse_move(b"a", s19).issue, Some(CoordIssue::Invalid));
    }

    #[test]
    fn stars() {
        assert_eq!(star_points(BoardSize::square(19)).len(), 9);
        assert_eq!(star_points(BoardSize::square(13)).len(), 5);
        assert_eq!(star_points(BoardSize::square(9)).len(), 5);
        assert!(star_points(BoardSize::square(9)).contains(&Point::new(2, 2)));
        assert_eq!(star_points(BoardSize::square(5)), vec![Point::new(2, 2)]);
        assert!(star_points(BoardSize::square(4)).is_empty());
        assert_eq!(star_points(BoardSize { cols: 13, rows: 7 }).len(), 4);
        assert_eq!(star_points(BoardSize::square(52)).len(), 4);
    }

    #[test]
    fn text_pieces_find_points_and_links() {
        use TextPiece::{Link, Text};
        let s = BoardSize::square(19);
        assert_eq!(
            text_pieces("黑 Q16 好, see https://x.org/a?b=1. I9 A20 q3 D4", s),
            vec![
                Text("黑 "),
                TextPiece::Point("Q16", Point::new(15, 3)),
                Text(" 好, see "),
                Link("https://x.org/a?b=1"),
                Text(". I9 A20 q3 "),
                TextPiece::Point("D4", Point::new(3, 15)),
            ]
        );
        assert_eq!(text_pieces("AD4 D4x", s), vec![Text("AD4 D4x")]);
        assert_eq!(text_pieces("", s), vec![]);
        // On a 9×9 board, K10 is off the board.
        assert_eq!(text_pieces("K10", BoardSize::square(9)), vec![Text("K10")]);
    }

    #[test]
    fn text_pieces_keep_every_character() {
        let s = BoardSize::square(19);
        for text in [
            "黒Q16の後、D4。http://a.b/c?d=é, https://x",
            "Q16Q16 Q 16 T19 t19 A0 https:// http://é",
            "\u{FFFD}\nC3\r\nhttps://senseis.xmp.net/?Aji!) 한국 E5",
        ] {
            let joined: String = text_pieces(text, s)
                .iter()
                .map(|p| match p {
                    TextPiece::Text(t) | TextPiece::Point(t, _) | TextPiece::Link(t) => *t,
                })
                .collect();
            assert_eq!(joined, text);
        }
    }

    #[test]
    fn human_coordinates() {
        let s = BoardSize::square(19);
        assert_eq!(human(Point::new(15, 3), s), "Q16");
        assert_eq!(human(Point::new(3, 15), s), "D4");
        assert_eq!(human(Point::new(8, 0), s), "J19");
        for y in 0..19 {
            for x in 0..19 {
                let p = Point::new(x, y);
                assert_eq!(parse_human(&human(p, s), s), Some(p));
            }
        }
        assert_eq!(parse_human("q16", s), Some(Point::new(15, 3)));
        for bad in ["I5", "A0", "A20", "Z1", "", "A", "A-1", "A1x", "pass"] {
            assert_eq!(parse_human(bad, s), None, "{bad}");
        }
        assert_eq!(parse_human("K5", BoardSize::square(9)), None);
    }

    #[test]
    fn handicap_placements() {
        let s19 = BoardSize::square(19);
        let h = |n| {
            handicap_points(s19, n)
                .unwrap()
                .iter()
                .map(|&p| human(p, s19))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(h(2), "D4 Q16");
        assert_eq!(h(5), "D4 Q16 D16 Q4 K10");
        assert_eq!(h(9), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        let s9 = BoardSize::square(9);
        let p: Vec<String> = handicap_points(s9, 3)
            .unwrap()
            .iter()
            .map(|&p| human(p, s9))
            .collect();
        assert_eq!(p, ["C3", "G7", "C7"]);
        assert_eq!(handicap_points(BoardSize::square(8), 5), None);
        assert_eq!(handicap_points(BoardSize::square(6), 2), None);
        assert_eq!(handicap_points(s19, 1), None);
        assert_eq!(handicap_points(BoardSize { cols: 19, rows: 13 }, 2), None);
    }
}
