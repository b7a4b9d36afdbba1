//! Checking a file, and repairing it: the one pipeline behind `qipu check`
//! (and `check --fix`), the viewer's diagnostics and Python's.
//!
//! A large collection is read, checked and repaired a part at a time
//! ([`sgf_formats::parts`]), its parts side by side, joined in file order
//! as they come: the diagnostics capped per code as they are gathered, the
//! rules about the whole file run once on the facts of every game, the
//! repaired output streamed into its file ([`Target::File`]) so that memory
//! holds a few parts of it, not all. The report ([`FileReport`]) is then
//! rendered as `qipu check` prints it ([`FileReport::human`],
//! [`FileReport::json_line`]) or as JSON values for a program
//! ([`FileReport::diagnostics_json`]).
//!
//! ```
//! use sgf_report::check::{CheckOptions, check_bytes};
//! let r = check_bytes("x.sgf", b"(;GM[1]SZ[19];B[pd];W[zz])".to_vec(), &CheckOptions::default());
//! assert_eq!(r.counts(), (1, 0));
//! assert!(r.json_line().contains("\"path\":\"x.sgf\""));
//! ```

use std::sync::Arc;

use rayon::prelude::*;
use serde_json::json;
use sgf_core::diag::{Capped, Omitted, Sink};
use sgf_core::{Code, Diagnostic, Document, Severity, WriteOptions};
use sgf_formats::repair::Change;
use sgf_formats::save::Replacement;

use crate as report;

mod stream;

/// Diagnostics of each code shown per file in human output by default
/// (`qipu check`; all of them in JSON).
pub const DEFAULT_MAX_PER_CODE: usize = 10;

/// How a file is checked.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CheckOptions {
    /// Keep at most this many diagnostics of each code, counting the rest
    /// (0: all).
    pub max_per_code: usize,
    /// Report warnings as errors.
    pub warnings_as_errors: bool,
    /// Codes not reported.
    pub allow: Vec<Code>,
    /// Repair the file first, and write the repair.
    pub fix: Option<Fix>,
    /// Keep the repairs made for the report (a collection can have hundreds
    /// of thousands: a summary needs none).
    pub keep_changes: bool,
    /// Parts of about this many bytes (default: 256 KiB, half that with a
    /// repair, where each part's output and its second reading are held
    /// besides, so that peak memory stays within 3× the input).
    pub part_bytes: Option<usize>,
    /// When every diagnostic is shown (`max_per_code` 0), a part whose
    /// games give more than this many does not hold them: it counts them,
    /// and the report makes them again, in order, as it is written, so
    /// that a file with a problem on every move is reported in bounded
    /// memory (default: one per 512 bytes of the part, at least 256).
    pub held_diagnostics: Option<usize>,
}

/// A repair and where it goes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Fix {
    /// Also move variations written one level too deep up (`G008`).
    pub variation_level: bool,
    /// Where the repaired file goes.
    pub target: Target,
    /// Keep the original as `FILE.bak` when the target is the input.
    pub backup: bool,
}

impl Fix {
    /// A repair to `target`.
    pub fn to(target: Target) -> Fix {
        Fix {
            variation_level: false,
            target,
            backup: false,
        }
    }
}

/// Where a repaired file goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Held in memory for the caller ([`FileReport::held_output`]):
    /// standard output, a viewer.
    Held,
    /// A file, replaced safely once all is written
    /// ([`sgf_formats::save::Replacement`]); the input's own path repairs
    /// it in place (and it must still be what was read).
    File(String),
}

/// How [`FileReport::human`] renders a report.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct HumanOptions {
    /// Only the failure and the summary's counts: no diagnostics, no repairs.
    pub quiet: bool,
    /// Also information (legacy constructs, detected charsets).
    pub info: bool,
    /// ANSI colours.
    pub color: bool,
}

/// The count kept for `code` in `counts` (in order of first appearance),
/// made when first asked.
fn of_code<T: Default>(counts: &mut Vec<(Code, T)>, code: Code) -> &mut T {
    let i = match counts.iter().position(|(c, _)| *c == code) {
        Some(i) => i,
        None => {
            counts.push((code, T::default()));
            counts.len() - 1
        }
    };
    &mut counts[i].1
}

/// Keeps at most `max` diagnostics of each code (0: all); returns what was
/// left out, per code, in order of first appearance.
fn cap_per_code(
    diags: &mut Vec<(usize, Diagnostic)>,
    max: usize,
    dropped: &[(Code, usize)],
) -> Vec<(Code, usize)> {
    if max == 0 {
        return Vec::new();
    }
    let mut seen: Vec<(Code, usize)> = Vec::new();
    diags.retain(|(_, d)| {
        let n = of_code(&mut seen, d.code);
        *n += 1;
        *n <= max
    });
    seen.into_iter()
        .map(|(c, n)| {
            let earlier = dropped.iter().find(|(d, _)| *d == c).map_or(0, |(_, k)| *k);
            (c, n.saturating_sub(max) + earlier)
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Which of a part's diagnostics are shown, chosen in the part (on its
/// worker) so that a part with a problem on every move does not hand over
/// hundreds of thousands the report leaves out.
struct Keep<'a> {
    /// At most this many of each code (0: all).
    max: usize,
    /// With `max` 0, hold at most this many of a part's games' diagnostics
    /// ([`CheckOptions::held_diagnostics`]).
    held: Option<usize>,
    /// Codes not reported.
    allow: &'a [Code],
    warnings_as_errors: bool,
}

/// How many diagnostics of a code a part left out, and of what severity.
#[derive(Default)]
struct LeftOut {
    count: usize,
    errors: usize,
    warnings: usize,
}

impl Keep<'_> {
    /// Whether diagnostics of `code` are reported: not when allowed, nor a
    /// part's own view of the file's charsets (the file's comes from every
    /// part's facts).
    fn shown(&self, code: Code, whole: bool) -> bool {
        !self.allow.contains(&code) && (whole || code != Code::MixedCharsets)
    }

    /// Puts `diags` in the order they are shown, drops the codes allowed
    /// and, but for the file read whole, the part's own view of the file's
    /// charsets (the file's comes from every part's facts), and keeps the
    /// first `max` of each code; returns those left out.
    fn trim(
        &self,
        diags: &mut Vec<Diagnostic>,
        omitted: Vec<(Code, Omitted)>,
        whole: bool,
    ) -> Vec<(Code, LeftOut)> {
        let shown = |code: Code| self.shown(code, whole);
        // The same cap the games gathered with, on the part's whole list
        // in order (so codes are left out in the order they are met).
        sgf_core::diag::sort_diagnostics(diags);
        let mut capped = Capped::new(self.max, 0);
        for d in std::mem::take(diags) {
            if shown(d.code) {
                capped.push(d);
            }
        }
        let (kept, more) = capped.finish();
        *diags = kept;
        let mut out: Vec<(Code, LeftOut)> = Vec::new();
        // Those the games already left out, then those cut here.
        for (code, o) in omitted.into_iter().chain(more).filter(|(c, _)| shown(*c)) {
            let l = of_code(&mut out, code);
            l.count += o.count;
            l.errors += o.errors;
            if self.warnings_as_errors {
                l.errors += o.warnings;
            } else {
                l.warnings += o.warnings;
            }
        }
        out
    }
}

/// What the parts of a file give, joined in file order as they come.
struct Joined {
    parts: Vec<Part>,
    gathered: Gathered,
    changes: Vec<(Change, u32, u32)>,
    /// The changes are shown (not with `--quiet`): else they are not kept.
    keep_changes: bool,
    facts: Vec<sgf_core::validate::GameFacts>,
    dialects: Vec<sgf_formats::DialectCount>,
    out_lines: u32,
    /// Lines of the input before the part being joined.
    in_lines: u32,
}

impl Joined {
    fn new(max: usize, warnings_as_errors: bool) -> Joined {
        Joined {
            parts: Vec::new(),
            gathered: Gathered {
                diags: Vec::new(),
                max,
                warnings_as_errors,
                per_code: Vec::new(),
                left_out: (0, 0),
            },
            changes: Vec::new(),
            keep_changes: true,
            facts: Vec::new(),
            dialects: Vec::new(),
            out_lines: 0,
            in_lines: 0,
        }
    }

    /// Joins the part `piece` (the whole file when `piece.whole`), its
    /// repaired output appended to `output`.
    fn add(&mut self, piece: &sgf_formats::parts::Piece, r: PartResult, output: &mut Output) {
        let range = piece.range.clone();
        let whole = piece.whole;
        // Line numbers: in the input for the changes, in what is reported
        // for the diagnostics (the output after a repair).
        let start = range.start;
        self.in_lines = piece.lines_before;
        for (mut c, l, col) in r.changes.into_iter().filter(|_| self.keep_changes) {
            c.span = sgf_core::Span::new(c.span.start + start as u32, c.span.end + start as u32);
            self.changes.push((c, l + self.in_lines, col));
        }
        // Where this part's diagnostics point: the input part, or its
        // repaired output.
        let (base, lines_before, text_range) = match &r.output {
            Some(PartOutput::Bytes(out)) => {
                let sep: &[u8] = if output.len == 0 {
                    b""
                } else {
                    sgf_core::write::GAME_SEPARATOR
                };
                self.out_lines += memchr::memchr_iter(b'\n', sep).count() as u32;
                let base = output.len + sep.len();
                let lines = self.out_lines;
                self.out_lines += memchr::memchr_iter(b'\n', out).count() as u32;
                output.push(sep, out);
                (base, lines, base..output.len)
            }
            // The whole file's output, written by its work.
            Some(PartOutput::Written { lines }) => {
                let before = self.out_lines;
                self.out_lines += lines;
                (0, before, 0..output.len)
            }
            None => (start, self.in_lines, range.clone()),
        };
        for mut f in r.facts {
            f.start += base as u32;
            self.facts.push(f);
        }
        sgf_formats::merge_dialect_counts(&mut self.dialects, r.dialects, base as u32);
        let index = self.parts.len();
        let mut diagnostics = r.diagnostics;
        let counted = r.counted.map(|(games, after)| {
            let mut c = Counted {
                games,
                before: std::mem::take(&mut diagnostics),
                after,
                whole,
            };
            if self.gathered.warnings_as_errors {
                c.as_errors();
            }
            c
        });
        // In the order they are shown ([`Keep::trim`]), so that the first
        // of each code are kept; then those the part left out are counted.
        for d in diagnostics {
            self.gathered.push(index, d);
        }
        for (code, l) in r.left_out {
            self.gathered.left_out(code, l);
        }
        let shown = match r.shown {
            Ok(shown) => shown,
            Err(charsets) => Shown::Text {
                in_output: r.output.is_some(),
                range: text_range,
                charsets,
            },
        };
        self.parts.push(Part {
            shown,
            lines_before,
            byte_offset: if whole { 0 } else { base as u32 },
            counted,
        });
    }
}

/// Where the repaired output goes as the parts are joined: straight into
/// the destination's temporary file (see [`Replacement`]), so that memory
/// holds a few parts of it, not all; or into memory, for standard output
/// or once the file cannot be written (the failure is reported when the
/// file is committed). The report reads back the parts it quotes.
pub(crate) struct Output {
    file: Option<Replacement>,
    /// All the output so far is in the file.
    writing: bool,
    /// The output held in memory, from byte `held_from` on.
    held: Vec<u8>,
    held_from: usize,
    /// All the output, once read back to be checked (a file read whole).
    shared: Option<Arc<[u8]>>,
    /// Bytes of output so far.
    len: usize,
}

impl Output {
    fn memory() -> Output {
        Output {
            file: None,
            writing: false,
            held: Vec::new(),
            held_from: 0,
            shared: None,
            len: 0,
        }
    }

    fn to_file(path: &str) -> Output {
        let file = Replacement::begin(std::path::Path::new(path));
        Output {
            writing: !file.failed(),
            file: Some(file),
            ..Output::memory()
        }
    }

    /// Appends a part, after `sep`.
    fn push(&mut self, sep: &[u8], part: &[u8]) {
        if self.writing
            && let Some(f) = &mut self.file
        {
            if f.write(sep) && f.write(part) {
                self.len += sep.len() + part.len();
                self.held_from = self.len;
                return;
            }
            // What the file holds is read back: the report may quote it.
            self.writing = false;
            if let Ok(b) = f.read_at(0, self.len) {
                self.held = b;
                self.held_from = 0;
            }
        }
        self.held.extend_from_slice(sep);
        self.held.extend_from_slice(part);
        self.len += sep.len() + part.len();
    }

    /// All the output so far, read back from its file (one allocation of
    /// its size) or taken from memory, and kept shared for the report.
    fn read_all(&mut self) -> std::io::Result<Arc<[u8]>> {
        let all: Arc<[u8]> = match &self.file {
            Some(f) if self.writing => f.read_all_shared()?,
            _ if self.held_from == 0 => Arc::from(std::mem::take(&mut self.held)),
            _ => return Err(std::io::ErrorKind::NotFound.into()),
        };
        self.held.clear();
        self.held_from = self.len;
        self.shared = Some(all.clone());
        Ok(all)
    }

    /// Drops the output so far, to write it again from the start.
    fn restart(&mut self) {
        if self.writing && !self.file.as_mut().is_some_and(|f| f.restart()) {
            self.writing = false;
        }
        self.held.clear();
        self.held_from = 0;
        self.shared = None;
        self.len = 0;
    }

    /// The output's bytes at `range` (empty when they cannot be read back).
    fn text(&self, range: std::ops::Range<usize>) -> std::borrow::Cow<'_, [u8]> {
        use std::borrow::Cow;
        if let Some(all) = &self.shared {
            return Cow::Borrowed(all.get(range).unwrap_or_default());
        }
        if range.start >= self.held_from {
            let r = range.start - self.held_from..range.end - self.held_from;
            return Cow::Borrowed(self.held.get(r).unwrap_or_default());
        }
        self.file
            .as_ref()
            .and_then(|f| f.read_at(range.start as u64, range.len()).ok())
            .map_or(Cow::Borrowed(&[][..]), Cow::Owned)
    }
}

/// The canonical writer of a file read whole writes into the output as it
/// makes it (see [`Output::push`]: it never fails, the file's failure is
/// reported at its commit).
impl std::io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.push(b"", buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The diagnostics of a file's parts as they come, in file order, capped
/// as they are gathered: a collection can have hundreds of thousands, and
/// only the first `max` of each code are shown (all with `max` 0). Those
/// left out are counted for the summary.
struct Gathered {
    diags: Vec<(usize, Diagnostic)>,
    max: usize,
    warnings_as_errors: bool,
    /// Per code: seen so far, and left out.
    per_code: Vec<(Code, (usize, usize))>,
    /// Errors and warnings among those left out.
    left_out: (usize, usize),
}

impl Gathered {
    fn push(&mut self, part: usize, mut d: Diagnostic) {
        if self.warnings_as_errors && d.severity == Severity::Warning {
            d.severity = Severity::Error;
        }
        if self.max > 0 {
            let (seen, left) = of_code(&mut self.per_code, d.code);
            *seen += 1;
            if *seen > self.max {
                *left += 1;
                match d.severity {
                    Severity::Error => self.left_out.0 += 1,
                    Severity::Warning => self.left_out.1 += 1,
                    _ => {}
                }
                return;
            }
        }
        self.diags.push((part, d));
    }

    /// Counts diagnostics a part left out: they came after the part's own
    /// first `max` of their code, so the file's cap leaves them out too.
    fn left_out(&mut self, code: Code, l: LeftOut) {
        let (seen, left) = of_code(&mut self.per_code, code);
        *seen += l.count;
        *left += l.count;
        self.left_out.0 += l.errors;
        self.left_out.1 += l.warnings;
    }

    /// Codes and how many of each were left out.
    fn dropped(&self) -> Vec<(Code, usize)> {
        self.per_code
            .iter()
            .filter(|(_, (_, k))| *k > 0)
            .map(|(c, (_, k))| (*c, *k))
            .collect()
    }
}

/// A part of a file as checked: the whole file, or a run of whole games
/// of a large collection (see [`sgf_core::split`]), with what its
/// diagnostics are shown against.
struct Part {
    shown: Shown,
    /// Lines of the file before the part, and its first byte.
    lines_before: u32,
    byte_offset: u32,
    /// Its games' diagnostics, too many to hold, are made again when the
    /// report is written: none of the part's are in the report's list.
    counted: Option<Counted>,
}

/// A part whose games' diagnostics are counted, not held (see
/// [`stream`]), with those that are held: the reader's before them and
/// the rules about the file after them, each in order.
struct Counted {
    games: stream::Counted,
    before: Vec<Diagnostic>,
    after: Vec<Diagnostic>,
    /// The part is the whole file (its charsets are the file's).
    whole: bool,
}

impl Counted {
    /// Warnings held are errors (`-W`); those made again become errors as
    /// they are made.
    fn as_errors(&mut self) {
        for d in self.before.iter_mut().chain(&mut self.after) {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }

    /// Errors and warnings, those made again included.
    fn counts(&self, warnings_as_errors: bool) -> (usize, usize) {
        let (mut e, mut w) = (self.games.errors, self.games.warnings);
        if warnings_as_errors {
            e += w;
            w = 0;
        }
        for d in self.before.iter().chain(&self.after) {
            match d.severity {
                Severity::Error => e += 1,
                Severity::Warning => w += 1,
                Severity::Info => {}
            }
        }
        (e, w)
    }
}

/// What a part's diagnostics point into.
enum Shown {
    /// The document of a file read whole, and for a record converted from
    /// another format its input, where the reader's diagnostics point
    /// (see [`report::Sources`]).
    Doc(
        Box<Document>,
        Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
    ),
    /// A part's bytes in the input, or in the repaired output, read in
    /// these charsets: the part's document is dropped once checked, so
    /// that memory holds a part or two, not the whole tree.
    Text {
        in_output: bool,
        range: std::ops::Range<usize>,
        charsets: Charsets,
    },
}

/// A text's charset and where its games read in others start.
type Charsets = (
    &'static encoding_rs::Encoding,
    Vec<(u32, &'static encoding_rs::Encoding)>,
);

/// The outcome of checking one file (see the module docs).
pub struct FileReport {
    name: String,
    /// The input (differs from `name` after --fix -o).
    input: String,
    parts: Vec<Part>,
    /// What is left to report, with the part each points into.
    diagnostics: Vec<(usize, Diagnostic)>,
    /// Repairs, with their line and column in the input (spans in the file).
    changes: Vec<(Change, u32, u32)>,
    /// Diagnostics left out by `--max-diagnostics`, per code.
    omitted: Vec<(Code, usize)>,
    /// Errors and warnings found, before any were left out.
    counts: (usize, usize),
    error: Option<String>,
    /// The file is not a game record (see [`sgf_formats::judge`]): the
    /// error says so.
    not_record: Option<sgf_formats::judge::NotRecord>,
    /// The error is that the repair could not be written (the file was read).
    unwritten: bool,
    /// The input and the repaired output, which the parts' diagnostics
    /// point into.
    bytes: Arc<[u8]>,
    output: Output,
    /// What the diagnostics of a part made again need: the codes not
    /// reported, `-W`, and how a part's text is read again.
    allow: Vec<Code>,
    warnings_as_errors: bool,
    part_opts: sgf_formats::parts::PartOptions,
}

impl FileReport {
    fn failed(path: &str, error: String) -> FileReport {
        FileReport {
            name: display_name(path),
            input: path.to_string(),
            parts: Vec::new(),
            diagnostics: Vec::new(),
            changes: Vec::new(),
            omitted: Vec::new(),
            counts: (0, 0),
            error: Some(error),
            not_record: None,
            unwritten: false,
            bytes: Arc::from(&[][..]),
            output: Output::memory(),
            allow: Vec::new(),
            warnings_as_errors: false,
            part_opts: sgf_formats::parts::PartOptions::default(),
        }
    }
}

/// The diagnostics of reading and of every game, without the rules about
/// the whole file; the games are checked on every core. A game keeps at
/// most `max` of each code (0: all), and counts the rest: a file with a
/// problem on every move does not hold them all.
fn game_diagnostics(
    parsed: &mut sgf_core::Parsed,
    max: usize,
) -> (Vec<Diagnostic>, Vec<(Code, Omitted)>) {
    let doc = &parsed.document;
    // Taken, not copied: a file can have a problem on every move.
    let mut all = std::mem::take(&mut parsed.diagnostics);
    let per_game: Vec<_> = (0..doc.game_count())
        .into_par_iter()
        .map(|gi| {
            let mut out = Capped::new(max, 0);
            sgf_go::check::check_game_into(doc, gi, &mut out);
            out.finish()
        })
        .collect();
    let mut omitted: Vec<(Code, Omitted)> = Vec::new();
    for (g, left) in per_game {
        // Moved, not copied, when the reader found nothing.
        if all.is_empty() {
            all = g;
        } else {
            all.extend(g);
        }
        for (code, o) in left {
            let t = of_code(&mut omitted, code);
            t.count += o.count;
            t.errors += o.errors;
            t.warnings += o.warnings;
        }
    }
    sgf_core::diag::sort_diagnostics(&mut all);
    (all, omitted)
}

/// A part's diagnostics, shown ones in order ([`Keep::trim`]), those left
/// out, and when all are shown but its games give too many to hold, their
/// counts (the diagnostics held are then the reader's, and the rules about
/// the file come apart).
fn part_diagnostics(
    parsed: &mut sgf_core::Parsed,
    keep: &Keep<'_>,
    whole: bool,
) -> (Vec<Diagnostic>, Vec<(Code, LeftOut)>, Option<CountedGames>) {
    let rules = |doc: &Document| {
        if whole {
            sgf_core::validate::validate_document(doc)
        } else {
            Vec::new()
        }
    };
    if keep.max > 0 {
        let (mut diagnostics, omitted) = game_diagnostics(parsed, keep.max);
        diagnostics.extend(rules(&parsed.document));
        let left_out = keep.trim(&mut diagnostics, omitted, whole);
        return (diagnostics, left_out, None);
    }
    let doc = &parsed.document;
    let limit = stream::held_limit(doc.source().len(), keep.held);
    let shown = |code: Code| keep.shown(code, whole);
    // Taken, not copied: a file can have a problem on every move.
    let mut all = std::mem::take(&mut parsed.diagnostics);
    match stream::check_games(doc, &shown, limit) {
        stream::Games::Held(games) => {
            if all.is_empty() {
                all = games;
            } else {
                all.extend(games);
            }
            sgf_core::diag::sort_diagnostics(&mut all);
            all.extend(rules(doc));
            let left_out = keep.trim(&mut all, Vec::new(), whole);
            (all, left_out, None)
        }
        stream::Games::Counted(games) => {
            let left_out = keep.trim(&mut all, Vec::new(), whole);
            let mut after = rules(doc);
            keep.trim(&mut after, Vec::new(), whole);
            (all, left_out, Some((games, after)))
        }
    }
}

/// A part's games' diagnostics, counted and not held, and the rules about
/// the file that come after them.
type CountedGames = (stream::Counted, Vec<Diagnostic>);

/// What checking (and repairing) one part gives.
struct PartResult {
    /// The diagnostics shown, in order ([`Keep::trim`]).
    diagnostics: Vec<Diagnostic>,
    /// Those left out by the cap per code.
    left_out: Vec<(Code, LeftOut)>,
    /// Its games' diagnostics when counted, not held (`diagnostics` are
    /// then the reader's), and the rules about the file after them.
    counted: Option<CountedGames>,
    /// What the diagnostics point into: the document (a file read whole),
    /// or the charsets of the part's text (the input, or the output).
    shown: Result<Shown, Charsets>,
    /// The repairs, with their line and column in the part.
    changes: Vec<(Change, u32, u32)>,
    /// The repaired output of the part.
    output: Option<PartOutput>,
    facts: Vec<sgf_core::validate::GameFacts>,
    /// The dialects of a part's games, reported once for the whole file.
    dialects: Vec<sgf_formats::DialectCount>,
}

/// A part's repaired output.
enum PartOutput {
    /// Its bytes (shared with its document), to be joined.
    Bytes(Arc<[u8]>),
    /// The whole file's output, written as it was made, of this many lines.
    Written { lines: u32 },
}

/// Why a part was not checked (or its repair not written).
enum NotChecked {
    /// The library refused the repair.
    Refused(sgf_formats::repair::Refusal),
    /// The output written could not be read back to be checked.
    Unread(String),
}

/// What a part's diagnostics are shown against: its document when the file
/// is read whole (or its text is not the file's bytes), else its charsets.
fn shown_of(
    doc: Document,
    original: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
    whole: bool,
) -> Result<Shown, Charsets> {
    if whole || original.is_some() || doc.original().len() != doc.source().len() {
        Ok(Shown::Doc(Box::new(doc), original))
    } else {
        Err(report::game_charsets(&doc))
    }
}

/// Checks a record (or a part of one: not `whole`), repairing it first
/// with `--fix`, its changes kept when `keep_changes`. A repair the
/// library refuses (no game tree, games lost, an undecodable charset) is
/// an error: nothing is written.
///
/// The repair of a file read whole is written into `output` as it is
/// made, its input released with its document, and read back from there
/// to be checked: memory holds the input or the output, and one tree.
fn check_loaded(
    loaded: sgf_formats::Loaded,
    keep: &Keep<'_>,
    input: Option<&[u8]>,
    fix: Option<&Fix>,
    whole: bool,
    keep_changes: bool,
    output: &std::sync::Mutex<Output>,
) -> Result<PartResult, NotChecked> {
    // For a record converted from another format, its input and charset:
    // the reader's diagnostics point into them.
    let original = loaded
        .converted
        .then(|| (input.unwrap_or_default().to_vec(), loaded.encoding()));
    let Some(fix) = fix else {
        let mut parsed = loaded.parsed;
        let (diagnostics, left_out, counted) = part_diagnostics(&mut parsed, keep, whole);
        let doc = parsed.document;
        let facts = (0..doc.game_count())
            .map(|gi| sgf_core::validate::game_facts(&doc, gi))
            .collect();
        // The reader reports the dialects of a file read whole; a part's
        // are counted for the file.
        let dialects = if whole {
            Vec::new()
        } else {
            sgf_formats::dialect_counts(&doc)
        };
        return Ok(PartResult {
            dialects,
            diagnostics,
            left_out,
            counted,
            shown: shown_of(doc, original, whole),
            changes: Vec::new(),
            output: None,
            facts,
        });
    };
    // Repaired in place (the source, and so every span, stays as read),
    // the document released once written; what is reported is what is
    // left in the output.
    let mut opts = sgf_formats::repair::RepairOptions::default();
    opts.variation_level = fix.variation_level;
    use sgf_formats::repair::{repair_and_write_to, reread};
    let write = WriteOptions::default();
    let unread =
        |e: std::io::Error| NotChecked::Unread(format!("cannot read back the repair: {e}"));
    let (changes, re, written) = if whole {
        let mut out = output
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let r = repair_and_write_to(loaded.parsed.document, &write, &opts, &mut *out)
            .map_err(unread)?
            .map_err(NotChecked::Refused)?;
        let all = out.read_all().map_err(unread)?;
        drop(out);
        let lines = memchr::memchr_iter(b'\n', &all).count() as u32;
        let re = reread(r.read, all).map_err(NotChecked::Refused)?;
        (r.changes, re, PartOutput::Written { lines })
    } else {
        let mut bytes = Vec::new();
        let r = repair_and_write_to(loaded.parsed.document, &write, &opts, &mut bytes)
            .map_err(unread)?
            .map_err(NotChecked::Refused)?;
        // Shared with the document read from them.
        let bytes: Arc<[u8]> = Arc::from(bytes);
        let re = reread(r.read, bytes.clone()).map_err(NotChecked::Refused)?;
        (r.changes, re, PartOutput::Bytes(bytes))
    };
    // Not held while the output is checked when the report does not show
    // them: a repair of every move has as many.
    let changes = if keep_changes {
        changes
    } else {
        drop(changes);
        Vec::new()
    };
    let mut re = re;
    let (diagnostics, left_out, counted) = part_diagnostics(&mut re, keep, whole);
    let facts = (0..re.document.game_count())
        .map(|gi| sgf_core::validate::game_facts(&re.document, gi))
        .collect();
    Ok(PartResult {
        dialects: Vec::new(),
        diagnostics,
        left_out,
        counted,
        shown: shown_of(re.document, None, whole),
        changes,
        output: Some(written),
        facts,
    })
}

/// Reads and checks the file at `path` (`-`: standard input), repairing
/// it first with [`CheckOptions::fix`]: only a regular file, at most
/// [`sgf_formats::input::MAX_INPUT_BYTES`]. Failures are in the report.
pub fn check_path(path: &str, opts: &CheckOptions) -> FileReport {
    use sgf_formats::input::{MAX_INPUT_BYTES, read_named};
    // A path, `-`, or `ARCHIVE!MEMBER`.
    let bytes = read_named(path, MAX_INPUT_BYTES).map_err(|e| {
        if path == "-" {
            format!("cannot read standard input: {e}")
        } else {
            format!("cannot read {path}: {e}")
        }
    });
    match bytes {
        Ok(b) => check_bytes(path, b, opts),
        Err(e) => FileReport::failed(path, e),
    }
}

/// Checks `bytes`, read from `path` (`-`: standard input; its extension
/// breaks ties between formats), repairing them first with
/// [`CheckOptions::fix`].
pub fn check_bytes(path: &str, bytes: impl Into<Arc<[u8]>>, opts: &CheckOptions) -> FileReport {
    // Shared: a document read whole keeps them as its source, no copy.
    let bytes: Arc<[u8]> = bytes.into();
    let allow = &opts.allow[..];
    let fix = opts.fix.as_ref();
    // A repair reports what it changes, not the dialects it reads.
    let mut read_opts = sgf_formats::ReadOptions::default();
    read_opts.dialect_report = fix.is_none();
    let hint = (path != "-").then(|| std::path::Path::new(path));
    // The parts of a large collection are read, checked and repaired side
    // by side, a few at a time, and joined in file order as they come
    // (sgf_formats::parts), so that memory holds a few parts, not all of
    // them; a file that cannot be cut is read whole.
    let max = opts.max_per_code;
    // The repaired output goes to its file as it is made.
    let target = fix.map(|f| match &f.target {
        Target::Held => "-".to_string(),
        Target::File(t) => t.clone(),
    });
    // Replacing the file read: it must still be what was read then.
    let read =
        (target.as_deref() == Some(path)).then(|| sgf_formats::save::Fingerprint::of(&bytes));
    let output = std::sync::Mutex::new(match &target {
        Some(t) if t != "-" => Output::to_file(t),
        _ => Output::memory(),
    });
    let mut joined = Joined::new(max, opts.warnings_as_errors);
    // A collection can have hundreds of thousands; only the report shows them.
    let keep_changes = opts.keep_changes;
    joined.keep_changes = keep_changes;
    let mut whole = true;
    let mut refused = None;
    let part_opts = sgf_formats::parts::PartOptions::default()
        .with_part_bytes(
            opts.part_bytes
                .unwrap_or(if fix.is_some() { 1 << 17 } else { 1 << 18 }),
        )
        .with_read(read_opts);
    // A record converted from another format does not keep its input,
    // which its diagnostics point into: kept for them.
    let converted = sgf_formats::parts::format_of(&bytes, hint, part_opts.format.as_deref())
        .is_ok_and(|f| f.name() != "SGF")
        .then(|| bytes.clone());
    let mut held = Some(bytes);
    let keep = Keep {
        max,
        held: opts.held_diagnostics,
        allow,
        warnings_as_errors: opts.warnings_as_errors,
    };
    let work = |piece: &sgf_formats::parts::Piece, l| {
        check_loaded(
            l,
            &keep,
            converted.as_deref(),
            fix,
            piece.whole,
            keep_changes,
            &output,
        )
    };
    let join = |step: sgf_formats::parts::Step<Result<PartResult, NotChecked>>| {
        let mut out = output
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match step {
            sgf_formats::parts::Step::Part(piece, Ok(r)) => {
                whole = piece.whole;
                joined.add(&piece, r, &mut out);
            }
            sgf_formats::parts::Step::Part(piece, Err(e)) => {
                refused = Some(match e {
                    NotChecked::Refused(e) => e.in_file(piece.first_game).to_string(),
                    NotChecked::Unread(e) => e,
                });
                return std::ops::ControlFlow::Break(());
            }
            sgf_formats::parts::Step::Restart => {
                out.restart();
                joined = Joined::new(max, opts.warnings_as_errors);
                joined.keep_changes = keep_changes;
            }
        }
        std::ops::ControlFlow::Continue(())
    };
    let res = if fix.is_some() {
        // Handed over to a repair: a file read whole is held by its
        // document alone, and released with it once repaired (the report
        // then gives back no input, see `FileReport::into_input`); a
        // collection read in parts keeps them.
        sgf_formats::parts::map_parts_owned(&mut held, hint, &part_opts, work, join)
    } else {
        let shared = held.clone().unwrap_or_else(|| Arc::from(&[][..]));
        sgf_formats::parts::map_parts(&shared, hint, &part_opts, work, join)
    };
    let bytes = held.or(converted).unwrap_or_else(|| Arc::from(&[][..]));
    let mut output = output
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Err(e) = res {
        let mut r = match e.not_record {
            Some(why) => {
                let mut r = FileReport::failed(path, why.sentence(&display_name(path)));
                r.not_record = Some(why);
                r
            }
            None => FileReport::failed(path, format!("cannot read {path}: {e}")),
        };
        r.bytes = bytes;
        return r;
    }
    if let Some(e) = refused {
        // Nothing is written: the output begun is dropped.
        drop(output);
        let mut r = FileReport::failed(path, format!("{path}: {e}"));
        r.unwritten = true;
        r.bytes = bytes;
        return r;
    }
    let Joined {
        mut parts,
        gathered,
        changes,
        facts,
        dialects,
        ..
    } = joined;
    let mut changes = changes;
    let mut error = None;
    let mut unwritten = false;
    // Read, but with no game tree: not a game record, said beside the
    // reader's S002.
    let not_record = facts
        .is_empty()
        .then_some(sgf_formats::judge::NotRecord::NoGameTree);
    if let Some(why) = &not_record {
        error = Some(why.sentence(&display_name(path)));
    }
    let dropped = gathered.dropped();
    let left_out = gathered.left_out;
    let mut diags = gathered.diags;
    if !whole {
        // The rules about the whole file, from the facts of every game:
        // their spans are in the file, shown with the part they fall in.
        // Placed as reading the whole file places them: the reader's
        // dialect reports before what else is found at the same place, the
        // rules about the file after.
        let place = |mut d: Diagnostic| {
            let pi = parts
                .iter()
                .rposition(|p| p.byte_offset <= d.span.start)
                .unwrap_or(0);
            let off = parts.get(pi).map_or(0, |p| p.byte_offset);
            d.span = sgf_core::Span::new(
                d.span.start - off.min(d.span.start),
                d.span.end - off.min(d.span.end),
            );
            (pi, d)
        };
        let mut reported: Vec<(usize, Diagnostic)> = sgf_formats::dialect_report(&dialects)
            .into_iter()
            .filter(|d| !allow.contains(&d.code))
            .map(place)
            .collect();
        // First, as the reader of the whole file reports it.
        if let Some(d) =
            sgf_core::validate::mixed_charsets(facts.iter().filter_map(|f| f.declared.as_deref()))
                .filter(|d| !allow.contains(&d.code))
        {
            reported.insert(0, place(d));
        }
        let rules: Vec<(usize, Diagnostic)> = sgf_core::validate::document_rules(&facts)
            .into_iter()
            .filter(|d| !allow.contains(&d.code))
            .map(place)
            .collect();
        // A part whose games' diagnostics are made again holds its own:
        // these before the reader's, or after all, as in the list.
        let (front, rules) = place_counted(&mut parts, reported, rules);
        diags.splice(0..0, front);
        diags.extend(rules);
    }
    match target {
        // Held: the caller writes it.
        Some(t) if t == "-" => {}
        Some(t) => {
            let backup = fix.is_some_and(|f| f.backup);
            if let Err(e) = write_fixed(&t, path, &mut output, backup, read) {
                error = Some(e);
                unwritten = true;
            }
        }
        None => {}
    }
    // In file order, whichever step made them (dialects first, repairs
    // after, part by part).
    changes.sort_by_key(|(c, _, _)| c.span.start);
    if opts.warnings_as_errors {
        for (_, d) in &mut diags {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
        for c in parts.iter_mut().filter_map(|p| p.counted.as_mut()) {
            c.as_errors();
        }
    }
    diags.sort_by_key(|(p, d)| (*p, d.span.start, d.span.end));
    let mut counts = (
        left_out.0
            + diags
                .iter()
                .filter(|(_, d)| d.severity == Severity::Error)
                .count(),
        left_out.1
            + diags
                .iter()
                .filter(|(_, d)| d.severity == Severity::Warning)
                .count(),
    );
    for c in parts.iter().filter_map(|p| p.counted.as_ref()) {
        let (e, w) = c.counts(opts.warnings_as_errors);
        counts.0 += e;
        counts.1 += w;
    }
    let omitted = cap_per_code(&mut diags, max, &dropped);
    // After --fix -o, what is left is in the output file: name it.
    let name = match fix.map(|f| &f.target) {
        Some(Target::File(o)) => o.clone(),
        _ => display_name(path),
    };
    FileReport {
        name,
        input: path.to_string(),
        parts,
        diagnostics: diags,
        changes,
        omitted,
        counts,
        error,
        not_record,
        unwritten,
        bytes,
        output,
        allow: allow.to_vec(),
        warnings_as_errors: opts.warnings_as_errors,
        part_opts: part_opts.clone(),
    }
}

/// Diagnostics with the part they are shown in.
type Placed = Vec<(usize, Diagnostic)>;

/// Gives the rules about the file placed in a part whose games'
/// diagnostics are made again ([`Counted`]) to that part: those `before`
/// the part's own on equal spans (the reader's dialects, mixed charsets),
/// and those `after` (the rules about the file). Returns the others.
fn place_counted(parts: &mut [Part], before: Placed, after: Placed) -> (Placed, Placed) {
    let mut placed: Vec<(usize, Vec<Diagnostic>, Vec<Diagnostic>)> = Vec::new();
    let mut place = |(pi, d): (usize, Diagnostic), first: bool, rest: &mut Vec<_>| {
        if parts.get(pi).is_some_and(|p| p.counted.is_some()) {
            let at = match placed.iter().position(|(p, _, _)| *p == pi) {
                Some(i) => i,
                None => {
                    placed.push((pi, Vec::new(), Vec::new()));
                    placed.len() - 1
                }
            };
            let (_, b, a) = &mut placed[at];
            if first { b } else { a }.push(d);
        } else {
            rest.push((pi, d));
        }
    };
    let (mut front, mut back) = (Vec::new(), Vec::new());
    for d in before {
        place(d, true, &mut front);
    }
    for d in after {
        place(d, false, &mut back);
    }
    let by_span = |d: &Diagnostic| (d.span.start, d.span.end);
    for (pi, mut b, a) in placed {
        if let Some(c) = parts.get_mut(pi).and_then(|p| p.counted.as_mut()) {
            // Stable sorts: the earlier in the list first on equal spans.
            b.append(&mut c.before);
            b.sort_by_key(by_span);
            c.before = b;
            c.after.extend(a);
            c.after.sort_by_key(by_span);
        }
    }
    (front, back)
}

/// Puts the repaired output, written as it came, in place of `target`.
fn write_fixed(
    target: &str,
    source: &str,
    output: &mut Output,
    backup: bool,
    read: Option<sgf_formats::save::Fingerprint>,
) -> Result<(), String> {
    use sgf_formats::save::SaveOptions;
    let in_place = target == source;
    let mut opts = SaveOptions::default();
    opts.backup = backup && in_place;
    // In place, the file must still be what was checked.
    opts.expected = read.filter(|_| in_place);
    let file = output
        .file
        .as_mut()
        .ok_or_else(|| format!("cannot write {target}: no file"))?;
    file.commit(&opts)
        .map_err(|e| format!("cannot write {target}: {e}"))?;
    Ok(())
}

impl FileReport {
    /// The name the report shows: the input, or after a repair into
    /// another file that file (what is left is in it).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Errors and warnings found, before any were left out.
    pub fn counts(&self) -> (usize, usize) {
        self.counts
    }

    /// Why the file could not be checked, or its repair written.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The file could not be read (or checked), or is not a game record.
    pub fn unreadable(&self) -> bool {
        self.error.is_some() && !self.unwritten
    }

    /// Why the file is not a game record (see [`sgf_formats::judge`]):
    /// binary, an archive, or text holding no game tree.
    pub fn not_record(&self) -> Option<&sgf_formats::judge::NotRecord> {
        self.not_record.as_ref()
    }

    /// The file was read, but its repair could not be written (or was
    /// refused): the file is as it was.
    pub fn unwritten(&self) -> bool {
        self.unwritten
    }

    /// The repairs made, with their line and column in the input (spans
    /// in the file), when kept ([`CheckOptions::keep_changes`]).
    pub fn changes(&self) -> &[(Change, u32, u32)] {
        &self.changes
    }

    /// The repaired file, for [`Target::Held`].
    pub fn held_output(&self) -> Option<&[u8]> {
        let o = &self.output;
        let all = o.shared.as_deref().unwrap_or(&o.held[..]);
        (self.error.is_none() && o.file.is_none() && !all.is_empty()).then_some(all)
    }

    /// The diagnostics kept, in their JSON shape ([`crate::DiagnosticJson`]),
    /// in order, at most `limit` of those `shown` keeps.
    pub fn diagnostics(
        &self,
        limit: usize,
        shown: impl Fn(&Diagnostic) -> bool,
    ) -> Vec<report::DiagnosticJson> {
        let mut out = Vec::new();
        for_each_part(
            self,
            |d| shown(d),
            |src, d| {
                if out.len() < limit {
                    out.push(report::DiagnosticJson::of(src, d));
                }
            },
        );
        out
    }

    /// The diagnostics kept as JSON values (see [`crate::to_json`]), in
    /// order, at most `limit` of those `shown` keeps.
    pub fn diagnostics_json(
        &self,
        limit: usize,
        shown: impl Fn(&Diagnostic) -> bool,
    ) -> Vec<serde_json::Value> {
        self.diagnostics(limit, shown)
            .into_iter()
            .filter_map(|d| serde_json::to_value(d).ok())
            .collect()
    }

    /// The bytes checked, given back (the caller keeps the file without a
    /// copy): empty after the repair of a file read whole, whose input is
    /// released once repaired.
    pub fn into_input(self) -> Arc<[u8]> {
        self.bytes
    }

    /// The report as `qipu check --json` prints it: one line.
    pub fn json_line(&self) -> String {
        let mut out = Vec::new();
        // Writing into memory cannot fail, and serde_json writes UTF-8.
        let _ = write_json_line(self, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes [`FileReport::json_line`] and its newline to `out` as it is
    /// made, without holding the line (a file with a problem on every move
    /// gives hundreds of megabytes of it).
    pub fn write_json_line(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_json_line(self, out)?;
        out.write_all(b"\n")
    }

    /// The report as `qipu check` prints it.
    pub fn human(&self, opts: &HumanOptions) -> String {
        let mut out = Vec::new();
        // Writing into memory cannot fail, and the report is UTF-8.
        let _ = write_human(self, opts, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes [`FileReport::human`] to `out` as it is made, without holding
    /// it (with every diagnostic shown, a file with a problem on every
    /// move gives hundreds of megabytes of it).
    pub fn write_human(
        &self,
        opts: &HumanOptions,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        write_human(self, opts, out)
    }
}

/// The name a path is shown by (`<stdin>` for `-`).
fn display_name(path: &str) -> String {
    if path == "-" {
        "<stdin>".into()
    } else {
        path.into()
    }
}

/// Writes the report's JSON line (without its newline) to `out`, one
/// diagnostic at a time: a file can have hundreds of thousands, and the
/// line is never held whole. The keys come in the order serde_json writes
/// an object's (sorted), as when it was one `Value`.
fn write_json_line(r: &FileReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    out.write_all(b"{")?;
    if !r.changes.is_empty() {
        out.write_all(b"\"changes\":[")?;
        for (i, (c, l, col)) in r.changes.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, &report::change_json(c, *l, *col))?;
        }
        out.write_all(b"],")?;
    }
    out.write_all(b"\"diagnostics\":[")?;
    let mut first = true;
    let mut failed = None;
    for_each_part(
        r,
        |_| true,
        |src, d| {
            if failed.is_some() {
                return;
            }
            let sep: &[u8] = if first { b"" } else { b"," };
            first = false;
            let res = out
                .write_all(sep)
                .and_then(|()| Ok(serde_json::to_writer(&mut *out, &report::to_json(src, d))?));
            if let Err(e) = res {
                failed = Some(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    out.write_all(b"]")?;
    if let Some(e) = &r.error {
        out.write_all(b",\"error\":")?;
        serde_json::to_writer(&mut *out, e)?;
    }
    if let Some(why) = &r.not_record {
        out.write_all(b",\"not_record\":")?;
        serde_json::to_writer(&mut *out, why.code())?;
    }
    if !r.omitted.is_empty() {
        let omitted: serde_json::Map<_, _> = r
            .omitted
            .iter()
            .map(|(c, n)| (c.as_str().to_string(), json!(n)))
            .collect();
        out.write_all(b",\"omitted\":")?;
        serde_json::to_writer(&mut *out, &serde_json::Value::from(omitted))?;
    }
    out.write_all(b",\"path\":")?;
    serde_json::to_writer(&mut *out, &r.name)?;
    out.write_all(b"}")
}

/// The text of a part shown against its text (the input's bytes, or the
/// repaired output's, read back from the file written), with its charsets.
fn part_text<'a>(r: &'a FileReport, p: &Part) -> Option<std::borrow::Cow<'a, [u8]>> {
    match &p.shown {
        Shown::Doc(..) => None,
        Shown::Text {
            in_output, range, ..
        } => Some(if *in_output {
            r.output.text(range.clone())
        } else {
            std::borrow::Cow::Borrowed(r.bytes.get(range.clone()).unwrap_or_default())
        }),
    }
}

/// The sources a part's diagnostics are shown against, placed in the file;
/// `text` is the part's [`part_text`].
fn part_sources<'a>(p: &'a Part, text: Option<&'a [u8]>) -> report::Sources<'a> {
    let sources = match &p.shown {
        Shown::Doc(doc, original) => report::Sources::new(doc, original.as_ref()),
        Shown::Text { charsets, .. } => report::Sources::one(report::Source::text(
            text.unwrap_or_default(),
            charsets.clone(),
        )),
    };
    sources.at(p.lines_before, p.byte_offset)
}

/// Calls `f` on each diagnostic that `shown` keeps, in order, with the
/// sources of its part. The diagnostics come part by part: a part's text
/// and line index are made when something of it is shown, and dropped
/// with the next part, so that memory holds one part's.
fn for_each_part(
    r: &FileReport,
    shown: impl Fn(&Diagnostic) -> bool,
    mut f: impl FnMut(&report::Sources, &Diagnostic),
) {
    let mut rest = &r.diagnostics[..];
    for (pi, part) in r.parts.iter().enumerate() {
        let n = rest.iter().take_while(|(p, _)| *p == pi).count();
        let (group, after) = rest.split_at(n);
        rest = after;
        if let Some(c) = &part.counted {
            made_again(r, part, c, &shown, &mut f);
            continue;
        }
        if !group.iter().any(|(_, d)| shown(d)) {
            continue;
        }
        let text = part_text(r, part);
        let src = part_sources(part, text.as_deref());
        for (_, d) in group {
            if shown(d) {
                f(&src, d);
            }
        }
    }
}

/// Calls `f` on the diagnostics of a part whose games' are counted, made
/// again from its document (read again from its text when it was
/// dropped), in order (see [`stream`]).
fn made_again(
    r: &FileReport,
    part: &Part,
    c: &Counted,
    shown: &dyn Fn(&Diagnostic) -> bool,
    f: &mut dyn FnMut(&report::Sources, &Diagnostic),
) {
    let text = part_text(r, part);
    let src = part_sources(part, text.as_deref());
    let read_again;
    let doc = match &part.shown {
        Shown::Doc(doc, _) => Some(&**doc),
        Shown::Text { in_output, .. } => {
            let bytes = text.as_deref().unwrap_or_default();
            read_again = if *in_output {
                Some(sgf_formats::repair::read_written(Arc::from(bytes)).document)
            } else {
                // Read once already, the same way.
                sgf_formats::parts::read_part(bytes, &r.part_opts)
                    .ok()
                    .map(|l| l.parsed.document)
            };
            read_again.as_ref()
        }
    };
    // The codes the part's check reported ([`Keep::shown`]).
    let keep = Keep {
        max: 0,
        held: None,
        allow: &r.allow,
        warnings_as_errors: r.warnings_as_errors,
    };
    let codes = |code: Code| keep.shown(code, c.whole);
    let mut each = |d: &Diagnostic| {
        if shown(d) {
            f(&src, d);
        }
    };
    match doc {
        Some(doc) => stream::merge_counted(
            doc,
            &c.games,
            &codes,
            r.warnings_as_errors,
            (&c.before, &c.after),
            &mut each,
        ),
        None => c.before.iter().chain(&c.after).for_each(each),
    }
}

/// Writes the human report to `out` as it is made: with every diagnostic
/// shown, a file with a problem on every move gives hundreds of
/// megabytes of it.
fn write_human(
    r: &FileReport,
    opts: &HumanOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let color = opts.color;
    match &r.error {
        // A sentence that names the file.
        Some(e) if r.not_record.is_some() => writeln!(out, "{e}")?,
        Some(e) => writeln!(out, "{}: {e}", r.name)?,
        None => {}
    }
    if opts.quiet {
        return Ok(());
    }
    for (c, l, col) in &r.changes {
        writeln!(
            out,
            "{}:{l}:{col}: fixed [{}] {}",
            r.input,
            c.code.as_str(),
            c.message
        )?;
    }
    let mut failed = None;
    for_each_part(
        r,
        |d| d.severity != Severity::Info || opts.info,
        |src, d| {
            if failed.is_none()
                && let Err(e) = writeln!(out, "{}", report::render_in(&r.name, src.of(d), d, color))
            {
                failed = Some(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    for (c, n) in &r.omitted {
        if c.default_severity() == Severity::Info && !opts.info {
            continue;
        }
        writeln!(
            out,
            "{}: … and {n} more [{}] {} (--max-diagnostics 0 shows all)",
            r.name,
            c.as_str(),
            c.name()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_per_code_in_each_part_keeps_what_the_file_cap_keeps() {
        // Three games with a problem on every node: moves on a stone
        // (G001, warnings), then `PL[x]` (V004, errors); a `GN` twice (S018).
        let game = |i: usize| {
            let mut g = format!("(;GM[1]FF[4]SZ[19]GN[g{i}]GN[again]");
            for _ in 0..10 {
                g.push_str(";B[aa];W[aa]");
            }
            for _ in 0..40 {
                g.push_str(";PL[x]");
            }
            g + ")\n"
        };
        let file: Vec<u8> = (0..3).map(game).collect::<String>().into_bytes();
        let report = |max: usize, part: usize, wae: bool| {
            let opts = CheckOptions {
                max_per_code: max,
                part_bytes: Some(part),
                warnings_as_errors: wae,
                ..CheckOptions::default()
            };
            check_bytes("x.sgf", file.clone(), &opts)
        };
        for wae in [false, true] {
            let all = report(0, 1 << 20, wae);
            let all_diags = all.diagnostics(usize::MAX, |_| true);
            assert!(all_diags.len() >= 120, "{}", all_diags.len());
            assert!(all.counts().0 >= 120);
            assert_eq!(all.counts().1 > 0, !wae, "{:?}", all.counts());
            for part in [64, 1 << 20] {
                // Whole or in parts, the same report: the first two of each
                // code, the rest counted.
                let r = report(2, part, wae);
                assert_eq!(r.counts(), all.counts(), "part {part}, -W {wae}");
                let mut per_code = std::collections::HashMap::new();
                let first_two: Vec<_> = all_diags
                    .iter()
                    .filter(|d| {
                        let n = per_code.entry(d.code).or_insert(0);
                        *n += 1;
                        *n <= 2
                    })
                    .map(|d| (d.code, d.start, d.severity))
                    .collect();
                let kept: Vec<_> = r
                    .diagnostics(usize::MAX, |_| true)
                    .iter()
                    .map(|d| (d.code, d.start, d.severity))
                    .collect();
                assert_eq!(kept, first_two, "part {part}, -W {wae}");
                let v004 = per_code.get("V004").copied().unwrap_or(0);
                assert!(
                    r.json_line().contains(&format!("\"V004\":{}", v004 - 2)),
                    "{}",
                    r.json_line()
                );
            }
        }
    }

    /// Moves from a fixed seed on 19×19, most of them on a stone (G001),
    /// with `extra` after every move.
    fn flood(moves: usize, root: &str, extra: &str, seed: u64) -> String {
        let mut x = seed;
        let mut s = format!("(;GM[1]FF[4]SZ[19]{root}");
        for i in 0..moves {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (c, r) = ((x >> 33) % 19, (x >> 45) % 19);
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            s.push_str(&format!(
                ";{colour}[{}{}]{extra}\n",
                (b'a' + c as u8) as char,
                (b'a' + r as u8) as char
            ));
        }
        s.push(')');
        s
    }

    #[test]
    fn diagnostics_made_again_come_as_the_held_ones_do() {
        // Floods of every kind a check gives: in order (moves on a stone),
        // with a problem of the root found after every move is played
        // (`HA` without its stones: late), two of those in a part (more
        // late than a buffer of one takes: runs merged), thirty (too many
        // runs: made again a window at a time), values checked before the
        // moves, a collection cut into parts, a variation.
        let files = [
            flood(1500, "", "", 1),
            flood(1500, "HA[3]KM[abc]", "", 2),
            format!(
                "{}\n{}",
                flood(300, "HA[2]", "", 3),
                flood(300, "HA[4]", "PL[x]", 4)
            ),
            flood(800, "CA[UTF-8]", "PL[x]", 5),
            (0..30)
                .map(|i| flood(60, "HA[2]", if i % 2 == 0 { "PL[x]" } else { "" }, i))
                .collect::<Vec<_>>()
                .join("\n"),
            flood(400, "", "", 6)
                .replace(";W[", "(;W[aa])(;W[")
                .replace(")\n(", ")("),
        ];
        let mut orders = std::collections::BTreeSet::new();
        let mut made_again = [false; 5];
        for (fi, file) in files.iter().enumerate() {
            for (variant, made) in made_again.iter_mut().enumerate() {
                let opts = |held: usize| {
                    let mut o = CheckOptions {
                        held_diagnostics: Some(held),
                        ..Default::default()
                    };
                    match variant {
                        1 => o.warnings_as_errors = true,
                        2 => o.allow = vec![Code::OccupiedPoint],
                        3 => o.fix = Some(Fix::to(Target::Held)),
                        4 => o.part_bytes = Some(3000),
                        _ => {}
                    }
                    o
                };
                let held = check_bytes("x.sgf", file.clone().into_bytes(), &opts(usize::MAX));
                assert!(held.parts.iter().all(|p| p.counted.is_none()));
                let h = HumanOptions {
                    info: true,
                    ..Default::default()
                };
                for n in [1, 4, 64] {
                    let again = check_bytes("x.sgf", file.clone().into_bytes(), &opts(n));
                    let counted: Vec<_> = again
                        .parts
                        .iter()
                        .filter_map(|p| p.counted.as_ref())
                        .collect();
                    *made |= !counted.is_empty();
                    for c in counted {
                        orders.extend(
                            c.games
                                .orders()
                                .into_iter()
                                .map(|(o, late)| (o, late.min(3))),
                        );
                    }
                    assert_eq!(
                        again.counts(),
                        held.counts(),
                        "file {fi}, variant {variant}, {n}"
                    );
                    assert_eq!(
                        again.json_line(),
                        held.json_line(),
                        "file {fi}, variant {variant}, {n}"
                    );
                    assert_eq!(
                        again.human(&h),
                        held.human(&h),
                        "file {fi}, variant {variant}, {n}"
                    );
                    assert_eq!(
                        again.diagnostics(50, |_| true),
                        held.diagnostics(50, |_| true),
                    );
                }
            }
        }
        // Every way of making them again was taken, in every variant.
        assert_eq!(made_again, [true; 5]);
        for o in [('s', 0), ('n', 0), ('l', 1), ('l', 2), ('r', 3), ('x', 0)] {
            assert!(orders.contains(&o), "never {o:?}: {orders:?}");
        }
    }

    #[test]
    fn the_json_line_written_as_made_is_the_line() {
        let file = b"(;GM[1]SZ[19];PL[x];PL[y];B[zz])".to_vec();
        let r = check_bytes("x.sgf", file, &CheckOptions::default());
        let mut out = Vec::new();
        r.write_json_line(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), r.json_line() + "\n");
        assert!(r.json_line().contains("\"V004\""));
    }

    #[test]
    fn a_repair_read_whole_releases_its_input_and_reads_its_output_back() {
        let d = std::env::temp_dir().join(format!("qipu-check-release-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let out = d.join("out.sgf");
        let input: Arc<[u8]> = Arc::from(&b"(;GM[1]SZ[19]DT[2018.04.27];B[pd];W[zz])"[..]);
        let weak = Arc::downgrade(&input);
        let opts = CheckOptions {
            fix: Some(Fix::to(Target::File(out.to_str().unwrap().into()))),
            keep_changes: true,
            ..CheckOptions::default()
        };
        let r = check_bytes("x.sgf", input, &opts);
        // Gone with the input's document, before the output was read again.
        assert!(weak.upgrade().is_none());
        assert!(r.error().is_none() && r.into_input().is_empty());
        let written = std::fs::read(&out).unwrap();
        assert!(written.windows(14).any(|w| w == b"DT[2018-04-27]"));
        // What is reported points into the output, read back from the file.
        let r = check_bytes("x.sgf", written.clone(), &opts);
        assert_eq!(
            (r.changes().len(), std::fs::read(&out).unwrap()),
            (0, written)
        );
        // Without a repair the bytes come back, not copied.
        let input: Arc<[u8]> = Arc::from(&b"(;GM[1]SZ[19];B[pd])"[..]);
        let ptr = input.as_ptr();
        let r = check_bytes("x.sgf", input, &CheckOptions::default());
        assert!(std::ptr::eq(r.into_input().as_ptr(), ptr));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn output_to_a_file_holds_nothing_in_memory_and_reads_back() {
        let d = std::env::temp_dir().join(format!("qipu-check-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("out.sgf");
        let mut o = Output::to_file(path.to_str().unwrap());
        o.push(b"", b"(;C[a])");
        o.push(b"\n", b"(;C[b])");
        assert!(o.held.is_empty());
        assert_eq!(&*o.text(8..15), b"(;C[b])");
        // Read whole again: the parts so far are dropped.
        o.restart();
        o.push(b"", b"(;C[c])");
        assert_eq!((o.len, &*o.text(0..7)), (7, &b"(;C[c])"[..]));
        o.file
            .as_mut()
            .unwrap()
            .commit(&sgf_formats::save::SaveOptions::default())
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"(;C[c])");
        assert_eq!(&*o.text(2..5), b"C[c");
        // In memory, for standard output.
        let mut m = Output::memory();
        m.push(b"", b"(;C[a])");
        m.push(b"\n", b"(;C[b])");
        assert_eq!(
            (m.held.as_slice(), &*m.text(8..15)),
            (&b"(;C[a])\n(;C[b])"[..], &b"(;C[b])"[..])
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
