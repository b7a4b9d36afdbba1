//! `qipu check --fix --variation-level` on SGFC's own test file gives the
//! tree SGFC's `-v` gives (`reorder-result.sgf`). Skips without the corpus.

mod common;

use sgf_core::{Document, WriteOptions, parse};
use sgf_formats::repair::{RepairOptions, repair_to_canonical};

/// The tree as (depth-first) nodes of sorted `IDENT[values]`, without the
/// root properties SGFC adds of its own (`AP`, `SZ`, `CA`, `FF`).
fn tree(doc: &Document) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    for (g, n) in doc.all_nodes() {
        let node = doc.node(n);
        let mut props: Vec<String> = node
            .props()
            .filter(|p| {
                !(node.parent().is_none() && matches!(p.ident(), "AP" | "SZ" | "CA" | "FF"))
            })
            .map(|p| {
                let vals: Vec<String> = p.values().map(|v| v.decoded().into_owned()).collect();
                format!("{}[{}]", p.ident(), vals.join("]["))
            })
            .collect();
        props.sort();
        let depth = std::iter::successors(node.parent(), |p| p.parent()).count();
        out.push((g * 1000 + depth, props));
    }
    out
}

#[test]
fn sgfc_reorder_file_is_reproduced() {
    let Some(input) = common::corpus_path("peer-suites/sgfc/reorder.sgf") else {
        return;
    };
    let Some(expected) = common::corpus_path("peer-suites/sgfc/reorder-result.sgf") else {
        return;
    };
    let (input, expected) = (
        std::fs::read(input).unwrap(),
        std::fs::read(expected).unwrap(),
    );
    let mut doc = parse(&input).document;
    let mut opts = RepairOptions::default();
    opts.variation_level = true;
    let out = repair_to_canonical(&mut doc, &WriteOptions::default(), &opts).unwrap();
    let ours = parse(&out.bytes).document;
    let theirs = parse(&expected).document;
    assert_eq!(tree(&ours), tree(&theirs));
}
