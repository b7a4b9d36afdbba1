//! Character sets: `CA` labels, detection, and the double-byte encodings
//! whose second byte can be `\` or `]`.

use encoding_rs::{
    BIG5, EUC_KR, Encoding, GB18030, GBK, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252,
};

/// Where the charset of a game came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CharsetSource {
    /// The caller asked for it.
    Override,
    /// A byte-order mark.
    Bom,
    /// The game's `CA` property, confirmed by the bytes.
    Declared,
    /// Detected from the bytes (no `CA`, an unknown one, or one the bytes contradict).
    Detected,
    /// No `CA`, only ASCII: the specification's default, ISO-8859-1.
    Default,
}

/// Looks up a `CA` label, accepting the spellings found in real files
/// (`UTF8`, `ISO8859_1`, `EUC-CN`, `MS_KANJI`, `cp936`, `macintosh`, …).
///
/// A label of a charset that cannot be decoded is not an encoding: the
/// WHATWG standard (and so encoding_rs) maps `ISO-2022-KR`, `HZ-GB-2312`,
/// `ISO-2022-CN`, `csiso2022kr`, `replacement`… to its *replacement*
/// encoding, which decodes every input as one U+FFFD. Those give `None`
/// here; [`is_undecodable_label`] tells them from unknown labels.
///
/// ```
/// use sgf_core::charset::{encoding_for_label, is_undecodable_label};
/// assert_eq!(encoding_for_label(b"GB2312"), Some(encoding_rs::GBK));
/// assert_eq!(encoding_for_label(b"ISO-2022-KR"), None);
/// assert!(is_undecodable_label(b"ISO-2022-KR"));
/// assert!(!is_undecodable_label(b"Klingon"));
/// ```
pub fn encoding_for_label(label: &[u8]) -> Option<&'static Encoding> {
    lookup_label(label).filter(|&e| e != encoding_rs::REPLACEMENT)
}

/// Whether `label` names a charset that exists but cannot be decoded: one
/// the WHATWG standard maps to its *replacement* encoding (`ISO-2022-KR`,
/// `csiso2022kr`, `HZ-GB-2312`, `ISO-2022-CN`, `ISO-2022-CN-EXT`,
/// `replacement`, in any spelling [`encoding_for_label`] accepts).
pub fn is_undecodable_label(label: &[u8]) -> bool {
    lookup_label(label) == Some(encoding_rs::REPLACEMENT)
}

/// Whether `bytes`, in a game whose `CA` is the undecodable `label` (see
/// [`is_undecodable_label`]), use that charset's shifts: ESC, SO or SI
/// (ISO-2022-KR, ISO-2022-CN), `~{` (HZ). Without them the text is in the
/// charset's ASCII part, or not in that charset at all.
pub fn has_undecodable_shifts(label: &[u8], bytes: &[u8]) -> bool {
    let lower = trim_ascii(label).to_ascii_lowercase();
    let hz = memchr::memmem::find(&lower, b"hz").is_some();
    let iso = !hz || lower == b"replacement";
    (iso && memchr::memchr3(0x1b, 0x0e, 0x0f, bytes).is_some())
        || ((hz || lower == b"replacement") && memchr::memmem::find(bytes, b"~{").is_some())
}

fn lookup_label(label: &[u8]) -> Option<&'static Encoding> {
    let label = trim_ascii(label);
    if label.is_empty() {
        return None;
    }
    if let Some(e) = Encoding::for_label(label) {
        return Some(e);
    }
    let mut norm: Vec<u8> = label
        .iter()
        .map(|b| match b {
            b'_' | b' ' => b'-',
            b => b.to_ascii_lowercase(),
        })
        .collect();
    if let Some(e) = Encoding::for_label(&norm) {
        return Some(e);
    }
    // "iso8859-1", "iso-8859_1", "ISO8859_1"
    if norm.starts_with(b"iso8859") {
        norm.splice(3..3, [b'-']);
        if let Some(e) = Encoding::for_label(&norm) {
            return Some(e);
        }
    }
    let s = std::str::from_utf8(&norm).ok()?;
    Some(match s {
        "utf8" | "utf-8" | "unicode-1-1-utf-8" => UTF_8,
        "euc-cn" | "euccn" | "cp936" | "ms936" | "windows-936" | "gb-2312" | "gb2312-80" => GBK,
        "gb-18030" => GB18030,
        "cp949" | "ms949" | "uhc" | "euckr" | "ks-c-5601" | "ksc5601" => EUC_KR,
        "sjis" | "cp932" | "ms932" | "shiftjis" | "shift-jis" | "ms-kanji" | "x-sjis" => SHIFT_JIS,
        "big-5" | "cp950" | "ms950" | "big5hkscs" => BIG5,
        "latin-1" | "iso-latin-1" | "ascii" | "us-ascii" | "iso646-us" => WINDOWS_1252,
        "utf-16" | "utf16" | "ucs-2" | "utf16le" => UTF_16LE,
        "utf16be" => UTF_16BE,
        "macroman" | "mac-roman" | "mac" => encoding_rs::MACINTOSH,
        _ => return None,
    })
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &b[start..end]
}

/// A double-byte encoding whose second byte can be `\` (0x5C) or `]` (0x5D).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dbcs {
    /// Shift_JIS / Windows-31J.
    ShiftJis,
    /// GBK / GB18030.
    Gbk,
    /// Big5.
    Big5,
    /// ISO-2022-JP: the text between `ESC $ B` (or `ESC $ @`) and the
    /// next `ESC (` is 7-bit pairs that can hold `\` and `]`; it is
    /// treated as one character.
    Iso2022Jp,
}

impl Dbcs {
    /// The double-byte family of an encoding, if its trail bytes can clash with SGF.
    pub fn of(enc: &'static Encoding) -> Option<Dbcs> {
        if enc == SHIFT_JIS {
            Some(Dbcs::ShiftJis)
        } else if enc == GBK || enc == GB18030 {
            Some(Dbcs::Gbk)
        } else if enc == BIG5 {
            Some(Dbcs::Big5)
        } else if enc == encoding_rs::ISO_2022_JP {
            Some(Dbcs::Iso2022Jp)
        } else {
            None
        }
    }

    /// The charset family's name.
    pub fn name(self) -> &'static str {
        match self {
            Dbcs::ShiftJis => "Shift_JIS",
            Dbcs::Gbk => "GBK",
            Dbcs::Big5 => "Big5",
            Dbcs::Iso2022Jp => "ISO-2022-JP",
        }
    }

    /// What clashes with SGF, for messages.
    pub fn clash(self) -> &'static str {
        match self {
            Dbcs::Iso2022Jp => {
                "text between escape sequences whose bytes include `\\` or `]` is not escaped"
            }
            _ => "characters whose second byte is `\\` or `]` are not escaped",
        }
    }

    /// Whether `b` starts a multi-byte character.
    #[inline]
    pub fn is_lead(self, b: u8) -> bool {
        match self {
            Dbcs::ShiftJis => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
            Dbcs::Gbk | Dbcs::Big5 => matches!(b, 0x81..=0xFE),
            Dbcs::Iso2022Jp => b == 0x1B,
        }
    }

    /// Whether `b` can follow a lead byte (the second byte of a character,
    /// or GB18030's digit that starts a four-byte one): never a byte below
    /// 0x30 or `:` (0x3A), in any of the families. ISO-2022-JP: any byte
    /// (its runs are read whole).
    #[inline]
    pub fn is_trail(self, b: u8) -> bool {
        match self {
            Dbcs::Iso2022Jp => true,
            Dbcs::Gbk => (0x30..=0x39).contains(&b) || ((0x40..=0xFE).contains(&b) && b != 0x7F),
            Dbcs::Big5 => (0x40..=0x7E).contains(&b) || (0xA1..=0xFE).contains(&b),
            Dbcs::ShiftJis => (0x40..=0xFC).contains(&b) && b != 0x7F,
        }
    }

    /// Length of the character starting at `bytes[0]` (a lead byte; for
    /// ISO-2022-JP, the whole double-byte run).
    #[inline]
    pub fn char_len(self, bytes: &[u8]) -> usize {
        match self {
            // GB18030's four-byte form: lead, digit, lead, digit. A lead
            // and a digit not followed by the rest are no character: the
            // decoder gives U+FFFD for the lead and reads the digit (and
            // whatever follows) again, so only the lead is taken.
            Dbcs::Gbk if bytes.get(1).is_some_and(u8::is_ascii_digit) => {
                if bytes.len() >= 4
                    && (0x81..=0xFE).contains(&bytes[2])
                    && bytes[3].is_ascii_digit()
                {
                    4
                } else {
                    1
                }
            }
            Dbcs::Iso2022Jp => {
                // `ESC $ …` up to and including the `ESC ( X` that ends it.
                if bytes.get(1) != Some(&b'$') {
                    return 1;
                }
                let mut i = 2;
                while let Some(k) = memchr::memchr(0x1B, &bytes[i..]) {
                    let e = i + k;
                    if bytes.get(e + 1) == Some(&b'(') {
                        return (e + 3).min(bytes.len());
                    }
                    i = e + 1;
                }
                bytes.len()
            }
            _ => 2.min(bytes.len()),
        }
    }
}

/// Decodes `bytes` from `enc` (no byte-order mark handling), never
/// dropping a byte that is a character by itself.
///
/// The WHATWG decoders (encoding_rs) drop the bytes they still hold at the
/// end of the input with one U+FFFD: GB18030 holds a lead byte and the
/// digit after it (`\xB1` `2` may start a four-byte character), so a value
/// ending in `\xB1 2` would lose its `2`. Decoding the text as if a line
/// break followed it makes the decoder give the digit back.
pub fn decode_bytes<'a>(bytes: &'a [u8], enc: &'static Encoding) -> std::borrow::Cow<'a, str> {
    let tail = &bytes[bytes.len().saturating_sub(3)..];
    if (enc == GBK || enc == GB18030)
        && tail
            .windows(2)
            .any(|w| w[0] >= 0x81 && w[1].is_ascii_digit())
    {
        let mut padded = Vec::with_capacity(bytes.len() + 1);
        padded.extend_from_slice(bytes);
        padded.push(b'\n');
        let mut text = enc.decode_without_bom_handling(&padded).0.into_owned();
        text.pop();
        return std::borrow::Cow::Owned(text);
    }
    enc.decode_without_bom_handling(bytes).0
}

/// Counts of valid multi-byte sequences and invalid bytes in a buffer read as UTF-8.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Utf8Stats {
    /// Valid characters of two or more bytes.
    pub multibyte: usize,
    /// Invalid sequences.
    pub invalid: usize,
    /// Invalid sequences next to a `?`: the mark of UTF-8 whose bytes were
    /// replaced by `?` (Fox files).
    pub qmark: usize,
}

impl Utf8Stats {
    /// Whether the buffer is entirely ASCII.
    pub fn is_ascii(&self) -> bool {
        self.multibyte == 0 && self.invalid == 0
    }
    /// Whether the buffer is valid UTF-8.
    pub fn is_valid(&self) -> bool {
        self.invalid == 0
    }
    /// UTF-8 damaged in a few places (a character cut before `]`, Fox's
    /// `?`-replaced bytes) rather than text in another charset: other
    /// charsets almost never form valid multi-byte UTF-8 sequences.
    pub fn is_mostly_utf8(&self) -> bool {
        (self.multibyte > 0 && self.multibyte >= 2 * self.invalid) || self.is_qmark_damaged()
    }
    /// UTF-8 with bytes replaced by `?`: most invalid sequences touch a `?`.
    pub fn is_qmark_damaged(&self) -> bool {
        self.invalid > 0 && self.qmark * 2 >= self.invalid
    }
    /// The weaker test used when `CA` says UTF-8: at least as many valid
    /// multi-byte characters as damaged ones.
    pub fn is_plausibly_utf8(&self) -> bool {
        (self.multibyte > 0 && self.multibyte >= self.invalid) || self.is_qmark_damaged()
    }
}

/// Reads `bytes` as UTF-8 and counts valid multi-byte characters and invalid sequences.
pub fn utf8_stats(bytes: &[u8]) -> Utf8Stats {
    let mut st = Utf8Stats::default();
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                st.multibyte += count_multibyte(s.as_bytes());
                return st;
            }
            Err(e) => {
                let good = e.valid_up_to();
                st.multibyte += count_multibyte(&rest[..good]);
                st.invalid += 1;
                let skip = e.error_len().unwrap_or(rest.len() - good);
                let before = good.checked_sub(1).map(|i| rest[i]);
                let after = rest.get(good + skip).copied();
                if before == Some(b'?') || after == Some(b'?') {
                    st.qmark += 1;
                }
                rest = &rest[good + skip.max(1).min(rest.len() - good)..];
                if rest.is_empty() {
                    return st;
                }
            }
        }
    }
}

fn count_multibyte(valid: &[u8]) -> usize {
    if valid.is_ascii() {
        return 0;
    }
    count_at_least(valid, 0xC0)
}

/// How many bytes of `bytes` are `min` or more. Counted in byte lanes per
/// chunk of 255 (which cannot overflow them), so the loop vectorises.
fn count_at_least(bytes: &[u8], min: u8) -> usize {
    bytes
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(b >= min))))
        .sum()
}

/// The stretches of `bytes` around non-ASCII bytes (and ISO-2022-JP
/// escapes), with some context, separated by a space: the only text that
/// tells charsets apart (SGF moves are ASCII).
fn stretches(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    let ctx = 24;
    while i < bytes.len() {
        let Some(p) = bytes[i..].iter().position(|&b| b >= 0x80 || b == 0x1B) else {
            break;
        };
        let start = (i + p).saturating_sub(ctx).max(i);
        let mut end = i + p;
        // Extend while non-ASCII bytes keep coming within the context window.
        loop {
            let next = bytes[end..]
                .iter()
                .take(ctx)
                .position(|&b| b >= 0x80 || b == 0x1B);
            match next {
                Some(q) => end += q + 1,
                None => break,
            }
        }
        let end = (end + ctx).min(bytes.len());
        out.extend_from_slice(&bytes[start..end]);
        out.push(b' ');
        i = end;
    }
    out
}

/// Below this many non-ASCII bytes the statistical detector decides on too
/// little text; the Go-aware plausibility decides instead.
const SHORT_TEXT: usize = 64;

/// Detects the charset of bytes that are not UTF-8: chardetng on long
/// texts, the Go-aware plausibility ([`plausibility`]) on short ones, with
/// FF\[4\]'s default ISO-8859-1 (read as windows-1252) when no multi-byte
/// reading is clearly better.
pub fn detect_legacy(bytes: &[u8]) -> &'static Encoding {
    let text = stretches(bytes);
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    det.feed(&text, true);
    let guess = det.guess(None, chardetng::Utf8Detection::Deny);
    // chardetng names the WHATWG superset; GB18030 is the safer GBK decoder.
    let guess = if guess == GBK { GB18030 } else { guess };
    let high = count_at_least(&text, 0x80);
    if high >= SHORT_TEXT || guess == encoding_rs::ISO_2022_JP {
        return guess;
    }
    // Short text: weigh what Go records hold.
    let glued = glued_high_bytes(&text);
    let latin = plausibility(&text, WINDOWS_1252) + glued as i32;
    let mut best: Option<(&'static Encoding, i32)> = None;
    for enc in [GB18030, BIG5, SHIFT_JIS, EUC_KR, encoding_rs::EUC_JP] {
        if enc
            .decode_without_bom_handling_and_without_replacement(&text)
            .is_none()
        {
            continue;
        }
        let mut s = plausibility(&text, enc) - 3 * glued as i32;
        if enc == guess {
            s += 1;
        }
        if best.is_none_or(|b| s > b.1) {
            best = Some((enc, s));
        }
    }
    if let Some((enc, s)) = best
        && s >= 2
        && s >= latin + 2
    {
        return enc;
    }
    // A single-byte charset other than the default needs some text to go on.
    if Dbcs::of(guess).is_none() && !is_multibyte(guess) && high >= 16 {
        return guess;
    }
    WINDOWS_1252
}

/// Whether an encoding has multi-byte characters.
fn is_multibyte(enc: &'static Encoding) -> bool {
    [
        GB18030,
        GBK,
        BIG5,
        SHIFT_JIS,
        EUC_KR,
        encoding_rs::EUC_JP,
        UTF_8,
    ]
    .contains(&enc)
}

/// A byte ≥ 0x80 between two ASCII letters (`s\xa4h`): an accented letter
/// inside a Latin word; a double-byte reading would swallow the letter after.
fn glued_high_bytes(b: &[u8]) -> usize {
    b.windows(3)
        .filter(|w| w[0].is_ascii_alphabetic() && w[1] >= 0x80 && w[2].is_ascii_alphabetic())
        .count()
}

/// Characters common in Go records (results, colours, ranks, komi, moves)
/// in Chinese, Japanese and Korean.
const GO_WORDS: &str = "黑白胜负勝負目子段级級先后後贴貼盘盤局手劫提打断斷连連活死眼气氣棋谱譜半中押时時间間黒碁番局名人本因坊天元王座聖碁圣흑백집반불계단승패기보국수명인";

/// How plausible `bytes` read in `enc` are as the text of a Go record:
/// positive for characters in the common range of the charset (GB2312
/// level 1, JIS level 1 and kana, KS X 1001 Hangul, common Big5) and for
/// words of Go records (黑/白/胜/负/目/子/段/级/先/后/贴, 黒/目半/中押し,
/// 흑/백/집/반/불계/단), negative for the signs of a wrong reading
/// (half-width katakana, symbols, Greek or Cyrillic from a double-byte
/// charset, control characters, replacement characters).
pub fn plausibility(bytes: &[u8], enc: &'static Encoding) -> i32 {
    let (text, _) = enc.decode_without_bom_handling(bytes);
    plausibility_of(&text, enc)
}

/// [`plausibility`] of text already decoded from `enc`.
pub fn plausibility_of(text: &str, enc: &'static Encoding) -> i32 {
    if text.is_ascii() {
        return 0;
    }
    let japanese =
        enc == SHIFT_JIS || enc == encoding_rs::EUC_JP || enc == encoding_rs::ISO_2022_JP;
    let kana = text
        .chars()
        .any(|c| matches!(c, '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}'));
    let mut s = 0i32;
    let mut prev = ' ';
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let p = prev;
        prev = c;
        if c.is_ascii() {
            continue;
        }
        let cs: &str = c.encode_utf8(&mut buf);
        if !is_multibyte(enc) {
            s += match c {
                '\u{FFFD}' => -5,
                '\u{80}'..='\u{9F}' => -3,
                'À'..='ÿ' | 'Œ' | 'œ' | 'Š' | 'š' | 'Ž' | 'ž' | 'Ÿ' if c != '×' && c != '÷' => {
                    i32::from(p.is_alphabetic())
                }
                c if c.is_alphabetic() => i32::from(p.is_alphabetic()),
                _ => 0,
            };
            continue;
        }
        let go = GO_WORDS.contains(cs);
        let common = match c {
            '\u{FFFD}' => {
                s -= 5;
                continue;
            }
            '\u{FF61}'..='\u{FF9F}' => {
                s -= 2;
                continue;
            }
            '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' => {
                s += if japanese { 2 } else { -1 };
                continue;
            }
            '\u{AC00}'..='\u{D7A3}' if enc == EUC_KR => common_bytes(cs, enc),
            '\u{4E00}'..='\u{9FFF}' => common_bytes(cs, enc),
            '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF5E}' => {
                // CJK punctuation and full-width forms: neutral.
                continue;
            }
            _ => {
                s -= 1;
                continue;
            }
        };
        if go {
            s += 3;
        }
        if common {
            s += if japanese && !kana { 1 } else { 2 };
        }
    }
    s
}

/// Whether a character's bytes in `enc` fall in the charset's common range.
fn common_bytes(c: &str, enc: &'static Encoding) -> bool {
    let (b, _, bad) = enc.encode(c);
    if bad || b.len() != 2 {
        return false;
    }
    let (l, t) = (b[0], b[1]);
    if enc == GB18030 || enc == GBK {
        (0xB0..=0xD7).contains(&l) && t >= 0xA1
    } else if enc == BIG5 {
        (0xA4..=0xC6).contains(&l)
    } else if enc == SHIFT_JIS {
        (0x88..=0x98).contains(&l)
    } else if enc == EUC_KR {
        (0xB0..=0xC8).contains(&l) && t >= 0xA1
    } else if enc == encoding_rs::EUC_JP {
        (0xB0..=0xCF).contains(&l)
    } else {
        false
    }
}

/// Why [`decide`] chose a charset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Only ASCII: the declared charset, or the default (windows-1252 for
    /// FF\[4\]'s ISO-8859-1).
    Ascii,
    /// The declared charset, which the bytes agree with.
    Declared,
    /// The declared charset, although some bytes are invalid in it (kept:
    /// no other charset explains them better).
    DeclaredInvalid,
    /// Valid UTF-8 (undeclared, or contradicting the declaration).
    Utf8,
    /// UTF-8 with a few invalid sequences (a character cut short, bytes
    /// replaced by `?`): only those are marked.
    Utf8Damaged,
    /// Detected from the bytes (nothing declared, or a declaration the
    /// bytes contradict).
    Detected,
}

/// The one charset decision of Qipu, used by the SGF parser for every game
/// and by the readers of the other formats for every record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The decoder to use.
    pub encoding: &'static Encoding,
    /// Why.
    pub why: Why,
    /// Invalid UTF-8 sequences, for [`Why::Utf8Damaged`].
    pub invalid: usize,
}

/// Chooses the charset of `sample` (a game, or a record's text), given the
/// declared one. `valid_utf8` may be passed as `true` when the caller knows
/// the whole input is valid UTF-8 (saves a pass).
///
/// Order: ASCII (ISO-2022-JP escapes recognised); valid UTF-8 (legacy
/// double-byte text is almost never valid UTF-8); a declaration of UTF-8
/// kept for damaged UTF-8 unless a multi-byte charset explains every byte;
/// another declaration kept unless the bytes are invalid in it and a
/// multi-byte charset decodes them cleanly; without a declaration, UTF-8
/// damaged in a few places, else [`detect_legacy`].
pub fn decide(sample: &[u8], declared: Option<&'static Encoding>, valid_utf8: bool) -> Decision {
    let d = |encoding, why| Decision {
        encoding,
        why,
        invalid: 0,
    };
    if sample.is_ascii() {
        let iso2022 = memchr::memmem::find(sample, b"\x1b$").is_some();
        return match declared {
            Some(e) => d(e, Why::Ascii),
            None if iso2022 => d(encoding_rs::ISO_2022_JP, Why::Detected),
            None => d(WINDOWS_1252, Why::Ascii),
        };
    }
    let valid = valid_utf8 || std::str::from_utf8(sample).is_ok();
    if valid {
        return match declared {
            Some(e) if e == UTF_8 => d(UTF_8, Why::Declared),
            _ => d(UTF_8, Why::Utf8),
        };
    }
    let clean = |enc: &'static Encoding| {
        enc.decode_without_bom_handling_and_without_replacement(sample)
            .is_some()
    };
    let st = utf8_stats(sample);
    let damaged = Decision {
        encoding: UTF_8,
        why: Why::Utf8Damaged,
        invalid: st.invalid,
    };
    match declared {
        Some(e) if e == UTF_8 => {
            if st.is_mostly_utf8() {
                return damaged;
            }
            let guess = detect_legacy(sample);
            if (is_multibyte(guess) && clean(guess)) || st.multibyte == 0 {
                return d(guess, Why::Detected);
            }
            damaged
        }
        Some(e) => {
            if clean(e) {
                return d(e, Why::Declared);
            }
            let guess = detect_legacy(sample);
            if guess != e && is_multibyte(guess) && clean(guess) {
                return d(guess, Why::Detected);
            }
            d(e, Why::DeclaredInvalid)
        }
        None => {
            if st.is_mostly_utf8() {
                return damaged;
            }
            d(detect_legacy(sample), Why::Detected)
        }
    }
}

/// A UTF-32 byte-order mark (`FF FE 00 00` little-endian, `00 00 FE FF`
/// big-endian): whether the file is big-endian.
pub fn sniff_utf32(bytes: &[u8]) -> Option<bool> {
    if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) {
        Some(false)
    } else if bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        Some(true)
    } else {
        None
    }
}

/// Decodes UTF-32 without its BOM (invalid code points and a cut last unit
/// become U+FFFD), and counts the replacements.
pub fn decode_utf32(bytes: &[u8], big: bool) -> (String, usize) {
    let mut out = String::with_capacity(bytes.len() / 4);
    let mut bad = 0;
    for c in bytes.chunks(4) {
        let ch = <[u8; 4]>::try_from(c).ok().and_then(|a| {
            char::from_u32(if big {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            })
        });
        match ch {
            Some(ch) => out.push(ch),
            None => {
                bad += 1;
                out.push('\u{FFFD}');
            }
        }
    }
    (out, bad)
}

/// Encodes text as UTF-32.
pub fn encode_utf32(text: &str, big: bool) -> Vec<u8> {
    let mut v = Vec::with_capacity(text.len() * 4);
    for c in text.chars() {
        let u = c as u32;
        v.extend_from_slice(&if big {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    v
}

/// A byte-order mark or the NUL pattern of UTF-16 without one.
pub fn sniff_utf16(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
    if bytes.starts_with(&[0xFF, 0xFE]) {
        return Some((UTF_16LE, 2));
    }
    if bytes.starts_with(&[0xFE, 0xFF]) {
        return Some((UTF_16BE, 2));
    }
    // Without a BOM: SGF is mostly ASCII, so one byte of each pair is NUL.
    let sample = &bytes[..bytes.len().min(512) & !1];
    if sample.len() < 8 {
        return None;
    }
    let pairs = sample.len() / 2;
    let (mut even0, mut odd0) = (0, 0);
    for p in sample.chunks_exact(2) {
        even0 += (p[0] == 0) as usize;
        odd0 += (p[1] == 0) as usize;
    }
    // The first character must be a UTF-16 unit too: a file that starts
    // `(;` in single bytes is 8-bit, however many NULs its text holds (a
    // comment written as UTF-16 inside it, or NUL bytes a repair kept).
    let first = sample.iter().position(|&b| b != 0)?;
    let le_start = first % 2 == 0 && sample.get(first + 1) == Some(&0);
    let be_start = first % 2 == 1 && sample[first - 1] == 0;
    if le_start && odd0 * 10 >= pairs * 6 && even0 * 10 <= pairs {
        Some((UTF_16LE, 0))
    } else if be_start && even0 * 10 >= pairs * 6 && odd0 * 10 <= pairs {
        Some((UTF_16BE, 0))
    } else {
        None
    }
}

/// The name reported for an encoding (`UTF-8`, `GBK`, `Shift_JIS`, …).
pub fn display_name(enc: &'static Encoding) -> &'static str {
    enc.name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        for (l, e) in [
            ("UTF-8", UTF_8),
            ("utf8", UTF_8),
            ("GB2312", GBK),
            ("gbk", GBK),
            ("EUC-CN", GBK),
            ("GB18030", GB18030),
            ("Big5", BIG5),
            ("Shift_JIS", SHIFT_JIS),
            ("SHIFT_JIS", SHIFT_JIS),
            ("MS_KANJI", SHIFT_JIS),
            ("EUC-KR", EUC_KR),
            ("ISO-8859-1", WINDOWS_1252),
            ("ISO8859_1", WINDOWS_1252),
            ("iso8859-15", encoding_rs::ISO_8859_15),
            ("Windows-1251", encoding_rs::WINDOWS_1251),
            ("macintosh", encoding_rs::MACINTOSH),
            ("ISO-2022-JP", encoding_rs::ISO_2022_JP),
            ("EUC-JP", encoding_rs::EUC_JP),
            (" utf-8 ", UTF_8),
            ("cp949", EUC_KR),
        ] {
            assert_eq!(encoding_for_label(l.as_bytes()), Some(e), "{l}");
        }
        assert_eq!(encoding_for_label(b"foo"), None);
        assert_eq!(encoding_for_label(b""), None);
    }

    #[test]
    fn stats() {
        assert!(utf8_stats(b"abc").is_ascii());
        let s = utf8_stats("黑棋".as_bytes());
        assert_eq!(
            s,
            Utf8Stats {
                multibyte: 2,
                invalid: 0,
                qmark: 0
            }
        );
        // Fox: bytes of a character replaced by `?`.
        let s = utf8_stats(b"PW[\xe6?\x8e]");
        assert!(s.is_qmark_damaged(), "{s:?}");
        // GBK for 黑棋
        let s = utf8_stats(&[0xBA, 0xDA, 0xC6, 0xE5]);
        assert!(!s.is_mostly_utf8());
        // UTF-8 cut in the middle of the last character
        let mut b = "李龙".as_bytes().to_vec();
        b.truncate(5);
        let s = utf8_stats(&b);
        assert!(s.is_plausibly_utf8(), "{s:?}");
        let mut b = "天下无狗".as_bytes().to_vec();
        b.truncate(11);
        assert!(utf8_stats(&b).is_mostly_utf8());
    }

    #[test]
    fn utf16() {
        let le: Vec<u8> = "(;GM[1]FF[4])"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(sniff_utf16(&le), Some((UTF_16LE, 0)));
        assert_eq!(sniff_utf16(b"(;GM[1]FF[4]C[hello])"), None);
        assert_eq!(sniff_utf16(&[0u8; 64]), None);
        // Fuzzing found it: an 8-bit file whose comment is UTF-16 text (or
        // holds NUL bytes kept by a repair) is not UTF-16.
        let mut mixed = b"(;FF[4]CA[UTF-8]C[".to_vec();
        mixed.extend(
            "a long comment written as UTF-16LE text"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        mixed.extend_from_slice(b"])");
        assert_eq!(sniff_utf16(&mixed), None);
        let be: Vec<u8> = "(;GM[1]C[hi])"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(sniff_utf16(&be), Some((UTF_16BE, 0)));
    }

    /// A GB18030 lead byte before a digit that starts no four-byte
    /// character: the digit is text (found by the `fix` fuzz target).
    #[test]
    fn gb18030_lead_before_digit() {
        assert_eq!(decode_bytes(b"\xb12", GBK), "\u{FFFD}2");
        assert_eq!(decode_bytes(b"a\xb12\xb1", GB18030), "a\u{FFFD}2\u{FFFD}");
        assert_eq!(
            decode_bytes(b"\x81\x308\x81", GB18030),
            "\u{FFFD}08\u{FFFD}"
        );
        // A complete four-byte character is one character.
        assert_eq!(decode_bytes(b"\x81\x30\x81\x30", GB18030), "\u{80}");
        assert_eq!(Dbcs::Gbk.char_len(b"\x81\x30\x81\x30"), 4);
        assert_eq!(Dbcs::Gbk.char_len(b"\xb12:x"), 1);
        assert_eq!(Dbcs::Gbk.char_len(b"\xb12"), 1);
        assert_eq!(
            crate::text::find_colon(b"\xb12:x", Some(Dbcs::Gbk)),
            Some(2)
        );
    }
}
