//! `qipu export`: one JSON line per game (game info and main-line moves), for pipelines.

use std::io::Write;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use serde_json::{Map, Value, json};
use sgf_formats::collection::Record;
use sgf_formats::summary::{GameSummary, summary_moves};

use crate::cmd::info::info_map;
use crate::walk;

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// JSON Lines: one object per game.
    Jsonl,
}

/// Write one JSON line per game: file, game, size, charset, game info, setup and main-line moves.
///
/// A file that cannot be read, or holds no SGF game tree (a text file, a
/// binary), is named on standard error with the reason; the other files are
/// still exported. When no file could be exported, `-o FILE` is not
/// written (a file there stays as it was).
///
/// Exit status: 0 every file was exported; 2 some file could not be read or
/// is not a game record (the summary says how many), a path does not exist,
/// the output cannot be written, or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files and directories (directories are searched for `.sgf`, `.gib`, `.ngf`, `.ugf`, `.ugi`).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// Output file (standard output by default).
    #[arg(short, long)]
    pub output: Option<String>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// One exported game, after its `file` and `game` (fields are written in
/// this order).
#[derive(serde::Serialize)]
struct Line<'a> {
    size: [u8; 2],
    charset: &'a str,
    info: Map<String, Value>,
    setup: Map<String, Value>,
    moves: Moves<'a>,
}

/// The main line's moves of game `gi` of a document, written as `[colour,
/// point]` pairs as they are serialised, straight from the document (a
/// long game has a million: no value is built per move).
struct Moves<'a> {
    doc: &'a sgf_core::Document,
    gi: usize,
}

impl serde::Serialize for Moves<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(None)?;
        for m in summary_moves(self.doc, self.gi) {
            // Every move, as `sgf_go::moves` defines them: one that cannot be
            // played (off the board) is kept as written, so the list's N-th
            // entry is move N, and `errors` says the game is damaged.
            seq.serialize_element(&(m.color.as_str(), m.text()))?;
        }
        seq.end()
    }
}

/// The games of a part of a file, summarised without their moves (which
/// are written from the document).
fn summarised(loaded: &sgf_formats::Loaded) -> Vec<(usize, GameSummary)> {
    let doc = &loaded.parsed.document;
    let converted = loaded.converted.then_some(loaded.charset);
    (0..doc.game_count())
        .filter_map(|gi| GameSummary::without_moves(doc, gi, converted).map(|s| (gi, s)))
        .collect()
}

/// Writes the line of game `gi` (summarised as `s`) into `out`, without
/// its `{"file":…,"game":N,` (the game's number in the file is known once
/// the parts before it are): the line's object without its `{`.
fn write_line(
    doc: &sgf_core::Document,
    gi: usize,
    s: &GameSummary,
    out: impl Write,
) -> serde_json::Result<()> {
    let mut setup = Map::new();
    for (ident, pts) in [("AB", &s.setup_black), ("AW", &s.setup_white)] {
        if !pts.is_empty() {
            let pts: Vec<String> = pts
                .iter()
                .map(|&[x, y]| sgf_core::Point::new(x, y).to_string())
                .collect();
            setup.insert(ident.into(), json!(pts));
        }
    }
    let line = Line {
        size: s.size,
        charset: &s.charset,
        info: info_map(s),
        setup,
        moves: Moves { doc, gi },
    };
    serde_json::to_writer(SkipFirst { out, skip: true }, &line)
}

/// A writer that drops the first byte written to it (the `{` of a line).
struct SkipFirst<W> {
    out: W,
    skip: bool,
}

impl<W: Write> Write for SkipFirst<W> {
    fn write(&mut self, mut bytes: &[u8]) -> std::io::Result<usize> {
        let mut n = 0;
        if self.skip && !bytes.is_empty() {
            self.skip = false;
            bytes = &bytes[1..];
            n = 1;
        }
        self.out.write_all(bytes)?;
        Ok(n + bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What the work makes of a part: its lines, or for a large part its
/// record and summaries, to be written into the output.
enum Made {
    Lines(Vec<Vec<u8>>),
    Kept(Box<sgf_formats::Loaded>, Vec<(usize, GameSummary)>),
}

/// Runs the command: files side by side, a large one a part at a time,
/// lines written in file order as they come.
pub fn run(args: &Args) -> Result<u8> {
    let files = walk::inputs(&args.paths)?;
    let pb = walk::progress(files.len(), args.quiet);
    // Checked before any file is read; in place only once all is written.
    let mut out = crate::input::create_output(args.output.as_deref())?;
    let (mut games, mut with_errors, mut failed) = (0usize, 0usize, 0usize);
    let mut prefix = Vec::new();
    let mut read = sgf_formats::ReadOptions::default();
    read.dialect_report = false;
    let (mut inputs, mut last) = (0usize, None);
    sgf_formats::collection::records(
        &files,
        &sgf_formats::parts::PartOptions::default().with_read(read),
        &|| pb.inc(1),
        |part| {
            let games = summarised(&part.loaded);
            if part.bytes.len() > crate::parts::IN_PLACE_BYTES {
                return Made::Kept(Box::new(part.loaded), games);
            }
            let doc = &part.loaded.parsed.document;
            Made::Lines(
                games
                    .iter()
                    .map(|(gi, s)| {
                        let mut line = Vec::new();
                        let _ = write_line(doc, *gi, s, &mut line);
                        line
                    })
                    .collect(),
            )
        },
        |input, r| {
            if last.as_deref() != Some(input.name.as_str()) {
                inputs += 1;
                last = Some(input.name.clone());
            }
            match r {
                Record::Part(piece, made) => {
                    prefix.clear();
                    prefix.extend_from_slice(b"{\"file\":");
                    // Standard input is `-`, as it was given.
                    let file = if input.name == "<stdin>" {
                        "-"
                    } else {
                        &input.name
                    };
                    serde_json::to_writer(&mut prefix, file)?;
                    prefix.extend_from_slice(b",\"game\":");
                    let mut k = 0;
                    let mut start = |out: &mut sgf_formats::save::Destination| {
                        games += 1;
                        k += 1;
                        out.write_all(&prefix)
                            .and_then(|()| write!(out, "{},", piece.first_game + k))
                    };
                    match made {
                        Made::Lines(lines) => {
                            for l in lines {
                                start(&mut out)
                                    .and_then(|()| out.write_all(&l))
                                    .and_then(|()| out.write_all(b"\n"))
                                    .context("cannot write the output")?;
                            }
                        }
                        Made::Kept(loaded, summaries) => {
                            let doc = &loaded.parsed.document;
                            for (gi, s) in &summaries {
                                start(&mut out)
                                    .and_then(|()| {
                                        write_line(doc, *gi, s, &mut out).map_err(Into::into)
                                    })
                                    .and_then(|()| out.write_all(b"\n"))
                                    .context("cannot write the output")?;
                            }
                        }
                    }
                }
                Record::Done { errors, .. } => with_errors += usize::from(errors),
                Record::Failed { message, .. } => {
                    pb.suspend(|| eprintln!("qipu: {message}"));
                    failed += 1;
                }
            }
            Ok::<(), anyhow::Error>(())
        },
    )?;
    pb.finish_and_clear();
    if failed < inputs || inputs == 0 {
        crate::input::commit(out, args.output.as_deref())?;
    } else if let Some(o) = args.output.as_deref().filter(|o| *o != "-") {
        // Nothing exported: a file there is not replaced by an empty one.
        eprintln!("qipu: no file could be exported: {o} not written");
    }
    if !args.quiet || failed > 0 {
        eprintln!(
            "{games} game(s) from {} file(s); {with_errors} file(s) with errors{}",
            inputs - failed,
            if failed > 0 {
                format!("; {failed} file(s) could not be exported")
            } else {
                String::new()
            }
        );
    }
    Ok(if failed > 0 { 2 } else { 0 })
}
