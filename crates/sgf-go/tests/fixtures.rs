//! Snapshot tests of replays: for each `testdata/go/NAME.sgf`, `NAME.replay`
//! holds the events of every node on the main line and the final position
//! (board, captures, move number, player to move).
//! `QIPU_UPDATE_SNAPSHOTS=1 cargo test -p sgf-go --test fixtures` rewrites them.

use std::fmt::Write as _;
use std::path::Path;

use sgf_go::Cursor;

fn snapshot(bytes: &[u8]) -> String {
    let doc = sgf_core::parse(bytes).document;
    let mut s = String::new();
    let mut c = Cursor::new(&doc, 0);
    let mut i = 0;
    loop {
        for e in &c.report().events {
            let _ = writeln!(s, "node {i}: {} {:?}", e.ident, e.event);
        }
        if !c.next(&doc) {
            break;
        }
        i += 1;
    }
    let p = c.position();
    let _ = writeln!(
        s,
        "size {} move {} to_play {} captures B={} W={} ko={:?}",
        p.board.size(),
        p.move_number,
        c.next_player(&doc).as_str(),
        p.captures[0],
        p.captures[1],
        p.ko
    );
    for r in p.rows() {
        s.push_str(&r);
        s.push('\n');
    }
    s
}

#[test]
fn go_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/go");
    let update = std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    let mut failures = Vec::new();
    for f in files {
        let snap = snapshot(&std::fs::read(&f).unwrap());
        let sp = f.with_extension("replay");
        match std::fs::read_to_string(&sp) {
            Ok(old) if old == snap => {}
            _ if update => std::fs::write(&sp, snap).unwrap(),
            _ => failures.push(format!("{}: snapshot differs or is missing", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
