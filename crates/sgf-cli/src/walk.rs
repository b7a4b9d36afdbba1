//! Collection-scale input: the record files under paths, and a progress bar.

use std::path::PathBuf;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

/// The inputs of a collection named by `paths`, archives included (see
/// [`sgf_formats::collection::inputs`]), for
/// [`sgf_formats::collection::records`].
///
/// # Errors
/// When a path given does not exist or cannot be read, or no record file
/// is found (an empty folder): nothing to work on is not a success.
pub fn inputs(paths: &[String]) -> Result<Vec<PathBuf>> {
    let files = warned(sgf_formats::collection::inputs(paths))?;
    if files.is_empty() {
        anyhow::bail!(none_found(paths));
    }
    Ok(files)
}

/// The sentence of a walk of `paths` that found no record file.
pub fn none_found(paths: &[String]) -> String {
    sgf_formats::walk::none_found(paths)
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
