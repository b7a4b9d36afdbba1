//! Diagnostics as Python sees them, and which belong to a game.

use pyo3::prelude::*;

use sgf_core::{Document, Severity, WriteOptions, to_canonical_bytes};

use std::sync::Arc;

use super::inner::{Inner, PerGame};
use crate::errors::{QipuError, guard};

/// The library's check of the file (`sgf_report::check`, as `qipu check
/// --json` gives it; see `Collection.check`), the bytes it checked, and
/// whether they are the file as read (the document not edited).
pub(super) fn check_file(
    inner: &Inner,
) -> PyResult<(Vec<sgf_report::DiagnosticJson>, Vec<u8>, bool)> {
    let (bytes, as_read) = {
        let doc = inner.lock();
        let as_read = !doc.is_edited();
        let bytes = match &inner.input {
            Some(input) if as_read => input.to_vec(),
            _ if as_read && inner.input_lines.is_none() => doc.original().to_vec(),
            _ => guard("check", || {
                Ok(sgf_core::to_lossless_bytes_checked(&doc)
                    .unwrap_or_else(|_| to_canonical_bytes(&doc, &WriteOptions::default())))
            })?,
        };
        (bytes, as_read)
    };
    // The path's extension breaks ties between formats, as for `qipu check`.
    let name = inner.path.clone().unwrap_or_else(|| match inner.format {
        "SGF" => "collection.sgf".to_string(),
        f => format!("collection.{}", f.to_ascii_lowercase()),
    });
    let report = guard("check", || {
        Ok(sgf_report::check::check_bytes(
            &name,
            bytes,
            &sgf_report::check::CheckOptions::default(),
        ))
    })?;
    if let Some(e) = report.error() {
        return Err(QipuError::new_err(format!("check: {e}")));
    }
    let found = report.diagnostics(usize::MAX, |_| true);
    Ok((found, report.into_input().to_vec(), as_read))
}

/// The library's check of the file ([`check_file`]) shared out to its
/// games: a diagnostic belongs to the game that starts (at its `(`) at or
/// before it (what stands before the first game is the first game's); a
/// record converted from another format holds one game.
/// The check of the file as read is made once for all its games.
pub(super) fn checked_per_game(inner: &Inner) -> PyResult<PerGame> {
    if let Some(c) = inner.checked.get()
        && !inner.lock().is_edited()
    {
        return Ok(c.clone());
    }
    let (found, bytes, as_read) = check_file(inner)?;
    let per_game = if inner.input_lines.is_some() {
        vec![found]
    } else {
        // Where the games of the bytes checked start, as they read.
        let starts: Vec<u32> = guard("diagnostics", || {
            let doc = sgf_core::parse(&bytes).document;
            Ok(doc.games().map(|g| g.start()).collect())
        })?;
        let mut per_game = vec![Vec::new(); starts.len().max(1)];
        for d in found {
            let gi = starts.partition_point(|&s| s <= d.start).saturating_sub(1);
            per_game[gi].push(d);
        }
        per_game
    };
    let per_game = Arc::new(per_game);
    if as_read {
        let _ = inner.checked.set(per_game.clone());
    }
    Ok(per_game)
}

/// The diagnostics of reading that fall in game `gi`: each belongs to the
/// game that starts at or before it (as for [`checked_per_game`]); a
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
    let starts: Vec<u32> = doc.games().map(|g| g.start()).collect();
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
    /// Diagnostic `d` at `(line, column)`, its span as read: the library's
    /// form ([`sgf_report::DiagnosticJson::at`]).
    pub fn new(d: &sgf_core::Diagnostic, line: u32, column: u32) -> Diagnostic {
        sgf_report::DiagnosticJson::at(d, (line, column), (d.span.start, d.span.end)).into()
    }

    /// Diagnostic `d` of reading `inner`, with its line and column (in the
    /// input for a record converted from another format).
    pub(super) fn of(inner: &Inner, doc: &Document, d: &sgf_core::Diagnostic) -> Diagnostic {
        let (line, column) = inner.line_col(doc, d.span.start);
        Diagnostic::new(d, line, column)
    }
}

/// A diagnostic as `qipu check --json` prints it: the same values, no
/// JSON in between.
impl From<sgf_report::DiagnosticJson> for Diagnostic {
    fn from(d: sgf_report::DiagnosticJson) -> Diagnostic {
        Diagnostic {
            code: d.code.to_string(),
            name: d.name.to_string(),
            severity: d.severity,
            message: d.message,
            line: d.line,
            column: d.column,
            start: d.start,
            end: d.end,
            fix: d.fix,
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
