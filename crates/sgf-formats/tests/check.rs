//! The checker and the repair, fixture by fixture (`testdata/check/`): each
//! `NAME.check` snapshot holds the diagnostics (code, line), the changes of
//! the repair, the repaired output, and what is left when it is checked
//! again. Left may only be what cannot be repaired (Go play, unknown or
//! legacy properties kept). `QIPU_UPDATE_SNAPSHOTS=1` rewrites the snapshots.
//! Fixtures whose name starts with `variation_level` are repaired with
//! `RepairOptions::variation_level` on.

#[path = "../../../testsupport/text_survival.rs"]
mod text_survival;

use std::fmt::Write as _;
use std::path::Path;

use sgf_core::{Code, Severity, WriteOptions, parse};

/// Codes that a repair reports but leaves (they describe play or kept content).
const UNREPAIRABLE: &[Code] = &[
    Code::OccupiedPoint,
    Code::Suicide,
    Code::KoRetake,
    Code::HandicapMismatch,
    Code::SameColorTwice,
    Code::AmbiguousPass,
    Code::NotGo,
    Code::UnknownProperty,
    Code::PrivateProperty,
    Code::LegacyProperty,
    Code::BadKomi,
    // NUL bytes in text are kept: replacing them would change the text.
    Code::NulByte,
    // Text outside the game trees is kept where it stands.
    Code::TextAfterTrees,
    Code::DataBeforeTree,
];

/// Fixtures holding values that are not understood: those are left as
/// they are (never read as another value), and the check of the output
/// reports them, with these codes.
const NOT_UNDERSTOOD: &[(&str, &[Code])] = &[
    ("dates_uncorrectable.sgf", &[Code::BadDate]),
    ("invalid_double_color.sgf", &[Code::InvalidDouble]),
    ("invalid_numbers.sgf", &[Code::InvalidNumber]),
    ("invalid_reals.sgf", &[Code::InvalidReal]),
    ("results_uncorrectable.sgf", &[Code::BadResult]),
    ("size_out_of_range.sgf", &[Code::OutOfRange]),
    (
        "value_prefixes.sgf",
        &[
            Code::InvalidNumber,
            Code::InvalidReal,
            Code::BadResult,
            Code::BadDate,
        ],
    ),
];

fn all_diagnostics(bytes: &[u8]) -> Vec<sgf_core::Diagnostic> {
    let p = parse(bytes);
    let mut d = p.diagnostics.clone();
    d.extend(sgf_go::check::check(&p.document));
    d.sort_by_key(|d| (d.span.start, d.code));
    d
}

/// Fixtures named `variation_level*` are repaired with that option on.
fn snapshot(bytes: &[u8], opts: &sgf_go::fix::RepairOptions) -> (String, Vec<String>) {
    let p = parse(bytes);
    let mut s = String::from("# diagnostics\n");
    for d in all_diagnostics(bytes) {
        let (l, c) = p.document.line_col(d.span.start);
        let _ = writeln!(
            s,
            "{} {} {l}:{c} {}",
            d.code.as_str(),
            d.severity,
            d.message
        );
    }
    let mut doc = p.document.clone();
    let r = sgf_formats::repair::repair_to_canonical(&mut doc, &WriteOptions::default(), opts)
        .expect("a fixture is written");
    let (out, changes, remaining) = (r.bytes, r.changes, r.remaining);
    s.push_str("# changes\n");
    for c in &changes {
        let (l, col) = p.document.line_col(c.span.start);
        let _ = writeln!(s, "{} {l}:{col} {}", c.code.as_str(), c.message);
    }
    s.push_str("# repaired\n");
    s.push_str(&String::from_utf8_lossy(&out));
    s.push_str("# left\n");
    let mut problems = Vec::new();
    for d in &remaining {
        let _ = writeln!(s, "{} {} {}", d.code.as_str(), d.severity, d.message);
        if d.severity != Severity::Info && !UNREPAIRABLE.contains(&d.code) {
            problems.push(format!("{} {}", d.code.as_str(), d.message));
        }
    }
    (s, problems)
}

#[test]
fn check_and_repair_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/check");
    let update = std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    files.sort();
    assert!(files.len() >= 40);
    let mut failures = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let mut opts = sgf_go::fix::RepairOptions::default();
        opts.variation_level = name.starts_with("variation_level");
        let (snap, mut problems) = snapshot(&std::fs::read(&f).unwrap(), &opts);
        if let Some((_, codes)) = NOT_UNDERSTOOD.iter().find(|(n, _)| *n == name) {
            problems.retain(|p| !codes.iter().any(|c| p.starts_with(c.as_str())));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{name}: the repaired output is not clean: {problems:?}"
            ));
        }
        let sp = f.with_extension("check");
        match std::fs::read_to_string(&sp) {
            Ok(old) if old == snap => {}
            _ if update => std::fs::write(&sp, snap).unwrap(),
            _ => failures.push(format!("{name}: snapshot differs or is missing")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One fixture per rule: the code it must produce and the line it points at.
#[test]
fn each_rule_has_its_code_and_line() {
    let cases: &[(&str, &str, u32)] = &[
        ("(;FF[4]GM[1]\n;SZ[9])", "F001", 2),
        ("(;FF[4]PB[a]\n;B[aa]PW[b])", "F002", 2),
        ("(;FF[4]\n;AB[aa]B[bb])", "F003", 2),
        ("(;FF[4]\n;B[aa]W[bb])", "F004", 2),
        ("(;FF[4]\n;C[x]TE[1])", "F005", 2),
        ("(;FF[4]\n;KO[])", "F005", 2),
        ("(;FF[4]\n;B[aa]BM[1]\nTE[1])", "F006", 3),
        ("(;FF[4]\n;GB[1]GW[1])", "F007", 2),
        ("(;FF[4]\n;B[aa]\nXY[1])", "F008", 3),
        ("(;FF[4]PB[a][b])", "F009", 1),
        ("(;FF[4]\nPB[])", "F010", 2),
        ("(;FF[4]\n;L[aa])", "F011", 2),
        ("(;FF[4]GM[1]\nB[aa])", "F012", 2),
        ("(;FF[4]GM[2])", "F015", 1),
        ("(;FF[4]\nHA[two])", "V001", 2),
        ("(;FF[4]\nKM[6,5])", "V002", 2),
        ("(;FF[4]\n;B[aa]GB[3])", "V003", 2),
        ("(;FF[4]\nPL[X])", "V004", 2),
        ("(;FF[4]\n;B[aa]\nLB[aa])", "V006", 3),
        ("(;FF[4]\n;B[aa:bb])", "V007", 2),
        ("(;FF[4]\nSZ[19:19])", "V008", 2),
        ("(;FF[4]\nSZ[53])", "V009", 2),
        ("(;FF[4]\nFF[5])", "V009", 2),
        ("(;FF[4]ST[4])", "V009", 1),
        ("(;FF[4]GM[1]\nDT[2024/1/5])", "V010", 2),
        ("(;FF[4]\nRE[Black wins])", "V011", 2),
        ("(;FF[4]\nAB[aa][aa])", "V012", 2),
        ("(;FF[4]\n;B[aa]CR[bb]\nSQ[bb])", "V012", 3),
        ("(;FF[4]\n;B[aa]AR[bb:bb])", "V013", 2),
        ("(;FF[4]\n;B[aa]LN[aa:bb]\n[aa:bb])", "V013", 3),
        ("(;FF[4]\n;B[aa]LB[cc:1]\n[cc:2])", "V014", 3),
        ("(;FF[4]\nAB[aa:cc]\n[bb])", "V015", 3),
        ("(;FF[4]\nAB[cc:aa])", "V016", 2),
        ("(;FF[4]SZ[9]\n;B[kk])", "V017", 2),
        ("(;FF[4]SZ[9:5]\n;B[ef])", "V017", 2),
        ("(;FF[4]\n;B[tt])", "V018", 2),
        ("(;FF[4]\n;B[DD])", "V019", 2),
        ("(;FF[4]\nKM[375])", "V020", 2),
        ("(;FF[3]\nAB[aa:bb])", "V021", 2),
        ("(;FF[3]\n;B[])", "V022", 2),
        ("(;FF[4]\n;B[aa]KO[x])", "V024", 2),
        ("(;FF[4]\nTM[2 hours])", "V025", 2),
        ("(;FF[4]\n;B[aa]\n;W[aa])", "G001", 3),
        ("(;FF[4]AB[ba][ab]\n;W[aa])", "G002", 2),
        (
            "(;FF[4]SZ[5]AB[bb][ac][bd]AW[cb][dc][cd][bc]\n;B[cc]\n;W[bc])",
            "G003",
            3,
        ),
        ("(;FF[4]AB[aa]\n;AB[aa])", "G004", 2),
        ("(;FF[4]\nHA[3]AB[dd][pp])", "G005", 2),
        ("(;FF[4]\n;B[aa]\n;B[bb])", "G006", 3),
        ("(;FF[4]SZ[18]\n;B[ss])", "G007", 2),
        ("(;FF[4]\n;B[aa]\n(;W[bb])\n(;B[cc]))", "G008", 4),
        ("(;FF[3]\n;B[aa]VW[aa][cc])", "V026", 2),
        ("(;FF[4]\n;B[aa]\n;AB[bb])", "G009", 3),
        ("(;FF[4]\nHA[2]AB[aa][bb]AW[cc])", "G005", 2),
        ("(;FF[4])\n(;FF[4])", "F018", 2),
    ];
    for (src, code, line) in cases {
        let p = parse(src.as_bytes());
        let diags = all_diagnostics(src.as_bytes());
        let d = diags
            .iter()
            .find(|d| d.code.as_str() == *code)
            .unwrap_or_else(|| panic!("{code} not reported for {src:?}: {diags:?}"));
        assert_eq!(
            p.document.line_col(d.span.start).0,
            *line,
            "{code} in {src:?}"
        );
    }
}

/// `qipu check --fix`: the repaired canonical bytes (the input itself
/// when the repair is refused: the file is left as it is).
fn fix(bytes: &[u8]) -> Vec<u8> {
    let mut doc = parse(bytes).document;
    sgf_formats::repair::repair_to_canonical(
        &mut doc,
        &WriteOptions::default(),
        &sgf_formats::repair::RepairOptions::default(),
    )
    .map_or_else(|_| bytes.to_vec(), |r| r.bytes)
}

/// `qipu fmt`: the dialects normalised, the canonical bytes.
fn fmt(bytes: &[u8]) -> Vec<u8> {
    let mut p = parse(bytes);
    sgf_formats::repair::fmt(&mut p);
    sgf_core::to_canonical_bytes(&p.document, &WriteOptions::default())
}

/// Found by the `fix` fuzz target: two `PB` values in a Big5 game whose
/// bytes do not all decode were joined only by the second repair (the
/// first could not write U+FFFD in Big5).
#[test]
fn joining_undecodable_text_is_idempotent() {
    let input = b"(;GM[1]CA[Big5]PB[\xb3\xf2\xb4\xd1\xa4j\xae\x01v;d][Bp])\n";
    let once = fix(input);
    let text = String::from_utf8_lossy(&once);
    assert!(text.contains("v;d, Bp]"), "{text}");
    assert_eq!(String::from_utf8_lossy(&fix(&once)), text);
}

/// Found by the `fix` fuzz target: a bad move deleted by the value repairs
/// left its `KO` alone, which only the second repair deleted.
#[test]
fn annotations_of_a_deleted_move_go_with_it() {
    let input = b"(;GM[1]FF[4];W[zz]KO[];B[dd])\n";
    let once = fix(input);
    let text = String::from_utf8_lossy(&once);
    assert!(!text.contains("KO"), "{text}");
    assert_eq!(String::from_utf8_lossy(&fix(&once)), text);
}

/// Found by the `fix` fuzz target: in a game not in UTF-8, a repair of a
/// raw value (`AP[name]` → `AP[name:]`) saw the bytes as UTF-8, could not
/// write them back and did nothing; the second repair (on UTF-8) did it.
#[test]
fn raw_repairs_work_in_legacy_charsets() {
    let input = "(;GM[1]FF[4]CA[GBK]AP[围棋]C[对局])\n";
    let (bytes, _, _) = encoding_rs::GBK.encode(input);
    let once = fix(&bytes);
    let text = String::from_utf8_lossy(&once);
    assert!(
        text.contains("AP[围棋:]") && text.contains("C[对局]"),
        "{text}"
    );
    assert_eq!(String::from_utf8_lossy(&fix(&once)), text);
}

/// Found by the `fix` fuzz target: a value read past an unescaped `]`
/// (`AP[GoGui:1.4.9]` then `8]`) kept as the one `AP` value could not be
/// written back raw, so the first repair left both values. The second
/// value, once silently dropped, is kept in `GC`.
#[test]
fn values_read_past_a_bracket_are_repaired_at_once() {
    let input = b"(;FF[4]AP[GoGui:1.4.9]\n8]AP[GoGui:1.4.9]-08];B[ab])\n";
    let once = fix(input);
    let text = String::from_utf8_lossy(&once);
    // One `AP` value, the first; the other's wording is kept in `GC`.
    assert!(text.contains("AP[GoGui:1.4.9\\]\n8]\n"), "{text}");
    assert!(!text.contains("8]["), "{text}");
    assert!(
        text.contains("GC[AP as written: GoGui:1.4.9\\]-08]"),
        "{text}"
    );
    assert_eq!(String::from_utf8_lossy(&fix(&once)), text);
}

/// Found by the `fix` fuzz target: Fox's handicap stones played as moves
/// were seen only once an unreadable move before them was deleted, i.e. by
/// the second repair.
#[test]
fn a_dialect_behind_a_deleted_move_is_normalised_at_once() {
    let input =
        b"(;GM[1]FF[4]SZ[19]KM[50]HA[2]RU[Japanese]AP[foxwq];B[p`];B[dp];B[oq];W[qp];W[dd])\n";
    let once = fix(input);
    let text = String::from_utf8_lossy(&once);
    assert!(text.contains("AB[dp][oq]"), "{text}");
    assert_eq!(String::from_utf8_lossy(&fix(&once)), text);
}

/// Every input the fuzz targets found not idempotent or losing text
/// (`testdata/fuzz/`): `fix(fix(x)) == fix(x)` and `fmt(fmt(x)) ==
/// fmt(x)`, and both keep every text of the input (the oracle of the fuzz
/// targets and the corpus test).
#[test]
fn fuzz_finds_are_idempotent() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "snap") {
            continue;
        }
        let input = std::fs::read(&path).unwrap();
        let read = parse(&input).document;
        for (what, once) in [("fix", fix(&input)), ("fmt", fmt(&input))] {
            let again = if what == "fix" {
                fix(&once)
            } else {
                fmt(&once)
            };
            assert_eq!(again, once, "{what} of {}", path.display());
            let lost = text_survival::lost(&read, &parse(&once).document);
            assert!(
                lost.is_empty(),
                "{what} of {}: lost {lost:?}",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n >= 7);
}

/// Found by the `fix` fuzz target with the text oracle
/// (`testdata/fuzz/fix-12.sgf`): `(C[\xb6])(;][\xff])` was read
/// charset-aware as Big5 (`\xb6]` one character), then decided
/// windows-1252 on that reading: its escapes were read by one charset and
/// its text by another, and the repaired `C` came out with a backslash
/// more (`¶\\\]` for `¶]`). A game is read charset-aware only when it
/// is decoded in that charset.
#[test]
fn a_game_read_charset_aware_is_decoded_in_that_charset() {
    let input = b"(C[\xb6])(;][\xff])";
    let p = parse(&input[..]);
    for g in p.document.games() {
        let dbcs = p.document.dbcs_of(g.root().id());
        assert!(
            dbcs.is_none() || sgf_core::charset::Dbcs::of(g.encoding()) == dbcs,
            "{} read as {dbcs:?}",
            g.charset()
        );
    }
    fix_keeps_everything(input);
}

/// Found by the `fix` fuzz target (`testdata/fuzz/fix-20.sgf`..`fix-22`):
/// a GB18030 lead byte before a digit is no character, and the digit is
/// text. It was lost at the end of a value (the decoder held it as the
/// start of a four-byte character), and a `:` after it was skipped, so a
/// label was read whole on one run and split on the next.
#[test]
fn a_digit_after_a_stray_gbk_lead_byte_is_kept() {
    let once = fix(b"(;FF[4]CA[GBK]C[\xb12]PB[x];B[aa])");
    let text = String::from_utf8_lossy(&once);
    assert!(text.contains("C[\u{FFFD}2]"), "{text}");
    let once = fix(b"(;FF[4]CA[GBK]GM[2]LB[\xb12:\xe1\xb6])");
    let text = String::from_utf8_lossy(&once);
    assert!(text.contains("LB[\u{FFFD}2:"), "{text}");
    assert_eq!(fix(&once), once);
}

/// Review: a second `AP` value was dropped without a trace.
#[test]
fn extra_application_values_are_kept_in_gc() {
    let once = fix(b"(;FF[4]AP[GoGui:1.4.9][Other:2];B[ab])");
    let text = String::from_utf8_lossy(&once);
    assert!(
        text.contains("AP[GoGui:1.4.9]") && text.contains("GC[AP as written: Other:2]"),
        "{text}"
    );
    assert_eq!(fix(&once), once);
}

/// Fuzz: Big5 reads HKSCS characters it cannot write back. Joining two
/// `RU` values of such a game was reported at every round but never made,
/// and made only by a second run on the UTF-8 output.
#[test]
fn text_the_charset_cannot_write_is_repaired_in_utf8() {
    let input = b"(;CA[Big5]RU[Chinese]RU[Chines\x96\xa2\xbe\xaf Go];B[pd])";
    let mut doc = parse(&input[..]).document;
    let out = sgf_formats::repair::repair_to_canonical(
        &mut doc,
        &WriteOptions::default(),
        &sgf_formats::repair::RepairOptions::default(),
    )
    .unwrap();
    let text = String::from_utf8(out.bytes.clone()).unwrap();
    assert!(text.contains("RU[Chinese, Chines"), "{text}");
    assert!(text.contains("CA[UTF-8]"), "{text}");
    let joins = out
        .changes
        .iter()
        .filter(|c| c.code == sgf_core::Code::TooManyValues)
        .count();
    assert_eq!(joins, 1, "{:?}", out.changes);
    assert!(
        out.remaining
            .iter()
            .all(|d| d.code != sgf_core::Code::TooManyValues)
    );
    assert_eq!(fix(&out.bytes), out.bytes);
}

/// Fuzz: a Shift_JIS game with bytes it cannot decode, whose joined `C`
/// holds a character Shift_JIS reads (user-defined area) but cannot write.
/// Headed for UTF-8 the game is transcoded; kept in its charset (the
/// viewer's lossless save) the join is not made, and not reported.
#[test]
fn a_repair_the_charset_cannot_hold_is_made_in_utf8_or_not_at_all() {
    let input = b"(;CA[Shift_JIS]C[a\xff];C[x\xf3[gf][hf])";
    let once = fix(input);
    assert!(String::from_utf8_lossy(&once).contains("gf\nhf]"));
    assert_eq!(fix(&once), once);
    let mut doc = parse(&input[..]).document;
    let changes =
        sgf_formats::repair::repair(&mut doc, &sgf_formats::repair::RepairOptions::default());
    assert!(
        changes
            .iter()
            .all(|c| c.code != sgf_core::Code::TooManyValues),
        "{changes:?}"
    );
    let node = doc.game(0).unwrap().nodes().nth(1).unwrap();
    assert_eq!(node.values("C").count(), 2);
    assert_eq!(doc.game(0).unwrap().charset(), "Shift_JIS");
}

/// Asserts that repairing `input` loses no text (the oracle of the corpus
/// test) and that a second repair changes nothing; returns the output.
fn fix_keeps_everything(input: &[u8]) -> String {
    let once = fix(input);
    let text = String::from_utf8_lossy(&once).into_owned();
    let lost = text_survival::lost(&parse(input).document, &parse(&once).document);
    assert!(
        lost.is_empty(),
        "{:?} → {text}: lost {lost:?}",
        String::from_utf8_lossy(input)
    );
    assert_eq!(
        String::from_utf8_lossy(&fix(&once)),
        text,
        "fix is not idempotent on {:?}",
        String::from_utf8_lossy(input)
    );
    // `fmt` (the dialects normalised) loses nothing either.
    let f = fmt(input);
    let lost = text_survival::lost(&parse(input).document, &parse(&f).document);
    assert!(
        lost.is_empty(),
        "fmt of {:?} → {}: lost {lost:?}",
        String::from_utf8_lossy(input),
        String::from_utf8_lossy(&f)
    );
    assert_eq!(fmt(&f), f);
    text
}

/// Review: a `GC` given twice in a second game-info node was moved up, and
/// the repair that kept "the wording" of the second occurrence then
/// replaced every `GC` value by an empty line (`GC[a]GC[b]`: b lost;
/// `GC[]GC[text]`: everything lost). Every place that joins, moves or
/// deletes text keeps all of it.
#[test]
fn every_repair_that_joins_moves_or_deletes_text_keeps_it() {
    let cases: &[(&str, &[&str])] = &[
        // Repeated properties in a second game-info node, moved up.
        (
            "(;PB[x];GC[Important words]GC[more words])",
            &["Important words", "more words"],
        ),
        ("(;PB[x];GC[]GC[text])", &["text"]),
        ("(;PB[x];GC[a][b])", &["a", "b"]),
        // Kept in GC beside a GC already there.
        ("(;PB[x]GC[one];GC[a][b])", &["one", "a", "b"]),
        (
            "(;PB[x]GC[one]GC[two];PB[y]PB[z])",
            &["one", "two", "y", "z"],
        ),
        ("(;PB[x];PB[y]PB[z])", &["y", "z"]),
        // Extra values of game information deleted.
        ("(;KM[6.5][7.5 nice])", &["7.5 nice"]),
        ("(;KM[6,5][7])", &["6,5", "KM as written: 7"]),
        ("(;HA[1][hello])", &["hello"]),
        // Annotations deleted or corrected: their words are kept.
        ("(;GM[1];KO[6.5 komi])", &["6.5 komi"]),
        ("(;GM[1];B[aa]BM[very bad])", &["very bad"]),
        ("(;GM[1];B[aa]BM[bad]DO[doubtful])", &["bad", "doubtful"]),
        ("(;GM[1];C[x]TE[great])", &["great"]),
        // Root properties outside the root: a different value is kept.
        ("(;GM[1]SZ[19];SZ[9]C[c])", &["SZ as written: 9"]),
        ("(;GM[2]SZ[0])", &["SZ as written: 0"]),
        // Not understood: left as it is.
        ("(;GM[Go])", &["GM[Go]"]),
        // A legacy `L` with a text of its own (`charsets/m8weiqipu/15-y.sgf`).
        ("(;FF[3]GM[1];B[aa]L[rb:b][cc])", &["LB[rb:b][cc:A]"]),
        // Labels deleted.
        ("(;GM[1];B[aa]LB[aa:1][aa:two])", &["aa:two"]),
        ("(;GM[1];B[aa]LB[hello])", &["hello"]),
        // The dialects read the first value: the others are kept.
        ("(;TE[x]TE[y]RD[2020-01-01]KO[6.5])", &["x", "y"]),
        ("(;RD[2020-01-01]RD[next day]KO[6.5];B[aa])", &["next day"]),
        ("(;KO[6.5][seven]TE[cup];B[aa])", &["seven"]),
        (
            "(;LT[1 hour][2 hours]LC[3][4]TE[cup];B[aa])",
            &["2 hours", "LC as written: 4"],
        ),
        ("(;GM[1]AP[foxwq]KM[375][x];B[aa])", &["KM as written: x"]),
        (
            "(;RE[黒中押し勝ち][extra words]TE[cup];B[aa])",
            &["extra words"],
        ),
        // Found by the `fix` fuzz target: the legacy KI kept the number it
        // read (`5`), not its wording (`05`).
        ("(;FF[3]GM[1]KI[05])", &["KI as written: 05"]),
        ("(;FF[3]GM[1]KI[+13]KM[6.5])", &["KI as written: +13"]),
        // `KI[13]` is `KM[6.5]` exactly: only the extra value is kept.
        ("(;FF[3]GM[1]KI[13][14])", &["KI as written: 14", "KM[6.5]"]),
    ];
    for (input, words) in cases {
        let text = fix_keeps_everything(input.as_bytes());
        for w in *words {
            assert!(text.contains(w), "{input} → {text}: {w:?} missing");
        }
        // And once only.
        for w in *words {
            if w.contains("as written") {
                assert_eq!(text.matches(w).count(), 1, "{input} → {text}: {w:?} twice");
            }
        }
    }
}

/// Review: Fox's `TC[3]TT[\30]` got `TT[30]` from the first repair and
/// `OT[3x30 byo-yomi]` only from the second: the dialect read the numbers
/// from the raw bytes (`\30` is no number), the canonical writer then
/// dropped the needless escape. The dialects read values as the output
/// writes them, so every repair reaches its fixed point in one run.
#[test]
fn fox_time_and_komi_are_normalised_in_one_run() {
    for input in [
        &b"(;GM[1]FF[4]SZ[19]TC[3]TT[\\30]AP[foxwq])"[..],
        b"(;GM[1]FF[4]SZ[1\\9]TC[\\3]TT[30]AP[foxwq])",
    ] {
        let text = fix_keeps_everything(input);
        assert!(text.contains("OT[3x30 byo-yomi]"), "{text}");
        let f = fmt(input);
        assert!(String::from_utf8_lossy(&f).contains("OT[3x30 byo-yomi]"));
    }
    // fmt normalises only the dialects: an escaped scaled komi is read
    // as the output writes it, and scaled at once.
    let input = b"(;GM[1]FF[4]SZ[19]KM[\\375]RU[Chinese]AP[foxwq];B[pd])";
    let f = fmt(input);
    assert!(
        String::from_utf8_lossy(&f).contains("KM[7.5]"),
        "{}",
        String::from_utf8_lossy(&f)
    );
    assert_eq!(fmt(&f), f);
    let text = fix_keeps_everything(input);
    assert!(text.contains("KM[7.5]"), "{text}");
}

/// A `CA` whose charset cannot be decoded: text without its shifts is
/// repaired and written exactly (no U+FFFD where the input had ASCII);
/// text in its shifts is refused, the document left as it was.
#[test]
fn an_undecodable_charset_is_written_exactly_or_refused() {
    let input = b"(;CA[ISO-2022-KR]GM[1]FF[4]SZ[19]PB[Lee Sedol]C[hello];B[pd];W[dd])";
    let text = fix_keeps_everything(input);
    assert!(!text.contains('\u{FFFD}'), "{text}");
    assert!(text.contains("SZ[19]") && text.contains("PB[Lee Sedol]") && text.contains(";B[pd]"));
    let f = String::from_utf8(fmt(input)).unwrap();
    assert!(!f.contains('\u{FFFD}') && f.contains("C[hello]"), "{f}");

    let input = b"(;CA[ISO-2022-KR]GM[1]SZ[19]PB[\x1b$)C\x0e@L<<59\x0f];B[pd])";
    let mut doc = parse(&input[..]).document;
    let r = sgf_formats::repair::repair_to_canonical(
        &mut doc,
        &WriteOptions::default(),
        &sgf_formats::repair::RepairOptions::default(),
    );
    assert!(
        matches!(&r, Err(sgf_formats::repair::Refusal::Undecodable { game: 0, charset }) if charset == "ISO-2022-KR"),
        "{r:?}"
    );
    assert!(!doc.is_edited());
    assert!(sgf_formats::repair::writable(&doc).is_err());
}

/// Review: `check --fix --in-place` of a file without a game tree (notes,
/// a web page, a binary) cut it to 0 bytes. The repair refuses a document
/// without a game tree, and an output with fewer game trees than the input.
#[test]
fn a_file_without_a_game_tree_is_not_repaired_into_nothing() {
    use sgf_formats::repair::{Refusal, check_written, repair_to_canonical, writable};
    for input in [
        &b"just some notes\nabout go\n"[..],
        b"<html><body>hi</body></html>",
        b"\x00\x01\x02\xff\xfe binary",
        b"",
    ] {
        let mut doc = parse(input).document;
        assert_eq!(writable(&doc), Err(Refusal::NoGameTree));
        let r = repair_to_canonical(
            &mut doc,
            &WriteOptions::default(),
            &sgf_formats::repair::RepairOptions::default(),
        );
        assert_eq!(r.map(|r| r.bytes), Err(Refusal::NoGameTree));
    }
    let two = parse(b"(;GM[1])(;GM[1])").document;
    let one = parse(b"(;GM[1])").document;
    assert_eq!(check_written(2, &two), Ok(()));
    assert_eq!(
        check_written(2, &one),
        Err(Refusal::GamesLost {
            read: 2,
            written: 1
        })
    );
    assert_eq!(check_written(0, &one), Err(Refusal::NoGameTree));
}

/// Review: text before, between and after the game trees was dropped by
/// `check --fix` and `fmt` without a report. It is kept where it stands
/// (the readers report it: S003, S020), and the output reads as the same
/// games, idempotent under fix and fmt.
#[test]
fn text_outside_the_game_trees_is_kept_where_it_stands() {
    let input = b"Game 1: [a title]\n(;GM[1]PB[a];B[aa])\n between; the games \n(;GM[1]PB[b];B[bb])\n)) the end (\n";
    let text = fix_keeps_everything(input);
    for kept in [
        "Game 1: [a title]\n\n(;",
        ")\n\nbetween; the games\n\n(;",
        ")\n\n)) the end (\n",
    ] {
        assert!(text.contains(kept), "{kept:?} in {text}");
    }
    let f = String::from_utf8(fmt(input)).unwrap();
    assert!(
        f.contains("Game 1: [a title]")
            && f.contains("between; the games")
            && f.ends_with(")) the end (\n"),
        "{f}"
    );
    for out in [text.as_bytes(), f.as_bytes()] {
        let p = parse(out);
        assert_eq!(p.document.game_count(), 2);
        let texts: Vec<String> = p
            .document
            .outside_texts()
            .into_iter()
            .map(|o| o.text.into_owned())
            .collect();
        assert_eq!(
            texts,
            ["Game 1: [a title]", "between; the games", ")) the end ("]
        );
    }
    // A UTF-8 byte-order mark is no text.
    let bom = fix(b"\xEF\xBB\xBF(;GM[1])");
    assert!(
        bom.starts_with(b"(;FF[4]"),
        "{}",
        String::from_utf8_lossy(&bom)
    );
}

/// Text outside the trees that would read as SGF where it stands once
/// decoded: ISO-2022-JP's `ESC ( B` (back to ASCII) between `(` and `;`
/// decodes to nothing, leaving `(;`, a game tree's start. It is kept in
/// `GC` instead, and the output still holds the one game.
#[test]
fn text_outside_the_trees_that_would_read_as_sgf_is_kept_in_gc() {
    let input = b"see (\x1b(B; here (;CA[ISO-2022-JP]GM[1]C[\x1b$B$3\x1b(B])";
    let p = parse(&input[..]);
    let out = p.document.outside_texts();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].text, "see (; here");
    assert!(!out[0].in_place);
    let text = fix_keeps_everything(input);
    assert!(
        text.contains("GC[Text outside the game trees: see (; here]"),
        "{text}"
    );
    assert_eq!(parse(text.as_bytes()).document.game_count(), 1);
    let f = fmt(input);
    assert!(String::from_utf8_lossy(&f).contains("GC[Text outside the game trees: see (; here]"));
    assert_eq!(fmt(&f), f);
}

/// Found by the `fmt_idempotent` fuzz target (`testdata/fuzz/fmt-3.sgf`):
/// a UTF-16 file whose text before the first game, transcoded, holds NUL
/// bytes between its characters (`\0(\0;\0F…`). Written first in the
/// UTF-8 output, that text made the output look like UTF-16 to the reader
/// (its games then read as garbage). Text that would make the start of
/// the file look like UTF-16 (or a byte-order mark) is kept in GC.
#[test]
fn text_before_the_first_game_does_not_make_the_output_utf16() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz");
    let input = std::fs::read(dir.join("fmt-3.sgf")).unwrap();
    for out in [fmt(&input), fix(&input)] {
        let p = parse(&out);
        assert!(
            p.diagnostics
                .iter()
                .all(|d| d.code != sgf_core::Code::Utf16),
            "{:?}",
            String::from_utf8_lossy(&out)
        );
        assert_eq!(p.document.game_count(), 1);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("C").unwrap(), "hi");
        assert!(root.text("GC").unwrap().contains("notes"));
    }
    fix_keeps_everything(&input);
}

/// Found by the `fix` fuzz target with the text oracle (18 inputs, all
/// ISO-2022-JP): ISO-2022-JP is 7-bit, and two places took its ASCII bytes
/// for ASCII text. The canonical writer cut a value that may be composed
/// (an unknown property, `AP`) at a `:` inside a double-byte run (忘 is
/// `K:`), and decoded the halves apart; and a game turned to UTF-8 by a
/// repair (text the charset cannot hold) kept its values of ASCII bytes
/// as they were, escape sequences and all, which then read as other text.
#[test]
fn iso_2022_jp_text_is_never_taken_for_ascii() {
    // 忘 (K:) in an unknown property and in AP's name.
    let input = b"(;CA[ISO-2022-JP]GM[1]XX[\x1b$BK:\x1b(B]AP[\x1b$BK:\x1b(B:1.0])";
    let f = String::from_utf8(fmt(input)).unwrap();
    assert!(f.contains("XX[忘]") && f.contains("AP[忘:1.0]"), "{f}");
    let text = fix_keeps_everything(input);
    assert!(text.contains("XX[忘]"), "{text}");
    let root = parse(&input[..]).document;
    let ap = root.game(0).unwrap().root().value("AP").unwrap();
    assert_eq!(ap.composed().unwrap().0, "忘");
    // A second PB whose byte ISO-2022-JP cannot decode: its wording (with
    // U+FFFD) goes to GC, which ISO-2022-JP cannot hold, so the game is
    // turned to UTF-8 — every value decoded, `C[は]` too.
    let input = b"(;CA[ISO-2022-JP]GM[1]PB[x]C[\x1b$B$O\x1b(B];PB[caf\xe9])";
    let text = fix_keeps_everything(input);
    assert!(
        text.contains("C[は]") && !text.contains('\u{1b}'),
        "{text:?}"
    );
}

/// Found by the `fix` fuzz target: in a game read charset-aware (GBK), a
/// byte that starts a double-byte character but is followed by `:`
/// (`LB[\xb1:x]`) hid the `:` from the canonical writer, which took the
/// byte and the `:` for one character and escaped the value's `:` — while
/// the decoder (and the repairs) read U+FFFD and the `:`. The second
/// repair then found a label without `:` and deleted it. A lead byte
/// followed by a byte that cannot end its character is no character.
#[test]
fn a_colon_after_a_lone_lead_byte_is_a_colon() {
    let input = b"(;CA[GBK]GM[2]C[\xd5]]LB[\xb1:x])";
    assert!(
        parse(&input[..])
            .document
            .dbcs_of(parse(&input[..]).document.game(0).unwrap().root().id())
            .is_some()
    );
    let text = fix_keeps_everything(input);
    assert!(text.contains("LB[\u{FFFD}:x]"), "{text}");
    let f = String::from_utf8(fmt(input)).unwrap();
    assert!(f.contains("LB[\u{FFFD}:x]"), "{f}");
}
