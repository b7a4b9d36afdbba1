//! # sgf-web: the local viewer and editor behind `qipu view`
//!
//! A small HTTP server on 127.0.0.1 serving a single page (embedded in the
//! binary) and a JSON API over the Qipu library: the library parses,
//! replays, draws the board and writes files; the page only shows and forwards.
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

mod db;
mod session;
mod sessions;

use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use sgf_formats::input::InputError;
use sgf_formats::save::{Fingerprint, SaveError, SaveOptions, replace_file};

pub use session::Session;
pub use sessions::{DEFAULT_IDLE_TIMEOUT, DEFAULT_MEMORY_BUDGET};

/// The most bytes a request body may have (an uploaded record).
pub const MAX_BODY: usize = 32 << 20;

/// The largest record file the viewer opens: 32 MiB.
pub const MAX_FILE_BYTES: u64 = MAX_BODY as u64;

static INDEX: &str = include_str!("../assets/index.html");
static APP_JS: &str = include_str!("../assets/app.js");
static APP_CSS: &str = include_str!("../assets/app.css");

/// The page's translations (English is the key), one file a language.
static I18N: [(&str, &str); 4] = [
    ("zh-Hans", include_str!("../assets/i18n/zh-Hans.json")),
    ("zh-Hant", include_str!("../assets/i18n/zh-Hant.json")),
    ("ja", include_str!("../assets/i18n/ja.json")),
    ("ko", include_str!("../assets/i18n/ko.json")),
];
/// The record shown when `qipu view` is started without a path.
pub static EXAMPLE: &[u8] = include_bytes!("../../../examples/qipu-example.sgf");

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
}

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
        }
    }
}

/// The server's shared state.
pub struct App {
    token: String,
    /// Directory under which files may be read and written.
    root: PathBuf,
    /// The file to open first, if a file was given.
    initial: Option<PathBuf>,
    /// Whether a directory was given (the page shows a file list).
    directory: bool,
    port: Mutex<u16>,
    /// The records open, one lock each: a slow request on one record (a
    /// large PNG, a big file's tree) never waits on another's. Put aside
    /// after a time without use and beyond the memory budget.
    sessions: sessions::Table,
    /// The directory listing, walked once and again only when asked for
    /// (`/api/files`) or after a save.
    files: Mutex<Option<Arc<Vec<String>>>>,
    db: db::Db,
}

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

/// The most files the viewer lists in a directory.
const MAX_LISTED: usize = 100_000;

/// Record files under `dir` (the library's walker: links leaving `dir` are
/// not followed, loops end), as relative paths with `/`.
fn list_records(dir: &Path) -> Vec<String> {
    let opts = sgf_formats::walk::WalkOptions::default().with_max_files(MAX_LISTED);
    let Ok(walk) = sgf_formats::walk::walk_dir(dir, &opts) else {
        return Vec::new();
    };
    let mut list: Vec<String> = walk
        .files
        .iter()
        .filter_map(|p| p.strip_prefix(dir).ok())
        .map(|rel| rel.to_string_lossy().replace('\\', "/"))
        .collect();
    // Shown by path, as a file tree reads.
    list.sort();
    list
}

fn is_record(p: &Path) -> bool {
    sgf_formats::walk::is_record_path(p)
}

/// Runs a request's work on the blocking pool, so that the async thread
/// that accepts connections is never held by parsing, drawing or disk I/O.
async fn blocking<F: FnOnce() -> Response + Send + 'static>(f: F) -> Response {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|_| (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response())
}

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
        bytes: Vec<u8>,
        text: bool,
        path: Option<(PathBuf, String)>,
    ) -> Result<Value, String> {
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
    ) -> Value {
        if let Some((p, rel)) = path {
            s.path = Some(p);
            s.rel = Some(rel);
            s.on_disk = on_disk;
        }
        let mut st = s.state(None);
        st["diagnostics"] = s.diagnostics_json();
        if self.directory {
            st["files"] = json!(*self.file_list(false));
        }
        self.sessions.insert(s);
        st
    }

    /// Forgets a session (the page shows another file, or was closed),
    /// in memory or put aside.
    fn close(&self, id: u64) {
        self.sessions.close(id);
    }

    fn open_path(&self, rel: &str) -> Result<Value, String> {
        let full = self.resolve(rel)?;
        if !is_record(&full) {
            return Err(format!("`{rel}` is not a record file"));
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
    }
}

/// Builds the session of a record read from `bytes` (`text`: pasted text,
/// read as UTF-8): a large collection is kept as its bytes, a part parsed
/// at a time; `hint` names the file (its extension tells the format).
pub(crate) fn build_session(
    id: u64,
    name: String,
    bytes: Vec<u8>,
    text: bool,
    hint: &Path,
) -> Result<Session, String> {
    // The file's bytes are moved, not copied: memory for one.
    let bytes = if text || bytes.len() < session::PARTS_FROM_BYTES {
        bytes
    } else {
        match Session::open_collection(id, name.clone(), bytes, hint) {
            Ok(s) => return Ok(s),
            Err(bytes) => bytes,
        }
    };
    let bytes = &bytes[..];
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
        let r = sgf_formats::read_any(bytes, Some(hint))
            .map_err(|e| format!("{name}: {}", e.message))?;
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

/// `X.suffix` beside `X`.
pub(crate) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

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

type ReadJob = (
    PathBuf,
    u64,
    std::sync::mpsc::Sender<Result<Vec<u8>, InputError>>,
);

/// Reads a record file: a regular file only, at most `limit` bytes
/// ([`sgf_formats::input::read_file`]: a FIFO or a device is refused at
/// once, never waited on). The buffers are allocated on one thread, so
/// that the allocator reuses the memory of the files closed for the next
/// one (allocated on whichever thread served the request, freed buffers of
/// several megabytes can stay in that thread's arena).
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    static LOADER: std::sync::OnceLock<Option<Mutex<std::sync::mpsc::Sender<ReadJob>>>> =
        std::sync::OnceLock::new();
    let loader = LOADER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<ReadJob>();
        std::thread::Builder::new()
            .name("qipu-read".into())
            .spawn(move || {
                for (p, limit, reply) in rx {
                    let _ = reply.send(sgf_formats::input::read_file(&p, limit));
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
        None => sgf_formats::input::read_file(path, limit),
    }
}

/// An error for the page: `{"error"}`, with `error_kind` `no_session`
/// when the record is not open any more (the page reads its file again).
fn error_json(e: String) -> Value {
    if e.starts_with(sessions::NO_SESSION) {
        json!({ "error": e, "error_kind": "no_session" })
    } else {
        json!({ "error": e })
    }
}

fn json_response(v: Result<Value, String>) -> Response {
    match v {
        Ok(v) => (StatusCode::OK, axum::Json(v)).into_response(),
        Err(e) => (StatusCode::BAD_REQUEST, axum::Json(error_json(e))).into_response(),
    }
}

fn query_param<'a>(req_query: Option<&'a str>, key: &str) -> Option<&'a str> {
    req_query?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == key).then_some(v)
    })
}

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
        .or_else(|| query_param(req.uri().query(), "t"));
    let token_ok = token.is_some_and(|t| constant_time_eq(t.as_bytes(), app.token.as_bytes()));
    if !(host_ok && origin_ok && token_ok) {
        return (
            StatusCode::FORBIDDEN,
            "forbidden: open the URL printed by `qipu view`\n",
        )
            .into_response();
    }
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"),
    );
    res
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn index(State(app): State<Arc<App>>) -> Response {
    let html = INDEX.replace("{{TOKEN}}", &app.token);
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

async fn app_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
        .into_response()
}

async fn i18n(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    let lang = file.strip_suffix(".json").unwrap_or(&file);
    match I18N.iter().find(|(l, _)| *l == lang) {
        Some((_, json)) => (
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            *json,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such language").into_response(),
    }
}

async fn app_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS).into_response()
}

fn body_json(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("bad request: {e}"))
}

/// Opens what the command line named (or the example).
async fn start(State(app): State<Arc<App>>) -> Response {
    blocking(move || start_blocking(&app)).await
}

fn start_blocking(app: &App) -> Response {
    let r = match &app.initial {
        Some(p) => {
            let rel = p
                .strip_prefix(&app.root)
                .map(|r| r.to_string_lossy().into_owned())
                .unwrap_or_default();
            app.open_path(&rel)
        }
        None if app.directory => {
            // A directory: open its first record, or the example when it has none.
            match app.file_list(false).first() {
                Some(f) => app.open_path(f),
                None => app.new_session("qipu-example.sgf".into(), EXAMPLE.to_vec(), false, None),
            }
        }
        None => app.new_session("qipu-example.sgf".into(), EXAMPLE.to_vec(), false, None),
    };
    app.opened(r.as_ref().ok().and_then(|st| st["session"].as_u64()), None);
    json_response(r)
}

async fn open(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || open_blocking(&app, &body)).await
}

fn open_blocking(app: &App, body: &[u8]) -> Response {
    let r = (|| {
        let req = body_json(body)?;
        let r = open_request(app, &req);
        // `replace`: the session the page showed before, now freed.
        if let Ok(st) = &r {
            app.opened(st["session"].as_u64(), req["replace"].as_u64());
        }
        r
    })();
    json_response(r)
}

/// The server's memory: `{"sessions", "held_bytes", "rss_bytes",
/// "parked", "parked_unsaved", "budget_bytes", "idle_seconds",
/// "recovery_dir"}` — the records in memory, the heap bytes they hold
/// (files, parsed parts, undo), the process's resident size where `/proc`
/// tells it, the records put aside (of which those whose work is in the
/// recovery folder), the memory budget, the idle time, and the recovery
/// folder once made.
async fn memory(State(app): State<Arc<App>>) -> Response {
    blocking(move || {
        let held: usize = app
            .sessions
            .live_sessions()
            .iter()
            .map(|s| lock(s).held_bytes())
            .sum();
        let mut v = app.sessions.memory_json();
        v["held_bytes"] = json!(held);
        v["rss_bytes"] = json!(rss_bytes());
        json_response(Ok(v))
    })
    .await
}

/// The resident size of this process (Linux), in bytes.
pub fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Frees a session: `{"session": id}` (the page was closed).
async fn close(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    // On the blocking pool: freeing a large record, or waiting for one
    // being read back, never holds up the thread that accepts connections.
    blocking(move || {
        let r = body_json(&body).and_then(|req| {
            let id = req["session"].as_u64().ok_or("session expected")?;
            app.close(id);
            Ok(json!({"closed": id}))
        });
        json_response(r)
    })
    .await
}

fn open_request(app: &App, req: &Value) -> Result<Value, String> {
    {
        if let Some(p) = req["path"].as_str() {
            return app.open_path(p);
        }
        let name = req["name"].as_str().unwrap_or("untitled.sgf").to_string();
        if let Some(t) = req["text"].as_str() {
            return app.new_session(name, t.as_bytes().to_vec(), true, None);
        }
        if let Some(b) = req["data_b64"].as_str() {
            let bytes = base64_decode(b).ok_or("bad base64 data")?;
            return app.new_session(name, bytes, false, None);
        }
        Err("nothing to open".to_string())
    }
}

fn with_session<F: FnOnce(&mut Session, &Value) -> Result<(), String>>(
    app: &App,
    body: &[u8],
    f: F,
) -> Result<Value, String> {
    let req = body_json(body)?;
    let id = req["session"].as_u64().ok_or("session expected")?;
    let session = app.session(id)?;
    let mut s = session.lock().map_err(|_| "internal lock")?;
    let s = &mut *s;
    if let Some(n) = req["numbers"].as_bool() {
        s.numbers = n;
    }
    if let Some(d) = req["dark"].as_bool() {
        s.dark = d;
    }
    let r = f(s, &req);
    s.engine_sync();
    let mut st = s.state(req["tree_version"].as_u64());
    if let Err(e) = r {
        st["message"] = json!(e);
        st["error_kind"] = json!("refused");
    }
    Ok(st)
}

async fn nav(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || {
        json_response(with_session(&app, &body, |s, req| {
            s.nav(req["action"].as_str().unwrap_or(""), req)
        }))
    })
    .await
}

async fn edit(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || {
        json_response(with_session(&app, &body, |s, req| {
            s.edit(req["op"].as_str().unwrap_or(""), req)
        }))
    })
    .await
}

async fn state(State(app): State<Arc<App>>, req: Request) -> Response {
    let q = req.uri().query().map(str::to_string);
    let id = query_param(q.as_deref(), "session")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0u64);
    let tv = query_param(q.as_deref(), "tree_version").and_then(|v| v.parse().ok());
    let numbers = query_param(q.as_deref(), "numbers").map(|v| v == "true");
    let dark = query_param(q.as_deref(), "dark").map(|v| v == "true");
    blocking(move || {
        let r = (|| {
            let session = app.session(id)?;
            let mut s = session.lock().map_err(|_| "internal lock")?;
            if let Some(n) = numbers {
                s.numbers = n;
            }
            if let Some(d) = dark {
                s.dark = d;
            }
            s.engine_sync();
            let mut st = s.state(tv);
            st["diagnostics"] = s.diagnostics_json();
            if app.directory {
                st["files"] = json!(*app.file_list(false));
            }
            Ok(st)
        })();
        json_response(r)
    })
    .await
}

async fn save(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || save_blocking(&app, &body)).await
}

/// A save refused: the message, and a kind the page acts on
/// (`changed_on_disk`: offer reload, overwrite or save as; `read_only`).
fn save_error(e: SaveError, rel: &str) -> Value {
    let kind = match e {
        SaveError::ChangedOnDisk => "changed_on_disk",
        SaveError::ReadOnly => "read_only",
        _ => "refused",
    };
    let message = match e {
        SaveError::ChangedOnDisk => format!(
            "{rel} was changed on disk by another program since it was opened: reload it, overwrite it, or save as another file"
        ),
        SaveError::ReadOnly => format!("{rel} is read-only: use \"Save as\""),
        e => format!("{rel} not saved: {e}"),
    };
    json!({"error": message, "error_kind": kind})
}

fn save_blocking(app: &App, body: &[u8]) -> Response {
    let r = (|| -> Result<Value, Value> {
        let err = error_json;
        let req = body_json(body).map_err(err)?;
        let id = req["session"]
            .as_u64()
            .ok_or_else(|| err("session expected".into()))?;
        let session = app.session(id).map_err(err)?;
        let mut s = session.lock().map_err(|_| err("internal lock".into()))?;
        // `force`: the user chose to overwrite a file changed on disk.
        let force = req["force"].as_bool().unwrap_or(false);
        match req["mode"].as_str() {
            Some("lossless") => {
                let path = s
                    .path
                    .clone()
                    .ok_or_else(|| err("this record has no file: use \"Save as\"".into()))?;
                let rel = s.rel.clone().unwrap_or_default();
                // The target must still be a regular file under the root.
                app.resolve(&rel).map_err(err)?;
                let bytes = s.lossless_bytes().map_err(err)?;
                // A record read back after it was put aside has its bytes
                // as first read on disk or in the recovery folder (gone
                // since: no `.orig`; the `.bak` still keeps what is
                // replaced).
                let aside = s.original_aside.as_ref().map(|o| o.bytes(&path));
                let mut opts = SaveOptions::default();
                opts.backup = true;
                opts.original = match &aside {
                    None => Some(s.original()),
                    Some(b) => b.as_deref(),
                };
                opts.expected = if force { None } else { s.on_disk };
                let saved = replace_file(&path, &bytes, &opts).map_err(|e| save_error(e, &rel))?;
                s.on_disk = Some(Fingerprint::of(&bytes));
                s.dirty = false;
                Ok(json!({
                    "saved": rel,
                    "backup": saved.backup.as_deref().and_then(|b| app.relative(b)),
                    "original": saved.original.as_deref().and_then(|b| app.relative(b)),
                    "bytes": bytes.len(),
                }))
            }
            Some("canonical") => {
                let rel = req["path"]
                    .as_str()
                    .ok_or_else(|| err("a file name is needed".into()))?;
                let rel = if rel.to_ascii_lowercase().ends_with(".sgf") {
                    rel.to_string()
                } else {
                    format!("{rel}.sgf")
                };
                let full = app.resolve(&rel).map_err(err)?;
                let bytes = s.canonical_bytes();
                // Whatever is replaced is kept as .bak.
                let mut opts = SaveOptions::default();
                opts.backup = true;
                let saved = replace_file(&full, &bytes, &opts).map_err(|e| save_error(e, &rel))?;
                s.reopen_as(&bytes, full, rel.clone());
                s.on_disk = Some(Fingerprint::of(&bytes));
                drop(s);
                app.file_list(true);
                Ok(json!({
                    "saved": rel,
                    "backup": saved.backup.as_deref().and_then(|b| app.relative(b)),
                    "bytes": bytes.len(),
                }))
            }
            _ => Err(err("mode must be lossless or canonical".into())),
        }
    })();
    match r {
        Ok(v) => (StatusCode::OK, axum::Json(v)).into_response(),
        Err(v) => (StatusCode::BAD_REQUEST, axum::Json(v)).into_response(),
    }
}

/// What the repair would change: `{"changes": […]}` (see
/// [`Session::repair_preview`]); `/api/edit` with `op: "repair"` applies it.
/// A question about a session that changes nothing: the request's JSON
/// (with `session`) and the session, locked, give the answer.
async fn query_session(
    app: Arc<App>,
    body: axum::body::Bytes,
    f: impl FnOnce(&Session, &Value) -> Result<Value, String> + Send + 'static,
) -> Response {
    blocking(move || {
        let r = (|| {
            let req = body_json(&body)?;
            let id = req["session"].as_u64().ok_or("session expected")?;
            let session = app.session(id)?;
            let s = session.lock().map_err(|_| "internal lock")?;
            f(&s, &req)
        })();
        json_response(r)
    })
    .await
}

async fn repair_preview(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    query_session(app, body, |s, req| {
        let level = req["variation_level"].as_bool().unwrap_or(false);
        Ok(json!({ "changes": s.repair_preview(level) }))
    })
    .await
}

/// The game list of a session (see `Session::game_list`).
async fn games(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    query_session(app, body, |s, _| {
        Ok(json!({ "games": s.game_list(), "game": s.game() }))
    })
    .await
}

/// The games whose game information or comments hold `q`.
async fn games_search(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    query_session(app, body, |s, req| {
        let q = req["q"].as_str().ok_or("q expected")?;
        Ok(json!({ "matches": s.search_games(q) }))
    })
    .await
}

async fn files(State(app): State<Arc<App>>) -> Response {
    blocking(move || {
        let list = if app.directory {
            app.file_list(true)
        } else {
            Arc::new(Vec::new())
        };
        json_response(Ok(json!({"files": *list})))
    })
    .await
}

async fn export(State(app): State<Arc<App>>, req: Request) -> Response {
    let q = req.uri().query().map(str::to_string);
    blocking(move || export_blocking(&app, q.as_deref())).await
}

/// The game's figures as one HTML page (what `qipu figures` writes, the
/// pictures inline): a new figure at each `FG` and every `every` moves.
async fn figures_page(State(app): State<Arc<App>>, req: Request) -> Response {
    let q = req.uri().query().map(str::to_string);
    blocking(move || {
        let q = q.as_deref();
        let id = query_param(q, "session")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0u64);
        let every = query_param(q, "every")
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&n| n > 0);
        let session = match app.session(id) {
            Ok(s) => s,
            Err(e) => return (StatusCode::NOT_FOUND, e).into_response(),
        };
        let Ok(s) = session.lock() else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        let doc = s.document();
        let game = s.local_game();
        let opts = sgf_render::FigureOptions {
            every,
            ..Default::default()
        };
        let figs = sgf_render::figures(doc, game, &opts);
        let stem = s
            .name
            .rsplit_once('.')
            .map_or(s.name.as_str(), |x| x.0)
            .to_string();
        let title = sgf_render::figures_title(doc, game, &stem);
        let theme = if s.dark {
            sgf_render::Theme::Dark
        } else {
            sgf_render::Theme::Light
        };
        drop(s);
        let html = sgf_render::figures_html(&title, &figs, sgf_render::Pictures::InlineSvg(theme));
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    attachment(&format!("{stem}-figures.html")),
                ),
            ],
            html,
        )
            .into_response()
    })
    .await
}

fn export_blocking(app: &App, q: Option<&str>) -> Response {
    let id = query_param(q, "session")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0u64);
    let format = query_param(q, "format").unwrap_or("svg").to_string();
    let numbers = query_param(q, "numbers") == Some("true");
    let size: u32 = query_param(q, "size")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
        .clamp(64, 4096);
    let session = match app.session(id) {
        Ok(s) => s,
        Err(e) => return (StatusCode::NOT_FOUND, e).into_response(),
    };
    // The diagram is made under the session's lock (quick); drawing it,
    // which can take seconds for a large PNG, is not.
    let made = {
        let Ok(s) = session.lock() else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        let mut opts = s.render_options(numbers);
        opts.status = true;
        let doc = s.document();
        let name = format!(
            "{}-{}",
            s.name.rsplit_once('.').map_or(s.name.as_str(), |x| x.0),
            doc.node(s.node()).number()
        );
        sgf_render::Diagram::at(doc, s.node(), &opts).map(|d| (d, opts, name))
    };
    let (diagram, opts, name) = match made {
        Ok(x) => x,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    // png, jpg/jpeg (`quality`, 1-100) and bmp: the same pixels.
    let image = sgf_render::ImageFormat::from_extension(&format).map(|f| match f {
        sgf_render::ImageFormat::Jpeg { .. } => sgf_render::ImageFormat::Jpeg {
            quality: query_param(q, "quality")
                .and_then(|v| v.parse().ok())
                .unwrap_or(sgf_render::ImageFormat::DEFAULT_JPEG_QUALITY)
                .clamp(1, 100),
        },
        f => f,
    });
    let text = |style| diagram.to_text(&opts, style).into_bytes();
    let (mime, ext, bytes) = match (image, format.as_str()) {
        (Some(image), _) => match diagram.to_image(&opts, size, image) {
            Ok(b) => (image.mime_type(), image.extension(), b),
            Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        },
        // Text diagrams: Sensei's Library's wiki form, or qipu's ASCII.
        (None, "sensei") => (
            "text/plain; charset=utf-8",
            "txt",
            text(sgf_render::TextStyle::Sensei),
        ),
        (None, "txt" | "ascii") => (
            "text/plain; charset=utf-8",
            "txt",
            text(sgf_render::TextStyle::Ascii),
        ),
        (None, _) => ("image/svg+xml", "svg", diagram.to_svg(&opts).into_bytes()),
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (
                header::CONTENT_DISPOSITION,
                attachment(&format!("{name}.{ext}")),
            ),
        ],
        bytes,
    )
        .into_response()
}

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

/// The engines of the user's `engines.toml` (see [`sgf_gtp::spec`]):
/// `{"engines": [{"name", "command"}], "config": path, "error"}`.
async fn engines() -> Response {
    blocking(|| {
        let path = sgf_gtp::config_path();
        let (list, error) = match &path {
            Some(p) if p.is_file() => match sgf_gtp::load_config(p) {
                Ok(l) => (l, None),
                Err(e) => (Vec::new(), Some(e.to_string())),
            },
            _ => (Vec::new(), None),
        };
        let engines: Vec<Value> = list
            .iter()
            .map(|e| json!({"name": e.name, "command": e.command_line()}))
            .collect();
        json_response(Ok(json!({
            "engines": engines,
            "config": path.map(|p| p.display().to_string()),
            "error": error,
        })))
    })
    .await
}

/// Ends an engine taken out of a session (waiting until it has gone when
/// no request still uses it; otherwise the last user's drop ends it).
fn shut_down(old: Option<Arc<sgf_gtp::LiveEngine>>) {
    if let Some(a) = old
        && let Ok(live) = Arc::try_unwrap(a)
    {
        live.shutdown();
    }
}

fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine of a session: `{"session", "action", …}` with `action`
/// `start` (`engine`: a name from engines.toml or a command line), `stop`,
/// `analyse` (`on`), `play` (`color` the engine plays, `level`), `move`
/// (the engine plays for the player to move, by the edit a user's move
/// takes) or `new_game` (`size`, `handicap`, `komi`, `color`, `level`: a
/// new record against the engine, which moves to it). Answers the
/// session's state; an engine's failure is its `message`, never an error
/// of the server.
async fn engine(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || json_response(engine_blocking(&app, &body))).await
}

fn engine_blocking(app: &App, body: &[u8]) -> Result<Value, String> {
    let req = body_json(body)?;
    let id = req["session"].as_u64().ok_or("session expected")?;
    let session = app.session(id)?;
    let action = req["action"].as_str().unwrap_or("");
    // What to tell the user, and whether it is a failure.
    let mut note: Option<(String, bool)> = None;
    match action {
        "start" => {
            let text = req["engine"].as_str().unwrap_or("").trim();
            if text.is_empty() {
                return Err("name an engine of engines.toml or give its command line".into());
            }
            let started = sgf_gtp::EngineSpec::resolve(text)
                .and_then(|spec| sgf_gtp::LiveEngine::start(&spec));
            match started {
                Ok(live) => {
                    let name = live.spec().name.clone();
                    let old = lock(&session).set_engine(Some(Arc::new(live)));
                    shut_down(old);
                    note = Some((format!("{name} is ready"), false));
                }
                Err(e) => note = Some((e.to_string(), true)),
            }
        }
        "stop" => {
            let old = lock(&session).set_engine(None);
            shut_down(old);
        }
        "analyse" | "play" => {
            if let Err(e) = lock(&session).engine_action(action, &req) {
                note = Some((e, true));
            }
        }
        "move" => {
            let asked = {
                let s = lock(&session);
                s.engine()
                    .ok_or_else(|| "no engine is running".to_string())
                    .and_then(|l| {
                        let line = s.engine_line().ok_or("no position")?;
                        Ok((l, line, s.node()))
                    })
            };
            // The engine thinks without the session's lock: the page stays usable.
            note = Some(match asked {
                Err(e) => (e, true),
                Ok((live, line, node)) => match live.genmove(line.clone()) {
                    Ok(mv) => {
                        match lock(&session).engine_played(node, &line, mv, &live.spec().name) {
                            Ok(m) => (m, false),
                            Err(e) => (e, true),
                        }
                    }
                    Err(e) => (e.to_string(), true),
                },
            });
        }
        "new_game" => return new_game(app, &session, id, &req),
        _ => return Err(format!("unknown engine action `{action}`")),
    }
    let mut s = lock(&session);
    s.engine_sync();
    let mut st = s.state(req["tree_version"].as_u64());
    if let Some((m, failed)) = note {
        st["message"] = json!(m);
        if failed {
            st["error_kind"] = json!("refused");
        }
    }
    Ok(st)
}

/// A new record against the session's engine, which moves to it; the old
/// session is closed (the page asked about unsaved changes).
fn new_game(app: &App, session: &Mutex<Session>, id: u64, req: &Value) -> Result<Value, String> {
    let color = match req["color"].as_str() {
        Some("B") => Some(sgf_core::Color::Black),
        Some("W") => Some(sgf_core::Color::White),
        _ => None,
    };
    let size = req["size"].as_u64().unwrap_or(19).min(255) as u8;
    let handicap = req["handicap"].as_u64().unwrap_or(0).min(99) as u32;
    let komi = req["komi"].as_f64().unwrap_or(6.5);
    let name = lock(session)
        .engine()
        .map(|l| l.spec().name.clone())
        .ok_or("start an engine first")?;
    let sgf = session::new_game_sgf(size, handicap, komi, color, &name)?;
    let st = app.new_session(format!("vs-{name}.sgf"), sgf.into_bytes(), true, None)?;
    let new_id = st["session"].as_u64().ok_or("internal: no session")?;
    let live = lock(session).set_engine(None);
    let fresh = app.session(new_id)?;
    let mut s = lock(&fresh);
    s.set_engine(live);
    let mut play = json!({"color": req["color"]});
    if let Some(l) = req["level"].as_u64() {
        play["level"] = json!(l);
    }
    let r = s.engine_action("play", &play);
    s.engine_sync();
    let mut st = s.state(None);
    st["diagnostics"] = s.diagnostics_json();
    drop(s);
    app.opened(Some(new_id), Some(id));
    if let Err(e) = r {
        st["message"] = json!(e);
        st["error_kind"] = json!("refused");
    }
    Ok(st)
}

/// The latest analysis of the position shown and the win-rate graph of
/// the line shown (see `Session::analysis_json`): `GET
/// /api/engine/analysis?session=ID`, polled by the page.
async fn engine_analysis(State(app): State<Arc<App>>, req: Request) -> Response {
    let q = req.uri().query().map(str::to_string);
    blocking(move || {
        let r = (|| {
            let id = query_param(q.as_deref(), "session")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0u64);
            let session = app.session(id)?;
            let mut s = lock(&session);
            Ok(s.analysis_json())
        })();
        json_response(r)
    })
    .await
}

/// Counting the position shown: `{"session", "action", …}` with `action`
/// `start` (`source`: `engine` for its `final_status_list dead`,
/// `estimator` for Qipu's, `marks` for the record's TB/TW, `auto` for the
/// engine when one runs, else the marks, else the estimator), `toggle`
/// (`point`: a group dead or alive again), `rules` (`rules`), `stop`.
/// Answers the session's state, whose `count` holds the score.
async fn count(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    blocking(move || json_response(count_blocking(&app, &body))).await
}

fn count_blocking(app: &App, body: &[u8]) -> Result<Value, String> {
    let req = body_json(body)?;
    let id = req["session"].as_u64().ok_or("session expected")?;
    let session = app.session(id)?;
    let action = req["action"].as_str().unwrap_or("");
    let mut failure: Option<String> = None;
    if action == "start" {
        let source = req["source"].as_str().unwrap_or("auto");
        let live = lock(&session).engine();
        let by_engine = source == "engine" || (source == "auto" && live.is_some());
        match (by_engine, live) {
            (false, _) => lock(&session).count_without_engine(source),
            (true, None) => {
                failure =
                    Some("no engine is running: start one, or count with Qipu's estimator".into())
            }
            (true, Some(live)) => {
                let (line, pos, node) = {
                    let s = lock(&session);
                    (s.engine_line(), s.position(), s.node())
                };
                let line = line.ok_or("no position")?;
                match live.dead_stones(line, pos) {
                    Ok((dead, dame)) => {
                        let mut s = lock(&session);
                        if s.node() == node {
                            s.count_start(dead, dame, sgf_go::score::DeadFrom::Engine);
                        }
                    }
                    Err(e) => failure = Some(e.to_string()),
                }
            }
        }
    } else if let Err(e) = lock(&session).count_action(action, &req) {
        failure = Some(e);
    }
    let mut s = lock(&session);
    s.engine_sync();
    let mut st = s.state(req["tree_version"].as_u64());
    if let Some(m) = failure {
        st["message"] = json!(m);
        st["error_kind"] = json!("refused");
    }
    Ok(st)
}

fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        let k = chunk.len();
        if k < 2 {
            return None;
        }
        out.push((n >> 16) as u8);
        if k > 2 {
            out.push((n >> 8) as u8);
        }
        if k > 3 {
            out.push(n as u8);
        }
    }
    Some(out)
}

/// The router of the app (used by the server and by in-process tests).
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/i18n/{file}", get(i18n))
        .route("/app.css", get(app_css))
        .route("/api/start", post(start))
        .route("/api/open", post(open))
        .route("/api/close", post(close))
        .route("/api/memory", get(memory))
        .route("/api/state", get(state))
        .route("/api/nav", post(nav))
        .route("/api/edit", post(edit))
        .route("/api/save", post(save))
        .route("/api/files", get(files))
        .route("/api/repair", post(repair_preview))
        .route("/api/games", post(games))
        .route("/api/games/search", post(games_search))
        .route("/api/export", get(export))
        .route("/api/figures", get(figures_page))
        .route("/api/engines", get(engines))
        .route("/api/engine", post(engine))
        .route("/api/engine/analysis", get(engine_analysis))
        .route("/api/count", post(count))
        .route("/search.js", get(db::search_js))
        .route("/api/db/info", get(db::info))
        .route("/api/db/search", post(db::search))
        .route("/api/db/open", post(db::open))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found") })
}

/// Builds the shared state for `opts`.
///
/// # Errors
/// When the path does not exist, or names something other than a
/// directory or a regular file (a FIFO, a device), or a file larger than
/// [`MAX_FILE_BYTES`].
pub fn app(opts: &ViewOptions) -> Result<Arc<App>, String> {
    let (root, initial, directory) = match &opts.path {
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
            let f = p
                .canonicalize()
                .map_err(|e| format!("{}: {e}", p.display()))?;
            let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
            (dir, Some(f), false)
        }
        None => (
            std::env::current_dir()
                .and_then(|d| d.canonicalize())
                .map_err(|e| e.to_string())?,
            None,
            false,
        ),
    };
    Ok(Arc::new(App {
        token: opts.token.clone().unwrap_or_else(random_token),
        root,
        initial,
        directory,
        port: Mutex::new(opts.port),
        sessions: sessions::Table::new(
            opts.memory_budget,
            opts.idle_timeout,
            opts.recovery_dir.clone(),
        ),
        files: Mutex::new(None),
        db: db::Db::new(opts.db.clone()),
    }))
}

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

/// The response body as text (for in-process tests).
pub async fn body_text(res: Response) -> String {
    let bytes = axum::body::to_bytes(res.into_body(), MAX_BODY)
        .await
        .unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

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
