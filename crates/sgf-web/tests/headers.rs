//! Every answer carries the security headers — the page, the API, the
//! scripts, the icon, downloads, and the refusals (403 without the
//! token, 404, an API's errors) — and the page runs no inline script but
//! its import map, allowed by a nonce new for each answer: the policy
//! has no `'unsafe-inline'`.

use std::collections::HashSet;

use axum::http::HeaderMap;
use serde_json::json;
use tower::ServiceExt;

mod support;
use support::{TOKEN, post, serve, tmp};

/// The answer to `method uri` (with the token when `token`): its status,
/// headers and body.
async fn answer(
    app: &support::App,
    method: &str,
    uri: &str,
    token: bool,
    body: Option<serde_json::Value>,
) -> (u16, HeaderMap, String) {
    let token = token.then_some(TOKEN);
    let res = sgf_web::router(app.clone())
        .oneshot(sgf_web::request(method, uri, 0, token, body))
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    (status, headers, sgf_web::body_text(res).await)
}

/// The headers every answer must carry; the content policy's directives.
fn secured(what: &str, h: &HeaderMap) -> Vec<String> {
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("cache-control", "no-store"),
        ("x-frame-options", "DENY"),
        ("cross-origin-resource-policy", "same-origin"),
    ] {
        assert_eq!(
            h.get(name).and_then(|v| v.to_str().ok()),
            Some(value),
            "{what}: {name}"
        );
    }
    let csp = h
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("{what}: no content-security-policy"));
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-eval"), "{what}: {csp}");
    for d in [
        "default-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(d), "{what}: {d} in {csp}");
    }
    csp.split(';').map(|d| d.trim().to_string()).collect()
}

/// What is asked, how, with the token or not, the body, the status.
type Case = (
    &'static str,
    &'static str,
    String,
    bool,
    Option<serde_json::Value>,
    u16,
);

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let d = tmp("headers");
    std::fs::write(d.join("a.sgf"), "(;GM[1]FF[4]SZ[9];B[ee];W[cc])").unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/open", json!({"path": "a.sgf"})).await;
    let s = st["session"].as_u64().unwrap();
    let cases: Vec<Case> = vec![
        ("the page", "GET", "/".into(), true, None, 200),
        ("a script", "GET", "/app.js".into(), true, None, 200),
        ("the style sheet", "GET", "/app.css".into(), true, None, 200),
        (
            "a translation",
            "GET",
            "/i18n/fr.json".into(),
            true,
            None,
            200,
        ),
        (
            "the icon",
            "GET",
            format!("/favicon.ico?t={TOKEN}"),
            false,
            None,
            200,
        ),
        (
            "a state",
            "GET",
            format!("/api/state?session={s}"),
            true,
            None,
            200,
        ),
        (
            "a download",
            "GET",
            format!("/api/export?session={s}&format=svg"),
            true,
            None,
            200,
        ),
        (
            "the figures",
            "GET",
            format!("/api/figures?session={s}"),
            true,
            None,
            200,
        ),
        ("no token", "GET", "/".into(), false, None, 403),
        (
            "the icon without the token",
            "GET",
            "/favicon.ico".into(),
            false,
            None,
            403,
        ),
        (
            "an API without the token",
            "GET",
            "/api/files".into(),
            false,
            None,
            403,
        ),
        (
            "no such page",
            "GET",
            "/nothing-here".into(),
            true,
            None,
            404,
        ),
        (
            "no such page, no token",
            "GET",
            "/nothing-here".into(),
            false,
            None,
            404,
        ),
        (
            "no such language",
            "GET",
            "/i18n/xx.json".into(),
            true,
            None,
            404,
        ),
        (
            "no such session",
            "GET",
            "/api/state?session=999".into(),
            true,
            None,
            400,
        ),
        (
            "a bad request",
            "POST",
            "/api/nav".into(),
            true,
            Some(json!({"session": s, "to": "nowhere"})),
            400,
        ),
    ];
    for (what, method, uri, token, body, status) in cases {
        let (got, h, _) = answer(&app, method, &uri, token, body).await;
        assert_eq!(got, status, "{what}: {uri}");
        secured(what, &h);
    }
}

#[tokio::test]
async fn the_page_runs_no_inline_script_but_its_import_map() {
    let d = tmp("headers-page");
    let app = serve(&d);
    let mut nonces = HashSet::new();
    for _ in 0..2 {
        let (status, h, html) = answer(&app, "GET", "/", true, None).await;
        assert_eq!(status, 200);
        let csp = secured("the page", &h);
        let scripts = csp
            .iter()
            .find(|d| d.starts_with("script-src"))
            .unwrap()
            .clone();
        let nonce = scripts
            .split_whitespace()
            .find_map(|w| w.strip_prefix("'nonce-")?.strip_suffix('\''))
            .unwrap_or_else(|| panic!("no nonce in {scripts}"));
        assert_eq!(scripts, format!("script-src 'self' 'nonce-{nonce}'"));
        assert!(nonce.len() >= 32);
        nonces.insert(nonce.to_string());
        // Its scripts: the import map (with the nonce) and modules by URL.
        let mut inline = 0;
        for tag in html.split("<script").skip(1) {
            let open = &tag[..tag.find('>').unwrap()];
            if open.contains("src=") {
                continue;
            }
            inline += 1;
            assert!(
                open.contains("type=\"importmap\""),
                "an inline script: {open}"
            );
            assert!(open.contains(&format!("nonce=\"{nonce}\"")), "{open}");
        }
        assert_eq!(inline, 1);
        // The token in a <meta>, for api.js; no inline style.
        assert!(html.contains(&format!("<meta name=\"qipu-token\" content=\"{TOKEN}\">")));
        assert!(!html.contains("style="), "an inline style");
        assert!(!html.contains("<style"), "an inline style sheet");
    }
    assert_eq!(nonces.len(), 2, "a new nonce for each answer");
}
