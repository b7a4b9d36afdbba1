//! Memory: the figures of a game with `FG` at every move (`/api/figures`,
//! one HTML page with every picture inline, a hundred megabytes and
//! more) are written as the browser reads them, never held whole: the
//! server's peak grows by a small part of the page. Alone in its test
//! binary, so that the process's peak is the server's.

use std::future::poll_fn;
use std::pin::Pin;

use futures_core::Stream;
use serde_json::json;
use tower::ServiceExt;

mod support;
use support::{TOKEN, call, serve, tmp};

/// The process's peak resident size.
fn peak() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A game of `n` moves, a figure (`FG`) at each.
fn figure_every_move(n: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[19]");
    for i in 0..n {
        let p = (i * 7) % 361;
        s.push_str(&format!(
            ";{}[{}{}]FG[]",
            if i.is_multiple_of(2) { 'B' } else { 'W' },
            (b'a' + (p % 19) as u8) as char,
            (b'a' + (p / 19) as u8) as char
        ));
    }
    s.push(')');
    s
}

#[tokio::test]
async fn figures_at_every_move_are_sent_as_they_are_made() {
    let dir = tmp("memory-figures");
    let moves = 2000;
    std::fs::write(dir.join("fg.sgf"), figure_every_move(moves)).unwrap();
    let app = serve(&dir.join("fg.sgf"));
    let (status, st) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(status, 200);
    let s = st["session"].as_u64().unwrap();
    let before = peak();
    let req = sgf_web::request(
        "GET",
        &format!("/api/figures?session={s}"),
        0,
        Some(TOKEN),
        None,
    );
    let res = sgf_web::router(app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("fg-figures.html")
    );
    // Read a chunk at a time, as a browser saving it does.
    let mut body = res.into_body().into_data_stream();
    let (mut len, mut sections, mut tail) = (0usize, 0usize, Vec::new());
    while let Some(chunk) = poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await {
        let chunk = chunk.unwrap();
        len += chunk.len();
        // Counted across chunks: the end of the last one kept.
        tail.extend_from_slice(&chunk);
        let text = String::from_utf8_lossy(&tail);
        sections += text.matches("<section class=\"figure\"").count();
        let keep = tail.len().saturating_sub(32);
        tail.drain(..keep);
        let text = String::from_utf8_lossy(&tail).into_owned();
        sections -= text.matches("<section class=\"figure\"").count();
    }
    sections += String::from_utf8_lossy(&tail)
        .matches("<section class=\"figure\"")
        .count();
    assert!(String::from_utf8_lossy(&tail).ends_with("</html>\n"));
    assert_eq!(sections, moves, "a figure at each move");
    let grew = peak().saturating_sub(before);
    eprintln!(
        "a page of {:.1} MB ({moves} figures): the peak grew by {:.1} MB",
        len as f64 / 1048576.0,
        grew as f64 / 1048576.0
    );
    assert!(len > 50 << 20, "the page is large: {len} bytes");
    assert!(
        grew < len / 8,
        "the peak grew by {grew} bytes for a page of {len}: the page was held"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
