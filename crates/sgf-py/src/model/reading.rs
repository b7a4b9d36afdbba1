//! Parsing and reading records as every front end does, and collections
//! read back from their pickled form.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use sgf_core::{LineIndex, ParseOptions, Parsed, Severity, parse_with};

use super::diagnostic::Diagnostic;
use super::handles::Collection;
use super::inner::{CollectionState, Inner};
use crate::convert;
use crate::errors::{ParseError, guard};

pub(super) fn options(charset: Option<&str>) -> PyResult<ParseOptions> {
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

pub(super) fn strict_check(inner: &Arc<Inner>, py: Python<'_>) -> PyResult<()> {
    if let Some(d) = inner
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        let doc = inner.lock();
        let diag = Diagnostic::of(inner, &doc, d);
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
pub(super) fn load_bytes(
    py: Python<'_>,
    bytes: &[u8],
    path: Option<&std::path::Path>,
    format: Option<&str>,
) -> PyResult<sgf_formats::Loaded> {
    // The one judgement of every front end: what is not a game record
    // (an archive, a binary file) is refused before it is read.
    let reader = sgf_formats::builtin()
        .reader_for(bytes, path, format)
        .map_err(|e| match e.not_record {
            Some(why) => ParseError::new_err(why.sentence(&shown(path))),
            None => PyValueError::new_err(e.message),
        })?;
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

/// How a file is named in an error (`the bytes` for bytes in memory).
fn shown(path: Option<&std::path::Path>) -> String {
    path.map_or_else(|| "the bytes".to_string(), |p| p.display().to_string())
}

/// A record read from a file, and the file's bytes.
pub type LoadedFile = (sgf_formats::Loaded, std::sync::Arc<[u8]>);

/// Reads a file for the bulk paths (no Python): any format, sniffed. The
/// bytes are shared with an SGF record's document (one copy in memory).
pub fn read_file(
    path: &std::path::Path,
) -> Result<Result<LoadedFile, String>, sgf_formats::input::InputError> {
    let bytes = sgf_formats::input::read_file_shared(path, sgf_formats::input::MAX_INPUT_BYTES)?;
    Ok(match sgf_formats::read_any(&bytes, Some(path)) {
        Ok(l) => Ok((l, bytes)),
        Err(e) => Err(read_error(&e)),
    })
}

/// Why a file could not be read as a record, in words (the judgement's
/// for what is not one).
pub fn read_error(e: &sgf_formats::ReadError) -> String {
    match &e.not_record {
        Some(why) => format!("not a game record: {}", why.reason()),
        None => format!("cannot read as {}: {}", e.format, e.message),
    }
}

/// Reads a record file as every front end does: only a regular file, at
/// most `sgf_formats::input::MAX_INPUT_BYTES`.
pub fn read_input(path: &std::path::Path) -> PyResult<Vec<u8>> {
    sgf_formats::input::read_file(path, sgf_formats::input::MAX_INPUT_BYTES)
        .map_err(|e| crate::errors::input_err(&e, path))
}

/// A collection's shared state from its pickled form (see [`CollectionState`]).
pub(super) fn from_state(py: Python<'_>, st: CollectionState) -> PyResult<Arc<Inner>> {
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
        let code = sgf_core::Code::parse(&code)
            .ok_or_else(|| PyValueError::new_err(format!("unknown diagnostic code {code:?}")))?;
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
        // Not pickled: `check()` checks the converted record's SGF.
        input: None,
        checked: OnceLock::new(),
    }))
}

/// The `'static` name of a charset named in a pickle (`ASCII`, or a name
/// encoding_rs knows; UTF-8 for one it does not).
pub(super) fn static_charset(name: &str) -> &'static str {
    if name == "ASCII" {
        "ASCII"
    } else {
        encoding_rs::Encoding::for_label(name.as_bytes()).map_or("UTF-8", |e| e.name())
    }
}
