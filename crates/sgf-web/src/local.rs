//! The viewer's API with no server: the records a page opened, held by the
//! page itself (the static viewer, crates/sgf-web-wasm, compiles this to
//! WebAssembly). [`Local::request`] takes a request as the page sends it
//! to `qipu view` — a path with its query and a body — and answers as the
//! server does, through the same handlers (`handle.rs`).
//!
//! What needs a process, the disk or a database file is not here, and is
//! refused with a message that says where it is: engines and database
//! search (`qipu view`), files of a served folder, saving a file (the page
//! downloads the bytes [`Local`] gives it, or writes them where the
//! browser lets it). Three routes exist only here, for that page:
//! `GET /api/record?session=ID` (the bytes Save writes), `POST /api/saved`
//! (`{"session"}`: the record was written by the page) and `POST
//! /api/restore?name=N` (the body a record's unsaved work kept by the page
//! across a reload: opened changed).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::api::{
    ApiError, CountAction, DeadSource, EditRequest, EngineAction, ExportQuery, FiguresQuery,
    GameSearch, Nav, On, Open, OpenRequest, RepairPreview, SessionQuery, SessionRef, StateQuery,
    TreeQuery, UploadQuery, View, read_body, read_query,
};
use crate::handle::{self, Download};
use crate::responses::{Closed, DbInfo, Engines, Files, LocalMemory, RecordState, Saved};
use crate::session::{OpError, Session};
use crate::{EXAMPLE, build_session};

/// What needs `qipu view` says so.
pub const NEEDS_SERVER: &str = "available with `qipu view`, which runs on your computer";

/// An answer: a status, a type and the bytes, as an HTTP response has them.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status it stands for (200, 400, 404).
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The name to save it as, for a download.
    pub filename: Option<String>,
    /// The bytes.
    pub body: Vec<u8>,
}

impl Reply {
    fn json<T: Serialize>(r: Result<T, ApiError>) -> Reply {
        match r {
            Ok(v) => Reply {
                status: 200,
                content_type: "application/json",
                filename: None,
                body: serde_json::to_vec(&v).unwrap_or_default(),
            },
            Err(e) => Reply {
                status: e.status,
                content_type: "application/json",
                filename: None,
                body: serde_json::to_vec(&e).unwrap_or_default(),
            },
        }
    }

    fn file(r: Result<Download, ApiError>) -> Reply {
        match r {
            Ok(d) => Reply {
                status: 200,
                content_type: d.content_type,
                filename: Some(d.filename),
                body: d.bytes,
            },
            Err(e) => Reply::json::<()>(Err(e)),
        }
    }
}

/// The records a page has open, by id.
#[derive(Default)]
pub struct Local {
    sessions: BTreeMap<u64, Session>,
    next_id: u64,
}

/// A request refused because it needs the server.
fn needs_server(what: &str) -> ApiError {
    ApiError::refused(format!("{what}: {NEEDS_SERVER}"))
}

impl Local {
    /// No record open.
    pub fn new() -> Local {
        Local {
            sessions: BTreeMap::new(),
            next_id: 1,
        }
    }

    /// The records open.
    pub fn open_count(&self) -> usize {
        self.sessions.len()
    }

    /// Answers a request of the page: `url` a path and its query
    /// (`/api/state?session=1`), `body` what a POST sends (JSON, or a
    /// file's bytes for `/api/upload`). Never panics on what it is given.
    pub fn request(&mut self, url: &str, body: &[u8]) -> Reply {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        match path {
            "/api/export" => Reply::file(read_query(query).and_then(|q| self.export(&q))),
            "/api/figures" => Reply::file(read_query(query).and_then(|q| self.figures(&q))),
            "/api/record" => Reply::file(read_query(query).and_then(|q| self.record(&q))),
            _ => Reply::json(self.json(path, query, body)),
        }
    }

    fn json(&mut self, path: &str, query: &str, body: &[u8]) -> Result<Value, ApiError> {
        match path {
            "/api/start" => self.add(build_session(
                0,
                "qipu-example.sgf".into(),
                EXAMPLE.to_vec(),
                false,
                "qipu-example.sgf".as_ref(),
            )),
            "/api/open" => {
                let req: OpenRequest = read_body(body)?;
                let replace = req.replace;
                let st = match req.what()? {
                    Open::Path(p) => {
                        return Err(needs_server(&format!("`{p}`: files of a folder")));
                    }
                    Open::Text(t, name) => self.add(build_session(
                        0,
                        name.clone(),
                        t.into_bytes(),
                        true,
                        name.as_ref(),
                    ))?,
                    Open::New(r, name) => {
                        let sgf = crate::session::new_record_sgf(&r)?;
                        self.add(build_session(
                            0,
                            name.clone(),
                            sgf.into_bytes(),
                            true,
                            name.as_ref(),
                        ))?
                    }
                };
                self.replaced(replace);
                Ok(st)
            }
            "/api/upload" | "/api/restore" => {
                let q: UploadQuery = read_query(query)?;
                let mut s =
                    build_session(0, q.name.clone(), body.to_vec(), false, q.name.as_ref())?;
                // Work kept across a reload is still unsaved.
                s.dirty = path == "/api/restore";
                let st = self.add(Ok(s))?;
                self.replaced(q.replace);
                Ok(st)
            }
            "/api/close" => {
                let r: SessionRef = read_body(body)?;
                self.sessions.remove(&r.session);
                to(&Closed { closed: r.session })
            }
            "/api/state" => {
                let q: StateQuery = read_query(query)?;
                self.on(q.session, q.view(), true, |_| Ok(()))
            }
            "/api/tree" => {
                let q: TreeQuery = read_query(query)?;
                to(&self.session(q.session)?.tree_window(q.into()))
            }
            "/api/nav" => {
                let r: On<Nav> = read_body(body)?;
                self.on(r.session, r.view, false, |s| s.nav(&r.body))
            }
            "/api/edit" => {
                let r: On<EditRequest> = read_body(body)?;
                let EditRequest { edit, merge_key } = &r.body;
                self.on(r.session, r.view, false, |s| {
                    s.edit(edit, merge_key.as_deref())
                })
            }
            "/api/count" => {
                let r: On<CountAction> = read_body(body)?;
                if let CountAction::Start {
                    source: DeadSource::Engine,
                } = r.body
                {
                    let why = format!("counting with an engine's dead stones is {NEEDS_SERVER}");
                    return self.on(r.session, r.view, false, |_| Err(why));
                }
                self.on(r.session, r.view, false, |s| handle::count_here(s, r.body))
            }
            "/api/engine" => {
                let r: On<EngineAction> = read_body(body)?;
                let why = format!("engines are {NEEDS_SERVER}");
                self.on(r.session, r.view, false, |_| Err(why))
            }
            "/api/engine/analysis" => {
                let q: SessionQuery = read_query(query)?;
                to(&self.session(q.session)?.analysis_json())
            }
            "/api/engines" => to(&Engines {
                engines: Vec::new(),
                config: None,
                error: None,
            }),
            "/api/repair" => {
                let r: On<RepairPreview> = read_body(body)?;
                let s = self.session(r.session)?;
                to(&handle::repair_preview(s, r.body.variation_level))
            }
            "/api/games" => {
                let r: SessionRef = read_body(body)?;
                to(&handle::games(self.session(r.session)?))
            }
            "/api/games/search" => {
                let r: On<GameSearch> = read_body(body)?;
                to(&handle::games_search(self.session(r.session)?, &r.body.q))
            }
            "/api/files" => to(&Files { files: &[] }),
            "/api/saved" => {
                let r: SessionRef = read_body(body)?;
                let s = self.session(r.session)?;
                s.dirty = false;
                let bytes = s.lossless_bytes().map_or(0, |b| b.len());
                to(&Saved {
                    saved: s.name.clone(),
                    backup: None,
                    original: None,
                    bytes,
                })
            }
            "/api/memory" => {
                let held: usize = self.sessions.values().map(Session::held_bytes).sum();
                to(&LocalMemory {
                    sessions: self.sessions.len(),
                    held_bytes: held,
                })
            }
            "/api/db/info" => to(&DbInfo {
                database: None,
                games: 0,
            }),
            "/api/db/search" | "/api/db/open" => Err(needs_server("searching a database")),
            "/api/save" => Err(needs_server("saving to a folder")),
            _ => Err(ApiError::with_kind(
                404,
                format!("no such request: {path}"),
                None,
            )),
        }
    }

    /// Session `id`.
    fn session(&mut self, id: u64) -> Result<&mut Session, ApiError> {
        self.sessions
            .get_mut(&id)
            .ok_or_else(|| ApiError::refused(crate::api::NO_SESSION.to_string()))
    }

    /// Registers a record just read; its whole state.
    fn add(&mut self, s: Result<Session, ApiError>) -> Result<Value, ApiError> {
        let mut s = s?;
        let id = self.next_id;
        self.next_id += 1;
        s.id = id;
        let st = whole_state(&s, None);
        self.sessions.insert(id, s);
        to(&st)
    }

    /// The record replaced by one just opened is closed.
    fn replaced(&mut self, old: Option<u64>) {
        if let Some(old) = old {
            self.sessions.remove(&old);
        }
    }

    /// Runs `f` on session `id` with the page's view; its state (`whole`:
    /// with the diagnostics), `f`'s refusal as its message.
    fn on(
        &mut self,
        id: u64,
        view: View,
        whole: bool,
        f: impl FnOnce(&mut Session) -> Result<(), OpError>,
    ) -> Result<Value, ApiError> {
        let s = self.session(id)?;
        handle::apply_view(s, view)?;
        let r = f(s);
        let st = if whole {
            whole_state(s, view.tree_version)
        } else {
            s.state(view.tree_version)
        };
        to(&handle::state_after(st, r))
    }

    fn export(&mut self, q: &ExportQuery) -> Result<Download, ApiError> {
        let s = self.session(q.session)?;
        let e = handle::export(s, q)?;
        Ok(e.draw(q)?)
    }

    fn figures(&mut self, q: &FiguresQuery) -> Result<Download, ApiError> {
        let s = self.session(q.session)?;
        Ok(handle::figures(s, q.every).page())
    }

    /// The bytes Save writes: the record as read with only what was edited
    /// changed (SGF records; others are written by "Save as").
    fn record(&mut self, q: &SessionQuery) -> Result<Download, ApiError> {
        let s = self.session(q.session)?;
        Ok(Download {
            content_type: "application/x-go-sgf",
            filename: s.name.clone(),
            bytes: s.lossless_bytes()?,
        })
    }
}

/// An answer as JSON.
fn to<T: Serialize>(v: &T) -> Result<Value, ApiError> {
    serde_json::to_value(v).map_err(ApiError::bad_request)
}

/// A record's state with its diagnostics, as the page wants it when it
/// opens one; no folder is served.
fn whole_state(s: &Session, tree_version: Option<u64>) -> RecordState {
    let mut st = s.state(tree_version);
    st.diagnostics = Some(s.diagnostics_json());
    st.folder = Some(false);
    st
}
