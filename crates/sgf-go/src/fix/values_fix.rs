//! Repairs of values: each value against its type (corrected from its
//! wording where that is clear), root values, legacy FF[1]–FF[3]
//! properties, and game information (`DT`, `RE`).

use super::*;

/// `SZ`, `GM`, `ST` values: each corrected when its text says exactly one
/// value (`SZ[19:19]`, `SZ[１３]`, `SZ[13x13]`, `GM[１]`), else left as
/// it is (the check of the output reports it).
pub(super) fn root_values(f: &mut Fixer<'_>, root: NodeId) {
    if let Some((raw, text, span)) = f.values(root, "SZ").into_iter().next() {
        let (size, issue) = coords::parse_size(raw.as_bytes(), span);
        match issue.map(|(i, _)| i) {
            Some(coords::SizeIssue::NoPoint) => {
                f.keep(root, "SZ", &raw, None);
                f.doc.remove_property(root, "SZ");
                f.note_value(
                    Code::BadBoardSize,
                    span,
                    format!("SZ[{raw}] has no point: deleted, the default size applies"),
                    format!("SZ[{raw}]"),
                    String::new(),
                );
            }
            Some(coords::SizeIssue::SquareComposed) => {
                let new = size.cols.to_string();
                f.set_raws(root, "SZ", std::slice::from_ref(&new));
                f.note(
                    Code::SquareSizeComposed,
                    span,
                    format!("SZ[{raw}] written as SZ[{new}]"),
                );
            }
            Some(coords::SizeIssue::Invalid) => {
                if let Some(new) = read_size(&text) {
                    f.keep_words(root, "SZ", &text, Some(&new));
                    f.set_raws(root, "SZ", std::slice::from_ref(&new));
                    f.note_value(
                        Code::InvalidNumber,
                        span,
                        format!("SZ[{text}] corrected to SZ[{new}]"),
                        format!("SZ[{text}]"),
                        format!("SZ[{new}]"),
                    );
                }
            }
            // Out of range: another size would be another game.
            _ => {}
        }
    }
    if let Some((raw, text, span)) = f.values(root, "GM").into_iter().next()
        && sgf_core::value::parse_number(raw.as_bytes()).is_none()
        && let Some(gm) = values::read_number(&text)
    {
        let new = gm.to_string();
        f.keep_words(root, "GM", &text, Some(&new));
        f.set_raws(root, "GM", std::slice::from_ref(&new));
        f.note_value(
            Code::InvalidNumber,
            span,
            format!("GM[{text}] corrected to GM[{new}]"),
            format!("GM[{text}]"),
            format!("GM[{new}]"),
        );
    }
    if let Some((raw, text, span)) = f.values(root, "ST").into_iter().next()
        && !sgf_core::value::parse_number(raw.as_bytes()).is_some_and(|n| (0..=3).contains(&n))
    {
        match values::read_number(&text) {
            Some(n) if (0..=3).contains(&n) => {
                let new = n.to_string();
                f.keep_words(root, "ST", &text, Some(&new));
                f.set_raws(root, "ST", std::slice::from_ref(&new));
                f.note_value(
                    Code::InvalidNumber,
                    span,
                    format!("ST[{text}] corrected to ST[{new}]"),
                    format!("ST[{text}]"),
                    format!("ST[{new}]"),
                );
            }
            Some(_) => {
                f.keep_words(root, "ST", &text, None);
                f.doc.remove_property(root, "ST");
                f.note(Code::OutOfRange, span, format!("ST[{raw}] deleted (0–3)"));
            }
            None => {}
        }
    }
}

/// A board size written loosely, in its FF\[4\] form: `１９`, `13x13`,
/// `19 × 19`, `9*9`, `19路`; `None` unless every part is one number of 1
/// to 52.
fn read_size(text: &str) -> Option<String> {
    let folded = values::fold(text);
    let parts: Vec<&str> = folded.split([':', 'x', 'X', '×', '*']).collect();
    let nums: Vec<i64> = parts
        .iter()
        .map(|p| values::read_number(p).filter(|n| (1..=52).contains(n)))
        .collect::<Option<_>>()?;
    match nums.as_slice() {
        [n] => Some(n.to_string()),
        [c, r] if c == r => Some(c.to_string()),
        [c, r] => Some(format!("{c}:{r}")),
        _ => None,
    }
}

/// Each value against its type, for every known property of a node.
pub(super) fn node_values(f: &mut Fixer<'_>, n: NodeId, go: bool, ff: i64) {
    // Known properties, each once, whose values may need a repair.
    let props: Vec<(String, &'static sgf_core::PropInfo)> = {
        let node = f.doc.node(n);
        let mut seen: Vec<&str> = Vec::new();
        let mut out = Vec::new();
        for p in node.props() {
            let Some(info) = p.info() else { continue };
            let id = p.ident();
            if seen.contains(&id) {
                continue;
            }
            seen.push(id);
            if !values_fine(&node, id, info, go, ff) {
                out.push((id.to_string(), info));
            }
        }
        out
    };
    for (ident, info) in props {
        trim_whitespace(f, n, &ident, info, go);
        let vals = f.values(n, &ident);
        let is_gi = info.kind == PropKind::GameInfo;
        let span0 = vals.first().map(|v| v.2).unwrap_or_default();
        match info.value {
            ValueType::None
                if (vals.iter().any(|(r, _, _)| !r.trim().is_empty()) || vals.len() > 1) =>
            {
                structure::keep_annotation(f, n, &ident);
                f.set_raws(n, &ident, &[String::new()]);
                f.note(
                    Code::ValueForNone,
                    span0,
                    format!("{ident} takes no value: emptied"),
                );
            }
            ValueType::Number | ValueType::Real | ValueType::Double | ValueType::Color => {
                let (raw, text, span) = vals[0].clone();
                let mut fixed: Option<String> = None;
                let ok = match info.value {
                    ValueType::Number => sgf_core::value::parse_number(raw.as_bytes()).is_some(),
                    ValueType::Real => sgf_core::value::parse_real(raw.as_bytes()).is_some(),
                    ValueType::Double => sgf_core::value::parse_double(raw.as_bytes()).is_some(),
                    _ => sgf_core::value::parse_color(raw.as_bytes()).is_some(),
                };
                let extra = vals.len() > 1;
                if ok && !extra {
                    continue;
                }
                // Values beyond the first are deleted: the wording of game
                // information, and words, are kept in GC.
                let dropped: Vec<&str> = vals[1..]
                    .iter()
                    .map(|v| v.1.trim())
                    .filter(|t| !t.is_empty() && (is_gi || super::worded(t)))
                    .collect();
                if !dropped.is_empty() {
                    f.keep(n, &ident, &dropped.join(", "), None);
                }
                if !ok {
                    fixed = read_typed(&ident, info.value, &text);
                }
                match fixed {
                    Some(v) => {
                        if is_gi {
                            f.keep(n, &ident, &text, Some(&v));
                        } else if !(info.value == ValueType::Color && colour_word(&text).is_some())
                        {
                            f.keep_words(n, &ident, &text, Some(&v));
                        }
                        f.set_raws(n, &ident, std::slice::from_ref(&v));
                        let code = match info.value {
                            ValueType::Number => Code::InvalidNumber,
                            ValueType::Real if ident == "TM" => Code::BadTime,
                            ValueType::Real => Code::InvalidReal,
                            ValueType::Double => Code::InvalidDouble,
                            _ => Code::InvalidColor,
                        };
                        f.note_value(
                            code,
                            span,
                            format!("{ident}[{text}] corrected to {ident}[{v}]"),
                            format!("{ident}[{text}]"),
                            format!("{ident}[{v}]"),
                        );
                    }
                    None if ok || extra => {
                        // Extra values deleted; the first, not understood,
                        // left as it is.
                        f.set_raws(n, &ident, std::slice::from_ref(&raw));
                        f.note(
                            Code::TooManyValues,
                            span,
                            format!("{ident}: extra values deleted, kept [{text}]"),
                        );
                    }
                    // A blank value says nothing: deleted.
                    None if text.trim().is_empty() => {
                        f.doc.remove_property(n, &ident);
                        f.note_value(
                            Code::EmptyValue,
                            span,
                            format!("empty {ident} deleted"),
                            format!("{ident}[{text}]"),
                            String::new(),
                        );
                    }
                    // Not understood: left as it is, for the check of the
                    // output to report (never read as another value).
                    None => {}
                }
            }
            ValueType::SimpleText | ValueType::Text => {
                let non_empty: Vec<String> = vals
                    .iter()
                    .map(|v| v.1.clone())
                    .filter(|t| !t.trim().is_empty())
                    .collect();
                if non_empty.len() == vals.len() && vals.len() == 1 {
                    continue;
                }
                if non_empty.is_empty() {
                    if ident == "GN" {
                        continue;
                    }
                    f.doc.remove_property(n, &ident);
                    f.note(Code::EmptyValue, span0, format!("empty {ident} deleted"));
                } else {
                    let sep = if info.value == ValueType::Text {
                        "\n"
                    } else {
                        ", "
                    };
                    let joined = non_empty.join(sep);
                    f.set_texts(n, &ident, &[joined]);
                    f.note(
                        Code::TooManyValues,
                        span0,
                        format!("the values of {ident} joined into one"),
                    );
                }
            }
            ValueType::TextText => {
                // `AP[foxwq]`: the name without a version; keep it, add the `:`.
                let (raw, _, span) = vals[0].clone();
                if text::find_colon(raw.as_bytes(), None).is_none() || vals.len() > 1 {
                    let fixed = if text::find_colon(raw.as_bytes(), None).is_none() {
                        format!("{raw}:")
                    } else {
                        raw.clone()
                    };
                    // Values beyond the first are dropped: their wording
                    // is kept in `GC`.
                    let dropped: Vec<&str> = vals[1..]
                        .iter()
                        .map(|(_, t, _)| t.as_str())
                        .filter(|t| !t.trim().is_empty())
                        .collect();
                    if !dropped.is_empty() {
                        f.keep(n, &ident, &dropped.join(" "), None);
                    }
                    f.set_raws(n, &ident, std::slice::from_ref(&fixed));
                    let message = if dropped.is_empty() {
                        format!("{ident}[{raw}] written as {ident}[{fixed}]")
                    } else {
                        format!(
                            "{ident} takes one value: {ident}[{fixed}] kept, the wording of the others in GC"
                        )
                    };
                    f.note(Code::ComposedExpected, span, message);
                }
            }
            ValueType::ListOfPointText | ValueType::ListOfPointPoint => {
                let keep: Vec<String> = vals
                    .iter()
                    .filter(|(r, _, _)| text::find_colon(r.as_bytes(), None).is_some())
                    .map(|v| v.0.clone())
                    .collect();
                if keep.len() != vals.len() {
                    let dropped: Vec<&str> = vals
                        .iter()
                        .filter(|(r, _, _)| text::find_colon(r.as_bytes(), None).is_none())
                        .map(|v| v.0.as_str())
                        .collect();
                    // A label's text without its point (`LB[hello]`) is kept.
                    if info.value == ValueType::ListOfPointText {
                        let words: Vec<&str> = vals
                            .iter()
                            .filter(|(r, t, _)| {
                                text::find_colon(r.as_bytes(), None).is_none()
                                    && sgf_core::value::parse_point(t.trim().as_bytes()).is_none()
                            })
                            .map(|v| v.1.trim())
                            .filter(|t| !t.is_empty())
                            .collect();
                        if !words.is_empty() {
                            f.keep(n, &ident, &words.join(", "), None);
                        }
                    }
                    f.set_raws(n, &ident, &keep);
                    f.note(
                        Code::ComposedExpected,
                        span0,
                        format!("{ident} values without `:` deleted: {}", dropped.join(", ")),
                    );
                }
            }
            ValueType::ListOfPoint | ValueType::ListOfStone if ff < 4 || !go => {
                let keep: Vec<String> = vals
                    .iter()
                    .filter(|v| !v.0.trim().is_empty())
                    .map(|v| v.0.clone())
                    .collect();
                if keep.len() != vals.len() {
                    f.set_raws(n, &ident, &keep);
                    f.note(
                        Code::EmptyValue,
                        span0,
                        format!("empty {ident} values deleted"),
                    );
                }
            }
            _ => {}
        }
    }
}

/// The FF\[4\] text of a Number, Real, Double or Color value of property
/// `ident` written `text`, when the text says exactly one such value
/// (`BL[0:07:42]` is `462`, `KM[6目半]` `6.5`, `PL[white]` `W`); `None`
/// when it is not understood (`MN[1 kk]`, `V[+-]`).
fn read_typed(ident: &str, ty: ValueType, text: &str) -> Option<String> {
    match ty {
        ValueType::Number => values::read_number(text).map(|v| v.to_string()),
        // Times in seconds: `TM`, and the time left `BL`/`WL`.
        ValueType::Real if matches!(ident, "TM" | "BL" | "WL") => {
            values::read_seconds(text).map(fmt_real)
        }
        ValueType::Real if ident == "KM" => values::read_komi(text).map(fmt_real),
        ValueType::Real => values::read_real(text).map(fmt_real),
        // Normal (1) or emphasised (2); blank was FF[3]'s normal.
        ValueType::Double => match values::read_number(text) {
            Some(1) => Some("1".into()),
            Some(2) => Some("2".into()),
            None if text.trim().is_empty() => Some("1".into()),
            _ => None,
        },
        _ => {
            let t = text.trim();
            // The whole text, or its first word when the others only say
            // whose turn it is (`Black to play`).
            let first = t.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
            let rest = t[first.len()..].trim().to_lowercase();
            colour_word(t)
                .or_else(|| {
                    matches!(
                        rest.as_str(),
                        "to play" | "to move" | "plays" | "moves" | "first"
                    )
                    .then(|| colour_word(first))
                    .flatten()
                })
                .map(|c| c.as_str().to_string())
        }
    }
}

/// A colour that is the whole of `t`: `b`, `white`, `1`, `黑`, `백`.
fn colour_word(t: &str) -> Option<sgf_core::Color> {
    let t = values::fold(t);
    pl_color(t.as_bytes()).or(match t.trim() {
        "黑" | "黒" | "흑" => Some(sgf_core::Color::Black),
        "白" | "백" => Some(sgf_core::Color::White),
        _ => None,
    })
}

/// Whether the values of `ident` in `node` need none of the repairs of
/// [`node_values`], judged from their bytes without copying them. It errs
/// on the side of "not fine": most values of real files are fine, and the
/// full repair then only runs where it may change something.
fn values_fine(
    node: &sgf_core::Node<'_>,
    ident: &str,
    info: &sgf_core::PropInfo,
    go: bool,
    ff: i64,
) -> bool {
    use sgf_core::lexer::is_ws;
    // A byte that survives decoding and trimming: the text is not empty.
    // Only in plain ASCII: a graphic byte may be half of a double-byte
    // character (ISO-2022-JP `!!` is an ideographic space).
    let visible = |raw: &[u8]| {
        raw.is_ascii()
            && !raw.contains(&0x1b)
            && raw.iter().any(|&b| b.is_ascii_graphic() && b != b'\\')
    };
    let mut count = 0usize;
    for v in node.values(ident) {
        count += 1;
        let raw = v.raw();
        // What `trim_whitespace` would change.
        let ws_ok = !sgf_core::validate::has_stray_whitespace(info, raw);
        let value_ok = match info.value {
            ValueType::None => raw.iter().all(|&b| is_ws(b)),
            ValueType::Number => sgf_core::value::parse_number(raw).is_some(),
            ValueType::Real => sgf_core::value::parse_real(raw).is_some(),
            ValueType::Double => sgf_core::value::parse_double(raw).is_some(),
            ValueType::Color => sgf_core::value::parse_color(raw).is_some(),
            ValueType::SimpleText | ValueType::Text => {
                visible(raw) || !v.decoded().trim().is_empty()
            }
            ValueType::TextText | ValueType::ListOfPointText | ValueType::ListOfPointPoint => {
                text::find_colon(raw, None).is_some()
            }
            ValueType::ListOfPoint | ValueType::ListOfStone if ff < 4 || !go => visible(raw),
            _ => true,
        };
        if !(ws_ok && value_ok) {
            return false;
        }
    }
    // More than one value where one is taken.
    count <= 1
        || !matches!(
            info.value,
            ValueType::None
                | ValueType::Number
                | ValueType::Real
                | ValueType::Double
                | ValueType::Color
                | ValueType::SimpleText
                | ValueType::Text
                | ValueType::TextText
        )
}

/// FF[1]–FF[3] properties with an FF[4] form: `L` → `LB`, `M` → `MA`, `KI` → `KM`.
pub(super) fn legacy(
    f: &mut Fixer<'_>,
    gi: usize,
    n: NodeId,
    size: BoardSize,
    ff: i64,
    cursor: &mut Option<Cursor>,
) {
    let node = f.doc.node(n);
    if ff < 4
        && let Some((a, b)) = coords::old_view_corners(&node, size)
    {
        let span = node.get("VW").map(|p| p.span()).unwrap_or_default();
        f.set_raws(n, "VW", &[format!("{a}:{b}")]);
        f.note(
            Code::OldView,
            span,
            format!("VW[{a}][{b}] (FF[3] corners) converted to VW[{a}:{b}]"),
        );
    }
    let node = f.doc.node(n);
    let l = node.has("L");
    let m = node.has("M");
    let ki = node.has("KI");
    if l {
        let span = node.get("L").map(|p| p.span()).unwrap_or_default();
        let pts = coords::points_of(&node, "L", size);
        let mut labels: Vec<(String, String)> = node
            .values("LB")
            .filter_map(|v| v.composed().map(|(a, b)| (a.into_owned(), b.into_owned())))
            .collect();
        let mut labelled: std::collections::HashSet<String> =
            labels.iter().map(|(a, _)| a.clone()).collect();
        // `L[rb:b]`: a point with its own text (a label as LB writes it,
        // as some Chinese programs write L) keeps that text.
        for v in node.values("L") {
            if let Some((a, b)) = v.composed()
                && sgf_core::value::parse_point(b.trim().as_bytes()).is_none()
                && let Ok((p, _)) = coords::parse_point(a.as_bytes(), size)
                && size.contains(p)
                && labelled.insert(p.to_string())
            {
                labels.push((p.to_string(), b.into_owned()));
            }
        }
        // L[aa][bb] labels its points A, B, C… in order (the FF[1] meaning).
        for (i, p) in pts.iter().enumerate() {
            if labelled.insert(p.to_string()) {
                labels.push((p.to_string(), label_name(i)));
            }
        }
        // A value that became no label (`L[a:one]`: no point; a point
        // labelled already with other text) keeps its wording.
        let unkept: Vec<String> = node
            .values("L")
            .filter(|v| match v.composed() {
                Some((a, b)) if sgf_core::value::parse_point(b.trim().as_bytes()).is_none() => {
                    !coords::parse_point(a.as_bytes(), size).is_ok_and(|(p, _)| {
                        labels
                            .iter()
                            .any(|(q, t)| *q == p.to_string() && *t == b.as_ref())
                    })
                }
                // A rectangle `aa:cc`: both corners on the board.
                Some((a, b)) => ![a, b].iter().all(|c| {
                    coords::parse_point(c.trim().as_bytes(), size)
                        .is_ok_and(|(p, _)| size.contains(p))
                }),
                None => !coords::parse_point(v.raw(), size).is_ok_and(|(p, _)| size.contains(p)),
            })
            .map(|v| v.decoded().trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        let pairs: Vec<(&str, &str)> = labels
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        if pairs.is_empty() || f.doc.set_composed(n, "LB", &pairs).is_ok() {
            if !unkept.is_empty() {
                f.keep(n, "L", &unkept.join(", "), None);
            }
            f.doc.remove_property(n, "L");
            f.note(
                Code::LegacyProperty,
                span,
                "L (FF[1] letters) converted to LB labels A, B, C…",
            );
        }
    }
    if m {
        // M on a stone becomes a triangle, on an empty point a cross (the
        // conversion the FF[4] documents give): the board at the node decides.
        let cursor = cursor.get_or_insert_with(|| Cursor::new(f.doc, gi));
        cursor.goto(f.doc, n);
        let board = &cursor.position().board;
        let node = f.doc.node(n);
        let span = node.get("M").map(|p| p.span()).unwrap_or_default();
        let mut ma = coords::points_of(&node, "MA", size);
        let mut tr = coords::points_of(&node, "TR", size);
        // What each list holds, looked up in constant time.
        let mut in_ma: std::collections::HashSet<Point> = ma.iter().copied().collect();
        let mut in_tr: std::collections::HashSet<Point> = tr.iter().copied().collect();
        let (mut to_ma, mut to_tr) = (0, 0);
        for p in coords::each_point(&node, "M", size) {
            let (list, set, count) = if board.get(p) == Stone::Empty {
                (&mut ma, &mut in_ma, &mut to_ma)
            } else {
                (&mut tr, &mut in_tr, &mut to_tr)
            };
            if set.insert(p) {
                list.push(p);
            }
            *count += 1;
        }
        for (id, pts, count) in [("MA", &ma, to_ma), ("TR", &tr, to_tr)] {
            if count > 0 {
                let raws: Vec<String> = pts.iter().map(|p| p.to_string()).collect();
                f.set_raws(n, id, &raws);
            }
        }
        f.doc.remove_property(n, "M");
        let msg = match (to_ma, to_tr) {
            (_, 0) => "M (FF[1] marks) converted to MA".to_string(),
            (0, _) => "M (FF[1] marks on stones) converted to TR".to_string(),
            (a, t) => {
                format!("M (FF[1] marks) converted: {a} on empty points to MA, {t} on stones to TR")
            }
        };
        f.note(Code::LegacyProperty, span, msg);
    }
    if ki {
        let node = f.doc.node(n);
        let span = node.get("KI").map(|p| p.span()).unwrap_or_default();
        let ki = node.value("KI").and_then(|v| v.number());
        // Its wording as written (`KI[05]`, every value), not the number read.
        let said = super::wording(f.doc, n, "KI");
        match (ki, node.has("KM")) {
            (Some(k), false) => {
                let km = fmt_real(k as f64 / 2.0);
                // `KI[11]` is `KM[5.5]` exactly: only other wording is kept.
                if said != k.to_string() {
                    f.keep(n, "KI", &said, None);
                }
                f.set_raws(n, "KM", std::slice::from_ref(&km));
                f.doc.remove_property(n, "KI");
                f.note(
                    Code::LegacyProperty,
                    span,
                    format!("KI[{k}] (integer komi ×2) converted to KM[{km}]"),
                );
            }
            (Some(k), true) => {
                let same = node.value("KM").and_then(|v| v.real()) == Some(k as f64 / 2.0)
                    && said == k.to_string();
                if !same {
                    f.keep(n, "KI", &said, None);
                }
                f.doc.remove_property(n, "KI");
                f.note(Code::LegacyProperty, span, "KI deleted: KM is present");
            }
            _ => {}
        }
    }
}

/// The label of the `i`-th point of a legacy `L`: A…Z, AA…ZZ, AAA… (as
/// spreadsheet columns: a 52×52 board's 2,704 points need three letters).
pub(super) fn label_name(i: usize) -> String {
    let mut n = i + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `DT` and `RE` in their FF[4] forms: rewritten from their wording when it
/// can be read (the wording kept in `GC` when it says more), else left as
/// they are.
pub(super) fn game_info(f: &mut Fixer<'_>, nodes: &[NodeId]) {
    for &n in nodes {
        for (ident, code) in [("DT", Code::BadDate), ("RE", Code::BadResult)] {
            let Some((_, text, span)) = f.values(n, ident).into_iter().next() else {
                continue;
            };
            let strict_ok = if ident == "DT" {
                info::parse_dates(&text).is_some()
            } else {
                info::parse_result(&text).is_some()
            };
            if strict_ok {
                continue;
            }
            let read = if ident == "DT" {
                values::read_date(&text)
            } else {
                values::read_result(&text).map(|r| r.to_string())
            };
            // Not understood: left as it is, for the check of the output
            // to report.
            if let Some(c) = read {
                f.keep(n, ident, &text, Some(&c));
                f.set_texts(n, ident, std::slice::from_ref(&c));
                f.note_value(
                    code,
                    span,
                    format!("{ident}[{text}] corrected to {ident}[{c}]"),
                    format!("{ident}[{text}]"),
                    format!("{ident}[{c}]"),
                );
            }
        }
    }
}

/// White space around a number, colour or date, or inside a point, is
/// removed (`PL[ W]`, `B[ aa]`, `DT[2020-12-31 ]`): `V027`.
fn trim_whitespace(f: &mut Fixer<'_>, n: NodeId, ident: &str, info: &sgf_core::PropInfo, go: bool) {
    use sgf_core::validate::{NoWhitespace, no_whitespace};
    // A value of the legacy `L` may be a label (`L[rb:a b]`, as LB writes
    // one): its text keeps its white space; only its point is squeezed.
    let label = |raw: &str| -> Option<String> {
        let (pt, text) = raw.split_once(':')?;
        let tail: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let is_point = tail.len() == 2 && tail.bytes().all(|b| b.is_ascii_alphabetic());
        (ident == "L" && !is_point).then(|| {
            let p: String = pt.chars().filter(|c| !c.is_whitespace()).collect();
            format!("{p}:{text}")
        })
    };
    let squeeze = match no_whitespace(info) {
        Some(NoWhitespace::AtEdges) => false,
        // Points and moves of another game are that game's text
        // (`B[weird move]` in GM[12]): nothing of them is rewritten.
        Some(NoWhitespace::Anywhere) if !go => return,
        Some(NoWhitespace::Anywhere) => true,
        None => return,
    };
    let vals = f.values(n, ident);
    let is_ws = |c: char| c.is_ascii() && sgf_core::lexer::is_ws(c as u8);
    let fixed: Vec<String> = vals
        .iter()
        .map(|(raw, _, _)| {
            if let Some(l) = label(raw) {
                l
            } else if squeeze {
                raw.chars().filter(|&c| !is_ws(c)).collect()
            } else {
                raw.trim_matches(is_ws).to_string()
            }
        })
        .collect();
    if fixed.iter().zip(&vals).any(|(a, (b, _, _))| a != b) {
        let before: Vec<&str> = vals.iter().map(|v| v.0.as_str()).collect();
        f.set_raws(n, ident, &fixed);
        f.note_value(
            Code::ValueWhitespace,
            vals[0].2,
            format!("white space removed from {ident}"),
            format!("{ident}[{}]", before.join("][")),
            format!("{ident}[{}]", fixed.join("][")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::label_name;

    /// Fuzz (`fix`, `testdata/fuzz/fix-24.sgf`): a legacy `L` of more than
    /// 702 points (52×52 rectangles) ran out of two-letter names and panicked.
    #[test]
    fn legacy_labels_go_on_past_two_letters() {
        let names: Vec<String> = [0, 25, 26, 27, 701, 702, 703, 2703]
            .into_iter()
            .map(label_name)
            .collect();
        assert_eq!(names, ["A", "Z", "AA", "AB", "ZZ", "AAA", "AAB", "CYZ"]);
    }
}
