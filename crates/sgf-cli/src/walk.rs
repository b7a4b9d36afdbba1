//! Collection-scale input: the record files under paths, and a progress bar.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use sgf_formats::parts::{PartOptions, Piece, Step};

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

/// What [`records`] hands over for a file, in file order.
pub enum Record<R> {
    /// A part of the file and what the work made of it.
    Part(Piece, R),
    /// The file is done: how many games it held, and whether its reader
    /// found an error.
    Done {
        /// A diagnostic of the reader had error severity.
        errors: bool,
    },
    /// The file could not be read (the message names it), or it holds no
    /// game tree (`not_record`).
    Failed {
        /// Why.
        message: String,
        /// It was read, but holds no SGF game tree.
        not_record: bool,
    },
}

/// Files of at most this size are read whole, several side by side; larger
/// ones one at a time, their parts side by side, so that memory holds a
/// few parts of a large file and never many large files.
const SMALL_FILE: u64 = 2 * sgf_formats::parts::DEFAULT_PART_BYTES as u64;

/// Reads the records `files` (as counting or exporting does: without the
/// dialect report) a part at a time: `work` runs on every part of every
/// file on every core, and `join` gets, in file order, each file's parts
/// and then its end (or why it failed). The cut of a collection is checked
/// before its parts are handed over, so that no restart comes.
///
/// # Errors
/// When `join` fails.
pub fn records<R: Send>(
    files: &[PathBuf],
    pb: &ProgressBar,
    work: impl Fn(&Piece, crate::input::Loaded) -> R + Sync,
    mut join: impl FnMut(usize, Record<R>) -> Result<()>,
) -> Result<()> {
    use rayon::prelude::*;
    let mut read = sgf_formats::ReadOptions::default();
    read.dialect_report = false;
    let opts = PartOptions::default()
        .with_read(read)
        .with_verify_first(true);
    let small = |p: &PathBuf| std::fs::metadata(p).is_ok_and(|m| m.len() <= SMALL_FILE);
    let mut i = 0;
    while i < files.len() {
        // A run of small files, read side by side; or one large file.
        let run = files[i..]
            .iter()
            .take(CHUNK)
            .take_while(|p| small(p))
            .count()
            .max(1);
        let chunk = &files[i..i + run];
        if run == 1 && !small(&chunk[0]) {
            read_one(&chunk[0], &opts, &work, &mut |r| join(i, r))?;
        } else {
            let results: Vec<Vec<Record<R>>> = chunk
                .par_iter()
                .map(|p| {
                    let mut out = Vec::new();
                    let _ = read_one(p, &opts, &work, &mut |r| {
                        out.push(r);
                        Ok(())
                    });
                    out
                })
                .collect();
            for (k, rs) in results.into_iter().enumerate() {
                for r in rs {
                    join(i + k, r)?;
                }
            }
        }
        for _ in 0..run {
            pb.inc(1);
        }
        i += run;
    }
    Ok(())
}

/// Files of a run of small ones read side by side.
const CHUNK: usize = 64;

fn read_one<R: Send>(
    path: &Path,
    opts: &PartOptions,
    work: &(impl Fn(&Piece, crate::input::Loaded) -> R + Sync),
    join: &mut dyn FnMut(Record<R>) -> Result<()>,
) -> Result<()> {
    let name = path.to_string_lossy();
    let bytes = match crate::input::read_bytes(&name) {
        Ok(b) => b,
        Err(e) => {
            return join(Record::Failed {
                message: format!("{e:#}"),
                not_record: false,
            });
        }
    };
    let (mut games, mut errors, mut failed) = (0, false, None);
    let r = sgf_formats::parts::map_parts(
        &bytes,
        Some(path),
        opts,
        |piece, l| {
            let loaded = crate::input::wrap(&name, &bytes[piece.range.clone()], l);
            let errors = loaded
                .parsed
                .diagnostics
                .iter()
                .any(|d| d.severity == sgf_core::Severity::Error);
            let no_tree = loaded.no_game_tree();
            (work(piece, loaded), errors, no_tree)
        },
        |step| {
            let Step::Part(piece, (r, e, no_tree)) = step else {
                return ControlFlow::Continue(());
            };
            games += piece.games;
            errors |= e;
            if piece.games == 0 {
                // Only a file read whole (or a part of nothing but white
                // space) has no game: the file's message if it has none.
                if failed.is_none() {
                    failed = no_tree;
                }
                return ControlFlow::Continue(());
            }
            match join(Record::Part(piece, r)) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(format!("{e:#}"));
                    ControlFlow::Break(())
                }
            }
        },
    );
    if let Err(e) = r {
        return join(Record::Failed {
            message: format!("cannot read {name}: {e}"),
            not_record: false,
        });
    }
    if games == 0 {
        return join(Record::Failed {
            message: failed.unwrap_or_else(|| format!("{name}: no SGF game tree found")),
            not_record: true,
        });
    }
    join(Record::Done { errors })
}
