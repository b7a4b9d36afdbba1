//! `qipu dump`: the file as it is, as JSON or an indented listing.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;
use sgf_formats::parts::{PartOptions, Step};

use crate::input;

/// Show the game trees of a file as they are, without normalisation.
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
    /// JSON: `{"games": [{"nodes": [{"parent": null, "props": [["FF", ["4"]], …]}]}]}`; a
    /// game of an archive's record file also has `"file": "ARCHIVE!MEMBER"`.
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
/// time, each part's document written node by node (see `sgf_core::dump`);
/// an archive's record files one after another.
pub fn run(args: &Args) -> Result<u8> {
    let mut out = crate::parts::Staged::new(args.output.as_deref())?;
    let mut first = true;
    if args.json {
        out.write_fixed(b"{\"games\":[");
    }
    let mut games = 0usize;
    let status = input::show_each(&args.file, |src| {
        // A member's games say which member they come from.
        let file = src.in_archive.then(|| src.name.clone());
        let before = games;
        // What was written for the records before cannot be taken back.
        let verify = !out.can_restart() || before > 0 || src.in_archive;
        crate::parts::read(
            src,
            &PartOptions::default().with_verify_first(verify),
            args.quiet,
            |_| {},
            |_, loaded| loaded.parsed.document,
            |step| {
                match step {
                    Step::Part(piece, doc) => {
                        let mut w = out.writer(&piece);
                        if args.json {
                            sgf_core::dump::write_json_games_of(
                                &doc,
                                file.as_deref(),
                                &mut first,
                                &mut w,
                            )?;
                        } else {
                            if games == before
                                && let Some(f) = &file
                            {
                                writeln!(w, "{f}:")?;
                            }
                            // Numbered in its own file.
                            sgf_core::dump::write_listing(&doc, games - before, &mut w)?;
                        }
                        games += piece.games;
                    }
                    Step::Restart => {
                        first = true;
                        games = before;
                        out.restart();
                    }
                }
                Ok(())
            },
        )?;
        Ok(())
    })?;
    if args.json {
        out.write_fixed(b"]}\n");
    }
    out.commit()?;
    Ok(status)
}
