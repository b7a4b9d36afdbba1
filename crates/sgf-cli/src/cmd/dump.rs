//! `qipu dump`: the file as it is, as JSON or an indented listing.

use anyhow::Result;
use clap::Args as ClapArgs;
use sgf_formats::parts::{PartOptions, Step};

use crate::input;

/// Show the game trees of a file as they are, without normalisation.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or holds no SGF game tree, the output could not
/// be written (a file written is then as it was), or bad usage.
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

/// Runs the command: a large collection is read and written a part at a
/// time, each part's document written node by node (see `sgf_core::dump`).
pub fn run(args: &Args) -> Result<u8> {
    let mut out = crate::parts::Staged::new(args.output.as_deref())?;
    let mut first = true;
    if args.json {
        out.write_fixed(b"{\"games\":[");
    }
    let bytes = input::read_bytes(&args.file)?;
    crate::parts::read(
        &args.file,
        &bytes,
        &PartOptions::default().with_verify_first(!out.can_restart()),
        args.quiet,
        |_| {},
        |_, loaded| loaded.parsed.document,
        |step| {
            match step {
                Step::Part(piece, doc) => {
                    let mut w = out.writer(&piece);
                    if args.json {
                        sgf_core::dump::write_json_games(&doc, &mut first, &mut w)?;
                    } else {
                        sgf_core::dump::write_listing(&doc, piece.first_game, &mut w)?;
                    }
                }
                Step::Restart => {
                    first = true;
                    out.restart();
                }
            }
            Ok(())
        },
    )?;
    if args.json {
        out.write_fixed(b"]}\n");
    }
    out.commit()?;
    Ok(0)
}
