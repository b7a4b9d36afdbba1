//! Human-readable diagnostics: a compiler-style snippet with a caret, or
//! one line per diagnostic.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use sgf_core::{Diagnostic, Document, Severity};

/// Decodes a source line for display in the charset of the file.
fn decode_line(doc: &Document, bytes: &[u8]) -> String {
    let enc = doc.game(0).map_or(encoding_rs::UTF_8, |g| g.encoding());
    if doc.original().len() != doc.source().len() || enc == encoding_rs::UTF_8 {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    enc.decode_without_bom_handling(bytes).0.into_owned()
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
    let src = doc.source();
    let li = doc.line_index();
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
    let text = decode_line(doc, &src[a..b]);
    let pre = decode_line(doc, &src[a..start.clamp(a, b)]).len();
    let end = (d.span.end as usize).clamp(start, b);
    let span_len = decode_line(doc, &src[start.min(b)..end]).len().max(1);
    let span_end = (pre + span_len).min(text.len());
    let title = format!("[{}] {}", d.code.as_str(), d.message);
    let snippet = Snippet::source(text.as_str())
        .line_start(line as usize)
        .path(name)
        .annotation(
            AnnotationKind::Primary
                .span(pre..span_end.max(pre))
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

/// One line: `file:line:col: severity[code]: message`.
pub fn one_line(name: &str, doc: &Document, d: &Diagnostic) -> String {
    let (l, c) = doc.line_col(d.span.start);
    format!(
        "{name}:{l}:{c}: {}[{}]: {}",
        d.severity,
        d.code.as_str(),
        d.message
    )
}
