//! Round trips over every SGF file of the sample corpus (skipped when absent):
//! no panic, lossless identity, canonical output re-parses to the same tree,
//! canonical output is idempotent.

mod common;

use common::signature;

use sgf_core::{Severity, WriteOptions, parse, to_canonical_bytes, to_lossless_bytes};

#[test]
fn corpus_round_trips() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let files = common::corpus_files(&dir, 2_000_000);
    assert!(files.len() > 100, "expected the corpus to have many files");
    let mut failures = Vec::new();
    for (name, bytes) in &files {
        let p = parse(bytes);
        let doc = &p.document;
        if to_lossless_bytes(doc) != *bytes {
            failures.push(format!("{name}: lossless output differs"));
            continue;
        }
        let canon = to_canonical_bytes(doc, &WriteOptions::default());
        if doc.game_count() == 0 {
            assert!(canon.is_empty(), "{name}: no games but output");
            continue;
        }
        let p2 = parse(&canon);
        let syntax_errors: Vec<_> = p2
            .diagnostics
            .iter()
            .filter(|d| d.code.layer() == "syntax" && d.severity == Severity::Error)
            .collect();
        if !syntax_errors.is_empty() {
            failures.push(format!(
                "{name}: canonical output has syntax errors: {:?}",
                syntax_errors[0]
            ));
            continue;
        }
        if signature(doc) != signature(&p2.document) {
            failures.push(format!("{name}: canonical output is a different tree"));
            continue;
        }
        let canon2 = to_canonical_bytes(&p2.document, &WriteOptions::default());
        if canon2 != canon {
            failures.push(format!("{name}: fmt is not idempotent"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
