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
/// file, larger than 1 GiB) or is not a game record (of an archive: any of
/// its record files, the others still shown), the output could not be
/// written (a file written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input; a zip, tar, tar.gz or 7z
    /// archive: each of its record files in turn; `ARCHIVE!MEMBER`: one
    /// of them).
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

/// Levels of indent drawn in full. A line deeper than this shows the
/// count of the levels left out, then the last of them: each line has a
/// bounded width, so that the drawing of a tree nested a million levels
/// deep is as long as the tree, not as its depth squared.
const MAX_LEVELS: u32 = 40;

/// The indents of the lines, as a tree: each one the indent of its parent
/// branch plus one level (`│  ` or three spaces). Shared, not copied, by
/// the branches under it.
struct Indents {
    /// (parent indent, its last level, depth); entry 0 is the empty indent.
    levels: Vec<(u32, &'static str, u32)>,
}

impl Indents {
    fn new() -> Indents {
        Indents {
            levels: vec![(0, "", 0)],
        }
    }

    /// The indent under a branch glyph: the lines that continue its sequence.
    fn continuation(&mut self, prefix: u32, glyph: &str) -> u32 {
        let bar = match glyph {
            "" => return prefix,
            "└─ " => "   ",
            _ => "│  ",
        };
        let depth = self.levels[prefix as usize].2 + 1;
        self.levels.push((prefix, bar, depth));
        (self.levels.len() - 1) as u32
    }

    /// Writes indent `id` (its last `MAX_LEVELS` levels).
    fn write(&self, id: u32, out: &mut String) {
        let depth = self.levels[id as usize].2;
        if depth > MAX_LEVELS {
            out.push_str(&format!("[+{}] ", depth - MAX_LEVELS));
        }
        let mut bars = Vec::with_capacity(depth.min(MAX_LEVELS) as usize);
        let mut i = id;
        while i != 0 && bars.len() < MAX_LEVELS as usize {
            let (parent, bar, _) = self.levels[i as usize];
            bars.push(bar);
            i = parent;
        }
        for bar in bars.iter().rev() {
            out.push_str(bar);
        }
    }
}

/// A run of plain moves on one line: up to three in full, longer ones as
/// first … last (count). Only those shown are kept: a main line of a
/// million plain moves is one run.
#[derive(Default)]
struct Fold {
    /// The first three labels.
    first: Vec<String>,
    /// The last label, once there are more than three.
    last: String,
    count: usize,
}

impl Fold {
    fn push(&mut self, label: String) {
        self.count += 1;
        if self.first.len() < 3 {
            self.first.push(label);
        } else {
            self.last = label;
        }
    }

    fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Writes the run's line after `lead`, and empties the run.
    fn write(&mut self, lead: &str, out: &mut impl Write) -> std::io::Result<()> {
        if self.count > 3 {
            writeln!(
                out,
                "{lead}{} … {} ({} moves)",
                self.first[0], self.last, self.count
            )?;
        } else {
            writeln!(out, "{lead}{}", self.first.join("  "))?;
        }
        self.first.clear();
        self.count = 0;
        Ok(())
    }
}

/// Draws a game tree into `out`, a line at a time. Iterative: a stack of
/// (node, prefix, is-last-sibling, move number).
fn draw(doc: &Document, gi: usize, full: bool, out: &mut impl Write) -> std::io::Result<()> {
    let game = doc.game(gi).expect("in range");
    let root = game.root();
    let (size, _) = coords::board_size(&root);
    let mut indents = Indents::new();
    // (node, indent prefix, branch glyph, move number before it)
    let mut stack: Vec<(NodeId, u32, &'static str, u32)> = vec![(root.id(), 0, "", 0)];
    while let Some((start, prefix, glyph, mut number)) = stack.pop() {
        // Walk a sequence of single children, folding long plain runs.
        let mut n = start;
        let mut first = true;
        let mut folded = Fold::default();
        // The indent of the lines after the first.
        let cont = indents.continuation(prefix, glyph);
        loop {
            let node = doc.node(n);
            if node_move(doc, n, size).is_some() {
                number += 1;
            }
            if let Some(mn) = node.value("MN").and_then(|v| v.number()) {
                number = mn.max(0) as u32;
            }
            let line = describe(doc, n, size, number);
            let mut lead = String::new();
            if first {
                indents.write(prefix, &mut lead);
                lead.push_str(glyph);
            } else {
                indents.write(cont, &mut lead);
            }
            let kids: Vec<NodeId> = node.children().map(|c| c.id()).collect();
            let foldable = !full && line.plain && !first && kids.len() == 1;
            if foldable {
                folded.push(line.label);
            } else {
                if !folded.is_empty() {
                    folded.write(&lead, out)?;
                }
                writeln!(out, "{lead}{}", line.label)?;
            }
            first = false;
            match kids.len() {
                0 => break,
                1 => n = kids[0],
                _ => {
                    for (i, &k) in kids.iter().enumerate().rev() {
                        let g = if i + 1 == kids.len() {
                            "└─ "
                        } else {
                            "├─ "
                        };
                        stack.push((k, cont, g, number));
                    }
                    break;
                }
            }
        }
        if !folded.is_empty() {
            let mut lead = String::new();
            indents.write(cont, &mut lead);
            folded.write(&lead, out)?;
        }
    }
    Ok(())
}

/// The tree of game `gi` into `out`, after the `game N` written before it:
/// the players, then the tree.
fn game_tree(
    doc: &sgf_core::Document,
    gi: usize,
    full: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let root = doc.game(gi).expect("in range").root();
    if let (Some(b), Some(w)) = (root.text("PB"), root.text("PW")) {
        write!(out, " — {b} (B) vs {w} (W)")?;
    }
    writeln!(out)?;
    draw(doc, gi, full, out)
}

/// What the work makes of a part: its games' trees drawn (side by side
/// with the other parts), or a large part kept to be drawn into the output.
enum Made {
    Drawn(Vec<Vec<u8>>),
    Kept(Box<input::Loaded>),
}

/// Runs the command: one game's part, or the parts of a large collection
/// one after another.
pub fn run(args: &Args) -> Result<u8> {
    if let Some(g) = args.game {
        let at = input::load_game_numbered(&args.file, g, args.quiet)?;
        let mut out = input::create_output(None)?;
        // A failure is kept by the destination and returned by the commit.
        let _ = write!(out, "game {g}")
            .and_then(|()| game_tree(&at.loaded.parsed.document, at.index, args.full, &mut out));
        input::commit(out, None)?;
        return Ok(0);
    }
    let mut out = crate::parts::Staged::new(None)?;
    let mut n = 0usize;
    let status = input::show_each(&args.file, |src| {
        let before = n;
        crate::parts::read(
            src,
            &sgf_formats::parts::PartOptions::default().with_verify_first(true),
            args.quiet,
            |_| {},
            |piece, loaded| {
                if piece.range.len() > crate::parts::IN_PLACE_BYTES {
                    return Made::Kept(Box::new(loaded));
                }
                let doc = &loaded.parsed.document;
                Made::Drawn(
                    (0..doc.game_count())
                        .map(|gi| {
                            let mut drawn = Vec::new();
                            let _ = game_tree(doc, gi, args.full, &mut drawn);
                            drawn
                        })
                        .collect(),
                )
            },
            |step| {
                match step {
                    Step::Part(piece, made) => {
                        let mut w = out.writer(&piece);
                        // A member's games under its name.
                        if n == before && src.in_archive && piece.games > 0 {
                            writeln!(w, "{}:", src.name)?;
                        }
                        match made {
                            Made::Kept(loaded) => {
                                let doc = &loaded.parsed.document;
                                for gi in 0..doc.game_count() {
                                    n += 1;
                                    // Numbered in its own file.
                                    write!(w, "game {}", n - before)?;
                                    game_tree(doc, gi, args.full, &mut w)?;
                                }
                            }
                            Made::Drawn(trees) => {
                                for t in trees {
                                    n += 1;
                                    write!(w, "game {}", n - before)?;
                                    w.write_all(&t)?;
                                }
                            }
                        }
                    }
                    Step::Restart => {
                        n = before;
                        out.restart();
                    }
                }
                Ok(())
            },
        )?;
        Ok(())
    })?;
    out.commit()?;
    Ok(status)
}
