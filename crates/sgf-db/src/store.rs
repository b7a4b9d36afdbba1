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

use sgf_formats::input::{InputError, MAX_INPUT_BYTES, check_regular, read_file_shared};

use crate::encode::{read_stored, unpack_rows, write_stored, write_stored_head};
use crate::game::{GameRow, game_row, game_row_counted, key};

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

/// An error of the database. Every message names the database file (or
/// the record file) it is about.
#[derive(Debug)]
#[non_exhaustive]
pub enum DbError {
    /// SQLite failed (a full disk, a read-only file…); see
    /// [`DbError::Database`] for the same with the file's name.
    Sql(rusqlite::Error),
    /// SQLite failed on the database file `path`.
    Database {
        /// The database file.
        path: String,
        /// What SQLite said.
        error: rusqlite::Error,
    },
    /// A file could not be read or written.
    Io(String),
    /// Bad usage (a bad filter, a pattern that cannot be read).
    Usage(String),
    /// The database is damaged (`PATH: damaged (…)`), or made by another
    /// version of Qipu.
    Corrupt(String),
    /// The file is not a Qipu database (`PATH: not a Qipu database (…)`):
    /// not an SQLite file, an empty file, another program's database.
    NotQipu(String),
    /// Another process is indexing into the database
    /// ([`Database::index`]; [`IndexOptions::wait`] waits for it instead).
    Busy(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::Sql(e) => write!(f, "database: {e}"),
            DbError::Database { path, error } => write!(f, "{path}: {error}"),
            DbError::Io(e)
            | DbError::Usage(e)
            | DbError::Corrupt(e)
            | DbError::NotQipu(e)
            | DbError::Busy(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError::Sql(e)
    }
}

/// Whether SQLite's answer means the file is damaged: a page that cannot
/// be read, a value of the wrong type in a column, a table or column that
/// is missing.
fn is_damage(e: &rusqlite::Error) -> bool {
    use rusqlite::Error as E;
    use rusqlite::ErrorCode as C;
    match e {
        E::SqliteFailure(f, msg) => {
            matches!(f.code, C::DatabaseCorrupt | C::NotADatabase)
                || msg.as_deref().is_some_and(|m| {
                    m.starts_with("no such table") || m.starts_with("no such column")
                })
        }
        E::InvalidColumnType(..)
        | E::FromSqlConversionFailure(..)
        | E::IntegralValueOutOfRange(..)
        | E::InvalidColumnName(..) => true,
        _ => false,
    }
}

/// `e` about the database file `path`: SQLite's errors get the file's
/// name, and those that mean damage become [`DbError::Corrupt`]
/// (`PATH: damaged (…)`).
pub(crate) fn about(path: &Path, e: DbError) -> DbError {
    let shown = path.display().to_string();
    match e {
        DbError::Sql(e) if is_damage(&e) => {
            DbError::Corrupt(format!("{shown}: damaged ({})", sql_words(&e)))
        }
        DbError::Sql(error) => DbError::Database { path: shown, error },
        e => e,
    }
}

/// SQLite's message in words (rusqlite's for a wrong type reads
/// "Invalid column type Blob at index: 2, name: game").
fn sql_words(e: &rusqlite::Error) -> String {
    use rusqlite::Error as E;
    match e {
        E::InvalidColumnType(_, name, t) => {
            format!("the column `{name}` holds a value of type {t}")
        }
        E::IntegralValueOutOfRange(_, v) => format!("a number out of range: {v}"),
        E::FromSqlConversionFailure(_, t, err) => {
            format!("a value of type {t} cannot be read: {err}")
        }
        e => e.to_string(),
    }
}

/// Reports progress of [`Database::index`] (the CLI draws a bar with it).
pub trait Progress: Sync {
    /// The number of files to read is known.
    fn start(&self, _files: u64) {}
    /// One more file was read and stored.
    fn advance(&self) {}
    /// Another process is indexing into the database and this one waits
    /// for it to finish ([`IndexOptions::wait`]).
    fn waiting(&self) {}
}

/// How [`Database::index_with`] runs.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct IndexOptions {
    /// When another process is indexing into the same database, wait for
    /// it to finish (instead of failing at once with [`DbError::Busy`]).
    pub wait: bool,
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
    /// How many files and archive members could not be read or hold no
    /// game (each is one line of `problems`; the rest are warnings, such
    /// as a link out of a directory that was not followed). Such files are
    /// read again by the next run.
    pub failed: usize,
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
    /// In place of `data`, for a large file read whole: its games encoded
    /// again as they are written.
    deferred: Option<Deferred>,
    games: Vec<StoredRow>,
}

/// Files read whole from this size on keep their document until their
/// games are stored, and their moves are encoded again straight into the
/// database: a game of a million moves encodes into megabytes, which were
/// held beside the document (`db index` of a 1M-move line peaked at 3.7×
/// its size). Smaller files are encoded once, on the pool.
const DEFER_BYTES: usize = 1 << 20;

/// The games of a file whose moves are written into its blob as they are
/// encoded, a second time (the first, on the pool, only counted them).
struct Deferred {
    loaded: sgf_formats::Loaded,
    /// Per game: its number in the document, the stored form before its
    /// tokens ([`crate::encode::write_stored_head`]) and how many tokens.
    games: Vec<(usize, Vec<u8>, u32)>,
}

/// The page cache of SQLite while a deferred file's blob is written, in
/// KiB (as `PRAGMA cache_size` takes it, negative).
const DEFERRED_CACHE_KIB: i64 = -256;

/// The tokens written at a time.
const TOKEN_CHUNK_BYTES: usize = 64 << 10;

impl Deferred {
    /// The length of the stored form of the games.
    fn len(&self) -> u64 {
        self.games
            .iter()
            .map(|(_, head, tokens)| head.len() as u64 + 2 * u64::from(*tokens))
            .sum()
    }

    /// Writes the stored form of the games into `blob` (of [`Deferred::len`]
    /// bytes), the tokens in chunks as they are encoded.
    fn write(&self, blob: &mut rusqlite::blob::Blob<'_>) -> Result<(), DbError> {
        let doc = &self.loaded.parsed.document;
        let mut at = 0usize;
        let mut chunk = Vec::with_capacity(TOKEN_CHUNK_BYTES);
        for &(game, ref head, tokens) in &self.games {
            blob.write_at(head, at)?;
            at += head.len();
            let mut out = BlobTokens {
                end: at + 2 * tokens as usize,
                blob: &mut *blob,
                at,
                chunk: std::mem::take(&mut chunk),
                error: None,
            };
            let (_, made) = crate::encode::encode_game_with(doc, game, &mut |t| out.push(t));
            out.flush();
            if let Some(e) = out.error {
                return Err(e);
            }
            // The same document encoded the same way twice: a difference
            // would be a bug, and is not stored.
            if made != tokens || out.at != out.end {
                return Err(DbError::Io(format!(
                    "game {} was encoded differently twice ({tokens} then {made} tokens)",
                    game + 1
                )));
            }
            at = out.end;
            chunk = out.chunk;
        }
        Ok(())
    }
}

/// The tokens of one game written into its place in a blob, a chunk at a
/// time.
struct BlobTokens<'b, 'c> {
    blob: &'b mut rusqlite::blob::Blob<'c>,
    /// Where the next chunk goes, and where the game's place ends.
    at: usize,
    end: usize,
    chunk: Vec<u8>,
    error: Option<DbError>,
}

impl BlobTokens<'_, '_> {
    fn push(&mut self, t: u16) {
        self.chunk.extend_from_slice(&t.to_le_bytes());
        if self.chunk.len() >= TOKEN_CHUNK_BYTES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let n = self.chunk.len();
        // Never past the game's place (into the next game's bytes).
        if self.error.is_none()
            && n > 0
            && self.at + n <= self.end
            && let Err(e) = self.blob.write_at(&self.chunk, self.at)
        {
            self.error = Some(e.into());
        }
        self.at += n;
        self.chunk.clear();
    }
}

/// What the `games` table stores of a [`GameRow`], kept until the source's
/// rows are written: a row with its whole summary is 864 bytes, and a
/// collection holds tens of thousands of games (`db index` on a 17 MB one
/// peaked at 3.4× its size).
struct StoredRow {
    game: u32,
    cols: u8,
    rows: u8,
    black: Option<Box<str>>,
    white: Option<Box<str>>,
    black_rank: Option<Box<str>>,
    white_rank: Option<Box<str>>,
    event: Option<Box<str>>,
    round: Option<Box<str>>,
    place: Option<Box<str>>,
    date: Option<Box<str>>,
    date_min: Option<i64>,
    date_max: Option<i64>,
    result: Option<Box<str>>,
    winner: Option<&'static str>,
    komi: Option<f64>,
    handicap: Option<i64>,
    rules: Option<Box<str>>,
    moves: u32,
    nodes: u32,
    dyer: Box<str>,
    final_hash: i64,
    comments: Box<str>,
}

impl From<GameRow> for StoredRow {
    fn from(g: GameRow) -> StoredRow {
        let b = |s: Option<String>| s.map(String::into_boxed_str);
        let s = g.summary;
        StoredRow {
            game: g.game,
            cols: g.encoded.cols,
            rows: g.encoded.rows,
            black: b(s.black),
            white: b(s.white),
            black_rank: b(g.black_rank),
            white_rank: b(g.white_rank),
            event: b(s.event),
            round: b(s.round),
            place: b(s.place),
            date: b(s.date),
            date_min: g.date_min,
            date_max: g.date_max,
            result: b(g.result),
            winner: g.winner,
            komi: s.komi,
            handicap: s.handicap,
            rules: b(s.rules),
            moves: g.moves,
            nodes: g.encoded.nodes,
            dyer: g.dyer.into_boxed_str(),
            final_hash: g.final_hash,
            comments: g.encoded.comments.into_boxed_str(),
        }
    }
}

/// The lock of an index run (see `Database::lock_for_index`): the file is
/// removed, then unlocked, when this is dropped.
struct IndexLock {
    _file: std::fs::File,
    #[cfg_attr(not(unix), allow(dead_code))]
    path: PathBuf,
}

impl IndexLock {
    #[cfg(unix)]
    fn same_file(f: &std::fs::File, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }

    #[cfg(not(unix))]
    fn same_file(_: &std::fs::File, _: &Path) -> bool {
        // The file is never removed (an open file cannot be, there).
        true
    }
}

impl Drop for IndexLock {
    fn drop(&mut self) {
        // Removed while still locked: one who opened it meanwhile sees it
        // is gone once it gets the lock, and tries again.
        #[cfg(unix)]
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A source stored by an earlier run.
struct Known {
    id: i64,
    size: i64,
    mtime: i64,
    /// It could not be read at all.
    failed: bool,
    /// Its files (members) that could not be read.
    failed_members: i64,
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

/// The bytes of a file or of an archive member, to be read.
enum UnitBytes<'a> {
    /// A file's, handed over: held by its document alone once read (no
    /// copy), and released with it, before its games are stored.
    File(std::sync::Arc<[u8]>),
    /// An archive member's.
    Member(&'a [u8]),
}

fn read_unit(bytes: UnitBytes<'_>, name: &Path, member: Option<String>) -> Unit {
    let mut unit = Unit {
        member,
        format: None,
        charset: None,
        error: None,
        data: Vec::new(),
        deferred: None,
        games: Vec::new(),
    };
    // A large collection is read a part at a time, its parts side by side
    // (sgf_formats::parts): memory holds a few parts of its tree.
    let mut games: Vec<StoredRow> = Vec::new();
    let mut data = Vec::new();
    let mut first: Option<(&'static str, &'static str)> = None;
    let opts = sgf_formats::parts::PartOptions::default();
    let mut deferred: Option<Deferred> = None;
    let work = |piece: &sgf_formats::parts::Piece, loaded: sgf_formats::Loaded| {
        let doc = &loaded.parsed.document;
        let defer = piece.whole && piece.range.len() >= DEFER_BYTES;
        // Deferred: only counted here, encoded again as they are stored.
        let (rows, counts): (Vec<GameRow>, Vec<u32>) = if defer {
            (0..doc.game_count())
                .map(|g| game_row_counted(doc, g))
                .unzip()
        } else {
            let rows = (0..doc.game_count()).map(|g| game_row(doc, g)).collect();
            (rows, Vec::new())
        };
        let fc = (loaded.format, loaded.charset);
        let kept = (defer && !rows.is_empty()).then_some((loaded, counts));
        (fc, rows, kept)
    };
    type Made = (
        (&'static str, &'static str),
        Vec<GameRow>,
        Option<(sgf_formats::Loaded, Vec<u32>)>,
    );
    let join = |step: sgf_formats::parts::Step<Made>| {
        match step {
            sgf_formats::parts::Step::Part(piece, (fc, rows, kept)) => {
                first.get_or_insert(fc);
                let mut heads = Vec::new();
                for (k, mut g) in rows.into_iter().enumerate() {
                    match &kept {
                        Some((_, counts)) => {
                            let mut head = Vec::new();
                            write_stored_head(&g.encoded, counts[k], &mut head);
                            heads.push((g.game as usize, head, counts[k]));
                        }
                        None => write_stored(&g.encoded, &mut data),
                    }
                    // Numbered in the part: in the file, after the parts before.
                    g.game += piece.first_game as u32;
                    // The moves are in `data` now (or will be written as
                    // encoded again); only what the rows need is kept.
                    games.push(StoredRow::from(g));
                }
                if let Some((loaded, _)) = kept {
                    deferred = Some(Deferred {
                        loaded,
                        games: heads,
                    });
                }
            }
            sgf_formats::parts::Step::Restart => {
                first = None;
                games.clear();
                data.clear();
                deferred = None;
            }
        }
        std::ops::ControlFlow::Continue(())
    };
    let read = match bytes {
        UnitBytes::File(b) => {
            sgf_formats::parts::map_parts_owned(&mut Some(b), Some(name), &opts, work, join)
        }
        UnitBytes::Member(b) => sgf_formats::parts::map_parts(b, Some(name), &opts, work, join),
    };
    if let Err(e) = read {
        unit.error = Some(e.to_string());
        return unit;
    }
    if let Some((format, charset)) = first {
        unit.format = Some(format);
        unit.charset = Some(charset);
    }
    if games.is_empty() {
        // A text file with no game tree: not a game record (as every
        // `qipu` command says).
        unit.error = Some(sgf_formats::judge::NotRecord::NoGameTree.to_string());
        return unit;
    }
    unit.data = data;
    unit.deferred = deferred;
    unit.games = games;
    unit
}

/// The most bytes of archive members held for parsing at once.
const BATCH_BYTES: usize = 64 << 20;

fn read_source(job: SourceJob) -> SourceResult {
    let path = PathBuf::from(&job.abs);
    if !job.archive {
        // Only regular files, bounded (a device or a FIFO put in the file's
        // place since it was listed is refused, not read for ever).
        return match read_file_shared(&path, MAX_INPUT_BYTES) {
            Ok(bytes) => SourceResult {
                units: vec![read_unit(UnitBytes::File(bytes), &path, None)],
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
    if let Err(e) = check_regular(&path) {
        return SourceResult {
            job,
            units: Vec::new(),
            error: Some(e.to_string()),
        };
    }
    let mut units = Vec::new();
    // Members are parsed a batch at a time, on all cores; a batch is
    // bounded in count and in bytes (a member may be up to
    // `ArchiveOptions::max_member_bytes`: 256 of them at once would be 64 GiB).
    let mut batch: Vec<sgf_formats::archive::Member> = Vec::new();
    let mut batch_bytes = 0usize;
    let flush = |batch: &mut Vec<sgf_formats::archive::Member>, units: &mut Vec<Unit>| {
        let done: Vec<Unit> = std::mem::take(batch)
            .into_par_iter()
            .map(|m| {
                read_unit(
                    UnitBytes::Member(&m.bytes),
                    Path::new(&m.name),
                    Some(m.name.clone()),
                )
            })
            .collect();
        units.extend(done);
    };
    let r = sgf_formats::archive::read_members(
        &path,
        &sgf_formats::archive::ArchiveOptions::default(),
        &mut |m| match m {
            Ok(m) => {
                batch_bytes += m.bytes.len();
                batch.push(m);
                if batch.len() >= 256 || batch_bytes >= BATCH_BYTES {
                    flush(&mut batch, &mut units);
                    batch_bytes = 0;
                }
            }
            Err(e) => units.push(Unit {
                member: Some(e.name),
                format: None,
                charset: None,
                error: Some(e.message),
                data: Vec::new(),
                deferred: None,
                games: Vec::new(),
            }),
        },
    );
    flush(&mut batch, &mut units);
    SourceResult {
        job,
        units,
        error: r.err().map(|e| e.why()),
    }
}

/// A problem with the file or member `name` as the index reports it: the
/// judgement's sentence for what is not a game record (`NAME is not a
/// game record: …`), else `NAME: why`.
fn problem(name: &str, e: &str) -> String {
    match e.strip_prefix("not a game record: ") {
        Some(why) => format!("{name} is not a game record: {why}"),
        None => format!("{name}: {e}"),
    }
}

pub(crate) fn mtime_of(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

/// The `application_id` of a Qipu database (`QIPU`), set when it is made.
const APPLICATION_ID: i64 = 0x5149_5055;

/// How long a statement waits for another connection's lock (a commit of
/// an index run, a checkpoint) before it gives up.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The columns every value of which must be of these SQLite types (what
/// the readers ask for): a value of another type means the file was
/// damaged or written by something else.
const TYPED_COLUMNS: [(&str, &[(&str, &str)]); 4] = [
    ("meta", &[("key", "'text'"), ("value", "'text','null'")]),
    (
        "sources",
        &[
            ("path", "'text'"),
            ("abs_path", "'text'"),
            ("size", "'integer'"),
            ("mtime", "'integer'"),
            ("error", "'text','null'"),
        ],
    ),
    (
        "files",
        &[
            ("source_id", "'integer'"),
            ("member", "'text','null'"),
            ("format", "'text','null'"),
            ("charset", "'text','null'"),
            ("error", "'text','null'"),
            ("data", "'blob','null'"),
        ],
    ),
    (
        "games",
        &[
            ("file_id", "'integer'"),
            ("game", "'integer'"),
            ("cols", "'integer'"),
            ("rows", "'integer'"),
            ("black", "'text','null'"),
            ("white", "'text','null'"),
            ("black_key", "'text','null'"),
            ("white_key", "'text','null'"),
            ("black_rank", "'text','null'"),
            ("white_rank", "'text','null'"),
            ("event", "'text','null'"),
            ("event_key", "'text','null'"),
            ("round", "'text','null'"),
            ("place", "'text','null'"),
            ("date", "'text','null'"),
            ("date_min", "'integer','null'"),
            ("date_max", "'integer','null'"),
            ("result", "'text','null'"),
            ("winner", "'text','null'"),
            ("komi", "'real','integer','null'"),
            ("handicap", "'integer','null'"),
            ("rules", "'text','null'"),
            ("moves", "'integer'"),
            ("nodes", "'integer'"),
            ("dyer", "'text','null'"),
            ("final_hash", "'integer','null'"),
        ],
    ),
];

/// The tables a Qipu database has, with their columns (name and declared
/// type), as [`SCHEMA`] makes them.
fn expected_tables() -> Result<Vec<(String, Columns)>, rusqlite::Error> {
    let mem = Connection::open_in_memory()?;
    mem.execute_batch(SCHEMA)?;
    ["meta", "sources", "files", "games", "comments"]
        .iter()
        .map(|t| Ok((t.to_string(), columns_of(&mem, t)?)))
        .collect()
}

/// A table's columns: name and declared type, in order.
type Columns = Vec<(String, String)>;

fn columns_of(conn: &Connection, table: &str) -> Result<Columns, rusqlite::Error> {
    let mut st = conn.prepare("SELECT name, type FROM pragma_table_info(?1) ORDER BY cid")?;
    st.query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

impl Database {
    /// Opens a database file, making a new database when the file does not
    /// exist or is empty.
    ///
    /// An existing file is checked first ([`Database::open_existing`]).
    ///
    /// # Errors
    /// When the file cannot be opened or made, is not a Qipu database
    /// ([`DbError::NotQipu`]) or is damaged ([`DbError::Corrupt`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Database, DbError> {
        Database::open_mode(path.as_ref(), true)
    }

    /// Opens an existing database file (no file is made or changed),
    /// after checking it is a Qipu database and not damaged: SQLite's
    /// `PRAGMA quick_check` (every page and index readable), the tables
    /// and columns, and the types of the values the searches read.
    ///
    /// # Errors
    /// When the file does not exist, is not a Qipu database
    /// ([`DbError::NotQipu`]: not an SQLite file, an empty file, a
    /// directory or device, another program's database) or is damaged
    /// ([`DbError::Corrupt`]).
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Database, DbError> {
        Database::open_mode(path.as_ref(), false)
    }

    fn open_mode(path: &Path, create: bool) -> Result<Database, DbError> {
        let shown = path.display().to_string();
        let not_qipu =
            |why: &str| DbError::NotQipu(format!("{shown}: not a Qipu database ({why})"));
        // Looked at before SQLite opens it: a FIFO would block SQLite's
        // first read for ever, and an empty file would be made a database.
        let size = match std::fs::metadata(path) {
            Ok(_) => match check_regular(path) {
                Ok(m) => Some(m.len()),
                Err(InputError::NotRegular(what)) => return Err(not_qipu(what)),
                Err(e) => return Err(DbError::Io(format!("{shown}: {e}"))),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(DbError::Io(format!("{shown}: {e}"))),
        };
        let new = match size {
            None if create => true,
            None => return Err(DbError::Io(format!("{shown}: no such database"))),
            Some(0) if create => true,
            Some(0) => return Err(not_qipu("an empty file")),
            Some(_) => false,
        };
        use rusqlite::OpenFlags;
        // Not SQLITE_OPEN_URI: a path is a path, even one that starts with `file:`.
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if size.is_none() {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let fail = |e: rusqlite::Error| about(path, DbError::Sql(e));
        let conn = Connection::open_with_flags(path, flags).map_err(fail)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        // The first read of the file: SQLite says here when it is not one
        // of its files.
        let tables: Vec<String> = match conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        {
            Ok(t) => t,
            Err(rusqlite::Error::SqliteFailure(f, _))
                if f.code == rusqlite::ErrorCode::NotADatabase =>
            {
                return Err(not_qipu("not an SQLite database file"));
            }
            Err(e) => return Err(fail(e)),
        };
        let db = Database {
            conn,
            path: path.to_path_buf(),
            loaded: std::cell::OnceCell::new(),
        };
        if tables.is_empty() {
            if !(new || create) {
                return Err(not_qipu("an SQLite database without Qipu's tables"));
            }
            db.make_tables().map_err(|e| about(path, e))?;
        } else {
            db.verify(&tables).map_err(|e| about(path, e))?;
        }
        if create {
            // Readers go on while an index run writes (WAL); a file on a
            // read-only medium keeps its journal mode.
            let _ = db
                .conn
                .pragma_update(None, "journal_mode", "WAL")
                .or_else(|_| db.conn.pragma_update(None, "journal_mode", "DELETE"));
        }
        Ok(db)
    }

    /// Makes the tables of a new database (in one transaction, so that a
    /// reader never sees half of them; another process making them at the
    /// same time is waited for).
    fn make_tables(&self) -> Result<(), DbError> {
        let conn = &self.conn;
        // Before the first write, outside a transaction.
        let _ = conn.pragma_update(None, "journal_mode", "WAL");
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let made = (|| -> Result<(), DbError> {
            let n: i64 = conn.query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |r| r.get(0),
            )?;
            if n == 0 {
                conn.execute_batch(SCHEMA)?;
                conn.pragma_update(None, "application_id", APPLICATION_ID)?;
                conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1)",
                    [SCHEMA_VERSION],
                )?;
            }
            Ok(())
        })();
        match made {
            Ok(()) => conn.execute_batch("COMMIT")?,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e);
            }
        }
        let tables: Vec<String> = {
            let mut st = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
            st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?
        };
        self.verify(&tables)
    }

    /// Checks an existing file is a Qipu database of this version and not
    /// damaged (see [`Database::open_existing`]).
    fn verify(&self, tables: &[String]) -> Result<(), DbError> {
        let conn = &self.conn;
        let shown = self.path.display().to_string();
        let not_qipu =
            |why: &str| DbError::NotQipu(format!("{shown}: not a Qipu database ({why})"));
        let damaged = |why: String| DbError::Corrupt(format!("{shown}: damaged ({why})"));
        let app: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        let ours = app == APPLICATION_ID;
        if app != 0 && !ours {
            return Err(not_qipu(&format!(
                "an SQLite database of another program, application id {app:#x}"
            )));
        }
        let schema: Option<String> = if tables.iter().any(|t| t == "meta") {
            conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?
        } else {
            None
        };
        match schema.as_deref() {
            Some(SCHEMA_VERSION) => {}
            Some(other) => {
                return Err(DbError::Corrupt(format!(
                    "{shown}: made by another version of qipu (schema {other}); index again into a new file"
                )));
            }
            None if ours => return Err(damaged("its schema version is missing".into())),
            None => return Err(not_qipu("an SQLite database without Qipu's tables")),
        }
        // Every page and index readable: a truncated or overwritten file.
        let problems: Vec<String> = {
            let mut st = conn.prepare("PRAGMA quick_check(5)")?;
            st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?
        };
        if problems.len() != 1 || problems[0] != "ok" {
            return Err(damaged(problems.join("; ")));
        }
        for (table, want) in expected_tables()? {
            let have = columns_of(conn, &table)?;
            if have.is_empty() {
                return Err(damaged(format!("the table `{table}` is missing")));
            }
            if have != want {
                let names = |v: &[(String, String)]| {
                    v.iter()
                        .map(|(n, t)| format!("{n} {t}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(damaged(format!(
                    "the table `{table}` has the columns ({}), not ({})",
                    names(&have),
                    names(&want)
                )));
            }
        }
        // One pass over each table's rows (the games' moves are not read:
        // `typeof` looks at a value's header only).
        for (table, cols) in TYPED_COLUMNS {
            let cases: Vec<String> = cols
                .iter()
                .map(|(c, types)| format!("WHEN typeof({c}) NOT IN ({types}) THEN '{c}'"))
                .collect();
            let sql = format!(
                "SELECT rowid, bad FROM (SELECT rowid, CASE {} END AS bad FROM {table}) WHERE bad IS NOT NULL LIMIT 1",
                cases.join(" ")
            );
            let bad: Option<(i64, String)> = conn
                .query_row(&sql, [], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            if let Some((row, col)) = bad {
                return Err(damaged(format!(
                    "row {row} of the table `{table}` holds a value of the wrong type in the column `{col}`"
                )));
            }
        }
        Ok(())
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
    /// are gone are removed. Only regular files are read (a device or a
    /// FIFO named as a path is refused), each at most
    /// [`sgf_formats::input::MAX_INPUT_BYTES`], archive members at most
    /// [`sgf_formats::archive::ArchiveOptions`]'s bound. A file or member
    /// that cannot be read or holds no game is reported in
    /// [`IndexReport::problems`], counted in [`IndexReport::failed`] and
    /// skipped; it is tried again by the next run.
    ///
    /// One run at a time writes into a database: when another process is
    /// indexing into it, this fails at once with [`DbError::Busy`], before
    /// anything is read ([`Database::index_with`] can wait instead).
    ///
    /// # Errors
    /// When a path does not exist, another process is indexing into the
    /// database, or the database cannot be written or is damaged.
    pub fn index(
        &mut self,
        paths: &[impl AsRef<Path>],
        progress: &dyn Progress,
    ) -> Result<IndexReport, DbError> {
        self.index_with(paths, progress, &IndexOptions::default())
    }

    /// [`Database::index`] with options.
    ///
    /// # Errors
    /// See [`Database::index`].
    pub fn index_with(
        &mut self,
        paths: &[impl AsRef<Path>],
        progress: &dyn Progress,
        opts: &IndexOptions,
    ) -> Result<IndexReport, DbError> {
        let _lock = self.lock_for_index(opts.wait, progress)?;
        let path = self.path.clone();
        self.index_locked(paths, progress)
            .map_err(|e| about(&path, e))
    }

    /// The lock of an index run: the file `DB-lock` beside the database,
    /// locked for the run and removed at its end (released when the
    /// process ends, however it ends; a file left by a killed run is
    /// simply taken). Two runs reading the same state of the database and
    /// storing the same files would clash.
    fn lock_for_index(
        &self,
        wait: bool,
        progress: &dyn Progress,
    ) -> Result<Option<IndexLock>, DbError> {
        let mut name = self.path.as_os_str().to_owned();
        name.push("-lock");
        let lock_path = PathBuf::from(name);
        let cannot = |e: std::io::Error| {
            DbError::Io(format!(
                "{}: cannot lock the database for indexing: {e}",
                lock_path.display()
            ))
        };
        let mut told = false;
        loop {
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock_path)
                .map_err(cannot)?;
            match f.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) if wait => {
                    if !told {
                        progress.waiting();
                        told = true;
                    }
                    f.lock().map_err(cannot)?;
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(DbError::Busy(format!(
                        "{}: being indexed by another process",
                        self.path.display()
                    )));
                }
                // A file system without locks: SQLite's own locks still keep
                // the file whole; two runs at once may then fail.
                Err(std::fs::TryLockError::Error(e))
                    if e.kind() == std::io::ErrorKind::Unsupported =>
                {
                    return Ok(None);
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(cannot(e)),
            }
            // The run that held it may have removed the file meanwhile (and
            // a third one made a new one): the lock counts only on the file
            // that is there.
            if IndexLock::same_file(&f, &lock_path) {
                return Ok(Some(IndexLock {
                    _file: f,
                    path: lock_path,
                }));
            }
        }
    }

    fn index_locked(
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
        if walk.files.is_empty() {
            return Err(DbError::Usage(sgf_formats::walk::none_found(paths)));
        }
        report.problems.extend(walk.warnings.iter().cloned());
        let mut roots: Vec<(PathBuf, bool)> = Vec::new();
        for p in paths {
            let p = p.as_ref();
            if let Ok(c) = p.canonicalize() {
                roots.push((c, p.is_dir()));
            }
        }
        let mut known: HashMap<String, Known> = HashMap::new();
        {
            let mut st = self.conn.prepare(
                "SELECT s.id, s.abs_path, s.size, s.mtime, s.error IS NOT NULL,
                   (SELECT count(*) FROM files f WHERE f.source_id = s.id AND f.error IS NOT NULL)
                 FROM sources s",
            )?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(1)?,
                    Known {
                        id: r.get(0)?,
                        size: r.get(2)?,
                        mtime: r.get(3)?,
                        failed: r.get(4)?,
                        failed_members: r.get(5)?,
                    },
                ))
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
                report.failed += 1;
                continue;
            }
            // A member named alone (`ARCHIVE!MEMBER`): a source is a whole
            // file, so that indexing it again knows what changed.
            if let Some((archive, _)) = f.to_str().and_then(sgf_formats::archive::split_member_path)
            {
                report.problems.push(format!(
                    "{}: the database indexes whole archives; name the archive ({})",
                    f.display(),
                    archive.display()
                ));
                report.failed += 1;
                continue;
            }
            // Only regular files: a device (`/dev/zero`) or a FIFO named
            // on the command line is not read at all.
            let (abs, meta) = match (f.canonicalize(), check_regular(f)) {
                (Ok(a), Ok(m)) => (a, m),
                (Err(e), _) => {
                    report.problems.push(format!("{}: {e}", f.display()));
                    report.failed += 1;
                    continue;
                }
                (_, Err(e)) => {
                    report.problems.push(format!("{}: {e}", f.display()));
                    report.failed += 1;
                    continue;
                }
            };
            let abs = abs.to_string_lossy().into_owned();
            if !seen.insert(abs.clone()) {
                continue;
            }
            let (size, mtime) = (meta.len() as i64, mtime_of(&meta));
            // By its first bytes, whatever its name.
            let archive = sgf_formats::judge::ArchiveKind::of_file(f).is_some();
            if let Some(k) = known.get(&abs)
                && k.size == size
                && k.mtime == mtime
            {
                // What could not be read is tried again (a permission may
                // have changed, which changes no modification time), but
                // an archive is not read again for a damaged member: its
                // members' errors are reported again.
                let again = k.failed || (!archive && k.failed_members > 0);
                if !again {
                    report.unchanged += 1;
                    if k.failed_members > 0 {
                        let mut st = self.conn.prepare_cached(
                            "SELECT member, error FROM files WHERE source_id = ?1 AND error IS NOT NULL ORDER BY id",
                        )?;
                        let rows = st.query_map([k.id], |r| {
                            Ok((r.get::<_, Option<String>>(0)?, r.get::<_, String>(1)?))
                        })?;
                        for r in rows {
                            let (m, e) = r?;
                            report.problems.push(match m {
                                Some(m) => problem(&format!("{}!{m}", f.display()), &e),
                                None => problem(&f.display().to_string(), &e),
                            });
                            report.failed += 1;
                        }
                    }
                    continue;
                }
            }
            jobs.push(SourceJob {
                shown: f.to_string_lossy().into_owned(),
                archive,
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
            .map(|(k, v)| (k.clone(), v.id))
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
                let (games, problems, failed) = match stored {
                    Ok(x) => x,
                    Err(e) => {
                        let _ = conn.execute_batch("ROLLBACK");
                        return Err(e);
                    }
                };
                report.games += games;
                report.problems.extend(problems);
                report.failed += failed;
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
    /// When the stored games cannot be read ([`DbError::Corrupt`]).
    pub fn loaded(&self) -> Result<Arc<Index>, DbError> {
        if let Some(i) = self.loaded.get() {
            return Ok(i.clone());
        }
        let i = Arc::new(Index::load(&self.conn).map_err(|e| match e {
            // The stored games themselves cannot be read.
            DbError::Corrupt(m) => {
                DbError::Corrupt(format!("{}: damaged ({m})", self.path.display()))
            }
            e => about(&self.path, e),
        })?);
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
    known: &HashMap<String, Known>,
    r: SourceResult,
) -> Result<(usize, Vec<String>, usize), DbError> {
    let mut problems = Vec::new();
    let mut failed = 0;
    if let Some(k) = known.get(&r.job.abs) {
        delete_source(tx, k.id)?;
    }
    if let Some(e) = &r.error {
        problems.push(format!("{}: {e}", r.job.shown));
        failed += 1;
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
            failed += 1;
            problems.push(match &u.member {
                Some(m) => problem(&format!("{}!{m}", r.job.shown), e),
                None => problem(&r.job.shown, e),
            });
        }
        // The moves are written into the row's blob as they are, not bound
        // as a value (SQLite copies a value, then again into its record:
        // a long game's is megabytes).
        let len = u
            .deferred
            .as_ref()
            .map_or(u.data.len() as u64, Deferred::len);
        // A deferred file's blob goes through few cached pages: its
        // document is held meanwhile, and each page is written once.
        let cache: Option<i64> = match u.deferred {
            Some(_) => {
                let was = tx.pragma_query_value(None, "cache_size", |r| r.get(0))?;
                tx.pragma_update(None, "cache_size", DEFERRED_CACHE_KIB)?;
                Some(was)
            }
            None => None,
        };
        ins_file.execute(params![
            source_id,
            u.member,
            u.format,
            u.charset,
            u.error,
            rusqlite::blob::ZeroBlob(len)
        ])?;
        let file_id = tx.last_insert_rowid();
        if len > 0 {
            let mut blob = tx.blob_open(rusqlite::MAIN_DB, "files", "data", file_id, false)?;
            match &u.deferred {
                Some(d) => d.write(&mut blob)?,
                None => blob.write_at(&u.data, 0)?,
            }
        }
        if let Some(was) = cache {
            tx.pragma_update(None, "cache_size", was)?;
        }
        for g in &u.games {
            ins_game.execute(params![
                file_id,
                g.game,
                g.cols,
                g.rows,
                g.black,
                g.white,
                key(g.black.as_deref()),
                key(g.white.as_deref()),
                g.black_rank,
                g.white_rank,
                g.event,
                key(g.event.as_deref()),
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
                g.nodes,
                g.dyer,
                g.final_hash,
            ])?;
            if !g.comments.is_empty() {
                ins_comment.execute(params![tx.last_insert_rowid(), g.comments])?;
            }
            games += 1;
        }
    }
    Ok((games, problems, failed))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::encode_game;

    /// A file of several games, one long enough for many chunks, with
    /// variations, setup and passes.
    fn record() -> Vec<u8> {
        let mut src = String::from("(;SZ[9]AB[aa]AW[bb];B[cc](;W[dd];B[])(;W[ee]AE[aa]))(;SZ[13]");
        for i in 0..80_000u32 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let p = i % 170;
            let (x, y) = (
                (b'a' + (p % 13) as u8) as char,
                (b'a' + (p / 13) as u8) as char,
            );
            src.push_str(&format!(";{c}[{x}{y}]"));
        }
        src.push_str(")(;SZ[19];B[pd])");
        src.into_bytes()
    }

    /// Blob `data` of a table's only row, written by `write` after a
    /// zeroblob of `len` bytes.
    fn blob_of(
        len: u64,
        write: impl FnOnce(&mut rusqlite::blob::Blob<'_>) -> Result<(), DbError>,
    ) -> (Vec<u8>, Result<(), DbError>) {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t(data BLOB)").unwrap();
        conn.execute(
            "INSERT INTO t(data) VALUES (?1)",
            [rusqlite::blob::ZeroBlob(len)],
        )
        .unwrap();
        let r = {
            let mut blob = conn
                .blob_open(rusqlite::MAIN_DB, "t", "data", 1, false)
                .unwrap();
            write(&mut blob)
        };
        let data = conn
            .query_row("SELECT data FROM t", [], |r| r.get(0))
            .unwrap();
        (data, r)
    }

    fn deferred(bytes: &[u8]) -> Deferred {
        let loaded = sgf_formats::read_any(bytes, None).unwrap();
        let doc = &loaded.parsed.document;
        let games = (0..doc.game_count())
            .map(|g| {
                let (row, tokens) = game_row_counted(doc, g);
                let mut head = Vec::new();
                write_stored_head(&row.encoded, tokens, &mut head);
                (g, head, tokens)
            })
            .collect();
        Deferred { loaded, games }
    }

    /// The games written in chunks as they are encoded again are the
    /// stored form of the games encoded once.
    #[test]
    fn deferred_blob_is_the_stored_form() {
        let bytes = record();
        let doc = sgf_core::parse(&bytes).document;
        let mut stored = Vec::new();
        for g in 0..doc.game_count() {
            write_stored(&encode_game(&doc, g), &mut stored);
        }
        // Several chunks of tokens.
        assert!(stored.len() > 2 * TOKEN_CHUNK_BYTES, "{}", stored.len());
        let d = deferred(&bytes);
        assert_eq!(d.len(), stored.len() as u64);
        let (data, r) = blob_of(d.len(), |b| d.write(b));
        r.unwrap();
        assert!(data == stored);
        assert_eq!(read_stored(&data).map(|g| g.len()), Some(3));
    }

    /// Counts that do not match what is encoded are an error, and no
    /// game's bytes go into another's place.
    #[test]
    fn deferred_counts_must_match() {
        let bytes = record();
        let mut d = deferred(&bytes);
        // The long game said to be shorter: its tokens do not fit.
        d.games[1].2 -= 1;
        let len = d.len();
        let (data, r) = blob_of(len, |b| d.write(b));
        assert!(r.unwrap_err().to_string().contains("encoded differently"));
        assert_eq!(data.len() as u64, len);
        let mut d = deferred(&bytes);
        // The first game said to be longer: it leaves bytes unwritten.
        d.games[0].2 += 1;
        let (_, r) = blob_of(d.len(), |b| d.write(b));
        assert!(r.is_err());
    }
}
