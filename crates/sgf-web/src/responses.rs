//! The API's answers as types (beside [`crate::api`], its requests): what
//! the page reads of each. The JSON shapes are the page's contract: fields
//! are only ever added.

use serde::Serialize;
use serde_json::Value;

/// `/api/close`: the session freed.
#[derive(Clone, Debug, Serialize)]
pub struct Closed {
    /// Its id.
    pub closed: u64,
}

/// `/api/save`: the file written (relative to the served directory), the
/// copy of what it replaced, the original kept at the first save, and the
/// bytes written.
#[derive(Clone, Debug, Serialize)]
pub struct Saved {
    /// The file written.
    pub saved: String,
    /// Where what it replaced was kept (`X.bak`).
    pub backup: Option<String>,
    /// Where the file as first read was kept (`X.orig`), at the first
    /// lossless save only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<Option<String>>,
    /// The bytes written.
    pub bytes: usize,
}

/// `/api/files`: the record files of the served directory.
#[derive(Clone, Debug, Serialize)]
pub struct Files<'a> {
    /// Relative paths with `/`.
    pub files: &'a [String],
}

/// `/api/games`: a collection's games and the one shown.
#[derive(Clone, Debug, Serialize)]
pub struct GameList {
    /// One row per game (see `Session::game_list`).
    pub games: Vec<Value>,
    /// The game shown.
    pub game: usize,
}

/// `/api/games/search`: `nodes[i]` is the number of the first node of
/// game `matches[i]` whose comment holds the text (where the page opens
/// the game).
#[derive(Clone, Debug, Serialize)]
pub struct GameMatches {
    /// The games.
    pub matches: Vec<usize>,
    /// Their first matching nodes.
    pub nodes: Vec<usize>,
}

/// `/api/repair`: what the repair would change (see
/// `Session::repair_preview`).
#[derive(Clone, Debug, Serialize)]
pub struct RepairChanges {
    /// `[{code, message, line, column, start, end, before, after}]`.
    pub changes: Value,
}

/// One engine of `engines.toml`.
#[derive(Clone, Debug, Serialize)]
pub struct EngineEntry {
    /// Its name.
    pub name: String,
    /// Its command line.
    pub command: String,
}

/// `/api/engines`: the engines of the user's `engines.toml`, the file, and
/// why it could not be read.
#[derive(Clone, Debug, Serialize)]
pub struct Engines {
    /// The engines.
    pub engines: Vec<EngineEntry>,
    /// Where `engines.toml` is looked for.
    pub config: Option<String>,
    /// Why it could not be read (or why there are no engines here).
    pub error: Option<String>,
}

/// `/api/db/info`: the database searched, if any, and its games.
#[derive(Clone, Debug, Serialize)]
pub struct DbInfo {
    /// The database's file name; `null`: none.
    pub database: Option<String>,
    /// Its games.
    pub games: u64,
}
