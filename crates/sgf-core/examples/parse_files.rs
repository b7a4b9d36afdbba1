//! Parses the files named on the command line (`ROUNDS` times, default 1)
//! and prints their game and diagnostic counts: a fixed workload for
//! profiling the parser (`valgrind --tool=callgrind`). With `SPLIT=BYTES`, cuts
//! them into parts of about that size (as `qipu check` does) instead.

fn main() {
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        if std::env::var_os("SPLIT").is_some() {
            let target = std::env::var("SPLIT")
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(1 << 20);
            let mut split = None;
            for _ in 0..rounds {
                split = sgf_core::split::split_collection(&bytes, target);
            }
            match split {
                Some(s) => println!("{path}: {} parts {:?}", s.ranges.len(), s.ranges),
                None => println!("{path}: not split"),
            }
            continue;
        }
        let (mut games, mut diags) = (0, 0);
        let t = std::time::Instant::now();
        for _ in 0..rounds {
            let p = sgf_core::parse(&bytes);
            games = p.document.game_count();
            diags = p.diagnostics.len();
        }
        let secs = t.elapsed().as_secs_f64() / rounds as f64;
        println!(
            "{path}: {games} games, {diags} diagnostics, {:.1} ms a parse ({:.0} MB/s)",
            secs * 1e3,
            bytes.len() as f64 / secs / 1e6
        );
    }
}
