//! What the viewer writes is clean: after every editing operation of the
//! session API (moves, setup stones added and taken back, markup, lines,
//! labels, comments, game information, deleting and promoting variations,
//! the repair), the record saved — losslessly and in the canonical form —
//! passes `qipu check` without a warning or an error.

use serde_json::{Value, json};
use sgf_core::Severity;

mod support;
use support::{post as call, serve, tmp};

/// What `qipu check` reports as a warning or an error in `bytes`.
fn problems(bytes: &[u8]) -> Vec<String> {
    let p = sgf_core::parse(bytes);
    let mut d = p.diagnostics.clone();
    d.extend(sgf_go::check::check(&p.document));
    d.iter()
        .filter(|d| d.severity != Severity::Info)
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

#[tokio::test]
async fn every_edit_of_the_session_api_saves_a_clean_record() {
    let dir = tmp("clean");
    let file = dir.join("game.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5])\n").unwrap();
    let app = serve(&file);
    let st = call(&app, "/api/start", json!({})).await;
    let s = st["session"].clone();
    let edits: Vec<(&str, Value)> = vec![
        ("play", json!({"op": "play", "point": "ee"})),
        ("play", json!({"op": "play", "point": "cc"})),
        // A stone added, then taken back: nothing is left of it (no `AE`
        // of an empty point, G004).
        (
            "setup black",
            json!({"op": "setup", "point": "gg", "stone": "B"}),
        ),
        (
            "setup erase",
            json!({"op": "setup", "point": "gg", "stone": "E"}),
        ),
        (
            "setup white",
            json!({"op": "setup", "point": "aa", "stone": "W"}),
        ),
        (
            "setup white again",
            json!({"op": "setup", "point": "aa", "stone": "W"}),
        ),
        // A stone of the position erased: an `AE` that changes something.
        (
            "setup erase a stone",
            json!({"op": "setup", "point": "ee", "stone": "E"}),
        ),
        (
            "setup it back",
            json!({"op": "setup", "point": "ee", "stone": "B"}),
        ),
        (
            "markup",
            json!({"op": "markup", "kind": "TR", "point": "dd"}),
        ),
        (
            "markup again",
            json!({"op": "markup", "kind": "SQ", "point": "dd"}),
        ),
        (
            "territory",
            json!({"op": "markup", "kind": "TB", "point": "ab"}),
        ),
        (
            "line",
            json!({"op": "line", "kind": "AR", "from": "aa", "to": "bb"}),
        ),
        (
            "label",
            json!({"op": "label", "point": "hh", "auto": "letter"}),
        ),
        (
            "label text",
            json!({"op": "label", "point": "hg", "text": "x:y]z"}),
        ),
        (
            "comment",
            json!({"op": "comment", "text": "A comment ] with \\ and 棋.", "name": "n"}),
        ),
        (
            "info",
            json!({"op": "info", "props": {"PB": "Lee", "DT": "2024-01-05", "RE": "B+R"}}),
        ),
        ("play a variation", json!({"op": "play", "point": "gc"})),
        ("play on", json!({"op": "play", "point": "gd"})),
        ("promote", json!({"op": "promote"})),
        ("delete", json!({"op": "delete"})),
    ];
    let mut failures = Vec::new();
    for (what, mut body) in edits {
        body["session"] = s.clone();
        call(&app, "/api/edit", body).await;
        for mode in ["lossless", "canonical"] {
            // The canonical form is saved as another file, which the
            // session then edits (and saves losslessly); from the second
            // edit on, over that file (the user said to replace it).
            let saved = call(
                &app,
                "/api/save",
                json!({"session": s, "mode": mode, "path": "canonical.sgf", "replace": true}),
            )
            .await;
            let name = saved["saved"].as_str().unwrap_or("game.sgf").to_string();
            let bytes = std::fs::read(dir.join(&name)).unwrap();
            let p = problems(&bytes);
            if !p.is_empty() {
                failures.push(format!(
                    "{what} ({mode}): {p:?}\n{}",
                    String::from_utf8_lossy(&bytes)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
