//! The game-independent rules of SGF FF\[4\]: where properties may stand, and
//! each value against its type (document 001's restrictions; SGFC's list as
//! a checklist). Go-specific checks (points on the board, playing the moves)
//! live in `sgf-go`.

use crate::diag::{Code, Diagnostic, Severity, Sink, Span};
use crate::doc::{Document, Node, NodeId, Value};
use crate::props::{self, GameScope, PropKind, ValueType, id};
use crate::value;

const MOVE_ANNOTATIONS: [&str; 4] = ["BM", "DO", "IT", "TE"];
const POSITION_ANNOTATIONS: [&str; 4] = ["DM", "GB", "GW", "UC"];

fn value_span(v: &Value<'_>) -> Span {
    v.span()
}

/// The FF version a game declares (1 when absent, as the spec says).
pub fn ff_version(doc: &Document, game: usize) -> i64 {
    doc.game(game)
        .and_then(|g| g.root().value("FF"))
        .and_then(|v| v.number())
        .unwrap_or(1)
}

/// The game type a game declares (`GM`, 1 = Go when absent).
pub fn game_type(doc: &Document, game: usize) -> i64 {
    doc.game(game)
        .and_then(|g| g.root().value("GM"))
        .and_then(|v| v.number())
        .unwrap_or(1)
}

/// Checks every game of `doc` against the FF\[4\] rules that do not depend
/// on the game: property placement, annotations, value types and ranges.
pub fn validate(doc: &Document) -> Vec<Diagnostic> {
    let mut out = validate_document(doc);
    for gi in 0..doc.game_count() {
        validate_game(doc, gi, &mut out);
    }
    out
}

/// The game-independent FF\[4\] rules of game `gi` (see [`validate`]).
pub fn validate_game(doc: &Document, gi: usize, out: &mut dyn Sink) {
    let Some(game) = doc.game(gi) else { return };
    let root = game.root();
    let ff = ff_version(doc, gi);
    let gm = game_type(doc, gi);
    if let Some(v) = root.value("GM")
        && v.number().is_some()
        && gm != 1
    {
        out.push(Diagnostic::new(
            Code::NotGo,
            value_span(&v),
            format!("the game is not Go (GM[{gm}]): moves and points are not checked"),
        ));
    }
    // Pre-order with the "game-info node above" flag carried down.
    let mut stack: Vec<(NodeId, Option<NodeId>)> = vec![(root.id(), None)];
    let mut kids: Vec<NodeId> = Vec::new();
    let mut above_span = None;
    while let Some((mut n, mut gi_above)) = stack.pop() {
        // Down a line of first children without the stack; later siblings
        // wait on it (in reverse, so they come out in file order).
        loop {
            let node = doc.node(n);
            let here = if node.parent().is_some() && node.simple_move().is_some() {
                // A plain move node breaks no rule of this layer.
                None
            } else {
                check_node(doc, &node, gi_above, &mut above_span, (ff, gm == 1), out)
            };
            let below = gi_above.or(here);
            let Some(first) = node.first_child() else {
                break;
            };
            if let Some(second) = first.next_sibling() {
                kids.clear();
                let mut c = Some(second);
                while let Some(k) = c {
                    kids.push(k.id());
                    c = k.next_sibling();
                }
                for &k in kids.iter().rev() {
                    stack.push((k, below));
                }
            }
            n = first.id();
            gi_above = below;
        }
    }
}

/// What the rules about a whole file need to know of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// Where its root starts (a byte offset in the file).
    pub start: u32,
    /// Its `FF` version.
    pub ff: i64,
    /// Its `GM` game type.
    pub gm: i64,
    /// The charset its root declares (`CA` as written, upper case).
    pub declared: Option<Box<[u8]>>,
}

/// The facts of game `gi` (see [`document_rules`]).
pub fn game_facts(doc: &Document, gi: usize) -> GameFacts {
    let declared = doc
        .game(gi)
        .and_then(|g| g.root().value("CA"))
        .map(|v| v.raw().to_ascii_uppercase().into_boxed_slice());
    GameFacts {
        start: doc.game(gi).map_or(0, |g| g.root().span().start),
        ff: ff_version(doc, gi),
        gm: game_type(doc, gi),
        declared,
    }
}

/// `C007` when the games of a file declare different charsets (`CA` as
/// written, upper case): reported by the reader of a whole file, and by a
/// reader that saw it a part at a time from every game's
/// [`GameFacts::declared`].
pub fn mixed_charsets<'a>(declared: impl IntoIterator<Item = &'a [u8]>) -> Option<Diagnostic> {
    let mut labels: Vec<&[u8]> = declared.into_iter().collect();
    labels.sort();
    labels.dedup();
    (labels.len() > 1).then(|| {
        Diagnostic::new(
            Code::MixedCharsets,
            Span::new(0, 0),
            format!(
                "games of this file declare different charsets: {}",
                labels
                    .iter()
                    .map(|l| String::from_utf8_lossy(l).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })
}

/// The rules about a whole file: several games, mixed game types and
/// FF versions (see [`validate`]).
pub fn validate_document(doc: &Document) -> Vec<Diagnostic> {
    let facts: Vec<GameFacts> = (0..doc.game_count())
        .map(|gi| game_facts(doc, gi))
        .collect();
    document_rules(&facts)
}

/// [`validate_document`] from the facts of the games of a file, for a
/// reader that saw the file a part at a time.
pub fn document_rules(facts: &[GameFacts]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let versions: Vec<i64> = facts.iter().map(|f| f.ff).collect();
    let mut types: Vec<i64> = facts.iter().map(|f| f.gm).collect();
    if let Some(second) = facts.get(1) {
        let at = second.start;
        out.push(Diagnostic::new(
            Code::SeveralGames,
            Span::new(at, at),
            format!(
                "the file is a collection of {} game trees; some programs read only the first",
                facts.len()
            ),
        ));
    }
    types.sort_unstable();
    types.dedup();
    if types.len() > 1 {
        out.push(Diagnostic::new(
            Code::MixedGameTypes,
            Span::default(),
            format!(
                "games of this file are of different types: {}",
                types
                    .iter()
                    .map(|x| format!("GM[{x}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let mut v = versions.clone();
    v.sort_unstable();
    v.dedup();
    if v.len() > 1 {
        out.push(Diagnostic::new(
            Code::MixedVersions,
            Span::default(),
            format!(
                "games of this file declare different FF versions: {}",
                v.iter()
                    .map(|x| format!("FF[{x}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    out
}

/// Checks one node; returns its id if it is a game-info node.
/// `above_span` keeps the span of the game-info node above once worked out
/// (a walk over its properties, not to be made for every node below it).
fn check_node(
    doc: &Document,
    node: &Node<'_>,
    gi_above: Option<NodeId>,
    above_span: &mut Option<(NodeId, Span)>,
    (ff, go): (i64, bool),
    out: &mut dyn Sink,
) -> Option<NodeId> {
    let is_root = node.parent().is_none();
    let mut has_move = false;
    let mut has_setup = false;
    let mut game_info = false;
    let mut first_setup = None;
    let mut first_move = None;
    for p in node.props() {
        let Some(info) = p.info() else { continue };
        match info.kind {
            PropKind::Move if matches!(info.ident, "B" | "W") => {
                has_move = true;
                first_move.get_or_insert(p.span());
            }
            PropKind::Setup => {
                has_setup = true;
                first_setup.get_or_insert(p.span());
            }
            PropKind::GameInfo => game_info = true,
            _ => {}
        }
    }

    // Placement.
    for p in node.props() {
        let Some(info) = p.info() else {
            out.push(Diagnostic::new(
                Code::UnknownProperty,
                p.ident_span(),
                format!("unknown property `{}`; kept unchanged", p.ident()),
            ));
            continue;
        };
        if info.kind == PropKind::Root && !is_root {
            out.push(
                Diagnostic::new(
                    Code::RootPropertyOutsideRoot,
                    p.span(),
                    format!("root property `{}` outside the root node", info.ident),
                )
                .with_fix("deleted"),
            );
        }
        if info.kind == PropKind::GameInfo
            && let Some(first) = gi_above
        {
            let first_span = match *above_span {
                Some((n, s)) if n == first => s,
                _ => {
                    let s = doc.node(first).span();
                    *above_span = Some((first, s));
                    s
                }
            };
            out.push(
                Diagnostic::new(
                    Code::SecondGameInfo,
                    p.span(),
                    format!(
                        "game-info property `{}` in a second game-info node on this path",
                        info.ident
                    ),
                )
                .with_related(first_span, "the first game-info node"),
            );
        }
        if let Some(app) = info.application {
            out.push(Diagnostic::new(
                Code::PrivateProperty,
                p.ident_span(),
                format!(
                    "`{}` is a private property of {app}; kept unchanged",
                    info.ident
                ),
            ));
        } else if info.game == GameScope::Loa {
            out.push(Diagnostic::new(
                Code::OtherGameProperty,
                p.ident_span(),
                format!(
                    "`{}` is a property of Lines of Action; kept unchanged",
                    info.ident
                ),
            ));
        } else if !info.in_ff4() {
            let msg = match info.replaced_by {
                // The conversion of M depends on the board (see sgf-go's repair).
                Some("MA") if info.ident == "M" => format!(
                    "`M` ({}) is an FF[{}] property; its FF[4] equivalents are `MA` on empty points and `TR` on stones",
                    info.name,
                    legacy_versions(info.versions)
                ),
                Some(r) => format!(
                    "`{}` ({}) is an FF[{}] property; its FF[4] equivalent is `{r}`",
                    info.ident,
                    info.name,
                    legacy_versions(info.versions)
                ),
                None => format!(
                    "`{}` ({}) is an FF[{}] property without an FF[4] equivalent; kept",
                    info.ident,
                    info.name,
                    legacy_versions(info.versions)
                ),
            };
            let sev = if ff >= 4 {
                Severity::Warning
            } else {
                Severity::Info
            };
            out.push(Diagnostic::new(Code::LegacyProperty, p.ident_span(), msg).with_severity(sev));
        }
    }
    if has_move && has_setup {
        let mut d = Diagnostic::new(
            Code::MoveSetupMixed,
            first_move.unwrap_or_default(),
            "move and setup properties in one node",
        )
        .with_fix("the node is split: setup first, the move in a new node after it");
        if let Some(s) = first_setup {
            d = d.with_related(s, "setup property");
        }
        // FF[3] allowed this; FF[4] forbids it.
        if ff < 4 {
            d.severity = Severity::Warning;
        }
        out.push(d);
    }
    let set = node.known_set();
    let bit = |id: props::KnownId| set & (1u128 << id) != 0;
    if bit(id::B) && bit(id::W) {
        out.push(
            Diagnostic::new(
                Code::BlackAndWhite,
                node.get("W").map(|p| p.span()).unwrap_or_default(),
                "`B` and `W` in one node",
            )
            .with_fix("the node is split in two"),
        );
    }
    if is_root && has_move {
        out.push(Diagnostic::new(
            Code::MoveInRoot,
            first_move.unwrap_or_default(),
            "a move in the root node (bad style)",
        ));
    }
    const ANNOTATION_BITS: u128 = 1 << id::KO
        | 1 << id::BM
        | 1 << id::DO
        | 1 << id::IT
        | 1 << id::TE
        | 1 << id::DM
        | 1 << id::GB
        | 1 << id::GW
        | 1 << id::UC;
    if !has_move && set & ANNOTATION_BITS != 0 {
        for id in std::iter::once("KO").chain(MOVE_ANNOTATIONS) {
            if let Some(p) = node.get(id) {
                out.push(
                    Diagnostic::new(
                        Code::AnnotationWithoutMove,
                        p.span(),
                        format!("`{id}` needs a move (`B` or `W`) in the same node"),
                    )
                    .with_fix("deleted"),
                );
            }
        }
    }
    for (group, code) in [
        (&MOVE_ANNOTATIONS, Code::ExclusiveMoveAnnotations),
        (&POSITION_ANNOTATIONS, Code::ExclusivePositionAnnotations),
    ] {
        if set & ANNOTATION_BITS == 0 {
            break;
        }
        let present: Vec<_> = group.iter().filter_map(|id| node.get(id)).collect();
        if present.len() > 1 {
            let names: Vec<&str> = present.iter().map(|p| p.ident()).collect();
            out.push(
                Diagnostic::new(
                    code,
                    present[1].span(),
                    format!("{} exclude each other in one node", names.join(" and ")),
                )
                .with_related(present[0].span(), "first annotation"),
            );
        }
    }

    // Values against their types.
    for p in node.props() {
        let Some(info) = p.info() else { continue };
        let vt = info.value;
        // Repeated identifiers are reported as such (S018); count per occurrence.
        if !vt.is_list() && vt != ValueType::Unknown {
            let count = p.value_count();
            if count > 1 {
                out.push(
                    Diagnostic::new(
                        Code::TooManyValues,
                        p.span(),
                        format!("`{}` takes one value but has {count}", info.ident),
                    )
                    .with_fix("extra values are deleted (text is joined)"),
                );
            }
        }
        if vt == ValueType::EListOfPoint && p.value_count() > 1 && p.values().any(|v| v.is_empty())
        {
            out.push(
                empty_value(info.ident, p.span(), Severity::Error)
                    .with_fix("the empty value is deleted"),
            );
        }
        for v in p.values() {
            check_value(info, &v, ff, go, out);
        }
    }
    game_info.then_some(node.id())
}

fn legacy_versions(v: u8) -> String {
    let mut s = Vec::new();
    for (bit, n) in [(props::ff::V1, "1"), (props::ff::V3, "3")] {
        if v & bit != 0 {
            s.push(n);
        }
    }
    if s.is_empty() {
        "3".into()
    } else {
        s.join("]/FF[")
    }
}

/// `go`: the game is Go; the points and moves of another game are its
/// own text, not checked.
fn check_value(info: &props::PropInfo, v: &Value<'_>, ff: i64, go: bool, out: &mut dyn Sink) {
    let raw = v.raw();
    let span = value_span(v);
    let empty = v.is_empty();
    let ident = info.ident;
    let shown = || String::from_utf8_lossy(raw).into_owned();
    // Points and moves of a game that is not Go are that game's text.
    let points = no_whitespace(info) == Some(NoWhitespace::Anywhere);
    if (go || !points) && has_stray_whitespace(info, raw) {
        out.push(
            Diagnostic::new(
                Code::ValueWhitespace,
                span,
                format!(
                    "white space in `{ident}[{}]`, whose values have none",
                    shown()
                ),
            )
            .with_fix("the white space removed"),
        );
    }
    match info.value {
        ValueType::None => {
            if !empty {
                out.push(
                    Diagnostic::new(
                        Code::ValueForNone,
                        span,
                        format!("`{ident}` takes no value, but has `{}`", shown()),
                    )
                    .with_fix("emptied"),
                );
            }
        }
        ValueType::Number => {
            if empty {
                out.push(empty_value(ident, span, Severity::Error));
            } else if value::parse_number(raw).is_none() {
                out.push(Diagnostic::new(
                    Code::InvalidNumber,
                    span,
                    format!("`{ident}` needs a number, not `{}`", shown()),
                ));
            } else if let Some((lo, hi)) = range_of(ident) {
                let n = value::parse_number(raw).unwrap_or(0);
                if n < lo || n > hi {
                    out.push(Diagnostic::new(
                        Code::OutOfRange,
                        span,
                        format!("`{ident}[{n}]` is outside {lo}–{hi}"),
                    ));
                }
            }
        }
        ValueType::Real => {
            if empty {
                out.push(empty_value(ident, span, Severity::Error));
            } else if value::parse_real(raw).is_none() {
                let code = if ident == "TM" {
                    Code::BadTime
                } else {
                    Code::InvalidReal
                };
                out.push(Diagnostic::new(
                    code,
                    span,
                    format!("`{ident}` needs a real number, not `{}`", shown()),
                ));
            }
        }
        ValueType::Double => {
            if value::parse_double(raw).is_none() {
                out.push(
                    Diagnostic::new(
                        Code::InvalidDouble,
                        span,
                        format!("`{ident}` needs 1 or 2, not `{}`", shown()),
                    )
                    .with_fix("corrected to 1 (2 for larger numbers)"),
                );
            }
        }
        ValueType::Color => {
            if empty {
                out.push(empty_value(ident, span, Severity::Error));
            } else if value::parse_color(raw).is_none() {
                out.push(Diagnostic::new(
                    Code::InvalidColor,
                    span,
                    format!("`{ident}` needs B or W, not `{}`", shown()),
                ));
            }
        }
        ValueType::SimpleText | ValueType::Text => {
            if empty && !matches!(ident, "GN" | "CA") {
                out.push(empty_value(ident, span, Severity::Warning));
            }
        }
        ValueType::ListOfPointPoint | ValueType::ListOfPointText | ValueType::TextText => {
            if v.composed_raw().is_none() {
                out.push(
                    Diagnostic::new(
                        Code::ComposedExpected,
                        span,
                        format!("`{ident}` needs a composed value `a:b`, not `{}`", shown()),
                    )
                    .with_fix("deleted"),
                );
            }
        }
        ValueType::ListOfPoint | ValueType::ListOfStone => {
            if empty {
                out.push(empty_value(ident, span, Severity::Error));
            }
            if ff < 4 && raw.contains(&b':') {
                out.push(Diagnostic::new(
                    Code::FeatureNotInVersion,
                    span,
                    format!("compressed point list `{}` in an FF[{ff}] file", shown()),
                ));
            }
        }
        ValueType::Move => {
            if ff < 4 && empty {
                out.push(Diagnostic::new(
                    Code::EmptyPassBeforeFf4,
                    span,
                    format!("pass written `{ident}[]` in an FF[{ff}] file (FF[4] style)"),
                ));
            }
            if raw.contains(&b':') {
                out.push(Diagnostic::new(
                    Code::NotComposed,
                    span,
                    format!("`{ident}` takes a single point, not `{}`", shown()),
                ));
            }
        }
        ValueType::Point | ValueType::Stone => {
            if raw.contains(&b':') {
                out.push(Diagnostic::new(
                    Code::NotComposed,
                    span,
                    format!("`{ident}` takes a single point, not `{}`", shown()),
                ));
            }
        }
        ValueType::Figure => {
            if !empty {
                match v.composed_raw() {
                    Some((n, _)) if value::parse_number(n).is_some() => {}
                    _ => out.push(Diagnostic::new(
                        Code::ComposedExpected,
                        span,
                        format!("`FG` needs nothing or `flags:name`, not `{}`", shown()),
                    )),
                }
            }
        }
        ValueType::Size => {
            let dims: Vec<Option<i64>> = match v.composed_raw() {
                Some((a, b)) => vec![value::parse_number(a), value::parse_number(b)],
                None => vec![value::parse_number(raw)],
            };
            if dims.iter().any(|d| d.is_some_and(|n| n < 1)) {
                out.push(
                    Diagnostic::new(
                        Code::BadBoardSize,
                        span,
                        format!("`SZ[{}]`: a board needs at least one point", shown()),
                    )
                    .with_fix("deleted; the default size applies"),
                );
            }
        }
        ValueType::EListOfPoint | ValueType::Unknown => {}
    }
}

/// Where a value of a property's type may hold no white space: the one
/// list the checker ([`Code::ValueWhitespace`]) and the repair share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoWhitespace {
    /// Not around it: numbers, reals, colours, sizes, `DT`.
    AtEdges,
    /// Nowhere in it: points, stones, moves and their lists.
    Anywhere,
}

/// Where a value of `info`'s type may hold no white space (`None`: text,
/// where white space is the author's).
pub fn no_whitespace(info: &props::PropInfo) -> Option<NoWhitespace> {
    match info.value {
        ValueType::Number
        | ValueType::Real
        | ValueType::Double
        | ValueType::Color
        | ValueType::Size => Some(NoWhitespace::AtEdges),
        ValueType::Point
        | ValueType::Stone
        | ValueType::Move
        | ValueType::ListOfPoint
        | ValueType::ListOfStone
        | ValueType::EListOfPoint
        | ValueType::ListOfPointPoint => Some(NoWhitespace::Anywhere),
        ValueType::SimpleText if info.ident == "DT" => Some(NoWhitespace::AtEdges),
        _ => None,
    }
}

/// Whether a value of a type without white space (numbers, colours,
/// points, sizes, `DT`: see [`no_whitespace`]) has some: around it, or
/// inside a point: what the checker reports as [`Code::ValueWhitespace`]
/// and the repair removes.
pub fn has_stray_whitespace(info: &props::PropInfo, raw: &[u8]) -> bool {
    match no_whitespace(info) {
        Some(NoWhitespace::AtEdges) => {
            raw.first().is_some_and(|&b| crate::lexer::is_ws(b))
                || raw.last().is_some_and(|&b| crate::lexer::is_ws(b))
        }
        Some(NoWhitespace::Anywhere) => raw.iter().any(|&b| crate::lexer::is_ws(b)),
        None => false,
    }
}

fn empty_value(ident: &str, span: Span, sev: Severity) -> Diagnostic {
    Diagnostic::new(Code::EmptyValue, span, format!("empty `{ident}` value"))
        .with_severity(sev)
        .with_fix("deleted")
}

/// Ranges of root numbers.
fn range_of(ident: &str) -> Option<(i64, i64)> {
    match ident {
        "FF" => Some((1, 4)),
        "GM" => Some((1, 20)),
        "ST" => Some((0, 3)),
        _ => None,
    }
}

/// Whether a node holds a move (`B` or `W`).
pub fn has_move(node: &Node<'_>) -> bool {
    node.has_known(id::B) || node.has_known(id::W)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn codes(s: &str) -> Vec<&'static str> {
        let p = parse(s.as_bytes());
        let mut v: Vec<&str> = validate(&p.document)
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn placement_rules() {
        assert_eq!(codes("(;FF[4]GM[1];SZ[9])"), vec!["F001"]);
        assert_eq!(codes("(;FF[4]PB[a];B[aa]PW[b])"), vec!["F002"]);
        assert_eq!(codes("(;FF[4];AB[aa]B[bb])"), vec!["F003"]);
        assert_eq!(codes("(;FF[4];B[aa]W[bb])"), vec!["F004"]);
        assert_eq!(codes("(;FF[4];C[x]TE[1])"), vec!["F005"]);
        assert_eq!(codes("(;FF[4];KO[])"), vec!["F005"]);
        assert_eq!(codes("(;FF[4];B[aa]BM[1]TE[1])"), vec!["F006"]);
        assert_eq!(codes("(;FF[4];GB[1]GW[1])"), vec!["F007"]);
        assert_eq!(codes("(;FF[4]XY[1])"), vec!["F008"]);
        assert_eq!(codes("(;FF[4]PB[a][b])"), vec!["F009"]);
        assert_eq!(codes("(;FF[4]PB[])"), vec!["F010"]);
        assert_eq!(codes("(;FF[4];L[aa])"), vec!["F011"]);
        assert_eq!(codes("(;FF[4]B[aa])"), vec!["F012"]);
        assert_eq!(codes("(;FF[4]MULTIGOGM[1])"), vec!["F013"]);
        assert_eq!(codes("(;FF[4]GM[2])"), vec!["F015"]);
        assert_eq!(codes("(;FF[3])(;FF[4])"), vec!["F016", "F018"]);
        assert_eq!(codes("(;FF[4])(;FF[4])"), vec!["F018"]);
        assert_eq!(codes("(;FF[4])(;FF[4]GM[2])"), vec!["F015", "F018", "F019"]);
    }

    #[test]
    fn value_rules() {
        assert_eq!(codes("(;FF[4]HA[two])"), vec!["V001"]);
        assert_eq!(codes("(;FF[4]KM[6,5])"), vec!["V002"]);
        assert_eq!(codes("(;FF[4];GB[3])"), vec!["V003"]);
        assert_eq!(codes("(;FF[4]PL[X])"), vec!["V004"]);
        assert_eq!(codes("(;FF[4];LB[aa])"), vec!["V006"]);
        assert_eq!(codes("(;FF[4];B[aa:bb])"), vec!["V007"]);
        assert_eq!(codes("(;FF[7])"), vec!["V009"]);
        assert_eq!(codes("(;FF[4]ST[5])"), vec!["V009"]);
        assert_eq!(codes("(;FF[3]AB[aa:bb])"), vec!["V021"]);
        assert_eq!(codes("(;FF[3];B[])"), vec!["V022"]);
        assert_eq!(codes("(;FF[4];B[aa]KO[x])"), vec!["V024"]);
        assert_eq!(codes("(;FF[4]TM[1 hour])"), vec!["V025"]);
        assert!(
            codes("(;FF[4]GM[1]SZ[19]KM[6.5]HA[2]PL[W]C[x];B[aa]KO[]BM[2];W[]DO[])").is_empty()
        );
    }
}
