//! Go repairs: moves and points on the board and in FF[4] form, setup
//! stones that change nothing.

use super::*;
use crate::replay::Walk;

/// A node made by the repair that the deleted move leaves without a
/// property (`(;B[zz])`: the move split off the root, then deleted;
/// SGFC's `E_BAD_VALUE_DELETED`) is removed, its one child (if any)
/// taking its place: the input had no such node. A node of the input
/// stays (an empty node there is the author's), and so does one with
/// variations below it.
fn drop_emptied(f: &mut Fixer<'_>, n: NodeId) {
    let node = f.doc.node(n);
    let Some(parent) = node.parent().map(|p| p.id()) else {
        return;
    };
    if node.span() != Span::default()
        || node.props().next().is_some()
        || node.children().nth(1).is_some()
    {
        return;
    }
    let child = node.children().next().map(|c| c.id());
    let at = f.doc.node(parent).children().position(|c| c.id() == n);
    if let Some(c) = child
        && f.doc.move_subtree(c, parent, at).is_err()
    {
        return;
    }
    let _ = f.doc.remove_node(n);
}

/// Moves, point lists, lines and labels: on the board, in FF[4] form, unique.
pub(super) fn points(f: &mut Fixer<'_>, n: NodeId, size: BoardSize) {
    for id in ["B", "W"] {
        let vals = f.values(n, id);
        if vals.is_empty() {
            continue;
        }
        let (raw, _, span) = vals[0].clone();
        let squeezed: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        let pm = coords::parse_move(squeezed.as_bytes(), size);
        let new = match (pm.mv, pm.issue) {
            (Some(crate::Move::Pass), _) => Some(String::new()),
            (Some(crate::Move::Play(p)), _) => Some(p.to_string()),
            (None, _) => None,
        };
        match new {
            Some(v) if v != raw || vals.len() > 1 => {
                f.set_raws(n, id, std::slice::from_ref(&v));
                if v != raw {
                    let code = match pm.issue {
                        Some(CoordIssue::TtPass) => Code::PassAsTt,
                        Some(CoordIssue::Uppercase) => Code::UppercaseCoordinate,
                        _ => Code::InvalidPoint,
                    };
                    f.note(code, span, format!("{id}[{raw}] written as {id}[{v}]"));
                }
                if vals.len() > 1 {
                    f.note(
                        Code::TooManyValues,
                        span,
                        format!("{id}: only one move per node; extra values deleted, kept [{v}]"),
                    );
                }
            }
            Some(_) => {}
            None if pm.issue == Some(CoordIssue::AmbiguousPass) => {}
            None => {
                f.doc.remove_property(n, id);
                let code = if pm.issue == Some(CoordIssue::OutsideBoard) {
                    Code::PointOutsideBoard
                } else {
                    Code::InvalidPoint
                };
                f.note(
                    code,
                    span,
                    format!("{id}[{raw}] is not a point on the {size} board: deleted"),
                );
                drop_emptied(f, n);
            }
        }
    }
    // Setup and shape markup: expand, drop bad points, first occurrence wins.
    for group in [&["AB", "AW", "AE"][..], &["CR", "MA", "SL", "SQ", "TR"][..]] {
        // The points of the board met (list entries hold only points of
        // the board): a rectangle gives thousands, each looked up.
        let mut seen = OnBoard::new(size);
        // In file order: the first occurrence of a point wins.
        let mut order: Vec<String> = Vec::new();
        for p in f.doc.node(n).props() {
            if group.contains(&p.ident()) && !order.iter().any(|o| o == p.ident()) {
                order.push(p.ident().to_string());
            }
        }
        for id in &order {
            let id = id.as_str();
            let node = f.doc.node(n);
            let raws: Vec<String> = node.values(id).map(|v| v.raw_text().into_owned()).collect();
            let entries = coords::point_list(node.values(id), size);
            let mut pts = Vec::new();
            let mut changed = raws.iter().any(|r| r.trim().is_empty());
            // Asked once, not for each point given twice.
            let compressed = raws.iter().any(|r| r.contains(':'));
            let mut notes = Vec::new();
            if changed {
                notes.push((
                    Code::EmptyValue,
                    node.get(id).map(|p| p.span()).unwrap_or_default(),
                    format!("empty {id} value deleted"),
                ));
            }
            for e in entries {
                if e.issue.is_some_and(|i| i != CoordIssue::Uppercase) {
                    notes.push((
                        if e.issue == Some(CoordIssue::OutsideBoard) {
                            Code::PointOutsideBoard
                        } else {
                            Code::InvalidPoint
                        },
                        e.span,
                        format!("{id}: points off the board or unreadable deleted"),
                    ));
                    changed = true;
                }
                if e.issue == Some(CoordIssue::Uppercase) || e.reversed {
                    changed = true;
                    notes.push((
                        if e.reversed {
                            Code::ReversedRectangle
                        } else {
                            Code::UppercaseCoordinate
                        },
                        e.span,
                        format!("{id}: rectangle or coordinates rewritten"),
                    ));
                }
                // The points of this value given before: one note for the
                // value (at its first such point), not one per point.
                let mut dup: Option<Point> = None;
                let mut more = 0usize;
                for &p in &e.points {
                    if seen.insert(p) {
                        pts.push(p);
                    } else if dup.is_some() {
                        more += 1;
                    } else {
                        dup = Some(p);
                    }
                }
                if let Some(p) = dup {
                    changed = true;
                    let code = if e.points.len() > 1 || compressed {
                        Code::OverlappingRectangle
                    } else {
                        Code::DuplicatePoint
                    };
                    let msg = if more == 0 {
                        format!("{id}: point {p} given twice; the later one deleted")
                    } else {
                        format!(
                            "{id}: point {p} and {more} more point(s) of the same value given twice; the later ones deleted"
                        )
                    };
                    notes.push((code, e.span, msg));
                }
            }
            if changed {
                // Lists written compressed stay compressed.
                let raws: Vec<String> = if compressed {
                    sgf_core::value::compress_points(&pts)
                        .into_iter()
                        .map(|(a, b)| {
                            if a == b {
                                a.to_string()
                            } else {
                                format!("{a}:{b}")
                            }
                        })
                        .collect()
                } else {
                    pts.iter().map(|p| p.to_string()).collect()
                };
                f.set_raws(n, id, &raws);
                for (c, s, m) in notes {
                    f.note(c, s, m);
                }
            }
        }
    }
    for id in ["DD", "VW", "TB", "TW"] {
        let node = f.doc.node(n);
        if !node.has(id) {
            continue;
        }
        let stray_empty = node.values(id).count() > 1 && node.values(id).any(|v| v.is_empty());
        if stray_empty
            || coords::point_list(node.values(id), size).any(|e| e.issue.is_some() || e.reversed)
        {
            // Each point once, without a list of them all first.
            let mut seen = std::collections::HashSet::new();
            let pts: Vec<Point> = coords::each_point(&node, id, size)
                .filter(|p| seen.insert(*p))
                .collect();
            let raws: Vec<String> = if pts.is_empty() {
                vec![String::new()]
            } else {
                pts.iter().map(|p| p.to_string()).collect()
            };
            f.set_raws(n, id, &raws);
            let span = f.doc.node(n).get(id).map(|p| p.span()).unwrap_or_default();
            f.note(
                Code::PointOutsideBoard,
                span,
                format!("{id}: empty or bad points deleted"),
            );
        }
    }
    for id in ["AR", "LN"] {
        let node = f.doc.node(n);
        if !node.has(id) {
            continue;
        }
        let mut keep: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut dropped = Vec::new();
        for v in node.values(id) {
            let ok = v.composed_raw().and_then(|(a, b)| {
                let a: String = String::from_utf8_lossy(a)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let b: String = String::from_utf8_lossy(b)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let pa = coords::parse_point(a.as_bytes(), size).ok()?.0;
                let pb = coords::parse_point(b.as_bytes(), size).ok()?.0;
                (pa != pb && seen.insert((pa, pb))).then(|| format!("{pa}:{pb}"))
            });
            match ok {
                Some(s) => keep.push(s),
                None => dropped.push((v.span(), v.raw_text().into_owned())),
            }
        }
        let rewritten = node
            .values(id)
            .map(|v| v.raw_text().into_owned())
            .collect::<Vec<_>>()
            != keep;
        if rewritten {
            f.set_raws(n, id, &keep);
            for (span, raw) in dropped {
                f.note(
                    Code::BadLine,
                    span,
                    format!("{id}[{raw}] deleted (repeated, to itself or off the board)"),
                );
            }
        }
    }
    let node = f.doc.node(n);
    if node.has("LB") {
        let mut keep: Vec<(String, String)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut notes = Vec::new();
        let mut changed = false;
        // The texts of the labels deleted, kept in GC.
        let mut lost: Vec<String> = Vec::new();
        for v in node.values("LB") {
            let Some((a, b)) = v.composed() else { continue };
            let squeezed: String = a.chars().filter(|c| !c.is_whitespace()).collect();
            match coords::parse_point(squeezed.as_bytes(), size) {
                Ok((p, _)) if seen.insert(p) => {
                    changed |= squeezed != a || p.to_string() != squeezed;
                    keep.push((p.to_string(), b.into_owned()));
                }
                Ok((p, _)) => {
                    changed = true;
                    if !b.trim().is_empty() {
                        lost.push(format!("{a}:{b}").trim().to_string());
                    }
                    notes.push((
                        Code::DuplicateLabel,
                        v.span(),
                        format!("second label on {p} deleted"),
                    ));
                }
                Err(_) => {
                    changed = true;
                    if !b.trim().is_empty() {
                        lost.push(format!("{a}:{b}").trim().to_string());
                    }
                    notes.push((
                        Code::PointOutsideBoard,
                        v.span(),
                        format!("label on `{a}` deleted (not on the board)"),
                    ));
                }
            }
        }
        if changed {
            let pairs: Vec<(&str, &str)> =
                keep.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            if pairs.is_empty() {
                f.doc.remove_property(n, "LB");
            } else if f.doc.set_composed(n, "LB", &pairs).is_err() {
                return;
            }
            if !lost.is_empty() {
                f.keep(n, "LB", &lost.join(", "), None);
            }
            for (c, s, m) in notes {
                f.note(c, s, m);
            }
        }
    }
}

/// Setup stones that change nothing are deleted (the position stays the same).
pub(super) fn setup_without_effect(f: &mut Fixer<'_>, gi: usize, root_only: bool) {
    let game = f.doc.game(gi).expect("in range");
    let size = coords::board_size(&game.root()).0;
    // Each node is repaired as the walk leaves it: the cursor holds its
    // position, and the points it drops changed nothing, so the nodes below
    // are played as before (and no list of every point of the game is kept).
    let mut walk = Walk::new(f.doc, gi);
    while walk.step(f.doc) {
        drop_no_effect(f, walk.cursor(), size);
        if root_only {
            break;
        }
    }
}

/// The setup points of the cursor's node that change nothing, deleted: the
/// points of one property in one edit (a rectangle can hold thousands of
/// them: an edit for each, each rewriting the list, was quadratic in the
/// size of the board), and the points of one value in one note.
fn drop_no_effect(f: &mut Fixer<'_>, c: &Cursor, size: BoardSize) {
    let n = c.node();
    let found: Vec<(&'static str, Span, Point)> = c
        .report()
        .events
        .iter()
        .filter_map(|e| match e.event {
            Event::SetupNoEffect { point } => Some((e.ident, e.span, point)),
            _ => None,
        })
        .collect();
    let mut i = 0;
    while i < found.len() {
        let ident = found[i].0;
        let run = found[i..].iter().take_while(|x| x.0 == ident).count();
        let group = &found[i..i + run];
        i += run;
        let mut gone = OnBoard::new(size);
        for &(_, _, p) in group {
            gone.insert(p);
        }
        let raws: Vec<String> = coords::each_point(&f.doc.node(n), ident, size)
            .filter(|&q| !gone.contains(q))
            .map(|q| q.to_string())
            .collect();
        f.set_raws(n, ident, &raws);
        let unmade = f.unmade;
        let mut j = 0;
        while j < group.len() {
            let (_, span, p) = group[j];
            let more = group[j + 1..].iter().take_while(|x| x.1 == span).count();
            j += 1 + more;
            let msg = if more == 0 {
                format!("{ident} at {p} changes nothing: deleted")
            } else {
                format!(
                    "{ident} at {p} and {more} more point(s) of the same value change nothing: deleted"
                )
            };
            // Each note is made as the edit was (see `Fixer::note`).
            f.unmade = unmade;
            f.note(Code::SetupNoEffect, span, msg);
        }
    }
}

/// `HA` below 2 (`HA[1]`, `HA[-3]`, `HA[0]` with stones) is no handicap: deleted, its
/// wording kept in `GC` (`V028`).
pub(super) fn handicap(f: &mut Fixer<'_>, root: NodeId) {
    let Some((raw, text, span)) = f.values(root, "HA").into_iter().next() else {
        return;
    };
    let stones = f.doc.node(root).values("AB").next().is_some();
    match sgf_core::value::parse_number(raw.as_bytes()) {
        Some(n) if n >= 2 => return,
        // An even game written `HA[0]` (see the check).
        Some(0) if !stones => return,
        None => return,
        _ => {}
    }
    f.keep(root, "HA", &text, None);
    f.doc.remove_property(root, "HA");
    f.note_value(
        Code::BadHandicap,
        span,
        format!("HA[{text}] is no handicap: deleted, its wording kept in GC"),
        format!("HA[{text}]"),
        String::new(),
    );
}

/// A set of points, one flag a point of the board (points beyond it, which
/// the lists here do not hold, in a set of their own).
struct OnBoard {
    size: BoardSize,
    flags: Vec<bool>,
    outside: std::collections::HashSet<Point>,
}

impl OnBoard {
    fn new(size: BoardSize) -> OnBoard {
        OnBoard {
            size,
            flags: vec![false; size.points()],
            outside: std::collections::HashSet::new(),
        }
    }

    fn index(&self, p: Point) -> Option<usize> {
        self.size
            .contains(p)
            .then(|| p.y as usize * self.size.cols as usize + p.x as usize)
    }

    /// Adds `p`; false when it was there.
    fn insert(&mut self, p: Point) -> bool {
        match self.index(p).and_then(|i| self.flags.get_mut(i)) {
            Some(f) => !std::mem::replace(f, true),
            None => self.outside.insert(p),
        }
    }

    fn contains(&self, p: Point) -> bool {
        match self.index(p).and_then(|i| self.flags.get(i)) {
            Some(&f) => f,
            None => self.outside.contains(&p),
        }
    }
}
