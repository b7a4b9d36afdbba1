//! The typed-value oracle of the repair ("no value is changed into another
//! value"): every Number, Real, `DT` and `RE` value of the input, compared
//! with the values of that property in the same game of the output. A
//! value is fine when the output holds it as written (left alone), holds
//! the same typed value (`KM[6,5]` → `KM[6.5]`: the same number), no
//! longer holds the property (deleted: the text oracle,
//! `text_survival.rs`, checks its wording survived), or keeps its wording
//! in `GC` (`KM as written: 375`, a dialect's conversion). Anything else
//! is a value changed into another one; so is an output value that is a
//! prefix of the input's text (`BL[0:07:42]` → `BL[0]`), judged without
//! the readers under test.
//!
//! Not a crate: included by path, like `text_survival.rs`.
#![allow(dead_code)]

use std::collections::HashMap;

use sgf_core::{Document, ValueType};

/// A typed value, strictly read (FF\[4\] syntax).
#[derive(Clone, Debug, PartialEq)]
pub enum Typed {
    /// A Number or Real.
    Num(f64),
    /// `DT`: the dates listed.
    Dates(Vec<sgf_go::values::PartialDate>),
    /// `RE`.
    Result(sgf_go::values::GameResult),
}

/// Whether the oracle compares the values of property `ident` of type `ty`.
/// (`FF` is left out: the canonical form is FF\[4\] by definition.)
pub fn compared(ident: &str, ty: ValueType) -> bool {
    ident != "FF"
        && (matches!(ty, ValueType::Number | ValueType::Real) || matches!(ident, "DT" | "RE"))
}

/// The strict reading of a value of `ident`.
pub fn strict(ident: &str, ty: ValueType, text: &str) -> Option<Typed> {
    match ident {
        "DT" => sgf_go::values::parse_dates(text).map(Typed::Dates),
        "RE" => sgf_go::values::parse_result(text).map(Typed::Result),
        _ if ty == ValueType::Number => {
            sgf_core::value::parse_number(text.as_bytes()).map(|n| Typed::Num(n as f64))
        }
        _ => sgf_core::value::parse_real(text.as_bytes()).map(Typed::Num),
    }
}

/// The lenient reading of a value of `ident`, as the repair reads it.
pub fn lenient(ident: &str, ty: ValueType, text: &str) -> Option<Typed> {
    use sgf_go::values as v;
    match ident {
        "DT" => v::read_date(text)
            .and_then(|d| v::parse_dates(&d))
            .map(Typed::Dates),
        "RE" => v::read_result(text).map(Typed::Result),
        "KM" => v::read_komi(text).map(Typed::Num),
        "TM" | "BL" | "WL" => v::read_seconds(text).map(Typed::Num),
        _ if ty == ValueType::Number => v::read_number(text).map(|n| Typed::Num(n as f64)),
        _ => v::read_real(text).map(Typed::Num),
    }
}

/// Whether `out` (an FF\[4\] number) is a proper prefix of the number
/// written at the start of `input`: `0` of `0:07:42`, `1` of `1 kk`,
/// `6.5` of `6.5 or 7.5`. Judged on ASCII digits and full-width ones,
/// without the readers.
pub fn prefix_read(input: &str, out: &str) -> bool {
    let folded: String = input
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            c => c,
        })
        .collect();
    let out = out.trim();
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    if out.is_empty()
        || !out
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.')
        || folded.len() <= out.len()
        || !folded.starts_with(out)
    {
        return false;
    }
    // More of the number follows: a digit, or a separator and a digit
    // (`34.` is 34 whole).
    let mut rest = folded[out.len()..].trim_start().chars();
    match rest.next() {
        Some(c) if c.is_ascii_digit() => true,
        Some(':' | '.' | ',' | '/') => digit(rest.next()),
        _ => false,
    }
}

/// The values of game `gi` the oracle compares: (property, type, text), in
/// file order.
fn typed_values(doc: &Document, gi: usize) -> Vec<(String, ValueType, String)> {
    let mut out = Vec::new();
    let Some(game) = doc.game(gi) else {
        return out;
    };
    for node in game.nodes() {
        for p in node.props() {
            let Some(info) = p.info() else { continue };
            if !compared(p.ident(), info.value) {
                continue;
            }
            for v in p.values() {
                out.push((p.ident().to_string(), info.value, v.decoded().into_owned()));
            }
        }
    }
    out
}

/// Every value of `input` changed into another value in `output`, as
/// `IDENT[before] → IDENT[after…]`; empty when none was.
pub fn changed(input: &Document, output: &Document) -> Vec<String> {
    let mut found = Vec::new();
    for gi in 0..input.game_count() {
        let ins = typed_values(input, gi);
        if ins.is_empty() {
            continue;
        }
        let mut outs: HashMap<&str, Vec<&str>> = HashMap::new();
        let out_vals = typed_values(output, gi);
        for (i, _, t) in &out_vals {
            outs.entry(i.as_str()).or_default().push(t.as_str());
        }
        let gc: String = output
            .game(gi)
            .map(|g| {
                g.nodes()
                    .filter_map(|n| n.text("GC").map(|s| s.into_owned()))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        for (ident, ty, text) in &ins {
            let Some(now) = outs.get(ident.as_str()) else {
                continue;
            };
            let t = text.trim();
            if t.is_empty() || now.iter().any(|o| o.trim() == t) {
                continue;
            }
            // A number read from the start of a longer one (a date's time
            // of day dropped is another matter: its wording is in GC).
            if !matches!(ident.as_str(), "DT" | "RE") && now.iter().any(|o| prefix_read(t, o)) {
                found.push(format!("{ident}[{t}] → {ident}{now:?} (a prefix)"));
                continue;
            }
            if gc.lines().any(|l| {
                l.strip_prefix(ident.as_str())
                    .is_some_and(|r| r.contains(t))
            }) {
                continue;
            }
            let meant = strict(ident, *ty, t).or_else(|| lenient(ident, *ty, t));
            let same = meant.is_some_and(|m| {
                now.iter()
                    .any(|o| strict(ident, *ty, o).is_some_and(|x| x == m))
            });
            if !same && meant_elsewhere(ident, &ins, now, *ty) {
                continue;
            }
            if !same {
                found.push(format!("{ident}[{t}] → {ident}{now:?}"));
            }
        }
    }
    found
}

/// Whether every value of `ident` in the output stands for one of the
/// input's (the value looked at was deleted, and the others kept: a
/// variation's `BL` deleted, the main line's kept).
fn meant_elsewhere(
    ident: &str,
    ins: &[(String, ValueType, String)],
    now: &[&str],
    ty: ValueType,
) -> bool {
    now.iter().all(|o| {
        let x = strict(ident, ty, o);
        ins.iter().any(|(i, _, t)| {
            i == ident
                && (t.trim() == o.trim()
                    || (x.is_some()
                        && strict(ident, ty, t)
                            .or_else(|| lenient(ident, ty, t))
                            .is_some_and(|m| Some(m) == x)))
        })
    })
}
