//! The viewer's API is typed (src/api.rs): a missing field, a value of the
//! wrong type, a malformed point or an unknown action is a 400 with a JSON
//! error saying what is wrong, never a default; queries are
//! percent-decoded; a file is uploaded as its raw bytes; annotations
//! travel as data; the page's modules are served as JavaScript.

use serde_json::{Value, json};

mod support;
use support::{TOKEN, call, call_as, get, post, post_bytes, serve, session, tmp};

/// A folder with one small record, served, and the session of that record.
async fn opened(tag: &str) -> (support::App, u64) {
    let d = tmp(&format!("typed-{tag}"));
    std::fs::write(
        d.join("a.sgf"),
        "(;GM[1]FF[4]SZ[9];B[ee]TE[2];W[cc]DO[]V[-2.5])",
    )
    .unwrap();
    let app = serve(&d);
    let st = post(&app, "/api/open", json!({"path": "a.sgf"})).await;
    (app, session(&st))
}

/// A refusal of a malformed request: 400, `bad_request`, and its words.
fn bad(r: (u16, Value), words: &str) {
    let (status, v) = r;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error_kind"], "bad_request", "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.starts_with("bad request: ") && e.contains(words), "{e}");
}

/// POSTs of `(uri, body, words)`, each refused as malformed with its words.
async fn bad_posts(app: &support::App, cases: &[(&str, Value, &str)]) {
    for (uri, body, words) in cases {
        bad(call(app, "POST", uri, Some(body.clone())).await, words);
    }
}

/// A GET of `uri` refused as malformed, with `words`.
async fn bad_get(app: &support::App, uri: &str, words: &str) {
    bad(call(app, "GET", uri, None).await, words);
}

#[tokio::test]
async fn a_missing_field_is_a_400_that_names_it() {
    let (app, s) = opened("missing").await;
    bad_posts(
        &app,
        &[
            (
                "/api/nav",
                json!({"session": s, "action": "node"}),
                "missing field `node`",
            ),
            (
                "/api/nav",
                json!({"action": "next"}),
                "missing field `session`",
            ),
            (
                "/api/edit",
                json!({"session": s, "op": "setup", "point": "aa"}),
                "missing field `stone`",
            ),
            (
                "/api/games/search",
                json!({"session": s}),
                "missing field `q`",
            ),
            // Neither a file nor text to open.
            ("/api/open", json!({"name": "x.sgf"}), "nothing to open"),
        ],
    )
    .await;
    // In a query too.
    bad_get(&app, "/api/state", "missing field `session`").await;
    // Nothing was done: the record is where it was.
    assert_eq!(
        get(&app, &format!("/api/state?session={s}")).await["node"]["number"],
        0
    );
}

#[tokio::test]
async fn a_bad_point_is_a_400_and_an_off_board_one_is_refused() {
    let (app, s) = opened("point").await;
    let plays = ["e", "eee", "e5", "", " e"].map(|p| {
        (
            "/api/edit",
            json!({"session": s, "op": "play", "point": p}),
            "is not a point",
        )
    });
    bad_posts(&app, &plays).await;
    bad_posts(
        &app,
        &[(
            "/api/count",
            json!({"session": s, "action": "toggle", "point": "1"}),
            "is not a point",
        )],
    )
    .await;
    // Two letters, but off this 9x9 board: the record's answer, as for an
    // illegal move (the state, with the reason).
    let st = post(
        &app,
        "/api/edit",
        json!({"session": s, "op": "play", "point": "ss"}),
    )
    .await;
    assert_eq!(st["error_kind"], "refused");
    assert!(
        st["message"]
            .as_str()
            .unwrap()
            .contains("`ss` is not a point of this board")
    );
    assert_eq!(st["dirty"], false);
    // A pass is a null point, or none.
    let st = post(
        &app,
        "/api/edit",
        json!({"session": s, "op": "play", "point": null}),
    )
    .await;
    assert_eq!(st["node"]["move"], "pass", "{}", st["message"]);
}

#[tokio::test]
async fn a_wrong_type_or_an_unknown_action_is_a_400() {
    let (app, s) = opened("types").await;
    bad_posts(
        &app,
        &[
            (
                "/api/nav",
                json!({"session": "1", "action": "next"}),
                "invalid type: string \"1\", expected u64",
            ),
            (
                "/api/nav",
                json!({"session": s, "action": "move", "move": "ten"}),
                "invalid type",
            ),
            (
                "/api/edit",
                json!({"session": s, "op": "info", "props": {"PB": 7}}),
                "invalid type: integer `7`, expected a string",
            ),
            (
                "/api/nav",
                json!({"session": s, "action": "sideways"}),
                "unknown variant `sideways`",
            ),
            (
                "/api/edit",
                json!({"session": s, "op": "markup", "point": "aa", "kind": "XX"}),
                "unknown variant `XX`",
            ),
            (
                "/api/count",
                json!({"session": s, "action": "start", "source": "oracle"}),
                "unknown variant `oracle`",
            ),
            (
                "/api/save",
                json!({"session": s, "mode": "zip"}),
                "unknown variant `zip`",
            ),
        ],
    )
    .await;
    for (query, words) in [
        (
            "state?numbers=maybe",
            "provided string was not `true` or `false`",
        ),
        ("export?format=gif", "unknown variant `gif`"),
        ("figures?every=ten", "`ten` is not a number of moves"),
    ] {
        bad_get(&app, &format!("/api/{query}&session={s}"), words).await;
    }
    // Not JSON at all.
    let (status, v) = call_as(&app, "POST", "/api/close", Some(TOKEN), None).await;
    assert_eq!(status, 400, "{v}");
    assert!(v.contains("bad request: EOF while parsing"), "{v}");
}

#[tokio::test]
async fn a_file_is_uploaded_as_its_bytes() {
    let (app, s) = opened("upload").await;
    // GBK without CA, as a dropped file: 古力 vs 柯洁. Its name, with
    // characters outside ASCII, travels percent-encoded in the query.
    let mut gbk = b"(;GM[1]FF[4]SZ[19]PB[".to_vec();
    gbk.extend([0xb9, 0xc5, 0xc1, 0xa6]);
    gbk.extend(b"]PW[");
    gbk.extend([0xbf, 0xc2, 0xbd, 0xe0]);
    gbk.extend(b"]C[");
    gbk.extend([
        0xba, 0xda, 0xc6, 0xe5, 0xba, 0xc3, 0xa3, 0xac, 0xb0, 0xd7, 0xc6, 0xe5, 0xd2, 0xb2, 0xba,
        0xc3,
    ]);
    gbk.extend(b"];B[pd];W[dp])\n");
    let uri = format!("/api/upload?name=%E6%A3%8B%E8%AD%9C%201.sgf&replace={s}");
    let (status, st) = post_bytes(&app, &uri, gbk).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["name"], "棋譜 1.sgf");
    assert_eq!(st["info"]["PB"], "古力");
    assert_eq!(st["info"]["PW"], "柯洁");
    assert_eq!(st["path"], Value::Null);
    // The record it replaced is closed.
    let (status, e) = call(&app, "GET", &format!("/api/state?session={s}"), None).await;
    assert_eq!(
        (status, &e["error_kind"]),
        (400, &json!("no_session")),
        "{e}"
    );
    // Another format, told by its name: a GIB file.
    let gib = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/formats/gib/global_handicap3.gib"),
    )
    .unwrap();
    let (status, st) = post_bytes(&app, "/api/upload?name=game.gib", gib).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["format"], "GIB");
    // The name is needed.
    let (status, v) = post_bytes(&app, "/api/upload", b"(;GM[1])".to_vec()).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("missing field `name`"),
        "{v}"
    );
}

#[tokio::test]
async fn annotations_travel_as_data() {
    let (app, s) = opened("annotations").await;
    let st = post(&app, "/api/nav", json!({"session": s, "action": "next"})).await;
    assert_eq!(
        st["node"]["annotations"],
        json!([{"code": "TE", "kind": "good_move", "strength": 2, "tone": "good"}])
    );
    let st = post(&app, "/api/nav", json!({"session": s, "action": "next"})).await;
    assert_eq!(
        st["node"]["annotations"],
        json!([
            {"code": "DO", "kind": "doubtful_move", "strength": null, "tone": "bad"},
            {"code": "V", "kind": "value", "value": "-2.5", "tone": ""},
        ])
    );
}

#[tokio::test]
async fn the_page_is_modules_served_as_javascript_with_the_token() {
    let (app, _) = opened("modules").await;
    let (status, html) = call_as(&app, "GET", &format!("/?t={TOKEN}"), None, None).await;
    assert_eq!(status, 200);
    assert!(
        html.contains(r#"<script type="module" src="app.js?t="#),
        "{html}"
    );
    // (Its tag carries the nonce the page's policy allows it by.)
    let map = html
        .split(r#"<script type="importmap" nonce=""#)
        .nth(1)
        .and_then(|r| r.split_once('>'))
        .and_then(|(_, r)| r.split("</script>").next())
        .unwrap();
    let map: Value = serde_json::from_str(map).unwrap();
    let imports = map["imports"].as_object().unwrap();
    // Every module of the folder is served, and mapped to its URL with the token.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut modules = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".js") {
            continue;
        }
        modules += 1;
        assert_eq!(imports[&format!("/{name}")], format!("/{name}?t={TOKEN}"));
        let res = sgf_web::router(app.clone());
        let req = sgf_web::request("GET", &format!("/{name}?t={TOKEN}"), 0, None, None);
        let res = tower::ServiceExt::oneshot(res, req).await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "{name}");
        assert_eq!(
            res.headers()["content-type"],
            "text/javascript; charset=utf-8",
            "{name}"
        );
        let js = sgf_web::body_text(res).await;
        assert!(js.starts_with("// @ts-check\n"), "{name}");
    }
    assert_eq!(imports.len(), modules);
    // Without the token, a module is refused like the rest.
    assert_eq!(call_as(&app, "GET", "/letters.js", None, None).await.0, 403);
}
