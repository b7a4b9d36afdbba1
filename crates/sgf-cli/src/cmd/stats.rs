//! `qipu stats`: counts over files and directories of records, in parallel.

use std::collections::BTreeMap;

use anyhow::Result;
use clap::Args as ClapArgs;
use sgf_core::props::id;
use sgf_go::{GameResult, WinBy, coords};

use crate::{input, walk};
use sgf_formats::collection::Record;

/// Count files, games, nodes, moves and bytes under files and directories (recursive), with
/// histograms of charsets, board sizes and results.
///
/// A file that cannot be read, or holds no SGF game tree (a text file, a
/// binary), is named on standard error with the reason and counted
/// (`unreadable`, `not_records`); the other files are still counted.
///
/// Exit status: 0 every file was counted; 2 some file could not be read or
/// is not a game record (the summary says how many), a path does not exist,
/// or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files and directories (directories are searched for `.sgf`, `.gib`, `.ngf`, `.ugf`, `.ugi`).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// JSON: `{"files": n, "games": n, "nodes": n, "moves": n, "bytes": n, "files_with_errors": n, …}`.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Counts over a set of files; merged across threads. Serialised in field order.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// Files read (or tried).
    pub files: u64,
    /// Game trees.
    pub games: u64,
    /// Nodes of all games, variations included.
    pub nodes: u64,
    /// Nodes with a move (`B` or `W`), variations included.
    pub moves: u64,
    /// Moves of the main lines.
    pub main_line_moves: u64,
    /// Size of the files.
    pub bytes: u64,
    /// Files that could not be read or that have error diagnostics.
    pub files_with_errors: u64,
    /// Files that could not be read at all.
    pub unreadable: u64,
    /// Files read that hold no SGF game tree: not game records (`S002`).
    pub not_records: u64,
    /// Games per charset.
    pub charsets: BTreeMap<String, u64>,
    /// Games per board size.
    pub board_sizes: BTreeMap<String, u64>,
    /// Games per kind of result.
    pub results: BTreeMap<String, u64>,
    /// The files that could not be counted, with why, in file order.
    #[serde(skip)]
    pub failures: Vec<String>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.files += o.files;
        self.games += o.games;
        self.nodes += o.nodes;
        self.moves += o.moves;
        self.main_line_moves += o.main_line_moves;
        self.bytes += o.bytes;
        self.files_with_errors += o.files_with_errors;
        self.unreadable += o.unreadable;
        self.not_records += o.not_records;
        self.failures.extend(o.failures);
        for (mine, theirs) in [
            (&mut self.charsets, o.charsets),
            (&mut self.board_sizes, o.board_sizes),
            (&mut self.results, o.results),
        ] {
            for (k, v) in theirs {
                *mine.entry(k).or_default() += v;
            }
        }
        self
    }
}

/// The bucket of a result: `B+Resign`, `W+Score`, `Draw`, `?`, `none`, `other`, ….
fn result_bucket(re: Option<&str>) -> String {
    let Some(re) = re else {
        return "none".into();
    };
    match sgf_go::parse_result(re) {
        None => "other".into(),
        Some(GameResult::Draw) => "Draw".into(),
        Some(GameResult::Void) => "Void".into(),
        Some(GameResult::Unknown) => "?".into(),
        // `B+Resign`, `W+Score`, `B+` (unspecified).
        Some(GameResult::Win { winner, by }) => {
            let mut how = match by {
                WinBy::Unspecified => String::new(),
                by => by.as_str().to_string(),
            };
            if let Some(c) = how.get_mut(..1) {
                c.make_ascii_uppercase();
            }
            format!("{}+{how}", winner.as_str())
        }
    }
}

/// Counts the games of a part of a file (read alone, or the whole file).
fn tally_part(loaded: &input::Loaded) -> Tally {
    let mut t = Tally::default();
    let doc = &loaded.parsed.document;
    // One pass over each node's properties.
    let is_move = |n: &sgf_core::Node<'_>| {
        n.props()
            .any(|p| matches!(p.known_id(), Some(id::B | id::W)))
    };
    for game in doc.games() {
        t.games += 1;
        for n in game.nodes() {
            t.nodes += 1;
            t.moves += u64::from(is_move(&n));
        }
        t.main_line_moves += game.main_line().filter(is_move).count() as u64;
        let charset = loaded.game_charset(game.index());
        *t.charsets.entry(charset.to_string()).or_default() += 1;
        let (size, _) = coords::board_size(&game.root());
        *t.board_sizes.entry(size.to_string()).or_default() += 1;
        let re = sgf_go::info::game_info_node(&game).and_then(|n| n.text("RE"));
        *t.results.entry(result_bucket(re.as_deref())).or_default() += 1;
    }
    t
}

/// Counts every file (files side by side, a large one a part at a time),
/// with a progress bar.
pub fn tally(files: &[std::path::PathBuf], quiet: bool) -> Tally {
    let pb = walk::progress(files.len(), quiet);
    let mut total = Tally::default();
    // What a file gives is added once the file is done (a file that fails
    // counts only as failed).
    let mut file = Tally::default();
    let mut read = sgf_formats::ReadOptions::default();
    read.dialect_report = false;
    let r = sgf_formats::collection::records(
        files,
        &sgf_formats::parts::PartOptions::default().with_read(read),
        &|| pb.inc(1),
        |part| tally_part(&crate::input::wrap(part.name, part.bytes, part.loaded)),
        |input, r| {
            match r {
                Record::Part(_, t) => file = std::mem::take(&mut file).merge(t),
                Record::Done { errors, .. } => {
                    let mut t = std::mem::take(&mut file);
                    t.files = 1;
                    t.bytes = input.size;
                    t.files_with_errors = u64::from(errors);
                    total = std::mem::take(&mut total).merge(t);
                }
                Record::Failed {
                    message,
                    not_record,
                    ..
                } => {
                    file = Tally::default();
                    let t = Tally {
                        files: 1,
                        bytes: input.size,
                        files_with_errors: 1,
                        unreadable: u64::from(not_record.is_none()),
                        not_records: u64::from(not_record.is_some()),
                        failures: vec![message],
                        ..Tally::default()
                    };
                    total = std::mem::take(&mut total).merge(t);
                }
            }
            Ok::<(), std::convert::Infallible>(())
        },
    );
    debug_assert!(r.is_ok(), "the join does not fail");
    pb.finish_and_clear();
    total
}

/// A histogram, largest first (ties by name).
fn sorted(h: &BTreeMap<String, u64>) -> Vec<(&String, &u64)> {
    let mut v: Vec<_> = h.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    v
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let files = walk::inputs(&args.paths)?;
    let t = tally(&files, args.quiet);
    let out = if args.json {
        serde_json::to_string_pretty(&t)? + "\n"
    } else {
        let mut s = String::new();
        for (k, v) in [
            ("files", t.files),
            ("games", t.games),
            ("nodes", t.nodes),
            ("moves", t.moves),
            ("main-line moves", t.main_line_moves),
            ("bytes", t.bytes),
            ("files with errors", t.files_with_errors),
            ("unreadable files", t.unreadable),
            ("not game records", t.not_records),
        ] {
            s.push_str(&format!("{k:<18} {v:>12}\n"));
        }
        for (title, h) in [
            ("charsets", &t.charsets),
            ("board sizes", &t.board_sizes),
            ("results", &t.results),
        ] {
            s.push_str(&format!("\n{title}:\n"));
            for (k, v) in sorted(h) {
                s.push_str(&format!("  {k:<16} {v:>12}\n"));
            }
        }
        s
    };
    for f in &t.failures {
        eprintln!("qipu: {f}");
    }
    input::write_output(None, out.as_bytes())?;
    let failed = t.unreadable + t.not_records;
    if failed > 0 {
        eprintln!(
            "qipu: {failed} of {} file(s) could not be counted ({} unreadable, {} not game records)",
            t.files, t.unreadable, t.not_records
        );
        return Ok(2);
    }
    Ok(0)
}
