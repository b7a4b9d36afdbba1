//! `qipu-bench [CORPUS_DIR]`: parse throughput of Qipu and of the
//! `sgf-parse` crate on the same files in the same run.
//!
//! Build with `cargo run --release -p sgf-bench`. Figures are MB/s over the
//! `real/` collections (best of several rounds) and ratios between tools;
//! with `qipu` built too (`cargo build --release -p sgf-cli`), the
//! throughput of `qipu stats` over the same directory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use sgf_core::{WriteOptions, parse, to_canonical_bytes};

fn collect(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut es: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        es.sort();
        for p in es {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                let name = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
                out.push((name, std::fs::read(&p).expect("readable")));
            }
        }
    }
    out
}

/// Best time of `rounds` runs of `f`, in seconds.
fn best<F: FnMut() -> usize>(rounds: usize, mut f: F) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        n = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, n)
}

/// Replays the main line of every game (parsing excluded): moves per second.
fn replay(files: &[(String, Vec<u8>)], rounds: usize) {
    let docs: Vec<sgf_core::Document> = files.iter().map(|(_, b)| parse(b).document).collect();
    let (t, moves) = best(rounds, || {
        let mut moves = 0;
        for doc in &docs {
            for gi in 0..doc.game_count() {
                let c = sgf_go::main_line_end(doc, gi);
                moves += c.position().move_number as usize;
            }
        }
        moves
    });
    let games: usize = docs.iter().map(|d| d.game_count()).sum();
    println!(
        "\nreplay of the main lines: {} games, {} moves in {:.2} s: {:.2} M moves/s ({:.0} games/s)",
        games,
        moves,
        t,
        moves as f64 / t / 1e6,
        games as f64 / t
    );
}

/// The original files of a collection, from its `.index.tsv` (offset, length).
fn split(dir: &Path, name: &str, bytes: &[u8]) -> Vec<(usize, usize)> {
    let idx = dir.join(format!("{name}.index.tsv"));
    let Ok(text) = std::fs::read_to_string(idx) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let o: usize = f.next()?.parse().ok()?;
            let n: usize = f.next()?.parse().ok()?;
            (o + n <= bytes.len()).then_some((o, n))
        })
        .collect()
}

/// Parses every original game file on its own (as a tool over a directory does).
fn per_game(dir: &Path, files: &[(String, Vec<u8>)], rounds: usize) {
    let mut pieces: Vec<&[u8]> = Vec::new();
    for (name, bytes) in files {
        for (o, n) in split(dir, name, bytes) {
            pieces.push(&bytes[o..o + n]);
        }
    }
    if pieces.is_empty() {
        return;
    }
    let texts: Vec<String> = pieces
        .iter()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    let total: usize = pieces.iter().map(|p| p.len()).sum();
    let mb = total as f64 / 1e6;
    let (t_q, _) = best(rounds, || {
        pieces.iter().map(|p| parse(p).document.game_count()).sum()
    });
    let opts = WriteOptions::default();
    let (t_f, _) = best(rounds, || {
        pieces
            .iter()
            .map(|p| to_canonical_bytes(&parse(p).document, &opts).len())
            .sum()
    });
    let (t_s, _) = best(rounds, || {
        texts
            .iter()
            .map(|t| sgf_parse::go::parse(t).map_or(0, |v| v.len()))
            .sum()
    });
    println!(
        "\nper game file ({} files, {:.1} MB): qipu parse {:.1} MB/s, parse+fmt {:.1} MB/s, sgf-parse {:.1} MB/s; ratios {:.1}x parse, {:.1}x parse+fmt",
        pieces.len(),
        mb,
        mb / t_q,
        mb / t_f,
        mb / t_s,
        t_s / t_q,
        t_s / t_f
    );
}

/// `qipu stats` over the corpus directory, run as the real command (parallel,
/// streaming): MB/s and games/s, best of `rounds`. Needs the `qipu` binary
/// built in the same profile next to this one (`cargo build --release -p sgf-cli`).
fn stats(dir: &Path, rounds: usize) {
    let Some(qipu) = std::env::current_exe()
        .ok()
        .and_then(|p| {
            p.parent()
                .map(|d| d.join(format!("qipu{}", std::env::consts::EXE_SUFFIX)))
        })
        .filter(|p| p.exists())
    else {
        println!("\nqipu stats: skipped (build it first: cargo build --release -p sgf-cli)");
        return;
    };
    let mut best = f64::MAX;
    let mut out = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        let o = std::process::Command::new(&qipu)
            .args(["stats", "--json", "-q"])
            .arg(dir)
            .output();
        let secs = t.elapsed().as_secs_f64();
        match o {
            Ok(o) if o.status.success() => {
                best = best.min(secs);
                out = o.stdout;
            }
            _ => {
                println!("\nqipu stats: failed to run {}", qipu.display());
                return;
            }
        }
    }
    let text = String::from_utf8_lossy(&out);
    // The two counts needed, read without a JSON dependency.
    let field = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("\"{name}\": ")))
            .and_then(|v| v.trim_end_matches(',').parse().ok())
            .unwrap_or(0.0)
    };
    let (bytes, games) = (field("bytes"), field("games"));
    println!(
        "\nqipu stats ({} threads): {:.1} MB, {} games in {:.2} s: {:.1} MB/s, {:.0} games/s",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        bytes / 1e6,
        games,
        best,
        bytes / 1e6 / best,
        games / best
    );
}

/// Runs a command and returns its wall time and peak memory (the largest
/// `VmHWM` seen in `/proc/PID/status` while it runs, in bytes; 0 where
/// `/proc` is not available) and exit code, or `None` when it cannot be
/// started or is killed.
fn run_measured(cmd: &Path, args: &[&std::ffi::OsStr]) -> Option<(f64, u64, i32)> {
    let t = Instant::now();
    let mut child = std::process::Command::new(cmd)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_path)
            && let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb * 1024);
        }
        match child.try_wait() {
            Ok(Some(st)) => {
                let secs = t.elapsed().as_secs_f64();
                return st.code().map(|c| (secs, peak, c));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(2)),
            Err(_) => return None,
        }
    }
}

/// `qipu check`, `qipu check --fix`, `qipu fmt` and, when the environment
/// variable `SGFC` names an SGFC binary, SGFC's check (`sgfc IN`) and
/// repair (`sgfc IN OUT`), on every collection: best time of `rounds`,
/// peak memory, and the ratios.
fn commands(files: &[(String, Vec<u8>)], dir: &Path, rounds: usize) {
    let Some(qipu) = std::env::current_exe()
        .ok()
        .and_then(|p| {
            p.parent()
                .map(|d| d.join(format!("qipu{}", std::env::consts::EXE_SUFFIX)))
        })
        .filter(|p| p.exists())
    else {
        println!("\ncommands: skipped (build qipu first: cargo build --release -p sgf-cli)");
        return;
    };
    let sgfc = std::env::var_os("SGFC").map(PathBuf::from);
    let tmp = std::env::temp_dir().join(format!("qipu-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    let out = tmp.join("out.sgf");
    let o = out.as_os_str();
    let mut jobs: Vec<(&str, PathBuf, Vec<&str>)> = vec![
        ("qipu check", qipu.clone(), vec!["check", "-q"]),
        (
            "qipu check --fix",
            qipu.clone(),
            vec!["check", "-q", "--fix", "-o"],
        ),
        ("qipu fmt", qipu.clone(), vec!["fmt", "-q", "-o"]),
    ];
    if let Some(s) = &sgfc {
        jobs.push(("sgfc (check)", s.clone(), vec![]));
        jobs.push(("sgfc (repair)", s.clone(), vec!["OUT"]));
    } else {
        println!("\n(set SGFC to an SGFC binary to time it on the same files)");
    }
    println!(
        "\n{:<18} {:>9} {:>10} {:>10} {:>12}",
        "command", "seconds", "MB/s", "games/s", "peak/in ≥1MB"
    );
    let game_counts: Vec<usize> = files
        .iter()
        .map(|f| parse(&f.1).document.game_count())
        .collect();
    // Per job, per file: the best time, or None when the tool gave up on
    // the file (SGFC stops with a fatal error on some; qipu exits 2 on an
    // unreadable file).
    let mut times: Vec<(&str, Vec<Option<f64>>)> = Vec::new();
    for (label, bin, pre) in &jobs {
        let mut worst_ratio = 0.0f64;
        let mut per_file = Vec::new();
        for (name, bytes) in files {
            let input = dir.join(name);
            let mut best: Option<f64> = None;
            for _ in 0..rounds {
                let mut args: Vec<&std::ffi::OsStr> = Vec::new();
                // `-o OUT` after the input for qipu; `IN OUT` for sgfc.
                let (flags, tail): (Vec<&str>, bool) = match pre.last() {
                    Some(&"-o") => (pre[..pre.len() - 1].to_vec(), true),
                    Some(&"OUT") => (Vec::new(), false),
                    _ => (pre.clone(), false),
                };
                args.extend(flags.iter().map(std::ffi::OsStr::new));
                args.push(input.as_os_str());
                if tail {
                    args.push(std::ffi::OsStr::new("-o"));
                    args.push(o);
                } else if pre.last() == Some(&"OUT") {
                    args.push(o);
                }
                let is_sgfc = label.starts_with("sgfc");
                if let Some((t, peak, code)) = run_measured(bin, &args) {
                    // qipu: 0 clean, 1 problems found. SGFC: 0, 5
                    // (warnings), 10 (errors); 20 is a fatal stop.
                    let done = if is_sgfc { code < 20 } else { code <= 1 };
                    if done {
                        best = Some(best.map_or(t, |b: f64| b.min(t)));
                        // Over files of 1 MB or more: below, the process's
                        // own few megabytes are all the ratio shows.
                        if bytes.len() >= 1 << 20 {
                            worst_ratio = worst_ratio.max(peak as f64 / bytes.len() as f64);
                        }
                    }
                }
            }
            if best.is_none() {
                println!("  ({label} gave up on {name})");
            }
            per_file.push(best);
        }
        let secs: f64 = per_file.iter().flatten().sum();
        let done: Vec<usize> = (0..files.len())
            .filter(|&i| per_file[i].is_some())
            .collect();
        let mb: f64 = done.iter().map(|&i| files[i].1.len() as f64).sum::<f64>() / 1e6;
        let g: usize = done.iter().map(|&i| game_counts[i]).sum();
        println!(
            "{label:<18} {secs:>9.2} {:>10.1} {:>10.0} {worst_ratio:>11.1}x",
            mb / secs,
            g as f64 / secs
        );
        times.push((*label, per_file));
    }
    // Ratios over the files both tools finished.
    let ratio = |a: &str, b: &str| -> Option<(f64, usize)> {
        let x = &times.iter().find(|t| t.0 == a)?.1;
        let y = &times.iter().find(|t| t.0 == b)?.1;
        let both: Vec<(f64, f64)> = x
            .iter()
            .zip(y)
            .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
            .collect();
        let (sx, sy) = both
            .iter()
            .fold((0.0, 0.0), |(p, q), (x, y)| (p + x, q + y));
        (sy > 0.0).then_some((sx / sy, both.len()))
    };
    if let Some((r, n)) = ratio("sgfc (check)", "qipu check") {
        println!("ratio: qipu check is {r:.1}x SGFC's check (on the {n} files both finished)");
    }
    if let Some((r, n)) = ratio("sgfc (repair)", "qipu check --fix") {
        println!(
            "ratio: qipu check --fix is {r:.1}x SGFC's repair (on the {n} files both finished)"
        );
    }
    if let Some((r, n)) = ratio("qipu fmt", "qipu check --fix") {
        println!(
            "ratio: qipu check --fix takes {:.2}x the time of qipu fmt ({n} files)",
            1.0 / r
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Throughput of Qipu against its peers on a corpus, in one run: parsing
/// and writing (against the `sgf-parse` crate), replay, and the commands
/// as processes (against SGFC when the variable `SGFC` names its binary). `QIPU_BENCH=
/// parse,pergame,replay,stats,commands` picks sections (default: all).
#[derive(clap::Parser)]
#[command(name = "qipu-bench")]
struct Args {
    /// The corpus folder (default: the shared corpus's `real/`).
    dir: Option<PathBuf>,
}

fn main() {
    let dir = <Args as clap::Parser>::parse().dir.unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/real")
    });
    let files = collect(&dir);
    if files.is_empty() {
        eprintln!(
            "no .sgf files under {}; pass the corpus directory as the argument",
            dir.display()
        );
        std::process::exit(2);
    }
    let rounds = 3;
    // QIPU_BENCH=parse,pergame,replay,stats,commands picks sections (default: all).
    let only = std::env::var("QIPU_BENCH").ok();
    let want = |s: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|x| x.trim() == s))
    };
    println!("corpus: {} ({} files)", dir.display(), files.len());
    if want("parse") {
        parse_table(&files, rounds);
    }
    if want("pergame") {
        per_game(&dir, &files, rounds);
    }
    if want("replay") {
        replay(&files, rounds);
    }
    if want("stats") {
        stats(&dir, rounds);
    }
    if want("commands") {
        commands(&files, &dir, rounds);
    }
}

/// Parse and parse + canonical write, per file and in all, beside sgf-parse.
fn parse_table(files: &[(String, Vec<u8>)], rounds: usize) {
    println!(
        "{:<28} {:>9} {:>9} {:>10} {:>10} {:>9} {:>9}",
        "file", "MB", "games", "qipu MB/s", "+fmt MB/s", "sgf-parse", "ratio"
    );
    let (mut tb, mut tq, mut tf, mut ts, mut ts_ok) = (0usize, 0f64, 0f64, 0f64, 0usize);
    for (name, bytes) in files {
        let mb = bytes.len() as f64 / 1e6;
        let (t_q, games) = best(rounds, || parse(bytes).document.game_count());
        let opts = WriteOptions::default();
        let (t_f, _) = best(rounds, || {
            let p = parse(bytes);
            to_canonical_bytes(&p.document, &opts).len()
        });
        // sgf-parse takes &str only: decoding is not counted against it.
        let text = String::from_utf8_lossy(bytes).into_owned();
        let (t_s, ok) = best(rounds, || {
            sgf_parse::go::parse(&text).map_or(0, |v| v.len())
        });
        println!(
            "{:<28} {:>9.2} {:>9} {:>10.1} {:>10.1} {:>9.1} {:>8.1}x",
            name.chars().take(28).collect::<String>(),
            mb,
            games,
            mb / t_q,
            mb / t_f,
            mb / t_s,
            t_s / t_q
        );
        tb += bytes.len();
        tq += t_q;
        tf += t_f;
        if ok > 0 {
            ts += t_s;
            ts_ok += bytes.len();
        }
    }
    let mb = tb as f64 / 1e6;
    println!(
        "\ntotal {:.1} MB: qipu parse {:.1} MB/s, qipu parse+fmt {:.1} MB/s, sgf-parse {:.1} MB/s (on the {:.1} MB it accepts)",
        mb,
        mb / tq,
        mb / tf,
        ts_ok as f64 / 1e6 / ts,
        ts_ok as f64 / 1e6
    );
    let sp = ts_ok as f64 / 1e6 / ts;
    println!(
        "ratios: parse {:.1}x sgf-parse, parse+fmt {:.1}x sgf-parse parse",
        (mb / tq) / sp,
        (mb / tf) / sp
    );
}
