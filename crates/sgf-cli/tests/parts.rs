//! `qipu check` cuts big collections into parts checked in parallel. Whatever
//! the cut, every output must be the one the whole file gives.

mod common;
use common::scratch;

use std::process::{Command, Output};

fn qipu(args: &[&str], part_bytes: Option<usize>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qipu"));
    c.args(args);
    match part_bytes {
        Some(n) => c.env("QIPU_PART_BYTES", n.to_string()),
        None => c.env("QIPU_PART_BYTES", usize::MAX.to_string()),
    };
    c.output().expect("qipu runs")
}

/// A collection with problems of every level: per game and for the whole
/// document (mixed FF versions, several games).
fn collection() -> Vec<u8> {
    let mut s = Vec::new();
    for i in 0..40 {
        let game: String = match i % 9 {
            0 => format!(
                "(;GM[1]FF[4]SZ[19]PB[Black {i}]DT[2003.04.{:02}];B[pd];W[dp];B[pp])",
                i % 28 + 1
            ),
            1 => "(;GM[1]FF[3]SZ[19]KM[5。5];B[zz];W[dd](;B[qq])(;B[dq]))".to_string(),
            2 => "(;GM[1]FF[4]SZ[9]RE[w+4.5];B[ee];W[ee];B[];W[tt])".to_string(),
            3 => "(;GM[1]FF[4]SZ[19]PW[白]C[黑胜 comment]AB[aa][bb]AE[aa];B[cc])".to_string(),
            4 => "(;GM[1]FF[4]SZ[19];B[pd]C[unescaped ] here])".to_string(),
            5 => "(;GM[2]FF[4]SZ[8];B[aa])".to_string(),
            6 => "(;FF[4]GM[1]SZ[19]HA[0]AB[dd][pp];W[qd];W[dp])".to_string(),
            7 => "(;GM[1]FF[4]AP[foxwq]SZ[19]KM[375]TC[3]TT[40];B[pd];W[dd])".to_string(),
            _ => "(;GM[1]FF[4]SZ[19];B[pd];W[dd];B[pq]XX[private value];W[dp])".to_string(),
        };
        s.extend_from_slice(game.as_bytes());
        s.push(b'\n');
    }
    s
}

/// Equal texts, or the first line that differs.
fn same_text(got: &[u8], want: &[u8], what: &str) {
    let (got, want) = (String::from_utf8_lossy(got), String::from_utf8_lossy(want));
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{what}: line {}", i + 1);
    }
    assert_eq!(
        got.lines().count(),
        want.lines().count(),
        "{what}: line count"
    );
    assert_eq!(got, want, "{what}");
}

#[test]
fn parts_give_the_outputs_of_the_whole_file() {
    let d = scratch("same");
    let input = d.join("collection.sgf");
    let bytes = collection();
    // The fixture is one that gets cut.
    assert!(sgf_core::split::split_collection(&bytes, 64).is_some());
    std::fs::write(&input, &bytes).unwrap();
    let input = input.to_str().unwrap();
    let out = d.join("out.sgf");
    let out_s = out.to_str().unwrap();

    let runs: &[&[&str]] = &[
        &["check", input],
        &["check", "--json", input],
        &["check", "--max-diagnostics", "3", input],
        &["check", "--fix", "-o", out_s, input],
        &["check", "--fix", "--json", "-o", out_s, input],
    ];
    for args in runs {
        let whole = qipu(args, None);
        let whole_file = std::fs::read(&out).ok();
        let _ = std::fs::remove_file(&out);
        for part in [1, 64, 200, 1000] {
            let cut = qipu(args, Some(part));
            assert_eq!(cut.status.code(), whole.status.code(), "{args:?} at {part}");
            same_text(
                &cut.stdout,
                &whole.stdout,
                &format!("stdout of {args:?} at {part}"),
            );
            same_text(
                &cut.stderr,
                &whole.stderr,
                &format!("stderr of {args:?} at {part}"),
            );
            assert_eq!(
                std::fs::read(&out).ok(),
                whole_file,
                "written file of {args:?} with parts of {part} bytes"
            );
            let _ = std::fs::remove_file(&out);
        }
    }
    // The check really found things, so the comparison means something.
    let json = qipu(&["check", "--json", input], Some(64));
    let text = String::from_utf8_lossy(&json.stdout);
    for code in ["F018", "F016", "R003", "\"V0"] {
        assert!(text.contains(code), "{code} missing from {text}");
    }
}

/// Shift_JIS text whose trail byte `\` is not escaped: the scan for parts
/// cannot tell where such a value ends, the charset-aware reading can. The
/// outputs must still be the whole file's.
#[test]
fn unescaped_trail_bytes_give_the_outputs_of_the_whole_file() {
    let d = scratch("sjis");
    let mut bytes = Vec::new();
    for i in 0..12 {
        if i == 5 {
            bytes.extend_from_slice(
                b"(;GM[1]FF[4]CA[Shift_JIS]SZ[19]C[\x83\x5c\x83\x5d];B[aa]C[x];W[bb])\n",
            );
        } else {
            bytes.extend_from_slice(b"(;GM[1]FF[4]SZ[19]DT[2003.04.01];B[pd];W[dp])\n");
        }
    }
    let split = sgf_core::split::split_collection(&bytes, 64).expect("cut");
    assert!(split.dbcs_doubt);
    let input = d.join("sjis.sgf");
    std::fs::write(&input, &bytes).unwrap();
    let input = input.to_str().unwrap();
    let out = d.join("out.sgf");
    let out_s = out.to_str().unwrap();
    for args in [
        &["check", "--json", input][..],
        &["check", input],
        &["check", "--fix", "--json", "-o", out_s, input],
    ] {
        let whole = qipu(args, None);
        let whole_file = std::fs::read(&out).ok();
        let cut = qipu(args, Some(64));
        same_text(&cut.stdout, &whole.stdout, &format!("{args:?}"));
        assert_eq!(std::fs::read(&out).ok(), whole_file, "{args:?}");
    }
    let json = qipu(&["check", "--json", input], Some(64));
    assert!(String::from_utf8_lossy(&json.stdout).contains("C006"));
}

/// Found by the `split` fuzz target (`testdata/fuzz/split-*.sgf`): a part
/// declaring UTF-16 looked like UTF-16 on its own, which the whole file is
/// not, and lost its game; a damaged tree start (`(` without `;`) was read
/// by the parser's recovery in another way alone than in the whole file.
#[test]
fn fuzz_finds_give_the_outputs_of_the_whole_file() {
    let dir = common::repo().join("testdata/fuzz");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("split-") && name.ends_with(".sgf")) {
            continue;
        }
        let input = path.to_str().unwrap();
        for args in [&["check", "--json", input][..], &["check", input]] {
            let whole = qipu(args, None);
            let cut = qipu(args, Some(1));
            same_text(&cut.stdout, &whole.stdout, &format!("{args:?}"));
        }
        n += 1;
    }
    assert!(n >= 2);
}

/// The repaired output goes to its file as the parts are made, and the
/// report reads the lines it quotes back from that file: the report must
/// be the one made with the output held in memory (`-o -`), whose standard
/// output is the repaired file and standard error the report.
#[test]
fn the_fix_report_read_back_from_the_file_is_the_one_held_in_memory() {
    let d = scratch("readback");
    let input = d.join("collection.sgf");
    std::fs::write(&input, collection()).unwrap();
    let input = input.to_str().unwrap();
    let out = d.join("out.sgf");
    let out_s = out.to_str().unwrap();
    for flags in [&["--json"][..], &[], &["--max-diagnostics", "0"]] {
        for part in [Some(64), None] {
            let mut args = vec!["check", "--fix"];
            args.extend_from_slice(flags);
            let mut to_file = args.clone();
            to_file.extend_from_slice(&["-o", out_s, input]);
            let mut to_stdout = args.clone();
            to_stdout.extend_from_slice(&["-o", "-", input]);
            let _ = std::fs::remove_file(&out);
            let f = qipu(&to_file, part);
            let written = std::fs::read(&out).expect("written");
            let m = qipu(&to_stdout, part);
            assert_eq!(f.status.code(), m.status.code(), "{flags:?} {part:?}");
            let report = String::from_utf8_lossy(&f.stdout).replace(out_s, input);
            same_text(&m.stdout, &written, &format!("{flags:?} at {part:?}"));
            same_text(
                &m.stderr,
                report.as_bytes(),
                &format!("report, {flags:?} at {part:?}"),
            );
            // Something of the output is quoted.
            assert!(
                report.contains("\"line\"") || report.contains(" | "),
                "{report}"
            );
        }
    }
}

/// A game too long to be drawn or exported into a buffer is written into
/// the output from its record, between games that are buffered: the games
/// keep their numbers and order, and the output is the whole file's.
#[test]
fn a_long_game_between_short_ones_is_written_in_place() {
    let d = scratch("long");
    let input = d.join("long.sgf");
    let letters = b"abcdefghijklmnopqrs";
    let moves = 200_000usize;
    let mut s = String::from("(;GM[1]SZ[19]PB[First];B[pd];W[dd])\n(;GM[1]SZ[19]PB[Long]PW[Game]");
    for i in 0..moves {
        let (c, p) = (if i % 2 == 0 { 'B' } else { 'W' }, i % 361);
        s.push_str(&format!(
            ";{c}[{}{}]",
            letters[p % 19] as char,
            letters[p / 19] as char
        ));
    }
    s.push_str(")\n(;GM[1]SZ[9]PB[Last];B[ee])\n");
    // Larger than what the commands buffer (1 MiB).
    assert!(s.len() > 1 << 20);
    std::fs::write(&input, &s).unwrap();
    let input = input.to_str().unwrap();
    for args in [&["tree", input][..], &["export", "-q", input][..]] {
        let whole = qipu(args, None);
        let parts = qipu(args, Some(4096));
        assert!(whole.status.success() && parts.status.success(), "{args:?}");
        same_text(&parts.stdout, &whole.stdout, &format!("{args:?}"));
        let text = String::from_utf8(parts.stdout).unwrap();
        if args[0] == "tree" {
            let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
            assert_eq!(heads, ["game 1", "game 2 — Long (B) vs Game (W)", "game 3"]);
            assert!(text.contains(&format!("({} moves)", moves - 1)), "{text}");
        } else {
            let lines: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let games: Vec<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
            assert_eq!(games, [1, 2, 3]);
            assert_eq!(lines[1]["moves"].as_array().unwrap().len(), moves);
            let p = (moves - 1) % 361;
            let last = format!("{}{}", letters[p % 19] as char, letters[p / 19] as char);
            assert_eq!(lines[1]["moves"][moves - 1], serde_json::json!(["W", last]));
            assert_eq!(lines[2]["info"]["PB"], "Last");
        }
    }
}

#[test]
fn diagnostics_made_again_give_the_report_held_ones_do() {
    // Every diagnostic shown, with at most one held per part
    // (`QIPU_HELD_DIAGNOSTICS`, read by test builds): each part's are
    // made again as the report is written, in the same order.
    let d = scratch("made-again");
    let file = d.join("c.sgf");
    std::fs::write(&file, collection()).unwrap();
    let f = file.to_str().unwrap();
    let out = d.join("o.sgf");
    let o = out.to_str().unwrap();
    for args in [
        vec!["check", "--json", f],
        vec!["check", "--max-diagnostics", "0", "--info", f],
        vec!["check", "--json", "-W", f],
        vec!["check", "--json", "--fix", "-o", o, f],
    ] {
        for part_bytes in [Some(600), None] {
            let run = |held: Option<&str>| {
                let mut c = Command::new(env!("CARGO_BIN_EXE_qipu"));
                c.args(&args);
                c.env(
                    "QIPU_PART_BYTES",
                    part_bytes.unwrap_or(usize::MAX).to_string(),
                );
                if let Some(h) = held {
                    c.env("QIPU_HELD_DIAGNOSTICS", h);
                }
                c.output().expect("qipu runs")
            };
            let held = run(None);
            assert!(held.stdout.len() > 2000, "{args:?}");
            for n in ["1", "3"] {
                let again = run(Some(n));
                let what = format!("{args:?} parts {part_bytes:?}, {n} held");
                same_text(&again.stdout, &held.stdout, &what);
                assert_eq!(again.status.code(), held.status.code(), "{what}");
            }
        }
    }
}
