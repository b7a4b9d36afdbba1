//! Escaping and the white-space rules of SimpleText and Text (SGF FF\[4\],
//! "Text" and "SimpleText" value types).
//!
//! Raw value bytes are unescaped first (`\x` → `x`, `\`+line break → nothing),
//! then decoded from the game's charset, then the white-space rules apply.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

use crate::charset::Dbcs;

/// Removes escapes and soft line breaks from raw value bytes.
///
/// With `dbcs`, a double-byte character is copied whole, so a trail byte
/// `0x5C` is not mistaken for an escape.
pub fn unescape(raw: &[u8], dbcs: Option<Dbcs>) -> Cow<'_, [u8]> {
    if memchr::memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if let Some(d) = dbcs
            && d.is_lead(b)
        {
            let n = d.char_len(&raw[i..]);
            out.extend_from_slice(&raw[i..i + n]);
            i += n;
            continue;
        }
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        // An escape.
        i += 1;
        match raw.get(i) {
            None => {}
            Some(b'\n') => {
                i += 1;
                if raw.get(i) == Some(&b'\r') {
                    i += 1;
                }
            }
            Some(b'\r') => {
                i += 1;
                if raw.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            Some(&c) => {
                if let Some(d) = dbcs
                    && d.is_lead(c)
                {
                    let n = d.char_len(&raw[i..]);
                    out.extend_from_slice(&raw[i..i + n]);
                    i += n;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
        }
    }
    Cow::Owned(out)
}

/// Decodes bytes from `enc` to Unicode, borrowing when they are valid UTF-8
/// and `enc` is UTF-8 (or the bytes are ASCII).
pub fn decode<'a>(bytes: Cow<'a, [u8]>, enc: &'static Encoding) -> Cow<'a, str> {
    if enc == UTF_8 || (bytes.is_ascii() && enc.is_ascii_compatible()) {
        return match bytes {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(v) => match String::from_utf8(v) {
                Ok(s) => Cow::Owned(s),
                Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
            },
        };
    }
    Cow::Owned(crate::charset::decode_bytes(&bytes, enc).into_owned())
}

#[inline]
fn is_other_ws(c: char) -> bool {
    // White space other than line breaks: tab, vertical tab, form feed, and
    // the other ASCII controls SGF writers leave in text.
    matches!(c, '\t' | '\x0B' | '\x0C')
}

/// Applies the Text rules: line breaks (`\r\n`, `\n\r`, `\r`, `\n`) become
/// `\n`, other white space becomes a space.
pub fn text_ws(s: Cow<'_, str>) -> Cow<'_, str> {
    if !s
        .bytes()
        .any(|b| b == b'\r' || b == b'\t' || b == 0x0B || b == 0x0C)
    {
        return s;
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\r' => {
                if it.peek() == Some(&'\n') {
                    it.next();
                }
                out.push('\n');
            }
            '\n' => {
                if it.peek() == Some(&'\r') {
                    it.next();
                }
                out.push('\n');
            }
            c if is_other_ws(c) => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Applies the SimpleText rules: every white space, line breaks included,
/// becomes a space (one per line break).
pub fn simple_text_ws(s: Cow<'_, str>) -> Cow<'_, str> {
    if !s
        .bytes()
        .any(|b| matches!(b, b'\r' | b'\n' | b'\t' | 0x0B | 0x0C))
    {
        return s;
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\r' => {
                if it.peek() == Some(&'\n') {
                    it.next();
                }
                out.push(' ');
            }
            '\n' => {
                if it.peek() == Some(&'\r') {
                    it.next();
                }
                out.push(' ');
            }
            c if is_other_ws(c) => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Escapes text for a value: `\` and `]` always, `:` when `colon` (the first
/// part of a composed value).
pub fn escape_into(out: &mut Vec<u8>, text: &str, colon: bool) {
    let bytes = text.as_bytes();
    let mut last = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\\' || b == b']' || (colon && b == b':') {
            out.extend_from_slice(&bytes[last..i]);
            out.push(b'\\');
            out.push(b);
            last = i + 1;
        }
    }
    out.extend_from_slice(&bytes[last..]);
}

/// Escapes text, returning a new string.
pub fn escape(text: &str, colon: bool) -> String {
    let mut v = Vec::with_capacity(text.len() + 2);
    escape_into(&mut v, text, colon);
    String::from_utf8(v).expect("escaping keeps UTF-8")
}

/// The double-byte rules under which a `:` of raw value bytes in `enc` is
/// looked for: those the value is read with (`dbcs`), or ISO-2022-JP's
/// whenever the text is ISO-2022-JP — its 7-bit double-byte runs hold `:`
/// (忘 is `K:`), read charset-aware or not, and no separator is inside a run.
pub fn colon_rules(enc: &'static Encoding, dbcs: Option<Dbcs>) -> Option<Dbcs> {
    dbcs.or_else(|| (enc == encoding_rs::ISO_2022_JP).then_some(Dbcs::Iso2022Jp))
}

/// Position of the first unescaped `:` in raw value bytes (composed values).
pub fn find_colon(raw: &[u8], dbcs: Option<Dbcs>) -> Option<usize> {
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        // A lead byte before a byte that cannot follow it (`\xb1:`) is no
        // character: the decoder gives U+FFFD and reads the `:` as itself.
        if let Some(d) = dbcs
            && d.is_lead(b)
            && raw.get(i + 1).is_none_or(|&t| d.is_trail(t))
        {
            i += d.char_len(&raw[i..]);
            continue;
        }
        match b {
            b'\\' => i += 2,
            b':' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Re-escapes raw value bytes as UTF-8 (the canonical writer and editing
/// share it): text is decoded and escaped again; a
/// value of any other type keeps the structure of a composed value (the first
/// unescaped `:`).
pub(crate) fn encode_value(
    out: &mut Vec<u8>,
    vt: crate::props::ValueType,
    raw: &[u8],
    enc: &'static Encoding,
    dbcs: Option<Dbcs>,
) {
    let decode = |r: &[u8]| -> String { decode(unescape(r, dbcs), enc).into_owned() };
    match vt {
        crate::props::ValueType::Text | crate::props::ValueType::SimpleText => {
            escape_into(out, &decode(raw), false);
        }
        _ => match find_colon(raw, colon_rules(enc, dbcs)) {
            Some(c) => {
                escape_into(out, &decode(&raw[..c]), true);
                out.push(b':');
                escape_into(out, &decode(&raw[c + 1..]), false);
            }
            None => escape_into(out, &decode(raw), true),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn un(s: &str) -> String {
        String::from_utf8(unescape(s.as_bytes(), None).into_owned()).unwrap()
    }

    #[test]
    fn escapes_and_soft_breaks() {
        assert_eq!(un(r"a\]b"), "a]b");
        assert_eq!(un(r"a\\b"), r"a\b");
        assert_eq!(un(r"a\:b"), "a:b");
        assert_eq!(un(r"\a"), "a");
        assert_eq!(un("ab\\\ncd"), "abcd");
        assert_eq!(un("ab\\\r\ncd"), "abcd");
        assert_eq!(un("ab\\\n\rcd"), "abcd");
        assert_eq!(un("ab\\\rcd"), "abcd");
        assert_eq!(un("ab\ncd"), "ab\ncd");
        assert_eq!(un("trailing\\"), "trailing");
    }

    #[test]
    fn whitespace_rules() {
        assert_eq!(text_ws("a\tb\r\nc\rd\n\re".into()), "a b\nc\nd\ne");
        assert_eq!(simple_text_ws("a\tb\r\nc\nd".into()), "a b c d");
        assert!(matches!(text_ws("plain".into()), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_roundtrip() {
        for s in ["a]b", r"c\d", "e:f", "", "黑]棋"] {
            let e = escape(s, true);
            assert_eq!(un(&e), s);
        }
        assert_eq!(escape("a:b]", false), r"a:b\]");
        assert_eq!(escape("a:b]", true), r"a\:b\]");
    }

    #[test]
    fn dbcs_trail_bytes() {
        // Shift_JIS ソ is 0x83 0x5C: not an escape when read charset-aware.
        let raw = [0x83, 0x5C, b'a'];
        assert_eq!(&*unescape(&raw, Some(Dbcs::ShiftJis)), &raw[..]);
        assert_eq!(&*unescape(&raw, None), &[0x83, b'a'][..]);
        assert_eq!(
            find_colon(&[0x83, 0x5C, b':', b'x'], Some(Dbcs::ShiftJis)),
            Some(2)
        );
        assert_eq!(find_colon(br"a\:b:c", None), Some(4));
    }
}
