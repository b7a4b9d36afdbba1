//! The viewer's memory stays bounded without losing work: records are put
//! aside beyond the memory budget (least recently used first) and after a
//! time without use; unchanged ones are read again from their files, those
//! with unsaved changes (or without a file) are kept in the recovery folder
//! and come back, edits and all, when the page uses them again.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

mod support;
use support::{App, brief, call, post, tmp};

fn serve(dir: &Path, budget: usize, idle: Option<Duration>, recovery: Option<PathBuf>) -> App {
    support::serve_with(dir, |o| {
        o.memory_budget = budget;
        o.idle_timeout = idle;
        o.recovery_dir = recovery;
    })
}

/// A collection of about `size` bytes (kept as its bytes by the viewer: a
/// part parsed at a time), its games told apart by `tag`.
fn collection(size: usize, tag: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 2048);
    let mut g = 0usize;
    while out.len() < size {
        out.push_str(&format!(
            "(;GM[1]FF[4]SZ[19]PB[Black {tag}.{g}]PW[White {g}]RE[W+R]\n"
        ));
        for k in 0..120usize {
            let i = (k * 7 + g + tag) % 361;
            let c = if k % 2 == 0 { 'B' } else { 'W' };
            out.push_str(&format!(
                ";{c}[{}{}]",
                (b'a' + (i % 19) as u8) as char,
                (b'a' + (i / 19) as u8) as char
            ));
        }
        out.push_str(")\n");
        g += 1;
    }
    out.into_bytes()
}

async fn open(app: &App, body: Value) -> u64 {
    post(app, "/api/open", body).await["session"]
        .as_u64()
        .unwrap()
}

async fn memory(app: &App) -> Value {
    call(app, "GET", "/api/memory", None).await.1
}

async fn state(app: &App, id: u64) -> Value {
    let (s, v) = call(app, "GET", &format!("/api/state?session={id}"), None).await;
    assert_eq!(s, 200, "{}", brief(&v));
    v
}

fn held(m: &Value) -> usize {
    m["held_bytes"].as_u64().unwrap() as usize
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[tokio::test]
async fn beyond_the_budget_records_are_put_aside_and_unsaved_work_comes_back() {
    let d = tmp("budget");
    let recovery = d.join("recovery");
    let files = d.join("games");
    std::fs::create_dir_all(&files).unwrap();
    let n = 8;
    for i in 0..n {
        std::fs::write(
            files.join(format!("g{i}.sgf")),
            collection((3 << 20) / 2, i),
        )
        .unwrap();
    }
    let original = std::fs::read(files.join("g0.sgf")).unwrap();
    let budget = 6 << 20;
    let app = serve(&files, budget, None, Some(recovery.clone()));
    let rss_before = sgf_web::rss_bytes();
    // The first record is edited: a comment in its second game.
    let first = open(&app, json!({"path": "g0.sgf"})).await;
    post(
        &app,
        "/api/nav",
        json!({"session": first, "action": "game", "game": 1}),
    )
    .await;
    post(
        &app,
        "/api/nav",
        json!({"session": first, "action": "move", "move": 5}),
    )
    .await;
    let st = post(
        &app,
        "/api/edit",
        json!({"session": first, "op": "comment", "text": "kept while put aside"}),
    )
    .await;
    assert_eq!(st["dirty"], true, "{}", brief(&st));
    let number = st["node"]["number"].clone();
    // Seven more opened, none closed (a page that went away without
    // saying so): the memory held stays within the budget.
    let mut most = 0;
    for i in 1..n {
        open(&app, json!({"path": format!("g{i}.sgf")})).await;
        let m = memory(&app).await;
        most = most.max(held(&m));
        assert!(held(&m) <= budget, "{m}");
    }
    let m = memory(&app).await;
    assert!(m["parked"].as_u64().unwrap() >= 4, "{m}");
    assert_eq!(m["parked_unsaved"], 1, "only the edited one is kept: {m}");
    // Its work; not the file as first read: the file on disk still is.
    assert_eq!(
        names(&recovery),
        [format!("{first}-0-g0.sgf")],
        "{:?}",
        names(&recovery)
    );
    eprintln!(
        "held at most {:.1} MB (budget {:.1} MB); resident {:?} → {:?}",
        most as f64 / 1048576.0,
        budget as f64 / 1048576.0,
        rss_before,
        sgf_web::rss_bytes()
    );
    // Used again: back where the page was, with the edit, still unsaved.
    let st = state(&app, first).await;
    assert_eq!(st["session"], first);
    assert_eq!(st["dirty"], true, "{}", brief(&st));
    assert_eq!(st["game"], 1, "{}", brief(&st));
    assert_eq!(st["node"]["number"], number, "{}", brief(&st));
    assert_eq!(
        st["node"]["comment"],
        "kept while put aside",
        "{}",
        brief(&st)
    );
    assert!(st["tree"]["nodes"].is_array(), "the tree is sent again");
    assert!(
        st["message"].as_str().unwrap().contains("unsaved changes"),
        "the page is told: {}",
        brief(&st)
    );
    assert!(held(&memory(&app).await) <= budget);
    // Saved: the file holds the edit, and the original is the file as
    // first read (kept aside with it), not the form read back.
    let (s, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": first, "mode": "lossless"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let saved = std::fs::read_to_string(files.join("g0.sgf")).unwrap();
    assert!(saved.contains("C[kept while put aside]"));
    assert_eq!(std::fs::read(files.join("g0.sgf.orig")).unwrap(), original);
    assert_eq!(state(&app, first).await["dirty"], false);
    // Closed: nothing of it is left in the recovery folder.
    post(&app, "/api/close", json!({"session": first})).await;
    assert!(
        names(&recovery)
            .iter()
            .all(|f| !f.starts_with(&format!("{first}-"))),
        "{:?}",
        names(&recovery)
    );
    // A record put aside unchanged is read again from its file.
    let (s, v) = call(&app, "GET", "/api/state?session=2", None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["path"], "g1.sgf");
    assert_eq!(v["dirty"], false);
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn idle_records_are_put_aside_and_come_back_whatever_they_came_from() {
    let d = tmp("idle");
    std::fs::write(d.join("edited.sgf"), "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
    std::fs::write(d.join("clean.sgf"), "(;GM[1]SZ[9];B[gg])").unwrap();
    std::fs::write(d.join("other.sgf"), "(;GM[1]SZ[9])").unwrap();
    // Every record not in use is idle at once.
    let app = serve(&d, usize::MAX, Some(Duration::ZERO), None);
    let edited = open(&app, json!({"path": "edited.sgf"})).await;
    post(
        &app,
        "/api/nav",
        json!({"session": edited, "action": "last"}),
    )
    .await;
    let st = post(
        &app,
        "/api/edit",
        json!({"session": edited, "op": "play", "point": "cg"}),
    )
    .await;
    assert_eq!(st["node"]["move"], "C3", "{}", brief(&st));
    // Another program writes the file meanwhile.
    let first_read = std::fs::read(d.join("edited.sgf")).unwrap();
    std::fs::write(d.join("edited.sgf"), "(;GM[1]SZ[9];B[ee];W[cc];B[aa])").unwrap();
    let clean = open(&app, json!({"path": "clean.sgf"})).await;
    // Pasted: the page's text is its only copy, changed or not.
    let pasted = open(
        &app,
        json!({"name": "pasted.sgf", "text": "(;GM[1]SZ[9]CA[GBK]PB[古力];B[dd])"}),
    )
    .await;
    open(&app, json!({"path": "other.sgf"})).await;
    let m = memory(&app).await;
    assert_eq!(m["sessions"], 1, "{m}");
    assert_eq!(m["parked"], 3, "{m}");
    assert_eq!(m["parked_unsaved"], 2, "the edited and the pasted one: {m}");
    let recovery = PathBuf::from(m["recovery_dir"].as_str().unwrap());
    // The edited one's work and the file as first read (for its `.orig`:
    // the file on disk is not that any more), and the pasted text.
    assert_eq!(
        names(&recovery),
        [
            format!("{edited}-0-edited.sgf"),
            format!("{edited}-1-edited.orig.sgf"),
            format!("{pasted}-2-pasted.sgf")
        ]
    );
    // The edited record: its move is there, unsaved.
    let st = state(&app, edited).await;
    assert_eq!(st["node"]["move"], "C3", "{}", brief(&st));
    assert_eq!(st["node"]["move_number"], 3, "{}", brief(&st));
    assert_eq!(st["dirty"], true);
    // The pasted one: as pasted (read as the text it is, whatever its CA).
    let st = state(&app, pasted).await;
    assert_eq!(st["name"], "pasted.sgf");
    assert_eq!(st["info"]["PB"], "古力", "{}", brief(&st));
    assert_eq!(st["dirty"], false);
    // The clean one, changed on disk meanwhile: read again, and said so.
    std::fs::write(d.join("clean.sgf"), "(;GM[1]SZ[9];B[gg];W[cc])").unwrap();
    let st = post(
        &app,
        "/api/nav",
        json!({"session": clean, "action": "last"}),
    )
    .await;
    assert_eq!(st["node"]["move_number"], 2, "{}", brief(&st));
    assert!(
        st["message"].as_str().unwrap().contains("changed on disk"),
        "{}",
        brief(&st)
    );
    // A save of the edited record still sees the other program's change;
    // overwriting it, the file as first read is kept as `.orig`.
    let (s, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": edited, "mode": "lossless"})),
    )
    .await;
    assert_eq!(
        (s, v["error_kind"].as_str()),
        (400, Some("changed_on_disk"))
    );
    let (s, v) = call(
        &app,
        "POST",
        "/api/save",
        Some(json!({"session": edited, "mode": "lossless", "force": true})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        std::fs::read(d.join("edited.sgf.orig")).unwrap(),
        first_read
    );
    let bak = std::fs::read_to_string(d.join("edited.sgf.bak")).unwrap();
    assert!(bak.contains("B[aa]"), "{bak}");
    let saved = std::fs::read_to_string(d.join("edited.sgf")).unwrap();
    assert!(saved.contains("B[cg]"), "{saved}");
    // Each closed: the recovery folder empties, and goes with the server.
    for id in [edited, clean, pasted] {
        post(&app, "/api/close", json!({ "session": id })).await;
    }
    assert_eq!(names(&recovery), Vec::<String>::new());
    let (s, v) = call(&app, "GET", &format!("/api/state?session={edited}"), None).await;
    assert_eq!((s, v["error_kind"].as_str()), (400, Some("no_session")));
    drop(app);
    assert!(!recovery.exists(), "{}", recovery.display());
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test]
async fn unsaved_work_that_cannot_be_written_aside_stays_in_memory() {
    let d = tmp("unwritable");
    std::fs::write(d.join("a.sgf"), "(;GM[1]SZ[9];B[ee])").unwrap();
    std::fs::write(d.join("b.sgf"), "(;GM[1]SZ[9];B[cc])").unwrap();
    std::fs::write(d.join("c.sgf"), "(;GM[1]SZ[9];B[gg])").unwrap();
    // A recovery folder that cannot be made: under a regular file.
    std::fs::write(d.join("not-a-dir"), "").unwrap();
    let app = serve(&d, 0, None, Some(d.join("not-a-dir/recovery")));
    let a = open(&app, json!({"path": "a.sgf"})).await;
    post(
        &app,
        "/api/edit",
        json!({"session": a, "op": "comment", "text": "mine"}),
    )
    .await;
    let b = open(&app, json!({"path": "b.sgf"})).await;
    // With no budget at all, the unchanged record goes; the edited one stays.
    open(&app, json!({"path": "c.sgf"})).await;
    let m = memory(&app).await;
    assert_eq!(m["sessions"], 2, "{m}");
    assert_eq!(m["parked"], 1, "{m}");
    let st = state(&app, a).await;
    assert_eq!(st["node"]["comment"], "mine", "{}", brief(&st));
    assert_eq!(st["dirty"], true);
    assert_eq!(state(&app, b).await["path"], "b.sgf");
    let _ = std::fs::remove_dir_all(&d);
}
