//! Python exceptions and the panic guard.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    qipu,
    QipuError,
    PyException,
    "Base class of the errors Qipu raises: misuse of the API, strict parsing failures, refused edits."
);
create_exception!(
    qipu,
    ParseError,
    QipuError,
    "Raised by `parse(..., strict=True)` and `read(..., strict=True)` for the first error-severity \
     diagnostic. Attributes: `diagnostic`, `code`, `line`, `column`, `start`, `end`."
);
create_exception!(
    qipu,
    EditError,
    QipuError,
    "An edit was refused: a bad identifier or value, a removed node, text the file's charset \
     cannot hold, an index out of range."
);

static ILLEGAL_MOVE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `IllegalMoveError`: a move the rules forbid (occupied point, suicide,
/// immediate ko retake), refused by `Node.play` and `Board.play` unless
/// forced. Both an `EditError` and a `ValueError` (what sgfmill raises),
/// so it is made with `type()`: `create_exception!` takes one base.
pub fn illegal_move_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    ILLEGAL_MOVE
        .get_or_try_init(py, || {
            let ns = PyDict::new(py);
            ns.set_item("__module__", "qipu")?;
            ns.set_item(
                "__doc__",
                "A move the rules forbid, refused by `Node.play` and `Board.play` \
                 (pass `force=True` to play it as SGF allows). Attributes: `reason` \
                 (\"occupied\", \"suicide\" or \"ko\"), `color`, `point`. \
                 Also a `ValueError`, as sgfmill raises.",
            )?;
            let bases = PyTuple::new(
                py,
                [py.get_type::<EditError>(), py.get_type::<PyValueError>()],
            )?;
            let t = py
                .get_type::<PyType>()
                .call1(("IllegalMoveError", bases, ns))?;
            Ok(t.cast_into::<PyType>()?.unbind())
        })
        .map(|t| t.bind(py))
}

/// An `IllegalMoveError` for `color` at `point` (`(col, row)`).
pub fn illegal_move(
    py: Python<'_>,
    illegal: sgf_go::Illegal,
    color: sgf_core::Color,
    point: sgf_core::Point,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let t = illegal_move_type(py)?;
        let msg = format!(
            "{} at ({}, {}) is illegal: {} (pass force=True to play it anyway)",
            color.as_str(),
            point.x,
            point.y,
            illegal
        );
        let e = t.call1((msg,))?;
        e.setattr("reason", illegal.code())?;
        e.setattr("color", color.as_str())?;
        e.setattr("point", (point.x, point.y))?;
        Ok(PyErr::from_value(e))
    })();
    made.unwrap_or_else(|e| e)
}

/// An `EditError` from the core's refusal.
pub fn edit_err(e: sgf_core::EditError) -> PyErr {
    EditError::new_err(e.to_string())
}

/// An `OSError` (its subclass follows `errno`, e.g. `FileNotFoundError`) naming the file.
pub fn os_err(e: &std::io::Error, path: &std::path::Path) -> PyErr {
    PyOSError::new_err((
        e.raw_os_error().unwrap_or(0),
        e.to_string(),
        path.display().to_string(),
    ))
}

/// An input that could not be read (see `sgf_formats::input`) as an
/// `OSError` naming the file: the OS's error, or `EINVAL` for a FIFO or a
/// device (only regular files are read) and `EFBIG` for a file over the
/// limit.
pub fn input_err(e: &sgf_formats::input::InputError, path: &std::path::Path) -> PyErr {
    use sgf_formats::input::InputError;
    match e {
        InputError::Io(e) => os_err(e, path),
        InputError::NotRegular(_) => {
            PyOSError::new_err((22, e.to_string(), path.display().to_string()))
        }
        _ => PyOSError::new_err((27, e.to_string(), path.display().to_string())),
    }
}

/// The message of a caught panic.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs `f`, turning a panic into a `QipuError` instead of letting it reach Python.
pub fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(QipuError::new_err(format!(
            "internal error in {what}: {} (please report this with the input)",
            panic_message(&*p)
        ))),
    }
}
