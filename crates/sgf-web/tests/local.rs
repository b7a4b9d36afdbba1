//! The viewer's API without a server ([`sgf_web::local::Local`], what the
//! static viewer runs in the page): the same requests answered as the
//! server answers them, what needs the server refused with where it is,
//! and the static page's own routes (the bytes Save writes, saved, work
//! restored across a reload).

use serde_json::{Value, json};
use sgf_web::local::{Local, NEEDS_SERVER, Reply};

mod support;
use support::{call, post_bytes, serve, tmp};

const RECORD: &[u8] =
    b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Black]PW[White];B[ee]C[first];W[cc](;B[gg])(;B[gc]))";

fn json_of(r: &Reply) -> Value {
    assert_eq!(r.content_type, "application/json");
    serde_json::from_slice(&r.body).unwrap()
}

fn ask(l: &mut Local, url: &str, body: Value) -> (u16, Value) {
    let r = l.request(url, body.to_string().as_bytes());
    (r.status, json_of(&r))
}

/// What a state says, for comparing the two transports: the session ids
/// differ, the file list and `folder` belong to the server's folder.
fn comparable(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["session", "files", "folder", "undo_bytes"] {
            o.remove(k);
        }
    }
    v
}

#[tokio::test]
async fn the_same_requests_get_the_same_answers_as_from_the_server() {
    let d = tmp("local-same");
    let app = serve(&d);
    let (st, server) = post_bytes(&app, "/api/upload?name=a.sgf", RECORD.to_vec()).await;
    assert_eq!(st, 200, "{server}");
    let sid = server["session"].as_u64().unwrap();
    let mut local = Local::new();
    let r = local.request("/api/upload?name=a.sgf", RECORD);
    assert_eq!(r.status, 200);
    let mine = json_of(&r);
    let lid = mine["session"].as_u64().unwrap();
    assert_eq!(comparable(mine), comparable(server));
    assert_eq!(local.open_count(), 1);

    // The same steps on both: moves, an edit, a refusal, the view, undo.
    let steps: Vec<(&str, &str, Value)> = vec![
        ("POST", "/api/nav", json!({"action": "next"})),
        ("POST", "/api/nav", json!({"action": "last"})),
        ("POST", "/api/edit", json!({"op": "play", "point": "dd"})),
        ("POST", "/api/edit", json!({"op": "play", "point": "dd"})),
        (
            "POST",
            "/api/edit",
            json!({"op": "comment", "text": "mine"}),
        ),
        (
            "POST",
            "/api/nav",
            json!({"action": "first", "sym": 3, "numbers": true}),
        ),
        ("POST", "/api/edit", json!({"op": "undo"})),
        (
            "POST",
            "/api/count",
            json!({"action": "start", "source": "estimator"}),
        ),
        ("POST", "/api/games", json!({})),
        ("POST", "/api/games/search", json!({"q": "FIRST"})),
        ("POST", "/api/repair", json!({})),
        ("POST", "/api/nav", json!({"action": "sideways"})),
        ("POST", "/api/nav", json!({"action": "next", "sym": 9})),
    ];
    for (method, uri, mut body) in steps {
        body["session"] = json!(sid);
        let (s1, a) = call(&app, method, uri, Some(body.clone())).await;
        body["session"] = json!(lid);
        let (s2, b) = ask(&mut local, uri, body.clone());
        assert_eq!(s1, s2, "{uri} {body}: {a} / {b}");
        assert_eq!(comparable(a), comparable(b), "{uri} {body}");
    }
    let (s1, a) = call(&app, "GET", &format!("/api/state?session={sid}"), None).await;
    let (s2, b) = ask(
        &mut local,
        &format!("/api/state?session={lid}"),
        Value::Null,
    );
    assert_eq!((s1, comparable(a)), (s2, comparable(b)));

    // Downloads: the same bytes, the same name.
    for q in [
        "format=svg",
        "format=sgf",
        "format=sensei&numbers=true",
        "format=png&size=64",
    ] {
        let server = sgf_web::router(app.clone());
        let req = sgf_web::request(
            "GET",
            &format!("/api/export?session={sid}&{q}"),
            0,
            Some(support::TOKEN),
            None,
        );
        let res = tower::ServiceExt::oneshot(server, req).await.unwrap();
        let disposition = res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_string();
        let ty = res.headers()["content-type"].to_str().unwrap().to_string();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
            .await
            .unwrap();
        let r = local.request(&format!("/api/export?session={lid}&{q}"), b"");
        assert_eq!(r.status, 200, "{q}");
        assert_eq!(r.content_type, ty, "{q}");
        let name = r.filename.unwrap();
        assert!(
            disposition.contains(&format!("filename=\"{name}\"")),
            "{disposition} / {name}"
        );
        assert_eq!(r.body, bytes.to_vec(), "{q}");
    }
    let r = local.request(&format!("/api/figures?session={lid}&every=1"), b"");
    assert_eq!(
        (r.status, r.content_type),
        (200, "text/html; charset=utf-8")
    );
    assert_eq!(r.filename.as_deref(), Some("a-figures.html"));
}

#[test]
fn what_needs_the_server_is_refused_and_says_where_it_is() {
    let mut l = Local::new();
    let (s, st) = ask(&mut l, "/api/start", json!({}));
    assert_eq!(s, 200);
    assert_eq!(st["folder"], false);
    let id = st["session"].as_u64().unwrap();
    // An engine: the state, its message saying where engines are.
    let (s, st) = ask(
        &mut l,
        "/api/engine",
        json!({"session": id, "action": "start", "engine": "gnugo"}),
    );
    assert_eq!(s, 200);
    assert_eq!(st["error_kind"], "refused");
    assert!(
        st["message"].as_str().unwrap().contains(NEEDS_SERVER),
        "{st}"
    );
    let (_, st) = ask(
        &mut l,
        "/api/count",
        json!({"session": id, "action": "start", "source": "engine"}),
    );
    assert!(
        st["message"].as_str().unwrap().contains(NEEDS_SERVER),
        "{st}"
    );
    assert_eq!(st["count"], Value::Null);
    // No engines, no database, no folder.
    assert_eq!(
        ask(&mut l, "/api/engines", Value::Null).1["engines"],
        json!([])
    );
    assert_eq!(
        ask(&mut l, "/api/db/info", Value::Null).1,
        json!({"database": null, "games": 0})
    );
    assert_eq!(
        ask(&mut l, "/api/files", Value::Null).1,
        json!({"files": []})
    );
    for (uri, body) in [
        ("/api/db/search", json!({"session": id})),
        ("/api/open", json!({"path": "a.sgf"})),
        ("/api/save", json!({"session": id, "mode": "lossless"})),
    ] {
        let (s, e) = ask(&mut l, uri, body);
        assert_eq!(s, 400, "{uri}");
        assert!(
            e["error"].as_str().unwrap().contains(NEEDS_SERVER),
            "{uri}: {e}"
        );
    }
    // Malformed requests as the server refuses them; an unknown one is a 404.
    let (s, e) = ask(
        &mut l,
        "/api/nav",
        json!({"session": id, "action": "sideways"}),
    );
    assert_eq!((s, e["error_kind"].as_str()), (400, Some("bad_request")));
    let r = l.request("/api/state?session=x", b"");
    assert_eq!(r.status, 400);
    assert!(String::from_utf8_lossy(&r.body).contains("bad request: "));
    let r = l.request("/api/nav", b"\xff not json");
    assert_eq!(r.status, 400);
    assert_eq!(l.request("/api/nothing", b"").status, 404);
    let (s, e) = ask(&mut l, "/api/nav", json!({"session": 99, "action": "next"}));
    assert_eq!((s, e["error_kind"].as_str()), (400, Some("no_session")));
}

#[test]
fn save_gives_the_lossless_bytes_and_restored_work_stays_unsaved() {
    let mut l = Local::new();
    let r = l.request("/api/upload?name=b.sgf", b"(;GM[1]FF[4]SZ[9]  ;B[ee]  )");
    let id = json_of(&r)["session"].as_u64().unwrap();
    let (_, st) = ask(
        &mut l,
        "/api/edit",
        json!({"session": id, "op": "comment", "text": "hi"}),
    );
    assert_eq!(st["dirty"], true);
    // Only what was edited changed: the spaces stay.
    let r = l.request(&format!("/api/record?session={id}"), b"");
    assert_eq!((r.status, r.filename.as_deref()), (200, Some("b.sgf")));
    assert_eq!(r.body, b"(;GM[1]FF[4]SZ[9]C[hi]  ;B[ee]  )".to_vec());
    let (s, saved) = ask(&mut l, "/api/saved", json!({"session": id}));
    assert_eq!(s, 200);
    assert_eq!(saved["saved"], "b.sgf");
    assert_eq!(saved["bytes"], r.body.len());
    let (_, st) = ask(&mut l, &format!("/api/state?session={id}"), Value::Null);
    assert_eq!(st["dirty"], false);
    // Work kept by the page across a reload comes back unsaved, in place
    // of the record it replaces.
    let r = l.request(&format!("/api/restore?name=b.sgf&replace={id}"), &r.body);
    let st = json_of(&r);
    assert_eq!(st["dirty"], true);
    assert_eq!(st["diagnostics"], json!([]));
    assert_eq!(l.open_count(), 1);
    // Another format is written by "Save as" (canonical SGF).
    let r = l.request(
        "/api/upload?name=c.gib",
        b"\\HS\n\\[GAMEBLACKNAME=A\\]\n\\HE\n\\GS\n2 1 0\n\\GE\n",
    );
    let st = json_of(&r);
    assert_eq!(
        (r.status, st["format"].as_str()),
        (200, Some("GIB")),
        "{st}"
    );
    let id = st["session"].as_u64().unwrap();
    let r = l.request(&format!("/api/record?session={id}"), b"");
    assert_eq!(r.status, 400);
    assert!(String::from_utf8_lossy(&r.body).contains("Save as"));
    // A file that holds no record is refused, saying why (as the server):
    // it never opens as an empty record that Save would write.
    let r = l.request("/api/upload?name=x.sgf", b"no record here");
    assert_eq!(r.status, 400);
    let v = json_of(&r);
    assert_eq!(
        (v["error_kind"].as_str(), v["not_record"].as_str()),
        (Some("not_record"), Some("no-game-tree")),
        "{v}"
    );
}

/// Undoing a repair brings its diagnostics back, and redoing it takes
/// them away again; undoing another edit leaves them as they were (the
/// record is not read again for it: a million-move record read again
/// costs several times its size).
#[test]
fn undone_repairs_bring_their_diagnostics_back() {
    let mut l = Local::new();
    let r = l.request(
        "/api/upload?name=d.sgf",
        "(;GM[1]FF[4]SZ[19]DT[2018.04.27]KM[5。5];B[pd]W[dd])".as_bytes(),
    );
    let st = json_of(&r);
    let id = st["session"].as_u64().unwrap();
    let codes = |l: &mut Local| {
        let (_, st) = ask(l, &format!("/api/state?session={id}"), Value::Null);
        let mut c: Vec<String> = st["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect();
        c.sort();
        c
    };
    let damaged = codes(&mut l);
    assert!(damaged.iter().any(|c| c == "F004"), "{damaged:?}");
    let edit = |l: &mut Local, op: Value| {
        let mut b = op;
        b["session"] = json!(id);
        let (s, st) = ask(l, "/api/edit", b);
        assert_eq!(s, 200, "{st}");
        assert!(st.get("message").is_none(), "{st}");
    };
    edit(&mut l, json!({"op": "repair", "variation_level": false}));
    let repaired = codes(&mut l);
    assert!(repaired.len() < damaged.len(), "{repaired:?}");
    edit(&mut l, json!({"op": "undo"}));
    assert_eq!(codes(&mut l), damaged);
    edit(&mut l, json!({"op": "redo"}));
    assert_eq!(codes(&mut l), repaired);
    // A move played and undone: the diagnostics of the repaired record stay.
    edit(&mut l, json!({"op": "play", "point": "qq"}));
    edit(&mut l, json!({"op": "undo"}));
    assert_eq!(codes(&mut l), repaired);
}

/// A line longer than the way back the cursor keeps: stepping back, ten
/// back, to a move number, to the stone of a move, to the start and to a
/// node far down all land where they should.
#[test]
fn a_long_line_is_walked_back_past_the_way_back_kept() {
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19];B[dd];W[pp];B[dp]");
    for i in 3..40_000 {
        sgf.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    sgf.push(')');
    let mut l = Local::new();
    let st = json_of(&l.request("/api/upload?name=long.sgf", sgf.as_bytes()));
    let id = st["session"].as_u64().unwrap();
    let mut nav = |body: Value| {
        let mut b = body;
        b["session"] = json!(id);
        let (s, st) = ask(&mut l, "/api/nav", b);
        assert_eq!(s, 200, "{st}");
        assert!(st.get("message").is_none(), "{st}");
        let n = &st["node"];
        (
            n["move_number"].as_u64().unwrap(),
            n["depth"].as_u64().unwrap(),
        )
    };
    assert_eq!(nav(json!({"action": "last"})), (40_000, 40_000));
    assert_eq!(nav(json!({"action": "prev"})), (39_999, 39_999));
    assert_eq!(nav(json!({"action": "back10"})), (39_989, 39_989));
    assert_eq!(nav(json!({"action": "move", "move": 5})), (5, 5));
    assert_eq!(
        nav(json!({"action": "move", "move": 30_000})),
        (30_000, 30_000)
    );
    assert_eq!(nav(json!({"action": "stone", "point": "dd"})), (1, 1));
    assert_eq!(nav(json!({"action": "last"})), (40_000, 40_000));
    assert_eq!(nav(json!({"action": "first"})), (0, 0));
    assert_eq!(
        nav(json!({"action": "node", "node": 30_000})),
        (30_000, 30_000)
    );
    assert_eq!(nav(json!({"action": "prev"})), (29_999, 29_999));
}
