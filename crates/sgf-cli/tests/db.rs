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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Bytes that are no game record: the start of an executable.
const BINARY: &[u8] = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00";

#[cfg(unix)]
#[test]
fn index_refuses_devices_and_fifos_and_says_so() {
    let (d, db, games) = setup("special");
    let fifo = d.join("pipe.sgf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut args = vec!["db", "index", "-q", "--json", &db, "/dev/zero", &games];
    let fifo_s = fifo.to_string_lossy().into_owned();
    if made {
        args.push(&fifo_s);
    }
    // Before: /dev/zero was read until the memory was full, a FIFO waited
    // for ever.
    let o = qipu(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("/dev/zero: it is a character device, not a regular file"),
        "{err}"
    );
    if made {
        assert!(err.contains("pipe.sgf: it is a FIFO"), "{err}");
    }
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["games"], 7, "the other files are indexed");
    assert_eq!(r["failed"], if made { 2 } else { 1 });
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_file_with_no_game_fails_stats_export_and_index() {
    let (d, db, games) = setup("nogame");
    let bin = d.join("games/ls");
    std::fs::write(&bin, BINARY).unwrap();
    let bin = bin.to_string_lossy().into_owned();
    let good = format!("{games}/dup-a.sgf");
    let named = |o: &Output| {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
        assert!(
            stderr(o).contains(&format!("{bin} is not a game record: it is an executable")),
            "{}",
            stderr(o)
        );
    };
    // stats: the other file is counted, the JSON gains `not_records`.
    let o = qipu(&["stats", "--json", "-q", &bin, &good]);
    named(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["files"].as_u64(), v["games"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(v["not_records"], 1);
    assert!(stderr(&o).contains("1 of 2 file(s) could not be counted"));
    named(&qipu(&["stats", &bin]));
    // export: the other file's game is written.
    let o = qipu(&["export", "-q", &bin, &good]);
    named(&o);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    assert!(stderr(&o).contains("1 file(s) could not be exported"));
    let out = d.join("out.jsonl");
    let o = qipu(&["export", "-q", &bin, "-o", out.to_str().unwrap()]);
    named(&o);
    assert!(!out.exists(), "nothing exported, nothing written");
    // db index: reported, the others stored, and again on the next run.
    for run in 0..2 {
        let o = qipu(&["db", "index", "-q", &db, &games, &bin]);
        named(&o);
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            text.contains("1 file(s) or archive member(s) could not be read"),
            "run {run}: {text}"
        );
        assert!(text.contains("7 in the database"), "{text}");
    }
    // An archive member that cannot be read (an encrypted UGF) is named too.
    std::fs::remove_file(&bin).unwrap();
    std::fs::copy(
        repo().join("testdata/formats/ugf/crypt.ugf"),
        d.join("games/crypt.ugf"),
    )
    .unwrap();
    let o = qipu(&["db", "index", "-q", "--json", &db, &games]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("crypt.ugf: "), "{}", stderr(&o));
    std::fs::remove_file(d.join("games/crypt.ugf")).unwrap();
    let o = qipu(&["db", "index", "-q", &db, &games]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn find_refuses_options_without_effect() {
    let (d, db, games) = setup("usage");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let pat = d.join("p.sgf");
    std::fs::write(&pat, "(;SZ[9]AB[cc]AW[dc]VW[cc:dc])").unwrap();
    let pat = pat.to_string_lossy().into_owned();
    let usage = |args: &[&str], want: &str| {
        let mut all = vec!["db", "find", &db];
        all.extend_from_slice(args);
        let o = qipu(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    };
    // Before: every game was listed, as if the option were not there.
    usage(
        &["--moves", "10..5"],
        "--moves has no effect without --pattern or --position",
    );
    usage(&["--moves", "..60"], "--moves has no effect");
    usage(&["--swap-colors"], "--swap-colors has no effect");
    usage(&["--to-play", "B"], "--to-play has no effect");
    usage(&["--variations"], "--variations has no effect");
    usage(&["--contains"], "--contains has no effect");
    usage(&["--pattern", &pat, "--moves", "10..5"], "--moves: `10..5`");
    usage(&["--pattern", &pat, "--moves", ".."], "--moves");
    usage(&["--pattern", &pat, "--moves=-3.."], "not a count");
    usage(
        &["--length", "90..30"],
        "--length: `90..30`: the range is empty",
    );
    usage(&["--handicap", "1.5"], "--handicap");
    usage(&["--komi", "nan"], "--komi");
    usage(&["--from", "2006", "--to", "2003"], "inverted");
    usage(&["--player", ""], "--player is empty");
    usage(&["--comment", "  "], "--comment is empty");
    usage(&["--game", "2"], "--position");
    // What has an effect still works.
    let o = qipu(&["db", "find", &db, "--pattern", &pat, "--moves", "..60"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = qipu(&["db", "find", &db, "--player", "al", "--contains"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_database_named_twice_is_searched_once() {
    let (d, db, games) = setup("twice");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let once = json(&qipu(&["db", "find", &db, "--json"]));
    assert_eq!(once["total"], 7);
    let other_name = d.join(".").join("g.qdb").to_string_lossy().into_owned();
    let o = qipu(&["db", "find", &db, &other_name, &db, "--json"]);
    let err = stderr(&o);
    let twice = json(&o);
    // Before: 14 and 21 hits.
    assert_eq!(twice, once);
    assert_eq!(err.matches("searched once").count(), 2, "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn find_output_reports_missing_sources_and_never_writes_an_empty_file() {
    let (d, db, games) = setup("output");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let out = d.join("hits.sgf");
    let outs = out.to_string_lossy().into_owned();
    // All 7 games, from three files; one file gone.
    std::fs::remove_file(format!("{games}/dup-a.sgf")).unwrap();
    let o = qipu(&["db", "find", &db, "-o", &outs]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("dup-a.sgf: ") && err.contains("1 hit game(s) not written"),
        "{err}"
    );
    assert!(
        err.contains("1 of 7 hit game(s) could not be written"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("(;GM[1]").count(), 6, "the others are written");
    // Every source gone: no file is made (before: a 0-byte file, exit 0),
    // and the one there stays as it was.
    for f in ["variations.sgf", "dup-b.sgf"] {
        std::fs::remove_file(format!("{games}/{f}")).unwrap();
    }
    let o = qipu(&["db", "find", &db, "-o", &outs]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not written"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let fresh = d.join("fresh.sgf");
    let o = qipu(&["db", "find", &db, "-o", fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!fresh.exists());
    // No hit: nothing to write, not an error.
    let o = qipu(&[
        "db",
        "find",
        &db,
        "--player",
        "nobody",
        "-o",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!fresh.exists());
    assert!(stderr(&o).contains("no hit game to write"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[cfg(unix)]
#[test]
fn find_output_goes_through_the_safe_writer() {
    let (d, db, games) = setup("safe");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let target = d.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = d.join("link.sgf");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = qipu(&["db", "find", &db, "-o", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // `-o -`: the collection on standard output, the count on standard error.
    let o = qipu(&["db", "find", &db, "--player", "ivan", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("(;") && text.matches("(;").count() == 2,
        "{text}"
    );
    assert!(stderr(&o).contains("2 hit(s) in 2 game(s)"));
    let names: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !n.contains(".tmp") && !n.starts_with('.')),
        "{names:?}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn damaged_and_foreign_databases_are_named_and_exit_2() {
    let (d, db, games) = setup("damaged");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let bytes = std::fs::read(&db).unwrap();
    let put = |name: &str, b: &[u8]| {
        let p = d.join(name);
        std::fs::write(&p, b).unwrap();
        p.to_string_lossy().into_owned()
    };
    let truncated = put("truncated.qdb", &bytes[..bytes.len() / 2]);
    let wrong = put("wrong.qdb", &bytes);
    // A value of the wrong type (a blob where a game number is read):
    // before, "Invalid column type Blob at index: 2" without a file name.
    rusqlite::Connection::open(&wrong)
        .unwrap()
        .execute("UPDATE games SET game = x'00' WHERE id = 1", [])
        .unwrap();
    let random: Vec<u8> = (0..3000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let binary = put("x.db", &random);
    let empty = put("empty.qdb", b"");
    let cases = [
        (truncated, "damaged ("),
        (wrong, "damaged (row 1 of the table `games`"),
        (binary, "not a Qipu database (not an SQLite database file)"),
        (empty.clone(), "not a Qipu database (an empty file)"),
    ];
    for (p, want) in &cases {
        for args in [
            vec!["db", "find", p.as_str(), "--json"],
            vec!["db", "dups", p.as_str()],
            vec!["db", "index", "-q", p.as_str(), games.as_str()],
        ] {
            if args[1] == "index" && p == &empty {
                continue;
            }
            let o = qipu(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(o.stdout.is_empty(), "{args:?}: never a success");
            let err = stderr(&o);
            assert!(err.contains(&format!("{p}: {want}")), "{args:?}: {err}");
        }
    }
    // `db index` makes a new database in an empty file.
    let o = qipu(&["db", "index", "-q", &empty, &games]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&qipu(&["db", "find", &empty, "--json"]))["total"], 7);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Reads `child`'s standard error until a line holds `want`; returns what
/// was read.
fn read_until(child: &mut std::process::Child, want: &str) -> String {
    use std::io::BufRead;
    let mut r = std::io::BufReader::new(child.stderr.as_mut().unwrap());
    let mut all = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 {
            panic!("no `{want}` in {all}");
        }
        all.push_str(&line);
        if line.contains(want) {
            return all;
        }
    }
}

#[test]
fn two_index_runs_at_once() {
    use std::process::{Command, Stdio};
    let (d, db, games) = setup("concurrent");
    // More files, so that a run takes a while.
    for i in 0..40 {
        std::fs::copy(
            format!("{games}/variations.sgf"),
            format!("{games}/copy-{i:02}.sgf"),
        )
        .unwrap();
    }
    let total = 7 + 40 * 5;
    let spawn = |wait: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_qipu"));
        c.args(["db", "index", "-q", "--json", &db, &games]);
        if wait {
            c.arg("--wait");
        }
        c.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Another process is indexing (it holds the lock `DB-lock`): a second
    // run fails at once, before it reads anything, and says why.
    let lock = std::fs::File::create(format!("{db}-lock")).unwrap();
    lock.lock().unwrap();
    let o = spawn(false).wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("being indexed by another process; run again when it is done, or wait for it with --wait"),
        "{}",
        stderr(&o)
    );
    // Two real processes with --wait, both started while it runs: both
    // wait, then run one after the other, and the database is right
    // (before: "UNIQUE constraint failed: sources.abs_path" or "database
    // is locked", after parsing everything).
    let mut a = spawn(true);
    let mut b = spawn(true);
    read_until(&mut a, "waiting for it to finish");
    read_until(&mut b, "waiting for it to finish");
    drop(lock);
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for o in [&a, &b] {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    }
    let (ra, rb) = (json(&a), json(&b));
    assert_eq!(ra["total_games"], total);
    assert_eq!(rb["total_games"], total);
    // One of them read everything, the other found it all done.
    let read = [ra["read"].as_u64().unwrap(), rb["read"].as_u64().unwrap()];
    assert!(read.contains(&43) && read.contains(&0), "{read:?}");
    // And racing without anyone holding the lock: both succeed, whichever
    // comes first.
    std::fs::remove_file(&db).unwrap();
    let (a, b) = (spawn(true), spawn(true));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for o in [&a, &b] {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        assert_eq!(json(o)["total_games"], total);
    }
    assert!(!std::path::Path::new(&format!("{db}-lock")).exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn pattern_sequences_are_capped() {
    let (d, db, games) = setup("cap");
    assert!(qipu(&["db", "index", "-q", &db, &games]).status.success());
    let mut s = String::from("(;SZ[19]");
    for i in 0..100_000usize {
        let p = i % 361;
        let pt = format!(
            "{}{}",
            (b'a' + (p % 19) as u8) as char,
            (b'a' + (p / 19) as u8) as char
        );
        s.push_str(&format!(";{}[{pt}]", if i % 2 == 0 { 'B' } else { 'W' }));
    }
    s.push(')');
    let pat = d.join("long.sgf");
    std::fs::write(&pat, &s).unwrap();
    // Before: 1.33 GB of memory for this file.
    let o = qipu(&["db", "find", &db, "--pattern", pat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than 500 moves, the most a pattern may have"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn help_documents_the_exit_statuses() {
    for sub in ["index", "find", "dups"] {
        let o = qipu(&["db", sub, "--help"]);
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(text.contains("Exit status: 0"), "{sub}: {text}");
        assert!(text.contains("2 "), "{sub}: {text}");
    }
}
