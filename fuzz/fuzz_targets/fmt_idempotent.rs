//! `qipu fmt`: the dialects normalised, then the canonical writer. Its
//! output parses without syntax errors, loses no text (the oracle of the
//! corpus test, `testsupport/text_survival.rs`) and is a fixed point.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_core::{WriteOptions, parse, to_canonical_bytes};

#[path = "../../testsupport/text_survival.rs"]
mod text_survival;

fn fmt(mut p: sgf_core::Parsed) -> (Vec<u8>, usize) {
    sgf_formats::repair::fmt(&mut p);
    (
        to_canonical_bytes(&p.document, &WriteOptions::default()),
        p.document.game_count(),
    )
}

fuzz_target!(|data: &[u8]| {
    let p = parse(data);
    let kept = text_survival::kept_values(&p.document);
    let (once, games) = fmt(p);
    let p2 = parse(&once);
    if games > 0 {
        assert!(
            !p2.diagnostics
                .iter()
                .any(|d| d.severity == sgf_core::Severity::Error
                    && d.code.layer() == "syntax"
                    && d.code != sgf_core::Code::DuplicateProperty),
            "{:?}",
            p2.diagnostics
        );
    }
    if !kept.is_empty() {
        let text = text_survival::all_text(&p2.document);
        // An exact conversion (`KI[13]` → `KM[6.5]`) keeps the value, not the
        // wording: it needs no note.
        let lost: Vec<_> = kept
            .iter()
            .filter(|(i, v)| {
                !text.contains(v) && !text_survival::converted_exactly(i, v, &p2.document)
            })
            .collect();
        assert!(lost.is_empty(), "text lost: {lost:?}");
    }
    let (twice, _) = fmt(p2);
    assert_eq!(once, twice, "fmt is not idempotent");
});
