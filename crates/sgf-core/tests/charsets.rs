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

use std::io::Read;
use std::path::Path;

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
                        if chars.peek() == Some(&'\r') {
                            chars.next();
                        }
                    }
                    Some('\r') => {
                        if chars.peek() == Some(&'\n') {
                            chars.next();
                        }
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

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn corpus_charsets_decode_exactly() {
    let Some(dir) = common::corpus_dir() else {
        eprintln!("SKIPPED corpus_charsets_decode_exactly: no corpus at ../shared/corpus");
        return;
    };
    let mut files = Vec::new();
    walk(&dir.join("charsets"), &mut files);
    walk(&dir.join("peer-suites"), &mut files);
    let mut t = Tally::default();
    let mut archive_members = 0;
    for path in &files {
        let rel = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let lower = rel.to_ascii_lowercase();
        if lower.ends_with(".tar.gz") {
            let f = std::fs::File::open(path).unwrap();
            let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(f));
            for entry in ar.entries().unwrap() {
                let mut entry = entry.unwrap();
                let name = entry.path().unwrap().to_string_lossy().into_owned();
                if !name.to_ascii_lowercase().ends_with(".sgf") {
                    continue;
                }
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                archive_members += 1;
                let member = format!("{rel}/{name}");
                if let Some(tr) = truth(&member) {
                    t.check(&member, &bytes, tr);
                }
            }
            continue;
        }
        if !lower.ends_with(".sgf") {
            continue;
        }
        let Some(tr) = truth(&rel) else { continue };
        let bytes = std::fs::read(path).unwrap();
        t.check(&rel, &bytes, tr);
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
