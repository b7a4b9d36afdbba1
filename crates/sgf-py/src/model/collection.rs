//! `Collection`: a parsed SGF collection, one or more games.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use sgf_core::{Document, Parsed, PointLists, Severity, WriteOptions, to_canonical_bytes};

use super::diagnostic::{Diagnostic, check_file, game_damaged};
use super::handles::{Collection, Game, copied};
use super::inner::{CollectionState, Inner, restore};
use super::reading::from_state;
use super::saving::save_file;
use crate::convert::Reduced;
use crate::errors::guard;

/// A collection from its pickled state (`qipu._restore`).
#[pyfunction(name = "_restore_collection")]
pub fn restore_collection(py: Python<'_>, state: CollectionState) -> PyResult<Collection> {
    Ok(Collection {
        inner: from_state(py, state)?,
    })
}

#[pymethods]
impl Collection {
    /// A new collection with one empty game (`(;)`); set `SZ` etc. on its root.
    #[new]
    fn py_new() -> Collection {
        Collection {
            inner: Inner::new(
                Parsed {
                    document: Document::new(),
                    diagnostics: Vec::new(),
                },
                None,
            ),
        }
    }

    /// The games, in file order.
    #[getter]
    fn games(&self) -> Vec<Game> {
        let doc = self.inner.lock();
        doc.games()
            .map(|g| Game {
                inner: self.inner.clone(),
                root: g.root().id(),
            })
            .collect()
    }

    fn __len__(&self) -> usize {
        self.inner.lock().game_count()
    }

    fn __getitem__(&self, index: isize) -> PyResult<Game> {
        let doc = self.inner.lock();
        let n = doc.game_count() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(PyIndexError::new_err(format!(
                "expected a game index from 0 to {} (or from -{n} counting from the end), got {index}",
                n - 1
            )));
        }
        Ok(Game {
            inner: self.inner.clone(),
            root: doc
                .game(i as usize)
                .map(|g| g.root().id())
                .ok_or_else(|| PyIndexError::new_err("game index out of range"))?,
        })
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let games = self.games();
        Ok(games.into_pyobject(py)?.try_iter()?.into_any().unbind())
    }

    /// The diagnostics of reading (not updated by edits).
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        let doc = self.inner.lock();
        self.inner
            .diagnostics
            .iter()
            .map(|d| Diagnostic::of(&self.inner, &doc, d))
            .collect()
    }

    /// Whether the record is damaged: a diagnostic of reading is an error,
    /// or a game is ([`Game`]'s `has_errors`: a move of a main line cannot
    /// be played, or a stone is played over another). `check()` lists every
    /// rule broken besides (a value of the wrong form is not damage).
    #[getter]
    fn has_errors(&self) -> PyResult<bool> {
        if self
            .inner
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return Ok(true);
        }
        let doc = self.inner.lock();
        guard("has_errors", || {
            Ok((0..doc.game_count()).any(|g| game_damaged(&doc, g, &[])))
        })
    }

    /// The path it was read from, `None` when parsed from memory.
    #[getter]
    fn path(&self) -> Option<String> {
        self.inner.path.clone()
    }

    /// The format it was read as: `"SGF"`, or `"GIB"`, `"NGF"`, `"UGF"`, `"WGS"` for
    /// a record converted to SGF (whose diagnostics point into the input).
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format
    }

    /// Whether it was edited since reading.
    #[getter]
    fn is_edited(&self) -> bool {
        self.inner.lock().is_edited()
    }

    /// Every FF[4] and Go rule checked, by the library's check of a file
    /// (`sgf_report::check`): the diagnostics `qipu check --json` gives
    /// for the file read (a record converted from another format: its
    /// input), or, once edited, for the file `write()` would write; lines,
    /// columns and offsets are that file's.
    fn check(&self) -> PyResult<Vec<Diagnostic>> {
        Ok(check_file(&self.inner)?
            .0
            .into_iter()
            .map(Diagnostic::from)
            .collect())
    }

    /// The SGF bytes. `canonical=False` (default): lossless, the input byte
    /// for byte with only the edits changed (in the file's charset).
    /// `canonical=True`: clean FF[4] UTF-8, one node per line;
    /// `point_lists` is `"as-written"`, `"compressed"` or `"expanded"`.
    #[pyo3(signature = (canonical=false, point_lists="as-written"))]
    fn to_sgf<'py>(
        &self,
        py: Python<'py>,
        canonical: bool,
        point_lists: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        // Every argument checked, whichever form is asked for.
        let lists = match point_lists {
            "as-written" => PointLists::AsWritten,
            "compressed" => PointLists::Compressed,
            "expanded" => PointLists::Expanded,
            other => {
                return Err(PyValueError::new_err(format!(
                    "point_lists must be \"as-written\", \"compressed\" or \"expanded\", not {other:?}"
                )));
            }
        };
        if !canonical && lists != PointLists::AsWritten {
            return Err(PyValueError::new_err(
                "point_lists changes only the canonical form: pass canonical=True",
            ));
        }
        let doc = self.inner.lock();
        let bytes = guard("to_sgf", || {
            if canonical {
                let mut o = WriteOptions::default();
                o.point_lists = lists;
                Ok(to_canonical_bytes(&doc, &o))
            } else {
                // Refused rather than silently different next to damage.
                sgf_core::to_lossless_bytes_checked(&doc).map_err(|e| {
                    crate::errors::EditError::new_err(format!("{e}: use to_sgf(canonical=True)"))
                })
            }
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes `to_sgf(canonical)` to `path`.
    #[pyo3(signature = (path, canonical=false))]
    fn write(&self, py: Python<'_>, path: PathBuf, canonical: bool) -> PyResult<()> {
        let bytes = self.to_sgf(py, canonical, "as-written")?;
        save_file(&path, bytes.as_bytes())
    }

    /// Repairs the collection in place, as `qipu check --fix` does (the
    /// library's one pipeline: SGF dialects, then the tree, the values and
    /// Go), and returns what was changed: one dict per change with `code`,
    /// `message`, `line` and `column` (where in the input), and `before` /
    /// `after` (the text, `""` for a change to the tree). Wording that a
    /// repair rewrites or deletes is kept in the game comment `GC`
    /// (`"DT as written: 2018.04.27"`). A second call returns `[]`.
    #[pyo3(signature = (variation_level=false))]
    fn repair<'py>(&self, py: Python<'py>, variation_level: bool) -> PyResult<Bound<'py, PyList>> {
        let mut doc = self.inner.lock();
        let mut opts = sgf_formats::repair::RepairOptions::default();
        opts.variation_level = variation_level;
        let changes = sgf_formats::repair::repair(&mut doc, &opts);
        let list = PyList::empty(py);
        for c in changes {
            let (line, column) = doc.line_col(c.span.start);
            // The one shape of a repair (`qipu check --fix --json`'s).
            list.append(crate::convert::to_py(
                py,
                &sgf_report::change_json(&c, line, column),
            )?)?;
        }
        Ok(list)
    }

    /// Pickles as the lossless SGF bytes with the reading diagnostics,
    /// path and format (for `multiprocessing`); unpickled, the bytes are
    /// read again (`is_edited` is then False).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (&'static str, CollectionState)>> {
        Ok((restore(py)?, ("collection", self.inner.state()?)))
    }

    /// The same collection (handles share it; use `copy.deepcopy` for an independent one).
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// An independent copy: the document cloned, edits to one not seen by the other.
    #[pyo3(signature = (memo=None))]
    fn __deepcopy__(&self, memo: Option<&Bound<'_, PyAny>>) -> PyResult<Collection> {
        Ok(Collection {
            inner: copied(&self.inner, memo)?,
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Collection>()
            .is_ok_and(|o| Arc::ptr_eq(&self.inner, &o.get().inner))
    }

    fn __hash__(&self) -> isize {
        Arc::as_ptr(&self.inner) as isize
    }

    fn __repr__(&self) -> String {
        let n = self.inner.lock().game_count();
        match &self.inner.path {
            Some(p) => format!("<qipu.Collection {p:?}: {n} game(s)>"),
            None => format!("<qipu.Collection: {n} game(s)>"),
        }
    }
}
