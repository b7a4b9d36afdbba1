//! Sina (新浪围棋) and Nihon Ki-in downloads: `TE` (event), `RD` (date),
//! `KO` (komi as text), `TM`/`LT`/`LC` (time as text), free-text `RE`.

use super::*;

pub(super) fn fix_sina(doc: &mut Document, root: NodeId, ch: &mut Normalised) {
    if let Some(te) = text(doc, root, "TE").filter(|t| !is_double(t)) {
        replace(doc, root, "TE", "EV", &te, Some(te.clone()), ch);
    }
    if let Some(rd) = text(doc, root, "RD").filter(|t| !t.is_empty()) {
        let dt = sgf_go::values::read_date(&rd).unwrap_or_else(|| rd.clone());
        replace(doc, root, "RD", "DT", &rd, Some(dt), ch);
    }
    if let Some(ko) = text(doc, root, "KO").filter(|t| !t.is_empty()) {
        let km = sgf_go::values::read_komi(&ko).map(sgf_go::values::fmt_real);
        replace(doc, root, "KO", "KM", &ko, km, ch);
    }
    if let Some(tm) = text(doc, root, "TM")
        && value::parse_real(tm.as_bytes()).is_none()
        && let Some(secs) = sgf_go::values::read_duration(&tm)
    {
        replace(
            doc,
            root,
            "TM",
            "TM",
            &tm,
            Some(sgf_go::values::fmt_real(secs)),
            ch,
        );
    }
    let lt = text(doc, root, "LT").filter(|t| !t.is_empty());
    let lc = text(doc, root, "LC").filter(|t| !t.is_empty());
    if lt.is_some() || lc.is_some() {
        let secs = lt.as_deref().and_then(|t| {
            sgf_go::values::read_duration(t).or_else(|| value::parse_real(t.as_bytes()))
        });
        let count = lc.as_deref().and_then(sgf_go::values::read_count);
        let ot = match (secs, count) {
            (Some(s), Some(c)) => Some(format!("{c}x{} byo-yomi", sgf_go::values::fmt_real(s))),
            (Some(s), None) if lc.is_none() => {
                Some(format!("{} seconds byo-yomi", sgf_go::values::fmt_real(s)))
            }
            _ => None,
        };
        // Values beyond the first of each are not read: kept in GC.
        for (id, v) in [("LT", &lt), ("LC", &lc)] {
            if v.is_some() {
                keep_extra_values(doc, root, id, false, ch);
            }
        }
        let first = if lt.is_some() { "LT" } else { "LC" };
        let span = span_of(doc, root, first);
        let placed = match ot {
            Some(ot) if !doc.node(root).has("OT") => {
                let raw = sgf_core::text::escape(&ot, false);
                match doc.replace_property(root, first, "OT", &[raw]) {
                    Ok(()) => {
                        ch.changed(
                            span,
                            format!("LT/LC → OT[{ot}]"),
                            [("LT", &lt), ("LC", &lc)]
                                .iter()
                                .filter_map(|(id, v)| v.as_ref().map(|v| format!("{id}[{v}]")))
                                .collect::<String>(),
                            format!("OT[{ot}]"),
                        );
                        true
                    }
                    Err(e) => {
                        ch.failed(span, "OT", &e);
                        false
                    }
                }
            }
            _ => false,
        };
        if !placed {
            ch.changed(
                span,
                "LT/LC not understood or OT already set; their wording kept in GC".into(),
                String::new(),
                String::new(),
            );
        }
        for (id, v) in [("LT", &lt), ("LC", &lc)] {
            if let Some(v) = v {
                keep(doc, root, id, v, ch);
                doc.remove_property(root, id);
            }
        }
    }
    if let Some(re) = text(doc, root, "RE")
        && !is_ff4_result(&re)
        && let Some(r) = sgf_go::values::read_result(&re).map(|r| r.to_string())
    {
        replace(doc, root, "RE", "RE", &re, Some(r), ch);
    }
}
