//! A minimal replay of a main line (captures only, no ko or suicide
//! rules), used to check a guess about handicap stones: a guess is good when
//! no move then lands on an occupied point. Kept private and tiny on purpose;
//! it is not a Go engine.

use sgf_core::value::{Color, Point};

/// Number of moves that land on an occupied point when `moves` are played
/// from a board with `black` stones.
pub(crate) fn occupied_moves(size: u8, black: &[Point], moves: &[(Color, Option<Point>)]) -> usize {
    let n = size as usize;
    let mut board: Vec<Option<Color>> = vec![None; n * n];
    let idx = |p: Point| p.y as usize * n + p.x as usize;
    for &p in black {
        if p.x < size && p.y < size {
            board[idx(p)] = Some(Color::Black);
        }
    }
    let neighbours = |i: usize| {
        let (x, y) = (i % n, i / n);
        let mut v = [usize::MAX; 4];
        if x > 0 {
            v[0] = i - 1;
        }
        if x + 1 < n {
            v[1] = i + 1;
        }
        if y > 0 {
            v[2] = i - n;
        }
        if y + 1 < n {
            v[3] = i + n;
        }
        v.into_iter().filter(|&j| j != usize::MAX)
    };
    // The group at `i` when it has no liberty, else empty.
    let dead_group = |board: &[Option<Color>], i: usize| -> Vec<usize> {
        let c = board[i];
        let mut seen = vec![i];
        let mut k = 0;
        while k < seen.len() {
            for j in neighbours(seen[k]) {
                match board[j] {
                    None => return Vec::new(),
                    s if s == c && !seen.contains(&j) => seen.push(j),
                    _ => {}
                }
            }
            k += 1;
        }
        seen
    };
    let mut bad = 0;
    for &(c, p) in moves {
        let Some(p) = p.filter(|p| p.x < size && p.y < size) else {
            continue;
        };
        let i = idx(p);
        if board[i].is_some() {
            bad += 1;
        }
        board[i] = Some(c);
        for j in neighbours(i) {
            if board[j] == Some(c.opponent()) {
                for k in dead_group(&board, j) {
                    board[k] = None;
                }
            }
        }
        for k in dead_group(&board, i) {
            board[k] = None;
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
