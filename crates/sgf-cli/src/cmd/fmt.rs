//! `qipu fmt`: the canonical FF[4] UTF-8 form.

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use sgf_core::{PointLists, WriteOptions, to_canonical_bytes};

use crate::input;

/// Write the canonical FF[4] UTF-8 form of a record.
///
/// The SGF dialects of Sina / Nihon Ki-in, Fox, Go Assistant and OGS are
/// normalised (the wording replaced is kept in `GC`); other formats
/// (GIB, NGF, UGF/UGI, WGS) are converted.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
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
    let mut loaded = input::load(&args.file)?.require_games()?;
    if !args.no_normalize {
        input::normalize(&mut loaded);
    }
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    // What cannot be written without loss is not written.
    sgf_formats::repair::writable(&loaded.parsed.document).with_context(|| args.file.clone())?;
    let mut opts = WriteOptions::default();
    opts.line_width = args.width;
    opts.point_lists = if args.compress {
        PointLists::Compressed
    } else if args.expand {
        PointLists::Expanded
    } else {
        PointLists::AsWritten
    };
    let out = to_canonical_bytes(&loaded.parsed.document, &opts);
    input::write_output(args.output.as_deref(), &out)?;
    Ok(0)
}
