//! One game summary behind every face: `qipu export`, the viewer's game
//! list (and Python's `to_arrow`, in `tests/python/test_bulk.py`) give the
//! summary that `testdata/summary/unplayable.json` holds for a collection
//! with moves that cannot be played. A face that builds its rows its own
//! way again fails here.

mod common;
use common::*;

use serde_json::Value;

fn expected() -> Vec<Value> {
    let text = std::fs::read_to_string(repo().join("testdata/summary/unplayable.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["games"].as_array().unwrap().clone()
}

fn record() -> String {
    repo()
        .join("testdata/summary/unplayable.sgf")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn export_gives_the_summary() {
    let out = qipu(&["export", "--format", "jsonl", "-q", &record()]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want = expected();
    assert_eq!(lines.len(), want.len());
    for (got, want) in lines.iter().zip(&want) {
        assert_eq!(got["size"], want["size"]);
        assert_eq!(got["charset"], want["charset"]);
        for (key, ident) in [
            ("black", "PB"),
            ("white", "PW"),
            ("black_rank", "BR"),
            ("white_rank", "WR"),
            ("result", "RE"),
            ("date", "DT"),
            ("event", "EV"),
            ("name", "GN"),
        ] {
            assert_eq!(got["info"][ident], want[key], "{key}");
        }
        let setup = got["setup"]
            .get("AB")
            .cloned()
            .unwrap_or(Value::Array(vec![]));
        assert_eq!(setup, want["setup_black"]);
        // Every move, an unplayable one as written: move N is the N-th.
        assert_eq!(got["moves"], want["moves"]);
    }
}

#[test]
fn the_viewer_lists_the_summary() {
    let bytes = std::fs::read(record()).unwrap();
    let loaded = sgf_formats::read_any(&bytes, Some(std::path::Path::new(&record()))).unwrap();
    let session = sgf_web::Session::new(
        1,
        "unplayable.sgf".into(),
        loaded.parsed.document,
        loaded.parsed.diagnostics,
        loaded.format.into(),
        loaded.charset.into(),
    );
    // As the viewer sends them.
    let rows: Vec<serde_json::Value> = session
        .game_list()
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    let want = expected();
    assert_eq!(rows.len(), want.len());
    for (i, (got, want)) in rows.iter().zip(&want).enumerate() {
        assert_eq!(got["game"], i);
        for key in [
            "black",
            "white",
            "black_rank",
            "white_rank",
            "result",
            "date",
            "event",
            "name",
        ] {
            assert_eq!(got[key], want[key], "{key}");
        }
        assert_eq!(got["moves"], want["moves"].as_array().unwrap().len());
    }
}

#[test]
fn the_library_summary_is_the_expected_one() {
    // The summary itself, as the faces above read it.
    let bytes = std::fs::read(record()).unwrap();
    let loaded = sgf_formats::read_any(&bytes, None).unwrap();
    let all = sgf_formats::summary::summaries(&loaded);
    let want = expected();
    assert_eq!(all.len(), want.len());
    for (s, want) in all.iter().zip(&want) {
        let moves: Vec<Value> = s
            .moves
            .iter()
            .map(|m| serde_json::json!([m.color.as_str(), m.text()]))
            .collect();
        assert_eq!(Value::Array(moves), want["moves"]);
        let unplayable: Vec<usize> = (1..)
            .zip(&s.moves)
            .filter(|(_, m)| m.unplayable.is_some())
            .map(|(n, _)| n)
            .collect();
        assert_eq!(serde_json::json!(unplayable), want["unplayable"]);
        assert_eq!(s.charset, want["charset"].as_str().unwrap());
        assert!(s.errors >= 1, "an unplayable move is an error");
    }
}
