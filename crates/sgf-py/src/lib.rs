//! # sgf-py: Qipu for Python
//!
//! The native part of the `qipu` Python package, built with PyO3 and
//! maturin (`pip install ./crates/sgf-py`). The thin Python layer in
//! `python/qipu/` adds path expansion, streaming helpers and the
//! `pyarrow.Table` assembly; everything that touches SGF runs here.
//!
//! Design:
//! - A [`Collection`](model::Collection) owns the parsed document behind an
//!   `Arc<Mutex<…>>`; [`Game`](model::Game) and [`Node`](model::Node) are
//!   handles `(collection, id)`, so an edit through one handle is seen by all.
//! - The mutex is only ever taken while the GIL is held and never across a
//!   call back into Python, so it cannot deadlock with the GIL.
//! - Bulk work (`read_many`, `to_arrow`) runs on worker threads with the GIL
//!   released; each file is parsed under `catch_unwind`, so no panic crosses
//!   into Python (the parser is panic-free by design; this is a second net).

#![warn(missing_docs)]

use pyo3::prelude::*;

mod bulk;
mod convert;
mod dataset;
mod db;
mod engine;
mod errors;
mod go;
mod model;

pub use errors::{EditError, ParseError, QipuError};

/// Qipu's native module: SGF reading, editing, Go replay and bulk export.
#[pymodule]
fn _qipu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("QipuError", py.get_type::<QipuError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("EditError", py.get_type::<EditError>())?;
    m.add_class::<model::Collection>()?;
    m.add_class::<model::Game>()?;
    m.add_class::<model::Node>()?;
    m.add_class::<model::Diagnostic>()?;
    m.add_class::<go::Position>()?;
    m.add_class::<go::Board>()?;
    m.add("IllegalMoveError", errors::illegal_move_type(py)?)?;
    m.add_class::<model::Positions>()?;
    m.add_class::<go::GameInfo>()?;
    m.add_class::<go::GameResult>()?;
    m.add_class::<bulk::ReadMany>()?;
    m.add_class::<dataset::DatasetStream>()?;
    m.add_function(wrap_pyfunction!(dataset::dataset_build, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::dataset_repack, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::dataset_stream, m)?)?;
    engine::register(m)?;
    m.add_class::<db::Database>()?;
    m.add_function(wrap_pyfunction!(db::find_all, m)?)?;
    m.add_function(wrap_pyfunction!(model::parse, m)?)?;
    m.add_function(wrap_pyfunction!(model::read, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::read_many_native, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::arrow_columns, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::expand_paths_native, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::record_extensions, m)?)?;
    m.add_function(wrap_pyfunction!(model::save_bytes_native, m)?)?;
    m.add_function(wrap_pyfunction!(go::to_gtp, m)?)?;
    m.add_function(wrap_pyfunction!(go::from_gtp, m)?)?;
    m.add_function(wrap_pyfunction!(go::to_sgfmill, m)?)?;
    m.add_function(wrap_pyfunction!(go::from_sgfmill, m)?)?;
    m.add_function(wrap_pyfunction!(go::restore_position, m)?)?;
    m.add_function(wrap_pyfunction!(model::restore_collection, m)?)?;
    Ok(())
}
