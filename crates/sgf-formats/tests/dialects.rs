//! SGF dialects on the hand-written fixtures: reading reports them and
//! changes nothing; `normalize` rewrites them in FF[4] form, keeps what it
//! replaces, and is idempotent.

mod common;

use common::{fixture, main_line_moves, summarize};
use sgf_core::{Code, Diagnostic, Document, WriteOptions, to_canonical_bytes};
use sgf_formats::{Dialect, detect_dialects, normalize, read_any};

fn read(rel: &str) -> (Document, Vec<Diagnostic>) {
    let l = read_any(&fixture(rel), None).unwrap();
    assert_eq!(l.format, "SGF");
    assert!(!l.converted);
    (l.parsed.document, l.parsed.diagnostics)
}

fn normalized(rel: &str) -> (Document, Vec<Diagnostic>) {
    let (mut doc, _) = read(rel);
    let diags = normalize(&mut doc);
    (doc, diags)
}

fn text(doc: &Document, id: &str) -> Option<String> {
    doc.game(0).unwrap().root().text(id).map(|t| t.into_owned())
}

fn values(doc: &Document, id: &str) -> Vec<String> {
    doc.game(0)
        .unwrap()
        .root()
        .values(id)
        .map(|v| v.decoded().into_owned())
        .collect()
}

fn idents(doc: &Document) -> Vec<String> {
    doc.game(0)
        .unwrap()
        .root()
        .props()
        .map(|p| p.ident().to_string())
        .collect()
}

const ALL: &[&str] = &[
    "sgf/nihon_kiin_sjis.sgf",
    "sgf/sina_gbk.sgf",
    "sgf/fox_chinese.sgf",
    "sgf/fox_handicap_moves.sgf",
    "sgf/fox_missing_handicap.sgf",
    "sgf/go_assistant.sgf",
    "sgf/ogs_nesting.sgf",
    "sgf/ff3_mixed_case.sgf",
    "sgf/pass_18x18.sgf",
];

#[test]
fn each_fixture_is_its_dialect() {
    let want = [
        Dialect::SinaNihonKiin,
        Dialect::SinaNihonKiin,
        Dialect::Fox,
        Dialect::Fox,
        Dialect::Fox,
        Dialect::GoAssistant,
        Dialect::OgsNesting,
        Dialect::MixedCaseIdentifiers,
        Dialect::PassOutsideBoard,
    ];
    for (rel, d) in ALL.iter().zip(want) {
        let (doc, diags) = read(rel);
        assert_eq!(detect_dialects(&doc), [d], "{rel}");
        // Reading reports the dialect by name, once.
        let r: Vec<_> = diags
            .iter()
            .filter(|x| x.code == Code::DialectDetected)
            .collect();
        assert_eq!(r.len(), 1, "{rel}: {diags:?}");
        assert!(r[0].message.contains(d.description()), "{rel}");
    }
}

#[test]
fn reading_changes_nothing() {
    let (doc, _) = read("sgf/nihon_kiin_sjis.sgf");
    assert_eq!(text(&doc, "KO").as_deref(), Some("黒6目半"));
    assert_eq!(text(&doc, "TE").as_deref(), Some("第10回テスト代表"));
    assert!(text(&doc, "KM").is_none());
    assert_eq!(
        sgf_core::to_lossless_bytes(&doc),
        fixture("sgf/nihon_kiin_sjis.sgf")
    );
}

/// The lines of the root's `GC` keeping replaced wording.
fn as_written(doc: &sgf_core::Document) -> Vec<String> {
    text(doc, "GC")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(" as written: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn nihon_kiin_shift_jis() {
    let (doc, diags) = normalized("sgf/nihon_kiin_sjis.sgf");
    assert_eq!(text(&doc, "EV").as_deref(), Some("第10回テスト代表"));
    assert_eq!(text(&doc, "DT").as_deref(), Some("2024-03-01"));
    assert_eq!(text(&doc, "KM").as_deref(), Some("6.5"));
    assert_eq!(text(&doc, "TM").as_deref(), Some("10800"));
    assert_eq!(text(&doc, "OT").as_deref(), Some("10x60 byo-yomi"));
    assert_eq!(text(&doc, "RE").as_deref(), Some("W+R"));
    for gone in ["TE", "RD", "KO", "LT", "LC"] {
        assert!(text(&doc, gone).is_none(), "{gone}");
    }
    assert_eq!(
        as_written(&doc),
        [
            "KO as written: 黒6目半",
            "TM as written: 3時間",
            "LT as written: 60秒",
            "LC as written: 10回",
            "RE as written: 185手完、白中押し勝ち"
        ]
    );
    // The new properties stand where the old ones did.
    assert_eq!(&idents(&doc)[..4], ["EV", "DT", "PC", "TM"]);
    assert!(diags.iter().any(|d| d.code == Code::DialectNormalised));
}

#[test]
fn sina_gbk_chinese_counting() {
    let (doc, _) = normalized("sgf/sina_gbk.sgf");
    assert_eq!(text(&doc, "EV").as_deref(), Some("第5届新浪杯"));
    assert_eq!(text(&doc, "DT").as_deref(), Some("2008-08-08"));
    // 3¾ stones of komi and a win by 1¼ stones, in points.
    assert_eq!(text(&doc, "KM").as_deref(), Some("7.5"));
    assert_eq!(text(&doc, "RE").as_deref(), Some("B+2.5"));
    assert!(as_written(&doc).contains(&"RE as written: 黑胜1又1/4子".to_string()));
}

#[test]
fn fox_scaled_komi_app_and_byo_yomi() {
    let (doc, diags) = normalized("sgf/fox_chinese.sgf");
    assert_eq!(text(&doc, "KM").as_deref(), Some("7.5"));
    assert_eq!(values(&doc, "AP"), ["foxwq"]);
    assert_eq!(text(&doc, "OT").as_deref(), Some("3x30 byo-yomi"));
    assert_eq!(
        as_written(&doc),
        ["KM as written: 375", "AP as written: GNU Go:3.8"]
    );
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("KM[375]") && d.message.contains("Chinese"))
    );
    // No CA in the file: the canonical output declares UTF-8.
    let canon = to_canonical_bytes(&doc, &WriteOptions::default());
    assert!(String::from_utf8(canon).unwrap().contains("CA[UTF-8]"));
}

#[test]
fn fox_handicap_played_as_moves() {
    let (doc, _) = normalized("sgf/fox_handicap_moves.sgf");
    assert_eq!(values(&doc, "AB"), ["pd", "dp"]);
    // KM[50] under Japanese rules.
    assert_eq!(text(&doc, "KM").as_deref(), Some("0.5"));
    assert_eq!(main_line_moves(&doc, 0), ["W[qp]", "B[oq]", "W[dd]"]);
    let sum = summarize(&doc, 0);
    assert_eq!((sum.black, sum.white, sum.occupied), (3, 2, 0));
}

#[test]
fn fox_missing_handicap_stones() {
    let (doc, diags) = normalized("sgf/fox_missing_handicap.sgf");
    assert_eq!(values(&doc, "AB"), ["dp", "pd", "dd"]);
    assert!(diags.iter().any(|d| d.code == Code::HandicapPlaced));
    let sum = summarize(&doc, 0);
    assert_eq!((sum.black, sum.white, sum.occupied), (5, 2, 0));
}

#[test]
fn fox_missing_handicap_that_does_not_fit_is_left_alone() {
    // White's first move is on a handicap point: no placement is guessed.
    let src = b"(;GM[1]FF[4]SZ[19]KM[0]HA[2]AP[foxwq];W[pd];B[qq])";
    let mut doc = sgf_core::parse(src).document;
    let diags = normalize(&mut doc);
    assert!(values(&doc, "AB").is_empty());
    assert!(
        diags
            .iter()
            .any(|d| d.code == Code::HandicapPlaced && d.message.contains("no fixed placement"))
    );
}

#[test]
fn go_assistant_main_line_after_variations() {
    let (doc, _) = normalized("sgf/go_assistant.sgf");
    assert_eq!(
        main_line_moves(&doc, 0),
        ["B[ee]", "W[cg]", "B[gg]", "W[cc]"]
    );
    // The variations are still there, after the main line.
    let ee = doc.game(0).unwrap().main_line().nth(1).unwrap();
    let kids: Vec<String> = ee
        .children()
        .map(|c| c.text("W").unwrap().into_owned())
        .collect();
    assert_eq!(kids, ["cg", "cc", "gc"]);
    let canon = to_canonical_bytes(&doc, &WriteOptions::default());
    let again = sgf_core::parse(&canon);
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
}

#[test]
fn ogs_nesting_is_written_flat() {
    let (doc, diags) = normalized("sgf/ogs_nesting.sgf");
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("4 single continuations"))
    );
    let canon = String::from_utf8(to_canonical_bytes(&doc, &WriteOptions::default())).unwrap();
    assert_eq!(canon.matches('(').count(), 1, "{canon}");
    assert_eq!(main_line_moves(&doc, 0).len(), 5);
}

#[test]
fn ff3_mixed_case_identifiers() {
    let (doc, diags) = read("sgf/ff3_mixed_case.sgf");
    let d = diags
        .iter()
        .find(|d| d.code == Code::DialectDetected)
        .unwrap();
    assert!(d.message.contains("FileFormat → FF"), "{}", d.message);
    let canon = String::from_utf8(to_canonical_bytes(&doc, &WriteOptions::default())).unwrap();
    assert!(
        canon.contains("CP[Pandanet]") && canon.contains("PB[kuro]"),
        "{canon}"
    );
}

#[test]
fn pass_outside_an_18x18_board_is_reported_not_guessed() {
    let (doc, diags) = normalized("sgf/pass_18x18.sgf");
    let g: Vec<_> = diags
        .iter()
        .filter(|d| d.code == Code::AmbiguousPass)
        .collect();
    assert_eq!(g.len(), 2);
    assert_eq!(main_line_moves(&doc, 0), ["B[dd]", "W[ss]", "B[ss]"]);
    // `tt` on a small board is the FF[3] pass, not this dialect.
    let doc = sgf_core::parse(b"(;SZ[18];B[tt])").document;
    assert!(detect_dialects(&doc).is_empty());
}

#[test]
fn normalising_twice_changes_nothing_more() {
    for rel in ALL {
        let (mut doc, _) = read(rel);
        normalize(&mut doc);
        let canon = to_canonical_bytes(&doc, &WriteOptions::default());
        let mut again = sgf_core::parse(&canon).document;
        let diags = normalize(&mut again);
        assert!(
            !diags
                .iter()
                .any(|d| matches!(d.code, Code::DialectNormalised | Code::HandicapPlaced)),
            "{rel}: {diags:?}"
        );
        assert_eq!(
            to_canonical_bytes(&again, &WriteOptions::default()),
            canon,
            "{rel}"
        );
    }
}

#[test]
fn plain_ff4_is_left_alone() {
    let src = b"(;FF[4]GM[1]SZ[19]KM[6.5]HA[2]AB[dp][pd]RE[B+R];W[qq](;B[cc])(;B[dd]))";
    let mut doc = sgf_core::parse(src).document;
    assert!(detect_dialects(&doc).is_empty());
    assert!(normalize(&mut doc).is_empty());
    assert_eq!(sgf_core::to_lossless_bytes(&doc), src);
}

/// Found by the `fmt_idempotent` fuzz target: a Sina `TE` whose Shift_JIS
/// text does not decode (U+FFFD) could not be re-encoded as `EV`, so the
/// first `fmt` kept `TE` and the second (on UTF-8) renamed it.
#[test]
fn undecodable_te_is_renamed_with_its_bytes() {
    let input = b"(;GM[1]FF[4]CA[Shift_JIS]TE[\x83\x65\xff\x81 cup]C[x];B[pd])";
    let fmt = |bytes: &[u8]| {
        let mut p = sgf_core::parse(bytes);
        sgf_formats::repair::fmt(&mut p);
        to_canonical_bytes(&p.document, &WriteOptions::default())
    };
    let once = fmt(input);
    let text = String::from_utf8_lossy(&once);
    assert!(text.contains("EV[") && !text.contains("TE["), "{text}");
    assert_eq!(fmt(&once), once, "fmt is not idempotent");
}
