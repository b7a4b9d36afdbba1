//! Memory (issue 24): when every diagnostic is shown, a part whose games
//! give more than [`CheckOptions::held_diagnostics`] does not hold them
//! but makes them again, in order, as the report is written. On every
//! file of the sample corpus, with that limit at 1 and at 8 (so that
//! nearly every file's are made again, in each of the ways a check's
//! order calls for), the report is the one the held diagnostics give:
//! JSON, human, counts, for a check, a repair, a collection cut into
//! parts. Skipped without the corpus (failing under `QIPU_REQUIRE_ALL=1`).

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

use sgf_report::check::{CheckOptions, Fix, HumanOptions, Target, check_bytes};

/// Whether `bytes` give the same report made again with at most `few`
/// held as holding them all: read whole (`variant` 0), cut into parts
/// with `-W` (1), repaired (2).
fn same_made_again(name: &str, bytes: &[u8], variant: usize, few: usize) -> bool {
    let opts = |held: usize| {
        let mut o = CheckOptions::default();
        o.held_diagnostics = Some(held);
        o.warnings_as_errors = variant == 1;
        o.fix = (variant == 2).then(|| Fix::to(Target::Held));
        o.part_bytes = (variant == 1).then_some(4096);
        o
    };
    let mut human = HumanOptions::default();
    human.info = true;
    let held = check_bytes(name, bytes.to_vec(), &opts(usize::MAX));
    let again = check_bytes(name, bytes.to_vec(), &opts(few));
    again.json_line() == held.json_line()
        && again.human(&human) == held.human(&human)
        && again.counts() == held.counts()
        && again.held_output() == held.held_output()
}

/// Found by the `diagnostics` fuzz target (`testdata/fuzz/diagnostics-*`):
/// games whose diagnostics, each game's in order, were not in order from
/// one game to the next (a game's reach past the next one's start) were
/// sent as they came.
#[test]
fn fuzz_finds_report_the_same_made_again() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with("diagnostics-") {
            continue;
        }
        let bytes = std::fs::read(e.path()).unwrap();
        for variant in 0..3 {
            for few in [1, 4, 11] {
                assert!(
                    same_made_again(&name, &bytes, variant, few),
                    "{name} ({variant}, {few})"
                );
            }
        }
        n += 1;
    }
    assert!(n > 0, "no fuzz finds in {}", dir.display());
}

#[test]
fn every_corpus_file_reports_the_same_made_again() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let files = corpus::sgf_files(&dir, &[], 1 << 20);
    assert!(files.len() > 1000, "{} files", files.len());
    let mut differ = Vec::new();
    for (i, (name, bytes)) in files.iter().enumerate() {
        // Every file plainly; every third also with -W and a repair, cut
        // into parts.
        let variants = if i % 3 == 0 { 0..3 } else { 0..1 };
        for variant in variants {
            if !same_made_again(name, bytes, variant, 1 + 7 * (i % 2)) {
                differ.push(format!("{name} (variant {variant})"));
            }
        }
    }
    assert!(differ.is_empty(), "{} differ: {differ:?}", differ.len());
}
