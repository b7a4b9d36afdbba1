//! Go: positions (boards as NumPy arrays), the main-line position iterator,
//! typed game information.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict};

use sgf_core::{Color, Document, Point};
use sgf_go::{Cursor, Move, PartialDate};

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

/// A board position: the stones, who plays next, captures, the ko point
/// and the move number. `board` is a NumPy `uint8` array of shape
/// `(rows, cols)` indexed `board[row, col]` with 0 empty, 1 black, 2 white.
#[pyclass(module = "qipu", frozen)]
pub struct Position {
    cols: u8,
    rows: u8,
    cells: Vec<u8>,
    to_play: Color,
    captures: [u32; 2],
    ko: Option<Point>,
    move_number: u32,
    last_move: Option<(Color, Move)>,
}

impl Position {
    /// A snapshot of the cursor's position; `to_play` follows `PL` and the
    /// next move of the record (see `Cursor::next_player`).
    pub fn from_cursor(c: &Cursor, doc: &Document) -> Position {
        let p = c.position();
        let s = c.size();
        Position {
            cols: s.cols,
            rows: s.rows,
            cells: p.board.cells().to_vec(),
            to_play: c.next_player(doc),
            captures: p.captures,
            ko: p.ko,
            move_number: p.move_number,
            last_move: p.last_move,
        }
    }
}

#[pymethods]
impl Position {
    /// The stones: a new writable NumPy array `(rows, cols)` of `uint8`,
    /// 0 empty, 1 black, 2 white; `board[row, col]`, row 0 at the top.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let buf = PyByteArray::new(py, &self.cells);
        frombuffer(py)?
            .call1((buf, "uint8"))?
            .call_method1("reshape", (self.rows as usize, self.cols as usize))
    }

    /// The stones as `rows * cols` bytes, row-major (0/1/2), for code without NumPy.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.cells)
    }

    /// `(rows, cols)`, the shape of `board`.
    #[getter]
    fn shape(&self) -> (u8, u8) {
        (self.rows, self.cols)
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> u8 {
        self.cols
    }

    /// Number of rows.
    #[getter]
    fn rows(&self) -> u8 {
        self.rows
    }

    /// Who plays next: `"B"` or `"W"`.
    #[getter]
    fn to_play(&self) -> &'static str {
        self.to_play.as_str()
    }

    /// Stones captured so far: `{"B": captured by Black, "W": captured by White}`.
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("B", self.captures[0])?;
        d.set_item("W", self.captures[1])?;
        Ok(d)
    }

    /// The point the player to move may not retake at once (simple ko), or `None`.
    #[getter]
    fn ko(&self) -> Option<(u8, u8)> {
        self.ko.map(|p| (p.x, p.y))
    }

    /// Number of moves played to reach it (`MN` resets it).
    #[getter]
    fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The last move: `("B" | "W", (col, row) | None)`, or `None` before any move.
    #[getter]
    fn last_move<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(&'static str, Bound<'py, PyAny>)>> {
        match self.last_move {
            Some((c, m)) => Ok(Some((c.as_str(), convert::move_py(py, m)?))),
            None => Ok(None),
        }
    }

    /// The stone at `(col, row)`: 0, 1 or 2.
    fn __getitem__(&self, point: (i64, i64)) -> PyResult<u8> {
        let (x, y) = point;
        if !(0..self.cols as i64).contains(&x) || !(0..self.rows as i64).contains(&y) {
            return Err(PyIndexError::new_err(format!(
                "({x}, {y}) is off the {}x{} board",
                self.cols, self.rows
            )));
        }
        Ok(self.cells[y as usize * self.cols as usize + x as usize])
    }

    /// The board as text, one line per row from the top: `X` black, `O` white, `.` empty.
    fn __str__(&self) -> String {
        let mut s = String::with_capacity(self.cells.len() + self.rows as usize);
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 && i % self.cols.max(1) as usize == 0 {
                s.push('\n');
            }
            s.push(match c {
                1 => 'X',
                2 => 'O',
                _ => '.',
            });
        }
        s
    }

    fn __repr__(&self) -> String {
        format!(
            "<qipu.Position {}x{} move {} {} to play, captures B {} W {}>",
            self.cols,
            self.rows,
            self.move_number,
            self.to_play.as_str(),
            self.captures[0],
            self.captures[1]
        )
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
