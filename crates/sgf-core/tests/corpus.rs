//! Round trips over every SGF file of the sample corpus (skipped when absent):
//! no panic, lossless identity, canonical output re-parses to the same tree,
//! canonical output is idempotent.

mod common;

use sgf_core::{Document, Severity, WriteOptions, parse, to_canonical_bytes, to_lossless_bytes};

/// The tree as the dump shows it, with repeated identifiers merged and the
/// root's FF/CA left out (the canonical form sets them).
fn signature(doc: &Document) -> Vec<Vec<(Option<usize>, Vec<(String, Vec<String>)>)>> {
    doc.games()
        .map(|g| {
            let ids: Vec<_> = g.nodes().map(|n| n.id()).collect();
            g.nodes()
                .map(|n| {
                    let parent = n.parent().map(|p| ids.iter().position(|&i| i == p.id()).unwrap());
                    let mut props: Vec<(String, Vec<String>)> = Vec::new();
                    for p in n.props() {
                        if n.parent().is_none() && (p.ident() == "FF" || p.ident() == "CA") {
                            continue;
                        }
                        let vals: Vec<String> = p.values().map(|v| v.decoded().into_owned()).collect();
                        match props.iter_mut().find(|(i, _)| i == p.ident()) {
                            Some((_, v)) => v.extend(vals),
                            None => props.push((p.ident().to_string(), vals)),
                        }
                    }
                    (parent, props)
                })
                .collect()
        })
        .collect()
}

#[test]
fn corpus_round_trips() {
    let Some(dir) = common::corpus_dir() else { return };
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
            failures.push(format!("{name}: canonical output has syntax errors: {:?}", syntax_errors[0]));
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
    assert!(failures.is_empty(), "{} of {} files failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
