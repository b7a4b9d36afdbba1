//! What the writers refuse rather than write with a loss: `check --fix`
//! of a file without a game tree, and `fmt`, `convert` and `check --fix`
//! of a game in a charset that cannot be decoded. A refusal is an error
//! (exit status 2) and leaves the file as it was.

mod common;
use common::*;

/// Review: `check --fix --in-place notes.sgf` of a file without a game
/// tree cut it to 0 bytes with no report.
#[test]
fn check_fix_refuses_a_file_without_a_game_tree() {
    let d = scratch("no-tree");
    let inputs: [&[u8]; 3] = [
        b"just some notes\nabout go\n",
        b"<html><body><p>(a game, soon)</p></body></html>\n",
        b"\x00\x01\x02\xff\xfe\x89PNG binary\n",
    ];
    for (i, bytes) in inputs.iter().enumerate() {
        let src = d.join(format!("notes{i}.sgf"));
        std::fs::write(&src, bytes).unwrap();
        let path = src.to_str().unwrap();
        let out = qipu(&["check", "--fix", "--in-place", path]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert_eq!(std::fs::read(&src).unwrap(), *bytes);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("no SGF game tree"), "{stdout}");
        // Nor to another file, nor to standard output.
        let dest = d.join(format!("out{i}.sgf"));
        let out = qipu(&["check", "--fix", path, "-o", dest.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(!dest.exists());
        let out = qipu(&["check", "--fix", path, "-o", "-"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(!String::from_utf8_lossy(&out.stdout).starts_with('('));
    }
}

/// Review: `CA[ISO-2022-KR]` made every value U+FFFD in fmt, convert and
/// check --fix. Text without the charset's shifts is written exactly;
/// text in them is refused, the file left as it was.
#[test]
fn writers_write_an_undecodable_charset_exactly_or_refuse_it() {
    let plain = b"(;CA[ISO-2022-KR]GM[1]FF[4]SZ[19]PB[Lee Sedol]C[hello];B[pd];W[dd])";
    let out = qipu_in(&["fmt", "-"], Some(plain));
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(
        !s.contains('\u{FFFD}') && s.contains("PB[Lee Sedol]") && s.contains("SZ[19]"),
        "{s}"
    );
    let out = qipu_in(&["convert", "-"], Some(plain));
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{FFFD}'));
    // Plain `check` reports the label.
    let out = qipu_in(&["check", "-"], Some(plain));
    assert!(String::from_utf8_lossy(&out.stdout).contains("C009"));

    let d = scratch("undecodable");
    let shifted: &[u8] = b"(;CA[ISO-2022-KR]GM[1]SZ[19]PB[\x1b$)C\x0e@L<<59\x0f];B[pd])\n";
    let src = d.join("kr.sgf");
    std::fs::write(&src, shifted).unwrap();
    let path = src.to_str().unwrap();
    let dest = d.join("out.sgf");
    for args in [
        vec!["fmt", path],
        vec!["fmt", path, "-o", dest.to_str().unwrap()],
        vec!["convert", path],
        vec!["convert", path, "-o", dest.to_str().unwrap()],
        vec!["check", "--fix", "--in-place", path],
        vec!["check", "--fix", path, "-o", dest.to_str().unwrap()],
    ] {
        let out = qipu(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stdout.starts_with(b"("), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains('\u{FFFD}'));
        assert_eq!(std::fs::read(&src).unwrap(), shifted, "{args:?}");
        assert!(!dest.exists(), "{args:?}");
    }
    let out = qipu(&["check", path]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("error: [C009]"), "{report}");
}
