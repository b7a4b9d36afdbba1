//! Hostile input costs reading, dialect detection and the repair pipeline
//! work linear in its size: every shape of `testsupport/hostile.rs` at two
//! sizes, with the steps of sgf-core's scans and walks counted
//! (`sgf_core::work`, on in this test build). Nothing is timed.

#[macro_use]
#[path = "../../../testsupport/hostile.rs"]
mod hostile;

use std::path::Path;

use sgf_core::{WriteOptions, work};
use sgf_formats::repair::{RepairOptions, repair_to_canonical};

/// What `qipu check --fix` does: read (dialects reported), check, repair,
/// write, read the output again.
fn pipeline(src: &[u8]) -> usize {
    let Ok(loaded) = sgf_formats::read_any(src, Some(Path::new("hostile.sgf"))) else {
        return 0;
    };
    let mut doc = loaded.parsed.document;
    let mut made = loaded.parsed.diagnostics.len();
    made += sgf_formats::dialect::dialect_diagnostics(&doc).len();
    made += sgf_core::validate::validate(&doc).len();
    made += sgf_go::check::check(&doc).len();
    let mut opts = RepairOptions::default();
    opts.variation_level = true;
    match repair_to_canonical(&mut doc, &WriteOptions::default(), &opts) {
        Ok(r) => made + r.changes.len() + r.remaining.len(),
        // Refused (no game tree): nothing more is made.
        Err(_) => made,
    }
}

// The work is counted only with sgf-core's `work-count` feature.
const _: () = assert!(work::ENABLED, "sgf-core's `work-count` feature is off");

fn check(name: &str) {
    hostile::check_linear(name, 64, |src| {
        work::take();
        let made = pipeline(src);
        // Diagnostics and changes: a bounded number a byte.
        assert!(
            made <= 4 * src.len() + 100,
            "{name}: {made} diagnostics and changes for {} bytes",
            src.len()
        );
        work::take()
    });
}

each_shape!(linear_tests);
