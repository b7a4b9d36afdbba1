//! `qipu.Database`: the game database of `sgf-db` (index, find, dups) for
//! Python. Results come back as plain dicts and lists of dicts, so
//! `pandas.DataFrame(result["hits"])` and `pyarrow.Table.from_pylist(...)`
//! take them directly.

use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sgf_db::{Filter, Pattern, Query, Range, TextMatch, Winner};

use crate::convert::to_py;
use crate::errors::QipuError;

fn err(e: impl std::fmt::Display) -> PyErr {
    QipuError::new_err(e.to_string())
}

fn json_py(py: Python<'_>, v: &impl serde::Serialize) -> PyResult<Py<PyAny>> {
    to_py(py, &serde_json::to_value(v).map_err(err)?)
}

/// A game database file (created when missing); see `docs/db-patterns.md`.
#[pyclass(module = "qipu._qipu")]
pub struct Database {
    /// Taken out while a call runs without the GIL (the connection is
    /// `Send` but not `Sync`), and put back after.
    inner: Mutex<Option<sgf_db::Database>>,
    path: PathBuf,
}

impl Database {
    fn take(&self) -> PyResult<sgf_db::Database> {
        self.inner
            .lock()
            .map_err(|_| err("the database is poisoned"))?
            .take()
            .ok_or_else(|| err("the database is in use by another call"))
    }

    fn put(&self, db: sgf_db::Database) {
        if let Ok(mut g) = self.inner.lock() {
            *g = Some(db);
        }
    }

    /// Runs `f` on the database without the GIL.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut sgf_db::Database) -> T + Send,
    ) -> PyResult<T> {
        let mut db = self.take()?;
        let (db, r) = py.detach(move || {
            let r = f(&mut db);
            (db, r)
        });
        self.put(db);
        Ok(r)
    }
}

const KEYS: &[&str] = &[
    "player",
    "black",
    "white",
    "event",
    "contains",
    "date_from",
    "date_to",
    "result",
    "winner",
    "rank",
    "handicap",
    "komi",
    "size",
    "rules",
    "comment",
    "length",
    "position",
    "game",
    "move",
    "node",
    "pattern",
    "pattern_rows",
    "anywhere",
    "swap_colors",
    "to_play",
    "moves",
    "variations",
    "limit",
];

fn range_of(v: &Bound<'_, PyAny>) -> PyResult<Range> {
    if let Ok(s) = v.extract::<String>() {
        return Range::parse(&s).map_err(err);
    }
    if let Ok((a, b)) = v.extract::<(Option<f64>, Option<f64>)>() {
        return Ok(Range { min: a, max: b });
    }
    let x: f64 = v.extract()?;
    Ok(Range {
        min: Some(x),
        max: Some(x),
    })
}

/// The query of `find`'s keyword arguments (the names of `qipu db find`'s
/// options; see the stub for the list).
fn query_of(kw: Option<&Bound<'_, PyDict>>) -> PyResult<Query> {
    let mut q = Query::default();
    let mut f = Filter::default();
    let Some(kw) = kw else {
        return Ok(q);
    };
    for k in kw.keys() {
        let k: String = k.extract()?;
        if !KEYS.contains(&k.as_str()) {
            return Err(err(format!("find: unknown argument `{k}`")));
        }
    }
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(kw.get_item(k)?.filter(|v| !v.is_none()))
    };
    let text = |k: &str| -> PyResult<Option<String>> { get(k)?.map(|v| v.extract()).transpose() };
    f.player = text("player")?;
    f.black = text("black")?;
    f.white = text("white")?;
    f.event = text("event")?;
    if get("contains")?.map(|v| v.is_truthy()).transpose()? == Some(true) {
        f.text_match = TextMatch::Substring;
    }
    f.date_from = text("date_from")?;
    f.date_to = text("date_to")?;
    f.result = text("result")?;
    f.winner = text("winner")?
        .map(|w| Winner::parse(&w))
        .transpose()
        .map_err(err)?;
    f.rank = text("rank")?;
    f.rules = text("rules")?;
    f.comment = text("comment")?;
    f.handicap = get("handicap")?.map(|v| range_of(&v)).transpose()?;
    f.komi = get("komi")?.map(|v| range_of(&v)).transpose()?;
    f.moves = get("length")?.map(|v| range_of(&v)).transpose()?;
    if let Some(v) = get("size")? {
        f.size = Some(match v.extract::<(u8, u8)>() {
            Ok(cr) => cr,
            Err(_) => {
                let n: u8 = v.extract()?;
                (n, n)
            }
        });
    }
    f.to_sql().map_err(err)?;
    q.filter = f;
    let game: usize = get("game")?.map(|v| v.extract()).transpose()?.unwrap_or(0);
    let mv: Option<usize> = get("move")?.map(|v| v.extract()).transpose()?;
    let node: Option<usize> = get("node")?.map(|v| v.extract()).transpose()?;
    if let Some(p) = get("position")? {
        let (bytes, hint) = bytes_of(&p)?;
        q.pattern =
            Some(sgf_db::position_of(&bytes, hint.as_deref(), game, mv, node).map_err(err)?);
    }
    if let Some(p) = get("pattern")? {
        let (bytes, _) = bytes_of(&p)?;
        q.pattern = Some(Pattern::from_sgf(&bytes).map_err(err)?);
    }
    if let Some(r) = get("pattern_rows")? {
        let rows: Vec<String> = r.extract()?;
        q.pattern = Some(Pattern::from_rows(&rows).map_err(err)?);
    }
    let flag = |k: &str| -> PyResult<bool> {
        Ok(get(k)?.map(|v| v.is_truthy()).transpose()?.unwrap_or(false))
    };
    q.options.anywhere = flag("anywhere")?;
    q.options.swap_colors = flag("swap_colors")?;
    q.options.variations = flag("variations")?;
    q.options.to_play = match text("to_play")?
        .as_deref()
        .map(str::to_ascii_uppercase)
        .as_deref()
    {
        None => None,
        Some("B") => Some(sgf_core::Color::Black),
        Some("W") => Some(sgf_core::Color::White),
        Some(o) => return Err(err(format!("to_play is \"B\" or \"W\", not {o:?}"))),
    };
    if let Some(v) = get("moves")? {
        let r = range_of(&v)?;
        q.options.min_move = r.min.map(|x| x.max(0.0) as u32);
        q.options.max_move = r.max.map(|x| x.max(0.0) as u32);
    }
    q.limit = get("limit")?.map(|v| v.extract()).transpose()?;
    Ok(q)
}

/// A record as bytes: `bytes`, or a path to read (with its name as a hint).
fn bytes_of(v: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, Option<PathBuf>)> {
    if let Ok(b) = v.extract::<Vec<u8>>()
        && !v.is_instance_of::<pyo3::types::PyString>()
    {
        return Ok((b, None));
    }
    let p: PathBuf = v.extract()?;
    let b = crate::model::read_input(&p)?;
    Ok((b, Some(p)))
}

#[pymethods]
impl Database {
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        let db = sgf_db::Database::open(&path).map_err(err)?;
        Ok(Database {
            inner: Mutex::new(Some(db)),
            path,
        })
    }

    /// The file.
    #[getter]
    fn path(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }

    /// Number of games.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.run(py, |db| db.game_count())?.map_err(err)? as usize)
    }

    /// Indexes files, directories and archives; only what changed is read
    /// again. Returns `{"read", "unchanged", "removed", "games", "total_games", "problems"}`.
    fn index(&self, py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Py<PyAny>> {
        let r = self
            .run(py, move |db| db.index(&paths, &sgf_db::NoProgress))?
            .map_err(err)?;
        json_py(py, &r)
    }

    /// Finds games: keyword arguments as `qipu db find`'s options. Returns
    /// `{"total", "games", "hits": [...], "continuations": [...]}`.
    #[pyo3(signature = (**kwargs))]
    fn find(&self, py: Python<'_>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
        let q = query_of(kwargs)?;
        let r = self.run(py, move |db| db.find(&q))?.map_err(err)?;
        json_py(py, &r)
    }

    /// Groups of duplicates: `[{"signature", "games": [...]}]`.
    fn dups(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let r = self.run(py, |db| db.dups())?.map_err(err)?;
        json_py(py, &r)
    }

    fn __repr__(&self) -> String {
        format!("qipu.Database({:?})", self.path.to_string_lossy())
    }
}

/// `find` over several databases (shards) as one.
#[pyfunction]
#[pyo3(signature = (dbs, **kwargs))]
pub fn find_all(
    py: Python<'_>,
    dbs: Vec<PyRef<'_, Database>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let q = query_of(kwargs)?;
    let mut taken = Vec::new();
    for d in &dbs {
        match d.take() {
            Ok(x) => taken.push(x),
            Err(e) => {
                for (d, x) in dbs.iter().zip(taken) {
                    d.put(x);
                }
                return Err(e);
            }
        }
    }
    let (taken, r) = py.detach(move || {
        let refs: Vec<&sgf_db::Database> = taken.iter().collect();
        let r = sgf_db::find_all(&refs, &q);
        (taken, r)
    });
    for (d, x) in dbs.iter().zip(taken) {
        d.put(x);
    }
    json_py(py, &r.map_err(err)?)
}
