//! `qipu-db-bench [CORPUS_DIR]`: the goals of `qipu db` measured on the
//! sample corpus (`../shared/corpus/real/` by default): index build time,
//! peak memory and size against the SGF, then full-board, corner and
//! anywhere pattern searches (median of several runs each) and the search
//! process's peak memory, printed as a Markdown table.
//!
//! Build with `cargo run --release -p sgf-bench --bin qipu-db-bench`. The
//! searches run in a second process (this binary with `--search DB
//! CASES`), so its peak memory is that of searching alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

use sgf_db::{Database, NoProgress, Pattern, Query};

/// Peak resident memory of this process in MB (Linux), else 0.
fn peak_mb() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else {
        return 0.0;
    };
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn sgf_bytes(dir: &Path) -> u64 {
    let walk = sgf_formats::walk::collect(&[dir], &Default::default()).expect("corpus readable");
    walk.files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The board after `n` main-line moves of game `g` of the first file.
fn board_of(file: &Path, g: usize, n: usize) -> Pattern {
    let bytes = std::fs::read(file).expect("corpus file");
    sgf_db::position_of(&bytes, Some(file), g, Some(n), None).expect("position")
}

/// A `w`×`h` window of a full-board pattern, every point exact.
fn window(full: &Pattern, x: u8, y: u8, w: u8, h: u8) -> Pattern {
    let cells: Vec<u8> = full
        .masks
        .iter()
        .map(|&m| match m {
            sgf_db::pattern::BLACK => 1,
            sgf_db::pattern::WHITE => 2,
            _ => 0,
        })
        .collect();
    Pattern::region_of(&cells, full.cols, full.rows, (x, y, w, h)).expect("window")
}

/// The `k`×`k` window nearest the centre holding at least `stones` stones
/// of both colours: a centre pattern of a real game.
fn busy_window(full: &Pattern, k: u8, stones: usize) -> Pattern {
    let c = (full.cols as i32 - k as i32) / 2;
    let mut best: Option<(i32, u8, u8)> = None;
    for y in 0..=full.rows - k {
        for x in 0..=full.cols - k {
            let w = window(full, x, y, k, k);
            let b = w
                .masks
                .iter()
                .filter(|&&m| m == sgf_db::pattern::BLACK)
                .count();
            let o = w
                .masks
                .iter()
                .filter(|&&m| m == sgf_db::pattern::WHITE)
                .count();
            let d = (x as i32 - c).abs() + (y as i32 - c).abs();
            if b > 0 && o > 0 && b + o >= stones && best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, x, y));
            }
        }
    }
    let (_, x, y) = best.expect("a busy window");
    let w = window(full, x, y, k, k);
    eprintln!("{k}×{k} window at ({x}, {y}): {:?}", w.masks);
    w
}

fn queries(corpus: &Path) -> Vec<(&'static str, Query)> {
    let kgs = corpus.join("kgs/kgs-6d-2003.sgf");
    let fox = corpus.join("fox/fox-pro-part1.sgf");
    let q = |p: Pattern, anywhere: bool| {
        let mut q = Query::default();
        q.pattern = Some(p);
        q.options.anywhere = anywhere;
        q.limit = Some(100);
        q
    };
    let mid = board_of(&kgs, 10, 120);
    let w3 = busy_window(&mid, 3, 4);
    let w4 = busy_window(&mid, 4, 6);
    let cases: Vec<(&'static str, Query)> = vec![
        (
            "full-board, move 20 (KGS 2003 game 11)",
            q(board_of(&kgs, 10, 20), false),
        ),
        (
            "full-board, move 60 (Fox pro game 101)",
            q(board_of(&fox, 100, 60), false),
        ),
        (
            "full-board, move 8 (Fox pro game 1)",
            q(board_of(&fox, 0, 8), false),
        ),
        (
            "7×7 corner (Fox pro game 1, move 12, top-right)",
            q(window(&board_of(&fox, 0, 12), 12, 0, 7, 7), false),
        ),
        (
            "7×7 corner (KGS 2003 game 11, move 30, top-left)",
            q(window(&board_of(&kgs, 10, 30), 0, 0, 7, 7), false),
        ),
        (
            "3×3 anywhere (KGS 2003 game 11, move 120, 4+ stones nearest the centre)",
            q(w3, true),
        ),
        (
            "4×4 anywhere (KGS 2003 game 11, move 120, 6+ stones nearest the centre)",
            q(w4, true),
        ),
        (
            "5×4 anywhere (KGS 2003 game 11, move 120, side)",
            q(window(&mid, 0, 7, 4, 5), true),
        ),
    ];
    cases
}

/// A pattern as text rows of its whole board (`-` outside the region).
fn to_rows(p: &Pattern) -> String {
    let (bx, by, bw, bh) = p.bbox;
    let mut rows = Vec::new();
    for y in 0..p.rows {
        let mut r = String::new();
        for x in 0..p.cols {
            let inside = x >= bx && x < bx + bw && y >= by && y < by + bh;
            let m = if inside {
                p.masks[(y - by) as usize * bw as usize + (x - bx) as usize]
            } else {
                0
            };
            r.push(match m {
                sgf_db::pattern::BLACK => 'X',
                sgf_db::pattern::WHITE => 'O',
                sgf_db::pattern::EMPTY => '.',
                sgf_db::pattern::ANY => '*',
                _ => '-',
            });
        }
        rows.push(r);
    }
    rows.join("/")
}

/// The searches, run in a process of their own (so its peak memory is
/// that of searching): the patterns come as text from the parent, which
/// parsed the corpus files to make them.
fn search(db_path: &Path, cases_file: &Path) {
    let text = std::fs::read_to_string(cases_file).expect("cases");
    let cases: Vec<(String, Query)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let rows: Vec<&str> = f[2].split('/').collect();
            let mut q = Query::default();
            q.pattern = Some(Pattern::from_rows(&rows).expect("rows"));
            q.options.anywhere = f[1] == "1";
            q.limit = Some(100);
            (f[0].to_string(), q)
        })
        .collect();
    let t = Instant::now();
    let db = Database::open_existing(db_path).expect("database");
    let idx = db.loaded().expect("load");
    let load_ms = t.elapsed().as_secs_f64() * 1000.0;
    println!(
        "SEARCH load_ms={load_ms:.1} games={} index_mb={:.1} peak_after_load_mb={:.0}",
        idx.len(),
        idx.memory_bytes() as f64 / 1e6,
        peak_mb()
    );
    // QIPU_BENCH_ONLY=text runs only the cases whose name contains it (profiling).
    let only = std::env::var("QIPU_BENCH_ONLY").unwrap_or_default();
    for (name, q) in cases.into_iter().filter(|(n, _)| n.contains(only.as_str())) {
        let mut times = Vec::new();
        let mut total = 0;
        let mut games = 0;
        for _ in 0..7 {
            let t = Instant::now();
            let r = db.find(&q).expect("find");
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            total = r.total;
            games = r.games;
        }
        println!("CASE {name}|{:.1}|{total}|{games}", median(times));
    }
    println!("SEARCH peak_mb={:.0}", peak_mb());
}

/// The game database: indexing and searching a corpus, timed.
#[derive(clap::Parser)]
#[command(name = "qipu-db-bench")]
struct Args {
    /// Only time the searches of the cases file on a database built
    /// already (how the run times its searches in a process of their own).
    #[arg(long, num_args = 2, value_names = ["DB", "CASES"])]
    search: Option<Vec<PathBuf>>,
    /// The corpus's `real/` folder.
    #[arg(default_value = "../shared/corpus/real")]
    corpus: PathBuf,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if let Some([db, cases]) = args.search.as_deref() {
        search(db, cases);
        return;
    }
    let corpus = args.corpus;
    if !corpus.is_dir() {
        eprintln!(
            "{}: not found (pass the corpus's real/ directory)",
            corpus.display()
        );
        std::process::exit(2);
    }
    let db_path = std::env::temp_dir().join(format!("qipu-db-bench-{}.qdb", std::process::id()));
    let _ = std::fs::remove_file(&db_path);
    let sgf = sgf_bytes(&corpus);
    let t = Instant::now();
    let mut db = Database::open(&db_path).expect("database");
    let report = db.index(&[&corpus], &NoProgress).expect("index");
    let build_s = t.elapsed().as_secs_f64();
    let build_mb = peak_mb();
    drop(db);
    let t = Instant::now();
    let mut db = Database::open(&db_path).expect("database");
    let again = db.index(&[&corpus], &NoProgress).expect("index");
    let reindex_s = t.elapsed().as_secs_f64();
    drop(db);
    let size = std::fs::metadata(&db_path).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(db_path.with_extension("qdb-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    println!("| what | goal | measured | libkombilo (issue) |");
    println!("| --- | --- | --- | --- |");
    println!(
        "| index build, {} games | ≤ 15 s | {build_s:.1} s | 119 s (25 s without hashing) |",
        report.total_games
    );
    println!("| build peak memory | ≤ 500 MB | {build_mb:.0} MB | 1.84 GB |");
    println!(
        "| index size / SGF | ≤ 1 | {:.0} MB / {:.0} MB = {:.2} | 348 MB for 133 MB |",
        size as f64 / 1e6,
        sgf as f64 / 1e6,
        size as f64 / sgf as f64
    );
    println!(
        "| re-index, nothing changed | | {reindex_s:.2} s ({} unchanged) | |",
        again.unchanged
    );
    let exe = std::env::current_exe().expect("own path");
    let cases_file = db_path.with_extension("cases");
    let lines: Vec<String> = queries(&corpus)
        .into_iter()
        .map(|(n, q)| {
            let p = q.pattern.as_ref().expect("a pattern");
            format!("{n}\t{}\t{}", u8::from(q.options.anywhere), to_rows(p))
        })
        .collect();
    std::fs::write(&cases_file, lines.join("\n")).expect("cases written");
    let out = std::process::Command::new(exe)
        .arg("--search")
        .arg(&db_path)
        .arg(&cases_file)
        .output()
        .expect("search process");
    let text = String::from_utf8_lossy(&out.stdout);
    let goal = |name: &str| {
        if name.starts_with("full") {
            ("≤ 10 ms", "21 ms")
        } else if name.starts_with("7×7") {
            ("≤ 50 ms", "290 ms")
        } else if name.starts_with("3×3") {
            ("≤ 200 ms", "1,560 ms")
        } else if name.starts_with("4×4") {
            ("≤ 400 ms", "4,150 ms")
        } else {
            ("", "1,120 ms")
        }
    };
    for l in text.lines() {
        if let Some(c) = l.strip_prefix("CASE ") {
            let f: Vec<&str> = c.split('|').collect();
            let (g, k) = goal(f[0]);
            println!(
                "| {} | {g} | {} ms median of 7 ({} hits, {} games) | {k} |",
                f[0], f[1], f[2], f[3]
            );
        } else if let Some(m) = l.strip_prefix("SEARCH peak_mb=") {
            println!("| search process peak memory | ≤ 200 MB | {m} MB | 418 MB |");
        } else if let Some(m) = l.strip_prefix("SEARCH ") {
            println!("| loading the index (once per process) | | {m} | |");
        }
    }
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    }
    let _ = std::fs::remove_file(&db_path);
    let _ = std::fs::remove_file(&cases_file);
    let _ = std::fs::remove_file(db_path.with_extension("qdb-wal"));
    let _ = std::fs::remove_file(db_path.with_extension("qdb-shm"));
}
