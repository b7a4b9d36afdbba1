//! Typed game information: players, ranks, dates (`DT` with its ISO
//! shortcuts), results (`RE`), komi, handicap, time, and the raw text kept
//! whenever a value does not parse.

use std::fmt;

use sgf_core::{Color, Document, Game, Node, NodeId};

/// A date, possibly partial (`1996`, `1996-05`, `1996-05-06`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialDate {
    /// Year.
    pub year: u16,
    /// Month 1–12.
    pub month: Option<u8>,
    /// Day 1–31.
    pub day: Option<u8>,
}

impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
            if let Some(d) = self.day {
                write!(f, "-{d:02}")?;
            }
        }
        Ok(())
    }
}

fn days_in(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        _ => 28,
    }
}

fn digits(s: &str, n: usize) -> Option<u16> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

/// Parses `DT` as FF[4] defines it: comma-separated ISO dates with the
/// shortcuts `MM-DD`, `MM` and `DD` that inherit the preceding year and month
/// (`1996-12-27,28,1997-01-03,04`). `None` when it is not in that format.
pub fn parse_dates(s: &str) -> Option<Vec<PartialDate>> {
    #[derive(Copy, Clone, PartialEq)]
    enum Last {
        None,
        Year,
        YearMonth,
        Full,
        MonthDay,
        Month,
        Day,
    }
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut out: Vec<PartialDate> = Vec::new();
    let mut last = Last::None;
    for part in s.split(',') {
        let f: Vec<&str> = part.split('-').collect();
        let prev = out.last().copied();
        let (date, kind) = match f.as_slice() {
            [y] if y.len() == 4 => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: None,
                    day: None,
                },
                Last::Year,
            ),
            [y, m] if y.len() == 4 => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: Some(digits(m, 2)? as u8),
                    day: None,
                },
                Last::YearMonth,
            ),
            [y, m, d] => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: Some(digits(m, 2)? as u8),
                    day: Some(digits(d, 2)? as u8),
                },
                Last::Full,
            ),
            // MM-DD: after YYYY-MM-DD, YYYY-MM, MM-DD, MM or DD.
            [m, d]
                if matches!(
                    last,
                    Last::Full | Last::YearMonth | Last::MonthDay | Last::Month | Last::Day
                ) =>
            {
                (
                    PartialDate {
                        year: prev?.year,
                        month: Some(digits(m, 2)? as u8),
                        day: Some(digits(d, 2)? as u8),
                    },
                    Last::MonthDay,
                )
            }
            // MM: after YYYY-MM or MM; DD: after YYYY-MM-DD, MM-DD or DD.
            [x] if x.len() == 2 => {
                let v = digits(x, 2)? as u8;
                match last {
                    Last::YearMonth | Last::Month => (
                        PartialDate {
                            year: prev?.year,
                            month: Some(v),
                            day: None,
                        },
                        Last::Month,
                    ),
                    Last::Full | Last::MonthDay | Last::Day => (
                        PartialDate {
                            year: prev?.year,
                            month: prev?.month,
                            day: Some(v),
                        },
                        Last::Day,
                    ),
                    _ => return None,
                }
            }
            _ => return None,
        };
        if let Some(m) = date.month
            && !(1..=12).contains(&m)
        {
            return None;
        }
        if let (Some(m), Some(d)) = (date.month, date.day)
            && (d < 1 || d > days_in(date.year, m))
        {
            return None;
        }
        out.push(date);
        last = kind;
    }
    Some(out)
}

/// A date written another way, rewritten in the ISO format when that is
/// unambiguous: `2024/1/5`, `2024.01.05`, `2024年1月5日`, `20240105`,
/// `2024-1-5`. `None` when no single reading exists.
pub fn correct_date(s: &str) -> Option<String> {
    let t = s.trim();
    if let Some(d) = worded_date(t) {
        return Some(d);
    }
    let norm: String = t
        .chars()
        .map(|c| match c {
            '/' | '.' | '年' | '月' | ' ' | '_' => '-',
            '日' => ' ',
            c => c,
        })
        .collect();
    let norm = norm.trim().trim_end_matches('-').to_string();
    if norm.len() == 8 && norm.bytes().all(|b| b.is_ascii_digit()) {
        let r = format!("{}-{}-{}", &norm[..4], &norm[4..6], &norm[6..]);
        return parse_dates(&r).map(|_| r);
    }
    let f: Vec<&str> = norm.split('-').filter(|x| !x.is_empty()).collect();
    if f.is_empty()
        || f.len() > 3
        || f[0].len() != 4
        || !f.iter().all(|x| x.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let mut r = f[0].to_string();
    for x in &f[1..] {
        if x.len() > 2 {
            return None;
        }
        r.push_str(&format!("-{x:0>2}"));
    }
    parse_dates(&r).map(|_| r)
}

/// Dates with an English month name: `August 1, 2001`, `1 Aug 2001`,
/// `12th and 13th march 94` (two-digit years: 50–99 → 19xx, else 20xx).
fn worded_date(t: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut month = None;
    let mut numbers = Vec::new();
    for w in &words {
        if w.chars().all(|c| c.is_ascii_alphabetic()) {
            if let Some(m) = MONTHS.iter().position(|m| w.starts_with(m) && w.len() >= 3) {
                if month.is_some() {
                    return None;
                }
                month = Some(m as u8 + 1);
            }
            continue;
        }
        let digits: String = w.chars().take_while(|c| c.is_ascii_digit()).collect();
        let suffix = &w[digits.len()..];
        if digits.is_empty() || !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
            return None;
        }
        numbers.push((digits.parse::<u32>().ok()?, digits.len()));
    }
    let month = month?;
    let year_at = numbers
        .iter()
        .position(|&(_, len)| len == 4)
        .or_else(|| numbers.iter().rposition(|&(n, len)| len == 2 && n > 31))
        .or_else(|| (numbers.len() >= 2).then(|| numbers.len() - 1))?;
    let (y, len) = numbers.remove(year_at);
    let year = match len {
        4 => y,
        2 if y >= 50 => 1900 + y,
        2 => 2000 + y,
        _ => return None,
    };
    if numbers.is_empty() {
        let r = format!("{year:04}-{month:02}");
        return parse_dates(&r).map(|_| r);
    }
    let mut r = format!("{year:04}-{month:02}-{:02}", numbers[0].0);
    for &(d, _) in &numbers[1..] {
        r.push_str(&format!(",{d:02}"));
    }
    parse_dates(&r).map(|_| r)
}

/// How a game ended, from `RE`.
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// A win.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A draw (jigo): `0` or `Draw`.
    Draw,
    /// No result or suspended play: `Void`.
    Void,
    /// Unknown: `?`.
    Unknown,
}

/// How a game was won.
#[derive(Clone, Debug, PartialEq)]
pub enum WinBy {
    /// By points (the margin).
    Score(f64),
    /// By an unstated margin (`B+`).
    Unspecified,
    /// By resignation.
    Resign,
    /// On time.
    Time,
    /// By forfeit.
    Forfeit,
}

impl GameResult {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameResult::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Draw => f.write_str("0"),
            GameResult::Void => f.write_str("Void"),
            GameResult::Unknown => f.write_str("?"),
            GameResult::Win { winner, by } => {
                write!(f, "{}+", winner.as_str())?;
                match by {
                    WinBy::Score(s) => write!(f, "{s}"),
                    WinBy::Unspecified => Ok(()),
                    WinBy::Resign => f.write_str("R"),
                    WinBy::Time => f.write_str("T"),
                    WinBy::Forfeit => f.write_str("F"),
                }
            }
        }
    }
}

/// Parses `RE` in the FF[4] format: `0`, `Draw`, `Void`, `?`, `B+3.5`,
/// `W+R`, `B+Resign`, `W+T`, `B+Time`, `W+F`, `B+Forfeit`, `B+`.
pub fn parse_result(s: &str) -> Option<GameResult> {
    let t = s.trim();
    match t {
        "0" | "Draw" => return Some(GameResult::Draw),
        "Void" => return Some(GameResult::Void),
        "?" => return Some(GameResult::Unknown),
        _ => {}
    }
    let (winner, rest) = if let Some(r) = t.strip_prefix("B+") {
        (Color::Black, r)
    } else if let Some(r) = t.strip_prefix("W+") {
        (Color::White, r)
    } else {
        return None;
    };
    let by = match rest {
        "" => WinBy::Unspecified,
        "R" | "Resign" => WinBy::Resign,
        "T" | "Time" => WinBy::Time,
        "F" | "Forfeit" => WinBy::Forfeit,
        r => WinBy::Score(sgf_core::value::parse_real(r.as_bytes()).filter(|v| *v >= 0.0)?),
    };
    Some(GameResult::Win { winner, by })
}

/// A result written another way, rewritten in the FF[4] format when that is
/// unambiguous (`B+Res.`, `W+resign`, `Black wins by 3.5`, `黑中盘胜`,
/// `白胜2.5目`, `黒中押し勝ち`, `Jigo`). `None` otherwise.
pub fn correct_result(s: &str) -> Option<String> {
    let t = s.trim();
    if parse_result(t).is_some() {
        return Some(t.to_string());
    }
    let lower = t.to_lowercase();
    let (b, w) = (
        lower.starts_with("b+")
            || lower.starts_with("black")
            || t.starts_with('黑')
            || t.starts_with('黒')
            || t.starts_with('흑'),
        lower.starts_with("w+")
            || lower.starts_with("white")
            || t.starts_with('白')
            || t.starts_with('백'),
    );
    if matches!(lower.as_str(), "draw" | "jigo" | "tie")
        || t.contains("和棋")
        || t.contains("持碁")
        || t.contains("무승부")
    {
        return Some("0".into());
    }
    let winner = match (b, w) {
        (true, false) => "B",
        (false, true) => "W",
        _ => return None,
    };
    let rest = if lower.starts_with("b+") || lower.starts_with("w+") {
        &lower[2..]
    } else {
        lower.as_str()
    };
    if rest.contains("resign")
        || rest.starts_with('r')
        || t.contains("中盘")
        || t.contains("中押")
        || t.contains("불계")
    {
        return Some(format!("{winner}+R"));
    }
    if rest.contains("time")
        || rest.starts_with('t')
        || t.contains("超时")
        || t.contains("時間")
        || t.contains("시간")
    {
        return Some(format!("{winner}+T"));
    }
    if rest.contains("forfeit") {
        return Some(format!("{winner}+F"));
    }
    // A margin: the first number, with fractions (`5 3/4`) and 半 as a half point.
    if let Some(v) = crate::lenient::real(&t[t.char_indices().nth(1).map_or(0, |(i, _)| i)..])
        && v >= 0.0
    {
        return Some(format!("{winner}+{v}"));
    }
    if rest.trim_start_matches(['+', ' ']).is_empty()
        || rest.contains("win")
        || t.contains('胜')
        || t.contains('勝')
        || t.contains('승')
    {
        return Some(format!("{winner}+"));
    }
    None
}

/// A value with its raw text, kept when it does not parse.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<T> {
    /// The text as written (SimpleText rules applied).
    pub raw: String,
    /// The typed value, when the text is in the specified format.
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
        let parsed_real = |id: &str| {
            t(id).map(|raw| Parsed {
                value: sgf_core::value::parse_real(raw.as_bytes()),
                raw,
            })
        };
        GameInfo {
            node: Some(node.id()),
            black: t("PB"),
            white: t("PW"),
            black_rank: t("BR"),
            white_rank: t("WR"),
            black_team: t("BT"),
            white_team: t("WT"),
            dates: t("DT").map(|raw| Parsed {
                value: parse_dates(&raw),
                raw,
            }),
            result: t("RE").map(|raw| Parsed {
                value: parse_result(&raw),
                raw,
            }),
            komi: parsed_real("KM"),
            handicap: t("HA").map(|raw| Parsed {
                value: sgf_core::value::parse_number(raw.as_bytes()),
                raw,
            }),
            time_limit: parsed_real("TM"),
            overtime: t("OT"),
            rules: t("RU"),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: u16, m: Option<u8>, dd: Option<u8>) -> PartialDate {
        PartialDate {
            year: y,
            month: m,
            day: dd,
        }
    }

    #[test]
    fn date_table() {
        let cases: &[(&str, Option<Vec<PartialDate>>)] = &[
            ("1997-03-05", Some(vec![d(1997, Some(3), Some(5))])),
            ("1996", Some(vec![d(1996, None, None)])),
            ("1996-05", Some(vec![d(1996, Some(5), None)])),
            (
                "1996-05,06",
                Some(vec![d(1996, Some(5), None), d(1996, Some(6), None)]),
            ),
            (
                "1996-05-06,07,08",
                Some(vec![
                    d(1996, Some(5), Some(6)),
                    d(1996, Some(5), Some(7)),
                    d(1996, Some(5), Some(8)),
                ]),
            ),
            (
                "1996,1997",
                Some(vec![d(1996, None, None), d(1997, None, None)]),
            ),
            (
                "1996-12-27,28,1997-01-03,04",
                Some(vec![
                    d(1996, Some(12), Some(27)),
                    d(1996, Some(12), Some(28)),
                    d(1997, Some(1), Some(3)),
                    d(1997, Some(1), Some(4)),
                ]),
            ),
            (
                "1997-05-05,06-01",
                Some(vec![d(1997, Some(5), Some(5)), d(1997, Some(6), Some(1))]),
            ),
            ("2024/1/5", None),
            ("2024-1-5", None),
            ("2023-02-29", None),
            ("2024-02-29", Some(vec![d(2024, Some(2), Some(29))])),
            ("1996,05", None),
            ("", None),
            ("August 1, 2001", None),
        ];
        for (s, want) in cases {
            assert_eq!(&parse_dates(s), want, "{s}");
        }
    }

    #[test]
    fn date_corrections() {
        assert_eq!(correct_date("2024/1/5").as_deref(), Some("2024-01-05"));
        assert_eq!(correct_date("2024.01.05").as_deref(), Some("2024-01-05"));
        assert_eq!(correct_date("2024年1月5日").as_deref(), Some("2024-01-05"));
        assert_eq!(correct_date("20240105").as_deref(), Some("2024-01-05"));
        assert_eq!(correct_date("2024-1").as_deref(), Some("2024-01"));
        assert_eq!(correct_date("5/1/2024"), None);
        assert_eq!(
            correct_date("August 1, 2001").as_deref(),
            Some("2001-08-01")
        );
        assert_eq!(correct_date("1 Aug 2001").as_deref(), Some("2001-08-01"));
        assert_eq!(
            correct_date("12th and 13th march 94").as_deref(),
            Some("1994-03-12,13")
        );
        assert_eq!(correct_date("March 2010").as_deref(), Some("2010-03"));
        assert_eq!(correct_date("yesterday"), None);
    }

    #[test]
    fn result_table() {
        use GameResult::*;
        let w = |c, by| Some(Win { winner: c, by });
        let cases: &[(&str, Option<GameResult>)] = &[
            ("B+3.5", w(Color::Black, WinBy::Score(3.5))),
            ("W+64", w(Color::White, WinBy::Score(64.0))),
            ("W+R", w(Color::White, WinBy::Resign)),
            ("B+Resign", w(Color::Black, WinBy::Resign)),
            ("B+T", w(Color::Black, WinBy::Time)),
            ("W+Time", w(Color::White, WinBy::Time)),
            ("W+F", w(Color::White, WinBy::Forfeit)),
            ("B+Forfeit", w(Color::Black, WinBy::Forfeit)),
            ("B+", w(Color::Black, WinBy::Unspecified)),
            ("0", Some(Draw)),
            ("Draw", Some(Draw)),
            ("Void", Some(Void)),
            ("?", Some(Unknown)),
            ("Black wins", None),
            ("B+-3", None),
            ("W+3,5", None),
        ];
        for (s, want) in cases {
            assert_eq!(&parse_result(s), want, "{s}");
        }
    }

    #[test]
    fn result_corrections() {
        for (s, want) in [
            ("B+Res.", Some("B+R")),
            ("W+resign", Some("W+R")),
            ("Black wins by 3.5", Some("B+3.5")),
            ("黑中盘胜", Some("B+R")),
            ("白胜2.5目", Some("W+2.5")),
            ("黒中押し勝ち", Some("B+R")),
            ("白6目半勝ち", Some("W+6.5")),
            ("black wins by 5 3/4 points", Some("B+5.75")),
            ("Jigo", Some("0")),
            ("흑 시간승", Some("B+T")),
            ("W+T", Some("W+T")),
            ("who knows", None),
        ] {
            assert_eq!(correct_result(s).as_deref(), want, "{s}");
        }
    }
}
