//! End-to-end tests of `qipu render`, `figures`, `stats` and `export`.

mod common;
use common::*;

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};

fn write(path: &Path, text: &str) -> String {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap();
    }
    std::fs::write(path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const GAME: &str = "(;SZ[9]PB[Kuro]PW[Shiro]RE[B+R];B[ee];W[cc]TR[ee]LB[gc:a];B[gg])";

#[test]
fn render_text_svg_and_png() {
    let d = scratch("render");
    let f = write(&d.join("g.sgf"), GAME);
    let out = qipu(&["render", &f, "--move", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("^X") && text.contains("a"), "{text}");
    assert!(text.contains("move 2, Black to play"), "{text}");
    let out = qipu(&["render", &f, "--format", "unicode", "--no-coordinates"]);
    assert!(String::from_utf8(out.stdout).unwrap().contains('●'));
    // The format follows the extension.
    let svg = d.join("b.svg");
    let out = qipu(&[
        "render",
        &f,
        "-o",
        svg.to_str().unwrap(),
        "--numbers",
        "all",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg") && s.contains("class=\"number\""));
    let png = d.join("b.png");
    let out = qipu(&[
        "render",
        &f,
        "-o",
        png.to_str().unwrap(),
        "--size",
        "300",
        "--theme",
        "dark",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    // Same input, same bytes.
    let again = d.join("c.png");
    qipu(&[
        "render",
        &f,
        "-o",
        again.to_str().unwrap(),
        "--size",
        "300",
        "--theme",
        "dark",
    ]);
    assert_eq!(bytes, std::fs::read(&again).unwrap());
}

#[test]
fn render_usage_errors_exit_2() {
    let d = scratch("render-errors");
    let f = write(&d.join("g.sgf"), GAME);
    for args in [
        vec!["render", f.as_str(), "-o", "x.gif"],
        vec!["render", f.as_str(), "--numbers", "some"],
        vec!["render", f.as_str(), "--node", "99"],
        vec!["render", f.as_str(), "--game", "3"],
        vec!["render", "/no/such/file.sgf"],
    ] {
        let out = qipu(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn figures_write_svgs_and_an_index() {
    let d = scratch("figures");
    let f = write(
        &d.join("g.sgf"),
        "(;SZ[9]GN[Test game];B[aa];W[bb]C[two];B[cc]FG[0:Later];W[dd];B[ee])",
    );
    let out_dir = d.join("out");
    let out = qipu(&["figures", &f, "-o", out_dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out_dir.join("figure-001.svg").exists());
    assert!(out_dir.join("figure-002.svg").exists());
    assert!(!out_dir.join("figure-003.svg").exists());
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    let first = index.find("figure-001.svg").unwrap();
    let second = index.find("figure-002.svg").unwrap();
    assert!(first < second);
    assert!(
        index.contains("<h2>Later</h2>") && index.contains("<b>2</b> two"),
        "{index}"
    );
    let out = qipu(&[
        "figures",
        &f,
        "-o",
        out_dir.to_str().unwrap(),
        "--every",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out_dir.join("figure-003.svg").exists());
}

/// A small tree of files: nested directories, an upper-case extension, a
/// collection of two games, a damaged file and a file that is not a record.
fn collection() -> PathBuf {
    let d = scratch("collection");
    write(&d.join("a.sgf"), GAME);
    write(
        &d.join("sub/deeper/b.SGF"),
        "(;SZ[13];B[aa];W[bb](;B[cc])(;B[dd]))",
    );
    write(
        &d.join("sub/two.sgf"),
        "(;CA[UTF-8]SZ[19]RE[W+3.5];B[pd];W[dp])\n(;SZ[19:13]RE[0];B[aa])",
    );
    write(&d.join("sub/broken.sgf"), "(;SZ[9];B[aa];W[bb]");
    write(&d.join("notes.txt"), "(;B[aa])");
    d
}

#[test]
fn stats_counts_a_tree_of_files() {
    let d = collection();
    let out = qipu(&["stats", "--json", d.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"], 4);
    assert_eq!(v["games"], 5);
    // a: 4 nodes, 3 moves; b: 5 nodes, 4 moves; two: 3+2 nodes, 2+1 moves; broken: 3, 2.
    assert_eq!(v["nodes"], 4 + 5 + 5 + 3);
    assert_eq!(v["moves"], 3 + 4 + 3 + 2);
    assert_eq!(v["main_line_moves"], 3 + 3 + 3 + 2);
    let bytes: u64 = ["a.sgf", "sub/deeper/b.SGF", "sub/two.sgf", "sub/broken.sgf"]
        .iter()
        .map(|f| std::fs::metadata(d.join(f)).unwrap().len())
        .sum();
    assert_eq!(v["bytes"], bytes);
    assert_eq!(v["files_with_errors"], 1);
    assert_eq!(v["board_sizes"]["9"], 2);
    assert_eq!(v["board_sizes"]["19x13"], 1);
    assert_eq!(v["results"]["W+Score"], 1);
    assert_eq!(v["results"]["Draw"], 1);
    assert_eq!(v["results"]["B+Resign"], 1);
    // The keys come in the documented order.
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.find("\"files\"").unwrap() < text.find("\"games\"").unwrap());
    // Text output, and a file named directly.
    let out = qipu(&["stats", d.join("a.sgf").to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("games") && text.contains("board sizes:"),
        "{text}"
    );
    // A path that does not exist is an error; nothing is printed on stdout.
    let out = qipu(&["stats", d.join("missing").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(qipu(&["stats"]).status.code(), Some(2));
}

#[test]
fn export_writes_one_line_per_game_in_order() {
    let d = collection();
    let out_file = d.join("out.jsonl");
    let out = qipu(&[
        "export",
        "--format",
        "jsonl",
        d.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    // Files in walk order: a.sgf, then sub/ (its files, then deeper/).
    let files: Vec<&str> = lines.iter().map(|l| l["file"].as_str().unwrap()).collect();
    assert!(files[0].ends_with("a.sgf"));
    assert!(files[4].ends_with("b.SGF"), "{files:?}");
    let a = &lines[0];
    assert_eq!(a["game"], 1);
    assert_eq!(a["size"], serde_json::json!([9, 9]));
    assert_eq!(a["info"]["PB"], "Kuro");
    assert_eq!(
        a["moves"],
        serde_json::json!([["B", "ee"], ["W", "cc"], ["B", "gg"]])
    );
    let two: Vec<_> = lines
        .iter()
        .filter(|l| l["file"].as_str().unwrap().ends_with("two.sgf"))
        .collect();
    assert_eq!(two.len(), 2);
    assert_eq!(two[1]["game"], 2);
    assert_eq!(two[1]["size"], serde_json::json!([19, 13]));
    // Same output to standard output, deterministic.
    let out = qipu(&["export", "-q", d.to_str().unwrap()]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
}

/// Games, nodes and moves counted by a scanner that shares nothing with the
/// parser: brackets with escapes, `(` at depth 0, `;`, and values of `B`/`W`.
fn scan(b: &[u8]) -> (u64, u64, u64) {
    let (mut games, mut nodes, mut moves) = (0, 0, 0);
    let (mut depth, mut in_value, mut i) = (0usize, false, 0usize);
    let mut ident: Vec<u8> = Vec::new();
    while i < b.len() {
        let c = b[i];
        if in_value {
            match c {
                b'\\' => i += 1,
                b']' => in_value = false,
                _ => {}
            }
        } else {
            match c {
                b'[' => {
                    in_value = true;
                    if ident == b"B" || ident == b"W" {
                        moves += 1;
                    }
                }
                b'(' => {
                    if depth == 0 {
                        games += 1;
                    }
                    depth += 1;
                    ident.clear();
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    ident.clear();
                }
                b';' => {
                    nodes += 1;
                    ident.clear();
                }
                b'A'..=b'Z' => {
                    if i == 0 || !b[i - 1].is_ascii_uppercase() {
                        ident.clear();
                    }
                    ident.push(c);
                }
                _ => {}
            }
        }
        i += 1;
    }
    (games, nodes, moves)
}

#[test]
fn stats_over_the_corpus_matches_an_independent_count() {
    let Some(real) = corpus::corpus_path("real") else {
        return;
    };
    let out = qipu(&["stats", "--json", "-q", real.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (mut files, mut bytes, mut games, mut nodes, mut moves, mut indexed) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut stack = vec![real.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                continue;
            }
            let b = std::fs::read(&p).unwrap();
            files += 1;
            bytes += b.len() as u64;
            let (g, n, m) = scan(&b);
            games += g;
            nodes += n;
            moves += m;
            // The index beside each collection has one line per original game file.
            let index = PathBuf::from(format!("{}.index.tsv", p.display()));
            if let Ok(t) = std::fs::read_to_string(index) {
                indexed += t
                    .lines()
                    .filter(|l| !l.starts_with('#') && !l.is_empty())
                    .count() as u64;
            }
        }
    }
    assert_eq!(v["files"], files);
    assert_eq!(v["bytes"], bytes);
    assert_eq!(v["games"], games);
    assert_eq!(v["games"], indexed);
    assert_eq!(v["nodes"], nodes);
    assert_eq!(v["moves"], moves);
}
