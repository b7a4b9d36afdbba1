//! `cargo run --release -p sgf-go --example replay -- FILE...`: replays the
//! main line of every game of the files, for profiling the replay alone
//! (`valgrind --tool=callgrind --toggle-collect='*replay_all*'`);
//! `REPLAY_ROUNDS=n` times the best of n rounds.

use sgf_core::{Document, parse};

/// Replays every game's main line; the number of moves played.
#[inline(never)]
fn replay_all(docs: &[Document]) -> usize {
    let mut moves = 0;
    for doc in docs {
        for gi in 0..doc.game_count() {
            moves += sgf_go::main_line_end(doc, gi).position().move_number as usize;
        }
    }
    moves
}

fn main() {
    let files: Vec<Vec<u8>> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}")))
        .collect();
    let docs: Vec<Document> = files.iter().map(|b| parse(b).document).collect();
    // REPLAY_ROUNDS=n: the best of n rounds.
    let rounds: usize = std::env::var("REPLAY_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let (mut s, mut moves) = (f64::MAX, 0);
    for _ in 0..rounds.max(1) {
        let t = std::time::Instant::now();
        moves = replay_all(&docs);
        s = s.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{moves} moves in {s:.3} s: {:.2} M moves/s",
        moves as f64 / s / 1e6
    );
}
