//! UGF / UGI: the records of Pandanet IGS (PandaEgg) and Japanese newspaper
//! sites; `.ugi` review files add a tree of variations and comments.
//!
//! INI-like sections: `[Header]` (`Key=Value`), `[Data]` (one move per line:
//! `XY,Cn,number,time`), `[ReviewNode]` (`NODE,id,colour,x,y` with
//! `VARIATION,` … `VARIATIONEND,` blocks) and `[ReviewComment]`
//! (`.Comment,<node id>` followed by text lines). With
//! `CoordinateType=IGS` the first letter is the column from the left (`A` =
//! 0, no I skipped) and the second the row from the bottom.

use std::collections::HashMap;

use encoding_rs::{EUC_KR, Encoding, GB18030, SHIFT_JIS, UTF_8};
use sgf_core::value::{Color, Point};
use sgf_core::{Code, Span};

use crate::builder::SgfBuilder;
use crate::common::{self, Line, Report};
use crate::format::{Format, Loaded, ReadError, ReadOptions};

/// The UGF/UGI format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ugf;

/// The private property that keeps header fields without an SGF equivalent.
pub const HEADER_PROP: &str = "UGFHEADER";

/// Header keys fully represented by SGF properties when they could be read.
const MAPPED: &[&str] = &[
    "Lang",
    "Title",
    "Place",
    "Rule",
    "Size",
    "Hdcp",
    "Winner",
    "Moves",
    "Copyright",
    "CoordinateType",
    "Comment",
    "PlayerB",
    "PlayerW",
];

impl Format for Ugf {
    fn name(&self) -> &'static str {
        "UGF"
    }
    fn description(&self) -> &'static str {
        "Pandanet IGS game record and review (.ugf, .ugi)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["ugf", "ugi"]
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        let head = common::strip_bom(&bytes[..bytes.len().min(16 * 1024)]);
        let first = common::lines_iter(head)
            .map(|l| l.bytes.trim_ascii())
            .find(|t| !t.is_empty() && !t.starts_with(b"#"));
        if first.is_some_and(|t| t.eq_ignore_ascii_case(b"[Header]")) {
            return 95;
        }
        // Split into lines only when both section names are there at all.
        let found = |s: &[u8]| memchr::memchr_iter(b'[', head).any(|i| head[i..].starts_with(s));
        if !found(b"[Header]") || !found(b"[Data]") {
            return 0;
        }
        let ls = common::lines(head);
        let has = |s: &[u8]| ls.iter().any(|l| l.bytes.trim_ascii() == s);
        if has(b"[Header]") && has(b"[Data]") {
            return 70;
        }
        0
    }
    fn read(&self, bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError> {
        read(bytes, opts)
    }
}

/// A section: its name, its header line and its lines.
struct Section<'a> {
    name: String,
    span: Span,
    lines: Vec<Line<'a>>,
}

fn sections<'a>(ls: &[Line<'a>]) -> (Vec<Section<'a>>, Vec<Line<'a>>) {
    let mut out: Vec<Section> = Vec::new();
    let mut before = Vec::new();
    for l in ls {
        let t = l.bytes.trim_ascii();
        if t.len() > 2
            && t[0] == b'['
            && t[t.len() - 1] == b']'
            && t[1..t.len() - 1].iter().all(u8::is_ascii_alphanumeric)
        {
            out.push(Section {
                name: String::from_utf8_lossy(&t[1..t.len() - 1]).into_owned(),
                span: l.span(),
                lines: Vec::new(),
            });
        } else if let Some(s) = out.last_mut() {
            s.lines.push(*l);
        } else {
            before.push(*l);
        }
    }
    (out, before)
}

/// A `[Data]` or `NODE` point: `None` for a pass (off the board).
fn igs_point(x: u8, y: u8, size: u8, igs: bool) -> Option<Point> {
    let (cx, cy) = (x.checked_sub(b'A')?, y.checked_sub(b'A')?);
    if cx >= size || cy >= size {
        return None;
    }
    Some(if igs {
        Point::new(cx, size - 1 - cy)
    } else {
        Point::new(cx, cy)
    })
}

/// A move of the review tree.
struct RNode {
    id: u32,
    color: Option<Color>,
    at: Option<Point>,
    span: Span,
}

fn read(bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError> {
    let mut rep = Report::default();
    let ls = common::lines(common::strip_bom(bytes));
    let bom = bytes.len() - common::strip_bom(bytes).len();
    // Spans must be offsets in the caller's bytes.
    let ls: Vec<Line> = ls
        .into_iter()
        .map(|l| Line {
            start: l.start + bom,
            bytes: l.bytes,
        })
        .collect();
    let (secs, _) = sections(&ls);
    let header = secs.iter().find(|s| s.name.eq_ignore_ascii_case("Header"));
    let Some(header) = header else {
        return Err(ReadError {
            format: "UGF",
            message: "no [Header] section".into(),
            diagnostics: rep.finish(),
            // Nothing of a record: the judgement of every face.
            not_record: Some(crate::judge::NotRecord::NoGameTree),
        });
    };

    // Raw header fields; Lang chooses the decoder (its value is ASCII).
    let raw: Vec<(String, &[u8], Span)> = header
        .lines
        .iter()
        .filter(|l| !l.bytes.trim_ascii().is_empty() && !l.bytes.starts_with(b"#"))
        .filter_map(|l| {
            let eq = l.bytes.iter().position(|&b| b == b'=');
            match eq {
                Some(eq) => Some((
                    String::from_utf8_lossy(&l.bytes[..eq]).trim().to_string(),
                    &l.bytes[eq + 1..],
                    l.span(),
                )),
                None => {
                    rep.unreadable(l.span(), "header line without `=`; skipped");
                    None
                }
            }
        })
        .collect();
    let lang = raw
        .iter()
        .find(|(k, _, _)| k == "Lang")
        .map(|(_, v, _)| String::from_utf8_lossy(v).trim().to_ascii_uppercase());
    let hint: Option<(&'static Encoding, &str)> = match lang.as_deref() {
        Some("SJIS" | "JPN" | "SHIFT_JIS") => Some((SHIFT_JIS, "Lang=SJIS")),
        Some("GB" | "GB2312" | "GBK" | "CHN") => Some((GB18030, "Lang=GB")),
        Some("KOR" | "EUC-KR" | "KSC") => Some((EUC_KR, "Lang=KOR")),
        Some("UTF8" | "UTF-8") => Some((UTF_8, "Lang=UTF-8")),
        _ => None,
    };
    let mut sample = Vec::new();
    for (_, v, _) in &raw {
        sample.extend_from_slice(v);
        sample.push(b'\n');
    }
    for s in &secs {
        if s.name == "ReviewComment" {
            for l in &s.lines {
                sample.extend_from_slice(l.bytes);
                sample.push(b'\n');
            }
        }
    }
    let cs = common::choose_charset(&sample, hint);
    let enc = cs.encoding;
    rep.charset(&cs, header.span);
    let fields: Vec<(String, String, Span)> = raw
        .iter()
        .map(|(k, v, s)| (k.clone(), common::decode(v, enc).trim().to_string(), *s))
        .collect();
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, v, _)| key.eq_ignore_ascii_case(k) && !v.is_empty())
            .map(|(_, v, s)| (v.as_str(), *s))
    };

    if let Some((crypt, span)) = get("Crypt")
        && crypt.split(',').next().is_some_and(|c| c.trim() != "0")
    {
        rep.unreadable(span, "the file is obfuscated (Crypt is not 0)");
        return Err(ReadError {
            format: "UGF",
            message: format!("obfuscated UGF (Crypt={crypt}) cannot be read"),
            diagnostics: rep.finish(),
            not_record: None,
        });
    }

    let mut unmapped: Vec<&str> = Vec::new();
    let size = match get("Size") {
        Some((s, span)) => match s.parse::<u8>() {
            Ok(n) if (2..=52).contains(&n) => n,
            _ => {
                rep.unreadable(span, format!("board size `{s}` not understood; 19 assumed"));
                unmapped.push("Size");
                19
            }
        },
        None => 19,
    };
    let igs = get("CoordinateType").is_some_and(|(c, _)| c.eq_ignore_ascii_case("IGS"));
    let mut b = SgfBuilder::new_go(size);
    let root = SgfBuilder::ROOT;

    if let Some((t, _)) = get("Title") {
        let parts: Vec<&str> = t
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        b.set_text(root, "GN", &parts.join(", "));
    }
    if let Some((p, _)) = get("Place") {
        b.set_text(root, "PC", p);
    }
    if let Some((d, span)) = get("Date") {
        // `start date,start time,end date,end time`: the days played.
        let f: Vec<&str> = d.split(',').map(str::trim).collect();
        let days = match f.as_slice() {
            [a, _, c, ..] if a != c => sgf_go::values::read_date(&format!("{a},{c}")),
            [a, ..] => sgf_go::values::read_date(a),
            [] => None,
        };
        match days.or_else(|| sgf_go::values::read_date(d)) {
            Some(dt) => b.set_raw(root, "DT", vec![dt]),
            None => rep.unreadable(span, format!("date `{d}` not understood")),
        }
    }
    if let Some((r, _)) = get("Rule") {
        let ru = match r.to_ascii_uppercase().as_str() {
            "JPN" | "JAPANESE" => "Japanese",
            "CHN" | "CHINESE" => "Chinese",
            "KOR" | "KOREAN" => "Korean",
            "ING" => "Ing",
            "AGA" => "AGA",
            "NZ" => "NZ",
            _ => r,
        };
        b.set_text(root, "RU", ru);
    }
    let mut handicap = 0u8;
    if let Some((hk, span)) = get("Hdcp") {
        let mut it = hk.split(',').map(str::trim);
        let h = it.next().and_then(|h| h.parse::<u8>().ok());
        let k = it.next().and_then(|k| k.parse::<f64>().ok());
        if let Some(h) = h {
            handicap = h;
            if h >= 2 {
                b.set_raw(root, "HA", vec![h.to_string()]);
            }
        }
        if let Some(k) = k.filter(|k| k.is_finite()) {
            b.set_raw(root, "KM", vec![sgf_go::values::fmt_real(k)]);
        }
        if h.is_none() || k.is_none() {
            rep.unreadable(span, format!("Hdcp `{hk}` not fully understood"));
            unmapped.push("Hdcp");
        }
    }
    if let Some((w, span)) = get("Winner") {
        let mut it = w.split(',').map(str::trim);
        let who = match it.next().map(str::to_ascii_uppercase).as_deref() {
            Some("B") => Some('B'),
            Some("W") => Some('W'),
            // A draw or anything else: its notation is not documented.
            _ => None,
        };
        let margin = it.next().unwrap_or_default();
        match who {
            Some(c) => {
                let m = match margin.parse::<f64>() {
                    Ok(x) if x > 0.0 && x.is_finite() => sgf_go::values::fmt_real(x),
                    Ok(_) | Err(_) => {
                        if !margin.is_empty() {
                            // A margin that is not a number (or 0): its meaning is
                            // not documented, so only the winner is written.
                            unmapped.push("Winner");
                        }
                        String::new()
                    }
                };
                b.set_text(root, "RE", &format!("{c}+{m}"));
            }
            None => {
                rep.unreadable(span, format!("Winner `{w}` not understood; kept"));
                unmapped.push("Winner");
            }
        }
    }
    if let Some((c, _)) = get("Copyright") {
        b.set_text(root, "CP", c);
    }
    if let Some((c, _)) = get("Comment") {
        b.append_line(root, "GC", c);
    }
    for (key, name, rank) in [("PlayerB", "PB", "BR"), ("PlayerW", "PW", "WR")] {
        if let Some((p, span)) = get(key) {
            let parts: Vec<&str> = p.split(',').map(str::trim).collect();
            b.set_text(root, name, parts.first().copied().unwrap_or_default());
            b.set_text(root, rank, parts.get(1).copied().unwrap_or_default());
            let extra: Vec<&str> = parts
                .iter()
                .skip(2)
                .copied()
                .filter(|x| !x.is_empty())
                .collect();
            let (mail, other): (Vec<&str>, Vec<&str>) = extra.iter().partition(|x| x.contains('@'));
            if !other.is_empty() {
                b.add_text(
                    root,
                    HEADER_PROP,
                    &format!("{key}.extra={}", other.join(",")),
                );
            }
            if !mail.is_empty() {
                if opts.keep_email {
                    b.add_text(
                        root,
                        HEADER_PROP,
                        &format!("{key}.email={}", mail.join(",")),
                    );
                } else {
                    rep.push(
                        Code::FieldKept,
                        span,
                        format!(
                            "the e-mail address in {key} is not copied (ReadOptions::keep_email)"
                        ),
                    );
                }
            }
        }
    }

    // [Data]: the main line, and handicap stones (move number 0).
    let mut main: Vec<(Color, Option<Point>, Span)> = Vec::new();
    let mut placed: Vec<Point> = Vec::new();
    let data = secs.iter().find(|s| s.name.eq_ignore_ascii_case("Data"));
    for l in data.map(|s| s.lines.as_slice()).unwrap_or_default() {
        let t = l.bytes.trim_ascii();
        if t.is_empty() || t.starts_with(b"#") {
            continue;
        }
        let f: Vec<&[u8]> = t.split(|&c| c == b',').map(<[u8]>::trim_ascii).collect();
        let (Some(xy), Some(cn)) = (f.first(), f.get(1)) else {
            rep.unreadable(l.span(), "[Data] line not understood; skipped");
            continue;
        };
        let color = match cn.first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => {
                rep.unreadable(l.span(), "[Data] line with an unknown colour; skipped");
                continue;
            }
        };
        if xy.len() != 2 {
            rep.unreadable(
                l.span(),
                "[Data] line without two coordinate letters; skipped",
            );
            continue;
        }
        let at = igs_point(xy[0], xy[1], size, igs);
        let number = f
            .get(2)
            .and_then(|n| std::str::from_utf8(n).ok())
            .and_then(|n| n.parse::<i64>().ok());
        if number == Some(0) {
            match at {
                Some(p) => placed.push(p),
                None => rep.unreadable(l.span(), "handicap stone off the board; skipped"),
            }
            continue;
        }
        main.push((color, at, l.span()));
    }
    if !placed.is_empty() {
        b.add_stones(root, "AB", &placed);
        if placed.len() != handicap as usize && handicap >= 2 {
            rep.unreadable(
                data.map(|s| s.span).unwrap_or_default(),
                format!(
                    "Hdcp says {handicap} stones, [Data] places {}",
                    placed.len()
                ),
            );
        }
    }

    // Other header fields, verbatim.
    let mut kept: Vec<&str> = Vec::new();
    let mut first_kept = None;
    for (k, v, span) in &fields {
        if v.is_empty() || (MAPPED.contains(&k.as_str()) && !unmapped.contains(&k.as_str())) {
            continue;
        }
        b.add_text(root, HEADER_PROP, &format!("{k}={v}"));
        kept.push(k);
        first_kept.get_or_insert(*span);
    }

    // [ReviewNode]: the real tree; else the main line from [Data].
    let review = secs
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case("ReviewNode"));
    let mut by_id: HashMap<u32, usize> = HashMap::new();
    let mut moves = 0usize;
    let mut variations = 0usize;
    match review {
        Some(sec)
            if sec
                .lines
                .iter()
                .any(|l| l.bytes.trim_ascii().starts_with(b"NODE")) =>
        {
            let (m, v) = review_tree(&mut b, sec, size, &mut by_id, &mut rep);
            moves = m;
            variations = v;
            // The review's main line should be the game of [Data].
            let mut n = root;
            let mut i = 0;
            let mut differs = None;
            while let Some(&c) = b.children(n).first() {
                n = c;
                if let Some(&(c, at, span)) = main.get(i)
                    && differs.is_none()
                    && b.raw_values(n, c.as_str()).and_then(|v| v.first())
                        != Some(&at.map(common::sgf_point).unwrap_or_default())
                {
                    differs = Some((i + 1, span));
                }
                i += 1;
            }
            if let Some((k, span)) = differs {
                rep.unreadable(
                    span,
                    format!("the review tree's main line differs from [Data] at move {k}; the tree is used"),
                );
            }
        }
        _ => {
            let mut n = root;
            by_id.insert(1, root);
            for (i, (c, at, _)) in main.iter().enumerate() {
                n = b.add_child(n);
                b.set_move(n, *c, *at);
                by_id.insert(i as u32 + 2, n);
                moves += 1;
            }
        }
    }

    // [ReviewComment]: `.Comment,<node id>` then text lines.
    let mut comments = 0usize;
    if let Some(sec) = secs
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case("ReviewComment"))
    {
        let mut target: Option<(u32, Span)> = None;
        let mut text: Vec<String> = Vec::new();
        let mut flush = |b: &mut SgfBuilder,
                         target: Option<(u32, Span)>,
                         text: &mut Vec<String>,
                         rep: &mut Report| {
            while text.last().is_some_and(|t| t.is_empty()) {
                text.pop();
            }
            if let Some((id, span)) = target
                && !text.is_empty()
            {
                let joined = text.join("\n");
                match by_id.get(&id) {
                    Some(&n) => {
                        b.append_line(n, "C", &joined);
                        comments += 1;
                    }
                    None => {
                        rep.unreadable(
                            span,
                            format!("comment for node {id}, which the tree does not have; attached to the root"),
                        );
                        b.append_line(root, "C", &format!("(node {id}) {joined}"));
                    }
                }
            }
            text.clear();
        };
        for l in &sec.lines {
            let t = common::decode(l.bytes, enc);
            if let Some(rest) = t.trim_start().strip_prefix(".Comment,") {
                flush(&mut b, target, &mut text, &mut rep);
                target = match rest.trim().parse::<u32>() {
                    Ok(id) => Some((id, l.span())),
                    Err(_) => {
                        rep.unreadable(l.span(), "`.Comment` without a node number; skipped");
                        None
                    }
                };
            } else if target.is_some() {
                text.push(t.trim().to_string());
            }
        }
        flush(&mut b, target, &mut text, &mut rep);
    }

    // Sections not read.
    for s in &secs {
        let known = ["Header", "Data", "ReviewNode", "ReviewComment"];
        if known.iter().any(|k| s.name.eq_ignore_ascii_case(k)) {
            continue;
        }
        let lines: Vec<String> = s
            .lines
            .iter()
            .map(|l| common::decode(l.bytes, enc).trim_end().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        if lines.is_empty() {
            continue;
        }
        b.add_text(
            root,
            HEADER_PROP,
            &format!("[{}]\n{}", s.name, lines.join("\n")),
        );
        rep.push(
            Code::FieldKept,
            s.span,
            format!(
                "section [{}] is not converted; its text is kept in {HEADER_PROP}",
                s.name
            ),
        );
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
    rep.push(
        Code::FormatConverted,
        Span::default(),
        format!(
            "UGF record converted to SGF ({moves} moves{}{}, charset {})",
            if variations > 0 {
                format!(", {variations} variation(s)")
            } else {
                String::new()
            },
            if comments > 0 {
                format!(", {comments} comment(s)")
            } else {
                String::new()
            },
            cs.name
        ),
    );
    Ok(Loaded {
        format: "UGF",
        charset: cs.name,
        converted: true,
        parsed: b.into_parsed(rep.finish()),
    })
}

/// Reads `[ReviewNode]` into the builder. Node 1 is the root; each `NODE`
/// continues the line of its level; `VARIATION,` opens a level whose first
/// node is another child of the last node of the enclosing level (a
/// sibling of the next node there, which stays the first child).
/// Returns (main-line moves, variations).
fn review_tree(
    b: &mut SgfBuilder,
    sec: &Section,
    size: u8,
    by_id: &mut HashMap<u32, usize>,
    rep: &mut Report,
) -> (usize, usize) {
    let root = SgfBuilder::ROOT;
    // Per level: the builder node new nodes attach to, and whether the next
    // node is the first of a variation (appended as a later child).
    let mut levels: Vec<(usize, bool)> = vec![(root, false)];
    let mut main_moves = 0usize;
    let mut variations = 0usize;
    let mut first_node = true;
    // Nodes without a move, to drop when they end a line with nothing on them.
    let mut empty: Vec<(usize, usize)> = Vec::new();
    for l in &sec.lines {
        let t = l.bytes.trim_ascii();
        if t.is_empty() {
            continue;
        }
        let f: Vec<&str> = std::str::from_utf8(t)
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .collect();
        match f.first().copied() {
            Some("VARIATION") => {
                let (at, _) = *levels.last().expect("the root level is never popped");
                levels.push((at, true));
                variations += 1;
            }
            Some("VARIATIONEND") => {
                if levels.len() > 1 {
                    levels.pop();
                } else {
                    rep.unreadable(l.span(), "VARIATIONEND without VARIATION; skipped");
                }
            }
            Some("NODE") => {
                let nums: Option<Vec<i64>> =
                    f[1..].iter().take(4).map(|x| x.parse().ok()).collect();
                let Some(nums) = nums.filter(|v| v.len() == 4) else {
                    rep.unreadable(l.span(), "NODE line not understood; skipped");
                    continue;
                };
                let node = RNode {
                    id: nums[0].clamp(0, u32::MAX as i64) as u32,
                    color: match nums[1] {
                        1 => Some(Color::Black),
                        2 => Some(Color::White),
                        _ => None,
                    },
                    at: {
                        let (x, y) = (nums[2], nums[3]);
                        ((1..=size as i64).contains(&x) && (1..=size as i64).contains(&y))
                            .then(|| Point::new((x - 1) as u8, size - y as u8))
                    },
                    span: l.span(),
                };
                if first_node && node.color.is_none() {
                    // The root.
                    first_node = false;
                    by_id.insert(node.id, root);
                    continue;
                }
                first_node = false;
                let depth = levels.len();
                let (parent, variation) = *levels.last().expect("the root level is never popped");
                let n = if variation {
                    b.add_child(parent)
                } else {
                    // The continuation of this level comes first, before any
                    // variation read earlier.
                    b.add_first_child(parent)
                };
                if let Some(c) = node.color {
                    b.set_move(n, c, node.at);
                    if depth == 1 {
                        main_moves += 1;
                    }
                } else {
                    empty.push((parent, n));
                }
                if by_id.insert(node.id, n).is_some() {
                    rep.unreadable(
                        node.span,
                        format!(
                            "node id {} used twice; the later one is used for comments",
                            node.id
                        ),
                    );
                }
                *levels.last_mut().expect("the root level is never popped") = (n, false);
            }
            _ => rep.unreadable(l.span(), "[ReviewNode] line not understood; skipped"),
        }
    }
    if levels.len() > 1 {
        rep.unreadable(
            sec.span,
            "VARIATION without VARIATIONEND at the end of [ReviewNode]",
        );
    }
    // A node without a move at the end of a line (the review's end marker)
    // carries nothing; it is dropped unless a comment is attached later,
    // which is why the caller's id map still points at it: re-point it at
    // the parent instead.
    for (parent, n) in empty {
        if b.children(n).is_empty() {
            b.detach_leaf(parent, n);
            for v in by_id.values_mut() {
                if *v == n {
                    *v = parent;
                }
            }
        }
    }
    (main_moves, variations)
}
