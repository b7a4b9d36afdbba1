//! Hostile input through every command that reads a file: each answers
//! (no panic, no hang on the small shapes of `testsupport/hostile.rs`),
//! and what it prints stays a bounded multiple of the input. Nothing is
//! timed: the work itself is counted by the library crates' linearity
//! tests.

mod common;
use common::*;

#[path = "../../../testsupport/hostile.rs"]
mod hostile;

/// Every command on every shape, from standard input.
#[test]
fn every_command_answers_every_shape() {
    let commands: &[&[&str]] = &[
        &["check", "-"],
        &["check", "--fix", "-o", "-", "-"],
        &["fmt", "-"],
        &["dump", "-"],
        &["info", "-"],
        &["tree", "-"],
        &["position", "-"],
        &["render", "-"],
        &["convert", "-"],
    ];
    for (name, src) in hostile::shapes(200) {
        for args in commands {
            let out = qipu_in(args, Some(&src));
            assert!(
                matches!(out.status.code(), Some(0..=2)),
                "{name}: qipu {}: {:?}\n{}",
                args.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            // Text read or written whole: a small multiple of the input
            // (plus what does not grow: a board, a summary).
            let printed = out.stdout.len() + out.stderr.len();
            assert!(
                printed <= 64 * src.len() + 64 * 1024,
                "{name}: qipu {}: {printed} bytes out for {} in",
                args.join(" "),
                src.len()
            );
        }
    }
}

/// `qipu tree` drew each line indented by its depth: a tree nested n deep
/// printed n² bytes. Beyond 40 levels a line shows how many are left out.
#[test]
fn a_deep_tree_is_drawn_in_lines_of_bounded_width() {
    for n in [100, 400] {
        let src = hostile::shape("after_variations", n);
        let out = qipu_in(&["tree", "-q", "-"], Some(&src));
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest < 200, "a line of {widest} characters");
        assert!(text.contains("[+"), "{}", &text[text.len() - 400..]);
        assert!(
            text.len() <= 64 * src.len(),
            "{} bytes for {}",
            text.len(),
            src.len()
        );
    }
}
