//! The 8 symmetries of a board (4 on a rectangular one): rotations and
//! reflections, as maps of points between grids; and a game rewritten
//! under one ([`transform_game`]: every point of every node, colours
//! swapped on request), as an edit of the document.

use sgf_core::props::ValueType;
use sgf_core::{Document, EditError, NodeId, Point};

use crate::coords::{self, BoardSize};

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

/// The properties whose colour [`transform_game`] swaps, in pairs.
const COLOUR_PAIRS: [(&str, &str); 9] = [
    ("B", "W"),
    ("AB", "AW"),
    ("PB", "PW"),
    ("BR", "WR"),
    ("BT", "WT"),
    ("TB", "TW"),
    ("BL", "WL"),
    ("OB", "OW"),
    ("GB", "GW"),
];

/// A raw point value (`dd`, or `aa:cc` for a rectangle of a list) under
/// `s`; `None` when it is no point of the board (a pass, `tt`).
fn map_point(s: Sym, raw: &[u8], size: BoardSize) -> Option<String> {
    let one = |b: &[u8]| {
        sgf_core::value::parse_point(b)
            .filter(|p| b.len() == 2 && size.contains(*p))
            .map(|p| apply(s, p.x, p.y, size.cols, size.rows))
    };
    match raw.iter().position(|&b| b == b':') {
        None => one(raw).map(|(x, y)| Point::new(x, y).to_string()),
        Some(i) => {
            let (a, b) = (one(&raw[..i])?, one(&raw[i + 1..])?);
            // A rectangle stays one: its corners as the least and the most.
            let lo = Point::new(a.0.min(b.0), a.1.min(b.1));
            let hi = Point::new(a.0.max(b.0), a.1.max(b.1));
            Some(format!("{lo}:{hi}"))
        }
    }
}

/// A raw value of `kind` under `s`; `None` when it does not change.
fn map_value(s: Sym, kind: ValueType, raw: &[u8], size: BoardSize) -> Option<String> {
    match kind {
        ValueType::Point
        | ValueType::Move
        | ValueType::Stone
        | ValueType::ListOfPoint
        | ValueType::EListOfPoint
        | ValueType::ListOfStone => map_point(s, raw, size),
        ValueType::ListOfPointPoint => {
            let i = raw.iter().position(|&b| b == b':')?;
            let a = map_point(s, &raw[..i], size)?;
            let b = map_point(s, &raw[i + 1..], size)?;
            Some(format!("{a}:{b}"))
        }
        ValueType::ListOfPointText => {
            let i = raw.iter().position(|&b| b == b':')?;
            let a = map_point(s, &raw[..i], size)?;
            Some(format!("{a}:{}", String::from_utf8_lossy(&raw[i + 1..])))
        }
        _ => None,
    }
}

/// Rewrites game `game` of `doc` under symmetry `s` (every point of every
/// node: moves, setup, markup, labels, arrows, `VW`), and with the colours
/// swapped when `invert` (moves, setup, players and their ranks, teams
/// and clocks, territory, `GB`/`GW`, `PL`, the winner of `RE`). Only the
/// values that change are rewritten, so a lossless write changes only
/// them. The caller records the edit as one change (undo).
///
/// # Errors
/// A symmetry that transposes a board that is not square (its `SZ` would
/// change), no such game, or a value the document refuses.
pub fn transform_game(
    doc: &mut Document,
    game: usize,
    s: Sym,
    invert: bool,
) -> Result<(), EditError> {
    let root = doc.game(game).ok_or(EditError::BadIndex)?.root();
    let size = coords::board_size(&root).0;
    if !of_board(size.cols, size.rows).contains(&s) {
        return Err(EditError::BadIndex);
    }
    let nodes: Vec<NodeId> = doc
        .game(game)
        .expect("checked")
        .nodes()
        .map(|n| n.id())
        .collect();
    for id in nodes {
        if s != 0 {
            // Each property whose values change, with all its values.
            let changes: Vec<(String, Vec<String>)> = doc
                .node(id)
                .props()
                .filter_map(|p| {
                    let kind = p.info().map(|i| i.value)?;
                    let raws: Vec<(bool, String)> = p
                        .values()
                        .map(|v| match map_value(s, kind, v.raw(), size) {
                            Some(m) => (true, m),
                            None => (false, String::from_utf8_lossy(v.raw()).into_owned()),
                        })
                        .collect();
                    raws.iter().any(|r| r.0).then(|| {
                        (
                            p.ident().to_string(),
                            raws.into_iter().map(|r| r.1).collect(),
                        )
                    })
                })
                .collect();
            for (ident, raws) in changes {
                doc.set_raw(id, &ident, &raws)?;
            }
        }
        if invert {
            invert_node(doc, id)?;
        }
    }
    Ok(())
}

/// Black and White swapped in one node (see [`transform_game`]).
fn invert_node(doc: &mut Document, id: NodeId) -> Result<(), EditError> {
    let raws = |doc: &Document, ident: &str| -> Option<Vec<String>> {
        let n = doc.node(id);
        let p = n.props().find(|p| p.ident() == ident)?;
        Some(p.values().map(|v| v.raw_text().into_owned()).collect())
    };
    for (a, b) in COLOUR_PAIRS {
        match (raws(doc, a), raws(doc, b)) {
            (Some(x), Some(y)) => {
                doc.set_raw(id, a, &y)?;
                doc.set_raw(id, b, &x)?;
            }
            (Some(_), None) => {
                doc.rename_property(id, a, b)?;
            }
            (None, Some(_)) => {
                doc.rename_property(id, b, a)?;
            }
            (None, None) => {}
        }
    }
    let swap = |t: &str| match t.as_bytes().first() {
        Some(b'B') => Some(format!("W{}", &t[1..])),
        Some(b'W') => Some(format!("B{}", &t[1..])),
        _ => None,
    };
    if let Some(pl) = raws(doc, "PL").and_then(|v| v.first().and_then(|t| swap(t))) {
        doc.set_raw(id, "PL", &[pl])?;
    }
    let re = raws(doc, "RE").and_then(|v| v.first().cloned());
    if let Some(re) = re.filter(|t| t.get(1..2) == Some("+"))
        && let Some(new) = swap(&re)
    {
        doc.set_raw(id, "RE", &[new])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(sgf: &str, s: Sym, invert: bool) -> String {
        let mut doc = sgf_core::parse(sgf.as_bytes()).document;
        transform_game(&mut doc, 0, s, invert).unwrap();
        String::from_utf8(sgf_core::to_lossless_bytes(&doc)).unwrap()
    }

    #[test]
    fn a_game_rotated_flipped_and_inverted() {
        let g = "(;GM[1]FF[4]SZ[19]PB[Lee]PW[Cho]RE[W+R]AB[aa]AW[ab:bc];B[pd]C[see dd]\
                 ;W[]LB[dd:A]AR[aa:sa]TR[cc];B[tt])";
        // A quarter turn clockwise: (x, y) → (18 - y, x).
        assert_eq!(
            rewritten(g, 5, false),
            "(;GM[1]FF[4]SZ[19]PB[Lee]PW[Cho]RE[W+R]AB[sa]AW[qa:rb];B[pp]C[see dd]\
                 ;W[]LB[pd:A]AR[sa:ss]TR[qc];B[tt])"
        );
        // Mirrored left-right, colours swapped: only what changes is rewritten.
        assert_eq!(
            rewritten(g, 1, true),
            "(;GM[1]FF[4]SZ[19]PB[Cho]PW[Lee]RE[B+R]AB[rb:sc]AW[sa];W[dd]C[see dd]\
                 ;B[]LB[pd:A]AR[sa:aa]TR[qc];W[tt])"
        );
        // Undone as an edit.
        let mut doc = sgf_core::parse(g.as_bytes()).document;
        doc.begin_change();
        transform_game(&mut doc, 0, 6, true).unwrap();
        let c = doc.end_change();
        doc.revert(c);
        assert_eq!(sgf_core::to_lossless_bytes(&doc), g.as_bytes());
        // A rectangle cannot be turned a quarter.
        let mut doc = sgf_core::parse(b"(;SZ[19:9];B[aa])").document;
        assert!(transform_game(&mut doc, 0, 5, false).is_err());
        assert!(transform_game(&mut doc, 0, 3, false).is_ok());
    }

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
