//! The engine of a session: the position shown analysed as the user
//! moves through the record, the engine's moves played into the tree by
//! the same edit as the user's (so undo takes them back), and counting at
//! the end of a game. The engine itself is sgf-gtp's [`LiveEngine`], on a
//! thread of its own: nothing here waits on it but a move or a count the
//! user asked for, and the server's handlers wait for those without the
//! session's lock.

//!
//! Without the `server` feature (the static viewer) no engine runs: what
//! stays is counting with Qipu's estimator and the graph of the record's
//! own evaluations (`SBKV`).

use std::collections::HashMap;
#[cfg(feature = "server")]
use std::sync::Arc;
#[cfg(feature = "server")]
use std::sync::atomic::{AtomicBool, Ordering};

use sgf_core::{Color, NodeId, Point};
use sgf_go::edit::node_move;
use sgf_go::score::{self, DeadFrom, Rules, Scoring, Settings};
use sgf_go::{GameInfo, Move};
#[cfg(feature = "server")]
use sgf_go::{Position, coords};
#[cfg(feature = "server")]
use sgf_gtp::{Analysis, EngineMove, GameLine, LiveEngine};

use super::{OpError, Session};
#[cfg(feature = "server")]
use crate::api::{BoardPoint, Edit};
use crate::api::{CountAction, DeadSource};
use crate::responses::{AnalysisAnswer, Count, EngineStatus, Graph};
#[cfg(feature = "server")]
use crate::responses::{BatchState, Candidate, EngineAnalysis, SecondEngine};

/// A session's engine and what it does for the session.
#[derive(Default)]
pub(crate) struct EngineState {
    #[cfg(feature = "server")]
    live: Option<Arc<LiveEngine>>,
    #[cfg(feature = "server")]
    /// A second engine, which plays White (the first then plays Black):
    /// engine against engine.
    second: Option<Arc<LiveEngine>>,
    #[cfg(feature = "server")]
    /// Analysis of the position shown is wanted.
    analysing: bool,
    #[cfg(feature = "server")]
    /// The tag of the last analysis asked for.
    tag: u64,
    #[cfg(feature = "server")]
    /// The position under analysis: its node and line, asked for as `tag`.
    analysed: Option<(NodeId, GameLine)>,
    /// The latest evaluation of each node's position (for the graph).
    evals: HashMap<NodeId, Eval>,
    #[cfg(feature = "server")]
    /// The colour the engine plays, in a game against it.
    playing: Option<Color>,
    #[cfg(feature = "server")]
    /// The level asked for (1 to 10), in a game against it.
    level: Option<u32>,
    counting: Option<Counting>,
    #[cfg(feature = "server")]
    /// "Analyse the whole game": the line's positions evaluated one
    /// after another on a thread (see [`Session::batch_start`]).
    batch: Option<Batch>,
}

#[cfg(feature = "server")]
/// The whole line being analysed: how far it got, and the flag that
/// stops its thread.
#[derive(Debug)]
pub(crate) struct Batch {
    done: usize,
    total: usize,
    visits: u64,
    cancel: Arc<AtomicBool>,
}

#[cfg(feature = "server")]
/// One position of the line analysed as a whole: its node, the way to
/// it, and the node's move (kept with its evaluation, as the graph does).
pub(crate) type BatchItem = (NodeId, GameLine, Option<(Color, Move)>);

#[cfg(feature = "server")]
/// What the thread of "analyse the whole game" is given: the engine, the
/// positions, and the flag that stops it.
pub(crate) type BatchStart = (Arc<LiveEngine>, Vec<BatchItem>, Arc<AtomicBool>);

#[cfg(feature = "server")]
/// The tags of the whole line's positions, apart from the position shown's.
pub(crate) const BATCH_TAGS: u64 = 1 << 48;

/// What the graph keeps of an evaluation. The node's move is kept too: a
/// node id of a deleted node may be taken by another.
#[derive(Clone, Debug)]
struct Eval {
    mv: Option<(Color, Move)>,
    black_winrate: Option<f64>,
    black_lead: Option<f64>,
}

/// Counting the position at a node: the dead stones (proposed, then
/// toggled by the user), the points counted for nobody, the rules.
#[derive(Clone, Debug)]
pub(crate) struct Counting {
    node: NodeId,
    dead: Vec<Point>,
    dame: Vec<Point>,
    from: DeadFrom,
    rules: Rules,
}

#[cfg(feature = "server")]
/// The SGF name of a point (`dd`), as the page's board speaks.
fn sgf_point(p: Point) -> String {
    p.to_string()
}

#[cfg(feature = "server")]
fn engine_move_json(m: EngineMove) -> Option<String> {
    match m {
        EngineMove::Play(p) => Some(sgf_point(p)),
        EngineMove::Pass | EngineMove::Resign => None,
    }
}

#[cfg(feature = "server")]
/// A new game against an engine as SGF: board size, komi, handicap stones
/// in the fixed placement, the engine's name on its side.
pub(crate) fn new_game_sgf(
    size: u8,
    handicap: u32,
    komi: f64,
    engine_color: Option<Color>,
    engine_name: &str,
) -> Result<String, OpError> {
    if !(2..=25).contains(&size) {
        return Err("engines play boards of 2 to 25 lines".into());
    }
    let name = |c| {
        if engine_color == Some(c) {
            engine_name.to_string()
        } else {
            String::new()
        }
    };
    crate::session::new_record_sgf(&crate::api::NewRecord {
        size,
        handicap,
        komi,
        rules: "Japanese".into(),
        black: name(Color::Black),
        white: name(Color::White),
    })
}

#[cfg(feature = "server")]
impl EngineState {
    /// The engine, for a request that waits on it without the session's lock.
    pub(crate) fn live(&self) -> Option<Arc<LiveEngine>> {
        self.live.clone()
    }
}

impl Session {
    #[cfg(feature = "server")]
    /// The engine, if one runs for this session.
    pub(crate) fn engine(&self) -> Option<Arc<LiveEngine>> {
        self.engine.live()
    }

    #[cfg(feature = "server")]
    /// Puts `live` in place of the session's engine (none: no engine) and
    /// returns the one it replaces, for the caller to shut down.
    pub(crate) fn set_engine(&mut self, live: Option<Arc<LiveEngine>>) -> Option<Arc<LiveEngine>> {
        self.engine.analysed = None;
        self.batch_stop();
        if live.is_none() {
            self.engine.analysing = false;
            self.engine.playing = None;
        }
        std::mem::replace(&mut self.engine.live, live)
    }

    #[cfg(feature = "server")]
    /// Puts `live` in place of White's second engine and returns the one
    /// it replaces, for the caller to shut down.
    pub(crate) fn set_second(&mut self, live: Option<Arc<LiveEngine>>) -> Option<Arc<LiveEngine>> {
        std::mem::replace(&mut self.engine.second, live)
    }

    #[cfg(feature = "server")]
    /// The engine that moves for the player to move: White's second
    /// engine when there is one and White is to play, else the engine.
    pub(crate) fn engine_to_move(&self) -> Option<Arc<LiveEngine>> {
        match &self.engine.second {
            Some(w) if self.cursor.next_player(&self.doc) == Color::White => Some(w.clone()),
            _ => self.engine.live.clone(),
        }
    }

    #[cfg(feature = "server")]
    /// The way to the position shown, for an engine.
    pub(crate) fn engine_line(&self) -> Option<GameLine> {
        GameLine::of(&self.doc, self.lg(), self.cursor.node())
    }

    #[cfg(feature = "server")]
    /// The position shown (for dead stones asked of the engine).
    pub(crate) fn position(&self) -> Position {
        self.cursor.position().clone()
    }

    /// Keeps the engine in step with the page: counting ends when the page
    /// leaves its node; the analysis follows the position shown (the
    /// engine is told only when the position really changed, not after an
    /// edit of a comment).
    pub(crate) fn engine_sync(&mut self) {
        let here = self.cursor.node();
        if self
            .engine
            .counting
            .as_ref()
            .is_some_and(|c| c.node != here)
        {
            self.engine.counting = None;
        }
        #[cfg(feature = "server")]
        self.engine_follow();
    }

    /// The analysis follows the position shown.
    #[cfg(feature = "server")]
    fn engine_follow(&mut self) {
        let here = self.cursor.node();
        let Some(live) = self.engine.live.clone() else {
            return;
        };
        // The whole line is being analysed: the engine is busy with it.
        if !self.engine.analysing || !live.can_analyse() || self.engine.batch.is_some() {
            return;
        }
        let Some(line) = self.engine_line() else {
            return;
        };
        if self
            .engine
            .analysed
            .as_ref()
            .is_some_and(|(n, l)| *n == here && *l == line)
        {
            return;
        }
        self.engine.tag += 1;
        self.engine.analysed = Some((here, line.clone()));
        live.analyse(line, self.engine.tag);
    }

    #[cfg(feature = "server")]
    /// Analysis of the position shown on or off.
    pub(crate) fn set_analysing(&mut self, on: bool) -> Result<(), OpError> {
        let live = self.engine.live.clone().ok_or("no engine is running")?;
        if on && !live.can_analyse() {
            return Err(format!(
                "{} cannot analyse (it has neither lz-analyze nor kata-analyze)",
                live.spec().name
            ));
        }
        self.engine.analysing = on;
        self.engine.analysed = None;
        if !on {
            live.stop_analysis();
        }
        Ok(())
    }

    #[cfg(feature = "server")]
    /// Starts "analyse the whole game": the positions of the line shown
    /// (the path here and on down the line visited last), for the
    /// caller's thread to evaluate with `visits` visits each, reporting
    /// with [`Session::batch_record`] and ending with
    /// [`Session::batch_end`] (or stopped by [`Session::batch_stop`]).
    pub(crate) fn batch_start(&mut self, visits: u64) -> Result<BatchStart, OpError> {
        let live = self.engine.live.clone().ok_or("no engine is running")?;
        if !live.can_analyse() {
            return Err(format!(
                "{} cannot analyse (it has neither lz-analyze nor kata-analyze)",
                live.spec().name
            ));
        }
        self.batch_stop();
        let size = self.size();
        let mut line: Vec<NodeId> = self.path_here();
        while let Some(c) = line.last().and_then(|&n| self.next_child(n)) {
            line.push(c);
        }
        let items: Vec<BatchItem> = line
            .into_iter()
            .filter_map(|n| {
                let l = GameLine::of(&self.doc, self.lg(), n)?;
                Some((n, l, node_move(&self.doc, n, size)))
            })
            .collect();
        let cancel = Arc::new(AtomicBool::new(false));
        self.engine.batch = Some(Batch {
            done: 0,
            total: items.len(),
            visits,
            cancel: cancel.clone(),
        });
        Ok((live, items, cancel))
    }

    #[cfg(feature = "server")]
    /// An evaluation of the whole line's analysis (`None`: the engine
    /// said nothing of that position in time).
    pub(crate) fn batch_record(
        &mut self,
        node: NodeId,
        mv: Option<(Color, Move)>,
        a: Option<&Analysis>,
    ) {
        if let Some(a) = a {
            self.engine.evals.insert(
                node,
                Eval {
                    mv,
                    black_winrate: a.black_winrate(),
                    black_lead: a.black_score_lead(),
                },
            );
        }
        if let Some(b) = &mut self.engine.batch {
            b.done += 1;
        }
    }

    #[cfg(feature = "server")]
    /// The whole line's analysis over (its thread's `cancel`): the
    /// position shown is analysed again when that is on.
    pub(crate) fn batch_end(&mut self, cancel: &Arc<AtomicBool>) {
        if self
            .engine
            .batch
            .as_ref()
            .is_some_and(|b| Arc::ptr_eq(&b.cancel, cancel))
        {
            self.engine.batch = None;
            self.engine.analysed = None;
            self.engine_sync();
        }
    }

    #[cfg(feature = "server")]
    /// Stops the whole line's analysis, if one runs.
    pub(crate) fn batch_stop(&mut self) {
        if let Some(b) = self.engine.batch.take() {
            b.cancel.store(true, Ordering::Relaxed);
            self.engine.analysed = None;
        }
    }

    #[cfg(feature = "server")]
    /// Who the engine plays (`color`: none to stop) and its `level`.
    pub(crate) fn set_playing(
        &mut self,
        color: Option<Color>,
        level: Option<u32>,
    ) -> Result<(), OpError> {
        let live = self.engine.live.clone().ok_or("no engine is running")?;
        self.engine.playing = color;
        if let Some(level) = level {
            let level = level.clamp(1, 10);
            live.set_level(level).map_err(|e| e.to_string())?;
            self.engine.level = Some(level);
            // The level command stopped the analysis: ask again.
            self.engine.analysed = None;
        }
        Ok(())
    }

    #[cfg(feature = "server")]
    /// Plays the engine's answer `mv` to the position of `line` at `node`
    /// into the record, by the edit a user's move takes (a resignation
    /// writes the result). Refused when the page has moved on meanwhile.
    pub(crate) fn engine_played(
        &mut self,
        node: NodeId,
        line: &GameLine,
        mv: EngineMove,
        engine: &str,
    ) -> Result<String, OpError> {
        if self.cursor.node() != node || self.engine_line().as_ref() != Some(line) {
            return Err(format!(
                "the position changed while {engine} was thinking: its move was not played"
            ));
        }
        let who = if line.to_play == Color::Black {
            "Black"
        } else {
            "White"
        };
        match mv {
            EngineMove::Resign => {
                let winner = line.to_play.opponent().as_str();
                let props = [("RE".to_string(), format!("{winner}+R"))].into();
                self.edit(&Edit::Info { props }, None)?;
                Ok(format!("{engine} ({who}) resigns"))
            }
            EngineMove::Pass => {
                self.edit(
                    &Edit::Play {
                        point: None,
                        force: true,
                    },
                    None,
                )?;
                Ok(format!("{engine} ({who}) passes"))
            }
            EngineMove::Play(p) => {
                // The engine's rules decide what is legal (superko, suicide).
                self.edit(
                    &Edit::Play {
                        point: Some(BoardPoint(p)),
                        force: true,
                    },
                    None,
                )?;
                Ok(format!(
                    "{engine} ({who}) plays {}",
                    coords::human(p, line.size)
                ))
            }
        }
    }

    /// The engine's state for the page (in every state): `null`, none.
    #[cfg(not(feature = "server"))]
    pub(crate) fn engine_json(&self) -> Option<EngineStatus> {
        None
    }

    /// The engine's state for the page (in every state).
    #[cfg(feature = "server")]
    pub(crate) fn engine_json(&self) -> Option<EngineStatus> {
        let live = self.engine.live.as_ref()?;
        let snap = live.snapshot();
        Some(EngineStatus {
            name: live.spec().name.clone(),
            command: live.spec().command_line(),
            alive: snap.alive,
            error: snap.error,
            can_analyse: live.can_analyse(),
            analysing: self.engine.analysing,
            playing: self.engine.playing.map(|c| c.as_str()),
            level: self.engine.level,
            batch: self.engine.batch.as_ref().map(|b| BatchState {
                done: b.done,
                total: b.total,
                visits: b.visits,
            }),
            second: self.engine.second.as_ref().map(|w| {
                let snap = w.snapshot();
                SecondEngine {
                    name: w.spec().name.clone(),
                    alive: snap.alive,
                    error: snap.error,
                }
            }),
        })
    }

    /// The latest analysis of the position shown (`null` until the engine
    /// said something about it) and the graph of the line shown: `{engine,
    /// analysis: {node, to_play, visits, black_winrate, black_lead,
    /// updates, ownership, candidates: [{point, move, visits, winrate,
    /// score_lead, order, pv}]}, graph: {points: [[node, black win rate, black
    /// lead]], current}}`. Win rates and leads of candidates are the
    /// player to move's; `point` and `pv` entries are SGF points (`null`:
    /// a pass).
    pub(crate) fn analysis_json(&mut self) -> AnalysisAnswer {
        self.engine_sync();
        #[allow(unused_mut)]
        let mut analysis = None;
        #[cfg(feature = "server")]
        if let (Some(live), Some((node, line))) = (&self.engine.live, &self.engine.analysed) {
            let snap = live.snapshot();
            if snap.tag == Some(self.engine.tag)
                && let Some(a) = &snap.analysis
            {
                let (node, size) = (*node, line.size);
                self.engine.evals.insert(
                    node,
                    Eval {
                        mv: node_move(&self.doc, node, size),
                        black_winrate: a.black_winrate(),
                        black_lead: a.black_score_lead(),
                    },
                );
                analysis = Some(analysis_value(a, self.number(node), snap.updates, size));
            }
        }
        AnalysisAnswer {
            engine: self.engine_json(),
            analysis,
            graph: self.graph_json(),
        }
    }

    /// The nodes of the line shown (the path here and on down the line
    /// last visited), each with Black's win rate and lead where known:
    /// from the engine's evaluations, else the record's `SBKV` (Sabaki's
    /// win rate, which `qipu analyze` writes).
    fn graph_json(&self) -> Graph {
        let size = self.size();
        let mut line: Vec<NodeId> = self.path_here();
        let current = line.len().saturating_sub(1);
        while let Some(c) = line.last().and_then(|&n| self.next_child(n)) {
            line.push(c);
        }
        let points = line
            .iter()
            .map(|&n| {
                let mv = node_move(&self.doc, n, size);
                let (w, l) = match self.engine.evals.get(&n).filter(|e| e.mv == mv) {
                    Some(e) => (e.black_winrate, e.black_lead),
                    None => (
                        self.doc
                            .node(n)
                            .value("SBKV")
                            .and_then(|v| v.as_simple_text().trim().parse::<f64>().ok())
                            .filter(|x| x.is_finite() && (0.0..=100.0).contains(x))
                            .map(|x| x / 100.0),
                        None,
                    ),
                };
                (self.number(n), w, l)
            })
            .collect();
        Graph { points, current }
    }

    /// Starts counting the position shown with `dead` stones proposed by `from`.
    pub(crate) fn count_start(&mut self, dead: Vec<Point>, dame: Vec<Point>, from: DeadFrom) {
        let info = GameInfo::of(&self.doc, self.lg());
        let rules = Settings::of_game(&info).rules;
        self.engine.counting = Some(Counting {
            node: self.cursor.node(),
            dead,
            dame,
            from,
            rules,
        });
    }

    /// Counting without an engine: the record's `TB`/`TW` when the node
    /// has them (`marks`), else (or for `estimator`) Qipu's estimator.
    pub(crate) fn count_without_engine(&mut self, source: DeadSource) {
        let (dead, from) = if source == DeadSource::Estimator {
            (
                score::estimate_dead(&self.cursor.position().board),
                DeadFrom::Estimator,
            )
        } else {
            score::record_dead(&self.doc, &self.cursor)
        };
        self.count_start(dead, Vec::new(), from);
    }

    /// Changes the count: `toggle` the group at `point` dead or alive,
    /// `rules`, `stop` (`start` is the server's: it may ask the engine).
    pub(crate) fn count_action(&mut self, action: CountAction) -> Result<(), OpError> {
        if let CountAction::Stop = action {
            self.engine.counting = None;
            return Ok(());
        }
        let size = self.size();
        let board = self.cursor.position().board.clone();
        let c = self
            .engine
            .counting
            .as_mut()
            .ok_or("not counting: press Count first")?;
        match action {
            CountAction::Toggle { point } => {
                let p = super::on_board(point, size)?;
                if board.get(p) == sgf_go::Stone::Empty {
                    return Err("click a stone to mark its group dead or alive".into());
                }
                c.dead = score::toggle_dead(&board, &c.dead, p);
                c.from = DeadFrom::User;
            }
            CountAction::Rules { rules } => c.rules = rules.0,
            CountAction::Start { .. } | CountAction::Stop => {}
        }
        Ok(())
    }

    /// The count of the position shown, for the page: `null` when not
    /// counting, else `{node, from, rules, scoring, komi, handicap, dead,
    /// territory (whose territory each point is: a string of B, W and .,
    /// row-major, dead stones' points included), cols, black: {territory,
    /// captures, stones, area, score}, white, result, area_result,
    /// territory_result, finished}`. Both ways of counting are given;
    /// `result` is the one of the rules. `finished` is false when, with the
    /// dead stones off, the borders are not closed: the game is still going
    /// on, the territory is estimated from influence, and the result is an
    /// estimate, not one to write into the record.
    pub(crate) fn count_json(&self) -> Option<Count> {
        let c = self.engine.counting.as_ref()?;
        if c.node != self.cursor.node() {
            return None;
        }
        let pos = self.cursor.position();
        let info = GameInfo::of(&self.doc, self.lg());
        let mut settings = Settings::of_game(&info);
        settings.rules = c.rules;
        // Counted when the borders are closed, else estimated from influence;
        // and the other way of counting, for comparison: Chinese area or
        // Japanese territory (the playouts run once for both).
        let mut other = settings.clone();
        other.rules = match c.rules.scoring() {
            Scoring::Area => Rules::Japanese,
            Scoring::Territory => Rules::Chinese,
        };
        let (e, o) = score::count_or_estimate_both(pos, &c.dead, &c.dame, &settings, &other);
        let s = e.score;
        let other_result = o.score.result().to_string();
        let (area_result, territory_result) = match c.rules.scoring() {
            Scoring::Area => (s.result().to_string(), other_result),
            Scoring::Territory => (other_result, s.result().to_string()),
        };
        // Territory: an owned point that holds no live stone.
        let cells = pos.board.cells();
        let cols = pos.board.size().cols as usize;
        let territory: String = s
            .owner
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let p = Point::new((i % cols) as u8, (i / cols) as u8);
                let live_stone = cells[i] != 0 && !s.dead.contains(&p);
                match o {
                    Some(Color::Black) if !live_stone => 'B',
                    Some(Color::White) if !live_stone => 'W',
                    _ => '.',
                }
            })
            .collect();
        // The one shape of a count, with what the page draws besides.
        Some(Count {
            score: sgf_report::ScoreJson::of(&s, &c.dame, c.from),
            node: self.number(c.node),
            from: c.from.as_str(),
            scoring: match c.rules.scoring() {
                Scoring::Area => "area",
                Scoring::Territory => "territory",
            },
            territory,
            cols,
            area_result,
            territory_result,
            finished: e.finished,
        })
    }
}

#[cfg(feature = "server")]
/// An analysis as the page draws it.
fn analysis_value(
    a: &Analysis,
    node: usize,
    updates: u64,
    size: coords::BoardSize,
) -> EngineAnalysis {
    let mut cands: Vec<_> = a.candidates.iter().collect();
    cands.sort_by_key(|c| (c.order, std::cmp::Reverse(c.visits)));
    let candidates = cands
        .iter()
        .take(20)
        .map(|c| Candidate {
            point: engine_move_json(c.mv),
            mv: c.mv.to_gtp(size),
            visits: c.visits,
            winrate: c.winrate,
            score_lead: c.score_lead,
            order: c.order,
            pv: c.pv.iter().take(30).map(|&m| engine_move_json(m)).collect(),
        })
        .collect();
    // Who owns each point, from Black's point of view (-1 to 1, row by
    // row from the top left; KataGo's `ownership`), to two places.
    let ownership = a.ownership.as_ref().map(|o| {
        o.iter()
            .map(|v| (v * 100.0).round() / 100.0)
            .collect::<Vec<f64>>()
    });
    EngineAnalysis {
        node,
        to_play: a.to_play.as_str(),
        ownership,
        visits: a.visits(),
        black_winrate: a.black_winrate(),
        black_lead: a.black_score_lead(),
        updates,
        candidates,
    }
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;
    use crate::api::NewRecord;
    use crate::session::new_record_sgf;

    #[test]
    fn new_games() {
        let s = new_game_sgf(19, 4, 0.5, Some(Color::White), "gnu]go").unwrap();
        assert_eq!(
            s,
            format!(
                "(;GM[1]FF[4]CA[UTF-8]AP[Qipu:{}]SZ[19]KM[0.5]RU[Japanese]HA[4]AB[dp][pd][dd][pp]PW[gnu\\]go])",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(
            new_game_sgf(9, 0, 7.0, None, "x")
                .unwrap()
                .ends_with("KM[7]RU[Japanese])")
        );
        // What the viewer writes passes the check without a warning.
        for s in [s, new_game_sgf(9, 2, 7.0, None, "x").unwrap()] {
            let p = sgf_core::parse(s.as_bytes());
            let mut d = p.diagnostics.clone();
            d.extend(sgf_go::check::check(&p.document));
            d.retain(|d| d.severity != sgf_core::Severity::Info);
            assert!(d.is_empty(), "{s}: {d:?}");
        }
        // A record of its own: rules and players as typed, escaped.
        let r = NewRecord {
            size: 13,
            handicap: 3,
            komi: 0.5,
            rules: "Chinese".into(),
            black: "Ke Jie".into(),
            white: " a\\b ".into(),
        };
        assert!(
            new_record_sgf(&r)
                .unwrap()
                .ends_with("SZ[13]KM[0.5]RU[Chinese]HA[3]AB[dj][jd][dd]PB[Ke Jie]PW[a\\\\b])"),
            "{}",
            new_record_sgf(&r).unwrap()
        );
        assert!(
            crate::session::new_record_sgf(&crate::api::NewRecord {
                size: 53,
                ..r.clone()
            })
            .is_err()
        );
        assert!(
            crate::session::new_record_sgf(&crate::api::NewRecord {
                size: 37,
                komi: 6.5,
                ..Default::default()
            })
            .is_ok()
        );
        assert!(new_game_sgf(8, 6, 0.5, None, "x").is_err());
        assert!(new_game_sgf(30, 0, 0.5, None, "x").is_err());
        assert!(new_game_sgf(19, 0, f64::NAN, None, "x").is_err());
    }
}
