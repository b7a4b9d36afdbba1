//! `qipu dataset`: the summary scripts read, the exit statuses, and the
//! refusals.

mod common;
use common::{qipu, scratch};

#[test]
fn summary_and_exit_statuses() {
    let d = scratch("dataset-summary");
    std::fs::write(
        d.join("a.sgf"),
        "(;GM[1]SZ[19]RE[B+R]BR[3d]WR[2d];B[pd];W[dp];B[pp];W[dd])\
         (;GM[1]SZ[9];B[ee])\
         (;GM[1]SZ[19]RE[W+0.5];B[pd];W[pd])",
    )
    .unwrap();
    std::fs::write(d.join("notes.sgf"), "just notes").unwrap();
    let out = d.join("out");
    let o = out.to_str().unwrap();
    let run = qipu(&["dataset", d.to_str().unwrap(), "-o", o, "--json", "-q"]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8_lossy(&run.stdout);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["games_read"], 3);
    assert_eq!(last["games_kept"], 1);
    assert_eq!(last["positions"], 4);
    assert_eq!(last["dropped"]["size"], 1);
    assert_eq!(last["dropped"]["illegal_move"], 1);
    assert_eq!(last["inputs_failed"], 1);
    assert!(String::from_utf8_lossy(&run.stderr).contains("could not be read"));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("notes.sgf"),
        "the input is named"
    );
    assert!(out.join("train-00000.npz").is_file() && out.join("dataset.json").is_file());

    // The directory holds a dataset now: not replaced without --overwrite.
    let again = qipu(&["dataset", d.to_str().unwrap(), "-o", o, "-q"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--overwrite"));
    // Cut instead of drop, and ranks: the cut game keeps its first move.
    let cut = qipu(&[
        "dataset",
        d.to_str().unwrap(),
        "-o",
        o,
        "--overwrite",
        "--illegal",
        "cut",
        "--min-rank",
        "1d",
        "--keep-duplicates",
        "--json",
        "-q",
    ]);
    let text = String::from_utf8_lossy(&cut.stdout);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["games_kept"], 1, "{text}");
    assert_eq!(last["dropped"]["rank"], 1, "the unranked 19×19 game");
    // Options that cannot go together are a usage error.
    let bad = qipu(&[
        "dataset",
        d.to_str().unwrap(),
        "-o",
        o,
        "--format",
        "leela",
        "--liberties",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    // The library's words, as Python's ValueError says them.
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("Leela Zero's chunks have fixed planes"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    // Leela Zero's chunks hold only games with a winner, asked or not: a
    // game without a result is left out, not written as a loss for both.
    std::fs::write(d.join("b.sgf"), "(;GM[1]SZ[19];B[pd];W[dp])").unwrap();
    let lz = d.join("lz");
    let leela = qipu(&[
        "dataset",
        d.join("b.sgf").to_str().unwrap(),
        d.join("a.sgf").to_str().unwrap(),
        "-o",
        lz.to_str().unwrap(),
        "--format",
        "leela",
        "--json",
        "-q",
    ]);
    let text = String::from_utf8_lossy(&leela.stdout);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["dropped"]["no_winner"], 1, "{text}");
    assert_eq!(last["games_kept"], 1, "{text}");
    let missing = qipu(&["dataset", d.join("nope").to_str().unwrap(), "-o", o]);
    assert_eq!(missing.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}

/// A solid archive cut into files of N games that workers read on their
/// own: every game is there, and a dataset of the shards is the dataset of
/// the archive.
#[test]
fn repack_cuts_an_archive_into_shards() {
    let d = scratch("dataset-repack");
    let seven = common::repo().join("testdata/db/games.7z");
    let out = d.join("shards");
    let r = qipu(&[
        "dataset",
        seven.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--repack",
        "1",
        "--json",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let s: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&r.stdout).lines().last().unwrap()).unwrap();
    let games = s["games"].as_u64().unwrap();
    assert!(games >= 2);
    assert_eq!(s["files"].as_array().unwrap().len() as u64, games);
    let a = d.join("a");
    let b = d.join("b");
    let run = |input: &std::path::Path, o: &std::path::Path| {
        let r = qipu(&[
            "dataset",
            input.to_str().unwrap(),
            "-o",
            o.to_str().unwrap(),
            "--size",
            "9",
            "--keep-duplicates",
            "--shuffle-buffer",
            "0",
            "-q",
        ]);
        assert!(r.status.code().is_some());
        std::fs::read(o.join("train-00000.npz")).unwrap()
    };
    assert_eq!(run(&seven, &a), run(&out, &b));
    // An input that is no record is named, and the status says so.
    std::fs::write(d.join("notes.sgf"), "just notes").unwrap();
    let r = qipu(&[
        "dataset",
        d.join("notes.sgf").to_str().unwrap(),
        "-o",
        d.join("n").to_str().unwrap(),
        "--repack",
        "10",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("notes.sgf"));
}
