//! An engine's command line not in `engines.toml` runs only once the
//! player confirmed it: refused with a stable answer (`error_kind`
//! `refused`, `confirm_engine` the command line) that the page turns into
//! its dialog; started with `confirm`, and remembered from then on (in
//! the confirmed engines' file, which another server reads too). The
//! "engine" is `touch FILE`: whether it ran is whether the file is there.
#![cfg(unix)]

use std::path::Path;

use serde_json::{Value, json};

mod support;
use support::{App, post, serve_with, tmp};

/// Starts `engine` (`confirm`: as the dialog's OK does).
async fn start(a: &App, s: &Value, engine: &str, confirm: bool) -> Value {
    post(
        a,
        "/api/engine",
        json!({"session": s, "action": "start", "engine": engine, "confirm": confirm}),
    )
    .await
}

/// The app on a record of `dir`, its confirmed command lines in `file`.
fn app(dir: &Path, file: &Path) -> App {
    let f = file.to_path_buf();
    serve_with(&dir.join("g.sgf"), |o| o.confirmed_engines = Some(f))
}

#[tokio::test]
async fn a_command_line_runs_once_confirmed_and_is_remembered() {
    let d = tmp("engine-confirm");
    std::fs::write(d.join("g.sgf"), "(;GM[1]FF[4]SZ[9];B[ee])").unwrap();
    let confirmed = d.join("config").join("confirmed-engines.json");
    let marker = d.join("ran");
    let a = app(&d, &confirmed);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    let line = format!("touch {}", marker.display());

    // Never confirmed: refused, nothing run, nothing written.
    let st = start(&a, &s, &line, false).await;
    assert_eq!(st["error_kind"], "refused", "{st}");
    assert_eq!(st["confirm_engine"], line.as_str());
    assert_eq!(
        st["message"],
        format!("the command line `{line}` runs only once you confirm it")
    );
    assert_eq!(st["engine"], Value::Null);
    assert!(!marker.exists(), "the command ran unconfirmed");
    assert!(!confirmed.exists());
    // Other spacing, the same words: the same line, refused as well.
    let spaced = format!("touch   '{}'", marker.display());
    let st = start(&a, &s, &spaced, false).await;
    assert_eq!(st["confirm_engine"], line.as_str());
    assert!(!marker.exists());

    // Confirmed: it runs (not an engine, it fails to answer as one) and
    // is remembered.
    let st = start(&a, &s, &line, true).await;
    assert!(st.get("confirm_engine").is_none(), "{st}");
    assert!(marker.exists(), "the confirmed command did not run");
    let kept: Value = serde_json::from_slice(&std::fs::read(&confirmed).unwrap()).unwrap();
    assert_eq!(kept, json!({"command_lines": [line.clone()]}));

    // Remembered: it runs without being confirmed again, however spaced,
    // and by another server reading the same file.
    std::fs::remove_file(&marker).unwrap();
    let st = start(&a, &s, &spaced, false).await;
    assert!(st.get("confirm_engine").is_none(), "{st}");
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    let b = app(&d, &confirmed);
    let st = post(&b, "/api/start", json!({})).await;
    let s2 = st["session"].clone();
    let st = start(&b, &s2, &line, false).await;
    assert!(st.get("confirm_engine").is_none(), "{st}");
    assert!(marker.exists());

    // Another command line is still refused; confirming it once more
    // keeps each line once.
    let other = format!("touch {}", d.join("other").display());
    let st = start(&b, &s2, &other, false).await;
    assert_eq!(st["confirm_engine"], other.as_str());
    assert!(!d.join("other").exists());
    start(&b, &s2, &other, true).await;
    start(&b, &s2, &line, true).await;
    let kept: Value = serde_json::from_slice(&std::fs::read(&confirmed).unwrap()).unwrap();
    assert_eq!(kept, json!({"command_lines": [line, other]}));
}

/// A file of confirmed lines that is not one confirms nothing; a bad
/// command line is refused as before, with no dialog to show.
#[tokio::test]
async fn a_damaged_file_confirms_nothing() {
    let d = tmp("engine-confirm-damaged");
    std::fs::write(d.join("g.sgf"), "(;GM[1]FF[4]SZ[9];B[ee])").unwrap();
    let confirmed = d.join("confirmed-engines.json");
    let marker = d.join("ran");
    let line = format!("touch {}", marker.display());
    std::fs::write(&confirmed, format!("[\"{line}\"")).unwrap();
    let a = app(&d, &confirmed);
    let st = post(&a, "/api/start", json!({})).await;
    let s = st["session"].clone();
    let st = start(&a, &s, &line, false).await;
    assert_eq!(st["confirm_engine"], line.as_str());
    assert!(!marker.exists());
    let st = start(&a, &s, "gnugo \"--mode", false).await;
    assert_eq!(st["error_kind"], "refused");
    assert!(st.get("confirm_engine").is_none(), "{st}");
}
