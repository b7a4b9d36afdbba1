//! Issue 28's server side: no folder served without a path, the file
//! list read again when the page loads, the icon, komi as the library
//! reads it, passes in a row, the judgement annotations set from the
//! page, and the record downloaded as SGF.

mod support;

use serde_json::{Value, json};
use sgf_web::{ViewOptions, request, router};
use support::{TOKEN, call, get, post, serve, session, tmp};
use tower::ServiceExt;

/// `qipu view` without a path: the example, and no folder to open from
/// or save into (the current directory was served before).
#[tokio::test]
async fn without_a_path_no_folder_is_served() {
    let app = sgf_web::app(&ViewOptions {
        token: Some(TOKEN.into()),
        ..ViewOptions::default()
    })
    .unwrap();
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["name"], "qipu-example.sgf");
    assert_eq!(st["folder"], false, "{}", st["folder"]);
    assert!(st.get("files").is_none());
    let s = session(&st);
    // The test's own folder holds Cargo.toml: not reachable.
    let (code, v) = call(
        &app,
        "POST",
        "/api/open",
        Some(json!({"path": "Cargo.toml"})),
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("no folder is served"),
        "{v}"
    );
    let (code, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": s, "mode": "canonical", "path": "out.sgf"})),
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert!(!std::path::Path::new("out.sgf").exists());
    assert_eq!(get(&app, "/api/files").await["files"], json!([]));
    // The record can still be had: downloaded as SGF.
    let res = router(app.clone())
        .oneshot(request(
            "GET",
            &format!("/api/export?session={s}&format=sgf"),
            0,
            Some(TOKEN),
            None,
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cd = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(cd.contains("qipu-example.sgf"), "{cd}");
    let body = sgf_web::body_text(res).await;
    assert!(body.starts_with("(;"), "{body}");
}

/// A folder served: a file copied into it appears when the page is
/// loaded again (`/api/start`), without asking for `/api/files`.
#[tokio::test]
async fn the_file_list_is_read_again_when_the_page_loads() {
    let d = tmp("relist");
    std::fs::write(d.join("a.sgf"), "(;SZ[9];B[ee])").unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["files"], json!(["a.sgf"]));
    assert_eq!(st["folder"], true);
    std::fs::write(d.join("b.sgf"), "(;SZ[9];B[cc])").unwrap();
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["files"], json!(["a.sgf", "b.sgf"]));
}

/// The icon wants the token as every file does (the page names it with
/// its token): a page elsewhere cannot find a running viewer by loading
/// it.
#[tokio::test]
async fn the_icon_wants_the_token() {
    let d = tmp("icon");
    let app = serve(&d);
    let res = router(app.clone())
        .oneshot(request("GET", "/favicon.ico?t=nope", 0, None, None))
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = router(app.clone())
        .oneshot(request("GET", "/favicon.ico", 0, None, None))
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = router(app.clone())
        .oneshot(request(
            "GET",
            &format!("/favicon.ico?t={}", support::TOKEN),
            0,
            None,
            None,
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/x-icon");
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    assert_eq!(&bytes[..4], &[0, 0, 1, 0], "an ICO");
    assert!(bytes.windows(4).any(|w| w == b"\x89PNG"));
    // The page names it with its token.
    let (code, page) = support::call_as(&app, "GET", "/", Some(support::TOKEN), None).await;
    assert_eq!(code, 200);
    assert!(page.contains(&format!(
        "<link rel=\"icon\" href=\"/favicon.ico?t={}\">",
        support::TOKEN
    )));
}

/// Fox's `KM[375]` (Chinese rules) is 7.5 as the library reads it; the
/// form keeps the text as written.
#[tokio::test]
async fn komi_is_given_as_the_library_reads_it() {
    let d = tmp("komi");
    std::fs::write(
        d.join("fox.sgf"),
        "(;GM[1]FF[4]SZ[19]RU[Chinese]KM[375];B[pd];W[dd];B[];W[])",
    )
    .unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/open", json!({"path": "fox.sgf"})).await;
    assert_eq!(st["komi"], json!(7.5));
    assert_eq!(st["info"]["KM"], "375");
    // Passes in a row ending at the node: 0, then 1, then 2 at the end.
    let s = session(&st);
    assert_eq!(st["node"]["passes"], 0);
    let n = |k: u64| {
        post(
            &app,
            "/api/nav",
            json!({"session": s, "action": "node", "node": k}),
        )
    };
    assert_eq!(n(3).await["node"]["passes"], 1);
    assert_eq!(n(4).await["node"]["passes"], 2);
    assert_eq!(n(2).await["node"]["passes"], 0);
}

fn codes(st: &Value) -> Vec<(String, Value)> {
    st["node"]["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["code"].as_str().unwrap().to_string(),
                a["strength"].clone(),
            )
        })
        .collect()
}

/// The judgements of a move and of a position, set from the page: one of
/// each group, the same again removes it, undo takes it back.
#[tokio::test]
async fn judgement_annotations_are_set_and_replaced() {
    let d = tmp("annotate");
    std::fs::write(d.join("a.sgf"), "(;GM[1]FF[4]SZ[9];B[ee];W[cc])").unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/open", json!({"path": "a.sgf"})).await;
    let s = session(&st);
    post(
        &app,
        "/api/nav",
        json!({"session": s, "action": "node", "node": 1}),
    )
    .await;
    let ed = |body: Value| {
        let mut b = body;
        b["session"] = json!(s);
        post(&app, "/api/edit", b)
    };
    let st = ed(json!({"op": "annotate", "kind": "TE"})).await;
    assert_eq!(codes(&st), [("TE".to_string(), json!(1))]);
    let st = ed(json!({"op": "annotate", "kind": "BM", "strength": 2})).await;
    assert_eq!(codes(&st), [("BM".to_string(), json!(2))]);
    let st = ed(json!({"op": "annotate", "kind": "GB"})).await;
    assert_eq!(codes(&st).len(), 2);
    let st = ed(json!({"op": "annotate", "kind": "UC"})).await;
    assert!(codes(&st).iter().any(|c| c.0 == "UC") && !codes(&st).iter().any(|c| c.0 == "GB"));
    let st = ed(json!({"op": "annotate", "kind": "IT"})).await;
    assert!(codes(&st).iter().any(|c| c.0 == "IT") && !codes(&st).iter().any(|c| c.0 == "BM"));
    let st = ed(json!({"op": "annotate", "kind": "HO"})).await;
    assert!(codes(&st).iter().any(|c| c.0 == "HO"));
    // The same again: removed.
    let st = ed(json!({"op": "annotate", "kind": "HO"})).await;
    assert!(!codes(&st).iter().any(|c| c.0 == "HO"));
    let st = ed(json!({"op": "undo"})).await;
    assert!(codes(&st).iter().any(|c| c.0 == "HO"));
    // An annotation that does not exist is a bad request.
    let (code, _) = call(
        &app,
        "POST",
        "/api/edit",
        Some(json!({"session": s, "op": "annotate", "kind": "XX"})),
    )
    .await;
    assert_eq!(code, 400);
    let saved = post(&app, "/api/save", json!({"session": s, "mode": "lossless"})).await;
    assert_eq!(saved["saved"], "a.sgf", "{saved}");
    let text = std::fs::read_to_string(d.join("a.sgf")).unwrap();
    assert!(text.contains("B[ee]UC[1]IT[]HO[1]"), "{text}");
}
