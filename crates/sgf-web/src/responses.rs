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

/// `/api/engine/analysis`: the engine's state, its latest analysis of the
/// position shown (`null` until it said something of it) and the graph of
/// the line shown.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisAnswer {
    /// The engine's state (`null`: none runs).
    pub engine: Value,
    /// The latest analysis.
    pub analysis: Option<EngineAnalysis>,
    /// The win-rate graph.
    pub graph: Graph,
}

/// An engine's analysis of a position, as the page draws it. Win rates and
/// leads of candidates are the player to move's; `point` and `pv` entries
/// are SGF points (`null`: a pass).
#[derive(Clone, Debug, Serialize)]
pub struct EngineAnalysis {
    /// The node's number.
    pub node: usize,
    /// `B` or `W`.
    pub to_play: &'static str,
    /// Who owns each point, from Black's side (-1 to 1, row by row from
    /// the top left), to two places.
    pub ownership: Option<Vec<f64>>,
    /// The visits so far.
    pub visits: u64,
    /// Black's win rate.
    pub black_winrate: Option<f64>,
    /// Black's lead in points.
    pub black_lead: Option<f64>,
    /// How many reports the engine has sent.
    pub updates: u64,
    /// The best moves, at most 20.
    pub candidates: Vec<Candidate>,
}

/// A move the engine considers.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// Its point (`null`: a pass).
    pub point: Option<String>,
    /// Its name in GTP (`Q16`, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its visits.
    pub visits: u64,
    /// The win rate of the player to move.
    pub winrate: f64,
    /// The lead of the player to move.
    pub score_lead: Option<f64>,
    /// The engine's order.
    pub order: u32,
    /// The line it expects, at most 30 moves.
    pub pv: Vec<Option<String>>,
}

/// The nodes of the line shown, each `[number, Black's win rate, Black's
/// lead]` where known, and where the node shown is among them.
#[derive(Clone, Debug, Serialize)]
pub struct Graph {
    /// `[node, black win rate, black lead]`.
    pub points: Vec<(usize, Option<f64>, Option<f64>)>,
    /// The index of the node shown.
    pub current: usize,
}
