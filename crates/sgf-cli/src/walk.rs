//! Collection-scale input: the record files under paths, and a progress bar.

use std::path::{Path, PathBuf};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

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
