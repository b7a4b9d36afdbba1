//! The diagram: everything drawn on a board, independent of the output format.
//!
//! [`Diagram::at`] builds it from a node of a document (position, markup,
//! inherited `DD`/`VW`, variation markers per `ST`, move numbers); the SVG,
//! PNG and text writers only draw it, and the figure module (`figure.rs`) builds book-style
//! diagrams into the same structure.

use sgf_core::{Color, Document, Node, NodeId, Point};
use sgf_go::coords::{self, BoardSize};
use sgf_go::{Cursor, Move, Stone};

use crate::RenderError;
use crate::options::{RenderOptions, Variations};

/// A point markup shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// `TR`.
    Triangle,
    /// `CR`.
    Circle,
    /// `SQ`.
    Square,
    /// `MA` (an X).
    Cross,
    /// `SL` (selected: a highlight).
    Selected,
}

impl Shape {
    /// The SGF property of the shape.
    pub fn ident(self) -> &'static str {
        match self {
            Shape::Triangle => "TR",
            Shape::Circle => "CR",
            Shape::Square => "SQ",
            Shape::Cross => "MA",
            Shape::Selected => "SL",
        }
    }
    /// Every shape, in drawing order.
    pub const ALL: [Shape; 5] = [
        Shape::Selected,
        Shape::Triangle,
        Shape::Circle,
        Shape::Square,
        Shape::Cross,
    ];
}

/// A rectangle of board points, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Leftmost column.
    pub x0: u8,
    /// Top row.
    pub y0: u8,
    /// Rightmost column.
    pub x1: u8,
    /// Bottom row.
    pub y1: u8,
}

impl Region {
    /// The whole board.
    pub fn full(size: BoardSize) -> Region {
        Region {
            x0: 0,
            y0: 0,
            x1: size.cols.saturating_sub(1),
            y1: size.rows.saturating_sub(1),
        }
    }
    /// Whether the point is inside.
    pub fn contains(&self, p: Point) -> bool {
        (self.x0..=self.x1).contains(&p.x) && (self.y0..=self.y1).contains(&p.y)
    }
    /// Number of columns.
    pub fn cols(&self) -> u8 {
        self.x1 - self.x0 + 1
    }
    /// Number of rows.
    pub fn rows(&self) -> u8 {
        self.y1 - self.y0 + 1
    }
}

/// The line under a board: whose turn it is and the captures so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Number of the last move played (0 before the first).
    pub move_number: u32,
    /// The player to move.
    pub to_play: Color,
    /// Stones captured by Black (`[0]`) and by White (`[1]`).
    pub captures: [u32; 2],
}

/// Everything drawn on one board picture. Per-point vectors are row-major
/// (`y * cols + x`) over the whole board.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// The board size.
    pub size: BoardSize,
    /// The part of the board drawn (`VW`), the whole board by default.
    pub view: Region,
    /// Points inside `view` that are not visible (a `VW` that is not a rectangle).
    pub hidden: Vec<bool>,
    /// The stones.
    pub stones: Vec<Stone>,
    /// The number printed on each point (0: none).
    pub numbers: Vec<u32>,
    /// Dimmed points (`DD`).
    pub dimmed: Vec<bool>,
    /// Star points to draw.
    pub hoshi: Vec<Point>,
    /// `TR`, `CR`, `SQ`, `MA`, `SL`.
    pub shapes: Vec<(Point, Shape)>,
    /// `LB`: point and text.
    pub labels: Vec<(Point, String)>,
    /// `AR`: from, to.
    pub arrows: Vec<(Point, Point)>,
    /// `LN`.
    pub lines: Vec<(Point, Point)>,
    /// `TB` and `TW`.
    pub territory: Vec<(Point, Color)>,
    /// Automatic variation markers: point and letter.
    pub variations: Vec<(Point, String)>,
    /// The last move, marked when it carries no number or markup.
    pub last_move: Option<Point>,
    /// The status line, if shown.
    pub status: Option<Status>,
    /// A title above the board (figures).
    pub title: Option<String>,
    /// Notes under the board (figures: the moves not shown), joined by
    /// `, ` and wrapped into lines.
    pub notes: Vec<Note>,
}

/// A note under a figure's board: a move it cannot show, printed as
/// `12 at 8` (the stone of move 8 is drawn there), `15 at Q16` (an
/// unnumbered stone is) or `20 pass`. Held as numbers, not as text: a
/// figure of a long game has a million.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    /// The number printed for the move not shown.
    pub number: u32,
    /// Where it was played.
    pub at: NoteAt,
}

/// Where the move of a [`Note`] was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteAt {
    /// It is a pass.
    Pass,
    /// On the stone drawn with this number.
    Number(u32),
    /// On this point (a stone drawn without a number).
    Point(Point),
}

impl Note {
    /// The note as printed, on a board of `size`.
    pub fn text(&self, size: BoardSize) -> String {
        match self.at {
            NoteAt::Pass => format!("{} pass", self.number),
            NoteAt::Number(m) => format!("{} at {m}", self.number),
            NoteAt::Point(p) => format!("{} at {}", self.number, coords::human(p, size)),
        }
    }
}

impl Diagram {
    /// An empty board of `size` with star points and nothing else.
    pub fn empty(size: BoardSize) -> Diagram {
        let n = size.points();
        Diagram {
            size,
            view: Region::full(size),
            hidden: vec![false; n],
            stones: vec![Stone::Empty; n],
            numbers: vec![0; n],
            dimmed: vec![false; n],
            hoshi: coords::star_points(size),
            shapes: Vec::new(),
            labels: Vec::new(),
            arrows: Vec::new(),
            lines: Vec::new(),
            territory: Vec::new(),
            variations: Vec::new(),
            last_move: None,
            status: None,
            title: None,
            notes: Vec::new(),
        }
    }

    /// The row-major index of a point.
    pub fn idx(&self, p: Point) -> usize {
        p.y as usize * self.size.cols as usize + p.x as usize
    }

    /// The stone at a point (empty off the board).
    pub fn stone(&self, p: Point) -> Stone {
        self.per_point(&self.stones, p).unwrap_or(Stone::Empty)
    }

    /// A per-point value; `None` off the board (or if a caller-built vector is short).
    fn per_point<T: Copy>(&self, v: &[T], p: Point) -> Option<T> {
        if self.size.contains(p) {
            v.get(self.idx(p)).copied()
        } else {
            None
        }
    }

    /// Whether a point is hidden by a `VW` that is not a rectangle.
    pub fn is_hidden(&self, p: Point) -> bool {
        self.per_point(&self.hidden, p).unwrap_or(false)
    }

    /// Whether a point is dimmed (`DD`).
    pub fn is_dimmed(&self, p: Point) -> bool {
        self.per_point(&self.dimmed, p).unwrap_or(false)
    }

    /// The number printed on a point (0: none).
    pub fn number(&self, p: Point) -> u32 {
        self.per_point(&self.numbers, p).unwrap_or(0)
    }

    /// The view, clipped to the board (callers may have set any region).
    pub fn drawn_view(&self) -> Region {
        let full = Region::full(self.size);
        let x1 = self.view.x1.min(full.x1);
        let y1 = self.view.y1.min(full.y1);
        Region {
            x0: self.view.x0.min(x1),
            y0: self.view.y0.min(y1),
            x1,
            y1,
        }
    }

    /// Whether a point is drawn (inside the view and not hidden).
    pub fn visible(&self, p: Point) -> bool {
        self.size.contains(p) && self.drawn_view().contains(p) && !self.is_hidden(p)
    }

    /// Whether the point carries a shape or a label (markup a number or marker must not cover).
    pub fn has_markup(&self, p: Point) -> bool {
        self.shapes
            .iter()
            .any(|&(q, s)| q == p && s != Shape::Selected)
            || self.labels.iter().any(|(q, _)| *q == p)
    }

    /// The diagram of the position at `node`, with its markup, as `opts` asks.
    ///
    /// # Errors
    /// [`RenderError::NoSuchNode`] when `node` is not a node of a game of `doc`.
    pub fn at(doc: &Document, node: NodeId, opts: &RenderOptions) -> Result<Diagram, RenderError> {
        if node.index() >= doc.node_capacity() {
            return Err(RenderError::NoSuchNode);
        }
        let game = doc.game_of(node).ok_or(RenderError::NoSuchNode)?;
        // Down from the root holding only the variations taken, not the path.
        let mut way = doc.node(node).descent();
        let root = way.next().ok_or(RenderError::NoSuchNode)?;
        let mut cursor = Cursor::new(doc, game);
        let size = cursor.size();
        // The move number that placed each stone still on the board (0: setup or none).
        let mut placed = vec![0u32; size.points()];
        let idx = |p: Point| p.y as usize * size.cols as usize + p.x as usize;
        let mut track = |cursor: &Cursor, node: Node<'_>| {
            for ident in ["AB", "AW", "AE"] {
                for p in coords::each_point(&node, ident, size) {
                    placed[idx(p)] = 0;
                }
            }
            let pos = cursor.position();
            for &(_, mv) in &cursor.report().moves {
                if let Move::Play(p) = mv
                    && pos.board.get(p) != Stone::Empty
                {
                    placed[idx(p)] = pos.move_number;
                }
            }
        };
        track(&cursor, root);
        for n in way {
            if !cursor.down(doc, n.id()) {
                return Err(RenderError::NoSuchNode);
            }
            cursor.forget();
            track(&cursor, n);
        }
        let pos = cursor.position();
        let mut d = Diagram::empty(size);
        for y in 0..size.rows {
            for x in 0..size.cols {
                let p = Point::new(x, y);
                let i = idx(p);
                let s = pos.board.get(p);
                d.stones[i] = s;
                if s != Stone::Empty && opts.move_numbers.shows(placed[i], pos.move_number) {
                    d.numbers[i] = placed[i];
                }
            }
        }
        let here = doc.node(node);
        // DD and VW are inherited: the nearest node on the path that sets them wins.
        let up = || std::iter::successors(Some(here), |n| n.parent());
        if let Some(n) = up().find(|n| n.has("DD")) {
            for p in coords::each_point(&n, "DD", size) {
                let i = d.idx(p);
                d.dimmed[i] = true;
            }
        }
        if opts.view {
            // Before FF[4], `VW` gave the two corners of the view.
            let ff = sgf_core::validate::ff_version(doc, game);
            let view = up()
                .find(|n| n.has("VW"))
                .map(|n| coords::view_points(&n, size, ff))
                .unwrap_or_default();
            d.set_view(&view);
        }
        d.read_markup(&here);
        if opts.last_move
            && let Some((c, Move::Play(p))) = pos.last_move
            && pos.board.get(p) == Stone::of(c)
        {
            d.last_move = Some(p);
        }
        let st = root.value("ST").and_then(|v| v.number()).unwrap_or(0);
        let mode = match opts.variations {
            Variations::Auto if st & 2 != 0 => Variations::None,
            Variations::Auto if st & 1 != 0 => Variations::Siblings,
            Variations::Auto => Variations::Children,
            m => m,
        };
        let alternatives: Vec<NodeId> = match mode {
            Variations::Children => here.children().map(|c| c.id()).collect(),
            Variations::Siblings => here
                .parent()
                .map(|p| p.children().map(|c| c.id()).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if alternatives.len() > 1 {
            for (i, id) in alternatives.into_iter().enumerate() {
                if id == node {
                    continue;
                }
                let Some((_, Move::Play(p))) = sgf_go::edit::node_move(doc, id, size) else {
                    continue;
                };
                // Automatic markers never cover the node's own markup (ST's rule).
                if !d.visible(p) || d.has_markup(p) || d.variations.iter().any(|(q, _)| *q == p) {
                    continue;
                }
                d.variations.push((p, variation_letter(i)));
            }
        }
        if opts.status {
            d.status = Some(Status {
                move_number: pos.move_number,
                to_play: cursor.next_player(doc),
                captures: pos.captures,
            });
        }
        Ok(d)
    }

    /// The diagram of a bare position (no record behind it: an engine's or
    /// a script's board): its stones, the last move marked and the status
    /// line as `opts` asks. Move numbers, markup and variation markers need
    /// a record ([`Diagram::at`]).
    ///
    /// ```
    /// use sgf_core::{Color, Point};
    /// use sgf_go::{BoardSize, Move, Position};
    /// use sgf_render::{Diagram, RenderOptions, TextStyle};
    ///
    /// let mut pos = Position::new(BoardSize::square(9));
    /// pos.play(Color::Black, Move::Play(Point::new(2, 6)));
    /// let opts = RenderOptions::default();
    /// let text = Diagram::of_position(&pos, &opts).to_text(&opts, TextStyle::Ascii);
    /// // C3 holds the stone, marked as the last move; columns skip I.
    /// assert!(text.contains("\n3  . .>X . . . + . . 3\n"));
    /// assert!(text.starts_with("   A B C D E F G H J\n"));
    /// ```
    pub fn of_position(pos: &sgf_go::Position, opts: &RenderOptions) -> Diagram {
        let size = pos.board.size();
        let mut d = Diagram::empty(size);
        for (i, &c) in pos.board.cells().iter().enumerate() {
            d.stones[i] = match c {
                1 => Stone::Black,
                2 => Stone::White,
                _ => Stone::Empty,
            };
        }
        if opts.last_move
            && let Some((c, Move::Play(p))) = pos.last_move
            && pos.board.get(p) == Stone::of(c)
        {
            d.last_move = Some(p);
        }
        if opts.status {
            d.status = Some(Status {
                move_number: pos.move_number,
                to_play: pos.to_play,
                captures: pos.captures,
            });
        }
        d
    }

    /// Restricts the view to the bounding box of `points` and hides the
    /// points of the box not listed (an empty list shows the whole board).
    pub fn set_view(&mut self, points: &[Point]) {
        let visible: Vec<Point> = points
            .iter()
            .copied()
            .filter(|&p| self.size.contains(p))
            .collect();
        if visible.is_empty() {
            self.view = Region::full(self.size);
            self.hidden.fill(false);
            return;
        }
        let r = Region {
            x0: visible.iter().map(|p| p.x).min().unwrap_or(0),
            y0: visible.iter().map(|p| p.y).min().unwrap_or(0),
            x1: visible.iter().map(|p| p.x).max().unwrap_or(0),
            y1: visible.iter().map(|p| p.y).max().unwrap_or(0),
        };
        self.view = r;
        self.hidden.fill(true);
        for p in visible {
            let i = self.idx(p);
            self.hidden[i] = false;
        }
    }

    /// Reads the markup of a node: shapes, labels, arrows, lines and territory.
    pub fn read_markup(&mut self, node: &Node<'_>) {
        use std::collections::HashSet;
        let size = self.size;
        // What is there already, as sets: a node can repeat a point or a
        // line a million times (a rectangle of a large board gives
        // thousands of points), each looked up in constant time. The
        // shapes of a point are flags of the board (the points of a list
        // are on it; any other in a set of their own).
        let cols = size.cols as usize;
        let at = |p: Point| {
            (p.x < size.cols && p.y < size.rows).then(|| p.y as usize * cols + p.x as usize)
        };
        let bit = |shape: Shape| 1u8 << Shape::ALL.iter().position(|&s| s == shape).unwrap_or(0);
        let mut flags = vec![0u8; size.points()];
        let mut elsewhere: HashSet<(Point, Shape)> = HashSet::new();
        let mut first = |p: Point, shape: Shape| match at(p).and_then(|i| flags.get_mut(i)) {
            Some(f) => !std::mem::replace(f, *f | bit(shape)) & bit(shape) != 0,
            None => elsewhere.insert((p, shape)),
        };
        for &(p, shape) in &self.shapes {
            first(p, shape);
        }
        for shape in Shape::ALL {
            for p in coords::each_point(node, shape.ident(), size) {
                if first(p, shape) {
                    self.shapes.push((p, shape));
                }
            }
        }
        let mut labelled: HashSet<Point> = self.labels.iter().map(|(p, _)| *p).collect();
        for v in node.values("LB") {
            let Some((a, text)) = v.composed() else {
                continue;
            };
            let Ok((p, _)) = coords::parse_point(a.as_bytes(), size) else {
                continue;
            };
            let text = text.trim();
            if text.is_empty() || !labelled.insert(p) {
                continue;
            }
            self.labels.push((p, text.to_string()));
        }
        for (ident, is_arrow) in [("AR", true), ("LN", false)] {
            let mut drawn: HashSet<(Point, Point)> = if is_arrow {
                self.arrows.iter().copied().collect()
            } else {
                self.lines.iter().copied().collect()
            };
            for v in node.values(ident) {
                let Some((a, b)) = v.composed_raw() else {
                    continue;
                };
                let (Ok((a, _)), Ok((b, _))) =
                    (coords::parse_point(a, size), coords::parse_point(b, size))
                else {
                    continue;
                };
                if a == b {
                    continue;
                }
                let list = if is_arrow {
                    &mut self.arrows
                } else {
                    &mut self.lines
                };
                if drawn.insert((a, b)) {
                    list.push((a, b));
                }
            }
        }
        let mut counted = vec![false; size.points()];
        let mut counted_elsewhere: HashSet<Point> = HashSet::new();
        let mut first = |p: Point| match at(p).and_then(|i| counted.get_mut(i)) {
            Some(f) => !std::mem::replace(f, true),
            None => counted_elsewhere.insert(p),
        };
        for &(p, _) in &self.territory {
            first(p);
        }
        for (ident, c) in [("TB", Color::Black), ("TW", Color::White)] {
            for p in coords::each_point(node, ident, size) {
                if first(p) {
                    self.territory.push((p, c));
                }
            }
        }
    }
}

/// The marker of the `i`-th variation: `A`–`Z`, then numbers.
fn variation_letter(i: usize) -> String {
    if i < 26 {
        ((b'A' + i as u8) as char).to_string()
    } else {
        (i + 1).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::MoveNumbers;
    use sgf_core::parse;

    fn last(doc: &Document) -> NodeId {
        doc.game(0).unwrap().main_line().last().unwrap().id()
    }

    #[test]
    fn markup_and_inheritance() {
        let doc = parse(
            b"(;SZ[9]DD[aa:bb]VW[aa:ee];B[cc]TR[cc][dd]LB[ee:hi][ee:dup]AR[aa:cc][bb:bb]\
              ;W[dd]TB[ii];DD[]VW[])",
        )
        .document;
        let nodes: Vec<_> = doc.game(0).unwrap().main_line().map(|n| n.id()).collect();
        let d = Diagram::at(&doc, nodes[1], &RenderOptions::default()).unwrap();
        assert_eq!(d.shapes.len(), 2);
        assert_eq!(d.labels, vec![(Point::new(4, 4), "hi".to_string())]);
        assert_eq!(d.arrows, vec![(Point::new(0, 0), Point::new(2, 2))]);
        assert_eq!(
            d.view,
            Region {
                x0: 0,
                y0: 0,
                x1: 4,
                y1: 4
            }
        );
        assert!(d.dimmed[0] && d.dimmed[10] && !d.dimmed[2]);
        let d = Diagram::at(&doc, nodes[3], &RenderOptions::default()).unwrap();
        assert_eq!(d.view, Region::full(BoardSize::square(9)));
        assert!(!d.dimmed.iter().any(|&x| x));
        assert_eq!(d.last_move, Some(Point::new(3, 3)));
    }

    #[test]
    fn numbers_follow_captures() {
        let doc = parse(b"(;SZ[5];B[ba];W[aa];B[ab];W[cc])").document;
        let opts = RenderOptions {
            move_numbers: MoveNumbers::All,
            ..RenderOptions::default()
        };
        let d = Diagram::at(&doc, last(&doc), &opts).unwrap();
        assert_eq!(d.numbers[1], 1);
        assert_eq!(d.numbers[0], 0, "the captured stone is gone");
        assert_eq!(d.numbers[5], 3);
        assert_eq!(d.numbers[12], 4);
        let opts = RenderOptions {
            move_numbers: MoveNumbers::Last(2),
            ..RenderOptions::default()
        };
        let d = Diagram::at(&doc, last(&doc), &opts).unwrap();
        assert_eq!((d.numbers[1], d.numbers[5], d.numbers[12]), (0, 3, 4));
    }

    #[test]
    fn variation_markers_follow_st() {
        let src = |st: &str| format!("(;SZ[9]{st};B[cc](;W[dd])(;W[ee])(;W[ff]))");
        let at = |st: &str, k: usize| {
            let doc = parse(src(st).as_bytes()).document;
            let id = doc.game(0).unwrap().nodes().nth(k).unwrap().id();
            Diagram::at(&doc, id, &RenderOptions::default())
                .unwrap()
                .variations
        };
        assert_eq!(at("", 1).len(), 3);
        assert_eq!(at("ST[0]", 1)[1], (Point::new(4, 4), "B".to_string()));
        assert!(at("ST[2]", 1).is_empty());
        assert!(at("ST[1]", 1).is_empty());
        let sib = at("ST[1]", 3);
        assert_eq!(
            sib,
            vec![
                (Point::new(3, 3), "A".to_string()),
                (Point::new(5, 5), "C".to_string())
            ]
        );
        assert!(at("ST[3]", 3).is_empty());
    }

    #[test]
    fn odd_diagrams_built_by_hand_do_not_panic() {
        let opts = RenderOptions::default();
        let mut d = Diagram::empty(BoardSize { cols: 0, rows: 0 });
        let _ = (d.to_svg(&opts), d.to_text(&opts, crate::TextStyle::Unicode));
        d = Diagram::empty(BoardSize::square(5));
        d.view = Region {
            x0: 3,
            y0: 9,
            x1: 200,
            y1: 2,
        };
        d.numbers.clear();
        d.hidden.truncate(3);
        d.labels.push((Point::new(40, 40), "x".into()));
        d.arrows.push((Point::new(0, 0), Point::new(60, 60)));
        let _ = (d.to_svg(&opts), d.to_text(&opts, crate::TextStyle::Ascii));
        assert!(d.to_png(&opts, 32).is_ok());
    }

    #[test]
    fn bad_nodes_are_errors() {
        let big = parse(b"(;SZ[9];B[aa];W[bb];B[cc])").document;
        let far = last(&big);
        let doc = parse(b"(;SZ[9])").document;
        assert!(Diagram::at(&doc, far, &RenderOptions::default()).is_err());
    }
}
