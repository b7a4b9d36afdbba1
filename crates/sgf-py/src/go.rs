//! Go: positions (boards as NumPy arrays), the main-line position iterator,
//! typed game information.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict};

use sgf_core::{Color, Document, Point};
use sgf_go::{BoardSize, Cursor, Move, PartialDate, Stone};

use crate::convert;

static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DATE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn frombuffer(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    FROMBUFFER.import(py, "numpy", "frombuffer")
}

/// A new writable NumPy `uint8` array of `shape` over a copy of `cells`.
pub fn numpy_array<'py>(
    py: Python<'py>,
    cells: &[u8],
    shape: (usize, usize, usize),
) -> PyResult<Bound<'py, PyAny>> {
    let buf = PyByteArray::new(py, cells);
    frombuffer(py)?
        .call1((buf, "uint8"))?
        .call_method1("reshape", shape)
}

/// The drawing options of the text, SVG and HTML forms of a board:
/// coordinates (GTP letters without `I`, rows from the bottom) and the
/// last move marked; the status line for pictures only.
fn render_options(status: bool) -> sgf_render::RenderOptions {
    sgf_render::RenderOptions {
        status,
        ..Default::default()
    }
}

/// The board as text with coordinates (sgf-render's ASCII diagram).
fn text_of(pos: &sgf_go::Position) -> String {
    let o = render_options(false);
    sgf_render::Diagram::of_position(pos, &o).to_text(&o, sgf_render::TextStyle::Ascii)
}

/// The board as a standalone SVG with coordinates and the status line.
fn svg_of(pos: &sgf_go::Position) -> String {
    let o = render_options(true);
    sgf_render::Diagram::of_position(pos, &o).to_svg(&o)
}

/// The picklable state of a position: `(cols, rows, cells, to_play,
/// captures, ko, move_number, last_move)`.
type State = (
    u8,
    u8,
    Vec<u8>,
    String,
    (u32, u32),
    Option<(u8, u8)>,
    u32,
    Option<(String, Option<(u8, u8)>)>,
);

fn state_of(p: &sgf_go::Position) -> State {
    let s = p.board.size();
    (
        s.cols,
        s.rows,
        p.board.cells().to_vec(),
        p.to_play.as_str().to_string(),
        (p.captures[0], p.captures[1]),
        p.ko.map(|k| (k.x, k.y)),
        p.move_number,
        p.last_move
            .map(|(c, m)| (c.as_str().to_string(), m.point().map(|q| (q.x, q.y)))),
    )
}

fn color_str_of(s: &str) -> PyResult<Color> {
    match s {
        "B" => Ok(Color::Black),
        "W" => Ok(Color::White),
        _ => Err(PyValueError::new_err(format!(
            "bad position state: colour {s:?}"
        ))),
    }
}

/// The position of a [`state_of`] state (unpickling), checked.
pub fn position_from_state(st: State) -> PyResult<sgf_go::Position> {
    let (cols, rows, cells, to_play, caps, ko, move_number, last) = st;
    let size = BoardSize { cols, rows };
    if cols == 0 || rows == 0 || cols > 52 || rows > 52 || cells.len() != size.points() {
        return Err(PyValueError::new_err(
            "bad position state: size and cells differ",
        ));
    }
    let mut p = sgf_go::Position::new(size);
    for (i, &c) in cells.iter().enumerate() {
        let stone = match c {
            0 => Stone::Empty,
            1 => Stone::Black,
            2 => Stone::White,
            _ => {
                return Err(PyValueError::new_err(
                    "bad position state: a cell is not 0, 1 or 2",
                ));
            }
        };
        p.board.set(
            Point::new((i % cols as usize) as u8, (i / cols as usize) as u8),
            stone,
        );
    }
    p.to_play = color_str_of(&to_play)?;
    p.captures = [caps.0, caps.1];
    p.ko = ko.map(|(x, y)| Point::new(x, y));
    p.move_number = move_number;
    p.last_move = match last {
        None => None,
        Some((c, m)) => Some((
            color_str_of(&c)?,
            m.map_or(Move::Pass, |(x, y)| Move::Play(Point::new(x, y))),
        )),
    };
    Ok(p)
}

/// `qipu._restore`, the function pickles call back (defined in Python so
/// that pickle finds it by name).
fn restore<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    py.import("qipu")?.getattr("_restore")
}

/// The getters shared by `Position` and `Board`.
fn captures_dict<'py>(py: Python<'py>, p: &sgf_go::Position) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("B", p.captures[0])?;
    d.set_item("W", p.captures[1])?;
    Ok(d)
}

fn last_move_py<'py>(
    py: Python<'py>,
    p: &sgf_go::Position,
) -> PyResult<Option<(&'static str, Bound<'py, PyAny>)>> {
    match p.last_move {
        Some((c, m)) => Ok(Some((c.as_str(), convert::move_py(py, m)?))),
        None => Ok(None),
    }
}

fn board_array<'py>(py: Python<'py>, p: &sgf_go::Position) -> PyResult<Bound<'py, PyAny>> {
    let s = p.board.size();
    let buf = PyByteArray::new(py, p.board.cells());
    frombuffer(py)?
        .call1((buf, "uint8"))?
        .call_method1("reshape", (s.rows as usize, s.cols as usize))
}

fn stone_at(p: &sgf_go::Position, point: &Bound<'_, PyAny>) -> PyResult<u8> {
    let q = convert::point_on(point, p.board.size())
        .map_err(|e| PyIndexError::new_err(e.value(point.py()).to_string()))?;
    Ok(p.board.get(q) as u8)
}

fn html_of(pos: &sgf_go::Position) -> String {
    format!("<div style=\"max-width: 480px\">{}</div>", svg_of(pos))
}

/// A board position: the stones, who plays next, captures, the ko point
/// and the move number. `board` is a NumPy `uint8` array of shape
/// `(rows, cols)` indexed `board[row, col]` with 0 empty, 1 black, 2 white.
/// `str()` draws it with coordinates; Jupyter shows it as a picture.
#[pyclass(module = "qipu", frozen)]
pub struct Position {
    pos: sgf_go::Position,
}

impl Position {
    /// A snapshot of the cursor's position; `to_play` follows `PL` and the
    /// next move of the record (see `Cursor::next_player`).
    pub fn from_cursor(c: &Cursor, doc: &Document) -> Position {
        let mut pos = c.position().clone();
        pos.to_play = c.next_player(doc);
        Position { pos }
    }

    /// A snapshot of a position.
    pub fn of(pos: &sgf_go::Position) -> Position {
        Position { pos: pos.clone() }
    }

    /// The position from its pickled state.
    pub fn from_state(st: State) -> PyResult<Position> {
        Ok(Position {
            pos: position_from_state(st)?,
        })
    }
}

#[pymethods]
impl Position {
    /// The stones: a new writable NumPy array `(rows, cols)` of `uint8`,
    /// 0 empty, 1 black, 2 white; `board[row, col]`, row 0 at the top.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        board_array(py, &self.pos)
    }

    /// The stones as `rows * cols` bytes, row-major (0/1/2), for code without NumPy.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.pos.board.cells())
    }

    /// `(rows, cols)`, the shape of `board`.
    #[getter]
    fn shape(&self) -> (u8, u8) {
        let s = self.pos.board.size();
        (s.rows, s.cols)
    }

    /// The board size `(cols, rows)`, as `Game.size` gives it.
    #[getter]
    fn size(&self) -> (u8, u8) {
        let s = self.pos.board.size();
        (s.cols, s.rows)
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> u8 {
        self.pos.board.size().cols
    }

    /// Number of rows.
    #[getter]
    fn rows(&self) -> u8 {
        self.pos.board.size().rows
    }

    /// Who plays next: `"B"` or `"W"`.
    #[getter]
    fn to_play(&self) -> &'static str {
        self.pos.to_play.as_str()
    }

    /// Stones captured so far: `{"B": captured by Black, "W": captured by White}`.
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        captures_dict(py, &self.pos)
    }

    /// The point the player to move may not retake at once (simple ko), or `None`.
    #[getter]
    fn ko(&self) -> Option<(u8, u8)> {
        self.pos.ko.map(|p| (p.x, p.y))
    }

    /// Number of moves played to reach it (`MN` resets it).
    #[getter]
    fn move_number(&self) -> u32 {
        self.pos.move_number
    }

    /// The last move: `("B" | "W", (col, row) | None)`, or `None` before any move.
    #[getter]
    fn last_move<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(&'static str, Bound<'py, PyAny>)>> {
        last_move_py(py, &self.pos)
    }

    /// A `Board` starting from this position, to play on (the position is unchanged).
    fn to_board(&self) -> Board {
        Board {
            pos: Mutex::new(self.pos.clone()),
        }
    }

    /// The stone at `(col, row)`: 0, 1 or 2.
    fn __getitem__(&self, point: &Bound<'_, PyAny>) -> PyResult<u8> {
        stone_at(&self.pos, point)
    }

    /// The board as text with coordinates (columns `A`–`T` without `I`,
    /// rows numbered from the bottom as in GTP), drawn by sgf-render: `X`
    /// black, `O` white, `.` empty, `+` star points, `>` before the last
    /// move (explained in a key line).
    fn __str__(&self) -> String {
        text_of(&self.pos)
    }

    /// The board as an SVG picture with coordinates (sgf-render).
    fn _repr_svg_(&self) -> String {
        svg_of(&self.pos)
    }

    /// The board for Jupyter: the SVG picture in a `div`.
    fn _repr_html_(&self) -> String {
        html_of(&self.pos)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|o| o.get().pos == self.pos)
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<convert::Reduced<'py, (&'static str, State)>> {
        Ok((restore(py)?, ("position", state_of(&self.pos))))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (_memo=None))]
    fn __deepcopy__(slf: Py<Self>, _memo: Option<&Bound<'_, PyAny>>) -> Py<Self> {
        // Immutable: a copy would be equal in every way.
        slf
    }

    fn __repr__(&self) -> String {
        let s = self.pos.board.size();
        format!(
            "<qipu.Position {}x{} move {} {} to play, captures B {} W {}>",
            s.cols,
            s.rows,
            self.pos.move_number,
            self.pos.to_play.as_str(),
            self.pos.captures[0],
            self.pos.captures[1]
        )
    }
}

/// A Go board to play on, for engine and GTP code: the library's one Go
/// engine (sgf-go) with captures, suicide and simple ko. `Board(19)` or
/// `Board((cols, rows))`; `play` refuses illegal moves with
/// `IllegalMoveError` unless `force=True`. Points are `(col, row)` from the
/// top-left (see `qipu.to_gtp`/`qipu.from_sgfmill` for other orders).
/// Thread-safe; `copy.copy`, `copy.deepcopy` and pickle give independent boards.
#[pyclass(module = "qipu", frozen)]
pub struct Board {
    pos: Mutex<sgf_go::Position>,
}

impl Board {
    fn get(&self) -> MutexGuard<'_, sgf_go::Position> {
        self.pos.lock().unwrap_or_else(|e| e.into_inner())
    }
    pub fn from_state(st: State) -> PyResult<Board> {
        Ok(Board {
            pos: Mutex::new(position_from_state(st)?),
        })
    }
}

#[pymethods]
impl Board {
    /// An empty board, Black to play. `size` is an int from 1 to 52 or `(cols, rows)`.
    #[new]
    #[pyo3(signature = (size=None))]
    fn py_new(size: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let size = match size {
            Some(s) => convert::size_arg(s)?,
            None => BoardSize::square(19),
        };
        Ok(Board {
            pos: Mutex::new(sgf_go::Position::new(size)),
        })
    }

    /// Plays `color` (`"B"`/`"W"`) at `point` (`(col, row)`, `None` to pass)
    /// and returns the stones it captured. An occupied point, a suicide or
    /// an immediate ko retake raises `IllegalMoveError` and changes nothing,
    /// unless `force=True`: then the move is executed as SGF records do
    /// (the stone replaces what was there; a suicide removes its group).
    #[pyo3(signature = (color, point, *, force=false))]
    fn play(
        &self,
        py: Python<'_>,
        color: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
        force: bool,
    ) -> PyResult<Vec<(u8, u8)>> {
        let c = convert::color_of(color)?;
        let mut pos = self.get();
        let mv = convert::move_on(point, pos.board.size())?;
        if !force && let (Some(why), Move::Play(p)) = (pos.legality(c, mv), mv) {
            return Err(crate::errors::illegal_move(py, why, c, p));
        }
        let r = pos.play(c, mv);
        Ok(r.effect.captured.iter().map(|p| (p.x, p.y)).collect())
    }

    /// Why `color` may not play at `point` here: `"occupied"`, `"suicide"`,
    /// `"ko"` (an immediate retake), or `None` when the move is legal.
    fn legality(
        &self,
        color: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
    ) -> PyResult<Option<&'static str>> {
        let c = convert::color_of(color)?;
        let pos = self.get();
        let mv = convert::move_on(point, pos.board.size())?;
        Ok(pos.legality(c, mv).map(|i| i.code()))
    }

    /// Whether `color` may play at `point` (`legality(...) is None`).
    fn is_legal(&self, color: &Bound<'_, PyAny>, point: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.legality(color, point)?.is_none())
    }

    /// Places stones without captures (setup, as `AB`/`AW`/`AE` do):
    /// lists of points for `black`, `white` and `empty`.
    #[pyo3(signature = (black=None, white=None, empty=None))]
    fn setup(
        &self,
        black: Option<&Bound<'_, PyAny>>,
        white: Option<&Bound<'_, PyAny>>,
        empty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut pos = self.get();
        let size = pos.board.size();
        let mut todo = Vec::new();
        for (pts, stone) in [
            (black, Stone::Black),
            (white, Stone::White),
            (empty, Stone::Empty),
        ] {
            let Some(pts) = pts else { continue };
            if pts.is_instance_of::<pyo3::types::PyString>() {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "expected a list of points (col, row), got {}",
                    convert::describe(pts)
                )));
            }
            for p in pts.try_iter().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "expected a list of points (col, row), got {}",
                    convert::describe(pts)
                ))
            })? {
                todo.push((convert::point_on(&p?, size)?, stone));
            }
        }
        for (p, s) in todo {
            pos.board.set(p, s);
        }
        pos.ko = None;
        Ok(())
    }

    /// The number of liberties of the group at `point` (0 for an empty point).
    fn liberties(&self, point: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut pos = self.get();
        let p = convert::point_on(point, pos.board.size())?;
        Ok(pos.board.liberties(p))
    }

    /// The stones: a new NumPy array `(rows, cols)` of `uint8` (0/1/2), `board[row, col]`.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        board_array(py, &self.get())
    }

    /// The board size `(cols, rows)`.
    #[getter]
    fn size(&self) -> (u8, u8) {
        let s = self.get().board.size();
        (s.cols, s.rows)
    }

    /// Who plays next: `"B"` or `"W"` (settable).
    #[getter]
    fn get_to_play(&self) -> &'static str {
        self.get().to_play.as_str()
    }

    #[setter]
    fn set_to_play(&self, color: &Bound<'_, PyAny>) -> PyResult<()> {
        self.get().to_play = convert::color_of(color)?;
        Ok(())
    }

    /// Stones captured so far: `{"B": captured by Black, "W": captured by White}`.
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        captures_dict(py, &self.get())
    }

    /// The point the player to move may not retake at once (simple ko), or `None`.
    #[getter]
    fn ko(&self) -> Option<(u8, u8)> {
        self.get().ko.map(|p| (p.x, p.y))
    }

    /// Number of moves played (passes included).
    #[getter]
    fn move_number(&self) -> u32 {
        self.get().move_number
    }

    /// The last move: `("B" | "W", (col, row) | None)`, or `None` before any move.
    #[getter]
    fn last_move<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(&'static str, Bound<'py, PyAny>)>> {
        last_move_py(py, &self.get())
    }

    /// A snapshot `Position` of the board.
    fn position(&self) -> Position {
        Position::of(&self.get())
    }

    /// An independent copy.
    fn copy(&self) -> Board {
        Board {
            pos: Mutex::new(self.get().clone()),
        }
    }

    /// The stone at `(col, row)`: 0, 1 or 2.
    fn __getitem__(&self, point: &Bound<'_, PyAny>) -> PyResult<u8> {
        stone_at(&self.get(), point)
    }

    /// The board as text with coordinates (see `Position.__str__`).
    fn __str__(&self) -> String {
        text_of(&self.get())
    }

    /// The board as an SVG picture with coordinates (sgf-render).
    fn _repr_svg_(&self) -> String {
        svg_of(&self.get())
    }

    /// The board for Jupyter: the SVG picture in a `div`.
    fn _repr_html_(&self) -> String {
        html_of(&self.get())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<Board>() else {
            return false;
        };
        if std::ptr::eq(o.get(), self) {
            return true;
        }
        let a = self.get().clone();
        a == *o.get().get()
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<convert::Reduced<'py, (&'static str, State)>> {
        Ok((restore(py)?, ("board", state_of(&self.get()))))
    }

    fn __copy__(&self) -> Board {
        self.copy()
    }

    #[pyo3(signature = (_memo=None))]
    fn __deepcopy__(&self, _memo: Option<&Bound<'_, PyAny>>) -> Board {
        self.copy()
    }

    fn __repr__(&self) -> String {
        let p = self.get();
        let s = p.board.size();
        format!(
            "<qipu.Board {}x{} move {} {} to play, captures B {} W {}>",
            s.cols,
            s.rows,
            p.move_number,
            p.to_play.as_str(),
            p.captures[0],
            p.captures[1]
        )
    }
}

// ------------------------------------------------------------------ coordinates

/// The GTP vertex of `point` (`(col, row)` from the top-left) on a board of
/// `size` (an int or `(cols, rows)`): `"Q16"` (columns without `I`, rows
/// counted from the bottom), `"pass"` for `None`. GTP names boards of up
/// to 25 columns.
#[pyfunction]
#[pyo3(signature = (point, size=None))]
pub fn to_gtp(point: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let size = size.map_or(Ok(BoardSize::square(19)), convert::size_arg)?;
    match convert::move_on(point, size)? {
        Move::Pass => Ok("pass".into()),
        Move::Play(p) => sgf_go::coords::gtp_vertex(p, size).ok_or_else(|| {
            PyValueError::new_err(format!(
                "GTP names boards of at most 25 columns, not {size}"
            ))
        }),
    }
}

/// The point `(col, row)` of a GTP vertex such as `"Q16"` (any case) on a
/// board of `size`; `None` for `"pass"`.
#[pyfunction]
#[pyo3(signature = (vertex, size=None))]
pub fn from_gtp(
    vertex: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(u8, u8)>> {
    let size = size.map_or(Ok(BoardSize::square(19)), convert::size_arg)?;
    let v = convert::str_arg(vertex, "a GTP vertex such as \"Q16\" or \"pass\"")?;
    let got = convert::describe(vertex);
    if v.trim().eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    sgf_go::coords::parse_human(&v, size)
        .map(|p| Some((p.x, p.y)))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "expected a GTP vertex of the {size} board (a column letter A-{} without I, a row 1-{}) or \"pass\", got {got}",
                b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[(size.cols.min(25) - 1) as usize] as char,
                size.rows
            ))
        })
}

/// sgfmill's `(row, col)` of `point` (`(col, row)` from the top-left): row
/// 0 at the bottom. `None` (a pass) gives `None`.
#[pyfunction]
#[pyo3(signature = (point, size=None))]
pub fn to_sgfmill(
    point: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(u8, u8)>> {
    let size = size.map_or(Ok(BoardSize::square(19)), convert::size_arg)?;
    Ok(match convert::move_on(point, size)? {
        Move::Pass => None,
        Move::Play(p) => sgf_go::coords::row_col_from_bottom(p, size),
    })
}

/// The point `(col, row)` from the top-left of sgfmill's `(row, col)`
/// (row 0 at the bottom); `None` gives `None`.
#[pyfunction]
#[pyo3(signature = (row_col, size=None))]
pub fn from_sgfmill(
    row_col: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(u8, u8)>> {
    let size = size.map_or(Ok(BoardSize::square(19)), convert::size_arg)?;
    if row_col.is_none() {
        return Ok(None);
    }
    let (r, c) = convert::point_arg(row_col).map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "expected an sgfmill point (row, col) of two ints, got {}",
            convert::describe(row_col)
        ))
    })?;
    let p = (u8::try_from(r).ok().zip(u8::try_from(c).ok()))
        .and_then(|(r, c)| sgf_go::coords::from_row_col_from_bottom(r, c, size));
    match p {
        Some(p) => Ok(Some((p.x, p.y))),
        None => Err(PyValueError::new_err(format!(
            "expected an sgfmill point (row, col) of the {size} board, got ({r}, {c})"
        ))),
    }
}

/// The position or board of a pickled state (`qipu._restore`).
#[pyfunction(name = "_restore_position")]
pub fn restore_position(py: Python<'_>, kind: &str, state: State) -> PyResult<Py<PyAny>> {
    match kind {
        "position" => Ok(Py::new(py, Position::from_state(state)?)?.into_any()),
        "board" => Ok(Py::new(py, Board::from_state(state)?)?.into_any()),
        _ => Err(PyValueError::new_err(format!("cannot restore {kind:?}"))),
    }
}

// ------------------------------------------------------------------ game info

/// How a game ended (`RE`): `winner` (`"B"`, `"W"` or `None`), `by`
/// (`"score"`, `"resign"`, `"time"`, `"forfeit"`, `"unspecified"` for `B+`,
/// `"draw"`, `"void"`, `"unknown"` for `?`, or `None` when `RE` is not in
/// the FF[4] format), `margin` (points, for `"score"`), `raw` (the text).
#[pyclass(module = "qipu", frozen, get_all)]
pub struct GameResult {
    /// `"B"`, `"W"` or `None`.
    pub winner: Option<&'static str>,
    /// How it ended (see the class docs), `None` when not understood.
    pub by: Option<&'static str>,
    /// The margin in points for a win by score.
    pub margin: Option<f64>,
    /// `RE` as written.
    pub raw: String,
}

impl GameResult {
    fn new(p: &sgf_go::info::Parsed<sgf_go::GameResult>) -> GameResult {
        let (winner, by, margin) = match &p.value {
            None => (None, None, None),
            Some(r) => (r.winner().map(|c| c.as_str()), Some(r.kind()), r.margin()),
        };
        GameResult {
            winner,
            by,
            margin,
            raw: p.raw.clone(),
        }
    }
}

#[pymethods]
impl GameResult {
    fn __repr__(&self) -> String {
        format!(
            "<qipu.GameResult {:?}: winner={:?} by={:?} margin={:?}>",
            self.raw, self.winner, self.by, self.margin
        )
    }
    fn __str__(&self) -> String {
        self.raw.clone()
    }
}

/// The game information of a game (from its game-info node, usually the
/// root). Text fields are `str` or `None`. `dates` is the list of `DT`
/// dates: a `datetime.date` for a full date, a tuple `(year,)` or
/// `(year, month)` for a partial one; `[]` when `DT` is absent or not in
/// the FF[4] format (its text is in `date_text`). `result` is a
/// `GameResult` or `None`; `komi` a `float`, `handicap` an `int`,
/// `time_limit` seconds as a `float` (each `None` when absent or not a number).
#[pyclass(module = "qipu", frozen)]
pub struct GameInfo {
    info: sgf_go::GameInfo,
}

impl GameInfo {
    pub fn new(info: sgf_go::GameInfo) -> GameInfo {
        GameInfo { info }
    }
}

fn date_py<'py>(py: Python<'py>, d: &PartialDate) -> PyResult<Bound<'py, PyAny>> {
    match (d.month, d.day) {
        (Some(m), Some(day)) => {
            let date = DATE.import(py, "datetime", "date")?;
            match date.call1((d.year, m, day)) {
                Ok(v) => Ok(v),
                // Year 0 and the like: keep it as a tuple.
                Err(_) => Ok((d.year, m, day).into_pyobject(py)?.into_any()),
            }
        }
        (Some(m), None) => Ok((d.year, m).into_pyobject(py)?.into_any()),
        _ => Ok((d.year,).into_pyobject(py)?.into_any()),
    }
}

#[pymethods]
impl GameInfo {
    /// `PB`: Black's name.
    #[getter]
    fn black(&self) -> Option<String> {
        self.info.black.clone()
    }

    /// `PW`: White's name.
    #[getter]
    fn white(&self) -> Option<String> {
        self.info.white.clone()
    }

    /// `BR`: Black's rank.
    #[getter]
    fn black_rank(&self) -> Option<String> {
        self.info.black_rank.clone()
    }

    /// `WR`: White's rank.
    #[getter]
    fn white_rank(&self) -> Option<String> {
        self.info.white_rank.clone()
    }

    /// `BT`: Black's team.
    #[getter]
    fn black_team(&self) -> Option<String> {
        self.info.black_team.clone()
    }

    /// `WT`: White's team.
    #[getter]
    fn white_team(&self) -> Option<String> {
        self.info.white_team.clone()
    }

    /// `OT`: overtime.
    #[getter]
    fn overtime(&self) -> Option<String> {
        self.info.overtime.clone()
    }

    /// `RU`: rules.
    #[getter]
    fn rules(&self) -> Option<String> {
        self.info.rules.clone()
    }

    /// `EV`: event.
    #[getter]
    fn event(&self) -> Option<String> {
        self.info.event.clone()
    }

    /// `RO`: round.
    #[getter]
    fn round(&self) -> Option<String> {
        self.info.round.clone()
    }

    /// `PC`: place.
    #[getter]
    fn place(&self) -> Option<String> {
        self.info.place.clone()
    }

    /// `GN`: game name.
    #[getter]
    fn name(&self) -> Option<String> {
        self.info.name.clone()
    }

    /// `SO`: source.
    #[getter]
    fn source(&self) -> Option<String> {
        self.info.source.clone()
    }

    /// `GC`: game comment.
    #[getter]
    fn comment(&self) -> Option<String> {
        self.info.comment.clone()
    }

    /// `AN`: annotator.
    #[getter]
    fn annotator(&self) -> Option<String> {
        self.info.annotator.clone()
    }

    /// `CP`: copyright.
    #[getter]
    fn copyright(&self) -> Option<String> {
        self.info.copyright.clone()
    }

    /// `US`: user.
    #[getter]
    fn user(&self) -> Option<String> {
        self.info.user.clone()
    }

    /// `ON`: opening.
    #[getter]
    fn opening(&self) -> Option<String> {
        self.info.opening.clone()
    }

    /// `DT` as dates (see the class docs).
    #[getter]
    fn dates<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let Some(ds) = self.info.dates.as_ref().and_then(|d| d.value.as_ref()) else {
            return Ok(Vec::new());
        };
        ds.iter().map(|d| date_py(py, d)).collect()
    }

    /// The first date of `dates`, or `None`.
    #[getter]
    fn date<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self
            .info
            .dates
            .as_ref()
            .and_then(|d| d.value.as_ref())
            .and_then(|v| v.first())
        {
            Some(d) => Ok(Some(date_py(py, d)?)),
            None => Ok(None),
        }
    }

    /// `DT` as written.
    #[getter]
    fn date_text(&self) -> Option<String> {
        self.info.dates.as_ref().map(|d| d.raw.clone())
    }

    /// `RE` as a `GameResult`, or `None`.
    #[getter]
    fn result(&self) -> Option<GameResult> {
        self.info.result.as_ref().map(GameResult::new)
    }

    /// `KM` as a float.
    #[getter]
    fn komi(&self) -> Option<f64> {
        self.info.komi.as_ref().and_then(|k| k.value)
    }

    /// `KM` as written (`komi` is its reading: `KM[650]`, as Fox writes
    /// 6.5, is 6.5).
    #[getter]
    fn komi_text(&self) -> Option<String> {
        self.info.komi.as_ref().map(|k| k.raw.clone())
    }

    /// `HA` as an int.
    #[getter]
    fn handicap(&self) -> Option<i64> {
        self.info.handicap.as_ref().and_then(|h| h.value)
    }

    /// `TM` in seconds.
    #[getter]
    fn time_limit(&self) -> Option<f64> {
        self.info.time_limit.as_ref().and_then(|t| t.value)
    }

    /// Every field as a dict (typed values; `result` as a dict).
    fn as_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let d = PyDict::new(py);
        for name in [
            "black",
            "white",
            "black_rank",
            "white_rank",
            "black_team",
            "white_team",
            "dates",
            "date_text",
            "komi",
            "komi_text",
            "handicap",
            "time_limit",
            "overtime",
            "rules",
            "event",
            "round",
            "place",
            "name",
            "source",
            "comment",
            "annotator",
            "copyright",
            "user",
            "opening",
        ] {
            d.set_item(name, slf.getattr(name)?)?;
        }
        let r = PyDict::new(py);
        match slf.get().result() {
            Some(res) => {
                r.set_item("winner", res.winner)?;
                r.set_item("by", res.by)?;
                r.set_item("margin", res.margin)?;
                r.set_item("raw", res.raw)?;
                d.set_item("result", r)?;
            }
            None => d.set_item("result", py.None())?,
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<qipu.GameInfo {} vs {}{}>",
            self.info.black.as_deref().unwrap_or("?"),
            self.info.white.as_deref().unwrap_or("?"),
            self.info
                .result
                .as_ref()
                .map(|r| format!(", {}", r.raw))
                .unwrap_or_default()
        )
    }
}
