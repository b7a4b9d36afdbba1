//! `qipu export`: one JSON line per game (game info and main-line moves), for pipelines.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use sgf_core::Severity;
use sgf_go::coords;

use crate::cmd::info::facts;
use crate::walk;

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// JSON Lines: one object per game.
    Jsonl,
}

/// Write one JSON line per game: file, game, size, charset, game info, setup and main-line moves.
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

/// Files handled together: their lines are written in input order, then dropped,
/// so memory does not grow with the number of files.
const CHUNK: usize = 64;

/// One exported game; fields are written in this order.
#[derive(serde::Serialize)]
struct Line<'a> {
    file: &'a str,
    game: usize,
    size: [u8; 2],
    charset: &'a str,
    info: Map<String, Value>,
    setup: Map<String, Value>,
    moves: Vec<Value>,
}

/// The lines of one file, and whether it had errors.
fn lines_of(path: &Path) -> (Vec<String>, bool) {
    let name = path.to_string_lossy();
    let Ok(loaded) = walk::load_record(path) else {
        return (Vec::new(), true);
    };
    let errors = loaded
        .parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
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
        // Every move, as `sgf_go::moves` defines them: one that cannot be
        // played (off the board) is kept as written, so the list's N-th
        // entry is move N, and `errors` says the game is damaged.
        let moves: Vec<Value> = sgf_go::main_line_moves(doc, gi)
            .into_iter()
            .map(|m| {
                let point = match m.mv {
                    Some(mv) => mv.point().map(|p| p.to_string()).unwrap_or_default(),
                    None => doc
                        .node(m.node)
                        .value(if m.color == sgf_core::Color::Black {
                            "B"
                        } else {
                            "W"
                        })
                        .map(|v| String::from_utf8_lossy(v.raw()).trim().to_string())
                        .unwrap_or_default(),
                };
                json!([m.color.as_str(), point])
            })
            .collect();
        let line = Line {
            file: &name,
            game: gi + 1,
            size: [size.cols, size.rows],
            // A converted record (GIB, NGF, UGF): the charset of its file.
            charset: if loaded.original.is_some() {
                loaded.charset
            } else {
                f.charset
            },
            info,
            setup,
            moves,
        };
        lines.push(serde_json::to_string(&line).unwrap_or_default());
    }
    (lines, errors)
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let files = walk::collect(&args.paths)?;
    let pb = walk::progress(files.len(), args.quiet);
    let mut out: Box<dyn Write> = match args.output.as_deref() {
        Some(p) if p != "-" => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {p}"))?,
        )),
        _ => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let (mut games, mut with_errors) = (0usize, 0usize);
    for chunk in files.chunks(CHUNK) {
        let results: Vec<(Vec<String>, bool)> = chunk
            .par_iter()
            .map(|p| {
                let r = lines_of(p);
                pb.inc(1);
                r
            })
            .collect();
        for (lines, errors) in results {
            with_errors += usize::from(errors);
            for l in lines {
                games += 1;
                out.write_all(l.as_bytes())
                    .and_then(|()| out.write_all(b"\n"))
                    .context("cannot write the output")?;
            }
        }
    }
    out.flush().context("cannot write the output")?;
    pb.finish_and_clear();
    if !args.quiet {
        eprintln!(
            "{games} game(s) from {} file(s); {with_errors} file(s) with errors",
            files.len()
        );
    }
    Ok(0)
}
