//! The sample corpus (`../shared/corpus`, or `QIPU_CORPUS`) in tests: where
//! it is, and its record files. Not a crate: the crates' integration tests
//! include this file by path,
//! `#[path = "../../../testsupport/corpus.rs"] mod corpus;`, with `tar`
//! and `flate2` as dev-dependencies. A corpus or corpus file that is not
//! there is [`missing`]: the test skips, or fails under `QIPU_REQUIRE_ALL=1`.
#![allow(dead_code)]

#[path = "require.rs"]
mod require;

use std::io::Read;
use std::path::{Path, PathBuf};

pub use require::missing;

/// The sample corpus: `QIPU_CORPUS`, else `../shared/corpus` beside the
/// repository (every crate is `crates/NAME`). `None` when it is not there
/// (see [`missing`]).
#[track_caller]
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("QIPU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        missing(&format!(
            "the sample corpus is not at {} (set QIPU_CORPUS to run this test)",
            dir.display()
        ));
        None
    }
}

/// The file or folder `rel` of the sample corpus. `None` when it or the
/// corpus is not there (see [`missing`]).
#[track_caller]
pub fn corpus_path(rel: &str) -> Option<PathBuf> {
    let p = corpus_dir()?.join(rel);
    if p.exists() {
        Some(p)
    } else {
        missing(&format!(
            "{rel} is not in the sample corpus ({})",
            p.display()
        ));
        None
    }
}

/// The `.sgf` files under `dir` and the `.sgf` members of its `.tar.gz`
/// archives, as (name, bytes) in name order. A file's name is its path
/// from `dir` with `/`; an archive member's is `ARCHIVE:MEMBER`. Folders
/// named in `skip_dirs` are not entered; plain files larger than
/// `max_size` bytes are left out.
pub fn sgf_files(dir: &Path, skip_dirs: &[&str], max_size: u64) -> Vec<(String, Vec<u8>)> {
    let is_sgf = |n: &str| n.to_ascii_lowercase().ends_with(".sgf");
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if p.is_dir() {
                if !p
                    .file_name()
                    .is_some_and(|f| skip_dirs.iter().any(|s| f == *s))
                {
                    stack.push(p);
                }
            } else if name.ends_with(".tar.gz") {
                let f = std::fs::File::open(&p).unwrap();
                let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(f));
                for m in ar.entries().unwrap() {
                    let mut m = m.unwrap();
                    let mname = format!("{name}:{}", m.path().unwrap().display());
                    if m.header().entry_type().is_file() && is_sgf(&mname) {
                        let mut v = Vec::new();
                        m.read_to_end(&mut v).unwrap();
                        out.push((mname, v));
                    }
                }
            } else if is_sgf(&name) && e.metadata().is_ok_and(|m| m.len() <= max_size) {
                out.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
