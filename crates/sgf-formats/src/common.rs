//! Helpers shared by the readers and the dialect normaliser: line splitting
//! with byte spans, charset choice, handicap placement, and the parsing of
//! the localized text people write for ranks, komi, results, dates and times.

use std::borrow::Cow;

use encoding_rs::Encoding;
use sgf_core::charset;
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
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                out.push(Line {
                    start,
                    bytes: &b[start..i],
                });
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(Line {
                    start,
                    bytes: &b[start..i],
                });
                i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < b.len() {
        out.push(Line {
            start,
            bytes: &b[start..],
        });
    }
    out
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
/// Order: pure ASCII; valid UTF-8 (legacy double-byte text is almost never
/// valid UTF-8); UTF-8 damaged in a few places; the hint when it decodes
/// cleanly; the statistical detector's guess when it decodes cleanly;
/// otherwise the hint (or guess) with a note about invalid bytes.
pub(crate) fn choose_charset(
    sample: &[u8],
    hint: Option<(&'static Encoding, &str)>,
) -> CharsetChoice {
    let mut notes = Vec::new();
    if sample.is_ascii() {
        return CharsetChoice {
            encoding: encoding_rs::UTF_8,
            name: "ASCII",
            notes,
        };
    }
    let utf8 = |notes| CharsetChoice {
        encoding: encoding_rs::UTF_8,
        name: "UTF-8",
        notes,
    };
    let st = charset::utf8_stats(sample);
    if st.is_valid() {
        if let Some((enc, why)) = hint
            && enc != encoding_rs::UTF_8
        {
            notes.push((
                Code::CharsetMismatch,
                format!(
                    "{why} suggests {}, but the text is valid UTF-8; read as UTF-8",
                    charset::display_name(enc)
                ),
            ));
        }
        let replaced = std::str::from_utf8(sample).map_or(0, |s| s.matches('\u{FFFD}').count());
        if replaced > 0 {
            notes.push((
                Code::InvalidBytes,
                format!(
                    "the text holds {replaced} U+FFFD replacement character(s): it was damaged before it was saved"
                ),
            ));
        }
        return utf8(notes);
    }
    if st.is_mostly_utf8() {
        notes.push((
            Code::InvalidBytes,
            format!(
                "UTF-8 with {} invalid byte sequence(s), replaced by U+FFFD",
                st.invalid
            ),
        ));
        return utf8(notes);
    }
    let clean = |enc: &'static Encoding| {
        enc.decode_without_bom_handling_and_without_replacement(sample)
            .is_some()
    };
    let guess = charset::detect_legacy(sample);
    let chosen = match hint {
        Some((enc, _)) if clean(enc) => enc,
        Some((enc, why)) if clean(guess) => {
            notes.push((
                Code::CharsetMismatch,
                format!(
                    "{why} suggests {}, but the bytes are {}",
                    charset::display_name(enc),
                    charset::display_name(guess)
                ),
            ));
            guess
        }
        Some((enc, _)) => enc,
        None => guess,
    };
    if !clean(chosen) {
        notes.push((
            Code::InvalidBytes,
            format!(
                "invalid {} byte sequences, replaced by U+FFFD",
                charset::display_name(chosen)
            ),
        ));
    }
    CharsetChoice {
        encoding: chosen,
        name: charset::display_name(chosen),
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
        self.diags.sort_by_key(|d| (d.span.start, d.span.end));
        self.diags
    }
}

/// Decodes bytes (no BOM handling: lines of a file).
pub(crate) fn decode(bytes: &[u8], enc: &'static Encoding) -> String {
    match enc.decode_without_bom_handling(bytes).0 {
        Cow::Borrowed(s) => s.to_string(),
        Cow::Owned(s) => s,
    }
}

/// Which corner the third handicap stone takes; the only difference between
/// the conventions in use (for 2 and 4–9 stones the points are the same).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandicapOrder {
    /// Third stone top-left (D16): Tygem, Fox, and the NGF readers.
    Tygem,
    /// Third stone bottom-right (Q4): KGS, GNU Go, the Western order.
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
/// order, or `None` when the convention does not define them (fewer than 2
/// or more than 9 stones, boards under 7 lines, or 5+ stones on an even board).
pub fn handicap_points(size: u8, n: u8, order: HandicapOrder) -> Option<Vec<Point>> {
    if !(2..=9).contains(&n) || size < 7 {
        return None;
    }
    if n > 4 && size.is_multiple_of(2) {
        return None;
    }
    let near = if size >= 13 { 3 } else { 2 };
    let far = size - 1 - near;
    let mid = size / 2;
    let p = Point::new;
    let third = match order {
        HandicapOrder::Tygem => p(near, near),
        HandicapOrder::Western => p(far, far),
    };
    let fourth = match order {
        HandicapOrder::Tygem => p(far, far),
        HandicapOrder::Western => p(near, near),
    };
    let mut v = vec![p(near, far), p(far, near), third, fourth];
    match n {
        2..=4 => v.truncate(n as usize),
        5 => v.push(p(mid, mid)),
        6 => v.extend([p(near, mid), p(far, mid)]),
        7 => v.extend([p(near, mid), p(far, mid), p(mid, mid)]),
        _ => {
            v.extend([p(near, mid), p(far, mid), p(mid, near), p(mid, far)]);
            if n == 9 {
                v.push(p(mid, mid));
            }
        }
    }
    Some(v)
}

/// SGF letters of a point.
pub(crate) fn sgf_point(p: Point) -> String {
    let [a, b] = p.to_sgf();
    String::from_utf8_lossy(&[a, b]).into_owned()
}

/// A real number the way SGF writes it: `6.5`, `0`, `3.75`, `-5.5`.
pub fn fmt_real(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Full-width digits and punctuation to ASCII.
fn ascii_digits(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '．' => '.',
            '／' => '/',
            '＋' => '+',
            '－' => '-',
            _ => c,
        })
        .collect()
}

/// Value of a CJK numeral up to 99 (`初` counts as 1, as in 初段).
fn cjk_number(s: &str) -> Option<u32> {
    let digit = |c: char| -> Option<u32> {
        Some(match c {
            '一' | '初' => 1,
            '二' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => digit(*c),
        ['十', u] => Some(10 + digit(*u)?),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', u] => Some(10 * digit(*t)? + digit(*u)?),
        _ => None,
    }
}

/// A rank in SGF style (`2d`, `10k`, `9p`, `7d*`, `2k?`) from what clients
/// write: `2D`, `10K`, `9DP`, `7D*`, `3段`, `1급`, `15级`, `初段`, `P3段`.
/// Text that is not a rank comes back unchanged (trimmed).
pub fn normalize_rank(s: &str) -> String {
    let t = s.trim();
    let mut body = ascii_digits(t);
    let mut marker = String::new();
    while let Some(c) = body.chars().last().filter(|c| *c == '*' || *c == '?') {
        marker.insert(0, c);
        body.pop();
    }
    let mut pro = false;
    if let Some(rest) = body.strip_prefix(['P', 'p']) {
        pro = true;
        body = rest.to_string();
    }
    let num_end = body
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || cjk_number(&c.to_string()).is_some() || *c == '十'))
        .map_or(body.len(), |(i, _)| i);
    let (num, unit) = body.split_at(num_end);
    let n = if num.chars().all(|c| c.is_ascii_digit()) {
        num.parse::<u32>().ok()
    } else {
        cjk_number(num)
    };
    let Some(n) = n.filter(|&n| n > 0 && n <= 99) else {
        return t.to_string();
    };
    let unit = match unit.trim() {
        "D" | "d" | "段" | "단" | "dan" => {
            if pro {
                'p'
            } else {
                'd'
            }
        }
        "K" | "k" | "级" | "級" | "급" | "kyu" => 'k',
        "P" | "p" | "DP" | "dp" | "Dp" => 'p',
        _ => return t.to_string(),
    };
    format!("{n}{unit}{marker}")
}

/// The first number in `s` (ASCII digits after full-width folding), with the
/// text before and after it.
fn first_number(s: &str) -> Option<(&str, f64, &str)> {
    let b = s.as_bytes();
    let start = b.iter().position(u8::is_ascii_digit)?;
    let mut end = start;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
        end += 1;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
    }
    let x: f64 = s[start..end].parse().ok()?;
    Some((&s[..start], x, &s[end..]))
}

/// An amount of points or stones as written in results and komi:
/// `6目半`, `6.5`, `7目`, `3又3/4子` (Chinese counting: stones, ×2 for
/// points), `1/4子`, `6집반`, `4 points`. Returns points.
pub(crate) fn parse_amount(s: &str) -> Option<f64> {
    let s = ascii_digits(s);
    let s = s.trim();
    // A bare fraction of a stone: `1/4子`.
    let (before, mut x, mut rest) = first_number(s)?;
    if before.ends_with('-') {
        x = -x;
    }
    let mut stones = false;
    let r = rest.trim_start();
    if let Some(frac) = r.strip_prefix('又').or_else(|| r.strip_prefix('/')) {
        if let Some(after_and) = r.strip_prefix('又') {
            // `3又3/4`: whole plus fraction.
            let (_, num, tail) = first_number(after_and)?;
            let tail = tail.trim_start().strip_prefix('/')?;
            let (_, den, tail2) = first_number(tail)?;
            if den == 0.0 {
                return None;
            }
            x += num / den;
            rest = tail2;
        } else {
            // `1/4`: a fraction alone.
            let (_, den, tail) = first_number(frac)?;
            if den == 0.0 {
                return None;
            }
            x /= den;
            rest = tail;
        }
    }
    let r = rest.trim_start();
    if r.starts_with('子') {
        stones = true;
    }
    if r.starts_with("目半")
        || r.starts_with("集半")
        || r.starts_with("집반")
        || r.starts_with('半')
    {
        x += if x < 0.0 { -0.5 } else { 0.5 };
    }
    Some(if stones { x * 2.0 } else { x })
}

/// Komi as written in dialect files and headers: `黒6目半`, `7.5`,
/// `黑贴3又3/4子`, `白6目半` is not reverse komi (the colour names who
/// receives or gives it inconsistently), so only the amount is read;
/// `なし`/`无`/`無` mean 0. `None` when no amount is found.
pub(crate) fn parse_komi_text(s: &str) -> Option<f64> {
    let t = s.trim();
    if let Some(x) = sgf_core::value::parse_real(t.as_bytes()) {
        return Some(x);
    }
    if ["なし", "无", "無", "없음", "none", "None"]
        .iter()
        .any(|w| t.contains(w))
        && !t.chars().any(|c| c.is_ascii_digit())
    {
        return Some(0.0);
    }
    if t.contains('逆') {
        // Reverse komi: who receives it is not clear from the text.
        return None;
    }
    parse_amount(t)
}

/// A result as written by people and clients, in `FF[4]` form (`B+R`,
/// `W+6.5`, `B+T`, `0`, `Void`, `B+`): Japanese (`黒中押し勝ち`,
/// `白1目半勝`), Chinese (`黑中盘胜`, `黑胜2又3/4子`, `白超时负`), Korean
/// (`흑 시간승`, `백 불계승`), English (`Black wins by 0.5!`,
/// `white wins by time`, `black 4 points win`). `None` when it is not clear.
pub fn parse_result_text(s: &str) -> Option<String> {
    let t = ascii_digits(s.trim());
    let lower = t.to_lowercase();
    if lower.is_empty() {
        return None;
    }
    if ["和棋", "持碁", "무승부", "jigo", "draw"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return Some("0".into());
    }
    if ["無勝負", "无胜负", "打ち掛け", "void", "no result"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return Some("Void".into());
    }
    // The first colour word names the player the sentence is about.
    const BLACK: [&str; 4] = ["黒", "黑", "흑", "black"];
    const WHITE: [&str; 3] = ["白", "백", "white"];
    let find = |words: &[&str]| words.iter().filter_map(|w| lower.find(w)).min();
    let (b, w) = (find(&BLACK), find(&WHITE));
    let (colour, at) = match (b, w) {
        (Some(b), Some(w)) if b < w => ('B', b),
        (Some(_), Some(w)) => ('W', w),
        (Some(b), None) => ('B', b),
        (None, Some(w)) => ('W', w),
        (None, None) => return None,
    };
    let tail = &lower[at..];
    let win = ["勝", "胜", "승", "win", "won"]
        .iter()
        .any(|k| tail.contains(k));
    let lose = ["負", "负", "패", "lose", "lost", "loses"]
        .iter()
        .any(|k| tail.contains(k));
    let winner = match (win, lose) {
        (true, false) => colour,
        (false, true) => {
            if colour == 'B' {
                'W'
            } else {
                'B'
            }
        }
        _ => return None,
    };
    let how = if ["中押", "中盘", "中盤", "불계", "resign", "abandon"]
        .iter()
        .any(|k| tail.contains(k))
    {
        "R".to_string()
    } else if ["時間", "时间", "超时", "時間切れ", "시간", "time"]
        .iter()
        .any(|k| tail.contains(k))
    {
        "T".to_string()
    } else if ["反則", "犯规", "반칙", "forfeit"]
        .iter()
        .any(|k| tail.contains(k))
    {
        "F".to_string()
    } else {
        match parse_amount(tail) {
            Some(x) if x >= 0.0 => fmt_real(x),
            _ => String::new(),
        }
    };
    Some(format!("{winner}+{how}"))
}

/// A date `YYYY-MM-DD` from the first three numbers of `s` (`2016- 3-26-17-29-25`,
/// `2012:11:22:18:03`, `2012年11月22日 下午 6:3`, `2019/03/08`) or from one
/// eight-digit group (`20170316`).
pub fn parse_date_loose(s: &str) -> Option<String> {
    let s = ascii_digits(s);
    let groups: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    let (y, m, d) = match groups.as_slice() {
        [g, ..] if g.len() == 8 => (
            g[..4].parse::<u32>().ok()?,
            g[4..6].parse::<u32>().ok()?,
            g[6..].parse::<u32>().ok()?,
        ),
        [y, m, d, ..] if y.len() == 4 => (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?),
        _ => return None,
    };
    ((1900..=2200).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// A duration in seconds from text with units: `1時間`, `30秒`, `1小时30分`,
/// `60分钟`, `2 hours`. `None` without a unit (the unit of a bare number is
/// not known) or when nothing can be read.
pub(crate) fn parse_duration(s: &str) -> Option<f64> {
    let s = ascii_digits(s);
    let mut rest = s.trim();
    let mut total = 0.0;
    let mut any = false;
    while let Some((_, x, after)) = first_number(rest) {
        let a = after.trim_start();
        let (mult, skip) = if let Some(u) = ["時間", "小时", "小時", "시간", "hours", "hour", "h"]
            .iter()
            .find(|u| a.starts_with(**u))
        {
            (3600.0, u.len())
        } else if let Some(u) = ["分钟", "分鐘", "分", "분", "minutes", "minute", "min"]
            .iter()
            .find(|u| a.starts_with(**u))
        {
            (60.0, u.len())
        } else if let Some(u) = ["秒", "초", "seconds", "second", "sec", "s"]
            .iter()
            .find(|u| a.starts_with(**u))
        {
            (1.0, u.len())
        } else {
            return None;
        };
        total += x * mult;
        any = true;
        rest = &a[skip..];
    }
    any.then_some(total)
}

/// A count from text like `5回`, `3次`, `5`, `3 times`.
pub(crate) fn parse_count(s: &str) -> Option<u32> {
    let s = ascii_digits(s);
    let (before, x, after) = first_number(&s)?;
    if !before.trim().is_empty() || x.fract() != 0.0 || x < 0.0 {
        return None;
    }
    let a = after.trim();
    (a.is_empty() || ["回", "次", "번", "times", "periods", "x"].contains(&a)).then_some(x as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks() {
        for (a, b) in [
            ("2D", "2d"),
            ("10K", "10k"),
            ("9DP", "9p"),
            ("7D*", "7d*"),
            ("3段", "3d"),
            ("1급", "1k"),
            ("15级", "15k"),
            ("初段", "1d"),
            ("五段", "5d"),
            ("九段", "9d"),
            ("P3段", "3p"),
            ("2k?", "2k?"),
            ("8d", "8d"),
            ("redacted", "redacted"),
            ("", ""),
            ("段", "段"),
        ] {
            assert_eq!(normalize_rank(a), b, "{a}");
        }
    }

    #[test]
    fn komi_texts() {
        for (a, b) in [
            ("黒6目半", Some(6.5)),
            ("7.5", Some(7.5)),
            ("6目", Some(6.0)),
            ("黑贴3又3/4子", Some(7.5)),
            ("贴7目半", Some(7.5)),
            ("6집반", Some(6.5)),
            ("コミなし", Some(0.0)),
            ("逆コミ5目半", None),
            ("？", None),
        ] {
            assert_eq!(parse_komi_text(a), b, "{a}");
        }
    }

    #[test]
    fn results() {
        for (a, b) in [
            ("257手完, 黒中押し勝ち", Some("B+R")),
            ("黒6目半勝ち", Some("B+6.5")),
            ("白11目胜", Some("W+11")),
            ("黑1目半胜", Some("B+1.5")),
            ("黑胜2又3/4子", Some("B+5.5")),
            ("黑中盘胜(现场消息)", Some("B+R")),
            ("白超时负", Some("B+T")),
            ("흑 시간승", Some("B+T")),
            ("백 불계승", Some("W+R")),
            ("white wins by time", Some("W+T")),
            ("black 4 points win", Some("B+4")),
            ("Black wins by 0.5!", Some("B+0.5")),
            ("White wins by  resign!", Some("W+R")),
            ("Black loses by 3.5", Some("W+3.5")),
            ("持碁", Some("0")),
            ("黑胜", Some("B+")),
            ("something", None),
            ("", None),
        ] {
            assert_eq!(parse_result_text(a).as_deref(), b, "{a}");
        }
    }

    #[test]
    fn dates() {
        for (a, b) in [
            ("2016- 3-26-17-29-25", Some("2016-03-26")),
            ("2012:11:22:18:03", Some("2012-11-22")),
            ("2012年11月22日 下午 6:3", Some("2012-11-22")),
            ("20170316 [09:37]", Some("2017-03-16")),
            ("2019/03/08,22:09:00", Some("2019-03-08")),
            ("2006-9-5", Some("2006-09-05")),
            ("yesterday", None),
            ("12-11-2012", None),
        ] {
            assert_eq!(parse_date_loose(a).as_deref(), b, "{a}");
        }
    }

    #[test]
    fn durations_and_counts() {
        assert_eq!(parse_duration("1時間"), Some(3600.0));
        assert_eq!(parse_duration("30秒"), Some(30.0));
        assert_eq!(parse_duration("1小时30分"), Some(5400.0));
        assert_eq!(parse_duration("70"), None);
        assert_eq!(parse_count("5回"), Some(5));
        assert_eq!(parse_count("3"), Some(3));
        assert_eq!(parse_count("x3"), None);
    }

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
        assert_eq!(
            s(handicap_points(9, 2, HandicapOrder::Tygem).unwrap()),
            "cggc"
        );
        assert!(handicap_points(18, 5, HandicapOrder::Tygem).is_none());
        assert!(handicap_points(19, 1, HandicapOrder::Tygem).is_none());
        assert!(handicap_points(5, 2, HandicapOrder::Tygem).is_none());
    }

    #[test]
    fn reals_and_lines() {
        assert_eq!(fmt_real(6.5), "6.5");
        assert_eq!(fmt_real(0.0), "0");
        assert_eq!(fmt_real(3.75), "3.75");
        assert_eq!(fmt_real(-5.5), "-5.5");
        let ls = lines(b"a\r\nbb\rc\n\nd");
        let v: Vec<&[u8]> = ls.iter().map(|l| l.bytes).collect();
        assert_eq!(v, [&b"a"[..], b"bb", b"c", b"", b"d"]);
        assert_eq!(ls[1].span(), Span::new(3, 5));
    }
}
