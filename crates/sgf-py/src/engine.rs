//! `qipu.Engine` (a GTP engine driven from a game of the library) and
//! `qipu.score` (counting a position). Engine work runs with the GIL
//! released, on a copy of the document taken under the lock.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PyList};
use sgf_core::{Color, Document};
use sgf_go::score::{self as counting, DeadFrom, Rules, Settings};
use sgf_go::{BoardSize, Cursor, GameInfo};
use sgf_gtp::{Analysis, EngineMove, EngineSpec};

use crate::convert::{color_of, color_str, move_on, move_py, point_py};
use crate::errors::{QipuError, guard};
use crate::model::{Node, game_index};

create_exception!(
    qipu,
    EngineError,
    QipuError,
    "The engine failed: it could not be started, crashed, timed out or refused a command."
);

fn engine_err(e: sgf_gtp::Error) -> PyErr {
    EngineError::new_err(e.to_string())
}

/// A copy of a node's document with the node's game index and the cursor there.
fn snapshot(node: &Node) -> PyResult<(Document, usize, Cursor)> {
    let doc = node.inner.lock().clone();
    let root = doc.root_of(node.id);
    let gi = game_index(&doc, root)
        .ok_or_else(|| QipuError::new_err("the node was removed from the tree"))?;
    let mut c = Cursor::new(&doc, gi);
    if !c.goto(&doc, node.id) {
        return Err(QipuError::new_err("the node is not in its game"));
    }
    Ok((doc, gi, c))
}

fn engine_move_py(py: Python<'_>, m: EngineMove) -> PyResult<Bound<'_, PyAny>> {
    match m.to_move() {
        Some(mv) => move_py(py, mv),
        None => Ok(pyo3::types::PyString::new(py, "resign").into_any()),
    }
}

fn analysis_py<'py>(py: Python<'py>, a: &Analysis) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("to_play", color_str(a.to_play))?;
    d.set_item("winrate", a.winrate())?;
    d.set_item("score_lead", a.score_lead())?;
    d.set_item("black_winrate", a.black_winrate())?;
    d.set_item("black_score_lead", a.black_score_lead())?;
    d.set_item("visits", a.visits())?;
    let cands = PyList::empty(py);
    for c in &a.candidates {
        let e = PyDict::new(py);
        e.set_item("move", engine_move_py(py, c.mv)?)?;
        e.set_item("visits", c.visits)?;
        e.set_item("winrate", c.winrate)?;
        e.set_item("score_lead", c.score_lead)?;
        e.set_item("prior", c.prior)?;
        e.set_item("order", c.order)?;
        let pv = PyList::empty(py);
        for &m in &c.pv {
            pv.append(engine_move_py(py, m)?)?;
        }
        e.set_item("pv", pv)?;
        cands.append(e)?;
    }
    d.set_item("candidates", cands)?;
    d.set_item("ownership", a.ownership.clone())?;
    Ok(d)
}

/// The score as `qipu score --json` prints it (the one shape,
/// [`sgf_report::score_json`]), points as Python's `(col, row)`.
fn score_py<'py>(
    py: Python<'py>,
    s: &counting::Score,
    dame: &[sgf_core::Point],
    from: DeadFrom,
) -> PyResult<Bound<'py, PyDict>> {
    let v = sgf_report::score_json(s, dame, from);
    let d = crate::convert::to_py(py, &v)?
        .into_bound(py)
        .cast_into::<PyDict>()
        .map_err(PyErr::from)?;
    for (key, points) in [("dead", &s.dead[..]), ("dame", dame)] {
        let list = PyList::empty(py);
        for &p in points {
            list.append(point_py(py, p)?)?;
        }
        d.set_item(key, list)?;
    }
    Ok(d)
}

fn settings_for(
    doc: &Document,
    gi: usize,
    rules: Option<&str>,
    komi: Option<f64>,
) -> PyResult<Settings> {
    let mut s = Settings::of_game(&GameInfo::of(doc, gi));
    if let Some(r) = rules {
        s.rules = Rules::from_name(r).ok_or_else(|| {
            PyValueError::new_err(format!(
                "expected rules such as \"japanese\", \"chinese\" or \"aga\", got {r:?}"
            ))
        })?;
    }
    if let Some(k) = komi {
        if !k.is_finite() {
            return Err(PyValueError::new_err(format!(
                "expected komi to be a finite number, got {k}"
            )));
        }
        s.komi = k;
    }
    Ok(s)
}

/// Counts the position at `node`: dead stones from `engine` when given,
/// else from the node's `TB`/`TW`, else from Qipu's estimator.
#[pyfunction(name = "score")]
#[pyo3(signature = (node, *, rules=None, komi=None, engine=None))]
pub fn score_node<'py>(
    py: Python<'py>,
    node: &Node,
    rules: Option<&str>,
    komi: Option<f64>,
    engine: Option<&Engine>,
) -> PyResult<Bound<'py, PyDict>> {
    let (doc, gi, c) = snapshot(node)?;
    let settings = settings_for(&doc, gi, rules, komi)?;
    let (dead, dame, from) = match engine {
        Some(e) => {
            let (dead, dame) = e.with(py, |eng| {
                eng.replay(&doc, gi, c.node())?;
                eng.dead_and_dame(c.size(), c.position())
            })?;
            (dead, dame, DeadFrom::Engine)
        }
        None => {
            let (d, from) = py.detach(|| counting::record_dead(&doc, &c));
            (d, Vec::new(), from)
        }
    };
    let s = guard("score", || {
        Ok(counting::count_with(c.position(), &dead, &dame, &settings))
    })?;
    score_py(py, &s, &dame, from)
}

/// A Go engine speaking GTP (GNU Go, Leela Zero, KataGo's `gtp` mode),
/// driven through the library's GTP client (sgf-gtp). Calls release the
/// GIL; several threads may share one engine (calls take turns).
#[pyclass(module = "qipu", frozen)]
pub struct Engine {
    inner: Mutex<Option<sgf_gtp::Engine>>,
    size: Mutex<BoardSize>,
    name: String,
}

impl Engine {
    /// Runs `f` on the engine with the GIL released.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut sgf_gtp::Engine) -> sgf_gtp::Result<T> + Send,
    ) -> PyResult<T> {
        let mut guard = self.engine(py);
        let Some(e) = guard.as_mut() else {
            return Err(EngineError::new_err("the engine was closed"));
        };
        py.detach(|| f(e)).map_err(engine_err)
    }

    /// The engine, locked; waits for another thread's call without the GIL.
    fn engine(&self, py: Python<'_>) -> MutexGuard<'_, Option<sgf_gtp::Engine>> {
        self.inner
            .lock_py_attached(py)
            .unwrap_or_else(|e| e.into_inner())
    }

    fn size(&self) -> BoardSize {
        *self.size.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Engine {
    /// Starts an engine: a name from `engines.toml` or a command line
    /// such as ``"gnugo --mode gtp"`` (split like a shell, never run by one).
    #[new]
    #[pyo3(signature = (engine, *, timeout=None))]
    fn py_new(py: Python<'_>, engine: &str, timeout: Option<f64>) -> PyResult<Engine> {
        let mut spec = EngineSpec::resolve(engine).map_err(engine_err)?;
        if let Some(t) = timeout {
            if !(t.is_finite() && t > 0.0 && t < 1e7) {
                return Err(PyValueError::new_err(format!(
                    "expected timeout to be a positive number of seconds, got {t}"
                )));
            }
            spec.timeout = Duration::from_secs_f64(t);
        }
        let e = py
            .detach(|| sgf_gtp::Engine::start(&spec))
            .map_err(engine_err)?;
        Ok(Engine {
            inner: Mutex::new(Some(e)),
            size: Mutex::new(BoardSize::square(19)),
            name: spec.name,
        })
    }

    /// The engine's short name (the configured name or the program's).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Sends one GTP command and returns the answer's text.
    fn command(&self, py: Python<'_>, command: &str) -> PyResult<String> {
        let cmd = command.to_string();
        self.with(py, move |e| e.command(&cmd))
    }

    /// Whether the engine knows a command (from its ``list_commands``).
    fn supports(&self, py: Python<'_>, command: &str) -> bool {
        self.engine(py)
            .as_ref()
            .is_some_and(|e| e.supports(command))
    }

    /// Replays the game of `node` from its root to `node` into the engine
    /// (size, komi, rules, setup and moves).
    fn replay(&self, py: Python<'_>, node: &Node) -> PyResult<()> {
        let (doc, gi, c) = snapshot(node)?;
        *self.size.lock().unwrap_or_else(|e| e.into_inner()) = c.size();
        self.with(py, |e| e.replay(&doc, gi, c.node()).map(drop))
    }

    /// Plays a move of `color` (``"B"``/``"W"``) at `point` (``None``: pass) on the engine's board.
    #[pyo3(signature = (color, point))]
    fn play(
        &self,
        py: Python<'_>,
        color: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let c = color_of(color)?;
        let size = self.size();
        let mv = move_on(point, size)?;
        self.with(py, |e| e.play(c, mv, size))
    }

    /// Asks the engine for a move of `color`: ``(col, row)``, ``None`` for a
    /// pass, or ``"resign"``. The move is played on the engine's board.
    fn genmove<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let c: Color = color_of(color)?;
        let size = self.size();
        let m = self.with(py, |e| e.genmove(c, size))?;
        engine_move_py(py, m)
    }

    /// Takes back the last move on the engine's board.
    fn undo(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |e| e.undo())
    }

    /// The stones the engine considers dead (``final_status_list dead``), as ``(col, row)``.
    fn dead_stones<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let size = self.size();
        let dead = self.with(py, |e| e.final_status_dead(size))?;
        dead.into_iter().map(|p| point_py(py, p)).collect()
    }

    /// Analyses the engine's position with `color` to move until `visits`
    /// visits or `max_time` seconds (``lz-analyze``/``kata-analyze``).
    /// Returns ``{"to_play", "winrate", "score_lead", "black_winrate",
    /// "black_score_lead", "visits", "candidates": [{"move", "visits",
    /// "winrate", "score_lead", "prior", "order", "pv"}], "ownership"}``.
    #[pyo3(signature = (color, visits=100, max_time=10.0))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
        visits: u64,
        max_time: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let c = color_of(color)?;
        if !(max_time.is_finite() && max_time > 0.0 && max_time < 1e7) {
            return Err(PyValueError::new_err(format!(
                "expected max_time to be a positive number of seconds, got {max_time}"
            )));
        }
        if visits == 0 {
            return Err(PyValueError::new_err(
                "expected visits to be at least 1, got 0",
            ));
        }
        let size = self.size();
        let a = self.with(py, |e| {
            e.analyze(c, size, visits, Duration::from_secs_f64(max_time))
        })?;
        analysis_py(py, &a)
    }

    /// What the engine wrote on standard error lately (for diagnostics).
    fn stderr(&self, py: Python<'_>) -> String {
        self.engine(py)
            .as_ref()
            .map(|e| e.stderr())
            .unwrap_or_default()
    }

    /// Ends the engine (``quit``, then a kill). Later calls raise ``EngineError``.
    fn close(&self, py: Python<'_>) {
        let e = self.engine(py).take();
        if let Some(e) = e {
            py.detach(|| e.quit());
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("<qipu.Engine {}>", self.name)
    }
}

/// Registers the engine classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add_class::<Engine>()?;
    m.add_function(wrap_pyfunction!(score_node, m)?)?;
    Ok(())
}
