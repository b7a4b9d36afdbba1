//! The checks that need Go: board size, points on the board, unique points
//! in setup and markup, lines and labels, game-info formats (`DT`, `RE`,
//! `KM`), and playing every move of every variation.

use std::collections::HashMap;

use sgf_core::diag::Sink;
use sgf_core::validate::{ff_version, game_type};
use sgf_core::{Code, Diagnostic, Document, Node, NodeId, Point, Severity, Span};

use crate::coords::{self, BoardSize, CoordIssue, SizeIssue};
use crate::info;
use crate::replay::{Cursor, Event, Walk};

/// Every check of a document: the game-independent FF\[4\] rules
/// ([`sgf_core::validate::validate`]) and the Go ones.
pub fn check(doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_into(doc, &mut out);
    out
}

/// Every check of game `gi`: the games of a collection are independent,
/// so a caller may check them in parallel; [`check`] is
/// `validate_document` and this for every game.
pub fn check_game(doc: &Document, gi: usize) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_game_into(doc, gi, &mut out);
    out
}

/// [`check_game`] into `out`: a [`sgf_core::diag::Capped`] keeps only what
/// a report shows, for a game with a problem on every move.
pub fn check_game_into(doc: &Document, gi: usize, out: &mut dyn Sink) {
    for run in GAME_CHECKS {
        run(doc, gi, out);
    }
}

/// The checks of a game, in the order [`check_game_into`] runs them: the
/// FF\[4\] rules ([`sgf_core::validate::validate_game`]), then the Go ones.
/// Each finds its problems in the order of the file, or nearly (a node's
/// own before its properties'), so that a report can merge what each gives
/// as it comes instead of holding and sorting it all.
pub const GAME_CHECKS: [fn(&Document, usize, &mut dyn Sink); 2] =
    [sgf_core::validate::validate_game, check_go_game];

/// [`check`] into `out` (see [`check_game_into`]).
pub fn check_into(doc: &Document, out: &mut dyn Sink) {
    for d in sgf_core::validate::validate_document(doc) {
        out.push(d);
    }
    for gi in 0..doc.game_count() {
        check_game_into(doc, gi, out);
    }
}

/// The Go checks of every Go game of `doc`.
pub fn check_go(doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for gi in 0..doc.game_count() {
        check_go_game(doc, gi, &mut out);
    }
    out
}

/// The Go checks of game `gi` (none when it is not Go).
fn check_go_game(doc: &Document, gi: usize, out: &mut dyn Sink) {
    {
        if game_type(doc, gi) != 1 {
            return;
        }
        let ff = ff_version(doc, gi);
        let game = doc.game(gi).expect("in range");
        let root = game.root();
        let (size, issue) = coords::board_size(&root);
        if let Some((issue, span)) = issue.filter(|(i, _)| *i != SizeIssue::NoPoint) {
            out.push(match issue {
                SizeIssue::Invalid => Diagnostic::new(
                    Code::InvalidNumber,
                    span,
                    "`SZ` needs a number or `columns:rows`; 19×19 is assumed",
                ),
                SizeIssue::SquareComposed => Diagnostic::new(
                    Code::SquareSizeComposed,
                    span,
                    format!("a square board must be written `SZ[{}]`", size.cols),
                )
                .with_fix(format!("SZ[{}]", size.cols)),
                SizeIssue::OutOfRange | SizeIssue::NoPoint => Diagnostic::new(
                    Code::OutOfRange,
                    span,
                    format!("Go boards are 1×1 to 52×52; read as {size}"),
                ),
            });
        }
        if ff < 4
            && size.cols != size.rows
            && let Some(v) = root.value("SZ")
        {
            out.push(Diagnostic::new(
                Code::FeatureNotInVersion,
                v.span(),
                format!("a rectangular board in an FF[{ff}] file"),
            ));
        }
        check_game_info(doc, gi, out);
        play(doc, gi, size, ff, out);
        handicap(&root, size, out);
        undo_diagnostics(doc, gi, out);
        for (n, v) in misplaced_variations(doc, gi) {
            let (n, v) = (doc.node(n), doc.node(v));
            let ident = if v.has("B") { "B" } else { "W" };
            let span = v.get(ident).map_or_else(|| v.span(), |p| p.span());
            out.push(
                Diagnostic::new(
                    Code::VariationLevel,
                    span,
                    format!(
                        "this variation starts with {ident} right after {ident}'s move: probably an alternative to that move, one level too deep"
                    ),
                )
                .with_related(n.get(ident).map_or_else(|| n.span(), |p| p.span()), "the move it may be an alternative to")
                .with_fix("`check --fix --variation-level` moves it up"),
            );
        }
    }
}

/// The variations after a move that may undo it (SGFC's variation-level
/// question): at a move node that is its parent's only child (or the
/// root), the later
/// children of its node, each with whether it undoes the move — its first
/// node removes with `AE` exactly the move's stone (points already empty
/// aside) and a move follows. Only sets where at least one variation does
/// are given. All of a set undo the move: alternatives one level too deep,
/// which `--variation-level` moves up (`G010`); only some: the question
/// cannot be answered (`G011`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndoSet {
    /// The move node.
    pub node: NodeId,
    /// Its later children, with whether each undoes the move.
    pub variations: Vec<(NodeId, bool)>,
}

impl UndoSet {
    /// Whether every variation of the set undoes the move.
    pub fn all(&self) -> bool {
        self.variations.iter().all(|v| v.1)
    }
}

/// The [`UndoSet`]s of game `gi`, in file order (one replay of the game,
/// stepping from node to node in pre-order).
pub fn undo_sets(doc: &Document, gi: usize) -> Vec<UndoSet> {
    let mut out = Vec::new();
    let Some(game) = doc.game(gi) else {
        return out;
    };
    let size = coords::board_size(&game.root()).0;
    let mut cursor: Option<Cursor> = None;
    for node in game.nodes() {
        // Cheap tests first: a move node with variations, one of which
        // starts with AE.
        // A move in the root counts (the repair splits it off first).
        if node
            .first_child()
            .is_none_or(|c| c.next_sibling().is_none())
            || (node.parent().is_some() && !node.is_only_child())
            || !node.children().skip(1).any(|k| k.has("AE"))
        {
            continue;
        }
        let Some(point) = ["B", "W"].iter().find_map(|id| {
            let v = node.value(id)?;
            coords::parse_move(v.raw(), size).mv?.point()
        }) else {
            continue;
        };
        let cursor = cursor.get_or_insert_with(|| Cursor::new(doc, gi));
        cursor.goto(doc, node.id());
        let board = &cursor.position().board;
        let variations: Vec<(NodeId, bool)> = node
            .children()
            .skip(1)
            .map(|vn| {
                let ae: Vec<Point> = coords::points_of(&vn, "AE", size)
                    .into_iter()
                    .filter(|&q| board.get(q) != crate::Stone::Empty)
                    .collect();
                let continues = vn.has("B")
                    || vn.has("W")
                    || (vn.child_count() == 1
                        && vn.first_child().is_some_and(|c| c.has("B") || c.has("W")));
                (vn.id(), ae == [point] && continues)
            })
            .collect();
        if variations.iter().any(|v| v.1) {
            out.push(UndoSet {
                node: node.id(),
                variations,
            });
        }
    }
    out
}

/// The variation-level question of each [`UndoSet`] of game `gi`, with
/// the variations it concerns.
fn undo_diagnostics(doc: &Document, gi: usize, out: &mut dyn Sink) {
    let at = |n: NodeId| {
        let node = doc.node(n);
        node.get("AE").map_or_else(|| node.span(), |p| p.span())
    };
    for set in undo_sets(doc, gi) {
        let mv = doc.node(set.node);
        let ident = if mv.has("B") { "B" } else { "W" };
        let mv_span = mv.get(ident).map_or_else(|| mv.span(), |p| p.span());
        if set.all() {
            for &(v, _) in &set.variations {
                out.push(
                    Diagnostic::new(
                        Code::VariationLevelUndo,
                        at(v),
                        format!(
                            "this variation undoes {ident}'s move with AE, then plays: probably an alternative to that move, one level too deep"
                        ),
                    )
                    .with_related(mv_span, "the move it undoes")
                    .with_fix("`check --fix --variation-level` moves it up"),
                );
            }
        } else {
            let (undo, other): (Vec<&(NodeId, bool)>, Vec<_>) =
                set.variations.iter().partition(|v| v.1);
            let mut d = Diagnostic::new(
                Code::VariationLevelUncertain,
                at(undo[0].0),
                format!(
                    "{} of the {} variations after {ident}'s move undo it with AE: whether they are one level too deep cannot be told",
                    undo.len(),
                    set.variations.len()
                ),
            )
            .with_related(mv_span, "the move");
            for &(v, _) in undo.iter().skip(1) {
                d = d.with_related(at(*v), "another variation that undoes it");
            }
            for &(v, _) in &other {
                d = d.with_related(doc.node(*v).span(), "a variation that does not");
            }
            out.push(d);
        }
    }
}

/// Variations written one level too deep (what SGFC's `-v` corrects): at a
/// node whose move is of one colour and whose main continuation answers in
/// the other, a later variation that starts with the first colour again.
/// Returns (the node, the variation's first node) pairs, in file order.
pub fn misplaced_variations(doc: &Document, gi: usize) -> Vec<(NodeId, NodeId)> {
    fn color(n: &Node<'_>) -> Option<sgf_core::Color> {
        match (n.has("B"), n.has("W")) {
            (true, false) => Some(sgf_core::Color::Black),
            (false, true) => Some(sgf_core::Color::White),
            _ => None,
        }
    }
    let mut out = Vec::new();
    let Some(game) = doc.game(gi) else {
        return out;
    };
    for n in game.nodes() {
        // Only a node with variations can have one too deep: a cheap test first.
        if n.first_child().is_none_or(|c| c.next_sibling().is_none()) {
            continue;
        }
        let Some(c) = color(&n) else { continue };
        if n.parent().is_none() {
            continue;
        }
        let mut kids = n.children();
        let Some(first) = kids.next() else { continue };
        if color(&first) != Some(c.opponent()) {
            continue;
        }
        for k in kids {
            if color(&k) == Some(c) && !k.has("PL") {
                out.push((n.id(), k.id()));
            }
        }
    }
    out
}

fn coord_diag(
    issue: CoordIssue,
    ident: &str,
    raw: &[u8],
    span: Span,
    size: BoardSize,
) -> Diagnostic {
    let shown = String::from_utf8_lossy(raw);
    match issue {
        CoordIssue::Invalid => Diagnostic::new(
            Code::InvalidPoint,
            span,
            format!("`{ident}[{shown}]` is not a point"),
        ),
        CoordIssue::OutsideBoard => Diagnostic::new(
            Code::PointOutsideBoard,
            span,
            format!("`{ident}[{shown}]` is outside the {size} board"),
        )
        .with_fix("deleted"),
        CoordIssue::TtPass => Diagnostic::new(
            Code::PassAsTt,
            span,
            format!("pass written `{ident}[tt]` (FF[3] style); FF[4] writes `{ident}[]`"),
        ),
        CoordIssue::Uppercase => Diagnostic::new(
            Code::UppercaseCoordinate,
            span,
            format!("upper-case `{ident}[{shown}]` on a {size} board; read as lower case"),
        ),
        CoordIssue::AmbiguousPass => Diagnostic::new(
            Code::AmbiguousPass,
            span,
            format!(
                "`{ident}[{shown}]` on a {size} board: some programs write a pass this way; not guessed"
            ),
        ),
    }
}

/// Points: on the board, unique where the spec says so; lines and labels.
fn check_points(node: &Node<'_>, size: BoardSize, ff: i64, out: &mut dyn Sink) {
    use sgf_core::props::{id as pid, lookup};
    let set = node.known_set();
    let has = |ident: &str| lookup(ident.as_bytes()).is_some_and(|k| set & (1u128 << k) != 0);
    const LISTS: u128 = 1 << pid::AB
        | 1 << pid::AW
        | 1 << pid::AE
        | 1 << pid::CR
        | 1 << pid::MA
        | 1 << pid::SL
        | 1 << pid::SQ
        | 1 << pid::TR
        | 1 << pid::DD
        | 1 << pid::VW
        | 1 << pid::TB
        | 1 << pid::TW
        | 1 << pid::AR
        | 1 << pid::LN
        | 1 << pid::LB;
    for id in ["B", "W"] {
        if !has(id) {
            continue;
        }
        for v in node.values(id) {
            let pm = coords::parse_move(v.raw(), size);
            if let Some(issue) = pm.issue {
                out.push(coord_diag(issue, id, v.raw(), v.span(), size));
            }
        }
    }
    if set & LISTS == 0 {
        return;
    }
    // Setup points are unique across AB/AW/AE; markup points across the shapes.
    for group in [&["AB", "AW", "AE"][..], &["CR", "MA", "SL", "SQ", "TR"][..]] {
        // The first occurrence of each point, by its index on the board
        // (list entries hold only points on the board).
        let cols = size.cols as usize;
        let at_point = |p: Point| p.y as usize * cols + p.x as usize;
        let mut seen: Vec<Option<(&str, Span)>> = vec![None; size.points()];
        // The raw values of each identifier by span, for the entries and
        // for the first occurrence of a point given twice.
        let mut raws: Vec<(&str, RawAt<'_>)> = Vec::new();
        // In file order, so the later occurrence is the one reported.
        let mut order: Vec<&str> = Vec::new();
        for p in node.props() {
            if let Some(id) = group.iter().find(|g| **g == p.ident())
                && !order.contains(id)
            {
                order.push(id);
            }
        }
        for id in order {
            raws.push((id, RawAt::new(node, id)));
            let at = &raws[raws.len() - 1].1;
            for entry in coords::point_list(node.values(id), size) {
                let raw = at.get(entry.span);
                if let Some(issue) = entry.issue {
                    out.push(coord_diag(issue, id, raw, entry.span, size));
                }
                if entry.reversed {
                    out.push(
                        Diagnostic::new(
                            Code::ReversedRectangle,
                            entry.span,
                            format!(
                                "`{id}[{}]`: a rectangle is written upper-left first",
                                String::from_utf8_lossy(raw)
                            ),
                        )
                        .with_fix("the corners are swapped"),
                    );
                }
                let rect = entry.points.len() > 1;
                // The points of this value given before: one diagnostic
                // for the value (at its first such point), not one per point.
                let mut dup: Option<(Point, &str, Span)> = None;
                let mut more = 0usize;
                for p in entry.points {
                    let first = &mut seen[at_point(p)];
                    if let Some((first_id, first_span)) = *first {
                        if dup.is_some() {
                            more += 1;
                        } else {
                            dup = Some((p, first_id, first_span));
                        }
                    } else {
                        *first = Some((id, entry.span));
                    }
                }
                if let Some((p, first_id, first_span)) = dup {
                    let is_rect = |id: &str, span: Span| {
                        raws.iter()
                            .find(|(i, _)| *i == id)
                            .is_some_and(|(_, r)| r.get(span).contains(&b':'))
                    };
                    let code = if rect || first_span != entry.span && is_rect(first_id, first_span)
                    {
                        Code::OverlappingRectangle
                    } else {
                        Code::DuplicatePoint
                    };
                    let msg = if more == 0 {
                        format!("point {p} is given twice ({first_id} and {id}) in one node")
                    } else {
                        format!(
                            "point {p} and {more} more point(s) of `{id}[{}]` are given twice in one node (first by {first_id})",
                            String::from_utf8_lossy(raw)
                        )
                    };
                    out.push(
                        Diagnostic::new(code, entry.span, msg)
                            .with_related(first_span, "first occurrence")
                            .with_fix("the later occurrence is deleted"),
                    );
                }
            }
        }
    }
    if ff < 4
        && has("VW")
        && let Some(p) = node.get("VW")
    {
        if let Some((a, b)) = coords::old_view_corners(node, size) {
            out.push(
                Diagnostic::new(
                    Code::OldView,
                    p.span(),
                    format!("`VW[{a}][{b}]` in an FF[{ff}] file names the corners of the view"),
                )
                .with_fix(format!("VW[{a}:{b}]")),
            );
        } else if node.values("VW").any(|v| !v.is_empty()) {
            out.push(Diagnostic::new(
                Code::FeatureNotInVersion,
                p.span(),
                format!("`VW` as a list of points (FF[4]) in an FF[{ff}] file; read as FF[4]"),
            ));
        }
    }
    for id in ["DD", "VW", "TB", "TW"] {
        if !has(id) {
            continue;
        }
        let at = RawAt::new(node, id);
        for entry in coords::point_list(node.values(id), size) {
            if let Some(issue) = entry.issue {
                let raw = at.get(entry.span);
                out.push(coord_diag(issue, id, raw, entry.span, size));
            }
        }
    }
    for id in ["AR", "LN"] {
        if !has(id) {
            continue;
        }
        let mut seen: HashMap<(Point, Point), Span> = HashMap::new();
        for v in node.values(id) {
            let Some((a, b)) = v.composed_raw() else {
                continue;
            };
            let (pa, pb) = (coords::parse_point(a, size), coords::parse_point(b, size));
            let (Ok((pa, _)), Ok((pb, _))) = (pa, pb) else {
                let bad = if coords::parse_point(a, size).is_err() {
                    a
                } else {
                    b
                };
                let issue = coords::parse_point(bad, size)
                    .err()
                    .unwrap_or(CoordIssue::Invalid);
                out.push(coord_diag(issue, id, v.raw(), v.span(), size));
                continue;
            };
            if pa == pb {
                out.push(
                    Diagnostic::new(
                        Code::BadLine,
                        v.span(),
                        format!("`{id}` from {pa} to itself has no direction"),
                    )
                    .with_fix("deleted"),
                );
            } else if let Some(first) = seen.get(&(pa, pb)) {
                out.push(
                    Diagnostic::new(
                        Code::BadLine,
                        v.span(),
                        format!("`{id}[{pa}:{pb}]` given twice"),
                    )
                    .with_related(*first, "first occurrence")
                    .with_fix("deleted"),
                );
            } else {
                seen.insert((pa, pb), v.span());
            }
        }
    }
    if !has("LB") {
        return;
    }
    let mut labels: HashMap<Point, Span> = HashMap::new();
    for v in node.values("LB") {
        let Some((a, _)) = v.composed_raw() else {
            continue;
        };
        match coords::parse_point(a, size) {
            Err(issue) => out.push(coord_diag(issue, "LB", a, v.span(), size)),
            Ok((p, issue)) => {
                if let Some(issue) = issue {
                    out.push(coord_diag(issue, "LB", a, v.span(), size));
                }
                if let Some(first) = labels.get(&p) {
                    out.push(
                        Diagnostic::new(
                            Code::DuplicateLabel,
                            v.span(),
                            format!("two labels on {p}"),
                        )
                        .with_related(*first, "first label")
                        .with_fix("the later label is deleted"),
                    );
                } else {
                    labels.insert(p, v.span());
                }
            }
        }
    }
}

/// The raw values of one identifier of a node by their span: the first
/// value at a span (edited values share the empty one), as a walk over the
/// values would find it, without the walk.
struct RawAt<'d>(HashMap<Span, &'d [u8]>);

impl<'d> RawAt<'d> {
    fn new(node: &Node<'d>, id: &str) -> RawAt<'d> {
        let mut m = HashMap::new();
        for v in node.values(id) {
            m.entry(v.span()).or_insert(v.raw());
        }
        RawAt(m)
    }

    fn get(&self, span: Span) -> &'d [u8] {
        self.0.get(&span).copied().unwrap_or_default()
    }
}

/// `DT`, `RE`, `KM`, `TM`, `HA` in their specified formats.
fn check_game_info(doc: &Document, gi: usize, out: &mut dyn Sink) {
    let game = doc.game(gi).expect("in range");
    use sgf_core::props::id as pid;
    for node in game.nodes() {
        let set = node.known_set();
        if set & (1u128 << pid::DT | 1u128 << pid::RE | 1u128 << pid::KM) == 0 {
            continue;
        }
        if let Some(v) = node.value("DT") {
            let t = v.as_simple_text();
            if info::parse_dates(&t).is_none() {
                let mut d = Diagnostic::new(
                    Code::BadDate,
                    v.span(),
                    format!("`DT[{t}]` is not in the ISO format YYYY-MM-DD (with its shortcuts)"),
                );
                d = match crate::values::read_date(&t) {
                    Some(c) => d.with_fix(format!("DT[{c}]")),
                    None => d,
                };
                out.push(d);
            }
        }
        if let Some(v) = node.value("RE") {
            let t = v.as_simple_text();
            if info::parse_result(&t).is_none() {
                let mut d = Diagnostic::new(
                    Code::BadResult,
                    v.span(),
                    format!("`RE[{t}]` is not in the FF[4] result format (B+3.5, W+R, 0, Void, ?)"),
                );
                d = match crate::values::read_result(&t) {
                    Some(c) => d.with_fix(format!("RE[{c}]")),
                    None => d,
                };
                out.push(d);
            }
        }
        if let Some(v) = node.value("KM")
            && let Some(k) = v.real()
            && (k.abs() > 150.0
                || (k.abs() >= 50.0 && (k * 2.0).fract() == 0.0 && (k / 25.0).fract() == 0.0))
        {
            out.push(Diagnostic::new(
                Code::BadKomi,
                v.span(),
                format!(
                    "`KM[{}]` is not a plausible komi; Fox files scale komi (KM[375] = 7.5)",
                    v.raw_text()
                ),
            ));
        }
    }
}

/// Plays every move of every variation and reports what SGF allows but Go does not.
/// Plays every node of the game, depth-first with one cursor, and checks
/// each node's points on the way: one walk over the tree for what needs
/// the position and what does not.
fn play(doc: &Document, gi: usize, size: BoardSize, ff: i64, out: &mut dyn Sink) {
    use sgf_core::props::id as pid;
    const SETUP: u128 = 1 << pid::AB | 1 << pid::AW | 1 << pid::AE;
    let mut walk = Walk::new(doc, gi);
    while walk.step(doc) {
        let cursor = walk.cursor();
        let node = doc.node(cursor.node());
        let root = node.parent().is_none();
        // A plain move on the board needs no point check (but the root's
        // points are always checked).
        if root {
            check_points(&node, size, ff, out);
        } else if !cursor.entered_plain_move() {
            check_points(&node, size, ff, out);
            if walk.on_main_line()
                && node.known_set() & SETUP != 0
                && let Some(p) = ["AB", "AW", "AE"].iter().find_map(|id| node.get(id))
            {
                out.push(Diagnostic::new(
                    Code::SetupInMainLine,
                    p.span(),
                    "setup stones in the main line after the root",
                ));
            }
        }
        report_events(cursor, out);
    }
}

fn report_events(cursor: &Cursor, out: &mut dyn Sink) {
    {
        let events = &cursor.report().events;
        let mut i = 0;
        while i < events.len() {
            let e = &events[i];
            i += 1;
            let d = match &e.event {
                Event::Occupied { point } => Diagnostic::new(
                    Code::OccupiedPoint,
                    e.span,
                    format!("{} plays on {point}, which already holds a stone", e.ident),
                ),
                Event::Suicide { stones } => Diagnostic::new(
                    Code::Suicide,
                    e.span,
                    format!("suicide: {stones} stone(s) of the player removed"),
                ),
                Event::KoRetake { point } => Diagnostic::new(
                    Code::KoRetake,
                    e.span,
                    format!("{} retakes the ko at {point} immediately", e.ident),
                ),
                Event::SetupNoEffect { point } => {
                    // The other points of the same value (a rectangle):
                    // one diagnostic for the value, not one per point.
                    let more = events[i..]
                        .iter()
                        .take_while(|x| {
                            matches!(x.event, Event::SetupNoEffect { .. })
                                && x.span == e.span
                                && x.ident == e.ident
                        })
                        .count();
                    i += more;
                    let msg = if more == 0 {
                        format!("`{}` at {point} changes nothing (already so)", e.ident)
                    } else {
                        format!(
                            "`{}` at {point} and {more} more point(s) of the same value change nothing (already so)",
                            e.ident
                        )
                    };
                    Diagnostic::new(Code::SetupNoEffect, e.span, msg).with_fix("deleted")
                }
                Event::SameColorTwice => Diagnostic::new(
                    Code::SameColorTwice,
                    e.span,
                    format!("two {} moves in a row", e.ident),
                ),
                // Reported by the point checks.
                Event::BadCoordinate { .. } => continue,
            };
            out.push(d);
        }
    }
}

/// `HA` against the black setup stones of the root.
fn handicap(root: &Node<'_>, size: BoardSize, out: &mut dyn Sink) {
    let Some(v) = root.value("HA") else { return };
    let Some(ha) = v.number() else { return };
    let stones = coords::each_point(root, "AB", size).count() as i64;
    // `HA[0]` is how many programs (Fox among them) write an even game:
    // wrong only when there are handicap stones after all.
    if ha < 2 && !(ha == 0 && stones == 0) {
        let with = if stones > 0 {
            format!(" (the root has {stones} black setup stone(s))")
        } else {
            String::new()
        };
        out.push(
            Diagnostic::new(
                Code::BadHandicap,
                v.span(),
                format!("HA[{ha}]: a handicap is at least 2 stones{with}"),
            )
            .with_fix("deleted; its wording kept in GC"),
        );
    } else if ha >= 2 && stones != ha {
        out.push(
            Diagnostic::new(
                Code::HandicapMismatch,
                v.span(),
                format!("HA[{ha}] but the root has {stones} black setup stone(s)"),
            )
            .with_severity(Severity::Warning),
        );
    } else if ha >= 2 && root.has("AW") {
        let white = coords::each_point(root, "AW", size).count();
        out.push(
            Diagnostic::new(
                Code::HandicapMismatch,
                v.span(),
                format!("HA[{ha}] but the root also has {white} white setup stone(s)"),
            )
            .with_severity(Severity::Warning),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::parse;

    fn codes(s: &str) -> Vec<&'static str> {
        let p = parse(s.as_bytes());
        let mut v: Vec<&str> = check_go(&p.document)
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn go_rules() {
        assert_eq!(codes("(;FF[4]SZ[19:19])"), vec!["V008"]);
        assert_eq!(codes("(;FF[4]SZ[60])"), vec!["V009"]);
        assert_eq!(codes("(;FF[4]DT[2024/1/5])"), vec!["V010"]);
        assert_eq!(codes("(;FF[4]RE[Black wins])"), vec!["V011"]);
        assert_eq!(codes("(;FF[4]AB[aa][aa])"), vec!["V012"]);
        assert_eq!(codes("(;FF[4]AB[aa]AW[aa])"), vec!["V012"]);
        assert_eq!(codes("(;FF[4];TR[aa]MA[aa])"), vec!["V012"]);
        assert_eq!(codes("(;FF[4];AR[aa:aa])"), vec!["V013"]);
        assert_eq!(codes("(;FF[4];LN[aa:bb][aa:bb])"), vec!["V013"]);
        assert_eq!(codes("(;FF[4];LB[aa:1][aa:2])"), vec!["V014"]);
        assert_eq!(codes("(;FF[4]AB[aa:cc][bb])"), vec!["V015"]);
        assert_eq!(codes("(;FF[4]AB[cc:aa])"), vec!["V016"]);
        assert_eq!(codes("(;FF[4]SZ[9];B[kk])"), vec!["V017"]);
        assert_eq!(codes("(;FF[4]SZ[9:5];B[ef])"), vec!["V017"]);
        assert_eq!(codes("(;FF[4];B[tt])"), vec!["V018"]);
        assert_eq!(codes("(;FF[4];B[DD])"), vec!["V019"]);
        assert_eq!(codes("(;FF[4]KM[375])"), vec!["V020"]);
        assert_eq!(codes("(;FF[3]SZ[9:5])"), vec!["V021"]);
        assert_eq!(codes("(;FF[4];B[aa];W[aa])"), vec!["G001"]);
        assert_eq!(codes("(;FF[4]AB[ba][ab];W[aa])"), vec!["G002"]);
        assert_eq!(
            codes("(;FF[4]SZ[5]AB[bb][ac][bd]AW[cb][dc][cd][bc];B[cc];W[bc])"),
            vec!["G003"]
        );
        assert_eq!(codes("(;FF[4]AB[aa];AB[aa])"), vec!["G004", "G009"]);
        assert_eq!(codes("(;FF[4]HA[3]AB[dd][pp])"), vec!["G005"]);
        assert_eq!(codes("(;FF[4];B[aa];B[bb])"), vec!["G006"]);
        assert_eq!(codes("(;FF[4]SZ[18];B[ss])"), vec!["G007"]);
        assert!(codes("(;FF[4]GM[1]SZ[19]DT[1996-12-27,28,1997-01-03,04]RE[W+R]KM[6.5]HA[2]AB[dd][pp];W[aa]TR[bb]CR[cc]LB[dd:A][ee:B]AR[aa:cc]LN[bb:dd])").is_empty());
        assert!(codes("(;FF[4]GM[2]SZ[8];B[zz])").is_empty());
    }
}
