//! Memory (issue 24): a record of one long main line opens within about
//! three times its size, however many nodes it has, and stays so when
//! edited and walked to its end. The tree is sent a window at a time and
//! numbered without a table per node; undo reads the record again only
//! for a repair; the cursor keeps a bounded way back. Alone in its test
//! binary, so that the process's peak is the server's.

use serde_json::json;

#[path = "../../../testsupport/legal_line.rs"]
mod legal_line;

mod support;
use support::{call, post, serve, tmp};

/// The process's peak and current resident sizes.
fn peak_and_rss() -> Option<(usize, usize)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = |k: &str| -> Option<usize> {
        let line = status.lines().find(|l| l.starts_with(k))?;
        Some(line.split_whitespace().nth(1)?.parse::<usize>().ok()? * 1024)
    };
    Some((kb("VmHWM:")?, kb("VmRSS:")?))
}

#[tokio::test]
async fn a_long_line_opens_within_three_times_its_size() {
    let dir = tmp("memory-line");
    let size = {
        let s = legal_line::legal_line(1_000_000);
        std::fs::write(dir.join("line.sgf"), &s).unwrap();
        s.len()
    };
    let app = serve(&dir.join("line.sgf"));
    let before = peak_and_rss();
    let (status, st) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(status, 200);
    let s = st["session"].clone();
    // The answer holds the tree around the node shown, not every node.
    assert_eq!(st["tree"]["width"], 1_000_001);
    assert!(st["tree"]["nodes"].as_array().unwrap().len() <= 64);
    // A move played and undone: no copy of the record for the undo.
    let v = st["tree"]["version"].clone();
    post(
        &app,
        "/api/edit",
        json!({"session": s, "tree_version": v, "op": "play", "point": "ss", "force": true}),
    )
    .await;
    let st = post(&app, "/api/edit", json!({"session": s, "op": "undo"})).await;
    assert_eq!(st["can_redo"], true);
    // To the end and a step back: the cursor keeps a bounded way back.
    let st = post(&app, "/api/nav", json!({"session": s, "action": "last"})).await;
    assert_eq!(st["node"]["depth"], 1_000_000);
    let st = post(&app, "/api/nav", json!({"session": s, "action": "prev"})).await;
    assert_eq!(st["node"]["depth"], 999_999);
    let after = peak_and_rss();
    let _ = std::fs::remove_dir_all(&dir);
    let (Some((_, rss_before)), Some((peak, _))) = (before, after) else {
        eprintln!("no /proc/self/status: memory not measured");
        return;
    };
    let grew = peak.saturating_sub(rss_before);
    eprintln!(
        "file {:.1} MB; resident {:.1} MB before, peak {:.1} MB after opening, a move and its undo, the end ({:.2}x)",
        size as f64 / 1048576.0,
        rss_before as f64 / 1048576.0,
        peak as f64 / 1048576.0,
        grew as f64 / size as f64
    );
    // Three times the file, and what any record's opening costs (the
    // threads' first allocations): 8 MB. The tree as it was sent before
    // (every node's layout) took 18 times the file.
    assert!(grew <= 3 * size + (8 << 20), "{grew} bytes over {size}");
}
