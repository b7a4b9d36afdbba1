//! Counting the score at the end of a game: area and territory scoring,
//! captures, dead stones (from an engine, from the record's `TB`/`TW`, or
//! from Qipu's own estimator) and the result as `RE` writes it.
//!
//! ```
//! use sgf_core::parse;
//! use sgf_go::main_line_end;
//! use sgf_go::score::{Rules, Settings, count, estimate_dead};
//!
//! let doc = parse(b"(;SZ[5]KM[0.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de])").document;
//! let end = main_line_end(&doc, 0);
//! let dead = estimate_dead(&end.position().board);
//! let score = count(end.position(), &dead, &Settings { rules: Rules::Japanese, komi: 0.5, handicap: 0 });
//! assert_eq!(score.black.territory, 5);
//! assert_eq!(score.white.territory, 5);
//! assert_eq!(score.result().to_string(), "W+0.5");
//! ```
//!
//! Under territory scoring the points a player must fill once the dame
//! are filled count for nobody ([`must_fill`]), and so do the eyes of
//! groups in seki when the caller names them ([`seki_points`],
//! [`count_with`]). Qipu's estimator works at any move
//! ([`estimate_position`]): at the end of a game it counts as above, in
//! the middle it gives territory by influence. Its playouts never put
//! two stones or more in atari, so groups in seki stay on the board;
//! limitations: it does not read (ladders, semeai and big groups with
//! one eye are left to random play), and it counts seki eyes as
//! territory unless the caller names them.

use sgf_core::{Color, Node, Point};

mod estimate;
mod playout;
pub use estimate::{
    Estimate, count_or_estimate, count_or_estimate_both, estimate_position, is_settled,
};

use crate::board::{Board, Position, Stone};
use crate::coords::{self, BoardSize};
use crate::info::{GameInfo, GameResult, WinBy};

/// A rule set, as far as counting is concerned.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rules {
    /// Japanese rules: territory and prisoners.
    Japanese,
    /// Korean rules: territory and prisoners.
    Korean,
    /// Chinese rules: area; White gets a point per handicap stone.
    Chinese,
    /// AGA rules: area (equivalent to their territory count with pass
    /// stones); White gets a point per handicap stone after the first.
    Aga,
    /// New Zealand rules: area.
    NewZealand,
    /// Tromp-Taylor rules: area.
    TrompTaylor,
    /// Ing (GOE) rules: area.
    Ing,
}

/// How points are counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points.
    Area,
    /// Surrounded empty points plus prisoners.
    Territory,
}

impl Rules {
    /// Every rule set, in the order of [`Rules::as_str`]'s documentation.
    pub const ALL: [Rules; 7] = [
        Rules::Japanese,
        Rules::Korean,
        Rules::Chinese,
        Rules::Aga,
        Rules::NewZealand,
        Rules::TrompTaylor,
        Rules::Ing,
    ];

    /// Reads a rule-set name as `RU` or a user writes it (`Japanese`, `JP`,
    /// `chinese`, `AGA`, `NZ`, `Tromp-Taylor`, `GOE`, …), case and
    /// punctuation ignored. `None` for anything else.
    pub fn from_name(name: &str) -> Option<Rules> {
        let key: String = name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        Some(match key.as_str() {
            "japanese" | "japan" | "jp" | "jpn" | "nihonkiin" => Rules::Japanese,
            "korean" | "korea" | "kr" | "kor" => Rules::Korean,
            "chinese" | "china" | "cn" | "chn" => Rules::Chinese,
            "aga" | "american" | "bga" => Rules::Aga,
            "nz" | "newzealand" => Rules::NewZealand,
            "tromptaylor" | "tt" => Rules::TrompTaylor,
            "ing" | "goe" => Rules::Ing,
            _ => return None,
        })
    }

    /// The name Qipu writes: `japanese`, `korean`, `chinese`, `aga`, `nz`,
    /// `tromp-taylor`, `ing`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rules::Japanese => "japanese",
            Rules::Korean => "korean",
            Rules::Chinese => "chinese",
            Rules::Aga => "aga",
            Rules::NewZealand => "nz",
            Rules::TrompTaylor => "tromp-taylor",
            Rules::Ing => "ing",
        }
    }

    /// Area or territory scoring.
    pub fn scoring(self) -> Scoring {
        match self {
            Rules::Japanese | Rules::Korean => Scoring::Territory,
            _ => Scoring::Area,
        }
    }

    /// Points White receives for a handicap of `handicap` stones, besides komi.
    pub fn handicap_compensation(self, handicap: u32) -> u32 {
        match self {
            Rules::Chinese if handicap >= 2 => handicap,
            Rules::Aga if handicap >= 2 => handicap - 1,
            _ => 0,
        }
    }
}

/// What counting needs besides the position.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The rules.
    pub rules: Rules,
    /// Komi (points for White).
    pub komi: f64,
    /// Number of handicap stones (0 or 1: none).
    pub handicap: u32,
}

impl Settings {
    /// The rules (`RU`, Japanese when missing or unknown), komi (`KM`, 0
    /// when missing) and handicap (`HA`) of a game.
    pub fn of_game(info: &GameInfo) -> Settings {
        Settings {
            rules: info
                .rules
                .as_deref()
                .and_then(Rules::from_name)
                .unwrap_or(Rules::Japanese),
            komi: info.komi.as_ref().and_then(|k| k.value).unwrap_or(0.0),
            handicap: info
                .handicap
                .as_ref()
                .and_then(|h| h.value)
                .map_or(0, |h| h.clamp(0, u32::MAX as i64) as u32),
        }
    }
}

/// One player's side of the count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Side {
    /// Empty points (and points of removed dead stones) surrounded by this player.
    pub territory: u32,
    /// Prisoners: stones captured during the game plus the opponent's dead stones.
    pub captures: u32,
    /// This player's live stones on the board.
    pub stones: u32,
    /// Live stones plus territory.
    pub area: u32,
    /// This player's stones counted as dead.
    pub dead: u32,
    /// The total under the rules, komi and handicap compensation included for White.
    pub score: f64,
}

/// The count of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// What was counted with.
    pub settings: Settings,
    /// Black's side.
    pub black: Side,
    /// White's side.
    pub white: Side,
    /// The stones counted as dead, row-major order.
    pub dead: Vec<Point>,
    /// The owner of each point, row-major (`None`: neutral, seki or dame).
    pub owner: Vec<Option<Color>>,
    /// Black's score minus White's.
    pub margin: f64,
}

impl Score {
    /// The result in `RE` form: `B+3.5`, `W+12`, `0` for a draw.
    pub fn result(&self) -> GameResult {
        if self.margin == 0.0 {
            return GameResult::Draw;
        }
        GameResult::Win {
            winner: if self.margin > 0.0 {
                Color::Black
            } else {
                Color::White
            },
            by: WinBy::Score(self.margin.abs()),
        }
    }
}

/// Grid helpers over a board's row-major cells.
struct Grid {
    cols: usize,
    rows: usize,
}

impl Grid {
    fn of(size: BoardSize) -> Grid {
        Grid {
            cols: size.cols as usize,
            rows: size.rows as usize,
        }
    }
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let (c, r) = (self.cols, self.rows);
        let (x, y) = (i % c, i / c);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < c).then(|| i + 1),
            (y > 0).then(|| i - c),
            (y + 1 < r).then(|| i + c),
        ]
        .into_iter()
        .flatten()
    }
    fn diagonals(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let (c, r) = (self.cols, self.rows);
        let (x, y) = (i % c, i / c);
        [
            (x > 0 && y > 0).then(|| i - c - 1),
            (x + 1 < c && y > 0).then(|| i - c + 1),
            (x > 0 && y + 1 < r).then(|| i + c - 1),
            (x + 1 < c && y + 1 < r).then(|| i + c + 1),
        ]
        .into_iter()
        .flatten()
    }
    fn point(&self, i: usize) -> Point {
        Point::new((i % self.cols) as u8, (i / self.cols) as u8)
    }
    fn index(&self, p: Point) -> usize {
        p.y as usize * self.cols + p.x as usize
    }
    /// The connected component of `start` over cells for which `inside` holds.
    fn component(&self, cells: &[u8], start: usize, inside: impl Fn(u8) -> bool) -> Vec<usize> {
        let mut seen = vec![false; cells.len()];
        let mut out = vec![start];
        seen[start] = true;
        let mut k = 0;
        while k < out.len() {
            let i = out[k];
            k += 1;
            for j in self.neighbours(i) {
                if !seen[j] && inside(cells[j]) {
                    seen[j] = true;
                    out.push(j);
                }
            }
        }
        out
    }

    /// Every empty region of `cells` (0 empty, 1 black, 2 white) with the
    /// colours that border it, or-ed (1 Black only, 2 White only, 3 both,
    /// 0 none).
    fn empty_regions(&self, cells: &[u8]) -> Vec<(Vec<usize>, u8)> {
        let mut done = vec![false; cells.len()];
        let mut out = Vec::new();
        for start in 0..cells.len() {
            if cells[start] != 0 || done[start] {
                continue;
            }
            let region = self.component(cells, start, |c| c == 0);
            let mut borders = 0u8;
            for &i in &region {
                done[i] = true;
                for j in self.neighbours(i) {
                    borders |= cells[j];
                }
            }
            out.push((region, borders));
        }
        out
    }
}

/// Counts a position with `dead` stones removed (points not holding a
/// stone are ignored). Territory is every empty region, dead stones'
/// points included, bordered by live stones of one colour only.
pub fn count(pos: &Position, dead: &[Point], settings: &Settings) -> Score {
    count_with(pos, dead, &[], settings)
}

/// [`count`] with `dame`: empty points that count for nobody even when
/// one colour surrounds them, such as the points an engine calls dame or
/// seki (a point a player must fill before the end under Japanese rules).
pub fn count_with(pos: &Position, dead: &[Point], dame: &[Point], settings: &Settings) -> Score {
    let size = pos.board.size();
    let grid = Grid::of(size);
    let mut cells = pos.board.cells().to_vec();
    let mut dead_mask = vec![false; cells.len()];
    for &p in dead {
        if size.contains(p) && cells[grid.index(p)] != 0 {
            dead_mask[grid.index(p)] = true;
        }
    }
    // Under area scoring a point a player must fill is area all the same.
    let area = settings.rules.scoring() == Scoring::Area;
    let mut dame_mask = vec![false; cells.len()];
    for &p in dame {
        if size.contains(p) {
            dame_mask[grid.index(p)] = true;
        }
    }
    let (mut black, mut white) = (Side::default(), Side::default());
    for (i, &d) in dead_mask.iter().enumerate() {
        if d {
            match cells[i] {
                1 => black.dead += 1,
                _ => white.dead += 1,
            }
            cells[i] = 0;
        }
    }
    // Under territory scoring a point a player must fill once the dame
    // are filled counts for nobody.
    if !area {
        for i in fill_points(&grid, &cells, &dame_mask) {
            dame_mask[i] = true;
        }
    }
    let mut owner: Vec<Option<Color>> = cells
        .iter()
        .map(|&c| match c {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        })
        .collect();
    for (region, borders) in grid.empty_regions(&cells) {
        let who = match borders {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        };
        for &i in &region {
            // An empty point named dame, or one its owner must fill, is
            // nobody's; a dead stone's point stays territory.
            let neutral = pos.board.cells()[i] == 0 && dame_mask[i] && !area;
            owner[i] = if neutral { None } else { who };
            match owner[i] {
                Some(Color::Black) => black.territory += 1,
                Some(Color::White) => white.territory += 1,
                None => {}
            }
        }
    }
    let margin = totals(pos, &cells, &mut black, &mut white, settings);
    Score {
        settings: settings.clone(),
        dead: (0..cells.len())
            .filter(|&i| dead_mask[i])
            .map(|i| grid.point(i))
            .collect(),
        owner,
        margin,
        black,
        white,
    }
}

/// Completes both sides from their territory and dead stones: the live
/// stones on `cells`, area, prisoners, and the score under the rules (komi
/// and handicap compensation for White). Returns the margin, Black's
/// score minus White's.
fn totals(
    pos: &Position,
    cells: &[u8],
    black: &mut Side,
    white: &mut Side,
    settings: &Settings,
) -> f64 {
    let (b, w) = count_stones(cells);
    black.stones = b;
    white.stones = w;
    black.area = black.stones + black.territory;
    white.area = white.stones + white.territory;
    black.captures = pos.captured_by(Color::Black) + white.dead;
    white.captures = pos.captured_by(Color::White) + black.dead;
    let (bs, ws) = match settings.rules.scoring() {
        Scoring::Territory => (
            black.territory + black.captures,
            white.territory + white.captures,
        ),
        Scoring::Area => (black.area, white.area),
    };
    black.score = f64::from(bs);
    white.score = f64::from(ws)
        + settings.komi
        + f64::from(settings.rules.handicap_compensation(settings.handicap));
    black.score - white.score
}

/// The board's cells (row-major) with the `dead` stones taken off.
fn without_dead(board: &Board, grid: &Grid, dead: &[Point]) -> Vec<u8> {
    let mut cells = board.cells().to_vec();
    for &p in dead {
        if board.size().contains(p) {
            cells[grid.index(p)] = 0;
        }
    }
    cells
}

/// The points a player must fill before the end under territory scoring
/// (Japanese rules, article 8 and its commentary): once the opponent has
/// filled the dame around one of the player's chains, the chain would be
/// left with a single liberty inside the player's own area, where the
/// player has to connect (the board with the `dead` stones taken off).
/// A point filled may leave the grown chain short of
/// liberties in turn, so this repeats until nothing changes. Row-major.
/// [`count_with`] leaves these points out of territory under
/// [`Scoring::Territory`].
pub fn must_fill(board: &Board, dead: &[Point]) -> Vec<Point> {
    let size = board.size();
    let grid = Grid::of(size);
    let cells = without_dead(board, &grid, dead);
    let mut out: Vec<Point> = fill_points(&grid, &cells, &vec![false; cells.len()])
        .into_iter()
        .map(|i| grid.point(i))
        .collect();
    sort_points(&mut out);
    out
}

/// [`must_fill`] over `cells` (dead stones already off): the indices of
/// the empty points to fill. `neutral` marks empty points that count for
/// nobody anyway (seki eyes); they are never filled and never counted as
/// a chain's own liberty.
fn fill_points(grid: &Grid, cells: &[u8], neutral: &[bool]) -> Vec<usize> {
    let n = cells.len();
    // Dame: the empty regions that touch both colours (or neither).
    let mut dame = vec![false; n];
    let mut done = vec![false; n];
    for start in 0..n {
        if cells[start] != 0 || done[start] {
            continue;
        }
        let region = grid.component(cells, start, |c| c == 0);
        let mut borders = 0u8;
        for &i in &region {
            done[i] = true;
            for j in grid.neighbours(i) {
                borders |= cells[j];
            }
        }
        if borders != 1 && borders != 2 {
            for &i in &region {
                dame[i] = true;
            }
        }
    }
    let mut board = cells.to_vec();
    let mut filled = Vec::new();
    loop {
        let mut seen = vec![false; n];
        let mut fill = None;
        for start in 0..n {
            let colour = board[start];
            if colour == 0 || seen[start] {
                continue;
            }
            let chain = grid.component(&board, start, |c| c == colour);
            for &i in &chain {
                seen[i] = true;
            }
            let libs = Liberties::of(grid, &board, &chain, &dame, neutral);
            if libs.dame.is_empty() || libs.safe || libs.own.len() != 1 {
                continue;
            }
            // The player may fill a dame point instead, if that joins the
            // chain to enough liberties of its own.
            let saved = libs.dame.iter().any(|&d| {
                board[d] = colour;
                let grown = grid.component(&board, d, |c| c == colour);
                let l = Liberties::of(grid, &board, &grown, &dame, neutral);
                board[d] = 0;
                l.safe || l.own.len() >= 2
            });
            if !saved {
                fill = Some((libs.own[0], colour));
                break;
            }
        }
        match fill {
            Some((i, colour)) => {
                board[i] = colour;
                filled.push(i);
            }
            None => break,
        }
    }
    filled.sort_unstable();
    filled
}

/// The liberties of a chain, split for [`fill_points`].
struct Liberties {
    /// Empty points in the player's own area.
    own: Vec<usize>,
    /// Dame points.
    dame: Vec<usize>,
    /// Whether the chain touches a seki eye (it lives without filling anything).
    safe: bool,
}

impl Liberties {
    fn of(grid: &Grid, board: &[u8], chain: &[usize], dame: &[bool], neutral: &[bool]) -> Self {
        let mut l = Liberties {
            own: Vec::new(),
            dame: Vec::new(),
            safe: false,
        };
        for &i in chain {
            for j in grid.neighbours(i) {
                if board[j] != 0 {
                    continue;
                }
                if dame[j] {
                    if !l.dame.contains(&j) {
                        l.dame.push(j);
                    }
                } else if neutral[j] {
                    l.safe = true;
                } else if !l.own.contains(&j) {
                    l.own.push(j);
                }
            }
        }
        l
    }
}

/// The empty points that count for nobody because they touch a group in
/// seki: every empty region (the `dead` stones' points included) that
/// borders a chain of the `seki` stones (one stone names its chain), row-major. Japanese and Korean rules
/// give no territory inside a seki.
pub fn seki_points(board: &Board, dead: &[Point], seki: &[Point]) -> Vec<Point> {
    let size = board.size();
    let grid = Grid::of(size);
    let cells = without_dead(board, &grid, dead);
    // A stone named stands for its chain.
    let mut in_seki = vec![false; cells.len()];
    for &p in seki {
        if !size.contains(p) || cells[grid.index(p)] == 0 || in_seki[grid.index(p)] {
            continue;
        }
        let colour = cells[grid.index(p)];
        for i in grid.component(&cells, grid.index(p), |c| c == colour) {
            in_seki[i] = true;
        }
    }
    let mut done = vec![false; cells.len()];
    let mut out = Vec::new();
    for start in 0..cells.len() {
        if cells[start] != 0 || done[start] {
            continue;
        }
        let region = grid.component(&cells, start, |c| c == 0);
        let touches = region
            .iter()
            .any(|&i| grid.neighbours(i).any(|j| in_seki[j]));
        for &i in &region {
            done[i] = true;
            if touches && board.cells()[i] == 0 {
                out.push(grid.point(i));
            }
        }
    }
    sort_points(&mut out);
    out
}

fn count_stones(cells: &[u8]) -> (u32, u32) {
    let b = cells.iter().filter(|&&c| c == 1).count() as u32;
    let w = cells.iter().filter(|&&c| c == 2).count() as u32;
    (b, w)
}

/// Dead stones as the record marks them: black stones on `TW` points and
/// white stones on `TB` points of `node`. `None` when the node has neither
/// property.
pub fn dead_from_marks(board: &Board, node: &Node<'_>) -> Option<Vec<Point>> {
    if !node.has("TB") && !node.has("TW") {
        return None;
    }
    let size = board.size();
    let mut dead: Vec<Point> = coords::points_of(node, "TW", size)
        .into_iter()
        .filter(|&p| board.get(p) == Stone::Black)
        .chain(
            coords::points_of(node, "TB", size)
                .into_iter()
                .filter(|&p| board.get(p) == Stone::White),
        )
        .collect();
    sort_points(&mut dead);
    dead.dedup();
    Some(dead)
}

/// Where a list of dead stones came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeadFrom {
    /// An engine's `final_status_list dead`.
    Engine,
    /// The record's `TB`/`TW` at the node counted.
    Marks,
    /// Qipu's own estimator.
    Estimator,
    /// Chosen by the user (groups toggled while counting).
    User,
}

impl DeadFrom {
    /// `engine`, `marks`, `estimator` or `user`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeadFrom::Engine => "engine",
            DeadFrom::Marks => "marks",
            DeadFrom::Estimator => "estimator",
            DeadFrom::User => "user",
        }
    }
}

/// The dead stones at the cursor's node without an engine: the record's
/// `TB`/`TW` when the node has them, else Qipu's estimator.
pub fn record_dead(doc: &sgf_core::Document, cursor: &crate::Cursor) -> (Vec<Point>, DeadFrom) {
    let board = &cursor.position().board;
    match dead_from_marks(board, &doc.node(cursor.node())) {
        Some(d) => (d, DeadFrom::Marks),
        None => (estimate_dead(board), DeadFrom::Estimator),
    }
}

fn sort_points(points: &mut [Point]) {
    points.sort_by_key(|p| (p.y, p.x));
}

/// The stones of the chain at `p` (empty when `p` holds no stone), row-major.
pub fn chain(board: &Board, p: Point) -> Vec<Point> {
    let size = board.size();
    if board.get(p) == Stone::Empty {
        return Vec::new();
    }
    let grid = Grid::of(size);
    let cells = board.cells();
    let colour = cells[grid.index(p)];
    let mut out: Vec<Point> = grid
        .component(cells, grid.index(p), |c| c == colour)
        .into_iter()
        .map(|i| grid.point(i))
        .collect();
    sort_points(&mut out);
    out
}

/// Marks the chain at `p` dead, or alive again when it was dead: what a
/// click on a group does while counting. Returns the new dead list.
pub fn toggle_dead(board: &Board, dead: &[Point], p: Point) -> Vec<Point> {
    let group = chain(board, p);
    let mut out: Vec<Point> = dead.to_vec();
    if group.is_empty() {
        return out;
    }
    if dead.contains(&p) {
        out.retain(|q| !group.contains(q));
    } else {
        out.extend(group.iter().filter(|q| !dead.contains(q)));
    }
    sort_points(&mut out);
    out
}

/// Options of [`estimate_dead_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EstimateOptions {
    /// Random playouts (half with each colour moving first).
    pub playouts: u32,
    /// Seed of the playouts' random numbers: the same seed, the same answer.
    pub seed: u64,
}

impl Default for EstimateOptions {
    fn default() -> EstimateOptions {
        EstimateOptions {
            playouts: 200,
            seed: 0x5147_4750_7175, // "QGPqu"
        }
    }
}

/// Qipu's own dead-stone estimator, at the end of a game or in the middle
/// (see [`estimate_dead_with`]).
pub fn estimate_dead(board: &Board) -> Vec<Point> {
    estimate_dead_with(board, &EstimateOptions::default())
}

/// Qipu's own dead-stone estimator: the stones that random playouts to
/// the end (neither side filling its own eyes) give to the opponent more
/// often than not, decided chain by chain. At the end of a game the
/// chains that share an empty region with their colour's other chains
/// (the stones of one framework) are then decided together, by majority
/// of stones; if with those stones off the borders are not closed (see
/// [`is_settled`]), the game is still going on and each chain keeps its
/// own fate. Deterministic for given options; these are the dead stones
/// of [`estimate_position`].
pub fn estimate_dead_with(board: &Board, opts: &EstimateOptions) -> Vec<Point> {
    estimate::dead_stones(board, opts)
}

/// [`estimate_dead_with`]'s decision from the playouts' mean owner of each point.
fn dead_at_the_end(board: &Board, own: &[f64]) -> Vec<Point> {
    let size = board.size();
    let grid = Grid::of(size);
    let cells = board.cells();
    let mut dead = vec![false; cells.len()];
    let mut done = vec![false; cells.len()];
    for start in 0..cells.len() {
        let colour = cells[start];
        if colour == 0 || done[start] {
            continue;
        }
        let group = grid.component(cells, start, |c| c == colour);
        let sign = if colour == 1 { 1.0 } else { -1.0 };
        let mean: f64 = group.iter().map(|&i| own[i] * sign).sum::<f64>() / group.len() as f64;
        for &i in &group {
            done[i] = true;
            dead[i] = mean < 0.0;
        }
    }
    // Chains of one colour that touch the same empty regions live or die together.
    let mut done = vec![false; cells.len()];
    let mut out = Vec::new();
    for start in 0..cells.len() {
        let colour = cells[start];
        if colour == 0 || done[start] {
            continue;
        }
        let related: Vec<usize> = grid
            .component(cells, start, |c| c == colour || c == 0)
            .into_iter()
            .filter(|&i| cells[i] == colour)
            .collect();
        let n_dead = related.iter().filter(|&&i| dead[i]).count();
        let all_dead = n_dead * 2 > related.len();
        for &i in &related {
            done[i] = true;
            if all_dead {
                out.push(grid.point(i));
            }
        }
    }
    sort_points(&mut out);
    out
}

/// A small fast generator (xorshift64*): reproducible playouts without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        // In u64, not usize: on 32-bit targets (wasm32) `>> 32` of a usize
        // overflows. The same number on 64-bit ones.
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// The mean owner of each point over random playouts: +1 always Black, −1 always White.
fn ownership(board: &Board, opts: &EstimateOptions) -> Vec<f64> {
    let mut sum = vec![0i64; board.size().points()];
    let mut rng = Rng(opts.seed | 1);
    let playouts = opts.playouts.max(2);
    let start = playout::PlayoutBoard::of(board);
    let mut b = start.clone();
    let mut scratch = start.clone();
    for k in 0..playouts {
        b.clone_from(&start);
        b.playout(if k % 2 == 0 { 1 } else { 2 }, &mut rng, &mut scratch);
        for (i, s) in sum.iter_mut().enumerate() {
            *s += match b.owner(i) {
                1 => 1,
                2 => -1,
                _ => 0,
            };
        }
    }
    sum.into_iter()
        .map(|s| s as f64 / playouts as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(rows: &[&str]) -> Position {
        Position::from_rows(rows)
    }

    fn japanese(komi: f64) -> Settings {
        Settings {
            rules: Rules::Japanese,
            komi,
            handicap: 0,
        }
    }

    #[test]
    fn rule_names() {
        for r in Rules::ALL {
            assert_eq!(Rules::from_name(r.as_str()), Some(r));
        }
        assert_eq!(Rules::from_name("Japanese"), Some(Rules::Japanese));
        assert_eq!(Rules::from_name(" AGA "), Some(Rules::Aga));
        assert_eq!(Rules::from_name("New Zealand"), Some(Rules::NewZealand));
        assert_eq!(Rules::from_name("Tromp-Taylor"), Some(Rules::TrompTaylor));
        assert_eq!(Rules::from_name("GOE"), Some(Rules::Ing));
        assert_eq!(Rules::from_name("Go"), None);
    }

    #[test]
    fn territory_and_area() {
        // Black owns columns a–b, White d–e; column c is dame.
        let mut pos = position(&[".X.O.", ".X.O.", ".X.O.", ".X.O.", ".X.O."]);
        pos.captures = [2, 1];
        let s = count(&pos, &[], &japanese(0.5));
        assert_eq!((s.black.territory, s.white.territory), (5, 5));
        assert_eq!((s.black.captures, s.white.captures), (2, 1));
        assert_eq!(s.margin, (5.0 + 2.0) - (5.0 + 1.0 + 0.5));
        assert_eq!(s.result().to_string(), "B+0.5");
        assert_eq!(s.owner[2], None);
        assert_eq!(s.owner[0], Some(Color::Black));
        let area = Settings {
            rules: Rules::Chinese,
            komi: 7.5,
            handicap: 0,
        };
        let s = count(&pos, &[], &area);
        assert_eq!((s.black.area, s.white.area), (10, 10));
        assert_eq!(s.result().to_string(), "W+7.5");
    }

    #[test]
    fn dead_stones_become_prisoners_and_territory() {
        let pos = position(&[".XO..", ".XO..", "XXO.X", ".XO..", ".XO.."]);
        let s = count(&pos, &[Point::new(4, 2)], &japanese(0.0));
        assert_eq!(s.dead, vec![Point::new(4, 2)]);
        assert_eq!(s.white.territory, 10);
        assert_eq!(s.white.captures, 1);
        assert_eq!(s.black.dead, 1);
        assert_eq!(s.black.territory, 4);
        assert_eq!(s.result().to_string(), "W+7");
        // A dame point in White's area counts for nobody.
        let s2 = count_with(
            &pos,
            &[Point::new(4, 2)],
            &[Point::new(3, 0)],
            &japanese(0.0),
        );
        assert_eq!(s2.white.territory, 9);
        assert_eq!(s2.owner[3], None);
        // Points that hold no stone are not dead stones.
        let s = count(&pos, &[Point::new(3, 3)], &japanese(0.0));
        assert!(s.dead.is_empty());
    }

    #[test]
    fn draw_and_handicap_compensation() {
        let pos = position(&[".X.O.", ".X.O."]);
        let s = count(&pos, &[], &japanese(0.0));
        assert_eq!(s.result(), GameResult::Draw);
        let chinese = Settings {
            rules: Rules::Chinese,
            komi: 0.5,
            handicap: 3,
        };
        assert_eq!(count(&pos, &[], &chinese).white.score, 4.0 + 0.5 + 3.0);
        let aga = Settings {
            rules: Rules::Aga,
            ..chinese
        };
        assert_eq!(count(&pos, &[], &aga).white.score, 4.0 + 0.5 + 2.0);
    }

    #[test]
    fn marks_give_dead_stones() {
        let doc = sgf_core::parse(b"(;SZ[5]AB[ba][bb]AW[da][ea]TB[aa][ea]TW[ba][ca])").document;
        let end = crate::main_line_end(&doc, 0);
        let node = doc.node(end.node());
        let dead = dead_from_marks(&end.position().board, &node).unwrap();
        assert_eq!(dead, vec![Point::new(1, 0), Point::new(4, 0)]);
        let doc = sgf_core::parse(b"(;SZ[5]AB[ba])").document;
        let end = crate::main_line_end(&doc, 0);
        assert_eq!(
            dead_from_marks(&end.position().board, &doc.node(end.node())),
            None
        );
    }

    #[test]
    fn seki_eyes_count_for_nobody() {
        // The black chain in the corner is in seki: its eye at a1 is
        // nobody's, though only Black surrounds it; White's area on the
        // right stays White's.
        let pos = position(&[".XO..", "XXO..", "OOO..", ".....", "....."]);
        let eyes = seki_points(&pos.board, &[], &[Point::new(1, 0)]);
        assert_eq!(eyes, vec![Point::new(0, 0)]);
        let s = count_with(&pos, &[], &eyes, &japanese(0.0));
        assert_eq!(s.owner[0], None);
        assert_eq!(s.black.territory, 0);
        assert_eq!(s.white.territory, 16);
        // No seki, no points left out; points off the board are ignored.
        assert!(seki_points(&pos.board, &[], &[]).is_empty());
        assert!(seki_points(&pos.board, &[], &[Point::new(9, 9)]).is_empty());
        // A dead stone's point is part of the region it lies in.
        let eyes = seki_points(&pos.board, &[Point::new(2, 0)], &[Point::new(0, 1)]);
        assert!(eyes.contains(&Point::new(3, 0)));
    }

    #[test]
    fn a_point_that_must_be_filled_is_nobodys() {
        // The black stone at a3 keeps a2 open to White: once White fills
        // that dame the stone has a4 alone, where Black must connect.
        let pos = position(&["OOOOO", ".OOOO", "XOXXX", ".XX..", "....."]);
        assert_eq!(must_fill(&pos.board, &[]), vec![Point::new(0, 3)]);
        let s = count(&pos, &[], &japanese(0.0));
        assert_eq!(s.black.territory, 7);
        assert_eq!(s.owner[15], None);
        assert_eq!(s.owner[5], None);
        // Under area scoring the stone Black adds is area all the same.
        let area = Settings {
            rules: Rules::Chinese,
            komi: 0.0,
            handicap: 0,
        };
        assert_eq!(count(&pos, &[], &area).black.territory, 8);
        // Taking the white wall off as dead leaves nothing to fill.
        let white: Vec<Point> = (0..25)
            .map(|i| Point::new(i % 5, i / 5))
            .filter(|&p| pos.board.get(p) == Stone::White)
            .collect();
        assert!(must_fill(&pos.board, &white).is_empty());
    }

    #[test]
    fn a_dame_point_that_connects_saves_the_fill() {
        // The black stone at b3 has dame above and below and one point of
        // its own, but Black fills the dame at b4 and joins his wall.
        let pos = position(&["OOXX", "O.X.", "OX.X", "O.X.", "OOXX"]);
        assert!(must_fill(&pos.board, &[]).is_empty());
        assert_eq!(count(&pos, &[], &japanese(0.0)).black.territory, 3);
        // With b4 a white stone, filling b2 still joins the lower wall.
        let pos = position(&["OOXX", "OOX.", "OX.X", "O.X.", "OOXX"]);
        assert!(must_fill(&pos.board, &[]).is_empty());
        // With no dame next to it, the stone is no business of the rule.
        let pos = position(&["OOXX", "OOX.", "OX.X", "OOX.", "OOXX"]);
        assert_eq!(must_fill(&pos.board, &[]), Vec::<Point>::new());
    }

    #[test]
    fn seki_eyes_are_never_filled() {
        let pos = position(&[".XO..", "XXO..", "OOO..", ".....", "....."]);
        let eyes = seki_points(&pos.board, &[], &[Point::new(1, 0)]);
        let s = count_with(&pos, &[], &eyes, &japanese(0.0));
        assert_eq!(s.white.territory, 16);
        assert_eq!(s.black.territory, 0);
    }

    #[test]
    fn toggling_a_group() {
        let pos = position(&["XX...", ".....", "...OO", ".....", "....."]);
        let dead = toggle_dead(&pos.board, &[], Point::new(0, 0));
        assert_eq!(dead, vec![Point::new(0, 0), Point::new(1, 0)]);
        let dead = toggle_dead(&pos.board, &dead, Point::new(3, 2));
        assert_eq!(dead.len(), 4);
        let dead = toggle_dead(&pos.board, &dead, Point::new(1, 0));
        assert_eq!(dead, vec![Point::new(3, 2), Point::new(4, 2)]);
        assert_eq!(toggle_dead(&pos.board, &dead, Point::new(2, 2)), dead);
    }

    #[test]
    fn estimator_finds_an_invader_and_keeps_live_groups() {
        // Black walls with two eyes on the left, White walls on the right;
        // a lone white stone inside Black's area, a black one in White's.
        let pos = position(&[
            ".X.X.XO......",
            "XXXXXXO......",
            ".....XO...X..",
            "..O..XO......",
            ".....XO......",
            "XXXXXXOOOOOOO",
            ".X.X.XO.O.O.O",
        ]);
        let dead = estimate_dead(&pos.board);
        assert_eq!(dead, vec![Point::new(10, 2), Point::new(2, 3)]);
        // The same options give the same answer.
        assert_eq!(estimate_dead(&pos.board), dead);
    }

    #[test]
    fn estimator_on_an_empty_or_tiny_board() {
        assert!(estimate_dead(&Board::new(BoardSize::square(1))).is_empty());
        assert!(estimate_dead(&Board::new(BoardSize::square(19))).is_empty());
        let pos = position(&["XO"]);
        let _ = estimate_dead(&pos.board);
    }
}
