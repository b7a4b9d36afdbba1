//! End-to-end tests of the `qipu` binary.

mod common;
use common::*;

fn example() -> String {
    format!(
        "{}/../../examples/qipu-example.sgf",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn fmt_writes_canonical_form() {
    let out = qipu_in(&["fmt", &example()], None);
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.starts_with("(;FF[4]\nGM[1]\nSZ[19]\nCA[UTF-8]"), "{s}");
    // idempotent through stdin
    let again = qipu_in(&["fmt", "-"], Some(s.as_bytes()));
    assert_eq!(String::from_utf8(again.stdout).unwrap(), s);
}

#[test]
fn fmt_to_file_and_compressed_points() {
    let dir = std::env::temp_dir().join(format!("qipu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("out.sgf");
    let out = qipu_in(
        &["fmt", "--compress", "-", "-o", out_path.to_str().unwrap()],
        Some(b"(;AB[aa][ba][ab][bb])"),
    );
    assert_eq!(out.status.code(), Some(0));
    let s = std::fs::read_to_string(&out_path).unwrap();
    assert!(s.contains("AB[aa:bb]"), "{s}");
}

#[test]
fn dump_json_shape() {
    let out = qipu_in(
        &["dump", "--json", "-"],
        Some("(;FF[4]PB[黑\\]棋];B[aa](;W[bb])(;W[cc]))".as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["games"][0]["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 4);
    assert_eq!(nodes[0]["parent"], serde_json::Value::Null);
    assert_eq!(nodes[0]["props"][0], serde_json::json!(["FF", ["4"]]));
    assert_eq!(nodes[0]["props"][1], serde_json::json!(["PB", ["黑]棋"]]));
    assert_eq!(nodes[2]["parent"], 1);
    assert_eq!(nodes[3]["parent"], 1);
}

#[test]
fn dump_keeps_the_file_as_it_is() {
    // FF[3] identifiers are shown in FF[4] form, values as written.
    let out = qipu_in(
        &["dump", "--json", "-"],
        Some(b"(;FF[3]AddBlack[aa]C[a\tb];B[tt])"),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["games"][0]["nodes"][0]["props"][1],
        serde_json::json!(["AB", ["aa"]])
    );
    assert_eq!(
        v["games"][0]["nodes"][0]["props"][2],
        serde_json::json!(["C", ["a\tb"]])
    );
}

#[test]
fn unreadable_input_and_bad_usage_exit_2() {
    let out = qipu_in(&["fmt", "/nonexistent/file.sgf"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let out = qipu_in(&["fmt"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = qipu_in(&["nosuchcommand"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diagnostics_go_to_stderr() {
    let out = qipu_in(&["fmt", "-"], Some(b"(;GM[1];B[aa] -- ;W[bb]"));
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("S004") && err.contains("S006"), "{err}");
    let out = qipu_in(&["fmt", "-q", "-"], Some(b"(;GM[1];B[aa] -- ;W[bb]"));
    assert!(out.stderr.is_empty());
}

#[test]
fn help_lists_every_exit_status() {
    let out = qipu_in(&["--help"], None);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for s in ["0 success", "1 `check`", "2 an input", "3 `score --engine`"] {
        assert!(help.contains(s), "{s} in {help}");
    }
}

#[test]
fn every_command_has_help() {
    for c in ["check", "fmt", "dump", "info", "position", "tree"] {
        let out = qipu_in(&[c, "--help"], None);
        assert_eq!(out.status.code(), Some(0), "{c}");
        assert!(!out.stdout.is_empty());
    }
}

#[test]
fn info_json_contract() {
    let sgf = "(;GM[1]FF[4]SZ[9:7]CA[UTF-8]PB[黑\\]方]PW[White]RE[B+3.5]KM[6.5]DT[2024-01-05]GC[line one\nline\ttwo];B[ee];W[cc](;B[gg])(;B[dd];W[ff]))";
    let out = qipu_in(&["info", "--json", "-"], Some(sgf.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let g = &v["games"][0];
    assert_eq!(g["size"], serde_json::json!([9, 7]));
    assert_eq!(g["moves"], 3);
    assert_eq!(g["charset"], "UTF-8");
    assert_eq!(g["info"]["PB"], "黑]方");
    assert_eq!(g["info"]["RE"], "B+3.5");
    assert_eq!(g["info"]["GC"], "line one\nline two");
    assert!(g["info"].get("SZ").is_none());
}

#[test]
fn position_json_contract() {
    let sgf = "(;GM[1]FF[4]SZ[5]AB[aa];W[ba];B[bb];W[ab];B[ca];W[];B[aa])";
    let out = qipu_in(&["position", "--json", "-"], Some(sgf.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["size"], serde_json::json!([5, 5]));
    // W[ab] captures the corner stone; B[aa] later captures W[ba].
    assert_eq!(v["rows"][0], "X.X..");
    assert_eq!(v["rows"][1], "OX...");
    assert_eq!(v["move_number"], 6);
    assert_eq!(v["to_play"], "W");
    assert_eq!(v["captures"], serde_json::json!({"B": 1, "W": 1}));
    let out = qipu_in(
        &["position", "--json", "--move", "0", "-"],
        Some(sgf.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"][0], "X....");
    assert_eq!(v["move_number"], 0);
    assert_eq!(v["to_play"], "W");
    let out = qipu_in(
        &["position", "--json", "--node", "2", "-"],
        Some(sgf.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["move_number"], 2);
    let out = qipu_in(&["position", "--move", "9", "-"], Some(sgf.as_bytes()));
    assert_eq!(out.status.code(), Some(2));
    let out = qipu_in(&["position", "-"], Some(sgf.as_bytes()));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(
        s.contains("A B C D E") && s.contains("captures: Black 1 White 1"),
        "{s}"
    );
}

#[test]
fn tree_draws_variations() {
    let out = qipu_in(&["tree", &example()], None);
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("├─ 5 B F3 [C]"), "{s}");
    assert!(s.contains("└─ 5 B C6 [C]"), "{s}");
    assert!(s.contains("\"Opening\""));
}

fn tmpdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn check_exit_codes_and_json_contract() {
    let out = qipu_in(&["check", &example()], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let bad = "(;FF[4]GM[1]\n;B[aa]W[bb]\n;DT[2024/1/5])";
    let out = qipu_in(&["check", "--json", "-"], Some(bad.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(line.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["path"], "<stdin>");
    let d = v["diagnostics"].as_array().unwrap();
    let f004 = d.iter().find(|x| x["code"] == "F004").expect("F004");
    assert_eq!(f004["severity"], "error");
    assert_eq!(f004["line"], 2);
    assert_eq!(f004["column"], 7);
    assert_eq!(f004["start"], 19);
    assert_eq!(f004["end"], 24);
    assert!(f004["message"].as_str().unwrap().contains("B"));
    for x in d {
        for k in [
            "code", "severity", "message", "line", "column", "start", "end",
        ] {
            assert!(x.get(k).is_some(), "{k} missing in {x}");
        }
    }
    // silencing and warnings as errors
    let out = qipu_in(
        &["check", "-A", "F004,F001", "-A", "bad-date", "--json", "-"],
        Some(bad.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["code"] != "F004" && x["code"] != "V010")
    );
    let warn_only = "(;FF[4]GM[1];B[aa];W[aa])";
    let out = qipu_in(&["check", "--json", "-W", "-"], Some(warn_only.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    assert_eq!(out.status.code(), Some(1));
    // unreadable and bad usage
    assert_eq!(
        qipu_in(&["check", "/nonexistent.sgf"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        qipu_in(&["check", "-A", "NOPE", "-"], Some(b"(;)"))
            .status
            .code(),
        Some(2)
    );
    assert_eq!(qipu_in(&["check"], None).status.code(), Some(2));
}

#[test]
fn check_human_output_shows_the_line_with_a_caret() {
    let out = qipu_in(&["check", "-"], Some(b"(;FF[4]GM[1]\n;B[aa]W[bb])"));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(
        s.contains("F004") && s.contains(";B[aa]W[bb])") && s.contains('^'),
        "{s}"
    );
    assert!(s.contains("1 file(s) checked: 1 error(s)"), "{s}");
}

#[test]
fn check_directories_recursively() {
    let d = tmpdir("dir");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("a.sgf"), "(;FF[4]GM[1];B[aa])").unwrap();
    std::fs::write(d.join("sub/b.SGF"), "(;FF[4]GM[1];B[aa]W[bb])").unwrap();
    std::fs::write(d.join("sub/notes.txt"), "not a record").unwrap();
    // A link back up the tree must not trap the walk.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&d, d.join("sub/loop")).unwrap();
    let out = qipu_in(&["check", "--json", d.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["path"].as_str().unwrap().ends_with("a.sgf"));
    assert!(lines[1]["path"].as_str().unwrap().ends_with("b.SGF"));
    assert!(lines[0]["diagnostics"].as_array().unwrap().is_empty());
}

#[test]
fn check_fix_writes_a_clean_file() {
    let d = tmpdir("fix");
    let src = d.join("in.sgf");
    std::fs::write(&src, "(;FF[3]GM[1]SZ[19:19]DT[2024/1/5]RE[Black wins by resignation]\n;AB[dd]B[pp]C[keep me]\n;B[CC]W[ee])").unwrap();
    let out_path = d.join("out.sgf");
    let out = qipu_in(
        &[
            "check",
            "--fix",
            src.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ],
        None,
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("fixed [V008]") && report.contains("fixed [F003]"),
        "{report}"
    );
    let fixed = std::fs::read_to_string(&out_path).unwrap();
    assert!(
        fixed.contains("SZ[19]") && fixed.contains("DT[2024-01-05]") && fixed.contains("RE[B+R]"),
        "{fixed}"
    );
    assert!(fixed.contains("keep me"));
    let again = qipu_in(&["check", out_path.to_str().unwrap()], None);
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    // in place, with a backup
    let out = qipu_in(
        &[
            "check",
            "--fix",
            "--in-place",
            "--backup",
            src.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&src).unwrap(), fixed);
    assert!(d.join("in.sgf.bak").exists());
    // --fix needs a destination
    assert_eq!(
        qipu_in(&["check", "--fix", src.to_str().unwrap()], None)
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn check_fix_variation_level_only_when_asked() {
    let d = tmpdir("varlevel");
    let src = d.join("in.sgf");
    std::fs::write(&src, "(;FF[4]GM[1]SZ[9];B[ee](;W[cc])(;B[cg]))").unwrap();
    let out_path = d.join("out.sgf");
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "--fix", src.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", out_path.to_str().unwrap()]);
        let out = qipu_in(&args, None);
        assert_eq!(out.status.code(), Some(0));
        std::fs::read_to_string(&out_path).unwrap()
    };
    // By default the tree is kept as written.
    assert!(run(&[]).contains(";B[ee]\n(;W[cc])\n(;B[cg]))"));
    // With the option, B[cg] becomes an alternative to B[ee].
    assert!(run(&["--variation-level"]).contains("(;B[ee]\n;W[cc])\n(;B[cg]))"));
}
