//! Bulk reading: `read_many` (a stream of collections parsed on worker
//! threads) and the columns behind `to_arrow` (one row per game).
//!
//! Both run without the GIL. Every file is parsed under `catch_unwind`.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyBytes, PyList, PyTuple};

use sgf_core::Color;
use sgf_formats::collection::Record;

use crate::errors::{ParseError, QipuError, input_err, panic_message};
use crate::model::{Collection, Inner, read_file};

/// Why a file gave no document.
enum Failure {
    Io(sgf_formats::input::InputError),
    /// In no format Qipu reads.
    Format(String),
    Panic(String),
}

/// What reading one file gave: the record and the input bytes.
type Outcome = Result<Box<crate::model::LoadedFile>, Failure>;

fn read_guarded(path: &Path) -> Outcome {
    match catch_unwind(AssertUnwindSafe(|| read_file(path))) {
        Ok(Ok(Ok(l))) => Ok(Box::new(l)),
        Ok(Ok(Err(m))) => Err(Failure::Format(m)),
        Ok(Err(e)) => Err(Failure::Io(e)),
        Err(p) => Err(Failure::Panic(panic_message(&*p))),
    }
}

fn format_err(path: &Path, msg: &str) -> PyErr {
    ParseError::new_err(format!("{}: {msg}", path.display()))
}

fn panic_err(path: &Path, msg: &str) -> PyErr {
    QipuError::new_err(format!(
        "{}: internal error while reading: {msg} (please report this with the file)",
        path.display()
    ))
}

/// One thing a worker hands over for input `i`: its `j`-th record (a file
/// has one, an archive one per member), or the end of the input.
enum Item {
    Record(String, Outcome),
    End,
}

/// A stream of collections read on worker threads, in input order
/// (`qipu.read_many`). Each item is a `Collection` whose `path` is set (an
/// archive member's is `ARCHIVE!MEMBER`).
///
/// Workers take the next input from a shared counter, so inputs finish in
/// about input order and the buffer of finished-but-not-yet-consumed
/// documents stays small (bounded channel). An archive's members are read
/// one after the other by the worker that took the archive.
///
/// One stream may be shared by several Python threads: each `next()`
/// takes the stream's lock (waiting without the GIL), so every file is
/// handed out once, in order.
#[pyclass(module = "qipu", frozen)]
pub struct ReadMany {
    paths: Arc<Vec<PathBuf>>,
    state: Mutex<Stream>,
    cancel: Arc<AtomicBool>,
    skip_errors: bool,
}

/// The consuming side of a `ReadMany`, behind its lock.
struct Stream {
    rx: Receiver<(usize, usize, Item)>,
    pending: BTreeMap<(usize, usize), Item>,
    /// The next (input, record of the input) to hand out.
    next: (usize, usize),
}

impl Drop for ReadMany {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Reads input `i` (a record file, or an archive's record members) and
/// sends each record, then its end; false when the stream is gone.
fn read_input_items(
    i: usize,
    p: &Path,
    tx: &std::sync::mpsc::SyncSender<(usize, usize, Item)>,
    cancel: &AtomicBool,
) -> bool {
    if sgf_formats::judge::ArchiveKind::of_file(p).is_none() {
        let name = p.display().to_string();
        return tx.send((i, 0, Item::Record(name, read_guarded(p)))).is_ok()
            && tx.send((i, 1, Item::End)).is_ok();
    }
    let shown = p.display().to_string();
    let mut j = 0;
    let mut open = true;
    let r = sgf_formats::archive::read_members(
        p,
        &sgf_formats::archive::ArchiveOptions::default(),
        &mut |m| {
            if !open || cancel.load(Ordering::Relaxed) {
                open = false;
                return;
            }
            let (name, outcome) = match m {
                Ok(m) => {
                    let name = format!("{shown}!{}", m.name);
                    let o = read_member(&m.name, m.bytes);
                    (name, o)
                }
                Err(e) => (
                    format!("{shown}!{}", e.name),
                    Err(Failure::Format(e.message)),
                ),
            };
            open = tx.send((i, j, Item::Record(name, outcome))).is_ok();
            j += 1;
        },
    );
    if let Err(e) = r
        && open
    {
        open = tx
            .send((i, j, Item::Record(shown, Err(Failure::Format(e.why())))))
            .is_ok();
        j += 1;
    }
    open && tx.send((i, j, Item::End)).is_ok()
}

/// Reads an archive member's bytes as a record, as `read_guarded` reads a file.
fn read_member(name: &str, bytes: Vec<u8>) -> Outcome {
    let bytes: std::sync::Arc<[u8]> = bytes.into();
    match catch_unwind(AssertUnwindSafe(|| {
        sgf_formats::read_any(&bytes, Some(Path::new(name)))
    })) {
        Ok(Ok(l)) => Ok(Box::new((l, bytes))),
        Ok(Err(e)) => Err(Failure::Format(crate::model::read_error(&e))),
        Err(p) => Err(Failure::Panic(panic_message(&*p))),
    }
}

/// Starts reading `paths` on `threads` worker threads (`read_many` in the
/// Python layer expands directories and calls this).
#[pyfunction]
#[pyo3(signature = (paths, threads, skip_errors=false))]
pub fn read_many_native(paths: Vec<PathBuf>, threads: usize, skip_errors: bool) -> ReadMany {
    let threads = threads.clamp(1, 256).min(paths.len().max(1));
    let paths = Arc::new(paths);
    let (tx, rx) = sync_channel::<(usize, usize, Item)>(threads * 4);
    let counter = Arc::new(AtomicUsize::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    for _ in 0..threads {
        let (tx, paths, counter, cancel) =
            (tx.clone(), paths.clone(), counter.clone(), cancel.clone());
        std::thread::spawn(move || {
            loop {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let i = counter.fetch_add(1, Ordering::Relaxed);
                let Some(p) = paths.get(i) else { break };
                if !read_input_items(i, p, &tx, &cancel) {
                    break;
                }
            }
        });
    }
    ReadMany {
        paths,
        state: Mutex::new(Stream {
            rx,
            pending: BTreeMap::new(),
            next: (0, 0),
        }),
        cancel,
        skip_errors,
    }
}

impl ReadMany {
    /// The stream, locked; another thread holding it is waited for without the GIL.
    fn stream(&self, py: Python<'_>) -> std::sync::MutexGuard<'_, Stream> {
        self.state
            .lock_py_attached(py)
            .unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl ReadMany {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The number of inputs (an archive counts once).
    fn __len__(&self) -> usize {
        self.paths.len()
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Collection>> {
        let mut st = self.stream(py);
        loop {
            if st.next.0 >= self.paths.len() {
                return Ok(None);
            }
            let at = st.next;
            if let Some(item) = st.pending.remove(&at) {
                let Item::Record(name, o) = item else {
                    st.next = (at.0 + 1, 0);
                    continue;
                };
                st.next.1 += 1;
                let path = Path::new(&name);
                match o {
                    Ok(l) => {
                        drop(st);
                        let (loaded, bytes) = *l;
                        return Ok(Some(Collection {
                            inner: Inner::loaded(loaded, &bytes, Some(name)),
                        }));
                    }
                    Err(_) if self.skip_errors => continue,
                    Err(Failure::Io(e)) => return Err(input_err(&e, path)),
                    Err(Failure::Format(m)) => return Err(format_err(path, &m)),
                    Err(Failure::Panic(m)) => return Err(panic_err(path, &m)),
                }
            }
            // `&mut Stream` is Send (the receiver is not Sync): captured whole.
            let stream: &mut Stream = &mut st;
            let got = py.detach(move || stream.rx.recv_timeout(Duration::from_millis(100)));
            match got {
                Ok((i, j, item)) => {
                    st.pending.insert((i, j), item);
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(QipuError::new_err("read_many: the worker threads stopped"));
                }
            }
        }
    }

    /// Stops the workers (the files being parsed finish, nothing more is read).
    fn close(&self, py: Python<'_>) {
        self.cancel.store(true, Ordering::Relaxed);
        let mut st = self.stream(py);
        st.next = (self.paths.len(), 0);
        st.pending.clear();
    }
}

// ------------------------------------------------------------------ Arrow columns

/// The text columns, in order (`Row::texts`), with the property each holds.
const TEXTS: [(&str, &str); 12] = [
    ("black", "PB"),
    ("white", "PW"),
    ("black_rank", "BR"),
    ("white_rank", "WR"),
    ("date", "DT"),
    ("result", "RE"),
    ("event", "EV"),
    ("round", "RO"),
    ("place", "PC"),
    ("rules", "RU"),
    ("name", "GN"),
    ("time_control", "OT"),
];

/// One row of the games table: the library's game summary
/// ([`sgf_formats::summary`]) packed as the columns hold it (a corpus has
/// millions of moves: each takes 4 bytes here).
struct Row {
    path: usize,
    game: u32,
    cols: u8,
    rows: u8,
    charset: std::borrow::Cow<'static, str>,
    texts: [Option<String>; TEXTS.len()],
    year: Option<u16>,
    winner: Option<Color>,
    win_by: Option<&'static str>,
    margin: Option<f64>,
    komi: Option<f64>,
    /// `KM` as written (`komi` is its one reading: `KM[650]` is 6.5).
    komi_text: Option<String>,
    handicap: Option<i64>,
    /// Every move of the main line; no point for a pass or a move that
    /// cannot be played.
    moves: Vec<(Color, Option<(u8, u8)>)>,
    /// The numbers (from 1) of the moves that cannot be played.
    unplayable: Vec<u32>,
    setup: [Vec<(u8, u8)>; 2],
    errors: u32,
    warnings: u32,
}

fn rows_of(path: usize, loaded: &sgf_formats::Loaded) -> Vec<Row> {
    sgf_formats::summary::summaries(loaded)
        .into_iter()
        .enumerate()
        .map(|(gi, s)| {
            let year = s.year();
            let (winner, win_by, margin) = match &s.outcome {
                None => (None, None, None),
                Some(r) => (r.winner(), Some(r.kind()), r.margin()),
            };
            let unplayable = (1..)
                .zip(&s.moves)
                .filter(|(_, m)| m.unplayable.is_some())
                .map(|(n, _)| n)
                .collect();
            let moves = s
                .moves
                .iter()
                .map(|m| (m.color, m.point.map(|[x, y]| (x, y))))
                .collect();
            let pts = |v: &[[u8; 2]]| v.iter().map(|&[x, y]| (x, y)).collect();
            Row {
                path,
                game: gi as u32,
                cols: s.size[0],
                rows: s.size[1],
                texts: [
                    s.black,
                    s.white,
                    s.black_rank,
                    s.white_rank,
                    s.date,
                    s.result,
                    s.event,
                    s.round,
                    s.place,
                    s.rules,
                    s.name,
                    s.time_control,
                ],
                charset: s.charset,
                year,
                winner,
                win_by,
                margin,
                komi: s.komi,
                komi_text: s.komi_text,
                handicap: s.handicap,
                moves,
                unplayable,
                setup: [pts(&s.setup_black), pts(&s.setup_white)],
                errors: s.errors,
                warnings: s.warnings,
            }
        })
        .collect()
}

/// A bit map of valid entries (Arrow layout, least significant bit first).
#[derive(Default)]
struct Validity {
    bits: Vec<u8>,
    len: usize,
}

impl Validity {
    fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            let last = self.bits.len() - 1;
            self.bits[last] |= 1 << (self.len % 8);
        }
        self.len += 1;
    }
}

#[derive(Default)]
struct StrCol {
    valid: Validity,
    offsets: Vec<u8>,
    data: Vec<u8>,
}

impl StrCol {
    fn push(&mut self, s: Option<&str>) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        self.valid.push(s.is_some());
        if let Some(s) = s {
            self.data.extend_from_slice(s.as_bytes());
        }
        // Arrow's 32-bit offsets: a column over 2 GiB is refused before this.
        self.offsets
            .extend_from_slice(&(self.data.len() as i32).to_le_bytes());
    }
}

#[derive(Default)]
struct NumCol {
    valid: Validity,
    values: Vec<u8>,
}

impl NumCol {
    fn push_bytes(&mut self, b: Option<&[u8]>, width: usize) {
        self.valid.push(b.is_some());
        match b {
            Some(b) => self.values.extend_from_slice(b),
            None => self.values.extend(std::iter::repeat_n(0, width)),
        }
    }
}

/// A list of points (with a colour per entry for moves): offsets plus children.
#[derive(Default)]
struct PointsCol {
    offsets: Vec<u8>,
    count: i32,
    colors: Vec<u8>,
    xs: Vec<u8>,
    ys: Vec<u8>,
    valid: Validity,
}

impl PointsCol {
    fn start(&mut self) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
    }
    fn end(&mut self) {
        self.offsets.extend_from_slice(&self.count.to_le_bytes());
    }
    fn push(&mut self, color: Option<Color>, p: Option<(u8, u8)>) {
        if let Some(c) = color {
            // Arrow dictionary indices into ["B", "W"].
            self.colors.push(match c {
                Color::Black => 0,
                Color::White => 1,
            });
        }
        let (x, y) = p.unwrap_or((0, 0));
        self.xs.push(x);
        self.ys.push(y);
        self.valid.push(p.is_some());
        self.count += 1;
    }
}

/// A list of `int32` per row: offsets plus values.
#[derive(Default)]
struct IntListCol {
    offsets: Vec<u8>,
    values: Vec<u8>,
}

impl IntListCol {
    fn push(&mut self, v: &[u32]) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        for &x in v {
            self.values.extend_from_slice(&(x as i32).to_le_bytes());
        }
        let n = (self.values.len() / 4) as i32;
        self.offsets.extend_from_slice(&n.to_le_bytes());
    }
}

fn bytes<'py>(py: Python<'py>, b: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, b)
}

/// Parses `paths` on `threads` threads and returns the columns of the games
/// table as Arrow buffers: `(num_rows, [(name, kind, buffers…), …])`; the
/// Python layer (`qipu.to_arrow`) wraps them into a `pyarrow.Table`.
/// Unreadable files raise `OSError`, or are skipped with `skip_errors`.
/// `progress`, when given, is called about ten times a second (and once
/// at the end) as `progress(games_read, files_read, files_total)`; Ctrl-C
/// stops the workers.
#[pyfunction]
#[pyo3(signature = (paths, threads, skip_errors=false, progress=None))]
pub fn arrow_columns<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    threads: usize,
    skip_errors: bool,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(usize, Bound<'py, PyList>)> {
    let threads = threads.clamp(1, 256);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| QipuError::new_err(format!("cannot start worker threads: {e}")))?;
    let paths_ref = &paths;
    let games_done = AtomicUsize::new(0);
    let files_done = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    // The library's one collection reader: files side by side, a large one
    // a part at a time, an archive's members as files (`ARCHIVE!MEMBER`).
    let work = || {
        pool.install(|| {
            let mut rows: Vec<Row> = Vec::new();
            let mut names: Vec<String> = Vec::new();
            let mut read = sgf_formats::ReadOptions::default();
            read.dialect_report = false;
            let r = sgf_formats::collection::records(
                paths_ref,
                &sgf_formats::parts::PartOptions::default().with_read(read),
                &|| {
                    files_done.fetch_add(1, Ordering::Relaxed);
                },
                |part| rows_of(0, &part.loaded),
                |input, r| {
                    if cancel.load(Ordering::Relaxed) {
                        return Err(None);
                    }
                    match r {
                        Record::Part(piece, mut rs) => {
                            if names.last() != Some(&input.name) {
                                names.push(input.name.clone());
                            }
                            for row in &mut rs {
                                row.path = names.len() - 1;
                                row.game += piece.first_game as u32;
                            }
                            games_done.fetch_add(rs.len(), Ordering::Relaxed);
                            rows.append(&mut rs);
                        }
                        Record::Done { .. } => {}
                        Record::Failed { .. } if skip_errors => {}
                        Record::Failed {
                            message, input: i, ..
                        } => return Err(Some((input.name.clone(), message, i))),
                    }
                    Ok(())
                },
            );
            r.map(|()| (rows, names))
        })
    };
    // A panic is turned into an error (the library promises none).
    let work = || {
        catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|p| {
            Err(Some((
                String::new(),
                format!(
                    "internal error in to_arrow: {} (please report this)",
                    panic_message(&*p)
                ),
                None,
            )))
        })
    };
    let report = |f: &Bound<'py, PyAny>| {
        f.call1((
            games_done.load(Ordering::Relaxed),
            files_done.load(Ordering::Relaxed),
            paths_ref.len(),
        ))
        .map(drop)
    };
    let results = match &progress {
        None => py.detach(work),
        Some(f) => {
            // The workers run on a thread of their own; this one reports,
            // with the GIL, between waits without it.
            let mut stopped: Option<PyErr> = None;
            let results = std::thread::scope(|s| {
                let job = s.spawn(work);
                loop {
                    py.detach(|| {
                        for _ in 0..10 {
                            if job.is_finished() {
                                break;
                            }
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    });
                    if job.is_finished() {
                        break;
                    }
                    if stopped.is_none()
                        && let Err(e) = py.check_signals().and_then(|()| report(f))
                    {
                        cancel.store(true, Ordering::Relaxed);
                        stopped = Some(e);
                    }
                }
                job.join()
            });
            if let Some(e) = stopped {
                return Err(e);
            }
            let results = results.map_err(|p| {
                QipuError::new_err(format!(
                    "internal error in to_arrow: {} (please report this)",
                    panic_message(&*p)
                ))
            })?;
            report(f)?;
            results
        }
    };
    let (rows, path_names) = match results {
        Ok(r) => r,
        // Stopped (Ctrl-C): the signal's error was raised above.
        Err(None) => return Err(QipuError::new_err("to_arrow: stopped")),
        Err(Some((name, message, input))) => {
            return Err(match input {
                Some(e) => input_err(&e, Path::new(&name)),
                None if name.is_empty() => QipuError::new_err(message),
                None => ParseError::new_err(message),
            });
        }
    };
    let n = rows.len();
    let total_text: usize = rows
        .iter()
        .map(|r| r.texts.iter().flatten().map(String::len).sum::<usize>())
        .sum();
    if total_text > i32::MAX as usize / 2 {
        return Err(PyValueError::new_err(
            "too much text for one table: call to_arrow on smaller groups of files",
        ));
    }

    // Build the buffers without the GIL.
    struct Built {
        path: StrCol,
        game: NumCol,
        cols: NumCol,
        rows: NumCol,
        charset: StrCol,
        texts: Vec<StrCol>,
        year: NumCol,
        winner: StrCol,
        win_by: StrCol,
        margin: NumCol,
        komi: NumCol,
        komi_text: StrCol,
        handicap: NumCol,
        num_moves: NumCol,
        moves: PointsCol,
        setup: [PointsCol; 2],
        errors: NumCol,
        warnings: NumCol,
        unplayable: IntListCol,
    }
    let b = py.detach(|| {
        let mut b = Built {
            path: StrCol::default(),
            game: NumCol::default(),
            cols: NumCol::default(),
            rows: NumCol::default(),
            charset: StrCol::default(),
            texts: (0..TEXTS.len()).map(|_| StrCol::default()).collect(),
            year: NumCol::default(),
            winner: StrCol::default(),
            win_by: StrCol::default(),
            margin: NumCol::default(),
            komi: NumCol::default(),
            komi_text: StrCol::default(),
            handicap: NumCol::default(),
            num_moves: NumCol::default(),
            moves: PointsCol::default(),
            setup: [PointsCol::default(), PointsCol::default()],
            errors: NumCol::default(),
            warnings: NumCol::default(),
            unplayable: IntListCol::default(),
        };
        b.moves.start();
        b.setup[0].start();
        b.setup[1].start();
        for r in &rows {
            b.path.push(Some(&path_names[r.path]));
            b.game.push_bytes(Some(&(r.game as i32).to_le_bytes()), 4);
            b.cols.push_bytes(Some(&(r.cols as i16).to_le_bytes()), 2);
            b.rows.push_bytes(Some(&(r.rows as i16).to_le_bytes()), 2);
            b.charset.push(Some(&r.charset));
            for (c, t) in b.texts.iter_mut().zip(&r.texts) {
                c.push(t.as_deref());
            }
            b.year.push_bytes(
                r.year
                    .map(|y| (y as i16).to_le_bytes())
                    .as_ref()
                    .map(|a| &a[..]),
                2,
            );
            b.winner.push(r.winner.map(|c| c.as_str()));
            b.win_by.push(r.win_by);
            b.margin
                .push_bytes(r.margin.map(f64::to_le_bytes).as_ref().map(|a| &a[..]), 8);
            b.komi
                .push_bytes(r.komi.map(f64::to_le_bytes).as_ref().map(|a| &a[..]), 8);
            b.komi_text.push(r.komi_text.as_deref());
            let ha = r.handicap.and_then(|h| i32::try_from(h).ok());
            b.handicap
                .push_bytes(ha.map(i32::to_le_bytes).as_ref().map(|a| &a[..]), 4);
            b.num_moves
                .push_bytes(Some(&(r.moves.len() as i32).to_le_bytes()), 4);
            for &(c, p) in &r.moves {
                b.moves.push(Some(c), p);
            }
            b.moves.end();
            for (col, pts) in b.setup.iter_mut().zip(&r.setup) {
                for &p in pts {
                    col.push(None, Some(p));
                }
                col.end();
            }
            b.errors
                .push_bytes(Some(&(r.errors as i32).to_le_bytes()), 4);
            b.warnings
                .push_bytes(Some(&(r.warnings as i32).to_le_bytes()), 4);
            b.unplayable.push(&r.unplayable);
        }
        b
    });

    let out = PyList::empty(py);
    let s = |name: &str, c: &StrCol| -> PyResult<Bound<'py, PyTuple>> {
        let offsets: &[u8] = if c.offsets.is_empty() {
            &[0, 0, 0, 0]
        } else {
            &c.offsets
        };
        PyTuple::new(
            py,
            [
                name.into_pyobject(py)?.into_any(),
                "string".into_pyobject(py)?.into_any(),
                bytes(py, &c.valid.bits).into_any(),
                bytes(py, offsets).into_any(),
                bytes(py, &c.data).into_any(),
            ],
        )
    };
    let num = |name: &str, kind: &str, c: &NumCol| -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                name.into_pyobject(py)?.into_any(),
                kind.into_pyobject(py)?.into_any(),
                bytes(py, &c.valid.bits).into_any(),
                bytes(py, &c.values).into_any(),
            ],
        )
    };
    let pts = |name: &str, kind: &str, c: &PointsCol| -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                name.into_pyobject(py)?.into_any(),
                kind.into_pyobject(py)?.into_any(),
                bytes(py, &c.offsets).into_any(),
                bytes(py, &c.colors).into_any(),
                bytes(py, &c.xs).into_any(),
                bytes(py, &c.ys).into_any(),
                bytes(py, &c.valid.bits).into_any(),
            ],
        )
    };
    out.append(s("path", &b.path)?)?;
    out.append(num("game", "int32", &b.game)?)?;
    out.append(num("board_cols", "int16", &b.cols)?)?;
    out.append(num("board_rows", "int16", &b.rows)?)?;
    out.append(s("charset", &b.charset)?)?;
    for ((name, _), c) in TEXTS.iter().zip(&b.texts) {
        out.append(s(name, c)?)?;
    }
    out.append(num("year", "int16", &b.year)?)?;
    out.append(s("winner", &b.winner)?)?;
    out.append(s("win_by", &b.win_by)?)?;
    out.append(num("margin", "float64", &b.margin)?)?;
    out.append(num("komi", "float64", &b.komi)?)?;
    out.append(num("handicap", "int32", &b.handicap)?)?;
    out.append(num("num_moves", "int32", &b.num_moves)?)?;
    out.append(pts("moves", "moves", &b.moves)?)?;
    out.append(pts("setup_black", "points", &b.setup[0])?)?;
    out.append(pts("setup_white", "points", &b.setup[1])?)?;
    out.append(num("errors", "int32", &b.errors)?)?;
    out.append(num("warnings", "int32", &b.warnings)?)?;
    // Columns added later go last: the table's shape is a contract.
    out.append(s("komi_text", &b.komi_text)?)?;
    let offsets: &[u8] = if b.unplayable.offsets.is_empty() {
        &[0, 0, 0, 0]
    } else {
        &b.unplayable.offsets
    };
    out.append(PyTuple::new(
        py,
        [
            "unplayable_moves".into_pyobject(py)?.into_any(),
            "int32_list".into_pyobject(py)?.into_any(),
            bytes(py, offsets).into_any(),
            bytes(py, &b.unplayable.values).into_any(),
        ],
    )?)?;
    Ok((n, out))
}

/// The record files and archives under `paths` (files as given,
/// directories walked by the library's walker: sorted, links leaving a
/// directory not followed, loops ended). Raises `OSError` for a path that
/// does not exist.
#[pyfunction]
pub fn expand_paths_native(paths: Vec<PathBuf>) -> PyResult<Vec<PathBuf>> {
    let walk =
        sgf_formats::collection::inputs(&paths).map_err(pyo3::exceptions::PyOSError::new_err)?;
    Ok(walk.files)
}

/// The file extensions of every format Qipu reads, with their dot.
#[pyfunction]
pub fn record_extensions() -> Vec<String> {
    sgf_formats::walk::record_extensions()
        .into_iter()
        .map(|e| format!(".{e}"))
        .collect()
}
