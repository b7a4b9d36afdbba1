//! SGF dialects: files that are SGF in name but follow the habits of one
//! application. [`detect_dialects`] and [`dialect_diagnostics`] report them
//! without changing anything (that is what `qipu dump` shows);
//! [`normalize`] rewrites them in `FF[4]` form (what `qipu fmt`, `qipu
//! convert` and `qipu check --fix` write), keeping every original value it
//! replaces in the private property [`ORIGINAL`] (`ORIGINAL[KO=黒6目半]`).
//!
//! The parser of `sgf-core` already repairs what is purely syntactic (no
//! `;` before the root, lower-case identifiers, unescaped double-byte trail
//! bytes, charsets); this module handles the meaning.

use std::collections::BTreeMap;

use sgf_core::value::{self, Color, Point};
use sgf_core::{Code, Diagnostic, Document, NodeId, Severity, Span};

use crate::common::{HandicapOrder, handicap_points, sgf_point};
use crate::replay;

/// The private property that keeps the values normalisation replaced, as
/// `IDENT=value` (`ORIGINAL[KO=黒6目半][RE=257手完, 黒中押し勝ち]`).
pub const ORIGINAL: &str = "ORIGINAL";

/// An SGF dialect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Dialect {
    /// Sina (新浪围棋) and Nihon Ki-in downloads: `TE` (event), `RD` (date),
    /// `KO` (komi as text), `TM`/`LT`/`LC` (time as text), free-text `RE`,
    /// usually no `;` before the root.
    SinaNihonKiin,
    /// Fox (野狐): komi scaled ×50 or ×100 (`KM[375]`), `TC`/`TT` time
    /// fields, handicap stones missing or played as moves, no `CA`.
    Fox,
    /// Go Assistant (围棋助手): the main line continues after the variations.
    GoAssistant,
    /// OGS: one level of parentheses per move.
    OgsNesting,
    /// `FF[3]`-style mixed-case identifiers (`CoPyright`, `AddBlack`).
    MixedCaseIdentifiers,
    /// A pass written as the point just outside the board (`B[ss]` on
    /// 18×18, LizzieYzy).
    PassOutsideBoard,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: &'static [Dialect] = &[
        Dialect::SinaNihonKiin,
        Dialect::Fox,
        Dialect::GoAssistant,
        Dialect::OgsNesting,
        Dialect::MixedCaseIdentifiers,
        Dialect::PassOutsideBoard,
    ];

    /// Short name (`fox`).
    pub fn name(self) -> &'static str {
        match self {
            Dialect::SinaNihonKiin => "sina-nihon-kiin",
            Dialect::Fox => "fox",
            Dialect::GoAssistant => "go-assistant",
            Dialect::OgsNesting => "ogs-nesting",
            Dialect::MixedCaseIdentifiers => "ff3-mixed-case",
            Dialect::PassOutsideBoard => "pass-outside-board",
        }
    }

    /// What it is, for messages.
    pub fn description(self) -> &'static str {
        match self {
            Dialect::SinaNihonKiin => {
                "the Sina / Nihon Ki-in dialect (TE, RD, KO, LT, LC game info as text)"
            }
            Dialect::Fox => "a Fox (野狐) file (scaled komi, TC/TT time fields, no CA)",
            Dialect::GoAssistant => {
                "the Go Assistant (围棋助手) layout: the main line continues after the variations"
            }
            Dialect::OgsNesting => "OGS-style nesting: one level of parentheses per move",
            Dialect::MixedCaseIdentifiers => "FF[3]-style mixed-case property identifiers",
            Dialect::PassOutsideBoard => {
                "passes written as the point just outside the board (LizzieYzy `B[ss]` on 18×18)"
            }
        }
    }
}

/// One dialect found in one game.
struct Finding {
    dialect: Dialect,
    span: Span,
    detail: String,
}

fn text(doc: &Document, node: NodeId, ident: &str) -> Option<String> {
    doc.node(node)
        .value(ident)
        .map(|v| v.as_simple_text().trim().to_string())
}

fn is_double(s: &str) -> bool {
    matches!(s.trim(), "1" | "2" | "")
}

/// Whether `RE` is already in `FF[4]` form.
fn is_ff4_result(s: &str) -> bool {
    let s = s.trim();
    if matches!(s, "0" | "Draw" | "Void" | "?") {
        return true;
    }
    let Some(rest) = s.strip_prefix("B+").or_else(|| s.strip_prefix("W+")) else {
        return false;
    };
    matches!(rest, "" | "R" | "Resign" | "T" | "Time" | "F" | "Forfeit")
        || value::parse_real(rest.as_bytes()).is_some_and(|x| x >= 0.0)
}

fn board_size(doc: &Document, root: NodeId) -> u8 {
    doc.node(root)
        .value("SZ")
        .and_then(|v| v.number())
        .and_then(|n| u8::try_from(n).ok())
        .filter(|n| (1..=52).contains(n))
        .unwrap_or(19)
}

fn is_fox(doc: &Document, root: NodeId) -> bool {
    let r = doc.node(root);
    let aps: Vec<String> = r.values("AP").map(|v| v.decoded().into_owned()).collect();
    aps.iter().any(|a| a.to_ascii_lowercase().contains("foxwq"))
        || (aps.iter().any(|a| a.starts_with("GNU Go:3.8")) && r.has("TT") && r.has("TC"))
}

/// The dialects of game `gi`.
fn findings(doc: &Document, gi: usize) -> Vec<Finding> {
    let Some(game) = doc.game(gi) else {
        return Vec::new();
    };
    let root = game.root();
    let rid = root.id();
    let mut out = Vec::new();

    let sina: Vec<&str> = ["RD", "LT", "LC", "KO", "TE"]
        .into_iter()
        .filter(|id| {
            text(doc, rid, id).is_some_and(|v| !v.is_empty() && (*id != "TE" || !is_double(&v)))
        })
        .collect();
    if !sina.is_empty() {
        out.push(Finding {
            dialect: Dialect::SinaNihonKiin,
            span: root.span(),
            detail: format!(
                "{} in the root{}",
                sina.join(", "),
                if root.missing_semicolon() {
                    ", no `;` before it"
                } else {
                    ""
                }
            ),
        });
    }
    if is_fox(doc, rid) {
        let mut d = Vec::new();
        if let Some(k) = root.value("KM").and_then(|v| v.real())
            && k.fract() == 0.0
            && k.abs() > 20.0
        {
            d.push(format!("KM[{}]", sgf_go::values::fmt_real(k)));
        }
        if !root.has("CA") {
            d.push("no CA".to_string());
        }
        out.push(Finding {
            dialect: Dialect::Fox,
            span: root.get("AP").map_or(root.span(), |p| p.span()),
            detail: d.join(", "),
        });
    }

    let size = board_size(doc, rid);
    let outside = (size != 19 && size < 26).then(|| {
        let c = value::coord_letter(size);
        [c, c]
    });
    let (mut after, mut nested, mut mixed, mut passes) = (None, 0usize, None, None);
    let src = doc.source();
    for n in game.nodes() {
        if after.is_none() && n.is_after_variations() {
            after = Some(n.span());
        }
        if let Some(p) = n.parent()
            && p.child_count() == 1
        {
            let start = n.span().start as usize;
            let before = src[..start.min(src.len())].trim_ascii_end();
            if before.last() == Some(&b'(') {
                nested += 1;
            }
        }
        for p in n.props() {
            if mixed.is_none() && p.raw_ident() != p.ident().as_bytes() {
                mixed = Some((
                    p.ident_span(),
                    format!("{} → {}", String::from_utf8_lossy(p.raw_ident()), p.ident()),
                ));
            }
            if let Some(pair) = outside
                && passes.is_none()
                && matches!(p.ident(), "B" | "W")
                && p.values().any(|v| v.raw().trim_ascii() == pair)
                && pair != *b"tt"
            {
                passes = Some((
                    p.span(),
                    format!(
                        "{}[{}] on {size}×{size}",
                        p.ident(),
                        String::from_utf8_lossy(&pair)
                    ),
                ));
            }
        }
    }
    if let Some(span) = after {
        out.push(Finding {
            dialect: Dialect::GoAssistant,
            span,
            detail: String::new(),
        });
    }
    if nested >= 3 {
        out.push(Finding {
            dialect: Dialect::OgsNesting,
            span: root.span(),
            detail: format!("{nested} single continuations in their own parentheses"),
        });
    }
    if let Some((span, d)) = mixed {
        out.push(Finding {
            dialect: Dialect::MixedCaseIdentifiers,
            span,
            detail: d,
        });
    }
    if let Some((span, d)) = passes {
        out.push(Finding {
            dialect: Dialect::PassOutsideBoard,
            span,
            detail: d,
        });
    }
    out
}

/// The dialects found in any game of the document, in [`Dialect::ALL`] order.
///
/// ```
/// use sgf_formats::dialect::{Dialect, detect_dialects};
/// let doc = sgf_core::parse("(TE[第1期]RD[2025-06-12]KO[黒6目半];B[pd])".as_bytes()).document;
/// assert_eq!(detect_dialects(&doc), vec![Dialect::SinaNihonKiin]);
/// ```
pub fn detect_dialects(doc: &Document) -> Vec<Dialect> {
    let mut v: Vec<Dialect> = (0..doc.game_count())
        .flat_map(|gi| findings(doc, gi))
        .map(|f| f.dialect)
        .collect();
    v.sort();
    v.dedup();
    v
}

/// One `R003` diagnostic per dialect found (at its first occurrence, with
/// the number of games when there are several).
pub fn dialect_diagnostics(doc: &Document) -> Vec<Diagnostic> {
    let mut agg: BTreeMap<Dialect, (usize, Span, String)> = BTreeMap::new();
    for gi in 0..doc.game_count() {
        for f in findings(doc, gi) {
            agg.entry(f.dialect)
                .and_modify(|e| e.0 += 1)
                .or_insert((1, f.span, f.detail));
        }
    }
    agg.into_iter()
        .map(|(d, (count, span, detail))| {
            let mut msg = d.description().to_string();
            if !detail.is_empty() {
                msg.push_str(&format!(": {detail}"));
            }
            if count > 1 {
                msg.push_str(&format!(" ({count} games)"));
            }
            Diagnostic::new(Code::DialectDetected, span, msg).with_fix(match d {
                Dialect::PassOutsideBoard => "reported, not changed".to_string(),
                Dialect::OgsNesting | Dialect::MixedCaseIdentifiers => {
                    "fmt writes the FF[4] form".to_string()
                }
                _ => "normalised by fmt, convert and check --fix".to_string(),
            })
        })
        .collect()
}

/// Collects the changes of [`normalize`], capped so a collection of 10 000
/// Fox games does not print 10 000 lines.
struct Changes {
    diags: Vec<Diagnostic>,
    count: usize,
}

const MAX_CHANGES: usize = 100;

impl Changes {
    fn push(&mut self, d: Diagnostic) {
        self.count += 1;
        if self.count <= MAX_CHANGES {
            self.diags.push(d);
        }
    }
    fn changed(&mut self, span: Span, msg: String) {
        self.push(Diagnostic::new(Code::DialectNormalised, span, msg));
    }
    fn failed(&mut self, span: Span, what: &str, e: &sgf_core::EditError) {
        self.push(
            Diagnostic::new(
                Code::DialectNormalised,
                span,
                format!("{what} not changed: {e}"),
            )
            .with_severity(Severity::Warning),
        );
    }
}

/// Rewrites the dialects of every game in `FF[4]` form, in place, with the
/// public editing API; returns what it did (`R003` per dialect, `R006` per
/// change, `R005` for placed handicap stones, `G007` for passes it will not
/// guess). Replaced values are kept in [`ORIGINAL`]. Idempotent: a
/// normalised document has nothing left to normalise.
///
/// ```
/// use sgf_formats::dialect::normalize;
/// let mut doc = sgf_core::parse("(TE[第1期]KO[黒6目半]RE[黒中押し勝ち];B[pd])".as_bytes()).document;
/// normalize(&mut doc);
/// let root = doc.game(0).unwrap().root();
/// assert_eq!(root.text("EV").unwrap(), "第1期");
/// assert_eq!(root.text("KM").unwrap(), "6.5");
/// assert_eq!(root.text("RE").unwrap(), "B+R");
/// assert_eq!(root.values("ORIGINAL").count(), 2);
/// ```
pub fn normalize(doc: &mut Document) -> Vec<Diagnostic> {
    let mut out = dialect_diagnostics(doc);
    let mut ch = Changes {
        diags: Vec::new(),
        count: 0,
    };
    for gi in 0..doc.game_count() {
        let fs = findings(doc, gi);
        for f in &fs {
            let Some(root) = doc.game(gi).map(|g| g.root().id()) else {
                continue;
            };
            match f.dialect {
                Dialect::SinaNihonKiin => fix_sina(doc, root, &mut ch),
                Dialect::Fox => fix_fox(doc, root, &mut ch),
                Dialect::GoAssistant => fix_go_assistant(doc, gi, &mut ch),
                Dialect::PassOutsideBoard => report_passes(doc, gi, &mut ch),
                Dialect::OgsNesting | Dialect::MixedCaseIdentifiers => {}
            }
        }
    }
    if ch.count > MAX_CHANGES {
        out.push(Diagnostic::new(
            Code::DialectNormalised,
            Span::default(),
            format!("{} more changes not listed", ch.count - MAX_CHANGES),
        ));
    }
    out.extend(ch.diags);
    out
}

/// Adds `IDENT=value` to [`ORIGINAL`].
fn keep_original(doc: &mut Document, root: NodeId, ident: &str, value: &str, ch: &mut Changes) {
    let raw = sgf_core::text::escape(&format!("{ident}={value}"), false);
    if let Err(e) = doc.add_raw(root, ORIGINAL, &[raw]) {
        ch.failed(Span::default(), ORIGINAL, &e);
    }
}

fn span_of(doc: &Document, node: NodeId, ident: &str) -> Span {
    doc.node(node)
        .get(ident)
        .map(|p| p.span())
        .unwrap_or_default()
}

/// Replaces `from` by `to` = `new` (when `to` is free), keeping the original
/// value when it differs from what is written.
fn replace(
    doc: &mut Document,
    root: NodeId,
    from: &str,
    to: &str,
    old: &str,
    new: Option<String>,
    ch: &mut Changes,
) {
    let span = span_of(doc, root, from);
    let free = from == to || !doc.node(root).has(to);
    let written = match new {
        Some(v) if free => {
            let raw = sgf_core::text::escape(&v, false);
            match doc.replace_property(root, from, to, &[raw]) {
                Ok(()) => Some(v),
                Err(e) => {
                    ch.failed(span, from, &e);
                    return;
                }
            }
        }
        _ => {
            doc.remove_property(root, from);
            None
        }
    };
    if written.as_deref() != Some(old) {
        keep_original(doc, root, from, old, ch);
    }
    ch.changed(
        span,
        match &written {
            Some(v) => format!("{from}[{old}] → {to}[{v}]"),
            None => format!("{from}[{old}] not understood or {to} already set; kept in {ORIGINAL}"),
        },
    );
}

fn fix_sina(doc: &mut Document, root: NodeId, ch: &mut Changes) {
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
        let first = if lt.is_some() { "LT" } else { "LC" };
        let span = span_of(doc, root, first);
        let placed = match ot {
            Some(ot) if !doc.node(root).has("OT") => {
                let raw = sgf_core::text::escape(&ot, false);
                match doc.replace_property(root, first, "OT", &[raw]) {
                    Ok(()) => {
                        ch.changed(span, format!("LT/LC → OT[{ot}]"));
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
                format!("LT/LC not understood or OT already set; kept in {ORIGINAL}"),
            );
        }
        for (id, v) in [("LT", &lt), ("LC", &lc)] {
            if let Some(v) = v {
                doc.remove_property(root, id);
                keep_original(doc, root, id, v, ch);
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

/// The moves of the main line after the root: (node, colour, point).
fn main_moves(doc: &Document, root: NodeId) -> Vec<(NodeId, Color, Option<Point>)> {
    let mut v = Vec::new();
    let mut n = doc.node(root).first_child();
    while let Some(node) = n {
        for c in [Color::Black, Color::White] {
            if let Some(val) = node.value(c.as_str()) {
                v.push((node.id(), c, val.point()));
            }
        }
        n = node.first_child();
    }
    v
}

fn fix_fox(doc: &mut Document, root: NodeId, ch: &mut Changes) {
    let r = doc.node(root);
    // Scaled komi: ×50 under Chinese rules (KM[375] = 7.5), ×100 otherwise
    // (KM[650] = 6.5): both occur in every Fox collection studied.
    if let Some(k) = r.value("KM").and_then(|v| v.real())
        && k.fract() == 0.0
        && k.abs() > 20.0
    {
        let chinese =
            text(doc, root, "RU").is_some_and(|ru| ru.to_ascii_lowercase().contains("chinese"));
        let scale = if chinese { 50.0 } else { 100.0 };
        let km = sgf_go::values::fmt_real(k / scale);
        let old = sgf_go::values::fmt_real(k);
        let span = span_of(doc, root, "KM");
        match doc.set_text(root, "KM", &km) {
            Ok(()) => {
                keep_original(doc, root, "KM", &old, ch);
                ch.changed(
                    span,
                    format!(
                        "KM[{old}] is Fox's scaled komi ({} rules: ÷{scale}) → KM[{km}]",
                        if chinese { "Chinese" } else { "Japanese" }
                    ),
                );
            }
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
                    keep_original(doc, root, "AP", a, ch);
                }
                ch.changed(span, format!("AP[{}] → AP[{fox}]", aps.join("][")));
            }
            Err(e) => ch.failed(span, "AP", &e),
        }
    }
    let r = doc.node(root);
    // Byo-yomi: TC periods of TT seconds.
    if !r.has("OT")
        && let (Some(tc), Some(tt)) = (
            r.value("TC").and_then(|v| v.number()),
            r.value("TT").and_then(|v| v.number()),
        )
        && tc > 0
        && tt > 0
    {
        let ot = format!("{tc}x{tt} byo-yomi");
        let span = span_of(doc, root, "TT");
        match doc.set_text(root, "OT", &ot) {
            Ok(()) => ch.changed(
                span,
                format!("TC[{tc}]TT[{tt}] → OT[{ot}] (TC and TT kept)"),
            ),
            Err(e) => ch.failed(span, "OT", &e),
        }
    }
    fox_handicap(doc, root, ch);
}

/// `HA[n]` without stones: either the stones were played as the first n
/// Black moves (they become `AB`), or they are missing and White moves
/// first (they are placed by Fox's convention, which puts the third stone
/// top-left like Tygem).
fn fox_handicap(doc: &mut Document, root: NodeId, ch: &mut Changes) {
    let r = doc.node(root);
    let Some(ha) = r
        .value("HA")
        .and_then(|v| v.number())
        .and_then(|n| u8::try_from(n).ok())
        .filter(|n| (2..=9).contains(n))
    else {
        return;
    };
    let has_setup = |n: sgf_core::Node| n.has("AB") || n.has("AW");
    if has_setup(r) || r.first_child().is_some_and(has_setup) {
        return;
    }
    let ha_span = span_of(doc, root, "HA");
    let size = board_size(doc, root);
    let moves = main_moves(doc, root);
    let k = ha as usize;
    let played = moves.len() >= k
        && moves[..k]
            .iter()
            .all(|m| m.1 == Color::Black && m.2.is_some())
        && moves.get(k).is_none_or(|m| m.1 == Color::White);
    if played {
        // Only plain, linear move nodes are folded into the root.
        let plain = moves[..k].iter().enumerate().all(|(i, m)| {
            let n = doc.node(m.0);
            n.props().len() == 1 && (i + 1 == k || n.child_count() == 1)
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

/// Go Assistant writes the main line after the variations; the parser reads
/// it as the last variation: make it the first child of its parent.
fn fix_go_assistant(doc: &mut Document, gi: usize, ch: &mut Changes) {
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
            ),
            Err(e) => ch.failed(span, "the main line", &e),
        }
    }
}

fn report_passes(doc: &Document, gi: usize, ch: &mut Changes) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_ff4_form() {
        for r in ["B+R", "W+6.5", "0", "Void", "B+", "W+Resign"] {
            assert!(is_ff4_result(r), "{r}");
        }
        for r in ["黒中押し勝ち", "B+x", "Black wins"] {
            assert!(!is_ff4_result(r), "{r}");
        }
    }
}
