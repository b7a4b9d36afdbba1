//! Repairs: what `qipu check --fix` does to a document before writing it in
//! the canonical FF[4] UTF-8 form. Every change is reported; nothing is
//! dropped that carries information: game-info values that cannot be
//! corrected move to `GC`.

use sgf_core::validate::{ff_version, game_type};
use sgf_core::{Code, Document, NodeId, Point, PropKind, Span, ValueType, text};

use crate::Stone;
use crate::check;
use crate::coords::{self, BoardSize, CoordIssue};
use crate::info;
use crate::replay::{Cursor, Event, pl_color};
use crate::values::{self, fmt_real};

/// One change made by [`repair`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The diagnostic code of the problem repaired.
    pub code: Code,
    /// What was done.
    pub message: String,
    /// Where, in the input (empty when the place was created by an earlier change).
    pub span: Span,
}

struct Fixer<'a> {
    doc: &'a mut Document,
    changes: Vec<Change>,
}

impl Fixer<'_> {
    fn note(&mut self, code: Code, span: Span, message: impl Into<String>) {
        self.changes.push(Change {
            code,
            message: message.into(),
            span,
        });
    }

    /// Values of a property as (raw UTF-8 content with escapes, decoded text, span).
    fn values(&self, n: NodeId, ident: &str) -> Vec<(String, String, Span)> {
        self.doc
            .node(n)
            .values(ident)
            .map(|v| {
                let raw = String::from_utf8_lossy(v.raw()).into_owned();
                (raw, v.decoded().into_owned(), v.span())
            })
            .collect()
    }

    /// Sets a property from decoded texts (escaped here); removes it when empty.
    fn set_texts(&mut self, n: NodeId, ident: &str, texts: &[String]) {
        if texts.is_empty() {
            self.doc.remove_property(n, ident);
        } else {
            let raws: Vec<String> = texts.iter().map(|t| text::escape(t, false)).collect();
            // Text that the game's charset cannot hold is set in the canonical
            // UTF-8 form instead, which is what --fix writes anyway.
            if self.doc.set_raw(n, ident, &raws).is_err() {
                let _ = self.doc.set_raw(n, ident, &raws);
            }
        }
    }

    fn set_raws(&mut self, n: NodeId, ident: &str, raws: &[String]) {
        if raws.is_empty() {
            self.doc.remove_property(n, ident);
        } else {
            let _ = self.doc.set_raw(n, ident, raws);
        }
    }

    /// Appends a line to the game comment of `n`, keeping what cannot be corrected.
    fn keep_in_gc(&mut self, n: NodeId, line: &str) {
        let old = self
            .doc
            .node(n)
            .value("GC")
            .map(|v| v.decoded().into_owned());
        let new = match old {
            Some(o) if !o.is_empty() => format!("{o}\n{line}"),
            _ => line.to_string(),
        };
        self.set_texts(n, "GC", &[new]);
    }
}

/// Repairs beyond the default ones, which guess at the author's intent (as
/// SGFC's options do).
#[derive(Clone, Copy, Debug, Default)]
pub struct RepairOptions {
    /// Move variations written one level too deep up (`G008`, SGFC's `-v`).
    pub variation_level: bool,
}

/// Repairs `doc` in place and returns every change made.
pub fn repair(doc: &mut Document) -> Vec<Change> {
    repair_with(doc, &RepairOptions::default())
}

/// Repairs `doc` in place with the optional repairs of `opts`.
pub fn repair_with(doc: &mut Document, opts: &RepairOptions) -> Vec<Change> {
    let mut changes = Vec::new();
    if opts.variation_level {
        changes.extend(variation_levels(doc));
    }
    changes.extend(repair_rules(doc));
    changes
}

/// Moves each variation found by [`check::misplaced_variations`] up one
/// level, right after the move it is an alternative to (in file order).
fn variation_levels(doc: &mut Document) -> Vec<Change> {
    let mut changes = Vec::new();
    for gi in 0..doc.game_count() {
        let found = check::misplaced_variations(doc, gi);
        let mut k = 0;
        let mut last: Option<NodeId> = None;
        for (n, v) in found {
            k = if last == Some(n) { k + 1 } else { 0 };
            last = Some(n);
            let node = doc.node(n);
            let Some(parent) = node.parent().map(|p| p.id()) else {
                continue;
            };
            let at = doc
                .node(parent)
                .children()
                .position(|c| c.id() == n)
                .unwrap_or(0);
            let var = doc.node(v);
            let ident = if var.has("B") { "B" } else { "W" };
            let span = var.get(ident).map_or_else(|| var.span(), |p| p.span());
            let mv = var
                .value(ident)
                .map(|x| x.raw().to_vec())
                .unwrap_or_default();
            let before = node
                .value(ident)
                .map(|x| x.raw().to_vec())
                .unwrap_or_default();
            if doc.move_subtree(v, parent, Some(at + 1 + k)).is_ok() {
                changes.push(Change {
                    code: Code::VariationLevel,
                    message: format!(
                        "variation {ident}[{}] moved up: now an alternative to {ident}[{}]",
                        String::from_utf8_lossy(&mv),
                        String::from_utf8_lossy(&before)
                    ),
                    span,
                });
            }
        }
    }
    changes
}

fn repair_rules(doc: &mut Document) -> Vec<Change> {
    let mut f = Fixer {
        doc,
        changes: Vec::new(),
    };
    for gi in 0..f.doc.game_count() {
        let go = game_type(f.doc, gi) == 1;
        let ff = ff_version(f.doc, gi);
        let size = f
            .doc
            .game(gi)
            .map(|g| coords::board_size(&g.root()).0)
            .unwrap_or_default();
        let nodes: Vec<NodeId> = f
            .doc
            .game(gi)
            .map(|g| g.nodes().map(|n| n.id()).collect())
            .unwrap_or_default();
        root_values(&mut f, nodes[0], size);
        // One cursor for the game, made when a node needs the board: nodes
        // come in pre-order, so each step from the last one is short.
        let mut cursor = None;
        for &n in &nodes {
            node_values(&mut f, n, size, go, ff);
            legacy(&mut f, gi, n, size, ff, &mut cursor);
            if go {
                points(&mut f, n, size);
            }
        }
        game_info(&mut f, &nodes);
        for &n in &nodes {
            node_rules(&mut f, n, nodes[0]);
            cleanup(&mut f, n);
        }
        if go {
            setup_without_effect(&mut f, gi);
        }
    }
    f.changes
}

/// `SZ`, `GM`, `ST`, `FF` values.
fn root_values(f: &mut Fixer<'_>, root: NodeId, size: BoardSize) {
    if let Some((raw, _, span)) = f.values(root, "SZ").into_iter().next() {
        let (_, issue) = coords::parse_size(raw.as_bytes(), span);
        if issue.is_some() {
            let new = if size.cols == size.rows {
                size.cols.to_string()
            } else {
                format!("{}:{}", size.cols, size.rows)
            };
            f.set_raws(root, "SZ", std::slice::from_ref(&new));
            f.note(
                Code::SquareSizeComposed,
                span,
                format!("SZ[{raw}] written as SZ[{new}]"),
            );
        }
    }
    if let Some((raw, _, span)) = f.values(root, "GM").into_iter().next()
        && sgf_core::value::parse_number(raw.as_bytes()).is_none()
    {
        f.set_raws(root, "GM", &["1".into()]);
        f.note(
            Code::InvalidNumber,
            span,
            format!("GM[{raw}] is not a number; GM[1] (Go) assumed"),
        );
    }
    if let Some((raw, _, span)) = f.values(root, "ST").into_iter().next()
        && !sgf_core::value::parse_number(raw.as_bytes()).is_some_and(|n| (0..=3).contains(&n))
    {
        f.doc.remove_property(root, "ST");
        f.note(Code::OutOfRange, span, format!("ST[{raw}] deleted (0–3)"));
    }
}

/// Each value against its type, for every known property of a node.
fn node_values(f: &mut Fixer<'_>, n: NodeId, size: BoardSize, go: bool, ff: i64) {
    let props: Vec<(String, Option<&'static sgf_core::PropInfo>)> = {
        let node = f.doc.node(n);
        let mut seen: Vec<String> = Vec::new();
        node.props()
            .filter_map(|p| {
                let id = p.ident().to_string();
                if seen.contains(&id) {
                    return None;
                }
                seen.push(id.clone());
                Some((id, p.info()))
            })
            .collect()
    };
    let game_info_node = props
        .iter()
        .any(|(_, i)| i.is_some_and(|i| i.kind == PropKind::GameInfo));
    let _ = game_info_node;
    for (ident, info) in props {
        let Some(info) = info else { continue };
        let vals = f.values(n, &ident);
        let is_gi = info.kind == PropKind::GameInfo;
        let span0 = vals.first().map(|v| v.2).unwrap_or_default();
        match info.value {
            ValueType::None
                if (vals.iter().any(|(r, _, _)| !r.trim().is_empty()) || vals.len() > 1) =>
            {
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
                if !ok {
                    fixed = match info.value {
                        ValueType::Number => values::read_number(&text).map(|v| v.to_string()),
                        ValueType::Real if ident == "TM" => {
                            values::read_seconds(&text).map(fmt_real)
                        }
                        ValueType::Real if ident == "KM" => values::read_komi(&text).map(fmt_real),
                        ValueType::Real => values::read_real(&text).map(fmt_real),
                        ValueType::Double => Some(
                            if values::read_number(&text).is_some_and(|v| v >= 2) {
                                "2"
                            } else {
                                "1"
                            }
                            .into(),
                        ),
                        _ => pl_color(text.as_bytes())
                            .or_else(|| {
                                pl_color(
                                    text.trim()
                                        .split(|c: char| !c.is_alphanumeric())
                                        .next()
                                        .unwrap_or("")
                                        .as_bytes(),
                                )
                            })
                            .or_else(|| {
                                pl_color(&text.trim().as_bytes()[..text.trim().len().min(1)])
                            })
                            .map(|c| c.as_str().to_string()),
                    };
                }
                match fixed {
                    Some(v) => {
                        f.set_raws(n, &ident, std::slice::from_ref(&v));
                        let code = match info.value {
                            ValueType::Number => Code::InvalidNumber,
                            ValueType::Real if ident == "TM" => Code::BadTime,
                            ValueType::Real => Code::InvalidReal,
                            ValueType::Double => Code::InvalidDouble,
                            _ => Code::InvalidColor,
                        };
                        f.note(
                            code,
                            span,
                            format!("{ident}[{raw}] corrected to {ident}[{v}]"),
                        );
                    }
                    None if ok => {
                        // Only extra values.
                        f.set_raws(n, &ident, std::slice::from_ref(&raw));
                        f.note(
                            Code::TooManyValues,
                            span,
                            format!("{ident}: extra values deleted, kept [{raw}]"),
                        );
                    }
                    None => {
                        f.doc.remove_property(n, &ident);
                        if is_gi {
                            f.keep_in_gc(n, &format!("{ident}: {text}"));
                            f.note(
                                Code::InvalidNumber,
                                span,
                                format!("{ident}[{raw}] cannot be corrected: moved to GC"),
                            );
                        } else {
                            f.note(
                                Code::InvalidNumber,
                                span,
                                format!("{ident}[{raw}] cannot be corrected: deleted"),
                            );
                        }
                    }
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
                    f.set_raws(n, &ident, std::slice::from_ref(&fixed));
                    f.note(
                        Code::ComposedExpected,
                        span,
                        format!("{ident}[{raw}] written as {ident}[{fixed}]"),
                    );
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
        let _ = size;
    }
}

/// FF[1]–FF[3] properties with an FF[4] form: `L` → `LB`, `M` → `MA`, `KI` → `KM`.
fn legacy(
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
        // L[aa][bb] labels its points A, B, C… in order (the FF[1] meaning).
        for (i, p) in pts.iter().enumerate() {
            let name = label_name(i);
            if !labels.iter().any(|(a, _)| *a == p.to_string()) {
                labels.push((p.to_string(), name));
            }
        }
        let pairs: Vec<(&str, &str)> = labels
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        if pairs.is_empty() || f.doc.set_composed(n, "LB", &pairs).is_ok() {
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
        let (mut to_ma, mut to_tr) = (0, 0);
        for p in coords::points_of(&node, "M", size) {
            let (list, count) = if board.get(p) == Stone::Empty {
                (&mut ma, &mut to_ma)
            } else {
                (&mut tr, &mut to_tr)
            };
            if !list.contains(&p) {
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
        match (ki, node.has("KM")) {
            (Some(k), false) => {
                let km = fmt_real(k as f64 / 2.0);
                f.set_raws(n, "KM", std::slice::from_ref(&km));
                f.doc.remove_property(n, "KI");
                f.note(
                    Code::LegacyProperty,
                    span,
                    format!("KI[{k}] (integer komi ×2) converted to KM[{km}]"),
                );
            }
            (Some(_), true) => {
                f.doc.remove_property(n, "KI");
                f.note(Code::LegacyProperty, span, "KI deleted: KM is present");
            }
            _ => {}
        }
    }
}

fn label_name(i: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if i < 26 {
        (letters[i] as char).to_string()
    } else {
        format!("{}{}", letters[i / 26 - 1] as char, letters[i % 26] as char)
    }
}

/// Moves, point lists, lines and labels: on the board, in FF[4] form, unique.
fn points(f: &mut Fixer<'_>, n: NodeId, size: BoardSize) {
    for id in ["B", "W"] {
        let vals = f.values(n, id);
        if vals.is_empty() {
            continue;
        }
        let (raw, _, span) = vals[0].clone();
        let squeezed: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        let pm = coords::parse_move(squeezed.as_bytes(), size);
        let new = match (pm.mv, pm.issue) {
            (Some(crate::Move::Pass), _) => Some(String::new()),
            (Some(crate::Move::Play(p)), _) => Some(p.to_string()),
            (None, _) => None,
        };
        match new {
            Some(v) if v != raw || vals.len() > 1 => {
                f.set_raws(n, id, std::slice::from_ref(&v));
                if v != raw {
                    let code = match pm.issue {
                        Some(CoordIssue::TtPass) => Code::PassAsTt,
                        Some(CoordIssue::Uppercase) => Code::UppercaseCoordinate,
                        _ => Code::InvalidPoint,
                    };
                    f.note(code, span, format!("{id}[{raw}] written as {id}[{v}]"));
                }
                if vals.len() > 1 {
                    f.note(
                        Code::TooManyValues,
                        span,
                        format!("{id}: only one move per node; extra values deleted, kept [{v}]"),
                    );
                }
            }
            Some(_) => {}
            None if pm.issue == Some(CoordIssue::AmbiguousPass) => {}
            None => {
                f.doc.remove_property(n, id);
                let code = if pm.issue == Some(CoordIssue::OutsideBoard) {
                    Code::PointOutsideBoard
                } else {
                    Code::InvalidPoint
                };
                f.note(
                    code,
                    span,
                    format!("{id}[{raw}] is not a point on the {size} board: deleted"),
                );
            }
        }
    }
    // Setup and shape markup: expand, drop bad points, first occurrence wins.
    for group in [&["AB", "AW", "AE"][..], &["CR", "MA", "SL", "SQ", "TR"][..]] {
        let mut seen: std::collections::HashSet<Point> = std::collections::HashSet::new();
        // In file order: the first occurrence of a point wins.
        let mut order: Vec<String> = Vec::new();
        for p in f.doc.node(n).props() {
            if group.contains(&p.ident()) && !order.iter().any(|o| o == p.ident()) {
                order.push(p.ident().to_string());
            }
        }
        for id in &order {
            let id = id.as_str();
            let node = f.doc.node(n);
            let raws: Vec<String> = node
                .values(id)
                .map(|v| String::from_utf8_lossy(v.raw()).into_owned())
                .collect();
            let entries = coords::point_list(node.values(id), size);
            let mut pts = Vec::new();
            let mut changed = raws.iter().any(|r| r.trim().is_empty());
            let mut notes = Vec::new();
            if changed {
                notes.push((
                    Code::EmptyValue,
                    node.get(id).map(|p| p.span()).unwrap_or_default(),
                    format!("empty {id} value deleted"),
                ));
            }
            for e in &entries {
                if e.issue.is_some_and(|i| i != CoordIssue::Uppercase) {
                    notes.push((
                        if e.issue == Some(CoordIssue::OutsideBoard) {
                            Code::PointOutsideBoard
                        } else {
                            Code::InvalidPoint
                        },
                        e.span,
                        format!("{id}: points off the board or unreadable deleted"),
                    ));
                    changed = true;
                }
                if e.issue == Some(CoordIssue::Uppercase) || e.reversed {
                    changed = true;
                    notes.push((
                        if e.reversed {
                            Code::ReversedRectangle
                        } else {
                            Code::UppercaseCoordinate
                        },
                        e.span,
                        format!("{id}: rectangle or coordinates rewritten"),
                    ));
                }
                for &p in &e.points {
                    if seen.insert(p) {
                        pts.push(p);
                    } else {
                        changed = true;
                        let code = if e.points.len() > 1 || raws.iter().any(|r| r.contains(':')) {
                            Code::OverlappingRectangle
                        } else {
                            Code::DuplicatePoint
                        };
                        notes.push((
                            code,
                            e.span,
                            format!("{id}: point {p} given twice; the later one deleted"),
                        ));
                    }
                }
            }
            if changed {
                // Lists written compressed stay compressed.
                let raws: Vec<String> = if raws.iter().any(|r| r.contains(':')) {
                    sgf_core::value::compress_points(&pts)
                        .into_iter()
                        .map(|(a, b)| {
                            if a == b {
                                a.to_string()
                            } else {
                                format!("{a}:{b}")
                            }
                        })
                        .collect()
                } else {
                    pts.iter().map(|p| p.to_string()).collect()
                };
                f.set_raws(n, id, &raws);
                for (c, s, m) in notes {
                    f.note(c, s, m);
                }
            }
        }
    }
    for id in ["DD", "VW", "TB", "TW"] {
        let node = f.doc.node(n);
        if !node.has(id) {
            continue;
        }
        let entries = coords::point_list(node.values(id), size);
        let stray_empty = node.values(id).count() > 1 && node.values(id).any(|v| v.is_empty());
        if stray_empty || entries.iter().any(|e| e.issue.is_some() || e.reversed) {
            let mut pts: Vec<Point> = entries.iter().flat_map(|e| e.points.clone()).collect();
            let mut seen = std::collections::HashSet::new();
            pts.retain(|p| seen.insert(*p));
            let raws: Vec<String> = if pts.is_empty() {
                vec![String::new()]
            } else {
                pts.iter().map(|p| p.to_string()).collect()
            };
            f.set_raws(n, id, &raws);
            let span = f.doc.node(n).get(id).map(|p| p.span()).unwrap_or_default();
            f.note(
                Code::PointOutsideBoard,
                span,
                format!("{id}: empty or bad points deleted"),
            );
        }
    }
    for id in ["AR", "LN"] {
        let node = f.doc.node(n);
        if !node.has(id) {
            continue;
        }
        let mut keep: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut dropped = Vec::new();
        for v in node.values(id) {
            let ok = v.composed_raw().and_then(|(a, b)| {
                let a: String = String::from_utf8_lossy(a)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let b: String = String::from_utf8_lossy(b)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let pa = coords::parse_point(a.as_bytes(), size).ok()?.0;
                let pb = coords::parse_point(b.as_bytes(), size).ok()?.0;
                (pa != pb && seen.insert((pa, pb))).then(|| format!("{pa}:{pb}"))
            });
            match ok {
                Some(s) => keep.push(s),
                None => dropped.push((v.span(), String::from_utf8_lossy(v.raw()).into_owned())),
            }
        }
        let rewritten = node
            .values(id)
            .map(|v| String::from_utf8_lossy(v.raw()).into_owned())
            .collect::<Vec<_>>()
            != keep;
        if rewritten {
            f.set_raws(n, id, &keep);
            for (span, raw) in dropped {
                f.note(
                    Code::BadLine,
                    span,
                    format!("{id}[{raw}] deleted (repeated, to itself or off the board)"),
                );
            }
        }
    }
    let node = f.doc.node(n);
    if node.has("LB") {
        let mut keep: Vec<(String, String)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut notes = Vec::new();
        let mut changed = false;
        for v in node.values("LB") {
            let Some((a, b)) = v.composed() else { continue };
            let squeezed: String = a.chars().filter(|c| !c.is_whitespace()).collect();
            match coords::parse_point(squeezed.as_bytes(), size) {
                Ok((p, _)) if seen.insert(p) => {
                    changed |= squeezed != a || p.to_string() != squeezed;
                    keep.push((p.to_string(), b.into_owned()));
                }
                Ok((p, _)) => {
                    changed = true;
                    notes.push((
                        Code::DuplicateLabel,
                        v.span(),
                        format!("second label on {p} deleted"),
                    ));
                }
                Err(_) => {
                    changed = true;
                    notes.push((
                        Code::PointOutsideBoard,
                        v.span(),
                        format!("label on `{a}` deleted (not on the board)"),
                    ));
                }
            }
        }
        if changed {
            let pairs: Vec<(&str, &str)> =
                keep.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            if pairs.is_empty() {
                f.doc.remove_property(n, "LB");
            } else if f.doc.set_composed(n, "LB", &pairs).is_err() {
                return;
            }
            for (c, s, m) in notes {
                f.note(c, s, m);
            }
        }
    }
}

/// `DT`, `RE`, `KM` corrected, or kept in `GC`; game info of a second
/// game-info node moved up or kept in `GC`.
fn game_info(f: &mut Fixer<'_>, nodes: &[NodeId]) {
    for &n in nodes {
        if let Some((_, text, span)) = f.values(n, "DT").into_iter().next() {
            let t = text.trim().to_string();
            if info::parse_dates(&t).is_none() {
                match values::read_date(&t) {
                    Some(c) => {
                        f.set_texts(n, "DT", std::slice::from_ref(&c));
                        // Words may say more than the date: keep them.
                        if t.chars().any(|ch| ch.is_alphabetic()) {
                            f.keep_in_gc(n, &format!("Date as written: {t}"));
                            f.note(
                                Code::BadDate,
                                span,
                                format!("DT[{t}] corrected to DT[{c}]; the original kept in GC"),
                            );
                        } else {
                            f.note(Code::BadDate, span, format!("DT[{t}] corrected to DT[{c}]"));
                        }
                    }
                    None => {
                        f.doc.remove_property(n, "DT");
                        f.keep_in_gc(n, &format!("Date: {t}"));
                        f.note(
                            Code::BadDate,
                            span,
                            format!("DT[{t}] cannot be read as a date: moved to GC"),
                        );
                    }
                }
            }
        }
        if let Some((_, text, span)) = f.values(n, "RE").into_iter().next() {
            let t = text.trim().to_string();
            if info::parse_result(&t).is_none() {
                match values::read_result(&t).map(|r| r.to_string()) {
                    Some(c) => {
                        f.set_texts(n, "RE", std::slice::from_ref(&c));
                        if t.chars()
                            .any(|ch| ch.is_alphabetic() && !"BWRTFbwrtf".contains(ch))
                        {
                            f.keep_in_gc(n, &format!("Result as written: {t}"));
                            f.note(
                                Code::BadResult,
                                span,
                                format!("RE[{t}] corrected to RE[{c}]; the original kept in GC"),
                            );
                        } else {
                            f.note(
                                Code::BadResult,
                                span,
                                format!("RE[{t}] corrected to RE[{c}]"),
                            );
                        }
                    }
                    None => {
                        f.doc.remove_property(n, "RE");
                        f.keep_in_gc(n, &format!("Result: {t}"));
                        f.note(
                            Code::BadResult,
                            span,
                            format!("RE[{t}] is not an FF[4] result: moved to GC"),
                        );
                    }
                }
            }
        }
    }
}

/// Placement rules: root properties, second game-info nodes, annotations,
/// `B`+`W` and move+setup nodes split.
fn node_rules(f: &mut Fixer<'_>, n: NodeId, root: NodeId) {
    let node = f.doc.node(n);
    let is_root = node.parent().is_none();
    // Root properties outside the root.
    if !is_root {
        let misplaced: Vec<(String, Span)> = node
            .props()
            .filter(|p| p.info().is_some_and(|i| i.kind == PropKind::Root))
            .map(|p| (p.ident().to_string(), p.span()))
            .collect();
        for (id, span) in misplaced {
            f.doc.remove_property(n, &id);
            f.note(
                Code::RootPropertyOutsideRoot,
                span,
                format!("root property {id} outside the root deleted"),
            );
        }
    }
    // Game info below a game-info node: up into it, or into its GC.
    let node = f.doc.node(n);
    let gi_here: Vec<(String, Span)> = node
        .props()
        .filter(|p| p.info().is_some_and(|i| i.kind == PropKind::GameInfo))
        .map(|p| (p.ident().to_string(), p.span()))
        .collect();
    if !gi_here.is_empty() {
        let mut up = node.parent();
        let mut first_gi = None;
        while let Some(a) = up {
            if a.props()
                .any(|p| p.info().is_some_and(|i| i.kind == PropKind::GameInfo))
            {
                first_gi = Some(a.id());
            }
            up = a.parent();
        }
        if let Some(target) = first_gi {
            for (id, span) in gi_here {
                if !f.doc.node(target).has(&id) {
                    f.doc.move_property(n, target, &id);
                    f.note(
                        Code::SecondGameInfo,
                        span,
                        format!("{id} moved to the game-info node above"),
                    );
                } else {
                    let texts: Vec<String> = f
                        .doc
                        .node(n)
                        .values(&id)
                        .map(|v| v.decoded().into_owned())
                        .collect();
                    f.doc.remove_property(n, &id);
                    f.keep_in_gc(
                        target,
                        &format!("{id} (later in the game): {}", texts.join(", ")),
                    );
                    f.note(
                        Code::SecondGameInfo,
                        span,
                        format!("{id} of a second game-info node kept in GC"),
                    );
                }
            }
        }
    }
    let _ = root;
    let node = f.doc.node(n);
    let has_move = node.has("B") || node.has("W");
    // Annotations that need a move.
    if !has_move {
        for id in ["KO", "BM", "DO", "IT", "TE"] {
            if let Some(span) = f.doc.node(n).get(id).map(|p| p.span()) {
                f.doc.remove_property(n, id);
                f.note(
                    Code::AnnotationWithoutMove,
                    span,
                    format!("{id} without a move deleted"),
                );
            }
        }
    }
    // Exclusive annotations.
    let node = f.doc.node(n);
    if node.has("TE") && node.has("BM") {
        let span = node.get("BM").map(|p| p.span()).unwrap_or_default();
        f.doc.remove_property(n, "TE");
        f.doc.remove_property(n, "BM");
        if !f.doc.node(n).has("IT") && !f.doc.node(n).has("DO") {
            let _ = f.doc.set_raw(n, "IT", &[String::new()]);
        }
        f.note(
            Code::ExclusiveMoveAnnotations,
            span,
            "TE and BM together: written as IT (interesting)",
        );
    }
    for group in [["BM", "DO", "IT", "TE"], ["DM", "GB", "GW", "UC"]] {
        let node = f.doc.node(n);
        let present: Vec<(String, Span)> = node
            .props()
            .filter(|p| group.contains(&p.ident()))
            .map(|p| (p.ident().to_string(), p.span()))
            .collect();
        let mut kept: Option<String> = None;
        for (id, span) in present {
            match &kept {
                None => kept = Some(id),
                Some(k) if *k == id => {}
                Some(k) => {
                    f.doc.remove_property(n, &id);
                    let code = if group[0] == "BM" {
                        Code::ExclusiveMoveAnnotations
                    } else {
                        Code::ExclusivePositionAnnotations
                    };
                    f.note(code, span, format!("{id} contradicts {k}: deleted"));
                }
            }
        }
    }
    // B and W in one node: W goes to a new node after it.
    let node = f.doc.node(n);
    if node.has("B") && node.has("W") {
        let span = node.get("W").map(|p| p.span()).unwrap_or_default();
        if let Ok(below) = f.doc.split_below(n) {
            f.doc.move_property(n, below, "W");
            f.note(
                Code::BlackAndWhite,
                span,
                "B and W in one node: W moved to a new node after it",
            );
        }
    }
    // Move and setup in one node: setup (and N, root and game info) first.
    let node = f.doc.node(n);
    let has_setup = node
        .props()
        .any(|p| p.info().is_some_and(|i| i.kind == PropKind::Setup));
    let has_move = node.has("B") || node.has("W");
    if has_setup && has_move {
        let span = node
            .get("B")
            .or_else(|| node.get("W"))
            .map(|p| p.span())
            .unwrap_or_default();
        let movers: Vec<String> = node
            .props()
            .filter(|p| {
                !matches!(
                    p.info().map(|i| i.kind),
                    Some(PropKind::Setup | PropKind::Root | PropKind::GameInfo)
                ) && p.ident() != "N"
            })
            .map(|p| p.ident().to_string())
            .collect();
        if let Ok(below) = f.doc.split_below(n) {
            let mut moved = Vec::new();
            for id in movers {
                if !moved.contains(&id) {
                    f.doc.move_property(n, below, &id);
                    moved.push(id);
                }
            }
            f.note(
                Code::MoveSetupMixed,
                span,
                "move and setup in one node: split, setup first",
            );
        }
    }
}

/// NUL bytes in text become spaces (as SGFC does); a move in the root moves
/// to a new node after it, the root keeping root, game-info and setup properties.
fn cleanup(f: &mut Fixer<'_>, n: NodeId) {
    let node = f.doc.node(n);
    let with_nul: Vec<(String, Vec<String>, Span)> = node
        .props()
        .filter(|p| p.value_type().is_text() && p.values().any(|v| v.raw().contains(&0)))
        .map(|p| {
            (
                p.ident().to_string(),
                p.values().map(|v| v.decoded().replace('\0', " ")).collect(),
                p.span(),
            )
        })
        .collect();
    for (id, vals, span) in with_nul {
        f.set_texts(n, &id, &vals);
        f.note(
            Code::NulByte,
            span,
            format!("NUL bytes in {id} replaced by spaces"),
        );
    }
    let node = f.doc.node(n);
    if node.parent().is_none() && (node.has("B") || node.has("W")) {
        let span = node
            .get("B")
            .or_else(|| node.get("W"))
            .map(|p| p.span())
            .unwrap_or_default();
        let movers: Vec<String> = node
            .props()
            .filter(|p| {
                !matches!(
                    p.info().map(|i| i.kind),
                    Some(PropKind::Root | PropKind::GameInfo | PropKind::Setup)
                )
            })
            .map(|p| p.ident().to_string())
            .collect();
        if node.props().any(|p| {
            matches!(
                p.info().map(|i| i.kind),
                Some(PropKind::Root | PropKind::GameInfo)
            )
        }) && let Ok(below) = f.doc.split_below(n)
        {
            let mut moved = Vec::new();
            for id in movers {
                if !moved.contains(&id) {
                    f.doc.move_property(n, below, &id);
                    moved.push(id);
                }
            }
            f.note(
                Code::MoveInRoot,
                span,
                "the move of the root moved to a new node after it",
            );
        }
    }
}

/// Setup stones that change nothing are deleted (the position stays the same).
fn setup_without_effect(f: &mut Fixer<'_>, gi: usize) {
    let doc = &*f.doc;
    let game = doc.game(gi).expect("in range");
    let size = coords::board_size(&game.root()).0;
    let mut found: Vec<(NodeId, &'static str, Point, Span)> = Vec::new();
    let mut cursor = Cursor::new(doc, gi);
    let mut stack: Vec<Option<NodeId>> = vec![game.root().first_child().map(|c| c.id())];
    let mut collect = |c: &Cursor| {
        for e in &c.report().events {
            if let Event::SetupNoEffect { point } = e.event {
                found.push((c.node(), e.ident, point, e.span));
            }
        }
    };
    collect(&cursor);
    while let Some(top) = stack.last_mut() {
        match *top {
            Some(child) => {
                *top = doc.node(child).next_sibling().map(|s| s.id());
                cursor.down(doc, child);
                collect(&cursor);
                stack.push(doc.node(child).first_child().map(|c| c.id()));
            }
            None => {
                stack.pop();
                cursor.up();
            }
        }
    }
    for (n, ident, p, span) in found {
        let pts: Vec<Point> = coords::points_of(&f.doc.node(n), ident, size)
            .into_iter()
            .filter(|&q| q != p)
            .collect();
        let raws: Vec<String> = pts.iter().map(|q| q.to_string()).collect();
        f.set_raws(n, ident, &raws);
        f.note(
            Code::SetupNoEffect,
            span,
            format!("{ident} at {p} changes nothing: deleted"),
        );
    }
}

/// Repairs a document and returns the canonical bytes, the changes, and the
/// diagnostics that remain when the output is checked again.
pub fn repair_to_canonical(
    doc: &mut Document,
    opts: &sgf_core::WriteOptions,
    repair_opts: &RepairOptions,
) -> (Vec<u8>, Vec<Change>, Vec<sgf_core::Diagnostic>) {
    let changes = repair_with(doc, repair_opts);
    let out = sgf_core::to_canonical_bytes(doc, opts);
    let re = sgf_core::parse(&out);
    let mut remaining = re.diagnostics;
    remaining.extend(check::check(&re.document));
    (out, changes, remaining)
}
