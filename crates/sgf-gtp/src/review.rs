//! Reviewing a game with an engine: every position of the main line
//! evaluated ([`analyze_main_line`]) and the evaluations written into the
//! record ([`annotate`]) in forms other viewers read:
//!
//! - `SBKV[54.20]`: Black's win rate in percent, which Sabaki draws as its
//!   win-rate graph;
//! - `LZ[…]`: Lizzie's analysis property, `<program> <win rate of the
//!   player who just moved, %> <visits>` on the first line and the
//!   candidates on the second (`move Q16 visits 120 winrate 5420 scoreMean
//!   2.5 pv Q16 D4 info move …`, win rates in ten-thousandths for the
//!   player to move);
//! - a paragraph of the comment (`C`) that starts with `Qipu analysis`,
//!   replaced when the game is analysed again.
//!
//! KaTrain's own `KT` property (gzip-compressed binary data) is not written.

use std::time::Duration;

use sgf_core::{Color, Document, EditError, NodeId};
use sgf_go::Cursor;
use sgf_go::coords::BoardSize;

use crate::analysis::Analysis;
use crate::engine::{Engine, gtp_color};
use crate::error::{Error, Result};
use crate::katago::{AnalysisEngine, Query};
use crate::spec::{EngineSpec, Protocol};

/// An engine that can evaluate positions: a GTP engine with `lz-analyze`
/// or `kata-analyze`, or KataGo's analysis engine.
#[derive(Debug)]
pub enum Analyzer {
    /// A GTP engine.
    Gtp(Engine),
    /// KataGo's JSON analysis engine.
    Katago(AnalysisEngine),
}

impl Analyzer {
    /// Starts the engine of `spec` with the protocol it names.
    ///
    /// # Errors
    /// See [`Engine::start`] and [`AnalysisEngine::start`]; a GTP engine
    /// without an analysis command is refused here.
    pub fn start(spec: &EngineSpec) -> Result<Analyzer> {
        match spec.protocol {
            Protocol::KatagoAnalysis => Ok(Analyzer::Katago(AnalysisEngine::start(spec)?)),
            _ => {
                let e = Engine::start(spec)?;
                if e.analysis_format().is_none() {
                    return Err(Error::Unsupported(format!(
                        "engine `{}` cannot analyse (it has neither lz-analyze nor kata-analyze); \
                         use Leela Zero or KataGo",
                        spec.name
                    )));
                }
                Ok(Analyzer::Gtp(e))
            }
        }
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        match self {
            Analyzer::Gtp(e) => &e.spec().name,
            Analyzer::Katago(e) => &e.spec().name,
        }
    }
}

/// The evaluation of the position at a node.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// The node (the root, or the node of the move that led to the position).
    pub node: NodeId,
    /// The evaluation; candidates are the next player's moves.
    pub analysis: Analysis,
}

/// Evaluates every position of the main line of game `game`, from the
/// root's to the last one, with `visits` visits each (a GTP engine stops
/// at `max_time` per position if it has not reached them). Calls
/// `progress(done, total)` after each position.
///
/// # Errors
/// The engine fails, refuses the board or a move, or (KataGo's analysis
/// engine) the game has setup stones after the root.
pub fn analyze_main_line(
    analyzer: &mut Analyzer,
    doc: &Document,
    game: usize,
    visits: u64,
    max_time: Duration,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Evaluated>> {
    let Some(g) = doc.game(game) else {
        return Err(Error::Unsupported(format!("there is no game {}", game + 1)));
    };
    let line: Vec<NodeId> = g.main_line().map(|n| n.id()).collect();
    let last = *line.last().expect("a game has a root");
    match analyzer {
        Analyzer::Katago(k) => {
            let (mut q, nodes) = Query::for_game(doc, game, last)?;
            q.max_visits = Some(visits.max(1));
            let answers = k.analyze(&q, &mut progress)?;
            Ok(answers
                .into_iter()
                .filter_map(|r| {
                    Some(Evaluated {
                        node: *nodes.get(r.turn)?,
                        analysis: r.analysis,
                    })
                })
                .collect())
        }
        Analyzer::Gtp(e) => {
            let total = line.len();
            let mut out = Vec::with_capacity(total);
            let mut c: Cursor = e.replay(doc, game, line[0])?;
            let size = c.size();
            for (k, &id) in line.iter().enumerate() {
                if k > 0 {
                    let n = doc.node(id);
                    if n.has("AB") || n.has("AW") || n.has("AE") {
                        c = e.replay(doc, game, id)?;
                    } else {
                        c.down(doc, id);
                        let moves = c.report().moves.clone();
                        for (col, mv) in moves {
                            e.play(col, mv, size)?;
                        }
                    }
                }
                // After two passes the game is over: nothing to evaluate.
                let passes = path_passes(doc, &line[..=k], size);
                if passes < 2 {
                    let to_play = c.next_player(doc);
                    let analysis = e.analyze(to_play, size, visits.max(1), max_time)?;
                    out.push(Evaluated { node: id, analysis });
                }
                progress(k + 1, total);
            }
            Ok(out)
        }
    }
}

/// How many passes end the line of nodes (consecutive, the last node's first).
fn path_passes(doc: &Document, line: &[NodeId], size: BoardSize) -> usize {
    line.iter()
        .rev()
        .map_while(|&id| sgf_go::edit::node_move(doc, id, size))
        .take_while(|&(_, m)| m == sgf_go::Move::Pass)
        .count()
}

const MARK: &str = "Qipu analysis";
/// Longest variation written: engines' principal variations can run to the end of the board.
const PV_MAX: usize = 20;

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn lead(black_lead: f64) -> String {
    if black_lead >= 0.0 {
        format!("B+{:.1}", black_lead)
    } else {
        format!("W+{:.1}", -black_lead)
    }
}

/// The comment paragraph of an evaluation.
pub fn comment_text(a: &Analysis, engine: &str, size: BoardSize) -> String {
    let mut s = format!("{MARK} ({engine}, {} visits):", a.visits());
    if let Some(w) = a.black_winrate() {
        s += &format!(" Black {}", percent(w));
    }
    if let Some(l) = a.black_score_lead() {
        s += &format!(", score {}", lead(l));
    }
    if let Some(b) = a.best() {
        let pv: Vec<String> = b.pv.iter().take(PV_MAX).map(|m| m.to_gtp(size)).collect();
        s += &format!(
            "\nBest next move: {} {} ({} for {}",
            gtp_color(a.to_play),
            b.mv.to_gtp(size),
            percent(b.winrate),
            if a.to_play == Color::Black {
                "Black"
            } else {
                "White"
            },
        );
        if let Some(l) = b.score_lead {
            s += &format!(", lead {l:+.1}");
        }
        s.push(')');
        if !pv.is_empty() {
            s += &format!("\nVariation: {}", pv.join(" "));
        }
    }
    s
}

/// Lizzie's `LZ` value of an evaluation.
pub fn lz_value(a: &Analysis, engine: &str, size: BoardSize) -> String {
    let moved = a.winrate().map_or(50.0, |w| (1.0 - w) * 100.0);
    let program: String = engine.chars().filter(|c| !c.is_whitespace()).collect();
    let mut cands: Vec<_> = a.candidates.iter().collect();
    cands.sort_by_key(|c| c.order);
    let infos: Vec<String> = cands
        .iter()
        .take(10)
        .map(|c| {
            let mut s = format!(
                "move {} visits {} winrate {}",
                c.mv.to_gtp(size),
                c.visits,
                (c.winrate * 10000.0).round() as i64
            );
            if let Some(l) = c.score_lead {
                s += &format!(" scoreMean {l:.2}");
            }
            let pv: Vec<String> = c.pv.iter().take(PV_MAX).map(|m| m.to_gtp(size)).collect();
            if !pv.is_empty() {
                s += &format!(" pv {}", pv.join(" "));
            }
            s
        })
        .collect();
    format!(
        "Qipu-{program} {moved:.1} {}\n{}",
        a.visits(),
        infos.join(" info ")
    )
}

/// Writes evaluations into the record: `SBKV`, `LZ` and the comment
/// paragraph (an earlier `Qipu analysis` paragraph is replaced, the rest
/// of the comment kept).
///
/// # Errors
/// Only if the document refuses an edit.
pub fn annotate(
    doc: &mut Document,
    evaluations: &[Evaluated],
    engine: &str,
    size: BoardSize,
) -> std::result::Result<(), EditError> {
    for ev in evaluations {
        let a = &ev.analysis;
        if a.candidates.is_empty() && a.winrate().is_none() {
            continue;
        }
        if let Some(w) = a.black_winrate() {
            doc.set_raw(ev.node, "SBKV", &[format!("{:.2}", w * 100.0)])?;
        }
        doc.set_text(ev.node, "LZ", &lz_value(a, engine, size))?;
        let old = doc
            .node(ev.node)
            .text("C")
            .map(|c| c.into_owned())
            .unwrap_or_default();
        let kept = match old.find(MARK) {
            Some(i) => old[..i].trim_end().to_string(),
            None => old.trim_end().to_string(),
        };
        let para = comment_text(a, engine, size);
        let text = if kept.is_empty() {
            para
        } else {
            format!("{kept}\n\n{para}")
        };
        doc.set_text(ev.node, "C", &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Candidate, EngineMove};
    use sgf_core::Point;

    fn sample(to_play: Color) -> Analysis {
        Analysis {
            to_play,
            candidates: vec![Candidate {
                mv: EngineMove::Play(Point::new(15, 3)),
                visits: 120,
                winrate: 0.542,
                score_lead: Some(2.5),
                prior: None,
                lcb: None,
                order: 0,
                pv: vec![
                    EngineMove::Play(Point::new(15, 3)),
                    EngineMove::Play(Point::new(3, 15)),
                ],
            }],
            ownership: None,
            root_winrate: None,
            root_score_lead: None,
            root_visits: None,
        }
    }

    #[test]
    fn values_for_other_viewers() {
        let s19 = BoardSize::square(19);
        let a = sample(Color::White);
        assert_eq!(
            lz_value(&a, "Kata Go", s19),
            "Qipu-KataGo 45.8 120\nmove Q16 visits 120 winrate 5420 scoreMean 2.50 pv Q16 D4"
        );
        let c = comment_text(&a, "katago", s19);
        assert!(
            c.starts_with("Qipu analysis (katago, 120 visits): Black 45.8%, score W+2.5"),
            "{c}"
        );
        assert!(
            c.contains("Best next move: W Q16 (54.2% for White, lead +2.5)"),
            "{c}"
        );
        assert!(c.ends_with("Variation: Q16 D4"), "{c}");
    }

    #[test]
    fn annotating_keeps_comments_and_replaces_old_analysis() {
        let mut doc = sgf_core::parse(b"(;SZ[19];B[pd]C[nice move])").document;
        let node = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        let ev = [Evaluated {
            node,
            analysis: sample(Color::White),
        }];
        annotate(&mut doc, &ev, "lz", BoardSize::square(19)).unwrap();
        annotate(&mut doc, &ev, "lz", BoardSize::square(19)).unwrap();
        let n = doc.node(node);
        let c = n.text("C").unwrap();
        assert!(c.starts_with("nice move\n\nQipu analysis (lz"), "{c}");
        assert_eq!(c.matches(MARK).count(), 1);
        assert_eq!(n.text("SBKV").unwrap(), "45.80");
        let lz = n.value("LZ").unwrap();
        assert!(lz.raw().starts_with(b"Qipu-lz 45.8 120\nmove Q16"));
    }
}
