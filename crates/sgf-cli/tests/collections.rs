//! One reader of collections: `stats` and `export` read the members of a
//! `.zip`, `.tar.gz` and `.7z` as files like any other, and agree with the
//! same files read from a folder. Review: a `.zip` gave one garbage game
//! with 499 errors, a `.tar.gz` or `.7z` zero games and no error.

mod common;
use common::*;

#[path = "../../../testsupport/archives.rs"]
mod archives;
use archives::{gz, tar_of, zip_of};

fn db_fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("testdata/db").join(name)).unwrap()
}

/// `stats --json` of `path` and what it says on standard error; one input
/// holds no game tree: status 2.
fn stats(path: &str) -> (serde_json::Value, String) {
    let out = qipu(&["stats", "--json", "-q", path]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `export`'s lines with the file named by its last component (the folder's
/// `DIR/a.sgf` and the archive's `ARCHIVE!a.sgf` are the same file).
fn export(path: &str, status: i32) -> Vec<String> {
    let out = qipu(&["export", "-q", path]);
    assert_eq!(out.status.code(), Some(status), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let file = v["file"].as_str().unwrap().to_string();
            let base = file.rsplit(['/', '!']).next().unwrap().to_string();
            v["file"] = base.into();
            v.to_string()
        })
        .collect()
}

#[test]
fn archives_read_as_the_folder_of_their_files() {
    let d = scratch("collections");
    let files: [(&str, Vec<u8>); 3] = [
        ("a.sgf", db_fixture("variations.sgf")),
        ("b.sgf", db_fixture("dup-a.sgf")),
        ("n.sgf", b"notes, not a record".to_vec()),
    ];
    let folder = d.join("plain");
    std::fs::create_dir_all(&folder).unwrap();
    for (n, b) in &files {
        std::fs::write(folder.join(n), b).unwrap();
    }
    let members: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, &b[..])).collect();
    std::fs::write(d.join("g.zip"), zip_of(&members)).unwrap();
    std::fs::write(d.join("g.tar.gz"), gz(&tar_of(&members))).unwrap();
    std::fs::write(d.join("g.tar"), tar_of(&members)).unwrap();

    let (want, _) = stats(folder.to_str().unwrap());
    assert_eq!(want["files"], 3);
    assert_eq!(want["games"], 6);
    assert_eq!(want["not_records"], 1);
    let want_lines = export(folder.to_str().unwrap(), 2);
    assert_eq!(want_lines.len(), 6);
    for a in ["g.zip", "g.tar.gz", "g.tar"] {
        let p = d.join(a);
        let (got, err) = stats(p.to_str().unwrap());
        // The failure names the member inside the archive.
        assert!(err.contains(&format!("{a}!n.sgf")), "{err}");
        assert_eq!(got, want, "{a}");
        assert_eq!(export(p.to_str().unwrap(), 2), want_lines, "{a}");
    }
    // An archive inside a folder is walked into.
    std::fs::write(folder.join("more.zip"), zip_of(&members)).unwrap();
    let (both, _) = stats(folder.to_str().unwrap());
    assert_eq!(both["games"], 12);
    assert_eq!(both["files"], 6);

    // 7z: `dup-a.sgf` as `pro/a.sgf`, a game `pro/b.sgf` and a text file.
    let seven = repo().join("testdata/db/games.7z");
    let lines = export(seven.to_str().unwrap(), 0);
    let a_lines = {
        let f = d.join("a-only");
        std::fs::create_dir_all(&f).unwrap();
        std::fs::write(f.join("a.sgf"), db_fixture("dup-a.sgf")).unwrap();
        let out = qipu(&["export", "-q", f.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        let mut one: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        one["file"] = "a.sgf".into();
        one.to_string()
    };
    assert!(lines.contains(&a_lines), "{lines:?}");
}

#[test]
fn a_damaged_archive_is_an_error_named_with_its_path() {
    let d = scratch("collections-damaged");
    let p = d.join("broken.zip");
    std::fs::write(&p, b"PK\x03\x04 not really").unwrap();
    for cmd in ["stats", "export"] {
        let out = qipu(&[cmd, "-q", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("broken.zip"), "{cmd}: {err}");
    }
}
