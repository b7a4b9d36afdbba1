//! The viewer's database search (`qipu view --db GAMES.qdb`): the position
//! shown, or a region of it, searched in the database (crate `sgf-db`);
//! a hit opens as a new session at the matching node.
//!
//! | endpoint | body | answer |
//! | --- | --- | --- |
//! | `GET /api/db/info` | | `{"database": "games.qdb" or null, "games": N}` |
//! | `POST /api/db/search` | [`DbSearch`] with `session` | `qipu db find --json`'s object, plus `"pattern_origin": [x0, y0]` |
//! | `POST /api/db/open` | [`DbOpen`] | the new session's state, at the hit's node |
//!
//! Searches and reading a hit's file run on the blocking pool (the
//! server's `blocking`), so a long search does not hold up the page's
//! other requests. A hit's game is
//! read from the file the database indexed (which may be outside the
//! served directory: `--db` grants that).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use sgf_db::{Database, Pattern, Query};

use crate::App;
use crate::api::{ApiError, Body, DbOpen, DbSearch, Nav, On};
use crate::respond::{answer, blocking, lock};
use crate::responses::{DbInfo, RecordState};

/// The database of a viewer, opened on first use.
#[derive(Default)]
pub struct Db {
    path: Option<PathBuf>,
    db: Mutex<Option<Arc<Mutex<Database>>>>,
}

impl Db {
    /// A database at `path` (`None`: search is off).
    pub fn new(path: Option<PathBuf>) -> Db {
        Db {
            path,
            db: Mutex::new(None),
        }
    }

    fn get(&self) -> Result<Arc<Mutex<Database>>, String> {
        let Some(p) = &self.path else {
            return Err("no database: start the viewer with --db GAMES.qdb".into());
        };
        let mut g = self.db.lock().map_err(|_| "internal lock")?;
        if let Some(d) = &*g {
            return Ok(d.clone());
        }
        let d = Arc::new(Mutex::new(
            Database::open_existing(p).map_err(|e| e.to_string())?,
        ));
        *g = Some(d.clone());
        Ok(d)
    }
}

pub(crate) async fn info(State(app): State<Arc<App>>) -> Response {
    let r = match &app.db.path {
        None => Ok(DbInfo {
            database: None,
            games: 0,
        }),
        Some(p) => app.db.get().and_then(|d| {
            let games = d
                .lock()
                .map_err(|_| "internal lock")?
                .game_count()
                .map_err(|e| e.to_string())?;
            Ok(DbInfo {
                database: p.file_name().map(|n| n.to_string_lossy().into_owned()),
                games,
            })
        }),
    };
    answer(r.map_err(ApiError::from))
}

fn query_of(req: &DbSearch, cells: &[u8], cols: u8, rows: u8) -> Result<(Query, (u8, u8)), String> {
    let mut q = Query::default();
    let (pattern, origin) = match req.region {
        Some(r) => {
            let v = r.map(|x| x.min(51));
            let (x0, x1) = (v[0].min(v[2]), v[0].max(v[2]));
            let (y0, y1) = (v[1].min(v[3]), v[1].max(v[3]));
            let p = Pattern::region_of(cells, cols, rows, (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
                .map_err(|e| e.to_string())?;
            (p, (x0, y0))
        }
        _ => (
            Pattern::full_board(cells, cols, rows).map_err(|e| e.to_string())?,
            (0, 0),
        ),
    };
    q.pattern = Some(pattern);
    q.options.anywhere = req.anywhere;
    q.options.swap_colors = req.swap_colors;
    q.options.variations = req.variations;
    if let Some(p) = req.player.as_ref().filter(|p| !p.trim().is_empty()) {
        q.filter.player = Some(p.clone());
        q.filter.text_match = sgf_db::TextMatch::Substring;
    }
    q.limit = Some(req.limit.unwrap_or(200).min(5000));
    Ok((q, origin))
}

/// `/api/db/search`: `qipu db find --json`'s object and where the pattern
/// searched has its top left corner on the board.
#[derive(Serialize)]
pub(crate) struct DbFound {
    /// What the database found.
    #[serde(flatten)]
    found: sgf_db::FindResult,
    /// `[x0, y0]`: `[0, 0]` for the whole board.
    pattern_origin: [u8; 2],
}

/// The position shown (or a region of it) searched in the database.
pub(crate) fn search(app: &App, req: &On<DbSearch>) -> Result<DbFound, ApiError> {
    // The board of the session's current position: cells, columns, rows.
    let session = app.session(req.session)?;
    let (cells, cols, rows) = lock(&session).board();
    let (q, origin) = query_of(&req.body, &cells, cols, rows)?;
    let db = app.db.get()?;
    let db = db.lock().map_err(|_| "internal lock".to_string())?;
    let found = db.find(&q).map_err(|e| e.to_string())?;
    Ok(DbFound {
        found,
        pattern_origin: [origin.0, origin.1],
    })
}

/// A hit opened as a new session, at its node.
pub(crate) async fn open(State(app): State<Arc<App>>, Body(req): Body<DbOpen>) -> Response {
    blocking(move || answer(open_blocking(&app, req))).await
}

fn open_blocking(app: &App, req: DbOpen) -> Result<RecordState, ApiError> {
    let DbOpen { id, node } = req;
    let (name, bytes) = {
        let db = app.db.get()?;
        let db = db.lock().map_err(|_| "internal lock".to_string())?;
        let hit = hit_of(&db, id)?;
        // The file indexed may have been replaced since by a FIFO
        // or a device: refused here, not waited on.
        let abs = source_of(&db, id)?;
        sgf_formats::input::check_regular(std::path::Path::new(&abs))
            .map_err(|e| format!("{abs}: {e}"))?;
        let mut out = Vec::new();
        let problems = sgf_db::write_hits_sgf(&[&*db], std::slice::from_ref(&hit), &mut out)
            .map_err(|e| e.to_string())?;
        if out.is_empty() {
            return Err(problems.join("; ").into());
        }
        let name = match &hit.member {
            Some(m) => m.rsplit('/').next().unwrap_or(m).to_string(),
            None => hit
                .path
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or(&hit.path)
                .to_string(),
        };
        (name, out)
    };
    let st = app.new_session(name, bytes, false, None)?;
    let sid = st.session;
    let session = app.session(sid)?;
    let st = {
        let mut s = lock(&session);
        s.nav(&Nav::Node { node })?;
        s.state(None)
    };
    app.opened(Some(sid), None);
    Ok(st)
}

/// The file (or archive) that holds game `id`, as the database read it.
fn source_of(db: &Database, id: i64) -> Result<String, String> {
    db.connection()
        .query_row(
            "SELECT s.abs_path FROM games g JOIN files f ON g.file_id = f.id
             JOIN sources s ON f.source_id = s.id WHERE g.id = ?1",
            [id],
            |r| r.get(0),
        )
        .map_err(|e| format!("no game {id} in the database: {e}"))
}

/// The hit of game `id` (as `write_hits_sgf` wants it).
fn hit_of(db: &Database, id: i64) -> Result<sgf_db::Hit, String> {
    db.connection()
        .query_row(
            "SELECT s.path, f.member, g.game FROM games g JOIN files f ON g.file_id = f.id
             JOIN sources s ON f.source_id = s.id WHERE g.id = ?1",
            [id],
            |r| {
                Ok(sgf_db::Hit {
                    path: r.get(0)?,
                    member: r.get(1)?,
                    game: r.get(2)?,
                    move_number: 0,
                    node: 0,
                    variation: false,
                    black: None,
                    white: None,
                    date: None,
                    result: None,
                    symmetry: 0,
                    swapped: false,
                    continuation: None,
                    id,
                    db: 0,
                })
            },
        )
        .map_err(|e| format!("no game {id} in the database: {e}"))
}
