//! The handlers of the JSON API (see [`crate::api`] for what each reads).
//! Each reads its request through a typed extractor, does its work on the
//! blocking pool (parsing, drawing and disk I/O never hold the thread that
//! accepts connections), and answers the record's state or a small object.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sgf_formats::input::InputError;
use sgf_formats::save::{Fingerprint, SaveError, SaveOptions, replace_file};

use crate::api::{
    ApiError, Body, CountAction, DbSearch, EditRequest, EngineAction, ExportQuery, FiguresQuery,
    GameSearch, Nav, On, Open, OpenRequest, Params, Player, RepairPreview, Save, SessionQuery,
    SessionRef, StateQuery, TreeQuery, UploadQuery, View,
};
use crate::handle::{self, Download};
use crate::responses::{Closed, EngineEntry, Engines, Files, GtpExchange, RecordState, Saved};
use crate::session::OpError;
use crate::{App, EXAMPLE, Session, attachment};

pub(crate) use crate::respond::{answer, blocking, lock};

type AppState = State<Arc<App>>;

/// Opens what the command line named (or the example).
pub(crate) async fn start(State(app): AppState) -> Response {
    blocking(move || {
        let r = match &app.initial {
            Some(crate::Initial::File(p)) => {
                let rel = p
                    .strip_prefix(&app.root)
                    .map(|r| r.to_string_lossy().into_owned())
                    .unwrap_or_default();
                app.open_path(&rel)
            }
            Some(crate::Initial::Member(rel)) => app.open_path(rel),
            // An archive: its first record file (the list shows the rest).
            Some(crate::Initial::Archive(name)) => {
                let prefix = format!("{name}!");
                let list: Vec<String> = app
                    .file_list(true)
                    .iter()
                    .filter(|r| r.starts_with(&prefix))
                    .cloned()
                    .collect();
                // None (an archive of other files): as a folder without
                // records, the example.
                match list.split_first() {
                    Some((first, rest)) => app.open_first(first, rest),
                    None => {
                        app.new_session("qipu-example.sgf".into(), EXAMPLE.to_vec(), false, None)
                    }
                }
            }
            // A directory: its first record, or the example when it has
            // none. The page was (re)loaded: the list is walked again, so
            // that files copied into the folder since then appear.
            // A file that is not a game record is passed over; none: why
            // the first is not (the page shows it and the list).
            None => match app.directory.then(|| app.file_list(true)) {
                Some(list) if !list.is_empty() => app.open_first(&list[0], &list[1..]),
                _ => app.new_session("qipu-example.sgf".into(), EXAMPLE.to_vec(), false, None),
            },
        };
        app.opened(r.as_ref().ok().map(|st| st.session), None);
        answer(r)
    })
    .await
}

/// Opens a file of the served directory or pasted text.
pub(crate) async fn open(State(app): AppState, Body(req): Body<OpenRequest>) -> Response {
    blocking(move || {
        let replace = req.replace;
        let r = req.what().and_then(|what| {
            Ok(match what {
                Open::Path(p) => app.open_path(&p)?,
                Open::Text(t, name) => app.new_session(name, t.into_bytes(), true, None)?,
                Open::New(r, name) => {
                    let sgf = crate::session::new_record_sgf(&r)?;
                    app.new_session(name, sgf.into_bytes(), true, None)?
                }
            })
        });
        // `replace`: the session the page showed before, now freed.
        if let Ok(st) = &r {
            app.opened(Some(st.session), replace);
        }
        answer(r)
    })
    .await
}

/// Opens a file the page sent as it is (dropped or chosen on the user's
/// disk): the body is the file's bytes.
pub(crate) async fn upload(
    State(app): AppState,
    Params(q): Params<UploadQuery>,
    bytes: Bytes,
) -> Response {
    blocking(move || {
        let r = app.new_session(q.name, bytes.to_vec(), false, None);
        if let Ok(st) = &r {
            app.opened(Some(st.session), q.replace);
        }
        answer(r)
    })
    .await
}

/// The server's memory: `{"sessions", "held_bytes", "rss_bytes",
/// "parked", "parked_unsaved", "budget_bytes", "idle_seconds",
/// "recovery_dir"}` — the records in memory, the heap bytes they hold
/// (files, parsed parts, undo), the process's resident size where `/proc`
/// tells it, the records put aside (of which those whose work is in the
/// recovery folder), the memory budget, the idle time, and the recovery
/// folder once made.
pub(crate) async fn memory(State(app): AppState) -> Response {
    blocking(move || {
        let held: usize = app
            .sessions
            .live_sessions()
            .iter()
            .map(|s| lock(s).held_bytes())
            .sum();
        answer(Ok(app.sessions.memory_json(held)))
    })
    .await
}

/// Frees a session (the page was closed).
pub(crate) async fn close(State(app): AppState, Body(req): Body<SessionRef>) -> Response {
    // On the blocking pool: freeing a large record, or waiting for one
    // being read back, never holds up the thread that accepts connections.
    blocking(move || {
        app.close(req.session);
        answer(Ok(Closed {
            closed: req.session,
        }))
    })
    .await
}

/// Runs `f` on session `id` with the page's view options; answers the
/// state (`whole`: with the diagnostics and the file list), with `f`'s
/// refusal as its message.
fn with_session(
    app: &App,
    id: u64,
    view: View,
    whole: bool,
    f: impl FnOnce(&mut Session) -> Result<(), OpError>,
) -> Result<RecordState, ApiError> {
    let session = app.session(id)?;
    let mut s = lock(&session);
    handle::apply_view(&mut s, view)?;
    let r = f(&mut s);
    s.engine_sync();
    let st = if whole {
        app.whole_state(&s, view.tree_version)
    } else {
        s.state(view.tree_version)
    };
    Ok(handle::state_after(st, r))
}

pub(crate) async fn nav(State(app): AppState, Body(req): Body<On<Nav>>) -> Response {
    blocking(move || {
        answer(with_session(&app, req.session, req.view, false, |s| {
            s.nav(&req.body)
        }))
    })
    .await
}

pub(crate) async fn edit(State(app): AppState, Body(req): Body<On<EditRequest>>) -> Response {
    blocking(move || {
        let EditRequest { edit, merge_key } = &req.body;
        answer(with_session(&app, req.session, req.view, false, |s| {
            s.edit(edit, merge_key.as_deref())
        }))
    })
    .await
}

/// The whole state of a record, with its diagnostics and the file list.
pub(crate) async fn state(State(app): AppState, Params(q): Params<StateQuery>) -> Response {
    blocking(move || answer(with_session(&app, q.session, q.view(), true, |_| Ok(())))).await
}

/// The part of the tree's layout the page shows (see [`TreeQuery`]).
pub(crate) async fn tree(State(app): AppState, Params(q): Params<TreeQuery>) -> Response {
    query_session(app, q.session, move |s| s.tree_window(q.into())).await
}

/// A save refused: the message, and a kind the page acts on
/// (`changed_on_disk`: offer reload, overwrite or save as; `read_only`).
fn save_error(e: SaveError, rel: &str) -> ApiError {
    let kind = match e {
        SaveError::ChangedOnDisk => "changed_on_disk",
        SaveError::ReadOnly => "read_only",
        _ => "refused",
    };
    let error = match e {
        SaveError::ChangedOnDisk => format!(
            "{rel} was changed on disk by another program since it was opened: reload it, overwrite it, or save as another file"
        ),
        SaveError::ReadOnly => format!("{rel} is read-only: use \"Save as\""),
        e => format!("{rel} not saved: {e}"),
    };
    ApiError::with_kind(400, error, Some(kind))
}

/// The file at `path` (`rel` in the folder) as it is now, when a save may
/// write over it: a game record, as the library judges it read whole
/// (`None`: no file there). What is not one (another program wrote text
/// there since the record was read, or "Save as" names such a file) is
/// refused with `not_record` and never written over: the viewer never
/// destroys a file it could not read as a record. `known`: the
/// fingerprint of the record's own bytes as read (those are one).
fn replaceable(
    path: &std::path::Path,
    rel: &str,
    known: Option<Fingerprint>,
    save_as: bool,
) -> Result<Option<Arc<[u8]>>, ApiError> {
    let bytes = match crate::read_file(path, crate::MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(InputError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{rel}: {}", crate::input_error(&e)).into()),
    };
    if known == Some(Fingerprint::of(&bytes)) {
        return Ok(Some(bytes));
    }
    match crate::read_record(&bytes, path, rel) {
        Ok(_) => Ok(Some(bytes)),
        Err(mut e) => {
            e.error = if save_as {
                format!(
                    "{}. Qipu never saves over a file that is not a game record: choose another name",
                    e.error
                )
            } else {
                format!(
                    "{}. Qipu never saves over a file that is not a game record: use \"Save as\"",
                    e.error
                )
            };
            e.error_kind = Some("not_record");
            Err(e.at(rel))
        }
    }
}

pub(crate) async fn save(State(app): AppState, Body(req): Body<On<Save>>) -> Response {
    blocking(move || answer(save_blocking(&app, req.session, &req.body))).await
}

fn save_blocking(app: &App, id: u64, req: &Save) -> Result<Saved, ApiError> {
    let session = app.session(id)?;
    let mut s = lock(&session);
    match req {
        Save::Lossless { force } => {
            let path = s
                .path
                .clone()
                .ok_or("this record has no file: use \"Save as\"")?;
            let rel = s.rel.clone().unwrap_or_default();
            // The target must still be a regular file under the root.
            app.resolve(&rel)?;
            let bytes = s.lossless_bytes()?;
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
            // `force`: the user chose to overwrite a file changed on disk,
            // which only a game record may be (the record was read from one).
            opts.expected = if *force { None } else { s.on_disk };
            if *force {
                replaceable(&path, &rel, s.on_disk, false)?;
            }
            let saved = replace_file(&path, &bytes, &opts).map_err(|e| save_error(e, &rel))?;
            s.on_disk = Some(Fingerprint::of(&bytes));
            s.dirty = false;
            Ok(Saved {
                saved: rel,
                backup: saved.backup.as_deref().and_then(|b| app.relative(b)),
                original: Some(saved.original.as_deref().and_then(|b| app.relative(b))),
                bytes: bytes.len(),
            })
        }
        Save::Canonical { path, replace } => {
            let rel = if path.to_ascii_lowercase().ends_with(".sgf") {
                path.clone()
            } else {
                format!("{path}.sgf")
            };
            let full = app.resolve(&rel)?;
            // A file there is replaced only when the request says so (the
            // page asks first): a script or an old page never overwrites
            // one without asking.
            let exists = std::fs::symlink_metadata(&full).is_ok();
            if exists && !replace {
                return Err(ApiError {
                    path: Some(rel.clone()),
                    ..ApiError::with_kind(
                        400,
                        format!("{rel} exists already: replace it, or choose another name"),
                        Some("exists"),
                    )
                });
            }
            // The record's own file: what it was read from is a record.
            let own = exists && same_file(s.path.as_deref(), &full);
            let old = if exists {
                replaceable(&full, &rel, own.then_some(s.on_disk).flatten(), true)?
            } else {
                None
            };
            if own && s.canonical_drops_text() {
                return Err(format!(
                    "{rel} holds text outside its game trees that the canonical form leaves out: save it with \"Save\", which keeps it, or as another file"
                )
                .into());
            }
            let bytes = s.canonical_bytes();
            // Whatever is replaced is kept as .bak, and as .orig (the file
            // as it was before Qipu first wrote it) unless that exists.
            let mut opts = SaveOptions::default();
            opts.backup = true;
            opts.original = old.as_deref();
            let saved = replace_file(&full, &bytes, &opts).map_err(|e| save_error(e, &rel))?;
            s.reopen_as(&bytes, full, rel.clone());
            s.on_disk = Some(Fingerprint::of(&bytes));
            drop(s);
            app.file_list(true);
            Ok(Saved {
                saved: rel,
                backup: saved.backup.as_deref().and_then(|b| app.relative(b)),
                original: saved.original.as_deref().map(|b| app.relative(b)),
                bytes: bytes.len(),
            })
        }
    }
}

/// Whether `a` (a record's file) and `b` are the same file.
fn same_file(a: Option<&std::path::Path>, b: &std::path::Path) -> bool {
    match (a.map(std::fs::canonicalize), std::fs::canonicalize(b)) {
        (Some(Ok(a)), Ok(b)) => a == b,
        _ => false,
    }
}

/// A question about a session that changes nothing: the session, locked,
/// gives the answer.
async fn query_session<T: Serialize>(
    app: Arc<App>,
    id: u64,
    f: impl FnOnce(&Session) -> T + Send + 'static,
) -> Response {
    blocking(move || {
        answer(
            app.session(id)
                .map(|s| f(&lock(&s)))
                .map_err(ApiError::from),
        )
    })
    .await
}

/// What the repair would change: `{"changes": […]}` (see
/// [`Session::repair_preview`]); `/api/edit` with `op: "repair"` applies it.
pub(crate) async fn repair_preview(
    State(app): AppState,
    Body(req): Body<On<RepairPreview>>,
) -> Response {
    let level = req.body.variation_level;
    query_session(app, req.session, move |s| handle::repair_preview(s, level)).await
}

/// The game list of a session (see `Session::game_list`).
pub(crate) async fn games(State(app): AppState, Body(req): Body<SessionRef>) -> Response {
    query_session(app, req.session, handle::games).await
}

/// The games whose comments hold `q`: `{"matches": [game…], "nodes":
/// [node…]}`, `nodes[i]` the number of the first node of game
/// `matches[i]` whose comment holds it (where the page opens the game).
pub(crate) async fn games_search(
    State(app): AppState,
    Body(req): Body<On<GameSearch>>,
) -> Response {
    query_session(app, req.session, move |s| {
        handle::games_search(s, &req.body.q)
    })
    .await
}

pub(crate) async fn files(State(app): AppState) -> Response {
    blocking(move || {
        let files = if app.directory {
            app.file_list(true)
        } else {
            Arc::new(Vec::new())
        };
        answer(Ok(Files { files: &files }))
    })
    .await
}

/// The game's figures as one HTML page (what `qipu figures` writes, the
/// pictures inline): a new figure at each `FG` and every `every` moves.
/// The figures are made under the session's lock; the page is written
/// as the browser reads it ([`streamed`]), never held whole.
pub(crate) async fn figures_page(
    State(app): AppState,
    Params(q): Params<FiguresQuery>,
) -> Response {
    blocking(move || {
        let session = match app.session(q.session) {
            Ok(s) => s,
            Err(e) => return (StatusCode::NOT_FOUND, e).into_response(),
        };
        let figures = handle::figures(&lock(&session), q.every);
        let name = figures.filename();
        streamed("text/html; charset=utf-8", &name, move |out| {
            figures.write_page(out)
        })
    })
    .await
}

/// The position shown as a picture or a text diagram, downloaded.
pub(crate) async fn export(State(app): AppState, Params(q): Params<ExportQuery>) -> Response {
    blocking(move || export_blocking(&app, &q)).await
}

fn export_blocking(app: &App, q: &ExportQuery) -> Response {
    let session = match app.session(q.session) {
        Ok(s) => s,
        Err(e) => return (StatusCode::NOT_FOUND, e).into_response(),
    };
    // The diagram is made under the session's lock (quick); drawing it,
    // which can take seconds for a large PNG, is not.
    let made = handle::export(&lock(&session), q);
    match made.and_then(|e| e.draw(q)) {
        Ok(d) => download(d),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
    }
}

/// A file the browser downloads.
fn download(d: Download) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(d.content_type),
            ),
            (header::CONTENT_DISPOSITION, attachment(&d.filename)),
        ],
        d.bytes,
    )
        .into_response()
}

/// A download that `write` makes on a thread of its own as the browser
/// reads it, a few chunks ahead at most: memory stays bounded however
/// large the file. A failure of `write` ends the body with an error (the
/// browser sees the download fail); a browser gone away stops `write`
/// at its next chunk.
fn streamed(
    content_type: &'static str,
    filename: &str,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send + 'static,
) -> Response {
    const CHUNK: usize = 64 << 10;
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let spawned = std::thread::Builder::new()
        .name("qipu-download".into())
        .spawn(move || {
            let mut out = std::io::BufWriter::with_capacity(CHUNK, Chunks(tx.clone()));
            let r = write(&mut out).and_then(|()| std::io::Write::flush(&mut out));
            drop(out);
            if let Err(e) = r {
                let _ = tx.blocking_send(Err(e));
            }
        });
    if let Err(e) = spawned {
        return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response();
    }
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CONTENT_DISPOSITION, attachment(filename)),
        ],
        axum::body::Body::from_stream(Received(rx)),
    )
        .into_response()
}

/// The chunks of a [`streamed`] download, as they are written.
type Chunk = std::io::Result<Vec<u8>>;

/// The writing end of a [`streamed`] download.
struct Chunks(tokio::sync::mpsc::Sender<Chunk>);

impl std::io::Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.blocking_send(Ok(buf.to_vec())).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the download was cancelled")
        })?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The reading end of a [`streamed`] download: the response's body.
struct Received(tokio::sync::mpsc::Receiver<Chunk>);

impl futures_core::Stream for Received {
    type Item = Chunk;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Chunk>> {
        self.0.poll_recv(cx)
    }
}

/// The engines of the user's `engines.toml` (see [`sgf_gtp::spec`]):
/// `{"engines": [{"name", "command"}], "config": path, "error"}`.
pub(crate) async fn engines() -> Response {
    blocking(|| {
        let path = sgf_gtp::config_path();
        let (list, error) = match &path {
            Some(p) if p.is_file() => match sgf_gtp::load_config(p) {
                Ok(l) => (l, None),
                Err(e) => (Vec::new(), Some(e.to_string())),
            },
            _ => (Vec::new(), None),
        };
        let engines = list
            .iter()
            .map(|e| EngineEntry {
                name: e.name.clone(),
                command: e.command_line(),
            })
            .collect();
        answer(Ok(Engines {
            engines,
            config: path.map(|p| p.display().to_string()),
            error,
        }))
    })
    .await
}

/// What an engine's start may run.
enum Spec {
    /// The engine, and, for a command line just confirmed, whether it
    /// was remembered.
    Run(sgf_gtp::EngineSpec, Result<(), String>),
    /// A command line (as `command_line` writes it) the player has not
    /// confirmed: refused.
    Unconfirmed(String),
}

/// The engine `text` names: an engine of `engines.toml` runs; a command
/// line only when the player confirmed it, now (`confirm`: remembered
/// from then on) or before (see [`crate::confirmed`]).
fn engine_spec(app: &App, text: &str, confirm: bool) -> Result<Spec, String> {
    if let Some(spec) = sgf_gtp::EngineSpec::listed(text).map_err(|e| e.to_string())? {
        return Ok(Spec::Run(spec, Ok(())));
    }
    let spec = sgf_gtp::EngineSpec::from_command_line(text).map_err(|e| e.to_string())?;
    let line = spec.command_line();
    let path = app.confirmed.as_deref();
    if crate::confirmed::is_confirmed(path, &line) {
        return Ok(Spec::Run(spec, Ok(())));
    }
    if !confirm {
        return Ok(Spec::Unconfirmed(line));
    }
    let remembered = crate::confirmed::remember(path, &line);
    Ok(Spec::Run(spec, remembered))
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

/// The engine of a session (see [`EngineAction`]). Answers the session's
/// state; an engine's failure is its `message`, never an error of the
/// server.
pub(crate) async fn engine(State(app): AppState, Body(req): Body<On<EngineAction>>) -> Response {
    blocking(move || answer(engine_blocking(&app, req))).await
}

fn engine_blocking(app: &App, req: On<EngineAction>) -> Result<RecordState, ApiError> {
    let id = req.session;
    let session = app.session(id)?;
    // What to tell the user, and whether it is a failure.
    let mut note: Option<(String, bool)> = None;
    // The console's exchange: the command, the engine's answer, success.
    let mut gtp: Option<GtpExchange> = None;
    // A command line refused until the player confirms it.
    let mut unconfirmed: Option<String> = None;
    match req.body {
        EngineAction::Start {
            engine,
            second,
            confirm,
        } => {
            let text = engine.trim();
            if text.is_empty() {
                return Err("name an engine of engines.toml or give its command line".into());
            }
            let mut forgotten = None;
            let spec = match engine_spec(app, text, confirm) {
                Ok(Spec::Run(spec, remembered)) => {
                    forgotten = remembered.err();
                    Ok(spec)
                }
                Ok(Spec::Unconfirmed(line)) => {
                    unconfirmed = Some(line);
                    Err(None)
                }
                Err(e) => Err(Some(e)),
            };
            let started = spec.and_then(|spec| {
                sgf_gtp::LiveEngine::start(&spec).map_err(|e| Some(e.to_string()))
            });
            match started {
                Ok(live) => {
                    let name = live.spec().name.clone();
                    let mut s = lock(&session);
                    if second && s.engine().is_none() {
                        note = Some(("start the first engine first".into(), true));
                    } else {
                        let live = Some(Arc::new(live));
                        let old = if second {
                            s.set_second(live)
                        } else {
                            s.set_engine(live)
                        };
                        drop(s);
                        shut_down(old);
                        note = Some(match forgotten {
                            None => (format!("{name} is ready"), false),
                            Some(e) => (
                                format!(
                                    "{name} is ready, but its command line could not be remembered: {e}"
                                ),
                                false,
                            ),
                        });
                    }
                }
                Err(Some(e)) => note = Some((e, true)),
                Err(None) => {}
            }
        }
        EngineAction::Stop { second } => {
            let mut s = lock(&session);
            let second_one = s.set_second(None);
            let old = if second { None } else { s.set_engine(None) };
            drop(s);
            shut_down(second_one);
            shut_down(old);
        }
        EngineAction::Analyse { on } => {
            if let Err(e) = lock(&session).set_analysing(on) {
                note = Some((e, true));
            }
        }
        EngineAction::Command { command } => {
            let live = lock(&session).engine().ok_or("no engine is running")?;
            // The engine answers without the session's lock: the page stays usable.
            let (answer, ok) = match live.command(command.trim()) {
                Ok(a) => (a, true),
                Err(e) => (e.to_string(), false),
            };
            gtp = Some(GtpExchange {
                command: command.trim().to_string(),
                answer,
                ok,
            });
        }
        EngineAction::AnalyseGame {
            on,
            visits,
            seconds,
        } => {
            if !on {
                lock(&session).batch_stop();
            } else {
                let visits = visits.unwrap_or(100).clamp(1, 1_000_000);
                let most =
                    std::time::Duration::from_secs_f64(seconds.unwrap_or(5.0).clamp(0.1, 600.0));
                let started = lock(&session).batch_start(visits);
                match started {
                    Ok((live, items, cancel)) => {
                        let total = items.len();
                        let session = session.clone();
                        std::thread::spawn(move || {
                            analyse_line(&session, &live, items, visits, most, &cancel)
                        });
                        note = Some((format!("analysing {total} positions"), false));
                    }
                    Err(e) => note = Some((e, true)),
                }
            }
        }
        EngineAction::Play { color, level } => {
            if let Err(e) = lock(&session).set_playing(color.map(Into::into), level) {
                note = Some((e, true));
            }
        }
        EngineAction::Move => {
            let asked = {
                let s = lock(&session);
                s.engine_to_move()
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
        EngineAction::NewGame {
            size,
            handicap,
            komi,
            color,
            level,
        } => {
            let game = NewGame {
                size,
                handicap: handicap.min(99),
                komi,
                color,
                level,
            };
            return new_game(app, &session, id, &game);
        }
    }
    let mut s = lock(&session);
    s.engine_sync();
    let mut st = s.state(req.view.tree_version);
    st.gtp = gtp;
    if let Some(line) = unconfirmed {
        note = Some((
            format!("the command line `{line}` runs only once you confirm it"),
            true,
        ));
        st.confirm_engine = Some(line);
    }
    match note {
        Some((m, true)) => st.refuse(m),
        Some((m, false)) => st.message = Some(m),
        None => {}
    }
    Ok(st)
}

/// The thread of "analyse the whole game": each position of `items` in
/// turn, until the engine reports `visits` visits or `most` time passed,
/// its last evaluation given to the session (the graph). Stops when
/// `cancel` is set or the engine dies.
fn analyse_line(
    session: &Mutex<Session>,
    live: &sgf_gtp::LiveEngine,
    items: Vec<crate::session::BatchItem>,
    visits: u64,
    most: std::time::Duration,
    cancel: &Arc<std::sync::atomic::AtomicBool>,
) {
    use std::sync::atomic::Ordering;
    let step = std::time::Duration::from_millis(40);
    'line: for (i, (node, line, mv)) in items.into_iter().enumerate() {
        let tag = crate::session::BATCH_TAGS + i as u64;
        live.analyse(line, tag);
        let until = std::time::Instant::now() + most;
        let mut last = None;
        loop {
            std::thread::sleep(step);
            if cancel.load(Ordering::Relaxed) {
                break 'line;
            }
            let snap = live.snapshot();
            if !snap.alive || snap.tag != Some(tag) {
                break 'line;
            }
            if let Some(a) = snap.analysis {
                let enough = a.visits() >= visits;
                last = Some(a);
                if enough {
                    break;
                }
            }
            if std::time::Instant::now() >= until {
                break;
            }
        }
        lock(session).batch_record(node, mv, last.as_ref());
    }
    if !cancel.load(Ordering::Relaxed) {
        live.stop_analysis();
    }
    lock(session).batch_end(cancel);
}

/// A new game against the engine, as asked.
struct NewGame {
    size: u8,
    handicap: u32,
    komi: f64,
    color: Option<Player>,
    level: Option<u32>,
}

/// A new record against the session's engine, which moves to it; the old
/// session is closed (the page asked about unsaved changes).
fn new_game(
    app: &App,
    session: &Mutex<Session>,
    id: u64,
    game: &NewGame,
) -> Result<RecordState, ApiError> {
    let color = game.color.map(Into::into);
    let name = lock(session)
        .engine()
        .map(|l| l.spec().name.clone())
        .ok_or("start an engine first")?;
    let sgf = crate::session::new_game_sgf(game.size, game.handicap, game.komi, color, &name)?;
    let st = app.new_session(format!("vs-{name}.sgf"), sgf.into_bytes(), true, None)?;
    let new_id = st.session;
    let (live, second) = {
        let mut old = lock(session);
        (old.set_engine(None), old.set_second(None))
    };
    let fresh = app.session(new_id)?;
    let mut s = lock(&fresh);
    s.set_engine(live);
    s.set_second(second);
    let r = s.set_playing(color, game.level);
    s.engine_sync();
    let mut st = app.whole_state(&s, None);
    drop(s);
    app.opened(Some(new_id), Some(id));
    if let Err(e) = r {
        st.refuse(e);
    }
    Ok(st)
}

/// The latest analysis of the position shown and the win-rate graph of
/// the line shown (see `Session::analysis_json`), polled by the page.
pub(crate) async fn engine_analysis(
    State(app): AppState,
    Params(q): Params<SessionQuery>,
) -> Response {
    blocking(move || {
        let r = app.session(q.session).map(|s| lock(&s).analysis_json());
        answer(r.map_err(ApiError::from))
    })
    .await
}

/// Counting the position shown (see [`CountAction`]). Answers the
/// session's state, whose `count` holds the score.
pub(crate) async fn count(State(app): AppState, Body(req): Body<On<CountAction>>) -> Response {
    blocking(move || answer(count_blocking(&app, &req))).await
}

fn count_blocking(app: &App, req: &On<CountAction>) -> Result<RecordState, ApiError> {
    let session = app.session(req.session)?;
    let mut failure: Option<String> = None;
    if let CountAction::Start { source } = req.body {
        let live = lock(&session).engine();
        match (handle::by_engine(source, live.is_some()), live) {
            (false, _) => {
                let _ = handle::count_here(&mut lock(&session), req.body);
            }
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
    } else if let Err(e) = lock(&session).count_action(req.body) {
        failure = Some(e);
    }
    let mut s = lock(&session);
    s.engine_sync();
    let mut st = s.state(req.view.tree_version);
    if let Some(m) = failure {
        st.refuse(m);
    }
    Ok(st)
}

/// The database search, see [`crate::db`].
pub(crate) async fn db_search(State(app): AppState, Body(req): Body<On<DbSearch>>) -> Response {
    blocking(move || answer(crate::db::search(&app, &req))).await
}
