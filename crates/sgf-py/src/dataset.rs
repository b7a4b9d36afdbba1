//! `qipu.dataset`: the dataset builder of `sgf-dataset`, wired to Python.
//! Options travel by name (`Options::set`, the names of the command line);
//! the Python layer (`qipu/dataset.py`) turns batches into NumPy arrays.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyBytes, PyDict};
use sgf_dataset::{Options, Progress, Sample};

use crate::errors::QipuError;

/// The options by name, with `fill` setting what the call adds; made whole
/// and checked by the library (`Options::complete`, as the command line's
/// are): the rules between options are not repeated here.
fn options(json: &str, fill: impl FnOnce(&mut Options)) -> PyResult<Options> {
    let v: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| QipuError::new_err(format!("dataset options: {e}")))?;
    let mut o = Options::default();
    for (k, v) in v.as_object().into_iter().flatten() {
        o.set(k, v)
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
    }
    fill(&mut o);
    o.complete().map_err(error)
}

fn error(e: sgf_dataset::Error) -> PyErr {
    match e {
        sgf_dataset::Error::Usage(m) => pyo3::exceptions::PyValueError::new_err(m),
        sgf_dataset::Error::Input(m) => pyo3::exceptions::PyFileNotFoundError::new_err(m),
        sgf_dataset::Error::Output(m) => pyo3::exceptions::PyOSError::new_err(m),
        other => QipuError::new_err(other.to_string()),
    }
}

/// Runs `job` on a thread of its own while this one waits without the
/// GIL, checks Ctrl-C and calls `progress` with the latest figures; a
/// signal or a failing callback sets `stop` (the job's progress hook says
/// stop then). Returns the job's result.
fn supervise<T: Send>(
    py: Python<'_>,
    latest: &Mutex<Option<Progress>>,
    stop: &AtomicBool,
    progress: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let out = std::thread::scope(|s| {
        let h = s.spawn(job);
        loop {
            py.detach(|| {
                for _ in 0..10 {
                    if h.is_finished() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
            if h.is_finished() {
                break;
            }
            if raised.is_none() {
                let p = *latest.lock().unwrap_or_else(|e| e.into_inner());
                let r = py.check_signals().and_then(|()| match (progress, p) {
                    (Some(f), Some(p)) => f
                        .call1((p.games_read, p.positions, p.inputs_done, p.inputs_total))
                        .map(drop),
                    _ => Ok(()),
                });
                if let Err(e) = r {
                    stop.store(true, Ordering::Relaxed);
                    raised = Some(e);
                }
            }
        }
        h.join()
    });
    if let Some(e) = raised {
        return Err(e);
    }
    out.map_err(|_| {
        QipuError::new_err("internal error in the dataset builder (please report this)")
    })
}

/// Builds a dataset (see `qipu.dataset.build`); the summary as JSON.
#[pyfunction]
#[pyo3(signature = (paths, out_dir, options_json, progress=None))]
pub fn dataset_build(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    options_json: &str,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let o = options(options_json, |o| o.out_dir = out_dir)?;
    let latest = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let r = supervise(py, &latest, &stop, progress.as_ref(), || {
        sgf_dataset::build(&paths, &o, &|p| {
            *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
            !stop.load(Ordering::Relaxed)
        })
    })?;
    let s = r.map_err(error)?;
    serde_json::to_string(&s).map_err(|e| QipuError::new_err(e.to_string()))
}

/// Cuts inputs into SGF files of `per_shard` games (see
/// `qipu.dataset.repack`); the summary as JSON.
#[pyfunction]
pub fn dataset_repack(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    per_shard: usize,
) -> PyResult<String> {
    let s = py
        .detach(|| sgf_dataset::repack(&paths, &out_dir, per_shard))
        .map_err(error)?;
    serde_json::to_string(&s).map_err(|e| QipuError::new_err(e.to_string()))
}

/// A batch's columns, as bytes, and its split.
struct Batch {
    split: &'static str,
    n: usize,
    planes: Vec<u8>,
    policy: Vec<u8>,
    value: Vec<u8>,
    score: Vec<u8>,
    to_move: Vec<u8>,
    move_number: Vec<u8>,
    game: Vec<u8>,
    komi: Vec<u8>,
    ranks: Vec<u8>,
    rules: Vec<u8>,
    symmetry: Vec<u8>,
}

fn columns(split: &'static str, s: &[Sample]) -> Batch {
    let mut b = Batch {
        split,
        n: s.len(),
        planes: Vec::with_capacity(s.iter().map(|x| x.planes.len()).sum()),
        policy: Vec::with_capacity(2 * s.len()),
        value: Vec::with_capacity(s.len()),
        score: Vec::with_capacity(4 * s.len()),
        to_move: Vec::with_capacity(s.len()),
        move_number: Vec::with_capacity(4 * s.len()),
        game: Vec::with_capacity(4 * s.len()),
        komi: Vec::with_capacity(4 * s.len()),
        ranks: Vec::with_capacity(2 * s.len()),
        rules: Vec::with_capacity(s.len()),
        symmetry: Vec::with_capacity(s.len()),
    };
    for x in s {
        b.planes.extend_from_slice(&x.planes);
        b.policy.extend_from_slice(&x.policy.to_le_bytes());
        b.value.push(x.value as u8);
        b.score.extend_from_slice(&x.score.to_le_bytes());
        b.to_move.push(x.to_move);
        b.move_number
            .extend_from_slice(&x.move_number.to_le_bytes());
        b.game.extend_from_slice(&x.game.to_le_bytes());
        b.komi.extend_from_slice(&x.komi.to_le_bytes());
        b.ranks.extend(x.ranks.iter().map(|&r| r as u8));
        b.rules.push(x.rules);
        b.symmetry.push(x.symmetry);
    }
    b
}

/// Batches of samples made on worker threads (`qipu.dataset.batches`):
/// nothing is written; a bounded channel keeps at most a few batches
/// ahead of the consumer, and dropping the stream stops the workers.
#[pyclass(module = "qipu", frozen)]
pub struct DatasetStream {
    rx: Mutex<Receiver<Result<Batch, String>>>,
    stop: std::sync::Arc<AtomicBool>,
    planes: usize,
    plane_bytes: usize,
}

impl Drop for DatasetStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts a stream of batches of `batch_size` positions.
#[pyfunction]
pub fn dataset_stream(
    paths: Vec<PathBuf>,
    options_json: &str,
    batch_size: usize,
) -> PyResult<DatasetStream> {
    let o = options(options_json, |o| o.shard_size = batch_size)?;
    let (tx, rx) = sync_channel::<Result<Batch, String>>(2);
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let planes = o.features.planes();
    let plane_bytes = sgf_dataset::features::plane_bytes(o.selection.size);
    let stop2 = stop.clone();
    std::thread::spawn(move || {
        let mut sink = |split: &'static str, batch: Vec<Sample>| {
            if stop2.load(Ordering::Relaxed) {
                return Err(sgf_dataset::Error::Stopped);
            }
            tx.send(Ok(columns(split, &batch)))
                .map_err(|_| sgf_dataset::Error::Stopped)
        };
        let r = sgf_dataset::stream(&paths, &o, &|_| !stop2.load(Ordering::Relaxed), &mut sink);
        if let Err(e) = r
            && !matches!(e, sgf_dataset::Error::Stopped)
        {
            let _ = tx.send(Err(e.to_string()));
        }
    });
    Ok(DatasetStream {
        rx: Mutex::new(rx),
        stop,
        planes,
        plane_bytes,
    })
}

#[pymethods]
impl DatasetStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next batch: a dict of little-endian column bytes, its `n`, its
    /// `split`, and the `planes`/`plane_bytes` of a position.
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut rx = self
            .rx
            .lock_py_attached(py)
            .unwrap_or_else(|e| e.into_inner());
        let got = loop {
            // `&mut Receiver` is Send (the receiver is not Sync): moved whole.
            let r: &mut Receiver<Result<Batch, String>> = &mut rx;
            match py.detach(move || r.recv_timeout(Duration::from_millis(100))) {
                Ok(b) => break Some(b),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break None,
            }
        };
        let b = match got {
            None => return Ok(None),
            Some(Err(m)) => return Err(QipuError::new_err(m)),
            Some(Ok(b)) => b,
        };
        let d = PyDict::new(py);
        d.set_item("split", b.split)?;
        d.set_item("n", b.n)?;
        d.set_item("planes_count", self.planes)?;
        d.set_item("plane_bytes", self.plane_bytes)?;
        for (k, v) in [
            ("planes", &b.planes),
            ("policy", &b.policy),
            ("value", &b.value),
            ("score", &b.score),
            ("to_move", &b.to_move),
            ("move_number", &b.move_number),
            ("game", &b.game),
            ("komi", &b.komi),
            ("ranks", &b.ranks),
            ("rules", &b.rules),
            ("symmetry", &b.symmetry),
        ] {
            d.set_item(k, PyBytes::new(py, v))?;
        }
        Ok(Some(d))
    }

    /// Stops the workers.
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
