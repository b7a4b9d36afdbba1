//! Go Assistant (围棋助手): the main line written after the variations.

use super::*;

/// Go Assistant writes the main line after the variations; the parser reads
/// it as the last variation: make it the first child of its parent.
pub(super) fn fix_go_assistant(doc: &mut Document, gi: usize, ch: &mut Normalised) {
    let Some(game) = doc.game(gi) else { return };
    let mut moves: Vec<(NodeId, Span)> = Vec::new();
    for n in game.nodes() {
        if n.is_after_variations()
            && let Some(p) = n.parent()
            && p.first_child().is_some_and(|f| f.id() != n.id())
            // Only the first such node of a parent is its continuation.
            && !p
                .children()
                .take_while(|c| c.id() != n.id())
                .any(|c| c.is_after_variations())
        {
            moves.push((n.id(), n.span()));
        }
    }
    for (id, span) in moves {
        match doc.move_variation(id, 0) {
            Ok(()) => ch.changed(
                span,
                "the continuation written after the variations is now the main line".into(),
                String::new(),
                String::new(),
            ),
            Err(e) => ch.failed(span, "the main line", &e),
        }
    }
}
