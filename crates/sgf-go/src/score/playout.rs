//! Random playouts on a board made for them: chains kept as linked lists
//! with pseudo-liberties (and their sum and sum of squares, which tell a
//! chain in atari and its last liberty without a walk), so that a move
//! costs a few dozen steps. The playouts of the estimators run here.

use std::sync::Arc;

use super::{Grid, Rng};
use crate::board::Board;

/// No point: past the edge, or no ko.
const NONE: usize = usize::MAX;
/// The cell past the last point, the neighbour of every edge point.
const BORDER: u8 = 3;
/// The most runs a ladder is read for: more than any takes on 19×19.
const LADDER_STEPS: usize = 80;
/// The largest chain a playout tries to take in a ladder.
const LADDER_PREY: u32 = 6;

/// A board for playouts (see the module docs).
#[derive(Clone)]
pub(super) struct PlayoutBoard {
    /// The neighbours of each point; the border cell (index `n`) for those
    /// past the edge. Shared: a copy for reading a ladder copies only the stones.
    nbrs: Arc<[[usize; 4]]>,
    /// The diagonal neighbours of each point, the border cell past the edge.
    diags: Arc<[[usize; 4]]>,
    /// 0 empty, 1 black, 2 white; [`BORDER`] for the border cell.
    colour: Vec<u8>,
    /// The chain of each stone: the index of its representative stone.
    chain: Vec<usize>,
    /// The next stone of the same chain (a circular list).
    next: Vec<usize>,
    /// Per representative: stones, pseudo-liberties (one per stone and
    /// empty neighbour), and the sum and sum of squares of their points.
    size: Vec<u32>,
    libs: Vec<u32>,
    lsum: Vec<u64>,
    lsum2: Vec<u64>,
    /// The point a simple ko forbids to the player to move.
    ko: usize,
    /// The empty points, in any order.
    empties: Vec<usize>,
}

impl PlayoutBoard {
    /// The board's stones (chains found once).
    pub(super) fn of(board: &Board) -> PlayoutBoard {
        let grid = Grid::of(board.size());
        let n = grid.cols * grid.rows;
        let table = |it: &mut dyn Iterator<Item = (usize, usize)>| {
            let mut t = vec![[n; 4]; n];
            for (i, j) in it {
                if let Some(slot) = t[i].iter_mut().find(|s| **s == n) {
                    *slot = j;
                }
            }
            Arc::<[[usize; 4]]>::from(t)
        };
        let nbrs = table(&mut (0..n).flat_map(|i| grid.neighbours(i).map(move |j| (i, j))));
        let diags = table(&mut (0..n).flat_map(|i| grid.diagonals(i).map(move |j| (i, j))));
        let mut b = PlayoutBoard {
            nbrs,
            diags,
            colour: vec![0; n + 1],
            chain: vec![0; n + 1],
            next: vec![0; n + 1],
            size: vec![0; n + 1],
            libs: vec![0; n + 1],
            lsum: vec![0; n + 1],
            lsum2: vec![0; n + 1],
            ko: NONE,
            empties: Vec::with_capacity(n),
        };
        b.colour[n] = BORDER;
        for (i, &c) in board.cells().iter().enumerate() {
            if c == 1 || c == 2 {
                b.put(i, c);
            }
        }
        // Chains without a liberty (a record may set them up): off.
        for i in 0..n {
            if b.colour[i] != 0 && b.libs[b.chain[i]] == 0 {
                b.remove(b.chain[i]);
            }
        }
        b.empties = (0..n).filter(|&i| b.colour[i] == 0).collect();
        b
    }

    /// The stones (and empty points) of the board, row-major.
    pub(super) fn cells(&self) -> &[u8] {
        &self.colour[..self.colour.len() - 1]
    }

    /// The neighbours of point `i` on the board.
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.colour.len() - 1;
        self.nbrs[i].iter().copied().filter(move |&j| j != n)
    }

    fn add_lib(&mut self, c: usize, p: usize) {
        self.libs[c] += 1;
        self.lsum[c] += p as u64;
        self.lsum2[c] += (p * p) as u64;
    }

    fn remove_lib(&mut self, c: usize, p: usize) {
        self.libs[c] -= 1;
        self.lsum[c] -= p as u64;
        self.lsum2[c] -= (p * p) as u64;
    }

    /// Whether chain `c` has exactly one liberty (its pseudo-liberties all one point).
    fn in_atari(&self, c: usize) -> bool {
        let l = u64::from(self.libs[c]);
        l > 0 && l * self.lsum2[c] == self.lsum[c] * self.lsum[c]
    }

    /// Places a stone of `colour` at empty `p`, joining its chains (no capture).
    fn put(&mut self, p: usize, colour: u8) {
        self.colour[p] = colour;
        self.chain[p] = p;
        self.next[p] = p;
        self.size[p] = 1;
        self.libs[p] = 0;
        self.lsum[p] = 0;
        self.lsum2[p] = 0;
        for k in 0..4 {
            let q = self.nbrs[p][k];
            match self.colour[q] {
                0 => self.add_lib(p, q),
                BORDER => {}
                _ => self.remove_lib(self.chain[q], p),
            }
        }
        for k in 0..4 {
            let q = self.nbrs[p][k];
            if self.colour[q] == colour && self.chain[q] != self.chain[p] {
                self.merge(self.chain[p], self.chain[q]);
            }
        }
    }

    /// Joins chains `a` and `b`, the smaller into the larger.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.chain[s] = big;
            s = self.next[s];
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.size[big] += self.size[small];
        self.libs[big] += self.libs[small];
        self.lsum[big] += self.lsum[small];
        self.lsum2[big] += self.lsum2[small];
    }

    /// Takes chain `c` off the board; returns how many stones it had.
    fn remove(&mut self, c: usize) -> u32 {
        let mut s = c;
        let mut n = 0;
        loop {
            self.colour[s] = 0;
            n += 1;
            s = self.next[s];
            if s == c {
                break;
            }
        }
        // The liberties the chain gives back.
        let mut s = c;
        loop {
            for k in 0..4 {
                let q = self.nbrs[s][k];
                if matches!(self.colour[q], 1 | 2) {
                    self.add_lib(self.chain[q], s);
                }
            }
            self.empties.push(s);
            s = self.next[s];
            if s == c {
                break;
            }
        }
        n
    }

    /// Plays `colour` at empty `p` (a move [`PlayoutBoard::playable`] allowed).
    fn play(&mut self, p: usize, colour: u8) {
        self.put(p, colour);
        let them = colour ^ 3;
        let (mut taken, mut last) = (0, NONE);
        for k in 0..4 {
            let q = self.nbrs[p][k];
            if self.colour[q] == them && self.libs[self.chain[q]] == 0 {
                last = q;
                taken += self.remove(self.chain[q]);
            }
        }
        let c = self.chain[p];
        self.ko = if taken == 1 && self.size[c] == 1 && self.in_atari(c) {
            last
        } else {
            NONE
        };
    }

    /// A legal move (not suicide, not a ko retake) that does not fill an
    /// own eye: an empty point whose neighbours are all `colour`'s, with no
    /// opposing stone on a diagonal on the edge, at most one elsewhere.
    fn playable(&self, p: usize, colour: u8) -> bool {
        if self.colour[p] != 0 || p == self.ko {
            return false;
        }
        let mut empty = false;
        let mut all_mine = true;
        for &q in &self.nbrs[p] {
            match self.colour[q] {
                0 => {
                    empty = true;
                    all_mine = false;
                }
                BORDER => {}
                c if c != colour => all_mine = false,
                _ => {}
            }
        }
        if all_mine {
            let edge = self.nbrs[p].iter().any(|&q| self.colour[q] == BORDER);
            let bad = self.diags[p]
                .iter()
                .filter(|&&q| self.colour[q] == colour ^ 3)
                .count();
            if bad == 0 || (!edge && bad == 1) {
                return false;
            }
        }
        if !empty {
            // Legal only if it captures or joins a chain with another liberty.
            let legal = self.nbrs[p].iter().any(|&q| match self.colour[q] {
                0 | BORDER => false,
                c if c == colour => !self.in_atari(self.chain[q]),
                _ => self.in_atari(self.chain[q]),
            });
            if !legal {
                return false;
            }
        }
        !self.self_atari(p, colour)
    }

    /// Whether playing `colour` at `p` leaves a chain of two stones or
    /// more with a single liberty, capturing nothing: random play that
    /// does so gives away groups a player keeps (and kills groups in
    /// seki). A single stone may still be thrown in, as a player does to
    /// take an eye away.
    fn self_atari(&self, p: usize, colour: u8) -> bool {
        // The first two liberties found, besides `p`.
        let mut libs = [NONE; 2];
        let mut found = 0;
        let mut add = |q: usize, found: &mut usize| {
            if q != p && *found < 2 && !libs[..*found].contains(&q) {
                libs[*found] = q;
                *found += 1;
            }
        };
        let mut joined = false;
        for &q in &self.nbrs[p] {
            match self.colour[q] {
                0 => add(q, &mut found),
                BORDER => {}
                c if c == colour => joined = true,
                _ if self.in_atari(self.chain[q]) => return false,
                _ => {}
            }
        }
        if found >= 2 || !joined {
            return false;
        }
        for k in 0..4 {
            let q = self.nbrs[p][k];
            if self.colour[q] != colour {
                continue;
            }
            let c = self.chain[q];
            // Each chain once.
            let seen = self.nbrs[p][..k]
                .iter()
                .any(|&r| self.colour[r] == colour && self.chain[r] == c);
            if seen {
                continue;
            }
            let mut s = c;
            loop {
                for &r in &self.nbrs[s] {
                    if self.colour[r] == 0 {
                        add(r, &mut found);
                    }
                }
                if found >= 2 {
                    return false;
                }
                s = self.next[s];
                if s == c {
                    break;
                }
            }
        }
        found < 2
    }

    /// Plays random moves, `first` (1 or 2) first, never filling an own
    /// eye, until both pass or the moves run out.
    pub(super) fn playout(&mut self, first: u8, rng: &mut Rng, scratch: &mut PlayoutBoard) {
        let mut colour = first;
        let mut passes = 0;
        let mut last = NONE;
        // Long enough to fill the board several times; a ko fight ends there.
        let mut budget = 4 * self.cells().len() + 16;
        while passes < 2 && budget > 0 {
            budget -= 1;
            let mut played = false;
            if let Some(p) = self.reply(last, colour, scratch) {
                let k = self.empties.iter().position(|&e| e == p).expect("empty");
                self.empties.swap_remove(k);
                self.play(p, colour);
                played = true;
                last = p;
            }
            let mut n = if played { 0 } else { self.empties.len() };
            while n > 0 {
                let k = rng.below(n);
                let p = self.empties[k];
                if self.playable(p, colour) {
                    self.empties.swap_remove(k);
                    self.play(p, colour);
                    played = true;
                    last = p;
                    break;
                }
                n -= 1;
                self.empties.swap(k, n);
            }
            if played {
                passes = 0;
            } else {
                passes += 1;
                self.ko = NONE;
                last = NONE;
            }
            colour ^= 3;
        }
    }

    /// The answer to the opponent's move at `last`, if it asks for one:
    /// take the chain it left in atari; or else save a chain of ours it
    /// put in atari, by extending (when that gives it liberties and does
    /// not run into a [`ladder`](PlayoutBoard::ladder)) or by taking a
    /// chain around it; or else take the chain of its move, left with two
    /// liberties, in a ladder; or else fight the [`race`](PlayoutBoard::race)
    /// of a chain of ours next to it. What a player never misses, and
    /// uniform random play often does: without ladders random play lets
    /// every cutting stone run away. `scratch` is where ladders are read.
    fn reply(&self, last: usize, colour: u8, scratch: &mut PlayoutBoard) -> Option<usize> {
        if last == NONE {
            return None;
        }
        let them = colour ^ 3;
        let lib = |c: usize| self.last_liberty(c);
        let mut around = [last, NONE, NONE, NONE, NONE];
        around[1..].copy_from_slice(&self.nbrs[last]);
        for &q in &around {
            if self.colour[q] == them && self.in_atari(self.chain[q]) {
                let p = lib(self.chain[q]);
                if self.playable(p, colour) {
                    return Some(p);
                }
            }
        }
        for &q in &self.nbrs[last] {
            if self.colour[q] == colour && self.in_atari(self.chain[q]) {
                let p = lib(self.chain[q]);
                // Running where it cannot get three liberties may be running into a ladder.
                if self.playable(p, colour)
                    && !(self.liberties_after(p, colour) == 2 && self.ladder_on(q, scratch))
                {
                    return Some(p);
                }
                if let Some(p) = self.race(self.chain[q], colour) {
                    return Some(p);
                }
            }
        }
        if self.colour[last] == them
            && let Some(p) = self.ladder_attack(last, colour, scratch)
        {
            return Some(p);
        }
        for &q in &self.nbrs[last] {
            if self.colour[q] == colour
                && let Some(p) = self.race(self.chain[q], colour)
            {
                return Some(p);
            }
        }
        None
    }

    /// A move that fights for our chain `c` (of `colour`) when it has one
    /// or two liberties: take a touching opponent's chain in atari (which
    /// saves a chain in atari that cannot run); and, with two liberties,
    /// when a touching opponent's chain has two as well, take one of them,
    /// from the outside if it can — in such a capturing race the side to
    /// move wins, and random play leaves races to chance.
    fn race(&self, c: usize, colour: u8) -> Option<usize> {
        let (ours, n) = self.liberties(c);
        if n == 0 || n > 2 {
            return None;
        }
        let them = colour ^ 3;
        let mut s = c;
        loop {
            for &q in &self.nbrs[s] {
                if self.colour[q] != them {
                    continue;
                }
                let d = self.chain[q];
                let (libs, m) = self.liberties(d);
                let pick = match m {
                    1 => Some(libs[0]),
                    2 if n == 2 => {
                        let outside = libs[..2].iter().copied().find(|l| !ours[..2].contains(l));
                        outside.or(Some(libs[0]))
                    }
                    _ => None,
                };
                if let Some(p) = pick.filter(|&p| self.playable(p, colour)) {
                    return Some(p);
                }
            }
            s = self.next[s];
            if s == c {
                return None;
            }
        }
    }

    /// The last liberty of chain `c`, in atari.
    fn last_liberty(&self, c: usize) -> usize {
        (self.lsum[c] / u64::from(self.libs[c])) as usize
    }

    /// Up to three distinct liberties of chain `c`, and how many were found.
    fn liberties(&self, c: usize) -> ([usize; 3], usize) {
        let mut libs = [NONE; 3];
        let mut n = 0;
        let mut s = c;
        loop {
            for &q in &self.nbrs[s] {
                if self.colour[q] == 0 && !libs[..n].contains(&q) {
                    libs[n] = q;
                    n += 1;
                    if n == 3 {
                        return (libs, n);
                    }
                }
            }
            s = self.next[s];
            if s == c {
                return (libs, n);
            }
        }
    }

    /// The empty neighbours of `p`, `besides` left out.
    fn empty_around(&self, p: usize, besides: usize) -> usize {
        self.nbrs[p]
            .iter()
            .filter(|&&q| q != besides && self.colour[q] == 0)
            .count()
    }

    /// How many liberties (up to three) the chain of a stone of `colour`
    /// at empty `p` would have, captures left aside: a run into a ladder
    /// is only worth reading when it gets exactly two.
    fn liberties_after(&self, p: usize, colour: u8) -> usize {
        let mut libs = [NONE; 3];
        let mut n = 0;
        let mut add = |q: usize, n: &mut usize| {
            if q != p && !libs[..*n].contains(&q) {
                libs[*n] = q;
                *n += 1;
            }
        };
        for &q in &self.nbrs[p] {
            if self.colour[q] == 0 {
                add(q, &mut n);
            }
        }
        for k in 0..4 {
            let q = self.nbrs[p][k];
            if n == 3 {
                return n;
            }
            if self.colour[q] != colour {
                continue;
            }
            let c = self.chain[q];
            let mut s = c;
            loop {
                for &r in &self.nbrs[s] {
                    if self.colour[r] == 0 {
                        add(r, &mut n);
                        if n == 3 {
                            return n;
                        }
                    }
                }
                s = self.next[s];
                if s == c {
                    break;
                }
            }
        }
        n
    }

    /// Whether a chain of `colour` in atari touches chain `c`: `c`'s side
    /// can take it.
    fn touches_atari(&self, c: usize, colour: u8) -> bool {
        let mut s = c;
        loop {
            for &q in &self.nbrs[s] {
                if self.colour[q] == colour && self.in_atari(self.chain[q]) {
                    return true;
                }
            }
            s = self.next[s];
            if s == c {
                return false;
            }
        }
    }

    /// Whether `colour` may play at `p`: empty, no ko retake, no suicide.
    fn legal(&self, p: usize, colour: u8) -> bool {
        self.colour[p] == 0
            && p != self.ko
            && self.nbrs[p].iter().any(|&q| match self.colour[q] {
                0 => true,
                BORDER => false,
                c if c == colour => !self.in_atari(self.chain[q]),
                _ => self.in_atari(self.chain[q]),
            })
    }

    /// Whether the chain of `prey`, in atari with its side to move, is
    /// taken in a ladder: it runs out by its last liberty, and the
    /// attacker ataris it again from the side that leaves the next run
    /// the fewest liberties, until it is taken (true), or gets three
    /// liberties, can take an attacking stone, or the attacker cannot
    /// atari (false). Read on this board, which it changes.
    fn ladder(&mut self, prey: usize) -> bool {
        let me = self.colour[prey];
        let them = me ^ 3;
        // Longer than any ladder across a 19×19 board.
        for _ in 0..LADDER_STEPS {
            let c = self.chain[prey];
            if !self.in_atari(c) || self.touches_atari(c, them) {
                return false;
            }
            let p = self.last_liberty(c);
            if !self.legal(p, me) {
                return true;
            }
            self.play(p, me);
            let (libs, n) = self.liberties(self.chain[p]);
            match n {
                0 | 1 => return true,
                2 => {}
                _ => return false,
            }
            // Atari on the side where the prey, running by the other, gets fewer liberties.
            let (a, b) = (libs[0], libs[1]);
            let at = if self.empty_around(b, a) <= self.empty_around(a, b) {
                a
            } else {
                b
            };
            if !self.legal(at, them) {
                return false;
            }
            self.play(at, them);
            if self.in_atari(self.chain[at]) {
                return false;
            }
        }
        false
    }

    /// Whether the chain of `prey` (in atari, its side to move) dies in a
    /// [`ladder`](PlayoutBoard::ladder), read on `scratch`.
    fn ladder_on(&self, prey: usize, scratch: &mut PlayoutBoard) -> bool {
        scratch.copy_stones(self);
        scratch.ladder(prey)
    }

    /// Takes the stones, chains and ko of `from`, a board of the same
    /// size, for reading on: not the list of empty points, which reading
    /// does not use (it is left empty), nor the neighbour tables, which
    /// are the same. Most of a playout's time goes into these copies.
    fn copy_stones(&mut self, from: &PlayoutBoard) {
        self.colour.clone_from(&from.colour);
        self.chain.clone_from(&from.chain);
        self.next.clone_from(&from.next);
        self.size.clone_from(&from.size);
        self.libs.clone_from(&from.libs);
        self.lsum.clone_from(&from.lsum);
        self.lsum2.clone_from(&from.lsum2);
        self.ko = from.ko;
        self.empties.clear();
    }

    /// A move of `colour` that takes the opponent's chain of `last` (two
    /// liberties) in a ladder, if there is one: atari at one liberty,
    /// the other leading nowhere.
    fn ladder_attack(&self, last: usize, colour: u8, scratch: &mut PlayoutBoard) -> Option<usize> {
        let c = self.chain[last];
        if self.size[c] > LADDER_PREY {
            return None;
        }
        let (libs, n) = self.liberties(c);
        if n != 2 {
            return None;
        }
        for (at, run) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            // A run to three liberties or more is no ladder: no need to read.
            if self.empty_around(run, at) > 2 || !self.playable(at, colour) {
                continue;
            }
            scratch.copy_stones(self);
            scratch.play(at, colour);
            if !scratch.in_atari(scratch.chain[at]) && scratch.ladder(last) {
                return Some(at);
            }
        }
        None
    }

    /// The owner of point `i` at the end of a playout: its stone, or the
    /// one colour around an empty point (0: both or none).
    pub(super) fn owner(&self, i: usize) -> u8 {
        match self.colour[i] {
            0 => {
                let around = self.neighbours(i).fold(0, |a, j| a | self.colour[j]);
                if around == 3 { 0 } else { around }
            }
            c => c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::coords::{BoardSize, Move};
    use sgf_core::Color;

    /// Random games on both boards: the same stones and the same ko after every move.
    #[test]
    fn plays_as_the_board_does() {
        for (cols, rows, seed) in [(9, 9, 1), (5, 7, 2), (19, 19, 3), (2, 2, 4), (1, 3, 5)] {
            let size = BoardSize { cols, rows };
            let mut pos = Position::new(size);
            let mut b = PlayoutBoard::of(&pos.board);
            let mut rng = Rng(seed);
            let grid = Grid::of(size);
            let mut colour = 1u8;
            for _ in 0..2000 {
                let moves: Vec<usize> = (0..b.cells().len())
                    .filter(|&p| b.playable(p, colour))
                    .collect();
                if let Some(&p) = moves.get(rng.below(moves.len().max(1))) {
                    let c = if colour == 1 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    assert_eq!(pos.legality(c, Move::Play(grid.point(p))), None);
                    pos.play(c, Move::Play(grid.point(p)));
                    b.play(p, colour);
                    assert_eq!(b.cells(), pos.board.cells());
                    assert_eq!(b.ko, pos.ko.map_or(NONE, |k| grid.index(k)));
                } else {
                    b.ko = NONE;
                    pos.ko = None;
                }
                colour ^= 3;
            }
            // The chains' liberties are what a walk counts.
            for p in 0..b.cells().len() {
                if b.cells()[p] != 0 {
                    let libs = pos.board.liberties(grid.point(p));
                    assert_eq!(b.in_atari(b.chain[p]), libs == 1, "{cols}×{rows} point {p}");
                }
            }
        }
    }

    #[test]
    fn a_playout_fills_the_board_but_the_eyes() {
        let mut b = PlayoutBoard::of(&Board::new(BoardSize::square(9)));
        let mut scratch = b.clone();
        b.playout(1, &mut Rng(7), &mut scratch);
        let cells = b.cells();
        // Only eyes are left: every empty point is surrounded by one colour.
        for (p, &c) in cells.iter().enumerate() {
            if c == 0 {
                assert_ne!(b.owner(p), 0, "point {p}");
            }
        }
        assert!(cells.contains(&1) || cells.contains(&2));
    }

    /// A black stone in atari (its liberty c7 in a 9×9 board's terms:
    /// x 3, y 6), White's stones on the lines a ladder runs along, and
    /// `extra` stones on top.
    fn ladder_board(extra: &[(usize, usize, char)]) -> (PlayoutBoard, usize) {
        let mut rows: Vec<Vec<char>> = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..O......",
            ".OX......",
            "..OO.....",
            ".........",
        ]
        .iter()
        .map(|r| r.chars().collect())
        .collect();
        for &(x, y, c) in extra {
            rows[y][x] = c;
        }
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let b = PlayoutBoard::of(&Position::from_rows(&rows).board);
        (b, 6 * 9 + 2)
    }

    #[test]
    fn a_ladder_to_the_edge_takes_the_stone() {
        let (b, prey) = ladder_board(&[]);
        assert!(b.in_atari(b.chain[prey]));
        let mut scratch = b.clone();
        assert!(b.ladder_on(prey, &mut scratch));
        // The read ran on the scratch board: the stones staircased up to
        // the edge, where the last run leaves one liberty.
        let c = scratch.chain[prey];
        assert!(scratch.size[c] >= 8, "{}", scratch.size[c]);
        assert_eq!(scratch.liberties(c).1, 1);
        assert_eq!(b.size[b.chain[prey]], 1);
    }

    #[test]
    fn a_ladder_breaker_saves_the_stone() {
        // A black stone on the ladder's path, near the top edge.
        let (b, prey) = ladder_board(&[(6, 2, 'X')]);
        assert!(!b.ladder_on(prey, &mut b.clone()));
        // A white stone there instead only helps the ladder.
        let (b, prey) = ladder_board(&[(6, 2, 'O')]);
        assert!(b.ladder_on(prey, &mut b.clone()));
    }

    #[test]
    fn a_stone_with_three_liberties_after_running_escapes() {
        // Without the white stone under the running point, the run gets three liberties.
        let (b, prey) = ladder_board(&[(3, 7, '.')]);
        assert!(!b.ladder_on(prey, &mut b.clone()));
    }

    #[test]
    fn a_playout_ladders_a_stone_left_with_two_liberties() {
        // White's move (the black stone's left, b7) leaves it two liberties:
        // Black-to-play answers, by the reply rule, with the atari that
        // starts a working ladder; White then runs nowhere.
        let (mut b, _) = ladder_board(&[]);
        // Turn the colours round: the stone in the ladder is White's.
        let cells: Vec<u8> = b
            .cells()
            .iter()
            .map(|&c| if c == 0 { 0 } else { c ^ 3 })
            .collect();
        let mut board = Board::new(BoardSize::square(9));
        let grid = Grid::of(BoardSize::square(9));
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 {
                let colour = if c == 1 { Color::Black } else { Color::White };
                board.set(grid.point(i), crate::board::Stone::of(colour));
            }
        }
        // Lift the stone above the prey: it has two liberties, c6 and d7.
        board.set(grid.point(5 * 9 + 2), crate::board::Stone::Empty);
        b = PlayoutBoard::of(&board);
        let prey = 6 * 9 + 2;
        let mut scratch = b.clone();
        // As if White had just played the prey stone.
        let answer = b.reply(prey, 1, &mut scratch).expect("a ladder atari");
        assert!([5 * 9 + 2, 6 * 9 + 3].contains(&answer), "{answer}");
        b.play(answer, 1);
        assert!(b.in_atari(b.chain[prey]));
        assert!(b.ladder_on(prey, &mut scratch));
        // White's escape is no answer: it runs into the ladder.
        assert_eq!(b.reply(answer, 2, &mut scratch), None);
    }

    #[test]
    fn a_race_of_two_liberties_each_is_won_from_the_outside() {
        // Black's d9–d8 (liberties c9, c8) and White's e9–e8 (f9, f8)
        // share none; whoever plays first takes an outside liberty.
        let pos = Position::from_rows(&[".O.XO.X..", "OO.XO.X..", "OOOOXXXXX", "........."]);
        let b = PlayoutBoard::of(&pos.board);
        let (black, white) = (3, 4);
        let p = b.race(b.chain[black], 1).expect("a race move");
        assert!([5, 9 + 5].contains(&p), "{p}");
        let p = b.race(b.chain[white], 2).expect("a race move");
        assert!([2, 9 + 2].contains(&p), "{p}");
        // With three liberties Black is not in a hurry.
        let pos = Position::from_rows(&[".O.XO.X..", "OO.XO.X..", "OOO.XXXXX", "........."]);
        let b = PlayoutBoard::of(&pos.board);
        assert_eq!(b.race(b.chain[black], 1), None);
    }

    #[test]
    fn a_chain_in_atari_that_cannot_run_takes_a_chain_around_it() {
        // White's c7 has put Black's c9–c8 in atari; running at d9 is a
        // self-atari, but White's b9–b8 is in atari too (at a8): Black
        // takes it.
        let pos = Position::from_rows(&["XOX......", ".OXO.....", ".XO......", "........."]);
        let b = PlayoutBoard::of(&pos.board);
        let black = 2;
        assert!(b.in_atari(b.chain[black]));
        assert!(!b.playable(3, 1), "running is a self-atari");
        let mut scratch = b.clone();
        assert_eq!(b.reply(2 * 9 + 2, 1, &mut scratch), Some(9));
    }

    #[test]
    fn chains_without_liberties_are_taken_off() {
        let pos = Position::from_rows(&["XO.", "O..", "..."]);
        let b = PlayoutBoard::of(&pos.board);
        assert_eq!(b.cells()[0], 0);
        assert_eq!(b.empties.len(), 7);
    }
}
