//! QQ Go's WGS records: the fixtures of `testdata/formats/wgs/`, records
//! built here field by field, and truncated or foreign bytes (a clear
//! error, never a panic).

mod common;

use common::{Summary, fixture, main_line_moves, summarize};
use sgf_core::{Code, Severity};
use sgf_formats::wgs::HEADER_LEN;
use sgf_formats::{Loaded, ReadOptions, builtin, read_any};

fn header_values(l: &Loaded) -> Vec<String> {
    l.parsed
        .document
        .game(0)
        .unwrap()
        .root()
        .values("WGSHEADER")
        .map(|v| v.decoded().into_owned())
        .collect()
}

fn codes(l: &Loaded, code: Code) -> Vec<String> {
    l.parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.message.clone())
        .collect()
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

/// A WGS record: the header of the fixtures' generator with `edit` applied,
/// then `moves` (SGF points, "" for a pass).
fn record(edit: impl FnOnce(&mut [u8]), moves: &[&str]) -> Vec<u8> {
    let mut h = vec![0u8; HEADER_LEN];
    h[..4].copy_from_slice(&[2, 0, 0, 0]);
    h[10..13].copy_from_slice(b"abc");
    h[58..61].copy_from_slice(b"xyz");
    h[101] = 19;
    h[103] = 6;
    h[104] = 5;
    h[105] = 9;
    h[106] = 1;
    h[120..122].copy_from_slice(&(moves.len() as u16).to_le_bytes());
    edit(&mut h);
    for m in moves {
        match m.as_bytes() {
            [] => h.extend_from_slice(&[1, 0]),
            [x, y] => h.extend_from_slice(&[(x - b'a') * 4, y - b'a']),
            _ => panic!("{m}"),
        }
    }
    h
}

#[test]
fn even_game_resigned() {
    let bytes = fixture("wgs/even_resign.wgs");
    let l = read_any(&bytes, None).unwrap();
    assert_eq!((l.format, l.charset, l.converted), ("WGS", "gb18030", true));
    assert_eq!(
        summarize(&l.parsed.document, 0),
        Summary {
            pb: s("棋手甲"),
            pw: s("白云"),
            br: s("2d"),
            wr: s("5k"),
            re: s("W+R"),
            km: s("7.5"),
            size: 19,
            moves: 6,
            passes: 1,
            black: 2,
            white: 3,
            ..Summary::default()
        }
    );
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["B[pd]", "W[dp]", "B[]", "W[dd]", "B[pp]", "W[cc]"]
    );
    assert_eq!(
        header_values(&l),
        [
            "BRATING=250",
            "BAMATEURDAN=2",
            "WRATING=-350",
            "END=9",
            "WINNER=0",
            "raw0=02"
        ]
    );
    // The QQ numbers are contact numbers: only on request.
    assert_eq!(
        codes(&l, Code::FieldKept)
            .iter()
            .filter(|m| m.contains("QQ numbers"))
            .count(),
        1
    );
    let mut opts = ReadOptions::default();
    opts.keep_email = true;
    let with = builtin().read(&bytes, None, &opts).unwrap();
    let kept = header_values(&with);
    assert!(kept.contains(&"BQQ=10001".to_string()), "{kept:?}");
    assert!(kept.contains(&"WQQ=10002".to_string()), "{kept:?}");
    assert!(
        l.parsed
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Info)
    );
}

#[test]
fn handicap_counting_ascii() {
    let l = read_any(&fixture("wgs/handicap3_counting.wgs"), None).unwrap();
    assert_eq!((l.format, l.charset), ("WGS", "ASCII"));
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        (
            sum.pb, sum.pw, sum.br, sum.wr, sum.ha, sum.km, sum.re, sum.size
        ),
        (
            s("alpha"),
            s("beta"),
            s("1d"),
            s("1k"),
            s("3"),
            s("0.5"),
            // Score 12: a margin of 12 − 0.5 points (wgs2sgf: 5.75 子).
            s("B+11.5"),
            13
        )
    );
    let root = l.parsed.document.game(0).unwrap().root();
    let ab: Vec<String> = root
        .values("AB")
        .map(|v| v.decoded().into_owned())
        .collect();
    // The Tygem order: White's jj is where the Western third stone would be.
    assert_eq!(ab, ["dj", "jd", "dd"]);
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["W[gg]", "B[ge]", "W[]", "B[eg]", "W[jj]"]
    );
    assert_eq!(sum.occupied, 0);
    assert!(header_values(&l).contains(&"SCORE=12".to_string()));
    assert_eq!(codes(&l, Code::HandicapPlaced).len(), 1);
}

#[test]
fn western_order_when_the_tygem_one_is_played_on() {
    // White's first move lands on the Tygem third stone (dd): the Western
    // order fits the game and is chosen.
    let bytes = record(|h| h[100] = 3, &["dd", "qq"]);
    let l = read_any(&bytes, None).unwrap();
    let root = l.parsed.document.game(0).unwrap().root();
    let ab: Vec<String> = root
        .values("AB")
        .map(|v| v.decoded().into_owned())
        .collect();
    assert_eq!(ab, ["dp", "pd", "pp"]);
    assert!(codes(&l, Code::HandicapPlaced)[0].contains("Western"));
}

#[test]
fn truncated_moves_are_kept_and_reported() {
    let bytes = fixture("wgs/truncated.wgs");
    let l = read_any(&bytes, None).unwrap();
    assert_eq!(l.format, "WGS");
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["B[pd]", "W[dp]", "B[qq]"]
    );
    let bad = codes(&l, Code::FormatUnreadable);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad.iter().any(|m| m.contains("announces 20 moves")));
    assert!(bad.iter().any(|m| m.contains("odd byte")));
    // Ending 0: the game was still going, no RE.
    assert_eq!(summarize(&l.parsed.document, 0).re, None);
    for d in &l.parsed.diagnostics {
        assert!(d.span.end as usize <= bytes.len(), "{d:?}");
    }
}

#[test]
fn every_cut_of_a_record_reads_or_fails_clearly() {
    let full = fixture("wgs/even_resign.wgs");
    let wgs = builtin().by_name("wgs").unwrap();
    for n in 0..=full.len() {
        let cut = &full[..n];
        match wgs.read(cut, &ReadOptions::default()) {
            Ok(l) => {
                assert!(n >= HEADER_LEN, "{n}");
                let moves = main_line_moves(&l.parsed.document, 0).len();
                assert_eq!(moves, (n - HEADER_LEN) / 2, "{n}");
                let truncated = codes(&l, Code::FormatUnreadable)
                    .iter()
                    .any(|m| m.contains("truncated"));
                assert_eq!(truncated, n < full.len(), "{n}");
            }
            Err(e) => {
                assert!(n < HEADER_LEN, "{n}: {e}");
                assert_eq!(e.format, "WGS");
                assert!(e.message.contains("truncated"), "{e}");
            }
        }
        // Named .wgs, a cut file still goes to the WGS reader.
        let path = std::path::Path::new("game.wgs");
        assert_eq!(builtin().detect(cut, Some(path)).name(), "WGS", "{n}");
    }
}

#[test]
fn foreign_bytes_are_refused_clearly() {
    let wgs = builtin().by_name("WGS").unwrap();
    let opts = ReadOptions::default();
    // A PNG signature and zeros: no board size.
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.resize(300, 0);
    let e = wgs.read(&png, &opts).unwrap_err();
    assert!(e.message.contains("not a WGS record"), "{e}");
    assert_eq!(
        e.to_string(),
        format!("not a readable WGS record: {}", e.message)
    );
    // A plausible size byte, but the moves are nowhere on the board.
    let mut junk = record(|_| {}, &[]);
    junk.extend(std::iter::repeat_n(0xee, 40));
    let e = wgs.read(&junk, &opts).unwrap_err();
    assert!(e.message.contains("outside the board"), "{e}");
    // Text is not WGS, whatever its length.
    let sgf = format!("(;GM[1]SZ[19]C[{}];B[pd])", "x".repeat(200));
    assert_eq!(builtin().detect(sgf.as_bytes(), None).name(), "SGF");
    assert_eq!(
        builtin()
            .detect(sgf.as_bytes(), Some("game.wgs".as_ref()))
            .name(),
        "SGF"
    );
}

#[test]
fn sniffed_whatever_the_name() {
    let bytes = fixture("wgs/handicap3_counting.wgs");
    for name in ["x.sgf", "x.gib", "x", "x.bdx"] {
        assert_eq!(
            builtin().detect(&bytes, Some(name.as_ref())).name(),
            "WGS",
            "{name}"
        );
    }
}

#[test]
fn fields_that_cannot_be_mapped_are_kept() {
    let bytes = record(
        |h| {
            h[104] = 12; // komi tenths out of range
            h[105] = 42; // unknown ending
            h[100] = 1; // handicap 1: no stones
            h[30] = 7; // a byte after Black's name
            h[110] = 0xab;
            h[119] = 0xcd;
        },
        &["pd", "", "dp"],
    );
    let l = read_any(&bytes, None).unwrap();
    let kept = header_values(&l);
    for k in [
        "KOMI=6,12",
        "END=42",
        "HANDICAP=1",
        "raw30=07",
        "raw110-119=ab0000000000000000cd",
    ] {
        assert!(kept.contains(&k.to_string()), "{k} missing from {kept:?}");
    }
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!((sum.km, sum.re, sum.ha), (None, None, None));
    // Handicap 1 places no stones: Black still moves first.
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["B[pd]", "W[]", "B[dp]"]
    );
    assert_eq!(codes(&l, Code::FormatUnreadable).len(), 2);
}

#[test]
fn results_of_every_ending() {
    for (end, winner, score, re) in [
        (1u8, 0u8, 0i16, Some("0")),
        (2, 1, 0, Some("0")),
        (5, 1, 0, Some("Void")),
        (6, 0, 0, Some("W+F")),
        (7, 0, 0, Some("Void")),
        (8, 1, 0, Some("B+T")),
        (9, 0, 0, Some("W+R")),
        (10, 0, -3, Some("W+3.5")),
        (0, 1, 0, None),
        (3, 1, 0, None),
        (4, 1, 0, None),
        (9, 2, 0, None),
    ] {
        let bytes = record(
            |h| {
                h[105] = end;
                h[106] = winner;
                h[108..110].copy_from_slice(&score.to_le_bytes());
            },
            &["pd"],
        );
        let l = read_any(&bytes, None).unwrap();
        let got = summarize(&l.parsed.document, 0).re;
        assert_eq!(got.as_deref(), re, "ending {end}, winner {winner}");
        let reported = !codes(&l, Code::FormatUnreadable).is_empty();
        assert_eq!(reported, winner == 2, "ending {end}, winner {winner}");
    }
}

#[test]
fn long_records_do_not_recurse() {
    let moves: Vec<String> = (0..65_535u32)
        .map(|i| {
            let (x, y) = ((i % 19) as u8, ((i / 19) % 19) as u8);
            String::from_utf8(vec![b'a' + x, b'a' + y]).unwrap()
        })
        .collect();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let l = read_any(&record(|_| {}, &refs), None).unwrap();
    assert_eq!(
        l.parsed.document.game(0).unwrap().main_line().count(),
        65_536
    );
}
