//! The database file: SQLite tables, building and updating the index, and
//! loading it for searches.
//!
//! | table | one row per | holds |
//! | --- | --- | --- |
//! | `sources` | file on disk (a record file or an archive) | path, size, modification time, error |
//! | `files` | record file (an archive has one per member) | member name, format, charset, error, `data`: the encoded games |
//! | `games` | game | game information, main-line moves, Dyer signature, final position hash |
//! | `comments` | game with comments | the comments (FTS5, trigram) |
//!
//! `data` holds the games of a file one after the other in the form of
//! [`crate::encode::write_stored`]; a search loads every file's `data`
//! once (a few tens of MB for 100,000 games) and keeps it in memory.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rusqlite::{Connection, OptionalExtension, params};

use crate::encode::{read_stored, unpack_rows, write_stored};
use crate::game::{GameRow, game_row, key};

/// The version of the tables; a database of another version is rebuilt.
const SCHEMA_VERSION: &str = "1";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sources(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL, abs_path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL, mtime INTEGER NOT NULL, error TEXT);
CREATE TABLE IF NOT EXISTS files(
  id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL, member TEXT,
  format TEXT, charset TEXT, error TEXT, data BLOB);
CREATE INDEX IF NOT EXISTS files_source ON files(source_id);
CREATE TABLE IF NOT EXISTS games(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, game INTEGER NOT NULL,
  cols INTEGER, rows INTEGER,
  black TEXT, white TEXT, black_key TEXT, white_key TEXT,
  black_rank TEXT, white_rank TEXT,
  event TEXT, event_key TEXT, round TEXT, place TEXT,
  date TEXT, date_min INTEGER, date_max INTEGER,
  result TEXT, winner TEXT, komi REAL, handicap INTEGER, rules TEXT,
  moves INTEGER, nodes INTEGER, dyer TEXT, final_hash INTEGER);
CREATE INDEX IF NOT EXISTS games_file ON games(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS comments USING fts5(text, tokenize='trigram');
";

/// An error of the database.
#[derive(Debug)]
pub enum DbError {
    /// SQLite failed.
    Sql(rusqlite::Error),
    /// A file could not be read or written.
    Io(String),
    /// Bad usage (a bad filter, a pattern that cannot be read).
    Usage(String),
    /// The database is damaged or not a Qipu database.
    Corrupt(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::Sql(e) => write!(f, "database: {e}"),
            DbError::Io(e) | DbError::Usage(e) => f.write_str(e),
            DbError::Corrupt(e) => write!(f, "damaged database: {e}"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError::Sql(e)
    }
}

/// Reports progress of [`Database::index`] (the CLI draws a bar with it).
pub trait Progress: Sync {
    /// The number of files to read is known.
    fn start(&self, _files: u64) {}
    /// One more file was read and stored.
    fn advance(&self) {}
}

/// No progress report.
pub struct NoProgress;
impl Progress for NoProgress {}

/// What [`Database::index`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct IndexReport {
    /// Files (record files and archives) read in this run.
    pub read: usize,
    /// Files left alone because they did not change.
    pub unchanged: usize,
    /// Files gone from disk, removed from the database.
    pub removed: usize,
    /// Games stored in this run.
    pub games: usize,
    /// Games in the database now.
    pub total_games: usize,
    /// Files or members that could not be read, and other warnings, one line each.
    pub problems: Vec<String>,
}

/// A database file.
pub struct Database {
    conn: Connection,
    path: PathBuf,
    loaded: std::cell::OnceCell<Arc<Index>>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("path", &self.path)
            .finish()
    }
}

struct Unit {
    member: Option<String>,
    format: Option<&'static str>,
    charset: Option<&'static str>,
    error: Option<String>,
    data: Vec<u8>,
    games: Vec<GameRow>,
}

struct SourceJob {
    shown: String,
    abs: String,
    size: i64,
    mtime: i64,
    archive: bool,
}

struct SourceResult {
    job: SourceJob,
    units: Vec<Unit>,
    error: Option<String>,
}

fn read_unit(bytes: &[u8], name: &Path, member: Option<String>) -> Unit {
    let mut unit = Unit {
        member,
        format: None,
        charset: None,
        error: None,
        data: Vec::new(),
        games: Vec::new(),
    };
    let loaded = match sgf_formats::read_any(bytes, Some(name)) {
        Ok(l) => l,
        Err(e) => {
            unit.error = Some(e.to_string());
            return unit;
        }
    };
    unit.format = Some(loaded.format);
    unit.charset = Some(loaded.charset);
    let doc = &loaded.parsed.document;
    let n = doc.game_count();
    // Big collections are split over the cores; single games are not worth it.
    let mut games: Vec<GameRow> = if n > 16 {
        (0..n).into_par_iter().map(|g| game_row(doc, g)).collect()
    } else {
        (0..n).map(|g| game_row(doc, g)).collect()
    };
    for g in &mut games {
        write_stored(&g.encoded, &mut unit.data);
        // The moves are in `data` now; only what the rows need is kept.
        g.encoded.tokens = Vec::new();
        g.encoded.ever_black = Vec::new();
        g.encoded.ever_white = Vec::new();
        g.encoded.final_cells = Vec::new();
        g.encoded.main_moves = Vec::new();
    }
    unit.games = games;
    unit
}

fn read_source(job: SourceJob) -> SourceResult {
    let path = PathBuf::from(&job.abs);
    if !job.archive {
        return match std::fs::read(&path) {
            Ok(bytes) => SourceResult {
                units: vec![read_unit(&bytes, &path, None)],
                job,
                error: None,
            },
            Err(e) => SourceResult {
                job,
                units: Vec::new(),
                error: Some(e.to_string()),
            },
        };
    }
    let mut units = Vec::new();
    let mut batch: Vec<sgf_formats::archive::Member> = Vec::new();
    let flush = |batch: &mut Vec<sgf_formats::archive::Member>, units: &mut Vec<Unit>| {
        let done: Vec<Unit> = std::mem::take(batch)
            .into_par_iter()
            .map(|m| read_unit(&m.bytes, Path::new(&m.name), Some(m.name.clone())))
            .collect();
        units.extend(done);
    };
    let r = sgf_formats::archive::read_members(
        &path,
        &sgf_formats::archive::ArchiveOptions::default(),
        &mut |m| match m {
            Ok(m) => {
                batch.push(m);
                if batch.len() >= 256 {
                    flush(&mut batch, &mut units);
                }
            }
            Err(e) => units.push(Unit {
                member: Some(e.name),
                format: None,
                charset: None,
                error: Some(e.message),
                data: Vec::new(),
                games: Vec::new(),
            }),
        },
    );
    flush(&mut batch, &mut units);
    SourceResult {
        job,
        units,
        error: r.err(),
    }
}

fn mtime_of(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

impl Database {
    /// Opens a database file, creating it when it does not exist.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a Qipu database.
    pub fn open(path: impl AsRef<Path>) -> Result<Database, DbError> {
        let path = path.as_ref().to_path_buf();
        let conn = Connection::open(&path)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .or_else(|_| conn.pragma_update(None, "journal_mode", "DELETE"))
            .map_err(|e| DbError::Corrupt(format!("{}: {e}", path.display())))?;
        conn.execute_batch(SCHEMA)
            .map_err(|e| DbError::Corrupt(format!("{}: {e}", path.display())))?;
        let v: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        match v.as_deref() {
            None => {
                conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1)",
                    [SCHEMA_VERSION],
                )?;
            }
            Some(SCHEMA_VERSION) => {}
            Some(other) => {
                return Err(DbError::Corrupt(format!(
                    "{}: made by another version of qipu (schema {other}); index again into a new file",
                    path.display()
                )));
            }
        }
        Ok(Database {
            conn,
            path,
            loaded: std::cell::OnceCell::new(),
        })
    }

    /// Opens an existing database file (no file is created).
    ///
    /// # Errors
    /// When the file does not exist or is not a Qipu database.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Database, DbError> {
        let p = path.as_ref();
        if !p.is_file() {
            return Err(DbError::Io(format!("{}: no such database", p.display())));
        }
        Database::open(p)
    }

    /// The path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The SQLite connection, for queries of one's own.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Indexes the record files and archives under `paths` (files,
    /// directories, archives): new and changed files are read (in parallel),
    /// files that did not change are left alone, files under `paths` that
    /// are gone are removed. A file that cannot be read is reported in
    /// [`IndexReport::problems`] and skipped.
    ///
    /// # Errors
    /// When a path does not exist or the database cannot be written.
    pub fn index(
        &mut self,
        paths: &[impl AsRef<Path>],
        progress: &dyn Progress,
    ) -> Result<IndexReport, DbError> {
        self.loaded = std::cell::OnceCell::new();
        let mut report = IndexReport::default();
        let walk = sgf_formats::walk::collect(
            paths,
            &sgf_formats::walk::WalkOptions::default().with_archives(true),
        )
        .map_err(DbError::Io)?;
        report.problems.extend(walk.warnings.iter().cloned());
        let mut roots: Vec<(PathBuf, bool)> = Vec::new();
        for p in paths {
            let p = p.as_ref();
            if let Ok(c) = p.canonicalize() {
                roots.push((c, p.is_dir()));
            }
        }
        let mut known: HashMap<String, (i64, i64, i64)> = HashMap::new();
        {
            let mut st = self
                .conn
                .prepare("SELECT id, abs_path, size, mtime FROM sources")?;
            let rows = st.query_map([], |r| {
                Ok((r.get::<_, String>(1)?, (r.get(0)?, r.get(2)?, r.get(3)?)))
            })?;
            for r in rows {
                let (k, v) = r?;
                known.insert(k, v);
            }
        }
        let mut seen: HashSet<String> = HashSet::new();
        let mut jobs = Vec::new();
        for f in &walk.files {
            if f == Path::new("-") {
                report
                    .problems
                    .push("standard input cannot be indexed".into());
                continue;
            }
            let (abs, meta) = match (f.canonicalize(), std::fs::metadata(f)) {
                (Ok(a), Ok(m)) => (a, m),
                (Err(e), _) | (_, Err(e)) => {
                    report.problems.push(format!("{}: {e}", f.display()));
                    continue;
                }
            };
            let abs = abs.to_string_lossy().into_owned();
            if !seen.insert(abs.clone()) {
                continue;
            }
            let (size, mtime) = (meta.len() as i64, mtime_of(&meta));
            if let Some(&(_, s, m)) = known.get(&abs)
                && s == size
                && m == mtime
            {
                report.unchanged += 1;
                continue;
            }
            jobs.push(SourceJob {
                shown: f.to_string_lossy().into_owned(),
                archive: sgf_formats::walk::is_archive_path(f),
                abs,
                size,
                mtime,
            });
        }
        // Sources under the roots given that are not there any more.
        let gone: Vec<(String, i64)> = known
            .iter()
            .filter(|(k, _)| !seen.contains(*k))
            .filter(|(k, _)| {
                let kp = Path::new(k.as_str());
                roots
                    .iter()
                    .any(|(r, is_dir)| if *is_dir { kp.starts_with(r) } else { kp == r })
            })
            .map(|(k, v)| (k.clone(), v.0))
            .collect();
        progress.start(jobs.len() as u64);
        let conn = &self.conn;
        conn.execute_batch("BEGIN")?;
        for (_, id) in &gone {
            delete_source(conn, *id)?;
        }
        report.removed = gone.len();
        conn.execute_batch("COMMIT")?;
        // Files are read on the pool; this thread writes, committing now and
        // then so an interrupted run keeps what it stored.
        let (send, recv) = std::sync::mpsc::sync_channel::<SourceResult>(4);
        let result: Result<(), DbError> = std::thread::scope(|scope| {
            scope.spawn(move || {
                jobs.into_par_iter().for_each_with(send, |s, job| {
                    let _ = s.send(read_source(job));
                });
            });
            conn.execute_batch("BEGIN")?;
            let mut pending = 0usize;
            for r in recv {
                report.read += 1;
                let stored = store_source(conn, &known, r);
                let (games, problems) = match stored {
                    Ok(x) => x,
                    Err(e) => {
                        let _ = conn.execute_batch("ROLLBACK");
                        return Err(e);
                    }
                };
                report.games += games;
                report.problems.extend(problems);
                progress.advance();
                pending += games + 1;
                if pending > 20_000 {
                    conn.execute_batch("COMMIT; BEGIN")?;
                    pending = 0;
                }
            }
            conn.execute_batch("COMMIT")?;
            Ok(())
        });
        result?;
        report.total_games = self
            .conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))?
            as usize;
        Ok(report)
    }

    /// The index in memory, loaded on first use.
    ///
    /// # Errors
    /// When the stored games cannot be read.
    pub fn loaded(&self) -> Result<Arc<Index>, DbError> {
        if let Some(i) = self.loaded.get() {
            return Ok(i.clone());
        }
        let i = Arc::new(Index::load(&self.conn)?);
        let _ = self.loaded.set(i.clone());
        Ok(i)
    }
}

fn delete_source(tx: &Connection, id: i64) -> Result<(), DbError> {
    tx.execute(
        "DELETE FROM comments WHERE rowid IN (SELECT g.id FROM games g JOIN files f ON g.file_id = f.id WHERE f.source_id = ?1)",
        [id],
    )?;
    tx.execute(
        "DELETE FROM games WHERE file_id IN (SELECT id FROM files WHERE source_id = ?1)",
        [id],
    )?;
    tx.execute("DELETE FROM files WHERE source_id = ?1", [id])?;
    tx.execute("DELETE FROM sources WHERE id = ?1", [id])?;
    Ok(())
}

fn store_source(
    tx: &Connection,
    known: &HashMap<String, (i64, i64, i64)>,
    r: SourceResult,
) -> Result<(usize, Vec<String>), DbError> {
    let mut problems = Vec::new();
    if let Some(&(id, _, _)) = known.get(&r.job.abs) {
        delete_source(tx, id)?;
    }
    if let Some(e) = &r.error {
        problems.push(format!("{}: {e}", r.job.shown));
    }
    tx.execute(
        "INSERT INTO sources(path, abs_path, size, mtime, error) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![r.job.shown, r.job.abs, r.job.size, r.job.mtime, r.error],
    )?;
    let source_id = tx.last_insert_rowid();
    let mut ins_file = tx.prepare_cached(
        "INSERT INTO files(source_id, member, format, charset, error, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut ins_game = tx.prepare_cached(
        "INSERT INTO games(file_id, game, cols, rows, black, white, black_key, white_key, black_rank, white_rank,
           event, event_key, round, place, date, date_min, date_max, result, winner, komi, handicap, rules,
           moves, nodes, dyer, final_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
    )?;
    let mut ins_comment = tx.prepare_cached("INSERT INTO comments(rowid, text) VALUES (?1, ?2)")?;
    let mut games = 0;
    for u in r.units {
        if let Some(e) = &u.error {
            match &u.member {
                Some(m) => problems.push(format!("{}: {m}: {e}", r.job.shown)),
                None => problems.push(format!("{}: {e}", r.job.shown)),
            }
        }
        ins_file.execute(params![
            source_id, u.member, u.format, u.charset, u.error, u.data
        ])?;
        let file_id = tx.last_insert_rowid();
        for g in &u.games {
            ins_game.execute(params![
                file_id,
                g.game,
                g.encoded.cols,
                g.encoded.rows,
                g.black,
                g.white,
                key(&g.black),
                key(&g.white),
                g.black_rank,
                g.white_rank,
                g.event,
                key(&g.event),
                g.round,
                g.place,
                g.date,
                g.date_min,
                g.date_max,
                g.result,
                g.winner,
                g.komi,
                g.handicap,
                g.rules,
                g.moves,
                g.encoded.nodes,
                g.dyer,
                g.final_hash,
            ])?;
            if !g.encoded.comments.is_empty() {
                ins_comment.execute(params![tx.last_insert_rowid(), g.encoded.comments])?;
            }
            games += 1;
        }
    }
    Ok((games, problems))
}

/// One game in memory.
#[derive(Clone, Debug)]
pub(crate) struct GameEntry {
    pub id: i64,
    pub file: u32,
    pub game: u32,
    pub cols: u8,
    pub rows: u8,
    /// 0 none, 1 black, 2 white.
    pub winner: u8,
    pub tokens: (u32, u32),
    pub ever: u32,
    pub first: u32,
}

/// One record file in memory.
#[derive(Clone, Debug)]
pub(crate) struct FileEntry {
    pub path: String,
    pub member: Option<String>,
}

/// Every game of a database, in memory, ready for searches.
#[derive(Debug, Default)]
pub struct Index {
    pub(crate) games: Vec<GameEntry>,
    pub(crate) files: Vec<FileEntry>,
    tokens: Vec<u16>,
    ever: Vec<u64>,
    first: Vec<u8>,
}

impl Index {
    fn load(conn: &Connection) -> Result<Index, DbError> {
        let mut idx = Index::default();
        // Sized up front: growing by doubling would hold two copies at once.
        let (bytes, games): (i64, i64) = conn.query_row(
            "SELECT (SELECT coalesce(sum(length(data)), 0) FROM files), (SELECT count(*) FROM games)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        idx.tokens.reserve((bytes.max(0) / 2) as usize);
        idx.games.reserve(games.max(0) as usize);
        idx.ever.reserve(games.max(0) as usize * 3 * 19);
        idx.first.reserve(games.max(0) as usize * 361);
        let mut file_pos: HashMap<i64, u32> = HashMap::new();
        let mut per_file: HashMap<i64, Vec<(u32, i64, u8)>> = HashMap::new();
        {
            let mut st = conn.prepare("SELECT id, file_id, game, winner FROM games")?;
            let rows = st.query_map([], |r| {
                let w: Option<String> = r.get(3)?;
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, u32>(2)?,
                    match w.as_deref() {
                        Some("B") => 1u8,
                        Some("W") => 2,
                        _ => 0,
                    },
                ))
            })?;
            for r in rows {
                let (id, file, game, w) = r?;
                per_file.entry(file).or_default().push((game, id, w));
            }
        }
        let mut st = conn.prepare(
            "SELECT f.id, s.path, f.member, f.data FROM files f JOIN sources s ON f.source_id = s.id ORDER BY s.path, f.member, f.id",
        )?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let fid: i64 = r.get(0)?;
            let data: Option<Vec<u8>> = r.get(3)?;
            let fi = idx.files.len() as u32;
            file_pos.insert(fid, fi);
            idx.files.push(FileEntry {
                path: r.get(1)?,
                member: r.get(2)?,
            });
            let Some(data) = data else { continue };
            let stored = read_stored(&data).ok_or_else(|| {
                DbError::Corrupt(format!("the games of file {fid} cannot be read"))
            })?;
            let mut games = per_file.remove(&fid).unwrap_or_default();
            games.sort_unstable();
            if games.len() != stored.len() {
                return Err(DbError::Corrupt(format!(
                    "file {fid} has {} stored games and {} rows",
                    stored.len(),
                    games.len()
                )));
            }
            for ((game, id, winner), s) in games.into_iter().zip(stored) {
                let ever = idx.ever.len() as u32;
                let rb = (s.cols as usize).div_ceil(8) * s.rows as usize;
                unpack_rows(&s.ever[..rb], s.cols, s.rows, &mut idx.ever);
                unpack_rows(&s.ever[rb..], s.cols, s.rows, &mut idx.ever);
                // Filled in below, when every game's tokens are in.
                idx.ever.extend(std::iter::repeat_n(0, s.rows as usize));
                let first = idx.first.len() as u32;
                idx.first
                    .resize(idx.first.len() + s.cols as usize * s.rows as usize, 255);
                let start = idx.tokens.len() as u32;
                idx.tokens.extend(
                    s.tokens
                        .chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]])),
                );
                idx.games.push(GameEntry {
                    id,
                    file: fi,
                    game,
                    cols: s.cols,
                    rows: s.rows,
                    winner,
                    tokens: (start, idx.tokens.len() as u32 - start),
                    ever,
                    first,
                });
            }
        }
        idx.fill_first_stones();
        Ok(idx)
    }

    /// Computes each game's [`crate::encode::first_stones`] (on all cores,
    /// a slice of games at a time so little is held twice).
    fn fill_first_stones(&mut self) {
        for chunk in self.games.chunks(4096) {
            let done: Vec<(Vec<u8>, Vec<u64>)> = chunk
                .par_iter()
                .map(|g| {
                    let t = &self.tokens[g.tokens.0 as usize..(g.tokens.0 + g.tokens.1) as usize];
                    crate::encode::first_stones(t, g.cols, g.rows)
                })
                .collect();
            for (g, (first, reemptied)) in chunk.iter().zip(done) {
                let f = g.first as usize;
                self.first[f..f + first.len()].copy_from_slice(&first);
                let e = g.ever as usize + 2 * g.rows as usize;
                self.ever[e..e + reemptied.len()].copy_from_slice(&reemptied);
            }
        }
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Bytes of memory the games take.
    pub fn memory_bytes(&self) -> usize {
        self.tokens.len() * 2
            + self.ever.len() * 8
            + self.first.len()
            + self.games.len() * std::mem::size_of::<GameEntry>()
    }

    pub(crate) fn view(&self, g: &GameEntry) -> crate::search::GameView<'_> {
        let rows = g.rows as usize;
        let e = g.ever as usize;
        crate::search::GameView {
            cols: g.cols,
            rows: g.rows,
            ever_black: &self.ever[e..e + rows],
            ever_white: &self.ever[e + rows..e + 2 * rows],
            reemptied: &self.ever[e + 2 * rows..e + 3 * rows],
            first: &self.first[g.first as usize..g.first as usize + rows * g.cols as usize],
            tokens: &self.tokens[g.tokens.0 as usize..(g.tokens.0 + g.tokens.1) as usize],
        }
    }
}
