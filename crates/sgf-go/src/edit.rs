//! Editing a game with Go in mind: playing moves into the tree, setup
//! stones, markup and labels. Built on the document edits of sgf-core, so
//! the lossless writer changes only what was edited.

use sgf_core::{Color, Document, EditError, NodeId, Point};

use crate::board::Stone;
use crate::coords::{self, BoardSize, Move};
use crate::replay::Cursor;

fn move_raw(mv: Move) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(p) => p.to_string(),
    }
}

/// Checked play, as the editors (the viewer, Python) do before playing
/// `mv` for `color` below the cursor's node: why the rules forbid it as a
/// new move (an occupied point, a suicide, an immediate ko retake), or
/// `None` when it is legal or a child already holds it (going there plays
/// nothing new). SGF records forbidden moves all the same: the caller
/// plays it anyway when the user insists.
pub fn illegal_new_move(
    doc: &Document,
    cursor: &Cursor,
    color: Color,
    mv: Move,
) -> Option<crate::board::Illegal> {
    let size = cursor.size();
    let exists = doc
        .node(cursor.node())
        .children()
        .any(|c| node_move(doc, c.id(), size) == Some((color, mv)));
    if exists {
        return None;
    }
    cursor.position().legality(color, mv)
}

/// The move of a node, read on a board of `size`.
pub fn node_move(doc: &Document, node: NodeId, size: BoardSize) -> Option<(Color, Move)> {
    let n = doc.node(node);
    for (id, c) in [("B", Color::Black), ("W", Color::White)] {
        if let Some(v) = n.value(id) {
            return coords::parse_move(v.raw(), size).mv.map(|m| (c, m));
        }
    }
    None
}

/// Plays a move at the cursor: descends into an existing child with the
/// same move, or adds a new variation (last) with it. The cursor follows.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn play(
    doc: &mut Document,
    cursor: &mut Cursor,
    color: Color,
    mv: Move,
) -> Result<NodeId, EditError> {
    let child = play_below(doc, cursor.node(), cursor.size(), color, mv)?;
    cursor.down(doc, child);
    Ok(child)
}

/// The move `mv` below `node` (on a board of `size`): the existing child
/// that plays it, or a new child (a variation when there are children).
///
/// # Errors
/// Only if the document refuses the edit.
pub fn play_below(
    doc: &mut Document,
    node: NodeId,
    size: BoardSize,
    color: Color,
    mv: Move,
) -> Result<NodeId, EditError> {
    let existing = doc
        .node(node)
        .children()
        .map(|c| c.id())
        .find(|&c| node_move(doc, c, size) == Some((color, mv)));
    match existing {
        Some(c) => Ok(c),
        None => {
            let c = doc.add_child(node)?;
            doc.set_raw(c, color.as_str(), &[move_raw(mv)])?;
            Ok(c)
        }
    }
}

/// The points of a list property of a node, expanded.
fn list(doc: &Document, node: NodeId, ident: &str, size: BoardSize) -> Vec<Point> {
    coords::points_of(&doc.node(node), ident, size)
}

fn write_list(
    doc: &mut Document,
    node: NodeId,
    ident: &str,
    pts: &[Point],
) -> Result<(), EditError> {
    if pts.is_empty() {
        doc.remove_property(node, ident);
        Ok(())
    } else {
        let raws: Vec<String> = pts.iter().map(|p| p.to_string()).collect();
        doc.set_raw(node, ident, &raws)
    }
}

/// Sets a setup point in a node: `Some(Black)`/`Some(White)` adds to
/// `AB`/`AW`, `Some(Empty)` to `AE`, `None` removes the point from all three.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn set_setup(
    doc: &mut Document,
    node: NodeId,
    size: BoardSize,
    p: Point,
    stone: Option<Stone>,
) -> Result<(), EditError> {
    for (ident, s) in [
        ("AB", Stone::Black),
        ("AW", Stone::White),
        ("AE", Stone::Empty),
    ] {
        let mut pts = list(doc, node, ident, size);
        let had = pts.contains(&p);
        pts.retain(|&q| q != p);
        let want = stone == Some(s);
        if want {
            pts.push(p);
        }
        if had || want {
            write_list(doc, node, ident, &pts)?;
        }
    }
    Ok(())
}

/// The point markup properties, which may not share a point within a node.
pub const SHAPES: [&str; 5] = ["TR", "CR", "SQ", "MA", "SL"];

/// Toggles a shape markup (`TR`, `CR`, `SQ`, `MA`, `SL`) on a point; other
/// shapes on the same point are removed (points must be unique).
/// Returns whether the markup is now present.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn toggle_markup(
    doc: &mut Document,
    node: NodeId,
    size: BoardSize,
    ident: &str,
    p: Point,
) -> Result<bool, EditError> {
    let mut present = false;
    for s in SHAPES {
        let mut pts = list(doc, node, s, size);
        if !pts.contains(&p) {
            if s == ident {
                pts.push(p);
                present = true;
                write_list(doc, node, s, &pts)?;
            }
            continue;
        }
        pts.retain(|&q| q != p);
        write_list(doc, node, s, &pts)?;
    }
    Ok(present)
}

/// The point-list properties toggled point by point besides the shapes:
/// dimmed points and territory.
pub const POINT_SETS: [&str; 3] = ["DD", "TB", "TW"];

/// Toggles a point in a point-list property that may share points with
/// the shapes (`DD`, `TB`, `TW`). Returns whether the point is now in it.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn toggle_point(
    doc: &mut Document,
    node: NodeId,
    size: BoardSize,
    ident: &str,
    p: Point,
) -> Result<bool, EditError> {
    let mut pts = list(doc, node, ident, size);
    let present = !pts.contains(&p);
    if present {
        pts.push(p);
    } else {
        pts.retain(|&q| q != p);
    }
    write_list(doc, node, ident, &pts)?;
    Ok(present)
}

/// The next free automatic label of a node: `A`, `B`, … `Z`, `AA`… for
/// letters, `1`, `2`, … for numbers (the first not used by a label there).
pub fn next_label(doc: &Document, node: NodeId, numbers: bool) -> String {
    let used: Vec<String> = doc
        .node(node)
        .values("LB")
        .filter_map(|v| v.composed().map(|(_, t)| t.into_owned()))
        .collect();
    let name = |k: usize| -> String {
        if numbers {
            return (k + 1).to_string();
        }
        let mut k = k;
        let mut out = Vec::new();
        loop {
            out.push(b'A' + (k % 26) as u8);
            if k < 26 {
                break;
            }
            k = k / 26 - 1;
        }
        out.reverse();
        String::from_utf8(out).expect("ASCII")
    };
    (0..)
        .map(name)
        .find(|l| !used.contains(l))
        .expect("an unused label")
}

/// Sets (`Some`) or removes (`None`) the label on a point.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn set_label(
    doc: &mut Document,
    node: NodeId,
    size: BoardSize,
    p: Point,
    text: Option<&str>,
) -> Result<(), EditError> {
    let mut labels: Vec<(String, String)> = doc
        .node(node)
        .values("LB")
        .filter_map(|v| v.composed().map(|(a, b)| (a.into_owned(), b.into_owned())))
        .filter(|(a, _)| coords::parse_point(a.as_bytes(), size).map(|x| x.0) != Ok(p))
        .collect();
    if let Some(t) = text {
        labels.push((p.to_string(), t.to_string()));
    }
    if labels.is_empty() {
        doc.remove_property(node, "LB");
        return Ok(());
    }
    let pairs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    doc.set_composed(node, "LB", &pairs)
}

/// Adds or removes (if present) a line (`LN`) or arrow (`AR`) from `a` to `b`.
///
/// # Errors
/// Only if the document refuses the edit.
pub fn toggle_line(
    doc: &mut Document,
    node: NodeId,
    ident: &str,
    a: Point,
    b: Point,
) -> Result<bool, EditError> {
    let key = (a.to_string(), b.to_string());
    let mut lines: Vec<(String, String)> = doc
        .node(node)
        .values(ident)
        .filter_map(|v| v.composed().map(|(x, y)| (x.into_owned(), y.into_owned())))
        .collect();
    let had = lines.contains(&key);
    if had {
        lines.retain(|l| *l != key);
    } else if a != b {
        lines.push(key);
    }
    if lines.is_empty() {
        doc.remove_property(node, ident);
    } else {
        let pairs: Vec<(&str, &str)> = lines
            .iter()
            .map(|(x, y)| (x.as_str(), y.as_str()))
            .collect();
        doc.set_composed(node, ident, &pairs)?;
    }
    Ok(!had && a != b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::{parse, to_lossless_bytes};

    #[test]
    fn territory_and_dimming_share_points_with_shapes() {
        let mut doc = parse(b"(;SZ[9]TR[aa])").document;
        let root = doc.game(0).unwrap().root().id();
        let size = BoardSize { cols: 9, rows: 9 };
        assert!(toggle_point(&mut doc, root, size, "TB", Point::new(0, 0)).unwrap());
        assert!(toggle_point(&mut doc, root, size, "DD", Point::new(1, 0)).unwrap());
        assert!(!toggle_point(&mut doc, root, size, "DD", Point::new(1, 0)).unwrap());
        assert_eq!(
            String::from_utf8(to_lossless_bytes(&doc)).unwrap(),
            "(;SZ[9]TR[aa]TB[aa])"
        );
    }

    #[test]
    fn automatic_labels_take_the_first_free_one() {
        let mut doc = parse(b"(;SZ[9]LB[aa:A][bb:C][cc:1])").document;
        let root = doc.game(0).unwrap().root().id();
        assert_eq!(next_label(&doc, root, false), "B");
        assert_eq!(next_label(&doc, root, true), "2");
        let labels: Vec<String> = (0..26)
            .map(|k| format!("dd:{}", (b'A' + k) as char))
            .collect();
        doc.set_raw(root, "LB", &labels).unwrap();
        assert_eq!(next_label(&doc, root, false), "AA");
    }

    #[test]
    fn play_descends_or_branches() {
        let mut doc = parse(b"(;SZ[9];B[ee];W[cc])").document;
        let mut c = Cursor::new(&doc, 0);
        let n1 = play(&mut doc, &mut c, Color::Black, Move::Play(Point::new(4, 4))).unwrap();
        assert_eq!(doc.node(n1).child_count(), 1);
        let n2 = play(&mut doc, &mut c, Color::White, Move::Play(Point::new(6, 6))).unwrap();
        assert_eq!(doc.node(n1).child_count(), 2);
        assert_eq!(c.node(), n2);
        assert_eq!(
            String::from_utf8(to_lossless_bytes(&doc)).unwrap(),
            "(;SZ[9];B[ee](;W[cc])(;W[gg]))"
        );
        play(&mut doc, &mut c, Color::Black, Move::Pass).unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;SZ[9];B[ee](;W[cc])(;W[gg]\n;B[]))");
    }

    #[test]
    fn setup_and_markup() {
        let mut doc = parse(b"(;SZ[9]AB[aa:bb];B[ee])").document;
        let root = doc.game(0).unwrap().root().id();
        let s = BoardSize::square(9);
        set_setup(&mut doc, root, s, Point::new(0, 0), Some(Stone::White)).unwrap();
        assert_eq!(list(&doc, root, "AB", s).len(), 3);
        assert_eq!(list(&doc, root, "AW", s), vec![Point::new(0, 0)]);
        assert!(toggle_markup(&mut doc, root, s, "TR", Point::new(2, 2)).unwrap());
        assert!(toggle_markup(&mut doc, root, s, "CR", Point::new(2, 2)).unwrap());
        assert!(!doc.node(root).has("TR"));
        assert!(!toggle_markup(&mut doc, root, s, "CR", Point::new(2, 2)).unwrap());
        assert!(!doc.node(root).has("CR"));
        set_label(&mut doc, root, s, Point::new(3, 3), Some("甲:1")).unwrap();
        assert_eq!(
            doc.node(root).value("LB").unwrap().composed().unwrap().1,
            "甲:1"
        );
        assert!(toggle_line(&mut doc, root, "AR", Point::new(0, 0), Point::new(3, 3)).unwrap());
        assert!(!toggle_line(&mut doc, root, "AR", Point::new(0, 0), Point::new(3, 3)).unwrap());
        let out = to_lossless_bytes(&doc);
        assert!(
            parse(&out).diagnostics.is_empty(),
            "{}",
            String::from_utf8_lossy(&out)
        );
    }
}
