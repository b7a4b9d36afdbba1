//! `qipu convert`, and every command on the other formats and dialects.

mod common;
use common::*;

use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn convert_gib_to_stdout() {
    let out = qipu_in(&["convert", &fixture("gib/china_gbk.gib")], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = stdout(&out);
    assert!(s.starts_with("(;FF[4]\nCA[UTF-8]\nGM[1]\nSZ[19]\n"), "{s}");
    for want in ["PB[张三]", "BR[5d]", "RE[B+R]", "KM[7.5]", "GIBHEADER["] {
        assert!(s.contains(want), "{want} in {s}");
    }
    // The output is SGF that qipu reads back as SGF.
    let again = qipu_in(&["fmt", "-"], Some(s.as_bytes()));
    assert_eq!(stdout(&again), s);
}

#[test]
fn diagnostics_of_converted_files_point_at_the_input_line() {
    let f = fixture("gib/global_handicap3.gib");
    let out = qipu_in(&["convert", &f], None);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("global_handicap3.gib:27:1: warning[R002]"),
        "{err}"
    );
    assert!(
        err.contains("global_handicap3.gib:28:1: warning[R002]: unknown opcode `WIT`"),
        "{err}"
    );
    let out = qipu_in(&["convert", "-q", &f], None);
    assert!(out.stderr.is_empty());
}

#[test]
fn convert_several_inputs_into_a_directory() {
    let d = scratch("dir");
    let out = qipu_in(
        &[
            "convert",
            &fixture("gib/korea_euckr.gib"),
            &fixture("ngf/gi_gbk.ngf"),
            &fixture("ugf/review.ugi"),
            &fixture("sgf/fox_chinese.sgf"),
            "-d",
            d.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "fox_chinese.sgf",
            "gi_gbk.sgf",
            "korea_euckr.sgf",
            "review.sgf"
        ]
    );
    let review = std::fs::read_to_string(d.join("review.sgf")).unwrap();
    assert!(review.contains("C[white 1k : the variation]"));
    // The Fox dialect is normalised on the way.
    let fox = std::fs::read_to_string(d.join("fox_chinese.sgf")).unwrap();
    assert!(
        fox.contains("KM[7.5]") && fox.contains("KM as written: 375"),
        "{fox}"
    );
    // The same stem twice does not overwrite.
    let out = qipu_in(
        &[
            "convert",
            &fixture("gib/korea_euckr.gib"),
            &fixture("gib/korea_euckr.gib"),
            "-q",
            "-d",
            d.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(d.join("korea_euckr-2.sgf").is_file());
}

#[test]
fn several_inputs_without_a_directory_make_one_collection() {
    let d = scratch("collection");
    let o = d.join("all.sgf");
    let out = qipu_in(
        &[
            "convert",
            &fixture("ngf/even.ngf"),
            &fixture("ugf/sjis_handicap.ugf"),
            "-q",
            "-o",
            o.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read(&o).unwrap();
    let p = sgf_core::parse(&text);
    assert_eq!(p.document.game_count(), 2);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn unreadable_inputs_exit_2_and_the_others_are_converted() {
    let out = qipu_in(
        &[
            "convert",
            &fixture("ugf/crypt.ugf"),
            "/nonexistent/file.gib",
            &fixture("ngf/even.ngf"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("obfuscated"), "{err}");
    assert!(err.contains("cannot read /nonexistent/file.gib"), "{err}");
    assert!(stdout(&out).contains("PW[Kim Soo]"));
    // Bad usage.
    assert_eq!(qipu_in(&["convert"], None).status.code(), Some(2));
    let out = qipu_in(&["convert", "x", "-o", "a", "-d", "b"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_format_can_be_forced() {
    // Sniffed, an NGF body without its header would be read as garbage;
    // forced, it is read as NGF.
    let body = b"PMABBQEEQ\nPMACWEQQE\n";
    let out = qipu_in(&["convert", "-q", "--from", "ngf", "-"], Some(body));
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains(";B[pd]\n;W[dp])"), "{}", stdout(&out));
    let out = qipu_in(&["convert", "--from", "xyz", "-"], Some(body));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown format `xyz`"));
    // A format Qipu knows of but cannot read says so.
    let out = qipu_in(&["convert", "--from", "bdx", "-"], Some(body));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("format not supported"));
}

#[test]
fn fmt_normalises_dialects_and_dump_shows_the_file_as_it_is() {
    let f = fixture("sgf/nihon_kiin_sjis.sgf");
    let out = qipu_in(&["fmt", "-q", &f], None);
    let s = stdout(&out);
    assert!(
        s.contains("EV[第10回テスト代表]") && s.contains("KM[6.5]") && s.contains("RE[W+R]"),
        "{s}"
    );
    assert!(!s.contains("KO["), "{s}");
    let out = qipu_in(&["fmt", "-q", "--no-normalize", &f], None);
    assert!(stdout(&out).contains("KO[黒6目半]"));
    let out = qipu_in(&["dump", "-q", &f], None);
    let s = stdout(&out);
    assert!(
        s.contains("KO[黒6目半]") && s.contains("TE[第10回テスト代表]"),
        "{s}"
    );
}

#[test]
fn every_command_reads_other_formats() {
    // fmt and dump take GIB, NGF and UGF directly.
    let out = qipu_in(&["fmt", "-q", &fixture("ngf/handicap4.ngf")], None);
    assert!(stdout(&out).contains("AB[dp][pd][dd][pp]"));
    let out = qipu_in(&["dump", "--json", "-q", &fixture("ugf/review.ugi")], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["nodes"].as_array().unwrap().len(), 9);
}

#[test]
fn convert_has_help() {
    let out = qipu_in(&["convert", "--help"], None);
    assert_eq!(out.status.code(), Some(0));
    let s = stdout(&out);
    assert!(
        s.contains("GIB") && s.contains("--dir") && s.contains("--output"),
        "{s}"
    );
}

#[test]
fn check_points_at_the_input_lines_of_converted_records() {
    let out = qipu_in(&["check", &fixture("gib/global_handicap3.gib")], None);
    assert_eq!(out.status.code(), Some(1));
    let s = stdout(&out);
    for l in [
        "global_handicap3.gib:16:1",
        "global_handicap3.gib:27:1",
        "global_handicap3.gib:28:1",
    ] {
        assert!(s.contains(l), "{l} in {s}");
    }
    assert!(s.contains("STO 0 7 1 99 3"), "the input line is shown: {s}");
    // JSON: the reader's findings have input lines and offsets.
    let out = qipu_in(
        &["check", "--json", &fixture("gib/global_handicap3.gib")],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    let sto = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with("STO line"))
        .unwrap();
    assert_eq!(
        (sto["line"].as_u64(), sto["column"].as_u64()),
        (Some(27), Some(1))
    );
}

#[test]
fn check_fix_normalises_dialects_instead_of_deleting_them() {
    let out = qipu_in(
        &[
            "check",
            "--fix",
            "-o",
            "-",
            &fixture("sgf/nihon_kiin_sjis.sgf"),
        ],
        None,
    );
    // The record alone on standard output, the report on standard error.
    let s = stdout(&out);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("fixed [R006]"), "{report}");
    // The event and the komi survive as EV and KM (not deleted as misplaced
    // move annotations); the originals are kept.
    for want in [
        "EV[第10回テスト代表]",
        "KM[6.5]",
        "RE[W+R]",
        "KO as written: 黒6目半",
    ] {
        assert!(s.contains(want), "{want} in {s}");
    }
    let sgf: Vec<&str> = s.lines().collect();
    assert!(sgf.last().unwrap().ends_with(')'), "{s}");
    assert!(
        !sgf.iter()
            .any(|l| l.starts_with("TE[") || l.starts_with("KO[")),
        "{s}"
    );
}

#[test]
fn check_finds_every_format_in_a_directory() {
    let dir = format!("{}/../../testdata/formats", env!("CARGO_MANIFEST_DIR"));
    let out = qipu_in(&["check", "-q", &dir], None);
    // crypt.ugf cannot be read.
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("22 file(s) checked"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn info_names_the_charset_of_the_file_read() {
    let out = qipu_in(
        &["info", "--json", "-q", &fixture("gib/korea_euckr.gib")],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["charset"], "EUC-KR");
    assert_eq!(v["games"][0]["info"]["PB"], "초보");
}

#[test]
fn convert_splits_a_collection_into_one_file_per_game() {
    let d = scratch("split");
    let src = d.join("coll.sgf");
    std::fs::write(
        &src,
        "(;GM[1]PB[一]CA[UTF-8];B[aa])\n(;GM[1]PB[two];B[bb](;W[cc])(;W[dd]))\n(;GM[1]PB[three])",
    )
    .unwrap();
    let out_dir = d.join("games");
    let out = qipu_in(
        &[
            "convert",
            src.to_str().unwrap(),
            "-d",
            out_dir.to_str().unwrap(),
            "--split",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["coll-001.sgf", "coll-002.sgf", "coll-003.sgf"]);
    // The files together are the canonical collection, game by game.
    let parts: Vec<String> = names
        .iter()
        .map(|n| std::fs::read_to_string(out_dir.join(n)).unwrap())
        .collect();
    let whole = stdout(&qipu_in(&["convert", src.to_str().unwrap()], None));
    assert_eq!(parts.join("\n"), whole);
    assert!(parts[0].contains("PB[一]") && parts[1].contains("(;W[dd])"));
    // --split needs a directory.
    let out = qipu_in(&["convert", src.to_str().unwrap(), "--split"], None);
    assert_eq!(out.status.code(), Some(2));
}
