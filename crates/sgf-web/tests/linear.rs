//! Opening a record costs the viewer work linear in its size: the record
//! read, the game tree numbered and laid out, the first state and a
//! window of the tree, on every shape of `testsupport/hostile.rs` and on
//! the shapes of trees that once took quadratic time (thousands of
//! variations from one move), at two sizes, with the steps of the
//! layout's search and of sgf-core's scans counted (`sgf_core::work`, on
//! in this test build). Nothing is timed.

#[macro_use]
#[path = "../../../testsupport/hostile.rs"]
mod hostile;

use sgf_core::work;
use sgf_web::local::Local;

// The work is counted only with sgf-core's `work-count` feature.
const _: () = assert!(work::ENABLED, "sgf-core's `work-count` feature is off");

/// The steps of opening `src` as the page does: the upload (the record
/// read, its first state) and the tree's first window.
fn steps(src: &[u8]) -> u64 {
    let mut l = Local::new();
    work::take();
    let r = l.request("/api/upload?name=t.sgf", src);
    if r.status == 200 {
        let st: serde_json::Value = serde_json::from_slice(&r.body).unwrap_or_default();
        if let Some(s) = st["session"].as_u64() {
            let t = l.request(&format!("/api/tree?session={s}&x0=0&y0=0&x1=40&y1=40"), b"");
            assert_eq!(t.status, 200, "{}", String::from_utf8_lossy(&t.body));
        }
    }
    work::take()
}

fn check(name: &str) {
    hostile::check_linear(name, 64, steps);
}

each_shape!(linear_tests);

/// `(;GM[1]…` with `n` variations after one move, each `unit(i)`.
fn fan(n: usize, unit: impl Fn(usize) -> String) -> Vec<u8> {
    let mut s = String::from("(;GM[1]FF[4]SZ[19];B[pd]");
    for i in 0..n {
        s.push('(');
        s.push_str(&unit(i));
        s.push(')');
    }
    s.push(')');
    s.into_bytes()
}

/// A tree shape at two sizes, `n` and `4n`, is opened in linear work.
fn linear_shape(name: &str, make: impl Fn(usize) -> Vec<u8>) {
    let (small, large) = (make(1000), make(4000));
    let r = hostile::linear(
        name,
        (steps(&small), small.len()),
        (steps(&large), large.len()),
        64,
    );
    if let Err(e) = r {
        panic!("{e}");
    }
}

#[test]
fn many_variations_of_one_move() {
    linear_shape("one move each", |n| fan(n, |_| ";W[dd]".into()));
}

#[test]
fn many_variations_of_lengths_that_vary() {
    // Short ones fit where long ones did not: every row is looked at anew.
    linear_shape("lengths that vary", |n| {
        fan(n, |i| ";W[dd];B[dp]".repeat(1 + (i * 7) % 5))
    });
}

#[test]
fn variations_from_every_move_of_a_line() {
    // Each move of a line has a variation, each below the one before.
    linear_shape("a variation a move", |n| {
        let mut s = String::from("(;GM[1]FF[4]SZ[19]");
        for _ in 0..n {
            s.push_str("(;B[pd];W[dd]");
        }
        for _ in 0..n {
            s.push_str(")(;B[dp])");
        }
        s.push(')');
        s.into_bytes()
    });
}

#[test]
fn variations_in_variations() {
    // A fan whose variations each have a fan of their own.
    linear_shape("fans in a fan", |n| {
        fan(n / 10, |_| format!(";W[dd]{}", "(;B[cc])".repeat(10)))
    });
}
