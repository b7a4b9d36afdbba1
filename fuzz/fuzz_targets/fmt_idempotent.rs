//! The canonical writer is idempotent and its output parses without syntax errors.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_core::{WriteOptions, parse, to_canonical_bytes};

fuzz_target!(|data: &[u8]| {
    let p = parse(data);
    let once = to_canonical_bytes(&p.document, &WriteOptions::default());
    let p2 = parse(&once);
    if p.document.game_count() > 0 {
        assert!(
            !p2.diagnostics.iter().any(|d| d.severity == sgf_core::Severity::Error
                && d.code.layer() == "syntax"
                && d.code != sgf_core::Code::DuplicateProperty),
            "{:?}",
            p2.diagnostics
        );
    }
    let twice = to_canonical_bytes(&p2.document, &WriteOptions::default());
    assert_eq!(once, twice);
});
