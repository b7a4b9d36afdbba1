//! One game summarised: what `qipu info` and `qipu export` print, what
//! Python's rows and Arrow tables hold, what the viewer's game list shows
//! and what the database stores — computed here, once, for every face.
//!
//! A [`GameSummary`] holds the board size, the charset the game was read
//! in ([`crate::game_charset`]), its game information (as written, and
//! read: players, ranks, dates, result, komi, handicap, rules, event…),
//! the root's setup stones, the moves of its main line and how many
//! errors and warnings it has.
//!
//! **Moves** are those of [`sgf_go::moves`]: every `B` and `W` along the
//! main line, so that the *N*-th entry is move *N* of every command. A
//! pass is a move without a point; a move that cannot be played (off the
//! board, not a coordinate) is kept too, without a point, with its value
//! as written ([`SummaryMove::unplayable`]), and counts as an error.
//!
//! ```
//! let loaded = sgf_formats::read_any(b"(;SZ[9]PB[Lee]RE[B+R];B[ee];W[zz];B[])", None).unwrap();
//! let s = &sgf_formats::summary::summaries(&loaded)[0];
//! assert_eq!(s.black.as_deref(), Some("Lee"));
//! assert_eq!(s.moves.len(), 3);
//! assert_eq!(s.moves[1].unplayable.as_deref(), Some("zz"));
//! assert_eq!(s.errors, 1);
//! assert_eq!(s.charset, "ASCII");
//! let json = serde_json::to_value(s).unwrap();
//! assert_eq!(json["outcome"], "B+R");
//! ```

use std::borrow::Cow;
use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use sgf_core::{Color, Diagnostic, Document, PropKind, Severity};
use sgf_go::{GameInfo, GameResult, Move, PartialDate, coords};

use crate::Loaded;

/// One game of a record, summarised (see the module docs). Serialised
/// with serde as an object of these fields: colours as `"B"`/`"W"`,
/// points as `[column, row]` from 0, dates in ISO form, the result read
/// in its FF\[4\] form (`"B+R"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The board: `[columns, rows]`.
    pub size: [u8; 2],
    /// The charset the game was read in, as every face names it
    /// ([`crate::game_charset`]).
    pub charset: Cow<'static, str>,
    /// The number of nodes of the game.
    pub nodes: usize,
    /// Every game-information property of the game-info node, in file
    /// order, once: its identifier and its values' text (joined by `, `),
    /// as written.
    pub info: Vec<(String, String)>,
    /// `PB` (trimmed, as every field below that holds a text).
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `BR`, as written.
    pub black_rank: Option<String>,
    /// `WR`, as written.
    pub white_rank: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `RU`.
    pub rules: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// `OT`.
    pub time_control: Option<String>,
    /// `DT` as written.
    pub date: Option<String>,
    /// `DT` read as dates, when it can be.
    #[serde(with = "iso_dates")]
    pub dates: Option<Vec<PartialDate>>,
    /// `RE` as written.
    pub result: Option<String>,
    /// `RE` read, when it can be (serialised in its FF\[4\] form).
    #[serde(with = "sgf_result")]
    pub outcome: Option<GameResult>,
    /// `KM` read (`KM[650]` is 6.5).
    pub komi: Option<f64>,
    /// `KM` as written.
    pub komi_text: Option<String>,
    /// `HA` read.
    pub handicap: Option<i64>,
    /// `TM` read, in seconds.
    pub time_limit: Option<f64>,
    /// The root's `AB` stones on the board, each once, in order.
    pub setup_black: Vec<[u8; 2]>,
    /// The root's `AW` stones on the board, each once, in order.
    pub setup_white: Vec<[u8; 2]>,
    /// The moves of the main line: the *N*-th is move *N*.
    pub moves: Vec<SummaryMove>,
    /// Errors: those found while reading the game (when summarised from a
    /// read record, [`summaries`]) and its main-line moves that cannot be
    /// played.
    pub errors: u32,
    /// Warnings found while reading the game (see [`GameSummary::errors`]).
    pub warnings: u32,
}

/// One move of a [`GameSummary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryMove {
    /// Who plays it (`"B"`/`"W"`).
    #[serde(with = "color")]
    pub color: Color,
    /// The point played, `[column, row]` from 0; `None` for a pass and
    /// for a move that cannot be played.
    pub point: Option<[u8; 2]>,
    /// For a move that cannot be played: its value as written (trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unplayable: Option<Box<str>>,
}

impl SummaryMove {
    /// The move as `qipu export` writes it: the point's letters, `""` for
    /// a pass, the value as written for a move that cannot be played.
    pub fn text(&self) -> Cow<'_, str> {
        match (&self.unplayable, self.point) {
            (Some(t), _) => Cow::Borrowed(t),
            (None, Some([x, y])) => Cow::Owned(sgf_core::Point::new(x, y).to_string()),
            (None, None) => Cow::Borrowed(""),
        }
    }
}

impl GameSummary {
    /// The summary of game `gi` of `doc` (`None` when there is no such
    /// game), its charset named by [`crate::game_charset`] with
    /// `converted_from`. No diagnostics are counted: `errors` counts the
    /// moves that cannot be played, `warnings` is 0 ([`summaries`] counts
    /// the reading's too).
    pub fn of(
        doc: &Document,
        gi: usize,
        converted_from: Option<&'static str>,
    ) -> Option<GameSummary> {
        GameSummary::build(doc, gi, converted_from, true, true)
    }

    /// [`GameSummary::of`] without the moves (left empty, and `errors` 0):
    /// for a caller that writes them one at a time from [`summary_moves`]
    /// (`qipu export`: a long game has a million).
    pub fn without_moves(
        doc: &Document,
        gi: usize,
        converted_from: Option<&'static str>,
    ) -> Option<GameSummary> {
        GameSummary::build(doc, gi, converted_from, true, false)
    }

    /// [`GameSummary::of`] without the moves and the setup (left empty,
    /// and `errors` 0): for a caller that replays the game itself and
    /// keeps only the rest (`qipu dataset`'s game table).
    pub fn info_of(
        doc: &Document,
        gi: usize,
        converted_from: Option<&'static str>,
    ) -> Option<GameSummary> {
        GameSummary::build(doc, gi, converted_from, false, false)
    }

    fn build(
        doc: &Document,
        gi: usize,
        converted_from: Option<&'static str>,
        with_setup: bool,
        with_moves: bool,
    ) -> Option<GameSummary> {
        let game = doc.game(gi)?;
        let root = game.root();
        let (size, _) = coords::board_size(&root);
        let mut info = Vec::new();
        if let Some(node) = sgf_go::info::game_info_node(&game) {
            for p in node.props() {
                if p.info().is_some_and(|i| i.kind == PropKind::GameInfo)
                    && !info.iter().any(|(k, _): &(String, String)| k == p.ident())
                {
                    let text: Vec<String> = node
                        .values(p.ident())
                        .map(|v| v.text().into_owned())
                        .collect();
                    info.push((p.ident().to_string(), text.join(", ")));
                }
            }
        }
        let setup = |ident: &str| -> Vec<[u8; 2]> {
            if !with_setup {
                return Vec::new();
            }
            // Each stone once: a list of overlapping rectangles can give
            // every point thousands of times.
            let mut once = HashSet::new();
            coords::each_point(&root, ident, size)
                .filter(|p| once.insert(*p))
                .map(|p| [p.x, p.y])
                .collect()
        };
        let moves: Vec<SummaryMove> = if with_moves {
            summary_moves(doc, gi).collect()
        } else {
            Vec::new()
        };
        let unplayable = moves.iter().filter(|m| m.unplayable.is_some()).count() as u32;
        let gi_ = GameInfo::of(doc, gi);
        Some(GameSummary {
            size: [size.cols, size.rows],
            charset: Cow::Borrowed(crate::game_charset(doc, gi, converted_from)),
            nodes: game.nodes().count(),
            info,
            black: gi_.black,
            white: gi_.white,
            black_rank: gi_.black_rank,
            white_rank: gi_.white_rank,
            event: gi_.event,
            round: gi_.round,
            place: gi_.place,
            rules: gi_.rules,
            name: gi_.name,
            time_control: gi_.overtime,
            date: gi_.dates.as_ref().map(|d| d.raw.clone()),
            dates: gi_.dates.and_then(|d| d.value),
            result: gi_.result.as_ref().map(|r| r.raw.clone()),
            outcome: gi_.result.and_then(|r| r.value),
            komi: gi_.komi.as_ref().and_then(|k| k.value),
            komi_text: gi_.komi.map(|k| k.raw),
            handicap: gi_.handicap.and_then(|h| h.value),
            time_limit: gi_.time_limit.and_then(|t| t.value),
            setup_black: setup("AB"),
            setup_white: setup("AW"),
            moves,
            errors: unplayable,
            warnings: 0,
        })
    }

    /// [`GameSummary::info_of`] with the number of main-line moves its
    /// `moves` would hold: for a caller that shows the count only (`qipu
    /// info`, the viewer's game list), so a long game is counted, not held.
    pub fn counted(
        doc: &Document,
        gi: usize,
        converted_from: Option<&'static str>,
    ) -> Option<(GameSummary, usize)> {
        let s = GameSummary::info_of(doc, gi, converted_from)?;
        Some((s, sgf_go::main_line_move_count(doc, gi)))
    }

    /// The year of the first date of `DT`, when it reads as one.
    pub fn year(&self) -> Option<u16> {
        self.dates.as_ref()?.first().map(|d| d.year)
    }
}

/// The moves of the main line of game `gi`, as [`GameSummary::moves`]
/// holds them, one at a time.
pub fn summary_moves(doc: &Document, gi: usize) -> impl Iterator<Item = SummaryMove> + '_ {
    sgf_go::main_line_moves_iter(doc, gi).map(|m| match m.mv {
        Some(mv) => SummaryMove {
            color: m.color,
            point: match mv {
                Move::Play(p) => Some([p.x, p.y]),
                Move::Pass => None,
            },
            unplayable: None,
        },
        None => {
            let ident = if m.color == Color::Black { "B" } else { "W" };
            let text = doc
                .node(m.node)
                .value(ident)
                .map(|v| String::from_utf8_lossy(v.raw()).trim().to_string())
                .unwrap_or_default();
            SummaryMove {
                color: m.color,
                point: None,
                unplayable: Some(text.into_boxed_str()),
            }
        }
    })
}

/// Every game of a record summarised, with the diagnostics of reading
/// counted in the game they fall in (the game whose root starts at or
/// before them; every one of a record converted from another format, whose
/// diagnostics point into its input, in its first game).
pub fn summaries(loaded: &Loaded) -> Vec<GameSummary> {
    let doc = &loaded.parsed.document;
    let converted = loaded.converted.then_some(loaded.charset);
    let mut out: Vec<GameSummary> = (0..doc.game_count())
        .filter_map(|gi| GameSummary::of(doc, gi, converted))
        .collect();
    count_diagnostics(doc, loaded.converted, &loaded.parsed.diagnostics, &mut out);
    out
}

/// Adds the errors and warnings of `diagnostics` to the summaries of the
/// games of `doc` they fall in (see [`summaries`]).
fn count_diagnostics(
    doc: &Document,
    converted: bool,
    diagnostics: &[Diagnostic],
    out: &mut [GameSummary],
) {
    let starts: Vec<u32> = doc.games().map(|g| g.root().span().start).collect();
    for d in diagnostics {
        let gi = if converted {
            0
        } else {
            starts
                .partition_point(|&s| s <= d.span.start)
                .saturating_sub(1)
        };
        if let Some(s) = out.get_mut(gi) {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => {}
            }
        }
    }
}

/// Colours as `"B"`/`"W"`.
mod color {
    use serde::{Deserialize, Deserializer, Serializer};
    use sgf_core::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match <Cow<'de, str>>::deserialize(d)?.as_ref() {
            "B" => Ok(Color::Black),
            "W" => Ok(Color::White),
            other => Err(serde::de::Error::custom(format!(
                "expected \"B\" or \"W\", found {other:?}"
            ))),
        }
    }

    use std::borrow::Cow;
}

/// Dates as a list of ISO strings (`"2003-05"`).
mod iso_dates {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use sgf_go::PartialDate;

    pub fn serialize<S: Serializer>(d: &Option<Vec<PartialDate>>, s: S) -> Result<S::Ok, S::Error> {
        d.as_ref()
            .map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>())
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<PartialDate>>, D::Error> {
        let Some(v) = <Option<Vec<String>>>::deserialize(d)? else {
            return Ok(None);
        };
        v.iter()
            .map(|s| {
                sgf_go::parse_dates(s)
                    .and_then(|d| d.first().copied())
                    .ok_or_else(|| serde::de::Error::custom(format!("not a date: {s:?}")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }
}

/// A result in its FF\[4\] form (`"B+R"`, `"W+2.5"`, `"0"`, `"Void"`, `"?"`).
mod sgf_result {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use sgf_go::GameResult;

    pub fn serialize<S: Serializer>(r: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
        r.as_ref().map(|r| r.to_string()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GameResult>, D::Error> {
        let Some(t) = <Option<String>>::deserialize(d)? else {
            return Ok(None);
        };
        sgf_go::parse_result(&t)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("not a result: {t:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_kept_errors_counted_and_serde_round_trip() {
        let sgf =
            b"(;GM[1]SZ[9]PB[ Lee ]BR[9 dan]DT[2003-05-06,07]RE[W+2.5]KM[650]HA[2]AB[cc][cc][gg]\
            ;B[ee];W[zz];B[];W[1a])(;SZ[5]AW[aa:bb];B[aa])";
        let loaded = crate::read_any(sgf, None).unwrap();
        let all = summaries(&loaded);
        assert_eq!(all.len(), 2);
        let s = &all[0];
        assert_eq!(s.size, [9, 9]);
        assert_eq!(s.black.as_deref(), Some("Lee"));
        assert_eq!(
            s.info
                .iter()
                .find(|(k, _)| k == "PB")
                .map(|(_, v)| v.as_str()),
            Some(" Lee ")
        );
        assert_eq!(s.komi, Some(6.5));
        assert_eq!(s.komi_text.as_deref(), Some("650"));
        assert_eq!(s.handicap, Some(2));
        assert_eq!(s.year(), Some(2003));
        assert_eq!(s.setup_black, vec![[2, 2], [6, 6]]);
        let texts: Vec<_> = s.moves.iter().map(|m| m.text().into_owned()).collect();
        assert_eq!(texts, ["ee", "zz", "", "1a"]);
        assert_eq!(s.moves[1].point, None);
        // Two moves cannot be played; `1a` is also an error of reading.
        assert!(s.errors >= 2);
        assert_eq!(all[1].setup_white, vec![[0, 0], [1, 0], [0, 1], [1, 1]]);
        assert_eq!(all[1].errors, 0);
        let json = serde_json::to_string(s).unwrap();
        let back: GameSummary = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, s);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["outcome"], "W+2.5");
        assert_eq!(v["dates"], serde_json::json!(["2003-05-06", "2003-05-07"]));
        assert_eq!(
            v["moves"][1],
            serde_json::json!({"color": "W", "point": null, "unplayable": "zz"})
        );
    }
}
