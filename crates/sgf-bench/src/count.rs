//! `qipu-count-bench [--engine CMD [--variants]] [--marks] [--sample N] [--threads T] [-v] [KGS_DIR]`:
//! how often counting the end of a real game gives exactly the recorded
//! result, over the KGS games that ended by counting (`RE[B+n.5]`,
//! `RE[W+n.5]`) of `../shared/corpus/real/kgs` (or KGS_DIR).
//!
//! Build with `cargo run --release -p sgf-bench --bin qipu-count-bench`.
//! Without `--engine` the dead stones come from Qipu's own estimator; with
//! `--engine "gnugo --mode gtp"` from the engine's `final_status_list dead`,
//! counted by Qipu (as `qipu score --engine` does). The sample is every
//! k-th counted game, spread over all files, so runs are comparable.
//! `--variants` (with an engine) also reports how the dead stones alone,
//! and the engine's own `final_score`, would do; `-v` lists the games
//! where they disagree. `--marks` counts with the dead stones the players
//! agreed on (the record's `TB`/`TW`, games without them left out): how
//! Qipu's counting itself matches the server's.

mod kgs;

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use sgf_core::Document;
use sgf_go::score::{self, Settings};
use sgf_go::{GameInfo, GameResult, WinBy, main_line_end};
use sgf_gtp::{Engine, EngineSpec};

/// Counting at the end of finished games against their recorded results.
#[derive(clap::Parser)]
#[command(name = "qipu-count-bench")]
struct Args {
    /// A GTP engine to count with as well (e.g. "gnugo --mode gtp").
    #[arg(long)]
    engine: Option<String>,
    /// Games to sample.
    #[arg(long, default_value_t = 200)]
    sample: usize,
    /// Games counted at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Print each game.
    #[arg(short, long)]
    verbose: bool,
    /// With an engine: also how other ways of using it would do.
    #[arg(long)]
    variants: bool,
    /// Dead stones from the record's TB/TW.
    #[arg(long)]
    marks: bool,
    /// The folder of KGS records.
    #[arg(default_value = "../shared/corpus/real/kgs")]
    dir: PathBuf,
}

fn args() -> Args {
    <Args as clap::Parser>::parse()
}

/// The recorded margin of a game that ended by counting with a half-point result.
fn counted(info: &GameInfo) -> Option<(sgf_core::Color, f64)> {
    match info.result.as_ref()?.value.as_ref()? {
        GameResult::Win {
            winner,
            by: WinBy::Score(m),
        } if m.fract() == 0.5 => Some((*winner, *m)),
        _ => None,
    }
}

fn main() {
    let a = args();
    let docs = kgs::load(&a.dir);
    let mut games: Vec<(usize, usize)> = Vec::new();
    for (di, (_, doc)) in docs.iter().enumerate() {
        for gi in 0..doc.game_count() {
            if counted(&GameInfo::of(doc, gi)).is_some() && (!a.marks || marks(doc, gi).is_some()) {
                games.push((di, gi));
            }
        }
    }
    let total = games.len();
    let step = (total / a.sample.max(1)).max(1);
    let sample: Vec<(usize, usize)> = games.into_iter().step_by(step).take(a.sample).collect();
    println!(
        "{} games ended by counting in {}; sample of {} (every {step}th)",
        total,
        a.dir.display(),
        sample.len()
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let variant_hits: Mutex<Vec<[bool; VARIANTS.len()]>> = Mutex::new(Vec::new());
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..a.threads.max(1) {
            s.spawn(|| {
                let mut engine = a.engine.as_ref().map(|cmd| {
                    let spec = EngineSpec::from_command_line(cmd).expect("engine command");
                    Engine::start(&spec).expect("engine starts")
                });
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(di, gi)) = sample.get(k) else {
                        break;
                    };
                    let (file, doc) = &docs[di];
                    let info = GameInfo::of(doc, gi);
                    let (winner, margin) = counted(&info).expect("counted game");
                    let settings = Settings::of_game(&info);
                    let end = main_line_end(doc, gi);
                    let want = GameResult::Win {
                        winner,
                        by: WinBy::Score(margin),
                    };
                    let (dead, dame) = match engine.as_mut() {
                        Some(e) => match e.replay(doc, gi, end.node()).and_then(|_| {
                            let d = (
                                e.final_status_dead(end.size())?,
                                e.final_status_dame(end.size(), end.position())?,
                            );
                            if a.variants {
                                let v = variants(e, &end, &settings, &d.0, &want)?;
                                if a.verbose && v.iter().any(|&x| x != v[0]) {
                                    println!("{file} game {}: variants {v:?}", gi + 1);
                                }
                                variant_hits.lock().expect("lock").push(v);
                            }
                            Ok(d)
                        }) {
                            Ok(d) => d,
                            Err(err) => {
                                eprintln!("{file} game {}: engine: {err}", gi + 1);
                                if !e.is_alive() {
                                    *e = Engine::start(e.spec()).expect("engine restarts");
                                }
                                continue;
                            }
                        },
                        None if a.marks => (marks(doc, gi).unwrap_or_default(), Vec::new()),
                        None => (score::estimate_dead(&end.position().board), Vec::new()),
                    };
                    let got = score::count_with(end.position(), &dead, &dame, &settings);
                    let ok = got.result() == want;
                    if a.verbose && !ok {
                        println!(
                            "{file} game {}: recorded {want}, counted {} ({} dead, {})",
                            gi + 1,
                            got.result(),
                            got.dead.len(),
                            settings.rules.as_str()
                        );
                    }
                    results.lock().expect("lock").push(ok);
                }
            });
        }
    });
    let results = results.into_inner().expect("lock");
    let hits = variant_hits.into_inner().expect("lock");
    for (k, v) in VARIANTS.iter().enumerate() {
        if !hits.is_empty() {
            let n = hits.iter().filter(|h| h[k]).count();
            println!("  {v}: {n} of {}", hits.len());
        }
    }
    let good = results.iter().filter(|&&ok| ok).count();
    println!(
        "{}: {good} of {} games give exactly the recorded result ({:.1}%), {:.2} s per game",
        a.engine.as_deref().unwrap_or(if a.marks {
            "the record's TB/TW"
        } else {
            "Qipu's estimator"
        }),
        results.len(),
        100.0 * good as f64 / results.len().max(1) as f64,
        t.elapsed().as_secs_f64() * a.threads.max(1) as f64 / results.len().max(1) as f64
    );
}

/// Ways of counting with an engine, compared by `--variants`.
const VARIANTS: [&str; 4] = [
    "dead stones only (no dame list)",
    "dead stones and the dame list (qipu score)",
    "dead stones and the eyes of seki groups",
    "the engine's own final_score",
];

/// Whether each of [`VARIANTS`] gives the recorded result.
fn variants(
    e: &mut Engine,
    end: &sgf_go::Cursor,
    settings: &Settings,
    dead: &[sgf_core::Point],
    want: &GameResult,
) -> sgf_gtp::Result<[bool; VARIANTS.len()]> {
    let size = end.size();
    let pos = end.position();
    let only_dead = score::count(pos, dead, settings).result() == *want;
    let dame = e.final_status_dame(size, pos)?;
    let with_dame = score::count_with(pos, dead, &dame, settings).result() == *want;
    let seki = e.final_status_list("seki", size)?;
    let eyes = score::seki_points(&pos.board, dead, &seki);
    let with_seki = score::count_with(pos, dead, &eyes, settings).result() == *want;
    let own = e.final_score()?;
    let own_ok = sgf_go::parse_result(&own).is_some_and(|r| r == *want);
    Ok([only_dead, with_dame, with_seki, own_ok])
}

/// The dead stones the record's `TB`/`TW` mark at the end of game `gi`.
fn marks(doc: &Document, gi: usize) -> Option<Vec<sgf_core::Point>> {
    let end = main_line_end(doc, gi);
    score::dead_from_marks(&end.position().board, &doc.node(end.node()))
}
