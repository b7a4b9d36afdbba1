//! `qipu tree`: the variation tree drawn in the terminal.

use anyhow::Result;
use clap::Args as ClapArgs;
use sgf_core::{Document, NodeId};
use sgf_go::coords::{self, BoardSize};
use sgf_go::edit::node_move;

use std::io::Write;

use sgf_formats::parts::Step;

use crate::input;

/// Draw the variation tree of each game, with move numbers, node names and comment markers.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or holds no SGF game tree, the output could not
/// be written (a file written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// Only this game (from 1).
    #[arg(long)]
    pub game: Option<usize>,
    /// Show every node (by default long runs of plain moves are folded).
    #[arg(long)]
    pub full: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

struct Line {
    label: String,
    plain: bool,
}

fn describe(doc: &Document, n: NodeId, size: BoardSize, number: u32) -> Line {
    let node = doc.node(n);
    let mut s = String::new();
    let mut plain = true;
    match node_move(doc, n, size) {
        Some((c, m)) => {
            let coord = match m {
                sgf_go::Move::Pass => "pass".to_string(),
                sgf_go::Move::Play(p) => coords::human(p, size),
            };
            s.push_str(&format!("{number} {} {coord}", c.as_str()));
        }
        None if node.parent().is_none() => s.push_str("root"),
        None => {
            let setup: Vec<&str> = ["AB", "AW", "AE"]
                .into_iter()
                .filter(|i| node.has(i))
                .collect();
            if setup.is_empty() {
                s.push_str("(empty node)");
            } else {
                s.push_str(&format!("setup {}", setup.join(" ")));
            }
            plain = false;
        }
    }
    if let Some(name) = node.text("N") {
        s.push_str(&format!(" \"{name}\""));
        plain = false;
    }
    if node.has("C") {
        s.push_str(" [C]");
        plain = false;
    }
    let marks: Vec<&str> = ["TR", "CR", "SQ", "MA", "LB", "AR", "LN"]
        .into_iter()
        .filter(|i| node.has(i))
        .collect();
    if !marks.is_empty() {
        s.push_str(&format!(" <{}>", marks.join(",")));
        plain = false;
    }
    for (id, mark) in [
        ("TE", "!"),
        ("BM", "?"),
        ("DO", "?!"),
        ("IT", "!?"),
        ("HO", "*"),
    ] {
        if node.has(id) {
            s.push_str(&format!(" {mark}"));
            plain = false;
        }
    }
    Line { label: s, plain }
}

/// The indent under a branch glyph: the lines that continue its sequence.
fn continuation(prefix: &str, glyph: &str) -> String {
    let bar = match glyph {
        "" => "",
        "└─ " => "   ",
        _ => "│  ",
    };
    format!("{prefix}{bar}")
}

/// A run of plain moves on one line: up to three in full, longer ones as
/// first … last (count).
fn fold(moves: &[String]) -> String {
    match moves {
        [first, .., last] if moves.len() > 3 => {
            format!("{first} … {last} ({} moves)", moves.len())
        }
        _ => moves.join("  "),
    }
}

/// Draws a game tree. Iterative: a stack of (node, prefix, is-last-sibling, move number).
pub fn draw(doc: &Document, gi: usize, full: bool) -> String {
    let game = doc.game(gi).expect("in range");
    let root = game.root();
    let (size, _) = coords::board_size(&root);
    let mut out = String::new();
    // (node, indent prefix, branch glyph, move number before it)
    let mut stack: Vec<(NodeId, String, &'static str, u32)> =
        vec![(root.id(), String::new(), "", 0)];
    while let Some((start, prefix, glyph, mut number)) = stack.pop() {
        // Walk a sequence of single children, folding long plain runs.
        let mut n = start;
        let mut first = true;
        let mut folded: Vec<String> = Vec::new();
        loop {
            let node = doc.node(n);
            if node_move(doc, n, size).is_some() {
                number += 1;
            }
            if let Some(mn) = node.value("MN").and_then(|v| v.number()) {
                number = mn.max(0) as u32;
            }
            let line = describe(doc, n, size, number);
            let lead = if first {
                format!("{prefix}{glyph}")
            } else {
                continuation(&prefix, glyph)
            };
            let kids: Vec<NodeId> = node.children().map(|c| c.id()).collect();
            let foldable = !full && line.plain && !first && kids.len() == 1;
            if foldable {
                folded.push(line.label);
            } else {
                if !folded.is_empty() {
                    out.push_str(&format!("{lead}{}\n", fold(&folded)));
                    folded.clear();
                }
                out.push_str(&format!("{lead}{}\n", line.label));
            }
            first = false;
            match kids.len() {
                0 => break,
                1 => n = kids[0],
                _ => {
                    let inner = continuation(&prefix, glyph);
                    for (i, &k) in kids.iter().enumerate().rev() {
                        let g = if i + 1 == kids.len() {
                            "└─ "
                        } else {
                            "├─ "
                        };
                        stack.push((k, inner.clone(), g, number));
                    }
                    break;
                }
            }
        }
        if !folded.is_empty() {
            let lead = continuation(&prefix, glyph);
            out.push_str(&format!("{lead}{}\n", fold(&folded)));
        }
    }
    out
}

/// The trees of a record's games, after `game N` (or of one game).
fn game_trees(doc: &sgf_core::Document, only: Option<usize>, full: bool) -> Vec<String> {
    (0..doc.game_count())
        .filter(|gi| only.is_none_or(|g| g == *gi))
        .map(|gi| {
            let g = doc.game(gi).expect("in range");
            let root = g.root();
            let title = match (root.text("PB"), root.text("PW")) {
                (Some(b), Some(w)) => format!(" — {b} (B) vs {w} (W)"),
                _ => String::new(),
            };
            format!("{title}\n{}", draw(doc, gi, full))
        })
        .collect()
}

/// Runs the command: one game's part, or the parts of a large collection
/// one after another.
pub fn run(args: &Args) -> Result<u8> {
    if let Some(g) = args.game {
        let at = input::load_game_numbered(&args.file, g, args.quiet)?;
        let trees = game_trees(&at.loaded.parsed.document, Some(at.index), args.full);
        let out: String = trees.iter().map(|t| format!("game {g}{t}")).collect();
        input::write_output(None, out.as_bytes())?;
        return Ok(0);
    }
    let mut out = crate::parts::Staged::new(None)?;
    let mut n = 0usize;
    let bytes = input::read_bytes(&args.file)?;
    crate::parts::read(
        &args.file,
        &bytes,
        &sgf_formats::parts::PartOptions::default().with_verify_first(true),
        args.quiet,
        |_| {},
        |_, loaded| game_trees(&loaded.parsed.document, None, args.full),
        |step| {
            match step {
                Step::Part(piece, trees) => {
                    let mut w = out.writer(&piece);
                    for t in trees {
                        n += 1;
                        write!(w, "game {n}")?;
                        w.write_all(t.as_bytes())?;
                    }
                }
                Step::Restart => {
                    n = 0;
                    out.restart();
                }
            }
            Ok(())
        },
    )?;
    out.commit()?;
    Ok(0)
}
