//! Shared helpers for tests that read the sample corpus in `../shared/corpus`.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

/// The corpus directory, or `None` (with a message) when it is absent.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("QIPU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: the sample corpus is not at {} (set QIPU_CORPUS to run this test)",
            dir.display()
        );
        None
    }
}

/// Every record file of the corpus (including members of `.tar.gz` archives),
/// as (name, bytes). `max_size` skips larger files (the big `real/` collections).
pub fn corpus_files(dir: &Path, max_size: u64) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if name.ends_with(".tar.gz") {
                let f = std::fs::File::open(&p).unwrap();
                let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(f));
                for m in ar.entries().unwrap() {
                    let mut m = m.unwrap();
                    if !m.header().entry_type().is_file() {
                        continue;
                    }
                    let mname = format!("{name}:{}", m.path().unwrap().display());
                    let mut v = Vec::new();
                    m.read_to_end(&mut v).unwrap();
                    if is_record(&mname) {
                        out.push((mname, v));
                    }
                }
                continue;
            }
            if !is_record(&name) || e.metadata().unwrap().len() > max_size {
                continue;
            }
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
    out
}

fn is_record(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".sgf")
}
