//! Fox (野狐): komi scaled ×50 or ×100, two `AP`s, `TC`/`TT` byo-yomi,
//! handicap stones missing or played as moves.

use super::*;

/// The moves of the main line: (node, colour, point; `None` for a pass
/// or a move that cannot be played).
fn main_moves(doc: &Document, gi: usize) -> Vec<(NodeId, Color, Option<Point>)> {
    sgf_go::main_line_moves(doc, gi)
        .into_iter()
        .map(|m| (m.node, m.color, m.mv.and_then(|mv| mv.point())))
        .collect()
}

pub(super) fn fix_fox(doc: &mut Document, gi: usize, root: NodeId, ch: &mut Normalised) {
    // Scaled komi: ×50 under Chinese rules (KM[375] = 7.5), ×100 otherwise
    // (KM[650] = 6.5): both occur in every Fox collection studied.
    // A komi is scaled once: `scaled_komi` refuses what is plausible
    // already, and integers no scale makes plausible (`KM[7500]`).
    let chinese =
        text(doc, root, "RU").is_some_and(|ru| ru.to_ascii_lowercase().contains("chinese"));
    if let Some(k) = real_of(doc, root, "KM")
        && let Some(scaled) = sgf_go::values::scaled_komi(k, chinese)
    {
        let scale = if chinese { 50 } else { 100 };
        let km = sgf_go::values::fmt_real(scaled);
        let old = text(doc, root, "KM").unwrap_or_default();
        let span = span_of(doc, root, "KM");
        keep(doc, root, "KM", &old, ch);
        keep_extra_values(doc, root, "KM", false, ch);
        match doc.set_text(root, "KM", &km) {
            Ok(()) => ch.changed(
                span,
                format!(
                    "KM[{old}] is Fox's scaled komi ({} rules: ÷{scale}) → KM[{km}]",
                    if chinese { "Chinese" } else { "Japanese" }
                ),
                format!("KM[{old}]"),
                format!("KM[{km}]"),
            ),
            Err(e) => ch.failed(span, "KM", &e),
        }
    }
    // Two AP properties (`AP[GNU Go:3.8]AP[foxwq]`): AP takes one value;
    // Fox is the application.
    let aps: Vec<String> = doc
        .node(root)
        .values("AP")
        .map(|v| v.decoded().into_owned())
        .collect();
    if aps.len() > 1
        && let Some(fox) = aps
            .iter()
            .find(|a| a.to_ascii_lowercase().contains("foxwq"))
    {
        let span = span_of(doc, root, "AP");
        match doc.set_raw(root, "AP", &[sgf_core::text::escape(fox, false)]) {
            Ok(()) => {
                for a in aps.iter().filter(|a| *a != fox) {
                    keep(doc, root, "AP", a, ch);
                }
                ch.changed(
                    span,
                    format!("AP[{}] → AP[{fox}]", aps.join("][")),
                    format!("AP[{}]", aps.join("][")),
                    format!("AP[{fox}]"),
                );
            }
            Err(e) => ch.failed(span, "AP", &e),
        }
    }
    // Byo-yomi: TC periods of TT seconds.
    if !doc.node(root).has("OT")
        && let (Some(tc), Some(tt)) = (number_of(doc, root, "TC"), number_of(doc, root, "TT"))
        && tc > 0
        && tt > 0
    {
        let ot = format!("{tc}x{tt} byo-yomi");
        let span = span_of(doc, root, "TT");
        match doc.set_text(root, "OT", &ot) {
            Ok(()) => ch.changed(
                span,
                format!("TC[{tc}]TT[{tt}] → OT[{ot}] (TC and TT kept)"),
                String::new(),
                format!("OT[{ot}]"),
            ),
            Err(e) => ch.failed(span, "OT", &e),
        }
    }
    fox_handicap(doc, gi, root, ch);
}

/// `HA[n]` without stones: either the stones were played as the first n
/// Black moves (they become `AB`), or they are missing and White moves
/// first (they are placed by Fox's convention, which puts the third stone
/// top-left like Tygem).
fn fox_handicap(doc: &mut Document, gi: usize, root: NodeId, ch: &mut Normalised) {
    let Some(ha) = number_of(doc, root, "HA")
        .and_then(|n| u8::try_from(n).ok())
        .filter(|n| (2..=9).contains(n))
    else {
        return;
    };
    let r = doc.node(root);
    let has_setup = |n: sgf_core::Node| n.has("AB") || n.has("AW");
    if has_setup(r) || r.first_child().is_some_and(has_setup) {
        return;
    }
    let ha_span = span_of(doc, root, "HA");
    let size = board_size(doc, root);
    let moves = main_moves(doc, gi);
    let k = ha as usize;
    let played = moves.len() >= k
        && moves[..k]
            .iter()
            .all(|m| m.1 == Color::Black && m.2.is_some())
        && moves.get(k).is_none_or(|m| m.1 == Color::White);
    if played {
        // Only plain, linear move nodes, one after the other from the
        // root, are folded into it: a node between them holding anything
        // (no move, so not in `moves`) would go with them; an empty one
        // (a move the repair deleted) holds nothing to lose.
        let follows = |n: NodeId, before: NodeId| {
            let mut p = doc.node(n).parent();
            while let Some(x) = p.filter(|x| x.id() != before) {
                if x.props().len() != 0 || x.child_count() != 1 {
                    return false;
                }
                p = x.parent();
            }
            p.is_some()
        };
        let plain = moves[..k].iter().enumerate().all(|(i, m)| {
            let n = doc.node(m.0);
            let before = if i == 0 { root } else { moves[i - 1].0 };
            n.props().len() == 1 && follows(m.0, before) && (i + 1 == k || n.child_count() == 1)
        }) && doc.node(root).child_count() == 1;
        if !plain {
            ch.push(
                Diagnostic::new(
                    Code::DialectNormalised,
                    ha_span,
                    format!("HA[{ha}] and the first {ha} moves are Black: probably handicap stones played as moves; not changed (the nodes hold more than a move)"),
                )
                .with_severity(Severity::Warning),
            );
            return;
        }
        let pts: Vec<String> = moves[..k]
            .iter()
            .filter_map(|m| m.2.map(sgf_point))
            .collect();
        let first = moves[0].0;
        let last = moves[k - 1].0;
        let kids: Vec<NodeId> = doc.node(last).children().map(|c| c.id()).collect();
        let result = (|| {
            doc.add_raw(root, "AB", &pts)?;
            for c in kids {
                doc.move_subtree(c, root, None)?;
            }
            doc.remove_node(first)
        })();
        match result {
            Ok(()) => ch.changed(
                ha_span,
                format!(
                    "HA[{ha}] with the handicap stones played as {ha} Black moves → AB[{}]",
                    pts.join("][")
                ),
                String::new(),
                format!("AB[{}]", pts.join("][")),
            ),
            Err(e) => ch.failed(ha_span, "the handicap moves", &e),
        }
        return;
    }
    if moves.first().is_some_and(|m| m.1 == Color::White) {
        // Fox's old records leave the stones out.
        let not_placed = |why: &str| {
            Diagnostic::new(
                Code::HandicapPlaced,
                ha_span,
                format!("HA[{ha}] but no handicap stones and White moves first; {why}, so none were placed"),
            )
            .with_severity(Severity::Warning)
        };
        if matches!(ha, 6 | 7) {
            // The collections studied play on the usual 6- and 7-stone points.
            ch.push(not_placed(
                "Fox's old records put 6 and 7 stones on points no convention gives",
            ));
            return;
        }
        let played: Vec<(Color, Option<Point>)> = moves.iter().map(|m| (m.1, m.2)).collect();
        // The guess must make sense of the game: no move may then land on a stone.
        let Some(pts) = handicap_points(size, ha, HandicapOrder::Tygem)
            .filter(|p| replay::occupied_moves(size, p, &played) == 0)
        else {
            ch.push(not_placed("no fixed placement fits the moves"));
            return;
        };
        let raws: Vec<String> = pts.iter().map(|p| sgf_point(*p)).collect();
        match doc.add_raw(root, "AB", &raws) {
            Ok(()) => ch.push(Diagnostic::new(
                Code::HandicapPlaced,
                ha_span,
                format!(
                    "HA[{ha}] but no handicap stones and White moves first: AB[{}] placed by Fox's convention (third stone top-left, as Tygem)",
                    raws.join("][")
                ),
            )),
            Err(e) => ch.failed(ha_span, "AB", &e),
        }
    }
}
