//! A game reduced to what the planes need: the board size, the stones set
//! up at the root, the main line's moves, and the facts a position's
//! labels and metadata take from the game information.

use sgf_core::{Color, Document};
use sgf_formats::summary::GameSummary;
use sgf_go::values::Rank;
use sgf_go::{GameResult, Move, Position, WinBy, coords};

use crate::select::{Dropped, Ending, Illegal, Selection, in_range};

/// A pass, in [`GameData::moves`].
pub const PASS: u16 = u16::MAX;

/// Rules, as the `rules` metadata numbers them.
pub const RULES: [&str; 8] = [
    "unknown",
    "japanese",
    "chinese",
    "korean",
    "aga",
    "new_zealand",
    "ing",
    "other",
];

/// A kept game, compact: a few bytes a move.
#[derive(Clone, Debug)]
pub struct GameData {
    /// The input it comes from (`ARCHIVE!MEMBER` for an archive member).
    pub file: std::sync::Arc<str>,
    /// Its number in the input, from 1.
    pub game: usize,
    /// Board side.
    pub size: u8,
    /// Stones set up (`AB`, `AW`, `AE`), each before the move numbered
    /// by its first field (0: before the first move): the point's new
    /// content (0 empty, 1 Black, 2 White) and the point. Only changes.
    pub setup: Vec<(u32, u8, u16)>,
    /// The main line's moves: the player and the point `y * size + x`, or [`PASS`].
    pub moves: Vec<(Color, u16)>,
    /// The moves were cut at a move that cannot be played.
    pub cut: bool,
    /// The winner, when there is one.
    pub winner: Option<Color>,
    /// Black's margin (negative: White won by it), when the result gives one.
    pub margin: Option<f32>,
    /// Komi (NaN when unknown).
    pub komi: f32,
    /// Handicap stones (`HA`).
    pub handicap: u8,
    /// Index in [`RULES`].
    pub rules: u8,
    /// Ranks on [`Rank::scale`] (`i8::MIN` when unknown): Black, White.
    pub ranks: [i8; 2],
    /// The game's summary, as every face shows it (without its moves and
    /// setup, which the samples hold): its line in `games.jsonl`.
    pub info: GameSummary,
    /// How it ended.
    pub ending: Ending,
    /// The duplicate signature (see [`sgf_go::signature`]).
    pub signature: (String, i64),
    /// A stable key of the game's content: the train/validation split and
    /// the random symmetries hang on it, not on the file's name.
    pub key: u64,
}

fn rules_code(ru: Option<&str>) -> u8 {
    let Some(r) = ru else { return 0 };
    let r = r.to_lowercase();
    let has = |w: &[&str]| w.iter().any(|w| r.contains(w));
    if has(&["japan", "日本"]) {
        1
    } else if has(&["chinese", "china", "中国", "中國", "cn"]) {
        2
    } else if has(&["korea", "韩国", "韓國", "한국"]) {
        3
    } else if has(&["aga", "american"]) {
        4
    } else if has(&["new zealand", "nz"]) {
        5
    } else if has(&["ing", "应氏", "應氏"]) {
        6
    } else if r.trim().is_empty() {
        0
    } else {
        7
    }
}

fn ending_of(r: Option<&GameResult>) -> Ending {
    match r {
        Some(GameResult::Win { by, .. }) => match by {
            WinBy::Resign => Ending::Resign,
            WinBy::Score(_) => Ending::Points,
            WinBy::Unspecified => Ending::Unspecified,
            WinBy::Time => Ending::Time,
            WinBy::Forfeit => Ending::Forfeit,
        },
        Some(GameResult::Draw) => Ending::Draw,
        _ => Ending::Unknown,
    }
}

/// The selection's folded text and date bounds, computed once.
pub(crate) struct Prepared {
    rules: Vec<String>,
    players: Vec<String>,
    dates: (Option<i64>, Option<i64>),
}

impl Prepared {
    pub(crate) fn new(sel: &Selection) -> Prepared {
        let (rules, players) = sel.folded();
        Prepared {
            rules,
            players,
            dates: sel.date_bounds(),
        }
    }
}

/// Game `gi` of `doc` as the dataset takes it, or why it is left out
/// (every reason but [`Dropped::Duplicate`], which needs the games before).
pub(crate) fn extract(
    doc: &Document,
    gi: usize,
    converted_from: Option<&'static str>,
    file: &std::sync::Arc<str>,
    number: usize,
    sel: &Selection,
    prep: &Prepared,
) -> Result<GameData, Dropped> {
    let g = doc.game(gi).ok_or(Dropped::NotGo)?;
    let root = g.root();
    if root
        .value("GM")
        .is_some_and(|v| v.raw().trim_ascii() != b"1")
    {
        return Err(Dropped::NotGo);
    }
    let (size, _) = coords::board_size(&root);
    if size.cols != sel.size || size.rows != sel.size {
        return Err(Dropped::Size);
    }
    // The facts every face shows: the library's summary of the game.
    let info = GameSummary::info_of(doc, gi, converted_from).ok_or(Dropped::NotGo)?;
    let handicap = info.handicap.unwrap_or(0);
    if let Some(r) = &sel.handicap
        && !in_range(r, handicap as f64)
    {
        return Err(Dropped::Handicap);
    }
    let komi = info.komi;
    if let Some(r) = &sel.komi
        && !komi.is_some_and(|k| in_range(r, k))
    {
        return Err(Dropped::Komi);
    }
    if !prep.rules.is_empty() {
        let ru = info.rules.as_deref().map(sgf_go::filter::fold);
        if !ru.is_some_and(|ru| prep.rules.iter().any(|r| ru.contains(r.as_str()))) {
            return Err(Dropped::Rules);
        }
    }
    if prep.dates.0.is_some() || prep.dates.1.is_some() {
        let ok = info.dates.as_ref().is_some_and(|ds| {
            !ds.is_empty()
                && ds.iter().all(|d| {
                    prep.dates
                        .0
                        .is_none_or(|lo| sgf_go::filter::date_key(d, false) >= lo)
                        && prep
                            .dates
                            .1
                            .is_none_or(|hi| sgf_go::filter::date_key(d, true) <= hi)
                })
        });
        if !ok {
            return Err(Dropped::Date);
        }
    }
    let rank = |r: &Option<String>| r.as_deref().and_then(Rank::implied);
    let ranks = [rank(&info.black_rank), rank(&info.white_rank)];
    if sel.min_rank.is_some() || sel.max_rank.is_some() {
        let ok = ranks.iter().all(|r| {
            r.is_some_and(|r| {
                sel.min_rank.is_none_or(|m| r.scale() >= m.scale())
                    && sel.max_rank.is_none_or(|m| r.scale() <= m.scale())
            })
        });
        if !ok {
            return Err(Dropped::Rank);
        }
    }
    if !prep.players.is_empty() {
        let names = [&info.black, &info.white];
        let ok = names.iter().any(|n| {
            n.as_deref().is_some_and(|n| {
                let n = sgf_go::filter::fold(n);
                prep.players.iter().any(|p| n.contains(p.as_str()))
            })
        });
        if !ok {
            return Err(Dropped::Players);
        }
    }
    let result = info.outcome.as_ref();
    let ending = ending_of(result);
    if !sel.endings.is_empty() && !sel.endings.contains(&ending) {
        return Err(Dropped::Ending);
    }
    let (winner, margin) = match result {
        Some(GameResult::Win { winner, by }) => {
            let m = match by {
                WinBy::Score(s) => Some(*s as f32),
                _ => None,
            };
            let sign = if *winner == Color::Black { 1.0 } else { -1.0 };
            (Some(*winner), m.map(|m| m * sign))
        }
        Some(GameResult::Draw) => (None, Some(0.0)),
        _ => (None, None),
    };
    if sel.require_winner == Some(true) && winner.is_none() {
        return Err(Dropped::NoWinner);
    }

    // The stones and moves, replayed: a move the rules forbid is found here.
    let n = size.cols as usize;
    let idx = |p: sgf_core::Point| p.y as u16 * n as u16 + p.x as u16;
    let mut pos = Position::new(size);
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    let mut cut = false;
    'nodes: for node in g.main_line() {
        // Setup as replay executes it: AE, AB, AW, then the move (handicap
        // stones in the second node, as Fox writes them, are setup too).
        for (ident, stone) in [
            ("AE", sgf_go::Stone::Empty),
            ("AB", sgf_go::Stone::Black),
            ("AW", sgf_go::Stone::White),
        ] {
            if !node.has(ident) {
                continue;
            }
            for p in coords::each_point(&node, ident, size) {
                if pos.board.get(p) != stone {
                    pos.board.set(p, stone);
                    setup.push((moves.len() as u32, stone as u8, idx(p)));
                }
            }
        }
        for (color, mv) in sgf_go::moves::node_moves(&node, size) {
            let playable = mv.filter(|&m| legal(&pos, color, m));
            let Some(m) = playable else {
                match sel.illegal {
                    Illegal::Drop => return Err(Dropped::IllegalMove),
                    Illegal::Cut => {
                        cut = true;
                        break 'nodes;
                    }
                }
            };
            pos.play(color, m);
            moves.push((
                color,
                match m {
                    Move::Pass => PASS,
                    Move::Play(p) => idx(p),
                },
            ));
        }
    }
    if moves.len() < sel.min_moves.max(1) {
        return Err(Dropped::TooShort);
    }
    let main: Vec<Option<sgf_core::Point>> = moves
        .iter()
        .take(71)
        .map(|&(_, p)| {
            (p != PASS).then(|| sgf_core::Point::new((p % n as u16) as u8, (p / n as u16) as u8))
        })
        .collect();
    let dyer = sgf_go::signature::dyer_signature(&main, size.cols, size.rows);
    let fin = sgf_go::signature::position_hash(pos.board.cells(), size.cols, size.rows);
    let mut key_bytes = dyer.clone().into_bytes();
    key_bytes.extend_from_slice(&fin.to_le_bytes());
    let key = crate::rng::fnv(&key_bytes);
    let scale = |r: Option<Rank>| r.map_or(i8::MIN, |r| r.scale().clamp(-127, 127) as i8);
    Ok(GameData {
        file: file.clone(),
        game: number,
        size: size.cols,
        setup,
        moves,
        cut,
        winner,
        margin,
        komi: komi.map_or(f32::NAN, |k| k as f32),
        handicap: handicap.clamp(0, 255) as u8,
        rules: rules_code(info.rules.as_deref()),
        ranks: [scale(ranks[0]), scale(ranks[1])],
        signature: (dyer, fin),
        key,
        ending,
        info,
    })
}

/// Whether `mv` by `color` is allowed: the point empty, no immediate ko
/// retake, no suicide (a copy of the board is made only for a point
/// without an empty neighbour, the only place a suicide can be).
pub(crate) fn legal(pos: &Position, color: Color, mv: Move) -> bool {
    let Move::Play(p) = mv else { return true };
    if pos.board.get(p) != sgf_go::Stone::Empty {
        return false;
    }
    if pos.ko == Some(p) && pos.last_move.is_some_and(|(c, _)| c != color) {
        return false;
    }
    let size = pos.board.size();
    let empty_next = [(0i16, -1i16), (0, 1), (-1, 0), (1, 0)]
        .iter()
        .any(|&(dx, dy)| {
            let (x, y) = (p.x as i16 + dx, p.y as i16 + dy);
            x >= 0
                && y >= 0
                && x < size.cols as i16
                && y < size.rows as i16
                && pos.board.get(sgf_core::Point::new(x as u8, y as u8)) == sgf_go::Stone::Empty
        });
    empty_next || pos.legality(color, mv).is_none()
}
