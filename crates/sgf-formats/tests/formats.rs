//! Each reader on the hand-written fixtures of `testdata/formats/`: what a
//! careful reader of the file expects (players, ranks, result, komi,
//! handicap, moves, final position) and where the problems are reported.

mod common;

use common::{Summary, fixture, line_of, main_line_moves, summarize};
use sgf_core::{Code, Severity};
use sgf_formats::{Loaded, read_any};

fn load(rel: &str) -> (Vec<u8>, Loaded) {
    let bytes = fixture(rel);
    let loaded = read_any(&bytes, None).unwrap_or_else(|e| panic!("{rel}: {e}"));
    (bytes, loaded)
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

/// Lines (1-based) of the diagnostics with `code`.
fn lines_of(bytes: &[u8], l: &Loaded, code: Code) -> Vec<usize> {
    l.parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| line_of(bytes, d.span))
        .collect()
}

fn root_text(l: &Loaded, id: &str) -> Option<String> {
    l.parsed
        .document
        .game(0)
        .unwrap()
        .root()
        .text(id)
        .map(|t| t.into_owned())
}

fn root_values(l: &Loaded, id: &str) -> Vec<String> {
    l.parsed
        .document
        .game(0)
        .unwrap()
        .root()
        .values(id)
        .map(|v| v.decoded().into_owned())
        .collect()
}

#[test]
fn gib_global_handicap_passes_and_bad_lines() {
    let (bytes, l) = load("gib/global_handicap3.gib");
    assert_eq!((l.format, l.charset, l.converted), ("GIB", "ASCII", true));
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        sum,
        Summary {
            pb: s("beta"),
            pw: s("alpha"),
            br: s("12k"),
            wr: s("3d"),
            re: s("W+2.5"),
            km: s("0.5"),
            ha: s("3"),
            dt: s("2021-07-04"),
            size: 19,
            moves: 7,
            passes: 1,
            black: 5,
            white: 4,
            ..Summary::default()
        }
    );
    // The Tygem order: third stone top-left.
    assert_eq!(root_values(&l, "AB"), ["dp", "pd", "dd"]);
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["W[pp]", "B[qn]", "W[nq]", "B[]", "W[cc]", "B[cd]", "W[dc]"]
    );
    assert_eq!(root_text(&l, "OT"), s("5x30 byo-yomi"));
    assert_eq!(root_text(&l, "TM"), s("1800"));
    // The header line without `=`, the move off the board, the unknown opcode.
    assert_eq!(lines_of(&bytes, &l, Code::FormatUnreadable), [16, 27, 28]);
    assert_eq!(lines_of(&bytes, &l, Code::HandicapPlaced), [21]);
    // Fields without an SGF equivalent are kept verbatim.
    let kept = root_values(&l, "GIBHEADER");
    assert!(
        kept.contains(&"GAMECONDITION=3 Handicap".to_string()),
        "{kept:?}"
    );
    assert!(kept.iter().any(|k| k.starts_with("GAMETAG=S0,R3")));
    assert!(!kept.iter().any(|k| k.starts_with("GAMEBLACKNAME")));
}

#[test]
fn gib_gbk_china_capture_and_chat() {
    let (_, l) = load("gib/china_gbk.gib");
    assert_eq!(l.charset, "gb18030");
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        (
            sum.pb.as_deref(),
            sum.br.as_deref(),
            sum.pw.as_deref(),
            sum.wr.as_deref()
        ),
        (Some("张三"), Some("5d"), Some("李四"), Some("4d"))
    );
    assert_eq!(
        (sum.re.as_deref(), sum.km.as_deref(), sum.dt.as_deref()),
        (Some("B+R"), Some("7.5"), Some("2019-05-01"))
    );
    assert_eq!((sum.moves, sum.black, sum.white), (7, 4, 2));
    assert_eq!(sum.captured_by_black, 1);
    assert_eq!(root_text(&l, "GN"), s("友谊赛"));
    assert_eq!(root_text(&l, "GC"), s("请多指教"));
    assert_eq!(root_text(&l, "C"), s("在15房间正在进行对局准备。"));
    assert!(root_values(&l, "GIBHEADER").contains(&"GAMECONDITION=分先：黑贴3又3/4子".to_string()));
    assert!(
        l.parsed
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Info)
    );
}

#[test]
fn gib_euc_kr_and_a_hint_the_bytes_contradict() {
    let (_, l) = load("gib/korea_euckr.gib");
    assert_eq!(l.charset, "EUC-KR");
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        (
            sum.pb.as_deref(),
            sum.br.as_deref(),
            sum.pw.as_deref(),
            sum.wr.as_deref()
        ),
        (Some("초보"), Some("5k"), Some("바둑왕"), Some("2d"))
    );
    assert_eq!(
        (sum.re.as_deref(), sum.km.as_deref()),
        (Some("W+T"), Some("6.5"))
    );
    assert_eq!(root_text(&l, "GN"), s("친선 대국"));

    let (bytes, l) = load("gib/korea_but_utf8.gib");
    assert_eq!(l.charset, "UTF-8");
    assert_eq!(root_text(&l, "PB"), s("바다"));
    assert_eq!(root_text(&l, "RE"), s("B+R"));
    assert_eq!(lines_of(&bytes, &l, Code::CharsetMismatch), [2]);
}

#[test]
fn ngf_line_positions() {
    let (bytes, l) = load("ngf/even.ngf");
    assert_eq!((l.format, l.charset), ("NGF", "ASCII"));
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        sum,
        Summary {
            pb: s("Lee"),
            pw: s("Kim Soo"),
            br: s("3d"),
            wr: s("5p"),
            re: s("W+3.5"),
            // 6 in an even game: the half point is added.
            km: s("6.5"),
            dt: s("2020-01-02"),
            size: 19,
            moves: 7,
            passes: 1,
            black: 3,
            white: 3,
            ..Summary::default()
        }
    );
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["B[pd]", "W[dp]", "B[pp]", "B[]", "W[dd]", "W[cc]", "B[jj]"]
    );
    // The move count in the header, the check letters of PMAG.
    assert_eq!(lines_of(&bytes, &l, Code::FormatUnreadable), [12, 18]);
    let kept = root_values(&l, "NGFHEADER");
    assert_eq!(kept, ["line7=0", "line9=20200102 [18:30]", "line10=5"]);
}

#[test]
fn ngf_handicap() {
    let (_, l) = load("ngf/handicap4.ngf");
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        (sum.ha.as_deref(), sum.km.as_deref(), sum.re.as_deref()),
        (Some("4"), Some("0"), Some("B+R"))
    );
    assert_eq!(
        (sum.wr.as_deref(), sum.br.as_deref()),
        (Some("6d*"), Some("2k"))
    );
    assert_eq!(root_values(&l, "AB"), ["dp", "pd", "dd", "pp"]);
    assert_eq!(
        (sum.moves, sum.black, sum.white, sum.occupied),
        (3, 5, 2, 0)
    );
    assert!(
        l.parsed
            .diagnostics
            .iter()
            .any(|d| d.code == Code::HandicapPlaced && d.message.contains("Tygem"))
    );
}

#[test]
fn ngf_gi_variant_in_gbk() {
    let (_, l) = load("ngf/gi_gbk.ngf");
    assert_eq!(l.charset, "gb18030");
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        (
            sum.pw.as_deref(),
            sum.wr.as_deref(),
            sum.pb.as_deref(),
            sum.br.as_deref()
        ),
        (Some("王五"), Some("3d"), Some("赵六"), Some("7d"))
    );
    // The result sentence of the IDB line, in Chinese stones: 1¼ × 2.
    assert_eq!(
        (sum.re.as_deref(), sum.km.as_deref(), sum.dt.as_deref()),
        (Some("W+2.5"), Some("7.5"), Some("2010-05-01"))
    );
    assert_eq!(root_text(&l, "EV"), s("名人战决赛"));
    assert_eq!(sum.moves, 4);
    assert!(
        root_values(&l, "NGFHEADER")
            .iter()
            .any(|v| v.contains("白胜1又1/4子"))
    );
}

#[test]
fn ugf_shift_jis_handicap_pass_and_no_email() {
    let (_, l) = load("ugf/sjis_handicap.ugf");
    assert_eq!((l.format, l.charset), ("UGF", "Shift_JIS"));
    let sum = summarize(&l.parsed.document, 0);
    assert_eq!(
        sum,
        Summary {
            pb: s("山田"),
            pw: s("鈴木"),
            br: s("3d"),
            wr: s("5d"),
            re: s("W+3.5"),
            km: s("0.5"),
            ha: s("2"),
            dt: s("2022-11-03"),
            size: 19,
            moves: 5,
            passes: 1,
            black: 3,
            white: 3,
            ..Summary::default()
        }
    );
    assert_eq!(root_values(&l, "AB"), ["dp", "pd"]);
    assert_eq!(
        main_line_moves(&l.parsed.document, 0),
        ["W[qp]", "B[dc]", "W[qc]", "B[]", "W[cq]"]
    );
    assert_eq!(root_text(&l, "GN"), s("第5期, 表彰戦, 第1局"));
    assert_eq!(root_text(&l, "GC"), s("表の碁"));
    assert_eq!(root_text(&l, "RU"), s("Japanese"));
    let canon = sgf_core::to_canonical_bytes(&l.parsed.document, &Default::default());
    assert!(
        !String::from_utf8_lossy(&canon).contains('@'),
        "an e-mail address was copied"
    );
    assert!(
        l.parsed
            .diagnostics
            .iter()
            .any(|d| d.code == Code::FieldKept && d.message.contains("e-mail"))
    );
    // The section nobody reads is kept.
    assert!(
        root_values(&l, "UGFHEADER")
            .iter()
            .any(|v| v.starts_with("[Figure]"))
    );

    // On request the address is kept.
    let mut opts = sgf_formats::ReadOptions::default();
    opts.keep_email = true;
    let bytes = fixture("ugf/sjis_handicap.ugf");
    let l = sgf_formats::builtin().read(&bytes, None, &opts).unwrap();
    assert!(root_values(&l, "UGFHEADER").contains(&"PlayerB.email=yamada@example.jp".to_string()));
}

#[test]
fn ugi_review_tree_with_nested_variations_and_comments() {
    let (bytes, l) = load("ugf/review.ugi");
    let doc = &l.parsed.document;
    let g = doc.game(0).unwrap();
    assert_eq!(
        main_line_moves(doc, 0),
        ["B[dd]", "W[pp]", "B[dp]", "W[pd]"]
    );
    assert_eq!(g.nodes().count(), 9);
    // After W[pp]: the main line B[dp], then the variation B[pd].
    let pp = g.main_line().nth(2).unwrap();
    let kids: Vec<String> = pp
        .children()
        .map(|c| format!("{}", c.text("B").unwrap()))
        .collect();
    assert_eq!(kids, ["dp", "pd"]);
    // The variation: B[pd] W[dp] with two continuations, B[cq] and W[jj].
    let var = pp.children().nth(1).unwrap();
    let w = var.first_child().unwrap();
    assert_eq!(w.text("W").unwrap(), "dp");
    assert_eq!(w.text("C").unwrap(), "white 1k : the variation");
    let cont: Vec<String> = w
        .children()
        .map(|c| {
            c.props()
                .map(|p| format!("{}[{}]", p.ident(), p.first().unwrap().decoded()))
                .collect::<Vec<_>>()
                .join("")
        })
        .collect();
    assert_eq!(cont, ["B[cq]", "W[jj]C[black 1k : a nested one]"]);
    // Comments: the root, the end marker's (on the last move), the unknown node's.
    assert_eq!(
        g.root().text("C").unwrap(),
        "white 1k : hello\n(node 99) nobody: lost"
    );
    assert_eq!(
        g.main_line().last().unwrap().text("C").unwrap(),
        "black 1k : thanks"
    );
    assert_eq!(lines_of(&bytes, &l, Code::FormatUnreadable), [39]);
    let sum = summarize(doc, 0);
    assert_eq!(
        (sum.re.as_deref(), sum.km.as_deref()),
        (Some("B+0.5"), Some("6.5"))
    );
}

#[test]
fn obfuscated_ugf_is_refused() {
    let bytes = fixture("ugf/crypt.ugf");
    let e = read_any(&bytes, None).unwrap_err();
    assert_eq!(e.format, "UGF");
    assert!(e.to_string().contains("obfuscated"), "{e}");
}

#[test]
fn converted_records_are_clean_ff4() {
    for rel in [
        "gib/global_handicap3.gib",
        "gib/china_gbk.gib",
        "gib/korea_euckr.gib",
        "ngf/even.ngf",
        "ngf/gi_gbk.ngf",
        "ugf/sjis_handicap.ugf",
        "ugf/review.ugi",
    ] {
        let (bytes, l) = load(rel);
        // Diagnostic spans are in the input.
        for d in &l.parsed.diagnostics {
            assert!(d.span.end as usize <= bytes.len(), "{rel}: {d:?}");
            assert!(
                !d.message.starts_with("the converted record"),
                "{rel}: the generated SGF did not parse cleanly: {}",
                d.message
            );
        }
        let doc = &l.parsed.document;
        let canon = sgf_core::to_canonical_bytes(doc, &Default::default());
        let again = sgf_core::parse(&canon);
        assert!(
            again.diagnostics.is_empty(),
            "{rel}: {:?}",
            again.diagnostics
        );
        assert!(
            canon.starts_with(b"(;FF[4]\nCA[UTF-8]\nGM[1]\nSZ["),
            "{rel}"
        );
        // Already FF[4]: normalising finds nothing.
        let mut d2 = again.document;
        assert!(sgf_formats::normalize(&mut d2).is_empty(), "{rel}");
    }
}

#[test]
fn sniffing_by_content_beats_the_extension() {
    let r = sgf_formats::builtin();
    let p = |s: &str| Some(std::path::Path::new(s).to_path_buf());
    for (rel, want) in [
        ("gib/global_handicap3.gib", "GIB"),
        ("ngf/even.ngf", "NGF"),
        ("ngf/gi_gbk.ngf", "NGF"),
        ("ugf/review.ugi", "UGF"),
        ("sgf/nihon_kiin_sjis.sgf", "SGF"),
        ("sgf/fox_chinese.sgf", "SGF"),
    ] {
        let b = fixture(rel);
        assert_eq!(r.detect(&b, None).name(), want, "{rel}");
        assert_eq!(
            r.detect(&b, p("wrong.sgf").as_deref()).name(),
            want,
            "{rel}"
        );
        assert_eq!(
            r.detect(&b, p("wrong.gib").as_deref()).name(),
            want,
            "{rel}"
        );
    }
    // No evidence in the content: the extension decides, then SGF.
    assert_eq!(r.detect(b"", p("x.ngf").as_deref()).name(), "NGF");
    assert_eq!(r.detect(b"hello", None).name(), "SGF");
    assert_eq!(r.by_name("ugi").unwrap().name(), "UGF");
    assert_eq!(r.by_name("wgs").unwrap().name(), "WGS");
    assert!(r.by_name("xyz").is_none());
}

#[test]
fn formats_multigo_reads_and_qipu_cannot_say_so() {
    let r = sgf_formats::builtin();
    let opts = sgf_formats::ReadOptions::default();
    for (file, name, whose) in [
        ("game.bdx", "BDX", "清风"),
        ("GAME.GOS", "GOS", "联众"),
        ("game.go", "GO", "China Game Center"),
    ] {
        let path = Some(std::path::Path::new(file));
        let binary = [0x17u8, 0, 0x80, 0xff, 3, 0, 0, 0];
        let f = r.detect(&binary, path);
        assert_eq!(f.name(), name);
        let e = f.read(&binary, &opts).unwrap_err();
        assert_eq!(e.format, name);
        assert!(e.message.starts_with("format not supported"), "{e}");
        assert!(e.message.contains(whose), "{e}");
        assert!(e.to_string().contains(name), "{e}");
        // The registry's read says the same.
        let e = r.read(&binary, path, &opts).unwrap_err();
        assert!(e.message.starts_with("format not supported"), "{e}");
        assert_eq!(r.by_name(name).unwrap().name(), name);
        // What a reader recognises is read, whatever the extension.
        let sgf = r.read(b"(;GM[1];B[aa])", path, &opts).unwrap();
        assert_eq!(sgf.format, "SGF");
        // A directory walk does not take `.go` source files for records.
        assert!(!sgf_formats::walk::is_record_path(std::path::Path::new(
            file
        )));
    }
}
