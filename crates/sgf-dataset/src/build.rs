//! The run: read every input, select, encode in parallel, shuffle, split
//! and write the shards, with a summary of what was kept and why the rest
//! was not.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use sgf_formats::collection::{self, Record};
use sgf_formats::parts::PartOptions;
use sgf_formats::save::{SaveOptions, replace_file};

use crate::features::{Features, Maps, Sample, Symmetry, plane_bytes};
use crate::game::{self, GameData, Prepared};
use crate::npz::{self, Array};
use crate::rng::{Rng, mix};
use crate::select::{Dropped, Selection};

/// The shard file format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// NumPy `.npz` (see the crate docs for its arrays).
    #[default]
    Npz,
    /// Leela Zero's gzip text chunks (19×19, 8 moves of history, a winner).
    Leela,
}

/// Everything a run is asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// Which games.
    pub selection: Selection,
    /// Which planes.
    pub features: Features,
    /// Which symmetries.
    pub symmetry: Symmetry,
    /// The seed of the shuffle and the random symmetries.
    pub seed: u64,
    /// The file format.
    pub format: Format,
    /// Positions a shard (the last of each split may hold fewer).
    pub shard_size: usize,
    /// Share of games in the validation split (0 to 1), by a stable hash
    /// of each game's content: a game is never in both.
    pub val_fraction: f64,
    /// Positions held to shuffle (0: in game order).
    pub shuffle_buffer: usize,
    /// Where the shards go.
    pub out_dir: PathBuf,
    /// Replace a dataset written there before (its files are removed first).
    pub overwrite: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            selection: Selection::default(),
            features: Features::default(),
            symmetry: Symmetry::None,
            seed: 0,
            format: Format::Npz,
            shard_size: 16384,
            val_fraction: 0.0,
            shuffle_buffer: 32768,
            out_dir: PathBuf::from("dataset"),
            overwrite: false,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Inputs read (files and archive members).
    pub inputs: u64,
    /// Inputs that could not be read or hold no game record.
    pub inputs_failed: u64,
    /// Why each of them failed (the message names the input).
    pub failed: Vec<String>,
    /// Games read.
    pub games_read: u64,
    /// Games kept.
    pub games_kept: u64,
    /// Kept games cut at a move that cannot be played.
    pub games_cut: u64,
    /// Games left out, by reason.
    pub dropped: BTreeMap<&'static str, u64>,
    /// Positions written.
    pub positions: u64,
    /// Of which in the training split.
    pub train_positions: u64,
    /// And in the validation split.
    pub val_positions: u64,
    /// Files written in the output directory (their names are in
    /// `dataset.json`).
    pub files: u64,
    /// Seconds.
    pub seconds: f64,
    /// Games read a second.
    pub games_per_second: f64,
    /// Positions written a second.
    pub positions_per_second: f64,
}

/// Where a run is, for a progress bar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Inputs done.
    pub inputs_done: u64,
    /// Inputs in all.
    pub inputs_total: u64,
    /// Games read.
    pub games_read: u64,
    /// Positions made.
    pub positions: u64,
}

/// Why a run stopped.
#[derive(Debug)]
pub enum Error {
    /// The options cannot give a dataset (the message says why).
    Usage(String),
    /// An input path does not exist or cannot be listed.
    Input(String),
    /// The output cannot be written.
    Output(String),
    /// The caller asked to stop (its progress callback said so).
    Stopped,
    /// No input could be read as a game record: why, one sentence per
    /// input (nothing was written).
    Unread(Vec<String>),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Usage(m) | Error::Input(m) | Error::Output(m) => f.write_str(m),
            Error::Stopped => f.write_str("stopped"),
            Error::Unread(why) => {
                write!(f, "no input could be read as a game record")?;
                match &why[..] {
                    [] => Ok(()),
                    [one] => write!(f, ": {one}"),
                    [first, rest @ ..] => write!(f, ": {first} (and {} more)", rest.len()),
                }
            }
        }
    }
}

impl std::error::Error for Error {}

/// The manifest a run leaves in its directory, `dataset.json`.
pub const MANIFEST: &str = "dataset.json";

/// Games encoded at once: enough for both cores, few enough that their
/// samples stay small in memory.
const BATCH_GAMES: usize = 128;

/// One split's shuffle buffer and shard being filled.
struct Split {
    name: &'static str,
    buffer: Vec<Sample>,
    shard: Vec<Sample>,
    shards: usize,
    positions: u64,
}

/// Where finished shards go: files in the output directory, or the caller.
type Sink<'a> = Option<&'a mut dyn FnMut(&'static str, Vec<Sample>) -> Result<(), Error>>;

struct Writer<'o, 's> {
    opts: &'o Options,
    sink: Sink<'s>,
    /// The output directory is made (and an old dataset in it removed)
    /// when the first file is written: a run that reads nothing leaves it
    /// as it was.
    prepared: bool,
    rng: Rng,
    splits: [Split; 2],
    files: Vec<String>,
    planes: usize,
    bpp: usize,
    /// The bytes of the last shard written, reused for the next.
    buf: Vec<u8>,
}

impl Writer<'_, '_> {
    fn push(&mut self, which: usize, s: Sample) -> Result<(), Error> {
        let cap = self.opts.shuffle_buffer;
        let sp = &mut self.splits[which];
        let out = if cap == 0 {
            Some(s)
        } else if sp.buffer.len() < cap {
            sp.buffer.push(s);
            None
        } else {
            let j = self.rng.below(cap);
            Some(std::mem::replace(&mut sp.buffer[j], s))
        };
        if let Some(s) = out {
            self.splits[which].shard.push(s);
            if self.splits[which].shard.len() >= self.opts.shard_size {
                self.flush(which)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), Error> {
        for which in 0..2 {
            let mut rest = std::mem::take(&mut self.splits[which].buffer);
            // Fisher–Yates on what the buffer still holds.
            for i in (1..rest.len()).rev() {
                let j = self.rng.below(i + 1);
                rest.swap(i, j);
            }
            for s in rest {
                self.splits[which].shard.push(s);
                if self.splits[which].shard.len() >= self.opts.shard_size {
                    self.flush(which)?;
                }
            }
            if !self.splits[which].shard.is_empty() {
                self.flush(which)?;
            }
        }
        Ok(())
    }

    fn flush(&mut self, which: usize) -> Result<(), Error> {
        let shard = std::mem::take(&mut self.splits[which].shard);
        if let Some(sink) = self.sink.as_mut() {
            let sp = &mut self.splits[which];
            sp.shards += 1;
            sp.positions += shard.len() as u64;
            return sink(sp.name, shard);
        }
        let sp = &mut self.splits[which];
        let buf = std::mem::take(&mut self.buf);
        let (name, bytes) = match self.opts.format {
            Format::Npz => (
                format!("{}-{:05}.npz", sp.name, sp.shards),
                shard_npz(&shard, self.planes, self.bpp, buf),
            ),
            Format::Leela => (
                format!("{}-{:05}.gz", sp.name, sp.shards),
                crate::leela::chunk(&shard),
            ),
        };
        let bytes = bytes.map_err(|e| Error::Output(format!("cannot encode {name}: {e}")))?;
        if !self.prepared {
            prepare_dir(self.opts)?;
            self.prepared = true;
        }
        let sp = &mut self.splits[which];
        sp.shards += 1;
        sp.positions += shard.len() as u64;
        write(&self.opts.out_dir.join(&name), &bytes)?;
        self.buf = bytes;
        // The shard's vector is kept for the next one (its memory reused).
        let mut shard = shard;
        shard.clear();
        self.splits[which].shard = shard;
        self.files.push(name);
        Ok(())
    }
}

pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    // Many shards in a row: a flush each would take most of the time; a
    // crash still leaves each file old or new, whole.
    let mut o = SaveOptions::default();
    o.skip_sync = true;
    replace_file(path, bytes, &o)
        .map(|_| ())
        .map_err(|e| Error::Output(format!("cannot write {}: {e}", path.display())))
}

fn shard_npz(s: &[Sample], planes: usize, bpp: usize, buf: Vec<u8>) -> std::io::Result<Vec<u8>> {
    let n = s.len();
    // Each column written straight from the samples: no copy of the
    // shard is made before the file's.
    macro_rules! column {
        ($name:expr, $descr:expr, $shape:expr, |$x:ident| $bytes:expr) => {
            Array {
                name: $name,
                descr: $descr,
                shape: $shape,
                write: &|w: &mut dyn std::io::Write| {
                    for $x in s {
                        w.write_all(&$bytes)?;
                    }
                    Ok(())
                },
            }
        };
    }
    let large = n * planes * bpp > (u32::MAX / 2) as usize;
    npz::npz(
        &[
            column!("planes", "|u1", vec![n, planes, bpp], |x| x.planes),
            column!("policy", "<u2", vec![n], |x| x.policy.to_le_bytes()),
            column!("value", "|i1", vec![n], |x| [x.value as u8]),
            column!("score", "<f4", vec![n], |x| x.score.to_le_bytes()),
            column!("to_move", "|u1", vec![n], |x| [x.to_move]),
            column!("move_number", "<u4", vec![n], |x| x
                .move_number
                .to_le_bytes()),
            column!("game", "<u4", vec![n], |x| x.game.to_le_bytes()),
            column!("komi", "<f4", vec![n], |x| x.komi.to_le_bytes()),
            column!("ranks", "|i1", vec![n, 2], |x| [
                x.ranks[0] as u8,
                x.ranks[1] as u8
            ]),
            column!("rules", "|u1", vec![n], |x| [x.rules]),
            column!("symmetry", "|u1", vec![n], |x| [x.symmetry]),
        ],
        buf,
        large,
    )
}

/// Which split a game goes to: a stable hash of its content against the
/// validation share.
fn split_of(key: u64, seed: u64, val: f64) -> usize {
    let h = mix(key ^ mix(seed ^ 0x5EED));
    usize::from((h as f64 / u64::MAX as f64) < val)
}

/// Checks the options against each other ([`Options::complete`] checks
/// them so, and fills in what is left to the format).
///
/// # Errors
/// [`Error::Usage`] with the reason.
pub fn check_options(o: &Options) -> Result<(), Error> {
    o.selection.check().map_err(Error::Usage)?;
    o.features.check().map_err(Error::Usage)?;
    if o.shard_size == 0 {
        return Err(Error::Usage("the shard size must be at least 1".into()));
    }
    if !(0.0..=1.0).contains(&o.val_fraction) {
        return Err(Error::Usage(format!(
            "the validation share {} is not between 0 and 1",
            o.val_fraction
        )));
    }
    if o.format == Format::Leela {
        if o.selection.require_winner == Some(false) {
            return Err(Error::Usage(
                "Leela Zero's chunks need a winner for every position (a game without one would be written as a loss for both sides): leave out require_winner=false"
                    .into(),
            ));
        }
        if o.selection.size != 19 {
            return Err(Error::Usage(
                "Leela Zero's chunks are for 19×19 only".into(),
            ));
        }
        if o.features != Features::default() {
            return Err(Error::Usage(
                "Leela Zero's chunks have fixed planes (8 moves of history): leave out the feature options"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// Whether a dataset may be written into the output directory: an old
/// one there is replaced only with `overwrite` (said before anything is
/// read).
fn check_dir(o: &Options) -> Result<(), Error> {
    let manifest = o.out_dir.join(MANIFEST);
    if !o.overwrite && std::fs::symlink_metadata(&manifest).is_ok() {
        return Err(Error::Output(format!(
            "{} already holds a dataset ({MANIFEST}); use --overwrite to replace it",
            o.out_dir.display()
        )));
    }
    Ok(())
}

fn prepare_dir(o: &Options) -> Result<(), Error> {
    let dir = &o.out_dir;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Output(format!("cannot create {}: {e}", dir.display())))?;
    let manifest = dir.join(MANIFEST);
    if let Ok(old) = std::fs::read(&manifest) {
        if !o.overwrite {
            return Err(Error::Output(format!(
                "{} already holds a dataset ({MANIFEST}); use --overwrite to replace it",
                dir.display()
            )));
        }
        let old: serde_json::Value = serde_json::from_slice(&old).unwrap_or_default();
        let files = old["files"].as_array().cloned().unwrap_or_default();
        for f in files.iter().filter_map(|f| f.as_str()) {
            // Only names this program writes: never a path out of the directory.
            if !f.contains(['/', '\\']) && !f.starts_with('.') {
                let _ = std::fs::remove_file(dir.join(f));
            }
        }
        let _ = std::fs::remove_file(&manifest);
    }
    sgf_formats::save::sweep_stale(dir);
    Ok(())
}

/// Builds a dataset from `paths` (files, directories, archives) into
/// `opts.out_dir`: shards, `games.jsonl` (one line a kept game) and
/// `dataset.json` (the options, the planes and the summary).
/// `progress` is called after every batch of games; returning false stops
/// the run ([`Error::Stopped`]).
///
/// # Errors
/// Bad options, a path that does not exist or holds no record file, an
/// output that cannot be written, or no input that could be read as a
/// game record ([`Error::Unread`]: nothing is written then). An input that
/// cannot be read among others that can is counted in the summary, not an
/// error.
pub fn build(
    paths: &[PathBuf],
    opts: &Options,
    progress: &(dyn Fn(Progress) -> bool + Sync),
) -> Result<Summary, Error> {
    run(paths, opts, progress, None)
}

/// The samples of [`build`] handed to `sink` instead of written: batches
/// of `opts.shard_size` positions (the last of each split may hold fewer),
/// shuffled and split as `build` writes them, with the split's name
/// (`train`, `val`). Nothing is written; `opts.out_dir` and
/// `opts.format` are not used. An error of `sink` stops the run (return
/// one to stop early).
///
/// # Errors
/// Bad options, a path that does not exist, or `sink`'s error.
pub fn stream<'a>(
    paths: &[PathBuf],
    opts: &'a Options,
    progress: &(dyn Fn(Progress) -> bool + Sync),
    sink: &'a mut dyn FnMut(&'static str, Vec<Sample>) -> Result<(), Error>,
) -> Result<Summary, Error> {
    run(paths, opts, progress, Some(sink))
}

fn run<'a>(
    paths: &[PathBuf],
    opts: &'a Options,
    progress: &(dyn Fn(Progress) -> bool + Sync),
    sink: Sink<'a>,
) -> Result<Summary, Error> {
    let files_out = sink.is_none();
    let mut completed = opts.clone();
    if !files_out {
        // The format's limits are a file's: a stream is any planes.
        completed.format = Format::Npz;
    }
    let opts = &completed.complete()?;
    let start = Instant::now();
    let walk = collection::inputs(paths).map_err(Error::Input)?;
    if walk.files.is_empty() {
        return Err(Error::Input(sgf_formats::walk::none_found(paths)));
    }
    if files_out {
        check_dir(opts)?;
    }
    let sel = &opts.selection;
    let prep = Prepared::new(sel);
    let maps = Maps::new(sel.size);
    let mut summary = Summary::default();
    let mut w = Writer {
        opts,
        sink,
        prepared: false,
        rng: Rng::new(opts.seed),
        splits: [
            Split {
                name: "train",
                buffer: Vec::new(),
                shard: Vec::new(),
                shards: 0,
                positions: 0,
            },
            Split {
                name: "val",
                buffer: Vec::new(),
                shard: Vec::new(),
                shards: 0,
                positions: 0,
            },
        ],
        files: Vec::new(),
        planes: opts.features.planes(),
        bpp: plane_bytes(sel.size),
        buf: Vec::new(),
    };
    let mut seen: HashSet<(String, i64)> = HashSet::new();
    let mut batch: Vec<GameData> = Vec::new();
    let mut games_jsonl: Vec<u8> = Vec::new();
    let mut kept: u32 = 0;
    let inputs_total = walk.files.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let mut positions = 0u64;
    let mut last_input: Option<String> = None;

    let run_batch = |batch: &mut Vec<GameData>,
                     kept: &mut u32,
                     w: &mut Writer<'_, '_>,
                     jsonl: &mut Vec<u8>,
                     positions: &mut u64|
     -> Result<(), Error> {
        let first = *kept;
        let encoded: Vec<Vec<Sample>> = batch
            .par_iter()
            .enumerate()
            .map(|(k, g)| {
                crate::features::encode(
                    g,
                    first + k as u32,
                    &opts.features,
                    opts.symmetry,
                    opts.seed,
                    &maps,
                )
            })
            .collect();
        for (g, samples) in batch.iter().zip(encoded) {
            let which = split_of(g.key, opts.seed, opts.val_fraction);
            let row = serde_json::json!({
                "id": *kept,
                "file": &*g.file,
                "game": g.game,
                "split": w.splits[which].name,
                "positions": g.moves.len(),
                "cut": g.cut,
                "ending": g.ending,
                "summary": &g.info,
            });
            serde_json::to_writer(&mut *jsonl, &row).map_err(|e| Error::Output(e.to_string()))?;
            jsonl.push(b'\n');
            *kept += 1;
            *positions += samples.len() as u64;
            for s in samples {
                w.push(which, s)?;
            }
        }
        batch.clear();
        Ok(())
    };

    let part_opts = PartOptions::default();
    let work = |part: collection::Part<'_>| {
        let doc = &part.loaded.parsed.document;
        let converted = part.loaded.converted.then_some(part.loaded.charset);
        let file: Arc<str> = Arc::from(part.name);
        (0..doc.game_count())
            .map(|gi| {
                game::extract(
                    doc,
                    gi,
                    converted,
                    &file,
                    // Numbered within the part here: the part's place in
                    // the file is known only when it is joined (below).
                    gi + 1,
                    sel,
                    &prep,
                )
            })
            .collect::<Vec<_>>()
    };
    let tick = || {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    collection::records(&walk.files, &part_opts, &tick, work, |input, r| {
        if last_input.as_deref() != Some(input.name.as_str()) {
            summary.inputs += 1;
            last_input = Some(input.name.clone());
        }
        match r {
            Record::Part(piece, games) => {
                for g in games {
                    summary.games_read += 1;
                    match g {
                        Err(d) => *summary.dropped.entry(d.name()).or_default() += 1,
                        Ok(mut g) => {
                            g.game += piece.first_game;
                            if sel.dedup && !seen.insert(g.signature.clone()) {
                                *summary
                                    .dropped
                                    .entry(Dropped::Duplicate.name())
                                    .or_default() += 1;
                                continue;
                            }
                            summary.games_cut += u64::from(g.cut);
                            batch.push(g);
                            if batch.len() >= BATCH_GAMES {
                                run_batch(
                                    &mut batch,
                                    &mut kept,
                                    &mut w,
                                    &mut games_jsonl,
                                    &mut positions,
                                )?;
                                if !progress(Progress {
                                    inputs_done: done.load(std::sync::atomic::Ordering::Relaxed),
                                    inputs_total,
                                    games_read: summary.games_read,
                                    positions,
                                }) {
                                    return Err(Error::Stopped);
                                }
                            }
                        }
                    }
                }
            }
            Record::Done { .. } => {}
            Record::Failed { message, .. } => {
                summary.inputs_failed += 1;
                summary.failed.push(message);
            }
        }
        Ok::<(), Error>(())
    })?;
    if summary.inputs_failed == summary.inputs {
        // Nothing read: nothing written, and no empty dataset.
        return Err(Error::Unread(summary.failed));
    }
    run_batch(
        &mut batch,
        &mut kept,
        &mut w,
        &mut games_jsonl,
        &mut positions,
    )?;
    w.finish()?;
    if files_out {
        if !w.prepared {
            prepare_dir(opts)?;
            w.prepared = true;
        }
        write(&opts.out_dir.join("games.jsonl"), &games_jsonl)?;
        w.files.push("games.jsonl".into());
    }
    let _ = progress(Progress {
        inputs_done: inputs_total,
        inputs_total,
        games_read: summary.games_read,
        positions,
    });
    summary.games_kept = u64::from(kept);
    summary.positions = positions;
    summary.train_positions = w.splits[0].positions;
    summary.val_positions = w.splits[1].positions;
    summary.files = w.files.len() as u64;
    summary.seconds = start.elapsed().as_secs_f64();
    let secs = summary.seconds.max(1e-9);
    summary.games_per_second = summary.games_read as f64 / secs;
    summary.positions_per_second = positions as f64 / secs;
    if !files_out {
        return Ok(summary);
    }
    let manifest = serde_json::json!({
        "format": opts.format,
        "board_size": sel.size,
        "planes": opts.features.plane_names(),
        "plane_bytes": plane_bytes(sel.size),
        "symmetry": format!("{:?}", opts.symmetry).to_lowercase(),
        "seed": opts.seed,
        "shard_size": opts.shard_size,
        "val_fraction": opts.val_fraction,
        "shuffle_buffer": opts.shuffle_buffer,
        "rules_codes": game::RULES,
        "files": &w.files,
        "summary": &summary,
    });
    let text = serde_json::to_vec_pretty(&manifest).map_err(|e| Error::Output(e.to_string()))?;
    write(&opts.out_dir.join(MANIFEST), &text)?;
    Ok(summary)
}

impl Options {
    /// The options made whole and checked against each other: the one
    /// place the rules between options live, which the command line,
    /// Python and [`build`] all go through. What the user left to the
    /// format is filled in: Leela Zero's chunks hold a winner for every
    /// position (a game without one would be written as a loss for both
    /// sides), so `require_winner` is on for them, off otherwise. What
    /// cannot be is an error ([`check_options`]), asking Leela Zero's
    /// chunks for games without a winner among them.
    ///
    /// # Errors
    /// [`Error::Usage`] with the reason.
    pub fn complete(mut self) -> Result<Options, Error> {
        check_options(&self)?;
        let sel = &mut self.selection;
        sel.require_winner = Some(sel.require_winner.unwrap_or(self.format == Format::Leela));
        Ok(self)
    }

    /// Sets one option by name, as the command line and Python name them
    /// (`komi`, `min_rank`, `val_fraction`…; `keep_duplicates` for the
    /// opposite of `dedup`): strings are read as the command line reads
    /// them (`"5..8"`, `"3d"`, `"resign"`), lists as lists, numbers and
    /// booleans as themselves. `null` leaves the default.
    ///
    /// # Errors
    /// An unknown name or a value that cannot be read, for the user.
    pub fn set(&mut self, key: &str, v: &serde_json::Value) -> Result<(), String> {
        self.set_inner(key, v).map_err(|e| {
            if e.starts_with(key) || e.starts_with("unknown option") {
                e
            } else {
                format!("{key}: {e}")
            }
        })
    }

    fn set_inner(&mut self, key: &str, v: &serde_json::Value) -> Result<(), String> {
        use serde_json::Value;
        if v.is_null() {
            return Ok(());
        }
        let text = |v: &Value| -> Result<String, String> {
            match v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(format!("{key}: expected text or a number, not {v}")),
            }
        };
        let list = |v: &Value| -> Result<Vec<String>, String> {
            match v {
                Value::Array(a) => a.iter().map(text).collect(),
                _ => Ok(text(v)?.split(',').map(|s| s.trim().to_string()).collect()),
            }
        };
        let uint = |v: &Value| -> Result<u64, String> {
            v.as_u64()
                .ok_or_else(|| format!("{key}: expected a whole number 0 or more, not {v}"))
        };
        let flag = |v: &Value| -> Result<bool, String> {
            v.as_bool()
                .ok_or_else(|| format!("{key}: expected true or false, not {v}"))
        };
        let rank = |v: &Value| -> Result<sgf_go::values::Rank, String> {
            let t = text(v)?;
            sgf_go::values::Rank::implied(&t).ok_or_else(|| format!("{key}: `{t}` is not a rank"))
        };
        let sel = &mut self.selection;
        match key {
            "size" => sel.size = u8::try_from(uint(v)?).map_err(|e| format!("{key}: {e}"))?,
            "handicap" => sel.handicap = Some(sgf_go::filter::Range::parse_count(&text(v)?)?),
            "komi" => sel.komi = Some(sgf_go::filter::Range::parse(&text(v)?)?),
            "rules" => sel.rules = list(v)?,
            "date_from" => sel.date_from = Some(text(v)?),
            "date_to" => sel.date_to = Some(text(v)?),
            "min_rank" => sel.min_rank = Some(rank(v)?),
            "max_rank" => sel.max_rank = Some(rank(v)?),
            "min_moves" => sel.min_moves = uint(v)? as usize,
            "ending" | "endings" => {
                sel.endings = list(v)?
                    .iter()
                    .map(|e| crate::select::Ending::parse(e))
                    .collect::<Result<_, _>>()?;
            }
            "player" | "players" => sel.players = list(v)?,
            "illegal" => {
                sel.illegal = match text(v)?.as_str() {
                    "drop" => crate::select::Illegal::Drop,
                    "cut" => crate::select::Illegal::Cut,
                    t => return Err(format!("{key}: `{t}` is drop or cut")),
                }
            }
            "keep_duplicates" => sel.dedup = !flag(v)?,
            "dedup" => sel.dedup = flag(v)?,
            "require_winner" => sel.require_winner = Some(flag(v)?),
            "history" => self.features.history = uint(v)? as usize,
            "liberties" => self.features.liberties = flag(v)?,
            "legal" => self.features.legal = flag(v)?,
            "ko" => self.features.ko = flag(v)?,
            "last_moves" => self.features.last_moves = uint(v)? as usize,
            "symmetry" => self.symmetry = Symmetry::parse(&text(v)?)?,
            "seed" => self.seed = uint(v)?,
            "format" => {
                self.format = match text(v)?.as_str() {
                    "npz" => Format::Npz,
                    "leela" => Format::Leela,
                    t => return Err(format!("{key}: `{t}` is npz or leela")),
                }
            }
            "shard_size" | "batch_size" => self.shard_size = uint(v)? as usize,
            "val_fraction" => {
                self.val_fraction = v
                    .as_f64()
                    .ok_or_else(|| format!("{key}: expected a number, not {v}"))?;
            }
            "shuffle_buffer" => self.shuffle_buffer = uint(v)? as usize,
            "overwrite" => self.overwrite = flag(v)?,
            _ => return Err(format!("unknown option `{key}`")),
        }
        Ok(())
    }
}

/// The samples of game `gi` of `doc` as [`build`] makes them (selection,
/// planes, labels, symmetries; no duplicate check, which needs the games
/// before), or why the game is left out. `game` is the id the samples
/// carry; `converted_from` names the format of a record converted from
/// another (see [`sgf_formats::game_charset`]).
pub fn game_samples(
    doc: &sgf_core::Document,
    gi: usize,
    converted_from: Option<&'static str>,
    game: u32,
    opts: &Options,
) -> Result<Vec<Sample>, Dropped> {
    let prep = Prepared::new(&opts.selection);
    let file: Arc<str> = Arc::from("");
    let g = game::extract(
        doc,
        gi,
        converted_from,
        &file,
        gi + 1,
        &opts.selection,
        &prep,
    )?;
    let maps = Maps::new(opts.selection.size);
    Ok(crate::features::encode(
        &g,
        game,
        &opts.features,
        opts.symmetry,
        opts.seed,
        &maps,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(pairs: &[(&str, serde_json::Value)]) -> Result<Options, Error> {
        let mut o = Options::default();
        for (k, v) in pairs {
            o.set(k, v).map_err(Error::Usage)?;
        }
        o.complete()
    }

    #[test]
    fn the_format_decides_the_winner_rule_left_unsaid() {
        use serde_json::json;
        let leela = named(&[("format", json!("leela"))]).unwrap();
        assert_eq!(leela.selection.require_winner, Some(true));
        let npz = named(&[]).unwrap();
        assert_eq!(npz.selection.require_winner, Some(false));
        let asked = named(&[("require_winner", json!(true))]).unwrap();
        assert_eq!(asked.selection.require_winner, Some(true));
        // Completing twice changes nothing (build completes what the
        // front ends completed).
        assert_eq!(leela.clone().complete().unwrap().selection, leela.selection);
        // Asked for games without a winner in chunks that cannot hold
        // them: an error, whatever the order the options came in.
        for pairs in [
            [("format", json!("leela")), ("require_winner", json!(false))],
            [("require_winner", json!(false)), ("format", json!("leela"))],
        ] {
            let e = named(&pairs).unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{e:?}");
            assert!(e.to_string().contains("require_winner"), "{e}");
        }
    }

    /// The winner line (the 19th) of each position of a Leela Zero chunk.
    fn winners(gz: &Path) -> Vec<String> {
        use std::io::Read;
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(gz).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() % 19, 0);
        lines.chunks(19).map(|p| p[18].to_string()).collect()
    }

    #[test]
    fn a_game_without_a_result_is_not_a_loss_for_both_in_leela_chunks() {
        let d = std::env::temp_dir().join(format!("qipu-dataset-lzwin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let input = d.join("g.sgf");
        std::fs::write(
            &input,
            "(;GM[1]SZ[19];B[pd];W[dp];B[pp])(;GM[1]SZ[19]RE[Draw];B[dd])\
             (;GM[1]SZ[19]RE[B+3.5];B[dd];W[pp])",
        )
        .unwrap();
        // The options as Python gives them: the format alone.
        let mut o = Options::default();
        o.set("format", &serde_json::json!("leela")).unwrap();
        o.set("shuffle_buffer", &serde_json::json!(0)).unwrap();
        o.out_dir = d.join("out");
        let s = build(std::slice::from_ref(&input), &o, &|_| true).unwrap();
        assert_eq!(s.games_kept, 1, "{s:?}");
        assert_eq!(s.dropped.get("no_winner"), Some(&2), "{s:?}");
        // Black won: Black to move wins, White to move loses.
        assert_eq!(winners(&d.join("out/train-00000.gz")), ["1", "-1"]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
