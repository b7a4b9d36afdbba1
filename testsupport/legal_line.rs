//! A main line of any length that no checker finds fault with: legal moves
//! on 19×19 from a fixed seed (a pass where none is), for the memory tests
//! of a long game (the viewer's and the commands'). Shared with `#[path]`,
//! as `corpus.rs` is; the including crate depends on sgf-core and sgf-go.
#![allow(dead_code)]

use sgf_core::{Color, Point};
use sgf_go::{BoardSize, Move, Position};

/// `n` legal moves, Black first: from a random point on, the first legal
/// one (a pass when none is).
pub fn legal_game(n: usize) -> Vec<(Color, Move)> {
    let mut pos = Position::new(BoardSize::square(19));
    let mut x = 7u64;
    let mut color = Color::Black;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let from = (x >> 33) % 361;
        let mv = (0..361)
            .map(|i| {
                let k = (from + i) % 361;
                Move::Play(Point::new((k % 19) as u8, (k / 19) as u8))
            })
            .find(|&m| pos.legality(color, m).is_none())
            .unwrap_or(Move::Pass);
        pos.play(color, mv);
        out.push((color, mv));
        color = color.opponent();
    }
    out
}

/// The record of [`legal_game`]: one game, its moves on one line (as a
/// program writes them), passes as `[]`.
pub fn legal_line(n: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[19]PB[Black]PW[White]");
    for (c, mv) in legal_game(n) {
        let c = if c == Color::Black { 'B' } else { 'W' };
        match mv {
            Move::Play(p) => s.push_str(&format!(";{c}[{p}]")),
            Move::Pass => s.push_str(&format!(";{c}[]")),
        }
    }
    s.push(')');
    s
}
