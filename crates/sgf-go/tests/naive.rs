//! A random legal game replays to the same position as a naive, obviously
//! correct implementation written here, on square and rectangular boards.

use std::collections::{HashSet, VecDeque};

use proptest::prelude::*;
use sgf_core::parse;
use sgf_go::Cursor;

#[derive(Clone, PartialEq, Debug)]
struct Naive {
    w: usize,
    h: usize,
    b: Vec<Vec<char>>,
    caps: [u32; 2],
}

impl Naive {
    fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            b: vec![vec!['.'; w]; h],
            caps: [0, 0],
        }
    }
    fn nbrs(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        if x > 0 {
            v.push((x - 1, y));
        }
        if x + 1 < self.w {
            v.push((x + 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if y + 1 < self.h {
            v.push((x, y + 1));
        }
        v
    }
    /// The group at (x, y) and whether it has a liberty.
    fn group(&self, x: usize, y: usize) -> (HashSet<(usize, usize)>, bool) {
        let c = self.b[y][x];
        let mut seen = HashSet::new();
        let mut q = VecDeque::from([(x, y)]);
        let mut lib = false;
        seen.insert((x, y));
        while let Some((a, b)) = q.pop_front() {
            for (nx, ny) in self.nbrs(a, b) {
                let v = self.b[ny][nx];
                if v == '.' {
                    lib = true;
                }
                if v == c && seen.insert((nx, ny)) {
                    q.push_back((nx, ny));
                }
            }
        }
        (seen, lib)
    }
    /// Plays; returns false (and changes nothing) if the move is suicide.
    fn play(&mut self, c: char, x: usize, y: usize) -> bool {
        let them = if c == 'X' { 'O' } else { 'X' };
        let saved = self.clone();
        self.b[y][x] = c;
        let mut captured = 0;
        for (nx, ny) in self.nbrs(x, y) {
            if self.b[ny][nx] == them {
                let (g, lib) = self.group(nx, ny);
                if !lib {
                    captured += g.len();
                    for (gx, gy) in g {
                        self.b[gy][gx] = '.';
                    }
                }
            }
        }
        if !self.group(x, y).1 {
            *self = saved;
            return false;
        }
        self.caps[if c == 'X' { 0 } else { 1 }] += captured as u32;
        true
    }
}

fn letter(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn replay_matches_naive(w in 1usize..=21, h in 1usize..=21, seed in any::<u64>(), len in 0usize..300) {
        let mut rng = seed;
        let mut next = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng };
        let mut naive = Naive::new(w, h);
        let mut history: Vec<Vec<Vec<char>>> = vec![naive.b.clone()];
        let mut sgf = if w == h { format!("(;GM[1]FF[4]SZ[{w}]") } else { format!("(;GM[1]FF[4]SZ[{w}:{h}]") };
        let mut colour = 'X';
        for _ in 0..len {
            let empties: Vec<(usize, usize)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| naive.b[y][x] == '.').collect();
            let id = if colour == 'X' { "B" } else { "W" };
            let mut played = false;
            if !empties.is_empty() && next() % 20 != 0 {
                for _ in 0..8 {
                    let (x, y) = empties[(next() % empties.len() as u64) as usize];
                    let before = naive.clone();
                    if naive.play(colour, x, y) {
                        // Positional superko is not a rule here; forbid only immediate repetition (simple ko).
                        if history.len() >= 2 && naive.b == history[history.len() - 2] {
                            naive = before;
                            continue;
                        }
                        sgf.push_str(&format!(";{id}[{}{}]", letter(x), letter(y)));
                        played = true;
                        break;
                    }
                }
            }
            if !played {
                sgf.push_str(&format!(";{id}[]"));
            }
            history.push(naive.b.clone());
            colour = if colour == 'X' { 'O' } else { 'X' };
        }
        sgf.push(')');
        let doc = parse(sgf.as_bytes()).document;
        let mut c = Cursor::new(&doc, 0);
        c.to_end(&doc);
        let rows: Vec<String> = naive.b.iter().map(|r| r.iter().collect()).collect();
        prop_assert_eq!(c.position().rows(), rows);
        prop_assert_eq!(c.position().captures, naive.caps);
        prop_assert_eq!(c.position().move_number as usize, len);
        // And walking back to the root restores the empty board.
        while c.up() {}
        prop_assert_eq!(c.position().board.count(), (0, 0));
    }
}

#[test]
fn big_board_52() {
    let mut sgf = String::from("(;GM[1]FF[4]SZ[52]");
    for i in 0..52 {
        sgf.push_str(&format!(
            ";B[{}{}];W[{}{}]",
            letter(i),
            letter(0),
            letter(i),
            letter(1)
        ));
    }
    sgf.push_str(";B[Za])");
    let doc = parse(sgf.as_bytes()).document;
    let mut c = Cursor::new(&doc, 0);
    c.to_end(&doc);
    // White's last stone on the second row takes the last liberty of Black's
    // first row: all 52 stones are captured; Black then plays in the corner.
    assert_eq!(c.position().board.size().cols, 52);
    assert_eq!(c.position().captured_by(sgf_core::Color::White), 52);
    assert_eq!(
        c.position().rows()[1]
            .chars()
            .filter(|&ch| ch == 'O')
            .count(),
        52
    );
    assert_eq!(c.position().rows()[0], format!("{}X", ".".repeat(51)));
}
