//! `Game`: a game tree of a collection.

use std::sync::Arc;

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

use sgf_core::{Document, NodeId};
use sgf_go::Cursor;

use super::diagnostic::{Diagnostic, checked_per_game, game_damaged, reading_of_game};
use super::handles::{Collection, Game, Node, copied};
use super::inner::{game_index, restore};
use super::positions::Positions;
use crate::convert;
use crate::convert::Reduced;
use crate::errors::{EditError, guard};
use crate::go::{GameInfo, Position};

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

    /// The game's diagnostics: what `qipu check` reports of the file
    /// (`Collection.check()`, the library's check) that falls in this
    /// game, from its `(` to the next game's; what stands before the
    /// first game is the first game's, and a rule about the whole file is
    /// the game's it points into (`F018`, several games: the second).
    /// Lines, columns and offsets are the file's: as read, or, once edited,
    /// as `write()` would write it.
    #[getter]
    fn diagnostics(&self) -> PyResult<Vec<Diagnostic>> {
        let gi = self.index_in(&self.inner.lock())?;
        let per_game = checked_per_game(&self.inner)?;
        Ok(per_game
            .get(gi)
            .map(|g| g.iter().cloned().map(Diagnostic::from).collect())
            .unwrap_or_default())
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
