//! The one repair pipeline, behind `qipu check --fix`, `qipu fmt`, the
//! viewer's Repair and Python's `Collection.repair()`:
//!
//! 1. the SGF dialects normalised ([`dialect::normalize_document`]): Fox's
//!    komi, the Nihon Ki-in's `TE`/`KO`, Go Assistant's main line…;
//! 2. the tree, 3. the values, 4. Go ([`sgf_go::fix`]).
//!
//! Every change comes back with its code, its span in the input and the
//! text before and after it. Nothing is lost: a game-info value or a text
//! that is rewritten (beyond case and width) or deleted keeps its wording
//! in `GC` (`DT as written: 2018.04.27`). Both [`fmt`] and [`repair`] are
//! idempotent: a second run changes nothing.
//!
//! ```
//! use sgf_formats::repair::{RepairOptions, repair};
//! let mut doc = sgf_core::parse("(;GM[1]FF[4]SZ[19]DT[2018.04.27]RE[黑胜2又3/4子];B[pd])".as_bytes()).document;
//! let changes = repair(&mut doc, &RepairOptions::default());
//! let root = doc.game(0).unwrap().root();
//! assert_eq!(root.text("DT").unwrap(), "2018-04-27");
//! assert_eq!(root.text("RE").unwrap(), "B+5.5");
//! assert!(root.text("GC").unwrap().contains("DT as written: 2018.04.27"));
//! assert_eq!(changes[0].before, "DT[2018.04.27]");
//! ```

use sgf_core::{Code, Diagnostic, Document, Parsed, Severity, WriteOptions};
pub use sgf_go::fix::{Change, RepairOptions};

use crate::dialect;

/// A repaired document written out.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The canonical FF\[4\] UTF-8 bytes.
    pub bytes: Vec<u8>,
    /// What was changed, in pipeline order.
    pub changes: Vec<Change>,
    /// What is left: the diagnostics of the output, read again.
    pub remaining: Vec<Diagnostic>,
}

/// Repairs `doc` in place: dialects, then the tree, the values and Go.
pub fn repair(doc: &mut Document, opts: &RepairOptions) -> Vec<Change> {
    // The dialects too may write text the game's charset cannot hold.
    let before = doc.utf8_fallback();
    if opts.utf8_output {
        doc.set_utf8_fallback(Some(true));
    }
    let mut changes = dialect::normalize_document(doc).changes;
    changes.extend(sgf_go::fix::repair_with(doc, opts));
    // One repair can make another needed (a dialect seen once a bad value
    // is repaired, a node reordered by a dialect, a move deleted before its
    // annotations were looked at): repeated until nothing changes, so that
    // repairing the repaired file changes nothing.
    let mut again = !changes.is_empty();
    for _ in 0..3 {
        if !again {
            break;
        }
        let mut more = dialect::normalize_document(doc).changes;
        more.extend(sgf_go::fix::repair_with(doc, opts));
        again = !more.is_empty();
        changes.extend(more);
    }
    doc.set_utf8_fallback(before);
    changes
}

/// [`repair`], then the canonical form, read again for what is left.
pub fn repair_to_canonical(
    doc: &mut Document,
    write: &WriteOptions,
    opts: &RepairOptions,
) -> Repaired {
    let mut opts = *opts;
    opts.utf8_output = true;
    let changes = repair(doc, &opts);
    let bytes = sgf_core::to_canonical_bytes(doc, write);
    let re = sgf_core::parse(&bytes);
    let mut remaining = re.diagnostics;
    remaining.extend(sgf_go::check::check(&re.document));
    remaining.sort_by_key(|d| (d.span.start, d.span.end));
    Repaired {
        bytes,
        changes,
        remaining,
    }
}

/// What `qipu fmt` and `qipu convert` do before writing the canonical
/// form: the dialects normalised (nothing else repaired). The reader's
/// reports of the dialects, repeated by the normaliser, are kept once, and
/// the diagnostics stay in input order.
pub fn fmt(parsed: &mut Parsed) {
    // Written in the canonical UTF-8 form: a game whose charset cannot
    // hold a normalised text becomes UTF-8.
    let before = parsed.document.utf8_fallback();
    parsed.document.set_utf8_fallback(Some(true));
    let mut diags = dialect::normalize(&mut parsed.document);
    parsed.document.set_utf8_fallback(before);
    let all = &mut parsed.diagnostics;
    all.retain(|d| d.code != Code::DialectDetected);
    all.append(&mut diags);
    all.sort_by_key(|d| (d.span.start, d.span.end));
}

/// A change as a diagnostic (information: something was done).
pub fn change_diagnostic(c: &Change) -> Diagnostic {
    Diagnostic::new(c.code, c.span, c.message.clone()).with_severity(Severity::Info)
}
