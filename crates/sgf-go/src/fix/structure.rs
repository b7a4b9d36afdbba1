//! Repairs of the tree: a move in the root split off, variations one level
//! too deep moved up, properties out of place moved or kept, nodes that mix
//! what FF[4] keeps apart split, annotations without their move deleted.

use super::*;

/// Moves variations written one level too deep up, as SGFC's `-v` does:
/// at a move whose variations undo it with `AE` (SGFC's rule: each
/// variation's first node removes exactly that stone, and every variation
/// there does so), or that start with the colour that just moved (Qipu's
/// [`check::misplaced_variations`]). A moved variation becomes an
/// alternative to the move, and its `AE` of that stone, needless now, goes.
pub(super) fn variation_levels(f: &mut Fixer<'_>, gi: usize) {
    // SGFC's rule, at each move with variations.
    undo_variations(f, gi);
    let found = check::misplaced_variations(f.doc, gi);
    let mut k = 0;
    let mut last: Option<NodeId> = None;
    for (n, v) in found {
        k = if last == Some(n) { k + 1 } else { 0 };
        last = Some(n);
        let node = f.doc.node(n);
        let Some(parent) = node.parent().map(|p| p.id()) else {
            continue;
        };
        let at = f
            .doc
            .node(parent)
            .children()
            .position(|c| c.id() == n)
            .unwrap_or(0);
        let var = f.doc.node(v);
        let ident = if var.has("B") { "B" } else { "W" };
        let span = var.get(ident).map_or_else(|| var.span(), |p| p.span());
        let mv = var
            .value(ident)
            .map(|x| x.decoded().into_owned())
            .unwrap_or_default();
        let before = node
            .value(ident)
            .map(|x| x.decoded().into_owned())
            .unwrap_or_default();
        if f.doc.move_subtree(v, parent, Some(at + 1 + k)).is_ok() {
            f.note(
                Code::VariationLevel,
                span,
                format!(
                    "variation {ident}[{mv}] moved up: now an alternative to {ident}[{before}]"
                ),
            );
        }
    }
}

/// SGFC's variation-level rule ([`check::undo_sets`]): when every
/// variation after a move undoes it with `AE` of its stone and then plays,
/// those variations are alternatives to the move written one level too
/// deep: each goes up beside the move, without the `AE`. When only some
/// do, nothing is changed (SGFC: "cannot be corrected"; the check reports
/// `G011`).
fn undo_variations(f: &mut Fixer<'_>, gi: usize) {
    for set in check::undo_sets(f.doc, gi) {
        if !set.all() {
            continue;
        }
        let Some(grand) = f.doc.node(set.node).parent().map(|p| p.id()) else {
            continue;
        };
        for (v, _) in set.variations {
            let span = f
                .doc
                .node(v)
                .get("AE")
                .map_or_else(|| f.doc.node(v).span(), |x| x.span());
            let all_ae = f.doc.node(v).values("AE").count();
            if f.doc.move_subtree(v, grand, None).is_err() {
                continue;
            }
            // The AE of the move's stone (and of empty points) is needless now.
            f.doc.remove_property(v, "AE");
            let empty = f.doc.node(v).props().len() == 0;
            if empty && let Some(c) = f.doc.node(v).first_child().map(|c| c.id()) {
                // `(;AE[aa];W[ba])` becomes `(;W[ba])`.
                let at = f.doc.node(grand).children().position(|x| x.id() == v);
                if f.doc.node(v).child_count() == 1 && f.doc.move_subtree(c, grand, at).is_ok() {
                    let _ = f.doc.remove_node(v);
                }
            }
            f.note(
                Code::VariationLevelUndo,
                span,
                format!(
                    "variation moved up beside the move it undid ({all_ae} AE value(s) dropped)"
                ),
            );
        }
    }
}
/// Placement rules: root properties, second game-info nodes, annotations,
/// `B`+`W` and move+setup nodes split.
/// `above` knows the game-info nodes above `n` (its rules ran for every
/// node before `n`), and wordings are kept in `GC` drafts (see `gc`).
pub(super) fn node_rules(f: &mut Fixer<'_>, n: NodeId, above: &mut gc::InfoAbove) {
    let node = f.doc.node(n);
    let is_root = node.parent().is_none();
    // Root properties outside the root.
    if !is_root {
        let misplaced: Vec<(String, Span)> = node
            .props()
            .filter(|p| p.info().is_some_and(|i| i.kind == PropKind::Root))
            .map(|p| (p.ident().to_string(), p.span()))
            .collect();
        // An identifier given again is gone after its first occurrence:
        // what is left to do is its note (a node of a million occurrences
        // is not looked through for each).
        let mut gone = std::collections::HashSet::new();
        for (id, span) in misplaced {
            let again = !gone.insert(id.clone());
            let text = if again {
                String::new()
            } else {
                prop_text(f.doc, n, &id)
            };
            // A value the root does not hold is kept in GC (`SZ[9]` below
            // a root of `SZ[19]`); `FF` and `CA` describe the file, which
            // the canonical form writes anew.
            let said = if again || matches!(id.as_str(), "FF" | "CA") {
                String::new()
            } else {
                wording(f.doc, n, &id)
            };
            if !said.trim().is_empty() && said != above.root_wording(f.doc, &id) {
                let target = above.target(f.doc, n);
                let root = above.root();
                let gains = target == root && !above.root_has_info() && !f.no_gc.contains(&root);
                f.keep_in(target, &id, &said);
                if gains {
                    // The root holds game information from now on, if the
                    // wording could be written: at once, to know.
                    f.write_gc(root);
                    if f.doc.node(root).has("GC") {
                        above.root_gained();
                    }
                }
            }
            if !again {
                f.doc.remove_property(n, &id);
            }
            f.note_value(
                Code::RootPropertyOutsideRoot,
                span,
                format!("root property {id} outside the root deleted"),
                format!("{id}[{text}]"),
                String::new(),
            );
        }
    }
    // Game info below a game-info node: up into it, or into its GC (its
    // own GC, kept above, is among them).
    f.write_gc(n);
    let node = f.doc.node(n);
    let mut gi_here: Vec<(String, Span)> = Vec::new();
    for p in node.props() {
        // A property given twice (`GC[a]GC[b]`) is moved or kept once,
        // every occurrence with it.
        if p.info().is_some_and(|i| i.kind == PropKind::GameInfo)
            && !gi_here.iter().any(|(id, _)| id == p.ident())
        {
            gi_here.push((p.ident().to_string(), p.span()));
        }
    }
    if !gi_here.is_empty() {
        // The topmost game-info node above.
        let first_gi = above.topmost_above(f.doc, n);
        if let Some(target) = first_gi {
            // As above: an identifier given again was moved or removed with
            // its first occurrence, and the target has it since.
            let mut done = std::collections::HashSet::new();
            for (id, span) in gi_here {
                let again = !done.insert(id.clone());
                let there = if again {
                    true
                } else if id == "GC" {
                    f.has_gc(target)
                } else {
                    above.target_has(f.doc, target, &id)
                };
                if !there {
                    f.doc.move_property(n, target, &id);
                    above.now_present(target, &id);
                    f.note(
                        Code::SecondGameInfo,
                        span,
                        format!("{id} moved to the game-info node above"),
                    );
                } else {
                    let text = if again {
                        String::new()
                    } else {
                        let text = prop_text(f.doc, n, &id);
                        let said = wording(f.doc, n, &id);
                        f.doc.remove_property(n, &id);
                        if !said.is_empty() {
                            f.keep_line(target, as_written(&id, &said));
                        }
                        text
                    };
                    f.note_value(
                        Code::SecondGameInfo,
                        span,
                        format!("{id} of a second game-info node: its wording kept in GC"),
                        format!("{id}[{text}]"),
                        String::new(),
                    );
                }
            }
        }
    }
    annotations_without_move(f, n);
    // Exclusive annotations.
    let node = f.doc.node(n);
    if node.has("TE") && node.has("BM") {
        let span = node.get("BM").map(|p| p.span()).unwrap_or_default();
        keep_annotation(f, n, "TE");
        keep_annotation(f, n, "BM");
        f.doc.remove_property(n, "TE");
        f.doc.remove_property(n, "BM");
        if !f.doc.node(n).has("IT") && !f.doc.node(n).has("DO") {
            let _ = f.doc.set_raw(n, "IT", &[String::new()]);
        }
        f.note(
            Code::ExclusiveMoveAnnotations,
            span,
            "TE and BM together: written as IT (interesting)",
        );
    }
    for group in [["BM", "DO", "IT", "TE"], ["DM", "GB", "GW", "UC"]] {
        let node = f.doc.node(n);
        let present: Vec<(String, Span)> = node
            .props()
            .filter(|p| group.contains(&p.ident()))
            .map(|p| (p.ident().to_string(), p.span()))
            .collect();
        let mut kept: Option<String> = None;
        // Removed with its first occurrence (each later one only noted).
        let mut removed = std::collections::HashSet::new();
        for (id, span) in present {
            match &kept {
                None => kept = Some(id),
                Some(k) if *k == id => {}
                Some(k) => {
                    if removed.insert(id.clone()) {
                        keep_annotation(f, n, &id);
                        f.doc.remove_property(n, &id);
                    }
                    let code = if group[0] == "BM" {
                        Code::ExclusiveMoveAnnotations
                    } else {
                        Code::ExclusivePositionAnnotations
                    };
                    f.note(code, span, format!("{id} contradicts {k}: deleted"));
                }
            }
        }
    }
    // B and W in one node: W goes to a new node after it.
    let node = f.doc.node(n);
    if node.has("B") && node.has("W") {
        let span = node.get("W").map(|p| p.span()).unwrap_or_default();
        if let Ok(below) = f.doc.split_below(n) {
            f.doc.move_property(n, below, "W");
            f.note(
                Code::BlackAndWhite,
                span,
                "B and W in one node: W moved to a new node after it",
            );
        }
    }
    // Move and setup in one node: setup (and N, root and game info) first.
    let node = f.doc.node(n);
    // A setup property without a value (`AB[]`) sets up nothing: the value
    // repairs delete it, and it needs no node of its own.
    let has_setup = node.props().any(|p| {
        p.info().is_some_and(|i| i.kind == PropKind::Setup) && p.values().any(|v| !v.is_empty())
    });
    let has_move = node.has("B") || node.has("W");
    if has_setup && has_move {
        let span = node
            .get("B")
            .or_else(|| node.get("W"))
            .map(|p| p.span())
            .unwrap_or_default();
        // The node name stays with the setup.
        if split_off(f, n, |p| p.ident() != "N") {
            f.note(
                Code::MoveSetupMixed,
                span,
                "move and setup in one node: split, setup first",
            );
        }
    }
}

/// Splits `n` in two: the new node below it takes every property that is
/// not root, game-info or setup and that `also` accepts. Returns whether
/// the node could be split.
fn split_off(f: &mut Fixer<'_>, n: NodeId, also: impl Fn(&sgf_core::Prop<'_>) -> bool) -> bool {
    let mut movers: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in f.doc.node(n).props() {
        let stays = matches!(
            p.info().map(|i| i.kind),
            Some(PropKind::Root | PropKind::GameInfo | PropKind::Setup)
        );
        if !stays && also(&p) && seen.insert(p.ident()) {
            movers.push(p.ident().to_string());
        }
    }
    let Ok(below) = f.doc.split_below(n) else {
        return false;
    };
    // All at once: one identifier at a time rewrote the node's list for
    // each (a node of thousands of identifiers).
    let movers: Vec<&str> = movers.iter().map(String::as_str).collect();
    f.doc.move_properties(n, below, &movers);
    true
}

/// A move in the root goes to a new node after it, the root keeping root,
/// game-info and setup properties (done first, as SGFC does: the other
/// repairs then see the tree as it is meant).
pub(super) fn move_in_root(f: &mut Fixer<'_>, n: NodeId) {
    let node = f.doc.node(n);
    if !(node.has("B") || node.has("W")) {
        return;
    }
    let span = node
        .get("B")
        .or_else(|| node.get("W"))
        .map(|p| p.span())
        .unwrap_or_default();
    // Always, even in a root without root properties: the canonical form
    // gives every root `FF` and `CA`, and a second run would split it then.
    if split_off(f, n, |_| true) {
        f.note(
            Code::MoveInRoot,
            span,
            "the move of the root moved to a new node after it",
        );
    }
}

/// The decoded values of a property, joined for a message or `GC`.
pub(super) fn prop_text(doc: &Document, n: NodeId, ident: &str) -> String {
    doc.node(n)
        .values(ident)
        .map(|v| v.decoded().into_owned())
        .collect::<Vec<_>>()
        .join("][")
}

/// Move annotations (`KO`, `BM`, `DO`, `IT`, `TE`) in a node without a
/// move are deleted. Run again after the values and the points are
/// repaired, as deleting a bad move can leave its annotations alone.
pub(super) fn annotations_without_move(f: &mut Fixer<'_>, n: NodeId) {
    let node = f.doc.node(n);
    if node.has("B") || node.has("W") {
        return;
    }
    for id in ["KO", "BM", "DO", "IT", "TE"] {
        if let Some(span) = f.doc.node(n).get(id).map(|p| p.span()) {
            keep_annotation(f, n, id);
            f.doc.remove_property(n, id);
            f.note(
                Code::AnnotationWithoutMove,
                span,
                format!("{id} without a move deleted"),
            );
        }
    }
}

/// Keeps the wording of an annotation about to be deleted when its value
/// says more than the annotation: a value of `KO`, `DO` or `IT` (which take
/// none: `KO[6.5]` is a komi), or a `BM`, `TE`, `DM`… whose value is not
/// `1` or `2` (`BM[very bad]`).
pub(super) fn keep_annotation(f: &mut Fixer<'_>, n: NodeId, ident: &str) {
    let node = f.doc.node(n);
    let takes_none = node
        .get(ident)
        .is_some_and(|p| p.value_type() == ValueType::None);
    let said: Vec<String> = node
        .values(ident)
        .map(|v| v.decoded().trim().to_string())
        .filter(|t| {
            !t.is_empty() && (takes_none || sgf_core::value::parse_double(t.as_bytes()).is_none())
        })
        .collect();
    if !said.is_empty() {
        f.keep(n, ident, &said.join(", "), None);
    }
}
