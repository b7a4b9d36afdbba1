//! What makes two records the same game: the Dyer signature of the main
//! line and the hash of the final position, each the least over the
//! board's symmetries. `qipu db dups` and `qipu dataset` find duplicates
//! with these, so both call the same games the same.

use sgf_core::Point;

use crate::symmetry;

/// The moves whose points make the Dyer signature, in its order.
pub const DYER_MOVES: [usize; 6] = [20, 40, 60, 31, 51, 71];

/// The Dyer signature: the points of main-line moves 20, 40, 60, 31, 51
/// and 71 (`--` when the game is shorter, `tt` for a pass), the least
/// string over the board's symmetries. `main[n]` is move `n + 1`: a point,
/// or `None` for a pass.
pub fn dyer_signature(main: &[Option<Point>], cols: u8, rows: u8) -> String {
    let mut best: Option<String> = None;
    for &s in symmetry::of_board(cols, rows) {
        let mut sig = String::with_capacity(12);
        for n in DYER_MOVES {
            match main.get(n - 1) {
                None => sig.push_str("--"),
                Some(None) => sig.push_str("tt"),
                Some(Some(p)) => {
                    let (u, v) = symmetry::apply(s, p.x, p.y, cols, rows);
                    sig.push_str(&Point::new(u, v).to_string());
                }
            }
        }
        if best.as_ref().is_none_or(|b| sig < *b) {
            best = Some(sig);
        }
    }
    best.unwrap_or_default()
}

/// A 63-bit hash of a board (`cells` row-major, any stone encoding), the
/// least over its symmetries; 0 when `cells` is not `cols`×`rows`.
pub fn position_hash(cells: &[u8], cols: u8, rows: u8) -> i64 {
    let mut best = u64::MAX;
    if cells.len() != cols as usize * rows as usize {
        return 0;
    }
    let mut t = vec![0u8; cells.len()];
    for &s in symmetry::of_board(cols, rows) {
        let (w, _) = symmetry::dims(s, cols, rows);
        for y in 0..rows {
            for x in 0..cols {
                let (u, v) = symmetry::apply(s, x, y, cols, rows);
                t[v as usize * w as usize + u as usize] =
                    cells[y as usize * cols as usize + x as usize];
            }
        }
        // FNV-1a.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &t {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        best = best.min(h);
    }
    (best >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_games_share_a_signature() {
        let p = |x, y| Some(Point::new(x, y));
        let mut a = vec![p(3, 3); 71];
        a[19] = p(15, 3);
        a[39] = None;
        let b: Vec<_> = a
            .iter()
            .map(|m| m.map(|q| Point::new(18 - q.x, q.y)))
            .collect();
        assert_eq!(dyer_signature(&a, 19, 19), dyer_signature(&b, 19, 19));
        assert_eq!(dyer_signature(&[], 19, 19), "------------");
        let mut cells = vec![0u8; 361];
        cells[3] = 1;
        let mut flipped = vec![0u8; 361];
        flipped[15] = 1;
        assert_eq!(
            position_hash(&cells, 19, 19),
            position_hash(&flipped, 19, 19)
        );
        assert_eq!(position_hash(&cells, 9, 9), 0);
    }
}
