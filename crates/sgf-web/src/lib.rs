//! # sgf-web: the local viewer and editor behind `qipu view`
//!
//! A small HTTP server on 127.0.0.1 serving a single page (embedded in the
//! binary) and a JSON API over the Qipu library: the library parses,
//! replays, draws the board and writes files; the page only shows and forwards.
//! What each route reads, and how a malformed request is refused, is
//! [`api`]; the page is ES modules in `assets/` (`app.js` the entry).
//!
//! Safety: the server listens on loopback only; every request must carry the
//! random token of the session (in the URL of the page, then in a header),
//! and a `Host` of 127.0.0.1/localhost (no DNS rebinding); only record files
//! under the served path are listed, read or written; request bodies are
//! bounded.
//!
//! Robustness: only regular files are read (through
//! [`sgf_formats::input`]: a FIFO or a device named like a record is
//! refused at once, never waited on), at most [`MAX_FILE_BYTES`]; every
//! file is written through [`sgf_formats::save`] (never through a symbolic
//! link); the records open are put aside after a time without use and
//! beyond a memory budget, their unsaved work kept (see
//! [`ViewOptions::memory_budget`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
#[cfg(feature = "server")]
mod assets;
#[cfg(feature = "server")]
pub mod confirmed;
#[cfg(feature = "server")]
mod db;
mod handle;
#[cfg(feature = "server")]
mod kept;
pub mod local;
#[cfg(feature = "server")]
mod respond;
pub mod responses;
#[cfg(feature = "server")]
mod routes;
mod session;
#[cfg(feature = "server")]
mod sessions;

use std::path::Path;

// What only the HTTP server uses: without the feature the crate is the
// session and its API (the static viewer's WebAssembly).
#[cfg(feature = "server")]
use {
    axum::Router,
    axum::body::Body,
    axum::extract::{DefaultBodyLimit, Query, Request, State},
    axum::http::{HeaderValue, StatusCode, header},
    axum::middleware::{self, Next},
    axum::response::{IntoResponse, Response},
    axum::routing::{get, post},
    serde_json::Value,
    sgf_formats::input::InputError,
    std::hash::{BuildHasher, Hasher},
    std::net::SocketAddr,
    std::path::{Component, PathBuf},
    std::sync::{Arc, Mutex},
};

pub use session::{Session, TREE_MAX, TreeWindow};
#[cfg(feature = "server")]
pub use sessions::{DEFAULT_IDLE_TIMEOUT, DEFAULT_MEMORY_BUDGET};

/// The most bytes a request body may have (an uploaded record).
pub const MAX_BODY: usize = 32 << 20;

/// The largest record file the viewer opens: 32 MiB.
pub const MAX_FILE_BYTES: u64 = MAX_BODY as u64;

/// The record shown when `qipu view` is started without a path.
pub static EXAMPLE: &[u8] = include_bytes!("../../../examples/qipu-example.sgf");

#[cfg(feature = "server")]
/// What to serve.
#[derive(Clone, Debug)]
pub struct ViewOptions {
    /// A record file, a directory of records, or `None` for the bundled example.
    pub path: Option<PathBuf>,
    /// Port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// A fixed token (tests); random when `None`.
    pub token: Option<String>,
    /// A game database to search from the page (`qipu view --db`).
    pub db: Option<PathBuf>,
    /// The most heap bytes the records open may hold (as `/api/memory`'s
    /// `held_bytes` counts them) before the least recently used are put
    /// aside: unchanged records are dropped and read again from their
    /// files when used, records with unsaved changes (or without a file)
    /// are kept in [`ViewOptions::recovery_dir`] and read back when used.
    /// A record in use or just opened is never put aside. Default
    /// [`DEFAULT_MEMORY_BUDGET`] (128 MiB).
    pub memory_budget: usize,
    /// Records not used for this long are put aside as above; `None`:
    /// never. Default [`DEFAULT_IDLE_TIMEOUT`] (30 minutes).
    pub idle_timeout: Option<std::time::Duration>,
    /// Where records with unsaved changes are kept while put aside
    /// (created when first needed); `None`: a new private folder in the
    /// system's temporary folder.
    pub recovery_dir: Option<PathBuf>,
    /// The file of the engine command lines the player confirmed (see
    /// [`confirmed`]); `None`: `confirmed-engines.json` beside
    /// `engines.toml`.
    pub confirmed_engines: Option<PathBuf>,
}

#[cfg(feature = "server")]
impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            path: None,
            port: 0,
            token: None,
            db: None,
            memory_budget: DEFAULT_MEMORY_BUDGET,
            idle_timeout: Some(DEFAULT_IDLE_TIMEOUT),
            recovery_dir: None,
            confirmed_engines: None,
        }
    }
}

#[cfg(feature = "server")]
/// What `qipu view PATH` opens first.
enum Initial {
    /// A record file (its full path, under the root).
    File(PathBuf),
    /// A record file of an archive, as the file list names it
    /// (`ARCHIVE!MEMBER`, relative to the root).
    Member(String),
    /// An archive (relative to the root): its first record file, the
    /// list showing the others.
    Archive(String),
}

#[cfg(feature = "server")]
/// The server's shared state.
pub struct App {
    token: String,
    /// Directory under which files may be read and written.
    root: PathBuf,
    /// What to open first, if a file (or an archive, or a member of one)
    /// was given.
    initial: Option<Initial>,
    /// Whether a directory was given (the page shows a file list).
    directory: bool,
    /// Whether a path was named at all: without one (the bundled
    /// example) no folder is served, and Open and Save as by path are
    /// refused.
    served: bool,
    port: Mutex<u16>,
    /// The records open, one lock each: a slow request on one record (a
    /// large PNG, a big file's tree) never waits on another's. Put aside
    /// after a time without use and beyond the memory budget.
    sessions: sessions::Table,
    /// The directory listing, walked once and again only when asked for
    /// (`/api/files`) or after a save.
    files: Mutex<Option<Arc<Vec<String>>>>,
    db: db::Db,
    /// The file of the confirmed engine command lines (none: no
    /// configuration folder, and a command line runs only when confirmed
    /// in the request itself).
    confirmed: Option<PathBuf>,
}

#[cfg(feature = "server")]
/// A random token: 128 bits from the operating system's generator.
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS generator (very unusual): fall back on std's randomly keyed
        // SipHash, still secret, mixed with the time.
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(feature = "server")]
/// The most files the viewer lists in a directory.
const MAX_LISTED: usize = 100_000;

#[cfg(feature = "server")]
/// Record files under `dir` (the library's walker: links leaving `dir` are
/// not followed, loops end), as relative paths with `/`; the records of an
/// archive (`.zip`, `.tar`, `.tar.gz`, `.7z`) as `ARCHIVE!MEMBER`, as the
/// other commands name them.
fn list_records(dir: &Path) -> Vec<String> {
    let opts = sgf_formats::walk::WalkOptions::default()
        .with_max_files(MAX_LISTED)
        .with_archives(true);
    let Ok(walk) = sgf_formats::walk::walk_dir(dir, &opts) else {
        return Vec::new();
    };
    let mut list: Vec<String> = Vec::new();
    for p in &walk.files {
        let Some(rel) = p
            .strip_prefix(dir)
            .ok()
            .map(|rel| rel.to_string_lossy().replace('\\', "/"))
        else {
            continue;
        };
        if !sgf_formats::walk::is_archive_path(p) {
            list.push(rel);
            continue;
        }
        // Listed by name only: nothing is decompressed into memory.
        let mut opts = sgf_formats::archive::ArchiveOptions::default();
        opts.names_only = true;
        opts.max_members = MAX_LISTED;
        let _ = sgf_formats::archive::read_members(p, &opts, &mut |m| {
            if let Ok(m) = m
                && list.len() < MAX_LISTED
            {
                list.push(format!("{rel}!{}", m.name));
            }
        });
    }
    // Shown by path, as a file tree reads.
    list.sort();
    list
}

#[cfg(feature = "server")]
fn is_record(p: &Path) -> bool {
    sgf_formats::walk::is_record_path(p)
}

#[cfg(feature = "server")]
impl App {
    /// The record files of the served directory (cached; `refresh` walks again).
    fn file_list(&self, refresh: bool) -> Arc<Vec<String>> {
        let mut cache = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if refresh || cache.is_none() {
            *cache = Some(Arc::new(list_records(&self.root)));
        }
        cache.clone().unwrap_or_default()
    }

    /// A path under the root as the page names it (`a/b.sgf`).
    fn relative(&self, p: &Path) -> Option<String> {
        p.strip_prefix(&self.root)
            .ok()
            .map(|r| r.to_string_lossy().replace('\\', "/"))
    }

    /// Session `id`, read back first when it was put aside.
    fn session(&self, id: u64) -> Result<Arc<Mutex<Session>>, String> {
        self.sessions.get(id)
    }

    /// After a record was opened as session `id`: the one it replaces
    /// (`replaced`) is closed, and others are put aside as the limits say.
    fn opened(&self, id: Option<u64>, replaced: Option<u64>) {
        if let Some(old) = replaced {
            self.close(old);
        }
        self.sessions.sweep(id);
    }

    /// Puts aside the records not used for the idle time and those beyond
    /// the memory budget (see [`ViewOptions::memory_budget`]); the server
    /// does it every few seconds and after each record opened.
    pub fn sweep(&self) {
        self.sessions.sweep(None);
    }

    /// Resolves a page-supplied relative path under the root, refusing
    /// anything that could leave it (`..`, absolute paths, symlinks out).
    fn resolve(&self, rel: &str) -> Result<PathBuf, String> {
        if !self.served {
            return Err(format!(
                "`{rel}`: no folder is served (qipu view was started without a path): start it with a folder or a file to open and save files"
            ));
        }
        let rel_path = Path::new(rel);
        if rel_path.is_absolute()
            || rel_path
                .components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(format!("`{rel}` is not a path under the served directory"));
        }
        let full = self.root.join(rel_path);
        // An existing file (or the directory of a new one) must really be under the root.
        let check = if full.exists() {
            full.clone()
        } else {
            full.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        let canon = check.canonicalize().map_err(|e| format!("{rel}: {e}"))?;
        if !canon.starts_with(&self.root) {
            return Err(format!("`{rel}` is outside the served directory"));
        }
        Ok(full)
    }

    fn new_session(
        &self,
        name: String,
        bytes: impl Into<Arc<[u8]>>,
        text: bool,
        path: Option<(PathBuf, String)>,
    ) -> Result<responses::RecordState, api::ApiError> {
        let bytes: Arc<[u8]> = bytes.into();
        let id = self.sessions.new_id();
        let hint = path
            .as_ref()
            .map(|(p, _)| p.clone())
            .unwrap_or_else(|| PathBuf::from(&name));
        let on_disk = path
            .as_ref()
            .map(|_| sgf_formats::save::Fingerprint::of(&bytes));
        let s = build_session(id, name, bytes, text, &hint)?;
        Ok(self.add_session(s, path, on_disk))
    }

    /// Registers a new session; its state for the page.
    fn add_session(
        &self,
        mut s: Session,
        path: Option<(PathBuf, String)>,
        on_disk: Option<sgf_formats::save::Fingerprint>,
    ) -> responses::RecordState {
        if let Some((p, rel)) = path {
            s.path = Some(p);
            s.rel = Some(rel);
            s.on_disk = on_disk;
        }
        let st = self.whole_state(&s, None);
        self.sessions.insert(s);
        st
    }

    /// A record's state with its diagnostics, and the file list when a
    /// directory is served: what the page shows of a record it opens.
    fn whole_state(&self, s: &Session, tree_version: Option<u64>) -> responses::RecordState {
        let mut st = s.state(tree_version);
        st.diagnostics = Some(s.diagnostics_json());
        st.folder = Some(self.served);
        if self.directory {
            st.files = Some(self.file_list(false).to_vec());
        }
        st
    }

    /// Forgets a session (the page shows another file, or was closed),
    /// in memory or put aside.
    fn close(&self, id: u64) {
        self.sessions.close(id);
    }

    /// Opens file `rel` of the served folder (or a record of an archive
    /// in it, `ARCHIVE!MEMBER`).
    ///
    /// # Errors
    /// When it is not a record file, cannot be read, or is not a game
    /// record (`not_record`, with its `path`).
    fn open_path(&self, rel: &str) -> Result<responses::RecordState, api::ApiError> {
        // `ARCHIVE!MEMBER` where what comes before a `!` names an archive;
        // any other `!` is part of a file's name (`wow!.sgf`).
        if let Some((i, _)) = rel
            .match_indices('!')
            .find(|(i, _)| sgf_formats::walk::is_archive_path(Path::new(&rel[..*i])))
        {
            return self
                .open_member(rel, &rel[..i], &rel[i + 1..])
                .map_err(|e| e.at(rel));
        }
        let full = self.resolve(rel)?;
        if !is_record(&full) {
            return Err(format!("`{rel}` is not a record file").into());
        }
        // Only a regular file is read (a FIFO would block, a device fill
        // memory), and at most `MAX_FILE_BYTES`.
        let bytes =
            read_file(&full, MAX_FILE_BYTES).map_err(|e| format!("{rel}: {}", input_error(&e)))?;
        let name = full
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.new_session(name, bytes, false, Some((full, rel.to_string())))
            .map_err(|e| e.at(rel))
    }

    /// The first file of the served folder's list (`first`, then `rest`)
    /// that opens as a game record, among the first [`START_TRIES`]: a
    /// file that is not one (a text file named `.sgf`, random bytes) is
    /// passed over, as one that cannot be read. When none opens, why
    /// `first` did not.
    fn open_first(
        &self,
        first: &str,
        rest: &[String],
    ) -> Result<responses::RecordState, api::ApiError> {
        let why = match self.open_path(first) {
            Ok(st) => return Ok(st),
            Err(e) => e,
        };
        for rel in rest.iter().take(START_TRIES - 1) {
            if let Ok(st) = self.open_path(rel) {
                return Ok(st);
            }
        }
        Err(why)
    }
}

#[cfg(feature = "server")]
/// The most files of a folder `qipu view DIR` tries before it shows the
/// list without a record (each is read whole to be judged).
const START_TRIES: usize = 64;

#[cfg(feature = "server")]
impl App {
    /// A record file inside an archive of the served directory
    /// (`ARCHIVE!MEMBER`, as the file list names it), opened read-only:
    /// Save asks for "Save as".
    fn open_member(
        &self,
        rel: &str,
        archive: &str,
        member: &str,
    ) -> Result<responses::RecordState, api::ApiError> {
        let full = self.resolve(archive)?;
        if !sgf_formats::walk::is_archive_path(&full) || !is_record(Path::new(member)) {
            return Err(format!("`{rel}` is not a record file").into());
        }
        // Only a regular file, as every file the viewer reads.
        let meta = std::fs::metadata(&full).map_err(|e| format!("{rel}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("`{rel}` is not a record file").into());
        }
        let mut opts = sgf_formats::archive::ArchiveOptions::default();
        opts.max_member_bytes = MAX_FILE_BYTES;
        // The library's one reading of `ARCHIVE!MEMBER`; its words, without
        // the archive's path on disk (the page names it by `rel`).
        let bytes =
            sgf_formats::archive::read_member(&full, member, &opts).map_err(|e| match e.kind {
                sgf_formats::archive::ArchiveErrorKind::NoSuchMember { .. } => {
                    format!("{rel}: no such file or directory")
                }
                _ => format!("{rel}: {}", e.why()),
            })?;
        let name = Path::new(member)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = self.sessions.new_id();
        let mut s = build_session(id, name, bytes, false, Path::new(member))?;
        // Shown as the file list's entry; no file of its own to save into.
        s.rel = Some(rel.to_string());
        Ok(self.add_session(s, None, None))
    }
}

/// Builds the session of a record read from `bytes` (`text`: pasted text,
/// read as UTF-8): a large collection is kept as its bytes, a part parsed
/// at a time; `hint` names the file (its extension tells the format).
///
/// # Errors
/// When a file's bytes are not a game record (the library's judgement,
/// [`sgf_formats::judge`]: an archive, a binary file, bytes that are not
/// text, text without a game tree: `not_record`), or cannot be read. Such
/// a file is never shown as a record, so nothing is ever saved over it.
pub(crate) fn build_session(
    id: u64,
    name: String,
    bytes: impl Into<std::sync::Arc<[u8]>>,
    text: bool,
    hint: &Path,
) -> Result<Session, api::ApiError> {
    // The file's bytes are shared, not copied: memory for one (a document
    // read whole keeps them as its source).
    let bytes: std::sync::Arc<[u8]> = bytes.into();
    // Judged first, as the reader would: a large file of random bytes is
    // then never checked or cut into parts.
    if !text
        && let Err(e) = sgf_formats::builtin().reader_for(&bytes, Some(hint), None)
        && let Some(why) = e.not_record
    {
        return Err(api::ApiError::not_record(&why, &name));
    }
    let bytes = if text || bytes.len() < session::PARTS_FROM_BYTES {
        bytes
    } else {
        match Session::open_collection(id, name.clone(), bytes, hint) {
            Ok(s) => return Ok(s),
            Err(bytes) => bytes,
        }
    };
    let shared = bytes;
    let bytes = &shared[..];
    let mut input = None;
    let (doc, diags, format, charset) = if text {
        let s = String::from_utf8_lossy(bytes);
        let p = sgf_core::parse_str(&s);
        (
            p.document,
            p.diagnostics,
            "SGF".to_string(),
            "UTF-8".to_string(),
        )
    } else {
        let r = read_record(&shared, hint, &name)?;
        if r.converted {
            input = Some((bytes.to_vec(), r.encoding()));
        }
        (
            r.parsed.document,
            r.parsed.diagnostics,
            r.format.to_string(),
            r.charset.to_string(),
        )
    };
    let mut s = Session::new(id, name, doc, diags, format, charset);
    s.input = input;
    s.from_text = text;
    Ok(s)
}

/// Reads `bytes` whole (the file `hint`, `name` in messages) as the
/// library reads a record: bytes that are not a game record (its
/// judgement, [`sgf_formats::judge`]: before reading, and text read fine
/// that holds no game tree, a text file named `.sgf`) are refused with
/// `not_record`, as bytes its reader refuses are.
pub(crate) fn read_record(
    bytes: &std::sync::Arc<[u8]>,
    hint: &Path,
    name: &str,
) -> Result<sgf_formats::Loaded, api::ApiError> {
    let r = sgf_formats::read_any(bytes, Some(hint)).map_err(|e| match &e.not_record {
        Some(why) => api::ApiError::not_record(why, name),
        None => format!("{name}: {}", e.message).into(),
    })?;
    match sgf_formats::judge::of_loaded(&r) {
        Some(why) => Err(api::ApiError::not_record(&why, name)),
        None => Ok(r),
    }
}

#[cfg(feature = "server")]
/// `X.suffix` beside `X`.
pub(crate) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(feature = "server")]
/// Why a file could not be read, for the page.
pub(crate) fn input_error(e: &InputError) -> String {
    match e {
        InputError::TooLarge(limit) => format!(
            "larger than {}, the most the viewer opens; nothing was read",
            sgf_formats::input::human_bytes(*limit)
        ),
        e => e.to_string(),
    }
}

#[cfg(feature = "server")]
type ReadJob = (
    PathBuf,
    u64,
    std::sync::mpsc::Sender<Result<Arc<[u8]>, InputError>>,
);

#[cfg(feature = "server")]
/// Reads a record file: a regular file only, at most `limit` bytes
/// ([`sgf_formats::input::read_file`]: a FIFO or a device is refused at
/// once, never waited on). The buffers are allocated on one thread, so
/// that the allocator reuses the memory of the files closed for the next
/// one (allocated on whichever thread served the request, freed buffers of
/// several megabytes can stay in that thread's arena).
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Arc<[u8]>, InputError> {
    static LOADER: std::sync::OnceLock<Option<Mutex<std::sync::mpsc::Sender<ReadJob>>>> =
        std::sync::OnceLock::new();
    let loader = LOADER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<ReadJob>();
        std::thread::Builder::new()
            .name("qipu-read".into())
            .spawn(move || {
                for (p, limit, reply) in rx {
                    let _ = reply.send(sgf_formats::input::read_file_shared(&p, limit));
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    });
    let (reply, answer) = std::sync::mpsc::channel();
    let sent = loader.as_ref().is_some_and(|l| {
        l.lock()
            .map(|tx| tx.send((path.to_path_buf(), limit, reply)).is_ok())
            .unwrap_or(false)
    });
    match sent.then(|| answer.recv().ok()).flatten() {
        Some(r) => r,
        None => sgf_formats::input::read_file_shared(path, limit),
    }
}

#[cfg(feature = "server")]
/// Every request: the token, a loopback `Host`, and a same-origin `Origin`.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let port = *app.port.lock().unwrap_or_else(|e| e.into_inner());
    let host_ok = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"));
    let origin_ok = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|h| h.to_str().ok())
        .is_none_or(|o| {
            o == format!("http://127.0.0.1:{port}") || o == format!("http://localhost:{port}")
        });
    let token = req
        .headers()
        .get("x-qipu-token")
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| {
            Query::<api::TokenQuery>::try_from_uri(req.uri())
                .ok()
                .and_then(|q| q.0.t)
        });
    let token_ok = token.is_some_and(|t| constant_time_eq(t.as_bytes(), app.token.as_bytes()));
    if !(host_ok && origin_ok && token_ok) {
        return (
            StatusCode::FORBIDDEN,
            "forbidden: open the URL printed by `qipu view`\n",
        )
            .into_response();
    }
    next.run(req).await
}

#[cfg(feature = "server")]
/// The policy of every answer but the page's own (which adds the nonce of
/// its import map to `script-src`, see [`page_policy`]): scripts and
/// styles from the server only, nothing inline.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

#[cfg(feature = "server")]
/// The page's policy: [`POLICY`] with the one inline script it has, the
/// import map, allowed by `nonce`.
pub(crate) fn page_policy(nonce: &str) -> String {
    POLICY.replace(
        "script-src 'self'",
        &format!("script-src 'self' 'nonce-{nonce}'"),
    )
}

#[cfg(feature = "server")]
/// The security headers of every answer, refusals and errors included:
/// not sniffed, no referrer, not cached, not framed, not loaded by
/// another site's page (`Cross-Origin-Resource-Policy`: a page elsewhere
/// cannot even load an image of the viewer to find it), and the content
/// policy (kept when the answer set its own).
async fn secure(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        );
    }
    res
}

#[cfg(feature = "server")]
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(feature = "server")]
/// The resident size of this process (Linux), in bytes.
pub fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(feature = "server")]
/// A `Content-Disposition` that downloads as `name` (RFC 6266): an ASCII
/// `filename` for old clients (`"`, `\\`, `%`, controls and other
/// characters as `_`) and the name itself as `filename*`, UTF-8 and
/// percent-encoded. Control characters and `/` are `_` in both.
pub fn attachment(name: &str) -> HeaderValue {
    let name: String = name
        .chars()
        .map(|c| if c.is_control() || c == '/' { '_' } else { c })
        .collect();
    let ascii: String = name
        .chars()
        .map(|c| match c {
            ' '..='~' if !matches!(c, '"' | '\\' | '%') => c,
            _ => '_',
        })
        .collect();
    let mut encoded = String::with_capacity(name.len() * 3);
    for b in name.bytes() {
        // RFC 8187's attr-char is written as it is; every other byte as %XX.
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

#[cfg(feature = "server")]
/// The router of the app (used by the server and by in-process tests).
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route("/api/start", post(routes::start))
        .route("/api/open", post(routes::open))
        .route("/api/upload", post(routes::upload))
        .route("/api/close", post(routes::close))
        .route("/api/memory", get(routes::memory))
        .route("/api/state", get(routes::state))
        .route("/api/tree", get(routes::tree))
        .route("/api/nav", post(routes::nav))
        .route("/api/edit", post(routes::edit))
        .route("/api/save", post(routes::save))
        .route("/api/files", get(routes::files))
        .route("/api/repair", post(routes::repair_preview))
        .route("/api/games", post(routes::games))
        .route("/api/games/search", post(routes::games_search))
        .route("/api/export", get(routes::export))
        .route("/api/figures", get(routes::figures_page))
        .route("/api/engines", get(routes::engines))
        .route("/api/engine", post(routes::engine))
        .route("/api/engine/analysis", get(routes::engine_analysis))
        .route("/api/count", post(routes::count))
        .route("/api/db/info", get(db::info))
        .route("/api/db/search", post(routes::db_search))
        .route("/api/db/open", post(db::open));
    // Everything, the icon included, wants the token: without it nothing
    // tells a viewer from any other server.
    assets::routes(api)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found") })
        .layer(middleware::from_fn(secure))
}

#[cfg(feature = "server")]
/// Builds the shared state for `opts`.
///
/// # Errors
/// When the path does not exist, or names something other than a
/// directory or a regular file (a FIFO, a device), or a file larger than
/// [`MAX_FILE_BYTES`].
pub fn app(opts: &ViewOptions) -> Result<Arc<App>, String> {
    // `ARCHIVE!MEMBER` (no file of that whole name): the archive's folder
    // served, the member opened.
    let member = opts
        .path
        .as_deref()
        .and_then(Path::to_str)
        .and_then(sgf_formats::archive::split_member_path)
        .filter(|(a, _)| sgf_formats::walk::is_archive_path(a));
    let (root, initial, directory) = match &opts.path {
        Some(_) if member.is_some() => {
            let (archive, m) = member.unwrap_or((Path::new(""), ""));
            let (dir, name) = archive_in_folder(archive)?;
            (dir, Some(Initial::Member(format!("{name}!{m}"))), true)
        }
        Some(p) if p.is_dir() => (
            p.canonicalize()
                .map_err(|e| format!("{}: {e}", p.display()))?,
            None,
            true,
        ),
        Some(p) => {
            // A regular file only: a FIFO would block the first read, a
            // device fill memory.
            let meta = sgf_formats::input::check_regular(p).map_err(|e| match e {
                InputError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    format!("{}: no such file or directory", p.display())
                }
                e => format!("{}: {e}", p.display()),
            })?;
            if meta.len() > MAX_FILE_BYTES {
                return Err(format!(
                    "{}: {}",
                    p.display(),
                    input_error(&InputError::TooLarge(MAX_FILE_BYTES))
                ));
            }
            if sgf_formats::walk::is_archive_path(p) {
                // An archive: its folder served, its first record opened.
                let (dir, name) = archive_in_folder(p)?;
                (dir, Some(Initial::Archive(name)), true)
            } else {
                let f = p
                    .canonicalize()
                    .map_err(|e| format!("{}: {e}", p.display()))?;
                let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
                (dir, Some(Initial::File(f)), false)
            }
        }
        // No path: the bundled example, and no folder served (`served`).
        None => (PathBuf::new(), None, false),
    };
    Ok(Arc::new(App {
        token: opts.token.clone().unwrap_or_else(random_token),
        root,
        initial,
        directory,
        served: opts.path.is_some(),
        port: Mutex::new(opts.port),
        sessions: sessions::Table::new(
            opts.memory_budget,
            opts.idle_timeout,
            opts.recovery_dir.clone(),
        ),
        files: Mutex::new(None),
        db: db::Db::new(opts.db.clone()),
        confirmed: opts
            .confirmed_engines
            .clone()
            .or_else(confirmed::default_path),
    }))
}

#[cfg(feature = "server")]
/// The folder of the archive `p` (canonical) and the archive's name in it.
fn archive_in_folder(p: &Path) -> Result<(PathBuf, String), String> {
    sgf_formats::input::check_regular(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let f = p
        .canonicalize()
        .map_err(|e| format!("{}: {e}", p.display()))?;
    let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = f
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((dir, name))
}

#[cfg(feature = "server")]
/// Starts the server; calls `ready` with the URL to open, then serves until stopped.
///
/// # Errors
/// When the path does not exist or the port cannot be bound.
pub fn serve(opts: &ViewOptions, ready: impl FnOnce(&str)) -> Result<(), String> {
    let app = app(opts)?;
    // Records not used for the idle time are put aside even when no
    // request comes: checked every quarter of it (1 to 30 seconds).
    let every = opts
        .idle_timeout
        .map_or(std::time::Duration::from_secs(30), |d| d / 4)
        .clamp(
            std::time::Duration::from_secs(1),
            std::time::Duration::from_secs(30),
        );
    let weak = Arc::downgrade(&app);
    // Without a thread the limits still hold at each record opened.
    let _ = std::thread::Builder::new()
        .name("qipu-sweep".into())
        .spawn(move || {
            loop {
                std::thread::sleep(every);
                match weak.upgrade() {
                    Some(app) => app.sweep(),
                    None => break,
                }
            }
        });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], opts.port)))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", opts.port))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        *app.port.lock().map_err(|_| "internal lock")? = port;
        let url = format!("http://127.0.0.1:{port}/?t={}", app.token);
        ready(&url);
        axum::serve(listener, router(app))
            .await
            .map_err(|e| e.to_string())
    })
}

#[cfg(feature = "server")]
/// The response body as text (for in-process tests).
pub async fn body_text(res: Response) -> String {
    let bytes = axum::body::to_bytes(res.into_body(), MAX_BODY)
        .await
        .unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(feature = "server")]
/// A request for in-process tests.
pub fn request(
    method: &str,
    uri: &str,
    port: u16,
    token: Option<&str>,
    body: Option<Value>,
) -> Request {
    let mut b = axum::http::Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, format!("127.0.0.1:{port}"));
    if let Some(t) = token {
        b = b.header("x-qipu-token", t);
    }
    match body {
        Some(v) => b
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(v.to_string()))
            .unwrap_or_default(),
        None => b.body(Body::empty()).unwrap_or_default(),
    }
}
