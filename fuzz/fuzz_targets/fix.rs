//! `qipu check --fix`: the repair pipeline never panics, its output parses
//! as the same number of games, and a second repair changes nothing.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_formats::repair::{RepairOptions, repair_to_canonical};

fn fix(data: &[u8], opts: &RepairOptions) -> (Vec<u8>, usize) {
    let mut doc = sgf_core::parse(data).document;
    let out = repair_to_canonical(&mut doc, &sgf_core::WriteOptions::default(), opts);
    (out.bytes, doc.game_count())
}

fuzz_target!(|data: &[u8]| {
    let mut opts = RepairOptions::default();
    opts.variation_level = data.first().is_some_and(|b| b & 1 == 1);
    let (once, games) = fix(data, &opts);
    assert_eq!(sgf_core::parse(&once).document.game_count(), games);
    let (twice, _) = fix(&once, &opts);
    assert_eq!(
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice),
        "fix is not idempotent"
    );
});
