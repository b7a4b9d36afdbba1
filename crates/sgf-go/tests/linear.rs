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

fn check(name: &str) {
    let small = hostile::shape(name, 1000);
    let large = hostile::shape(name, 4000);
    let steps = |src: &[u8]| {
        work::take();
        let made = pipeline(src);
        // Diagnostics and changes: a bounded number a byte (a rectangle
        // of a large board once made thousands from a few bytes).
        assert!(
            made <= 2 * src.len() + 100,
            "{name}: {made} diagnostics and changes for {} bytes",
            src.len()
        );
        (work::take(), src.len())
    };
    let (a, b) = (steps(&small), steps(&large));
    if let Err(e) = hostile::linear(name, a, b, 64) {
        panic!("{e}");
    }
}

macro_rules! linear {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
        /// Every shape has its test.
        #[test]
        fn every_shape_is_tested() {
            assert!(work::ENABLED, "sgf-core's `work-count` feature is off");
            let tested = [$(stringify!($name)),*];
            for (name, _) in hostile::shapes(1) {
                assert!(tested.contains(&name), "no linearity test for `{name}`");
            }
        }
    };
}

each_shape!(linear);
