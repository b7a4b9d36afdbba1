//! `Positions`: the positions along a game's main line.

use std::sync::Arc;

use pyo3::prelude::*;

use sgf_go::Cursor;

use super::handles::Node;
use super::inner::Inner;
use crate::errors::guard;
use crate::go::Position;

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
