//! Passes written as the point just outside the board (LizzieYzy).

use super::*;

pub(super) fn report_passes(doc: &Document, gi: usize, ch: &mut Normalised) {
    let Some(game) = doc.game(gi) else { return };
    let size = board_size(doc, game.root().id());
    let c = value::coord_letter(size);
    let pair = [c, c];
    for n in game.nodes() {
        for p in n.props() {
            if matches!(p.ident(), "B" | "W") && p.values().any(|v| v.raw().trim_ascii() == pair) {
                ch.push(Diagnostic::new(
                    Code::AmbiguousPass,
                    p.span(),
                    format!(
                        "{}[{}] is outside the {size}×{size} board: probably a pass (LizzieYzy writes them so); not guessed, B[]/W[] is the FF[4] pass",
                        p.ident(),
                        String::from_utf8_lossy(&pair)
                    ),
                ));
            }
        }
    }
}
