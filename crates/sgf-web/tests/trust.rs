//! Trust (issue 15): undo records changes, untouched bytes stay, illegal
//! moves are warned of, typing in a field is one undo step, and files no
//! longer shown are freed.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

#[path = "../../../testsupport/corpus.rs"]
mod corpus;
mod support;
use support::{App, call, serve, tmp};

fn served(tag: &str, files: &[(&str, &[u8])]) -> (PathBuf, App) {
    let d = tmp(&format!("trust-{tag}"));
    for (name, bytes) in files {
        std::fs::write(d.join(name), bytes).unwrap();
    }
    let a = serve(&d);
    (d, a)
}

/// A POST, whatever its status: its answer.
async fn post(app: &App, uri: &str, body: Value) -> Value {
    call(app, "POST", uri, Some(body)).await.1
}

async fn open(app: &App, path: &str) -> Value {
    let st = post(app, "/api/open", json!({ "path": path })).await;
    assert!(st["session"].is_u64(), "{st}");
    st
}

async fn edit(app: &App, s: &Value, body: Value) -> Value {
    let mut b = body;
    b["session"] = s.clone();
    post(app, "/api/edit", b).await
}

async fn nav(app: &App, s: &Value, body: Value) -> Value {
    let mut b = body;
    b["session"] = s.clone();
    post(app, "/api/nav", b).await
}

async fn save(app: &App, s: &Value) -> Value {
    post(app, "/api/save", json!({"session": s, "mode": "lossless"})).await
}

/// A game of `moves` moves on distinct points, one node a line.
fn game(moves: usize, tag: usize) -> String {
    let mut g = format!("(;GM[1]FF[4]SZ[19]PB[Black {tag}]PW[White {tag}]RE[B+R]\n");
    for k in 0..moves {
        let i = (k * 7 + tag) % 361;
        let p = format!(
            "{}{}",
            (b'a' + (i % 19) as u8) as char,
            (b'a' + (i / 19) as u8) as char
        );
        let c = if k % 2 == 0 { 'B' } else { 'W' };
        g.push_str(&format!(";{c}[{p}]\n"));
    }
    g.push_str(")\n");
    g
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[tokio::test]
async fn a_variation_played_then_deleted_leaves_the_bytes() {
    let src = game(60, 3);
    let (dir, app) = served("delete", &[("g.sgf", src.as_bytes())]);
    let st = open(&app, "g.sgf").await;
    let s = st["session"].clone();
    nav(&app, &s, json!({"action": "move", "move": 30})).await;
    // A move at move 30 that is not the game's: a new variation.
    let st = edit(&app, &s, json!({"op": "play", "point": "ss"})).await;
    assert_eq!(st["node"]["variations"], 2, "{st}");
    let added = st["node"]["number"].clone();
    // Back to the game's end, then to the variation again, and delete it.
    nav(&app, &s, json!({"action": "prev"})).await;
    nav(&app, &s, json!({"action": "last"})).await;
    nav(&app, &s, json!({"action": "node", "node": added})).await;
    let st = edit(&app, &s, json!({"op": "delete"})).await;
    assert_eq!(st["node"]["move_number"], 30, "{st}");
    assert_eq!(st["dirty"], true);
    let r = save(&app, &s).await;
    assert!(r["saved"].is_string(), "{r}");
    assert_eq!(read(&dir, "g.sgf"), src.as_bytes());
    // Played and undone: the bytes as they were too; redo brings it back.
    edit(&app, &s, json!({"op": "play", "point": "ss"})).await;
    edit(&app, &s, json!({"op": "comment", "text": "a note"})).await;
    edit(&app, &s, json!({"op": "undo"})).await;
    let st = edit(&app, &s, json!({"op": "undo"})).await;
    assert_eq!(st["node"]["move_number"], 30, "{st}");
    save(&app, &s).await;
    assert_eq!(read(&dir, "g.sgf"), src.as_bytes());
    let st = edit(&app, &s, json!({"op": "redo"})).await;
    assert_eq!(st["node"]["move"], "T1", "{st}");
    let st = edit(&app, &s, json!({"op": "redo"})).await;
    assert_eq!(st["node"]["comment"], "a note", "{st}");
}

#[tokio::test]
async fn typing_in_a_field_is_one_undo_step() {
    let src = game(5, 0);
    let (dir, app) = served("typing", &[("g.sgf", src.as_bytes())]);
    let s = open(&app, "g.sgf").await["session"].clone();
    nav(&app, &s, json!({"action": "next"})).await;
    for t in ["G", "Go", "Goo", "Good"] {
        let st = edit(
            &app,
            &s,
            json!({"op": "comment", "text": t, "merge_key": "C:1:7"}),
        )
        .await;
        assert_eq!(st["node"]["comment"], t);
        assert_eq!(st["dirty"], true);
    }
    for t in ["Ann", "Anna"] {
        edit(
            &app,
            &s,
            json!({"op": "info", "props": {"EV": t}, "merge_key": "EV:8"}),
        )
        .await;
    }
    let st = edit(&app, &s, json!({"op": "undo"})).await;
    assert!(st["info"].get("EV").is_none(), "{st}");
    assert_eq!(st["node"]["comment"], "Good");
    let st = edit(&app, &s, json!({"op": "undo"})).await;
    assert!(st["node"]["comment"].is_null(), "{st}");
    assert_eq!(st["can_undo"], false);
    save(&app, &s).await;
    assert_eq!(read(&dir, "g.sgf"), src.as_bytes());
}

#[tokio::test]
async fn illegal_moves_are_warned_of_and_can_be_insisted_on() {
    let src = "(;GM[1]FF[4]SZ[9]AB[ab][ba][bb]AW[cb][ca]\n;B[ia])\n";
    let (_dir, app) = served("illegal", &[("g.sgf", src.as_bytes())]);
    let s = open(&app, "g.sgf").await["session"].clone();
    nav(&app, &s, json!({"action": "next"})).await;
    // White to play at aa: no liberty, nothing captured: a suicide.
    let st = edit(&app, &s, json!({"op": "play", "point": "aa"})).await;
    assert_eq!(st["illegal"], "suicide", "{st}");
    assert!(st["message"].as_str().unwrap().contains("suicide"));
    assert_eq!(st["node"]["number"], 1, "nothing played: {st}");
    assert_eq!(st["dirty"], false);
    let st = edit(
        &app,
        &s,
        json!({"op": "play", "point": "aa", "force": true}),
    )
    .await;
    assert!(st.get("illegal").is_none(), "{st}");
    assert_eq!(st["node"]["move"], "A9", "{st}");
    edit(&app, &s, json!({"op": "undo"})).await;
    // A setup stone: occupied.
    let st = edit(&app, &s, json!({"op": "play", "point": "ab"})).await;
    assert_eq!(st["illegal"], "occupied", "{st}");
    let st = edit(
        &app,
        &s,
        json!({"op": "play", "point": "ab", "force": true}),
    )
    .await;
    assert_eq!(st["node"]["move"], "A8", "{st}");
}

#[tokio::test]
async fn ko_retake_is_warned_of() {
    // After B[cb] captures the white stone at bb, White's retake at bb is a ko.
    let src = "(;GM[1]FF[4]SZ[9]AB[ab][ba][bc]AW[ca][db][cc][bb];B[cb])";
    let (_dir, app) = served("ko", &[("g.sgf", src.as_bytes())]);
    let s = open(&app, "g.sgf").await["session"].clone();
    let st = nav(&app, &s, json!({"action": "next"})).await;
    assert_eq!(st["node"]["captures"]["B"], 1, "{st}");
    let st = edit(&app, &s, json!({"op": "play", "point": "bb"})).await;
    assert_eq!(st["illegal"], "ko", "{st}");
    let st = edit(
        &app,
        &s,
        json!({"op": "play", "point": "bb", "force": true}),
    )
    .await;
    assert_eq!(st["node"]["move"], "B8", "{st}");
    assert_eq!(st["node"]["captures"]["W"], 1, "{st}");
}

#[tokio::test]
async fn files_no_longer_shown_are_freed() {
    let (_dir, app) = served("free", &[("a.sgf", b"(;GM[1])"), ("b.sgf", b"(;GM[1])")]);
    let a = open(&app, "a.sgf").await["session"].clone();
    let b = post(&app, "/api/open", json!({"path": "b.sgf", "replace": a})).await;
    assert!(b["session"].is_u64());
    let gone = nav(&app, &a, json!({"action": "next"})).await;
    // Said so, in words and as a kind the page acts on (it reads the file again).
    assert!(
        gone["error"]
            .as_str()
            .unwrap()
            .contains("no longer open in the viewer"),
        "{gone}"
    );
    assert_eq!(gone["error_kind"], "no_session", "{gone}");
    let r = post(&app, "/api/close", json!({"session": b["session"]})).await;
    assert_eq!(r["closed"], b["session"]);
    let gone = nav(&app, &b["session"], json!({"action": "next"})).await;
    assert!(gone["error"].is_string());
}

#[tokio::test]
async fn a_large_collection_is_edited_a_part_at_a_time() {
    let mut src = String::new();
    let mut n = 0;
    while src.len() < 2 << 20 {
        src.push_str(&game(100, n));
        n += 1;
    }
    // A damaged game near the end: B and W in one node (F004).
    let bad = src.rfind(";B[").unwrap();
    src.insert_str(bad + 6, "W[aa]");
    let line = src[..bad].matches('\n').count() + 1;
    let (dir, app) = served("parts", &[("c.sgf", src.as_bytes())]);
    let st = open(&app, "c.sgf").await;
    let s = st["session"].clone();
    assert_eq!(st["games"], n, "{}", st["games"]);
    // The file's diagnostics, at their lines in the whole file.
    let f004: Vec<&Value> = st["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "F004")
        .collect();
    assert_eq!(f004.len(), 1, "{}", st["diagnostics"]);
    assert_eq!(f004[0]["line"], line, "{}", f004[0]);
    let st = nav(&app, &s, json!({"action": "game", "game": n - 1})).await;
    assert_eq!(st["info"]["PB"], format!("Black {}", n - 1));
    assert_eq!(st["game"], n - 1);
    nav(&app, &s, json!({"action": "move", "move": 30})).await;
    edit(&app, &s, json!({"op": "play", "point": "ss"})).await;
    edit(&app, &s, json!({"op": "comment", "text": "here"})).await;
    // Another game: the edited one is kept.
    nav(&app, &s, json!({"action": "game", "game": 5})).await;
    edit(&app, &s, json!({"op": "info", "props": {"EV": "Cup"}})).await;
    let r = save(&app, &s).await;
    assert!(r["saved"].is_string(), "{r}");
    let saved = String::from_utf8(read(&dir, "c.sgf")).unwrap();
    assert_eq!(saved.matches("EV[Cup]").count(), 1);
    assert_eq!(saved.matches("C[here]").count(), 1);
    assert_eq!(
        saved.len(),
        src.len() + "EV[Cup]".len() + "(;B[ss]C[here])".len() + 2
    );
    // Undo goes back to the game of the step, and all the way to the original.
    let st = edit(&app, &s, json!({"op": "undo"})).await;
    assert_eq!(st["game"], 5);
    edit(&app, &s, json!({"op": "undo"})).await;
    let st = edit(&app, &s, json!({"op": "undo"})).await;
    assert_eq!(st["game"], n - 1, "{}", st["game"]);
    assert_eq!(st["can_undo"], false);
    save(&app, &s).await;
    assert_eq!(read(&dir, "c.sgf"), src.as_bytes());
    // Save as: the canonical form has every game.
    let r = post(
        &app,
        "/api/save",
        json!({"session": s, "mode": "canonical", "path": "c2.sgf"}),
    )
    .await;
    assert!(r["saved"].is_string(), "{r}");
    let c2 = String::from_utf8(read(&dir, "c2.sgf")).unwrap();
    assert_eq!(c2.matches("(;").count(), n);
}

/// What `qipu check --json` reports of a file (the library's one check,
/// every diagnostic), its first warnings and errors as the page gets them.
fn as_check_reports(bytes: &[u8], name: &str) -> Vec<Value> {
    let r = sgf_report::check::check_bytes(
        name,
        bytes.to_vec(),
        &sgf_report::check::CheckOptions::default(),
    );
    r.diagnostics_json(500, |d| d.severity != sgf_core::Severity::Info)
}

/// Review: the viewer checked a large file its own way (no whole-file
/// rules, parts of one game, `sgf_core::parse`), so its diagnostics were
/// not what `qipu check` reports. Now they are, on our own collection and
/// on the corpus's large ones.
#[tokio::test]
async fn a_large_collection_shows_what_qipu_check_reports() {
    let mut src = String::new();
    let mut n = 0;
    while src.len() < 2 << 20 {
        src.push_str(&game(100, n));
        if n % 7 == 3 {
            // Problems of several kinds: B and W in one node, a point off
            // the board, a game-info property twice.
            src.push_str("(;GM[1]FF[4]SZ[19]PB[x]PB[y];B[aa]W[bb];B[zz])\n");
        }
        n += 1;
    }
    let mut files: Vec<(String, Vec<u8>)> = vec![("own.sgf".into(), src.into_bytes())];
    if let Some(real) = corpus::corpus_path("real")
        && let Ok(rd) = std::fs::read_dir(&real)
    {
        let mut big: Vec<PathBuf> = rd
            .flatten()
            .flat_map(|e| match std::fs::read_dir(e.path()) {
                Ok(sub) => sub.flatten().map(|x| x.path()).collect::<Vec<_>>(),
                Err(_) => vec![e.path()],
            })
            .filter(|p| {
                p.extension().is_some_and(|x| x == "sgf")
                    && std::fs::metadata(p).is_ok_and(|m| (1 << 20..32 << 20).contains(&m.len()))
            })
            .collect();
        big.sort();
        for p in big.into_iter().take(3) {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            files.push((name, std::fs::read(&p).unwrap()));
        }
    }
    for (name, bytes) in &files {
        let (_dir, app) = served("as-check", &[(name, bytes)]);
        let st = open(&app, name).await;
        let want = as_check_reports(bytes, name);
        assert!(!want.is_empty(), "{name}");
        assert_eq!(st["diagnostics"].as_array().unwrap(), &want, "{name}");
    }
}

/// Review: the game list's search lower-cased while the database folds
/// width and compatibility forms too; now both fold the same way. Issue
/// 28: it searches the comments only (a player's name is the filter's),
/// and says at which node each game's comment holds the text.
#[tokio::test]
async fn the_game_search_folds_as_the_database_does() {
    let src = "(;GM[1]PB[Lee Sedol]C[first];B[aa];W[bb]C[Lee's move])(;GM[1]PB[Gu Li]C[ＡＢＣ])";
    let (_dir, app) = served("fold", &[("two.sgf", src.as_bytes())]);
    let st = open(&app, "two.sgf").await;
    let s = st["session"].clone();
    for (q, want, nodes) in [
        ("ＬＥＥ", json!([0]), json!([2])),
        ("lee", json!([0]), json!([2])),
        ("abc", json!([1]), json!([0])),
        ("sedol", json!([]), json!([])),
        ("gu li", json!([]), json!([])),
    ] {
        let r = post(&app, "/api/games/search", json!({"session": s, "q": q})).await;
        assert_eq!(r["matches"], want, "{q}: {r}");
        assert_eq!(r["nodes"], nodes, "{q}: {r}");
    }
    // Opening a hit: the game at the node found.
    let r = post(
        &app,
        "/api/nav",
        json!({"session": s, "action": "game", "game": 0, "node": 2}),
    )
    .await;
    assert_eq!(r["node"]["number"], 2, "{r}");
    assert_eq!(r["node"]["comment"], "Lee's move", "{r}");
}
