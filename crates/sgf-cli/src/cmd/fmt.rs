//! `qipu fmt`: the canonical FF[4] UTF-8 form.

use anyhow::Result;
use clap::Args as ClapArgs;
use sgf_core::write::GAME_SEPARATOR;
use sgf_core::{PointLists, WriteOptions};
use sgf_formats::parts::Step;

use crate::input;
use crate::parts::Canonical;

/// Write the canonical FF[4] UTF-8 form of a record.
///
/// The SGF dialects of Sina / Nihon Ki-in, Fox, Go Assistant and OGS are
/// normalised (the wording replaced is kept in `GC`); other formats
/// (GIB, NGF, UGF/UGI, WGS) are converted.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or is not a game record (an archive of several
/// records says how to name one), the output could not be written (a file
/// written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input; `ARCHIVE!MEMBER` for a record
    /// file inside a zip, tar, tar.gz or 7z archive, or the archive itself
    /// when it holds one).
    pub file: String,
    /// Output file (standard output by default).
    #[arg(short, long)]
    pub output: Option<String>,
    /// Write point lists compressed into rectangles (`AB[aa:cc]`).
    #[arg(long, conflicts_with = "expand")]
    pub compress: bool,
    /// Write point lists one point per value.
    #[arg(long)]
    pub expand: bool,
    /// Wrap lines between values beyond this width.
    #[arg(long, default_value_t = 79)]
    pub width: usize,
    /// Do not normalise SGF dialects (write them as they are, in canonical form).
    #[arg(long)]
    pub no_normalize: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let mut opts = WriteOptions::default();
    opts.line_width = args.width;
    opts.point_lists = if args.compress {
        PointLists::Compressed
    } else if args.expand {
        PointLists::Expanded
    } else {
        PointLists::AsWritten
    };
    // Checked before anything is read; a large collection is read, put in
    // canonical form and written a part at a time.
    let mut out = crate::parts::Staged::new(args.output.as_deref())?;
    let mut first = true;
    let src = input::read_one(&args.file)?;
    crate::parts::read(
        &src,
        &sgf_formats::parts::PartOptions::default().with_verify_first(!out.can_restart()),
        args.quiet,
        |loaded| {
            if !args.no_normalize {
                input::normalize(loaded);
            }
        },
        |piece, loaded| {
            // What cannot be written without loss is not written (a file
            // without a game tree is refused by the reading).
            let doc = &loaded.parsed.document;
            if doc.game_count() > 0 {
                sgf_formats::repair::writable(doc)?;
            }
            let doc = loaded.parsed.document;
            Ok::<_, sgf_formats::repair::Refusal>(Canonical::of(piece, doc, &opts))
        },
        |step| {
            match step {
                Step::Part(piece, Err(e)) => {
                    anyhow::bail!("{}: {}", src.name, e.in_file(piece.first_game))
                }
                Step::Part(piece, Ok(made)) => {
                    if piece.games > 0 {
                        if !first {
                            out.part(GAME_SEPARATOR, &piece);
                        }
                        first = false;
                        made.write(&mut out, &piece, &opts);
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
    out.commit()?;
    Ok(0)
}
