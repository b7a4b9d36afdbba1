//! The one rule for a test that lacks something it needs (the sample
//! corpus or a file of it, an engine, a font): it skips with a message that
//! says what is missing, or fails when `QIPU_REQUIRE_ALL=1`, as CI runs
//! with everything installed, so that nothing is skipped unseen. Not a
//! crate: tests include this file with `#[path]` (`corpus.rs` does).
#![allow(dead_code)]

/// Whether every test must run (`QIPU_REQUIRE_ALL=1`).
pub fn all_required() -> bool {
    std::env::var("QIPU_REQUIRE_ALL").as_deref() == Ok("1")
}

/// `what` (a sentence saying what is missing and how to get it) is not
/// there: panics under `QIPU_REQUIRE_ALL=1`, else prints `SKIPPED: what`
/// and the caller skips.
#[track_caller]
pub fn missing(what: &str) {
    assert!(!all_required(), "{what}; QIPU_REQUIRE_ALL=1 requires it");
    eprintln!("SKIPPED: {what}");
}
