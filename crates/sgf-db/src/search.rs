//! Position and pattern search over encoded games.
//!
//! A pattern is compiled into *variants*: its images under the symmetries
//! (and with colours swapped), deduplicated. Each game is searched in two
//! steps:
//!
//! 1. **Candidates.** A stone the pattern needs must have stood on that point
//!    at some node of the game, so the rows of points each colour ever held
//!    (`ever_black`, `ever_white`) rule out most placements of most variants
//!    with a few word operations per row.
//! 2. **Replay.** The game's tokens are applied to a board, and every
//!    surviving placement keeps a count of its points that do not hold what
//!    the pattern asks. A change of a point updates only the placements
//!    covering it; a placement whose count falls to zero at the end of a
//!    node is a hit. Captures are in the tokens, so nothing computes
//!    liberties.
//!
//! A hit is a node where the pattern stands and did not stand at the node
//! before on the same line (or where the move range starts), where the
//! player to move is the one asked for, and which the sequence follows if
//! the pattern has one. Its continuation is the next move on that line
//! played inside the pattern's area.

use sgf_core::Color;

use crate::encode::{CLOSE, MOVE_B, MOVE_W, NODE, OPEN, PASS, SET_B, SET_E, SET_W, TO_PLAY};
use crate::pattern::{ANY, BLACK, EMPTY, Mask, OUTSIDE, Pattern, WHITE};
use crate::symmetry::{self, Sym};

/// How a pattern is searched.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Anywhere on the board (any translation), not only where it is drawn.
    pub anywhere: bool,
    /// Also with black and white exchanged.
    pub swap_colors: bool,
    /// Only these symmetries of the pattern (all 8 when `None`; the identity
    /// alone is `Some(vec![0])`).
    pub symmetries: Option<Vec<Sym>>,
    /// Who is to play where the pattern stands (overrides the pattern's).
    pub to_play: Option<Color>,
    /// Hits only after this many moves (inclusive).
    pub min_move: Option<u32>,
    /// Hits only up to this many moves (inclusive).
    pub max_move: Option<u32>,
    /// Variations too, not only main lines.
    pub variations: bool,
}

/// One image of the pattern.
#[derive(Clone, Debug)]
pub(crate) struct Variant {
    pub sym: Sym,
    pub swap: bool,
    /// Dimensions of the image.
    pub w: u8,
    pub h: u8,
    /// Where the untransformed shape sits in the pattern's board.
    pub origin: (u8, u8),
    /// Constrained points: (dx, dy, mask).
    pub cells: Vec<(u8, u8, Mask)>,
    /// The constrained points and the wildcards of the area ([`ANY`]).
    pub area: Vec<(u8, u8, Mask)>,
    /// Points that need a black / white stone: (dx, dy, is_white).
    pub needs: Vec<(u8, u8, bool)>,
    /// Points that must be empty: (dx, dy).
    pub empties: Vec<(u8, u8)>,
    /// Rows with needed stones, the fullest first (they rule a game out soonest).
    pub need_rows: Vec<u8>,
    /// Per row, the same as bits.
    pub need_b: Vec<u64>,
    pub need_w: Vec<u64>,
    /// Constrained points that do not accept an empty point.
    pub init: u16,
    pub to_play: Option<Color>,
    /// The sequence: (colour, dx, dy), and the constrained points after each move.
    pub seq: Vec<(Color, u8, u8)>,
    pub steps: Vec<Vec<(u8, u8, Mask)>>,
}

/// A compiled query.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub(crate) variants: Vec<Variant>,
    /// Anchored: a game must have the pattern's board size.
    pub(crate) board: Option<(u8, u8)>,
    pub(crate) min_move: u32,
    pub(crate) max_move: u32,
    pub(crate) variations: bool,
}

fn swap_mask(m: Mask) -> Mask {
    (m & 1) | ((m & 2) << 1) | ((m & 4) >> 1)
}

fn swap_color(c: Color, swap: bool) -> Color {
    if swap { c.opponent() } else { c }
}

impl Compiled {
    /// Compiles a pattern.
    pub fn new(p: &Pattern, opts: &SearchOptions) -> Compiled {
        // The shape: the bounding box anywhere, the whole board anchored.
        let (bx, by, bw, bh) = p.bbox;
        let (shape_w, shape_h, origin, place) = if opts.anywhere {
            (bw, bh, (bx, by), (0u8, 0u8))
        } else {
            (p.cols, p.rows, (0, 0), (bx, by))
        };
        let grid = |masks: &[Mask]| -> Vec<Mask> {
            let mut g = vec![OUTSIDE; shape_w as usize * shape_h as usize];
            for y in 0..bh {
                for x in 0..bw {
                    let (sx, sy) = (x + place.0, y + place.1);
                    g[sy as usize * shape_w as usize + sx as usize] =
                        masks[y as usize * bw as usize + x as usize];
                }
            }
            g
        };
        let base = grid(&p.masks);
        let steps: Vec<Vec<Mask>> = p.steps.iter().map(|s| grid(s)).collect();
        let seq: Vec<(Color, u8, u8)> = p
            .sequence
            .iter()
            .map(|m| {
                let (x, y) = (m.point.x - bx + place.0, m.point.y - by + place.1);
                (m.color, x, y)
            })
            .collect();
        let syms: Vec<Sym> = match &opts.symmetries {
            Some(s) => s.iter().copied().filter(|&s| s < 8).collect(),
            None if opts.anywhere => symmetry::ALL.to_vec(),
            None => symmetry::of_board(p.cols, p.rows).to_vec(),
        };
        let to_play = opts.to_play.or(p.to_play);
        let mut variants: Vec<Variant> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for swap in [false, true] {
            if swap && !opts.swap_colors {
                continue;
            }
            for &s in &syms {
                let (w, h) = symmetry::dims(s, shape_w, shape_h);
                if !opts.anywhere && (w, h) != (shape_w, shape_h) {
                    continue;
                }
                let tr = |g: &[Mask]| -> Vec<(u8, u8, Mask)> {
                    let mut v = Vec::new();
                    for y in 0..shape_h {
                        for x in 0..shape_w {
                            let m = g[y as usize * shape_w as usize + x as usize];
                            let m = if swap { swap_mask(m) } else { m };
                            let (u, t) = symmetry::apply(s, x, y, shape_w, shape_h);
                            v.push((u, t, m));
                        }
                    }
                    v.sort_by_key(|&(u, t, _)| (t, u));
                    v
                };
                let all = tr(&base);
                let vseq: Vec<(Color, u8, u8)> = seq
                    .iter()
                    .map(|&(c, x, y)| {
                        let (u, t) = symmetry::apply(s, x, y, shape_w, shape_h);
                        (swap_color(c, swap), u, t)
                    })
                    .collect();
                let vsteps: Vec<Vec<(u8, u8, Mask)>> = steps
                    .iter()
                    .map(|g| {
                        tr(g)
                            .into_iter()
                            .filter(|&(_, _, m)| m != OUTSIDE && m != ANY)
                            .collect()
                    })
                    .collect();
                let vplay = to_play.map(|c| swap_color(c, swap));
                let key = (w, h, all.clone(), vseq.clone(), vplay);
                if !seen.insert(key) {
                    continue;
                }
                let mut v = Variant {
                    sym: s,
                    swap,
                    w,
                    h,
                    origin,
                    cells: Vec::new(),
                    area: Vec::new(),
                    needs: Vec::new(),
                    empties: Vec::new(),
                    need_rows: Vec::new(),
                    need_b: vec![0; h as usize],
                    need_w: vec![0; h as usize],
                    init: 0,
                    to_play: vplay,
                    seq: vseq,
                    steps: vsteps,
                };
                for (x, y, m) in all {
                    if m != OUTSIDE {
                        v.area.push((x, y, m));
                    }
                    if m == OUTSIDE || m == ANY {
                        continue;
                    }
                    v.cells.push((x, y, m));
                    if m & EMPTY == 0 {
                        v.init += 1;
                    }
                    if m == EMPTY {
                        v.empties.push((x, y));
                    }
                    if m == BLACK {
                        v.needs.push((x, y, false));
                        v.need_b[y as usize] |= 1 << x;
                    } else if m == WHITE {
                        v.needs.push((x, y, true));
                        v.need_w[y as usize] |= 1 << x;
                    }
                }
                let mut rows: Vec<u8> = (0..h)
                    .filter(|&y| v.need_b[y as usize] | v.need_w[y as usize] != 0)
                    .collect();
                rows.sort_by_key(|&y| {
                    std::cmp::Reverse((v.need_b[y as usize] | v.need_w[y as usize]).count_ones())
                });
                v.need_rows = rows;
                variants.push(v);
            }
        }
        Compiled {
            variants,
            board: (!opts.anywhere).then_some((p.cols, p.rows)),
            min_move: opts.min_move.unwrap_or(0),
            max_move: opts.max_move.unwrap_or(u32::MAX),
            variations: opts.variations,
        }
    }

    /// Number of distinct images searched.
    pub fn variant_count(&self) -> usize {
        self.variants.len()
    }
}

/// One game as the search reads it.
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    /// Columns.
    pub cols: u8,
    /// Rows.
    pub rows: u8,
    /// Per row, the points black ever held.
    pub ever_black: &'a [u64],
    /// Per row, the points white ever held.
    pub ever_white: &'a [u64],
    /// Per row, the points emptied again on the main line.
    pub reemptied: &'a [u64],
    /// Per point, when the main line first put a stone there (see
    /// [`crate::encode::first_stones`]).
    pub first: &'a [u8],
    /// The tokens.
    pub tokens: &'a [u16],
}

/// A hit in one game, before it is joined with the game's information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawHit {
    /// Moves played on the line up to the hit node.
    pub move_number: u32,
    /// The hit node in file order (root 0).
    pub node: u32,
    /// Whether the node is off the main line.
    pub variation: bool,
    /// The symmetry that maps the pattern onto the game.
    pub symmetry: Sym,
    /// Whether colours are exchanged.
    pub swapped: bool,
    /// Top-left of the pattern's image on the game's board.
    pub at: (u8, u8),
    /// The next move on the line inside the pattern's area, in the
    /// pattern's coordinates and colours.
    pub continuation: Option<(Color, u8, u8)>,
}

#[derive(Clone, Copy, Debug)]
struct Placement {
    variant: u16,
    ox: u8,
    oy: u8,
}

#[derive(Clone, Debug)]
struct Await {
    hit: usize,
    pl: u32,
}

#[derive(Clone, Debug)]
struct Pending {
    pl: u32,
    step: u16,
    move_number: u32,
    node: u32,
    variation: bool,
}

enum Undo {
    Cell(u16, u8),
    Matched(u32, bool),
}

struct Frame {
    undo: usize,
    move_number: u32,
    to_play: Color,
}

/// Buffers reused from game to game.
#[derive(Default)]
pub struct Scratch {
    placements: Vec<Placement>,
    cand: Vec<u64>,
    offsets: Vec<u32>,
    entries: Vec<u32>,
    counts: Vec<u16>,
    matched: Vec<bool>,
    stamp: Vec<u32>,
    check: Vec<u32>,
    board: Vec<u8>,
    fill: Vec<u32>,
    /// Per placement, hits still waiting for their continuation.
    waiting: Vec<u16>,
    /// Per placement, whether it can never stand again on the main line.
    dead: Vec<bool>,
}

impl Compiled {
    fn candidates(&self, g: &GameView<'_>, s: &mut Scratch) {
        s.placements.clear();
        let (cols, rows) = (g.cols, g.rows);
        if let Some(b) = self.board
            && b != (cols, rows)
        {
            return;
        }
        for (vi, v) in self.variants.iter().enumerate() {
            if v.w > cols || v.h > rows {
                continue;
            }
            let ax = (cols - v.w + 1) as u32;
            let ay = (rows - v.h + 1) as usize;
            if ax == 1 {
                'rows: for oy in 0..ay {
                    for &dy in &v.need_rows {
                        let dy = dy as usize;
                        if v.need_b[dy] & !g.ever_black[oy + dy] != 0
                            || v.need_w[dy] & !g.ever_white[oy + dy] != 0
                        {
                            continue 'rows;
                        }
                    }
                    s.placements.push(Placement {
                        variant: vi as u16,
                        ox: 0,
                        oy: oy as u8,
                    });
                }
                continue;
            }
            let full = if ax >= 64 { u64::MAX } else { (1u64 << ax) - 1 };
            s.cand.clear();
            s.cand.resize(ay, full);
            let mut any = true;
            for &(dx, dy, white) in &v.needs {
                let ever = if white { g.ever_white } else { g.ever_black };
                any = false;
                for (oy, c) in s.cand.iter_mut().enumerate() {
                    *c &= ever[oy + dy as usize] >> dx;
                    any |= *c != 0;
                }
                if !any {
                    break;
                }
            }
            if !any {
                continue;
            }
            for (oy, &c) in s.cand.iter().enumerate() {
                let mut bits = c;
                while bits != 0 {
                    let ox = bits.trailing_zeros();
                    bits &= bits - 1;
                    s.placements.push(Placement {
                        variant: vi as u16,
                        ox: ox as u8,
                        oy: oy as u8,
                    });
                }
            }
        }
        if !self.variations {
            self.by_first_stones(g, s);
        }
    }

    /// Drops placements the main line can never show: all the pattern's
    /// stones are down only after one of its empty points was taken for
    /// good (a point never emptied again), or after the move range.
    fn by_first_stones(&self, g: &GameView<'_>, s: &mut Scratch) {
        let cols = g.cols as usize;
        let limit = (self.max_move / 2).min(254) as u8;
        s.placements.retain(|p| {
            let v = &self.variants[p.variant as usize];
            let (ox, oy) = (p.ox as usize, p.oy as usize);
            let mut t = 0u8;
            for &(dx, dy, _) in &v.needs {
                t = t.max(g.first[(oy + dy as usize) * cols + ox + dx as usize]);
            }
            if self.max_move != u32::MAX && t > limit {
                return false;
            }
            v.empties.iter().all(|&(dx, dy)| {
                let (x, y) = (ox + dx as usize, oy + dy as usize);
                g.reemptied[y] >> x & 1 == 1 || t <= g.first[y * cols + x]
            })
        });
    }

    /// Searches one game; hits are appended to `out` in line order.
    pub fn search_game(&self, g: &GameView<'_>, s: &mut Scratch, out: &mut Vec<RawHit>) {
        self.candidates(g, s);
        if s.placements.is_empty() {
            return;
        }
        let cols = g.cols as usize;
        let npts = cols * g.rows as usize;
        // Point -> (placement << 3 | mask), counting sort.
        s.offsets.clear();
        s.offsets.resize(npts + 1, 0);
        for p in &s.placements {
            let v = &self.variants[p.variant as usize];
            for &(dx, dy, _) in &v.area {
                let i = (p.oy as usize + dy as usize) * cols + p.ox as usize + dx as usize;
                s.offsets[i + 1] += 1;
            }
        }
        for i in 0..npts {
            s.offsets[i + 1] += s.offsets[i];
        }
        s.entries.clear();
        s.entries.resize(s.offsets[npts] as usize, 0);
        s.counts.clear();
        s.matched.clear();
        s.stamp.clear();
        s.waiting.clear();
        s.dead.clear();
        s.fill.clear();
        s.fill.extend_from_slice(&s.offsets[..npts]);
        for (pi, p) in s.placements.iter().enumerate() {
            let v = &self.variants[p.variant as usize];
            for &(dx, dy, m) in &v.area {
                let i = (p.oy as usize + dy as usize) * cols + p.ox as usize + dx as usize;
                s.entries[s.fill[i] as usize] = ((pi as u32) << 3) | m as u32;
                s.fill[i] += 1;
            }
            s.counts.push(v.init);
            s.matched.push(false);
            s.stamp.push(0);
            s.waiting.push(0);
            s.dead.push(false);
        }
        s.board.clear();
        s.board.resize(npts, 0);
        s.check.clear();
        // At the root every placement is checked.
        s.check.extend(0..s.placements.len() as u32);
        let alive = s.placements.len();
        let mut run = Run {
            c: self,
            g,
            s,
            out,
            node: 0,
            node_stamp: 1,
            move_number: 0,
            variation: false,
            to_play: Color::Black,
            node_move: None,
            alive,
            undo: Vec::new(),
            frames: Vec::new(),
            awaiting: Vec::new(),
            pending: Vec::new(),
        };
        run.go();
    }
}

struct Run<'r, 'g> {
    c: &'r Compiled,
    g: &'r GameView<'g>,
    s: &'r mut Scratch,
    out: &'r mut Vec<RawHit>,
    node: u32,
    node_stamp: u32,
    move_number: u32,
    variation: bool,
    to_play: Color,
    node_move: Option<(Color, u16)>,
    /// Placements that may still stand (main lines only).
    alive: usize,
    undo: Vec<Undo>,
    frames: Vec<Frame>,
    awaiting: Vec<Await>,
    pending: Vec<Pending>,
}

impl Run<'_, '_> {
    #[inline]
    fn set(&mut self, p: u16, v: u8) {
        let i = p as usize;
        // Points outside every placement need no board at all.
        if i >= self.s.board.len() || self.s.offsets[i] == self.s.offsets[i + 1] {
            return;
        }
        let old = self.s.board[i];
        if old == v {
            return;
        }
        self.s.board[i] = v;
        if self.c.variations {
            self.undo.push(Undo::Cell(p, old));
        }
        self.update(i, old, v);
    }

    #[inline]
    fn update(&mut self, i: usize, old: u8, new: u8) {
        let (a, b) = (self.s.offsets[i] as usize, self.s.offsets[i + 1] as usize);
        for k in a..b {
            let e = self.s.entries[k];
            let m = e & 7;
            if m == 7 {
                continue;
            }
            let was = (m >> old) & 1;
            let now = (m >> new) & 1;
            if was == now {
                continue;
            }
            let pl = (e >> 3) as usize;
            // An empty point of the pattern taken for good (the main line
            // never empties it again): this placement cannot stand again.
            if now == 0
                && m == EMPTY as u32
                && !self.c.variations
                && !self.s.dead[pl]
                && self.g.reemptied[i / self.g.cols as usize] >> (i % self.g.cols as usize) & 1 == 0
            {
                self.s.dead[pl] = true;
                self.alive -= 1;
            }
            let c = &mut self.s.counts[pl];
            let crossing = if now == 1 {
                *c -= 1;
                *c == 0
            } else {
                *c += 1;
                *c == 1
            };
            if crossing && self.s.stamp[pl] != self.node_stamp {
                self.s.stamp[pl] = self.node_stamp;
                self.s.check.push(pl as u32);
            }
        }
    }

    fn go(&mut self) {
        let tokens = self.g.tokens;
        let mut in_node = false;
        let mut started = false;
        for &t in tokens {
            let (op, arg) = (t >> 12, t & 0xFFF);
            match op {
                MOVE_B | MOVE_W | NODE => {
                    if in_node {
                        self.close_node();
                        if self.alive == 0 && self.awaiting.is_empty() && self.pending.is_empty() {
                            return;
                        }
                    }
                    in_node = true;
                    if started {
                        self.node += 1;
                    }
                    started = true;
                    if op == NODE {
                        self.node_move = None;
                    } else {
                        let c = if op == MOVE_B {
                            Color::Black
                        } else {
                            Color::White
                        };
                        self.move_number += 1;
                        self.to_play = c.opponent();
                        self.node_move = Some((c, arg));
                        if arg != PASS {
                            self.set(arg, 1 + c as u8);
                        }
                    }
                }
                SET_E | SET_B | SET_W => self.set(arg, (op - SET_E) as u8),
                TO_PLAY => {
                    self.to_play = if arg == 2 { Color::White } else { Color::Black };
                }
                OPEN => {
                    if in_node {
                        self.close_node();
                        in_node = false;
                    }
                    if self.c.variations {
                        self.frames.push(Frame {
                            undo: self.undo.len(),
                            move_number: self.move_number,
                            to_play: self.to_play,
                        });
                    }
                }
                CLOSE => {
                    if in_node {
                        self.close_node();
                        in_node = false;
                    }
                    if !self.c.variations {
                        return;
                    }
                    let Some(f) = self.frames.pop() else {
                        return;
                    };
                    while self.undo.len() > f.undo {
                        match self.undo.pop() {
                            Some(Undo::Cell(p, old)) => {
                                let i = p as usize;
                                let cur = self.s.board[i];
                                self.s.board[i] = old;
                                self.update(i, cur, old);
                            }
                            Some(Undo::Matched(pl, old)) => self.s.matched[pl as usize] = old,
                            None => break,
                        }
                    }
                    self.s.check.clear();
                    self.node_stamp += 1;
                    self.move_number = f.move_number;
                    self.to_play = f.to_play;
                    // Continuations and sequences follow the first line
                    // below their hit, and that line has ended.
                    for w in self.awaiting.drain(..) {
                        self.s.waiting[w.pl as usize] = 0;
                    }
                    self.pending.clear();
                    self.variation = true;
                }
                _ => {}
            }
            if !self.c.variations
                && self.move_number > self.c.max_move
                && self.awaiting.is_empty()
                && self.pending.is_empty()
                && !in_node
            {
                return;
            }
        }
        if in_node {
            self.close_node();
        }
    }

    /// A point of the image, in the pattern's board.
    fn to_pattern(v: &Variant, (dx, dy): (u8, u8)) -> (u8, u8) {
        let (x, y) = symmetry::apply(symmetry::inverse(v.sym), dx, dy, v.w, v.h);
        (x + v.origin.0, y + v.origin.1)
    }

    /// The end of a node: usually nothing changed for any placement.
    #[inline]
    fn close_node(&mut self) {
        let entering =
            self.c.min_move > 0 && self.move_number == self.c.min_move && self.node_move.is_some();
        if self.s.check.is_empty()
            && self.pending.is_empty()
            && !entering
            && (self.awaiting.is_empty() || self.node_move.is_none_or(|(_, p)| p == PASS))
        {
            self.bump();
        } else {
            self.end_node();
        }
    }

    fn end_node(&mut self) {
        let cols = self.g.cols as usize;
        // Continuations: this node's move, for hits at earlier nodes whose
        // area holds its point (the placements listed at that point).
        if let Some((color, point)) = self.node_move
            && point != PASS
            && !self.awaiting.is_empty()
            && (point as usize) < self.s.board.len()
        {
            let (a, b) = (
                self.s.offsets[point as usize] as usize,
                self.s.offsets[point as usize + 1] as usize,
            );
            for k in a..b {
                let pl = self.s.entries[k] >> 3;
                if self.s.waiting[pl as usize] == 0 {
                    continue;
                }
                let p = self.s.placements[pl as usize];
                let v = &self.c.variants[p.variant as usize];
                let d = (
                    (point as usize % cols) as u8 - p.ox,
                    (point as usize / cols) as u8 - p.oy,
                );
                let (x, y) = Self::to_pattern(v, d);
                let cont = Some((swap_color(color, v.swap), x, y));
                let out = &mut *self.out;
                self.awaiting.retain(|w| {
                    if w.pl != pl {
                        return true;
                    }
                    // The first line below the hit (its main line) answers.
                    if out[w.hit].continuation.is_none() {
                        out[w.hit].continuation = cont;
                    }
                    false
                });
                self.s.waiting[pl as usize] = 0;
            }
        }
        // Sequences under way.
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let mut keep = Vec::new();
            for mut pd in pending {
                let Some((color, point)) = self.node_move else {
                    keep.push(pd);
                    continue;
                };
                let p = self.s.placements[pd.pl as usize];
                let v = &self.c.variants[p.variant as usize];
                let (sc, sx, sy) = v.seq[pd.step as usize];
                let want = (p.oy as usize + sy as usize) * cols + p.ox as usize + sx as usize;
                if color != sc || point as usize != want {
                    continue;
                }
                let ok = v.steps[pd.step as usize].iter().all(|&(dx, dy, m)| {
                    let i = (p.oy as usize + dy as usize) * cols + p.ox as usize + dx as usize;
                    m >> self.s.board[i] & 1 == 1
                });
                if !ok {
                    continue;
                }
                pd.step += 1;
                if pd.step as usize == v.seq.len() {
                    self.push_hit(pd.pl, pd.move_number, pd.node, pd.variation);
                } else {
                    keep.push(pd);
                }
            }
            self.pending = keep;
        }
        // New hits.
        let in_range = self.move_number >= self.c.min_move && self.move_number <= self.c.max_move;
        let entering =
            self.c.min_move > 0 && self.move_number == self.c.min_move && self.node_move.is_some();
        let check = std::mem::take(&mut self.s.check);
        if check.is_empty() && !entering {
            self.s.check = check;
            self.bump();
            return;
        }
        for &pl in &check {
            let now = self.s.counts[pl as usize] == 0;
            let before = self.s.matched[pl as usize];
            if now != before {
                if self.c.variations {
                    self.undo.push(Undo::Matched(pl, before));
                }
                self.s.matched[pl as usize] = now;
                if now && in_range && !entering {
                    self.found(pl);
                }
            }
        }
        self.s.check = check;
        self.s.check.clear();
        if entering {
            for pl in 0..self.s.placements.len() as u32 {
                if self.s.matched[pl as usize] {
                    self.found(pl);
                }
            }
        }
        self.bump();
    }

    #[inline]
    fn bump(&mut self) {
        self.node_stamp = self.node_stamp.wrapping_add(1);
        if self.node_stamp == 0 {
            self.s.stamp.iter_mut().for_each(|x| *x = 0);
            self.node_stamp = 1;
        }
    }

    fn found(&mut self, pl: u32) {
        let p = self.s.placements[pl as usize];
        let v = &self.c.variants[p.variant as usize];
        if v.to_play.is_some_and(|c| c != self.to_play) {
            return;
        }
        if v.seq.is_empty() {
            self.push_hit(pl, self.move_number, self.node, self.variation);
        } else {
            self.pending.push(Pending {
                pl,
                step: 0,
                move_number: self.move_number,
                node: self.node,
                variation: self.variation,
            });
        }
    }

    fn push_hit(&mut self, pl: u32, move_number: u32, node: u32, variation: bool) {
        let p = self.s.placements[pl as usize];
        let v = &self.c.variants[p.variant as usize];
        self.out.push(RawHit {
            move_number,
            node,
            variation,
            symmetry: v.sym,
            swapped: v.swap,
            at: (p.ox, p.oy),
            continuation: None,
        });
        self.awaiting.push(Await {
            hit: self.out.len() - 1,
            pl,
        });
        self.s.waiting[pl as usize] += 1;
    }
}

/// The SGF name of a point (`pd`): sgf-core's letters.
pub(crate) fn point_name(x: u8, y: u8) -> String {
    sgf_core::Point::new(x, y).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::encode_game;
    use sgf_core::parse;

    fn search(sgf: &[u8], p: &Pattern, o: &SearchOptions) -> Vec<RawHit> {
        let doc = parse(sgf).document;
        let e = encode_game(&doc, 0);
        let (first, reemptied) = crate::encode::first_stones(&e.tokens, e.cols, e.rows);
        let c = Compiled::new(p, o);
        let mut out = Vec::new();
        c.search_game(
            &GameView {
                cols: e.cols,
                rows: e.rows,
                ever_black: &e.ever_black,
                ever_white: &e.ever_white,
                reemptied: &reemptied,
                first: &first,
                tokens: &e.tokens,
            },
            &mut Scratch::default(),
            &mut out,
        );
        out
    }

    #[test]
    fn corner_pattern_under_symmetry_with_continuation() {
        // Drawn in the top-left corner; played in the bottom-right.
        let p = Pattern::from_sgf(b"(;SZ[9]AB[cc]VW[aa:dd])").unwrap();
        let hits = search(
            b"(;SZ[9];B[gg];W[ee];B[hh];W[gh])",
            &p,
            &SearchOptions::default(),
        );
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].move_number, 1);
        // W[gh] is (6,7): in the corner's image, mapped back near cc.
        let (c, x, y) = hits[0].continuation.unwrap();
        assert_eq!(c, Color::Black);
        assert_eq!((x, y), (1, 1));
    }

    #[test]
    fn anywhere_and_swap_and_range() {
        let p = Pattern::from_rows(&["XO"]).unwrap();
        let o = SearchOptions {
            anywhere: true,
            ..Default::default()
        };
        let g = b"(;SZ[5];B[aa];W[ba];B[dd];W[ed])";
        assert_eq!(search(g, &p, &o).len(), 2);
        let o2 = SearchOptions {
            min_move: Some(3),
            ..o.clone()
        };
        // The first stands from move 2 on: reported where the range starts.
        let h = search(g, &p, &o2);
        assert_eq!(
            h.iter().map(|h| h.move_number).collect::<Vec<_>>(),
            vec![3, 4]
        );
        let p2 = Pattern::from_rows(&["OX"]).unwrap();
        let o3 = SearchOptions {
            anywhere: true,
            symmetries: Some(vec![0]),
            ..Default::default()
        };
        assert_eq!(search(g, &p2, &o3).len(), 0);
        let o4 = SearchOptions {
            swap_colors: true,
            ..o3
        };
        assert_eq!(search(g, &p2, &o4).len(), 2);
    }

    #[test]
    fn captures_variations_and_sequences() {
        let p = Pattern::from_rows(&[".X", "X."]).unwrap();
        let o = SearchOptions {
            anywhere: true,
            symmetries: Some(vec![0]),
            ..Default::default()
        };
        let g = b"(;SZ[4];B[ab];W[dd](;B[bb])(;B[ba]))";
        let main = search(g, &p, &o);
        assert!(main.is_empty(), "{main:?}");
        let o2 = SearchOptions {
            variations: true,
            ..o.clone()
        };
        let all = search(g, &p, &o2);
        assert_eq!(all.len(), 1);
        assert!(all[0].variation);
        assert_eq!((all[0].move_number, all[0].node), (3, 4));
        // A sequence with a capture: W plays ba, B captures it at aa.
        let s = Pattern::from_sgf(b"(;SZ[4]AB[ca][bb]VW[aa:cb];W[ba];B[aa])").unwrap();
        assert_eq!(s.steps[1][1], EMPTY);
        let g2 = b"(;SZ[4];B[ca];W[dd];B[bb];W[ba];B[aa];W[dc])";
        let h = search(g2, &s, &SearchOptions::default());
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].move_number, 3);
        let g3 = b"(;SZ[4];B[ca];W[dd];B[bb];W[ba];B[dc])";
        assert!(search(g3, &s, &SearchOptions::default()).is_empty());
    }
}
