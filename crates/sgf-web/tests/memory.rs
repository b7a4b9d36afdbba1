//! Memory (issue 15): after 200 edits in a 10,000-game collection the
//! server holds at most twice the file's size plus 50 MB. Undo records
//! changes, not copies; a large collection is kept as its bytes with only
//! the parts shown or edited parsed. Alone in its test binary, so that the
//! process's resident size is the server's.

use serde_json::json;

mod support;
use support::{get, post, serve, tmp};

fn rss_bytes() -> Option<usize> {
    sgf_web::rss_bytes().map(|b| b as usize)
}

/// A 10,000-game collection: 150 moves a game, player names, a comment.
fn collection() -> Vec<u8> {
    let mut out = String::with_capacity(12 << 20);
    for g in 0..10_000usize {
        out.push_str(&format!(
            "(;GM[1]FF[4]SZ[19]PB[Black {g}]PW[White {g}]BR[5d]WR[6d]DT[2006-01-01]RE[W+R]KM[6.5]\n"
        ));
        for k in 0..150usize {
            let i = (k * 7 + g) % 361;
            let c = if k % 2 == 0 { 'B' } else { 'W' };
            out.push_str(&format!(
                ";{c}[{}{}]",
                (b'a' + (i % 19) as u8) as char,
                (b'a' + (i / 19) as u8) as char
            ));
            if k % 10 == 9 {
                out.push('\n');
            }
        }
        if g % 7 == 0 {
            out.push_str("C[a comment on the last move]");
        }
        out.push_str(")\n");
    }
    out.into_bytes()
}

#[tokio::test]
async fn two_hundred_edits_in_a_10000_game_collection() {
    let dir = tmp("memory");
    let size = {
        let bytes = collection();
        std::fs::write(dir.join("big.sgf"), &bytes).unwrap();
        bytes.len()
    };
    let app = serve(&dir);
    let before = rss_bytes();
    let st = post(&app, "/api/open", json!({"path": "big.sgf"})).await;
    let s = st["session"].clone();
    assert_eq!(st["games"], 10_000);
    let opened = rss_bytes();
    // 200 edits over 20 games: moves played, comments, game info.
    for e in 0..200usize {
        if e % 10 == 0 {
            let g = (e * 487) % 10_000;
            post(
                &app,
                "/api/nav",
                json!({"session": s, "action": "game", "game": g}),
            )
            .await;
            post(
                &app,
                "/api/nav",
                json!({"session": s, "action": "move", "move": 30}),
            )
            .await;
        }
        let body = match e % 3 {
            0 => json!({"session": s, "op": "play", "point": "ss", "force": true}),
            1 => json!({"session": s, "op": "comment", "text": format!("edit {e}")}),
            _ => json!({"session": s, "op": "info", "props": {"EV": format!("Cup {e}")}}),
        };
        let st = post(&app, "/api/edit", body).await;
        assert!(st.get("message").is_none(), "{st}");
    }
    let st = post(&app, "/api/nav", json!({"session": s, "action": "next"})).await;
    assert_eq!(st["can_undo"], true);
    let undo_bytes = st["undo_bytes"].as_u64().unwrap();
    let edited = rss_bytes();
    let held_edited = get(&app, "/api/memory").await["held_bytes"]
        .as_u64()
        .unwrap() as usize;
    // Re-opening the file six times, each replacing the last, frees them.
    let mut s = s;
    for _ in 0..6 {
        let st = post(&app, "/api/open", json!({"path": "big.sgf", "replace": s})).await;
        s = st["session"].clone();
    }
    let m = get(&app, "/api/memory").await;
    assert_eq!(m["sessions"], 1, "the records replaced are freed: {m}");
    let held_after = m["held_bytes"].as_u64().unwrap() as usize;
    let after = rss_bytes();
    let _ = std::fs::remove_dir_all(&dir);
    let goal = 2 * size + (50 << 20);
    // The server's own figure: the file's bytes, the parts parsed, undo.
    assert!(held_edited <= goal, "{held_edited} bytes held");
    assert!(held_edited < size + (4 << 20), "{held_edited} bytes held");
    assert!(held_after < size + (4 << 20), "{held_after} bytes held");
    let (Some(before), Some(opened), Some(edited), Some(after)) = (before, opened, edited, after)
    else {
        eprintln!("no /proc/self/status: memory not measured");
        return;
    };
    let mb = |b: usize| b as f64 / 1048576.0;
    eprintln!(
        "file {:.1} MB; resident: {:.1} MB before, {:.1} MB opened, {:.1} MB after 200 edits, \
         {:.1} MB after 6 re-opens; held by the server {:.1} MB after the edits, {:.1} MB after \
         the re-opens; undo {} bytes",
        mb(size),
        mb(before),
        mb(opened),
        mb(edited),
        mb(after),
        mb(held_edited),
        mb(held_after),
        undo_bytes
    );
    assert!(undo_bytes < 1 << 20, "undo holds {undo_bytes} bytes");
    assert!(
        edited <= goal,
        "{:.1} MB resident after 200 edits for a {:.1} MB file",
        mb(edited),
        mb(size)
    );
    // Re-opened six times: not six copies (file buffers are allocated on
    // one thread, so the allocator reuses the memory of the one freed).
    assert!(
        after <= goal && after <= edited + 2 * size,
        "{:.1} MB resident after re-opening a {:.1} MB file six times",
        mb(after),
        mb(size)
    );
}
