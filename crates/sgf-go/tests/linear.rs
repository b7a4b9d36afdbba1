//! Hostile input costs the Go checks and repairs work linear in its size:
//! every shape of `testsupport/hostile.rs` at two sizes, with the steps of
//! sgf-core's scans and walks counted (`sgf_core::work`, on in this test
//! build). Nothing is timed.

#[macro_use]
#[path = "../../../testsupport/hostile.rs"]
mod hostile;

use sgf_core::work;

/// Checks, replays and repairs, as `qipu check --fix` does after reading.
fn pipeline(src: &[u8]) -> usize {
    let mut doc = sgf_core::parse(src).document;
    let mut made = sgf_go::check::check(&doc).len();
    for gi in 0..doc.game_count() {
        let _ = sgf_go::main_line_moves(&doc, gi);
    }
    made += sgf_go::fix::repair(&mut doc).len();
    made
}

// The work is counted only with sgf-core's `work-count` feature.
const _: () = assert!(work::ENABLED, "sgf-core's `work-count` feature is off");

fn check(name: &str) {
    hostile::check_linear(name, 64, |src| {
        work::take();
        let made = pipeline(src);
        // Diagnostics and changes: a bounded number a byte.
        assert!(
            made <= 2 * src.len() + 100,
            "{name}: {made} diagnostics and changes for {} bytes",
            src.len()
        );
        work::take()
    });
}

each_shape!(linear_tests);
