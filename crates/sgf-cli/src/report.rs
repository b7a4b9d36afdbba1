//! Human-readable diagnostics: a compiler-style snippet with a caret, or
//! one line per diagnostic.

use std::borrow::Cow;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use encoding_rs::Encoding;
use sgf_core::{Diagnostic, Document, LineIndex, Severity};

/// The text diagnostics point into: a document's source, or the input
/// bytes of a record converted from another format.
pub struct Source<'a> {
    bytes: &'a [u8],
    lines: Cow<'a, LineIndex>,
    enc: &'static Encoding,
}

impl<'a> Source<'a> {
    /// The source of a parsed SGF document.
    pub fn of(doc: &'a Document) -> Source<'a> {
        let enc = doc.game(0).map_or(encoding_rs::UTF_8, |g| g.encoding());
        // A transcoded UTF-16 file is UTF-8 in `source()`.
        let enc = if doc.original().len() != doc.source().len() {
            encoding_rs::UTF_8
        } else {
            enc
        };
        Source {
            bytes: doc.source(),
            lines: Cow::Borrowed(doc.line_index()),
            enc,
        }
    }

    /// Input bytes in a known charset (a converted record).
    pub fn bytes(bytes: &'a [u8], enc: &'static Encoding) -> Source<'a> {
        Source {
            bytes,
            lines: Cow::Owned(LineIndex::new(bytes)),
            enc,
        }
    }

    /// 1-based line and byte column of an offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        self.lines.line_col(offset)
    }

    /// Whether this is the input of a converted record (offsets are as they are).
    pub fn is_input(&self) -> bool {
        matches!(self.lines, Cow::Owned(_))
    }

    /// Decodes a source line for display in the charset of the file.
    fn decode(&self, bytes: &[u8]) -> String {
        if self.enc == encoding_rs::UTF_8 {
            return String::from_utf8_lossy(bytes).into_owned();
        }
        self.enc.decode_without_bom_handling(bytes).0.into_owned()
    }

    /// The length of the decoded text of the characters complete within
    /// `bytes`. A streaming decoder's output for a prefix is a prefix of
    /// the whole decode, so this is always a character boundary of
    /// `decode(longer)` for any `longer` starting with `bytes`, even when
    /// `bytes` ends inside a multi-byte character.
    fn decoded_prefix_len(&self, bytes: &[u8]) -> usize {
        let mut dec = self.enc.new_decoder_without_bom_handling();
        let mut out = String::with_capacity(
            dec.max_utf8_buffer_length(bytes.len())
                .unwrap_or(bytes.len() * 3 + 16),
        );
        let _ = dec.decode_to_string(bytes, &mut out, false);
        out.len()
    }
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
#[allow(dead_code)] // for callers that hold only a document
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
    let text = source.decode(&src[a..b]);
    // Offsets into `text` for the span: computed through the decoder, so
    // they land on character boundaries whatever the span's bytes are.
    let start = start.clamp(a, b);
    let end = (d.span.end as usize).clamp(start, b);
    let pre = floor_boundary(&text, source.decoded_prefix_len(&src[a..start]));
    let mut span_end = floor_boundary(&text, source.decoded_prefix_len(&src[a..end])).max(pre);
    if span_end == pre {
        // An empty span (or one inside a character) marks the next character.
        span_end = text[pre..]
            .chars()
            .next()
            .map_or(pre, |c| pre + c.len_utf8());
    }
    let title = format!("[{}] {}", d.code.as_str(), d.message);
    let snippet = Snippet::source(text.as_str())
        .line_start(line as usize)
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
#[allow(dead_code)] // for callers that hold only a document
pub fn one_line(name: &str, doc: &Document, d: &Diagnostic) -> String {
    one_line_in(name, &Source::of(doc), d)
}

/// [`one_line`] against any source.
pub fn one_line_in(name: &str, source: &Source, d: &Diagnostic) -> String {
    let (l, c) = source.lines.line_col(d.span.start);
    format!(
        "{name}:{l}:{c}: {}[{}]: {}",
        d.severity,
        d.code.as_str(),
        d.message
    )
}
