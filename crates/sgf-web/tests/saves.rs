//! Issue 40: a save never destroys a file. Save writes the lossless form
//! (only what was edited changed: text outside the game trees stays),
//! keeps what it replaces as `X.bak` and the file as first read as
//! `X.orig` (written once: after any number of saves, and after the
//! record was put aside to free memory and read back, it is the original
//! bytes, never a re-serialisation), and never writes over a file that
//! is not a game record.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

mod support;
use support::{App, brief, call, post, serve, serve_with, session, tmp};

/// A record with text before and after its game tree, CRLF line ends and
/// spaces the canonical form would not keep.
const NOTED: &[u8] =
    b"Game notes: first round\r\n(;GM[1]FF[4]SZ[9]PB[Black]PW[White]  ;B[ee]\r\n;W[cc])\r\ntrailing words\r\n";

/// Plays `point` at the end of the line of record `id`.
async fn play(app: &App, id: u64, point: &str) {
    post(app, "/api/nav", json!({"session": id, "action": "last"})).await;
    let st = post(
        app,
        "/api/edit",
        json!({"session": id, "op": "play", "point": point}),
    )
    .await;
    assert_eq!(st["dirty"], true, "{}", brief(&st));
}

/// Saves record `id` back to its file (the answer must be a success).
async fn save(app: &App, id: u64) -> Value {
    post(app, "/api/save", json!({"session": id, "mode": "lossless"})).await
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn text(p: &Path) -> String {
    String::from_utf8_lossy(&read(p)).into_owned()
}

#[tokio::test]
async fn the_original_and_the_text_outside_the_trees_survive_every_save() {
    let d = tmp("saves-orig");
    let x = d.join("x.sgf");
    std::fs::write(&x, NOTED).unwrap();
    // UTF-16 (with a byte-order mark): read transcoded, written back so.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "(;GM[1]FF[4]SZ[9]PB[黑]PW[白];B[ee])"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let w = d.join("wide.sgf");
    std::fs::write(&w, &utf16).unwrap();
    let app = serve(&d);

    let id = session(&post(&app, "/api/open", json!({"path": "x.sgf"})).await);
    play(&app, id, "gg").await;
    let first = save(&app, id).await;
    assert_eq!(first["original"], "x.sgf.orig", "{first}");
    assert_eq!(first["backup"], "x.sgf.bak", "{first}");
    assert_eq!(read(&d.join("x.sgf.orig")), NOTED);
    assert_eq!(read(&d.join("x.sgf.bak")), NOTED);
    let once = read(&x);
    let saved = text(&x);
    assert!(saved.contains("B[gg]"), "{saved}");
    // The lossless form: the text outside the tree and the file's own
    // spacing and line ends are kept.
    assert!(
        saved.starts_with("Game notes: first round\r\n(;GM[1]FF[4]SZ[9]PB[Black]PW[White]  ;B[ee]"),
        "{saved}"
    );
    assert!(saved.ends_with(")\r\ntrailing words\r\n"), "{saved}");
    play(&app, id, "cg").await;
    let second = save(&app, id).await;
    // The original is written once: it stays the file as first read; the
    // backup is what this save replaced.
    assert_eq!(second["original"], Value::Null, "{second}");
    assert_eq!(read(&d.join("x.sgf.orig")), NOTED);
    assert_eq!(read(&d.join("x.sgf.bak")), once);
    assert!(text(&x).contains("W[cg]"));

    let id = session(&post(&app, "/api/open", json!({"path": "wide.sgf"})).await);
    play(&app, id, "cc").await;
    save(&app, id).await;
    play(&app, id, "gg").await;
    save(&app, id).await;
    assert_eq!(read(&d.join("wide.sgf.orig")), utf16);
    let now = read(&w);
    assert_eq!(&now[..2], &[0xFF, 0xFE], "still UTF-16");
    let again = String::from_utf16_lossy(
        &now[2..]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect::<Vec<u16>>(),
    );
    assert!(
        again.contains("W[cc]") && again.contains("B[gg]"),
        "{again}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn a_record_put_aside_and_read_back_keeps_its_original_bytes() {
    let d = tmp("saves-parked");
    let x = d.join("x.sgf");
    std::fs::write(&x, NOTED).unwrap();
    std::fs::write(d.join("other.sgf"), "(;GM[1]SZ[9])").unwrap();
    // Every record not in use is put aside at once.
    let app = serve_with(&d, |o| o.idle_timeout = Some(Duration::ZERO));
    let id = session(&post(&app, "/api/open", json!({"path": "x.sgf"})).await);
    play(&app, id, "gg").await;
    // Opening another puts this one aside, its work in the recovery folder.
    post(&app, "/api/open", json!({"path": "other.sgf"})).await;
    let (_, m) = call(&app, "GET", "/api/memory", None).await;
    assert_eq!(m["parked_unsaved"], 1, "{m}");
    // Read back by the save: the file as first read is `.orig`, not the
    // lossless form the work was kept in.
    let first = save(&app, id).await;
    assert_eq!(first["original"], "x.sgf.orig", "{first}");
    assert_eq!(read(&d.join("x.sgf.orig")), NOTED);
    let once = read(&x);
    assert!(text(&x).contains("B[gg]"));
    // Again: edited, put aside, read back, saved.
    play(&app, id, "cg").await;
    post(&app, "/api/open", json!({"path": "other.sgf"})).await;
    let (_, m) = call(&app, "GET", "/api/memory", None).await;
    assert_eq!(m["parked_unsaved"], 1, "{m}");
    save(&app, id).await;
    assert_eq!(read(&d.join("x.sgf.orig")), NOTED);
    assert_eq!(read(&d.join("x.sgf.bak")), once);
    let saved = text(&x);
    assert!(
        saved.contains("B[gg]") && saved.contains("W[cg]"),
        "{saved}"
    );
    assert!(saved.starts_with("Game notes: first round\r\n"), "{saved}");

    // Put aside before its first save while another program changed the
    // file: the bytes first read are kept aside, and are its `.orig`.
    let y = d.join("y.sgf");
    std::fs::write(&y, NOTED).unwrap();
    let id = session(&post(&app, "/api/open", json!({"path": "y.sgf"})).await);
    play(&app, id, "gg").await;
    std::fs::write(&y, b"(;GM[1]SZ[9];B[aa])").unwrap();
    post(&app, "/api/open", json!({"path": "other.sgf"})).await;
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "lossless", "force": true})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(read(&d.join("y.sgf.orig")), NOTED);
    assert_eq!(read(&d.join("y.sgf.bak")), b"(;GM[1]SZ[9];B[aa])");
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn a_save_never_writes_over_a_file_that_is_not_a_record() {
    let d = tmp("saves-refused");
    let x = d.join("x.sgf");
    std::fs::write(&x, NOTED).unwrap();
    let app = serve(&d);
    let id = session(&post(&app, "/api/open", json!({"path": "x.sgf"})).await);
    play(&app, id, "gg").await;
    // Another program writes text over the file meanwhile.
    let notes = b"just my notes\nabout nothing in particular\n".repeat(50);
    std::fs::write(&x, &notes).unwrap();
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "lossless"})),
    )
    .await;
    assert_eq!(
        (code, v["error_kind"].as_str()),
        (400, Some("changed_on_disk"))
    );
    // Overwriting it anyway is refused: it is not a record any more.
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "lossless", "force": true})),
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(v["error_kind"], "not_record", "{v}");
    assert_eq!(v["not_record"], "no-game-tree", "{v}");
    assert_eq!(v["path"], "x.sgf", "{v}");
    assert_eq!(
        v["error"],
        "x.sgf is not a game record: it holds no SGF game tree [S002]. Qipu never saves over a file that is not a game record: use \"Save as\""
    );
    // Nothing was written: the file, and nothing beside it.
    assert_eq!(read(&x), notes);
    assert!(!d.join("x.sgf.bak").exists());
    assert!(!d.join("x.sgf.orig").exists());
    // Random bytes likewise.
    let noise: Vec<u8> = (0..50_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&x, &noise).unwrap();
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "lossless", "force": true})),
    )
    .await;
    assert_eq!(
        (code, v["not_record"].as_str()),
        (400, Some("not-text")),
        "{v}"
    );
    assert_eq!(read(&x), noise);
    // The record is still there, unsaved, to save as another file.
    let (_, st) = call(&app, "GET", &format!("/api/state?session={id}"), None).await;
    assert_eq!(st["dirty"], true, "{}", brief(&st));
    // A record another program wrote is overwritten when the user says so.
    std::fs::write(&x, b"(;GM[1]SZ[9];B[aa])").unwrap();
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "lossless", "force": true})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(read(&d.join("x.sgf.bak")), b"(;GM[1]SZ[9];B[aa])");
    assert_eq!(read(&d.join("x.sgf.orig")), NOTED);
    let _ = std::fs::remove_dir_all(&d);
}

/// Save as `path` (`replace`: the user said to replace a file there).
async fn save_as(app: &App, id: u64, path: &str, replace: bool) -> (u16, Value) {
    call(
        app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "canonical", "path": path, "replace": replace})),
    )
    .await
}

#[tokio::test]
async fn save_as_replaces_a_file_only_when_asked_and_only_a_record() {
    let d = tmp("saves-as");
    std::fs::write(d.join("a.sgf"), NOTED).unwrap();
    let b_old = b"(;GM[1]FF[4]SZ[9]PB[Someone]PW[Else];B[aa])".to_vec();
    std::fs::write(d.join("b.sgf"), &b_old).unwrap();
    let notes = b"my notes, not a record\n".repeat(20);
    std::fs::write(d.join("notes.sgf"), &notes).unwrap();
    let app = serve(&d);
    let id = session(&post(&app, "/api/open", json!({"path": "a.sgf"})).await);
    play(&app, id, "gg").await;

    // A new name: written, nothing replaced.
    let (code, v) = save_as(&app, id, "new", false).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        (v["saved"].as_str(), &v["backup"]),
        (Some("new.sgf"), &Value::Null)
    );
    assert!(v.get("original").is_none(), "{v}");
    assert!(text(&d.join("new.sgf")).contains("B[gg]"));
    // An existing one: refused until the request says to replace it (the
    // field left out is no).
    let (code, v) = save_as(&app, id, "b.sgf", false).await;
    assert_eq!(
        (code, v["error_kind"].as_str()),
        (400, Some("exists")),
        "{v}"
    );
    assert_eq!(
        v["error"],
        "b.sgf exists already: replace it, or choose another name"
    );
    assert_eq!(v["path"], "b.sgf", "the page asks about it by name");
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": id, "mode": "canonical", "path": "b"})),
    )
    .await;
    assert_eq!(
        (code, v["error_kind"].as_str()),
        (400, Some("exists")),
        "{v}"
    );
    assert_eq!(read(&d.join("b.sgf")), b_old);
    assert!(!d.join("b.sgf.bak").exists());
    // Replaced when asked: what it held is kept as .bak and .orig.
    let (code, v) = save_as(&app, id, "b.sgf", true).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["backup"], "b.sgf.bak", "{v}");
    assert_eq!(v["original"], "b.sgf.orig", "{v}");
    assert_eq!(read(&d.join("b.sgf.bak")), b_old);
    assert_eq!(read(&d.join("b.sgf.orig")), b_old);
    assert!(text(&d.join("b.sgf")).contains("B[gg]"));
    // The record goes on in b.sgf; its next save keeps b.sgf's .orig.
    let (_, st) = call(&app, "GET", &format!("/api/state?session={id}"), None).await;
    assert_eq!(st["path"], "b.sgf", "{}", brief(&st));
    play(&app, id, "cg").await;
    let v = save(&app, id).await;
    assert_eq!(v["original"], Value::Null, "{v}");
    assert_eq!(read(&d.join("b.sgf.orig")), b_old);
    // A file that is not a record is never replaced, even when asked.
    let (code, v) = save_as(&app, id, "notes.sgf", true).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(v["error_kind"], "not_record", "{v}");
    assert_eq!(v["not_record"], "no-game-tree", "{v}");
    assert_eq!(
        v["error"],
        "notes.sgf is not a game record: it holds no SGF game tree [S002]. Qipu never saves over a file that is not a game record: choose another name"
    );
    assert_eq!(read(&d.join("notes.sgf")), notes);
    assert!(!d.join("notes.sgf.bak").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn save_as_over_the_record_s_own_file_keeps_the_text_outside_its_trees() {
    let d = tmp("saves-as-own");
    // Text before the tree that the canonical form cannot write where it
    // stands (a NUL in the first text would make the file look UTF-16).
    let own = b"scanned note\0page 2\n(;GM[1]FF[4]SZ[9];B[ee])\n".to_vec();
    std::fs::write(d.join("own.sgf"), &own).unwrap();
    std::fs::write(d.join("plain.sgf"), NOTED).unwrap();
    let app = serve(&d);
    let id = session(&post(&app, "/api/open", json!({"path": "own.sgf"})).await);
    play(&app, id, "cc").await;
    let (code, v) = save_as(&app, id, "own.sgf", true).await;
    assert_eq!(code, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("own.sgf holds text outside its game trees"),
        "{v}"
    );
    assert_eq!(read(&d.join("own.sgf")), own);
    // Save keeps it.
    save(&app, id).await;
    let now = read(&d.join("own.sgf"));
    assert!(now.starts_with(b"scanned note\0page 2\n(;"), "{now:?}");
    assert!(String::from_utf8_lossy(&now).contains("W[cc]"));
    // A record whose outside text the canonical form keeps is saved as
    // itself when asked (the file it was is kept as .bak and .orig).
    let id = session(&post(&app, "/api/open", json!({"path": "plain.sgf"})).await);
    play(&app, id, "gg").await;
    let (code, v) = save_as(&app, id, "plain.sgf", true).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(read(&d.join("plain.sgf.orig")), NOTED);
    let now = text(&d.join("plain.sgf"));
    assert!(
        now.contains("Game notes: first round") && now.contains("trailing words"),
        "{now}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
