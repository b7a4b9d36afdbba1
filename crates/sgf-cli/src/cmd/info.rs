//! `qipu info`: one block per game — size, moves, charset and game information.

use anyhow::Result;
use clap::Args as ClapArgs;
use serde_json::{Map, Value, json};
use sgf_core::{Document, PropKind};
use sgf_go::{GameInfo, coords};

use std::io::Write;

use sgf_formats::parts::Step;

use crate::input;

/// Show the game information of every game in a record.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or holds no SGF game tree, the output could not
/// be written (a file written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// JSON: `{"games": [{"size": [cols, rows], "moves": N, "charset": "…", "info": {"PB": "…", …}}]}`.
    #[arg(long)]
    pub json: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The facts of one game, as shown by `info`.
pub struct GameFacts {
    /// Board size.
    pub size: coords::BoardSize,
    /// Moves on the main line.
    pub moves: usize,
    /// Charset the game was read in.
    pub charset: &'static str,
    /// Game-info properties present, in order: identifier and text.
    pub info: Vec<(String, String)>,
    /// The number of nodes.
    pub nodes: usize,
}

/// Collects the facts of game `gi`.
pub fn facts(doc: &Document, gi: usize) -> GameFacts {
    let game = doc.game(gi).expect("in range");
    let (size, _) = coords::board_size(&game.root());
    let moves = sgf_go::main_line_move_count(doc, gi);
    let mut info = Vec::new();
    if let Some(node) = sgf_go::info::game_info_node(&game) {
        for p in node.props() {
            if p.info().is_some_and(|i| i.kind == PropKind::GameInfo)
                && !info.iter().any(|(k, _): &(String, String)| k == p.ident())
            {
                let text: Vec<String> = node
                    .values(p.ident())
                    .map(|v| v.text().into_owned())
                    .collect();
                info.push((p.ident().to_string(), text.join(", ")));
            }
        }
    }
    GameFacts {
        size,
        moves,
        charset: game.charset(),
        info,
        nodes: game.nodes().count(),
    }
}

fn typed(doc: &Document, gi: usize) -> Value {
    let gi_ = GameInfo::of(doc, gi);
    let mut m = Map::new();
    if let Some(r) = gi_.result.as_ref().and_then(|r| r.value.as_ref()) {
        let mut o = Map::new();
        match r {
            sgf_go::GameResult::Win { winner, by } => {
                o.insert("winner".into(), json!(winner.as_str()));
                o.insert("by".into(), json!(by.as_str()));
                if let Some(s) = by.margin() {
                    o.insert("margin".into(), json!(s));
                }
            }
            sgf_go::GameResult::Draw => {
                o.insert("draw".into(), json!(true));
            }
            sgf_go::GameResult::Void => {
                o.insert("void".into(), json!(true));
            }
            sgf_go::GameResult::Unknown => {
                o.insert("unknown".into(), json!(true));
            }
        }
        m.insert("result".into(), Value::Object(o));
    }
    if let Some(d) = gi_.dates.as_ref().and_then(|d| d.value.as_ref()) {
        m.insert(
            "dates".into(),
            json!(d.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
        );
    }
    if let Some(k) = gi_.komi.as_ref().and_then(|k| k.value) {
        m.insert("komi".into(), json!(k));
    }
    if let Some(h) = gi_.handicap.as_ref().and_then(|h| h.value) {
        m.insert("handicap".into(), json!(h));
    }
    if let Some(t) = gi_.time_limit.as_ref().and_then(|t| t.value) {
        m.insert("time_limit".into(), json!(t));
    }
    Value::Object(m)
}

/// The facts of every game of a part, as `info` shows them: a pretty JSON
/// object per game (not yet indented in the array), or text after `game N:`.
fn describe(loaded: &input::Loaded, json: bool) -> Vec<String> {
    let doc = &loaded.parsed.document;
    (0..doc.game_count())
        .map(|gi| {
            let mut f = facts(doc, gi);
            f.charset = loaded.game_charset(gi);
            if json {
                let mut info = Map::new();
                for (k, v) in &f.info {
                    info.insert(k.clone(), json!(v));
                }
                let v = json!({
                    "size": [f.size.cols, f.size.rows],
                    "moves": f.moves,
                    "charset": f.charset,
                    "info": info,
                    "nodes": f.nodes,
                    "typed": typed(doc, gi),
                });
                return serde_json::to_string_pretty(&v).unwrap_or_default();
            }
            let mut out = format!(
                " {} board, {} moves, {} nodes, {}\n",
                f.size, f.moves, f.nodes, f.charset
            );
            for (k, v) in &f.info {
                let name = sgf_core::props::info_of(k).map_or("", |i| i.name);
                out.push_str(&format!(
                    "  {k:<3} {name:<14} {}\n",
                    v.replace('\n', "\n                     ")
                ));
            }
            out
        })
        .collect()
}

/// Runs the command: a large collection is read a part at a time.
pub fn run(args: &Args) -> Result<u8> {
    let mut out = crate::parts::Staged::new(None)?;
    let mut n = 0usize;
    // As `serde_json::to_string_pretty` writes `{"games": [...]}`, one game
    // at a time: each game's lines indented by two levels.
    if args.json {
        out.write_fixed(b"{\n  \"games\": [");
    }
    let bytes = input::read_bytes(&args.file)?;
    crate::parts::read(
        &args.file,
        &bytes,
        &sgf_formats::parts::PartOptions::default().with_verify_first(true),
        args.quiet,
        |_| {},
        |_, loaded| describe(&loaded, args.json),
        |step| {
            match step {
                Step::Part(piece, games) => {
                    let mut w = out.writer(&piece);
                    for g in games {
                        if args.json {
                            w.write_all(if n == 0 { b"\n" } else { b",\n" })?;
                            for (i, line) in g.lines().enumerate() {
                                if i > 0 {
                                    w.write_all(b"\n")?;
                                }
                                w.write_all(b"    ")?;
                                w.write_all(line.as_bytes())?;
                            }
                        } else {
                            if n > 0 {
                                w.write_all(b"\n")?;
                            }
                            write!(w, "game {}:", n + 1)?;
                            w.write_all(g.as_bytes())?;
                        }
                        n += 1;
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
    if args.json {
        out.write_fixed(if n == 0 { b"]\n}\n" } else { b"\n  ]\n}\n" });
    }
    out.commit()?;
    Ok(0)
}
