//! Helpers shared by the readers and the dialect normaliser: line splitting
//! with byte spans, charset choice, handicap placement, and the parsing of
//! the localized text people write for ranks, komi, results, dates and times.

use std::borrow::Cow;

use encoding_rs::Encoding;
use sgf_core::charset::{self, Why};
use sgf_core::value::Point;
use sgf_core::{Code, Diagnostic, Span};

/// One line of a line-oriented format: its bytes without the line break and
/// where it starts in the file (diagnostics point at the offending line).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line<'a> {
    /// Offset of the first byte in the file.
    pub start: usize,
    /// The bytes, line break excluded.
    pub bytes: &'a [u8],
}

impl Line<'_> {
    /// The span of the line in the file.
    pub fn span(&self) -> Span {
        Span::new(self.start as u32, (self.start + self.bytes.len()) as u32)
    }
}

/// Splits at `\n`, `\r\n` and lone `\r` (UGF files use any of them).
pub(crate) fn lines(b: &[u8]) -> Vec<Line<'_>> {
    lines_iter(b).collect()
}

/// The lines of [`lines`], one at a time: a sniffer that looks at the
/// first few stops there, without splitting the rest.
pub(crate) fn lines_iter(b: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        let from = start;
        match memchr::memchr2(b'\n', b'\r', &b[from..]) {
            Some(k) => {
                let i = from + k;
                start = if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    i + 2
                } else {
                    i + 1
                };
                Some(Line {
                    start: from,
                    bytes: &b[from..i],
                })
            }
            None => {
                start = b.len();
                Some(Line {
                    start: from,
                    bytes: &b[from..],
                })
            }
        }
    })
}

/// Skips a UTF-8 byte-order mark.
pub(crate) fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

/// Whether a line holds nothing but white space and NUL bytes (some GIB
/// files end with a NUL).
pub(crate) fn is_blank(b: &[u8]) -> bool {
    b.iter().all(|&c| c.is_ascii_whitespace() || c == 0)
}

/// The charset a foreign record was read in.
#[derive(Clone, Debug)]
pub(crate) struct CharsetChoice {
    /// The decoder.
    pub encoding: &'static Encoding,
    /// The name reported (`ASCII` when there was nothing else).
    pub name: &'static str,
    /// Doubts: `C002` when the format's hint is contradicted by the bytes,
    /// `C004` for invalid or already-replaced bytes.
    pub notes: Vec<(Code, String)>,
}

/// Chooses the charset of `sample` (the header text of a record: its move
/// records are ASCII and would only dilute the statistics). `hint` is the
/// format's own claim and where it comes from (`GIBOKIND=China`).
///
/// The decision is sgf-core's [`charset::decide`], the one the SGF parser
/// makes for every game: pure ASCII; valid UTF-8; UTF-8 damaged in a few
/// places; the hint unless the bytes are invalid in it and a multi-byte
/// charset reads them cleanly; otherwise the Go-aware detector.
pub(crate) fn choose_charset(
    sample: &[u8],
    hint: Option<(&'static Encoding, &str)>,
) -> CharsetChoice {
    let mut notes = Vec::new();
    if sample.is_ascii() {
        return CharsetChoice {
            encoding: encoding_rs::UTF_8,
            name: crate::format::ASCII,
            notes,
        };
    }
    let dec = charset::decide(sample, hint.map(|h| h.0), false);
    let enc = dec.encoding;
    match dec.why {
        Why::Utf8 => {
            if let Some((h, why)) = hint
                && h != encoding_rs::UTF_8
            {
                notes.push((
                    Code::CharsetMismatch,
                    format!(
                        "{why} suggests {}, but the text is valid UTF-8; read as UTF-8",
                        charset::display_name(h)
                    ),
                ));
            }
        }
        Why::Utf8Damaged => notes.push((
            Code::InvalidBytes,
            format!(
                "UTF-8 with {} invalid byte sequence(s), replaced by U+FFFD",
                dec.invalid
            ),
        )),
        Why::Detected => {
            if let Some((h, why)) = hint {
                notes.push((
                    Code::CharsetMismatch,
                    format!(
                        "{why} suggests {}, but the bytes are {}",
                        charset::display_name(h),
                        charset::display_name(enc)
                    ),
                ));
            }
        }
        Why::Ascii | Why::Declared | Why::DeclaredInvalid => {}
    }
    if enc == encoding_rs::UTF_8 {
        let replaced = std::str::from_utf8(sample).map_or(0, |s| s.matches('\u{FFFD}').count());
        if replaced > 0 {
            notes.push((
                Code::InvalidBytes,
                format!(
                    "the text holds {replaced} U+FFFD replacement character(s): it was damaged before it was saved"
                ),
            ));
        }
    } else if enc
        .decode_without_bom_handling_and_without_replacement(sample)
        .is_none()
    {
        notes.push((
            Code::InvalidBytes,
            format!(
                "invalid {} byte sequences, replaced by U+FFFD",
                charset::display_name(enc)
            ),
        ));
    }
    CharsetChoice {
        encoding: enc,
        name: charset::display_name(enc),
        notes,
    }
}

/// Diagnostics of a reader: caps repeated `R002` reports so a damaged
/// 100 000-line file does not produce 100 000 lines of output.
#[derive(Default, Debug)]
pub(crate) struct Report {
    pub diags: Vec<Diagnostic>,
    unreadable: usize,
}

/// Most `R002` diagnostics reported per file; the rest are counted.
const MAX_UNREADABLE: usize = 100;

impl Report {
    /// A line or field that could not be read (`R002`).
    pub fn unreadable(&mut self, span: Span, msg: impl Into<String>) {
        self.unreadable += 1;
        if self.unreadable <= MAX_UNREADABLE {
            self.diags
                .push(Diagnostic::new(Code::FormatUnreadable, span, msg));
        }
    }
    /// Any diagnostic.
    pub fn push(&mut self, code: Code, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(code, span, msg));
    }
    /// The charset notes, at `span`.
    pub fn charset(&mut self, choice: &CharsetChoice, span: Span) {
        for (code, msg) in &choice.notes {
            self.push(*code, span, msg.clone());
        }
    }
    /// Closes the report: the count of unreported `R002`, sorted by position.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        if self.unreadable > MAX_UNREADABLE {
            self.diags.push(Diagnostic::new(
                Code::FormatUnreadable,
                Span::default(),
                format!(
                    "{} more unreadable lines not listed",
                    self.unreadable - MAX_UNREADABLE
                ),
            ));
        }
        sgf_core::diag::sort_diagnostics(&mut self.diags);
        self.diags
    }
}

/// Decodes bytes (no BOM handling: lines of a file).
pub(crate) fn decode(bytes: &[u8], enc: &'static Encoding) -> String {
    match sgf_core::charset::decode_bytes(bytes, enc) {
        Cow::Borrowed(s) => s.to_string(),
        Cow::Owned(s) => s,
    }
}

/// Which corner the third handicap stone takes; the only difference between
/// the conventions in use (for 2 and 4–9 stones the points are the same).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandicapOrder {
    /// Third stone top-left (D16): GTP's `fixed_handicap` (GNU Go), Tygem,
    /// Fox, and the NGF readers.
    Tygem,
    /// Third stone bottom-right (Q4): the order some Western servers and
    /// books use.
    Western,
}

impl HandicapOrder {
    /// The name used in diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            HandicapOrder::Tygem => "Tygem",
            HandicapOrder::Western => "Western",
        }
    }
}

/// The fixed handicap points for `n` stones on a `size` board, in placing
/// order: the one table of [`sgf_go::coords::handicap_points`] (GTP's), with
/// the third and fourth stones swapped for [`HandicapOrder::Western`], and
/// the top side star before the bottom one with 8 or 9 stones (the order
/// records converted by Qipu have always been written in).
/// `None` when the convention does not define them (fewer than 2 or more
/// than 9 stones, boards under 7 lines, 5+ stones below 9 lines or on an
/// even board).
pub fn handicap_points(size: u8, n: u8, order: HandicapOrder) -> Option<Vec<Point>> {
    let mut v = sgf_go::coords::handicap_points(sgf_go::BoardSize::square(size), u32::from(n))?;
    if order == HandicapOrder::Western && v.len() >= 3 {
        let far = size - 1 - if size >= 13 { 3 } else { 2 };
        // GTP's third stone is top-left; the Western one bottom-right, which
        // is GTP's fourth (or not yet placed with three stones).
        if v.len() == 3 {
            v[2] = Point::new(far, far);
        } else {
            v.swap(2, 3);
        }
    }
    if v.len() >= 8 {
        v.swap(6, 7);
    }
    Some(v)
}

/// SGF letters of a point (sgf-core's).
pub(crate) fn sgf_point(p: Point) -> String {
    p.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap() {
        let s = |v: Vec<Point>| v.into_iter().map(sgf_point).collect::<Vec<_>>().join("");
        assert_eq!(
            s(handicap_points(19, 3, HandicapOrder::Tygem).unwrap()),
            "dppddd"
        );
        assert_eq!(
            s(handicap_points(19, 3, HandicapOrder::Western).unwrap()),
            "dppdpp"
        );
        assert_eq!(
            s(handicap_points(19, 9, HandicapOrder::Tygem).unwrap()),
            "dppdddppdjpjjdjpjj"
        );
        // Western: the third and fourth stones swapped.
        assert_eq!(
            s(handicap_points(19, 4, HandicapOrder::Western).unwrap()),
            "dppdppdd"
        );
        // GTP's table (GNU Go's `fixed_handicap`): at most 4 below 9 lines.
        assert!(handicap_points(7, 5, HandicapOrder::Tygem).is_none());
        assert_eq!(
            s(handicap_points(7, 4, HandicapOrder::Tygem).unwrap()),
            "ceecccee"
        );
        assert_eq!(
            s(handicap_points(9, 2, HandicapOrder::Tygem).unwrap()),
            "cggc"
        );
        assert!(handicap_points(18, 5, HandicapOrder::Tygem).is_none());
        assert!(handicap_points(19, 1, HandicapOrder::Tygem).is_none());
        assert!(handicap_points(5, 2, HandicapOrder::Tygem).is_none());
    }

    #[test]
    fn lines_with_spans() {
        let ls = lines(b"a\r\nbb\rc\n\nd");
        let v: Vec<&[u8]> = ls.iter().map(|l| l.bytes).collect();
        assert_eq!(v, [&b"a"[..], b"bb", b"c", b"", b"d"]);
        assert_eq!(ls[1].span(), Span::new(3, 5));
    }
}
