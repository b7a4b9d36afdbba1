//! Collections, games and nodes: the navigable, editable tree.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use sgf_core::{
    Document, LineIndex, NodeId, ParseOptions, Parsed, PointLists, Severity, WriteOptions,
    parse_with, to_canonical_bytes,
};
use sgf_go::{Cursor, Move};

use crate::convert;
use crate::errors::{EditError, ParseError, QipuError, edit_err, guard, os_err};
use crate::go::{GameInfo, Position};

/// What a collection and all its handles share.
pub struct Inner {
    doc: Mutex<Document>,
    diagnostics: Vec<sgf_core::Diagnostic>,
    path: Option<String>,
    format: &'static str,
    /// For a record converted from another format: the lines of the input,
    /// which the diagnostics' spans point into.
    input_lines: Option<LineIndex>,
    /// For a record converted from another format: its file's charset,
    /// which its games are said to be read in (see
    /// [`sgf_formats::game_charset`]).
    converted_from: Option<&'static str>,
}

impl Inner {
    pub fn new(parsed: Parsed, path: Option<String>) -> Arc<Inner> {
        Arc::new(Inner {
            doc: Mutex::new(parsed.document),
            diagnostics: parsed.diagnostics,
            path,
            format: "SGF",
            input_lines: None,
            converted_from: None,
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
        })
    }

    /// A diagnostic with its line and column (in the input for converted records).
    fn diagnostic(&self, doc: &Document, d: &sgf_core::Diagnostic) -> Diagnostic {
        let (line, column) = match &self.input_lines {
            Some(li) => li.line_col(d.span.start),
            None => doc.line_col(d.span.start),
        };
        Diagnostic::new(d, line, column)
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
type DiagState = (
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
    fn deep_copy(&self) -> Arc<Inner> {
        Arc::new(Inner {
            doc: Mutex::new(self.lock().clone()),
            diagnostics: self.diagnostics.clone(),
            path: self.path.clone(),
            format: self.format,
            input_lines: self.input_lines.clone(),
            converted_from: self.converted_from,
        })
    }

    /// The pickled form (see [`CollectionState`]).
    fn state(&self) -> PyResult<CollectionState> {
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
            Some(li) => Some(li.starts().to_vec()),
            None if doc.is_edited() => Some(doc.line_index().starts().to_vec()),
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

    /// A collection from its pickled form.
    fn from_state(py: Python<'_>, st: CollectionState) -> PyResult<Arc<Inner>> {
        let (version, bytes, forced, path, format, diags, lines) = st;
        if version != 1 {
            return Err(PyValueError::new_err(format!(
                "cannot unpickle a qipu collection of format {version} (this qipu reads format 1)"
            )));
        }
        let parsed = parse_bytes(py, &bytes, &options(forced.as_deref())?)?;
        let (format, converted_from) = match format.split_once('\t') {
            Some((f, c)) => (f.to_string(), Some(static_charset(c))),
            None => (format, None),
        };
        let format = sgf_formats::builtin()
            .formats()
            .map(|f| f.name())
            .chain(["SGF"])
            .find(|f| *f == format)
            .ok_or_else(|| PyValueError::new_err(format!("unknown format {format:?}")))?;
        let mut diagnostics = Vec::with_capacity(diags.len());
        for (code, severity, message, start, end, fix, related) in diags {
            let code = sgf_core::Code::parse(&code).ok_or_else(|| {
                PyValueError::new_err(format!("unknown diagnostic code {code:?}"))
            })?;
            let severity = match severity.as_str() {
                "info" => Severity::Info,
                "warning" => Severity::Warning,
                _ => Severity::Error,
            };
            let mut d = sgf_core::Diagnostic::new(code, sgf_core::Span::new(start, end), message)
                .with_severity(severity);
            d.fix = fix;
            for (a, b, label) in related {
                d = d.with_related(sgf_core::Span::new(a, b), label);
            }
            diagnostics.push(d);
        }
        Ok(Arc::new(Inner {
            doc: Mutex::new(parsed.document),
            diagnostics,
            path,
            format,
            input_lines: lines.map(LineIndex::from_starts),
            converted_from,
        }))
    }
}

/// The `'static` name of a charset named in a pickle (`ASCII`, or a name
/// encoding_rs knows; UTF-8 for one it does not).
fn static_charset(name: &str) -> &'static str {
    if name == "ASCII" {
        "ASCII"
    } else {
        encoding_rs::Encoding::for_label(name.as_bytes()).map_or("UTF-8", |e| e.name())
    }
}

/// The copy of `inner` made by this `copy.deepcopy` call (`memo`), so that
/// the games and nodes of one collection copied together share one copy.
fn copied(inner: &Arc<Inner>, memo: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Inner>> {
    if let Some(m) = memo
        && let Ok(d) = m.cast::<PyDict>()
    {
        let key = ("qipu.Collection", Arc::as_ptr(inner) as usize).into_pyobject(m.py())?;
        if let Some(c) = d.get_item(&key)?
            && let Ok(c) = c.cast::<Collection>()
        {
            return Ok(c.get().inner.clone());
        }
        let new = inner.deep_copy();
        d.set_item(key, Collection { inner: new.clone() })?;
        return Ok(new);
    }
    Ok(inner.deep_copy())
}

/// What `__reduce__` returns: the function to call and its arguments.
pub type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// `qipu._restore`, which pickles call back (a Python function, so that
/// pickle finds it by name).
fn restore(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("qipu")?.getattr("_restore")
}

/// A collection from its pickled state (`qipu._restore`).
#[pyfunction(name = "_restore_collection")]
pub fn restore_collection(py: Python<'_>, state: CollectionState) -> PyResult<Collection> {
    Ok(Collection {
        inner: Inner::from_state(py, state)?,
    })
}

/// Whether `id` is still in a game's tree (not removed by an edit).
fn attached(doc: &Document, id: NodeId) -> bool {
    if id.index() >= doc.node_capacity() {
        return false;
    }
    let root = doc.root_of(id);
    doc.games().any(|g| g.root().id() == root)
}

fn removed() -> PyErr {
    EditError::new_err("the node was removed from the tree")
}

pub(crate) fn game_index(doc: &Document, root: NodeId) -> Option<usize> {
    doc.games().position(|g| g.root().id() == root)
}

// ------------------------------------------------------------------ parsing

fn options(charset: Option<&str>) -> PyResult<ParseOptions> {
    let mut o = ParseOptions::default();
    if let Some(label) = charset {
        o.charset = Some(
            sgf_core::charset::encoding_for_label(label.as_bytes())
                .ok_or_else(|| PyValueError::new_err(format!("unknown charset `{label}`")))?,
        );
    }
    Ok(o)
}

/// Parses in a panic guard; large inputs are parsed with the GIL released.
pub fn parse_bytes(py: Python<'_>, bytes: &[u8], opts: &ParseOptions) -> PyResult<Parsed> {
    if bytes.len() > 64 * 1024 {
        py.detach(|| guard("parse", || Ok(parse_with(bytes, opts))))
    } else {
        guard("parse", || Ok(parse_with(bytes, opts)))
    }
}

fn strict_check(inner: &Arc<Inner>, py: Python<'_>) -> PyResult<()> {
    if let Some(d) = inner
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        let doc = inner.lock();
        let diag = inner.diagnostic(&doc, d);
        drop(doc);
        let msg = format!(
            "{}{}:{}: [{}] {}",
            inner
                .path
                .as_deref()
                .map(|p| format!("{p}:"))
                .unwrap_or_default(),
            diag.line,
            diag.column,
            diag.code,
            diag.message
        );
        let err = ParseError::new_err(msg);
        let v = err.value(py);
        v.setattr("code", &diag.code)?;
        v.setattr("line", diag.line)?;
        v.setattr("column", diag.column)?;
        v.setattr("start", diag.start)?;
        v.setattr("end", diag.end)?;
        v.setattr("diagnostic", Py::new(py, diag)?)?;
        return Err(err);
    }
    Ok(())
}

/// Parses SGF from `bytes` (charset from `CA` or detected) or `str` (already
/// Unicode: `CA` is ignored). Never fails on bad input: problems are in
/// `Collection.diagnostics`. With `strict=True`, the first error-severity
/// diagnostic raises `ParseError` (with `line`, `column`, `code`).
/// `charset` forces a charset for `bytes` (e.g. `"GB18030"`).
/// `format` reads the bytes as another record format instead (`"GIB"`,
/// `"NGF"`, `"UGF"`, or `"auto"` to sniff it).
#[pyfunction]
#[pyo3(signature = (data, *, strict=false, charset=None, format=None))]
pub fn parse(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    strict: bool,
    charset: Option<&str>,
    format: Option<&str>,
) -> PyResult<Collection> {
    if let Some(f) = format {
        let bytes: Vec<u8> = if let Ok(s) = data.cast::<PyString>() {
            s.to_cow()?.as_bytes().to_vec()
        } else {
            data.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "expected bytes or str to parse, got {}",
                    convert::describe(data)
                ))
            })?
        };
        let f = (!f.eq_ignore_ascii_case("auto")).then_some(f);
        let loaded = load_bytes(py, &bytes, None, f)?;
        let inner = Inner::loaded(loaded, &bytes, None);
        if strict {
            strict_check(&inner, py)?;
        }
        return Ok(Collection { inner });
    }
    let parsed = if let Ok(s) = data.cast::<PyString>() {
        let mut opts = ParseOptions::default();
        opts.charset = Some(encoding_rs::UTF_8);
        parse_bytes(py, s.to_cow()?.as_bytes(), &opts)?
    } else if let Ok(b) = data.cast::<PyBytes>() {
        parse_bytes(py, b.as_bytes(), &options(charset)?)?
    } else {
        // bytearray, memoryview and other byte sequences.
        let b: Vec<u8> = data.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected bytes or str to parse (use qipu.read(path) for files), got {}",
                convert::describe(data)
            ))
        })?;
        parse_bytes(py, &b, &options(charset)?)?
    };
    let inner = Inner::new(parsed, None);
    if strict {
        strict_check(&inner, py)?;
    }
    Ok(Collection { inner })
}

/// Reads a record in any format Qipu reads, in any charset: SGF (every
/// FF version and dialect), GIB, NGF, UGF/UGI, sniffed from the content
/// (the extension breaks ties) or forced with `format` (`"SGF"`, `"GIB"`,
/// …). Raises `OSError` when the file cannot be read, `ParseError` when
/// it is in no format Qipu can read; bad content gives diagnostics (or
/// `ParseError` with `strict=True`). `charset` forces the charset of an
/// SGF file.
#[pyfunction]
#[pyo3(signature = (path, *, strict=false, charset=None, format=None))]
pub fn read(
    py: Python<'_>,
    path: PathBuf,
    strict: bool,
    charset: Option<&str>,
    format: Option<&str>,
) -> PyResult<Collection> {
    let bytes = read_input(&path)?;
    let name = path.display().to_string();
    let inner = if charset.is_some() {
        let parsed = parse_bytes(py, &bytes, &options(charset)?)?;
        Inner::new(parsed, Some(name))
    } else {
        let loaded = load_bytes(py, &bytes, Some(&path), format)?;
        Inner::loaded(loaded, &bytes, Some(name))
    };
    if strict {
        strict_check(&inner, py)?;
    }
    Ok(Collection { inner })
}

/// Reads bytes in `format` (`None`: sniffed), in a panic guard, without the GIL.
fn load_bytes(
    py: Python<'_>,
    bytes: &[u8],
    path: Option<&std::path::Path>,
    format: Option<&str>,
) -> PyResult<sgf_formats::Loaded> {
    let registry = sgf_formats::builtin();
    let reader = match format {
        None => registry.detect(bytes, path),
        Some(f) => registry.by_name(f).ok_or_else(|| {
            let names: Vec<&str> = registry.formats().map(|f| f.name()).collect();
            PyValueError::new_err(format!(
                "unknown format `{f}` (known: {})",
                names.join(", ")
            ))
        })?,
    };
    let res = py.detach(|| {
        guard("read", || {
            Ok(reader.read(bytes, &sgf_formats::ReadOptions::default()))
        })
    })?;
    res.map_err(|e| {
        let where_ = path
            .map(|p| format!("{}: ", p.display()))
            .unwrap_or_default();
        ParseError::new_err(format!(
            "{where_}cannot read as {}: {}",
            e.format, e.message
        ))
    })
}

/// Reads a file for the bulk paths (no Python): any format, sniffed.
pub fn read_file(
    path: &std::path::Path,
) -> Result<Result<(sgf_formats::Loaded, Vec<u8>), String>, sgf_formats::input::InputError> {
    let bytes = sgf_formats::input::read_file(path, sgf_formats::input::MAX_INPUT_BYTES)?;
    Ok(match sgf_formats::read_any(&bytes, Some(path)) {
        Ok(l) => Ok((l, bytes)),
        Err(e) => Err(format!("cannot read as {}: {}", e.format, e.message)),
    })
}

/// Reads a record file as every front end does: only a regular file, at
/// most `sgf_formats::input::MAX_INPUT_BYTES`.
pub fn read_input(path: &std::path::Path) -> PyResult<Vec<u8>> {
    sgf_formats::input::read_file(path, sgf_formats::input::MAX_INPUT_BYTES)
        .map_err(|e| crate::errors::input_err(&e, path))
}

/// Writes `bytes` to `path` as every front end writes a file: a temporary
/// file beside it, renamed into place (a symbolic link refused, the old
/// file whole on any failure). Errors are `OSError`s.
pub(crate) fn save_file(path: &std::path::Path, bytes: &[u8]) -> PyResult<()> {
    sgf_formats::save::replace_file(path, bytes, &sgf_formats::save::SaveOptions::default())
        .map(|_| ())
        .map_err(|e| match e {
            sgf_formats::save::SaveError::Io(_, io) => os_err(&io, path),
            e => pyo3::exceptions::PyOSError::new_err((
                22,
                e.to_string(),
                path.display().to_string(),
            )),
        })
}

/// Writes `data` to `path` safely (see `save_file`): `qipu.to_parquet`'s
/// writer.
#[pyfunction]
pub fn save_bytes_native(path: PathBuf, data: &[u8]) -> PyResult<()> {
    save_file(&path, data)
}

/// Diagnostics of reading, then those of the checks, for Python: a
/// reading diagnostic points into the input (the file, for a converted
/// record), a check's into the document.
fn with_checks(
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
fn reading_of_game(inner: &Inner, doc: &Document, gi: usize) -> Vec<sgf_core::Diagnostic> {
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
fn game_damaged(doc: &Document, gi: usize, reading: &[sgf_core::Diagnostic]) -> bool {
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

// ------------------------------------------------------------------ Collection

/// A parsed SGF collection: one or more games. Create one with
/// `qipu.parse`, `qipu.read`, `qipu.read_many`, or `Collection()` for a new
/// empty game. Index it (`coll[0]`) or iterate it for its games.
#[pyclass(module = "qipu", frozen)]
pub struct Collection {
    pub inner: Arc<Inner>,
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
            .map(|d| self.inner.diagnostic(&doc, d))
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

    /// Every FF[4] and Go rule checked (what `qipu check` reports), as
    /// diagnostics: the reading diagnostics plus the checks of the tree.
    fn check(&self) -> PyResult<Vec<Diagnostic>> {
        let doc = self.inner.lock();
        let found = guard("check", || Ok(sgf_go::check::check(&doc)))?;
        Ok(with_checks(
            &self.inner,
            &doc,
            &self.inner.diagnostics,
            &found,
        ))
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
            list.append(crate::db::to_py(
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

// ------------------------------------------------------------------ Game

/// A game tree of a collection: its root node, main line, game information
/// and positions.
#[pyclass(module = "qipu", frozen)]
pub struct Game {
    pub inner: Arc<Inner>,
    pub root: NodeId,
}

impl Game {
    pub fn index_in(&self, doc: &Document) -> PyResult<usize> {
        game_index(doc, self.root)
            .ok_or_else(|| EditError::new_err("the game was removed from the collection"))
    }
    fn node(&self, id: NodeId) -> Node {
        Node {
            inner: self.inner.clone(),
            id,
        }
    }
}

#[pymethods]
impl Game {
    /// Index in the collection.
    #[getter]
    fn index(&self) -> PyResult<usize> {
        self.index_in(&self.inner.lock())
    }

    /// The game's diagnostics: those of reading that fall in it, then every
    /// rule of FF[4] and Go checked on the game as it is now (what
    /// `qipu check` reports of it).
    #[getter]
    fn diagnostics(&self) -> PyResult<Vec<Diagnostic>> {
        let doc = self.inner.lock();
        let gi = self.index_in(&doc)?;
        let reading = reading_of_game(&self.inner, &doc, gi);
        let found = guard("diagnostics", || Ok(sgf_go::check::check_game(&doc, gi)))?;
        Ok(with_checks(&self.inner, &doc, &reading, &found))
    }

    /// Whether the game is damaged: a diagnostic of reading in it is an
    /// error, a move of its main line cannot be played (off the board or
    /// unreadable: `moves()` leaves it out), or a stone is played over
    /// another (`G001`: `boards()` shows the board the record says, not a
    /// legal one).
    #[getter]
    fn has_errors(&self) -> PyResult<bool> {
        let doc = self.inner.lock();
        let gi = self.index_in(&doc)?;
        let reading = reading_of_game(&self.inner, &doc, gi);
        guard("has_errors", || Ok(game_damaged(&doc, gi, &reading)))
    }

    /// The collection it belongs to.
    #[getter]
    fn collection(&self) -> Collection {
        Collection {
            inner: self.inner.clone(),
        }
    }

    /// The root node.
    #[getter]
    fn root(&self) -> Node {
        self.node(self.root)
    }

    /// The board size `(cols, rows)` from `SZ` (19×19 when absent).
    #[getter]
    fn size(&self) -> (u8, u8) {
        let doc = self.inner.lock();
        let s = convert::size_of(&doc, self.root);
        (s.cols, s.rows)
    }

    /// The charset the game was read in (`"UTF-8"`, `"GBK"`, …).
    #[getter]
    fn charset(&self) -> PyResult<&'static str> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        Ok(sgf_formats::game_charset(
            &doc,
            i,
            self.inner.converted_from,
        ))
    }

    /// The game information (players, dates, result, komi, handicap, …).
    #[getter]
    fn info(&self) -> PyResult<GameInfo> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        Ok(GameInfo::new(sgf_go::GameInfo::of(&doc, i)))
    }

    /// The main line: the root and every first child, as nodes.
    fn main_line(&self) -> PyResult<Vec<Node>> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        Ok(doc
            .game(i)
            .map(|g| g.main_line().map(|n| self.node(n.id())).collect())
            .unwrap_or_default())
    }

    /// Every node in file order (pre-order, main line first).
    fn nodes(&self) -> PyResult<Vec<Node>> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        Ok(doc
            .game(i)
            .map(|g| g.nodes().map(|n| self.node(n.id())).collect())
            .unwrap_or_default())
    }

    /// The moves of the main line: `[(colour, (col, row) | None), …]`
    /// with `None` for a pass.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        let mut out = Vec::new();
        // Unplayable moves (off the board) are left out here; they are
        // reported as errors (see `Collection.diagnostics`).
        for m in sgf_go::main_line_moves(&doc, i) {
            if let Some(mv) = m.mv {
                out.push((m.color.as_str(), convert::move_py(py, mv)?));
            }
        }
        Ok(out)
    }

    /// Iterates `(node, position)` along the main line, from the root (its
    /// setup stones placed) to the last node; each position is the board
    /// after that node.
    fn positions(&self) -> PyResult<Positions> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        let cursor = guard("positions", || Ok(Cursor::new(&doc, i)))?;
        Ok(Positions::new(self.inner.clone(), cursor))
    }

    /// The position at the end of the main line (replayed in Rust: the
    /// fast way to the final board).
    fn final_position(&self) -> PyResult<Position> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        guard("final_position", || {
            let c = sgf_go::main_line_end(&doc, i);
            Ok(Position::from_cursor(&c, &doc))
        })
    }

    /// The position after move `move` of the main line (counting every
    /// `B`/`W` node, passes included; 0 is the root with its setup
    /// stones): `game.position_at(move=100)`. `IndexError` when the main
    /// line has fewer moves.
    #[pyo3(signature = (r#move))]
    fn position_at(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        let n: i64 = if r#move.is_instance_of::<pyo3::types::PyBool>() {
            None
        } else {
            r#move.extract::<i64>().ok()
        }
        .ok_or_else(|| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a move number (an int), got {}",
                convert::describe(r#move)
            ))
        })?;
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        let found = guard("position_at", || {
            let mut c = Cursor::new(&doc, i);
            let mut played = c.report().moves.len() as i64;
            while (n < 0 || played < n) && c.next(&doc) {
                played += c.report().moves.len() as i64;
            }
            Ok((played >= n && n >= 0)
                .then(|| Position::from_cursor(&c, &doc))
                .ok_or(played))
        })?;
        found.map_err(|total| {
            PyIndexError::new_err(format!(
                "expected a move number from 0 to {total} (the main line's moves), got {n}"
            ))
        })
    }

    /// The boards after every node of the main line, stacked: a NumPy
    /// `uint8` array of shape `(len(main_line()), rows, cols)` (0 empty,
    /// 1 black, 2 white), built in one go (the fast path for datasets).
    fn boards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let doc = self.inner.lock();
        let i = self.index_in(&doc)?;
        let (cells, n, rows, cols) = guard("boards", || {
            let mut c = Cursor::new(&doc, i);
            let s = c.size();
            let mut cells = c.position().board.cells().to_vec();
            let mut n = 1;
            while c.next(&doc) {
                cells.extend_from_slice(c.position().board.cells());
                n += 1;
            }
            Ok((cells, n, s.rows as usize, s.cols as usize))
        })?;
        drop(doc);
        crate::go::numpy_array(py, &cells, (n, rows, cols))
    }

    /// Pickles as its collection and index.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (&'static str, Collection, usize)>> {
        let i = self.index_in(&self.inner.lock())?;
        Ok((restore(py)?, ("game", self.collection(), i)))
    }

    /// The same game (a handle).
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The game in an independent copy of its collection (`copy.deepcopy(game)`
    /// clones the game: edits to the copy leave the original alone).
    #[pyo3(signature = (memo=None))]
    fn __deepcopy__(&self, memo: Option<&Bound<'_, PyAny>>) -> PyResult<Game> {
        self.index_in(&self.inner.lock())?;
        Ok(Game {
            inner: copied(&self.inner, memo)?,
            root: self.root,
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| {
            let o = o.get();
            Arc::ptr_eq(&self.inner, &o.inner) && o.root == self.root
        })
    }

    fn __hash__(&self) -> isize {
        (Arc::as_ptr(&self.inner) as isize) ^ (self.root.index() as isize).wrapping_mul(31)
    }

    fn __repr__(&self) -> String {
        let doc = self.inner.lock();
        let info = game_index(&doc, self.root).map(|i| sgf_go::GameInfo::of(&doc, i));
        let s = convert::size_of(&doc, self.root);
        match info {
            Some(info) => format!(
                "<qipu.Game {}x{} {} vs {}>",
                s.cols,
                s.rows,
                info.black.as_deref().unwrap_or("?"),
                info.white.as_deref().unwrap_or("?")
            ),
            None => "<qipu.Game (removed)>".to_string(),
        }
    }
}

// ------------------------------------------------------------------ Node

/// A node of a game tree: a handle `(collection, id)`. Properties are read
/// with `node["B"]`, `node.get("C")` or `node.properties` as typed values
/// (see the package docs), changed with `set`/`remove`; `play` adds moves.
#[pyclass(module = "qipu", frozen)]
pub struct Node {
    pub inner: Arc<Inner>,
    pub id: NodeId,
}

impl Node {
    fn with(&self, id: NodeId) -> Node {
        Node {
            inner: self.inner.clone(),
            id,
        }
    }
    fn locked(&self) -> PyResult<MutexGuard<'_, Document>> {
        let doc = self.inner.lock();
        if !attached(&doc, self.id) {
            return Err(removed());
        }
        Ok(doc)
    }
}

fn check_ident(ident: &str) -> PyResult<()> {
    if ident.is_empty() || !ident.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(EditError::new_err(format!(
            "expected a property identifier (upper-case letters, e.g. \"C\" or \"AB\"), got '{ident}'"
        )));
    }
    Ok(())
}

/// A position among `n` children: `0..n`, `EditError` otherwise.
fn child_index(i: i64, n: usize) -> PyResult<usize> {
    usize::try_from(i).ok().filter(|&u| u < n).ok_or_else(|| {
        EditError::new_err(format!(
            "expected a child index from 0 to {}, got {i}",
            n.saturating_sub(1)
        ))
    })
}

/// A property identifier argument: a `str` of upper-case letters.
fn ident_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a property identifier (a str such as \"C\" or \"AB\"), got {}",
            convert::describe(obj)
        ))
    })?;
    let s = s.to_cow()?.into_owned();
    check_ident(&s)?;
    Ok(s)
}

#[pymethods]
impl Node {
    /// A number identifying the node within its collection (stable across edits).
    #[getter]
    fn id(&self) -> usize {
        self.id.index()
    }

    /// The game it belongs to.
    #[getter]
    fn game(&self) -> PyResult<Game> {
        let doc = self.locked()?;
        Ok(Game {
            inner: self.inner.clone(),
            root: doc.root_of(self.id),
        })
    }

    /// The parent node, `None` for the root.
    #[getter]
    fn parent(&self) -> PyResult<Option<Node>> {
        let doc = self.locked()?;
        Ok(doc.node(self.id).parent().map(|p| self.with(p.id())))
    }

    /// The children, main line first.
    #[getter]
    fn children(&self) -> PyResult<Vec<Node>> {
        let doc = self.locked()?;
        Ok(doc
            .node(self.id)
            .children()
            .map(|c| self.with(c.id()))
            .collect())
    }

    /// The first child (the main-line continuation), `None` at the end.
    #[getter]
    fn next(&self) -> PyResult<Option<Node>> {
        let doc = self.locked()?;
        Ok(doc.node(self.id).first_child().map(|c| self.with(c.id())))
    }

    /// Whether it is the root of its game.
    #[getter]
    fn is_root(&self) -> PyResult<bool> {
        let doc = self.locked()?;
        Ok(doc.node(self.id).parent().is_none())
    }

    /// Distance from the root (root = 0).
    #[getter]
    fn depth(&self) -> PyResult<usize> {
        Ok(self.locked()?.node(self.id).depth())
    }

    /// The node number: its index in file order within the game (root = 0).
    #[getter]
    fn number(&self) -> PyResult<usize> {
        Ok(self.locked()?.node(self.id).number())
    }

    /// The move of the node: `("B" | "W", (col, row) | None)` (None: pass),
    /// or `None` when the node has no move.
    #[getter]
    #[pyo3(name = "move")]
    fn move_<'py>(&self, py: Python<'py>) -> PyResult<Option<(&'static str, Bound<'py, PyAny>)>> {
        let doc = self.locked()?;
        let size = convert::size_of(&doc, self.id);
        match sgf_go::edit::node_move(&doc, self.id, size) {
            Some((c, m)) => Ok(Some((c.as_str(), convert::move_py(py, m)?))),
            None => Ok(None),
        }
    }

    /// The identifiers present, in file order (FF[4] form, each once).
    fn keys(&self) -> PyResult<Vec<String>> {
        let doc = self.locked()?;
        let mut out: Vec<String> = Vec::new();
        for p in doc.node(self.id).props() {
            if !out.iter().any(|k| k == p.ident()) {
                out.push(p.ident().to_string());
            }
        }
        Ok(out)
    }

    /// Every property as `{ident: typed value}`, in file order.
    #[getter]
    fn properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let doc = self.locked()?;
        let d = PyDict::new(py);
        for p in doc.node(self.id).props() {
            let ident = p.ident();
            if d.contains(ident)? {
                continue;
            }
            if let Some(v) = convert::typed_value(py, &doc, self.id, ident)? {
                d.set_item(ident, v)?;
            }
        }
        Ok(d)
    }

    fn __getitem__<'py>(&self, py: Python<'py>, ident: &str) -> PyResult<Bound<'py, PyAny>> {
        let doc = self.locked()?;
        convert::typed_value(py, &doc, self.id, ident)?
            .ok_or_else(|| PyKeyError::new_err(ident.to_string()))
    }

    fn __contains__(&self, ident: &str) -> PyResult<bool> {
        Ok(self.locked()?.node(self.id).has(ident))
    }

    fn __setitem__(&self, ident: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set(ident, value)
    }

    fn __delitem__(&self, ident: &str) -> PyResult<()> {
        if self.remove(ident)? {
            Ok(())
        } else {
            Err(PyKeyError::new_err(ident.to_string()))
        }
    }

    /// The typed value of `ident`, or `default` when absent.
    #[pyo3(signature = (ident, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        ident: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let doc = self.locked()?;
        Ok(convert::typed_value(py, &doc, self.id, ident)?.or(default))
    }

    /// The values of `ident` as written between the brackets (escapes
    /// kept, decoded to `str`), repeated properties merged; `[]` when absent.
    fn raw(&self, ident: &str) -> PyResult<Vec<String>> {
        let doc = self.locked()?;
        let n = doc.node(self.id);
        Ok(n.values(ident)
            .map(|v| {
                v.encoding()
                    .decode_without_bom_handling(v.raw())
                    .0
                    .into_owned()
            })
            .collect())
    }

    /// Sets property `ident` (replacing every occurrence) from a typed
    /// value (a `str` is taken as the value's text and escaped for you).
    fn set(&self, ident: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        check_ident(ident)?;
        let raws = convert::raws_for(ident, value)?;
        let mut doc = self.locked()?;
        doc.set_raw(self.id, ident, &raws).map_err(edit_err)
    }

    /// Removes property `ident`. Returns whether it was present.
    fn remove(&self, ident: &str) -> PyResult<bool> {
        let mut doc = self.locked()?;
        Ok(doc.remove_property(self.id, ident))
    }

    /// Plays a move below this node: returns the existing child with that
    /// move, or adds a new child (a variation when there are children
    /// already). `point` is `(col, row)`, or `None` to pass. A new move the
    /// rules forbid here (an occupied point, a suicide, an immediate ko
    /// retake) raises `IllegalMoveError` unless `force=True` (SGF records
    /// such moves; viewers execute them all the same).
    #[pyo3(signature = (color, point, *, force=false))]
    fn play(
        &self,
        py: Python<'_>,
        color: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
        force: bool,
    ) -> PyResult<Node> {
        let c = convert::color_of(color)?;
        let mut doc = self.locked()?;
        let size = convert::size_of(&doc, self.id);
        // Off the board is a refused edit, as before (an EditError).
        let mv = convert::move_on(point, size).map_err(|e| {
            if e.is_instance_of::<PyValueError>(py) {
                EditError::new_err(e.value(py).to_string())
            } else {
                e
            }
        })?;
        if !force && let Move::Play(p) = mv {
            let root = doc.root_of(self.id);
            let gi = game_index(&doc, root).ok_or_else(removed)?;
            // The editors' one checked play (the viewer's too).
            let illegal = guard("play", || {
                let mut cur = Cursor::new(&doc, gi);
                Ok(cur
                    .goto(&doc, self.id)
                    .then(|| sgf_go::edit::illegal_new_move(&doc, &cur, c, mv))
                    .flatten())
            })?;
            if let Some(why) = illegal {
                return Err(crate::errors::illegal_move(py, why, c, p));
            }
        }
        let child = sgf_go::edit::play_below(&mut doc, self.id, size, c, mv).map_err(edit_err)?;
        Ok(self.with(child))
    }

    /// Sets property `ident` to raw values: the text between the brackets
    /// as SGF writes it, escapes included (`"a\\]b"` for `a]b`), one
    /// `str` or a list of them. Nothing is converted: this is the way to
    /// write any value as it should stand in the file. A value that would
    /// not stay one value (an unescaped `]`) raises `EditError`.
    fn set_raw(&self, ident: &Bound<'_, PyAny>, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let ident = ident_arg(ident)?;
        let bad = || {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a str or a list of str (raw SGF values), got {}",
                convert::describe(values)
            ))
        };
        let raws: Vec<String> = if let Ok(s) = values.cast::<PyString>() {
            vec![s.to_cow()?.into_owned()]
        } else if values.is_instance_of::<PyList>()
            || values.is_instance_of::<pyo3::types::PyTuple>()
        {
            values.extract().map_err(|_| bad())?
        } else {
            return Err(bad());
        };
        if raws.is_empty() {
            return Err(EditError::new_err(
                "expected at least one value (use remove() to delete the property)",
            ));
        }
        let mut doc = self.locked()?;
        doc.set_raw(self.id, &ident, &raws).map_err(edit_err)
    }

    /// Adds an empty child (last, or at `index`; 0 makes it the main line).
    #[pyo3(signature = (index=None))]
    fn add_child(&self, index: Option<i64>) -> PyResult<Node> {
        let mut doc = self.locked()?;
        let n = doc.node(self.id).child_count();
        let index = match index {
            None => None,
            Some(i) => Some(child_index(i, n + 1)?),
        };
        let c = doc.insert_child(self.id, index).map_err(edit_err)?;
        Ok(self.with(c))
    }

    /// Removes this node and its subtree from the tree (a root: the game).
    fn delete(&self) -> PyResult<()> {
        let mut doc = self.locked()?;
        doc.remove_node(self.id).map_err(edit_err)
    }

    /// Makes this node part of the main line (it and each ancestor become first children).
    fn promote(&self) -> PyResult<()> {
        let mut doc = self.locked()?;
        doc.promote_to_main_line(self.id).map_err(edit_err)
    }

    /// Moves this node to `index` among its siblings (0: main line).
    fn move_to(&self, index: i64) -> PyResult<()> {
        let mut doc = self.locked()?;
        let n = doc.node(self.id).siblings().len();
        let index = child_index(index, n)?;
        doc.move_variation(self.id, index).map_err(edit_err)
    }

    /// The nodes from this one down the first children to the end.
    fn main_line(&self) -> PyResult<Vec<Node>> {
        let doc = self.locked()?;
        let mut out = vec![self.with(self.id)];
        let mut n = doc.node(self.id);
        while let Some(c) = n.first_child() {
            out.push(self.with(c.id()));
            n = c;
        }
        Ok(out)
    }

    /// The nodes from the root to this one.
    fn path(&self) -> PyResult<Vec<Node>> {
        let doc = self.locked()?;
        let mut out = vec![self.with(self.id)];
        let mut n = doc.node(self.id);
        while let Some(p) = n.parent() {
            out.push(self.with(p.id()));
            n = p;
        }
        out.reverse();
        Ok(out)
    }

    /// The position after this node (the game replayed from the root).
    fn position(&self) -> PyResult<Position> {
        let doc = self.locked()?;
        let root = doc.root_of(self.id);
        let gi = game_index(&doc, root).ok_or_else(removed)?;
        guard("position", || {
            let mut c = Cursor::new(&doc, gi);
            if !c.goto(&doc, self.id) {
                return Err(QipuError::new_err("the node is not in its game"));
            }
            Ok(Position::from_cursor(&c, &doc))
        })
    }

    /// Pickles as its collection, game index and node number.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (&'static str, Collection, usize, usize)>> {
        let doc = self.locked()?;
        let gi = game_index(&doc, doc.root_of(self.id)).ok_or_else(removed)?;
        let k = doc.node(self.id).number();
        drop(doc);
        let coll = Collection {
            inner: self.inner.clone(),
        };
        Ok((restore(py)?, ("node", coll, gi, k)))
    }

    /// The same node (a handle).
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The node in an independent copy of its collection.
    #[pyo3(signature = (memo=None))]
    fn __deepcopy__(&self, memo: Option<&Bound<'_, PyAny>>) -> PyResult<Node> {
        drop(self.locked()?);
        Ok(Node {
            inner: copied(&self.inner, memo)?,
            id: self.id,
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Node>().is_ok_and(|o| {
            let o = o.get();
            Arc::ptr_eq(&self.inner, &o.inner) && o.id == self.id
        })
    }

    fn __hash__(&self) -> isize {
        (Arc::as_ptr(&self.inner) as isize) ^ (self.id.index() as isize).wrapping_mul(31)
    }

    fn __repr__(&self) -> String {
        let doc = self.inner.lock();
        if !attached(&doc, self.id) {
            return "<qipu.Node (removed)>".to_string();
        }
        let n = doc.node(self.id);
        let mut s = String::from(";");
        for p in n.props() {
            s.push_str(p.ident());
            for v in p.values() {
                s.push('[');
                s.push_str(&v.decoded());
                s.push(']');
            }
            if s.chars().count() > 60 {
                s = s.chars().take(57).collect::<String>() + "…";
                break;
            }
        }
        format!("<qipu.Node {s}>")
    }
}

/// Iterator of `(node, position)` along a game's main line (`Game.positions()`).
#[pyclass(module = "qipu")]
pub struct Positions {
    inner: Arc<Inner>,
    cursor: Cursor,
    started: bool,
    done: bool,
}

impl Positions {
    pub fn new(inner: Arc<Inner>, cursor: Cursor) -> Positions {
        Positions {
            inner,
            cursor,
            started: false,
            done: false,
        }
    }
}

#[pymethods]
impl Positions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<(Node, Position)>> {
        if self.done {
            return Ok(None);
        }
        let doc = self.inner.lock();
        let cursor = &mut self.cursor;
        let started = self.started;
        let step = guard("positions", || {
            if started && !cursor.next(&doc) {
                return Ok(None);
            }
            Ok(Some((cursor.node(), Position::from_cursor(cursor, &doc))))
        })?;
        self.started = true;
        match step {
            Some((id, pos)) => Ok(Some((
                Node {
                    inner: self.inner.clone(),
                    id,
                },
                pos,
            ))),
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }
}
