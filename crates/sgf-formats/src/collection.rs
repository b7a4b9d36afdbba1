//! Reading a collection: the one reader of record files, directories,
//! standard input and archives that every front end uses to go through
//! many records (`qipu stats`, `qipu export`, Python's bulk readers).
//!
//! [`inputs`] names what to read: files as given, directories walked
//! ([`crate::walk`], archives included), `-` for standard input. [`records`]
//! then reads each input a part at a time ([`crate::parts`]): small files
//! side by side, a large one its parts side by side, an archive's members
//! (with the `archive` feature) a batch at a time, each member an input
//! like any other, named `ARCHIVE!MEMBER`. What each part makes goes to the
//! caller in input order, then the input's end, or why it failed: an input
//! is never dropped without a word, and memory holds a few parts, never a
//! whole collection.
//!
//! ```
//! use sgf_formats::collection::{self, Record};
//! use sgf_formats::parts::PartOptions;
//! let dir = std::env::temp_dir().join(format!("qipu-collection-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("a.sgf"), "(;GM[1];B[pd])(;GM[1];B[dd])").unwrap();
//! std::fs::write(dir.join("notes.sgf"), "just notes").unwrap();
//! let inputs = collection::inputs(&[&dir]).unwrap();
//! let mut seen = Vec::new();
//! collection::records(&inputs.files, &PartOptions::default(), &|| {},
//!     |part| part.loaded.parsed.document.game_count(),
//!     |input, r| {
//!         match r {
//!             Record::Part(_, games) => seen.push(format!("{}: {games}", input.name)),
//!             Record::Failed { not_record, .. } => {
//!                 seen.push(format!("{}: none ({})", input.name, not_record.unwrap().code()))
//!             }
//!             Record::Done { .. } => {}
//!         }
//!         Ok::<(), ()>(())
//!     }).unwrap();
//! assert!(seen[0].ends_with("a.sgf: 2"));
//! assert!(seen[1].ends_with("notes.sgf: none (no-game-tree)"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::input::{InputError, MAX_INPUT_BYTES, read_named};
use crate::judge::ArchiveKind;
use crate::parts::{PartOptions, Piece, Step, map_parts};
use crate::walk::{Walk, WalkOptions};

/// The inputs named by `paths` (see [`crate::walk::collect`]): files as
/// given, directories walked with archives listed, `-` passed through.
///
/// # Errors
/// When a path given does not exist or a directory given cannot be read.
pub fn inputs(paths: &[impl AsRef<Path>]) -> Result<Walk, String> {
    crate::walk::collect(
        paths,
        &WalkOptions::default().with_archives(cfg!(feature = "archive")),
    )
}

/// One input of a collection as the caller sees it.
#[derive(Clone, Debug)]
pub struct Input {
    /// Its name as shown: the path as given, `<stdin>`, or
    /// `ARCHIVE!MEMBER` for an archive member.
    pub name: String,
    /// Its size in bytes (of the file, or of the member uncompressed; 0
    /// when it could not be read).
    pub size: u64,
    /// Which of the paths given it comes from (an archive gives several).
    pub index: usize,
}

/// What a part of an input gives the work: its name, where it is, and the
/// record read from it.
pub struct Part<'a> {
    /// The input's name (see [`Input::name`]).
    pub name: &'a str,
    /// The part's place in the input.
    pub piece: &'a Piece,
    /// The part's bytes (the input's, for a record converted from another
    /// format: its diagnostics point into them).
    pub bytes: &'a [u8],
    /// The record read from the part.
    pub loaded: crate::Loaded,
}

/// What [`records`] hands over for an input, in input order.
#[derive(Debug)]
pub enum Record<R> {
    /// A part of the input holding games, and what the work made of it.
    Part(Piece, R),
    /// The input is done.
    Done {
        /// A diagnostic of its reader had error severity.
        errors: bool,
    },
    /// The input could not be read (the message names it), or it is not
    /// a game record (`not_record`).
    Failed {
        /// Why, a sentence that names the input.
        message: String,
        /// It is not a game record: an archive member that is a binary
        /// file, text with no game tree (see [`crate::judge`]).
        not_record: Option<crate::judge::NotRecord>,
        /// Why its bytes could not be read, when that is the reason (not
        /// for an archive member, or a file read but in no known format).
        input: Option<InputError>,
    },
}

/// Inputs of at most this size are read whole, several side by side;
/// larger ones one at a time, their parts side by side, so that memory
/// holds a few parts of a large input and never many large inputs.
const SMALL: u64 = 2 * crate::parts::DEFAULT_PART_BYTES as u64;

/// Inputs of a run of small ones read side by side.
const CHUNK: usize = 64;

/// The most bytes of archive members held at once.
#[cfg(feature = "archive")]
const BATCH_BYTES: usize = 64 << 20;

/// Reads every input of `files` (see [`inputs`]) a part at a time: `work`
/// runs on every part on every core, `join` gets, in input order, each
/// input's parts that hold games and then its end, or why it failed. The
/// cut of a collection is checked before its parts are handed over
/// ([`PartOptions::verify_first`] is set), so that no part is taken back.
/// `progress` is called once for each of `files` done.
///
/// # Errors
/// When `join` fails: its error, and nothing more is read.
pub fn records<R: Send, E>(
    files: &[PathBuf],
    opts: &PartOptions,
    progress: &(dyn Fn() + Sync),
    work: impl Fn(Part<'_>) -> R + Sync,
    mut join: impl FnMut(&Input, Record<R>) -> Result<(), E>,
) -> Result<(), E> {
    let opts = opts.clone().with_verify_first(true);
    // An archive is known by its first bytes, whatever its name: a large
    // file is looked at before it is read (an archive is read a member at
    // a time), a small one once read (an archive's bytes are at hand).
    let archive = |p: &PathBuf| ArchiveKind::of_file(p).is_some();
    let small = |p: &PathBuf| {
        p.as_path() != Path::new("-")
            && !crate::walk::is_archive_path(p)
            && std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= SMALL)
    };
    let mut i = 0;
    while i < files.len() {
        // A run of small files, read side by side; or one input on its own.
        let run = files[i..]
            .iter()
            .take(CHUNK)
            .take_while(|p| small(p))
            .count();
        if run == 0 {
            let p = &files[i];
            if p.as_path() != Path::new("-") && archive(p) {
                read_archive(Source::File(p), i, &opts, &work, &mut join)?;
            } else {
                let (input, bytes) = read_input(p, i);
                match bytes {
                    // An archive on standard input, read from memory.
                    Ok(b) if ArchiveKind::of_bytes(&b).is_some() => {
                        read_archive(Source::Bytes(&input.name, &b), i, &opts, &work, &mut join)?;
                    }
                    bytes => read_one(&input, bytes, hint(p), &opts, &work, &mut |r| {
                        join(&input, r)
                    })?,
                }
            }
            progress();
            i += 1;
            continue;
        }
        let results: Vec<Vec<(Input, Record<R>)>> = files[i..i + run]
            .par_iter()
            .enumerate()
            .map(|(k, p)| {
                let (input, bytes) = read_input(p, i + k);
                let mut out = Vec::new();
                let mut keep = |input: &Input, r| {
                    out.push((input.clone(), r));
                    Ok::<(), ()>(())
                };
                let _ = match bytes {
                    // A small archive (a zip named `.sgf`): its members.
                    Ok(b) if ArchiveKind::of_bytes(&b).is_some() => read_archive(
                        Source::Bytes(&input.name, &b),
                        i + k,
                        &opts,
                        &work,
                        &mut keep,
                    ),
                    bytes => read_one(&input, bytes, hint(p), &opts, &work, &mut |r| {
                        keep(&input, r)
                    }),
                };
                out
            })
            .collect();
        for rs in results {
            for (input, r) in rs {
                join(&input, r)?;
            }
            progress();
        }
        i += run;
    }
    Ok(())
}

/// The path a reader's format guess looks at (none for standard input).
fn hint(p: &Path) -> Option<&Path> {
    (p != Path::new("-")).then_some(p)
}

/// Why an input's bytes could not be had: the message, and the reading
/// error when there is one.
type Unread = (String, Option<InputError>);

/// Reads a file (or standard input for `-`, or a member named
/// `ARCHIVE!MEMBER`: see [`read_named`]): only regular files, bounded.
fn read_input(p: &Path, index: usize) -> (Input, Result<Arc<[u8]>, Unread>) {
    let stdin = p == Path::new("-");
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        p.to_string_lossy().into_owned()
    };
    let bytes = if stdin {
        read_named("-", MAX_INPUT_BYTES)
            .map_err(|e| (format!("cannot read standard input: {e}"), Some(e)))
    } else {
        read_named(&name, MAX_INPUT_BYTES)
            .map_err(|e| (format!("cannot read {name}: {e}"), Some(e)))
    };
    let size = bytes.as_ref().map_or(0, |b| b.len() as u64);
    (Input { name, size, index }, bytes)
}

/// Reads one input's bytes in parts and hands over its records.
fn read_one<R: Send, E, B: std::ops::Deref<Target = [u8]> + Sync>(
    input: &Input,
    bytes: Result<B, Unread>,
    hint: Option<&Path>,
    opts: &PartOptions,
    work: &(impl Fn(Part<'_>) -> R + Sync),
    join: &mut dyn FnMut(Record<R>) -> Result<(), E>,
) -> Result<(), E>
where
    for<'x> &'x B: Into<crate::input::Bytes<'x>>,
{
    let bytes = match bytes {
        Ok(b) => b,
        Err((message, input)) => {
            return join(Record::Failed {
                message,
                not_record: None,
                input,
            });
        }
    };
    let name = input.name.as_str();
    let (mut games, mut errors, mut no_tree, mut failed) = (0, false, None, None);
    let r = map_parts(
        &bytes,
        hint,
        opts,
        |piece, loaded| {
            let errors = loaded
                .parsed
                .diagnostics
                .iter()
                .any(|d| d.severity == sgf_core::Severity::Error);
            let why = crate::judge::of_loaded(&loaded);
            let made = work(Part {
                name,
                piece,
                bytes: &bytes[piece.range.clone()],
                loaded,
            });
            (made, errors, why)
        },
        |step| {
            let Step::Part(piece, (made, e, why)) = step else {
                return ControlFlow::Continue(());
            };
            games += piece.games;
            errors |= e;
            if piece.games == 0 {
                // Only an input read whole (or a part of nothing but white
                // space) has no game: the reader's reason, if it gives one.
                if no_tree.is_none() {
                    no_tree = why;
                }
                return ControlFlow::Continue(());
            }
            match join(Record::Part(piece, made)) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    if let Err(e) = r {
        return join(match e.not_record {
            Some(why) => Record::Failed {
                message: why.sentence(name),
                not_record: Some(why),
                input: None,
            },
            None => Record::Failed {
                message: format!("cannot read {name}: {e}"),
                not_record: None,
                input: None,
            },
        });
    }
    if games == 0 {
        let why = no_tree.unwrap_or(crate::judge::NotRecord::NoGameTree);
        return join(Record::Failed {
            message: why.sentence(name),
            not_record: Some(why),
            input: None,
        });
    }
    join(Record::Done { errors })
}

/// Where an archive's bytes are: a file, or memory (standard input).
#[derive(Clone, Copy)]
enum Source<'a> {
    File(&'a Path),
    // Its name and bytes (read only with the `archive` feature).
    Bytes(
        &'a str,
        #[cfg_attr(not(feature = "archive"), allow(dead_code))] &'a [u8],
    ),
}

/// Where [`records`] hands what it reads.
#[cfg(feature = "archive")]
type Join<'a, R, E> = &'a mut dyn FnMut(&Input, Record<R>) -> Result<(), E>;

/// Reads the members of an archive, a batch side by side, each an input.
#[cfg(feature = "archive")]
fn read_archive<R: Send, E>(
    source: Source<'_>,
    index: usize,
    opts: &PartOptions,
    work: &(impl Fn(Part<'_>) -> R + Sync),
    join: &mut impl FnMut(&Input, Record<R>) -> Result<(), E>,
) -> Result<(), E> {
    use crate::archive::{ArchiveOptions, Member, MemberError, read_members, read_members_in};
    let shown = match source {
        Source::File(path) => path.to_string_lossy().into_owned(),
        Source::Bytes(name, _) => name.to_string(),
    };
    let archive_input = Input {
        name: shown.clone(),
        size: 0,
        index,
    };
    if let Source::File(path) = source
        && let Err(e) = crate::input::check_regular(path)
    {
        return join(
            &archive_input,
            Record::Failed {
                message: format!("cannot read {shown}: {e}"),
                not_record: None,
                input: Some(e),
            },
        );
    }
    let mut batch: Vec<Result<Member, MemberError>> = Vec::new();
    let mut batch_bytes = 0usize;
    let mut failed: Option<E> = None;
    let flush = |batch: &mut Vec<Result<Member, MemberError>>,
                 join: Join<'_, R, E>|
     -> Result<(), E> {
        let done: Vec<(Input, Vec<Record<R>>)> = std::mem::take(batch)
            .into_par_iter()
            .map(|m| {
                let (name, bytes) = match m {
                    Ok(m) => (m.name, Ok(m.bytes)),
                    Err(e) => (e.name, Err(e.message)),
                };
                let input = Input {
                    name: format!("{shown}!{name}"),
                    size: bytes.as_ref().map_or(0, |b: &Vec<u8>| b.len() as u64),
                    index,
                };
                let bytes = bytes.map_err(|e| (format!("cannot read {}: {e}", input.name), None));
                let mut out = Vec::new();
                let _ = read_one(
                    &input,
                    bytes,
                    Some(Path::new(&name)),
                    opts,
                    work,
                    &mut |r| {
                        out.push(r);
                        Ok::<(), ()>(())
                    },
                );
                (input, out)
            })
            .collect();
        for (input, rs) in done {
            for r in rs {
                join(&input, r)?;
            }
        }
        Ok(())
    };
    let mut each = |m: Result<Member, MemberError>| {
        if failed.is_some() {
            return;
        }
        batch_bytes += m.as_ref().map_or(0, |m| m.bytes.len());
        batch.push(m);
        if batch.len() >= CHUNK || batch_bytes >= BATCH_BYTES {
            batch_bytes = 0;
            if let Err(e) = flush(&mut batch, join) {
                failed = Some(e);
            }
        }
    };
    let read = match source {
        Source::File(path) => read_members(path, &ArchiveOptions::default(), &mut each),
        Source::Bytes(name, bytes) => {
            read_members_in(bytes, name, &ArchiveOptions::default(), &mut each)
        }
    };
    if let Some(e) = failed {
        return Err(e);
    }
    flush(&mut batch, join)?;
    match read {
        Ok(()) => Ok(()),
        // Members read before the failure were handed over.
        Err(e) => join(
            &archive_input,
            Record::Failed {
                message: e.to_string(),
                not_record: None,
                input: None,
            },
        ),
    }
}

/// Without the `archive` feature an archive is an input that cannot be
/// read, said so.
#[cfg(not(feature = "archive"))]
fn read_archive<R: Send, E>(
    source: Source<'_>,
    index: usize,
    _opts: &PartOptions,
    _work: &(impl Fn(Part<'_>) -> R + Sync),
    join: &mut impl FnMut(&Input, Record<R>) -> Result<(), E>,
) -> Result<(), E> {
    let name = match source {
        Source::File(path) => path.to_string_lossy().into_owned(),
        Source::Bytes(name, _) => name.to_string(),
    };
    let input = Input {
        name: name.clone(),
        size: 0,
        index,
    };
    join(
        &input,
        Record::Failed {
            message: format!("cannot read {name}: archives need sgf-formats' `archive` feature"),
            not_record: None,
            input: None,
        },
    )
}
