//! KataGo's JSON analysis engine ([`AnalysisEngine`]) against a scripted
//! stand-in (`tests/engines/katago-analysis-standin.py`) that speaks the
//! protocol of KataGo's `docs/Analysis_Engine.md` and evaluates positions
//! by a fixed rule (see the script): whole games with `analyzeTurns`,
//! answers out of order and interleaved between queries, partial answers,
//! `terminate`, error answers, and a crash. Needs `python3`; skips
//! without it unless `QIPU_REQUIRE_ALL=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sgf_core::{Color, Point};
use sgf_gtp::katago::{AnalysisEngine, Query, Response};
use sgf_gtp::{EngineMove, EngineSpec, Error, Protocol};

#[path = "../../../tests/engines/support.rs"]
mod support;

/// The stand-in with `args`, as an analysis engine; `None` (skipped) without Python.
fn standin(args: &str) -> Option<EngineSpec> {
    let line = support::standin_command("katago-analysis-standin.py", args)?;
    let mut spec = EngineSpec::from_command_line(&line).unwrap();
    spec.protocol = Protocol::KatagoAnalysis;
    spec.timeout = Duration::from_secs(20);
    Some(spec)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("qipu-katago-{name}-{}", std::process::id()))
}

/// Black E5, White C7, Black G7, White G5 on 9×9, komi 6.5, and the query of every turn.
const GAME: &str = "(;SZ[9]KM[6.5]RU[Japanese];B[ee];W[cc];B[gc];W[ge])";

fn query_of(sgf: &str) -> Query {
    let doc = sgf_core::parse(sgf.as_bytes()).document;
    let last = doc.game(0).unwrap().main_line().last().unwrap().id();
    Query::for_game(&doc, 0, last).unwrap().0
}

/// The stand-in's rule: Black's win rate 0.5 + 0.02 × (black − white
/// stones), Black's lead (black − white stones) − komi.
fn expected(turn: usize) -> (f64, f64) {
    let diff = [0, 1, 0, 1, 0][turn] as f64;
    (0.5 + 0.02 * diff, diff - 6.5)
}

fn check_turn(r: &Response) {
    let (win, lead) = expected(r.turn);
    let a = &r.analysis;
    let to_play = if r.turn.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    assert_eq!(a.to_play, to_play, "turn {}", r.turn);
    assert!(
        (a.black_winrate().unwrap() - win).abs() < 1e-9,
        "turn {}",
        r.turn
    );
    assert!(
        (a.black_score_lead().unwrap() - lead).abs() < 1e-9,
        "turn {}",
        r.turn
    );
    assert_eq!(a.root_visits, Some(100));
    // Three candidates, the first empty points from A9; the best with 60 visits.
    assert_eq!(a.candidates.len(), 3);
    let best = a.best().unwrap();
    assert_eq!(best.mv, EngineMove::Play(Point::new(0, 0)));
    assert_eq!(best.visits, 60);
    assert_eq!(
        best.pv,
        [
            EngineMove::Play(Point::new(0, 0)),
            EngineMove::Play(Point::new(1, 0))
        ]
    );
    // Candidates' values are the player to move's: Black's win rate for
    // the best move is the root's.
    let best_black = match to_play {
        Color::Black => best.winrate,
        Color::White => 1.0 - best.winrate,
    };
    assert!((best_black - win).abs() < 1e-9, "turn {}", r.turn);
    // Ownership from Black's point of view: E5 Black's from turn 1, C7 White's from turn 2.
    let own = a.ownership.as_ref().expect("ownership asked for");
    assert_eq!(own.len(), 81);
    assert_eq!(own[4 * 9 + 4], if r.turn >= 1 { 1.0 } else { 0.0 });
    assert_eq!(own[2 * 9 + 2], if r.turn >= 2 { -1.0 } else { 0.0 });
}

#[test]
fn a_whole_game_answered_out_of_order() {
    let log = temp("game.log");
    let _ = std::fs::remove_file(&log);
    let Some(spec) = standin(&format!("--order reverse --log {}", log.display())) else {
        return;
    };
    let mut e = AnalysisEngine::start(&spec).unwrap();
    let q = query_of(GAME);
    assert_eq!(q.analyze_turns, [0, 1, 2, 3, 4]);
    let mut progress = Vec::new();
    let got = e
        .analyze(&q, |done, total| progress.push((done, total)))
        .unwrap();
    // The answers came last turn first; they are returned in turn order.
    assert_eq!(
        got.iter().map(|r| r.turn).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    assert_eq!(progress, [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]);
    for r in &got {
        assert!(!r.during_search && !r.no_results);
        check_turn(r);
    }
    assert!(e.pending().is_empty());
    drop(e);
    // What was sent: the version query, then the game as KataGo reads it.
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = sent
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["action"], "query_version");
    let q = &lines[1];
    assert_eq!(
        q["moves"],
        serde_json::json!([["B", "E5"], ["W", "C7"], ["B", "G7"], ["W", "G5"]])
    );
    assert_eq!(q["analyzeTurns"], serde_json::json!([0, 1, 2, 3, 4]));
    assert_eq!(q["rules"], "japanese");
    assert_eq!(q["komi"], 6.5);
    assert_eq!(q["boardXSize"], 9);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn queries_interleave_and_partial_answers_are_told_apart() {
    let Some(spec) = standin("--during-search --order reverse") else {
        return;
    };
    let mut e = AnalysisEngine::start(&spec).unwrap();
    let mut a = query_of(GAME);
    a.analyze_turns = vec![4, 1];
    let mut b = query_of("(;SZ[9]KM[0.5]RU[Chinese];B[ee])");
    b.max_visits = Some(40);
    b.include_ownership = false;
    let ida = e.send(&a).unwrap();
    let idb = e.send(&b).unwrap();
    assert_ne!(ida, idb);
    assert_eq!(e.pending(), [ida.clone(), idb.clone()]);
    let mut finals: BTreeMap<(String, usize), Response> = BTreeMap::new();
    let mut partials = 0;
    let until = Instant::now() + Duration::from_secs(20);
    while !e.pending().is_empty() && Instant::now() < until {
        let Some(r) = e.recv(Duration::from_secs(5)).unwrap() else {
            continue;
        };
        if r.during_search {
            partials += 1;
            // A partial answer comes before the final one of its turn.
            assert!(!finals.contains_key(&(r.id.clone(), r.turn)));
        } else {
            assert!(finals.insert((r.id.clone(), r.turn), r).is_none());
        }
    }
    assert_eq!(partials, 4);
    let keys: Vec<(String, usize)> = finals.keys().cloned().collect();
    assert_eq!(
        keys,
        [
            (ida.clone(), 1),
            (ida.clone(), 4),
            (idb.clone(), 0),
            (idb.clone(), 1)
        ]
    );
    check_turn(&finals[&(ida.clone(), 1)]);
    check_turn(&finals[&(ida, 4)]);
    // The second query: its own visits, no ownership, komi 0.5.
    let r = &finals[&(idb, 1)].analysis;
    assert_eq!(r.root_visits, Some(40));
    assert!(r.ownership.is_none());
    assert!((r.black_score_lead().unwrap() - 0.5).abs() < 1e-9);
}

#[test]
fn black_point_of_view_is_asked_whatever_the_config() {
    // The stand-in's config reports for Black, for White, or for the
    // player to move; Qipu's query overrides it, so all three agree.
    let mut seen = Vec::new();
    for view in ["BLACK", "WHITE", "SIDETOMOVE"] {
        let Some(spec) = standin(&format!("--report-as {view}")) else {
            return;
        };
        let mut e = AnalysisEngine::start(&spec).unwrap();
        let got = e.analyze(&query_of(GAME), |_, _| {}).unwrap();
        for r in &got {
            check_turn(r);
        }
        seen.push(got);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
}

#[test]
fn terminate_ends_every_turn_with_one_final_answer() {
    let Some(spec) = standin("--order given --delay 0.3") else {
        return;
    };
    let mut e = AnalysisEngine::start(&spec).unwrap();
    let mut q = query_of(GAME);
    q.include_ownership = false;
    let id = e.send(&q).unwrap();
    // The first turn's answer, then stop the rest.
    let first = e.recv(Duration::from_secs(10)).unwrap().unwrap();
    assert_eq!((first.id.as_str(), first.turn), (id.as_str(), 0));
    e.terminate(&id).unwrap();
    let mut turns = BTreeSet::new();
    let mut unanalysed = 0;
    let until = Instant::now() + Duration::from_secs(10);
    while e.pending().contains(&id) && Instant::now() < until {
        if let Some(r) = e.recv(Duration::from_secs(2)).unwrap() {
            assert_eq!(r.id, id);
            assert!(!r.during_search);
            assert!(turns.insert(r.turn), "one final answer per turn");
            if r.no_results {
                unanalysed += 1;
                assert!(r.analysis.candidates.is_empty());
            } else {
                // The turn under way: cut short, fewer visits than asked.
                assert!(r.analysis.root_visits.unwrap() < 100, "{r:?}");
            }
        }
    }
    assert_eq!(turns, BTreeSet::from([1, 2, 3, 4]));
    assert!(unanalysed >= 3, "{unanalysed} turns unanalysed");
    assert!(e.pending().is_empty());
    // The engine serves the next query as usual.
    let mut q = query_of(GAME);
    q.analyze_turns = vec![2];
    let got = e.analyze(&q, |_, _| {}).unwrap();
    assert_eq!(got.len(), 1);
    check_turn(&got[0]);
}

#[test]
fn error_answers_name_the_field() {
    let Some(spec) = standin("") else {
        return;
    };
    let mut e = AnalysisEngine::start(&spec).unwrap();
    let mut q = query_of(GAME);
    q.komi = 6.3;
    let err = e.analyze(&q, |_, _| {}).unwrap_err();
    match &err {
        Error::Refused { message, .. } => assert!(message.contains("`komi`"), "{message}"),
        other => panic!("not a refusal: {other:?}"),
    }
    assert!(e.pending().is_empty());
    // A turn past the end of the game.
    let mut q = query_of(GAME);
    q.analyze_turns = vec![9];
    let err = e.analyze(&q, |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("analyzeTurns"), "{err}");
    // An error for one query does not end another's analysis.
    let mut bad = query_of(GAME);
    bad.komi = 1000.0;
    e.send(&bad).unwrap();
    let mut q = query_of(GAME);
    q.analyze_turns = vec![3];
    let got = e.analyze(&q, |_, _| {}).unwrap();
    check_turn(&got[0]);
    assert!(e.pending().is_empty());
}

#[test]
fn a_crash_is_the_engines_error() {
    let Some(spec) = standin("--order given --crash-after 2") else {
        return;
    };
    let mut e = AnalysisEngine::start(&spec).unwrap();
    let mut n = 0;
    let err = e.analyze(&query_of(GAME), |done, _| n = done).unwrap_err();
    assert_eq!(n, 2, "two answers before the crash");
    let text = err.to_string();
    assert!(matches!(err, Error::Exited { .. }), "{err:?}");
    assert!(text.contains("crashing after 2 answers"), "{text}");
    // Further use is an error too, not a panic.
    assert!(e.analyze(&query_of(GAME), |_, _| {}).is_err());
}

#[test]
fn a_program_that_is_not_the_analysis_engine() {
    let Some(mut spec) = standin("") else {
        return;
    };
    // A GTP spec is refused before anything starts.
    spec.protocol = Protocol::Gtp;
    assert!(matches!(
        AnalysisEngine::start(&spec),
        Err(Error::Unsupported(_))
    ));
    // A program that exits at once.
    let mut spec = EngineSpec::from_command_line("python3 -c pass").unwrap();
    spec.protocol = Protocol::KatagoAnalysis;
    spec.timeout = Duration::from_secs(10);
    assert!(AnalysisEngine::start(&spec).is_err());
}
