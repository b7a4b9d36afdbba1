//! Parses the files named on the command line (`ROUNDS` times, default 1)
//! and prints their game and diagnostic counts: a fixed workload for
//! profiling the parser (`valgrind --tool=callgrind`).

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
        let (mut games, mut diags) = (0, 0);
        for _ in 0..rounds {
            let p = sgf_core::parse(&bytes);
            games = p.document.game_count();
            diags = p.diagnostics.len();
        }
        println!("{path}: {games} games, {diags} diagnostics");
    }
}
