//! The parser: bytes in, a [`Document`] and diagnostics out. Never fails,
//! never panics, never recurses on input depth.
//!
//! In three phases, one file each: `builder` makes the tree in one pass
//! over the bytes, `recovery` finds where damaged input goes on, and
//! `charsets` decides the charset of every game (and which games are read
//! charset-aware).

mod builder;
mod charsets;
mod recovery;

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use crate::charset::{self, CharsetSource, Dbcs, Why};
use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::doc::{
    Document, F_AFTER_VARIATIONS, F_PARENS, GameData, Key, MAX_PROPS_PER_NODE, NONE, NodeData,
    NodeId, OutsideText, Parens, PropData, UNKNOWN_BASE, ValueData,
};
use crate::lexer;
use crate::props::{self, PROPERTIES};

use builder::*;
use charsets::*;
use recovery::*;

/// Options for [`parse_with`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Read every game in this charset, ignoring `CA` and detection.
    pub charset: Option<&'static Encoding>,
    /// Inputs larger than this are cut (with a diagnostic). At most 2 GiB − 2.
    pub max_bytes: usize,
    /// Stop after this many nodes.
    pub max_nodes: usize,
    /// Stop when variations nest deeper than this.
    pub max_depth: usize,
    /// Read an unescaped `]` inside a text value as text when plain text
    /// follows it (see [`lexer::Lexer::next_lenient`]).
    pub lenient_brackets: bool,
    /// Try reading double-byte charsets with unescaped trail bytes.
    pub dbcs_detection: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            charset: None,
            max_bytes: 1 << 30,
            max_nodes: usize::MAX,
            max_depth: usize::MAX,
            lenient_brackets: true,
            dbcs_detection: true,
        }
    }
}

/// The result of parsing: always a document, plus what was wrong.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The best tree that could be read.
    pub document: Document,
    /// Problems, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The document, or the first error-severity diagnostic.
    ///
    /// # Errors
    /// When any diagnostic has error severity.
    pub fn strict(self) -> Result<Document, Diagnostic> {
        match self
            .diagnostics
            .into_iter()
            .find(|d| d.severity == Severity::Error)
        {
            Some(d) => Err(d),
            None => Ok(self.document),
        }
    }
}

/// Parses SGF bytes with default options.
///
/// ```
/// let parsed = sgf_core::parse(b"(;GM[1]SZ[9];B[ee];W[gc])");
/// assert!(parsed.diagnostics.is_empty());
/// let game = parsed.document.game(0).unwrap();
/// assert_eq!(game.main_line().count(), 3);
/// ```
pub fn parse(input: &[u8]) -> Parsed {
    parse_with(input, &ParseOptions::default())
}

/// Parses text that is already Unicode (pasted, from a browser): `CA` is ignored.
pub fn parse_str(input: &str) -> Parsed {
    let opts = ParseOptions {
        charset: Some(UTF_8),
        ..ParseOptions::default()
    };
    parse_with(input.as_bytes(), &opts)
}

/// Parses SGF bytes.
pub fn parse_with(input: &[u8], opts: &ParseOptions) -> Parsed {
    parse_from(input, None, opts)
}

/// [`parse_with`] of bytes the caller holds shared: the document keeps
/// them as its source instead of a copy (unless they are transcoded from
/// UTF-16 or cut at [`ParseOptions::max_bytes`]), so that a large file is
/// in memory once.
///
/// ```
/// use std::sync::Arc;
/// let bytes: Arc<[u8]> = Arc::from(&b"(;GM[1];B[pd])"[..]);
/// let parsed = sgf_core::parse_shared(bytes.clone(), &Default::default());
/// assert!(std::ptr::eq(parsed.document.source(), &bytes[..]));
/// ```
pub fn parse_shared(input: Arc<[u8]>, opts: &ParseOptions) -> Parsed {
    parse_from(&input, Some(&input), opts)
}

/// `input`, and the shared bytes it is all of when there are some.
fn parse_from(input: &[u8], shared: Option<&Arc<[u8]>>, opts: &ParseOptions) -> Parsed {
    // The bytes as the document keeps them: shared when they are all of
    // `shared`, else a copy.
    let keep = |bytes: &[u8]| -> Arc<[u8]> {
        match shared {
            Some(a) if a.len() == bytes.len() && std::ptr::eq(a.as_ptr(), bytes.as_ptr()) => {
                a.clone()
            }
            _ => Arc::from(bytes),
        }
    };
    let mut pre = Vec::new();
    let limit = opts.max_bytes.min((u32::MAX - 2) as usize >> 1);
    let mut input = input;
    if input.len() > limit {
        pre.push(Diagnostic::new(
            Code::LimitReached,
            Span::new(limit as u32, limit as u32),
            format!("input larger than {limit} bytes; the rest is not read"),
        ));
        input = &input[..limit];
    }

    // UTF-16 is not ASCII-compatible: transcode first.
    let mut transcoded = None;
    let mut utf32 = false;
    let src: Arc<[u8]> = match charset::sniff_utf32(input) {
        // UTF-32 (with its BOM) the same way; recorded as the UTF-16 of the
        // same byte order, with `utf32` set.
        Some(big) if opts.charset.is_none() => {
            let (text, bad) = charset::decode_utf32(&input[4..], big);
            let name = if big { "UTF-32BE" } else { "UTF-32LE" };
            pre.push(Diagnostic::new(
                Code::Utf16,
                Span::new(0, 0),
                format!("the file is {name}; read after transcoding"),
            ));
            if bad > 0 {
                pre.push(Diagnostic::new(
                    Code::InvalidBytes,
                    Span::new(0, 0),
                    format!("{bad} invalid {name} unit(s); shown as U+FFFD"),
                ));
            }
            let enc = if big {
                encoding_rs::UTF_16BE
            } else {
                encoding_rs::UTF_16LE
            };
            transcoded = Some((enc, 4));
            utf32 = true;
            Arc::from(text.as_bytes())
        }
        _ => match charset::sniff_utf16(input) {
            Some((enc, bom)) if opts.charset.is_none() || opts.charset == Some(enc) => {
                let (text, _) = enc.decode_without_bom_handling(&input[bom..]);
                pre.push(Diagnostic::new(
                    Code::Utf16,
                    Span::new(0, 0),
                    format!("the file is {}; read after transcoding", enc.name()),
                ));
                transcoded = Some((enc, bom));
                Arc::from(text.as_bytes())
            }
            _ => keep(input),
        },
    };

    if src.iter().all(|&b| lexer::is_ws(b)) {
        let mut doc = Document::empty(src);
        if transcoded.is_some() {
            doc.original = Some(keep(input));
            doc.transcoded_from = transcoded;
            doc.utf32 = utf32;
        }
        pre.push(Diagnostic::new(
            Code::EmptyInput,
            Span::new(0, 0),
            "the input is empty",
        ));
        return Parsed {
            document: doc,
            diagnostics: pre,
        };
    }

    let (mut doc, mut diags) = Builder::run(src.clone(), opts, &[]);
    resolve_charsets(&mut doc, &mut diags, opts, transcoded);

    if opts.dbcs_detection && opts.charset.is_none() {
        let ranges = suspicious_dbcs(&doc);
        if !ranges.is_empty() {
            let plain: Vec<(usize, usize, Dbcs)> = ranges.iter().map(|r| (r.0, r.1, r.2)).collect();
            let (mut doc2, mut diags2) = Builder::run(src.clone(), opts, &plain);
            resolve_charsets(&mut doc2, &mut diags2, opts, transcoded);
            // Decided per game: a collection joins games from different
            // sources, some escaped correctly and some not.
            let r1 = rate(&doc, &diags, &ranges);
            let r2 = rate(&doc2, &diags2, &ranges);
            let aware: Vec<bool> = r1
                .iter()
                .zip(&r2)
                .zip(&ranges)
                .map(|((a, b), r)| {
                    // A game read charset-aware must be decoded in that
                    // charset: the decision, made again on the new
                    // reading, may differ (then its escapes would be read
                    // by one charset and its text by another).
                    dbcs_consistent(&doc2, r.0..r.1)
                        && (b.errors < a.errors
                            || (b.errors == a.errors
                            // The declaration means the charset-aware
                            // reading; without one, the more plausible text.
                            && (a.declared || b.plausible > a.plausible)))
                })
                .collect();
            let chosen: Vec<(usize, usize, Dbcs, usize)> = ranges
                .iter()
                .zip(&aware)
                .filter(|x| *x.1)
                .map(|x| *x.0)
                .collect();
            if chosen.len() < ranges.len() && !chosen.is_empty() {
                let plain: Vec<(usize, usize, Dbcs)> =
                    chosen.iter().map(|r| (r.0, r.1, r.2)).collect();
                (doc2, diags2) = Builder::run(src.clone(), opts, &plain);
                resolve_charsets(&mut doc2, &mut diags2, opts, transcoded);
            }
            if !chosen.is_empty() && dbcs_consistent(&doc2, 0..src.len()) {
                for &(_, _, d, at) in &chosen {
                    diags2.push(Diagnostic::new(
                        Code::UnescapedTrailBytes,
                        Span::new(at as u32, at as u32 + 2),
                        format!(
                            "{} {}; the game was read charset-aware",
                            d.name(),
                            d.clash()
                        ),
                    ));
                }
                doc = doc2;
                diags = diags2;
            }
        }
    }

    if let Some(first_nul) = memchr::memchr(0, &doc.src) {
        let count = bytecount_nul(&doc.src);
        diags.push(Diagnostic::new(
            Code::NulByte,
            Span::new(first_nul as u32, first_nul as u32 + 1),
            format!("{count} NUL byte(s) in the input"),
        ));
    }

    if let Some((enc, bom)) = transcoded {
        doc.original = Some(keep(input));
        doc.transcoded_from = Some((enc, bom));
        doc.utf32 = utf32;
    }

    lowercase_severity(&doc, &mut diags);
    if pre.is_empty() {
        pre = diags;
    } else {
        pre.append(&mut diags);
    }
    crate::diag::sort_diagnostics(&mut pre);
    Parsed {
        document: doc,
        diagnostics: pre,
    }
}

/// Whether every game of `doc` that starts in `range` and is read
/// charset-aware is decoded in the charset whose trail bytes it reads.
fn dbcs_consistent(doc: &Document, range: std::ops::Range<usize>) -> bool {
    doc.games
        .iter()
        .filter(|g| range.contains(&(g.start as usize)))
        .all(|g| g.dbcs.is_none() || Dbcs::of(g.encoding) == g.dbcs)
}

/// Whether text outside the game trees, written where it stands in the
/// canonical form (at the start or after a game's `)` and a blank line;
/// then, `before_game`, a blank line and the next game's `(;`), is read
/// there as it is: no game tree starts in it, and, at the `start` of the
/// file, it does not make the file look like UTF-16 (NUL bytes: `\0(\0;`)
/// or start with a byte-order mark.
pub(crate) fn inert_outside(text: &str, before_game: bool, start: bool) -> bool {
    if start && (text.contains('\0') || text.starts_with('\u{FEFF}')) {
        return false;
    }
    if before_game {
        let mut b = Vec::with_capacity(text.len() + 4);
        b.extend_from_slice(text.as_bytes());
        b.extend_from_slice(b"\n\n(;");
        find_tree_start(&b, 0).map(|(p, _)| p) == Some(text.len() + 2)
    } else {
        find_tree_start(text.as_bytes(), 0).is_none()
    }
}

fn bytecount_nul(b: &[u8]) -> usize {
    memchr::memchr_iter(0, b).count()
}

/// Lower-case identifiers are legal before FF[4]: report them as information there.
fn lowercase_severity(doc: &Document, diags: &mut [Diagnostic]) {
    if !diags.iter().any(|d| d.code == Code::LowercaseIdentifier) {
        return;
    }
    let ffs: Vec<(u32, i64)> = doc
        .games
        .iter()
        .map(|g| {
            let ff = doc
                .node(NodeId(g.root))
                .get_known(props::id::FF)
                .and_then(|p| p.first())
                .and_then(|v| v.number())
                .unwrap_or(1);
            (g.start, ff)
        })
        .collect();
    for d in diags.iter_mut() {
        if d.code == Code::LowercaseIdentifier {
            // The last game starting at or before it (games are in file
            // order): a binary search, not a walk over every game.
            let i = ffs.partition_point(|(s, _)| *s <= d.span.start);
            let ff = if i > 0 { ffs[i - 1].1 } else { 1 };
            if ff < 4 {
                d.severity = Severity::Info;
            }
        }
    }
}

/// Text outside the game trees is the parser's to judge: whether it would
/// read as SGF where the canonical form writes it.
impl Document {
    /// The text outside the game trees (before the first, between two,
    /// after the last), in source order: notes, a title, a web page's
    /// remains. Readers ignore it (`S003`, `S020`); the lossless writer
    /// keeps it byte for byte, the canonical writer where it stands when
    /// that cannot change how the output reads ([`OutsideText::in_place`]).
    /// A leading UTF-8 byte-order mark is no text.
    ///
    /// ```
    /// let doc = sgf_core::parse(b"Game 1: (;GM[1]) (;GM[1]) the end").document;
    /// let out = doc.outside_texts();
    /// assert_eq!(out.len(), 2);
    /// assert_eq!((out[0].text.as_ref(), out[0].before), ("Game 1:", Some(0)));
    /// assert_eq!((out[1].text.as_ref(), out[1].before), ("the end", None));
    /// assert!(out.iter().all(|o| o.in_place));
    /// ```
    pub fn outside_texts(&self) -> Vec<OutsideText<'_>> {
        if self.outside.is_empty() || self.games.is_empty() {
            return Vec::new();
        }
        let last = self.games.len() - 1;
        // The game each root starts, looked up once (a collection of many
        // games with text between them is not searched for each text).
        let game_of: std::collections::HashMap<u32, usize> = self
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.root, i))
            .collect();
        self.outside
            .iter()
            // Text before a game that was removed went with it (as the
            // lossless writer leaves it out with the game's bytes).
            .filter(|o| o.root == NONE || game_of.contains_key(&o.root))
            .map(|o| {
                let before = (o.root != NONE)
                    .then(|| game_of.get(&o.root).copied())
                    .flatten();
                let enc = self.games[before.unwrap_or(last)].encoding;
                let bytes = &self.src[o.start as usize..o.end as usize];
                let text = match crate::charset::decode_bytes(bytes, enc) {
                    Cow::Borrowed(_) => String::from_utf8_lossy(bytes),
                    Cow::Owned(s) => Cow::Owned(s),
                };
                let in_place = inert_outside(&text, before.is_some(), before == Some(0));
                OutsideText {
                    span: Span::new(o.start, o.end),
                    before,
                    text,
                    in_place,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(src: &[u8]) -> Vec<&'static str> {
        parse(src)
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    }

    #[test]
    fn node_limit_stops_reading_in_a_run_and_across_trees() {
        let opts = ParseOptions {
            max_nodes: 2,
            ..ParseOptions::default()
        };
        // The third node is refused in a run of compact nodes, and in a
        // child tree; its properties go nowhere (once they went to the
        // node before it).
        for src in [
            &b"(;GM[1];B[aa];W[bb];B[cc])"[..],
            b"(;GM[1];B[aa](;W[bb]))",
        ] {
            let p = parse_with(src, &opts);
            let g = p.document.game(0).unwrap();
            let nodes: Vec<_> = g.nodes().collect();
            assert_eq!(nodes.len(), 2);
            assert_eq!(
                nodes[1].props().count(),
                1,
                "{}",
                String::from_utf8_lossy(src)
            );
            assert!(p.diagnostics.iter().any(|d| d.code == Code::LimitReached));
        }
    }

    #[test]
    fn simple_tree() {
        let p = parse(b"(;FF[4]GM[1]SZ[19];B[pd](;W[dd])(;W[dp];B[pp]))");
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let doc = &p.document;
        assert_eq!(doc.game_count(), 1);
        let root = doc.game(0).unwrap().root();
        assert_eq!(root.props().count(), 3);
        let b = root.first_child().unwrap();
        assert_eq!(b.child_count(), 2);
        assert_eq!(doc.game(0).unwrap().nodes().count(), 5);
    }

    #[test]
    fn recovery() {
        assert_eq!(codes(b""), vec!["S001"]);
        assert_eq!(codes(b"  \n"), vec!["S001"]);
        assert_eq!(codes(b"hello"), vec!["S002"]);
        assert_eq!(codes(b"(;C[abc"), vec!["S006", "S005"]);
        assert_eq!(codes(b"(;B[aa]"), vec!["S006"]);
        assert_eq!(codes(b"(;B[aa] -- W[bb])"), vec!["S004"]);
        assert_eq!(codes(b"(;PL B[aa])"), vec!["S012"]);
        assert_eq!(codes(b"(;B[aa]))"), vec!["S020"]);
        assert_eq!(codes(b"(FF[4];B[aa])"), vec!["S008"]);
        assert_eq!(codes(b";FF[4];B[aa])"), vec!["S009"]);
        assert_eq!(codes(b"(;B[aa]())"), vec!["S010"]);
        assert_eq!(codes(b"(;B[aa]((;W[bb])))"), vec!["S011"]);
        assert_eq!(codes(b"(;B[aa]((;W[bb]))"), vec!["S011"]);
        // A second value on the next line belongs to the same property.
        assert_eq!(codes(b"(;GM[1];B[aa]\n[bb];W[cc])"), Vec::<&str>::new());
        assert_eq!(codes(b"(;B[aa];[bb])"), vec!["S013"]);
        assert_eq!(codes(b"(;B[aa](;W[bb])(;W[cc]);W[dd])"), vec!["S014"]);
        assert_eq!(codes(b"(;FF[4]AddBlack[aa])"), vec!["S015"]);
        assert_eq!(codes(b"(;AB[aa]AB[bb])"), vec!["S018"]);
        assert_eq!(codes(b"junk (;B[aa])"), vec!["S003"]);
        assert_eq!(codes(b"Subject: Re: [go] a game\n(;B[aa])"), vec!["S003"]);
        assert_eq!(codes(b"Error 5\n[aa][bb]\n(;B[aa])"), vec!["S003", "S023"]);
        assert_eq!(codes(b"see B[aa] here\n(;B[aa])"), vec!["S003", "S023"]);
    }

    /// Fuzzing found it (`split`): properties after a `;` inside a
    /// parenthesis read as junk went to that node when read by the fast
    /// path, to a node of their own near the end of the input.
    #[test]
    fn properties_after_a_node_in_junk_parentheses_read_alike_anywhere() {
        let shape = |src: &[u8]| -> Vec<(usize, usize)> {
            let d = parse(src).document;
            d.games()
                .map(|g| {
                    (
                        g.nodes().count(),
                        g.nodes().map(|n| n.props().count()).sum(),
                    )
                })
                .collect()
        };
        let near_end: &[u8] = b"(;GM[1](\xff (;AE[aa])\n ;B[ef]))";
        let mut padded = near_end.to_vec();
        padded.extend_from_slice(b"\n\n(;GM[1]C[padding for the fast path])");
        assert_eq!(shape(near_end)[0], shape(&padded)[0]);
        assert_eq!(shape(near_end)[0], (3, 3));
    }

    #[test]
    fn lowercase_identifiers() {
        let p = parse(b"(;FF[3]AddBlack[aa]CoPyright[x])");
        let root = p.document.game(0).unwrap().root();
        let ids: Vec<&str> = root.props().map(|p| p.ident()).collect();
        assert_eq!(ids, vec!["FF", "AB", "CP"]);
        assert!(p.diagnostics.iter().all(|d| d.severity == Severity::Info));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let n = 200_000;
        let mut s = Vec::new();
        for _ in 0..n {
            s.extend_from_slice(b"(;B[aa]");
        }
        s.extend(std::iter::repeat_n(b')', n));
        let p = parse(&s);
        assert!(p.diagnostics.is_empty());
        assert_eq!(p.document.game(0).unwrap().nodes().count(), n);
        drop(p);
    }

    #[test]
    fn garbage_does_not_panic() {
        let mut x: u32 = 12345;
        for len in [1, 7, 100, 5000] {
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                x = x.wrapping_mul(1103515245).wrapping_add(12345);
                v.push((x >> 16) as u8);
            }
            let _ = parse(&v);
            v.insert(0, b'(');
            v.insert(1, b';');
            let _ = parse(&v);
        }
    }

    #[test]
    fn gbk_detected_without_ca() {
        // 黑棋 in GBK.
        let src = b"(;PB[\xba\xda\xc6\xe5]C[\xba\xda\xc6\xe5\xba\xdc\xba\xc3\xa3\xac\xb0\xd7\xc6\xe5\xd2\xb2\xb2\xbb\xb4\xed])";
        let p = parse(src);
        let g = p.document.game(0).unwrap();
        assert_eq!(g.root().text("PB").unwrap(), "黑棋");
        assert_eq!(p.diagnostics[0].code, Code::CharsetDetected);
    }

    #[test]
    fn shift_jis_unescaped_trail_bytes() {
        // PB[申ソ] with ソ = 0x83 0x5C, no escaping, then BR.
        let src = b"(;CA[Shift_JIS]PB[\x90\x5c\x83\x5c]BR[9d];B[aa])";
        let p = parse(src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PB").unwrap(), "申ソ");
        assert_eq!(root.text("BR").unwrap(), "9d");
        assert!(
            p.diagnostics
                .iter()
                .any(|d| d.code == Code::UnescapedTrailBytes)
        );
    }

    #[test]
    fn shift_jis_trail_bytes_in_dialect_text() {
        // `TE` (a Double in FF[4]) holds an event name in the Nihon Ki-in
        // dialect: 表 (0x95 0x5C) before `]` must not escape it.
        let text = "(\nTE[第10回テスト代表]\nRD[2024-03-01]\nPC[東京]\nKO[黒6目半]\n;B[pd])";
        let (src, _, _) = encoding_rs::SHIFT_JIS.encode(text);
        let p = parse(&src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("TE").unwrap(), "第10回テスト代表");
        assert_eq!(root.text("RD").unwrap(), "2024-03-01");
    }

    #[test]
    fn shift_jis_escaped_trail_bytes() {
        // The writer escaped the trail byte: 0x83 0x5C 0x5C.
        let src = b"(;CA[Shift_JIS]PB[\x83\x5c\x5c]BR[9d];B[aa])";
        let p = parse(src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PB").unwrap(), "ソ");
        assert!(
            !p.diagnostics
                .iter()
                .any(|d| d.code == Code::UnescapedTrailBytes)
        );
    }

    #[test]
    fn utf8_declared_but_cut() {
        let mut s = b"(;CA[UTF-8]PB[".to_vec();
        let name = "天下无狗".as_bytes();
        s.extend_from_slice(&name[..name.len() - 1]);
        s.extend_from_slice(b"]PW[x];B[aa])");
        let p = parse(&s);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PW").unwrap(), "x");
        assert!(root.text("PB").unwrap().starts_with("天下无"));
        assert!(p.diagnostics.iter().any(|d| d.code == Code::InvalidBytes));
    }

    #[test]
    fn utf16_input() {
        let mut v = vec![0xFF, 0xFE];
        v.extend(
            "(;CA[UTF-16LE]PB[黑];B[aa])"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes()),
        );
        let p = parse(&v);
        let g = p.document.game(0).unwrap();
        assert_eq!(g.root().text("PB").unwrap(), "黑");
        assert_eq!(g.charset(), "UTF-16LE");
    }
}

#[cfg(test)]
mod dbcs_fast_path {
    use super::*;

    /// A value whose double-byte character ends in `]` is read the same
    /// right after `;` (the fast path) as after white space (the general
    /// path) when the game is read charset-aware.
    #[test]
    fn trail_bracket_in_a_non_text_value() {
        // (The fast path wants room after the value: a long comment.)
        let compact =
            b"(;CA[Shift_JIS]C[\x83]\x83]];KM[\x83]6];B[aa]C[a long comment to end with])";
        let spaced =
            b"(;CA[Shift_JIS]C[\x83]\x83]]; KM[\x83]6]; B[aa]C[a long comment to end with])";
        let values = |src: &[u8]| {
            let p = parse(src);
            let g = p.document.game(0).unwrap();
            g.nodes()
                .map(|n| {
                    n.props()
                        .map(|p| {
                            (
                                p.ident().to_string(),
                                p.values().map(|v| v.raw().to_vec()).collect::<Vec<_>>(),
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        let a = values(compact);
        assert_eq!(a, values(spaced));
        assert_eq!(a[1], vec![("KM".to_string(), vec![b"\x83]6".to_vec()])]);
    }
}
