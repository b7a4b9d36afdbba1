//! `qipu check --fix`: the repair pipeline never panics, refuses only what
//! cannot be written (no game tree, an undecodable charset), its output
//! parses as the same number of games, loses no text (every Text,
//! SimpleText, game-info and unknown value of the input is in it: the
//! oracle of the corpus test, `testsupport/text_survival.rs`), and a
//! second repair changes nothing.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_formats::repair::{Refusal, RepairOptions, repair_to_canonical};

#[path = "../../testsupport/text_survival.rs"]
mod text_survival;

fn fix(mut doc: sgf_core::Document, opts: &RepairOptions) -> Option<Vec<u8>> {
    match repair_to_canonical(&mut doc, &sgf_core::WriteOptions::default(), opts) {
        Ok(r) => Some(r.bytes),
        Err(e @ Refusal::GamesLost { .. }) => panic!("{e}"),
        Err(_) => None,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut opts = RepairOptions::default();
    opts.variation_level = data.first().is_some_and(|b| b & 1 == 1);
    let input = sgf_core::parse(data).document;
    let games = input.game_count();
    let kept = text_survival::kept_values(&input);
    let Some(once) = fix(input, &opts) else {
        return;
    };
    let output = sgf_core::parse(&once).document;
    assert_eq!(output.game_count(), games);
    if !kept.is_empty() {
        let text = text_survival::all_text(&output);
        // An exact conversion (`KI[13]` → `KM[6.5]`) keeps the value, not the
        // wording: it needs no note.
        let lost: Vec<_> = kept
            .iter()
            .filter(|(i, v)| !text.contains(v) && !text_survival::converted_exactly(i, v, &output))
            .collect();
        assert!(lost.is_empty(), "text lost: {lost:?}");
    }
    let twice = fix(output, &opts).expect("the output is written again");
    assert_eq!(
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice),
        "fix is not idempotent"
    );
});
