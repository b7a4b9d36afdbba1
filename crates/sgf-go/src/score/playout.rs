//! Random playouts on a board made for them: chains kept as linked lists
//! with pseudo-liberties (and their sum and sum of squares, which tell a
//! chain in atari and its last liberty without a walk), so that a move
//! costs a few dozen steps. The playouts of the estimators run here.

use super::{Grid, Rng};
use crate::board::Board;

/// No point: past the edge, or no ko.
const NONE: usize = usize::MAX;
/// The cell past the last point, the neighbour of every edge point.
const BORDER: u8 = 3;

/// A board for playouts (see the module docs).
#[derive(Clone)]
pub(super) struct PlayoutBoard {
    /// The neighbours of each point; the border cell (index `n`) for those past the edge.
    nbrs: Vec<[usize; 4]>,
    /// The diagonal neighbours of each point, the border cell past the edge.
    diags: Vec<[usize; 4]>,
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
            t
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
    pub(super) fn playout(&mut self, first: u8, rng: &mut Rng) {
        let mut colour = first;
        let mut passes = 0;
        let mut last = NONE;
        // Long enough to fill the board several times; a ko fight ends there.
        let mut budget = 4 * self.cells().len() + 16;
        while passes < 2 && budget > 0 {
            budget -= 1;
            let mut played = false;
            if let Some(p) = self.reply(last, colour) {
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
    /// take the chain it left in atari, or else save a chain of ours it
    /// put in atari by extending (when that gives it liberties). What a
    /// player never misses, and uniform random play often does.
    fn reply(&self, last: usize, colour: u8) -> Option<usize> {
        if last == NONE {
            return None;
        }
        let them = colour ^ 3;
        let lib = |c: usize| (self.lsum[c] / u64::from(self.libs[c])) as usize;
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
                if self.playable(p, colour) {
                    return Some(p);
                }
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
        b.playout(1, &mut Rng(7));
        let cells = b.cells();
        // Only eyes are left: every empty point is surrounded by one colour.
        for (p, &c) in cells.iter().enumerate() {
            if c == 0 {
                assert_ne!(b.owner(p), 0, "point {p}");
            }
        }
        assert!(cells.contains(&1) || cells.contains(&2));
    }

    #[test]
    fn chains_without_liberties_are_taken_off() {
        let pos = Position::from_rows(&["XO.", "O..", "..."]);
        let b = PlayoutBoard::of(&pos.board);
        assert_eq!(b.cells()[0], 0);
        assert_eq!(b.empties.len(), 7);
    }
}
