//! SGF dialects: files that are SGF in name but follow the habits of one
//! application. [`detect_dialects`] and [`dialect_diagnostics`] report them
//! without changing anything (that is what `qipu dump` shows);
//! [`normalize_document`] rewrites them in `FF[4]` form (what `qipu fmt`,
//! `qipu convert` and `qipu check --fix` write), keeping the wording of
//! every value it replaces in `GC`, as every repair does (`KO as written:
//! 黒6目半`). One file per dialect.
//!
//! The parser of `sgf-core` already repairs what is purely syntactic (no
//! `;` before the root, lower-case identifiers, unescaped double-byte trail
//! bytes, charsets); this module handles the meaning.

use sgf_core::value::{self, Color, Point};
use sgf_core::{Code, Diagnostic, Document, NodeId, Severity, Span};

use crate::common::{HandicapOrder, handicap_points, sgf_point};
use crate::replay;
use sgf_go::fix::Change;

mod fox;
mod go_assistant;
mod passes;
mod sina;

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
        .and_then(|v| value::parse_number(v.decoded().as_bytes()))
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
        if let Some(k) = real_of(doc, rid, "KM")
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
    for n in game.nodes() {
        if after.is_none() && n.is_after_variations() {
            after = Some(n.span());
        }
        if n.opens_parenthesis() && n.is_only_child() {
            nested += 1;
        }
        // A node of one property with a one-letter identifier (`;B[pd]`,
        // most nodes) has no mixed case: on a board without such passes
        // it shows nothing.
        if outside.is_none() {
            let mut props = n.props();
            if props.len() == 1 && props.next().is_some_and(|p| p.raw_ident().len() == 1) {
                continue;
            }
        }
        // A plain move node shows a dialect only as a pass outside the
        // board: checked here without the general loop.
        if let Some((_, pair)) = n.simple_move()
            && n.props().next().is_some_and(|p| p.raw_ident().len() == 1)
        {
            if passes.is_none()
                && let Some(out) = outside
                && pair == out
                && pair != *b"tt"
            {
                let p = n.props().next().expect("one property");
                passes = Some((
                    p.span(),
                    format!(
                        "{}[{}] on {size}×{size}",
                        p.ident(),
                        String::from_utf8_lossy(&pair)
                    ),
                ));
            }
            continue;
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

/// A dialect found in a document: in how many games, and where first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectCount {
    /// The dialect.
    pub dialect: Dialect,
    /// The games written in it.
    pub games: usize,
    /// Its first occurrence.
    pub span: Span,
    /// What was seen there (`no CA`, …).
    pub detail: String,
}

/// The dialects of a document's games, in [`Dialect`] order.
pub fn dialect_counts(doc: &Document) -> Vec<DialectCount> {
    let mut counts = Vec::new();
    for gi in 0..doc.game_count() {
        let found = findings(doc, gi)
            .into_iter()
            .map(|f| DialectCount {
                dialect: f.dialect,
                games: 1,
                span: f.span,
                detail: f.detail,
            })
            .collect();
        merge_dialect_counts(&mut counts, found, 0);
    }
    counts
}

/// Adds the counts of a later part of a file, whose spans start at
/// `offset` in it, to those of the parts before.
pub fn merge_dialect_counts(into: &mut Vec<DialectCount>, later: Vec<DialectCount>, offset: u32) {
    for mut c in later {
        match into.iter_mut().find(|e| e.dialect == c.dialect) {
            Some(e) => e.games += c.games,
            None => {
                c.span = Span::new(c.span.start + offset, c.span.end + offset);
                into.push(c);
            }
        }
    }
    into.sort_by_key(|c| c.dialect);
}

/// One `R003` diagnostic per dialect counted (at its first occurrence,
/// with the number of games when there are several).
pub fn dialect_report(counts: &[DialectCount]) -> Vec<Diagnostic> {
    counts
        .iter()
        .map(|c| {
            let mut msg = c.dialect.description().to_string();
            if !c.detail.is_empty() {
                msg.push_str(&format!(": {}", c.detail));
            }
            if c.games > 1 {
                msg.push_str(&format!(" ({} games)", c.games));
            }
            Diagnostic::new(Code::DialectDetected, c.span, msg).with_fix(match c.dialect {
                Dialect::PassOutsideBoard => "reported, not changed".to_string(),
                Dialect::OgsNesting | Dialect::MixedCaseIdentifiers => {
                    "fmt writes the FF[4] form".to_string()
                }
                _ => "normalised by fmt, convert and check --fix".to_string(),
            })
        })
        .collect()
}

/// One `R003` diagnostic per dialect found (at its first occurrence, with
/// the number of games when there are several).
pub fn dialect_diagnostics(doc: &Document) -> Vec<Diagnostic> {
    dialect_report(&dialect_counts(doc))
}

/// What normalisation did and found: the changes (each with the text before
/// and after it), and what it reports without changing (`G007` passes it
/// will not guess, handicap stones it could not place, edits that failed).
#[derive(Clone, Debug, Default)]
pub struct Normalised {
    /// The changes, in order.
    pub changes: Vec<Change>,
    /// Warnings about what was left as it is.
    pub warnings: Vec<Diagnostic>,
}

impl Normalised {
    fn changed(&mut self, span: Span, msg: String, before: String, after: String) {
        self.changes.push(Change {
            code: Code::DialectNormalised,
            message: msg,
            span,
            before,
            after,
        });
    }

    fn push(&mut self, d: Diagnostic) {
        if d.severity == Severity::Info {
            self.changes.push(Change {
                code: d.code,
                message: d.message,
                span: d.span,
                before: String::new(),
                after: String::new(),
            });
        } else {
            self.warnings.push(d);
        }
    }

    fn failed(&mut self, span: Span, what: &str, e: &sgf_core::EditError) {
        self.warnings.push(
            Diagnostic::new(
                Code::DialectNormalised,
                span,
                format!("{what} not changed: {e}"),
            )
            .with_severity(Severity::Warning),
        );
    }
}

/// Changes listed one by one by [`normalize`] before a count of the rest,
/// so a collection of 10 000 Fox games does not print 10 000 lines.
const MAX_CHANGES: usize = 100;

/// Rewrites the dialects of every game in `FF[4]` form, in place, with the
/// public editing API, and returns what it did. A value it rewrites keeps
/// its wording in `GC` when the new value says less
/// ([`sgf_go::fix::keep_as_written`], the one convention of every repair).
/// Idempotent: a normalised document has nothing left to normalise.
///
/// ```
/// use sgf_formats::dialect::normalize_document;
/// let mut doc = sgf_core::parse("(TE[第1期]KO[黒6目半]RE[黒中押し勝ち];B[pd])".as_bytes()).document;
/// let done = normalize_document(&mut doc);
/// let root = doc.game(0).unwrap().root();
/// assert_eq!(root.text("EV").unwrap(), "第1期");
/// assert_eq!(root.text("KM").unwrap(), "6.5");
/// assert_eq!(root.text("RE").unwrap(), "B+R");
/// assert!(root.text("GC").unwrap().contains("KO as written: 黒6目半"));
/// assert_eq!(done.changes.len(), 3);
/// ```
pub fn normalize_document(doc: &mut Document) -> Normalised {
    let mut ch = Normalised::default();
    for gi in 0..doc.game_count() {
        let mut fs = findings(doc, gi);
        // The main line is settled first: the other fixes read it (Fox's
        // handicap guess replays it), and must read what is written.
        fs.sort_by_key(|f| f.dialect != Dialect::GoAssistant);
        for f in &fs {
            let Some(root) = doc.game(gi).map(|g| g.root().id()) else {
                continue;
            };
            match f.dialect {
                Dialect::SinaNihonKiin => sina::fix_sina(doc, root, &mut ch),
                Dialect::Fox => fox::fix_fox(doc, gi, root, &mut ch),
                Dialect::GoAssistant => go_assistant::fix_go_assistant(doc, gi, &mut ch),
                Dialect::PassOutsideBoard => passes::report_passes(doc, gi, &mut ch),
                Dialect::OgsNesting | Dialect::MixedCaseIdentifiers => {}
            }
        }
    }
    ch
}

/// [`normalize_document`], reported as diagnostics (what `qipu fmt` and
/// `qipu convert` print): the dialects found (`R003`), each change (`R006`,
/// `R005`; the first 100, then a count), and the warnings.
pub fn normalize(doc: &mut Document) -> Vec<Diagnostic> {
    let mut out = dialect_diagnostics(doc);
    let done = normalize_document(doc);
    let n = done.changes.len();
    out.extend(
        done.changes
            .into_iter()
            .take(MAX_CHANGES)
            .map(|c| Diagnostic::new(c.code, c.span, c.message)),
    );
    if n > MAX_CHANGES {
        out.push(Diagnostic::new(
            Code::DialectNormalised,
            Span::default(),
            format!("{} more changes not listed", n - MAX_CHANGES),
        ));
    }
    out.extend(done.warnings);
    out
}

/// Keeps the wording of `ident` in `GC`, as every repair does.
fn keep(doc: &mut Document, root: NodeId, ident: &str, value: &str, ch: &mut Normalised) {
    if let Err(e) = sgf_go::fix::keep_as_written(doc, root, ident, value) {
        ch.failed(Span::default(), "GC", &e);
    }
}

/// The values of `ident` in `node`, decoded and trimmed, one list per
/// occurrence of the property (`TE[a][b]TE[c]`: `[[a, b], [c]]`).
fn occurrences(doc: &Document, node: NodeId, ident: &str) -> Vec<Vec<String>> {
    doc.node(node)
        .props()
        .filter(|p| p.ident() == ident)
        .map(|p| p.values().map(|v| v.decoded().trim().to_string()).collect())
        .collect()
}

/// Keeps in `GC` the wording of the values of `ident` that a rewrite
/// reading only the first one would drop: every value but the first
/// (`RD[2020-01-01][2020-01-02]`), or with `whole_first`, the values of
/// every occurrence but the first (a rename keeps the first occurrence
/// with all its values).
fn keep_extra_values(
    doc: &mut Document,
    node: NodeId,
    ident: &str,
    whole_first: bool,
    ch: &mut Normalised,
) {
    let occ = occurrences(doc, node, ident);
    let skip = if whole_first {
        occ.first().map_or(0, Vec::len)
    } else {
        1
    };
    let extra: Vec<String> = occ
        .into_iter()
        .flatten()
        .skip(skip)
        .filter(|t| !t.is_empty())
        .collect();
    if !extra.is_empty() {
        keep(doc, node, ident, &extra.join(", "), ch);
    }
}

/// A property's first value as a Number, read as the canonical form
/// writes it (escapes resolved: `TT[\30]` is 30), so that what is read
/// here is what a second run reads.
fn number_of(doc: &Document, node: NodeId, ident: &str) -> Option<i64> {
    doc.node(node)
        .value(ident)
        .and_then(|v| value::parse_number(v.decoded().as_bytes()))
}

/// A property's first value as a Real, read as [`number_of`] reads.
fn real_of(doc: &Document, node: NodeId, ident: &str) -> Option<f64> {
    doc.node(node)
        .value(ident)
        .and_then(|v| value::parse_real(v.decoded().as_bytes()))
}

fn span_of(doc: &Document, node: NodeId, ident: &str) -> Span {
    doc.node(node)
        .get(ident)
        .map(|p| p.span())
        .unwrap_or_default()
}

/// Replaces `from` by `to` = `new` (when `to` is free), keeping the
/// original wording when the new value says less.
fn replace(
    doc: &mut Document,
    root: NodeId,
    from: &str,
    to: &str,
    old: &str,
    new: Option<String>,
    ch: &mut Normalised,
) {
    let span = span_of(doc, root, from);
    let free = from == to || !doc.node(root).has(to);
    let written = match new {
        Some(v) if free => {
            let raw = sgf_core::text::escape(&v, false);
            if !sgf_go::fix::same_wording(old, &v) {
                keep(doc, root, from, old, ch);
            }
            // The same text under another name is renamed, its bytes kept:
            // text the charset cannot take back (U+FFFD) survives, and
            // writing the result again changes nothing.
            let rename = v == old && from != to;
            keep_extra_values(doc, root, from, rename, ch);
            let done = if rename {
                doc.rename_property(root, from, to).map(|_| ())
            } else {
                doc.replace_property(root, from, to, &[raw])
            };
            match done {
                Ok(()) => Some(v),
                Err(e) => {
                    ch.failed(span, from, &e);
                    return;
                }
            }
        }
        _ => {
            keep(doc, root, from, old, ch);
            keep_extra_values(doc, root, from, false, ch);
            doc.remove_property(root, from);
            None
        }
    };
    ch.changed(
        span,
        match &written {
            Some(v) => format!("{from}[{old}] → {to}[{v}]"),
            None => {
                format!("{from}[{old}] not understood or {to} already set; its wording kept in GC")
            }
        },
        format!("{from}[{old}]"),
        written.map(|v| format!("{to}[{v}]")).unwrap_or_default(),
    );
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
