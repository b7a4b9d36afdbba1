//! The checker over the sample corpus (skipped when it is absent): no panic,
//! a stable list of diagnostics per file (a snapshot), and the repair keeps
//! every text of the input.

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use sgf_core::{Document, parse};

/// The SGF files of the corpus outside `real/` (its 10 MB collections are
/// for the benchmark), with the members of the `.tar.gz` archives.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    corpus::sgf_files(dir, &["real"], u64::MAX)
}

fn diagnostics(bytes: &[u8]) -> (Document, Vec<sgf_core::Diagnostic>) {
    let p = parse(bytes);
    let mut d = p.diagnostics;
    d.extend(sgf_go::check::check(&p.document));
    d.sort_by_key(|d| (d.span.start, d.code));
    (p.document, d)
}

#[test]
fn corpus_diagnostics_are_stable() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut snap = String::new();
    for (name, bytes) in files(&dir) {
        let (doc, diags) = diagnostics(&bytes);
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &diags {
            *counts.entry(d.code.as_str()).or_default() += 1;
        }
        let _ = write!(snap, "{name}:");
        if diags.len() <= 12 {
            for d in &diags {
                let _ = write!(
                    snap,
                    " {}@{}",
                    d.code.as_str(),
                    doc.line_col(d.span.start).0
                );
            }
        } else {
            for (c, n) in counts {
                let _ = write!(snap, " {c}x{n}");
            }
        }
        snap.push('\n');
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/corpus_check.txt");
    if std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &snap).unwrap();
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old != snap {
        let first = old
            .lines()
            .zip(snap.lines())
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("was: {a}\nnow: {b}"))
            .unwrap_or_else(|| "a different number of files".into());
        panic!("diagnostics over the corpus changed (QIPU_UPDATE_SNAPSHOTS=1 to accept):\n{first}");
    }
}
