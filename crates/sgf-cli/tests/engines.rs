//! `qipu score` with engines: Debian's GNU Go on a small finished game
//! (`testdata/engines/finished-9x9.sgf`), and an engine that crashes (the
//! scripted stand-in of `tests/engines`). Each test skips with a message
//! when GNU Go or python3 is missing, and fails instead when
//! `QIPU_REQUIRE_ALL=1`.

mod common;
use common::*;

use serde_json::Value;

fn have(program: &str, package: &str) -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .chain(["/usr/games".into(), "/usr/local/games".into()])
        .map(|d| d.join(program))
        .find(|p| p.is_file());
    match found {
        Some(p) => Some(p.to_string_lossy().into_owned()),
        None if std::env::var("QIPU_REQUIRE_ALL").as_deref() == Ok("1") => {
            panic!("{program} is required (QIPU_REQUIRE_ALL=1): apt-get install {package}")
        }
        None => {
            eprintln!("SKIPPED: {program} not found (apt-get install {package})");
            None
        }
    }
}

fn finished() -> String {
    repo()
        .join("testdata/engines/finished-9x9.sgf")
        .to_string_lossy()
        .into_owned()
}

fn score(args: &[&str]) -> Value {
    let out = qipu(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn score_with_gnu_go_on_a_finished_game() {
    if have("gnugo", "gnugo").is_none() {
        return;
    }
    let file = finished();
    // Debian puts GNU Go in /usr/games, which qipu looks in when PATH does not have it.
    let v = score(&["score", "--engine", "gnugo --mode gtp", "--json", &file]);
    assert_eq!(v["dead_from"], "engine");
    assert_eq!(v["dead"], serde_json::json!(["be", "he", "bh"]));
    assert_eq!(v["rules"], "japanese");
    assert_eq!(v["komi"], 0.5);
    assert_eq!(v["black"]["captures"], 2);
    assert_eq!(v["white"]["captures"], 1);
    assert_eq!(v["white"]["territory"], 27);
    // No seki: nothing is left out of territory (GNU Go's own dame list
    // would drop B6, next to the dead stone at B5).
    assert_eq!(v["dame"], serde_json::json!([]));
    assert_eq!(v["black"]["territory"], 27);
    assert_eq!(v["result"], "B+0.5");
    assert_eq!(v["recorded"], "B+0.5");
    // Area scoring counts every point of one's area: Black 9 + 27, White 9 + 27 + komi.
    let v = score(&[
        "score",
        "--engine",
        "gnugo --mode gtp",
        "--rules",
        "chinese",
        "--json",
        &file,
    ]);
    assert_eq!(v["black"]["area"], 36);
    assert_eq!(v["white"]["area"], 36);
    assert_eq!(v["result"], "W+0.5");
    // Qipu's estimator sees the same dead stones and no dame: the recorded B+0.5.
    let v = score(&["score", "--json", &file]);
    assert_eq!(v["dead_from"], "estimator");
    assert_eq!(v["dead"], serde_json::json!(["be", "he", "bh"]));
    assert_eq!(v["result"], "B+0.5");
    assert_eq!(v["recorded"], "B+0.5");
}

#[test]
fn an_engine_that_crashes_is_exit_status_3() {
    let Some(python) = have("python3", "python3") else {
        return;
    };
    let script = repo().join("tests/engines/gtp-standin.py");
    let engine = format!("{python} {} --crash-on final_status_list", script.display());
    let out = qipu(&["score", "--engine", &engine, &finished()]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("crashing on purpose"), "{err}");
    assert!(out.stdout.is_empty());
}
