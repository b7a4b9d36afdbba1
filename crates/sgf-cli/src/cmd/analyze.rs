//! `qipu analyze`: an engine's evaluation of every position of the main
//! line, written into the record (comments, Sabaki's `SBKV`, Lizzie's `LZ`).

use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use sgf_gtp::EngineSpec;
use sgf_gtp::review::{self, Analyzer};

use crate::input;

/// Analyse a game with Leela Zero or KataGo and write each position's
/// evaluation (win rate, score lead, best move and its variation) into the record.
///
/// Exit status: 0 success; 2 the input could not be read or holds no SGF
/// game tree, the output could not be written (a file written is then as
/// it was), or bad usage; 3 the engine failed (it could not be started, or
/// it quit or answered an error).
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input; `ARCHIVE!MEMBER` for a record
    /// file inside a zip, tar, tar.gz or 7z archive, or the archive itself
    /// when it holds one).
    pub file: String,
    /// The engine: a name from engines.toml, or a command line such as
    /// "leelaz --gtp -w weights.gz" or "katago analysis -config a.cfg -model m.bin.gz".
    #[arg(long)]
    pub engine: String,
    /// Visits per position.
    #[arg(long, default_value_t = 100)]
    pub visits: u64,
    /// Seconds per position at most (GTP engines), whatever the visits.
    #[arg(long, default_value_t = 30.0)]
    pub max_time: f64,
    /// Game of the collection (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Output file (`-` for standard output).
    #[arg(short, long)]
    pub output: String,
    /// No progress bar and no diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    if !(args.max_time.is_finite() && args.max_time > 0.0) {
        bail!("--max-time must be a positive number of seconds");
    }
    // Only the part of a collection that holds the game is read; the rest
    // of the file is written back as it is.
    let at = match input::load_game(&args.file, args.game.saturating_sub(1), args.quiet)? {
        Ok(at) => at,
        Err(n) => bail!("the file has {n} game(s); there is no game {}", args.game),
    };
    let mut doc = at.loaded.parsed.document;
    let game = at.index;
    let Some(g) = doc.game(game) else {
        bail!("no game {}", args.game);
    };
    let size = sgf_go::board_size(&g.root()).0;
    let spec = EngineSpec::resolve(&args.engine)?;
    let pb = if args.quiet {
        ProgressBar::hidden()
    } else {
        let pb = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} positions (eta {eta})",
        ) {
            pb.set_style(style);
        }
        pb
    };
    let evaluated = Analyzer::start(&spec).and_then(|mut a| {
        review::analyze_main_line(
            &mut a,
            &doc,
            game,
            args.visits,
            Duration::from_secs_f64(args.max_time),
            |done, total| {
                pb.set_length(total as u64);
                pb.set_position(done as u64);
            },
        )
    });
    pb.finish_and_clear();
    let evaluated = match evaluated {
        Ok(e) => e,
        Err(e) => {
            eprintln!("qipu: {e}");
            return Ok(3);
        }
    };
    review::annotate(&mut doc, &evaluated, &spec.name, size)?;
    let range = at.piece.range;
    let out = [
        &at.bytes[..range.start],
        &sgf_core::to_lossless_bytes(&doc),
        &at.bytes[range.end..],
    ]
    .concat();
    input::write_output(Some(&args.output), &out)?;
    if !args.quiet && args.output != "-" {
        eprintln!(
            "{} positions analysed by {} → {}",
            evaluated.len(),
            spec.name,
            args.output
        );
    }
    Ok(0)
}
