//! Issue 40: the viewer never shows a file it could not read as a game
//! record as if it were one. Opening such a file (random bytes, a text
//! file named `.sgf`, an archive or an image by another name, an empty
//! file) answers the library's judgement (`sgf_formats::judge`): 400,
//! `error_kind` `not_record`, the judgement's code as `not_record`, its
//! sentence as `error`, and the file as `path`; no record is made, so
//! nothing can be saved over it. `qipu view DIR` opens the folder's first
//! file that is a record.

use std::path::Path;

use serde_json::{Value, json};
use sgf_web::local::Local;

mod support;
use support::{call, post, post_bytes, serve, tmp};

#[path = "../../../testsupport/archives.rs"]
mod archives;

const GAME: &[u8] = b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White];B[ee];W[cc])\n";

#[path = "../../../testsupport/hostile.rs"]
mod hostile;

/// `n` bytes from a fixed generator: what a damaged download or a file of
/// another kind looks like to the reader.
fn noise(n: usize) -> Vec<u8> {
    hostile::noise(n, 7)
}

/// A text file without a game tree, as `/etc/services` is (12 KB).
fn services() -> Vec<u8> {
    let mut t = String::from("# Network services, Internet style\n#\n");
    for i in 0..400 {
        t.push_str(&format!("service{i}\t\t{}/tcp\t\t\t# port {i}\n", 1000 + i));
    }
    t.into_bytes()
}

/// The refusal of opening `path` of the served folder.
async fn refused(app: &support::App, path: &str) -> Value {
    let (code, v) = call(app, "POST", "/api/open", Some(json!({ "path": path }))).await;
    assert_eq!(code, 400, "{path}: {v}");
    assert_eq!(v["error_kind"], "not_record", "{path}: {v}");
    assert_eq!(v["path"], path, "{v}");
    assert!(v.get("session").is_none(), "{v}");
    v
}

/// What is in folder `d`, each file with its bytes.
fn contents(d: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn a_file_that_is_not_a_record_is_refused_with_the_judgement() {
    let d = tmp("notrec-open");
    std::fs::write(d.join("random.sgf"), noise(200_000)).unwrap();
    std::fs::write(d.join("services.sgf"), services()).unwrap();
    std::fs::write(d.join("empty.sgf"), b"").unwrap();
    std::fs::write(
        d.join("zipped.sgf"),
        archives::zip_of(&[("a.sgf", GAME), ("b.sgf", GAME)]),
    )
    .unwrap();
    std::fs::write(d.join("picture.sgf"), b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR").unwrap();
    std::fs::write(d.join("game.sgf"), GAME).unwrap();
    let before = contents(&d);
    let app = serve(&d);
    for (path, code, sentence) in [
        (
            "services.sgf",
            "no-game-tree",
            "services.sgf is not a game record: it holds no SGF game tree [S002]",
        ),
        (
            "empty.sgf",
            "empty",
            "empty.sgf is not a game record: it is empty",
        ),
        (
            "zipped.sgf",
            "archive",
            "zipped.sgf is not a game record: it is a zip archive",
        ),
        (
            "picture.sgf",
            "binary",
            "picture.sgf is not a game record: it is a PNG image",
        ),
    ] {
        let v = refused(&app, path).await;
        assert_eq!(v["not_record"], code, "{v}");
        assert_eq!(v["error"], sentence, "{v}");
    }
    let v = refused(&app, "random.sgf").await;
    assert_eq!(v["not_record"], "not-text", "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("random.sgf is not a game record: it is not text in any charset ("),
        "{v}"
    );
    // The record beside them opens, and the list holds every file.
    let st = post(&app, "/api/open", json!({"path": "game.sgf"})).await;
    assert_eq!(st["name"], "game.sgf");
    assert_eq!(st["files"].as_array().unwrap().len(), 6, "{}", st["files"]);
    // A file dropped on the page is judged alike (it has no path).
    let (code, v) = post_bytes(&app, "/api/upload?name=notes.sgf", services()).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        (v["error_kind"].as_str(), v["not_record"].as_str()),
        (Some("not_record"), Some("no-game-tree"))
    );
    assert!(v.get("path").is_none(), "{v}");
    // Nothing was written beside them.
    assert_eq!(contents(&d), before);
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn a_record_of_an_archive_that_is_not_one_is_refused_alike() {
    let d = tmp("notrec-member");
    std::fs::write(
        d.join("games.zip"),
        archives::zip_of(&[("a.sgf", GAME), ("notes.sgf", &services())]),
    )
    .unwrap();
    let app = serve(&d);
    let v = refused(&app, "games.zip!notes.sgf").await;
    assert_eq!(v["not_record"], "no-game-tree", "{v}");
    assert_eq!(
        v["error"],
        "notes.sgf is not a game record: it holds no SGF game tree [S002]"
    );
    let st = post(&app, "/api/open", json!({"path": "games.zip!a.sgf"})).await;
    assert_eq!(st["name"], "a.sgf");
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn a_folder_opens_its_first_record_and_a_file_that_is_none_says_so() {
    // `qipu view DIR`: the first files are random bytes and text.
    let d = tmp("notrec-start");
    std::fs::write(d.join("a-random.sgf"), noise(200_000)).unwrap();
    std::fs::write(d.join("b-services.sgf"), services()).unwrap();
    std::fs::write(d.join("c-game.sgf"), GAME).unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["name"], "c-game.sgf");
    assert_eq!(st["path"], "c-game.sgf");
    assert_eq!(
        st["files"],
        json!(["a-random.sgf", "b-services.sgf", "c-game.sgf"])
    );
    // Only files that are no record: none opens, the first says why, and
    // the list is there to choose from.
    std::fs::remove_file(d.join("c-game.sgf")).unwrap();
    let (code, v) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        (v["error_kind"].as_str(), v["not_record"].as_str()),
        (Some("not_record"), Some("not-text"))
    );
    assert_eq!(v["path"], "a-random.sgf");
    let (_, files) = call(&app, "GET", "/api/files", None).await;
    assert_eq!(files["files"], json!(["a-random.sgf", "b-services.sgf"]));
    let _ = std::fs::remove_dir_all(&d);

    // `qipu view x.sgf` where x.sgf is text: the same refusal.
    let d = tmp("notrec-start-file");
    std::fs::write(d.join("x.sgf"), services()).unwrap();
    let app = serve(&d.join("x.sgf"));
    let (code, v) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(v["not_record"], "no-game-tree", "{v}");
    assert_eq!(v["path"], "x.sgf", "{v}");
    assert_eq!(std::fs::read(d.join("x.sgf")).unwrap(), services());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_static_viewer_refuses_such_a_file_as_the_server_does() {
    let mut l = Local::new();
    let r = l.request("/api/upload?name=noise.sgf", &noise(4096));
    assert_eq!(r.status, 400);
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["error_kind"], "not_record", "{v}");
    assert_eq!(v["not_record"], "not-text", "{v}");
    assert_eq!(l.open_count(), 0);
    let r = l.request("/api/upload?name=g.sgf", GAME);
    assert_eq!(r.status, 200);
    assert_eq!(l.open_count(), 1);
}
