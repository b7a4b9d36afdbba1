//! The JSON of record states, kept in `tests/snapshots/state.json`: the
//! page reads these shapes (the tree, the clock, the game information, the
//! diagnostics, the engine's state, the count), so a change to how they are
//! built must leave them as they were. Compared as JSON values: key order
//! does not matter, a key absent and a key `null` differ. Set
//! `QIPU_BLESS=1` to write the file anew after adding a field on purpose.

use serde_json::{Value, json};
use sgf_web::local::Local;

/// Records that between them hold variations, markup, clocks (`BL`/`WL`
/// with and without `OB`/`OW`), game information, diagnostics and a
/// collection.
const RECORDS: &[(&str, &str)] = &[
    (
        "variations.sgf",
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Black]PW[White]BR[3d]WR[2k]KM[6.5]RE[B+R]DT[2024-01-02]EV[Cup]GN[One]\
         ;B[ee]C[first see C3 and https://example.org/x];W[cc]N[named]\
         (;B[gg]TE[2];W[gc]BM[1](;B[cg])(;B[dg]V[3.5]))(;B[gc]GB[1]AB[aa][ab]AW[ba])(;B[cd];W[dc]))",
    ),
    (
        "markup.sgf",
        "(;GM[1]FF[4]SZ[9]AB[cc][dd]AW[ee]CR[cc]SQ[dd]TR[ee]MA[ff]LB[gg:A][hh:long]SL[aa]DD[bb]\
         AR[aa:cc]LN[bb:dd];B[fd]TR[fd];W[df]PL[B];B[]IT[])",
    ),
    (
        "clock.sgf",
        "(;GM[1]FF[4]SZ[9]TM[600]OT[5x30 byo-yomi];B[ee]BL[595.5];W[cc]WL[590]OW[5]\
         ;B[gg]BL[30]OB[3];W[gc];B[cg]BL[12.25]OB[2];W[dg]WL[29]OW[4])",
    ),
    (
        "broken.sgf",
        "(;GM[1]FF[4]SZ[9]XX[unknown];B[ee];B[ee];W[zz]C[bad move];W[cc]KM[x])",
    ),
    (
        "collection.sgf",
        "(;GM[1]FF[4]SZ[9]PB[A]PW[B]RE[W+2.5];B[ee];W[cc])\
         (;GM[1]FF[4]SZ[13]PB[C]PW[D]EV[League];B[gg])\
         (;GM[1]FF[4]SZ[19]GN[third];B[pd];W[dp];B[pp])",
    ),
];

/// The requests made on each record after opening it (`S` the session).
const STEPS: &[(&str, &str)] = &[
    ("/api/state?session=S", ""),
    ("/api/nav", r#"{"action": "next"}"#),
    ("/api/nav", r#"{"action": "next"}"#),
    ("/api/nav", r#"{"action": "last"}"#),
    ("/api/nav", r#"{"action": "prev"}"#),
    ("/api/nav", r#"{"action": "next_variation"}"#),
    ("/api/nav", r#"{"action": "first"}"#),
    ("/api/edit", r#"{"op": "play", "point": "bb"}"#),
    ("/api/count", r#"{"action": "start", "source": "marks"}"#),
    ("/api/count", r#"{"action": "stop"}"#),
    ("/api/repair", r#"{"variation_level": false}"#),
    ("/api/games", ""),
    ("/api/nav", r#"{"action": "game", "game": 1}"#),
    ("/api/games", ""),
    ("/api/nav", r#"{"action": "last"}"#),
    ("/api/state?session=S", ""),
];

/// What the state says apart from the board's SVG (drawn elsewhere, and
/// large) and the session's id.
fn kept(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("session");
        if let Some(b) = o.get_mut("board") {
            *b = json!(b.as_str().map(|s| s.starts_with("<svg")));
        }
    }
    v
}

/// A collection large enough to be kept as its parts (its diagnostics are
/// the whole file's check: `PARTS_FROM_BYTES`), a few of its games
/// broken.
fn large() -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() <= 1 << 20 {
        if i % 5000 == 7 {
            s.push_str("(;GM[1]FF[4]SZ[9]XX[odd];B[ee];B[zz])\n");
        } else {
            s.push_str(&format!("(;GM[1]FF[4]SZ[9]PB[p{i}];B[ee];W[cc])\n"));
        }
        i += 1;
    }
    s
}

fn answers() -> Value {
    let mut out = serde_json::Map::new();
    let large = large();
    let all = RECORDS
        .iter()
        .copied()
        .chain([("large.sgf", large.as_str())]);
    for (name, sgf) in all {
        let mut l = Local::new();
        let r = l.request(&format!("/api/upload?name={name}"), sgf.as_bytes());
        let first: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(r.status, 200, "{name}: {first}");
        let sid = first["session"].as_u64().unwrap();
        let mut seen = vec![kept(first)];
        // The large collection's game list has thousands of rows.
        let steps = if name == "large.sgf" {
            &STEPS[..8]
        } else {
            STEPS
        };
        for (url, body) in steps {
            let url = url.replace('S', &sid.to_string());
            let body = if body.is_empty() && url.contains('?') {
                Vec::new()
            } else {
                let mut b: Value = if body.is_empty() {
                    json!({})
                } else {
                    serde_json::from_str(body).unwrap()
                };
                b["session"] = json!(sid);
                b.to_string().into_bytes()
            };
            let r = l.request(&url, &body);
            let v: Value = serde_json::from_slice(&r.body).unwrap();
            seen.push(json!({"request": url, "status": r.status, "answer": kept(v)}));
        }
        out.insert((*name).into(), Value::Array(seen));
    }
    Value::Object(out)
}

#[test]
fn record_states_keep_their_json() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/state.json");
    let now = answers();
    if std::env::var_os("QIPU_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&now).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).expect("tests/snapshots/state.json");
    let before: Value = serde_json::from_str(&text).unwrap();
    let (Value::Object(before), Value::Object(now)) = (before, now) else {
        unreachable!()
    };
    assert_eq!(before.len(), now.len());
    for (name, was) in &before {
        let is = &now[name];
        for (i, (a, b)) in was
            .as_array()
            .unwrap()
            .iter()
            .zip(is.as_array().unwrap())
            .enumerate()
        {
            assert_eq!(a, b, "{name}, answer {i}");
        }
        assert_eq!(was, is, "{name}");
    }
}
