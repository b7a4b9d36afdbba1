//! `qipu score` with engines: Debian's GNU Go on a small finished game
//! (`testdata/engines/finished-9x9.sgf`), and an engine that crashes (the
//! scripted stand-in of `tests/engines`). Each test skips with a message
//! when GNU Go or python3 is missing, and fails instead when
//! `QIPU_REQUIRE_ALL=1`.

mod common;
use common::*;

use serde_json::Value;

#[path = "../../../tests/engines/support.rs"]
mod support;

fn have(program: &str, package: &str) -> Option<String> {
    support::installed(program, package).map(|p| p.to_string_lossy().into_owned())
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

/// `python3`'s path, or `None` (skipped) without it.
fn python() -> Option<String> {
    have("python3", "python3")
}

#[test]
fn analyze_with_katago_analysis_engine_from_engines_toml() {
    let Some(py) = python() else {
        return;
    };
    // The real KataGo is configured the same way, with its own program
    // and arguments (see the README).
    let dir = scratch("katago-analyze");
    let conf = dir.join("config");
    std::fs::create_dir_all(conf.join("qipu")).unwrap();
    let script = repo().join("tests/engines/katago-analysis-standin.py");
    std::fs::write(
        conf.join("qipu/engines.toml"),
        format!(
            "[[engine]]\nname = \"katago\"\ncommand = {py:?}\nargs = [{:?}, \"--order\", \"reverse\"]\nprotocol = \"katago-analysis\"\ntimeout = 30\n",
            script.to_string_lossy()
        ),
    )
    .unwrap();
    let game = dir.join("game.sgf");
    std::fs::write(&game, "(;SZ[9]KM[6.5]RU[Japanese];B[ee];W[cc];B[gc])").unwrap();
    let out_path = dir.join("out.sgf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args([
            "analyze",
            &game.to_string_lossy(),
            "--engine",
            "katago",
            "-q",
            "-o",
        ])
        .arg(&out_path)
        .env("XDG_CONFIG_HOME", &conf)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = sgf_core::parse(&std::fs::read(&out_path).unwrap()).document;
    let line: Vec<_> = doc.game(0).unwrap().main_line().collect();
    // Black's win rate by the stand-in's rule: 50% + 2% a stone ahead.
    let sbkv: Vec<String> = line
        .iter()
        .map(|n| n.text("SBKV").unwrap_or_default().to_string())
        .collect();
    assert_eq!(sbkv, ["50.00", "52.00", "50.00", "52.00"]);
    // Lizzie's LZ property: the engine, the win rate of the player who
    // just moved (Black, 52%) and the visits; then White's best move A9
    // with White's win rate in ten-thousandths.
    let lz = line[1].text("LZ").unwrap().to_string();
    assert!(lz.starts_with("Qipu-katago 52.0 100"), "{lz}");
    assert!(lz.contains("move A9 visits 60 winrate 4800 "), "{lz}");
}
