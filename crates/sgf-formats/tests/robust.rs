//! No input makes a reader or the normaliser panic, and whatever a reader
//! accepts is written back as SGF that parses without syntax errors.

mod common;

use proptest::prelude::*;
use sgf_core::{Severity, WriteOptions, to_canonical_bytes};
use sgf_formats::{ReadOptions, builtin, normalize};

/// Runs every reader on `bytes` (and the sniffer, and normalisation).
fn exercise(bytes: &[u8]) {
    let opts = ReadOptions::default();
    for f in builtin().formats() {
        let _ = f.sniff(bytes);
        if let Ok(l) = f.read(bytes, &opts) {
            for d in &l.parsed.diagnostics {
                if l.converted {
                    assert!(d.span.end as usize <= bytes.len(), "{}: {d:?}", f.name());
                }
            }
            let mut doc = l.parsed.document;
            normalize(&mut doc);
            let canon = to_canonical_bytes(&doc, &WriteOptions::default());
            if l.converted {
                let again = sgf_core::parse(&canon);
                assert!(
                    !again
                        .diagnostics
                        .iter()
                        .any(|d| d.code.layer() == "syntax" && d.severity == Severity::Error),
                    "{}: {:?}\n{}",
                    f.name(),
                    again.diagnostics,
                    String::from_utf8_lossy(&canon)
                );
            }
        }
    }
    let _ = sgf_formats::read_any(bytes, None);
}

/// Lines that mean something to one of the formats, to be shuffled.
const PIECES: &[&str] = &[
    "\\HS",
    "\\HE",
    "\\GS",
    "\\GE",
    "\\[GIBOKIND=China\\]",
    "\\[GAMEINFOMAIN=LINE:0,GRLT:1,ZIPSU:-5,GONGJE:NaN,GTIME:--\\]",
    "\\[GAMETAG=R99,G,W,\t,C\\]",
    "\\[GAMEBLACKNAME=(\\]",
    "\\[GAMEWHITENAME=x ()\\]",
    "\\[=\\]",
    "INI 0 1 9 &4",
    "INI 0 1 -1 &",
    "STO 0 2 1 18 18",
    "STO 0 3 2 -1 400",
    "STO 0 4 3 1 1",
    "STO",
    "SKI 0 5",
    "REM 0 6 -1 -1 0 1",
    "2 1 0",
    "GI",
    "GI19",
    "GI0",
    "IDB[",
    "IDB[3] 黑胜[EndTxt]",
    "PMAAAAAAA",
    "PMZZBZZZZ",
    "PMABWTTTT",
    "PMACBAAAA",
    "19",
    "0",
    "[Header]",
    "[Data]",
    "[ReviewNode]",
    "[ReviewComment]",
    "[Figure]",
    "Size=1",
    "Size=255",
    "Hdcp=9,abc",
    "Hdcp=,",
    "Winner=W,inf",
    "Crypt=0",
    "CoordinateType=IGS",
    "PlayerB=,,,,@",
    "YA,B1,0,0",
    "AA,W9,x,y",
    "Z,",
    "NODE,1,0,0,0",
    "NODE,2,1,19,19",
    "NODE,2,2,0,20",
    "NODE,x",
    "VARIATION,",
    "VARIATIONEND,",
    ".Comment,2",
    ".Comment,",
    "(;GM[1]SZ[18]HA[3]AP[foxwq]KM[99999];W[ss]",
    "(TE[x]KO[贴3又/0子]LT[1/0秒]LC[0回]RE[黑胜0/0子])",
    "(;HA[9]AP[GNU Go:3.8]TC[1]TT[1];B[aa];B[bb]",
];

fn lines() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0..PIECES.len(), prop::bool::ANY), 0..40).prop_map(|v| {
        let mut out = Vec::new();
        for (i, crlf) in v {
            out.extend_from_slice(PIECES[i].as_bytes());
            out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        out
    })
}

const FIXTURES: &[&str] = &[
    "gib/global_handicap3.gib",
    "gib/china_gbk.gib",
    "gib/korea_euckr.gib",
    "ngf/even.ngf",
    "ngf/handicap4.ngf",
    "ngf/gi_gbk.ngf",
    "ugf/sjis_handicap.ugf",
    "ugf/review.ugi",
    "sgf/nihon_kiin_sjis.sgf",
    "sgf/fox_handicap_moves.sgf",
    "sgf/go_assistant.sgf",
    "wgs/even_resign.wgs",
    "wgs/handicap3_counting.wgs",
];

proptest! {
    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        exercise(&bytes);
    }

    #[test]
    fn format_flavoured_garbage(bytes in lines()) {
        exercise(&bytes);
    }

    /// WGS-shaped bytes: a header with a board size, any other header
    /// bytes, and move bytes of any kind and length.
    #[test]
    fn wgs_shaped(
        header in prop::collection::vec(any::<u8>(), 122),
        size in 2u8..=52,
        moves in prop::collection::vec(any::<u8>(), 0..200),
        exact in prop::bool::ANY,
    ) {
        let mut b = header;
        b[101] = size;
        if exact {
            b[120..122].copy_from_slice(&((moves.len() / 2) as u16).to_le_bytes());
        }
        b.extend_from_slice(&moves);
        exercise(&b);
    }

    #[test]
    fn damaged_fixtures(
        which in 0..FIXTURES.len(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..8),
    ) {
        let mut b = common::fixture(FIXTURES[which]);
        for (at, byte, kind) in edits {
            if b.is_empty() {
                break;
            }
            let i = at.index(b.len());
            match kind {
                0 => b[i] = byte,
                1 => b.truncate(i),
                _ => {
                    b.remove(i);
                }
            }
        }
        exercise(&b);
    }
}

#[test]
fn deep_review_tree_and_long_games() {
    // 20 000 nested variations and a 100 000-move GIB: no recursion, no panic.
    let mut ugi = String::from("[Header]\nSize=19\n[ReviewNode]\nNODE,1,0,0,0\n");
    for i in 0..20_000 {
        ugi.push_str(&format!("VARIATION,\nNODE,{},1,1,1\n", i + 2));
    }
    let l = builtin()
        .read(ugi.as_bytes(), None, &ReadOptions::default())
        .unwrap();
    assert!(l.parsed.document.game(0).unwrap().nodes().count() > 20_000);
    let mut gib = String::from("\\HS\n\\HE\n\\GS\nINI 0 1 0 &4\n");
    for i in 0..100_000 {
        gib.push_str(&format!(
            "STO 0 {} {} {} {}\n",
            i + 2,
            1 + i % 2,
            i % 19,
            (i / 19) % 19
        ));
    }
    let l = sgf_formats::read_any(gib.as_bytes(), None).unwrap();
    assert_eq!(
        l.parsed.document.game(0).unwrap().main_line().count(),
        100_001
    );
}
