//! The 8 symmetries of a board (4 on a rectangular one): rotations and
//! reflections, as maps of points between grids.

/// A symmetry: bit 2 transposes (x ↔ y) first, then bit 0 flips x and bit 1
/// flips y. `0` is the identity.
pub type Sym = u8;

/// All eight, the identity first.
pub const ALL: [Sym; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The dimensions `(w, h)` of a `w`×`h` grid after `s`.
pub fn dims(s: Sym, w: u8, h: u8) -> (u8, u8) {
    if s & 4 != 0 { (h, w) } else { (w, h) }
}

/// Where `(x, y)` of a `w`×`h` grid goes under `s`.
pub fn apply(s: Sym, x: u8, y: u8, w: u8, h: u8) -> (u8, u8) {
    let (mut x, mut y, w, h) = if s & 4 != 0 {
        (y, x, h, w)
    } else {
        (x, y, w, h)
    };
    if s & 1 != 0 {
        x = w - 1 - x;
    }
    if s & 2 != 0 {
        y = h - 1 - y;
    }
    (x, y)
}

/// The symmetry that undoes `s` (a map of the transformed grid back).
pub fn inverse(s: Sym) -> Sym {
    // Flips commute with themselves; after a transpose, x and y flips swap roles.
    if s & 4 != 0 {
        4 | ((s & 1) << 1) | ((s & 2) >> 1)
    } else {
        s
    }
}

/// The symmetries that map a `w`×`h` board onto itself.
pub fn of_board(w: u8, h: u8) -> &'static [Sym] {
    if w == h { &ALL } else { &ALL[..4] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes() {
        for s in ALL {
            let (w, h) = (5u8, 7u8);
            let (w2, h2) = dims(s, w, h);
            for y in 0..h {
                for x in 0..w {
                    let (u, v) = apply(s, x, y, w, h);
                    assert!(u < w2 && v < h2);
                    assert_eq!(apply(inverse(s), u, v, w2, h2), (x, y), "s={s}");
                }
            }
        }
    }

    #[test]
    fn eight_distinct_maps() {
        let mut seen: Vec<(u8, u8)> = ALL.iter().map(|&s| apply(s, 1, 0, 4, 4)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 8);
    }
}
