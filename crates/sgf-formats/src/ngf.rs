//! NGF: the records of WBaduk / Cyberoro (ORO), also saved by Sina
//! (新浪围棋), which MultiGo labels as Sina's format.
//!
//! Two variants:
//! * **line positions** (WBaduk): twelve header lines at fixed places —
//!   title, size, White `name rank`, Black `name rank`, site, handicap, ?,
//!   komi, `YYYYMMDD [hh:mm]`, ?, an English result sentence, the move count;
//! * **`GI`-prefixed** (older Sina files, GBK): event, White, Black, two
//!   blanks, date, size, handicap, ?, komi, move count, each prefixed `GI`,
//!   and near the end `IDB[n] <result text>[EndTxt]`.
//!
//! Moves are `PM` + move number (two letters, base 26) + `B`/`W` + two
//! coordinate letters (`B` = first line, top-left origin) + the same two
//! letters reversed as a check. `AA` is a pass. Handicap stones are not
//! listed and are placed by convention.

use sgf_core::value::{Color, Point};
use sgf_core::{Code, Span};

use crate::builder::SgfBuilder;
use crate::common::{self, HandicapOrder, Line, Report, handicap_points};
use crate::format::{Format, Loaded, ReadError, ReadOptions};

/// The NGF format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ngf;

/// The private property that keeps header lines without an SGF equivalent.
pub const HEADER_PROP: &str = "NGFHEADER";

fn is_pm(b: &[u8]) -> bool {
    let t = b.trim_ascii();
    t.len() >= 9
        && t.starts_with(b"PM")
        && t[2..4].iter().all(u8::is_ascii_uppercase)
        && matches!(t[4], b'B' | b'W')
        && t[5..9].iter().all(u8::is_ascii_uppercase)
}

fn is_gi(b: &[u8]) -> bool {
    b.trim_ascii_start().starts_with(b"GI")
}

fn small_int(b: &[u8]) -> Option<i64> {
    std::str::from_utf8(b.trim_ascii()).ok()?.parse().ok()
}

impl Format for Ngf {
    fn name(&self) -> &'static str {
        "NGF"
    }
    fn description(&self) -> &'static str {
        "WBaduk / Cyberoro / Sina game record (.ngf)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["ngf"]
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        let head = common::strip_bom(&bytes[..bytes.len().min(16 * 1024)]);
        // Only the first 64 lines are looked at.
        let ls: Vec<_> = common::lines_iter(head).take(64).collect();
        let first_pm = ls.iter().position(|l| is_pm(l.bytes));
        let Some(pm) = first_pm else { return 0 };
        if ls.first().is_some_and(|l| is_gi(l.bytes)) {
            return 90;
        }
        let size_ok = ls
            .get(1)
            .and_then(|l| small_int(l.bytes))
            .is_some_and(|n| (2..=52).contains(&n));
        if pm >= 12 && size_ok && ls.get(11).and_then(|l| small_int(l.bytes)).is_some() {
            return 90;
        }
        40
    }
    fn read(&self, bytes: &[u8], _opts: &ReadOptions) -> Result<Loaded, ReadError> {
        read(bytes)
    }
}

/// `name<spaces>rank` → (name, rank) when the last word is a rank.
fn split_player(s: &str) -> (String, Option<String>) {
    let t = s.trim();
    if let Some(p) = t.rfind(char::is_whitespace) {
        let (name, rank) = (t[..p].trim(), t[p..].trim());
        let r = sgf_go::values::read_rank(rank).unwrap_or_else(|| rank.trim().to_string());
        let looks_like_rank = r
            .trim_end_matches(['*', '?'])
            .strip_suffix(['k', 'd', 'p'])
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if looks_like_rank && !name.is_empty() {
            return (name.to_string(), Some(r));
        }
    }
    (t.to_string(), None)
}

/// What the header says, whichever variant it came from.
#[derive(Default)]
struct Header {
    title: Option<String>,
    event: Option<String>,
    size: Option<(i64, Span)>,
    white: Option<String>,
    black: Option<String>,
    site: Option<String>,
    handicap: Option<(i64, Span)>,
    komi: Option<(f64, Span)>,
    date: Option<String>,
    result: Option<(String, Span)>,
    count: Option<(i64, Span)>,
}

fn read(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let mut rep = Report::default();
    let ls = common::lines(bytes);
    let gi = ls
        .iter()
        .find(|l| !common::is_blank(l.bytes))
        .is_some_and(|l| is_gi(l.bytes));

    let (records, other): (Vec<&Line>, Vec<&Line>) = ls.iter().partition(|l| is_pm(l.bytes));
    // The charset is detected on the header text only: the move records
    // are ASCII and would drown the statistics.
    let mut sample = Vec::new();
    for l in &other {
        sample.extend_from_slice(l.bytes);
        sample.push(b'\n');
    }
    let cs = common::choose_charset(&sample, None);
    let enc = cs.encoding;
    rep.charset(&cs, other.first().map(|l| l.span()).unwrap_or_default());
    let text = |l: &Line| common::decode(l.bytes, enc).trim().to_string();

    let mut h = Header::default();
    // Lines whose content no SGF property holds: (line number, text, span).
    let mut keep: Vec<(usize, String, Span)> = Vec::new();
    let first_pm = ls.iter().position(|l| is_pm(l.bytes)).unwrap_or(ls.len());
    if gi {
        let mut n = 0;
        for (i, l) in ls.iter().enumerate() {
            if is_pm(l.bytes) || common::is_blank(l.bytes) {
                continue;
            }
            let t = text(l);
            let span = l.span();
            if i > first_pm {
                // After the moves: `GI1`, `IDB[211] 黑中盘胜(现场消息)[EndTxt]`.
                if let Some(rest) = t.strip_prefix("IDB") {
                    let body = rest.split_once(']').map_or(rest, |(_, b)| b);
                    let body = body.trim().trim_end_matches("[EndTxt]").trim();
                    if h.result.is_none() && !body.is_empty() {
                        h.result = Some((body.to_string(), span));
                    }
                }
                keep.push((i + 1, t, span));
                continue;
            }
            let Some(v) = t.strip_prefix("GI") else {
                keep.push((i + 1, t, span));
                continue;
            };
            let v = v.trim().to_string();
            match n {
                0 => h.event = Some(v),
                1 => h.white = Some(v),
                2 => h.black = Some(v),
                5 => h.date = Some(v),
                6 => h.size = small_int(v.as_bytes()).map(|x| (x, span)),
                7 => h.handicap = small_int(v.as_bytes()).map(|x| (x, span)),
                9 => h.komi = v.parse().ok().map(|x| (x, span)),
                10 => h.count = small_int(v.as_bytes()).map(|x| (x, span)),
                _ if !v.is_empty() => keep.push((i + 1, format!("GI{v}"), span)),
                _ => {}
            }
            n += 1;
        }
    } else {
        for (i, l) in ls.iter().enumerate() {
            if is_pm(l.bytes) {
                continue;
            }
            let t = text(l);
            let span = l.span();
            match i {
                0 => h.title = Some(t),
                1 => h.size = small_int(l.bytes).map(|x| (x, span)),
                2 => h.white = Some(t),
                3 => h.black = Some(t),
                4 => h.site = Some(t),
                5 => h.handicap = small_int(l.bytes).map(|x| (x, span)),
                7 => h.komi = t.parse().ok().map(|x| (x, span)),
                8 => {
                    h.date = Some(t.clone());
                    // Only the time of day is lost to DT: keep the line.
                    if t.len() > 8 {
                        keep.push((i + 1, t, span));
                    }
                }
                10 => h.result = Some((t, span)),
                11 => h.count = small_int(l.bytes).map(|x| (x, span)),
                _ if !common::is_blank(l.bytes) => keep.push((i + 1, t, span)),
                _ => {}
            }
        }
    }

    let plausible_size = matches!(h.size, Some((n, _)) if (2..=52).contains(&n));
    if records.is_empty() && !plausible_size {
        return Err(ReadError {
            format: "NGF",
            message: "no header and no move record found".into(),
            diagnostics: rep.finish(),
            // Nothing of a record: the judgement of every face.
            not_record: Some(crate::judge::NotRecord::NoGameTree),
        });
    }

    let size = match h.size {
        Some((n, _)) if (2..=52).contains(&n) => n as u8,
        Some((n, span)) => {
            rep.unreadable(span, format!("board size {n} not understood; 19 assumed"));
            19
        }
        None => {
            rep.unreadable(Span::default(), "no board size; 19 assumed");
            19
        }
    };
    let mut b = SgfBuilder::new_go(size);
    let root = SgfBuilder::ROOT;

    let handicap = h.handicap.map_or(0, |(n, _)| n);
    if let Some((n, span)) = h.handicap.filter(|(n, _)| *n != 0) {
        match u8::try_from(n)
            .ok()
            .and_then(|n| handicap_points(size, n, HandicapOrder::Tygem).map(|p| (n, p)))
        {
            Some((n, pts)) => {
                b.set_raw(root, "HA", vec![n.to_string()]);
                b.add_stones(root, "AB", &pts);
                rep.push(
                    Code::HandicapPlaced,
                    span,
                    format!(
                        "{n} handicap stones are not listed in NGF files; placed by the {} convention (as Sabaki, KaTrain and Ogatak read NGF)",
                        HandicapOrder::Tygem.name()
                    ),
                );
            }
            None => rep.unreadable(span, format!("handicap {n} not understood; ignored")),
        }
    }
    if let Some((k, _)) = h.komi {
        // Komi is written as a whole number; every reader adds the half
        // point of an even game.
        let k = if handicap == 0 && k.fract() == 0.0 {
            k + 0.5
        } else {
            k
        };
        b.set_raw(root, "KM", vec![sgf_go::values::fmt_real(k)]);
    }
    for (name, rank, who) in [("PW", "WR", &h.white), ("PB", "BR", &h.black)] {
        if let Some(p) = who {
            let (n, r) = split_player(p);
            b.set_text(root, name, &n);
            b.set_text(root, rank, r.as_deref().unwrap_or_default());
        }
    }
    b.set_text(root, "GN", h.title.as_deref().unwrap_or_default());
    b.set_text(root, "EV", h.event.as_deref().unwrap_or_default());
    b.set_text(root, "PC", h.site.as_deref().unwrap_or_default());
    if let Some(d) = h.date.as_deref() {
        match sgf_go::values::read_date(d) {
            Some(dt) => b.set_raw(root, "DT", vec![dt]),
            None if !d.is_empty() => b.set_text(root, "DT", d),
            None => {}
        }
    }
    if let Some((r, span)) = &h.result {
        match sgf_go::values::read_result(r).map(|r| r.to_string()) {
            Some(re) => b.set_text(root, "RE", &re),
            None if !r.is_empty() => {
                rep.unreadable(*span, format!("result `{r}` not understood; kept in GC"));
                b.append_line(root, "GC", &format!("Result: {r}"));
            }
            None => {}
        }
    }

    // Moves.
    let mut node = root;
    let mut count = 0usize;
    let mut numbering_reported = false;
    for l in &records {
        let t = l.bytes.trim_ascii();
        let number = (t[2] - b'A') as usize * 26 + (t[3] - b'A') as usize;
        if number != count + 1 && !numbering_reported {
            numbering_reported = true;
            rep.unreadable(
                l.span(),
                format!(
                    "move numbers are not consecutive (record {} is numbered {number}); read in file order",
                    count + 1
                ),
            );
        }
        let color = if t[4] == b'B' {
            Color::Black
        } else {
            Color::White
        };
        let (c1, c2) = (t[5], t[6]);
        if t[7] != c2 || t[8] != c1 {
            rep.unreadable(
                l.span(),
                "the check letters do not mirror the coordinates; the coordinates are used",
            );
        }
        let at = if (c1, c2) == (b'A', b'A') {
            None
        } else {
            let (x, y) = (c1.wrapping_sub(b'B'), c2.wrapping_sub(b'B'));
            if x >= size || y >= size {
                rep.unreadable(l.span(), "move outside the board; skipped");
                continue;
            }
            Some(Point::new(x, y))
        };
        node = b.add_child(node);
        b.set_move(node, color, at);
        count += 1;
    }
    if let Some((n, span)) = h.count
        && n != count as i64
    {
        rep.unreadable(
            span,
            format!("the header announces {n} moves, the file has {count}"),
        );
    }

    if !keep.is_empty() {
        for (n, t, _) in &keep {
            b.add_text(root, HEADER_PROP, &format!("line{n}={t}"));
        }
        rep.push(
            Code::FieldKept,
            keep[0].2,
            format!(
                "{} header line(s) without an SGF equivalent kept in {HEADER_PROP}",
                keep.len()
            ),
        );
    }
    rep.push(
        Code::FormatConverted,
        Span::default(),
        format!(
            "NGF record ({} variant) converted to SGF ({count} moves, charset {})",
            if gi { "GI-prefixed" } else { "line-position" },
            cs.name
        ),
    );
    Ok(Loaded {
        format: "NGF",
        charset: cs.name,
        converted: true,
        parsed: b.into_parsed(rep.finish()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players() {
        assert_eq!(
            split_player("LQC         9DP"),
            ("LQC".into(), Some("9p".into()))
        );
        assert_eq!(
            split_player("ace550      7D*"),
            ("ace550".into(), Some("7d*".into()))
        );
        assert_eq!(
            split_player("朴承华 初段"),
            ("朴承华".into(), Some("1d".into()))
        );
        assert_eq!(split_player("Lin H C"), ("Lin H C".into(), None));
        assert!(is_pm(b"PMABBREER"));
        assert!(!is_pm(b"PMAB"));
        assert!(!is_pm(b"PMabBREER"));
    }
}
