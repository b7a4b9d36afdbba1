//! `qipu check --fix`: the repair never panics, and its output parses.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut doc = sgf_core::parse(data).document;
    let _ = sgf_formats::normalize(&mut doc);
    let opts = sgf_go::fix::RepairOptions {
        variation_level: data.first().is_some_and(|b| b & 1 == 1),
    };
    let (bytes, _changes, _left) =
        sgf_go::fix::repair_to_canonical(&mut doc, &sgf_core::WriteOptions::default(), &opts);
    let again = sgf_core::parse(&bytes);
    assert_eq!(again.document.game_count(), doc.game_count());
});
