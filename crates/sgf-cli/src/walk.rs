//! Collection-scale input: the record files under paths, and a progress bar.

use std::path::PathBuf;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

/// The record files named by `paths` (see [`sgf_formats::walk`]): files as
/// given, directories walked; what is skipped is warned about on standard
/// error.
///
/// # Errors
/// When a path given does not exist or cannot be read.
pub fn collect(paths: &[String]) -> Result<Vec<PathBuf>> {
    warned(sgf_formats::walk::collect(
        paths,
        &sgf_formats::walk::WalkOptions::default(),
    ))
}

/// The inputs of a collection named by `paths`, archives included (see
/// [`sgf_formats::collection::inputs`]), for
/// [`sgf_formats::collection::records`].
///
/// # Errors
/// When a path given does not exist or cannot be read.
pub fn inputs(paths: &[String]) -> Result<Vec<PathBuf>> {
    warned(sgf_formats::collection::inputs(paths))
}

/// The files of a walk, its warnings printed on standard error.
fn warned(walk: Result<sgf_formats::walk::Walk, String>) -> Result<Vec<PathBuf>> {
    let walk = walk.map_err(anyhow::Error::msg)?;
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
