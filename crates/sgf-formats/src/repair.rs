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

use sgf_core::{Code, Diagnostic, Document, Parsed, Severity, Span, WriteOptions};
pub use sgf_go::fix::{Change, RepairOptions};

use crate::dialect;

/// Why a repaired (or canonical) form is not written: writing it would
/// lose what the input holds. `check --fix` reports it as an error and
/// leaves the file as it is; `fmt` and `convert` refuse likewise.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The input holds no game tree (notes, a web page, a binary saved
    /// under an `.sgf` name): its repaired form would be empty.
    NoGameTree,
    /// The output, read again, holds fewer game trees than the input.
    GamesLost {
        /// Game trees read from the input.
        read: usize,
        /// Game trees in the output.
        written: usize,
    },
    /// A game's text is in a charset that cannot be decoded (see
    /// [`sgf_core::Game::is_undecodable`]): written in UTF-8 it would be
    /// other text.
    Undecodable {
        /// The game (from 0).
        game: usize,
        /// The charset its `CA` names.
        charset: String,
    },
}

impl Refusal {
    /// The refusal of a part of a file whose first game is game `first` of
    /// the file (from 0): games numbered in the file, not in the part.
    #[must_use]
    pub fn in_file(self, first: usize) -> Refusal {
        match self {
            Refusal::Undecodable { game, charset } => Refusal::Undecodable {
                game: game + first,
                charset,
            },
            r => r,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoGameTree => f.write_str(
                "no SGF game tree in the input: not written (its repaired form would be empty)",
            ),
            Refusal::GamesLost { read, written } => write!(
                f,
                "the repaired form holds {written} game tree(s) of the {read} read: not written"
            ),
            Refusal::Undecodable { game, charset } => write!(
                f,
                "game {} is in {charset}, a charset Qipu cannot decode: not written (its text would change)",
                game + 1
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// Whether `doc` can be written in the canonical UTF-8 form (what
/// `check --fix`, `fmt` and `convert` write) without losing what it
/// holds: it has a game tree, and every game's text can be decoded
/// ([`sgf_core::Document::undecodable_game`]).
///
/// ```
/// use sgf_formats::repair::{Refusal, writable};
/// let doc = sgf_core::parse(b"just notes").document;
/// assert_eq!(writable(&doc), Err(Refusal::NoGameTree));
/// let doc = sgf_core::parse(b"(;CA[ISO-2022-KR]PB[\x1b$)C\x0e@L\x0f])").document;
/// assert!(matches!(writable(&doc), Err(Refusal::Undecodable { game: 0, .. })));
/// assert_eq!(writable(&sgf_core::parse(b"(;CA[ISO-2022-KR]PB[Lee])").document), Ok(()));
/// ```
///
/// # Errors
/// What would be lost, as a [`Refusal`].
pub fn writable(doc: &Document) -> Result<(), Refusal> {
    if doc.game_count() == 0 {
        return Err(Refusal::NoGameTree);
    }
    if let Some(game) = doc.undecodable_game() {
        let charset = doc
            .game(game)
            .and_then(|g| g.root().value("CA").map(|v| v.decoded().trim().to_string()))
            .unwrap_or_default();
        return Err(Refusal::Undecodable { game, charset });
    }
    Ok(())
}

/// The guard of every repair that replaces a file: its output, read
/// again (`output`), holds no fewer game trees than the `read` of the input.
///
/// # Errors
/// [`Refusal::NoGameTree`] or [`Refusal::GamesLost`].
pub fn check_written(read: usize, output: &Document) -> Result<(), Refusal> {
    let written = output.game_count();
    if read == 0 {
        return Err(Refusal::NoGameTree);
    }
    if written < read {
        return Err(Refusal::GamesLost { read, written });
    }
    Ok(())
}

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
    let mut changes = keep_outside_text(doc);
    changes.extend(dialect::normalize_document(doc).changes);
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

/// [`repair`], then the canonical form, read again for what is left:
/// what `qipu check --fix` writes. Refused, with nothing done, when the
/// document cannot be written without loss ([`writable`]), and when the
/// output holds fewer game trees than the input ([`check_written`]).
/// [`repair_and_write_to`] does the same with the document given up, so
/// that it is released before the output is read.
///
/// # Errors
/// The [`Refusal`]; `doc` is then not repaired when the input was refused.
pub fn repair_to_canonical(
    doc: &mut Document,
    write: &WriteOptions,
    opts: &RepairOptions,
) -> Result<Repaired, Refusal> {
    let (read, changes) = repair_for_output(doc, opts)?;
    let bytes = sgf_core::to_canonical_bytes(doc, write);
    let re = check_reread(read, sgf_core::parse(&bytes[..]))?;
    let mut remaining = re.diagnostics;
    remaining.extend(sgf_go::check::check(&re.document));
    sgf_core::diag::sort_diagnostics(&mut remaining);
    Ok(Repaired {
        bytes,
        changes,
        remaining,
    })
}

/// A document repaired and written in the canonical form by
/// [`repair_and_write_to`]: what it needs to read the output again.
#[derive(Debug)]
#[non_exhaustive]
pub struct Rewritten {
    /// Game trees read from the input (the output must hold as many:
    /// [`reread`]).
    pub read: usize,
    /// What was changed, in pipeline order, each with the line and column
    /// (from 1) where it is in the input.
    pub changes: Vec<(Change, u32, u32)>,
}

/// [`repair_to_canonical`] for a caller that is done with the input's
/// document, written as it is made into `out` (the destination's
/// temporary file, say): the document, and with it the input it keeps as
/// its source, is released once written, so that memory holds the input
/// or the output, and one tree, never both (the tree of a long game is
/// most of what its repair holds). The output is then read again with
/// [`reread`], from where it was written. The same refusals, before
/// anything is written.
///
/// ```
/// use sgf_formats::repair::{Refusal, RepairOptions, repair_and_write_to, reread};
/// let doc = sgf_core::parse(b"(;GM[1]SZ[19]\n;B[pd]DT[2018.04.27])").document;
/// let mut out = Vec::new();
/// let r = repair_and_write_to(doc, &Default::default(), &RepairOptions::default(), &mut out)
///     .unwrap()
///     .unwrap();
/// let (change, line, column) = &r.changes[0];
/// // The change is at its value, `[2018.04.27]`.
/// assert_eq!((change.before.as_str(), *line, *column), ("DT[2018.04.27]", 2, 9));
/// let output = reread(r.read, out.into()).unwrap();
/// assert_eq!(output.document.game_count(), 1);
/// let notes = sgf_core::parse(b"just notes").document;
/// let mut out = Vec::new();
/// assert_eq!(
///     repair_and_write_to(notes, &Default::default(), &RepairOptions::default(), &mut out)
///         .unwrap()
///         .unwrap_err(),
///     Refusal::NoGameTree
/// );
/// assert!(out.is_empty());
/// ```
///
/// # Errors
/// The errors of `out` (outside), and the [`Refusal`] (inside).
pub fn repair_and_write_to<W: std::io::Write>(
    mut doc: Document,
    write: &WriteOptions,
    opts: &RepairOptions,
    out: &mut W,
) -> std::io::Result<Result<Rewritten, Refusal>> {
    let (read, changes) = match repair_for_output(&mut doc, opts) {
        Ok(r) => r,
        Err(e) => return Ok(Err(e)),
    };
    // Placed in the input before it is released.
    let changes = changes
        .into_iter()
        .map(|c| {
            let (l, col) = doc.line_col(c.span.start);
            (c, l, col)
        })
        .collect();
    sgf_core::write_canonical(&doc, write, out)?;
    drop(doc);
    Ok(Ok(Rewritten { read, changes }))
}

/// The repair of [`repair_to_canonical`], once the document is found
/// [`writable`]: the game trees read and the changes.
fn repair_for_output(
    doc: &mut Document,
    opts: &RepairOptions,
) -> Result<(usize, Vec<Change>), Refusal> {
    writable(doc)?;
    let read = doc.game_count();
    let mut opts = *opts;
    opts.utf8_output = true;
    let changes = repair(doc, &opts);
    Ok((read, changes))
}

/// The canonical form written by [`repair_and_write_to`], read again from
/// `bytes` (kept by the document as its source, no copy): refused when it
/// holds fewer game trees than the `read` of the input ([`check_written`]).
///
/// # Errors
/// [`Refusal::NoGameTree`] or [`Refusal::GamesLost`].
pub fn reread(read: usize, bytes: std::sync::Arc<[u8]>) -> Result<Parsed, Refusal> {
    check_reread(read, read_written(bytes))
}

/// The canonical form written by a repair, read as [`reread`] reads it
/// (without the count of its game trees): the same document again, for a
/// report that reads a part of the output a second time.
pub fn read_written(bytes: std::sync::Arc<[u8]>) -> Parsed {
    sgf_core::parse_shared(bytes, &Default::default())
}

fn check_reread(read: usize, re: Parsed) -> Result<Parsed, Refusal> {
    check_written(read, &re.document)?;
    Ok(re)
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
    let mut diags: Vec<Diagnostic> = keep_outside_text(&mut parsed.document)
        .iter()
        .map(change_diagnostic)
        .collect();
    diags.extend(dialect::normalize(&mut parsed.document));
    parsed.document.set_utf8_fallback(before);
    let all = &mut parsed.diagnostics;
    all.retain(|d| d.code != Code::DialectDetected);
    all.append(&mut diags);
    sgf_core::diag::sort_diagnostics(all);
}

/// Text outside the game trees (notes, a title before the first game) is
/// written by the canonical form where it stands; text that would read as
/// SGF there ([`sgf_core::OutsideText::in_place`]: an ISO-2022-JP escape
/// between `(` and `;` that decoding takes away) is kept in the game
/// comment `GC` of the game after it (the last game for text after the
/// last) instead, as every repair keeps what it cannot leave in place.
fn keep_outside_text(doc: &mut Document) -> Vec<Change> {
    let last = doc.game_count().saturating_sub(1);
    let moved: Vec<(Option<usize>, Span, String)> = doc
        .outside_texts()
        .into_iter()
        .filter(|o| !o.in_place)
        .map(|o| (o.before, o.span, o.text.trim().to_string()))
        .collect();
    let mut changes = Vec::new();
    for (before, span, text) in moved {
        let Some(root) = doc.game(before.unwrap_or(last)).map(|g| g.root().id()) else {
            continue;
        };
        let line = format!("Text outside the game trees: {text}");
        if sgf_go::fix::keep_line(doc, root, &line).is_ok() {
            changes.push(Change {
                code: if before == Some(0) {
                    Code::TextBeforeTree
                } else {
                    Code::TextAfterTrees
                },
                message:
                    "text outside the game trees would read as SGF where it stands: kept in GC"
                        .into(),
                span,
                before: text,
                after: line,
            });
        }
    }
    changes
}

/// A change as a diagnostic (information: something was done).
pub fn change_diagnostic(c: &Change) -> Diagnostic {
    Diagnostic::new(c.code, c.span, c.message.clone()).with_severity(Severity::Info)
}
