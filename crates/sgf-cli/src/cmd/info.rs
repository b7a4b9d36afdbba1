//! `qipu info`: one block per game — size, moves, charset and game information.

use anyhow::Result;
use clap::Args as ClapArgs;
use serde_json::{Map, Value, json};
use sgf_formats::summary::GameSummary;

use std::io::Write;

use sgf_formats::parts::Step;

use crate::input;

/// Show the game information of every game in a record.
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
    /// JSON: `{"games": [{"size": [cols, rows], "moves": N, "charset": "…", "info": {"PB": "…", …}}]}`;
    /// a game of an archive's record file also has `"file": "ARCHIVE!MEMBER"`.
    #[arg(long)]
    pub json: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The `typed` object of `info --json`: the game information as read.
fn typed(s: &GameSummary) -> Value {
    let mut m = Map::new();
    if let Some(r) = &s.outcome {
        let mut o = Map::new();
        match r.winner() {
            Some(winner) => {
                o.insert("winner".into(), json!(winner.as_str()));
                o.insert("by".into(), json!(r.kind()));
                if let Some(margin) = r.margin() {
                    o.insert("margin".into(), json!(margin));
                }
            }
            // `draw`, `void` or `unknown`.
            None => {
                o.insert(r.kind().into(), json!(true));
            }
        }
        m.insert("result".into(), Value::Object(o));
    }
    if let Some(d) = &s.dates {
        m.insert(
            "dates".into(),
            json!(d.iter().map(|x| x.to_string()).collect::<Vec<_>>()),
        );
    }
    if let Some(k) = s.komi {
        m.insert("komi".into(), json!(k));
    }
    if let Some(h) = s.handicap {
        m.insert("handicap".into(), json!(h));
    }
    if let Some(t) = s.time_limit {
        m.insert("time_limit".into(), json!(t));
    }
    Value::Object(m)
}

/// The game information as written, as `info` and `export` print it:
/// identifier → text, in file order.
pub fn info_map(s: &GameSummary) -> Map<String, Value> {
    s.info.iter().map(|(k, v)| (k.clone(), json!(v))).collect()
}

/// The facts of every game of a part, as `info` shows them: a pretty JSON
/// object per game (not yet indented in the array; with `"file"`, the
/// member it comes from, for a game of an archive), or text after `game N:`.
fn describe(loaded: &input::Loaded, json: bool, file: Option<&str>) -> Vec<String> {
    loaded
        .summaries_counted()
        .into_iter()
        .map(|(f, moves)| {
            if json {
                let mut v = json!({
                    "size": f.size,
                    "moves": moves,
                    "charset": f.charset,
                    "info": info_map(&f),
                    "nodes": f.nodes,
                    "typed": typed(&f),
                });
                if let Some(file) = file {
                    v["file"] = json!(file);
                }
                return serde_json::to_string_pretty(&v).unwrap_or_default();
            }
            let size = sgf_go::BoardSize {
                cols: f.size[0],
                rows: f.size[1],
            };
            let mut out = format!(
                " {} board, {} moves, {} nodes, {}\n",
                size, moves, f.nodes, f.charset
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

/// Runs the command: a large collection is read a part at a time, an
/// archive's record files one after another.
pub fn run(args: &Args) -> Result<u8> {
    let mut out = crate::parts::Staged::new(None)?;
    let mut n = 0usize;
    // As `serde_json::to_string_pretty` writes `{"games": [...]}`, one game
    // at a time: each game's lines indented by two levels.
    if args.json {
        out.write_fixed(b"{\n  \"games\": [");
    }
    let status = input::show_each(&args.file, |src| {
        // A member's games say which member they come from.
        let file = src.in_archive.then(|| src.name.clone());
        let first_of_file = n;
        crate::parts::read(
            src,
            &sgf_formats::parts::PartOptions::default().with_verify_first(true),
            args.quiet,
            |_| {},
            |_, loaded| describe(&loaded, args.json, file.as_deref()),
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
                                if n == first_of_file
                                    && let Some(f) = &file
                                {
                                    writeln!(w, "{f}:")?;
                                }
                                // Numbered in its own file, as `info` of it alone.
                                write!(w, "game {}:", n - first_of_file + 1)?;
                                w.write_all(g.as_bytes())?;
                            }
                            n += 1;
                        }
                    }
                    Step::Restart => {
                        n = first_of_file;
                        out.restart();
                    }
                }
                Ok(())
            },
        )?;
        Ok(())
    })?;
    if args.json {
        out.write_fixed(if n == 0 { b"]\n}\n" } else { b"\n  ]\n}\n" });
    }
    out.commit()?;
    Ok(status)
}
