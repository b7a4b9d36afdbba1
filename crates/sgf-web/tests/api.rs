//! The viewer's API in process: the guard (token, host, origin), paths kept
//! under the served directory, and an edit saved losslessly.

use std::path::PathBuf;

use serde_json::{Value, json};
use sgf_web::{request, router};
use tower::ServiceExt;

mod support;
use support::{TOKEN, call_as as call, send, serve, tmp};

fn served_dir(tag: &str) -> PathBuf {
    let d = tmp(tag);
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("a.sgf"), "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[cc])\n").unwrap();
    std::fs::write(d.join("sub/b.sgf"), "(;GM[1]SZ[9];B[gg])").unwrap();
    std::fs::write(d.join("notes.txt"), "not a record").unwrap();
    d
}

#[tokio::test]
async fn the_guard_wants_the_token_and_a_loopback_host() {
    let dir = served_dir("guard");
    let app = serve(&dir);
    assert_eq!(call(&app, "GET", "/", None, None).await.0, 403);
    assert_eq!(call(&app, "GET", "/", Some("nope"), None).await.0, 403);
    let (s, html) = call(&app, "GET", &format!("/?t={TOKEN}"), None, None).await;
    assert_eq!(s, 200);
    assert!(html.contains(TOKEN) && html.contains("<canvas id=\"tree\""));
    assert_eq!(
        call(&app, "GET", "/api/files", Some(TOKEN), None).await.0,
        200
    );
    // A foreign Host (DNS rebinding) is refused even with the token.
    let mut req = request("GET", "/api/files", 0, Some(TOKEN), None);
    req.headers_mut()
        .insert("host", "evil.example:0".parse().unwrap());
    assert_eq!(send(&app, req).await.0, 403);
    // So is a foreign Origin on a request.
    let mut req = request("POST", "/api/start", 0, Some(TOKEN), Some(json!({})));
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    assert_eq!(send(&app, req).await.0, 403);
}

#[tokio::test]
async fn only_records_under_the_directory() {
    let dir = served_dir("paths");
    let app = serve(&dir);
    let (_, files) = call(&app, "GET", "/api/files", Some(TOKEN), None).await;
    let v: Value = serde_json::from_str(&files).unwrap();
    assert_eq!(v["files"], json!(["a.sgf", "sub/b.sgf"]));
    for bad in ["../a.sgf", "/etc/passwd", "sub/../../x.sgf", "notes.txt"] {
        let (s, body) = call(
            &app,
            "POST",
            "/api/open",
            Some(TOKEN),
            Some(json!({"path": bad})),
        )
        .await;
        assert_eq!(s, 400, "{bad}: {body}");
    }
    let (s, _) = call(
        &app,
        "POST",
        "/api/open",
        Some(TOKEN),
        Some(json!({"path": "sub/b.sgf"})),
    )
    .await;
    assert_eq!(s, 200);
    // "Save as" outside the directory is refused.
    let (_, st) = call(
        &app,
        "POST",
        "/api/open",
        Some(TOKEN),
        Some(json!({"path": "a.sgf"})),
    )
    .await;
    let session = serde_json::from_str::<Value>(&st).unwrap()["session"].clone();
    let (s, _) = call(
        &app,
        "POST",
        "/api/save",
        Some(TOKEN),
        Some(json!({"session": session, "mode": "canonical", "path": "../escape.sgf"})),
    )
    .await;
    assert_eq!(s, 400);
    assert!(!dir.parent().unwrap().join("escape.sgf").exists());
}

#[tokio::test]
async fn edit_and_save_change_only_what_was_edited() {
    let dir = served_dir("save");
    let app = serve(&dir.join("a.sgf"));
    let (_, st) = call(&app, "POST", "/api/start", Some(TOKEN), Some(json!({}))).await;
    let st: Value = serde_json::from_str(&st).unwrap();
    let s = st["session"].clone();
    assert_eq!(st["games"], 1);
    assert!(st["board"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(st["tree"]["nodes"].as_array().unwrap().len(), 3);
    call(
        &app,
        "POST",
        "/api/nav",
        Some(TOKEN),
        Some(json!({"session": s, "action": "next"})),
    )
    .await;
    let (_, st) = call(
        &app,
        "POST",
        "/api/edit",
        Some(TOKEN),
        Some(json!({"session": s, "op": "comment", "text": "Good move. 好棋。"})),
    )
    .await;
    let st: Value = serde_json::from_str(&st).unwrap();
    assert_eq!(st["node"]["comment"], "Good move. 好棋。");
    assert_eq!(st["dirty"], true);
    let (code, body) = call(
        &app,
        "POST",
        "/api/save",
        Some(TOKEN),
        Some(json!({"session": s, "mode": "lossless"})),
    )
    .await;
    assert_eq!(code, 200, "{body}");
    // The file had no CA and only ASCII: new Chinese text makes it UTF-8, said with CA.
    assert_eq!(
        std::fs::read_to_string(dir.join("a.sgf")).unwrap(),
        "(;GM[1]FF[4]SZ[9]CA[UTF-8]\n;B[ee]C[Good move. 好棋。]\n;W[cc])\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("a.sgf.bak")).unwrap(),
        "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[cc])\n"
    );
    // Playing on an existing stone goes to its move; on an empty point it adds a variation.
    let (_, st) = call(
        &app,
        "POST",
        "/api/edit",
        Some(TOKEN),
        Some(json!({"session": s, "op": "play", "point": "ee"})),
    )
    .await;
    assert_eq!(
        serde_json::from_str::<Value>(&st).unwrap()["node"]["number"],
        1
    );
    let (_, st) = call(
        &app,
        "POST",
        "/api/edit",
        Some(TOKEN),
        Some(json!({"session": s, "op": "play", "point": "gc"})),
    )
    .await;
    let st: Value = serde_json::from_str(&st).unwrap();
    assert_eq!(st["node"]["color"], "W");
    assert_eq!(st["node"]["variations"], 2);
    let (_, st) = call(
        &app,
        "POST",
        "/api/edit",
        Some(TOKEN),
        Some(json!({"session": s, "op": "undo"})),
    )
    .await;
    assert_eq!(
        serde_json::from_str::<Value>(&st).unwrap()["tree"]["nodes"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Export.
    let res = router(app.clone())
        .oneshot(request(
            "GET",
            &format!("/api/export?session={s}&format=png&size=200"),
            0,
            Some(TOKEN),
            None,
        ))
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "image/png");
    // JPEG (with a quality) and BMP, as MultiGo saves boards.
    for (format, mime, magic) in [
        ("jpg&quality=80", "image/jpeg", &b"\xff\xd8\xff"[..]),
        ("bmp", "image/bmp", b"BM"),
    ] {
        let res = router(app.clone())
            .oneshot(request(
                "GET",
                &format!("/api/export?session={s}&format={format}&size=200"),
                0,
                Some(TOKEN),
                None,
            ))
            .await
            .unwrap();
        assert_eq!(res.headers()["content-type"], mime);
        let body = axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap();
        assert!(body.starts_with(magic), "{format}");
    }
    // "Save as" over the file itself: asked first, then the canonical
    // form, the replaced file kept.
    let lossless = std::fs::read(dir.join("a.sgf")).unwrap();
    let (code, body) = call(
        &app,
        "POST",
        "/api/save",
        Some(TOKEN),
        Some(json!({"session": s, "mode": "canonical", "path": "a.sgf"})),
    )
    .await;
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("\"error_kind\":\"exists\""), "{body}");
    assert_eq!(std::fs::read(dir.join("a.sgf")).unwrap(), lossless);
    let (code, body) = call(
        &app,
        "POST",
        "/api/save",
        Some(TOKEN),
        Some(json!({"session": s, "mode": "canonical", "path": "a.sgf", "replace": true})),
    )
    .await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["backup"],
        "a.sgf.bak"
    );
    assert_eq!(std::fs::read(dir.join("a.sgf.bak")).unwrap(), lossless);
    let canonical = std::fs::read_to_string(dir.join("a.sgf")).unwrap();
    assert!(canonical.contains("CA[UTF-8]") && canonical.contains("C[Good move. 好棋。]"));
}

/// The tree is packed as Sabaki packs it: short variations at different
/// moves share a row; one that would overlap takes the next.
#[tokio::test]
async fn short_variations_at_different_moves_share_a_tree_row() {
    let dir = served_dir("tree");
    std::fs::write(
        dir.join("tree.sgf"),
        "(;GM[1]SZ[9];B[aa];W[ba](;B[ca];W[da];B[ea];W[fa];B[ga];W[ha](;B[ia];W[ab];B[bb])(;B[ib];W[ac]))(;B[cb];W[db];B[eb])(;B[cc];W[dc]))",
    )
    .unwrap();
    let app = serve(&dir.join("tree.sgf"));
    let (_, st) = call(&app, "POST", "/api/start", Some(TOKEN), Some(json!({}))).await;
    let st: Value = serde_json::from_str(&st).unwrap();
    let mut nodes = st["tree"]["nodes"].as_array().unwrap().clone();
    nodes.sort_by_key(|n| n[5].as_u64());
    // [column, row] of each node, in file order.
    let at: Vec<(u64, u64)> = nodes
        .iter()
        .map(|n| (n[0].as_u64().unwrap(), n[1].as_u64().unwrap()))
        .collect();
    // The main line: root and eleven moves in row 0.
    assert!(
        at[..12]
            .iter()
            .enumerate()
            .all(|(i, &(c, r))| c == i as u64 && r == 0)
    );
    // B[ib] (column 9) and B[cb] (column 3) share row 1; B[cc] overlaps B[cb]'s line.
    assert_eq!(at[12], (9, 1));
    assert_eq!(at[14], (3, 1));
    assert_eq!(at[17], (3, 2));
    assert_eq!(at.iter().map(|a| a.1).max(), Some(2));
}
