//! Charsets over the sample corpus (skipped when absent): every file of
//! `charsets/` and `peer-suites/` whose charset is known (declared correctly,
//! or stated in the corpus' SOURCES.md) must decode to exactly the text a
//! reader that knows the charset gets, and no ASCII or Latin file may be
//! read as anything else.
//!
//! The reference decodes each game's bytes whole with the known charset
//! (so double-byte trail bytes and ISO-2022-JP escapes are inside
//! characters before any SGF syntax is looked at), then tokenises the
//! Unicode text. The parser reads the bytes, finds the charset itself, and
//! must produce the same non-ASCII values in the same order.

mod common;

use encoding_rs::{
    BIG5, EUC_KR, Encoding, GB18030, ISO_8859_15, MACINTOSH, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE,
    WINDOWS_1251, WINDOWS_1252,
};

/// What a file's text is in.
#[derive(Clone, Copy)]
enum Truth {
    /// Every game in this charset.
    All(&'static Encoding),
    /// Each game as its `CA` says (declared correctly).
    Declared,
}

/// The charset of a corpus file: stated in SOURCES.md (or the file's name,
/// which SOURCES.md explains), or declared correctly. `None`: unknown.
fn truth(rel: &str) -> Option<Truth> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let by_name: &[(&str, &'static Encoding)] = &[
        ("gnugo-9handicap", GB18030),
        ("gnugo-trevor_42", GB18030),
        ("gnugo-tg-gg", WINDOWS_1252),
        ("gnugo-nicklas12", WINDOWS_1252),
        ("encoding-japanese-macos", SHIFT_JIS),
        ("encoding-korean-macos", EUC_KR),
        ("encoding-simplifiedchinese-macos", GB18030),
        ("encoding-traditionalchinese-macos", BIG5),
        ("encoding-western-macosroman", MACINTOSH),
        ("encoding-western-isolatin9", ISO_8859_15),
        ("encoding-cyrillic-windows", WINDOWS_1251),
        ("nihon-kiin", SHIFT_JIS),
        ("no-ca", GB18030),
        // The bytes are UTF-8 U+FFFD characters under CA[MS_KANJI].
        ("japanese_bad", UTF_8),
    ];
    for (k, e) in by_name {
        if name.contains(k) {
            return Some(Truth::All(e));
        }
    }
    if rel.starts_with("charsets/m8weiqipu") {
        return Some(Truth::All(GB18030));
    }
    // Fox files: UTF-8, some with bytes replaced by `?`.
    if rel.starts_with("charsets/fox-no-ca/") || name.starts_with("fox sgf") {
        return Some(Truth::All(UTF_8));
    }
    if rel.starts_with("charsets/yenw-utf8-truncated-char/") {
        return Some(Truth::All(UTF_8));
    }
    if name.contains("utf16") {
        return Some(Truth::All(if name.contains("be") {
            UTF_16BE
        } else {
            UTF_16LE
        }));
    }
    // SGFC's own test files declare charsets they are not in (`test.sgf`);
    // `mixed-encoding.sgf` is compared with SGFC's result separately.
    if rel.starts_with("peer-suites/sgfc/") && !name.ends_with("-result.sgf") {
        return None;
    }
    Some(Truth::Declared)
}

fn is_latin(e: &'static Encoding) -> bool {
    [
        WINDOWS_1252,
        ISO_8859_15,
        MACINTOSH,
        encoding_rs::ISO_8859_2,
    ]
    .contains(&e)
}

/// Non-ASCII values of a Unicode SGF text, unescaped, in order.
fn reference_values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '[' {
            continue;
        }
        let mut v = String::new();
        while let Some(c) = chars.next() {
            match c {
                ']' => break,
                '\\' => match chars.next() {
                    Some('\n') => {
                        chars.next_if_eq(&'\r');
                    }
                    Some('\r') => {
                        chars.next_if_eq(&'\n');
                    }
                    Some(x) => v.push(x),
                    None => {}
                },
                c => v.push(c),
            }
        }
        if !v.is_ascii() {
            out.push(v);
        }
    }
    out
}

/// Non-ASCII decoded values of one game, in source order.
fn parsed_values(game: &sgf_core::Game<'_>) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for n in game.nodes() {
        for p in n.props() {
            for v in p.values() {
                let d = v.decoded();
                if !d.is_ascii() {
                    out.push((v.span().start as usize, d.into_owned()));
                }
            }
        }
    }
    out.sort_by_key(|x| x.0);
    out
}

#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    values: usize,
    exact: usize,
    latin_files: usize,
    latin_false: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, rel: &str, bytes: &[u8], truth: Truth) {
        let parsed = sgf_core::parse(bytes);
        let doc = &parsed.document;
        self.files += 1;
        let src = doc.source();
        let starts: Vec<usize> = doc
            .games()
            .map(|g| g.root().span().start as usize)
            .collect();
        let mut latin = true;
        let mut file_ok = true;
        for (gi, g) in doc.games().enumerate() {
            self.games += 1;
            let end = starts.get(gi + 1).copied().unwrap_or(src.len());
            let want_enc = match truth {
                Truth::All(e) => e,
                Truth::Declared => g
                    .root()
                    .value("CA")
                    .and_then(|v| sgf_core::charset::encoding_for_label(v.raw()))
                    .unwrap_or(WINDOWS_1252),
            };
            let region = &src[starts[gi].min(end)..end];
            let reference = if want_enc == UTF_16LE || want_enc == UTF_16BE {
                // Transcoded by the parser: the source is UTF-8 already.
                String::from_utf8_lossy(region).into_owned()
            } else {
                want_enc.decode_without_bom_handling(region).0.into_owned()
            };
            let want = reference_values(&reference);
            if !region.is_ascii() && !is_latin(want_enc) {
                latin = false;
            }
            let got: Vec<String> = parsed_values(&g).into_iter().map(|x| x.1).collect();
            self.values += want.len();
            let mut exact = 0;
            for (i, w) in want.iter().enumerate() {
                if got.get(i) == Some(w) {
                    exact += 1;
                }
            }
            self.exact += exact;
            if exact != want.len() || got.len() != want.len() {
                file_ok = false;
                let first_bad = (0..want.len().max(got.len()))
                    .find(|&i| want.get(i) != got.get(i))
                    .unwrap_or(0);
                self.failures.push(format!(
                    "{rel} game {gi} ({} read as {}, {:?}): {}/{} exact; first difference: want {:?}, got {:?}",
                    want_enc.name(),
                    g.charset(),
                    g.charset_source(),
                    exact,
                    want.len(),
                    want.get(first_bad).map(|s| s.chars().take(60).collect::<String>()),
                    got.get(first_bad).map(|s| s.chars().take(60).collect::<String>()),
                ));
            }
        }
        if latin {
            self.latin_files += 1;
            if !file_ok {
                self.latin_false += 1;
            }
        }
    }
}

#[test]
fn corpus_charsets_decode_exactly() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut t = Tally::default();
    let mut archive_members = 0;
    for sub in ["charsets", "peer-suites"] {
        for (name, bytes) in common::corpus_files(&dir.join(sub), u64::MAX) {
            // `charsets/NAME`, `charsets/ARCHIVE:MEMBER`.
            let rel = format!("{sub}/{name}");
            if rel.contains(".tar.gz:") {
                archive_members += 1;
            }
            if let Some(tr) = truth(&rel) {
                t.check(&rel, &bytes, tr);
            }
        }
    }
    for f in &t.failures {
        eprintln!("MOJIBAKE {f}");
    }
    eprintln!(
        "charsets corpus: {} files ({} archive members), {} games, {} text values checked, {} exact, {} wrong; {} ASCII/Latin files, {} misdetected",
        t.files,
        archive_members,
        t.games,
        t.values,
        t.exact,
        t.values - t.exact,
        t.latin_files,
        t.latin_false
    );
    assert!(archive_members >= 1035, "{archive_members} archive members");
    assert_eq!(t.latin_false, 0, "ASCII/Latin files misdetected");
    assert!(
        t.failures.is_empty(),
        "{} games with mojibake",
        t.failures.len()
    );
}

/// The text of `prop` in game `g`.
fn text(src: &[u8], g: usize, prop: &str) -> String {
    let p = sgf_core::parse(src);
    let doc = &p.document;
    let game = doc.game(g).unwrap();
    let found = game
        .nodes()
        .find_map(|n| n.value(prop).map(|v| v.decoded().into_owned()));
    found.unwrap_or_default()
}

fn has(src: &[u8], code: &str) -> bool {
    sgf_core::parse(src)
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == code)
}

// Class 1: a declared double-byte charset whose trail byte `\` is not
// escaped, both readings clean: the declaration means the charset-aware one.
#[test]
fn declared_shift_jis_unescaped_trail_byte_both_clean() {
    // C[ソフト] with ソ = 83 5C unescaped: the naive reading eats `\` and
    // reads 83 83 ... as other characters, without a syntax error.
    let (body, _, _) = SHIFT_JIS.encode("ソフトで打った碁です");
    let mut src = b"(;CA[Shift_JIS]C[".to_vec();
    src.extend_from_slice(&body);
    src.extend_from_slice(b"];B[aa])");
    assert_eq!(text(&src, 0, "C"), "ソフトで打った碁です");
    assert!(has(&src, "C006"));
    // Escaped correctly: the same text, no C006.
    let mut esc = b"(;CA[Shift_JIS]C[".to_vec();
    for (i, &b) in body.iter().enumerate() {
        esc.push(b);
        if b == b'\\' && i > 0 {
            esc.push(b'\\');
        }
    }
    esc.extend_from_slice(b"];B[aa])");
    assert_eq!(text(&esc, 0, "C"), "ソフトで打った碁です");
}

// Class 2: short texts without CA.
#[test]
fn short_texts_without_ca() {
    assert_eq!(text(b"(;C[\xa3])", 0, "C"), "£");
    assert_eq!(text(b"(;C[a\xa3b])", 0, "C"), "a£b");
    assert_eq!(text(b"(;C[s\xa4h\xa4n])", 0, "C"), "s¤h¤n");
    assert_eq!(text(b"(;C[Gr\xf6ning])", 0, "C"), "Gröning");
    // GNU Go's White in GB2312.
    assert_eq!(text(b"(;PB[gnugo]PW[\xb0\xd7];B[aa])", 0, "PW"), "白");
    let (gb, _, _) = GB18030.encode("盘面\r\nB: 91\r\nW: 95");
    let mut src = b"(;GM[1]C[".to_vec();
    src.extend_from_slice(&gb);
    src.extend_from_slice(b"])");
    assert_eq!(text(&src, 0, "C"), "盘面\r\nB: 91\r\nW: 95");
    // Korean and Japanese results.
    let (kr, _, _) = EUC_KR.encode("흑 불계승");
    let mut src = b"(;RE[".to_vec();
    src.extend_from_slice(&kr);
    src.extend_from_slice(b"])");
    assert_eq!(text(&src, 0, "RE"), "흑 불계승");
    let (jp, _, _) = SHIFT_JIS.encode("黒中押し勝ち");
    let mut src = b"(;RE[".to_vec();
    src.extend_from_slice(&jp);
    src.extend_from_slice(b"])");
    assert_eq!(text(&src, 0, "RE"), "黒中押し勝ち");
}

// Class 3: invalid UTF-8 under CA[UTF-8].
#[test]
fn declared_utf8_with_a_few_bad_bytes_stays_utf8() {
    let mut src = b"(;CA[UTF-8]PB[".to_vec();
    src.extend_from_slice("黑".as_bytes());
    src.extend_from_slice(b"]C[\xff\xfe]PW[");
    src.extend_from_slice("白棋".as_bytes());
    src.extend_from_slice(b"\xc0])");
    assert_eq!(text(&src, 0, "PB"), "黑");
    assert_eq!(text(&src, 0, "PW"), "白棋\u{FFFD}");
    assert!(has(&src, "C004"));
    // But GBK that is declared UTF-8 is read as GBK: GBK explains every byte.
    let (gb, _, _) = GB18030.encode("黑棋很好，白棋也不错");
    let mut src = b"(;CA[UTF-8]C[".to_vec();
    src.extend_from_slice(&gb);
    src.extend_from_slice(b"])");
    assert_eq!(text(&src, 0, "C"), "黑棋很好，白棋也不错");
}

// Class 4: UTF-32 with a BOM.
#[test]
fn utf32_with_bom() {
    let sgf = "(;CA[UTF-32]PB[黑]PW[Gröning];B[aa])";
    for big in [false, true] {
        let mut v: Vec<u8> = if big {
            vec![0, 0, 0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE, 0, 0]
        };
        for c in sgf.chars() {
            let u = c as u32;
            v.extend_from_slice(&if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            });
        }
        let p = sgf_core::parse(&v);
        assert!(!p.diagnostics.iter().any(|d| d.code.as_str() == "S002"));
        let g = p.document.game(0).unwrap();
        assert_eq!(g.root().text("PB").unwrap(), "黑");
        assert_eq!(g.root().text("PW").unwrap(), "Gröning");
        assert_eq!(g.charset(), if big { "UTF-32BE" } else { "UTF-32LE" });
        // Written back as it was.
        assert_eq!(sgf_core::write::to_lossless_bytes(&p.document), v);
    }
}

// Class 5: per game, not per file.
#[test]
fn trail_bytes_decided_per_game() {
    let (body, _, _) = SHIFT_JIS.encode("ソフト");
    let mut src = b"(;CA[Shift_JIS]C[".to_vec();
    src.extend_from_slice(&body);
    // The second game escaped its trail byte correctly (`\\`) and ends a
    // value with it: read naively it is right, charset-aware it is not.
    src.extend_from_slice(b"];B[aa])\n(;CA[Shift_JIS]PB[\x83\x5c\x5c]C[x];W[bb])");
    let p = sgf_core::parse(&src);
    let doc = &p.document;
    assert_eq!(doc.game_count(), 2);
    assert_eq!(text(&src, 0, "C"), "ソフト");
    assert_eq!(text(&src, 1, "PB"), "ソ");
    assert_eq!(text(&src, 1, "C"), "x");
    let g0 = doc.game(0).unwrap().root().id();
    let g1 = doc.game(1).unwrap().root().id();
    assert!(doc.dbcs_of(g0).is_some());
    assert!(doc.dbcs_of(g1).is_none());
}

// Class 6: ISO-2022-JP whose bytes clash with `]` and `\`.
#[test]
fn iso_2022_jp_clashing_bytes() {
    // 黒 is ESC $ B 3 u; ]/\ appear in e.g. 孫 (0x3B 0x39)? Find characters
    // whose JIS bytes include `]` or `\`.
    let clash: String = ('\u{4E00}'..='\u{9FFF}')
        .filter(|c| {
            let s = c.to_string();
            let (b, _, bad) = encoding_rs::ISO_2022_JP.encode(&s);
            !bad && b.len() == 8 && (b[3] == b']' || b[4] == b']' || b[4] == b'\\')
        })
        .take(4)
        .collect();
    assert_eq!(clash.chars().count(), 4);
    let want = format!("黒{clash}勝ち");
    let (body, _, _) = encoding_rs::ISO_2022_JP.encode(&want);
    for ca in [&b"CA[ISO-2022-JP]"[..], b""] {
        let mut src = b"(;".to_vec();
        src.extend_from_slice(ca);
        src.extend_from_slice(b"C[");
        src.extend_from_slice(&body);
        src.extend_from_slice(b"]PB[x];B[aa])");
        assert_eq!(text(&src, 0, "C"), want, "{}", String::from_utf8_lossy(ca));
        assert_eq!(text(&src, 0, "PB"), "x");
    }
}

/// SGFC's mixed-encoding test: each game in its own charset, compared with
/// SGFC's result (`\` in Shift_JIS is the yen sign there, U+005C in the
/// WHATWG decoder used here).
#[test]
fn sgfc_mixed_encoding() {
    let Some(path) = common::corpus_path("peer-suites/sgfc/mixed-encoding.sgf") else {
        return;
    };
    let src = std::fs::read(path).unwrap();
    let p = sgf_core::parse(&src);
    let got: Vec<String> = p
        .document
        .games()
        .map(|g| g.root().text("C").unwrap_or_default().into_owned())
        .collect();
    assert_eq!(got[1], "hallö! DÜ! ßüper dich zu s€h€n-");
    assert_eq!(got[2], "s¤h¤n");
    assert!(got[3].contains("趙 治勲") && got[3].contains("조치훈") && got[3].contains("指揮權"));
}

/// Review: a `CA` naming a charset encoding_rs maps to its replacement
/// encoding (ISO-2022-KR, HZ-GB-2312, ISO-2022-CN, csiso2022kr,
/// replacement…) made every value of the game one U+FFFD — `GM`, `SZ`,
/// names, moves — while the file was reported clean. Such a label is not
/// used (C009); the text is read by detection, exactly, when it does not
/// use the charset's shifts.
#[test]
fn a_charset_that_cannot_be_decoded_is_not_read_as_replacement() {
    let labels = [
        "ISO-2022-KR",
        "iso-2022-kr",
        "csiso2022kr",
        "HZ-GB-2312",
        "ISO-2022-CN",
        "ISO-2022-CN-EXT",
        "replacement",
        "ISO_2022_KR",
        " iso-2022-kr ",
    ];
    for label in labels {
        assert!(
            sgf_core::charset::is_undecodable_label(label.as_bytes()),
            "{label}"
        );
        assert_eq!(
            sgf_core::charset::encoding_for_label(label.as_bytes()),
            None,
            "{label}"
        );
        let src = format!("(;CA[{label}]GM[1]FF[4]SZ[19]PB[Lee Sedol]C[hello];B[pd];W[dd])");
        let p = sgf_core::parse(src.as_bytes());
        let g = p.document.game(0).unwrap();
        assert!(!g.is_undecodable(), "{label}");
        assert_eq!(p.document.undecodable_game(), None);
        let root = g.root();
        assert_eq!(root.text("PB").unwrap(), "Lee Sedol", "{label}");
        assert_eq!(root.text("C").unwrap(), "hello");
        assert_eq!(root.value("SZ").unwrap().number(), Some(19));
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.code == sgf_core::Code::UndecodableCharset)
            .unwrap_or_else(|| panic!("{label}: {:?}", p.diagnostics));
        assert_eq!(d.severity, sgf_core::Severity::Warning);
        assert_eq!(&src[d.span.range()], format!("[{label}]"));
        // The canonical form writes every value as it was.
        let out = sgf_core::to_canonical_bytes(&p.document, &sgf_core::WriteOptions::default());
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("PB[Lee Sedol]") && out.contains("SZ[19]") && !out.contains('\u{FFFD}'),
            "{out}"
        );
    }
    // UTF-8 under such a label: read as UTF-8.
    let src = "(;CA[ISO-2022-KR]PB[이세돌]C[안녕])";
    assert_eq!(text(src.as_bytes(), 0, "PB"), "이세돌");
    assert!(has(src.as_bytes(), "C009"));
    // An override of the replacement encoding is no charset either.
    let mut opts = sgf_core::ParseOptions::default();
    opts.charset = Some(encoding_rs::REPLACEMENT);
    let p = sgf_core::parse_with(b"(;PB[Lee])", &opts);
    assert_eq!(
        p.document.game(0).unwrap().root().text("PB").unwrap(),
        "Lee"
    );
}

/// Text that uses the shifts of ISO-2022-KR (ESC $ ) C, SO, SI) or HZ
/// (`~{`): no charset here decodes it. Its bytes are not replaced (shown
/// one character a byte); the game is undecodable and the reader says so
/// with an error, so that writers refuse it rather than write other text.
#[test]
fn text_in_the_shifts_of_an_undecodable_charset_keeps_its_bytes() {
    // 이세돌 in ISO-2022-KR: ESC $ ) C, then SO, the EUC-KR bytes less 0x80, SI.
    let iso = b"(;CA[ISO-2022-KR]GM[1]SZ[19]PB[\x1b$)C\x0e@L<<59\x0f];B[pd])";
    let hz = b"(;CA[HZ-GB-2312]GM[1]SZ[19]PB[~{:Z~}];B[pd])";
    for src in [&iso[..], &hz[..]] {
        let p = sgf_core::parse(src);
        let g = p.document.game(0).unwrap();
        assert!(g.is_undecodable());
        assert_eq!(p.document.undecodable_game(), Some(0));
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.code == sgf_core::Code::UndecodableCharset)
            .unwrap();
        assert_eq!(d.severity, sgf_core::Severity::Error);
        let root = g.root();
        assert_eq!(root.value("SZ").unwrap().number(), Some(19));
        let pb = root.value("PB").unwrap().decoded().into_owned();
        assert!(!pb.contains('\u{FFFD}'), "{pb:?}");
        assert_eq!(pb.len(), root.value("PB").unwrap().raw().len(), "{pb:?}");
        // The lossless writer keeps the bytes.
        assert_eq!(sgf_core::to_lossless_bytes(&p.document), src);
    }
    // `~{` is text under ISO-2022-KR, ESC is text under HZ: not shifts.
    let p = sgf_core::parse(b"(;CA[ISO-2022-KR]C[a ~{ b])");
    assert!(!p.document.game(0).unwrap().is_undecodable());
}
