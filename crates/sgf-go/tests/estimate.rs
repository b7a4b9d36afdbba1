//! Qipu's estimate of a position at any move (`score::estimate_position`):
//! the hand-drawn positions of `testdata/estimate/`, move 150 of a whole
//! game (GNU Go against itself, generated for these tests), and the end of
//! a finished game, counted as before.

use std::path::PathBuf;
use std::time::Instant;

use sgf_core::{Color, Document, Point, parse};
use sgf_go::score::{self, EstimateOptions, Settings};
use sgf_go::{Cursor, GameInfo, main_line_end, main_line_moves};

fn testdata(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(path)
}

fn load(path: &str) -> Document {
    parse(&std::fs::read(testdata(path)).unwrap()).document
}

/// The cursor at move `n` of the main line (the end for `None`).
fn at_move(doc: &Document, n: Option<usize>) -> Cursor {
    match n {
        None => main_line_end(doc, 0),
        Some(n) => {
            let moves = main_line_moves(doc, 0);
            let mut c = Cursor::new(doc, 0);
            assert!(c.goto(doc, moves[n - 1].node));
            c
        }
    }
}

fn estimate(doc: &Document, n: Option<usize>) -> score::Estimate {
    let settings = Settings::of_game(&GameInfo::of(doc, 0));
    let c = at_move(doc, n);
    score::estimate_position(c.position(), &settings, &EstimateOptions::default())
}

#[test]
fn hand_drawn_positions_in_the_middle_of_a_game() {
    let p = Point::new;
    for (file, winner, dead) in [
        ("estimate/black-ahead.sgf", Color::Black, vec![]),
        ("estimate/white-ahead.sgf", Color::White, vec![]),
        ("estimate/invader-dead.sgf", Color::Black, vec![p(1, 3)]),
        (
            "estimate/group-dead.sgf",
            Color::White,
            vec![p(10, 5), p(10, 6)],
        ),
    ] {
        let doc = load(file);
        let e = estimate(&doc, None);
        let s = &e.score;
        assert!(!e.finished, "{file}");
        assert_eq!(e.winner(), Some(winner), "{file}: {}", s.result());
        assert_eq!(s.dead, dead, "{file}");
        // Both sides have territory, the open centre is nobody's.
        assert!(s.black.territory >= 15, "{file}: {:?}", s.black);
        assert!(s.white.territory >= 15, "{file}: {:?}", s.white);
        assert_eq!(s.owner[s.owner.len() / 2], None, "{file}");
        // Ownership: the stones surely theirs, the points within −1..1.
        assert_eq!(e.ownership.len(), s.owner.len());
        assert!(e.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        // The same options, the same estimate.
        assert_eq!(estimate(&doc, None), e);
    }
}

#[test]
fn move_150_of_a_whole_game() {
    // GNU Go against itself: W+9.5 (RE) after 180 moves.
    let doc = load("estimate/gnugo-selfplay.sgf");
    let e = estimate(&doc, Some(150));
    let s = &e.score;
    assert!(!e.finished);
    // Both sides have territory (a count of the empty regions gave none).
    assert!(s.black.territory >= 50, "{:?}", s.black);
    assert!(s.white.territory >= 50, "{:?}", s.white);
    // A close game: the estimate is within a few points of the result.
    assert!((s.margin - -9.5).abs() <= 15.0, "{}", s.result());
    // At the end, the count of a finished game: the recorded result.
    let end = estimate(&doc, None);
    assert!(end.finished);
    assert_eq!(end.score.result().to_string(), "W+9.5");
    assert_eq!(end.winner(), Some(Color::White));
}

#[test]
fn the_end_of_a_finished_game_is_counted_as_before() {
    let doc = load("engines/finished-9x9.sgf");
    let settings = Settings::of_game(&GameInfo::of(&doc, 0));
    let end = main_line_end(&doc, 0);
    let e = estimate(&doc, None);
    assert!(e.finished);
    let dead = score::estimate_dead(&end.position().board);
    assert_eq!(e.score, score::count(end.position(), &dead, &settings));
    assert_eq!(e.score.result().to_string(), "B+0.5");
    // A click that brings a dead stone back to life leaves Black's border
    // open: an estimate again.
    let opened = score::toggle_dead(&end.position().board, &dead, Point::new(1, 4));
    let o = score::count_or_estimate(end.position(), &opened, &[], &settings);
    assert!(!o.finished);
}

/// The time of one estimate at move 150 of a 19×19 game: a report, not
/// a check (`cargo test -p sgf-go --release --test estimate -- --ignored --nocapture`).
#[test]
#[ignore]
fn time_per_estimate() {
    let doc = load("estimate/gnugo-selfplay.sgf");
    for n in [50, 100, 150, 180] {
        let c = at_move(&doc, Some(n));
        let settings = Settings::of_game(&GameInfo::of(&doc, 0));
        let runs = 20;
        let t = Instant::now();
        for _ in 0..runs {
            score::estimate_position(c.position(), &settings, &EstimateOptions::default());
        }
        println!(
            "move {n}: {:.2} ms per estimate",
            t.elapsed().as_secs_f64() * 1000.0 / f64::from(runs)
        );
    }
}
