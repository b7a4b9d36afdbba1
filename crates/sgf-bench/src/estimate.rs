//! `qipu-estimate-bench [--gnugo CMD] [--cache FILE] [--sample N] [--offset K] [--threads T]
//! [--game FILE:N] [--dump TSV] [--finished] [-v] [KGS_DIR]`:
//! how often Qipu's mid-game estimate (`sgf_go::score::estimate_position`)
//! names the player who went on to win, over the KGS games that ended by
//! counting (`RE[B+n]`, `RE[W+n]`) of `../shared/corpus/real/kgs` (or
//! KGS_DIR), at move 150 and at three quarters of each game — and, with
//! `--gnugo "gnugo --mode gtp"`, how often GNU Go's `estimate_score` does
//! on the same positions. GNU Go's answers are kept in `--cache`
//! (`target/estimate-gnugo.tsv`), so a rerun asks it only about new
//! positions, and without `--gnugo` still compares with the answers
//! kept. The table splits even and handicap games and gives each side's
//! mean error on the margin (positive: too good for Black); `--dump`
//! writes every position's margins, `--game` judges one game (with `-v`,
//! drawing the board with the estimate's dead stones and points on it).
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

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sgf_core::{Color, Document};
use sgf_go::score::{self, EstimateOptions, Settings};
use sgf_go::{Cursor, GameInfo, GameResult, WinBy, main_line_end, main_line_moves};
use sgf_gtp::{Engine, EngineSpec};

/// Qipu's mid-game estimate against GNU Go's and the recorded results.
#[derive(clap::Parser)]
#[command(name = "qipu-estimate-bench")]
struct Args {
    /// GNU Go as a GTP command (e.g. "gnugo --mode gtp"): its estimate is
    /// the reference.
    #[arg(long)]
    gnugo: Option<String>,
    /// Games to sample.
    #[arg(long, default_value_t = 300)]
    sample: usize,
    /// Games skipped before the sample starts.
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// Games estimated at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Print each game (with `--game`, also the board with the estimate on it).
    #[arg(short, long)]
    verbose: bool,
    /// Instead: the estimate at the end of every counted game against the
    /// recorded result.
    #[arg(long)]
    finished: bool,
    /// Where GNU Go's answers are kept between runs.
    #[arg(long, default_value = "target/estimate-gnugo.tsv")]
    cache: PathBuf,
    /// Write each position's estimates to this file (tab-separated).
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Only this game: `FILE:N`, its file and number (from 1).
    #[arg(long)]
    game: Option<String>,
    /// The folder of KGS records.
    #[arg(default_value = "../shared/corpus/real/kgs")]
    dir: PathBuf,
}

fn args() -> Args {
    <Args as clap::Parser>::parse()
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

/// One position judged: which move, who won, what Qipu and GNU Go say.
struct Judged {
    /// 0: move 150, 1: three quarters of the game.
    at: usize,
    /// A handicap game (`HA` of 2 or more).
    handicap: bool,
    /// The recorded margin, positive for Black.
    recorded: f64,
    /// Qipu's margin, positive for Black.
    qipu: f64,
    /// GNU Go's margin, positive for Black, when it was asked or cached.
    gnugo: Option<f64>,
    qipu_time: Duration,
    finished: bool,
}

/// GNU Go's answers already given, by `file \t game \t move`: it takes
/// seconds a position, so reruns read them from this file instead.
struct Cache {
    path: PathBuf,
    answers: HashMap<String, String>,
}

impl Cache {
    fn open(path: PathBuf) -> Cache {
        let answers = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let (k, v) = l.rsplit_once('\t')?;
                Some((k.to_string(), v.to_string()))
            })
            .collect();
        Cache { path, answers }
    }

    fn add(&mut self, key: String, answer: String) {
        use std::io::Write;
        let line = format!("{key}\t{}\n", answer.replace(['\t', '\n'], " "));
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", self.path.display());
        }
        self.answers.insert(key, answer);
    }
}

/// The margin of GNU Go's `estimate_score` answer (`W+12.5 (upper bound: …)`),
/// positive for Black.
fn gnugo_margin(answer: &str) -> Option<f64> {
    let a = answer.trim();
    let sign = match a.as_bytes().first()? {
        b'B' => 1.0,
        b'W' => -1.0,
        b'0' => return Some(0.0),
        _ => return None,
    };
    let num: String = a[1..]
        .trim_start_matches('+')
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    Some(sign * num.parse::<f64>().ok()?)
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
    if let Some(only) = &a.game {
        games.retain(|&(di, gi)| format!("{}:{}", docs[di].0, gi + 1) == *only);
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
    let cache = Mutex::new(Cache::open(a.cache.clone()));
    let opts = EstimateOptions::default();
    std::thread::scope(|s| {
        for _ in 0..a.threads.max(1) {
            s.spawn(|| {
                let mut engine: Option<Engine> = None;
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(di, gi)) = sample.get(k) else {
                        break;
                    };
                    let (file, doc) = &docs[di];
                    let info = GameInfo::of(doc, gi);
                    let (winner, by) = counted(&info).expect("counted game");
                    let recorded = if winner == Color::Black { by } else { -by };
                    let handicap = info
                        .handicap
                        .as_ref()
                        .and_then(|h| h.value)
                        .is_some_and(|h| h >= 2);
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
                        let key = format!("{file}\t{}\t{m}", gi + 1);
                        let cached = cache.lock().expect("lock").answers.get(&key).cloned();
                        let answer = cached.or_else(|| {
                            let cmd = a.gnugo.as_ref()?;
                            let eng = engine.get_or_insert_with(|| {
                                let spec =
                                    EngineSpec::from_command_line(cmd).expect("engine command");
                                Engine::start(&spec).expect("engine starts")
                            });
                            match eng
                                .replay(doc, gi, node)
                                .and_then(|_| eng.command("estimate_score"))
                            {
                                Ok(answer) => {
                                    cache.lock().expect("lock").add(key, answer.clone());
                                    Some(answer)
                                }
                                Err(err) => {
                                    eprintln!("{file} game {}: engine: {err}", gi + 1);
                                    if !eng.is_alive() {
                                        *eng = Engine::start(eng.spec()).expect("engine restarts");
                                    }
                                    None
                                }
                            }
                        });
                        let gnugo = answer.as_deref().and_then(gnugo_margin);
                        if a.verbose {
                            println!(
                                "{file} game {} move {m}: recorded {}, Qipu {} ({}{} dead){}",
                                gi + 1,
                                info.result.as_ref().map_or("", |r| r.raw.as_str()),
                                e.score.result(),
                                if e.finished { "finished, " } else { "" },
                                e.score.dead.len(),
                                answer.map(|g| format!(", GNU Go {g}")).unwrap_or_default()
                            );
                        }
                        if a.verbose && a.game.is_some() {
                            print!("{}", picture(cursor.position(), &e));
                        }
                        results.lock().expect("lock").push(Judged {
                            at,
                            handicap,
                            recorded,
                            qipu: e.score.margin,
                            gnugo,
                            qipu_time,
                            finished: e.finished,
                        });
                    }
                }
            });
        }
    });
    let results = results.into_inner().expect("lock");
    if let Some(path) = &a.dump {
        let mut out = String::from("at\thandicap\trecorded\tqipu\tgnugo\n");
        for j in &results {
            out += &format!(
                "{}\t{}\t{}\t{}\t{}\n",
                j.at,
                u8::from(j.handicap),
                j.recorded,
                j.qipu,
                j.gnugo.map_or(String::new(), |g| g.to_string())
            );
        }
        if let Err(e) = std::fs::write(path, out) {
            eprintln!("cannot write {}: {e}", path.display());
        }
    }
    println!(
        "{:<16} {:<8} {:>5} {:>16} {:>16} {:>16} {:>8} {:>8}",
        "position",
        "games",
        "n",
        "Qipu=recorded",
        "GNU Go=recorded",
        "Qipu=GNU Go",
        "Qipu-rec",
        "GNU-rec"
    );
    for (at, label) in [(0, "move 150"), (1, "3/4 of the game")] {
        for (kind, pick) in [
            ("all", None),
            ("even", Some(false)),
            ("handicap", Some(true)),
        ] {
            let r: Vec<&Judged> = results
                .iter()
                .filter(|j| j.at == at && pick.is_none_or(|h| j.handicap == h))
                .collect();
            row(label, kind, &r);
        }
    }
    let all: Vec<&Judged> = results.iter().collect();
    row("all", "all", &all);
    let fin = results.iter().filter(|j| j.finished).count();
    let n = results.len();
    let qt: Duration = results.iter().map(|j| j.qipu_time).sum();
    println!(
        "{fin} of {n} positions counted as finished; Qipu {:.1} ms per estimate",
        qt.as_secs_f64() * 1000.0 / n.max(1) as f64
    );
}

/// One row of the table: how often each side names the recorded winner,
/// how often they agree, and their mean error on the margin (positive:
/// too good for Black).
fn row(label: &str, kind: &str, r: &[&Judged]) {
    let n = r.len();
    let same = |x: f64, y: f64| x.signum() == y.signum() && x != 0.0;
    let q = r.iter().filter(|j| same(j.qipu, j.recorded)).count();
    let g: Vec<(f64, f64, f64)> = r
        .iter()
        .filter_map(|j| Some((j.qipu, j.gnugo?, j.recorded)))
        .collect();
    let gr = g.iter().filter(|(_, x, rec)| same(*x, *rec)).count();
    let qg = g.iter().filter(|(q, x, _)| same(*q, *x)).count();
    let mean = |v: &mut dyn Iterator<Item = f64>, k: usize| v.sum::<f64>() / k.max(1) as f64;
    let qbias = mean(&mut r.iter().map(|j| j.qipu - j.recorded), n);
    let gbias = mean(&mut g.iter().map(|(_, x, rec)| x - rec), g.len());
    let frac = |k: usize, m: usize| format!("{k}/{m} {:.1}%", pct(k, m));
    println!(
        "{label:<16} {kind:<8} {n:>5} {:>16} {:>16} {:>16} {qbias:>+8.1} {:>8}",
        frac(q, n),
        if g.is_empty() {
            "-".into()
        } else {
            frac(gr, g.len())
        },
        if g.is_empty() {
            "-".into()
        } else {
            frac(qg, g.len())
        },
        if g.is_empty() {
            "-".into()
        } else {
            format!("{gbias:+.1}")
        },
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

/// The board as text with the estimate on it, for `--game … -v`: `X`/`O`
/// living stones, `x`/`o` dead ones, `+`/`-` Black's and White's points, `.`
/// nobody's; the mean owner of each point from the playouts after each row.
fn picture(pos: &sgf_go::Position, e: &score::Estimate) -> String {
    let rows = pos.rows();
    let cols = rows.first().map_or(0, |r| r.len());
    let mut out = String::new();
    for (y, row) in rows.iter().enumerate() {
        let mut line = String::new();
        for (x, c) in row.chars().enumerate() {
            let i = y * cols + x;
            let dead = e
                .score
                .dead
                .iter()
                .any(|p| usize::from(p.x) == x && usize::from(p.y) == y);
            line.push(match (c, dead, e.score.owner.get(i).copied().flatten()) {
                ('X', true, _) => 'x',
                ('O', true, _) => 'o',
                ('.', _, Some(Color::Black)) => '+',
                ('.', _, Some(Color::White)) => '-',
                (c, _, _) => c,
            });
            line.push(' ');
        }
        out += &format!("{line}\n");
    }
    out + &format!(
        "{} to play\n",
        if pos.to_play == Color::Black {
            "Black"
        } else {
            "White"
        }
    )
}

fn pct(k: usize, n: usize) -> f64 {
    100.0 * k as f64 / n.max(1) as f64
}
