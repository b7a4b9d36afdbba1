//! Writing files: every file Python writes goes through the library's
//! safe replace.

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::errors::os_err;

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
