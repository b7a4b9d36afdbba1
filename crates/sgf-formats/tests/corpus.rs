//! Every sample of `../shared/corpus/formats/` converted and compared with
//! what a careful reader of the file expects, and the dialect samples of
//! the corpus normalised. Skipped (with a message) when the corpus is absent.
//!
//! The expected players, results and komi were read off the files by hand;
//! the move counts and final positions come from an independent reading of
//! the raw records (a separate script, not this crate), replayed with
//! captures.

mod common;

use common::{Summary, corpus_dir, corpus_path, main_line_moves, summarize};
use sgf_core::{Code, Severity};
use sgf_formats::{normalize, read_any};

struct Expect {
    file: &'static str,
    format: &'static str,
    charset: &'static str,
    pb: &'static str,
    pw: &'static str,
    re: Option<&'static str>,
    km: &'static str,
    ha: Option<&'static str>,
    moves: usize,
    /// Black and white stones at the end, stones captured by Black and by White.
    end: (usize, usize, usize, usize),
    /// Lines that cannot be read (R002).
    unreadable: usize,
}

const SAMPLES: &[Expect] = &[
    Expect {
        file: "gib/katrain-test.gib",
        format: "GIB",
        charset: "UTF-8",
        pb: "kim",
        pw: "wildsim1",
        re: Some("W+T"),
        km: "6.5",
        ha: None,
        moves: 232,
        end: (110, 114, 2, 6),
        unreadable: 0,
    },
    Expect {
        file: "gib/sabaki-euc-kr.gib",
        format: "GIB",
        charset: "EUC-KR",
        pb: "dustkd1015",
        pw: "dongjik",
        re: Some("B+T"),
        km: "6.5",
        ha: None,
        moves: 49,
        end: (25, 23, 1, 0),
        unreadable: 0,
    },
    Expect {
        file: "gib/sabaki-gb2312.gib",
        format: "GIB",
        charset: "gb18030",
        pb: "石下之臣",
        pw: "harpmaster",
        re: Some("W+11"),
        km: "0",
        ha: Some("5"),
        moves: 268,
        end: (130, 122, 12, 9),
        unreadable: 0,
    },
    Expect {
        file: "gib/sabaki-hist-gb2312-china-even.gib",
        format: "GIB",
        charset: "gb18030",
        pb: "玻璃中国风",
        pw: "harpmaster",
        re: Some("B+1.5"),
        km: "6.5",
        ha: None,
        moves: 209,
        end: (101, 95, 9, 4),
        unreadable: 0,
    },
    Expect {
        file: "gib/sabaki-hist-utf8-global-even.gib",
        format: "GIB",
        charset: "ASCII",
        pb: "Silver Star",
        pw: "redacted",
        re: Some("B+4"),
        km: "0",
        ha: Some("3"),
        moves: 252,
        end: (123, 125, 1, 6),
        unreadable: 0,
    },
    Expect {
        file: "gib/sabaki-utf8.gib",
        format: "GIB",
        charset: "ASCII",
        pb: "jy512",
        pw: "leejw977",
        // GRLT 255: unfinished.
        re: None,
        km: "0",
        ha: Some("3"),
        moves: 118,
        end: (62, 59, 0, 0),
        unreadable: 0,
    },
    Expect {
        file: "gib/weiqihub-tygem_19x19.gib",
        format: "GIB",
        charset: "ASCII",
        pb: "benjito2",
        pw: "qys1980",
        re: Some("B+63.5"),
        km: "6.5",
        ha: None,
        moves: 293,
        end: (130, 137, 8, 14),
        // Two REM lines after the last pass.
        unreadable: 2,
    },
    Expect {
        file: "ngf/sabaki-even.ngf",
        format: "NGF",
        charset: "ASCII",
        pb: "CYY",
        pw: "LQC",
        re: Some("B+0.5"),
        km: "7.5",
        ha: None,
        moves: 333,
        end: (135, 143, 23, 32),
        unreadable: 0,
    },
    Expect {
        file: "ngf/sabaki-gb2312.ngf",
        format: "NGF",
        charset: "gb18030",
        pb: "李载雄",
        pw: "朴承华",
        re: Some("B+R"),
        km: "6.5",
        ha: None,
        moves: 211,
        end: (103, 99, 6, 3),
        unreadable: 0,
    },
    Expect {
        file: "ngf/sabaki-handicap2.ngf",
        format: "NGF",
        charset: "ASCII",
        pb: "p81587",
        pw: "ace550",
        re: Some("W+R"),
        km: "0",
        ha: Some("2"),
        moves: 189,
        end: (93, 94, 1, 3),
        unreadable: 0,
    },
    Expect {
        file: "ngf/sabaki-hist-pro_game_1.ngf",
        format: "NGF",
        charset: "ASCII",
        pb: "Lin.H.C",
        pw: "Kobayashi.",
        re: Some("W+R"),
        km: "6.5",
        ha: None,
        moves: 244,
        end: (108, 110, 12, 14),
        unreadable: 0,
    },
    Expect {
        file: "ugf/sabaki-amateur.ugf",
        format: "UGF",
        charset: "ASCII",
        pb: "kaziwami",
        pw: "YINNI",
        re: Some("B+7.5"),
        km: "-5.5",
        ha: None,
        moves: 254,
        end: (124, 120, 7, 3),
        unreadable: 0,
    },
    Expect {
        file: "ugf/sabaki-review.ugi",
        format: "UGF",
        charset: "ASCII",
        pb: "ken03110",
        pw: "apetresc",
        re: Some("B+2.5"),
        km: "6.5",
        ha: None,
        moves: 222,
        end: (110, 106, 3, 0),
        unreadable: 0,
    },
    Expect {
        file: "wgs/wgs2sgf-demo.wgs",
        format: "WGS",
        charset: "gb18030",
        pb: "中流击水",
        pw: "闻鸡起舞",
        // Ending 9 (resignation), winner 1 (Black): wgs2sgf writes 白认输/黑胜.
        re: Some("B+R"),
        km: "7.5",
        ha: None,
        moves: 267,
        end: (126, 129, 4, 8),
        unreadable: 0,
    },
];

#[test]
fn every_format_sample_reads_as_expected() {
    let Some(formats) = corpus_path("formats") else {
        return;
    };
    // Every sample in the directory is in the table.
    let mut on_disk: Vec<String> = Vec::new();
    for sub in std::fs::read_dir(&formats).unwrap().flatten() {
        for f in std::fs::read_dir(sub.path()).unwrap().flatten() {
            let name = format!(
                "{}/{}",
                sub.file_name().to_string_lossy(),
                f.file_name().to_string_lossy()
            );
            // Expected outputs of other converters are not samples.
            if !name.ends_with(".json") && !name.contains(".expected.") {
                on_disk.push(name);
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = SAMPLES.iter().map(|e| e.file.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "a sample is missing from the table");

    let mut failures = Vec::new();
    for e in SAMPLES {
        let bytes = std::fs::read(formats.join(e.file)).unwrap();
        let l = match read_any(&bytes, None) {
            Ok(l) => l,
            Err(err) => {
                failures.push(format!("{}: {err}", e.file));
                continue;
            }
        };
        let s = summarize(&l.parsed.document, 0);
        let got = (
            l.format,
            l.charset,
            s.pb.clone().unwrap_or_default(),
            s.pw.clone().unwrap_or_default(),
            s.re.clone(),
            s.km.clone().unwrap_or_default(),
            s.ha.clone(),
            s.moves,
            (s.black, s.white, s.captured_by_black, s.captured_by_white),
        );
        let want = (
            e.format,
            e.charset,
            e.pb.to_string(),
            e.pw.to_string(),
            e.re.map(str::to_string),
            e.km.to_string(),
            e.ha.map(str::to_string),
            e.moves,
            e.end,
        );
        if got != want {
            failures.push(format!("{}:\n  got  {got:?}\n  want {want:?}", e.file));
        }
        if s.occupied != 0 {
            failures.push(format!(
                "{}: {} moves onto occupied points",
                e.file, s.occupied
            ));
        }
        let unreadable = l
            .parsed
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::FormatUnreadable)
            .count();
        if unreadable != e.unreadable {
            failures.push(format!(
                "{}: {unreadable} unreadable lines, expected {}: {:?}",
                e.file, e.unreadable, l.parsed.diagnostics
            ));
        }
        for d in &l.parsed.diagnostics {
            if d.span.end as usize > bytes.len() || d.severity == Severity::Error {
                failures.push(format!("{}: {d:?}", e.file));
            }
        }
        // The content decides, whatever the name says.
        let wrong = std::path::Path::new("record.sgf");
        if sgf_formats::builtin().detect(&bytes, Some(wrong)).name() != e.format {
            failures.push(format!("{}: not recognised under another name", e.file));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn weiqihub_gib_matches_its_expected_move_list() {
    let Some(gib) = corpus_path("formats/gib/weiqihub-tygem_19x19.gib") else {
        return;
    };
    let Some(json) = corpus_path("formats/gib/weiqihub-tygem_19x19.expected.json") else {
        return;
    };
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    let want: Vec<String> = expected["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let letter = |k: &str| (b'a' + m[k].as_u64().unwrap() as u8) as char;
            format!(
                "{}[{}{}]",
                m["color"].as_str().unwrap(),
                letter("col"),
                letter("row")
            )
        })
        .collect();
    let l = read_any(&std::fs::read(gib).unwrap(), None).unwrap();
    let all = main_line_moves(&l.parsed.document, 0);
    // WeiqiHub leaves the four passes out; Qipu keeps them as B[]/W[].
    let passes: Vec<&String> = all.iter().filter(|m| m.ends_with("[]")).collect();
    assert_eq!(passes, ["B[]", "B[]", "W[]", "B[]"]);
    let played: Vec<String> = all.into_iter().filter(|m| !m.ends_with("[]")).collect();
    assert_eq!(played.len(), 289);
    assert_eq!(played, want);
}

#[test]
fn wgs_sample_has_the_facts_of_the_wgs2sgf_output() {
    let Some(wgs) = corpus_path("formats/wgs/wgs2sgf-demo.wgs") else {
        return;
    };
    let Some(sgf) = corpus_path("formats/wgs/wgs2sgf-demo.expected.sgf") else {
        return;
    };
    let ours = read_any(&std::fs::read(wgs).unwrap(), None).unwrap();
    assert_eq!((ours.format, ours.converted), ("WGS", true));
    let theirs = sgf_core::parse(&std::fs::read(sgf).unwrap()).document;
    let (a, b) = (summarize(&ours.parsed.document, 0), summarize(&theirs, 0));
    // Same players, size, komi, moves and final position; wgs2sgf's DT is the
    // file's modification time (the record has no date) and its ranks and
    // result are Chinese sentences, compared below; it writes HA[0] for no
    // handicap, which FF[4] leaves out.
    assert_eq!((a.ha.as_deref(), b.ha.as_deref()), (None, Some("0")));
    let facts = |s: &Summary| Summary {
        br: None,
        wr: None,
        re: None,
        dt: None,
        ha: None,
        ..s.clone()
    };
    assert_eq!(facts(&a), facts(&b));
    assert_eq!(a.moves, 267);
    assert_eq!(
        main_line_moves(&ours.parsed.document, 0),
        main_line_moves(&theirs, 0)
    );
    assert_eq!(main_line_moves(&ours.parsed.document, 0)[0], "B[pd]");
    // 3级(业余1段) and 3级: the level, and Black's assessed amateur dan.
    assert_eq!(b.br.as_deref(), Some("3级(业余1段)"));
    assert_eq!(b.wr.as_deref(), Some("3级"));
    assert_eq!((a.br.as_deref(), a.wr.as_deref()), (Some("3k"), Some("3k")));
    let root = ours.parsed.document.game(0).unwrap().root();
    let kept: Vec<String> = root
        .values("WGSHEADER")
        .map(|v| v.decoded().into_owned())
        .collect();
    for k in [
        "BAMATEURDAN=1",
        "BRATING=-119",
        "WRATING=-157",
        "END=9",
        "WINNER=1",
    ] {
        assert!(kept.iter().any(|x| x == k), "{k} missing from {kept:?}");
    }
    // 白认输/黑胜: White resigned, Black won.
    assert_eq!(b.re.as_deref(), Some("白认输/黑胜"));
    assert_eq!(a.re.as_deref(), Some("B+R"));
}

#[test]
fn review_sample_keeps_variations_and_comments() {
    let Some(p) = corpus_path("formats/ugf/sabaki-review.ugi") else {
        return;
    };
    let l = read_any(&std::fs::read(p).unwrap(), None).unwrap();
    let g = l.parsed.document.game(0).unwrap();
    let branching = g.nodes().filter(|n| n.child_count() > 1).count();
    assert_eq!(branching, 2);
    let comments = g.nodes().filter(|n| n.has("C")).count();
    assert_eq!(comments, 5);
    // The comment of node 55 is on move 54, W[li], the main line.
    let m54 = g.main_line().nth(54).unwrap();
    assert_eq!(m54.text("W").unwrap(), "li");
    assert!(m54.text("C").unwrap().contains("Game-losing move"));
    // Node 269 ends the second variation.
    let last_var = g
        .nodes()
        .find(|n| n.text("C").is_some_and(|c| c.contains("salvages")))
        .unwrap();
    assert_eq!(last_var.child_count(), 0);
    assert!(g.main_line().all(|n| n.id() != last_var.id()));
}

#[test]
fn corpus_dialect_samples_normalise() {
    // One message when the whole corpus is absent, one per missing sample otherwise.
    if corpus_dir().is_none() {
        return;
    }
    let read = |rel: &str| -> Option<sgf_core::Document> {
        let p = corpus_path(rel)?;
        let l = read_any(&std::fs::read(p).unwrap(), None).unwrap();
        let mut doc = l.parsed.document;
        normalize(&mut doc);
        Some(doc)
    };
    let s = |doc: &sgf_core::Document| summarize(doc, 0);
    if let Some(doc) = read("charsets/sabaki-nihon-kiin.sgf") {
        let x = s(&doc);
        let root = doc.game(0).unwrap().root();
        assert_eq!(
            (x.km.as_deref(), x.re.as_deref(), x.dt.as_deref()),
            (Some("6.5"), Some("B+R"), Some("2025-06-12"))
        );
        assert_eq!(x.pb.as_deref(), Some("申眞ソ"));
        assert_eq!(
            root.text("EV").unwrap(),
            "第1回ソパルコサノル世界最高棋士決定戦第9戦"
        );
        assert_eq!(root.text("OT").unwrap(), "5x30 byo-yomi");
        assert_eq!(root.text("TM").unwrap(), "3600");
        assert_eq!(x.moves, 8);
    }
    if let Some(doc) = read("malformed/katago-foxlike.sgf") {
        // KM[325] under Chinese rules; the stones stand in the next node.
        assert_eq!(s(&doc).km.as_deref(), Some("6.5"));
        assert!(!doc.game(0).unwrap().root().has("AB"));
    }
    if let Some(doc) = read("malformed/weiqihub-fox_9x9.sgf") {
        let x = s(&doc);
        assert_eq!((x.km.as_deref(), x.size, x.moves), (Some("7.5"), 9, 36));
    }
    if let Some(doc) = read("malformed/katrain-fox-sgf-error.sgf") {
        // KM[0] HA[1]: Fox's no-komi game, left as it is.
        let x = s(&doc);
        assert_eq!((x.km.as_deref(), x.ha.as_deref()), (Some("0"), Some("1")));
    }
    if let Some(doc) = read("malformed/weiqihub-ogs_9x9.sgf") {
        let canon = sgf_core::to_canonical_bytes(&doc, &Default::default());
        assert_eq!(canon.iter().filter(|&&b| b == b'(').count(), 1);
        let x: Summary = s(&doc);
        assert_eq!((x.moves, x.passes, x.re.as_deref()), (22, 2, Some("B+2.5")));
    }
}

/// The first professional Fox collection: every scaled komi is read, and
/// handicap stones are added only where the game then replays cleanly.
#[test]
fn fox_collection_normalises() {
    let Some(p) = corpus_path("real/fox/fox-pro-part1.sgf") else {
        return;
    };
    let l = read_any(&std::fs::read(p).unwrap(), None).unwrap();
    let mut doc = l.parsed.document;
    let n = doc.game_count();
    assert!(n > 5000);
    let ha = |doc: &sgf_core::Document, i: usize| {
        doc.game(i)
            .unwrap()
            .root()
            .value("HA")
            .and_then(|v| v.number())
            .unwrap_or(0)
    };
    // Only handicap games can change on the board: replay those.
    let before: Vec<Option<Summary>> = (0..n)
        .map(|i| (ha(&doc, i) >= 2).then(|| summarize(&doc, i)))
        .collect();
    let had_ab: Vec<bool> = (0..n)
        .map(|i| doc.game(i).unwrap().root().has("AB"))
        .collect();
    normalize(&mut doc);
    assert_eq!(doc.game_count(), n);
    let (mut placed, mut unplaced, mut newly_bad) = (0, 0, 0);
    for i in 0..n {
        let root = doc.game(i).unwrap().root();
        let km: f64 = root.text("KM").as_deref().unwrap_or("0").parse().unwrap();
        assert!(km.abs() <= 20.0, "game {i}: KM {km}");
        let Some(b) = &before[i] else { continue };
        let a = summarize(&doc, i);
        if a.occupied > b.occupied {
            newly_bad += 1;
        }
        if root.has("AB") && !had_ab[i] {
            placed += 1;
        }
        if !root.has("AB") && !root.first_child().is_some_and(|c| c.has("AB")) {
            unplaced += 1;
        }
    }
    assert_eq!(newly_bad, 0, "placed stones made games unplayable");
    // 132 games give HA but no stones and let White start; the 115 with
    // 2–5, 8 or 9 stones replay cleanly on the fixed points; the 17 with six
    // or seven fit no fixed placement and are only reported.
    assert_eq!((placed, unplaced), (115, 17));
}
