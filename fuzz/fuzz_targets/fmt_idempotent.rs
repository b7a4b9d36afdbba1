//! `qipu fmt`: the dialects normalised, then the canonical writer. Its
//! output parses without syntax errors and is a fixed point.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_core::{WriteOptions, parse, to_canonical_bytes};

fn fmt(data: &[u8]) -> (Vec<u8>, usize) {
    let mut doc = parse(data).document;
    let _ = sgf_formats::normalize(&mut doc);
    (to_canonical_bytes(&doc, &WriteOptions::default()), doc.game_count())
}

fuzz_target!(|data: &[u8]| {
    let (once, games) = fmt(data);
    let p2 = parse(&once);
    if games > 0 {
        assert!(
            !p2.diagnostics.iter().any(|d| d.severity == sgf_core::Severity::Error
                && d.code.layer() == "syntax"
                && d.code != sgf_core::Code::DuplicateProperty),
            "{:?}",
            p2.diagnostics
        );
    }
    let (twice, _) = fmt(&once);
    assert_eq!(once, twice, "fmt is not idempotent");
});
