//! The viewer against a hostile folder and a careless user: symlink loops
//! and links out of the served directory, files changed behind its back,
//! read-only files, and slow requests that must not block the others.
#![cfg(unix)]

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use sgf_web::{ViewOptions, app, request, router};
use tower::ServiceExt;

mod support;
use support::{TOKEN, call, serve, tmp};

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

// ---- special files, over a real connection ----

/// A real server on `path` (on its own thread, never joined: a server that
/// hangs fails the test instead of hanging it); its port.
fn start_server(path: &Path, db: Option<PathBuf>) -> u16 {
    let opts = ViewOptions {
        path: Some(path.to_path_buf()),
        token: Some(TOKEN.into()),
        db,
        ..ViewOptions::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = sgf_web::serve(&opts, |url| {
            let _ = tx.send(url.to_string());
        });
        eprintln!("server ended: {r:?}");
    });
    let url = rx.recv().expect("the server printed no URL");
    let port = url
        .trim_start_matches("http://127.0.0.1:")
        .split('/')
        .next()
        .unwrap();
    port.parse().unwrap()
}

/// One request on a new connection: status and JSON body. The read timeout
/// is generous: an answer comes in well under it, a hang never does.
fn http(port: u16, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nx-qipu-token: {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    if let Err(e) = s.read_to_end(&mut out) {
        panic!("{method} {path}: no answer ({e}): the server hangs");
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, mut rest) = text.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let mut decoded = String::new();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        while let Some((len, tail)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            decoded.push_str(&tail[..n]);
            rest = &tail[n + 2..];
        }
    } else {
        decoded = rest.to_string();
    }
    (
        status,
        serde_json::from_str(&decoded).unwrap_or(Value::String(decoded)),
    )
}

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", p.display());
}

/// A FIFO named like a record once blocked the viewer's one reader thread
/// for ever, and with it every later open and `/api/start`.
#[test]
fn fifos_and_devices_in_the_folder_are_refused_at_once_and_the_server_goes_on() {
    let d = tmp("fifo");
    std::fs::write(d.join("a.sgf"), "(;SZ[9];B[ee])").unwrap();
    mkfifo(&d.join("pipe.sgf"));
    symlink("pipe.sgf", d.join("to-pipe.sgf")).unwrap();
    symlink("/dev/zero", d.join("zero.sgf")).unwrap();
    let port = start_server(&d, None);
    // Only the regular file is listed.
    let (s, v) = http(port, "GET", "/api/files", None);
    assert_eq!((s, &v["files"]), (200, &json!(["a.sgf"])), "{v}");
    for (name, why) in [
        ("pipe.sgf", "FIFO"),
        ("to-pipe.sgf", "FIFO"),
        ("zero.sgf", "outside the served directory"),
    ] {
        let (s, v) = http(port, "POST", "/api/open", Some(json!({ "path": name })));
        assert_eq!(s, 400, "{name}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(why), "{name}: {e}");
        // The next request is answered.
        let (s, v) = http(port, "POST", "/api/open", Some(json!({"path": "a.sgf"})));
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = http(port, "POST", "/api/start", Some(json!({})));
    assert_eq!((s, &v["path"]), (200, &json!("a.sgf")), "{v}");
    // Written over: refused at once, the FIFO left as it is.
    let id = v["session"].clone();
    for target in ["pipe.sgf", "to-pipe.sgf"] {
        let (s, v) = http(
            port,
            "POST",
            "/api/save",
            Some(json!({"session": id, "mode": "canonical", "path": target, "replace": true})),
        );
        assert_eq!(s, 400, "{target}: {v}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(d.join("pipe.sgf"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
    let (s, _) = http(port, "GET", "/api/memory", None);
    assert_eq!(s, 200);
}

/// The database names the file of a hit: one that became a FIFO since it
/// was indexed is refused, not waited on.
#[test]
fn a_database_hit_whose_file_became_a_fifo_is_refused_at_once() {
    let d = tmp("db-fifo");
    let games = d.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("a.sgf"), "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
    std::fs::write(games.join("b.sgf"), "(;GM[1]SZ[9];B[ee];W[gg])").unwrap();
    let db = d.join("games.qdb");
    sgf_db::Database::open(&db)
        .unwrap()
        .index(std::slice::from_ref(&games), &sgf_db::NoProgress)
        .unwrap();
    std::fs::remove_file(games.join("b.sgf")).unwrap();
    mkfifo(&games.join("b.sgf"));
    let port = start_server(&games.join("a.sgf"), Some(db));
    let (_, st) = http(port, "POST", "/api/start", Some(json!({})));
    let (s, r) = http(
        port,
        "POST",
        "/api/db/search",
        Some(json!({"session": st["session"]})),
    );
    assert_eq!(s, 200, "{r}");
    let hits = r["hits"].as_array().unwrap();
    let hit = hits
        .iter()
        .find(|h| h["path"].as_str().unwrap().ends_with("b.sgf"))
        .unwrap_or_else(|| panic!("{r}"));
    let (s, v) = http(
        port,
        "POST",
        "/api/db/open",
        Some(json!({"id": hit["id"], "node": 0})),
    );
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("FIFO"), "{v}");
    let (s, _) = http(port, "GET", "/api/memory", None);
    assert_eq!(s, 200);
}

#[test]
fn special_or_huge_files_named_to_the_viewer_are_refused() {
    let d = tmp("named");
    mkfifo(&d.join("pipe.sgf"));
    let huge = d.join("huge.sgf");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(sgf_web::MAX_FILE_BYTES + 1)
        .unwrap();
    for (p, why) in [
        (PathBuf::from("/dev/zero"), "character device"),
        (d.join("pipe.sgf"), "FIFO"),
        (huge, "larger than 32 MiB"),
        (d.join("missing.sgf"), "no such file"),
    ] {
        let e = app(&ViewOptions {
            path: Some(p.clone()),
            ..ViewOptions::default()
        })
        .err()
        .unwrap_or_else(|| panic!("{} accepted", p.display()));
        assert!(e.contains(why), "{e}");
    }
}

// ---- downloads and links ----

/// `Content-Disposition` once took the name as it was: a `"` ended the
/// value early, and CR or LF made the header invalid (a 500).
#[tokio::test]
async fn download_names_are_escaped() {
    let d = tmp("names");
    let app = serve(&d);
    let name = "a\"b\\c\r\nd;e 棋譜%.sgf";
    let (s, st) = call(
        &app,
        "POST",
        "/api/open",
        Some(json!({"name": name, "text": "(;SZ[9];B[ee])"})),
    )
    .await;
    assert_eq!(s, 200, "{st}");
    let id = st["session"].as_u64().unwrap();
    for (uri, file) in [
        (
            format!("/api/export?session={id}&format=svg"),
            "a\"b\\c__d;e 棋譜%-0.svg",
        ),
        (
            format!("/api/figures?session={id}"),
            "a\"b\\c__d;e 棋譜%-figures.html",
        ),
    ] {
        let res = router(app.clone())
            .oneshot(request("GET", &uri, 0, Some(TOKEN), None))
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{uri}");
        let h = res.headers()["content-disposition"].to_str().unwrap();
        assert!(!h.contains(['\r', '\n']), "{h}");
        // The ASCII name: quoted, nothing in it that ends or escapes it.
        let rest = h.strip_prefix("attachment; filename=\"").unwrap();
        let (ascii, rest) = rest.split_once('"').unwrap();
        assert!(!ascii.contains(['\\', '%']), "{ascii}");
        assert!(ascii.starts_with("a_b_c__d;e ___"), "{ascii}");
        // The name itself, percent-encoded UTF-8.
        let encoded = rest.strip_prefix("; filename*=UTF-8''").unwrap();
        assert!(encoded.bytes().all(|b| b.is_ascii_graphic()), "{encoded}");
        assert_eq!(percent_decode(encoded), file, "{h}");
    }
    let h = sgf_web::attachment("game-12.png");
    assert_eq!(
        h.to_str().unwrap(),
        "attachment; filename=\"game-12.png\"; filename*=UTF-8''game-12.png"
    );
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Every write goes through `sgf_formats::save`: a destination that is a
/// link is refused, and what it points to is left alone.
#[tokio::test]
async fn save_as_onto_a_link_is_refused() {
    let d = tmp("saveas-links");
    let outside = tmp("saveas-links-outside");
    let victim = outside.join("victim.sgf");
    std::fs::write(&victim, "(;C[precious])").unwrap();
    std::fs::write(d.join("real.sgf"), "(;C[also precious])").unwrap();
    std::fs::write(d.join("g.sgf"), "(;SZ[9];B[ee])").unwrap();
    symlink("real.sgf", d.join("in.sgf")).unwrap();
    symlink(&victim, d.join("out.sgf")).unwrap();
    symlink("missing.sgf", d.join("dangling.sgf")).unwrap();
    let app = serve(&d);
    let id = open(&app, "g.sgf").await;
    comment(&app, id, "edited").await;
    for target in ["in.sgf", "in", "out.sgf", "dangling.sgf"] {
        let (s, v) = call(
            &app,
            "POST",
            "/api/save",
            Some(json!({"session": id, "mode": "canonical", "path": target, "replace": true})),
        )
        .await;
        assert_eq!(s, 400, "{target}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "(;C[precious])");
    assert_eq!(
        std::fs::read_to_string(d.join("real.sgf")).unwrap(),
        "(;C[also precious])"
    );
    assert!(!d.join("missing.sgf").exists());
    for link in ["in.sgf", "out.sgf", "dangling.sgf"] {
        let t = std::fs::symlink_metadata(d.join(link)).unwrap().file_type();
        assert!(t.is_symlink(), "{link}");
    }
    // A record opened through a link inside the folder is not saved
    // through it either.
    let id = open(&app, "in.sgf").await;
    comment(&app, id, "edited").await;
    let (s, v) = save(&app, id, false).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(
        std::fs::read_to_string(d.join("real.sgf")).unwrap(),
        "(;C[also precious])"
    );
    // No leftovers beside them.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("qipu-tmp")), "{names:?}");
}
