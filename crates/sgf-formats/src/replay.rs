//! A replay of a main line to check a guess about handicap stones: a guess
//! is good when no move then lands on an occupied point. The board is
//! sgf-go's (captures and suicide as the SGF rules say).

use sgf_core::value::{Color, Point};
use sgf_go::{Board, BoardSize, Stone};

/// Number of moves that land on an occupied point when `moves` are played
/// from a board with `black` stones.
pub(crate) fn occupied_moves(size: u8, black: &[Point], moves: &[(Color, Option<Point>)]) -> usize {
    let mut board = Board::new(BoardSize::square(size));
    for &p in black {
        if p.x < size && p.y < size {
            board.set(p, Stone::Black);
        }
    }
    let mut bad = 0;
    for &(c, p) in moves {
        if let Some(p) = p.filter(|p| p.x < size && p.y < size)
            && board.play(c, p).occupied.is_some()
        {
            bad += 1;
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_then_replay_is_not_a_conflict() {
        let p = Point::new;
        // White captures the black stone at aa, Black plays there again.
        let moves = [
            (Color::White, Some(p(1, 0))),
            (Color::White, Some(p(0, 1))),
            (Color::Black, Some(p(0, 0))),
        ];
        assert_eq!(occupied_moves(9, &[p(0, 0)], &moves[..2]), 0);
        assert_eq!(occupied_moves(9, &[p(0, 0)], &moves), 0);
        assert_eq!(occupied_moves(9, &[p(1, 0)], &moves), 1);
    }
}
