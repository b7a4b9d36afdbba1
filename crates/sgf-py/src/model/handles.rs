//! The objects Python holds: a collection, a game, a node, each a handle
//! on what they share ([`Inner`]). Declared together, so that each
//! object's methods (in its own file) hand out the others without the
//! files importing one another.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use sgf_core::NodeId;

use super::inner::Inner;

/// A parsed SGF collection: one or more games. Create one with
/// `qipu.parse`, `qipu.read`, `qipu.read_many`, or `Collection()` for a new
/// empty game. Index it (`coll[0]`) or iterate it for its games.
#[pyclass(module = "qipu", frozen)]
pub struct Collection {
    pub inner: Arc<Inner>,
}

/// A game tree of a collection: its root node, main line, game information
/// and positions.
#[pyclass(module = "qipu", frozen)]
pub struct Game {
    pub inner: Arc<Inner>,
    pub root: NodeId,
}

/// A node of a game tree: a handle `(collection, id)`. Properties are read
/// with `node["B"]`, `node.get("C")` or `node.properties` as typed values
/// (see the package docs), changed with `set`/`remove`; `play` adds moves.
#[pyclass(module = "qipu", frozen)]
pub struct Node {
    pub inner: Arc<Inner>,
    pub id: NodeId,
}

/// The copy of `inner` made by this `copy.deepcopy` call (`memo`), so that
/// the games and nodes of one collection copied together share one copy.
pub(super) fn copied(inner: &Arc<Inner>, memo: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Inner>> {
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
