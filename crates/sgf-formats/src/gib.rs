//! GIB: the records of Tygem (타이젬 / 弈城) and Tom.com (棋圣道场).
//!
//! Line oriented: `\HS` … `\HE` holds header lines `\[KEY=VALUE\]`, `\GS`
//! … `\GE` the game: `INI 0 1 <handicap> &4 [chat]`, `STO 0 <seq> <colour>
//! <x> <y>` moves (colour 1 = Black, 2 = White; x from the left, y from the
//! top, 0-based), `SKI 0 <seq>` passes. There is no public specification;
//! see `docs/formats.md` for what is mapped where.

use encoding_rs::{EUC_KR, Encoding, GB18030, SHIFT_JIS};
use sgf_core::value::{Color, Point};
use sgf_core::{Code, Span};

use crate::builder::SgfBuilder;
use crate::common::{self, HandicapOrder, Line, Report, handicap_points};
use crate::format::{Format, Loaded, ReadError, ReadOptions};

/// The GIB format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gib;

/// The private property that keeps header fields without an SGF equivalent.
pub const HEADER_PROP: &str = "GIBHEADER";

impl Format for Gib {
    fn name(&self) -> &'static str {
        "GIB"
    }
    fn description(&self) -> &'static str {
        "Tygem / Tom.com game record (.gib)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["gib"]
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        let head = &bytes[..bytes.len().min(64 * 1024)];
        let t = common::strip_bom(head);
        let start = t
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(t.len());
        if t[start..].starts_with(b"\\HS") {
            return 100;
        }
        // The field markers start with a backslash, which most SGF has none of.
        if memchr::memchr(b'\\', head).is_none() {
            return 0;
        }
        let has = |needle: &[u8]| memchr::memmem::find(head, needle).is_some();
        if has(b"\\[GIBOKIND=") || has(b"\\[GAMEINFOMAIN=") {
            return 80;
        }
        if has(b"\\GS") && has(b"STO 0 ") {
            return 70;
        }
        0
    }
    fn read(&self, bytes: &[u8], _opts: &ReadOptions) -> Result<Loaded, ReadError> {
        read(bytes)
    }
}

/// A header field as found in the file.
struct Field<'a> {
    key: String,
    raw: &'a [u8],
    value: String,
    span: Span,
}

/// `K:V,K:V` lists (GAMEINFOMAIN, GAMEINFOSUB, WUSERINFO, BUSERINFO).
fn kv_list(s: &str) -> Vec<(String, String)> {
    s.split(',')
        .filter_map(|e| {
            let (k, v) = e.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// GAMETAG: comma-separated entries whose first letter is the key
/// (`G65`, `C2012:11:22:18:03`, `I:harpmaster`); stray tabs are ignored.
fn gametag(s: &str) -> Vec<(String, String)> {
    s.split(',')
        .filter_map(|e| {
            let e = e.trim();
            let mut cs = e.chars();
            let k = cs.next()?;
            let v = cs.as_str();
            let v = v.strip_prefix(':').unwrap_or(v);
            Some((k.to_string(), v.trim().to_string()))
        })
        .collect()
}

fn lookup<'a>(list: &'a [(String, String)], key: &str) -> Option<&'a str> {
    list.iter()
        .find(|(k, v)| k == key && !v.is_empty())
        .map(|(_, v)| v.as_str())
}

/// `nick (rank)` → (nick, rank), splitting at the last `(` when `)` ends the text.
fn split_name_rank(s: &str) -> (String, Option<String>) {
    let t = s.trim();
    if let Some(body) = t.strip_suffix(')')
        && let Some(p) = body.rfind('(')
    {
        let name = body[..p].trim();
        let rank = body[p + 1..].trim();
        if !name.is_empty() && !rank.is_empty() {
            return (
                name.to_string(),
                Some(sgf_go::values::read_rank(rank).unwrap_or_else(|| rank.trim().to_string())),
            );
        }
    }
    (t.to_string(), None)
}

/// Tygem's numeric level as a rank: 1–17 are 17k–1k, 18–26 are 1d–9d
/// (every sample agrees: `(2D)` is level 19, `(5K)` level 13).
fn level_rank(level: &str) -> Option<String> {
    let n: i64 = level.trim().parse().ok()?;
    match n {
        1..=17 => Some(format!("{}k", 18 - n)),
        18..=26 => Some(format!("{}d", n - 17)),
        _ => None,
    }
}

/// The result code (GRLT / GAMETAG W) with the margin ×10.
fn result_of(code: i64, score10: Option<f64>) -> Option<String> {
    let margin = score10
        .filter(|&z| z > 0.0)
        .map(|z| sgf_go::values::fmt_real(z / 10.0))
        .unwrap_or_default();
    Some(match code {
        0 => format!("B+{margin}"),
        1 => format!("W+{margin}"),
        3 => "B+R".into(),
        4 => "W+R".into(),
        7 => "B+T".into(),
        8 => "W+T".into(),
        _ => return None,
    })
}

fn num(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

fn read(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let mut rep = Report::default();
    let ls = common::lines(bytes);

    // Header lines first, raw: the charset is chosen from their bytes.
    let mut raw_fields: Vec<(&Line, &[u8], &[u8])> = Vec::new();
    let mut body: Vec<&Line> = Vec::new();
    for l in &ls {
        let t = l.bytes.trim_ascii();
        if let Some(inner) = t.strip_prefix(b"\\[") {
            let inner = match inner.strip_suffix(b"\\]") {
                Some(i) => i,
                None => {
                    rep.unreadable(l.span(), "header field without its closing `\\]`");
                    inner
                }
            };
            match inner.iter().position(|&b| b == b'=') {
                Some(eq) => raw_fields.push((l, &inner[..eq], &inner[eq + 1..])),
                None => rep.unreadable(l.span(), "header field without `=`"),
            }
        } else if !common::is_blank(t) {
            body.push(l);
        }
    }

    let kind = raw_fields
        .iter()
        .find(|(_, k, _)| *k == b"GIBOKIND")
        .map(|(_, _, v)| String::from_utf8_lossy(v).trim().to_string());
    let hint: Option<(&'static Encoding, &str)> = match kind.as_deref() {
        Some("China") => Some((GB18030, "GIBOKIND=China")),
        Some("Korea") => Some((EUC_KR, "GIBOKIND=Korea")),
        Some("Japan") => Some((SHIFT_JIS, "GIBOKIND=Japan")),
        _ => None,
    };
    let mut sample = Vec::new();
    for (_, _, v) in &raw_fields {
        sample.extend_from_slice(v);
        sample.push(b'\n');
    }
    for l in &body {
        if l.bytes.starts_with(b"INI") {
            sample.extend_from_slice(l.bytes);
        }
    }
    let cs = common::choose_charset(&sample, hint);
    let enc = cs.encoding;
    rep.charset(
        &cs,
        raw_fields.first().map(|f| f.0.span()).unwrap_or_default(),
    );

    let fields: Vec<Field> = raw_fields
        .iter()
        .map(|(l, k, v)| Field {
            key: String::from_utf8_lossy(k).trim().to_string(),
            raw: v,
            value: common::decode(v, enc).trim().to_string(),
            span: l.span(),
        })
        .collect();
    let get = |key: &str| {
        fields
            .iter()
            .find(|f| f.key == key && !f.value.is_empty())
            .map(|f| f.value.as_str())
    };
    let main = get("GAMEINFOMAIN").map(kv_list).unwrap_or_default();
    let sub = get("GAMEINFOSUB").map(kv_list).unwrap_or_default();
    let tag = get("GAMETAG").map(gametag).unwrap_or_default();
    let wuser = get("WUSERINFO").map(kv_list).unwrap_or_default();
    let buser = get("BUSERINFO").map(kv_list).unwrap_or_default();

    let mut size: u8 = 19;
    if let Some(line) = lookup(&main, "LINE") {
        match line.parse::<u8>() {
            Ok(n) if (2..=52).contains(&n) => size = n,
            _ => rep.unreadable(
                fields
                    .iter()
                    .find(|f| f.key == "GAMEINFOMAIN")
                    .map(|f| f.span)
                    .unwrap_or_default(),
                format!("board size LINE:{line} not understood; 19 assumed"),
            ),
        }
    }
    let mut b = SgfBuilder::new_go(size);
    let root = SgfBuilder::ROOT;
    let mut mapped: Vec<&str> = Vec::new();

    // Body: handicap, moves, passes.
    let mut handicap: Option<(u8, Span)> = None;
    let mut moves: Vec<(Color, Option<Point>)> = Vec::new();
    let mut chat: Vec<String> = Vec::new();
    let mut ended = false;
    let mut any_body = false;
    for l in &body {
        let text = l.bytes.trim_ascii();
        let toks: Vec<&[u8]> = text
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        let Some(op) = toks.first() else { continue };
        let int =
            |i: usize| -> Option<i64> { std::str::from_utf8(toks.get(i)?).ok()?.parse().ok() };
        match *op {
            b"\\HS" | b"\\HE" | b"\\GS" => {}
            b"\\GE" => ended = true,
            _ if op.iter().all(u8::is_ascii_digit) => {
                // The two preamble lines (`2 1 0`, `<last seq> 0 &4`): meaning unknown.
            }
            b"INI" => {
                any_body = true;
                match int(3) {
                    Some(h) if (0..=9).contains(&h) => handicap = Some((h as u8, l.span())),
                    _ => rep.unreadable(l.span(), "INI line without a handicap count"),
                }
                // Free text after the `&4` marker: a chat or system message.
                if let Some(amp) = text.iter().position(|&c| c == b'&') {
                    let rest = &text[amp + 1..];
                    let rest = &rest[rest.iter().take_while(|c| c.is_ascii_digit()).count()..];
                    let msg = common::decode(rest, enc);
                    if !msg.trim().is_empty() {
                        chat.push(msg.trim().to_string());
                    }
                }
            }
            b"STO" => {
                any_body = true;
                if ended {
                    rep.unreadable(l.span(), "move after `\\GE`; read anyway");
                }
                let (c, x, y) = (int(3), int(4), int(5));
                let color = match c {
                    Some(1) => Color::Black,
                    Some(2) => Color::White,
                    _ => {
                        rep.unreadable(l.span(), "STO line with an unknown colour; skipped");
                        continue;
                    }
                };
                match (x, y) {
                    (Some(x), Some(y))
                        if (0..size as i64).contains(&x) && (0..size as i64).contains(&y) =>
                    {
                        moves.push((color, Some(Point::new(x as u8, y as u8))));
                    }
                    _ => rep.unreadable(
                        l.span(),
                        "STO line without a point on the board; skipped",
                    ),
                }
            }
            b"SKI" => {
                any_body = true;
                // A pass: the colour is not written; it is the other player's turn.
                let color = match moves.last() {
                    Some((c, _)) => c.opponent(),
                    None if handicap.is_some_and(|(h, _)| h >= 2) => Color::White,
                    None => Color::Black,
                };
                moves.push((color, None));
            }
            b"SUR" => {
                any_body = true;
                rep.push(
                    Code::FieldKept,
                    l.span(),
                    "SUR (a resignation) ends the game; the result is taken from the header",
                );
            }
            b"REM" => rep.unreadable(
                l.span(),
                "REM (probably dead-stone marking or an undo at the end of the game) is not supported; skipped",
            ),
            _ => rep.unreadable(
                l.span(),
                format!(
                    "unknown opcode `{}`; skipped",
                    String::from_utf8_lossy(op).chars().take(16).collect::<String>()
                ),
            ),
        }
    }

    if fields.is_empty() && !any_body {
        return Err(ReadError {
            format: "GIB",
            message: "no header field and no move found".into(),
            diagnostics: rep.finish(),
            // Nothing of a record: the judgement of every face.
            not_record: Some(crate::judge::NotRecord::NoGameTree),
        });
    }

    // Handicap: the INI line, else GAMETAG R.
    let tag_r = lookup(&tag, "R").and_then(|r| r.parse::<u8>().ok());
    let hcap = match (handicap, tag_r) {
        (Some((h, span)), Some(r)) if r != h => {
            rep.unreadable(
                span,
                format!("INI says handicap {h}, GAMETAG says {r}; the INI line is used"),
            );
            Some((h, span))
        }
        (Some(x), _) => Some(x),
        (None, Some(r)) => Some((r, Span::default())),
        (None, None) => None,
    };
    if let Some((h, span)) = hcap.filter(|(h, _)| *h >= 2) {
        b.set_raw(root, "HA", vec![h.to_string()]);
        match handicap_points(size, h, HandicapOrder::Tygem) {
            Some(pts) => {
                b.add_stones(root, "AB", &pts);
                rep.push(
                    Code::HandicapPlaced,
                    span,
                    format!(
                        "{h} handicap stones are not listed in GIB files; placed by the {} convention",
                        HandicapOrder::Tygem.name()
                    ),
                );
            }
            None => rep.unreadable(
                span,
                format!("no fixed placement for {h} handicap stones on {size}×{size}; HA only"),
            ),
        }
    }

    // Komi: ×10 in GONGJE (GAMEINFOMAIN), G (GAMETAG) or GAMEGONGJE.
    if let Some(k) = lookup(&main, "GONGJE")
        .or_else(|| lookup(&tag, "G"))
        .or_else(|| get("GAMEGONGJE"))
        .and_then(num)
    {
        b.set_raw(root, "KM", vec![sgf_go::values::fmt_real(k / 10.0)]);
    }

    // Players.
    let player = |name_key: &str,
                  user: &[(String, String)],
                  id: &str,
                  tag_id: &str,
                  lv: &str,
                  tag_lv: &str| {
        let (name, rank) = match get(name_key) {
            Some(n) => split_name_rank(n),
            None => (
                lookup(user, id)
                    .or_else(|| lookup(&tag, tag_id))
                    .unwrap_or_default()
                    .to_string(),
                None,
            ),
        };
        let rank = rank.or_else(|| {
            lookup(user, lv)
                .or_else(|| lookup(&tag, tag_lv))
                .and_then(level_rank)
        });
        (name, rank)
    };
    let (pb, br) = player("GAMEBLACKNAME", &buser, "BID", "M", "BLV", "N");
    let (pw, wr) = player("GAMEWHITENAME", &wuser, "WID", "I", "WLV", "L");
    b.set_text(root, "PB", &pb);
    b.set_text(root, "BR", br.as_deref().unwrap_or_default());
    b.set_text(root, "PW", &pw);
    b.set_text(root, "WR", wr.as_deref().unwrap_or_default());
    mapped.extend(["GAMEBLACKNAME", "GAMEWHITENAME"]);

    // Result: the code, checked against the localized sentence.
    let code = lookup(&main, "GRLT")
        .or_else(|| lookup(&tag, "W"))
        .and_then(|c| c.parse::<i64>().ok());
    let score = lookup(&main, "ZIPSU")
        .or_else(|| lookup(&tag, "Z"))
        .or_else(|| get("GAMEZIPSU"))
        .and_then(num);
    let from_code = code.and_then(|c| result_of(c, score));
    let text = get("GAMERESULT");
    let from_text = text.and_then(|t| sgf_go::values::read_result(t).map(|r| r.to_string()));
    let result_span = fields
        .iter()
        .find(|f| f.key == "GAMERESULT")
        .map(|f| f.span)
        .unwrap_or_default();
    match (&from_code, &from_text) {
        (Some(c), Some(t)) => {
            let same_winner = c.as_bytes()[0] == t.as_bytes()[0];
            let kind = |r: &str| {
                r.get(2..)
                    .map(|m| m.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            };
            if !same_winner || kind(c) != kind(t) {
                rep.unreadable(
                    result_span,
                    format!(
                        "GAMERESULT `{}` reads as {t}, the result code as {c}; the code is used",
                        text.unwrap_or_default()
                    ),
                );
            }
            b.set_text(root, "RE", c);
        }
        (Some(c), None) => b.set_text(root, "RE", c),
        (None, Some(t)) => b.set_text(root, "RE", t),
        (None, None) => {
            if let Some(t) = text {
                b.append_line(root, "GC", &format!("Result: {t}"));
            }
        }
    }

    // Date: GDATE, GAMETAG C, then the localized GAMEDATE.
    if let Some(dt) = [lookup(&sub, "GDATE"), lookup(&tag, "C"), get("GAMEDATE")]
        .into_iter()
        .flatten()
        .find_map(sgf_go::values::read_date)
    {
        b.set_raw(root, "DT", vec![dt]);
    }

    b.set_text(
        root,
        "GN",
        get("GAMENAME")
            .or_else(|| lookup(&sub, "GNAME"))
            .unwrap_or_default(),
    );
    b.set_text(
        root,
        "PC",
        get("GAMEPLACE")
            .or_else(|| lookup(&sub, "GPLC"))
            .unwrap_or_default(),
    );
    mapped.extend(["GAMENAME", "GAMEPLACE"]);

    // Time: GTIME `main-byoyomi-periods`, or GAMETAG T `byoyomi-periods-main`.
    let nums = |s: &str| -> Option<Vec<f64>> {
        let v: Vec<f64> = s.split('-').map(num).collect::<Option<_>>()?;
        (v.len() == 3).then_some(v)
    };
    let time = lookup(&main, "GTIME").and_then(nums).or_else(|| {
        lookup(&tag, "T")
            .and_then(nums)
            .map(|v| vec![v[2], v[0], v[1]])
    });
    if let Some(v) = time {
        b.set_raw(root, "TM", vec![sgf_go::values::fmt_real(v[0])]);
        if v[1] > 0.0 && v[2] > 0.0 {
            b.set_text(
                root,
                "OT",
                &format!(
                    "{}x{} byo-yomi",
                    sgf_go::values::fmt_real(v[2]),
                    sgf_go::values::fmt_real(v[1])
                ),
            );
        }
    }

    if let Some(c) = get("GAMECOMMENT").or_else(|| lookup(&sub, "GCMT")) {
        b.append_line(root, "GC", c);
    }
    mapped.push("GAMECOMMENT");
    if lookup(&main, "GONGJE").is_some() || get("GAMEGONGJE").and_then(num).is_some() {
        mapped.push("GAMEGONGJE");
    }
    if from_code.is_some() {
        mapped.push("GAMEZIPSU");
    }
    mapped.push("GAMETOTALNUM");
    for c in &chat {
        b.append_line(root, "C", c);
    }

    // Everything else, verbatim.
    let mut kept = Vec::new();
    let mut first_kept = None;
    for f in &fields {
        if f.value.is_empty() || f.raw.is_empty() || mapped.contains(&f.key.as_str()) {
            continue;
        }
        b.add_text(root, HEADER_PROP, &format!("{}={}", f.key, f.value));
        first_kept.get_or_insert(f.span);
        kept.push(f.key.as_str());
    }
    if !kept.is_empty() {
        rep.push(
            Code::FieldKept,
            first_kept.unwrap_or_default(),
            format!(
                "{} header field(s) without an SGF equivalent kept in {HEADER_PROP}: {}",
                kept.len(),
                kept.join(", ")
            ),
        );
    }

    let mut node = root;
    for (c, p) in &moves {
        node = b.add_child(node);
        b.set_move(node, *c, *p);
    }
    rep.push(
        Code::FormatConverted,
        Span::default(),
        format!(
            "Tygem GIB record converted to SGF ({} moves, charset {})",
            moves.len(),
            cs.name
        ),
    );
    Ok(Loaded {
        format: "GIB",
        charset: cs.name,
        converted: true,
        parsed: b.into_parsed(rep.finish()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_levels() {
        assert_eq!(
            split_name_rank("kim (2D)"),
            ("kim".into(), Some("2d".into()))
        );
        assert_eq!(
            split_name_rank("石下之臣(2段)"),
            ("石下之臣".into(), Some("2d".into()))
        );
        assert_eq!(split_name_rank("plain"), ("plain".into(), None));
        assert_eq!(level_rank("19").as_deref(), Some("2d"));
        assert_eq!(level_rank("13").as_deref(), Some("5k"));
        assert_eq!(level_rank("99"), None);
        assert_eq!(result_of(1, Some(110.0)).as_deref(), Some("W+11"));
        assert_eq!(result_of(0, Some(0.0)).as_deref(), Some("B+"));
        assert_eq!(result_of(255, None), None);
    }

    #[test]
    fn gametag_entries() {
        let t = gametag("S0,R3,D5,G0,W255,\tC2016:03:26:17:29,I:leejw977,L:8");
        assert_eq!(lookup(&t, "R"), Some("3"));
        assert_eq!(lookup(&t, "C"), Some("2016:03:26:17:29"));
        assert_eq!(lookup(&t, "I"), Some("leejw977"));
    }
}
