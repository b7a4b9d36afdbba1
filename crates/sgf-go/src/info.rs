//! Typed game information: players, ranks, dates (`DT` with its ISO
//! shortcuts), results (`RE`), komi, handicap, time, and the raw text kept
//! whenever a value does not parse.

use sgf_core::{Document, Game, Node, NodeId};

use crate::values;
pub use crate::values::{GameResult, PartialDate, WinBy, parse_dates, parse_result};

/// A value with its raw text (SimpleText rules applied) and what it means,
/// as [`values`] reads it: the typed value is there whenever the text can
/// be read, in the FF\[4\] form or as people write it (`KM[650]` from Fox is
/// 6.5, `RE[黑中盘胜]` is a win by resignation); the raw text is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<T> {
    /// The text as written (SimpleText rules applied).
    pub raw: String,
    /// The typed value, when the text can be read.
    pub value: Option<T>,
}

/// The game information of a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// The node holding it (usually the root).
    pub node: Option<NodeId>,
    /// `PB`.
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `BR`.
    pub black_rank: Option<String>,
    /// `WR`.
    pub white_rank: Option<String>,
    /// `BT`.
    pub black_team: Option<String>,
    /// `WT`.
    pub white_team: Option<String>,
    /// `DT`, as dates.
    pub dates: Option<Parsed<Vec<PartialDate>>>,
    /// `RE`.
    pub result: Option<Parsed<GameResult>>,
    /// `KM`.
    pub komi: Option<Parsed<f64>>,
    /// `HA`.
    pub handicap: Option<Parsed<i64>>,
    /// `TM` in seconds.
    pub time_limit: Option<Parsed<f64>>,
    /// `OT`.
    pub overtime: Option<String>,
    /// `RU`.
    pub rules: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// `SO`.
    pub source: Option<String>,
    /// `GC` (Text rules).
    pub comment: Option<String>,
    /// `AN`.
    pub annotator: Option<String>,
    /// `CP`.
    pub copyright: Option<String>,
    /// `US`.
    pub user: Option<String>,
    /// `ON`.
    pub opening: Option<String>,
}

/// The game-info node: the first node of the main line that holds game-info properties.
pub fn game_info_node<'d>(game: &Game<'d>) -> Option<Node<'d>> {
    game.main_line().find(|n| {
        n.props().any(|p| {
            p.info()
                .is_some_and(|i| i.kind == sgf_core::PropKind::GameInfo)
        })
    })
}

impl GameInfo {
    /// Reads the game information of game `index`.
    pub fn of(doc: &Document, index: usize) -> GameInfo {
        let Some(game) = doc.game(index) else {
            return GameInfo::default();
        };
        let Some(node) = game_info_node(&game) else {
            return GameInfo::default();
        };
        let t = |id: &str| node.text(id).map(|s| s.trim().to_string());
        let rules = t("RU");
        let chinese = rules
            .as_deref()
            .is_some_and(|r| r.to_ascii_lowercase().contains("chinese") || r.contains("中国"));
        GameInfo {
            node: Some(node.id()),
            black: t("PB"),
            white: t("PW"),
            black_rank: t("BR"),
            white_rank: t("WR"),
            black_team: t("BT"),
            white_team: t("WT"),
            dates: t("DT").map(|raw| Parsed {
                value: values::read_date(&raw).and_then(|d| parse_dates(&d)),
                raw,
            }),
            result: t("RE").map(|raw| Parsed {
                value: values::read_result(&raw),
                raw,
            }),
            komi: t("KM").map(|raw| Parsed {
                value: values::read_komi(&raw)
                    .map(|k| values::scaled_komi(k, chinese).unwrap_or(k)),
                raw,
            }),
            handicap: t("HA").map(|raw| Parsed {
                value: values::read_number(&raw),
                raw,
            }),
            time_limit: t("TM").map(|raw| Parsed {
                value: values::read_seconds(&raw),
                raw,
            }),
            overtime: t("OT"),
            rules,
            event: t("EV"),
            round: t("RO"),
            place: t("PC"),
            name: t("GN"),
            source: t("SO"),
            comment: node.text("GC").map(|s| s.into_owned()),
            annotator: t("AN"),
            copyright: t("CP"),
            user: t("US"),
            opening: t("ON"),
        }
    }
}
