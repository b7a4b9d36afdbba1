//! `qipu convert`: any readable format to canonical FF[4] SGF.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use sgf_core::{WriteOptions, game_to_canonical_bytes, to_canonical_bytes};

use crate::input;

/// Convert records to canonical FF[4] UTF-8 SGF.
///
/// Reads SGF (any FF version and charset, and the dialects of Sina / Nihon
/// Ki-in, Fox, Go Assistant and OGS, which are normalised), Tygem GIB,
/// WBaduk/Sina NGF, Pandanet UGF/UGI (review variations and comments
/// included) and QQ Go WGS. The format is sniffed from the content; the extension only
/// breaks ties. Several inputs without `-d` make one collection; with
/// `-d DIR --split`, every game of a collection gets a file of its own.
///
/// BDX, GOS and China Game Center `.go` files (which MultiGo reads) are not
/// supported: no description or sample of them is public; reading one says so.
///
/// Exit status: 0 when every input was converted, 2 when one could not be
/// read (the others are still converted) or on bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input files (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Output file for the collection of every input's games (standard output by default).
    #[arg(short, long, conflicts_with = "dir")]
    pub output: Option<String>,
    /// Output directory: one `NAME.sgf` per input (created when missing).
    #[arg(short, long)]
    pub dir: Option<String>,
    /// With `-d`: one file per game (`NAME-001.sgf`, `NAME-002.sgf`, …) instead of one per input.
    #[arg(long, requires = "dir")]
    pub split: bool,
    /// Read every input as this format (SGF, GIB, NGF, UGF, WGS) instead of sniffing it.
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<String>,
    /// Copy contact addresses into the SGF: e-mail addresses of UGF player fields, QQ numbers of WGS players (left out by default).
    #[arg(long)]
    pub keep_email: bool,
    /// Do not print diagnostics or the list of converted files.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `DIR/stem.sgf` (`DIR/stem-NNN.sgf` for game NNN of a split collection),
/// made unique among the files written by this run.
fn out_path(
    dir: &Path,
    input: &str,
    game: Option<(usize, usize)>,
    used: &mut HashSet<PathBuf>,
) -> PathBuf {
    let mut stem = if input == "-" {
        "stdin".to_string()
    } else {
        Path::new(input)
            .file_stem()
            .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned())
    };
    if let Some((i, n)) = game {
        let width = n.to_string().len().max(3);
        stem = format!("{stem}-{:0width$}", i + 1);
    }
    let mut p = dir.join(format!("{stem}.sgf"));
    let mut i = 2;
    while !used.insert(p.clone()) {
        p = dir.join(format!("{stem}-{i}.sgf"));
        i += 1;
    }
    p
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let mut opts = sgf_formats::ReadOptions::default();
    opts.keep_email = args.keep_email;
    if let Some(d) = &args.dir {
        std::fs::create_dir_all(d).with_context(|| format!("cannot create {d}"))?;
    }
    let mut status = 0;
    let mut collection = Vec::new();
    let mut used = HashSet::new();
    for file in &args.files {
        let mut loaded = match input::load_with(file, args.from.as_deref(), &opts)
            .and_then(input::Loaded::require_games)
        {
            Ok(l) => l,
            Err(e) => {
                eprintln!("qipu: {e:#}");
                status = 2;
                continue;
            }
        };
        input::normalize(&mut loaded);
        if !args.quiet {
            crate::print_diagnostics(&loaded);
        }
        // What cannot be written without loss is not written.
        if let Err(e) = sgf_formats::repair::writable(&loaded.parsed.document) {
            eprintln!("qipu: {file}: {e}");
            status = 2;
            continue;
        }
        let doc = &loaded.parsed.document;
        let wo = WriteOptions::default();
        match &args.dir {
            Some(d) if args.split => {
                let n = doc.game_count();
                for gi in 0..n {
                    let p = out_path(Path::new(d), file, Some((gi, n)), &mut used);
                    std::fs::write(&p, game_to_canonical_bytes(doc, gi, &wo))
                        .with_context(|| format!("cannot write {}", p.display()))?;
                }
                if !args.quiet {
                    eprintln!("{file}: {} → {n} file(s) in {d}", loaded.format);
                }
            }
            Some(d) => {
                let p = out_path(Path::new(d), file, None, &mut used);
                std::fs::write(&p, to_canonical_bytes(doc, &wo))
                    .with_context(|| format!("cannot write {}", p.display()))?;
                if !args.quiet {
                    eprintln!("{file}: {} → {}", loaded.format, p.display());
                }
            }
            None => collection.extend_from_slice(&to_canonical_bytes(doc, &wo)),
        }
    }
    if args.dir.is_none() && !collection.is_empty() {
        input::write_output(args.output.as_deref(), &collection)?;
    }
    Ok(status)
}
