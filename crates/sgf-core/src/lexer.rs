//! A borrowing tokenizer over raw SGF bytes.
//!
//! White space is skipped; everything that is not a token (stray characters,
//! binary garbage) comes out as [`TokenKind::Junk`], so a caller that keeps
//! the bytes between tokens loses nothing. Usable on its own for streaming
//! tools.

use crate::charset::Dbcs;

/// What a token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `;`
    Semi,
    /// A property identifier: letters, then letters or digits.
    Ident,
    /// A value `[…]` (the span includes the brackets).
    Value,
    /// A run of bytes that belong to no token.
    Junk,
}

/// The value has no closing `]` before the end of the input.
pub const UNTERMINATED: u8 = 1;
/// The identifier has lower-case letters.
pub const LOWERCASE: u8 = 2;
/// The junk contains NUL bytes.
pub const NUL: u8 = 4;
/// The value contained an unescaped `]` that was read as part of the text.
pub const INNER_BRACKET: u8 = 8;

/// A token: kind, byte span and flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// [`UNTERMINATED`], [`LOWERCASE`], [`NUL`], [`INNER_BRACKET`].
    pub flags: u8,
}

const WS: u8 = 1;
const ALPHA: u8 = 2;
const DIGIT: u8 = 4;
const PUNCT: u8 = 8; // ( ) ; [

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[b'\r' as usize] = WS;
    t[0x0B] = WS;
    t[0x0C] = WS;
    let mut c = b'a';
    while c <= b'z' {
        t[c as usize] = ALPHA;
        t[(c - 32) as usize] = ALPHA;
        c += 1;
    }
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = DIGIT;
        d += 1;
    }
    t[b'(' as usize] = PUNCT;
    t[b')' as usize] = PUNCT;
    t[b';' as usize] = PUNCT;
    t[b'[' as usize] = PUNCT;
    t
};

/// Whether `b` is SGF white space.
#[inline]
pub fn is_ws(b: u8) -> bool {
    CLASS[b as usize] == WS
}

/// The tokenizer.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    dbcs: Option<Dbcs>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src` from the start.
    pub fn new(src: &'a [u8]) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            dbcs: None,
        }
    }

    /// Reads values charset-aware: a double-byte character whose second byte
    /// is `\` or `]` does not escape or close anything.
    pub fn with_dbcs(mut self, dbcs: Option<Dbcs>) -> Self {
        self.dbcs = dbcs;
        self
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to `pos`.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
    }

    /// Skips white space and returns the next byte without consuming it.
    #[inline]
    pub fn peek_byte(&mut self) -> Option<u8> {
        self.skip_ws();
        self.src.get(self.pos).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        while self.pos < self.src.len() && is_ws(self.src[self.pos]) {
            self.pos += 1;
        }
    }

    /// The next token, reading a value leniently: an unescaped `]` that is
    /// followed by plain text rather than SGF structure is taken as part of
    /// the value (writers that forget to escape `]` in comments).
    pub fn next_lenient(&mut self) -> Option<Token> {
        self.next_token(true)
    }

    #[inline]
    fn next_token(&mut self, lenient: bool) -> Option<Token> {
        self.skip_ws();
        let start = self.pos;
        let &b = self.src.get(start)?;
        let (kind, flags) = match CLASS[b as usize] {
            PUNCT => {
                self.pos += 1;
                match b {
                    b'(' => (TokenKind::LParen, 0),
                    b')' => (TokenKind::RParen, 0),
                    b';' => (TokenKind::Semi, 0),
                    _ => {
                        let flags = self.scan_value(lenient);
                        (TokenKind::Value, flags)
                    }
                }
            }
            ALPHA => {
                let mut flags = 0;
                let mut i = start;
                while i < self.src.len() {
                    let c = self.src[i];
                    let cl = CLASS[c as usize];
                    if cl == ALPHA {
                        if c.is_ascii_lowercase() {
                            flags |= LOWERCASE;
                        }
                    } else if cl != DIGIT {
                        break;
                    }
                    i += 1;
                }
                self.pos = i;
                (TokenKind::Ident, flags)
            }
            _ => {
                let mut flags = 0;
                let mut i = start;
                while i < self.src.len() {
                    let c = self.src[i];
                    if c == 0 {
                        flags |= NUL;
                    }
                    let cl = CLASS[c as usize];
                    if cl == PUNCT || cl == ALPHA || cl == WS {
                        break;
                    }
                    i += 1;
                }
                self.pos = i;
                (TokenKind::Junk, flags)
            }
        };
        Some(Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            flags,
        })
    }

    /// Scans a value after its `[`; leaves `pos` after the closing `]`.
    #[inline]
    fn scan_value(&mut self, lenient: bool) -> u8 {
        let (end, flags) = scan_value(self.src, self.pos, self.dbcs, lenient);
        self.pos = end;
        flags
    }
}

/// Position of the next unescaped `]` at or after `from`.
#[inline]
pub(crate) fn find_close(src: &[u8], from: usize, dbcs: Option<Dbcs>) -> Option<usize> {
    let mut i = from;
    if let Some(d) = dbcs {
        while i < src.len() {
            let b = src[i];
            if d.is_lead(b) {
                i += d.char_len(&src[i..]);
            } else if b == b'\\' {
                i += 2;
            } else if b == b']' {
                return Some(i);
            } else {
                i += 1;
            }
        }
        return None;
    }
    // Most values are short (`pd`): check a few bytes before memchr.
    let short_end = (i + 8).min(src.len());
    while i < short_end {
        match src[i] {
            b']' => return Some(i),
            b'\\' => {
                i += 2;
                break;
            }
            _ => i += 1,
        }
    }
    while i < src.len() {
        let k = memchr::memchr2(b']', b'\\', &src[i..])?;
        let j = i + k;
        if src[j] == b']' {
            return Some(j);
        }
        i = j + 2;
    }
    None
}

/// Whether SGF structure (or the end) follows `pos`, after white space.
pub(crate) fn structure_follows(src: &[u8], pos: usize) -> bool {
    let mut i = pos;
    while i < src.len() && is_ws(src[i]) {
        i += 1;
    }
    match src.get(i) {
        None => true,
        Some(&c) => matches!(c, b';' | b'(' | b')' | b'[') || c.is_ascii_uppercase(),
    }
}

/// Scans a value whose `[` is at `open - 1`: returns the position after its
/// `]` (or the end) and the flags [`UNTERMINATED`] / [`INNER_BRACKET`].
#[inline]
pub(crate) fn scan_value(
    src: &[u8],
    open: usize,
    dbcs: Option<Dbcs>,
    lenient: bool,
) -> (usize, u8) {
    let first = match find_close(src, open, dbcs) {
        Some(c) => c,
        None => return (src.len(), UNTERMINATED),
    };
    if lenient && !structure_follows(src, first + 1) {
        // Look for a later `]` that is followed by structure, crossing only
        // plain text (no `[`, `;`, `(`, `)`), so a forgotten escape does not
        // cut a comment in two.
        let mut close = first;
        while let Some(next) = find_close(src, close + 1, dbcs) {
            let between = &src[close + 1..next];
            if memchr::memchr3(b'[', b';', b'(', between).is_some()
                || memchr::memchr(b')', between).is_some()
            {
                break;
            }
            if structure_follows(src, next + 1) {
                return (next + 1, INNER_BRACKET);
            }
            close = next;
        }
    }
    (first + 1, 0)
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        self.next_token(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(TokenKind, String)> {
        Lexer::new(s.as_bytes())
            .map(|t| (t.kind, s[t.start as usize..t.end as usize].to_string()))
            .collect()
    }

    #[test]
    fn tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("(;FF[4] C[a\\]b] AddBlack[aa][bb] -- )"),
            vec![
                (LParen, "(".into()),
                (Semi, ";".into()),
                (Ident, "FF".into()),
                (Value, "[4]".into()),
                (Ident, "C".into()),
                (Value, "[a\\]b]".into()),
                (Ident, "AddBlack".into()),
                (Value, "[aa]".into()),
                (Value, "[bb]".into()),
                (Junk, "--".into()),
                (RParen, ")".into()),
            ]
        );
    }

    #[test]
    fn unterminated() {
        let t: Vec<_> = Lexer::new(b"(;C[abc").collect();
        assert_eq!(t[3].flags, UNTERMINATED);
        assert_eq!(t[3].end, 7);
        let t: Vec<_> = Lexer::new(b"C[ab\\").collect();
        assert_eq!(t[1].flags, UNTERMINATED);
    }

    #[test]
    fn lenient_inner_bracket() {
        let src = b"C[see [1] here];B[aa]";
        let mut lx = Lexer::new(src);
        lx.next();
        let v = lx.next_lenient().unwrap();
        assert_eq!(&src[v.start as usize..v.end as usize], b"[see [1] here]");
        assert_eq!(v.flags, INNER_BRACKET);
        // Never swallows structure.
        let src = b"C[foo]x;B[aa]";
        let mut lx = Lexer::new(src);
        lx.next();
        let v = lx.next_lenient().unwrap();
        assert_eq!(&src[v.start as usize..v.end as usize], b"[foo]");
    }

    #[test]
    fn dbcs_values() {
        // Shift_JIS ソ = 0x83 0x5C right before `]`.
        let src = [b'C', b'[', 0x83, 0x5C, b']', b'B', b'[', b']'];
        let t: Vec<_> = Lexer::new(&src).with_dbcs(Some(Dbcs::ShiftJis)).collect();
        assert_eq!(t.len(), 4);
        assert_eq!((t[1].start, t[1].end), (1, 5));
    }
}
