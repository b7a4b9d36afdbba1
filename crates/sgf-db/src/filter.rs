//! Game-information filters, turned into one SQL condition over the
//! `games` table.

use rusqlite::types::Value;

pub use sgf_go::filter::{Range, date_key, fold, parse_user_date};

/// The most words [`Filter::comment`] may hold (each is one condition).
pub const MAX_COMMENT_WORDS: usize = 32;

/// How text filters (players, event) match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextMatch {
    /// The name starts with the text.
    #[default]
    Prefix,
    /// The text occurs anywhere in the name.
    Substring,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
    /// No winner recorded (no result, void, unknown).
    None,
}

impl Winner {
    /// `B`, `W`, `draw` (or `0`, `jigo`), `none`.
    ///
    /// # Errors
    /// For anything else.
    pub fn parse(s: &str) -> Result<Winner, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Winner::Black),
            "w" | "white" => Ok(Winner::White),
            "draw" | "0" | "jigo" => Ok(Winner::Draw),
            "none" | "?" => Ok(Winner::None),
            _ => Err(format!("`{s}`: the winner is B, W, draw or none")),
        }
    }
}

/// What games to look at (all fields optional; all given must hold).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Filter {
    /// Either player's name.
    pub player: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// How names and events match.
    pub text_match: TextMatch,
    /// The event (`EV`).
    pub event: Option<String>,
    /// Games on or after this date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`).
    pub date_from: Option<String>,
    /// Games on or before this date.
    pub date_to: Option<String>,
    /// The result starts with this (`B+`, `W+R`, `B+0.5`; FF\[4\] form).
    pub result: Option<String>,
    /// Who won.
    pub winner: Option<Winner>,
    /// Either player's rank (`9d`, `3p`, `5k`, `3段`; read as `sgf_go::values::read_rank` reads it).
    pub rank: Option<String>,
    /// Handicap stones.
    pub handicap: Option<Range>,
    /// Komi.
    pub komi: Option<Range>,
    /// Board size (columns and rows).
    pub size: Option<(u8, u8)>,
    /// The rules (`RU`), a substring.
    pub rules: Option<String>,
    /// Words that must all occur in the game's comments.
    pub comment: Option<String>,
    /// Main-line moves.
    pub moves: Option<Range>,
}

impl Filter {
    /// Whether the filter selects every game.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Checks that every part of the filter has an effect and can select
    /// something: no empty text (it would match every game), no range
    /// without ends or with its ends inverted, no date range that ends
    /// before it starts, at most [`MAX_COMMENT_WORDS`] words of comments,
    /// and [`TextMatch::Substring`] only with a name or event to match.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn check(&self) -> Result<(), String> {
        for (what, v) in [
            ("player", &self.player),
            ("black", &self.black),
            ("white", &self.white),
            ("event", &self.event),
            ("result", &self.result),
            ("rank", &self.rank),
            ("rules", &self.rules),
            ("comment", &self.comment),
            ("date from", &self.date_from),
            ("date to", &self.date_to),
        ] {
            if v.as_deref().is_some_and(|v| v.trim().is_empty()) {
                return Err(format!("the {what} is empty (it would match every game)"));
            }
        }
        if let Some(c) = &self.comment {
            let n = c.split_whitespace().count();
            if n > MAX_COMMENT_WORDS {
                return Err(format!(
                    "{n} words of comments; at most {MAX_COMMENT_WORDS} are searched"
                ));
            }
        }
        if self.text_match == TextMatch::Substring
            && self.player.is_none()
            && self.black.is_none()
            && self.white.is_none()
            && self.event.is_none()
        {
            return Err(
                "matching anywhere in a name needs a player, black, white or event to match".into(),
            );
        }
        for (what, r) in [
            ("handicap", &self.handicap),
            ("komi", &self.komi),
            ("length", &self.moves),
        ] {
            if let Some(r) = r {
                r.check().map_err(|e| format!("the {what}: {e}"))?;
            }
        }
        let date = |d: &str| {
            parse_user_date(d)
                .ok_or_else(|| format!("`{d}` is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"))
        };
        let from = self.date_from.as_deref().map(date).transpose()?;
        let to = self.date_to.as_deref().map(date).transpose()?;
        if let (Some(a), Some(b)) = (from, to)
            && date_key(&a, true) > date_key(&b, false)
        {
            return Err(format!(
                "the dates are inverted: from {} is after to {}",
                self.date_from.as_deref().unwrap_or(""),
                self.date_to.as_deref().unwrap_or("")
            ));
        }
        Ok(())
    }

    /// The SQL condition over `games g` and its parameters.
    ///
    /// # Errors
    /// When the filter is not valid ([`Filter::check`]).
    pub fn to_sql(&self) -> Result<(String, Vec<Value>), String> {
        self.check()?;
        let mut conds: Vec<String> = Vec::new();
        let mut params: Vec<Value> = Vec::new();
        let text = |col: &[&str], v: &str, conds: &mut Vec<String>, params: &mut Vec<Value>| {
            params.push(Value::Text(fold(v)));
            let n = params.len();
            let one = |c: &str| match self.text_match {
                TextMatch::Prefix => format!("substr({c}, 1, length(?{n})) = ?{n}"),
                TextMatch::Substring => format!("instr({c}, ?{n}) > 0"),
            };
            let parts: Vec<String> = col.iter().map(|c| one(c)).collect();
            conds.push(format!("({})", parts.join(" OR ")));
        };
        if let Some(p) = &self.player {
            text(&["g.black_key", "g.white_key"], p, &mut conds, &mut params);
        }
        if let Some(p) = &self.black {
            text(&["g.black_key"], p, &mut conds, &mut params);
        }
        if let Some(p) = &self.white {
            text(&["g.white_key"], p, &mut conds, &mut params);
        }
        if let Some(p) = &self.event {
            text(&["g.event_key"], p, &mut conds, &mut params);
        }
        if let Some(r) = &self.rules {
            params.push(Value::Text(fold(r)));
            conds.push(format!("instr(lower(g.rules), ?{}) > 0", params.len()));
        }
        if let Some(d) = &self.date_from {
            let d = parse_user_date(d)
                .ok_or_else(|| format!("`{d}` is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"))?;
            params.push(Value::Integer(date_key(&d, true)));
            conds.push(format!("g.date_max >= ?{}", params.len()));
        }
        if let Some(d) = &self.date_to {
            let d = parse_user_date(d)
                .ok_or_else(|| format!("`{d}` is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"))?;
            params.push(Value::Integer(date_key(&d, false)));
            conds.push(format!("g.date_min <= ?{}", params.len()));
        }
        if let Some(r) = &self.result {
            params.push(Value::Text(r.trim().to_ascii_uppercase()));
            let n = params.len();
            conds.push(format!("substr(upper(g.result), 1, length(?{n})) = ?{n}"));
        }
        if let Some(w) = self.winner {
            conds.push(
                match w {
                    Winner::Black => "g.winner = 'B'",
                    Winner::White => "g.winner = 'W'",
                    Winner::Draw => "g.winner = '0'",
                    Winner::None => "g.winner IS NULL",
                }
                .into(),
            );
        }
        if let Some(r) = &self.rank {
            let rank = sgf_go::values::read_rank(r).unwrap_or_else(|| r.trim().to_string());
            params.push(Value::Text(rank.to_lowercase()));
            let n = params.len();
            conds.push(format!(
                "(lower(g.black_rank) = ?{n} OR lower(g.white_rank) = ?{n})"
            ));
        }
        for (col, r) in [
            ("g.handicap", &self.handicap),
            ("g.komi", &self.komi),
            ("g.moves", &self.moves),
        ] {
            let Some(r) = r else { continue };
            if let Some(a) = r.min {
                params.push(Value::Real(a));
                conds.push(format!("{col} >= ?{}", params.len()));
            }
            if let Some(b) = r.max {
                params.push(Value::Real(b));
                conds.push(format!("{col} <= ?{}", params.len()));
            }
        }
        if let Some((c, r)) = self.size {
            params.push(Value::Integer(c as i64));
            params.push(Value::Integer(r as i64));
            conds.push(format!(
                "g.cols = ?{} AND g.rows = ?{}",
                params.len() - 1,
                params.len()
            ));
        }
        if let Some(words) = &self.comment {
            for w in words.split_whitespace() {
                let esc = w
                    .replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_");
                params.push(Value::Text(format!("%{esc}%")));
                conds.push(format!(
                    "g.id IN (SELECT rowid FROM comments WHERE text LIKE ?{} ESCAPE '\\')",
                    params.len()
                ));
            }
        }
        if conds.is_empty() {
            conds.push("1".into());
        }
        Ok((conds.join(" AND "), params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_ranges() {
        assert_eq!(fold("ＬＥＥ Sedol"), "lee sedol");
        assert_eq!(fold("ｲ"), "イ");
        assert_eq!(
            Range::parse("2..4").unwrap(),
            Range {
                min: Some(2.0),
                max: Some(4.0)
            }
        );
        assert_eq!(
            Range::parse("6.5").unwrap(),
            Range {
                min: Some(6.5),
                max: Some(6.5)
            }
        );
        assert_eq!(Range::parse("..3").unwrap().min, None);
        assert!(Range::parse("x..3").is_err());
        assert!(Range::parse("").is_err());
        assert_eq!(Winner::parse("Jigo").unwrap(), Winner::Draw);
        let d = parse_user_date("2003-05").unwrap();
        assert_eq!(
            (date_key(&d, true), date_key(&d, false)),
            (20030500, 20030599)
        );
        assert!(parse_user_date("soon").is_none());
    }
}
