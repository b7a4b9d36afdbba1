//! Memory (issue 24): a record with a problem on every move opens within
//! about three times its size. The checks gather their diagnostics with
//! the bound of what the page is shown (`sgf_core::diag::Capped`), so
//! 300,000 illegal moves are not held as 300,000 diagnostics first. Alone
//! in its test binary, so that the process's peak is the server's.

use serde_json::json;

mod support;
use support::{call, serve, tmp};

/// The process's peak resident size.
fn peak() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<usize>().ok()? * 1024)
}

#[tokio::test]
async fn a_record_with_an_illegal_move_on_every_move_opens_within_three_times_its_size() {
    let dir = tmp("memory-problems");
    // White plays on Black's stone, 150,000 times: a problem (G001) on
    // every other move, and the others a plain move.
    let mut s = String::from("(;GM[1]FF[4]SZ[19];B[pd]");
    for _ in 0..150_000 {
        s.push_str(";W[pd];B[pd]");
    }
    s.push(')');
    std::fs::write(dir.join("every.sgf"), &s).unwrap();
    let size = s.len();
    drop(s);
    let app = serve(&dir.join("every.sgf"));
    let before = peak();
    let (status, st) = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert_eq!(status, 200);
    // The page is shown the first 500, in file order.
    let diags = st["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 500, "{}", st["diagnostics"]);
    assert!(diags.iter().all(|d| d["code"] == "G001"));
    let starts: Vec<u64> = diags.iter().map(|d| d["start"].as_u64().unwrap()).collect();
    assert!(starts.is_sorted());
    assert_eq!(starts[0], 26, "the value of the first W[pd]");
    let (Some(before), Some(after)) = (before, peak()) else {
        eprintln!("no /proc/self/status here: memory not measured");
        return;
    };
    let grew = after.saturating_sub(before);
    eprintln!("{size} bytes: the peak grew by {grew} bytes");
    // Three times the file, and what any record's opening costs (the
    // threads' first allocations, as in memory_line.rs): 8 MB. Before the
    // bound, the diagnostics alone took about 45 times the file.
    assert!(
        grew <= 3 * size + (8 << 20),
        "{grew} bytes for a {size}-byte record"
    );
}
