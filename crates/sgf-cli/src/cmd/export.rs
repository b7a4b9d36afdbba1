//! `qipu export`: one JSON line per game (game info and main-line moves), for pipelines.

use std::io::Write;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use serde_json::{Map, Value, json};
use sgf_formats::collection::Record;
use sgf_formats::summary::{SummaryMove, summaries};

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

/// The main line's moves, written as `[colour, point]` pairs as they are
/// serialised (a long game has a million: no value is built per move).
struct Moves<'a>(&'a [SummaryMove]);

impl serde::Serialize for Moves<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for m in self.0 {
            // Every move, as `sgf_go::moves` defines them: one that cannot be
            // played (off the board) is kept as written, so the list's N-th
            // entry is move N, and `errors` says the game is damaged.
            seq.serialize_element(&(m.color.as_str(), m.text()))?;
        }
        seq.end()
    }
}

/// The lines of a part of a file, each without its `{"file":…,"game":N,`
/// (the game's number in the file is known once the parts before it are).
fn lines_of(loaded: &sgf_formats::Loaded) -> Vec<String> {
    summaries(loaded)
        .iter()
        .map(|s| {
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
                moves: Moves(&s.moves),
            };
            serde_json::to_string(&line).unwrap_or_default()
        })
        .collect()
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
        |part| lines_of(&part.loaded),
        |input, r| {
            if last.as_deref() != Some(input.name.as_str()) {
                inputs += 1;
                last = Some(input.name.clone());
            }
            match r {
                Record::Part(piece, lines) => {
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
                    for (k, l) in lines.iter().enumerate() {
                        games += 1;
                        out.write_all(&prefix)
                            .and_then(|()| write!(out, "{},", piece.first_game + k + 1))
                            .and_then(|()| out.write_all(&l.as_bytes()[1..]))
                            .and_then(|()| out.write_all(b"\n"))
                            .context("cannot write the output")?;
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
