//! The one tokenizer over raw SGF bytes: the scanning layer that the
//! parser, the splitter ([`crate::split`]) and the [`Lexer`] iterator all
//! drive, so that a value, an identifier or a run of stray bytes ends at
//! the same byte whoever reads it.
//!
//! White space is skipped; everything that is not a token (stray characters,
//! binary garbage) comes out as [`TokenKind::Junk`], so a caller that keeps
//! the bytes between tokens loses nothing. Usable on its own for streaming
//! tools. Besides the tokens, the layer has the quick scans the hot paths
//! need: the common shapes `;B[pd]` and `XY[ab]` (`lone_move`,
//! `short_ident`, `short_value`) and the skip to the next byte that
//! matters inside a tree (`next_structural`).

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
        self.pos = skip_ws(self.src, self.pos);
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
        let t = token_at(self.src, self.pos, self.dbcs, lenient)?;
        self.pos = t.end as usize;
        Some(t)
    }
}

/// The position of the first byte at or after `i` that is not white space
/// (or the end).
#[inline]
pub(crate) fn skip_ws(src: &[u8], mut i: usize) -> usize {
    while i < src.len() && is_ws(src[i]) {
        i += 1;
    }
    i
}

/// The token that starts at `pos` (which is not white space), or `None` at
/// the end. A value is read in the double-byte charset `dbcs` if any, and
/// `lenient`ly (see [`Lexer::next_lenient`]).
#[inline]
pub(crate) fn token_at(src: &[u8], pos: usize, dbcs: Option<Dbcs>, lenient: bool) -> Option<Token> {
    let &b = src.get(pos)?;
    let (kind, end, flags) = match CLASS[b as usize] {
        PUNCT => match b {
            b'(' => (TokenKind::LParen, pos + 1, 0),
            b')' => (TokenKind::RParen, pos + 1, 0),
            b';' => (TokenKind::Semi, pos + 1, 0),
            _ => {
                let (end, flags) = scan_value(src, pos + 1, dbcs, lenient);
                (TokenKind::Value, end, flags)
            }
        },
        ALPHA => {
            let (end, flags) = scan_ident(src, pos);
            (TokenKind::Ident, end, flags)
        }
        _ => {
            let (end, flags) = scan_junk(src, pos);
            (TokenKind::Junk, end, flags)
        }
    };
    Some(Token {
        kind,
        start: pos as u32,
        end: end as u32,
        flags,
    })
}

/// An identifier from `start`: letters and digits. Returns its end and
/// [`LOWERCASE`] when it has lower-case letters.
#[inline]
fn scan_ident(src: &[u8], start: usize) -> (usize, u8) {
    let mut flags = 0;
    let mut i = start;
    while i < src.len() {
        let c = src[i];
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
    (i, flags)
}

/// Whether `b` starts no token but junk: not white space, a letter or one
/// of `(`, `)`, `;`, `[`.
#[inline]
pub(crate) fn is_junk(b: u8) -> bool {
    !matches!(CLASS[b as usize], PUNCT | ALPHA | WS)
}

/// Stray bytes from `start`, up to white space or a byte that starts a
/// token. Returns their end and [`NUL`] when they hold a NUL byte.
#[inline]
pub(crate) fn scan_junk(src: &[u8], start: usize) -> (usize, u8) {
    let mut flags = 0;
    let mut i = start;
    while i < src.len() {
        let c = src[i];
        if c == 0 {
            flags |= NUL;
        }
        if !is_junk(c) {
            break;
        }
        i += 1;
    }
    (i, flags)
}

/// Bytes that end the quick scan of a value ([`short_value`]): `]`, `\\`, `[`.
pub(crate) static VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b']' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'[' as usize] = true;
    t
};

/// The same in a game read charset-aware, and any byte ≥ 0x80: a
/// double-byte character may end in `]` or `\\` (the general scan reads it).
pub(crate) static VALUE_STOP_DBCS: [bool; 256] = {
    let mut t = VALUE_STOP;
    let mut b = 0x80;
    while b < 256 {
        t[b] = true;
        b += 1;
    }
    t
};

/// The most common node of all at `pos`, a move alone (`;B[pd]` from its
/// `B`) or a pass (`;B[]`), followed by `;`, `(` or `)`, directly or after
/// white space (a line break, `\r\n`, spaces). Returns whether it is
/// Black's, the end of its value (after the `]`) and the position after
/// the white space.
#[inline(always)]
pub(crate) fn lone_move(src: &[u8], pos: usize) -> Option<(bool, usize, usize)> {
    let end = if let Some(&[c, b'[', x, y, b']']) = src.get(pos..pos + 5)
        && (c == b'B' || c == b'W')
        && x.is_ascii_lowercase()
        && y.is_ascii_lowercase()
    {
        pos + 5
    } else if let Some(&[c, b'[', b']']) = src.get(pos..pos + 3)
        && (c == b'B' || c == b'W')
    {
        pos + 3
    } else {
        return None;
    };
    let next = match src.get(end) {
        Some(b';' | b'(' | b')') => end,
        // The usual line break first, without the loop.
        Some(b'\n') if matches!(src.get(end + 1), Some(b';' | b'(' | b')')) => end + 1,
        Some(&b) if is_ws(b) => {
            let j = skip_ws(src, end);
            if !matches!(src.get(j), Some(b';' | b'(' | b')')) {
                return None;
            }
            j
        }
        _ => return None,
    };
    Some((src[pos] == b'B', end, next))
}

/// Room after `pos` that [`short_ident`] and [`short_value`] need, so that
/// their indexing stays in bounds without tests.
const SHORT_ROOM: usize = 24;

/// A one- or two-letter upper-case identifier directly followed by `[` at
/// `pos`, with room for the quick scan of its value after it: its letters
/// (`A` = 0; 26 for no second letter) and the position of its `[`.
#[inline(always)]
pub(crate) fn short_ident(src: &[u8], pos: usize) -> Option<(usize, usize, usize)> {
    if pos + SHORT_ROOM > src.len() {
        return None;
    }
    let a = src[pos].wrapping_sub(b'A');
    if a >= 26 {
        return None;
    }
    let b = src[pos + 1];
    if b == b'[' {
        Some((a as usize, 26, pos + 1))
    } else if b.wrapping_sub(b'A') < 26 && src[pos + 2] == b'[' {
        Some((a as usize, (b - b'A') as usize, pos + 2))
    } else {
        None
    }
}

/// A short value whose `[` is at `open` (as [`short_ident`] found it): up
/// to 16 bytes, none of them in `stop` ([`VALUE_STOP`] or
/// [`VALUE_STOP_DBCS`]), that is the only value of its property (no `[`
/// follows, also across white space). Returns the position of its `]`
/// and of what follows, white space skipped.
#[inline(always)]
pub(crate) fn short_value(src: &[u8], open: usize, stop: &[bool; 256]) -> Option<(usize, usize)> {
    // Moves (two letters) first.
    let mut i = open + 1;
    let limit = open + 18;
    if src[open + 3] == b']' && !stop[src[open + 1] as usize] && !stop[src[open + 2] as usize] {
        i = open + 3;
    } else {
        while i < limit && !stop[src[i] as usize] {
            i += 1;
        }
    }
    if i == limit || src[i] != b']' || src[i + 1] == b'[' {
        return None;
    }
    let mut next = i + 1;
    if is_ws(src[next]) {
        next = skip_ws(src, next);
        if src.get(next) == Some(&b'[') {
            return None;
        }
    }
    Some((i, next))
}

/// Bytes that matter inside a game tree to a reader that skips nodes and
/// properties: `[`, `(`, `)`.
static STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'[' as usize] = true;
    t[b'(' as usize] = true;
    t[b')' as usize] = true;
    t
};

/// The offset of the first `[`, `(` or `)` in `bytes`: a table loop over
/// the few bytes of a plain node (`;B[pd]`), memchr beyond.
#[inline]
pub(crate) fn next_structural(bytes: &[u8]) -> Option<usize> {
    const SHORT: usize = 16;
    let short = bytes.len().min(SHORT);
    for (k, &c) in bytes[..short].iter().enumerate() {
        if STRUCTURAL[c as usize] {
            return Some(k);
        }
    }
    let rest = bytes.get(SHORT..)?;
    memchr::memchr3(b'[', b'(', b')', rest).map(|k| k + SHORT)
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
    // Most values are a point or a move (`pd`), then short ones: a few
    // bytes are checked before memchr.
    if let Some(&[a, b, b']']) = src.get(i..i + 3)
        && a.is_ascii_alphabetic()
        && b.is_ascii_alphabetic()
    {
        return Some(i + 2);
    }
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
    match src.get(skip_ws(src, pos)) {
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
