//! `qipu dump`: the file as it is, as JSON or an indented listing.

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
    let loaded = input::load(&args.file)?.require_games()?;
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    let doc = &loaded.parsed.document;
    let out = if args.json {
        sgf_core::dump::dump_string(doc)
    } else {
        sgf_core::dump::listing(doc)
    };
    input::write_output(args.output.as_deref(), out.as_bytes())?;
    Ok(0)
}
