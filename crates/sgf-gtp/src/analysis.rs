//! Engine evaluations: the candidate moves of a position with win rate,
//! score lead, visits and principal variation, as Leela Zero's `lz-analyze`,
//! KataGo's `kata-analyze` and KataGo's JSON analysis engine report them.

use sgf_core::{Color, Point};
use sgf_go::Move;
use sgf_go::coords::{self, BoardSize};

/// A move an engine names: a point, a pass or a resignation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineMove {
    /// A stone on a point.
    Play(Point),
    /// A pass.
    Pass,
    /// The engine resigns.
    Resign,
}

impl EngineMove {
    /// Reads a GTP vertex (`Q16`, `pass`, `resign`, any case) on a board of `size`.
    pub fn parse(s: &str, size: BoardSize) -> Option<EngineMove> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            Some(EngineMove::Pass)
        } else if t.eq_ignore_ascii_case("resign") {
            Some(EngineMove::Resign)
        } else {
            coords::parse_human(t, size).map(EngineMove::Play)
        }
    }

    /// The GTP vertex (`Q16`, `pass`, `resign`).
    pub fn to_gtp(self, size: BoardSize) -> String {
        match self {
            EngineMove::Play(p) => coords::human(p, size),
            EngineMove::Pass => "pass".into(),
            EngineMove::Resign => "resign".into(),
        }
    }

    /// The move on the board (`None` for a resignation).
    pub fn to_move(self) -> Option<Move> {
        match self {
            EngineMove::Play(p) => Some(Move::Play(p)),
            EngineMove::Pass => Some(Move::Pass),
            EngineMove::Resign => None,
        }
    }
}

/// One candidate move of an analysis. Win rate and score lead are from the
/// point of view of the player to move, as engines report them.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: EngineMove,
    /// Visits (playouts) spent on it.
    pub visits: u64,
    /// Win rate for the player to move, 0 to 1.
    pub winrate: f64,
    /// Points the player to move leads by after this move (KataGo only).
    pub score_lead: Option<f64>,
    /// Policy prior, 0 to 1.
    pub prior: Option<f64>,
    /// Lower confidence bound of the win rate, 0 to 1.
    pub lcb: Option<f64>,
    /// The engine's ranking (0: best).
    pub order: u32,
    /// The principal variation, starting with this move.
    pub pv: Vec<EngineMove>,
}

/// An engine's evaluation of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The player to move, whose point of view candidates take.
    pub to_play: Color,
    /// Candidate moves, best first.
    pub candidates: Vec<Candidate>,
    /// Predicted owner of each point, row-major from the top left, from
    /// Black's point of view: +1 Black's, −1 White's (KataGo only).
    pub ownership: Option<Vec<f64>>,
    /// The win rate of the position for the player to move, when the
    /// engine reports one apart from the candidates (KataGo's JSON `rootInfo`).
    pub root_winrate: Option<f64>,
    /// The score lead of the position for the player to move (KataGo's JSON `rootInfo`).
    pub root_score_lead: Option<f64>,
    /// Visits of the whole search, when reported (KataGo's JSON `rootInfo`).
    pub root_visits: Option<u64>,
}

impl Analysis {
    /// An analysis with nothing in it yet, for `to_play`.
    pub fn empty(to_play: Color) -> Analysis {
        Analysis {
            to_play,
            candidates: Vec::new(),
            ownership: None,
            root_winrate: None,
            root_score_lead: None,
            root_visits: None,
        }
    }

    /// The best candidate (lowest `order`, then most visits).
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates
            .iter()
            .min_by_key(|c| (c.order, std::cmp::Reverse(c.visits)))
    }

    /// Visits of the search: the root's, else the candidates' sum.
    pub fn visits(&self) -> u64 {
        self.root_visits
            .unwrap_or_else(|| self.candidates.iter().map(|c| c.visits).sum())
    }

    /// The win rate of the position for the player to move.
    pub fn winrate(&self) -> Option<f64> {
        self.root_winrate.or_else(|| self.best().map(|c| c.winrate))
    }

    /// The score lead of the position for the player to move.
    pub fn score_lead(&self) -> Option<f64> {
        self.root_score_lead
            .or_else(|| self.best().and_then(|c| c.score_lead))
    }

    /// Black's win rate, 0 to 1.
    pub fn black_winrate(&self) -> Option<f64> {
        self.winrate().map(|w| match self.to_play {
            Color::Black => w,
            Color::White => 1.0 - w,
        })
    }

    /// Black's score lead in points (negative: White leads).
    pub fn black_score_lead(&self) -> Option<f64> {
        self.score_lead().map(|s| match self.to_play {
            Color::Black => s,
            Color::White => -s,
        })
    }
}

/// Which analysis command's output a line comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnalysisFormat {
    /// `lz-analyze`: win rate, prior and LCB in ten-thousandths.
    LeelaZero,
    /// `kata-analyze` (and Sabaki's `analyze`): fractions, `scoreLead`, `ownership`.
    KataGo,
}

impl AnalysisFormat {
    /// The GTP command.
    pub fn command(self) -> &'static str {
        match self {
            AnalysisFormat::LeelaZero => "lz-analyze",
            AnalysisFormat::KataGo => "kata-analyze",
        }
    }
}

fn is_key(t: &str) -> bool {
    t.bytes().all(|b| b.is_ascii_alphabetic())
        && !t.eq_ignore_ascii_case("pass")
        && !t.eq_ignore_ascii_case("resign")
}

/// Parses one line of `lz-analyze` or `kata-analyze` output (`info move
/// D4 visits 85 winrate 5000 … pv D4 Q16 info move …`, possibly followed
/// by `ownership v1 v2 …`), for a position with `to_play` to move. Keys
/// may come in any order and unknown keys are skipped, as KataGo's
/// documentation asks of consumers. `None` when the line holds no
/// candidate and no ownership.
pub fn parse_analysis_line(
    line: &str,
    format: AnalysisFormat,
    size: BoardSize,
    to_play: Color,
) -> Option<Analysis> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let scale = match format {
        AnalysisFormat::LeelaZero => 1e-4,
        AnalysisFormat::KataGo => 1.0,
    };
    let mut out = Analysis::empty(to_play);
    // Candidates under construction: (candidate, has a move).
    let mut cur: Option<(Candidate, bool)> = None;
    let finish = |c: Option<(Candidate, bool)>, out: &mut Analysis| {
        if let Some((c, true)) = c {
            out.candidates.push(c);
        }
    };
    let mut i = 0;
    while i < toks.len() {
        let key = toks[i];
        i += 1;
        let start = i;
        while i < toks.len() && !is_key(toks[i]) {
            i += 1;
        }
        let vals = &toks[start..i];
        match key {
            "info" => {
                finish(cur.take(), &mut out);
                cur = Some((
                    Candidate {
                        mv: EngineMove::Pass,
                        visits: 0,
                        winrate: 0.5,
                        score_lead: None,
                        prior: None,
                        lcb: None,
                        order: u32::MAX,
                        pv: Vec::new(),
                    },
                    false,
                ));
            }
            "ownership" => {
                finish(cur.take(), &mut out);
                let v: Vec<f64> = vals.iter().filter_map(|t| t.parse().ok()).collect();
                if v.len() == size.points() && v.iter().all(|x| x.is_finite()) {
                    let sign = if to_play == Color::Black { 1.0 } else { -1.0 };
                    out.ownership = Some(v.into_iter().map(|x| x * sign).collect());
                }
            }
            _ => {
                let Some((c, has_move)) = cur.as_mut() else {
                    continue;
                };
                let num = || {
                    vals.first()
                        .and_then(|t| t.parse::<f64>().ok())
                        .filter(|x| x.is_finite())
                };
                match key {
                    "move" => {
                        if let Some(m) = vals.first().and_then(|t| EngineMove::parse(t, size)) {
                            c.mv = m;
                            *has_move = true;
                        }
                    }
                    "visits" => c.visits = num().map_or(0, |v| v.max(0.0) as u64),
                    "winrate" => c.winrate = num().map_or(0.5, |v| (v * scale).clamp(0.0, 1.0)),
                    "scoreLead" => c.score_lead = num(),
                    "scoreMean" => c.score_lead = c.score_lead.or(num()),
                    "prior" => c.prior = num().map(|v| v * scale),
                    "lcb" => c.lcb = num().map(|v| v * scale),
                    "order" => c.order = num().map_or(u32::MAX, |v| v.max(0.0) as u32),
                    "pv" => {
                        c.pv = vals
                            .iter()
                            .map_while(|t| EngineMove::parse(t, size))
                            .collect()
                    }
                    _ => {}
                }
            }
        }
    }
    finish(cur.take(), &mut out);
    // Engines list candidates best first but may omit `order`.
    for (k, c) in out.candidates.iter_mut().enumerate() {
        if c.order == u32::MAX {
            c.order = k as u32;
        }
    }
    (!out.candidates.is_empty() || out.ownership.is_some()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const S19: BoardSize = BoardSize { cols: 19, rows: 19 };

    #[test]
    fn vertices() {
        assert_eq!(
            EngineMove::parse("Q16", S19),
            Some(EngineMove::Play(Point::new(15, 3)))
        );
        assert_eq!(EngineMove::parse("PASS", S19), Some(EngineMove::Pass));
        assert_eq!(EngineMove::parse("resign", S19), Some(EngineMove::Resign));
        assert_eq!(EngineMove::parse("Z99", S19), None);
        assert_eq!(EngineMove::Play(Point::new(3, 15)).to_gtp(S19), "D4");
        assert_eq!(EngineMove::Resign.to_move(), None);
    }

    #[test]
    fn leela_zero_lines() {
        // As Leela Zero 0.17 prints them (two candidates on one line).
        let line = "info move D4 visits 85 winrate 5123 prior 2700 lcb 4994 order 0 pv D4 Q16 D16 \
                    info move Q16 visits 10 winrate 4900 prior 2600 lcb 4000 order 1 pv Q16 pass";
        let a = parse_analysis_line(line, AnalysisFormat::LeelaZero, S19, Color::White).unwrap();
        assert_eq!(a.candidates.len(), 2);
        let b = a.best().unwrap();
        assert_eq!(b.mv, EngineMove::Play(Point::new(3, 15)));
        assert_eq!(b.visits, 85);
        assert!((b.winrate - 0.5123).abs() < 1e-9);
        assert!((b.prior.unwrap() - 0.27).abs() < 1e-9);
        assert_eq!(b.pv.len(), 3);
        assert_eq!(a.candidates[1].pv[1], EngineMove::Pass);
        assert_eq!(a.visits(), 95);
        assert!((a.black_winrate().unwrap() - 0.4877).abs() < 1e-9);
        assert_eq!(a.score_lead(), None);
    }

    #[test]
    fn katago_lines_in_any_order_with_unknown_keys() {
        let size = BoardSize::square(3);
        let line = "info move B2 visits 487 utility -0.04 winrate 0.48 scoreMean -0.6 scoreStdev 24.7 \
                    scoreLead -0.61 newKey 1 2 prior 0.22 lcb 0.477 utilityLcb -0.05 order 0 pv B2 C3 pvVisits 487 100 \
                    info order 1 pv A1 move A1 winrate 0.3 visits 3 isSymmetryOf C3 \
                    ownership 1 1 1 0 0 0 -1 -1 -0.5";
        let a = parse_analysis_line(line, AnalysisFormat::KataGo, size, Color::White).unwrap();
        assert_eq!(a.candidates.len(), 2);
        let b = a.best().unwrap();
        assert_eq!(b.score_lead, Some(-0.61));
        assert_eq!(
            b.pv,
            [
                EngineMove::Play(Point::new(1, 1)),
                EngineMove::Play(Point::new(2, 0))
            ]
        );
        assert_eq!(a.candidates[1].mv, EngineMove::Play(Point::new(0, 2)));
        assert_eq!(a.candidates[1].pv, [EngineMove::Play(Point::new(0, 2))]);
        assert_eq!(a.black_score_lead(), Some(0.61));
        // White to play: ownership turned to Black's point of view.
        assert_eq!(a.ownership.as_ref().unwrap()[0], -1.0);
        assert_eq!(a.ownership.as_ref().unwrap()[8], 0.5);
    }

    #[test]
    fn junk_is_not_an_analysis() {
        for line in ["", "info", "hello world", "info visits 3", "ownership 1 2"] {
            assert_eq!(
                parse_analysis_line(line, AnalysisFormat::KataGo, S19, Color::Black),
                None,
                "{line}"
            );
        }
        // Non-numbers where numbers belong do not panic.
        let a = parse_analysis_line(
            "info move D4 visits NaN winrate x order -3",
            AnalysisFormat::LeelaZero,
            S19,
            Color::Black,
        )
        .unwrap();
        assert_eq!(a.candidates[0].visits, 0);
    }
}
