//! Python exceptions and the panic guard.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError};
use pyo3::prelude::*;

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
