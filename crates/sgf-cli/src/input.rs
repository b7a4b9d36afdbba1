//! Reading inputs: files, `-` for stdin.

use std::io::Read;

use anyhow::{Context, Result};
use sgf_core::{Parsed, parse};

/// A file read and parsed.
pub struct Loaded {
    /// The name to show (the path, or `<stdin>`).
    pub name: String,
    /// The parse result.
    pub parsed: Parsed,
}

/// Reads a path, `-` meaning standard input.
pub fn read_bytes(path: &str) -> Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .context("cannot read standard input")?;
        Ok(v)
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {path}"))
    }
}

/// Reads and parses a record.
pub fn load(path: &str) -> Result<Loaded> {
    let bytes = read_bytes(path)?;
    Ok(Loaded {
        name: if path == "-" {
            "<stdin>".into()
        } else {
            path.into()
        },
        parsed: parse(&bytes),
    })
}

/// Whether a path names a record file Qipu reads (by extension, any case).
pub fn is_record_path(p: &std::path::Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Extensions of the record files searched for in directories.
pub const RECORD_EXTENSIONS: &[&str] = &["sgf"];

/// Writes bytes to `out` (a path) or standard output.
pub fn write_output(out: Option<&str>, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    match out {
        Some(p) if p != "-" => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {p}"))
        }
        _ => {
            let mut so = std::io::stdout().lock();
            so.write_all(bytes)
                .context("cannot write to standard output")?;
            so.flush().ok();
            Ok(())
        }
    }
}
