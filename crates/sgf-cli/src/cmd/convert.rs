//! `qipu convert`: any readable format to canonical FF[4] SGF.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use sgf_core::write::GAME_SEPARATOR;
use sgf_core::{WriteOptions, game_to_canonical_bytes};
use sgf_formats::parts::{PartOptions, Piece, Step};

use crate::input;
use crate::parts::{Canonical, Staged};

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
    /// Input files (`-` for standard input; a zip, tar, tar.gz or 7z
    /// archive: each of its record files, an input of its own;
    /// `ARCHIVE!MEMBER`: one of them).
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

/// What a part of an input makes: its format and its canonical bytes
/// (one piece per game with `--split`).
type Converted = (&'static str, Made);

/// How `convert` writes: the parts made on the workers and the records
/// written in place must agree.
fn write_options() -> WriteOptions {
    WriteOptions::default()
}

/// What a part becomes: with `--split`, each game's canonical form; else
/// the part's.
enum Made {
    Games(Vec<Vec<u8>>),
    All(Canonical),
}

impl Made {
    /// Writes the part's canonical form to `out`, after a separator
    /// unless it is the first thing written.
    fn write(&self, out: &mut Staged, piece: &Piece, first: &mut bool) {
        if piece.games == 0 {
            return;
        }
        match self {
            Made::All(c) => {
                if !std::mem::take(first) {
                    out.part(GAME_SEPARATOR, piece);
                }
                c.write(out, piece, &write_options());
            }
            Made::Games(games) => {
                for g in games {
                    if !std::mem::take(first) {
                        out.part(GAME_SEPARATOR, piece);
                    }
                    out.part(g, piece);
                }
            }
        }
    }
}

/// Reads an input a part at a time (see [`crate::parts::read`]), in
/// canonical form, and hands each part's output to `join`.
fn convert_parts(
    src: &input::Source,
    opts: &PartOptions,
    args: &Args,
    join: impl FnMut(&Piece, Converted) -> Result<()>,
) -> Result<usize> {
    let wo = write_options();
    let mut join = join;
    let file = src.name.as_str();
    crate::parts::read(
        src,
        opts,
        args.quiet,
        input::normalize,
        |piece, loaded| {
            let doc = &loaded.parsed.document;
            // What cannot be written without loss is not written (a file
            // without a game tree is refused by the reading).
            if doc.game_count() > 0 {
                sgf_formats::repair::writable(doc).map_err(|e| e.in_file(piece.first_game))?;
            }
            let out = if args.split {
                Made::Games(
                    (0..doc.game_count())
                        .map(|gi| game_to_canonical_bytes(doc, gi, &wo))
                        .collect(),
                )
            } else {
                Made::All(Canonical::of(piece, loaded.parsed.document, &wo))
            };
            Ok::<_, sgf_formats::repair::Refusal>((loaded.format, out))
        },
        |step| match step {
            // Read after a check that the cut holds: no restart comes.
            Step::Restart => Ok(()),
            Step::Part(piece, Ok(c)) => join(&piece, c),
            Step::Part(_, Err(e)) => Err(anyhow::Error::new(e).context(file.to_string())),
        },
    )
}

/// Runs the command: each input is read, normalised and written a part
/// at a time (a large collection never whole in memory).
pub fn run(args: &Args) -> Result<u8> {
    let mut read = sgf_formats::ReadOptions::default();
    read.keep_email = args.keep_email;
    // Outputs are written as they come: the cut of a collection is
    // checked first, so that no part written has to be taken back.
    let opts = PartOptions::default()
        .with_read(read)
        .with_format(args.from.as_deref())
        .with_verify_first(true);
    // A folder made for the outputs is taken away again when nothing
    // could be converted into it.
    let made_dir = args
        .dir
        .as_deref()
        .filter(|d| std::fs::symlink_metadata(d).is_err());
    if let Some(d) = &args.dir {
        std::fs::create_dir_all(d).with_context(|| format!("cannot create {d}"))?;
    }
    let mut status = 0;
    // Several inputs without -d: one collection.
    let mut collection = match &args.dir {
        None => Some(Staged::new(args.output.as_deref())?),
        Some(_) => None,
    };
    let mut wrote = false;
    let mut used = HashSet::new();
    for file in &args.files {
        // An archive's record files are inputs of their own.
        let mut refused = false;
        let r = input::each_record(file, |src| {
            let r =
                src.and_then(|src| convert_one(&src, &opts, args, collection.as_mut(), &mut used));
            match r {
                Ok(any) => wrote |= any,
                Err(e) => {
                    eprintln!("qipu: {e:#}");
                    status = 2;
                    // A collection holding part of an input it refused is
                    // not written at all: the games before the refused one
                    // would stand for the whole input.
                    if collection.is_some()
                        && e.downcast_ref::<sgf_formats::repair::Refusal>().is_some()
                    {
                        refused = true;
                        anyhow::bail!("refused");
                    }
                }
            }
            Ok(())
        });
        if refused {
            return Ok(status);
        }
        if let Err(e) = r {
            eprintln!("qipu: {e:#}");
            status = 2;
        }
    }
    if let Some(c) = collection
        && wrote
    {
        c.commit()?;
    }
    if let Some(d) = made_dir
        && !wrote
    {
        // Only an empty folder is removed.
        let _ = std::fs::remove_dir(d);
    }
    Ok(status)
}

/// Converts one input (into `collection`, or into files of `-d`); whether
/// anything was written.
fn convert_one(
    src: &input::Source,
    opts: &PartOptions,
    args: &Args,
    collection: Option<&mut Staged>,
    used: &mut HashSet<PathBuf>,
) -> Result<bool> {
    let file = src.name.as_str();
    // Output files are named after the file read (a member's own name).
    let stem_of = src.hint().and_then(Path::to_str).unwrap_or("-");
    let mut format = "SGF";
    if let Some(out) = collection {
        let mut first = true;
        convert_parts(src, opts, args, |piece, (_, made)| {
            made.write(out, piece, &mut first);
            Ok(())
        })?;
        return Ok(true);
    }
    let d = args.dir.as_deref().unwrap_or(".");
    if !args.split {
        let p = out_path(Path::new(d), stem_of, None, used);
        let mut out = Staged::new(Some(&p.to_string_lossy()))?;
        let mut first = true;
        convert_parts(src, opts, args, |piece, (f, made)| {
            format = f;
            made.write(&mut out, piece, &mut first);
            Ok(())
        })?;
        out.commit()?;
        if !args.quiet {
            eprintln!("{file}: {format} → {}", p.display());
        }
        return Ok(true);
    }
    // One file per game, numbered with as many digits as the count needs:
    // the games are counted first.
    let mut n = 0;
    sgf_formats::parts::map_parts(
        &src.bytes,
        src.hint(),
        opts,
        |_, _| (),
        |step| {
            if let Step::Part(p, ()) = step {
                n += p.games;
            }
            std::ops::ControlFlow::Continue(())
        },
    )
    .map_err(|e| input::read_error(file, e))?;
    convert_parts(src, opts, args, |piece, (f, games)| {
        format = f;
        let Made::Games(games) = games else {
            anyhow::bail!("{file}: --split made no output per game");
        };
        for (i, g) in games.iter().enumerate() {
            let p = out_path(Path::new(d), stem_of, Some((piece.first_game + i, n)), used);
            input::write_file(&p, g)?;
        }
        Ok(())
    })?;
    if !args.quiet {
        eprintln!("{file}: {format} → {n} file(s) in {d}");
    }
    Ok(true)
}
