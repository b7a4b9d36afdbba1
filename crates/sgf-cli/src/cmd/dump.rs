//! `qipu dump`: the file as it is, as JSON or an indented listing.

use std::fmt::Write as _;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::input;

/// Show the game trees of a file as they are, without normalisation.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// JSON: `{"games": [{"nodes": [{"parent": null, "props": [["FF", ["4"]], …]}]}]}`.
    #[arg(long)]
    pub json: bool,
    /// Output file (standard output by default).
    #[arg(short, long)]
    pub output: Option<String>,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let loaded = input::load(&args.file)?;
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    let doc = &loaded.parsed.document;
    let out = if args.json {
        sgf_core::json::dump_string(doc)
    } else {
        let mut s = String::new();
        for game in doc.games() {
            let _ = writeln!(s, "game {} ({})", game.index(), game.charset());
            for (i, node) in game.nodes().enumerate() {
                let depth = node.depth();
                let _ = write!(s, "{:>5} {}", i, "  ".repeat(depth.min(40)));
                for p in node.props() {
                    let vals: Vec<String> = p.values().map(|v| format!("[{}]", v.decoded())).collect();
                    let _ = write!(s, "{}{}", p.ident(), vals.concat().replace('\n', "\\n"));
                }
                s.push('\n');
            }
        }
        s
    };
    input::write_output(args.output.as_deref(), out.as_bytes())?;
    Ok(0)
}
