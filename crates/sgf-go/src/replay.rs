//! Replaying a game tree: the position at any node, with an undo log so a
//! cursor walks back and forth without copying boards.

use sgf_core::{Color, Document, Node, NodeId, Point, Span};

use crate::board::{Position, Removed, Stone};
use crate::coords::{self, BoardSize, CoordIssue, Move};

/// Something noteworthy that happened while executing a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move on a point that already held a stone.
    Occupied {
        /// The point.
        point: Point,
    },
    /// The played group had no liberty and was removed.
    Suicide {
        /// The stones removed.
        stones: usize,
    },
    /// An immediate ko recapture.
    KoRetake {
        /// The point.
        point: Point,
    },
    /// `AB`/`AW`/`AE` that changed nothing (the point already was so).
    SetupNoEffect {
        /// The point.
        point: Point,
    },
    /// A move or point value that could not be used as written.
    BadCoordinate {
        /// What was wrong.
        issue: CoordIssue,
    },
    /// The same colour moved twice in a row.
    SameColorTwice,
}

/// An event with the span of the value that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeEvent {
    /// What happened.
    pub event: Event,
    /// The property identifier involved.
    pub ident: &'static str,
    /// Span of the value (empty for edited values).
    pub span: Span,
}

/// What executing a node did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeReport {
    /// The move of the node, if any (`B` before `W` when both are present).
    pub moves: Vec<(Color, Move)>,
    /// Stones captured by the node's moves.
    pub captured: Vec<Point>,
    /// Noteworthy events.
    pub events: Vec<NodeEvent>,
}

/// Executes `node` on `pos`: setup (`AE`, `AB`, `AW`, `PL`), then the move
/// (`B`, `W`), then `MN`. Board changes are appended to `log` as
/// (point index, old cell) so they can be undone.
pub fn apply_node(pos: &mut Position, node: &Node<'_>, log: &mut Vec<(u16, u8)>) -> NodeReport {
    let mut rep = NodeReport::default();
    apply_node_into(pos, node, log, &mut rep);
    rep
}

/// [`apply_node`] into a report whose buffers are reused. Returns whether
/// the node was nothing but a plain move on the board (see
/// [`Node::simple_move`]), whose value therefore needs no point check.
#[inline]
pub fn apply_node_into(
    pos: &mut Position,
    node: &Node<'_>,
    log: &mut Vec<(u16, u8)>,
    rep: &mut NodeReport,
) -> bool {
    rep.moves.clear();
    rep.captured.clear();
    rep.events.clear();
    // Most nodes are one plain move (`;B[pd]`): played without the
    // general pass over the properties.
    if let Some((color, pair)) = node.simple_move() {
        let ident = if color == Color::Black { "B" } else { "W" };
        // The value's span is looked up only for an event (rare).
        let span = || {
            node.props()
                .next()
                .and_then(|p| p.first())
                .map_or_else(Span::default, |v| v.span())
        };
        // Two lower-case letters: on the board, the move needs no more
        // reading (`tt` may be a pass: that goes the long way).
        let size = pos.board.size();
        let (x, y) = (pair[0] - b'a', pair[1] - b'a');
        if x < size.cols && y < size.rows && (x, y) != (19, 19) {
            let i = y as usize * size.cols as usize + x as usize;
            if pos.last_move.is_some_and(|(c, _)| c == color) {
                same_color_twice(rep, ident, span());
            }
            play_stone(pos, log, rep, (ident, color, span), Point::new(x, y), i);
            return true;
        }
        let pm = coords::parse_move(&pair, size);
        let plain = pm.issue.is_none();
        play_value(pos, log, rep, (ident, color, span), pm, false, false);
        return plain;
    }
    apply_general(pos, node, log, rep);
    false
}

/// [`apply_node_into`] for any node but a plain move.
#[inline(never)]
fn apply_general(
    pos: &mut Position,
    node: &Node<'_>,
    log: &mut Vec<(u16, u8)>,
    rep: &mut NodeReport,
) {
    use sgf_core::props::id;
    // One pass over the properties finds what replay needs.
    let (mut setup, mut pl, mut black, mut white, mut mn) = (false, None, None, None, None);
    for p in node.props() {
        match p.known_id() {
            Some(id::AB | id::AW | id::AE) => setup = true,
            Some(id::PL) => pl = pl.or(p.first()),
            Some(id::B) => black = black.or(p.first()),
            Some(id::W) => white = white.or(p.first()),
            Some(id::MN) => mn = mn.or(p.first()),
            _ => {}
        }
    }
    let size = pos.board.size();
    let cols = size.cols as usize;
    let idx = |p: Point| (p.y as usize * cols + p.x as usize) as u16;
    if setup {
        // The spec lets setup stones overwrite whatever was there. A point
        // given twice in the node is a duplicate (reported by the checker),
        // not a setup without effect.
        let mut touched = vec![false; size.points()];
        for (ident, stone) in [
            ("AE", Stone::Empty),
            ("AB", Stone::Black),
            ("AW", Stone::White),
        ] {
            for entry in coords::point_list(node.values(ident), size) {
                if let Some(issue) = entry.issue {
                    rep.events.push(NodeEvent {
                        event: Event::BadCoordinate { issue },
                        ident: static_ident(ident),
                        span: entry.span,
                    });
                }
                for p in entry.points {
                    let old = pos.board.set(p, stone);
                    let again = std::mem::replace(&mut touched[idx(p) as usize], true);
                    if old == stone && !again {
                        rep.events.push(NodeEvent {
                            event: Event::SetupNoEffect { point: p },
                            ident: static_ident(ident),
                            span: entry.span,
                        });
                    } else if old != stone {
                        log.push((idx(p), old as u8));
                    }
                }
            }
        }
        pos.ko = None;
    }
    let pl_set = pl.and_then(|v| pl_color(v.raw()));
    if let Some(c) = pl_set {
        pos.to_play = c;
    }
    for (ident, color, value) in [("B", Color::Black, black), ("W", Color::White, white)] {
        let Some(v) = value else { continue };
        let pm = coords::parse_move(v.raw(), size);
        play_value(
            pos,
            log,
            rep,
            (ident, color, || v.span()),
            pm,
            setup,
            pl_set.is_some(),
        );
    }
    if let Some(n) = mn.and_then(|v| v.number())
        && n >= 0
    {
        pos.move_number = n as u32;
    }
}

/// Executes one `B` or `W` value, read as `pm`, logging what it changes
/// for undo and reporting what is odd about it.
#[inline(never)]
fn play_value(
    pos: &mut Position,
    log: &mut Vec<(u16, u8)>,
    rep: &mut NodeReport,
    (ident, color, span): (&str, Color, impl Fn() -> Span),
    pm: coords::ParsedMove,
    setup: bool,
    pl_set: bool,
) {
    if let Some(issue) = pm.issue
        && issue != CoordIssue::TtPass
    {
        rep.events.push(NodeEvent {
            event: Event::BadCoordinate { issue },
            ident: static_ident(ident),
            span: span(),
        });
    }
    let Some(mv) = pm.mv else {
        // A move that cannot be played still counts (see `crate::moves`);
        // the board stays as it was.
        pos.move_number += 1;
        pos.to_play = color.opponent();
        pos.last_move = None;
        pos.ko = None;
        return;
    };
    if pos.last_move.is_some_and(|(c, _)| c == color) && !setup && !pl_set {
        same_color_twice(rep, ident, span());
    }
    match mv.point().and_then(|p| Some((p, pos.board.index(p)?))) {
        Some((p, i)) => play_stone(pos, log, rep, (ident, color, span), p, i),
        None => {
            // A pass (a parsed move is on the board).
            pos.pass(color, mv);
            rep.moves.push((color, mv));
        }
    }
}

/// Reports a move of the colour that moved last.
#[cold]
fn same_color_twice(rep: &mut NodeReport, ident: &str, span: Span) {
    rep.events.push(NodeEvent {
        event: Event::SameColorTwice,
        ident: static_ident(ident),
        span,
    });
}

/// Plays a stone at `p`, cell `i` of the board, logging what it changes
/// for undo and reporting what is odd about it.
#[inline(always)]
fn play_stone(
    pos: &mut Position,
    log: &mut Vec<(u16, u8)>,
    rep: &mut NodeReport,
    (ident, color, span): (&str, Color, impl Fn() -> Span),
    p: Point,
    i: usize,
) {
    let (old, removed, ko_retake) = pos.place(color, p, i);
    // The undo log: the point's old content, then every removed stone.
    log.push((i as u16, old));
    if removed != Removed::Nothing {
        log_removed(pos, log, rep, color, removed);
    }
    if old != Stone::Empty as u8 || removed == Removed::Suicide || ko_retake {
        illegal_events(pos, rep, (ident, span()), p, old, removed, ko_retake);
    }
    rep.moves.push((color, Move::Play(p)));
}

/// Reports a move on an occupied point, a suicide, a ko retake.
#[cold]
fn illegal_events(
    pos: &Position,
    rep: &mut NodeReport,
    (ident, span): (&str, Span),
    p: Point,
    old: u8,
    removed: Removed,
    ko_retake: bool,
) {
    let event = |event| NodeEvent {
        event,
        ident: static_ident(ident),
        span,
    };
    if old != Stone::Empty as u8 {
        rep.events.push(event(Event::Occupied { point: p }));
    }
    if removed == Removed::Suicide {
        let stones = pos.board.removed().len();
        rep.events.push(event(Event::Suicide { stones }));
    }
    if ko_retake {
        rep.events.push(event(Event::KoRetake { point: p }));
    }
}

/// Logs the stones a move removed for undo (captured: the opponent's,
/// suicide: the player's) and reports the captured ones.
#[cold]
fn log_removed(
    pos: &Position,
    log: &mut Vec<(u16, u8)>,
    rep: &mut NodeReport,
    color: Color,
    removed: Removed,
) {
    let b = &pos.board;
    let stone = match removed {
        Removed::Suicide => Stone::of(color),
        _ => Stone::of(color.opponent()),
    };
    log.extend(b.removed().iter().map(|&c| (c, stone as u8)));
    if removed == Removed::Captured {
        rep.captured
            .extend(b.removed().iter().map(|&c| b.point(c as usize)));
    }
}

fn static_ident(s: &str) -> &'static str {
    match s {
        "AE" => "AE",
        "AB" => "AB",
        "AW" => "AW",
        "B" => "B",
        _ => "W",
    }
}

/// `PL` leniently: `B`/`W`, lower case, `1`/`2`, `black`/`white`.
pub fn pl_color(raw: &[u8]) -> Option<Color> {
    let t = String::from_utf8_lossy(raw).trim().to_ascii_lowercase();
    match t.as_str() {
        "b" | "1" | "black" => Some(Color::Black),
        "w" | "2" | "white" => Some(Color::White),
        _ => None,
    }
}

/// The state of a position before a node was executed, to undo it.
#[derive(Clone, Debug)]
struct Frame {
    node: NodeId,
    log_start: usize,
    to_play: Color,
    captures: [u32; 2],
    ko: Option<Point>,
    move_number: u32,
    last_move: Option<(Color, Move)>,
}

/// A position in a game tree that can move to any node: it keeps the path
/// from the root and an undo log, so stepping back or to a sibling undoes
/// only what changed.
///
/// A walk that will not step back calls [`Cursor::forget`] (or uses
/// [`Cursor::advance`] and [`Cursor::seek`]): the cursor then keeps no undo
/// record, so a million-move main line is replayed in constant memory.
#[derive(Clone, Debug)]
pub struct Cursor {
    game: usize,
    pos: Position,
    path: Vec<Frame>,
    /// Depth of `path[0]`: more than 0 once the cursor forgot the way up.
    base: usize,
    log: Vec<(u16, u8)>,
    last_report: NodeReport,
    /// The current node was a plain move on the board.
    plain: bool,
}

impl Cursor {
    /// A cursor at the root of game `game` (the root's setup executed).
    ///
    /// # Panics
    /// When `game` is out of range.
    pub fn new(doc: &Document, game: usize) -> Cursor {
        let g = doc.game(game).expect("game index in range");
        let root = g.root();
        let (size, _) = coords::board_size(&root);
        let mut c = Cursor {
            game,
            pos: Position::new(size),
            // Room for a whole game's main line: no regrowth on the way down.
            path: Vec::with_capacity(400),
            log: Vec::with_capacity(512),
            base: 0,
            last_report: NodeReport::default(),
            plain: false,
        };
        c.pos.to_play = initial_player(&root);
        c.enter(doc, root.id());
        c
    }

    /// The game index.
    pub fn game(&self) -> usize {
        self.game
    }

    /// The current node.
    pub fn node(&self) -> NodeId {
        self.path
            .last()
            .expect("the root is always on the path")
            .node
    }

    /// The position after the current node.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.pos.board.size()
    }

    /// What executing the current node did.
    pub fn report(&self) -> &NodeReport {
        &self.last_report
    }

    /// Whether the current node was entered as nothing but a plain move on
    /// the board (`;B[pd]`): no setup, no markup, no odd coordinate.
    pub fn entered_plain_move(&self) -> bool {
        self.plain
    }

    /// The nodes from the root to the current node (from the node where the
    /// cursor last [forgot](Cursor::forget) the way up, if it did).
    pub fn path(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.path.iter().map(|f| f.node)
    }

    /// Depth of the current node (root = 0).
    pub fn depth(&self) -> usize {
        self.base + self.path.len() - 1
    }

    /// Drops what stepping back would need: [`Cursor::up`] then stops at the
    /// current node. A walk that will not come back this way keeps memory
    /// constant however long the line is.
    pub fn forget(&mut self) {
        if self.path.len() <= 1 {
            self.log.clear();
            if let Some(f) = self.path.first_mut() {
                f.log_start = 0;
            }
            return;
        }
        let mut f = self.path.pop().expect("non-empty");
        self.base += self.path.len();
        f.log_start = 0;
        self.path.clear();
        self.path.push(f);
        self.log.clear();
    }

    /// Keeps the way back bounded: when it holds more than twice `keep`
    /// steps, all but the last `keep` are dropped ([`Cursor::up`] then
    /// stops `keep` nodes up, as after [`Cursor::forget`] at that node).
    /// Called after each step down, a walk down a long line can still
    /// step back a little, in memory bounded by `keep` and in amortized
    /// constant time.
    pub fn bound_way_back(&mut self, keep: usize) {
        let keep = keep.max(1);
        if self.path.len() <= 2 * keep {
            return;
        }
        let drop = self.path.len() - keep;
        // The first frame kept is the top: stepping up from it is refused,
        // so nothing in the log before the frames under it is needed.
        let cut = self
            .path
            .get(drop + 1)
            .map_or(self.log.len(), |f| f.log_start);
        self.path.drain(..drop);
        self.base += drop;
        self.log.drain(..cut);
        for f in &mut self.path {
            f.log_start = f.log_start.saturating_sub(cut);
        }
    }

    /// Moves to the first child, keeping no way back (see [`Cursor::forget`]).
    /// Returns false at a leaf.
    pub fn advance(&mut self, doc: &Document) -> bool {
        let moved = self.next(doc);
        self.forget();
        moved
    }

    /// Moves to any node of the game as [`Cursor::goto`] does, keeping no
    /// way back above it (see [`Cursor::forget`]).
    pub fn seek(&mut self, doc: &Document, node: NodeId) -> bool {
        self.goto_with(doc, node, true)
    }

    fn enter(&mut self, doc: &Document, node: NodeId) -> &NodeReport {
        self.path.push(Frame {
            node,
            log_start: self.log.len(),
            to_play: self.pos.to_play,
            captures: self.pos.captures,
            ko: self.pos.ko,
            move_number: self.pos.move_number,
            last_move: self.pos.last_move,
        });
        self.plain = apply_node_into(
            &mut self.pos,
            &doc.node(node),
            &mut self.log,
            &mut self.last_report,
        );
        &self.last_report
    }

    /// Moves to a child of the current node. Returns false when `child` is not one.
    pub fn down(&mut self, doc: &Document, child: NodeId) -> bool {
        if doc.node(child).parent().map(|p| p.id()) != Some(self.node()) {
            return false;
        }
        self.enter(doc, child);
        true
    }

    /// Moves to the first child (the main line). Returns false at a leaf.
    pub fn next(&mut self, doc: &Document) -> bool {
        match doc.node(self.node()).first_child() {
            Some(c) => {
                self.enter(doc, c.id());
                true
            }
            None => false,
        }
    }

    /// Moves to the parent. Returns false at the root.
    pub fn up(&mut self) -> bool {
        if self.path.len() <= 1 {
            return false;
        }
        let f = self.path.pop().expect("non-empty");
        for &(i, old) in self.log[f.log_start..].iter().rev() {
            self.pos.board.set_raw(i as usize, old);
        }
        self.log.truncate(f.log_start);
        self.pos.to_play = f.to_play;
        self.pos.captures = f.captures;
        self.pos.ko = f.ko;
        self.pos.move_number = f.move_number;
        self.pos.last_move = f.last_move;
        self.last_report.moves.clear();
        self.last_report.captured.clear();
        self.last_report.events.clear();
        self.plain = false;
        true
    }

    /// Moves to any node of the game: back to the common ancestor, then down.
    /// Returns false when the node is not in this game, or lies above where
    /// the cursor [forgot](Cursor::forget) the way up.
    pub fn goto(&mut self, doc: &Document, node: NodeId) -> bool {
        self.goto_with(doc, node, false)
    }

    fn goto_with(&mut self, doc: &Document, node: NodeId, forget: bool) -> bool {
        // The way down from the root, of which the path as kept starts
        // `base` nodes below the root; it holds only the variations taken.
        let mut way = doc.node(node).descent().skip(self.base).peekable();
        let mut common = 0;
        while let Some(n) = way.peek()
            && self.path.get(common).is_some_and(|f| f.node == n.id())
        {
            common += 1;
            way.next();
        }
        if common == 0 {
            return false;
        }
        while self.path.len() > common {
            self.up();
        }
        for t in way {
            self.enter(doc, t.id());
            if forget {
                self.forget();
            }
        }
        true
    }

    /// Moves to the end of the main line below the current node.
    pub fn to_end(&mut self, doc: &Document) {
        while self.next(doc) {}
    }

    /// Moves to the end of the main line keeping no way back (see
    /// [`Cursor::forget`]).
    pub fn advance_to_end(&mut self, doc: &Document) {
        while self.advance(doc) {}
    }

    /// The player to move after the current node: `PL` if the node set it,
    /// else the colour of the next move in the record, else the opponent of
    /// the last move.
    pub fn next_player(&self, doc: &Document) -> Color {
        let node = doc.node(self.node());
        if node.value("PL").and_then(|v| pl_color(v.raw())).is_some() {
            return self.pos.to_play;
        }
        if let Some(child) = node.first_child() {
            if child.value("B").is_some() && child.value("W").is_none() {
                return Color::Black;
            }
            if child.value("W").is_some() && child.value("B").is_none() {
                return Color::White;
            }
        }
        self.pos.to_play
    }
}

/// A depth-first walk over every node of a game, children in order, with
/// one cursor: each node is entered once and left once (no replay from the
/// root per node). Once no sibling is left to come back to, the cursor
/// forgets the way up, so a long main line is walked in constant memory.
///
/// The document is passed at each step, so a caller may edit values
/// between steps (not the tree's shape).
#[derive(Clone, Debug)]
pub struct Walk {
    cursor: Cursor,
    /// The next sibling to visit at each depth still to come back to.
    stack: Vec<Option<NodeId>>,
    /// The `Some`s of the stack: none left means nothing to come back to.
    pending: usize,
    main_line: bool,
    started: bool,
}

impl Walk {
    /// A walk of game `game`, before its root.
    ///
    /// # Panics
    /// When `game` is out of range.
    pub fn new(doc: &Document, game: usize) -> Walk {
        Walk {
            cursor: Cursor::new(doc, game),
            stack: Vec::new(),
            pending: 0,
            main_line: true,
            started: false,
        }
    }

    /// The cursor at the node entered last.
    pub fn cursor(&self) -> &Cursor {
        &self.cursor
    }

    /// Whether the node entered last is on the main line (the walk has not
    /// turned back yet).
    pub fn on_main_line(&self) -> bool {
        self.main_line
    }

    /// Enters the next node: the root first, then depth-first. Returns
    /// false when every node was visited.
    pub fn step(&mut self, doc: &Document) -> bool {
        if !self.started {
            self.started = true;
            let first = doc.node(self.cursor.node()).first_child().map(|c| c.id());
            self.pending = usize::from(first.is_some());
            self.stack.push(first);
            return true;
        }
        while let Some(top) = self.stack.last_mut() {
            let Some(child) = *top else {
                if self.pending == 0 {
                    self.stack.clear();
                    return false;
                }
                self.main_line = false;
                self.stack.pop();
                self.cursor.up();
                continue;
            };
            let node = doc.node(child);
            let next = node.next_sibling().map(|s| s.id());
            *top = next;
            self.pending -= usize::from(next.is_none());
            self.cursor.down(doc, child);
            if self.pending == 0 {
                self.cursor.forget();
                self.stack.clear();
            }
            let first = node.first_child().map(|c| c.id());
            self.pending += usize::from(first.is_some());
            self.stack.push(first);
            return true;
        }
        false
    }
}

/// Who plays first: `PL`, else White in a handicap game with setup stones, else Black.
fn initial_player(root: &Node<'_>) -> Color {
    if let Some(c) = root.value("PL").and_then(|v| pl_color(v.raw())) {
        return c;
    }
    let ha = root.value("HA").and_then(|v| v.number()).unwrap_or(0);
    if ha >= 2 && root.value("AB").is_some() {
        Color::White
    } else {
        Color::Black
    }
}

/// The position at the end of the main line of a game, and the number of
/// moves played. The cursor keeps no way back (see [`Cursor::forget`]).
pub fn main_line_end(doc: &Document, game: usize) -> Cursor {
    let mut c = Cursor::new(doc, game);
    c.advance_to_end(doc);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::parse;

    #[test]
    fn a_bounded_way_back_steps_back_as_far_as_it_keeps() {
        // Captures on the way: the log's undo records must stay right.
        let doc =
            parse(b"(;SZ[5];B[ba];W[aa];B[ab];W[cc];B[dd];W[aa];B[ee];W[ca];B[da];W[bb])").document;
        let nodes: Vec<_> = doc.game(0).unwrap().nodes().map(|n| n.id()).collect();
        let mut want = Cursor::new(&doc, 0);
        let mut c = Cursor::new(&doc, 0);
        let mut positions = vec![c.position().clone()];
        for &n in &nodes[1..] {
            assert!(want.down(&doc, n));
            assert!(c.down(&doc, n));
            c.bound_way_back(2);
            positions.push(want.position().clone());
            assert_eq!(c.position(), want.position());
            assert_eq!(c.depth(), want.depth());
        }
        // Ten nodes down, at most four frames kept, two at least.
        let mut back = 0;
        while c.up() {
            back += 1;
            assert_eq!(c.position(), &positions[positions.len() - 1 - back]);
        }
        assert!((1..=4).contains(&back), "{back} steps back");
        assert_eq!(c.depth(), nodes.len() - 1 - back);
        // Below where it forgot, it goes on as before.
        assert!(c.goto(&doc, nodes[nodes.len() - 1]));
        assert_eq!(c.position(), &positions[positions.len() - 1]);
    }

    #[test]
    fn walk_back_and_forth() {
        let doc = parse(b"(;SZ[5];B[bb];W[ab](;B[ba];W[cb])(;B[aa]))").document;
        let mut c = Cursor::new(&doc, 0);
        c.to_end(&doc);
        let end = c.position().clone();
        assert_eq!(end.move_number, 4);
        let nodes: Vec<_> = doc.game(0).unwrap().nodes().map(|n| n.id()).collect();
        // go to the second variation and back
        assert!(c.goto(&doc, nodes[5]));
        assert_eq!(c.position().move_number, 3);
        assert_eq!(c.position().rows()[0], "X....");
        assert!(c.goto(&doc, nodes[4]));
        assert_eq!(c.position(), &end);
        while c.up() {}
        assert_eq!(c.position().board.count(), (0, 0));
    }

    #[test]
    fn a_walk_visits_every_node_with_its_position_and_forgets_when_done() {
        let text: &[u8] = b"(;SZ[5];B[bb](;W[ab](;B[ba];W[cb])(;B[aa]))(;W[cc]);B[dd])";
        let doc = parse(text).document;
        let order: Vec<NodeId> = doc.game(0).unwrap().nodes().map(|n| n.id()).collect();
        let mut walk = Walk::new(&doc, 0);
        let mut seen = Vec::new();
        while walk.step(&doc) {
            let c = walk.cursor();
            // The position each node is entered with is the one `goto` gives.
            let mut fresh = Cursor::new(&doc, 0);
            assert!(fresh.goto(&doc, c.node()));
            assert_eq!(c.position(), fresh.position());
            assert_eq!(c.depth(), fresh.depth());
            seen.push((c.node(), walk.on_main_line()));
        }
        let nodes: Vec<NodeId> = seen.iter().map(|s| s.0).collect();
        assert_eq!(nodes, order);
        // The main line is walked first; the walk then turns back.
        let main: Vec<bool> = seen.iter().map(|s| s.1).collect();
        assert_eq!(main, [true, true, true, true, true, false, false, false]);
        // After the last variation nothing is kept: the way up is forgotten.
        let mut c = walk.cursor().clone();
        assert_eq!(c.path().count(), 1);
        assert!(!c.up());
    }

    #[test]
    fn forgetting_keeps_the_position_and_the_depth() {
        let doc = parse(b"(;SZ[5];B[bb];W[ab];B[ba];W[cb])").document;
        let ids: Vec<NodeId> = doc.game(0).unwrap().main_line().map(|n| n.id()).collect();
        let mut kept = Cursor::new(&doc, 0);
        kept.to_end(&doc);
        let mut c = Cursor::new(&doc, 0);
        c.advance_to_end(&doc);
        assert_eq!(c.position(), kept.position());
        assert_eq!((c.depth(), c.node()), (4, ids[4]));
        assert!(!c.up());
        // Seeking forgets the nodes above; going further down still works,
        // going back above them does not.
        let mut c = Cursor::new(&doc, 0);
        assert!(c.seek(&doc, ids[2]));
        assert_eq!(c.depth(), 2);
        assert!(c.goto(&doc, ids[4]));
        assert!(c.goto(&doc, ids[3]));
        assert!(!c.goto(&doc, ids[1]));
        kept.goto(&doc, ids[3]);
        assert_eq!(c.position(), kept.position());
    }

    #[test]
    fn setup_and_pl() {
        let doc = parse(b"(;SZ[9]AB[aa:bb]AW[cc]PL[W];W[dd];AE[aa]AB[cc])").document;
        let mut c = Cursor::new(&doc, 0);
        assert_eq!(c.position().board.count(), (4, 1));
        assert_eq!(c.position().to_play, Color::White);
        c.to_end(&doc);
        assert_eq!(c.position().board.count(), (4, 1));
        assert_eq!(c.position().move_number, 1);
        c.up();
        c.up();
        assert_eq!(c.position().board.count(), (4, 1));
    }

    #[test]
    fn events_are_reported() {
        let doc = parse(b"(;SZ[5]AB[ba][ab];W[aa];B[bb];B[bb])").document;
        let mut c = Cursor::new(&doc, 0);
        c.next(&doc);
        assert!(matches!(
            c.report().events[0].event,
            Event::Suicide { stones: 1 }
        ));
        c.next(&doc);
        c.next(&doc);
        let kinds: Vec<_> = c.report().events.iter().map(|e| e.event.clone()).collect();
        assert!(kinds.contains(&Event::SameColorTwice));
        assert!(kinds.contains(&Event::Occupied {
            point: Point::new(1, 1)
        }));
    }
}
