//! What the viewer's in-process tests share: the token, a folder to
//! serve, the app on it, and requests through its router (each test file
//! uses some of it).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use serde_json::Value;
use sgf_web::{ViewOptions, body_text, request, router};
use tower::ServiceExt;

/// The token of every test server.
pub const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// The number of the next test app's folder of confirmed engines.
static CONFIRMED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The app under test.
pub type App = Arc<sgf_web::App>;

/// A new, empty folder `qipu-web-TAG-PID` in the system's temporary folder.
pub fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-web-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The viewer's app on `path` (a file or a folder), with [`TOKEN`].
pub fn serve(path: &Path) -> App {
    serve_with(path, |_| {})
}

/// As [`serve`], the options changed by `f` first.
pub fn serve_with(path: &Path, f: impl FnOnce(&mut ViewOptions)) -> App {
    // The engine command lines confirmed in a test's own file, never
    // in the user's configuration folder.
    let confirmed = tmp(&format!(
        "confirmed-{}",
        CONFIRMED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ))
    .join("confirmed-engines.json");
    let mut opts = ViewOptions {
        path: Some(path.to_path_buf()),
        token: Some(TOKEN.into()),
        confirmed_engines: Some(confirmed),
        ..ViewOptions::default()
    };
    f(&mut opts);
    sgf_web::app(&opts).unwrap()
}

/// A request through the router: the status and the body as JSON (a
/// body that is not JSON as a JSON string).
pub async fn send(app: &App, req: Request) -> (u16, Value) {
    let res = router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    let text = body_text(res).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `method uri` with [`TOKEN`] and a JSON `body`.
pub async fn call(app: &App, method: &str, uri: &str, body: Option<Value>) -> (u16, Value) {
    send(app, request(method, uri, 0, Some(TOKEN), body)).await
}

/// `method uri` with `token` (or none): the status and the body as text.
pub async fn call_as(
    app: &App,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, String) {
    let res = router(app.clone())
        .oneshot(request(method, uri, 0, token, body))
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, body_text(res).await)
}

/// A POST that must succeed: its answer.
pub async fn post(app: &App, uri: &str, body: Value) -> Value {
    let (s, v) = call(app, "POST", uri, Some(body)).await;
    assert_eq!(s, 200, "{uri}: {}", brief(&v));
    v
}

/// A GET that must succeed: its answer.
pub async fn get(app: &App, uri: &str) -> Value {
    let (s, v) = call(app, "GET", uri, None).await;
    assert_eq!(s, 200, "{uri}: {}", brief(&v));
    v
}

/// A POST of raw bytes (a file uploaded as it is).
pub async fn post_bytes(app: &App, uri: &str, bytes: Vec<u8>) -> (u16, Value) {
    let mut req = request("POST", uri, 0, Some(TOKEN), None);
    *req.body_mut() = Body::from(bytes);
    req.headers_mut()
        .insert("content-type", "application/octet-stream".parse().unwrap());
    send(app, req).await
}

/// The session a state belongs to.
pub fn session(st: &Value) -> u64 {
    st["session"].as_u64().unwrap()
}

/// A state without its board and tree (for messages).
pub fn brief(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("board");
        o.remove("tree");
    }
    v
}
