//! What a collection and all its handles share: the document, the
//! diagnostics of reading and where they point; copies and pickles.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};

use pyo3::prelude::*;
use pyo3::sync::MutexExt;

use sgf_core::{Document, LineIndex, NodeId, Parsed};

use crate::errors::{EditError, guard};

/// What a collection and all its handles share.
pub struct Inner {
    pub(super) doc: Mutex<Document>,
    pub(super) diagnostics: Vec<sgf_core::Diagnostic>,
    pub(super) path: Option<String>,
    pub(super) format: &'static str,
    /// For a record converted from another format: the lines of the input,
    /// which the diagnostics' spans point into.
    pub(super) input_lines: Option<LineIndex>,
    /// For a record converted from another format: its file's charset,
    /// which its games are said to be read in (see
    /// [`sgf_formats::game_charset`]).
    pub(super) converted_from: Option<&'static str>,
    /// For a record converted from another format: its input, which
    /// [`Collection::check`] checks as `qipu check` checks the file.
    pub(super) input: Option<Arc<[u8]>>,
    /// The library's check of the file as read, shared out to its games
    /// (see [`super::diagnostic::checked_per_game`]); made when first asked.
    pub(super) checked: OnceLock<PerGame>,
}

/// Diagnostics per game, in the library's form (`qipu check --json`'s).
pub(super) type PerGame = Arc<Vec<Vec<sgf_report::DiagnosticJson>>>;

impl Inner {
    pub fn new(parsed: Parsed, path: Option<String>) -> Arc<Inner> {
        Arc::new(Inner {
            doc: Mutex::new(parsed.document),
            diagnostics: parsed.diagnostics,
            path,
            format: "SGF",
            input_lines: None,
            converted_from: None,
            input: None,
            checked: OnceLock::new(),
        })
    }

    /// A record read by `sgf_formats` from `input`.
    pub fn loaded(loaded: sgf_formats::Loaded, input: &[u8], path: Option<String>) -> Arc<Inner> {
        Arc::new(Inner {
            doc: Mutex::new(loaded.parsed.document),
            diagnostics: loaded.parsed.diagnostics,
            path,
            format: loaded.format,
            input_lines: loaded.converted.then(|| LineIndex::new(input)),
            converted_from: loaded.converted.then_some(loaded.charset),
            input: loaded.converted.then(|| Arc::from(input)),
            checked: OnceLock::new(),
        })
    }

    /// The line and column of byte `at` of what the diagnostics point
    /// into (the input, for a record converted from another format).
    pub(super) fn line_col(&self, doc: &Document, at: u32) -> (u32, u32) {
        match &self.input_lines {
            Some(li) => li.line_col(at),
            None => doc.line_col(at),
        }
    }

    /// The document. When another thread holds it, waits with the GIL
    /// released (that thread may need the GIL to finish). A panic while it
    /// was held leaves it usable (edits are all-or-nothing on the arena), so
    /// poisoning is ignored.
    pub fn lock(&self) -> MutexGuard<'_, Document> {
        match self.doc.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => Python::attach(|py| self.doc.lock_py_attached(py))
                .unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// A diagnostic as pickled: `(code, severity, message, start, end, fix,
/// [(start, end, label)])`.
pub(super) type DiagState = (
    String,
    String,
    String,
    u32,
    u32,
    Option<String>,
    Vec<(u32, u32, String)>,
);

/// A collection as pickled: `(format version, SGF bytes, forced charset,
/// path, format, diagnostics, line starts of what the diagnostics point
/// into)`. The bytes are the lossless output, read again on unpickling.
pub type CollectionState = (
    u32,
    Vec<u8>,
    Option<String>,
    Option<String>,
    String,
    Vec<DiagState>,
    Option<Vec<u32>>,
);

impl Inner {
    /// An independent copy (`copy.deepcopy`): the document cloned, node ids kept.
    pub(super) fn deep_copy(&self) -> Arc<Inner> {
        Arc::new(Inner {
            doc: Mutex::new(self.lock().clone()),
            diagnostics: self.diagnostics.clone(),
            path: self.path.clone(),
            format: self.format,
            input_lines: self.input_lines.clone(),
            converted_from: self.converted_from,
            input: self.input.clone(),
            checked: OnceLock::new(),
        })
    }

    /// The pickled form (see [`CollectionState`]).
    pub(super) fn state(&self) -> PyResult<CollectionState> {
        let doc = self.lock();
        let bytes = guard("pickle", || {
            sgf_core::to_lossless_bytes_checked(&doc).map_err(|e| {
                EditError::new_err(format!(
                    "cannot pickle this collection: {e} (write it with to_sgf(canonical=True) instead)"
                ))
            })
        })?;
        // A charset the caller forced (a str parsed, `charset=`) is forced again.
        let forced = doc
            .games()
            .all(|g| g.charset_source() == sgf_core::charset::CharsetSource::Override)
            .then(|| doc.game(0).map(|g| g.encoding().name().to_string()))
            .flatten();
        let lines = match &self.input_lines {
            Some(li) => Some(li.starts()),
            None if doc.is_edited() => Some(doc.line_index().starts()),
            None => None,
        };
        let diags = self
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code.as_str().to_string(),
                    d.severity.as_str().to_string(),
                    d.message.clone(),
                    d.span.start,
                    d.span.end,
                    d.fix.clone(),
                    d.related
                        .iter()
                        .map(|r| (r.span.start, r.span.end, r.label.clone()))
                        .collect(),
                )
            })
            .collect();
        // A converted record's file charset goes with its format
        // (`GIB\tgb18030`): what its games say they were read in.
        let format = match self.converted_from {
            Some(c) => format!("{}\t{c}", self.format),
            None => self.format.to_string(),
        };
        Ok((1, bytes, forced, self.path.clone(), format, diags, lines))
    }
}

/// `qipu._restore`, which pickles call back (a Python function, so that
/// pickle finds it by name).
pub(super) fn restore(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("qipu")?.getattr("_restore")
}

/// Whether `id` is still in a game's tree (not removed by an edit).
pub(super) fn attached(doc: &Document, id: NodeId) -> bool {
    if id.index() >= doc.node_capacity() {
        return false;
    }
    let root = doc.root_of(id);
    doc.games().any(|g| g.root().id() == root)
}

pub(super) fn removed() -> PyErr {
    EditError::new_err("the node was removed from the tree")
}

pub(crate) fn game_index(doc: &Document, root: NodeId) -> Option<usize> {
    doc.games().position(|g| g.root().id() == root)
}
