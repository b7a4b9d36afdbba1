//! `qipu-estimate-bench [--gnugo CMD] [--sample N] [--offset K] [--threads T] [--finished] [-v] [KGS_DIR]`:
//! how often Qipu's mid-game estimate (`sgf_go::score::estimate_position`)
//! names the player who went on to win, over the KGS games that ended by
//! counting (`RE[B+n]`, `RE[W+n]`) of `../shared/corpus/real/kgs` (or
//! KGS_DIR), at move 150 and at three quarters of each game — and, with
//! `--gnugo "gnugo --mode gtp"`, how often GNU Go's `estimate_score` does
//! on the same positions.
//!
//! Build with `cargo run --release -p sgf-bench --bin qipu-estimate-bench`.
//! The sample is every k-th counted game, spread over all files, starting
//! at the `--offset`-th: runs with the same options are comparable, and
//! two offsets give two disjoint samples. `--finished` compares instead,
//! at the end of every counted game, the estimate with the count
//! `qipu score --estimate` made before it (Qipu's dead stones, then the
//! empty regions counted) and with the recorded result. Prints one line
//! per measure; the test `tests/estimate.rs` runs it.

mod kgs;

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sgf_core::{Color, Document};
use sgf_go::score::{self, EstimateOptions, Settings};
use sgf_go::{Cursor, GameInfo, GameResult, WinBy, main_line_end, main_line_moves};
use sgf_gtp::{Engine, EngineSpec};

struct Args {
    gnugo: Option<String>,
    sample: usize,
    offset: usize,
    threads: usize,
    dir: PathBuf,
    verbose: bool,
    finished: bool,
}

fn args() -> Args {
    let mut a = Args {
        gnugo: None,
        sample: 300,
        offset: 0,
        threads: 2,
        dir: PathBuf::from("../shared/corpus/real/kgs"),
        verbose: false,
        finished: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--gnugo" => a.gnugo = it.next(),
            "--sample" => a.sample = it.next().and_then(|v| v.parse().ok()).unwrap_or(a.sample),
            "--offset" => a.offset = it.next().and_then(|v| v.parse().ok()).unwrap_or(a.offset),
            "--threads" => a.threads = it.next().and_then(|v| v.parse().ok()).unwrap_or(a.threads),
            "--finished" => a.finished = true,
            "-v" | "--verbose" => a.verbose = true,
            _ => a.dir = PathBuf::from(x),
        }
    }
    a
}

/// The winner of a game that ended by counting, and the margin.
fn counted(info: &GameInfo) -> Option<(Color, f64)> {
    match info.result.as_ref()?.value.as_ref()? {
        GameResult::Win {
            winner,
            by: WinBy::Score(m),
        } if *m > 0.0 => Some((*winner, *m)),
        _ => None,
    }
}

/// The winner of GNU Go's `estimate_score` answer (`W+12.5 (upper bound: …)`).
fn gnugo_winner(answer: &str) -> Option<Color> {
    match answer.trim().as_bytes().first()? {
        b'B' => Some(Color::Black),
        b'W' => Some(Color::White),
        _ => None,
    }
}

/// One position judged: which move, who won, what Qipu and GNU Go say.
struct Judged {
    /// 0: move 150, 1: three quarters of the game.
    at: usize,
    qipu: bool,
    gnugo: Option<bool>,
    qipu_time: Duration,
    gnugo_time: Duration,
    finished: bool,
}

/// The points where games are judged, from their moves in the main line.
fn positions(moves: usize) -> [Option<usize>; 2] {
    [
        (moves > 150).then_some(150),
        (moves >= 8).then_some(moves * 3 / 4),
    ]
}

fn main() {
    let a = args();
    let docs = kgs::load(&a.dir);
    let mut games: Vec<(usize, usize)> = Vec::new();
    for (di, (_, doc)) in docs.iter().enumerate() {
        for gi in 0..doc.game_count() {
            let info = GameInfo::of(doc, gi);
            let square19 = main_line_end(doc, gi).size() == sgf_go::BoardSize::square(19);
            if counted(&info).is_some() && square19 {
                games.push((di, gi));
            }
        }
    }
    if a.finished {
        finished(&a, &docs, &games);
        return;
    }
    let total = games.len();
    let step = (total / a.sample.max(1)).max(1);
    let sample: Vec<(usize, usize)> = games
        .into_iter()
        .skip(a.offset)
        .step_by(step)
        .take(a.sample)
        .collect();
    println!(
        "{} games ended by counting in {}; sample of {} (every {step}th from the {}th)",
        total,
        a.dir.display(),
        sample.len(),
        a.offset
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Judged>> = Mutex::new(Vec::new());
    let opts = EstimateOptions::default();
    std::thread::scope(|s| {
        for _ in 0..a.threads.max(1) {
            s.spawn(|| {
                let mut engine = a.gnugo.as_ref().map(|cmd| {
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
                    let (winner, _) = counted(&info).expect("counted game");
                    let settings = Settings::of_game(&info);
                    let moves = main_line_moves(doc, gi);
                    for (at, m) in positions(moves.len()).into_iter().enumerate() {
                        let Some(m) = m else { continue };
                        let node = moves[m - 1].node;
                        let mut cursor = Cursor::new(doc, gi);
                        cursor.goto(doc, node);
                        let t = Instant::now();
                        let e = score::estimate_position(cursor.position(), &settings, &opts);
                        let qipu_time = t.elapsed();
                        let qipu = e.winner() == Some(winner);
                        let t = Instant::now();
                        let gnugo = engine.as_mut().and_then(|eng| {
                            match eng
                                .replay(doc, gi, node)
                                .and_then(|_| eng.command("estimate_score"))
                            {
                                Ok(answer) => gnugo_winner(&answer).map(|w| w == winner),
                                Err(err) => {
                                    eprintln!("{file} game {}: engine: {err}", gi + 1);
                                    if !eng.is_alive() {
                                        *eng = Engine::start(eng.spec()).expect("engine restarts");
                                    }
                                    None
                                }
                            }
                        });
                        let gnugo_time = t.elapsed();
                        if a.verbose {
                            println!(
                                "{file} game {} move {m}: recorded {}, Qipu {} ({}{}){}",
                                gi + 1,
                                info.result.as_ref().map_or("", |r| r.raw.as_str()),
                                e.score.result(),
                                if e.finished { "finished, " } else { "" },
                                e.score.dead.len(),
                                match gnugo {
                                    Some(true) => ", GNU Go right",
                                    Some(false) => ", GNU Go wrong",
                                    None => "",
                                }
                            );
                        }
                        results.lock().expect("lock").push(Judged {
                            at,
                            qipu,
                            gnugo,
                            qipu_time,
                            gnugo_time,
                            finished: e.finished,
                        });
                    }
                }
            });
        }
    });
    let results = results.into_inner().expect("lock");
    for (at, label) in [(0, "move 150"), (1, "3/4 of the game")] {
        let r: Vec<&Judged> = results.iter().filter(|j| j.at == at).collect();
        let n = r.len();
        let q = r.iter().filter(|j| j.qipu).count();
        let fin = r.iter().filter(|j| j.finished).count();
        println!(
            "{label}: Qipu {q} of {n} ({:.1}%), {fin} counted as finished",
            pct(q, n)
        );
        let g: Vec<bool> = r.iter().filter_map(|j| j.gnugo).collect();
        if !g.is_empty() {
            let gr = g.iter().filter(|&&x| x).count();
            println!(
                "{label}: GNU Go {gr} of {} ({:.1}%)",
                g.len(),
                pct(gr, g.len())
            );
        }
    }
    let n = results.len();
    let q = results.iter().filter(|j| j.qipu).count();
    println!("all: Qipu {q} of {n} ({:.1}%)", pct(q, n));
    let g: Vec<bool> = results.iter().filter_map(|j| j.gnugo).collect();
    if !g.is_empty() {
        let gr = g.iter().filter(|&&x| x).count();
        println!("all: GNU Go {gr} of {} ({:.1}%)", g.len(), pct(gr, g.len()));
    }
    let qt: Duration = results.iter().map(|j| j.qipu_time).sum();
    let gt: Duration = results.iter().map(|j| j.gnugo_time).sum();
    println!(
        "time per position: Qipu {:.1} ms{}",
        qt.as_secs_f64() * 1000.0 / n.max(1) as f64,
        if g.is_empty() {
            String::new()
        } else {
            format!(
                ", GNU Go {:.0} ms (replay and estimate_score)",
                gt.as_secs_f64() * 1000.0 / g.len().max(1) as f64
            )
        }
    );
}

/// `--finished`: the estimate at the end of every counted game against
/// the count `qipu score --estimate` made before, and the recorded result.
fn finished(a: &Args, docs: &[(String, Document)], games: &[(usize, usize)]) {
    let next = AtomicUsize::new(0);
    // (same result as before, before right, now right, counted as finished)
    let results: Mutex<Vec<(bool, bool, bool, bool)>> = Mutex::new(Vec::new());
    let opts = EstimateOptions::default();
    std::thread::scope(|s| {
        for _ in 0..a.threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(di, gi)) = games.get(k) else {
                        break;
                    };
                    let (file, doc) = &docs[di];
                    let info = GameInfo::of(doc, gi);
                    let want = info.result.as_ref().and_then(|r| r.value.clone());
                    let settings = Settings::of_game(&info);
                    let end = main_line_end(doc, gi);
                    let board = &end.position().board;
                    let before =
                        score::count(end.position(), &score::estimate_dead(board), &settings);
                    let now = score::estimate_position(end.position(), &settings, &opts);
                    let same = before == now.score;
                    let before_right = want.as_ref() == Some(&before.result());
                    let now_right = want.as_ref() == Some(&now.score.result());
                    if a.verbose && !same {
                        println!(
                            "{file} game {}: recorded {}, before {}, now {}{}",
                            gi + 1,
                            info.result.as_ref().map_or("", |r| r.raw.as_str()),
                            before.result(),
                            now.score.result(),
                            if now.finished { " (finished)" } else { "" }
                        );
                    }
                    results.lock().expect("lock").push((
                        same,
                        before_right,
                        now_right,
                        now.finished,
                    ));
                }
            });
        }
    });
    let r = results.into_inner().expect("lock");
    let n = r.len();
    let same = r.iter().filter(|x| x.0).count();
    let fin = r.iter().filter(|x| x.3).count();
    let before = r.iter().filter(|x| x.1).count();
    let now = r.iter().filter(|x| x.2).count();
    let changed: Vec<_> = r.iter().filter(|x| !x.0).collect();
    println!(
        "end of {n} counted games: {fin} counted as finished, {same} counted as before; \
         exact recorded result before {before}, now {now}; of the {} changed: before right {}, now right {}",
        changed.len(),
        changed.iter().filter(|x| x.1).count(),
        changed.iter().filter(|x| x.2).count()
    );
}

fn pct(k: usize, n: usize) -> f64 {
    100.0 * k as f64 / n.max(1) as f64
}
