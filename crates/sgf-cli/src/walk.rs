//! Collection-scale input: the record files under paths, and a progress bar.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

/// Whether a file found in a directory is a record to read (the extensions
/// of every format `crate::input` reads, any case).
pub fn is_record(path: &Path) -> bool {
    crate::input::is_record_path(path)
}

/// Reads a record for counting or exporting: like [`crate::input::load`], but
/// an SGF file is parsed without the informational report of the dialects it
/// uses, which reads every game a second time and changes no count (the
/// document is the same). Other formats go through `crate::input`.
///
/// # Errors
/// When the file cannot be read or converted.
pub fn load_record(path: &Path) -> Result<crate::input::Loaded> {
    let name = path.to_string_lossy().into_owned();
    let bytes = crate::input::read_bytes(&name)?;
    let format = sgf_formats::builtin().detect(&bytes, Some(path));
    if format.name() != "SGF" {
        return crate::input::load(&name);
    }
    let parsed = sgf_core::parse(&bytes);
    let charset = parsed.document.game(0).map_or("UTF-8", |g| g.charset());
    Ok(crate::input::Loaded {
        name,
        parsed,
        format: "SGF",
        charset,
        original: None,
    })
}

/// The record files named by `paths`: files as given, directories walked
/// recursively (entries sorted by name, symbolic links to directories not
/// followed, so a cycle cannot trap the walk). `-` (standard input) is
/// passed through. A subdirectory that cannot be read is skipped with a
/// warning on standard error.
///
/// # Errors
/// When a path given does not exist or cannot be read.
pub fn collect(paths: &[String]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let path = PathBuf::from(p);
        if p == "-" {
            out.push(path);
            continue;
        }
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => bail!("cannot read {p}: {e}"),
        };
        if !meta.is_dir() {
            out.push(path);
            continue;
        }
        let mut stack = vec![path];
        while let Some(dir) = stack.pop() {
            let rd = match std::fs::read_dir(&dir) {
                Ok(rd) => rd,
                // The top directory must be readable; below it, skip what is not.
                Err(e) if dir.as_os_str() == p.as_str() => bail!("cannot read {p}: {e}"),
                Err(e) => {
                    eprintln!("warning: skipped directory {}: {e}", dir.display());
                    continue;
                }
            };
            let mut entries: Vec<(PathBuf, bool)> = rd
                .flatten()
                .map(|e| {
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    (e.path(), is_dir)
                })
                .collect();
            entries.sort();
            // Subdirectories are visited in name order after the files of this one.
            let mut subdirs = Vec::new();
            for (path, is_dir) in entries {
                if is_dir {
                    subdirs.push(path);
                } else if is_record(&path) && path.is_file() {
                    out.push(path);
                }
            }
            stack.extend(subdirs.into_iter().rev());
        }
    }
    Ok(out)
}

/// A progress bar over `n` files on standard error (hidden when it is not a terminal).
pub fn progress(n: usize, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(n as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} files ({per_sec}, eta {eta})",
    ) {
        pb.set_style(style);
    }
    pb
}
