//! The planes of a position and its labels.
//!
//! A position is the board before a move of a game's main line, seen by
//! the player about to move ("own" stones are theirs). Planes, in order:
//!
//! | planes | what |
//! | --- | --- |
//! | `own_0` … `own_{H-1}` | the side to move's stones now, one move ago, … (`H` = history, 8 by default; before the game's start: empty) |
//! | `opp_0` … `opp_{H-1}` | the opponent's stones, the same way |
//! | `black_to_move` | all ones when Black is to move, all zeros when White is |
//! | `ones` | all ones (where the board is: its edge, with zero padding) |
//! | `liberties_1`, `_2`, `_3`, `_4plus` | stones (either colour) whose group has 1, 2, 3, 4 or more liberties (`--liberties`) |
//! | `legal` | empty points the side to move may play (no suicide, no ko retake) (`--legal`) |
//! | `ko` | the point the side to move may not retake (`--ko`) |
//! | `last_1` … `last_K` | the last `K` moves, one plane each (a pass: an empty plane) (`--last-moves K`) |
//!
//! Labels: `policy`, the move played (`y * size + x` from the top left as
//! in SGF, `size * size` for a pass); `value`, the game's result for the
//! side to move (1 win, −1 loss, 0 draw or unknown); `score`, the margin for
//! the side to move when the result gives one (NaN otherwise).

use sgf_core::{Color, Point};
use sgf_go::{BoardSize, Move, Position, Stone, symmetry};

use crate::game::{GameData, PASS};

/// Which planes a position has, besides the stones, the side to move and
/// the constant plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Past positions of stone planes (1–16; 8 by default).
    pub history: usize,
    /// Four planes of liberties.
    pub liberties: bool,
    /// A plane of legal moves.
    pub legal: bool,
    /// A plane of the ko point.
    pub ko: bool,
    /// Planes of the last moves (0–8).
    pub last_moves: usize,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            history: 8,
            liberties: false,
            legal: false,
            ko: false,
            last_moves: 0,
        }
    }
}

impl Features {
    /// The names of the planes, in order.
    pub fn plane_names(&self) -> Vec<String> {
        let mut v: Vec<String> = (0..self.history).map(|k| format!("own_{k}")).collect();
        v.extend((0..self.history).map(|k| format!("opp_{k}")));
        v.push("black_to_move".into());
        v.push("ones".into());
        if self.liberties {
            v.extend(
                [
                    "liberties_1",
                    "liberties_2",
                    "liberties_3",
                    "liberties_4plus",
                ]
                .map(String::from),
            );
        }
        if self.legal {
            v.push("legal".into());
        }
        if self.ko {
            v.push("ko".into());
        }
        v.extend((1..=self.last_moves).map(|k| format!("last_{k}")));
        v
    }

    /// The number of planes.
    pub fn planes(&self) -> usize {
        2 * self.history
            + 2
            + 4 * usize::from(self.liberties)
            + usize::from(self.legal)
            + usize::from(self.ko)
            + self.last_moves
    }

    /// Checks the ranges.
    ///
    /// # Errors
    /// What is out of range.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=16).contains(&self.history) {
            return Err(format!("history {} is not 1 to 16", self.history));
        }
        if self.last_moves > 8 {
            return Err(format!("last moves {} is more than 8", self.last_moves));
        }
        Ok(())
    }
}

/// Which of the board's symmetries each position is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// As played.
    #[default]
    None,
    /// One of the 8, chosen per position from the seed and the game.
    Random,
    /// All 8: eight samples per position.
    All,
}

impl Symmetry {
    /// Reads `none`, `random`, `all`.
    ///
    /// # Errors
    /// For anything else.
    pub fn parse(s: &str) -> Result<Symmetry, String> {
        match s {
            "none" => Ok(Symmetry::None),
            "random" => Ok(Symmetry::Random),
            "all" => Ok(Symmetry::All),
            _ => Err(format!("`{s}`: symmetry is none, random or all")),
        }
    }
}

/// One training sample.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The planes, each bit-packed as `numpy.packbits` packs a flat
    /// `size * size` row (most significant bit first, zero padding).
    pub planes: Box<[u8]>,
    /// The move played (see the module docs).
    pub policy: u16,
    /// The result for the side to move.
    pub value: i8,
    /// The margin for the side to move (NaN when unknown).
    pub score: f32,
    /// 0 Black to move, 1 White.
    pub to_move: u8,
    /// The move's number (1 for the first move of the game).
    pub move_number: u32,
    /// The game's id (its line in `games.jsonl`, from 0).
    pub game: u32,
    /// Komi (NaN when unknown).
    pub komi: f32,
    /// Ranks of Black and White (see [`crate::game::GameData::ranks`]).
    pub ranks: [i8; 2],
    /// Rules (see [`crate::game::RULES`]).
    pub rules: u8,
    /// The symmetry applied (see [`sgf_go::symmetry`]).
    pub symmetry: u8,
}

/// Bytes of one bit-packed plane of a `size`×`size` board.
pub fn plane_bytes(size: u8) -> usize {
    (size as usize * size as usize).div_ceil(8)
}

#[inline]
fn set(plane: &mut [u8], i: usize) {
    plane[i >> 3] |= 0x80 >> (i & 7);
}

#[inline]
fn get(plane: &[u8], i: usize) -> bool {
    plane[i >> 3] & (0x80 >> (i & 7)) != 0
}

fn fill(plane: &mut [u8], n: usize) {
    plane.fill(0xFF);
    if !n.is_multiple_of(8) {
        let last = plane.len() - 1;
        plane[last] = 0xFF << (8 - n % 8);
    }
}

/// Where each point goes under each symmetry, and the reverse.
pub(crate) struct Maps {
    /// `to[s][i]`: the index of point `i` after symmetry `s`.
    to: Vec<Vec<u16>>,
}

impl Maps {
    pub(crate) fn new(size: u8) -> Maps {
        let n = size as usize;
        let to = symmetry::ALL
            .iter()
            .map(|&s| {
                (0..n * n)
                    .map(|i| {
                        let (x, y) = symmetry::apply(s, (i % n) as u8, (i / n) as u8, size, size);
                        (y as usize * n + x as usize) as u16
                    })
                    .collect()
            })
            .collect();
        Maps { to }
    }

    /// The point index `i` after symmetry `s`.
    pub(crate) fn map(&self, s: u8, i: usize) -> usize {
        self.to[s as usize][i] as usize
    }
}

/// Stone cells packed into a Black plane then a White plane.
fn pack(pos: &Position, bpp: usize, out: &mut [u8]) {
    out.fill(0);
    let (b, w) = out.split_at_mut(bpp);
    for (i, &c) in pos.board.cells().iter().enumerate() {
        match c {
            1 => set(b, i),
            2 => set(w, i),
            _ => {}
        }
    }
}

/// Clears bit `i` of a packed plane.
#[inline]
fn clear(plane: &mut [u8], i: usize) {
    plane[i >> 3] &= !(0x80 >> (i & 7));
}

/// The points next to point `i` of a `size`×`size` board.
fn neighbours(i: usize, size: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % size, i / size);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < size).then(|| i + 1),
        (y > 0).then(|| i - size),
        (y + 1 < size).then(|| i + size),
    ]
    .into_iter()
    .flatten()
}

/// Liberties of every point's group (0 for empty points).
fn group_liberties(cells: &[u8], size: usize, out: &mut Vec<u16>) {
    let n = size * size;
    out.clear();
    out.resize(n, 0);
    let mut seen = vec![false; n];
    let mut stamp = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let mut group = Vec::new();
    let mut gid = 0u32;
    for start in 0..n {
        if cells[start] == 0 || seen[start] {
            continue;
        }
        let c = cells[start];
        stack.push(start);
        seen[start] = true;
        group.clear();
        let mut libs = 0u16;
        while let Some(i) = stack.pop() {
            group.push(i);
            for j in neighbours(i, size) {
                if cells[j] == 0 {
                    if stamp[j] != gid {
                        stamp[j] = gid;
                        libs += 1;
                    }
                } else if cells[j] == c && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        for &i in &group {
            out[i] = libs;
        }
        gid += 1;
    }
}

/// The samples of a game, in move order (with [`Symmetry::All`], the 8
/// forms of each position in a row).
pub(crate) fn encode(
    g: &GameData,
    id: u32,
    f: &Features,
    sym: Symmetry,
    seed: u64,
    maps: &Maps,
) -> Vec<Sample> {
    let size = g.size as usize;
    let n = size * size;
    let bpp = plane_bytes(g.size);
    let planes = f.planes();
    let h = f.history;
    let mut pos = Position::new(BoardSize {
        cols: g.size,
        rows: g.size,
    });
    let point = |i: u16| Point::new((i as usize % size) as u8, (i as usize / size) as u8);
    let stone = |v: u8| match v {
        1 => Stone::Black,
        2 => Stone::White,
        _ => Stone::Empty,
    };
    let mut edits = g.setup.iter().peekable();
    // The stones now, Black's plane then White's, kept up to date move by
    // move; the history holds copies, the oldest reused for the newest.
    let mut cur = vec![0u8; 2 * bpp];
    let mut hist: std::collections::VecDeque<Vec<u8>> =
        std::collections::VecDeque::with_capacity(h + 1);
    hist.push_front(cur.clone());
    let mut libs = Vec::new();
    let per = if sym == Symmetry::All { 8 } else { 1 };
    let mut out = Vec::with_capacity(g.moves.len() * per);
    for (k, &(color, mv)) in g.moves.iter().enumerate() {
        // Setup before this move changes the position as it is now.
        let mut edited = false;
        while let Some(&&(_, v, i)) = edits.peek().filter(|e| e.0 as usize == k) {
            pos.board.set(point(i), stone(v));
            edits.next();
            edited = true;
        }
        if edited {
            pack(&pos, bpp, &mut cur);
            hist[0].copy_from_slice(&cur);
        }
        let mut buf = vec![0u8; planes * bpp];
        for (t, bw) in hist.iter().enumerate() {
            let (b, w) = bw.split_at(bpp);
            let (own, opp) = if color == Color::Black {
                (b, w)
            } else {
                (w, b)
            };
            buf[t * bpp..(t + 1) * bpp].copy_from_slice(own);
            buf[(h + t) * bpp..(h + t + 1) * bpp].copy_from_slice(opp);
        }
        if color == Color::Black {
            fill(&mut buf[2 * h * bpp..(2 * h + 1) * bpp], n);
        }
        fill(&mut buf[(2 * h + 1) * bpp..(2 * h + 2) * bpp], n);
        let mut next = 2 * h + 2;
        let cells = pos.board.cells();
        if f.liberties || f.legal {
            group_liberties(cells, size, &mut libs);
        }
        if f.liberties {
            for (i, &l) in libs.iter().enumerate() {
                if l > 0 {
                    let p = next + (l.min(4) as usize - 1);
                    set(&mut buf[p * bpp..(p + 1) * bpp], i);
                }
            }
            next += 4;
        }
        let ko = pos
            .ko
            .filter(|_| pos.last_move.is_some_and(|(c, _)| c != color));
        if f.legal {
            let me = Stone::of(color) as u8;
            let plane = &mut buf[next * bpp..(next + 1) * bpp];
            for i in 0..n {
                if cells[i] != 0 || ko == Some(point(i as u16)) {
                    continue;
                }
                let ok = neighbours(i, size).any(|j| {
                    cells[j] == 0
                        || (cells[j] == me && libs[j] >= 2)
                        || (cells[j] != me && libs[j] == 1)
                });
                if ok {
                    set(plane, i);
                }
            }
            next += 1;
        }
        if f.ko {
            if let Some(p) = ko {
                let i = p.y as usize * size + p.x as usize;
                set(&mut buf[next * bpp..(next + 1) * bpp], i);
            }
            next += 1;
        }
        for t in 0..f.last_moves {
            if k > t {
                let (_, q) = g.moves[k - 1 - t];
                if q != PASS {
                    set(&mut buf[(next + t) * bpp..(next + t + 1) * bpp], q as usize);
                }
            }
        }
        let policy = if mv == PASS { n as u16 } else { mv };
        let value = match g.winner {
            Some(w) if w == color => 1,
            Some(_) => -1,
            None => 0,
        };
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let sample = Sample {
            planes: Box::default(),
            policy,
            value,
            score: g.margin.map_or(f32::NAN, |m| m * sign),
            to_move: u8::from(color == Color::White),
            move_number: k as u32 + 1,
            game: id,
            komi: g.komi,
            ranks: g.ranks,
            rules: g.rules,
            symmetry: 0,
        };
        let syms: &[u8] = match sym {
            Symmetry::None => &[0],
            Symmetry::All => &symmetry::ALL,
            Symmetry::Random => {
                let r = crate::rng::mix(seed ^ g.key ^ (k as u64).wrapping_mul(0x9E37_79B9)) % 8;
                &symmetry::ALL[r as usize..r as usize + 1]
            }
        };
        for (si, &s) in syms.iter().enumerate() {
            let mut smp = sample.clone();
            smp.symmetry = s;
            if s == 0 {
                smp.planes = if si + 1 == syms.len() {
                    std::mem::take(&mut buf).into_boxed_slice()
                } else {
                    buf.clone().into_boxed_slice()
                };
            } else {
                let mut t = vec![0u8; planes * bpp];
                for p in 0..planes {
                    let src = &buf[p * bpp..(p + 1) * bpp];
                    let dst = &mut t[p * bpp..(p + 1) * bpp];
                    if p == 2 * h || p == 2 * h + 1 {
                        // Constant planes are the same in every symmetry.
                        dst.copy_from_slice(src);
                        continue;
                    }
                    for (bi, &byte) in src.iter().enumerate() {
                        let mut b = byte;
                        while b != 0 {
                            let bit = b.leading_zeros() as usize;
                            b &= !(0x80 >> bit);
                            set(dst, maps.map(s, bi * 8 + bit));
                        }
                    }
                }
                smp.planes = t.into_boxed_slice();
                if (policy as usize) < n {
                    smp.policy = maps.map(s, policy as usize) as u16;
                }
            }
            out.push(smp);
        }
        let m = if mv == PASS {
            Move::Pass
        } else {
            Move::Play(point(mv))
        };
        let rep = pos.play(color, m);
        if let Move::Play(p) = m {
            let (b, w) = cur.split_at_mut(bpp);
            let (mine, theirs) = if color == Color::Black {
                (b, w)
            } else {
                (w, b)
            };
            set(mine, p.y as usize * size + p.x as usize);
            for q in &rep.effect.captured {
                clear(theirs, q.y as usize * size + q.x as usize);
            }
            for q in &rep.effect.suicide {
                clear(mine, q.y as usize * size + q.x as usize);
            }
        }
        let mut slot = if hist.len() == h {
            hist.pop_back().unwrap_or_default()
        } else {
            vec![0u8; 2 * bpp]
        };
        slot.copy_from_slice(&cur);
        hist.push_front(slot);
    }
    out
}

/// Whether bit `i` of a packed plane is set (for readers and tests).
pub fn bit(plane: &[u8], i: usize) -> bool {
    get(plane, i)
}
