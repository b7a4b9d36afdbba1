//! `Node`: a node of a game tree, with its properties and edits.

use std::sync::{Arc, MutexGuard};

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use sgf_core::{Document, NodeId};
use sgf_go::{Cursor, Move};

use super::handles::{Collection, Game, Node, copied};
use super::inner::{attached, game_index, removed, restore};
use crate::convert;
use crate::convert::Reduced;
use crate::errors::{EditError, QipuError, edit_err, guard};
use crate::go::Position;

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

pub(super) fn check_ident(ident: &str) -> PyResult<()> {
    if ident.is_empty() || !ident.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(EditError::new_err(format!(
            "expected a property identifier (upper-case letters, e.g. \"C\" or \"AB\"), got '{ident}'"
        )));
    }
    Ok(())
}

/// A position among `n` children: `0..n`, `EditError` otherwise.
pub(super) fn child_index(i: i64, n: usize) -> PyResult<usize> {
    usize::try_from(i).ok().filter(|&u| u < n).ok_or_else(|| {
        EditError::new_err(format!(
            "expected a child index from 0 to {}, got {i}",
            n.saturating_sub(1)
        ))
    })
}

/// A property identifier argument: a `str` of upper-case letters.
pub(super) fn ident_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
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
            .map(|v| sgf_core::charset::decode_bytes(v.raw(), v.encoding()).into_owned())
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
