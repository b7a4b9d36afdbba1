//! The KGS collections of the corpus, read whole: what the counting
//! benchmarks (`qipu-count-bench`, `qipu-estimate-bench`) run on.

use std::path::{Path, PathBuf};

use sgf_core::{Document, parse};

/// Every `.sgf` file of `dir`, in name order, with its file name and its
/// games parsed. Exits with status 2 when `dir` cannot be read.
pub fn load(dir: &Path) -> Vec<(String, Document)> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
            .collect(),
        Err(e) => {
            eprintln!("cannot read {}: {e}", dir.display());
            std::process::exit(2);
        }
    };
    files.sort();
    files
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (name, parse(&std::fs::read(p).expect("readable")).document)
        })
        .collect()
}
