//! `qipu export`: one JSON line per game (game info and main-line moves), for pipelines.

use std::io::Write;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use serde_json::{Map, Value, json};
use sgf_go::coords;

use crate::cmd::info::facts;
use crate::walk;
use sgf_formats::collection::Record;

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
struct Moves<'a> {
    doc: &'a sgf_core::Document,
    moves: Vec<sgf_go::GameMove>,
}

impl serde::Serialize for Moves<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.moves.len()))?;
        for m in &self.moves {
            // Every move, as `sgf_go::moves` defines them: one that cannot be
            // played (off the board) is kept as written, so the list's N-th
            // entry is move N, and `errors` says the game is damaged.
            let point = match m.mv {
                Some(mv) => mv.point().map(|p| p.to_string()).unwrap_or_default(),
                None => self
                    .doc
                    .node(m.node)
                    .value(if m.color == sgf_core::Color::Black {
                        "B"
                    } else {
                        "W"
                    })
                    .map(|v| String::from_utf8_lossy(v.raw()).trim().to_string())
                    .unwrap_or_default(),
            };
            seq.serialize_element(&(m.color.as_str(), point))?;
        }
        seq.end()
    }
}

/// The lines of a part of a file, each without its `{"file":…,"game":N,`
/// (the game's number in the file is known once the parts before it are).
fn lines_of(loaded: &crate::input::Loaded) -> Vec<String> {
    let doc = &loaded.parsed.document;
    let mut lines = Vec::with_capacity(doc.game_count());
    for (gi, game) in doc.games().enumerate() {
        let f = facts(doc, gi);
        let size = f.size;
        let mut info = Map::new();
        for (k, v) in &f.info {
            info.insert(k.clone(), json!(v));
        }
        let root = game.root();
        let mut setup = Map::new();
        for ident in ["AB", "AW"] {
            // Each stone once: a point given twice (a list of overlapping
            // rectangles can give every point thousands of times) is one
            // stone, and the line stays as long as the board, at most.
            let mut once = std::collections::HashSet::new();
            let pts: Vec<String> = coords::each_point(&root, ident, size)
                .filter(|p| once.insert(*p))
                .map(|p| p.to_string())
                .collect();
            if !pts.is_empty() {
                setup.insert(ident.into(), json!(pts));
            }
        }
        let moves = Moves {
            doc,
            moves: sgf_go::main_line_moves(doc, gi),
        };
        let line = Line {
            size: [size.cols, size.rows],
            charset: loaded.game_charset(gi),
            info,
            setup,
            moves,
        };
        lines.push(serde_json::to_string(&line).unwrap_or_default());
    }
    lines
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
        |part| lines_of(&crate::input::wrap(part.name, part.bytes, part.loaded)),
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
