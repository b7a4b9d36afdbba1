//! # sgf-report: diagnostics as people and scripts see them
//!
//! One place for the forms a [`Diagnostic`] is shown in: a compiler-style
//! snippet with a caret ([`render_in`]), one line ([`one_line_in`]), and a
//! JSON object ([`to_json`]) — used by `qipu check`, the other commands and
//! the viewer alike.
//!
//! A diagnostic's span is a byte range of the text it points into: the
//! document's source, or for a record converted from another format, the
//! input file ([`Sources`]). Text shown to people is decoded in the file's
//! charset, and every span shown lands on a character boundary of that
//! text, whatever bytes the span covers.
//!
//! ```
//! let parsed = sgf_core::parse(b"(;GM[1]SZ[9];B[ee]");
//! let sources = sgf_report::Sources::new(&parsed.document, None);
//! let d = &parsed.diagnostics[0];
//! let text = sgf_report::render_in("game.sgf", sources.of(d), d, false);
//! assert!(text.contains("game.sgf:1:"));
//! let json = sgf_report::to_json(&sources, d);
//! assert_eq!(json["line"], 1);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;

use std::borrow::Cow;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use encoding_rs::Encoding;
use serde::Serialize;
use sgf_core::{Diagnostic, Document, LineIndex, Severity};

/// The text diagnostics point into: a document's source, or the input
/// bytes of a record converted from another format.
pub struct Source<'a> {
    bytes: &'a [u8],
    lines: Cow<'a, LineIndex>,
    enc: &'static Encoding,
    /// Where the games of a collection read in different charsets start,
    /// with their charset (empty when one charset holds for all).
    game_charsets: Vec<(u32, &'static Encoding)>,
    /// The document these bytes are the source of: its offsets are mapped
    /// back to the file's (they differ for a transcoded UTF-16 file).
    doc: Option<&'a Document>,
    /// The input of a converted record: offsets are the file's already.
    input: bool,
    /// Where these bytes stand in the file: lines before them, and their
    /// first byte (a part of a collection read on its own; see
    /// [`Source::at`]).
    line_offset: u32,
    byte_offset: u32,
}

impl<'a> Source<'a> {
    /// The source of a parsed SGF document.
    pub fn of(doc: &'a Document) -> Source<'a> {
        // A transcoded UTF-16 file is UTF-8 in `source()`.
        let transcoded = doc.original().len() != doc.source().len();
        let (enc, game_charsets) = if transcoded {
            (encoding_rs::UTF_8, Vec::new())
        } else {
            game_charsets(doc)
        };
        Source {
            bytes: doc.source(),
            lines: Cow::Borrowed(doc.line_index()),
            enc,
            game_charsets,
            doc: Some(doc),
            input: false,
            line_offset: 0,
            byte_offset: 0,
        }
    }

    /// The same source as a part of a larger file that starts at the
    /// beginning of line `lines_before + 1`, at byte `byte_offset`: lines
    /// and offsets shown are the file's.
    pub fn at(mut self, lines_before: u32, byte_offset: u32) -> Source<'a> {
        self.line_offset = lines_before;
        self.byte_offset = byte_offset;
        self
    }

    /// Input bytes in a known charset (a converted record).
    pub fn bytes(bytes: &'a [u8], enc: &'static Encoding) -> Source<'a> {
        Source {
            input: true,
            ..Source::text(bytes, (enc, Vec::new()))
        }
    }

    /// SGF text without its document: `bytes` in the charsets that
    /// [`game_charsets`] gave for the document they were read into. Used to
    /// show the diagnostics of a document that is no longer held (a part
    /// of a large collection, checked and dropped).
    pub fn text(
        bytes: &'a [u8],
        (enc, game_charsets): (&'static Encoding, Vec<(u32, &'static Encoding)>),
    ) -> Source<'a> {
        Source {
            bytes,
            lines: Cow::Owned(LineIndex::new(bytes)),
            enc,
            game_charsets,
            doc: None,
            input: false,
            line_offset: 0,
            byte_offset: 0,
        }
    }

    /// 1-based line and byte column of an offset, in the file.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let (l, c) = self.lines.line_col(offset);
        (l + self.line_offset, c)
    }

    /// Whether this is the input of a converted record (offsets are as they are).
    pub fn is_input(&self) -> bool {
        self.input
    }

    /// The offset in the file of an offset in these bytes.
    pub fn file_offset(&self, offset: u32) -> u32 {
        if self.input {
            return offset;
        }
        self.doc.map_or(offset, |d| d.original_offset(offset)) + self.byte_offset
    }

    /// The charset of the text at `offset` (its game's).
    fn enc_at(&self, offset: u32) -> &'static Encoding {
        let i = self
            .game_charsets
            .partition_point(|&(start, _)| start <= offset);
        self.game_charsets
            .get(i.saturating_sub(1))
            .map_or(self.enc, |&(_, e)| e)
    }

    fn decode(enc: &'static Encoding, bytes: &[u8]) -> String {
        if enc == encoding_rs::UTF_8 {
            return String::from_utf8_lossy(bytes).into_owned();
        }
        sgf_core::charset::decode_bytes(bytes, enc).into_owned()
    }

    /// The length of the decoded text of the characters complete within
    /// `bytes`. A streaming decoder's output for a prefix is a prefix of
    /// the whole decode, so this is always a character boundary of
    /// `decode(longer)` for any `longer` starting with `bytes`, even when
    /// `bytes` ends inside a multi-byte character.
    fn decoded_prefix_len(enc: &'static Encoding, bytes: &[u8]) -> usize {
        let mut dec = enc.new_decoder_without_bom_handling();
        let mut out = String::with_capacity(
            dec.max_utf8_buffer_length(bytes.len())
                .unwrap_or(bytes.len() * 3 + 16),
        );
        let _ = dec.decode_to_string(bytes, &mut out, false);
        out.len()
    }
}

/// The charset of a document's text, and where each game read in another
/// one starts (empty when one charset holds for all): what [`Source::text`]
/// needs to show the document's source after the document is gone.
pub fn game_charsets(doc: &Document) -> (&'static Encoding, Vec<(u32, &'static Encoding)>) {
    let enc = doc.game(0).map_or(encoding_rs::UTF_8, |g| g.encoding());
    // Charsets are decided per game: a line is shown in its game's.
    let per_game = if doc.games().any(|g| g.encoding() != enc) {
        doc.games()
            .map(|g| (g.root().span().start, g.encoding()))
            .collect()
    } else {
        Vec::new()
    };
    (enc, per_game)
}

/// The sources of a loaded record: its document, and for a record converted
/// from another format, the input.
pub struct Sources<'a> {
    doc: Source<'a>,
    input: Option<Source<'a>>,
}

impl<'a> Sources<'a> {
    /// The sources of `doc`, converted from `original` when given.
    pub fn new(doc: &'a Document, original: Option<&'a (Vec<u8>, &'static Encoding)>) -> Self {
        Sources {
            doc: Source::of(doc),
            input: original.map(|(b, e)| Source::bytes(b, e)),
        }
    }

    /// Sources that are one text (see [`Source::text`]).
    pub fn one(source: Source<'a>) -> Self {
        Sources {
            doc: source,
            input: None,
        }
    }

    /// The same sources as a part of a larger file (see [`Source::at`]);
    /// a converted record's input is a file of its own and stays as it is.
    pub fn at(mut self, lines_before: u32, byte_offset: u32) -> Self {
        self.doc = self.doc.at(lines_before, byte_offset);
        self
    }

    /// The source `d` points into. The reader's own diagnostics of a
    /// converted record (the `format` and `charset` layers) point into its
    /// input; the rest, found in the converted document, into the document.
    pub fn of(&self, d: &Diagnostic) -> &Source<'a> {
        match &self.input {
            Some(i) if matches!(d.code.layer(), "format" | "charset") => i,
            _ => &self.doc,
        }
    }
}

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// Renders one diagnostic with the offending source line and a caret.
pub fn render(name: &str, doc: &Document, d: &Diagnostic, color: bool) -> String {
    render_in(name, &Source::of(doc), d, color)
}

/// [`render`] against any source.
pub fn render_in(name: &str, source: &Source, d: &Diagnostic, color: bool) -> String {
    let src = source.bytes;
    let li = &*source.lines;
    let start = (d.span.start as usize).min(src.len());
    let (line, _) = li.line_col(start as u32);
    let range = li.line_range(src, line);
    // Keep very long lines (a whole game on one line) readable: a window around the span.
    let (mut a, mut b) = (range.start, range.end);
    if b - a > 160 {
        a = start.saturating_sub(60).max(range.start);
        b = (start + 100).min(range.end);
        while a > range.start && (src[a] & 0xC0) == 0x80 {
            a -= 1;
        }
        while b < range.end && (src[b] & 0xC0) == 0x80 {
            b += 1;
        }
    }
    let enc = source.enc_at(start as u32);
    let text = Source::decode(enc, &src[a..b]);
    // Offsets into `text` for the span: computed through the decoder, so
    // they land on character boundaries whatever the span's bytes are.
    let start = start.clamp(a, b);
    let end = (d.span.end as usize).clamp(start, b);
    let pre = floor_boundary(&text, Source::decoded_prefix_len(enc, &src[a..start]));
    let mut span_end =
        floor_boundary(&text, Source::decoded_prefix_len(enc, &src[a..end])).max(pre);
    if span_end == pre {
        // An empty span (or one inside a character) marks the next character.
        span_end = text[pre..]
            .chars()
            .next()
            .map_or(pre, |c| pre + c.len_utf8());
    }
    let title = format!("[{}] {}", d.code.as_str(), d.message);
    let snippet = Snippet::source(text.as_str())
        .line_start((line + source.line_offset) as usize)
        .path(name)
        .annotation(
            AnnotationKind::Primary
                .span(pre..span_end)
                .label(d.code.name()),
        );
    let report = &[level(d.severity)
        .primary_title(title.as_str())
        .element(snippet)];
    let r = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    r.render(report).to_string()
}

/// The largest character boundary of `s` at or before `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One line: `file:line:col: severity[code]: message`.
pub fn one_line(name: &str, doc: &Document, d: &Diagnostic) -> String {
    one_line_in(name, &Source::of(doc), d)
}

/// [`one_line`] against any source.
pub fn one_line_in(name: &str, source: &Source, d: &Diagnostic) -> String {
    let (l, c) = source.line_col(d.span.start);
    format!(
        "{name}:{l}:{c}: {}[{}]: {}",
        d.severity,
        d.code.as_str(),
        d.message
    )
}

/// A count as every face reports it (`qipu score --json`, the viewer's
/// count, Python's `score()`): `{"result", "rules", "komi", "handicap",
/// "margin", "dead", "dame", "dead_from", "black", "white"}`, each side
/// `{"territory", "captures", "area", "stones", "dead", "score"}`; points
/// as SGF letters ([`ScoreJson`] as a JSON value).
pub fn score_json(
    s: &sgf_go::score::Score,
    dame: &[sgf_core::Point],
    from: sgf_go::score::DeadFrom,
) -> serde_json::Value {
    serde_json::to_value(ScoreJson::of(s, dame, from)).unwrap_or_default()
}

/// A count in its JSON shape (see [`score_json`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreJson {
    /// The result (`B+3.5`).
    pub result: String,
    /// The rules' name.
    pub rules: &'static str,
    /// Komi.
    pub komi: f64,
    /// Handicap stones.
    pub handicap: u32,
    /// Black's score less White's.
    pub margin: f64,
    /// The dead stones, as SGF points.
    pub dead: Vec<String>,
    /// The neutral points, as SGF points.
    pub dame: Vec<String>,
    /// Where the dead stones came from.
    pub dead_from: &'static str,
    /// Black's side.
    pub black: SideJson,
    /// White's side.
    pub white: SideJson,
}

/// A side of a count (see [`score_json`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SideJson {
    /// Empty points it surrounds.
    pub territory: u32,
    /// Prisoners (captures and the opponent's dead stones).
    pub captures: u32,
    /// Live stones plus territory.
    pub area: u32,
    /// Its live stones.
    pub stones: u32,
    /// Its stones counted as dead.
    pub dead: u32,
    /// Its total under the rules.
    pub score: f64,
}

impl ScoreJson {
    /// Count `s` with its neutral points, the dead stones from `from`.
    pub fn of(
        s: &sgf_go::score::Score,
        dame: &[sgf_core::Point],
        from: sgf_go::score::DeadFrom,
    ) -> ScoreJson {
        let side = |x: &sgf_go::score::Side| SideJson {
            territory: x.territory,
            captures: x.captures,
            area: x.area,
            stones: x.stones,
            dead: x.dead,
            score: x.score,
        };
        ScoreJson {
            result: s.result().to_string(),
            rules: s.settings.rules.as_str(),
            komi: s.settings.komi,
            handicap: s.settings.handicap,
            margin: s.margin,
            dead: s.dead.iter().map(|p| p.to_string()).collect(),
            dame: dame.iter().map(|p| p.to_string()).collect(),
            dead_from: from.as_str(),
            black: side(&s.black),
            white: side(&s.white),
        }
    }
}

/// A repair as every face reports it (`qipu check --fix --json`'s
/// `changes`, the viewer's repair preview, Python's `Collection.repair()`):
/// `{"code", "message", "line", "column", "start", "end", "before",
/// "after"}`, at `line`:`column` (1-based) of what was repaired
/// ([`ChangeJson`] as a JSON value).
pub fn change_json(c: &sgf_formats::repair::Change, line: u32, column: u32) -> serde_json::Value {
    serde_json::to_value(ChangeJson::of(c, line, column)).unwrap_or_default()
}

/// A repair in its JSON shape (see [`change_json`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChangeJson {
    /// The code of what was repaired.
    pub code: &'static str,
    /// What was done.
    pub message: String,
    /// The line, 1-based.
    pub line: u32,
    /// The column, 1-based.
    pub column: u32,
    /// The byte offset in the input where the place repaired starts.
    pub start: u32,
    /// Where it ends.
    pub end: u32,
    /// The text changed (empty: a change to the tree).
    pub before: String,
    /// What it became (empty: deleted).
    pub after: String,
}

impl ChangeJson {
    /// Repair `c`, at `line`:`column` of the file.
    pub fn of(c: &sgf_formats::repair::Change, line: u32, column: u32) -> ChangeJson {
        ChangeJson {
            code: c.code.as_str(),
            message: c.message.clone(),
            line,
            column,
            start: c.span.start,
            end: c.span.end,
            before: c.before.clone(),
            after: c.after.clone(),
        }
    }
}

/// A diagnostic as `qipu check --json` prints it and the viewer sends it
/// (see [`DiagnosticJson::of`]; [`to_json`] is its JSON value).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagnosticJson {
    /// The code (`V017`).
    pub code: &'static str,
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// The message.
    pub message: String,
    /// The line, 1-based.
    pub line: u32,
    /// The column, 1-based.
    pub column: u32,
    /// The byte offset of its start in the file as read.
    pub start: u32,
    /// The byte offset of its end in the file as read.
    pub end: u32,
    /// The code's name (`point-outside-board`).
    pub name: &'static str,
    /// What the repair does, when it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl DiagnosticJson {
    /// Diagnostic `d` with its place in the file it points into.
    pub fn of(sources: &Sources<'_>, d: &Diagnostic) -> DiagnosticJson {
        let src = sources.of(d);
        let (line, column) = src.line_col(d.span.start);
        DiagnosticJson::at(
            d,
            (line, column),
            (src.file_offset(d.span.start), src.file_offset(d.span.end)),
        )
    }

    /// Diagnostic `d` at `(line, column)`, spanning the byte offsets
    /// `(start, end)` of the file: for a caller that placed it itself.
    pub fn at(
        d: &Diagnostic,
        (line, column): (u32, u32),
        (start, end): (u32, u32),
    ) -> DiagnosticJson {
        DiagnosticJson {
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            message: d.message.clone(),
            line,
            column,
            start,
            end,
            name: d.code.name(),
            fix: d.fix.clone(),
        }
    }
}

/// The JSON object of a diagnostic, as `qipu check --json` prints it:
/// `code`, `severity`, `message`, `line` and `column` (1-based), `start`
/// and `end` (byte offsets in the file as read), `name`, and `fix` when the
/// repair is known ([`DiagnosticJson`]).
pub fn to_json(sources: &Sources<'_>, d: &Diagnostic) -> serde_json::Value {
    serde_json::to_value(DiagnosticJson::of(sources, d)).unwrap_or_default()
}
