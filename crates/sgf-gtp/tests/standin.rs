//! The GTP client against a scripted stand-in engine
//! (`tests/engines/gtp-standin.py`, answers fixed by the script): replay
//! sent only where it changed, streaming analysis in Leela Zero's and
//! KataGo's formats stopped by the next command, moves, dead stones, and
//! an engine that crashes. Needs `python3`; skips without it unless
//! `QIPU_REQUIRE_ALL=1`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sgf_core::{Color, Point};
use sgf_gtp::{Engine, EngineMove, EngineSpec, GameLine, LiveEngine};

#[path = "../../../tests/engines/support.rs"]
mod support;

/// The stand-in's command line with `args`, or `None` (skipped) without Python.
fn standin(args: &str) -> Option<EngineSpec> {
    let line = support::standin_command("gtp-standin.py", args)?;
    Some(EngineSpec::from_command_line(&line).unwrap())
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("qipu-gtp-{name}-{}", std::process::id()))
}

fn line_of(sgf: &str) -> GameLine {
    let doc = sgf_core::parse(sgf.as_bytes()).document;
    let last = doc.game(0).unwrap().main_line().last().unwrap().id();
    GameLine::of(&doc, 0, last).unwrap()
}

#[test]
fn replay_sends_only_what_changed() {
    let log = temp("replay.log");
    let _ = std::fs::remove_file(&log);
    let Some(spec) = standin(&format!("--log {}", log.display())) else {
        return;
    };
    let mut e = Engine::start(&spec).unwrap();
    let a = line_of("(;SZ[9]KM[7];B[ee];W[cc])");
    let b = line_of("(;SZ[9]KM[7];B[ee];W[cc];B[gg];W[gc])");
    let c = line_of("(;SZ[9]KM[7];B[ee];W[cc];B[cg])");
    e.replay_line(&a).unwrap();
    e.replay_line(&b).unwrap();
    // Back two moves and on by another: two undos and one play.
    e.replay_line(&c).unwrap();
    assert_eq!(e.board(), Some(&c));
    // A raw command that may change the board: the next replay starts anew.
    e.command("play B A1").unwrap();
    assert_eq!(e.board(), None);
    e.replay_line(&c).unwrap();
    e.quit();
    let sent = std::fs::read_to_string(&log).unwrap();
    let cmds: Vec<&str> = sent
        .lines()
        .map(|l| l.split_once(' ').map_or(l, |x| x.1))
        .collect();
    assert_eq!(cmds.iter().filter(|c| **c == "clear_board").count(), 2);
    assert_eq!(cmds.iter().filter(|c| **c == "undo").count(), 2);
    assert_eq!(cmds.iter().filter(|c| **c == "play B E5").count(), 2);
    assert_eq!(cmds.iter().filter(|c| **c == "play B C3").count(), 2);
    assert_eq!(cmds.last(), Some(&"quit"));
    let _ = std::fs::remove_file(&log);
}

#[test]
fn streaming_analysis_in_both_formats_stops_at_the_next_command() {
    for flavor in ["lz", "kata"] {
        let Some(spec) = standin(&format!("--flavor {flavor} --moves E5,C3,G7")) else {
            return;
        };
        let mut e = Engine::start(&spec).unwrap();
        let size = sgf_go::BoardSize::square(9);
        e.replay_line(&line_of("(;SZ[9]KM[7];B[ee])")).unwrap();
        e.start_analysis(Color::White, size, Duration::from_millis(50))
            .unwrap();
        let mut seen = Vec::new();
        let until = Instant::now() + Duration::from_secs(10);
        while seen.len() < 3 && Instant::now() < until {
            if let Some(a) = e.next_analysis(Duration::from_millis(500)).unwrap() {
                seen.push(a);
            }
        }
        assert_eq!(seen.len(), 3, "{flavor}: three updates");
        // Visits grow from update to update: the lines are read as they come.
        assert!(seen[0].visits() < seen[2].visits(), "{flavor}");
        let best = seen[2].best().unwrap();
        assert_eq!(best.mv, EngineMove::Play(Point::new(2, 6)), "{flavor}");
        assert_eq!(best.pv.len(), 2, "{flavor}");
        // One stone on the board: Black 42%, White to play sees 58%.
        assert!((seen[2].black_winrate().unwrap() - 0.42).abs() < 1e-3);
        if flavor == "kata" {
            assert!(seen[2].score_lead().is_some());
            let own = seen[2].ownership.as_ref().unwrap();
            assert_eq!(own[4 * 9 + 4], 1.0, "E5 is Black's");
        } else {
            assert_eq!(seen[2].score_lead(), None);
        }
        // The next command ends the stream and is answered.
        assert_eq!(e.command("name").unwrap(), "standin");
        assert!(!e.is_analysing());
        let mv = e.genmove(Color::White, size).unwrap();
        assert_eq!(mv, EngineMove::Play(Point::new(2, 6)));
        e.quit();
    }
}

#[test]
fn a_live_engine_analyses_plays_counts_and_survives_its_engine() {
    let Some(spec) = standin("--flavor lz --moves E5,C3 --dead C3,A1") else {
        return;
    };
    let live = LiveEngine::start(&spec).unwrap();
    assert!(live.can_analyse());
    let l1 = line_of("(;SZ[9]KM[7];B[ee])");
    live.analyse(l1.clone(), 7);
    let until = Instant::now() + Duration::from_secs(10);
    while live.snapshot().updates < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let snap = live.snapshot();
    assert_eq!(snap.tag, Some(7));
    assert!(snap.updates >= 2, "{snap:?}");
    assert!(snap.alive && snap.error.is_none());
    // A move stops the analysis; it is the stand-in's first free choice.
    let mv = live.genmove(l1.clone()).unwrap();
    assert_eq!(mv, EngineMove::Play(Point::new(2, 6)));
    let mut end = l1.clone();
    end.steps.push(sgf_gtp::LineStep::Play(
        Color::White,
        sgf_go::Move::Play(Point::new(2, 6)),
    ));
    end.to_play = Color::Black;
    let mut pos = sgf_go::Position::new(end.size);
    pos.play(Color::Black, sgf_go::Move::Play(Point::new(4, 4)));
    pos.play(Color::White, sgf_go::Move::Play(Point::new(2, 6)));
    let (dead, dame) = live.dead_stones(end, pos).unwrap();
    assert_eq!(dead, vec![Point::new(2, 6)]);
    assert!(dame.is_empty());
    // A console's command, answered; a refusal is the engine's answer
    // (it still runs), a line break never sent; the analysis goes on.
    live.analyse(l1.clone(), 8);
    assert_eq!(live.command("name").unwrap(), "standin");
    assert!(live.command("no_such_command").is_err());
    assert!(live.command("name\nquit").is_err());
    let until = Instant::now() + Duration::from_secs(10);
    while live.snapshot().updates < 1 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let snap = live.snapshot();
    assert!(snap.alive && snap.error.is_none(), "{snap:?}");
    assert_eq!(snap.tag, Some(8));
    assert!(snap.updates >= 1, "{snap:?}");
    live.shutdown();

    // An engine that crashes: an error to the request and in the snapshot, nothing worse.
    let Some(spec) = standin("--crash-on genmove") else {
        return;
    };
    let live = LiveEngine::start(&spec).unwrap();
    let err = live.genmove(l1.clone()).unwrap_err();
    assert!(err.to_string().contains("crashing on purpose"), "{err}");
    let snap = live.snapshot();
    assert!(!snap.alive);
    assert!(snap.error.unwrap().contains("exited"));
    // Later requests fail at once.
    assert!(live.genmove(l1).is_err());
    live.shutdown();
}

#[test]
fn levels_and_engines_without_analysis() {
    let log = temp("level.log");
    let _ = std::fs::remove_file(&log);
    let Some(spec) = standin(&format!("--log {}", log.display())) else {
        return;
    };
    let live = LiveEngine::start(&spec).unwrap();
    assert!(!live.can_analyse());
    assert!(live.set_level(12).unwrap());
    // Dropping it ends the engine with `quit`.
    drop(live);
    let until = Instant::now() + Duration::from_secs(5);
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("quit")
        && Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("level 10"), "{sent}");
    assert!(sent.trim_end().ends_with("quit"), "{sent}");
    let _ = std::fs::remove_file(&log);
}
