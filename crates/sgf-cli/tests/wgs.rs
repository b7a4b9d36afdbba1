//! QQ Go's WGS records through the commands, and the formats MultiGo reads
//! that Qipu cannot (BDX, GOS, China Game Center `.go`).

mod common;
use common::*;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn convert_info_and_position_read_wgs() {
    let out = qipu(&["convert", &fixture("wgs/even_resign.wgs")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    for want in [
        "PB[棋手甲]",
        "BR[2d]",
        "PW[白云]",
        "WR[5k]",
        "KM[7.5]",
        "RE[W+R]",
        "WGSHEADER[BRATING=250]",
        ";W[cc])",
    ] {
        assert!(s.contains(want), "{want} in {s}");
    }
    assert!(!s.contains("QQ="), "{s}");
    let out = qipu(&["convert", "--keep-email", &fixture("wgs/even_resign.wgs")]);
    assert!(text(&out.stdout).contains("[BQQ=10001]"));

    let out = qipu(&[
        "info",
        "--json",
        "-q",
        &fixture("wgs/handicap3_counting.wgs"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["info"]["RE"], "B+11.5");
    assert_eq!(v["games"][0]["info"]["HA"], "3");

    let out = qipu(&["position", "-q", &fixture("wgs/handicap3_counting.wgs")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_truncated_record_is_read_with_a_warning_a_cut_header_is_refused() {
    let out = qipu(&["convert", &fixture("wgs/truncated.wgs")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("the header announces 20 moves, the file holds 3"),
        "{}",
        text(&out.stderr)
    );
    let d = scratch("cut");
    let cut = d.join("cut.wgs");
    let bytes = std::fs::read(fixture("wgs/even_resign.wgs")).unwrap();
    std::fs::write(&cut, &bytes[..100]).unwrap();
    let out = qipu(&["convert", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("not a readable WGS record") && err.contains("truncated"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn multigo_formats_without_a_reader_are_named() {
    let d = scratch("unsupported");
    for (file, name) in [("a.bdx", "BDX"), ("b.gos", "GOS"), ("c.go", "GO")] {
        let p = d.join(file);
        std::fs::write(&p, [0x42u8, 0x44, 0, 1, 0xff, 0xfe, 7, 0]).unwrap();
        let out = qipu(&["convert", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains("format not supported"), "{err}");
        assert!(err.contains(&format!("cannot read {name},")), "{err}");
        assert!(!err.contains("no SGF game tree"), "{err}");
        // The other commands say the same.
        let out = qipu(&["info", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("format not supported"));
    }
    // SGF content under such a name is read.
    let p = d.join("real.go");
    std::fs::write(&p, "(;GM[1]SZ[9];B[ee])").unwrap();
    let out = qipu(&["convert", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(";B[ee]"));
}
