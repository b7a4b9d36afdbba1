//! The viewer's engine API in process, with the scripted stand-in engine
//! (`tests/engines/gtp-standin.py`): analysis following the position
//! shown and its graph, the engine's moves as edits (undo takes them
//! back), a new game with handicap against the engine, counting with the
//! engine's or Qipu's dead stones and the result written as an edit, an
//! engine that crashes, and the engine ended with its session. Needs
//! `python3`; skips without it unless `QIPU_REQUIRE_ALL=1`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "../../../tests/engines/support.rs"]
mod engines;
mod support;
use support::{App, call, get, post, serve, serve_with, tmp};

/// The stand-in engine's command line with `args`; `None` (skipped) without Python.
fn standin(args: &str) -> Option<String> {
    engines::standin_command("gtp-standin.py", args)
}

/// `files` written to a new folder, the first one served.
fn served(tag: &str, files: &[(&str, &str)]) -> (App, PathBuf) {
    let d = tmp(&format!("engine-{tag}"));
    for (name, text) in files {
        std::fs::write(d.join(name), text).unwrap();
    }
    (serve(&d.join(files[0].0)), d)
}

async fn start_engine(a: &App, s: &Value, cmd: &str) -> Value {
    post(
        a,
        "/api/engine",
        json!({"session": s, "action": "start", "engine": cmd, "confirm": true}),
    )
    .await
}

/// Polls the analysis until `done` holds (at most ten seconds).
async fn analysis_until(a: &App, s: &Value, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let v = get(a, &format!("/api/engine/analysis?session={s}")).await;
        if done(&v) || Instant::now() > until {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn wait_for_quit(log: &Path) -> String {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let t = std::fs::read_to_string(log).unwrap_or_default();
        if t.trim_end().ends_with("quit") || Instant::now() > until {
            return t;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test]
async fn analysis_follows_the_position_and_fills_the_graph() {
    let Some(cmd) = standin("--flavor kata --moves C3,G7,C7") else {
        return;
    };
    let (a, _d) = served(
        "analysis",
        &[(
            "g.sgf",
            "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc]SBKV[61.5];B[cg])",
        )],
    );
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    assert_eq!(st["engine"], Value::Null);
    let st = start_engine(&a, &s, &cmd).await;
    assert_eq!(st["engine"]["name"], "python3");
    assert_eq!(st["engine"]["can_analyse"], true);
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse", "on": true}),
    )
    .await;
    assert_eq!(st["engine"]["analysing"], true);
    // At the root: Black to play, the stand-in likes C3 best.
    let v = analysis_until(&a, &s, |v| v["analysis"]["updates"].as_u64() >= Some(2)).await;
    let an = &v["analysis"];
    assert_eq!(an["node"], 0);
    assert_eq!(an["to_play"], "B");
    assert_eq!(an["candidates"][0]["point"], "cg");
    assert_eq!(an["candidates"][0]["move"], "C3");
    assert_eq!(an["candidates"][0]["pv"], json!(["cg", "gc", "cc"]));
    assert!(an["candidates"][0]["score_lead"].is_number());
    assert!((an["black_winrate"].as_f64().unwrap() - 0.40).abs() < 1e-6);
    // The graph: the root evaluated, node 2 from the record's SBKV.
    let g = &v["graph"];
    assert_eq!(g["current"], 0);
    assert_eq!(g["points"].as_array().unwrap().len(), 4);
    assert!((g["points"][0][1].as_f64().unwrap() - 0.40).abs() < 1e-6);
    assert_eq!(g["points"][2][1], 0.615);
    assert_eq!(g["points"][1][1], Value::Null);
    // On to move 1: the analysis follows (White to play now).
    post(&a, "/api/nav", json!({"session": s, "action": "next"})).await;
    let v = analysis_until(&a, &s, |v| {
        v["analysis"]["node"] == 1 && v["analysis"]["updates"].as_u64() >= Some(1)
    })
    .await;
    assert_eq!(v["analysis"]["to_play"], "W");
    assert!((v["graph"]["points"][1][1].as_f64().unwrap() - 0.42).abs() < 1e-6);
    assert!((v["graph"]["points"][0][1].as_f64().unwrap() - 0.40).abs() < 1e-6);
    // A comment does not restart the analysis of the same position.
    let before = v["analysis"]["updates"].as_u64().unwrap();
    post(
        &a,
        "/api/edit",
        json!({"session": s, "op": "comment", "text": "hm"}),
    )
    .await;
    let v = get(&a, &format!("/api/engine/analysis?session={s}")).await;
    assert!(v["analysis"]["updates"].as_u64().unwrap() >= before);
    // Off: the engine stops streaming.
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse", "on": false}),
    )
    .await;
    assert_eq!(st["engine"]["analysing"], false);
    let v = get(&a, &format!("/api/engine/analysis?session={s}")).await;
    assert_eq!(v["analysis"], Value::Null);
}

#[tokio::test]
async fn the_engine_plays_into_the_tree_and_undo_takes_it_back() {
    let d = std::env::temp_dir();
    let log = d.join(format!("qipu-web-engine-play-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let Some(cmd) = standin(&format!("--moves G7,C3 --log {}", log.display())) else {
        return;
    };
    let (a, _d) = served("play", &[("g.sgf", "(;GM[1]FF[4]SZ[9]KM[7])")]);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    start_engine(&a, &s, &cmd).await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "play", "color": "W", "level": 3}),
    )
    .await;
    assert_eq!(st["engine"]["playing"], "W");
    assert_eq!(st["engine"]["level"], 3);
    // The user plays E5, then the engine answers.
    let st = post(
        &a,
        "/api/edit",
        json!({"session": s, "op": "play", "point": "ee"}),
    )
    .await;
    assert_eq!(st["node"]["to_play"], "W");
    let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
    assert_eq!(st["node"]["move"], "G7");
    assert_eq!(st["node"]["color"], "W");
    assert_eq!(st["message"], "python3 (White) plays G7");
    assert_eq!(st["dirty"], true);
    assert_eq!(st["can_undo"], true);
    let st = post(&a, "/api/edit", json!({"session": s, "op": "undo"})).await;
    assert_eq!(st["node"]["move"], "E5");
    assert_eq!(st["node"]["children"], 0);
    // Asked again after the undo, the engine plays on the right board.
    let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
    assert_eq!(st["node"]["move"], "G7");
    // Another engine in its place: the first one is told to quit.
    let Some(other) = standin("") else { return };
    start_engine(&a, &s, &other).await;
    let sent = wait_for_quit(&log);
    assert!(sent.contains("level 3"), "{sent}");
    assert!(sent.trim_end().ends_with("quit"), "{sent}");
}

#[tokio::test]
async fn a_new_game_with_handicap_and_the_engine_ended_with_its_session() {
    let log = std::env::temp_dir().join(format!("qipu-web-engine-new-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let Some(cmd) = standin(&format!("--moves E5 --log {}", log.display())) else {
        return;
    };
    let (a, _d) = served("new", &[("g.sgf", "(;GM[1]FF[4]SZ[19])")]);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    start_engine(&a, &s, &cmd).await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "new_game", "size": 9, "handicap": 2, "komi": 0.5, "color": "W"}),
    )
    .await;
    let s2 = st["session"].clone();
    assert_ne!(s2, s);
    assert_eq!(st["name"], "vs-python3.sgf");
    assert_eq!(st["info"]["HA"], "2");
    assert_eq!(st["info"]["KM"], "0.5");
    assert_eq!(st["info"]["PW"], "python3");
    assert_eq!(st["node"]["to_play"], "W");
    assert_eq!(st["engine"]["playing"], "W");
    // The old session is gone, its engine moved to the new one.
    let (status, _) = call(&a, "GET", &format!("/api/state?session={s}"), None).await;
    assert_eq!(status, 400);
    let st = post(&a, "/api/engine", json!({"session": s2, "action": "move"})).await;
    assert_eq!(st["node"]["move"], "E5");
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("set_free_handicap G7 C3"), "{sent}");
    // The page closes: the engine quits.
    post(&a, "/api/close", json!({"session": s2})).await;
    let sent = wait_for_quit(&log);
    assert!(sent.trim_end().ends_with("quit"), "{sent}");
}

#[tokio::test]
async fn counting_with_the_engine_or_the_estimator_and_the_result_as_an_edit() {
    // Black owns columns A–C, White G–J, E is dame; a white stone at B5 is dead.
    let sgf = "(;GM[1]FF[4]SZ[9]KM[0.5]RU[Japanese]\
               AB[da][db][dc][dd][de][df][dg][dh][di]\
               AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][be];B[];W[])";
    let Some(cmd) = standin("--dead B5,F9") else {
        return;
    };
    let (a, _d) = served("count", &[("g.sgf", sgf)]);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    post(&a, "/api/nav", json!({"session": s, "action": "last"})).await;
    // Without an engine: the estimator finds the lone stone.
    let st = post(
        &a,
        "/api/count",
        json!({"session": s, "action": "start", "source": "auto"}),
    )
    .await;
    let c = &st["count"];
    assert_eq!(c["from"], "estimator");
    assert_eq!(c["dead"], json!(["be"]));
    assert_eq!(c["black"]["territory"], 27);
    assert_eq!(c["black"]["captures"], 1);
    assert_eq!(c["white"]["territory"], 27);
    // Territory: 27 + 1 against 27 + 0.5; area: 9 + 27 against 9 + 27 + 0.5.
    assert_eq!(c["result"], "B+0.5");
    assert_eq!(c["territory_result"], "B+0.5");
    assert_eq!(c["area_result"], "W+0.5");
    let t = c["territory"].as_str().unwrap();
    assert_eq!(t.len(), 81);
    // Stones are not territory; the dead stone's point is.
    assert_eq!(&t[..9], "BBB...WWW");
    assert_eq!(&t[36..45], "BBB...WWW");
    // A click on the white stone: alive again, and White's area grows nothing.
    let st = post(
        &a,
        "/api/count",
        json!({"session": s, "action": "toggle", "point": "be"}),
    )
    .await;
    assert_eq!(st["count"]["from"], "user");
    assert_eq!(st["count"]["dead"], json!([]));
    let st = post(
        &a,
        "/api/count",
        json!({"session": s, "action": "rules", "rules": "chinese"}),
    )
    .await;
    assert_eq!(st["count"]["scoring"], "area");
    // With the engine: its dead stones (only those on the board).
    start_engine(&a, &s, &cmd).await;
    let st = post(
        &a,
        "/api/count",
        json!({"session": s, "action": "start", "source": "engine"}),
    )
    .await;
    assert_eq!(st["count"]["from"], "engine");
    assert_eq!(st["count"]["dead"], json!(["fa", "be"]));
    // The result written to RE: an edit, undone by undo.
    let result = st["count"]["result"].as_str().unwrap().to_string();
    let st = post(
        &a,
        "/api/edit",
        json!({"session": s, "op": "info", "props": {"RE": result}}),
    )
    .await;
    assert_eq!(st["info"]["RE"], json!(result));
    assert_eq!(st["dirty"], true);
    assert!(st["count"].is_object(), "counting goes on at the same node");
    let st = post(&a, "/api/edit", json!({"session": s, "op": "undo"})).await;
    assert_eq!(st["info"]["RE"], Value::Null);
    // Leaving the node ends counting.
    let st = post(&a, "/api/nav", json!({"session": s, "action": "prev"})).await;
    assert_eq!(st["count"], Value::Null);
    let st = post(
        &a,
        "/api/count",
        json!({"session": s, "action": "toggle", "point": "be"}),
    )
    .await;
    assert_eq!(st["error_kind"], "refused");
}

#[tokio::test]
async fn an_engine_that_crashes_or_will_not_start_is_a_message() {
    let Some(cmd) = standin("--crash-on genmove") else {
        return;
    };
    let (a, _d) = served("crash", &[("g.sgf", "(;GM[1]FF[4]SZ[9])")]);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    let st = start_engine(&a, &s, "/nonexistent/engine --gtp").await;
    assert_eq!(st["error_kind"], "refused");
    assert!(
        st["message"].as_str().unwrap().contains("cannot start"),
        "{st}"
    );
    assert_eq!(st["engine"], Value::Null);
    start_engine(&a, &s, &cmd).await;
    let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
    assert_eq!(st["error_kind"], "refused");
    let m = st["message"].as_str().unwrap();
    assert!(m.contains("crashing on purpose"), "{m}");
    assert_eq!(st["engine"]["alive"], false);
    assert!(st["engine"]["error"].as_str().unwrap().contains("exited"));
    // The server goes on: the record, and analysis asked of a dead engine.
    let st = post(
        &a,
        "/api/edit",
        json!({"session": s, "op": "play", "point": "ee"}),
    )
    .await;
    assert_eq!(st["node"]["move"], "E5");
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse", "on": true}),
    )
    .await;
    assert_eq!(st["error_kind"], "refused");
    let (status, e) = call(
        &a,
        "POST",
        "/api/engine",
        Some(json!({"session": s, "action": "bogus"})),
    )
    .await;
    assert_eq!(status, 400);
    // The refusal names the action and those that exist.
    let e = e["error"].as_str().unwrap();
    assert!(
        e.contains("unknown variant `bogus`") && e.contains("`new_game`"),
        "{e}"
    );
}

/// A record put aside to free memory (here: idle at once) stops its
/// engine, and the page is told so when it comes back.
#[tokio::test]
async fn a_record_put_aside_stops_its_engine_and_says_so() {
    let log =
        std::env::temp_dir().join(format!("qipu-web-engine-aside-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let Some(cmd) = standin(&format!("--moves E5 --log {}", log.display())) else {
        return;
    };
    let (_, d) = served(
        "aside",
        &[("g.sgf", "(;GM[1]FF[4]SZ[19])"), ("h.sgf", "(;GM[1]SZ[9])")],
    );
    let a = serve_with(&d, |o| o.idle_timeout = Some(Duration::ZERO));
    let s = post(&a, "/api/open", json!({"path": "g.sgf"})).await["session"].clone();
    let st = start_engine(&a, &s, &cmd).await;
    assert_eq!(st["engine"]["alive"], true, "{}", st["engine"]);
    post(&a, "/api/open", json!({"path": "h.sgf"})).await;
    let sent = wait_for_quit(&log);
    assert!(sent.trim_end().ends_with("quit"), "{sent}");
    let st = get(&a, &format!("/api/state?session={s}")).await;
    assert!(st["engine"].is_null(), "{}", st["engine"]);
    let m = st["message"].as_str().unwrap();
    assert!(m.contains("its engine was stopped"), "{m}");
}

/// "Analyse the whole game": every position of the line shown evaluated
/// in turn, the progress in the engine's state, the graph filled; the
/// position shown analysed again afterwards; stopped on request.
#[tokio::test]
async fn the_whole_game_analysed_fills_the_graph_with_progress() {
    let Some(cmd) = standin("--flavor kata") else {
        return;
    };
    let (a, _d) = served(
        "batch",
        &[("g.sgf", "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg];W[cc])")],
    );
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    start_engine(&a, &s, &cmd).await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse_game", "on": true, "visits": 20, "seconds": 2}),
    )
    .await;
    assert_eq!(st["engine"]["batch"]["total"], 5, "{}", st["engine"]);
    assert_eq!(st["message"], "analysing 5 positions");
    let v = analysis_until(&a, &s, |v| v["engine"]["batch"].is_null()).await;
    let points = v["graph"]["points"].as_array().unwrap();
    assert_eq!(points.len(), 5, "{v}");
    for p in points {
        assert!(p[1].is_number() && p[2].is_number(), "{v}");
    }
    // Stopped on request: no batch left.
    post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse_game", "on": true, "visits": 100000, "seconds": 60}),
    )
    .await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse_game", "on": false}),
    )
    .await;
    assert!(st["engine"]["batch"].is_null(), "{}", st["engine"]);
    // The position shown analysed: who owns each point (KataGo's
    // ownership, Black's point of view), one value a point.
    post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse", "on": true}),
    )
    .await;
    let v = analysis_until(&a, &s, |v| v["analysis"]["ownership"].is_array()).await;
    let own = v["analysis"]["ownership"].as_array().unwrap();
    assert_eq!(own.len(), 81, "{v}");
    assert!(
        own.iter()
            .all(|x| x.as_f64().is_some_and(|x| (-1.0..=1.0).contains(&x)))
    );
    // The GTP console: a command and its answer; a refusal is the
    // engine's answer (it still runs), the analysis taken up again.
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "command", "command": " name "}),
    )
    .await;
    assert_eq!(
        st["gtp"],
        json!({"command": "name", "answer": "standin", "ok": true})
    );
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "command", "command": "no_such_command"}),
    )
    .await;
    assert_eq!(st["gtp"]["ok"], false, "{}", st["gtp"]);
    assert_eq!(st["engine"]["alive"], true);
    let v = analysis_until(&a, &s, |v| v["analysis"].is_object()).await;
    assert!(v["analysis"].is_object(), "{v}");
    // Without an engine: refused, said.
    post(&a, "/api/engine", json!({"session": s, "action": "stop"})).await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "analyse_game", "on": true}),
    )
    .await;
    assert_eq!(st["message"], "no engine is running");
}

/// Two engines at once: White's second engine moves for White, the first
/// for Black (engine against engine is the page asking for moves in
/// turn); stopping the second leaves the first; a new game takes both.
#[tokio::test]
async fn two_engines_at_once_each_moves_for_its_colour() {
    let (Some(black), Some(white)) = (standin("--moves C3,D3"), standin("--moves G7,F7")) else {
        return;
    };
    let (a, _d) = served("two", &[("g.sgf", "(;GM[1]FF[4]SZ[9]KM[7])")]);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "start", "engine": white, "second": true, "confirm": true}),
    )
    .await;
    assert_eq!(st["message"], "start the first engine first");
    start_engine(&a, &s, &black).await;
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "start", "engine": white, "second": true, "confirm": true}),
    )
    .await;
    assert_eq!(st["engine"]["second"]["alive"], true, "{}", st["engine"]);
    let mut moves = Vec::new();
    for _ in 0..4 {
        let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
        moves.push(format!(
            "{} {}",
            st["node"]["color"].as_str().unwrap_or("?"),
            st["node"]["move"].as_str().unwrap_or("?")
        ));
    }
    assert_eq!(moves, ["B C3", "W G7", "B D3", "W F7"]);
    // White's engine stopped: the first plays White too.
    let st = post(
        &a,
        "/api/engine",
        json!({"session": s, "action": "stop", "second": true}),
    )
    .await;
    assert!(st["engine"]["second"].is_null());
    assert_eq!(st["engine"]["alive"], true);
    let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
    assert_eq!(st["node"]["color"], "B");
    let st = post(&a, "/api/engine", json!({"session": s, "action": "move"})).await;
    assert_eq!(
        st["node"]["color"], "W",
        "the first engine answers for White"
    );
}
