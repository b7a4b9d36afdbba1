//! The API's answers as types (beside [`crate::api`], its requests): what
//! the page reads of each. The JSON shapes are the page's contract: fields
//! are only ever added.

use std::collections::BTreeMap;

use serde::Serialize;
use sgf_report::{ChangeJson, DiagnosticJson, ScoreJson};

/// A record's state as the page shows it: what every request on a record
/// answers (see `Session::state`). The transports add what they know: the
/// diagnostics and the served folder when a record is opened, a refusal's
/// message, the engine's GTP exchange.
#[derive(Clone, Debug, Serialize)]
pub struct RecordState {
    /// The record's id.
    pub session: u64,
    /// Its name.
    pub name: String,
    /// `[columns, rows]`.
    pub size: [u8; 2],
    /// How the board is shown.
    pub view: ViewState,
    /// A variation was copied or cut (paste has something).
    pub clipboard: bool,
    /// The file under the served folder, with `/`.
    pub path: Option<String>,
    /// The format it was read from.
    pub format: String,
    /// The charset it was read in.
    pub charset: String,
    /// Changed since opened or saved.
    pub dirty: bool,
    /// Undo has a step.
    pub can_undo: bool,
    /// Redo has a step.
    pub can_redo: bool,
    /// The game shown (from 0).
    pub game: usize,
    /// The games of the record.
    pub games: usize,
    /// The bytes the undo history holds.
    pub undo_bytes: usize,
    /// The board drawn dark.
    pub dark: bool,
    /// The game information (`PB`, `RE`…) as written.
    pub info: Option<GameInfo>,
    /// Komi as the library reads it.
    pub komi: Option<f64>,
    /// The board as SVG.
    pub board: String,
    /// What the board's letters mark: `children`, `siblings` or `none`.
    pub marks: &'static str,
    /// The node shown.
    pub node: NodeState,
    /// The tree's layout, when the page's copy is stale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<TreeLayout>,
    /// Why the last move was refused (`ko`, `suicide`, `occupied`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub illegal: Option<&'static str>,
    /// The engine's state (`null`: none).
    pub engine: Option<EngineStatus>,
    /// The count of the position shown (`null`: not counting).
    pub count: Option<Count>,
    /// A note for the user, or a refusal's reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `refused` when `message` is a refusal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<&'static str>,
    /// The record's diagnostics (when it is opened, and with `/api/state`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Vec<DiagnosticJson>>,
    /// Whether a folder is served (when a record is opened).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<bool>,
    /// The served folder's records (a folder served).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// The engine's console: `{command, answer, ok}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gtp: Option<GtpExchange>,
    /// An engine's command line that was refused because the player
    /// has not confirmed it yet (`message` says so): the page asks, and
    /// starts it again with `confirm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirm_engine: Option<String>,
}

impl RecordState {
    /// The state of a refused request: the reason as its message.
    pub fn refuse(&mut self, why: String) {
        self.message = Some(why);
        self.error_kind = Some("refused");
    }
}

/// The game information of the game shown: each game-info property of
/// its game-info node (`PB`, `RE`, `KM`…) and its first value as written.
pub type GameInfo = BTreeMap<String, String>;

/// A window of the tree's layout (see `Session::tree_window`): the nodes
/// in a rectangle of columns and rows, and the connectors that cross it.
/// A node's column is its depth; the page asks for the rectangle it shows
/// (`/api/tree`), and a state whose tree changed carries the part around
/// the node shown.
#[derive(Clone, Debug, Serialize)]
pub struct TreeLayout {
    /// The tree's version: the page asks again with it and gets no tree
    /// while the tree is unchanged.
    pub version: u64,
    /// The columns the whole tree spans.
    pub width: usize,
    /// The rows the whole tree spans.
    pub height: usize,
    /// The rectangle sent: `[first column, first row, last column, last row]`.
    pub window: [usize; 4],
    /// The nodes in the window, row by row.
    pub nodes: Vec<TreeNode>,
    /// Connectors of nodes outside the window that cross it.
    pub links: Vec<TreeLink>,
}

/// A node of the tree's layout: `[column, row, kind, parent's row, flags,
/// number]`. Kind 1 a black move, 2 a white move, 3 stones set up, 0
/// anything else; the parent is in the column before (its row -1 for the
/// root); flags bit 0 a comment, bit 1 a name; the number is the node's in
/// file order (what `/api/nav` `node` takes).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TreeNode(pub usize, pub usize, pub u8, pub i64, pub u8, pub usize);

/// The connector to a node outside the window, drawn as a node's:
/// `[column, row, parent's row]`, from the parent down the column before.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TreeLink(pub usize, pub usize, pub usize);

/// Each player's time left as last recorded on the path (`{"B": {left,
/// periods}, "W": …}`), a player absent when never recorded.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Clock {
    /// Black's (`BL`, `OB`).
    #[serde(rename = "B", skip_serializing_if = "Option::is_none")]
    pub black: Option<PlayerClock>,
    /// White's (`WL`, `OW`).
    #[serde(rename = "W", skip_serializing_if = "Option::is_none")]
    pub white: Option<PlayerClock>,
}

/// A player's time left.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PlayerClock {
    /// Seconds (`BL`/`WL`).
    pub left: f64,
    /// Moves or periods left (`OB`/`OW`), if recorded there.
    pub periods: Option<i64>,
}

/// The engine of a record, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineStatus {
    /// Its name.
    pub name: String,
    /// Its command line.
    pub command: String,
    /// Its process runs.
    pub alive: bool,
    /// Its last failure.
    pub error: Option<String>,
    /// It can analyse (`kata-analyze` or `lz-analyze`).
    pub can_analyse: bool,
    /// It analyses the position shown.
    pub analysing: bool,
    /// The colour it plays (`B`, `W`), in a game against it.
    pub playing: Option<&'static str>,
    /// Its level (1 to 10), in a game against it.
    pub level: Option<u32>,
    /// The analysis of the whole game under way.
    pub batch: Option<BatchState>,
    /// The second engine, playing White.
    pub second: Option<SecondEngine>,
}

/// The analysis of the whole game: positions done of all, and the visits
/// asked for each.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BatchState {
    /// Positions done.
    pub done: usize,
    /// Positions in all.
    pub total: usize,
    /// The visits of each.
    pub visits: u64,
}

/// A second engine.
#[derive(Clone, Debug, Serialize)]
pub struct SecondEngine {
    /// Its name.
    pub name: String,
    /// Its process runs.
    pub alive: bool,
    /// Its last failure.
    pub error: Option<String>,
}

/// A command typed in the engine's console and its answer.
#[derive(Clone, Debug, Serialize)]
pub struct GtpExchange {
    /// The command.
    pub command: String,
    /// The engine's answer.
    pub answer: String,
    /// The engine answered `=` (else `?` or it failed).
    pub ok: bool,
}

/// How the board is shown: turned or mirrored (a symmetry, 0 as
/// recorded) and with the colours swapped.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ViewState {
    /// The symmetry.
    pub sym: u8,
    /// The colours swapped.
    pub invert: bool,
}

/// The node shown.
#[derive(Clone, Debug, Serialize)]
pub struct NodeState {
    /// Its number in the tree.
    pub number: usize,
    /// The move number of the position.
    pub move_number: u32,
    /// The colour of its move.
    pub color: Option<&'static str>,
    /// Its move (`Q16`, `pass`).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// `B` or `W`.
    pub to_play: &'static str,
    /// Stones captured by each.
    pub captures: Captures,
    /// Time left as last recorded on the path.
    pub clock: Clock,
    /// What → plays next.
    pub next: Option<NextMove>,
    /// The comment.
    pub comment: Option<String>,
    /// The comment with its points and web addresses marked.
    pub comment_parts: Option<Vec<TextPart>>,
    /// The node's name.
    pub name: Option<String>,
    /// Its annotations, as data.
    pub annotations: Vec<AnnotationState>,
    /// The alternatives to it (its siblings), at most 40.
    pub alternatives: Vec<MoveRow>,
    /// Its children, at most 40.
    pub next_moves: Vec<MoveRow>,
    /// Its index among its siblings.
    pub variation: usize,
    /// Its siblings, itself included.
    pub variations: usize,
    /// Its depth (its column in the tree's layout).
    pub depth: usize,
    /// Its row in the tree's layout.
    pub row: usize,
    /// Its children.
    pub children: usize,
    /// Passes in a row ending here (at most 2).
    pub passes: u32,
}

/// Stones captured.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Captures {
    /// By Black.
    #[serde(rename = "B")]
    pub black: u32,
    /// By White.
    #[serde(rename = "W")]
    pub white: u32,
}

/// The next move: its colour and point (`null`: a pass).
#[derive(Clone, Debug, Serialize)]
pub struct NextMove {
    /// `B` or `W`.
    pub color: &'static str,
    /// The SGF point.
    pub point: Option<String>,
}

/// A piece of a comment: text, a point, or a web address.
#[derive(Clone, Debug, Serialize)]
pub struct TextPart {
    /// The text.
    pub text: String,
    /// The SGF point it names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// The address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An annotation of the node, for the page to say in its language.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnnotationState {
    /// A judgement (`TE`, `GB`…), `strength` 2 for "very".
    Judgement {
        /// The property.
        code: &'static str,
        /// Its meaning.
        kind: &'static str,
        /// 1 or 2.
        strength: Option<u8>,
        /// `good`, `bad` or empty.
        tone: &'static str,
    },
    /// `V`: the position's value.
    Value {
        /// `V`.
        code: &'static str,
        /// `value`.
        kind: &'static str,
        /// The value as written.
        value: String,
        /// Empty.
        tone: &'static str,
    },
}

/// A move beside the board: a child or an alternative.
#[derive(Clone, Debug, Serialize)]
pub struct MoveRow {
    /// The node's number.
    pub number: usize,
    /// `B Q16`, `W pass`, or its name.
    pub label: String,
    /// Its colour.
    pub color: Option<&'static str>,
    /// Its point (`Q16`, `pass`).
    pub point: Option<String>,
    /// The alternative shown (alternatives only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<bool>,
    /// Its index among the siblings (alternatives only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}

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
    pub games: Vec<GameListRow>,
    /// The game shown.
    pub game: usize,
}

/// A game of the game list: its number, players, ranks, result, date,
/// event, name (`null` when not recorded) and the moves of its main line.
#[derive(Clone, Debug, Serialize)]
pub struct GameListRow {
    /// The game's number (from 0).
    pub game: usize,
    /// `PB`.
    pub black: Option<String>,
    /// `BR`.
    pub black_rank: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `WR`.
    pub white_rank: Option<String>,
    /// `RE`.
    pub result: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// The moves of the main line.
    pub moves: u32,
}

/// `/api/memory` of the server: sessions live and put aside, the memory
/// budget, the idle time, the recovery folder once made, the bytes the live
/// sessions hold and the process's resident memory (Linux).
#[derive(Clone, Debug, Serialize)]
pub struct Memory {
    /// Sessions in memory.
    pub sessions: usize,
    /// Sessions put aside.
    pub parked: usize,
    /// Of those, the ones whose work is in the recovery folder.
    pub parked_unsaved: usize,
    /// The memory budget.
    pub budget_bytes: usize,
    /// Idle sessions are put aside after this (`null`: never).
    pub idle_seconds: Option<u64>,
    /// The recovery folder, once made.
    pub recovery_dir: Option<String>,
    /// The bytes the live sessions hold.
    pub held_bytes: usize,
    /// The process's resident memory, where known.
    pub rss_bytes: Option<u64>,
}

/// `/api/memory` without a server: the sessions and the bytes they hold.
#[derive(Clone, Debug, Serialize)]
pub struct LocalMemory {
    /// Sessions open.
    pub sessions: usize,
    /// The bytes they hold.
    pub held_bytes: usize,
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
    pub changes: Vec<ChangeJson>,
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
    pub engine: Option<EngineStatus>,
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

/// Counting the position shown: the score in the one shape of a count
/// (`sgf_report::ScoreJson`, as `qipu score --json` writes it) and what
/// the page draws besides.
#[derive(Clone, Debug, Serialize)]
pub struct Count {
    /// The score's shape, shared with the command line.
    #[serde(flatten)]
    pub score: ScoreJson,
    /// The node counted.
    pub node: usize,
    /// Where the dead stones came from (`engine`, `record`, `estimate`, `user`…).
    pub from: &'static str,
    /// `area` or `territory`.
    pub scoring: &'static str,
    /// Each point's owner, row by row (`B`, `W`, `.`).
    pub territory: String,
    /// The board's columns (the rows of `territory`).
    pub cols: usize,
    /// The result counted by area.
    pub area_result: String,
    /// The result counted by territory.
    pub territory_result: String,
    /// The borders are closed: a result to write into the record (else an
    /// estimate).
    pub finished: bool,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The engine's state needs a live engine to reach the snapshot of
    /// `tests/state_json.rs`: its keys as the page reads them, `null`
    /// (not absent) for what is not there.
    #[test]
    fn the_engine_state_keeps_its_keys() {
        let mut e = EngineStatus {
            name: "katago".into(),
            command: "katago gtp".into(),
            alive: true,
            error: None,
            can_analyse: true,
            analysing: false,
            playing: Some("W"),
            level: Some(3),
            batch: Some(BatchState {
                done: 2,
                total: 5,
                visits: 20,
            }),
            second: Some(SecondEngine {
                name: "gnugo".into(),
                alive: false,
                error: Some("it stopped".into()),
            }),
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({
                "name": "katago", "command": "katago gtp", "alive": true, "error": null,
                "can_analyse": true, "analysing": false, "playing": "W", "level": 3,
                "batch": {"done": 2, "total": 5, "visits": 20},
                "second": {"name": "gnugo", "alive": false, "error": "it stopped"},
            })
        );
        (e.playing, e.level, e.batch, e.second) = (None, None, None, None);
        let v = serde_json::to_value(&e).unwrap();
        for k in ["playing", "level", "batch", "second"] {
            assert_eq!(v.get(k), Some(&serde_json::Value::Null), "{k}");
        }
        let g = GtpExchange {
            command: "name".into(),
            answer: "KataGo".into(),
            ok: true,
        };
        assert_eq!(
            serde_json::to_value(&g).unwrap(),
            json!({"command": "name", "answer": "KataGo", "ok": true})
        );
    }
}
