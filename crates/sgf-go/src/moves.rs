//! What a move is, and the moves of a game's main line.
//!
//! **One definition for every command and binding:** the moves of a game
//! are its `B` and `W` properties along the path from the root, in order
//! (`B` before `W` in the rare node that holds both, as the repair splits
//! it). Move *N* is the *N*-th of them. A pass (`[]`, or `[tt]` up to
//! 19×19) counts. A move that cannot be played — off the board, or not a
//! coordinate — counts too: it leaves the board as it was, and the checker
//! reports it (`V017`). `MN` only renumbers the moves as diagrams show them
//! (see [`Position::move_number`](crate::Position::move_number)).

use sgf_core::{Color, Document, Node, NodeId};

use crate::coords::{self, BoardSize, Move};

/// One move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameMove {
    /// The node that holds it.
    pub node: NodeId,
    /// Its number: 1 for the first move of the game.
    pub number: u32,
    /// Who plays it.
    pub color: Color,
    /// The stone or pass; `None` when it cannot be played (off the board,
    /// unreadable).
    pub mv: Option<Move>,
}

/// The moves a node holds: `B` then `W`, each with what it plays (`None`:
/// cannot be played on a board of `size`).
pub fn node_moves(node: &Node<'_>, size: BoardSize) -> impl Iterator<Item = (Color, Option<Move>)> {
    [("B", Color::Black), ("W", Color::White)]
        .into_iter()
        .filter_map(move |(ident, color)| {
            if !node.has(ident) {
                return None;
            }
            let mv = match node.value(ident) {
                Some(v) => coords::parse_move(v.raw(), size).mv,
                None => Some(Move::Pass),
            };
            Some((color, mv))
        })
}

/// The moves of the main line of game `game` (0-based), numbered from 1.
/// Empty when there is no such game.
pub fn main_line_moves(doc: &Document, game: usize) -> Vec<GameMove> {
    main_line_moves_iter(doc, game).collect()
}

/// [`main_line_moves`] one at a time, for a caller that keeps only what it
/// needs of each (a million-move line is then not held twice).
pub fn main_line_moves_iter(doc: &Document, game: usize) -> impl Iterator<Item = GameMove> + '_ {
    let g = doc.game(game);
    let size = g.as_ref().map(|g| coords::board_size(&g.root()).0);
    let mut number = 0u32;
    g.into_iter()
        .flat_map(|g| g.main_line())
        .flat_map(move |node| {
            let id = node.id();
            let size = size.expect("a game was found");
            // At most `B` and `W`: kept on the stack, not in a vector.
            let mut two = [None, None];
            for (slot, m) in two.iter_mut().zip(node_moves(&node, size)) {
                *slot = Some(m);
            }
            two.into_iter()
                .flatten()
                .map(move |(color, mv)| (id, color, mv))
        })
        .map(move |(node, color, mv)| {
            number += 1;
            GameMove {
                node,
                number,
                color,
                mv,
            }
        })
}

/// How many moves the main line of game `game` has (see the module docs).
pub fn main_line_move_count(doc: &Document, game: usize) -> usize {
    doc.game(game).map_or(0, |g| {
        g.main_line()
            .map(|n| usize::from(n.has("B")) + usize::from(n.has("W")))
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_b_and_w_counts() {
        // An off-board move, a pass, `tt`, and a node with both colours.
        let doc = sgf_core::parse(b"(;SZ[19];B[zz];W[];B[tt];W[dd]B[pp];W[cc])").document;
        let moves = main_line_moves(&doc, 0);
        let summary: Vec<(u32, Color, Option<Move>)> =
            moves.iter().map(|m| (m.number, m.color, m.mv)).collect();
        let pt = |x, y| Some(Move::Play(sgf_core::Point::new(x, y)));
        assert_eq!(
            summary,
            vec![
                (1, Color::Black, None),
                (2, Color::White, Some(Move::Pass)),
                (3, Color::Black, Some(Move::Pass)),
                (4, Color::Black, pt(15, 15)),
                (5, Color::White, pt(3, 3)),
                (6, Color::White, pt(2, 2)),
            ]
        );
        assert_eq!(main_line_move_count(&doc, 0), 6);
        assert_eq!(main_line_move_count(&doc, 1), 0);
    }
}
