//! `qipu dataset`: training data for Go programs (see the `sgf-dataset` crate).

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::{Args as ClapArgs, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use sgf_dataset::{Ending, Features, Format, Illegal, Options, Selection, Symmetry};
use sgf_go::filter::Range;
use sgf_go::values::Rank;

/// Shard formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// NumPy `.npz`, bit-packed planes (read with `numpy.load`).
    Npz,
    /// Leela Zero's gzip text chunks (19×19, 8 moves of history).
    Leela,
}

/// What to do with a game holding a move that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IllegalArg {
    /// Leave the game out.
    Drop,
    /// Keep the moves before it.
    Cut,
}

/// Symmetries written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// As played.
    None,
    /// One of the 8 per position, from the seed.
    Random,
    /// All 8 per position.
    All,
}

/// Turn game records into training data: shards of positions (planes,
/// next move, result), split into train and validation by game.
///
/// Reads files, directories and archives (zip, tar, tar.gz, 7z); keeps the
/// games the selection asks for (each other game is counted under the
/// reason it was left out); writes `train-NNNNN.npz` (or `.gz` chunks for
/// Leela Zero), `val-NNNNN…` when `--val-fraction` is set, `games.jsonl`
/// (one line per kept game) and `dataset.json` (planes, options, summary)
/// into DIR. The planes and arrays are described in README.md.
///
/// Exit status: 0 the dataset was written; 2 no input could be read as a
/// game record (nothing is written), a path does not exist or holds no
/// record file, the output cannot be written, DIR already holds a dataset
/// (without `--overwrite`), or bad usage. Inputs that cannot be read among
/// others that can are counted in the summary (`inputs_failed`) and named
/// on standard error.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files, directories and archives.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The output directory (made when missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Shard format.
    #[arg(long, value_enum, default_value_t = FormatArg::Npz)]
    pub format: FormatArg,
    /// Replace a dataset already in DIR (its files are removed first).
    #[arg(long)]
    pub overwrite: bool,
    /// Instead of a dataset, cut the inputs (a solid archive, big
    /// collections) into SGF files of N games each, `games-NNNNN.sgf`, that
    /// workers then read on their own; every game is written, in canonical
    /// form. Exit status 2 when an input could not be read or written.
    #[arg(long, value_name = "N")]
    pub repack: Option<usize>,

    /// Board size (square boards).
    #[arg(long, default_value_t = 19, help_heading = "Selection")]
    pub size: u8,
    /// Handicap stones: N, A..B, A.. or ..B.
    #[arg(long, value_parser = Range::parse_count, help_heading = "Selection")]
    pub handicap: Option<Range>,
    /// Komi: A..B (6.5, 5..8, ..0.5).
    #[arg(long, allow_hyphen_values = true, value_parser = Range::parse, help_heading = "Selection")]
    pub komi: Option<Range>,
    /// Rules that `RU` must name (japanese, chinese…; repeat or comma-separate).
    #[arg(long, value_delimiter = ',', help_heading = "Selection")]
    pub rules: Vec<String>,
    /// Games on or after this date (YYYY, YYYY-MM, YYYY-MM-DD).
    #[arg(long, help_heading = "Selection")]
    pub date_from: Option<String>,
    /// Games on or before this date.
    #[arg(long, help_heading = "Selection")]
    pub date_to: Option<String>,
    /// Both players at least this rank (5k, 1d, 3p, 五段…).
    #[arg(long, value_parser = rank, help_heading = "Selection")]
    pub min_rank: Option<Rank>,
    /// Both players at most this rank.
    #[arg(long, value_parser = rank, help_heading = "Selection")]
    pub max_rank: Option<Rank>,
    /// At least this many moves.
    #[arg(long, default_value_t = 1, help_heading = "Selection")]
    pub min_moves: usize,
    /// How the game ended: resign, points, unspecified, time, forfeit, draw, unknown (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', value_parser = Ending::parse, help_heading = "Selection")]
    pub ending: Vec<Ending>,
    /// A player's name (either colour) must hold this (repeat for any of several).
    #[arg(long, help_heading = "Selection")]
    pub player: Vec<String>,
    /// A game with a move that cannot be played: dropped, or cut before it.
    #[arg(long, value_enum, default_value_t = IllegalArg::Drop, help_heading = "Selection")]
    pub illegal: IllegalArg,
    /// Keep duplicates (by default a game that is the same as one kept before, as `qipu db dups` finds them, is left out).
    #[arg(long, help_heading = "Selection")]
    pub keep_duplicates: bool,
    /// Leave out games without a winner (always so with --format leela).
    #[arg(long, help_heading = "Selection")]
    pub require_winner: bool,

    /// Past positions in the stone planes.
    #[arg(long, default_value_t = 8, help_heading = "Features")]
    pub history: usize,
    /// Four planes of liberties (1, 2, 3, 4 or more).
    #[arg(long, help_heading = "Features")]
    pub liberties: bool,
    /// A plane of the legal moves.
    #[arg(long, help_heading = "Features")]
    pub legal: bool,
    /// A plane of the ko point.
    #[arg(long, help_heading = "Features")]
    pub ko: bool,
    /// Planes of the last K moves.
    #[arg(long, default_value_t = 0, value_name = "K", help_heading = "Features")]
    pub last_moves: usize,
    /// Symmetries: none, one random per position, or all 8.
    #[arg(long, value_enum, default_value_t = SymmetryArg::None, help_heading = "Features")]
    pub symmetry: SymmetryArg,

    /// Positions per shard.
    #[arg(long, default_value_t = 16384, help_heading = "Output")]
    pub shard_size: usize,
    /// Share of games in the validation split (0 to 1).
    #[arg(long, default_value_t = 0.0, help_heading = "Output")]
    pub val_fraction: f64,
    /// Positions held to shuffle (0: game order).
    #[arg(long, default_value_t = 32768, help_heading = "Output")]
    pub shuffle_buffer: usize,
    /// Seed of the shuffle and the random symmetries.
    #[arg(long, default_value_t = 0, help_heading = "Output")]
    pub seed: u64,
    /// Print the summary as one JSON object (the last line of standard output).
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

fn rank(s: &str) -> Result<Rank, String> {
    Rank::implied(s).ok_or_else(|| format!("`{s}` is not a rank (5k, 1d, 3p, 五段…)"))
}

/// The library's options from the arguments, as given: what is left to
/// the format (a winner for Leela Zero's chunks) is filled in, and the
/// options checked against each other, by [`Options::complete`].
pub fn options(a: &Args) -> Options {
    let format = match a.format {
        FormatArg::Npz => Format::Npz,
        FormatArg::Leela => Format::Leela,
    };
    Options {
        selection: Selection {
            size: a.size,
            handicap: a.handicap,
            komi: a.komi,
            rules: a.rules.clone(),
            date_from: a.date_from.clone(),
            date_to: a.date_to.clone(),
            min_rank: a.min_rank,
            max_rank: a.max_rank,
            min_moves: a.min_moves,
            endings: a.ending.clone(),
            players: a.player.clone(),
            illegal: match a.illegal {
                IllegalArg::Drop => Illegal::Drop,
                IllegalArg::Cut => Illegal::Cut,
            },
            dedup: !a.keep_duplicates,
            // Without the flag, the format decides (Options::complete).
            require_winner: a.require_winner.then_some(true),
        },
        features: Features {
            history: a.history,
            liberties: a.liberties,
            legal: a.legal,
            ko: a.ko,
            last_moves: a.last_moves,
        },
        symmetry: match a.symmetry {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Random => Symmetry::Random,
            SymmetryArg::All => Symmetry::All,
        },
        seed: a.seed,
        format,
        shard_size: a.shard_size,
        val_fraction: a.val_fraction,
        shuffle_buffer: a.shuffle_buffer,
        out_dir: a.output.clone(),
        overwrite: a.overwrite,
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<u8> {
    if let Some(n) = a.repack {
        let s = sgf_dataset::repack(&a.paths, &a.output, n).map_err(|e| anyhow!("{e}"))?;
        for f in &s.failed {
            eprintln!("qipu: {f}");
        }
        if a.json {
            println!("{}", serde_json::to_string(&s)?);
        } else if !a.quiet || s.inputs_failed > 0 {
            eprintln!(
                "{} game(s) from {} input(s) in {} file(s) in {}{}",
                s.games,
                s.inputs - s.inputs_failed,
                s.files.len(),
                a.output.display(),
                if s.inputs_failed > 0 {
                    format!("; {} input(s) could not be repacked", s.inputs_failed)
                } else {
                    String::new()
                }
            );
        }
        return Ok(if s.inputs_failed > 0 { 2 } else { 0 });
    }
    let opts = options(a).complete().map_err(|e| anyhow!("{e}"))?;
    let pb = if a.quiet {
        ProgressBar::hidden()
    } else {
        let pb = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {msg}",
        ) {
            pb.set_style(style);
        }
        pb
    };
    let start = std::time::Instant::now();
    let built = sgf_dataset::build(&a.paths, &opts, &|p| {
        pb.set_length(p.inputs_total);
        pb.set_position(p.inputs_done);
        let s = start.elapsed().as_secs_f64().max(1e-3);
        pb.set_message(format!(
            "{} games ({:.0}/s), {} positions ({:.0}/s)",
            p.games_read,
            p.games_read as f64 / s,
            p.positions,
            p.positions as f64 / s
        ));
        true
    });
    pb.finish_and_clear();
    let summary = match built {
        Ok(s) => s,
        // Which inputs failed, one line each, then that nothing was written.
        Err(sgf_dataset::Error::Unread(why)) => {
            for w in &why {
                eprintln!("qipu: {w}");
            }
            anyhow::bail!(
                "no input could be read as a game record; nothing was written to {}",
                a.output.display()
            );
        }
        Err(e) => return Err(anyhow!("{e}")),
    };
    if a.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        let dropped: Vec<String> = summary
            .dropped
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        println!(
            "{} game(s) read, {} kept ({} cut at an illegal move), {} position(s): {} train, {} validation, in {:.1} s ({:.0} positions/s)",
            summary.games_read,
            summary.games_kept,
            summary.games_cut,
            summary.positions,
            summary.train_positions,
            summary.val_positions,
            summary.seconds,
            summary.positions_per_second
        );
        if !dropped.is_empty() {
            println!("left out: {}", dropped.join(", "));
        }
        println!("written to {}", a.output.display());
    }
    for f in &summary.failed {
        eprintln!("qipu: {f}");
    }
    if summary.inputs_failed > 0 {
        eprintln!(
            "qipu: {} input(s) could not be read or hold no game record",
            summary.inputs_failed
        );
    }
    Ok(0)
}
