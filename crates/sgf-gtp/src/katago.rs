//! KataGo's JSON analysis engine (`katago analysis -config … -model …`):
//! one JSON query per line on standard input (a game with `analyzeTurns`),
//! answers per turn on standard output, in any order and whenever ready;
//! `terminate` cancels a query.
//!
//! Queries ask for values from Black's point of view
//! (`reportAnalysisWinratesAs = BLACK`), whatever the user's config says;
//! [`Analysis`] turns them to the player to move's, like GTP analysis.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};
use sgf_core::{Color, Document, NodeId};
use sgf_go::coords::{self, BoardSize};
use sgf_go::score::{Rules, Settings};
use sgf_go::{Cursor, GameInfo};

use crate::analysis::{Analysis, Candidate, EngineMove};
use crate::engine::gtp_color;
use crate::error::{Error, Result};
use crate::process::{Process, Read1};
use crate::spec::{EngineSpec, Protocol};

/// A query: a game to analyse at some of its turns.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// Board size.
    pub size: BoardSize,
    /// Stones on the board before the first move.
    pub initial_stones: Vec<(Color, sgf_core::Point)>,
    /// Who moves first.
    pub initial_player: Color,
    /// The moves, in order.
    pub moves: Vec<(Color, EngineMove)>,
    /// The rules.
    pub rules: Rules,
    /// Komi.
    pub komi: f64,
    /// Turns to analyse: turn `k` is the position after `k` moves.
    pub analyze_turns: Vec<usize>,
    /// Visits per position (`None`: the engine's config decides).
    pub max_visits: Option<u64>,
    /// Whether to ask for ownership.
    pub include_ownership: bool,
}

impl Query {
    /// The main line of game `game` from the root to `node` (the root's
    /// setup as initial stones), analysing every turn, and the node of each
    /// turn (`nodes[k]` is where turn `k` is reached).
    ///
    /// # Errors
    /// `node` not in the game, a board over 25 lines, or setup stones
    /// after the root (the analysis engine takes moves only).
    pub fn for_game(doc: &Document, game: usize, node: NodeId) -> Result<(Query, Vec<NodeId>)> {
        if doc.game(game).is_none() {
            return Err(Error::Unsupported(format!("there is no game {}", game + 1)));
        }
        let mut target = Cursor::new(doc, game);
        if !target.goto(doc, node) {
            return Err(Error::Unsupported("the node is not in this game".into()));
        }
        let path: Vec<NodeId> = target.path().collect();
        let mut c = Cursor::new(doc, game);
        let size = c.size();
        if size.cols > 25 || size.rows > 25 {
            return Err(Error::Unsupported(format!(
                "KataGo names points on boards of up to 25×25; this board is {size}"
            )));
        }
        let mut initial_stones = Vec::new();
        for y in 0..size.rows {
            for x in 0..size.cols {
                let p = sgf_core::Point::new(x, y);
                if let Some(col) = c.position().board.get(p).color() {
                    initial_stones.push((col, p));
                }
            }
        }
        let initial_player = c.next_player(doc);
        let mut moves = Vec::new();
        let mut nodes = vec![path[0]];
        for &id in &path[1..] {
            c.down(doc, id);
            let n = doc.node(id);
            if n.has("AB") || n.has("AW") || n.has("AE") {
                return Err(Error::Unsupported(
                    "KataGo's analysis engine takes moves only; this game adds or removes stones after the start".into(),
                ));
            }
            for &(col, mv) in &c.report().moves {
                moves.push((
                    col,
                    match mv {
                        sgf_go::Move::Pass => EngineMove::Pass,
                        sgf_go::Move::Play(p) => EngineMove::Play(p),
                    },
                ));
                nodes.push(id);
            }
        }
        let settings = Settings::of_game(&GameInfo::of(doc, game));
        Ok((
            Query {
                size,
                initial_stones,
                initial_player,
                analyze_turns: (0..=moves.len()).collect(),
                moves,
                rules: settings.rules,
                komi: settings.komi,
                max_visits: None,
                include_ownership: true,
            },
            nodes,
        ))
    }

    /// The JSON of the query, with id `id`.
    pub fn to_json(&self, id: &str) -> Value {
        let v = |m: EngineMove| m.to_gtp(self.size);
        let mut q = json!({
            "id": id,
            "boardXSize": self.size.cols,
            "boardYSize": self.size.rows,
            "initialStones": self.initial_stones.iter()
                .map(|&(c, p)| json!([gtp_color(c), coords::human(p, self.size)]))
                .collect::<Vec<_>>(),
            "initialPlayer": gtp_color(self.initial_player),
            "moves": self.moves.iter().map(|&(c, m)| json!([gtp_color(c), v(m)])).collect::<Vec<_>>(),
            "rules": match self.rules {
                Rules::NewZealand => "new-zealand",
                Rules::Ing => "chinese",
                r => r.as_str(),
            },
            "komi": self.komi,
            "analyzeTurns": self.analyze_turns,
            "includeOwnership": self.include_ownership,
            "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"},
        });
        if let Some(n) = self.max_visits {
            q["maxVisits"] = json!(n);
        }
        q
    }

    /// The player to move at turn `k`.
    pub fn to_play(&self, k: usize) -> Color {
        match self.moves.get(k) {
            Some(&(c, _)) => c,
            None => self
                .moves
                .last()
                .map_or(self.initial_player, |&(c, _)| c.opponent()),
        }
    }
}

/// One answer of the analysis engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The query's id.
    pub id: String,
    /// The turn analysed.
    pub turn: usize,
    /// Whether more answers for this turn follow (a partial answer).
    pub during_search: bool,
    /// The turn was terminated before any analysis (`noResults`): the
    /// evaluation is empty.
    pub no_results: bool,
    /// The evaluation.
    pub analysis: Analysis,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMove {
    r#move: String,
    #[serde(default)]
    visits: u64,
    winrate: Option<f64>,
    score_lead: Option<f64>,
    score_mean: Option<f64>,
    prior: Option<f64>,
    lcb: Option<f64>,
    order: Option<u32>,
    #[serde(default)]
    pv: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRoot {
    winrate: Option<f64>,
    score_lead: Option<f64>,
    visits: Option<u64>,
    current_player: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawResponse {
    id: String,
    turn_number: usize,
    #[serde(default)]
    is_during_search: bool,
    #[serde(default)]
    no_results: bool,
    #[serde(default)]
    move_infos: Vec<RawMove>,
    root_info: Option<RawRoot>,
    ownership: Option<Vec<f64>>,
}

/// Turns a Black-view value into the player to move's view.
fn view(x: f64, to_play: Color, win: bool) -> f64 {
    match (to_play, win) {
        (Color::Black, _) => x,
        (Color::White, true) => 1.0 - x,
        (Color::White, false) => -x,
    }
}

/// Parses one answer line for a query of board `size` (moves `query` give
/// the player to move when the answer does not). `Ok(None)` for lines
/// that are not analysis answers (version, terminate acknowledgements,
/// warnings). A turn terminated before any search (`noResults`) is an
/// answer with [`Response::no_results`] set and an empty evaluation.
///
/// # Errors
/// An `error` answer, or JSON that is not an answer.
pub fn parse_response(
    line: &str,
    query: Option<&Query>,
    size: BoardSize,
) -> std::result::Result<Option<Response>, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {line}"))?;
    if let Some(e) = v.get("error") {
        let field = v.get("field").and_then(Value::as_str).unwrap_or("");
        return Err(format!(
            "{}{}",
            e.as_str().unwrap_or("error"),
            if field.is_empty() {
                String::new()
            } else {
                format!(" (field `{field}`)")
            }
        ));
    }
    if v.get("turnNumber").is_none() {
        return Ok(None);
    }
    let raw: RawResponse =
        serde_json::from_value(v).map_err(|e| format!("unexpected answer ({e}): {line}"))?;
    let to_play = raw
        .root_info
        .as_ref()
        .and_then(|r| r.current_player.as_deref())
        .and_then(|p| match p {
            "B" | "b" => Some(Color::Black),
            "W" | "w" => Some(Color::White),
            _ => None,
        })
        .or_else(|| query.map(|q| q.to_play(raw.turn_number)))
        .unwrap_or(Color::Black);
    let candidates = raw
        .move_infos
        .iter()
        .enumerate()
        .filter_map(|(k, m)| {
            Some(Candidate {
                mv: EngineMove::parse(&m.r#move, size)?,
                visits: m.visits,
                winrate: view(m.winrate.unwrap_or(0.5), to_play, true).clamp(0.0, 1.0),
                score_lead: m
                    .score_lead
                    .or(m.score_mean)
                    .map(|s| view(s, to_play, false)),
                prior: m.prior,
                lcb: m.lcb.map(|l| view(l, to_play, true)),
                order: m.order.unwrap_or(k as u32),
                pv: m
                    .pv
                    .iter()
                    .map_while(|t| EngineMove::parse(t, size))
                    .collect(),
            })
        })
        .collect();
    let ownership = raw
        .ownership
        .filter(|o| o.len() == size.points() && o.iter().all(|x| x.is_finite()));
    let root = raw.root_info.as_ref();
    Ok(Some(Response {
        id: raw.id,
        turn: raw.turn_number,
        during_search: raw.is_during_search,
        no_results: raw.no_results,
        analysis: Analysis {
            to_play,
            candidates,
            ownership,
            root_winrate: root.and_then(|r| r.winrate).map(|w| view(w, to_play, true)),
            root_score_lead: root
                .and_then(|r| r.score_lead)
                .map(|s| view(s, to_play, false)),
            root_visits: root.and_then(|r| r.visits),
        },
    }))
}

/// A running KataGo analysis engine. Dropping it closes its input and ends it.
pub struct AnalysisEngine {
    spec: EngineSpec,
    proc: Process,
    next_id: u64,
    /// The queries sent, each with the turns whose final answer has not come yet.
    queries: BTreeMap<String, Pending>,
}

/// What [`AnalysisEngine::receive`] got.
enum Got {
    Answer(Response),
    /// An error answer, and the query it names.
    Failed {
        id: Option<String>,
        error: Error,
    },
    Nothing,
}

/// A query whose final answers are still to come.
struct Pending {
    query: Query,
    turns: std::collections::BTreeSet<usize>,
}

impl std::fmt::Debug for AnalysisEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisEngine")
            .field("spec", &self.spec)
            .finish()
    }
}

impl AnalysisEngine {
    /// Starts the engine and checks that it answers (`query_version`).
    ///
    /// # Errors
    /// The program cannot be started, exits, or does not answer in time.
    pub fn start(spec: &EngineSpec) -> Result<AnalysisEngine> {
        if spec.protocol != Protocol::KatagoAnalysis {
            return Err(Error::Unsupported(format!(
                "engine `{}` is a GTP engine, not KataGo's analysis engine",
                spec.name
            )));
        }
        let mut e = AnalysisEngine {
            spec: spec.clone(),
            proc: Process::start(spec)?,
            next_id: 1,
            queries: BTreeMap::new(),
        };
        let q = json!({"id": "qipu-version", "action": "query_version"}).to_string();
        e.proc.write_line(&q, "query_version")?;
        let deadline = Instant::now() + spec.timeout;
        loop {
            match e.proc.read_line(deadline) {
                Read1::Line(l) => {
                    let Ok(v) = serde_json::from_str::<Value>(&l) else {
                        continue;
                    };
                    if v.get("id").and_then(Value::as_str) == Some("qipu-version") {
                        return Ok(e);
                    }
                }
                Read1::Timeout => return Err(e.proc.timed_out("query_version", spec.timeout)),
                Read1::Closed => return Err(e.proc.exited("query_version")),
            }
        }
    }

    /// How the engine was started.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The last part of what the engine wrote on standard error.
    pub fn stderr(&self) -> String {
        self.proc.stderr()
    }

    /// Sends a query; returns its id.
    ///
    /// # Errors
    /// The engine has gone.
    pub fn send(&mut self, query: &Query) -> Result<String> {
        let id = format!("qipu-{}", self.next_id);
        self.next_id += 1;
        self.proc
            .write_line(&query.to_json(&id).to_string(), "analysis query")?;
        // Without turns KataGo analyses the last one.
        let turns = if query.analyze_turns.is_empty() {
            [query.moves.len()].into()
        } else {
            query.analyze_turns.iter().copied().collect()
        };
        self.queries.insert(
            id.clone(),
            Pending {
                query: query.clone(),
                turns,
            },
        );
        Ok(id)
    }

    /// Cancels a query (`terminate`). Every turn still ends with one final
    /// answer: the evaluation so far, or one with
    /// [`Response::no_results`] for a turn not searched at all.
    ///
    /// # Errors
    /// The engine has gone.
    pub fn terminate(&mut self, id: &str) -> Result<()> {
        let t = json!({"id": format!("{id}-stop"), "action": "terminate", "terminateId": id});
        self.proc.write_line(&t.to_string(), "terminate")
    }

    /// The ids of the queries sent whose every turn has not had its final
    /// answer yet, in id order.
    pub fn pending(&self) -> Vec<String> {
        self.queries.keys().cloned().collect()
    }

    /// The next answer, waiting up to `wait` (`Ok(None)` if none came).
    ///
    /// # Errors
    /// An `error` answer ([`Error::Refused`]), a line that is not an
    /// answer, or the engine died.
    pub fn recv(&mut self, wait: Duration) -> Result<Option<Response>> {
        match self.receive(wait)? {
            Got::Answer(r) => Ok(Some(r)),
            Got::Nothing => Ok(None),
            Got::Failed { error, .. } => Err(error),
        }
    }

    /// [`AnalysisEngine::recv`], an error answer kept apart with the id it names.
    fn receive(&mut self, wait: Duration) -> Result<Got> {
        let deadline = Instant::now() + wait;
        loop {
            let line = match self.proc.read_line(deadline) {
                Read1::Line(l) => l,
                Read1::Timeout => return Ok(Got::Nothing),
                Read1::Closed => return Err(self.proc.exited("analysis")),
            };
            if line.trim().is_empty() {
                continue;
            }
            let id = serde_json::from_str::<Value>(&line)
                .ok()
                .and_then(|v| v.get("id").and_then(Value::as_str).map(str::to_string));
            let query = id
                .as_deref()
                .and_then(|i| self.queries.get(i))
                .map(|p| &p.query);
            let size = query.map_or(BoardSize::square(19), |q| q.size);
            match parse_response(&line, query, size) {
                Ok(Some(r)) => {
                    if !r.during_search
                        && let Some(p) = self.queries.get_mut(&r.id)
                    {
                        p.turns.remove(&r.turn);
                        if p.turns.is_empty() {
                            self.queries.remove(&r.id);
                        }
                    }
                    return Ok(Got::Answer(r));
                }
                Ok(None) => continue,
                Err(message) => {
                    // An error ends the query it names: no answers follow.
                    if let Some(i) = &id {
                        self.queries.remove(i);
                    }
                    let error = Error::Refused {
                        engine: self.spec.name.clone(),
                        command: id.clone().unwrap_or_else(|| "analysis".into()),
                        message,
                    };
                    return Ok(Got::Failed { id, error });
                }
            }
        }
    }

    /// Analyses every turn of `query` and returns the final answer of each
    /// (in turn order), calling `progress(done, total)` as they arrive.
    /// Each answer may take up to the spec's time limit.
    ///
    /// # Errors
    /// Any answer is an error, one is late, or the engine died.
    pub fn analyze(
        &mut self,
        query: &Query,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Vec<Response>> {
        if query.analyze_turns.is_empty() {
            return Ok(Vec::new());
        }
        let id = self.send(query)?;
        let total = query
            .analyze_turns
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let mut got: BTreeMap<usize, Response> = BTreeMap::new();
        while got.len() < total {
            let r = match self.receive(self.spec.timeout) {
                Ok(Got::Answer(r)) => r,
                Ok(Got::Nothing) => {
                    self.queries.remove(&id);
                    return Err(self.proc.timed_out("analysis query", self.spec.timeout));
                }
                // Another query's error is that query's business.
                Ok(Got::Failed {
                    id: Some(other), ..
                }) if other != id => continue,
                Ok(Got::Failed { error, .. }) | Err(error) => {
                    self.queries.remove(&id);
                    return Err(error);
                }
            };
            if r.id != id || r.during_search {
                continue;
            }
            if r.no_results {
                self.queries.remove(&id);
                return Err(Error::Protocol {
                    engine: self.spec.name.clone(),
                    message: format!("turn {} of the query was terminated unanalysed", r.turn),
                });
            }
            if query.analyze_turns.contains(&r.turn) {
                got.insert(r.turn, r);
                progress(got.len(), total);
            }
        }
        Ok(got.into_values().collect())
    }
}

impl Drop for AnalysisEngine {
    fn drop(&mut self) {
        self.proc.shutdown(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_of_a_game() {
        let doc =
            sgf_core::parse(b"(;SZ[9]KM[7]RU[Chinese]HA[2]AB[cc][gg];W[ee];B[];W[dd])").document;
        let g = doc.game(0).unwrap();
        let last = g.main_line().last().unwrap().id();
        let (q, nodes) = Query::for_game(&doc, 0, last).unwrap();
        assert_eq!(q.initial_stones.len(), 2);
        assert_eq!(q.initial_player, Color::White);
        assert_eq!(q.moves.len(), 3);
        assert_eq!(q.moves[1], (Color::Black, EngineMove::Pass));
        assert_eq!(q.analyze_turns, [0, 1, 2, 3]);
        assert_eq!(nodes.len(), 4);
        assert_eq!(q.to_play(3), Color::Black);
        let j = q.to_json("x");
        assert_eq!(j["moves"][0], json!(["W", "E5"]));
        assert_eq!(j["initialStones"][0], json!(["B", "C7"]));
        assert_eq!(j["rules"], "chinese");
        assert_eq!(j["komi"], 7.0);
        assert_eq!(j["overrideSettings"]["reportAnalysisWinratesAs"], "BLACK");
        let doc = sgf_core::parse(b"(;SZ[9];B[ee];AB[aa];W[cc])").document;
        let last = doc.game(0).unwrap().main_line().last().unwrap().id();
        assert!(matches!(
            Query::for_game(&doc, 0, last),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn answers_are_turned_to_the_player_to_move() {
        let size = BoardSize::square(19);
        // An answer as KataGo documents it (Black's point of view asked).
        let line = r#"{"id":"q","isDuringSearch":false,"turnNumber":1,"moveInfos":[{"move":"Q4","visits":40,"winrate":0.7,"scoreLead":3.5,"prior":0.2,"lcb":0.65,"order":0,"pv":["Q4","D16"]}],"rootInfo":{"winrate":0.68,"scoreLead":3.0,"visits":50,"currentPlayer":"W"}}"#;
        let r = parse_response(line, None, size).unwrap().unwrap();
        assert_eq!((r.id.as_str(), r.turn), ("q", 1));
        let a = &r.analysis;
        assert_eq!(a.to_play, Color::White);
        assert!((a.candidates[0].winrate - 0.3).abs() < 1e-9);
        assert_eq!(a.candidates[0].score_lead, Some(-3.5));
        assert!((a.black_winrate().unwrap() - 0.68).abs() < 1e-9);
        assert_eq!(a.black_score_lead(), Some(3.0));
        assert_eq!(a.visits(), 50);
        assert_eq!(
            parse_response(r#"{"id":"q","version":"1.15.0"}"#, None, size),
            Ok(None)
        );
        let e = parse_response(
            r#"{"id":"q","error":"bad komi","field":"komi"}"#,
            None,
            size,
        )
        .unwrap_err();
        assert!(e.contains("komi"), "{e}");
        // A turn terminated before any search.
        let r = parse_response(
            r#"{"id":"q","isDuringSearch":false,"noResults":true,"turnNumber":2}"#,
            None,
            size,
        )
        .unwrap()
        .unwrap();
        assert!(r.no_results && !r.during_search);
        assert_eq!(r.turn, 2);
        assert!(r.analysis.candidates.is_empty());
        // A warning is not an answer.
        assert_eq!(
            parse_response(r#"{"id":"q","warning":"odd","field":"rules"}"#, None, size),
            Ok(None)
        );
        assert!(parse_response("{not json", None, size).is_err());
        assert!(parse_response(r#"{"id":"q","turnNumber":"x"}"#, None, size).is_err());
    }
}
