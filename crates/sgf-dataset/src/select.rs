//! Which games go into a dataset, and why the others do not.

use serde::Serialize;
use sgf_go::filter::Range;
use sgf_go::values::Rank;

/// What to do with a game that has a move the rules forbid (on a stone,
/// a suicide, an immediate ko retake) or one that cannot be played (off
/// the board, unreadable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Illegal {
    /// Leave the game out.
    #[default]
    Drop,
    /// Keep the moves before it.
    Cut,
}

/// How a game ended, as its result (`RE`) says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// By resignation (`B+R`).
    Resign,
    /// By counting, with a margin (`W+6.5`).
    Points,
    /// A win whose margin is not said (`B+`).
    Unspecified,
    /// On time (`W+T`).
    Time,
    /// By forfeit (`B+F`).
    Forfeit,
    /// A draw.
    Draw,
    /// No result, void or unknown.
    Unknown,
}

impl Ending {
    /// Reads `resign`, `points`, `unspecified`, `time`, `forfeit`, `draw`, `unknown`.
    ///
    /// # Errors
    /// For anything else.
    pub fn parse(s: &str) -> Result<Ending, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "resign" | "resignation" | "r" => Ending::Resign,
            "points" | "score" | "counting" => Ending::Points,
            "unspecified" => Ending::Unspecified,
            "time" | "t" => Ending::Time,
            "forfeit" | "f" => Ending::Forfeit,
            "draw" | "jigo" => Ending::Draw,
            "unknown" | "none" => Ending::Unknown,
            _ => {
                return Err(format!(
                    "`{s}`: an ending is resign, points, unspecified, time, forfeit, draw or unknown"
                ));
            }
        })
    }
}

/// What games to keep. Every condition given must hold; a game whose
/// information cannot tell (no `KM` for a komi range, no rank for a rank
/// bound) is left out, and counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// Board size (square boards only: the planes have one shape).
    pub size: u8,
    /// Handicap stones (`HA`, 0 when absent).
    pub handicap: Option<Range>,
    /// Komi (`KM`).
    pub komi: Option<Range>,
    /// The rules (`RU`) hold one of these (folded; empty: any).
    pub rules: Vec<String>,
    /// Games on or after this date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`).
    pub date_from: Option<String>,
    /// Games on or before this date.
    pub date_to: Option<String>,
    /// Both players at least this rank.
    pub min_rank: Option<Rank>,
    /// Both players at most this rank.
    pub max_rank: Option<Rank>,
    /// At least this many moves (after a cut at an illegal move).
    pub min_moves: usize,
    /// How the game ended (empty: any).
    pub endings: Vec<Ending>,
    /// Either player's name holds one of these (folded; empty: any).
    pub players: Vec<String>,
    /// Games with a move that cannot be played.
    pub illegal: Illegal,
    /// Leave out a game that is the same as one kept before (the signature
    /// of `qipu db dups`: Dyer moves and final position, up to symmetry).
    pub dedup: bool,
    /// Leave out games without a winner (no result, a draw, void,
    /// unknown): `Some` as the user asked, `None` as the format needs
    /// ([`Options::complete`](crate::Options::complete) decides: yes for
    /// Leela Zero's chunks, which cannot hold a game without one, no
    /// otherwise).
    pub require_winner: Option<bool>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            size: 19,
            handicap: None,
            komi: None,
            rules: Vec::new(),
            date_from: None,
            date_to: None,
            min_rank: None,
            max_rank: None,
            min_moves: 1,
            endings: Vec::new(),
            players: Vec::new(),
            illegal: Illegal::Drop,
            dedup: true,
            require_winner: None,
        }
    }
}

/// Why a game is not in the dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dropped {
    /// Not a game of Go (`GM` other than 1).
    NotGo,
    /// Another board size.
    Size,
    /// The handicap is out of range.
    Handicap,
    /// The komi is out of range or unknown.
    Komi,
    /// Other rules, or none stated.
    Rules,
    /// Out of the date range, or no date.
    Date,
    /// A rank out of range or unknown.
    Rank,
    /// No player matches.
    Players,
    /// Another ending.
    Ending,
    /// No winner, and one is required.
    NoWinner,
    /// A move that cannot be played (see [`Illegal::Drop`]).
    IllegalMove,
    /// Fewer moves than asked.
    TooShort,
    /// The same game as one kept before.
    Duplicate,
}

impl Dropped {
    /// Its name in summaries (`not_go`, `illegal_move`…).
    pub fn name(self) -> &'static str {
        match self {
            Dropped::NotGo => "not_go",
            Dropped::Size => "size",
            Dropped::Handicap => "handicap",
            Dropped::Komi => "komi",
            Dropped::Rules => "rules",
            Dropped::Date => "date",
            Dropped::Rank => "rank",
            Dropped::Players => "players",
            Dropped::Ending => "ending",
            Dropped::NoWinner => "no_winner",
            Dropped::IllegalMove => "illegal_move",
            Dropped::TooShort => "too_short",
            Dropped::Duplicate => "duplicate",
        }
    }
}

impl Selection {
    /// Checks the selection: a date that cannot be read, ranks inverted.
    ///
    /// # Errors
    /// What is wrong, for the user.
    pub fn check(&self) -> Result<(), String> {
        for d in [&self.date_from, &self.date_to].into_iter().flatten() {
            if sgf_go::filter::parse_user_date(d).is_none() {
                return Err(format!("`{d}` is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"));
            }
        }
        if let (Some(a), Some(b)) = (self.min_rank, self.max_rank)
            && a.scale() > b.scale()
        {
            return Err(format!("the rank range is empty ({a} is above {b})"));
        }
        if !(1..=52).contains(&self.size) {
            return Err(format!("board size {} is not 1 to 52", self.size));
        }
        Ok(())
    }

    pub(crate) fn date_bounds(&self) -> (Option<i64>, Option<i64>) {
        let key = |d: &Option<String>, low| {
            d.as_deref()
                .and_then(sgf_go::filter::parse_user_date)
                .map(|d| sgf_go::filter::date_key(&d, low))
        };
        (key(&self.date_from, true), key(&self.date_to, false))
    }

    pub(crate) fn folded(&self) -> (Vec<String>, Vec<String>) {
        let f = |v: &Vec<String>| v.iter().map(|s| sgf_go::filter::fold(s)).collect();
        (f(&self.rules), f(&self.players))
    }
}

/// Whether `v` is in the range.
pub(crate) fn in_range(r: &Range, v: f64) -> bool {
    r.min.is_none_or(|m| v >= m) && r.max.is_none_or(|m| v <= m)
}
