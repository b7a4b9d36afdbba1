//! The commands' side of reading a record in parts
//! ([`sgf_formats::parts`]): the reader's diagnostics shown as for the
//! whole file, and an output that holds back what a restart could drop.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;

use anyhow::Result;
use sgf_core::Severity;
use sgf_formats::parts::{PartOptions, Piece, Step};
use sgf_formats::save::Destination;

use crate::input;
use sgf_report as report;

/// Diagnostics of reading shown per file (as [`crate::print_diagnostics`]).
const SHOWN: usize = 20;

/// What a part's work gives: the command's result and the reader's
/// diagnostics of the part, rendered (at most [`SHOWN`] + 1 of them).
pub struct Worked<R> {
    result: R,
    diags: Vec<String>,
}

/// Reads the record `src` (see [`input::read_one`]) in parts: `prepare` (a normalisation, say)
/// then `work` run on each part (on every core), `join` gets the results in file order (or [`Step::Restart`]).
/// Unless `quiet`, the reader's warnings and errors are printed on
/// standard error at the end, as for the file read whole. Returns the
/// number of games.
///
/// # Errors
/// When the file is not a game record (see [`sgf_formats::judge`]: binary,
/// or holding no game tree) or cannot be read, or `join` fails.
pub fn read<R: Send>(
    src: &input::Source,
    opts: &PartOptions,
    quiet: bool,
    prepare: impl Fn(&mut input::Loaded) + Sync,
    work: impl Fn(&Piece, input::Loaded) -> R + Sync,
    mut join: impl FnMut(Step<R>) -> Result<()>,
) -> Result<usize> {
    let bytes = &src.bytes;
    let name = src.name.as_str();
    let color = std::io::stderr().is_terminal();
    let mut shown: Vec<String> = Vec::new();
    let mut games = 0usize;
    let mut no_tree = None;
    let mut failed = None;
    sgf_formats::parts::map_parts(
        bytes,
        src.hint(),
        opts,
        |piece, l| {
            let mut loaded = input::wrap(name, &bytes[piece.range.clone()], l);
            prepare(&mut loaded);
            // After `prepare`, as a command that normalises shows what it did.
            let diags = if quiet {
                Vec::new()
            } else {
                rendered(&loaded, piece, name, color)
            };
            let no_tree = loaded.no_game_tree();
            Worked {
                result: (work(piece, loaded), no_tree),
                diags,
            }
        },
        |step| {
            let step = match step {
                Step::Restart => {
                    shown.clear();
                    games = 0;
                    no_tree = None;
                    Step::Restart
                }
                Step::Part(piece, w) => {
                    games += piece.games;
                    if no_tree.is_none() {
                        no_tree = w.result.1;
                    }
                    for d in w.diags {
                        if shown.len() <= SHOWN {
                            shown.push(d);
                        }
                    }
                    Step::Part(piece, w.result.0)
                }
            };
            match join(step) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    )
    .map_err(|e| input::read_error(name, e))?;
    if let Some(e) = failed {
        return Err(e);
    }
    if games > 0 {
        for (i, d) in shown.iter().enumerate() {
            if i == SHOWN {
                eprintln!("… and more (run `qipu check` for the full list)");
                break;
            }
            eprintln!("{d}");
        }
    } else {
        anyhow::bail!(
            no_tree.unwrap_or_else(|| sgf_formats::judge::NotRecord::NoGameTree.sentence(name))
        );
    }
    Ok(games)
}

/// The reader's warnings and errors of a part, as [`crate::print_diagnostics`]
/// shows them, placed in the file.
fn rendered(loaded: &input::Loaded, piece: &Piece, name: &str, color: bool) -> Vec<String> {
    let doc = &loaded.parsed.document;
    let sources = report::Sources::new(doc, loaded.original.as_ref())
        .at(piece.lines_before, piece.range.start as u32);
    loaded
        .parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .take(SHOWN + 1)
        .map(|d| {
            if color {
                report::render_in(name, sources.of(d), d, true)
            } else {
                report::one_line_in(name, sources.of(d), d)
            }
        })
        .collect()
}

/// An output made part by part: written as it comes where a restart could
/// drop it (a file) or where none can come, else held until the end.
pub struct Staged {
    dest: Destination,
    name: Option<String>,
    held: Vec<u8>,
    /// What goes before the parts' output (written again after a restart).
    prefix: Vec<u8>,
    /// A restart that could not drop what was written.
    failed: bool,
    /// A part was written.
    started: bool,
}

impl Staged {
    /// An output to `out` (a file, or standard output for `None` or `-`).
    ///
    /// # Errors
    /// When `out` cannot be written (see [`input::create_output`]).
    pub fn new(out: Option<&str>) -> Result<Staged> {
        Ok(Staged {
            dest: input::create_output(out)?,
            name: out.map(str::to_string),
            held: Vec::new(),
            prefix: Vec::new(),
            failed: false,
            started: false,
        })
    }

    /// Whether what was written can be dropped at a restart (a file); else
    /// read with [`PartOptions::verify_first`], so that no restart comes.
    pub fn can_restart(&self) -> bool {
        self.dest.can_restart()
    }

    /// Writes bytes that belong to no part: before the first part (kept
    /// through a restart) or after the last.
    pub fn write_fixed(&mut self, bytes: &[u8]) {
        if !self.started {
            self.prefix.extend_from_slice(bytes);
        }
        self.held.extend_from_slice(bytes);
    }

    /// Adds the output of a part.
    pub fn part(&mut self, bytes: &[u8], piece: &Piece) {
        let _ = self.writer(piece).write_all(bytes);
    }

    /// A writer for the output of a part.
    pub fn writer<'a>(&'a mut self, piece: &Piece) -> PartWriter<'a> {
        let hold = piece.may_restart && !self.dest.can_restart();
        self.started = true;
        PartWriter { staged: self, hold }
    }

    /// Drops the output so far (see [`Step::Restart`]).
    pub fn restart(&mut self) {
        self.held.clear();
        if self.dest.can_restart() {
            self.failed |= !self.dest.restart();
        }
        self.held.extend_from_slice(&self.prefix);
    }

    /// Writes what is held and puts the output in place.
    ///
    /// # Errors
    /// When writing failed; a file replaced is then as it was.
    pub fn commit(mut self) -> Result<()> {
        let held = std::mem::take(&mut self.held);
        let _ = self.dest.write_all(&held);
        if self.failed {
            anyhow::bail!("cannot write {}", self.name.as_deref().unwrap_or("-"));
        }
        input::commit(self.dest, self.name.as_deref())
    }
}

/// Writes a part's output into a [`Staged`] output.
pub struct PartWriter<'a> {
    staged: &'a mut Staged,
    hold: bool,
}

impl Write for PartWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let s = &mut *self.staged;
        if self.hold {
            s.held.extend_from_slice(bytes);
            return Ok(bytes.len());
        }
        if !s.held.is_empty() {
            let held = std::mem::take(&mut s.held);
            s.dest.write_all(&held)?;
        }
        s.dest.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A part larger than this (a long game alone: parts are cut much
/// smaller, small files are read whole side by side) is written straight
/// into the output from its record as it is output, not made into a buffer
/// on a worker first (see [`Canonical`]; `tree` and `export` too).
pub const IN_PLACE_BYTES: usize = 1 << 20;

/// A part's canonical form: made where the part was read (the parts of a
/// collection side by side), or, for a file read whole or a part of one
/// huge game, its document, written as it is made so that the output is
/// never held whole beside it.
pub enum Canonical {
    /// The canonical bytes.
    Bytes(Vec<u8>),
    /// The document, to write.
    Doc(Box<sgf_core::Document>),
}

impl Canonical {
    /// The canonical form of the part `piece` read as `doc`.
    pub fn of(piece: &Piece, doc: sgf_core::Document, opts: &sgf_core::WriteOptions) -> Canonical {
        if piece.whole || piece.range.len() > IN_PLACE_BYTES {
            Canonical::Doc(Box::new(doc))
        } else {
            Canonical::Bytes(sgf_core::to_canonical_bytes(&doc, opts))
        }
    }

    /// Writes it as the output of `piece` (a failed write shows when the
    /// output is put in place, as for [`Staged::part`]).
    pub fn write(&self, out: &mut Staged, piece: &Piece, opts: &sgf_core::WriteOptions) {
        match self {
            Canonical::Bytes(b) => out.part(b, piece),
            Canonical::Doc(doc) => {
                let _ = sgf_core::write_canonical(doc, opts, &mut out.writer(piece));
            }
        }
    }
}
