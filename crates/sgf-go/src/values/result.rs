//! Results: `RE` in the FF\[4\] form (`B+3.5`, `W+R`, `0`, `Void`, `?`), and
//! as people write them in English (`Black wins by resignation`, `B+Res.`,
//! `white wins by 5 3/4 points`), Chinese (`黑中盘胜`, `黑胜2又3/4子`,
//! `白超时负`, `和棋`), Japanese (`黒中押し勝ち`, `白1目半勝`, `持碁`) and
//! Korean (`흑 시간승`, `백 불계승`, `무승부`), full-width or not.

use std::fmt;

use sgf_core::Color;

use super::amount::amount_in;
use super::fold;

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
    /// What kind of result, as the JSON of `info`, `export` and Python name
    /// it: `draw`, `void`, `unknown`, or how a win was won
    /// ([`WinBy::as_str`]: `score`, `resign`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            GameResult::Draw => "draw",
            GameResult::Void => "void",
            GameResult::Unknown => "unknown",
            GameResult::Win { by, .. } => by.as_str(),
        }
    }

    /// The margin in points of a win by points.
    pub fn margin(&self) -> Option<f64> {
        match self {
            GameResult::Win { by, .. } => by.margin(),
            _ => None,
        }
    }

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

/// Parses `RE` in the FF\[4\] format: `0`, `Draw`, `Void`, `?`, `B+3.5`,
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

impl WinBy {
    /// Its name, as the JSON of `info`, `export` and Python give it:
    /// `score`, `unspecified`, `resign`, `time`, `forfeit`.
    pub fn as_str(&self) -> &'static str {
        match self {
            WinBy::Score(_) => "score",
            WinBy::Unspecified => "unspecified",
            WinBy::Resign => "resign",
            WinBy::Time => "time",
            WinBy::Forfeit => "forfeit",
        }
    }

    /// The margin in points, for a win by points.
    pub fn margin(&self) -> Option<f64> {
        match self {
            WinBy::Score(s) => Some(*s),
            _ => None,
        }
    }
}

fn win(winner: Color, by: WinBy) -> Option<GameResult> {
    Some(GameResult::Win { winner, by })
}

/// A result as people write it (see the module docs); `None` when the text
/// does not say clearly who won, or that nobody did.
pub fn read_result(s: &str) -> Option<GameResult> {
    let f = fold(s);
    let t = f.trim();
    if let Some(r) = parse_result(t) {
        return Some(r);
    }
    let lower = t.to_lowercase();
    if lower.is_empty() {
        return None;
    }
    if ["和棋", "持碁", "무승부", "jigo", "draw", "tie", "平局"]
        .iter()
        .any(|w| lower.contains(w))
        || lower == "和"
    {
        return Some(GameResult::Draw);
    }
    if ["無勝負", "无胜负", "打ち掛け", "void", "no result"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return Some(GameResult::Void);
    }
    // `B+…`/`W+…` in any case, with loose words after it.
    let plus = lower
        .strip_prefix("b+")
        .map(|r| (Color::Black, r))
        .or_else(|| lower.strip_prefix("w+").map(|r| (Color::White, r)));
    if let Some((winner, rest)) = plus {
        let rest = rest.trim();
        if rest.is_empty() {
            return win(winner, WinBy::Unspecified);
        }
        return win(winner, how(rest)?);
    }
    // A sentence: the first colour word names the player it is about.
    const BLACK: [&str; 4] = ["黒", "黑", "흑", "black"];
    const WHITE: [&str; 3] = ["白", "백", "white"];
    let find = |words: &[&str]| words.iter().filter_map(|w| lower.find(w)).min();
    let (colour, at) = match (find(&BLACK), find(&WHITE)) {
        (Some(b), Some(w)) if b < w => (Color::Black, b),
        (Some(_), Some(w)) => (Color::White, w),
        (Some(b), None) => (Color::Black, b),
        (None, Some(w)) => (Color::White, w),
        (None, None) => return None,
    };
    let tail = &lower[at..];
    let won = ["勝", "胜", "승", "win", "won"]
        .iter()
        .any(|k| tail.contains(k));
    let lost = ["負", "负", "패", "lose", "lost"]
        .iter()
        .any(|k| tail.contains(k));
    let winner = match (won, lost) {
        (true, false) => colour,
        (false, true) => colour.opponent(),
        // `Black 3.5`, `黑中盘`: a sentence that starts with the winner.
        (false, false) if at == 0 => colour,
        _ => return None,
    };
    win(winner, how(tail)?)
}

/// How a game was won, from the words after the winner: resignation, time,
/// forfeit, or a margin (in points; stones count two).
fn how(tail: &str) -> Option<WinBy> {
    let words = |ks: &[&str]| ks.iter().any(|k| tail.contains(k));
    let bare = tail.trim().trim_end_matches('.');
    let digits = tail.contains(|c: char| c.is_ascii_digit());
    let ended = words(&[
        "中押", "中盘", "中盤", "불계", "resign", "abandon", "時間", "时间", "超时", "시간",
        "time", "反則", "犯规", "반칙", "forfeit",
    ]);
    if ended && digits {
        // A resignation and a number (`B+Resign or 7`): not one result.
        return None;
    }
    if words(&["中押", "中盘", "中盤", "불계", "resign", "abandon"])
        || matches!(bare, "r" | "res" | "resn" | "rsn")
    {
        return Some(WinBy::Resign);
    }
    if words(&["時間", "时间", "超时", "시간", "time"]) || tail.trim() == "t" {
        return Some(WinBy::Time);
    }
    if words(&["反則", "犯规", "반칙", "forfeit"]) || tail.trim() == "f" {
        return Some(WinBy::Forfeit);
    }
    if tail.contains(|c: char| c.is_ascii_digit() || super::is_cjk_digit(c)) {
        // A number that is not one margin (`3 or 4`) is not understood.
        return match amount_in(tail) {
            Some(a) if a.points() >= 0.0 => Some(WinBy::Score(a.points())),
            _ => None,
        };
    }
    Some(WinBy::Unspecified)
}
