//! `qipu db index/find/dups`: the JSON shapes of the issue, exit statuses,
//! `-o`, shards.

mod common;
use common::*;

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

fn setup(name: &str) -> (PathBuf, String, String) {
    let d = std::env::temp_dir().join(format!("qipu-cli-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("games")).unwrap();
    for f in ["variations.sgf", "dup-a.sgf", "dup-b.sgf"] {
        std::fs::copy(repo().join("testdata/db").join(f), d.join("games").join(f)).unwrap();
    }
    let db = d.join("g.qdb").to_string_lossy().into_owned();
    let games = d.join("games").to_string_lossy().into_owned();
    (d, db, games)
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn index_find_dups_json() {
    let (d, db, games) = setup("json");
    let r = json(&qipu(&["db", "index", "-q", "--json", &db, &games]));
    assert_eq!(r["games"], 7);
    assert_eq!(r["read"], 3);
    let r = json(&qipu(&["db", "index", "-q", "--json", &db, &games]));
    assert_eq!(
        (r["read"].as_u64(), r["unchanged"].as_u64()),
        (Some(0), Some(3))
    );

    // A full-board position: the two duplicates, after 30 moves.
    let pos = format!("{games}/dup-b.sgf");
    let f = json(&qipu(&[
        "db",
        "find",
        &db,
        "--position",
        &pos,
        "--move",
        "30",
        "--json",
    ]));
    assert_eq!(f["total"], 2);
    let hit = &f["hits"][0];
    for k in ["path", "game", "move", "black", "white", "date", "result"] {
        assert!(hit.get(k).is_some(), "{k} missing in {hit}");
    }
    assert_eq!(hit["move"], 30);
    assert_eq!(hit["game"], 0);
    let c = &f["continuations"][0];
    assert_eq!(c["count"], 2);
    assert_eq!(c["color"], "B");
    assert_eq!(
        (c["black_wins"].as_u64(), c["white_wins"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(c["move"].as_str().unwrap().len(), 2);

    // A pattern file, anywhere, with filters.
    let pat = d.join("p.sgf");
    std::fs::write(&pat, "(;SZ[9]AB[cc]AW[dc]VW[cc:dc])").unwrap();
    let pat = pat.to_string_lossy().into_owned();
    let all = json(&qipu(&[
        "db",
        "find",
        &db,
        "--pattern",
        &pat,
        "--anywhere",
        "--json",
    ]));
    assert!(all["total"].as_u64().unwrap() >= 3);
    let alice = json(&qipu(&[
        "db",
        "find",
        &db,
        "--pattern",
        &pat,
        "--anywhere",
        "--player",
        "alice",
        "--json",
    ]));
    assert!(alice["total"].as_u64().unwrap() >= 1);
    assert!(
        alice["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["white"] == "Bob")
    );

    // -o writes the hit games.
    let out = d.join("hits.sgf");
    let o = qipu(&[
        "db",
        "find",
        &db,
        "--player",
        "ivan",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("(;").count(), 2, "{text}");
    assert!(text.contains("PB[Ivan]") && text.contains("PB[ivan2]"));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("2 hit(s) in 2 game(s)"));

    let dups = json(&qipu(&["db", "dups", &db, "--json"]));
    assert_eq!(dups["groups"].as_array().unwrap().len(), 1);
    assert_eq!(dups["groups"][0]["games"].as_array().unwrap().len(), 2);

    // Shards: the same answer from two databases.
    let (d2, db2, _) = setup("json2");
    let g1 = d2.join("one");
    std::fs::create_dir_all(&g1).unwrap();
    std::fs::copy(format!("{games}/variations.sgf"), g1.join("v.sgf")).unwrap();
    json(&qipu(&[
        "db",
        "index",
        "-q",
        "--json",
        &db2,
        g1.to_str().unwrap(),
    ]));
    let db3 = d2.join("three.qdb").to_string_lossy().into_owned();
    json(&qipu(&[
        "db",
        "index",
        "-q",
        "--json",
        &db3,
        &format!("{games}/dup-a.sgf"),
        &format!("{games}/dup-b.sgf"),
    ]));
    let sharded = json(&qipu(&[
        "db",
        "find",
        &db2,
        &db3,
        "--pattern",
        &pat,
        "--anywhere",
        "--json",
    ]));
    assert_eq!(sharded["total"], all["total"]);
    assert_eq!(sharded["continuations"], all["continuations"]);
    std::fs::remove_dir_all(&d).unwrap();
    std::fs::remove_dir_all(&d2).unwrap();
}

#[test]
fn bad_input_exits_2() {
    let (d, db, games) = setup("bad");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let missing = d.join("nope.qdb");
    let o = qipu(&["db", "find", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such database"));
    assert!(!missing.exists(), "find does not create a database");
    let o = qipu(&["db", "find", &db, "--from", "sometime"]);
    assert_eq!(o.status.code(), Some(2));
    let o = qipu(&["db", "find", &db, "--winner", "maybe"]);
    assert_eq!(o.status.code(), Some(2));
    let o = qipu(&[
        "db",
        "find",
        &db,
        "--pattern",
        d.join("nope.sgf").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = qipu(&[
        "db",
        "find",
        &db,
        "--position",
        &format!("{games}/dup-a.sgf"),
        "--move",
        "999",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let not_db = d.join("games/dup-a.sgf");
    let o = qipu(&["db", "dups", not_db.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = qipu(&["db", "index", &db, d.join("missing-dir").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&d).unwrap();
}
