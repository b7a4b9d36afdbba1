//! The viewer's database endpoints in process (`/api/db/*`, module `db`).

use std::path::PathBuf;

use serde_json::{Value, json};

mod support;
use support::{TOKEN, call, call_as, serve, serve_with, tmp};

/// The database's fixtures in `games/` of a new folder, indexed in
/// `games.qdb` beside it.
fn games(tag: &str) -> (PathBuf, PathBuf) {
    let d = tmp(&format!("db-{tag}"));
    std::fs::create_dir_all(d.join("games")).unwrap();
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/db");
    for f in ["variations.sgf", "dup-a.sgf", "dup-b.sgf"] {
        std::fs::copy(fixtures.join(f), d.join("games").join(f)).unwrap();
    }
    let db = d.join("games.qdb");
    let mut database = sgf_db::Database::open(&db).unwrap();
    database
        .index(&[d.join("games")], &sgf_db::NoProgress)
        .unwrap();
    (d, db)
}

#[tokio::test]
async fn without_a_database_search_says_how_to_get_one() {
    let (d, _) = games("none");
    let app = serve(&d.join("games/dup-a.sgf"));
    let (s, info) = call(&app, "GET", "/api/db/info", None).await;
    assert_eq!((s, info["database"].clone()), (200, Value::Null));
    let (_, st) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    let (s, e) = call(
        &app,
        "POST",
        "/api/db/search",
        Some(json!({"session": st["session"]})),
    )
    .await;
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().contains("--db"));
    let (s, js) = call_as(&app, "GET", &format!("/search.js?t={TOKEN}"), None, None).await;
    assert_eq!(s, 200);
    // The panel is a module the page's entry imports.
    assert!(js.starts_with("// @ts-check") && js.contains("export function setup"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[tokio::test]
async fn search_the_position_shown_and_open_a_hit() {
    let (d, db) = games("search");
    let app = serve_with(&d.join("games/dup-a.sgf"), |o| o.db = Some(db));
    let (_, info) = call(&app, "GET", "/api/db/info", None).await;
    assert_eq!(info["games"], 7);
    let (_, st) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    let session = st["session"].clone();
    let (_, st) = call(
        &app,
        "POST",
        "/api/nav",
        Some(json!({"session": session, "action": "move", "move": 30})),
    )
    .await;
    assert_eq!(st["node"]["move_number"], 30);
    let (s, r) = call(
        &app,
        "POST",
        "/api/db/search",
        Some(json!({"session": session})),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["total"], 2);
    assert_eq!(r["continuations"][0]["count"], 2);
    // A region: the bottom-left 3×3 corner, anywhere and both colours.
    let (_, r2) = call(
        &app,
        "POST",
        "/api/db/search",
        Some(json!({"session": session, "region": [0, 6, 2, 8], "anywhere": true, "swap_colors": true})),
    )
    .await;
    assert!(r2["total"].as_u64().unwrap() >= 2, "{r2}");
    assert_eq!(r2["pattern_origin"], json!([0, 6]));
    // The second hit (the mirrored game) opens at its node 30.
    let hit = &r["hits"][1];
    let (s, opened) = call(
        &app,
        "POST",
        "/api/db/open",
        Some(json!({"id": hit["id"], "node": hit["node"]})),
    )
    .await;
    assert_eq!(s, 200, "{opened}");
    assert_eq!(opened["node"]["number"], 30);
    assert_ne!(opened["session"], session);
    let (s, _) = call(
        &app,
        "POST",
        "/api/db/open",
        Some(json!({"id": 9999, "node": 0})),
    )
    .await;
    assert_eq!(s, 400);
    std::fs::remove_dir_all(&d).unwrap();
}
