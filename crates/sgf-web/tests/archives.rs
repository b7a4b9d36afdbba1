//! Records inside archives of the served folder: listed as
//! `ARCHIVE!MEMBER` (as `qipu stats`, `export` and Python name them),
//! opened read-only, and read as the plain file is.

use serde_json::{Value, json};

mod support;
use support::{call, post, serve, tmp};

#[path = "../../../testsupport/archives.rs"]
mod archives;

const GAME: &[u8] =
    b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Black]PW[White]KM[6.5];B[ee]C[hi];W[cc];B[zz])\n";

/// What a state shows of its record, for comparing two readings.
fn shown(st: &Value) -> Value {
    json!({
        "info": st["info"],
        "diagnostics": st["diagnostics"],
        "nodes": st["node"]["number"],
        "comment": st["node"]["comment"],
    })
}

#[tokio::test]
async fn records_in_archives_are_listed_opened_and_read_as_the_plain_file() {
    let dir = tmp("archives");
    std::fs::write(dir.join("plain.sgf"), GAME).unwrap();
    // A `!` in a plain file's name, and in an archive's, is part of the name.
    std::fs::write(dir.join("wow!.sgf"), GAME).unwrap();
    std::fs::write(dir.join("a!b.zip"), archives::zip_of(&[("d.sgf", GAME)])).unwrap();
    std::fs::write(
        dir.join("games.zip"),
        archives::zip_of(&[("kgs/a.sgf", GAME), ("notes.txt", b"not a record")]),
    )
    .unwrap();
    std::fs::write(dir.join("games.tar"), archives::tar_of(&[("b.sgf", GAME)])).unwrap();
    std::fs::write(
        dir.join("games.tar.gz"),
        archives::gz(&archives::tar_of(&[("c.sgf", GAME)])),
    )
    .unwrap();
    // 7z (testdata/db/games.7z): `pro/a.sgf`, `pro/b.sgf` and a text file.
    let seven = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/db/games.7z");
    std::fs::copy(&seven, dir.join("more.7z")).unwrap();
    let app = serve(&dir);
    let st = post(&app, "/api/start", json!({})).await;
    let files: Vec<&str> = st["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "a!b.zip!d.sgf",
            "games.tar!b.sgf",
            "games.tar.gz!c.sgf",
            "games.zip!kgs/a.sgf",
            "more.7z!pro/a.sgf",
            "more.7z!pro/b.sgf",
            "plain.sgf",
            "wow!.sgf"
        ]
    );
    // The 7z's members read as they are, the text file left out.
    let seven_a = post(&app, "/api/open", json!({"path": "more.7z!pro/b.sgf"})).await;
    assert_eq!(seven_a["path"], "more.7z!pro/b.sgf");
    assert!(seven_a["error"].is_null(), "{seven_a}");
    let plain = post(&app, "/api/open", json!({"path": "plain.sgf"})).await;
    let bang = post(&app, "/api/open", json!({"path": "wow!.sgf"})).await;
    assert_eq!(shown(&bang), shown(&plain));
    assert_eq!(bang["path"], "wow!.sgf");
    for member in [
        "a!b.zip!d.sgf",
        "games.zip!kgs/a.sgf",
        "games.tar!b.sgf",
        "games.tar.gz!c.sgf",
    ] {
        let st = post(&app, "/api/open", json!({"path": member})).await;
        assert_eq!(shown(&st), shown(&plain), "{member}");
        assert_eq!(st["path"], member, "the file list marks it");
        // Read-only: its archive is not written into.
        let archive = dir.join(&member[..member.rfind('!').unwrap()]);
        let before = std::fs::read(&archive).unwrap();
        let (status, r) = call(
            &app,
            "POST",
            "/api/save",
            Some(json!({"session": st["session"], "mode": "lossless"})),
        )
        .await;
        assert_ne!(status, 200, "{member}: {r}");
        assert!(
            r["error"].as_str().unwrap_or("").contains("Save as"),
            "{member}: {r}"
        );
        assert_eq!(std::fs::read(&archive).unwrap(), before);
    }
    // A member that is not there, or not a record, or outside the folder.
    for (path, says) in [
        ("games.zip!kgs/none.sgf", "no such file"),
        ("games.zip!notes.txt", "not a record file"),
        ("../games.zip!a.sgf", "not a path under"),
    ] {
        let (status, r) = call(&app, "POST", "/api/open", Some(json!({"path": path}))).await;
        assert_ne!(status, 200, "{path}");
        assert!(
            r["error"].as_str().unwrap_or("").contains(says),
            "{path}: {r}"
        );
    }
}

/// `qipu view ARCHIVE` serves the archive's folder and opens its first
/// record file; `qipu view ARCHIVE!MEMBER` opens that one (issue 40: the
/// archive itself was opened as a record and refused).
#[tokio::test]
async fn an_archive_or_a_member_named_on_the_command_line_opens_its_record() {
    let dir = tmp("archive-named");
    let other = b"(;GM[1]FF[4]SZ[9]PB[Other];B[cc])\n";
    std::fs::write(
        dir.join("games.zip"),
        archives::zip_of(&[
            ("notes.txt", b"not a record"),
            ("a/b.sgf", GAME),
            ("c.sgf", other),
        ]),
    )
    .unwrap();
    std::fs::write(dir.join("plain.sgf"), other).unwrap();
    let app = serve(&dir.join("games.zip"));
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["path"], "games.zip!a/b.sgf", "{st}");
    assert_eq!(st["info"]["PB"], "Black", "{st}");
    let files = st["files"].as_array().unwrap();
    assert!(files.iter().any(|f| f == "games.zip!c.sgf"), "{st}");
    let app = serve(&dir.join("games.zip!c.sgf"));
    let st = post(&app, "/api/start", json!({})).await;
    assert_eq!(st["path"], "games.zip!c.sgf", "{st}");
    assert_eq!(st["info"]["PB"], "Other", "{st}");
    // A member that is not there: said, not opened as something else.
    let app = serve(&dir.join("games.zip!missing.sgf"));
    let st = call(&app, "POST", "/api/start", Some(json!({}))).await;
    assert!(st.1.to_string().contains("missing.sgf"), "{}", st.1);
}
