//! The text-survival oracle of the repair ("nothing is lost"): every Text
//! and SimpleText value, every game-info value, the text of every label (`LB[aa:A]`,
//! `L[rb:b]`) and every value of an unknown or private property of the
//! input must still appear, somewhere
//! in the same file, in the output of `check --fix` or `fmt` — compared
//! after NFKC and case folding, white space collapsed, so that what the
//! repairs may change (case, width, white space) does not count.
//!
//! Not a crate: the corpus test (`crates/sgf-formats/tests/repair_corpus.rs`),
//! the repair tests and the fuzz targets `fix` and `fmt_idempotent`
//! include this file by path, with `unicode-normalization` as a
//! dependency: `#[path = "…/testsupport/text_survival.rs"] mod text_survival;`.
#![allow(dead_code)]

use sgf_core::{Document, PropKind, ValueType};
use unicode_normalization::UnicodeNormalization;

/// A value's text as the oracle compares it: white space collapsed, NFKC,
/// lower case, and a run of U+FFFD as one (it stands for bytes that are no
/// text, in a number that depends on where a repair cut them: `\xf1\\\x83`
/// decodes to one U+FFFD escaped, to two unescaped). Plain ASCII skips
/// NFKC (it changes none of it), which keeps the fuzz targets fast.
pub fn norm(s: &str) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_ascii() {
        return collapsed.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(collapsed.len());
    for c in collapsed.nfkc().flat_map(char::to_lowercase) {
        if !(c == '\u{FFFD}' && out.ends_with('\u{FFFD}')) {
            out.push(c);
        }
    }
    out
}

/// Whether the oracle checks the values of a property: Text and
/// SimpleText, game information, unknown and private properties (`CA` is
/// left out: the canonical form is UTF-8 by definition).
fn checked(p: &sgf_core::Prop<'_>) -> bool {
    if p.ident() == "CA" {
        return false;
    }
    match p.info() {
        None => true,
        Some(i) => {
            matches!(i.value, ValueType::Text | ValueType::SimpleText)
                || i.kind == PropKind::GameInfo
                || labels(p)
        }
    }
}

/// Whether a property holds labels, point and text (`LB[aa:A]`, and the
/// legacy `L[rb:b]` that some programs write so): its composed values
/// are checked whole.
fn labels(p: &sgf_core::Prop<'_>) -> bool {
    p.ident() == "LB" || p.ident() == "L"
}

/// The values that must survive, as (property, normalised text); blank
/// values are left out.
pub fn kept_values(doc: &Document) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (_, n) in doc.all_nodes() {
        for p in doc.node(n).props() {
            if !checked(&p) {
                continue;
            }
            for v in p.values() {
                let t = if labels(&p) {
                    // A label's text must survive; its point is a point,
                    // which the repairs squeeze, move or delete (and
                    // report) as every point (`LB[f f:text]` is
                    // `LB[ff:text]`, or kept as written when deleted).
                    let Some((_, text)) = v.composed() else {
                        continue;
                    };
                    let is_point = |t: &str| {
                        let t: String = t.split_whitespace().collect();
                        t.len() == 2 && t.bytes().all(|b| b.is_ascii_alphabetic())
                    };
                    // `L[aa:cc]` is a rectangle of points, not a label.
                    if p.ident() == "L" && is_point(&text) {
                        continue;
                    }
                    norm(&text)
                } else {
                    norm(&v.decoded())
                };
                if !t.is_empty() {
                    out.push((p.ident().to_string(), t));
                }
            }
        }
    }
    out
}

/// Every value of a document, normalised, in one string (values apart).
pub fn all_text(doc: &Document) -> String {
    let mut s = String::new();
    for (_, n) in doc.all_nodes() {
        for p in doc.node(n).props() {
            for v in p.values() {
                s.push_str(&norm(&v.decoded()));
                s.push('\u{1}');
                // A label as `kept_values` gives it: its point squeezed.
                if labels(&p)
                    && let Some((pt, text)) = v.composed()
                {
                    let squeezed = pt.split_whitespace().collect::<String>();
                    if squeezed != pt {
                        s.push_str(&norm(&format!("{squeezed}:{text}")));
                        s.push('\u{1}');
                    }
                }
            }
        }
    }
    s
}

/// Whether the value `v` (normalised) of property `ident` of the input
/// was converted exactly into a value of `output`, which the repair then
/// writes without a note: the legacy `KI[11]` (komi ×2) is `KM[5.5]`.
pub fn converted_exactly(ident: &str, v: &str, output: &Document) -> bool {
    if ident != "KI" || v.parse::<i64>().map(|k| k.to_string()).as_deref() != Ok(v) {
        return false;
    }
    let k: f64 = v.parse::<i64>().map_or(f64::NAN, |k| k as f64);
    output.all_nodes().any(|(_, n)| {
        output
            .node(n)
            .values("KM")
            .any(|km| km.real() == Some(k / 2.0))
    })
}

/// The values of `input` that are not in `output`, as (property,
/// normalised text): empty when nothing was lost.
pub fn lost(input: &Document, output: &Document) -> Vec<(String, String)> {
    let kept = kept_values(input);
    if kept.is_empty() {
        return kept;
    }
    let text = all_text(output);
    kept.into_iter()
        .filter(|(i, v)| !text.contains(v) && !converted_exactly(i, v, output))
        .collect()
}
