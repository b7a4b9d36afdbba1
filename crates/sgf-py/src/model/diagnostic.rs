//! Diagnostics as Python sees them, and which belong to a game.

use pyo3::prelude::*;

use sgf_core::{Document, Severity};

use super::inner::Inner;

/// Diagnostics of reading, then those of the checks, for Python: a
/// reading diagnostic points into the input (the file, for a converted
/// record), a check's into the document.
pub(super) fn with_checks(
    inner: &Inner,
    doc: &Document,
    reading: &[sgf_core::Diagnostic],
    found: &[sgf_core::Diagnostic],
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = reading.iter().map(|d| inner.diagnostic(doc, d)).collect();
    out.extend(found.iter().map(|d| {
        let (l, c) = doc.line_col(d.span.start);
        Diagnostic::new(d, l, c)
    }));
    out
}

/// The diagnostics of reading that fall in game `gi`: each belongs to the
/// game whose root starts at or before it (as `to_arrow` counts them); a
/// record converted from another format holds one game.
pub(super) fn reading_of_game(
    inner: &Inner,
    doc: &Document,
    gi: usize,
) -> Vec<sgf_core::Diagnostic> {
    if inner.input_lines.is_some() {
        // Spans point into the input, not the document: all of them are
        // the converted game's.
        return inner.diagnostics.clone();
    }
    let starts: Vec<u32> = doc.games().map(|g| g.root().span().start).collect();
    inner
        .diagnostics
        .iter()
        .filter(|d| {
            starts
                .partition_point(|&s| s <= d.span.start)
                .saturating_sub(1)
                == gi
        })
        .cloned()
        .collect()
}

/// Whether game `gi` is damaged (see `Game.has_errors`); `reading` holds the
/// diagnostics of reading that fall in it.
pub(super) fn game_damaged(doc: &Document, gi: usize, reading: &[sgf_core::Diagnostic]) -> bool {
    reading.iter().any(|d| d.severity == Severity::Error)
        || sgf_go::main_line_moves(doc, gi)
            .iter()
            .any(|m| m.mv.is_none())
        || sgf_go::check::check_game(doc, gi)
            .iter()
            .any(|d| d.code == sgf_core::Code::OccupiedPoint)
}

// ------------------------------------------------------------------ diagnostics

/// A problem found while reading: a stable `code` (e.g. `"S005"`, see the
/// project's docs/diagnostics.md), its `name`, a `severity` (`"info"`,
/// `"warning"`, `"error"`), a `message`, the 1-based `line` and byte
/// `column`, and the byte offsets `start`/`end` in the input.
#[pyclass(module = "qipu", frozen, get_all)]
#[derive(Clone)]
pub struct Diagnostic {
    /// Stable code, e.g. `"S005"`.
    pub code: String,
    /// Stable name, e.g. `"unterminated-value"`.
    pub name: String,
    /// `"info"`, `"warning"` or `"error"`.
    pub severity: &'static str,
    /// Human message.
    pub message: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub column: u32,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// What a repair (`qipu check --fix`) does, if anything.
    pub fix: Option<String>,
}

impl Diagnostic {
    pub fn new(d: &sgf_core::Diagnostic, line: u32, column: u32) -> Diagnostic {
        Diagnostic {
            code: d.code.as_str().to_string(),
            name: d.code.name().to_string(),
            severity: d.severity.as_str(),
            message: d.message.clone(),
            line,
            column,
            start: d.span.start,
            end: d.span.end,
            fix: d.fix.clone(),
        }
    }
}

impl Diagnostic {
    /// A diagnostic from its JSON object (`sgf_report::to_json`, what
    /// `qipu check --json` prints).
    pub(super) fn from_json(v: &serde_json::Value) -> Diagnostic {
        let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let num = |k: &str| v[k].as_u64().unwrap_or_default() as u32;
        Diagnostic {
            code: text("code"),
            name: text("name"),
            severity: match v["severity"].as_str() {
                Some("info") => "info",
                Some("warning") => "warning",
                _ => "error",
            },
            message: text("message"),
            line: num("line"),
            column: num("column"),
            start: num("start"),
            end: num("end"),
            fix: v["fix"].as_str().map(str::to_string),
        }
    }
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "<Diagnostic {} {} {}:{} {:?}>",
            self.code, self.severity, self.line, self.column, self.message
        )
    }
    fn __str__(&self) -> String {
        format!(
            "{}:{}: {} [{}] {}",
            self.line, self.column, self.severity, self.code, self.message
        )
    }
}
