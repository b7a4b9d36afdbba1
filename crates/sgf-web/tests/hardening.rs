//! The viewer against a hostile folder and a careless user: symlink loops
//! and links out of the served directory, files changed behind its back,
//! read-only files, and slow requests that must not block the others.
#![cfg(unix)]

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use sgf_web::{ViewOptions, app, body_text, request, router};
use tower::ServiceExt;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-web-hard-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn serve(path: &Path) -> Arc<sgf_web::App> {
    app(&ViewOptions {
        path: Some(path.to_path_buf()),
        port: 0,
        db: None,
        token: Some(TOKEN.into()),
    })
    .unwrap()
}

async fn call(
    app: &Arc<sgf_web::App>,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let res = router(app.clone())
        .oneshot(request(method, uri, 0, Some(TOKEN), body))
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = body_text(res).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn open(app: &Arc<sgf_web::App>, rel: &str) -> u64 {
    let (s, v) = call(app, "POST", "/api/open", Some(json!({ "path": rel }))).await;
    assert_eq!(s, 200, "{v}");
    v["session"].as_u64().unwrap()
}

async fn comment(app: &Arc<sgf_web::App>, session: u64, text: &str) {
    let (s, v) = call(
        app,
        "POST",
        "/api/edit",
        Some(json!({"session": session, "op": "comment", "text": text})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(v.get("message").is_none(), "{v}");
}

async fn save(app: &Arc<sgf_web::App>, session: u64, force: bool) -> (u16, Value) {
    call(
        app,
        "POST",
        "/api/save",
        Some(json!({"session": session, "mode": "lossless", "force": force})),
    )
    .await
}

#[tokio::test]
async fn a_directory_of_link_loops_answers() {
    let d = tmp("loops");
    symlink(".", d.join("l1")).unwrap();
    symlink(".", d.join("l2")).unwrap();
    let app = serve(&d);
    // No record: the example opens, and the list is empty.
    let (s, v) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["files"], json!([]));
    let (s, v) = call(&app, "GET", "/api/files", None).await;
    assert_eq!((s, &v["files"]), (200, &json!([])));
}

#[tokio::test]
async fn only_files_that_open_are_listed() {
    let d = tmp("list");
    let outside = tmp("list-outside");
    std::fs::write(outside.join("secret.sgf"), "(;C[secret])").unwrap();
    std::fs::write(d.join("own.sgf"), "(;SZ[9];B[ee])").unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/inner.sgf"), "(;SZ[9];B[cc])").unwrap();
    symlink(outside.join("secret.sgf"), d.join("link-out.sgf")).unwrap();
    symlink(&outside, d.join("dir-out")).unwrap();
    symlink("sub/inner.sgf", d.join("link-in.sgf")).unwrap();
    let app = serve(&d);
    let (_, v) = call(&app, "GET", "/api/files", None).await;
    let files: Vec<String> = serde_json::from_value(v["files"].clone()).unwrap();
    assert_eq!(files, vec!["link-in.sgf", "own.sgf"]);
    for f in &files {
        open(&app, f).await;
    }
    // What is not listed does not open either.
    let (s, _) = call(
        &app,
        "POST",
        "/api/open",
        Some(json!({"path": "link-out.sgf"})),
    )
    .await;
    assert_eq!(s, 400);
}

#[tokio::test]
async fn save_never_writes_through_links() {
    let d = tmp("links");
    let outside = tmp("links-outside");
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::write(d.join("x.sgf"), "(;SZ[9];B[ee])").unwrap();
    for name in ["x.sgf.bak", "x.sgf.qipu-tmp", "x.sgf.orig"] {
        symlink(&victim, d.join(name)).unwrap();
    }
    let app = serve(&d);
    let id = open(&app, "x.sgf").await;
    comment(&app, id, "edited").await;
    let (s, v) = save(&app, id, false).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(d.join("x.sgf")).unwrap();
    assert!(meta.file_type().is_file());
    assert!(
        std::fs::read_to_string(d.join("x.sgf"))
            .unwrap()
            .contains("C[edited]")
    );
    // The .bak link was replaced by a real backup; the .orig link left alone.
    assert!(
        std::fs::symlink_metadata(d.join("x.sgf.bak"))
            .unwrap()
            .file_type()
            .is_file()
    );
    assert!(
        std::fs::symlink_metadata(d.join("x.sgf.orig"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[tokio::test]
async fn a_file_changed_on_disk_is_not_overwritten_silently() {
    let d = tmp("changed");
    std::fs::write(d.join("g.sgf"), "(;SZ[9];B[ee])").unwrap();
    let app = serve(&d);
    let id = open(&app, "g.sgf").await;
    comment(&app, id, "mine").await;
    std::fs::write(d.join("g.sgf"), "(;SZ[9];B[ee];W[cc]C[theirs])").unwrap();
    let (s, v) = save(&app, id, false).await;
    assert_eq!(s, 400);
    assert_eq!(v["error_kind"], "changed_on_disk", "{v}");
    assert!(
        std::fs::read_to_string(d.join("g.sgf"))
            .unwrap()
            .contains("theirs")
    );
    // The user chose to overwrite: their version is kept as .bak.
    let (s, v) = save(&app, id, true).await;
    assert_eq!(s, 200, "{v}");
    assert!(
        std::fs::read_to_string(d.join("g.sgf"))
            .unwrap()
            .contains("C[mine]")
    );
    assert!(
        std::fs::read_to_string(d.join("g.sgf.bak"))
            .unwrap()
            .contains("theirs")
    );
    // After our own save the file is ours again: a second save just works.
    comment(&app, id, "again").await;
    assert_eq!(save(&app, id, false).await.0, 200);
}

#[tokio::test]
async fn the_original_is_kept_once_and_backups_are_whole() {
    let d = tmp("orig");
    let original = "(;SZ[9];B[ee])";
    std::fs::write(d.join("g.sgf"), original).unwrap();
    let app = serve(&d);
    let id = open(&app, "g.sgf").await;
    comment(&app, id, "first").await;
    let (_, v) = save(&app, id, false).await;
    assert_eq!(v["original"], "g.sgf.orig");
    let first = std::fs::read_to_string(d.join("g.sgf")).unwrap();
    comment(&app, id, "second").await;
    let (_, v) = save(&app, id, false).await;
    assert!(v["original"].is_null(), "{v}");
    assert_eq!(
        std::fs::read_to_string(d.join("g.sgf.orig")).unwrap(),
        original
    );
    assert_eq!(std::fs::read_to_string(d.join("g.sgf.bak")).unwrap(), first);
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("qipu-tmp")), "{names:?}");
}

#[tokio::test]
async fn a_read_only_file_is_refused_and_keeps_its_mode() {
    let d = tmp("ro");
    let f = d.join("g.sgf");
    std::fs::write(&f, "(;SZ[9];B[ee])").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).unwrap();
    let app = serve(&d);
    let id = open(&app, "g.sgf").await;
    comment(&app, id, "x").await;
    let (s, v) = save(&app, id, false).await;
    assert_eq!(
        (s, v["error_kind"].as_str()),
        (400, Some("read_only")),
        "{v}"
    );
    let meta = std::fs::metadata(&f).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o444);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "(;SZ[9];B[ee])");
    // A writable file keeps its own mode through a save.
    let g = d.join("h.sgf");
    std::fs::write(&g, "(;SZ[9];B[ee])").unwrap();
    std::fs::set_permissions(&g, std::fs::Permissions::from_mode(0o600)).unwrap();
    let id = open(&app, "h.sgf").await;
    comment(&app, id, "x").await;
    assert_eq!(save(&app, id, false).await.0, 200);
    assert_eq!(
        std::fs::metadata(&g).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

/// A large PNG export and a move on another record run side by side: the
/// move is answered while the picture is still being drawn.
#[tokio::test]
async fn a_slow_export_does_not_block_navigation() {
    let d = tmp("slow");
    std::fs::write(d.join("a.sgf"), "(;SZ[19];B[pd];W[dd];B[pp];W[dp])").unwrap();
    std::fs::write(d.join("b.sgf"), "(;SZ[19];B[qd];W[dc])").unwrap();
    let app = serve(&d);
    let a = open(&app, "a.sgf").await;
    let b = open(&app, "b.sgf").await;
    let order = AtomicUsize::new(0);
    let export = async {
        let (s, _) = call(
            &app,
            "GET",
            &format!("/api/export?session={a}&format=png&size=4096"),
            None,
        )
        .await;
        assert_eq!(s, 200);
        order.fetch_add(1, Ordering::SeqCst)
    };
    let navigate = async {
        // Let the export start first.
        tokio::task::yield_now().await;
        let mut done = 0;
        for _ in 0..5 {
            let (s, _) = call(
                &app,
                "POST",
                "/api/nav",
                Some(json!({"session": b, "action": "next"})),
            )
            .await;
            assert_eq!(s, 200);
            done += 1;
        }
        assert_eq!(done, 5);
        order.fetch_add(1, Ordering::SeqCst)
    };
    let (e, n) = tokio::join!(export, navigate);
    assert!(n < e, "navigation waited for the export");
}
