//! Shared helpers for tests that read the sample corpus in `../shared/corpus`.

#![allow(dead_code)]

#[path = "../../../../testsupport/corpus.rs"]
mod corpus;

// Each test binary uses its own share of these.
#[allow(unused_imports)]
pub use corpus::{corpus_dir, corpus_path};

use std::path::Path;

use sgf_core::Document;

/// A game as the dump shows it: (parent index, [(identifier, values)]) per node.
pub type Signature = Vec<Vec<(Option<usize>, Vec<(String, Vec<String>)>)>>;

/// The tree as the dump shows it, with repeated identifiers merged and the
/// root's FF/CA left out (the canonical form sets them).
pub fn signature(doc: &Document) -> Signature {
    doc.games()
        .map(|g| {
            let ids: Vec<_> = g.nodes().map(|n| n.id()).collect();
            g.nodes()
                .map(|n| {
                    let parent = n
                        .parent()
                        .map(|p| ids.iter().position(|&i| i == p.id()).unwrap());
                    let mut props: Vec<(String, Vec<String>)> = Vec::new();
                    for p in n.props() {
                        if n.parent().is_none() && (p.ident() == "FF" || p.ident() == "CA") {
                            continue;
                        }
                        let vals: Vec<String> =
                            p.values().map(|v| v.decoded().into_owned()).collect();
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

/// Every record file of the corpus (including members of `.tar.gz` archives),
/// as (name, bytes). `max_size` skips larger files (the big `real/` collections).
pub fn corpus_files(dir: &Path, max_size: u64) -> Vec<(String, Vec<u8>)> {
    corpus::sgf_files(dir, &[], max_size)
}
