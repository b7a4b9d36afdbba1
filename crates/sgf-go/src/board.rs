//! The board and the execution of moves: captures, suicide, simple ko,
//! setup stones. Moves are executed as SGF requires even when illegal; what
//! was illegal is reported to the caller.

use sgf_core::{Color, Point};

use crate::coords::{BoardSize, MAX_SIZE, Move};

/// The content of a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stone {
    /// No stone.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
}

impl Stone {
    /// The stone of a colour.
    pub fn of(c: Color) -> Stone {
        match c {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }
    fn from_u8(v: u8) -> Stone {
        match v {
            1 => Stone::Black,
            2 => Stone::White,
            _ => Stone::Empty,
        }
    }
    /// The colour, if a stone.
    pub fn color(self) -> Option<Color> {
        match self {
            Stone::Black => Some(Color::Black),
            Stone::White => Some(Color::White),
            Stone::Empty => None,
        }
    }
}

/// A board of up to 52×52 points.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    /// The points row-major, then the border cell, then unused cells up to
    /// [`CELLS`]: an index masked by [`cell`] needs no bounds check.
    cells: Box<[u8; CELLS]>,
    // Walk scratch, a point each (a group has at most every point), with
    // the lengths apart so that the walk keeps them in registers.
    stack: Vec<u16>,
    group: Vec<u16>,
    group_len: usize,
    /// The cells the last [`Board::place`] emptied (see [`Removed`]).
    removed: Vec<u16>,
    /// The neighbours of every point, shared by the boards of one size: no
    /// division per step of a flood fill. A missing neighbour is the index
    /// one past the last point, a cell that holds [`BORDER`], so the loops
    /// need no test for the edge; that cell's neighbours are itself.
    nbrs: NeighbourTable,
}

/// Cells of the largest board (52×52) and its border cell, rounded up to
/// a power of two.
const CELLS: usize = 4096;
// The points and the border cell.
const _: () = assert!((MAX_SIZE as usize * MAX_SIZE as usize) < CELLS);

/// A cell index made provably less than [`CELLS`]: indexes into the
/// fixed-size tables without a bounds check (a no-op for valid indices).
#[inline(always)]
fn cell(i: impl Into<usize>) -> usize {
    i.into() & (CELLS - 1)
}

/// Neighbours of every cell (see [`Board`]).
type NeighbourTable = std::sync::Arc<[[u16; 4]; CELLS]>;

/// The content of the cell past the last point: neither empty nor a stone.
const BORDER: u8 = 3;

/// Marks a stone a walk has reached (so it no longer matches its colour);
/// cleared when the walk ends.
const SEEN: u8 = 4;

/// The neighbour table of a board size, made once per size and thread.
fn neighbour_table(size: BoardSize) -> NeighbourTable {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static TABLES: RefCell<HashMap<(u8, u8), NeighbourTable>> = RefCell::new(HashMap::new());
    }
    TABLES.with(|t| {
        t.borrow_mut()
            .entry((size.cols, size.rows))
            .or_insert_with(|| {
                let (c, r) = (size.cols as usize, size.rows as usize);
                let none = (c * r) as u16;
                // The border cell's neighbours (and the unused cells'): itself.
                let mut t = Box::new([[none; 4]; CELLS]);
                for (i, n) in t.iter_mut().enumerate().take(c * r) {
                    let (x, y) = (i % c, i / c);
                    *n = [
                        if x > 0 { (i - 1) as u16 } else { none },
                        if x + 1 < c { (i + 1) as u16 } else { none },
                        if y > 0 { (i - c) as u16 } else { none },
                        if y + 1 < r { (i + c) as u16 } else { none },
                    ];
                }
                NeighbourTable::from(t)
            })
            .clone()
    })
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.cells() == other.cells()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("cells", &self.cells())
            .finish_non_exhaustive()
    }
}

impl Eq for Board {}

/// What executing a move did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Opposing stones removed.
    pub captured: Vec<Point>,
    /// Own stones removed because the played group had no liberty.
    pub suicide: Vec<Point>,
    /// The point already held a stone (it was overwritten).
    pub occupied: Option<Stone>,
}

/// Which stones a [`Board::place`] removed; their cells are in
/// [`Board::removed`]. A move that captures leaves its own group a
/// liberty, so it never removes both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Removed {
    /// No stone.
    Nothing,
    /// Opposing groups without liberties.
    Captured,
    /// The played group, left without a liberty.
    Suicide,
}

impl Board {
    /// An empty board. Sides above [`MAX_SIZE`] are cut to it (SGF has no
    /// coordinates for more).
    pub fn new(size: BoardSize) -> Board {
        let size = BoardSize {
            cols: size.cols.min(MAX_SIZE),
            rows: size.rows.min(MAX_SIZE),
        };
        let n = size.points();
        let mut cells = Box::new([0; CELLS]);
        cells[cell(n)] = BORDER;
        Board {
            size,
            cells,
            stack: vec![0; n],
            group: vec![0; n],
            group_len: 0,
            removed: Vec::new(),
            nbrs: neighbour_table(size),
        }
    }

    /// The size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    #[inline]
    fn idx(&self, p: Point) -> usize {
        p.y as usize * self.size.cols as usize + p.x as usize
    }

    /// The cell of a point on the board.
    #[inline]
    pub(crate) fn index(&self, p: Point) -> Option<usize> {
        self.size.contains(p).then(|| self.idx(p))
    }

    pub(crate) fn point(&self, i: usize) -> Point {
        let c = self.size.cols as usize;
        Point::new((i % c) as u8, (i / c) as u8)
    }

    /// The stone at a point (Empty off the board).
    pub fn get(&self, p: Point) -> Stone {
        if self.size.contains(p) {
            Stone::from_u8(self.cells[self.idx(p)])
        } else {
            Stone::Empty
        }
    }

    /// Puts a stone (or nothing) on a point, without captures. Returns the old content.
    pub fn set(&mut self, p: Point, s: Stone) -> Stone {
        if !self.size.contains(p) {
            return Stone::Empty;
        }
        let i = self.idx(p);
        let old = self.cells[i];
        self.cells[i] = s as u8;
        Stone::from_u8(old)
    }

    pub(crate) fn set_raw(&mut self, i: usize, v: u8) {
        self.cells[i] = v;
    }

    /// The raw cells, row-major, 0 empty, 1 black, 2 white.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.size.points()]
    }

    /// Number of stones of each colour: (black, white).
    pub fn count(&self) -> (usize, usize) {
        let b = self.cells().iter().filter(|&&c| c == 1).count();
        let w = self.cells().iter().filter(|&&c| c == 2).count();
        (b, w)
    }

    /// The four neighbours of point `i`, the border cell for those off the board.
    #[inline]
    fn neighbour_array(&self, i: usize) -> [usize; 4] {
        self.nbrs[i].map(usize::from)
    }

    /// Walks the group at `i`, depth first, recording its cells in
    /// `self.group` as they are visited; returns whether it has a liberty.
    /// With `STOP_AT_LIBERTY` the walk ends once a liberty is found (the
    /// group recorded is then partial), else it records the whole group.
    fn walk<const STOP_AT_LIBERTY: bool>(&mut self, i: usize) -> bool {
        // Disjoint borrows and local lengths: no reload after a store.
        let Board {
            cells,
            stack,
            group,
            nbrs,
            ..
        } = self;
        let (cells, nbrs) = (&mut **cells, &**nbrs);
        let (stack, group) = (&mut stack[..], &mut group[..]);
        let colour = cells[cell(i)];
        let mut liberty = false;
        let (mut top, mut len) = (1, 0);
        stack[0] = i as u16;
        cells[cell(i)] |= SEEN;
        while top > 0 {
            top -= 1;
            let j = stack[top];
            group[len] = j;
            len += 1;
            // Without branches on what the neighbours hold: the slot past
            // the top is written always, kept for a stone of the group.
            for &k in &nbrs[cell(j)] {
                let v = cells[cell(k)];
                let same = v == colour;
                liberty |= v == 0;
                cells[cell(k)] = v | (u8::from(same) * SEEN);
                stack[top] = k;
                top += usize::from(same);
            }
            if STOP_AT_LIBERTY && liberty {
                break;
            }
        }
        for &g in group[..len].iter().chain(&stack[..top]) {
            cells[cell(g)] &= !SEEN;
        }
        self.group_len = len;
        liberty
    }

    /// Whether the group at `i` has no liberty; if so, it is in `self.group`.
    fn is_dead(&mut self, i: usize) -> bool {
        !self.walk::<true>(i)
    }

    /// Removes the group [`Board::is_dead`] found, appending its cells to
    /// `self.removed`.
    fn remove_dead(&mut self) {
        let group = &self.group[..self.group_len];
        for &g in group {
            self.cells[cell(g)] = 0;
        }
        self.removed.extend_from_slice(group);
    }

    /// The cells emptied by the last [`Board::place`].
    pub(crate) fn removed(&self) -> &[u16] {
        &self.removed
    }

    /// Number of liberties of the group at `p` (0 for an empty point).
    pub fn liberties(&mut self, p: Point) -> usize {
        if self.get(p) == Stone::Empty {
            return 0;
        }
        let i = self.idx(p);
        self.walk::<false>(i);
        let (cells, group) = (&mut self.cells, &self.group[..self.group_len]);
        let mut n = 0;
        for &j in group {
            for &k in &self.nbrs[cell(j)] {
                if cells[cell(k)] == 0 {
                    cells[cell(k)] = SEEN;
                    n += 1;
                }
            }
        }
        for &j in group {
            for &k in &self.nbrs[cell(j)] {
                cells[cell(k)] &= !SEEN;
            }
        }
        n
    }

    /// Executes a move as SGF requires: place the stone (over whatever was
    /// there), remove opposing groups without liberties, then remove the
    /// played group if it has none (suicide).
    pub fn play(&mut self, color: Color, p: Point) -> MoveEffect {
        let mut eff = MoveEffect::default();
        eff.occupied = self.play_into(color, p, &mut eff.captured, &mut eff.suicide);
        eff
    }

    /// [`Board::play`] appending the removed stones to the caller's
    /// buffers; returns what the point held before.
    pub(crate) fn play_into(
        &mut self,
        color: Color,
        p: Point,
        captured: &mut Vec<Point>,
        suicide: &mut Vec<Point>,
    ) -> Option<Stone> {
        let i = self.index(p)?;
        let (old, removed) = self.place(i, color);
        self.removed_points(removed, captured, suicide);
        (old != 0).then(|| Stone::from_u8(old))
    }

    /// Appends the points of the stones the last [`Board::place`] removed
    /// to `captured` or `suicide`.
    fn removed_points(
        &self,
        removed: Removed,
        captured: &mut Vec<Point>,
        suicide: &mut Vec<Point>,
    ) {
        let out = match removed {
            Removed::Nothing => return,
            Removed::Captured => captured,
            Removed::Suicide => suicide,
        };
        out.extend(self.removed.iter().map(|&c| self.point(c as usize)));
    }

    /// Executes a move on cell `i` (on the board): the stone over whatever
    /// was there, then the removal of opposing groups without liberties,
    /// else of the played group if it has none. Returns the cell's old
    /// content; the emptied cells are in [`Board::removed`].
    #[inline(always)]
    pub(crate) fn place(&mut self, i: usize, color: Color) -> (u8, Removed) {
        let me = Stone::of(color) as u8;
        let them = me ^ 3;
        let old = self.cells[i];
        self.cells[i] = me;
        self.removed.clear();
        let ns = self.nbrs[cell(i)];
        // Opposing neighbours with no empty point next to them, a bit each:
        // only their groups can have lost their last liberty. Most groups
        // touched have a liberty next to the stone touched, found without
        // a flood fill. Computed without branches: what the neighbours hold
        // is too random for branch prediction.
        let (mut empty_neighbour, mut suspects) = (false, 0u8);
        let (cells, nbrs) = (&self.cells, &self.nbrs);
        for (bit, &k) in ns.iter().enumerate() {
            let v = cells[cell(k)];
            let [a, b, c, d] = nbrs[cell(k)].map(|j| cells[cell(j)] == 0);
            let touches_empty = a | b | c | d;
            empty_neighbour |= v == 0;
            suspects |= u8::from((v == them) & !touches_empty) << bit;
        }
        if suspects != 0 && self.capture(ns, suspects, them) {
            return (old, Removed::Captured);
        }
        // An empty neighbour leaves the played group a liberty.
        if !empty_neighbour && self.is_dead(i) {
            self.remove_dead();
            return (old, Removed::Suicide);
        }
        (old, Removed::Nothing)
    }

    /// Removes the groups of the neighbours `ns` picked by `suspects` that
    /// have no liberty, in neighbour order; whether there was one. Removing
    /// a group frees no liberty of another group of the same colour (they
    /// would be one group), so the suspects stay the only candidates.
    #[inline(never)]
    fn capture(&mut self, ns: [u16; 4], suspects: u8, them: u8) -> bool {
        for (bit, &k) in ns.iter().enumerate() {
            let k = k as usize;
            // Already removed with the group of an earlier neighbour?
            if suspects & (1 << bit) != 0 && self.cells[cell(k)] == them && self.is_dead(k) {
                self.remove_dead();
            }
        }
        !self.removed.is_empty()
    }
}

/// A position: the board and the state around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stones.
    pub board: Board,
    /// Who plays next.
    pub to_play: Color,
    /// Stones captured by Black (`[0]`) and by White (`[1]`).
    pub captures: [u32; 2],
    /// The point the opponent may not retake immediately (simple ko).
    pub ko: Option<Point>,
    /// Number of the last move (0 before any move; `MN` sets it).
    pub move_number: u32,
    /// The last move played, with its colour.
    pub last_move: Option<(Color, Move)>,
}

/// A move the rules forbid (see [`Position::legality`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The point holds a stone.
    Occupied,
    /// The move would leave its own group without liberties.
    Suicide,
    /// The move retakes a ko immediately.
    KoRetake,
}

impl Illegal {
    /// A short code: `occupied`, `suicide`, `ko`.
    pub fn code(self) -> &'static str {
        match self {
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::KoRetake => "ko",
        }
    }
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Illegal::Occupied => "there is already a stone on this point",
            Illegal::Suicide => "this move is a suicide (its group would have no liberty)",
            Illegal::KoRetake => "this move retakes a ko immediately",
        })
    }
}

/// What happened when a move was executed, for the caller to report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveReport {
    /// The board effect.
    pub effect: MoveEffect,
    /// The move retook a ko immediately.
    pub ko_retake: bool,
}

impl Position {
    /// An empty board, Black to play.
    pub fn new(size: BoardSize) -> Position {
        Position {
            board: Board::new(size),
            to_play: Color::Black,
            captures: [0, 0],
            ko: None,
            move_number: 0,
            last_move: None,
        }
    }

    /// Stones captured by a colour.
    pub fn captured_by(&self, c: Color) -> u32 {
        self.captures[c as usize]
    }

    /// Executes a move (or pass) and updates captures, ko, move number and the player to move.
    pub fn play(&mut self, color: Color, mv: Move) -> MoveReport {
        let mut effect = MoveEffect::default();
        let (occupied, ko_retake) =
            self.play_into(color, mv, &mut effect.captured, &mut effect.suicide);
        effect.occupied = occupied;
        MoveReport { effect, ko_retake }
    }

    /// [`Position::play`] appending the removed stones to the caller's
    /// buffers; returns what the point held and whether the move retook a ko.
    pub(crate) fn play_into(
        &mut self,
        color: Color,
        mv: Move,
        captured: &mut Vec<Point>,
        suicide: &mut Vec<Point>,
    ) -> (Option<Stone>, bool) {
        let Move::Play(p) = mv else {
            self.pass(color, mv);
            return (None, false);
        };
        let Some(i) = self.board.index(p) else {
            // Off the board: nothing to place (the ko is on the board
            // unless a caller set it elsewhere).
            let ko_retake = self.ko == Some(p);
            self.pass(color, mv);
            return (None, ko_retake);
        };
        let (old, removed, ko_retake) = self.place(color, p, i);
        self.board.removed_points(removed, captured, suicide);
        ((old != 0).then(|| Stone::from_u8(old)), ko_retake)
    }

    /// A move that puts no stone on the board (a pass, or a point off it):
    /// the move count, the player and the ko change all the same.
    pub(crate) fn pass(&mut self, color: Color, mv: Move) {
        self.move_number += 1;
        self.last_move = Some((color, mv));
        self.to_play = color.opponent();
        self.ko = None;
    }

    /// Executes a move at `p`, cell `i` of the board (see
    /// [`Board::place`]), and updates captures, ko, move number and the
    /// player to move. Returns the cell's old content, what was removed,
    /// and whether the move retook a ko.
    #[inline(always)]
    pub(crate) fn place(&mut self, color: Color, p: Point, i: usize) -> (u8, Removed, bool) {
        debug_assert_eq!(self.board.index(p), Some(i));
        self.move_number += 1;
        self.last_move = Some((color, Move::Play(p)));
        self.to_play = color.opponent();
        let ko_retake = self.ko == Some(p);
        self.ko = None;
        let (old, removed) = self.board.place(i, color);
        let n = self.board.removed.len() as u32;
        match removed {
            Removed::Nothing => {}
            Removed::Captured => {
                self.captures[color as usize] += n;
                // A single stone that captured a single stone and has
                // exactly one liberty (the captured point) creates a ko: no
                // neighbour of its colour, one empty neighbour.
                let b = &self.board;
                let me = Stone::of(color) as u8;
                let ns = b.neighbour_array(i);
                if n == 1
                    && ns.iter().all(|&k| b.cells[k] != me)
                    && ns.iter().filter(|&&k| b.cells[k] == 0).count() == 1
                {
                    self.ko = Some(b.point(b.removed[0] as usize));
                }
            }
            Removed::Suicide => self.captures[color.opponent() as usize] += n,
        }
        (old, removed, ko_retake)
    }

    /// Why `mv` by `color` would break the rules here, if it would: an
    /// occupied point, a suicide, or an immediate ko retake. SGF records
    /// such moves all the same; editors warn before playing them.
    pub fn legality(&self, color: Color, mv: Move) -> Option<Illegal> {
        let Move::Play(p) = mv else { return None };
        if !self.board.size().contains(p) {
            return None;
        }
        if self.board.get(p) != Stone::Empty {
            return Some(Illegal::Occupied);
        }
        if self.ko == Some(p) && self.last_move.is_some_and(|(c, _)| c != color) {
            return Some(Illegal::KoRetake);
        }
        let mut after = self.board.clone();
        if !after.play(color, p).suicide.is_empty() {
            return Some(Illegal::Suicide);
        }
        None
    }

    /// A position from rows as [`Position::rows`] writes them (`X`, `O`,
    /// anything else empty), Black to play: for tests.
    #[cfg(test)]
    pub(crate) fn from_rows(rows: &[&str]) -> Position {
        let size = BoardSize {
            cols: rows[0].len() as u8,
            rows: rows.len() as u8,
        };
        let mut p = Position::new(size);
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                let s = match c {
                    'X' => Stone::Black,
                    'O' => Stone::White,
                    _ => Stone::Empty,
                };
                p.board.set(Point::new(x as u8, y as u8), s);
            }
        }
        p
    }

    /// Rows top to bottom as text: `X` black, `O` white, `.` empty.
    pub fn rows(&self) -> Vec<String> {
        let s = self.board.size();
        (0..s.rows)
            .map(|y| {
                (0..s.cols)
                    .map(|x| match self.board.get(Point::new(x, y)) {
                        Stone::Black => 'X',
                        Stone::White => 'O',
                        Stone::Empty => '.',
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(rows: &[&str]) -> Position {
        Position::from_rows(rows)
    }

    #[test]
    fn legality_warns_of_ko_suicide_and_occupied_points() {
        // Black captures at b in a ko shape; White may not retake at once.
        let mut p = pos(&[".XO..", "XO.O.", ".XO..", ".....", "....."]);
        let r = p.play(Color::Black, Move::Play(Point::new(2, 1)));
        assert_eq!(r.effect.captured.len(), 1);
        let retake = Move::Play(Point::new(1, 1));
        assert_eq!(p.legality(Color::White, retake), Some(Illegal::KoRetake));
        assert_eq!(
            p.legality(Color::White, Move::Play(Point::new(2, 1))),
            Some(Illegal::Occupied)
        );
        // The corner point is a suicide for White, fine for Black.
        let corner = Move::Play(Point::new(0, 0));
        assert_eq!(p.legality(Color::White, corner), Some(Illegal::Suicide));
        assert_eq!(p.legality(Color::Black, corner), None);
        assert_eq!(p.legality(Color::White, Move::Pass), None);
        assert_eq!(Illegal::KoRetake.code(), "ko");
    }

    #[test]
    fn corner_capture() {
        let mut p = pos(&["O....", "X....", ".....", ".....", "....."]);
        let r = p.play(Color::Black, Move::Play(Point::new(1, 0)));
        assert_eq!(r.effect.captured, vec![Point::new(0, 0)]);
        assert_eq!(p.captured_by(Color::Black), 1);
        assert_eq!(p.rows()[0], ".X...");
    }

    #[test]
    fn group_and_multiple_groups() {
        // Two black stones on the edge.
        let mut p = pos(&["OXXO.", ".O...", ".....", ".....", "....."]);
        let r = p.play(Color::White, Move::Play(Point::new(2, 1)));
        assert_eq!(r.effect.captured.len(), 2);
        assert_eq!(p.captured_by(Color::White), 2);
        assert_eq!(p.rows()[0], "O..O.");
        let mut p = pos(&["XO.OX", "XX.XX", ".....", ".....", "....."]);
        // White stones at (1,0) and (3,0) each in atari after black plays (2,0).
        let r = p.play(Color::Black, Move::Play(Point::new(2, 0)));
        assert_eq!(r.effect.captured.len(), 2);
        assert_eq!(p.rows()[0], "X.X.X");
    }

    #[test]
    fn suicide_removes_own_group() {
        let mut p = pos(&[".X...", "X....", ".....", ".....", "....."]);
        let r = p.play(Color::White, Move::Play(Point::new(0, 0)));
        assert_eq!(r.effect.suicide, vec![Point::new(0, 0)]);
        assert_eq!(p.captured_by(Color::Black), 1);
        assert_eq!(p.board.get(Point::new(0, 0)), Stone::Empty);
    }

    #[test]
    fn ko_and_retake() {
        // Classic ko shape.
        let mut p = pos(&[".XO..", "X.XO.", ".XO..", ".....", "....."]);
        let r = p.play(Color::White, Move::Play(Point::new(1, 1)));
        assert_eq!(r.effect.captured, vec![Point::new(2, 1)]);
        assert_eq!(p.ko, Some(Point::new(2, 1)));
        let r = p.play(Color::Black, Move::Play(Point::new(2, 1)));
        assert!(r.ko_retake);
        assert_eq!(r.effect.captured, vec![Point::new(1, 1)]);
    }

    #[test]
    fn occupied_point_is_overwritten() {
        let mut p = pos(&["X....", ".....", ".....", ".....", "....."]);
        let r = p.play(Color::White, Move::Play(Point::new(0, 0)));
        assert_eq!(r.effect.occupied, Some(Stone::Black));
        assert_eq!(p.board.get(Point::new(0, 0)), Stone::White);
    }

    #[test]
    fn sides_above_52_are_cut() {
        let mut b = Board::new(BoardSize::square(200));
        assert_eq!(b.size(), BoardSize::square(52));
        assert_eq!(b.cells().len(), 52 * 52);
        let far = Point::new(51, 51);
        assert!(b.play(Color::Black, far).captured.is_empty());
        assert_eq!(b.get(far), Stone::Black);
        assert_eq!(b.get(Point::new(60, 60)), Stone::Empty);
        assert_eq!(b.liberties(far), 2);
    }

    #[test]
    fn pass_clears_ko() {
        let mut p = pos(&[".XO..", "X.XO.", ".XO..", ".....", "....."]);
        p.play(Color::White, Move::Play(Point::new(1, 1)));
        p.play(Color::Black, Move::Pass);
        assert_eq!(p.ko, None);
        assert_eq!(p.move_number, 2);
        assert_eq!(p.to_play, Color::White);
    }
}
