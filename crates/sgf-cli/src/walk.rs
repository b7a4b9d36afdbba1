//! Collection-scale input: the record files under paths, and a progress bar.

use std::path::{Path, PathBuf};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

/// Reads a record for counting or exporting: like [`crate::input::load`],
/// without the informational report of the SGF dialects it uses (it reads
/// every game once more and changes no count).
///
/// # Errors
/// When the file cannot be read or converted.
pub fn load_record(path: &Path) -> Result<crate::input::Loaded> {
    let mut opts = sgf_formats::ReadOptions::default();
    opts.dialect_report = false;
    crate::input::load_with(&path.to_string_lossy(), None, &opts)
}

/// The record files named by `paths` (see [`sgf_formats::walk`]): files as
/// given, directories walked; what is skipped is warned about on standard
/// error.
///
/// # Errors
/// When a path given does not exist or cannot be read.
pub fn collect(paths: &[String]) -> Result<Vec<PathBuf>> {
    let walk = sgf_formats::walk::collect(paths, &sgf_formats::walk::WalkOptions::default())
        .map_err(anyhow::Error::msg)?;
    for w in &walk.warnings {
        eprintln!("warning: {w}");
    }
    Ok(walk.files)
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
