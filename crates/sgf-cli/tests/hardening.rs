//! Regressions of the hardening issue: inputs that crashed `qipu` or got an
//! unclear answer, one test per item.

mod common;
use common::*;

use std::process::Command;

/// Spans inside a multi-byte character of a legacy charset once panicked in
/// the snippet renderer ("not a char boundary").
#[test]
fn human_check_output_survives_spans_inside_legacy_characters() {
    let inputs: &[&[u8]] = &[
        b"(;GM[1]CA[GBK]SZ[19];B[pd]\xb6U\x8cC;W[dd])",
        b";M[]\xb6U\x8cC",
        b"(;(;)V\xad",
        b"(;CA[Shift_JIS]C[\x83]\x83\x5c\x83;B[aa]\x81)",
        b"(;CA[Big5]PB[\xa4\x5d]\xa4;W[\xa4\x5c])",
        b"(;CA[EUC-KR]\xb0\xa1\xb0;B[\xb0\xa1])",
    ];
    for input in inputs {
        let out = qipu_in(&["check", "-"], Some(input));
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{:?}: {:?}\n{}",
            String::from_utf8_lossy(input),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("UTF-8 output");
        assert!(text.contains("file(s) checked"), "{text}");
    }
}

/// Stray bytes are named by value, not shown as replacement characters.
#[test]
fn stray_bytes_are_shown_as_escapes() {
    let out = qipu_in(&["check", "--json", "-"], Some(b";M[]\xb6U\x8cC"));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("unexpected `\\\\xB6`"), "{s}");
}

#[test]
fn png_is_not_written_to_a_terminal_but_is_to_a_pipe() {
    // A pipe is not a terminal: the PNG goes through.
    let out = qipu_in(&["render", "--format", "png", "-"], Some(b"(;SZ[9];B[ee])"));
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"\x89PNG"));
    // On a terminal (script(1) gives one) it is refused with a message.
    let script = Command::new("script").arg("--version").output();
    if script.is_err() {
        eprintln!("skipped the terminal half: script(1) is not installed");
        return;
    }
    let d = scratch("png");
    let f = d.join("g.sgf");
    std::fs::write(&f, "(;SZ[9];B[ee])").unwrap();
    let cmd = format!(
        "{} render --format png {}",
        env!("CARGO_BIN_EXE_qipu"),
        f.display()
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("PNG\r\n"), "binary written to the terminal");
    assert!(text.contains("binary"), "{text}");
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn a_missing_game_is_an_error_in_every_command() {
    let d = scratch("game");
    let f = d.join("one.sgf");
    std::fs::write(&f, "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
    let f = f.to_str().unwrap();
    let figs = d.join("figs");
    for args in [
        vec!["tree", "--game", "2", f],
        vec!["position", "--game", "2", f],
        vec!["render", "--game", "2", f],
        vec!["figures", "--game", "2", f, "-o", figs.to_str().unwrap()],
        vec!["position", "--game", "0", f],
    ] {
        let out = qipu_in(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no game"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_file_without_a_game_tree_is_an_error() {
    let d = scratch("nogame");
    let prose = d.join("notes.txt");
    std::fs::write(
        &prose,
        "Notes (FF[1]–FF[4], any charset) about SGF [and] Go.\n(not a game) ;B[aa] in prose\n",
    )
    .unwrap();
    let binary = d.join("blob.sgf");
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    bytes.extend_from_slice(b"\x7fELF\0\0(\x01;");
    std::fs::write(&binary, bytes).unwrap();
    let out_dir = d.join("out");
    for f in [&prose, &binary] {
        let f = f.to_str().unwrap();
        for args in [
            vec!["info", f],
            vec!["fmt", f],
            vec!["dump", f],
            vec!["position", f],
            vec!["tree", f],
            vec!["render", f],
            vec!["convert", f],
            vec!["figures", f, "-o", out_dir.to_str().unwrap()],
        ] {
            let out = qipu_in(&args, None);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&format!("{f} is not a game record: it ")),
                "{args:?}: {err}"
            );
            // The prose is read and holds no game tree; the binary is not
            // text, and never read as a record at all.
            let why = if f.ends_with(".txt") {
                "S002"
            } else {
                "not text in any charset"
            };
            assert!(err.contains(why), "{args:?}: {err}");
        }
        // check says so beside the reader's diagnostics: not a game record
        // (status 2, as for a file that cannot be read), not a crash.
        let out = qipu_in(&["check", "--json", f], None);
        assert_eq!(out.status.code(), Some(2));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if f.ends_with(".txt") {
            assert_eq!(v["not_record"], "no-game-tree");
            assert_eq!(v["diagnostics"][0]["code"], "S002");
        } else {
            assert_eq!(v["not_record"], "not-text");
        }
    }
}

#[test]
fn check_caps_diagnostics_per_code() {
    let mut sgf = b"(;GM[1]SZ[19]".to_vec();
    for _ in 0..500 {
        sgf.extend_from_slice(b";B[zz]");
    }
    sgf.push(b')');
    let out = qipu_in(&["check", "-"], Some(&sgf));
    assert_eq!(out.status.code(), Some(1));
    let s = String::from_utf8(out.stdout).unwrap();
    assert_eq!(s.matches("[V017]").count(), 11, "10 shown and a count");
    assert!(s.contains("and 490 more [V017]"), "{s}");
    assert!(s.contains("500 error(s)"), "the summary counts all: {s}");
    let out = qipu_in(&["check", "--max-diagnostics", "0", "-"], Some(&sgf));
    let s = String::from_utf8(out.stdout).unwrap();
    assert_eq!(s.matches("[V017]").count(), 500);
    // JSON keeps every diagnostic unless asked, and says what it left out.
    let out = qipu_in(&["check", "--json", "-"], Some(&sgf));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 500);
    assert!(v.get("omitted").is_none());
    let out = qipu_in(
        &["check", "--json", "--max-diagnostics", "3", "-"],
        Some(&sgf),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 3);
    assert_eq!(v["omitted"]["V017"], 497);
}

/// Move N is the N-th `B`/`W` of the main line in every command, whether
/// or not it can be played.
#[test]
fn one_move_number_everywhere() {
    let sgf = b"(;SZ[9];B[zz];W[dd];B[zz];W[ee])";
    let out = qipu_in(&["info", "--json", "-"], Some(sgf));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["moves"], 4);
    for n in 1..=4 {
        let out = qipu_in(
            &["position", "--json", "--move", &n.to_string(), "-"],
            Some(sgf),
        );
        assert_eq!(out.status.code(), Some(0), "move {n}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["move_number"], n, "move {n}");
        assert_eq!(v["node"], n, "move {n}");
    }
    let out = qipu_in(&["position", "--move", "5", "-"], Some(sgf));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only 4 move(s)"));
    let out = qipu_in(&["export", "--format", "jsonl", "-q", "-"], Some(sgf));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 4);
    assert_eq!(v["moves"][0], serde_json::json!(["B", "zz"]));
}

/// `position` and `render --format ascii` draw the same diagram.
#[test]
fn one_last_move_mark() {
    let sgf = b"(;SZ[9];B[ee];W[cc])";
    let p = qipu_in(&["position", "-"], Some(sgf));
    let r = qipu_in(&["render", "--format", "ascii", "-"], Some(sgf));
    assert_eq!(p.status.code(), Some(0));
    let p = String::from_utf8(p.stdout).unwrap();
    assert_eq!(p, String::from_utf8(r.stdout).unwrap());
    assert!(p.contains(">O"), "{p}");
}

/// A write that fails half-way (a full disk; emulated by a file size limit
/// with SIGXFSZ ignored, so the write returns EFBIG) leaves the original
/// whole and no temporary file behind.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_original_and_no_temporary_file() {
    let d = scratch("full");
    let f = d.join("g.sgf");
    // Repaired output larger than 1 KiB (the limit), input smaller.
    let mut sgf = String::from("(;GM[1]SZ[19]DT[2024/1/5]");
    for i in 0..60 {
        sgf.push_str(&format!(
            ";B[{}{}]",
            (b'a' + i % 19) as char,
            (b'a' + i / 19) as char
        ));
        sgf.push_str(&format!(
            ";W[{}{}]",
            (b'a' + i % 19) as char,
            (b'h' + i / 19) as char
        ));
    }
    sgf.push(')');
    assert!(sgf.len() < 1024);
    std::fs::write(&f, &sgf).unwrap();
    let cmd = format!(
        "trap '' XFSZ; ulimit -f 1; exec {} check --fix --in-place {}",
        env!("CARGO_BIN_EXE_qipu"),
        f.display()
    );
    let out = Command::new("sh").args(["-c", &cmd]).output().unwrap();
    let err =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), sgf);
    assert_only_file(&d, "g.sgf");
}

/// The fix report shows text decoded in the file's charset (`KM[5。5]`),
/// not its raw bytes, and JSON carries the text before and after.
#[test]
fn the_fix_report_shows_decoded_text() {
    let d = scratch("report");
    let f = d.join("gbk.sgf");
    // GBK: 。 is A1 A3; 黑 is BA DA.
    std::fs::write(
        &f,
        b"(;GM[1]FF[4]CA[GBK]SZ[19]PB[\xba\xda]KM[5\xa1\xa35];B[pd])".as_slice(),
    )
    .unwrap();
    let out_file = d.join("out.sgf");
    let out = qipu_in(
        &[
            "check",
            "--fix",
            f.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ],
        None,
    );
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("KM[5。5] corrected to KM[5.5]"), "{s}");
    let fixed = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        fixed.contains("KM[5.5]") && fixed.contains("KM as written: 5。5"),
        "{fixed}"
    );
    let out = qipu_in(
        &[
            "check",
            "--json",
            "--fix",
            f.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let change = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["before"] == "KM[5。5]")
        .expect("a change with its text");
    assert_eq!(change["after"], "KM[5.5]");
}

/// The repaired output is written as the parts of a collection are made: a
/// write that fails after some parts (a full disk) leaves the original
/// whole and no temporary file, and the report still quotes the output
/// right (read back from what was written, then held in memory).
#[cfg(unix)]
#[test]
fn a_write_failing_after_some_parts_still_reports_the_output() {
    let d = scratch("full-parts");
    let f = d.join("g.sgf");
    let mut sgf = String::new();
    for i in 0..80 {
        sgf.push_str(&format!(
            "(;GM[1]FF[4]SZ[19]DT[2024/1/{}]PB[p{i}];B[pd];W[zz];B[pd])\n",
            i % 28 + 1
        ));
    }
    std::fs::write(&f, &sgf).unwrap();
    // Held in memory (standard output): the report to compare with, on
    // standard error since the record takes standard output.
    let held = Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args(["check", "--fix", "--json", "-o", "-", f.to_str().unwrap()])
        .env("QIPU_PART_BYTES", "200")
        .output()
        .unwrap();
    assert!(held.stdout.starts_with(b"(;"));
    let held = String::from_utf8_lossy(&held.stderr).into_owned();
    let want: serde_json::Value = serde_json::from_str(held.lines().last().unwrap()).unwrap();
    assert!(want["diagnostics"].as_array().unwrap().len() > 80, "{want}");
    // Into the file, failing once 2 KiB are written.
    let cmd = format!(
        "trap '' XFSZ; ulimit -f 4; exec {} check --fix --json --in-place {}",
        env!("CARGO_BIN_EXE_qipu"),
        f.display()
    );
    let out = Command::new("sh")
        .args(["-c", &cmd])
        .env("QIPU_PART_BYTES", "200")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let got: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert!(
        got["error"].as_str().unwrap().contains("cannot write"),
        "{got}"
    );
    assert_eq!(got["diagnostics"], want["diagnostics"]);
    assert_eq!(got["changes"], want["changes"]);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), sgf);
    assert_only_file(&d, "g.sgf");
}

/// The folder holds `name` and nothing else (no temporary file left).
fn assert_only_file(dir: &std::path::Path, name: &str) {
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec![name.to_string()]);
}

/// `qipu view` given a device, a FIFO or a file larger than the viewer
/// opens says so and exits, instead of serving a page whose first read
/// hangs or fills memory. (A viewer that started would serve until killed:
/// it is given two minutes, far more than a refusal takes.)
#[cfg(unix)]
#[test]
fn view_refuses_special_and_huge_files() {
    let d = scratch("view-special");
    let fifo = d.join("pipe.sgf");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
    );
    let huge = d.join("huge.sgf");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((32 << 20) + 1)
        .unwrap();
    for (path, why) in [
        (std::path::PathBuf::from("/dev/zero"), "character device"),
        (fifo, "FIFO"),
        (huge, "larger than 32 MiB"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
            .args(["view", "--no-open", "--port", "0"])
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut waited = 0;
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if waited >= 1200 {
                let _ = child.kill();
                let _ = child.wait();
                panic!("qipu view {} did not refuse it: it served", path.display());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
            waited += 1;
        };
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!status.success(), "{}", path.display());
        assert!(err.contains(why), "{}: {err}", path.display());
        assert!(out.stdout.is_empty(), "no URL: {:?}", out.stdout);
    }
}
