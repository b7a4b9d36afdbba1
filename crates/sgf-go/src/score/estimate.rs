//! The estimate of a position at any move: dead stones from random
//! playouts, territory from the influence of the living stones.

use sgf_core::{Color, Point};

use super::{
    EstimateOptions, Grid, Score, Settings, Side, count_with, dead_at_the_end, ownership,
    sort_points, totals, without_dead,
};
use crate::board::{Board, Position};

/// An estimate of the score of a position (see [`estimate_position`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The count the estimate makes: the dead stones, the owner of each
    /// point, both sides' territory, captures, stones and area, and the
    /// margin under the rules, komi included.
    pub score: Score,
    /// How surely each point belongs to a side, row-major: +1 Black's,
    /// −1 White's, 0 nobody's or contested.
    pub ownership: Vec<f32>,
    /// Whether the game looks finished: once the dead stones are off, the
    /// borders are closed (every empty point is surrounded by one colour,
    /// or is a dame next to the stones). The count is then the count of
    /// the end of a game ([`count_with`]); otherwise it is an estimate
    /// from influence, and not a result to write into a record.
    pub finished: bool,
}

impl Estimate {
    /// The side ahead, `None` for an even score.
    pub fn winner(&self) -> Option<Color> {
        if self.score.margin > 0.0 {
            Some(Color::Black)
        } else if self.score.margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// The estimate of a position at any move of a game: which stones are
/// dead, who owns each point, and the score under `settings`.
///
/// Dead stones come from random playouts to the end of the game
/// ([`EstimateOptions::playouts`] of them; neither side fills its own
/// eyes or puts two stones or more in atari, each takes a chain the
/// opponent's move left in atari or saves its own unless it would run
/// into a ladder, and takes a stone left with two liberties in a working
/// ladder), a chain being dead
/// when it ends up the opponent's in most of them. When,
/// with those stones off, the borders are closed (see
/// [`Estimate::finished`]), the position is counted as the end of a game,
/// exactly as [`estimate_dead_with`](super::estimate_dead_with) and
/// [`count_with`] count it. Otherwise the game is still going on: each
/// empty point belongs to the side whose living stones dominate it
/// (Bouzy's dilations and erosions of their influence), or to the side
/// that owns it at the end of nearly all the playouts; contested points
/// to nobody, and the score counts that territory (or area) and the
/// prisoners as the rules do. Deterministic for given options.
pub fn estimate_position(pos: &Position, settings: &Settings, opts: &EstimateOptions) -> Estimate {
    let own = ownership(&pos.board, opts);
    let dead = dead_from(&pos.board, &own);
    settled_or_estimated(pos, &dead, &[], settings, &own)
}

/// The dead stones of [`estimate_position`].
pub(super) fn dead_stones(board: &Board, opts: &EstimateOptions) -> Vec<Point> {
    dead_from(board, &ownership(board, opts))
}

/// The dead stones from the playouts' mean owner of each point: those of
/// the end of a game when, with them off, the borders are closed, else
/// those of the middle of a game.
fn dead_from(board: &Board, own: &[f64]) -> Vec<Point> {
    let at_end = dead_at_the_end(board, own);
    if is_settled(board, &at_end) {
        at_end
    } else {
        dead_mid_game(board, own)
    }
}

/// Counts the position with these `dead` stones (and `dame`, as
/// [`count_with`] takes them) when the game looks finished, else
/// estimates it from influence and from playouts with the default
/// [`EstimateOptions`] (see [`estimate_position`]): what a count whose
/// dead stones the user chose shows. With the dead stones
/// [`estimate_dead`](super::estimate_dead) gives, the same as
/// [`estimate_position`] with the default options.
pub fn count_or_estimate(
    pos: &Position,
    dead: &[Point],
    dame: &[Point],
    settings: &Settings,
) -> Estimate {
    if !is_settled(&pos.board, dead) {
        let own = ownership(&pos.board, &EstimateOptions::default());
        return by_influence(pos, dead, settings, &own);
    }
    settled_or_estimated(pos, dead, dame, settings, &[])
}

/// [`count_or_estimate`] under two settings (say the rules of the game
/// and the other way of counting, for comparison), the playouts of a
/// position still in play run once for both.
pub fn count_or_estimate_both(
    pos: &Position,
    dead: &[Point],
    dame: &[Point],
    settings: &Settings,
    other: &Settings,
) -> (Estimate, Estimate) {
    if !is_settled(&pos.board, dead) {
        let own = ownership(&pos.board, &EstimateOptions::default());
        return (
            by_influence(pos, dead, settings, &own),
            by_influence(pos, dead, other, &own),
        );
    }
    (
        settled_or_estimated(pos, dead, dame, settings, &[]),
        settled_or_estimated(pos, dead, dame, other, &[]),
    )
}

/// The count of a finished position, else the estimate from influence
/// and the playouts' mean owner `own` (unused for a finished one).
fn settled_or_estimated(
    pos: &Position,
    dead: &[Point],
    dame: &[Point],
    settings: &Settings,
    own: &[f64],
) -> Estimate {
    if !is_settled(&pos.board, dead) {
        return by_influence(pos, dead, settings, own);
    }
    let score = count_with(pos, dead, dame, settings);
    let cells = pos.board.cells();
    let ownership = score
        .owner
        .iter()
        .enumerate()
        .map(|(i, o)| match o {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            // A live stone in seki, or a dame.
            None if cells[i] == 1 => 1.0,
            None if cells[i] == 2 => -1.0,
            None => 0.0,
        })
        .collect();
    Estimate {
        score,
        ownership,
        finished: true,
    }
}

/// Whether the borders are closed once the `dead` stones are off: every
/// empty region is bordered by one colour only, or each of its points
/// touches a stone (the dame left between the walls). An empty board is
/// not settled.
pub fn is_settled(board: &Board, dead: &[Point]) -> bool {
    let grid = Grid::of(board.size());
    let cells = without_dead(board, &grid, dead);
    for (region, borders) in grid.empty_regions(&cells) {
        if borders == 1 || borders == 2 {
            continue;
        }
        if region
            .iter()
            .any(|&i| grid.neighbours(i).all(|j| cells[j] == 0))
        {
            return false;
        }
    }
    true
}

/// Dead stones in the middle of a game: the groups that the playouts
/// give to the opponent more often than not (their stones' mean owner),
/// each decided alone — the groups of a framework do not share one fate
/// before its borders are closed. A group is a chain with the chains of
/// its colour diagonally next to it (unless two opposing stones cut the
/// diagonal): stones that random play may cut apart, but a player keeps
/// together.
fn dead_mid_game(board: &Board, own: &[f64]) -> Vec<Point> {
    let grid = Grid::of(board.size());
    let cells = board.cells();
    let n = cells.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let cols = grid.cols;
    for i in 0..n {
        let c = cells[i];
        if c == 0 {
            continue;
        }
        let (x, y) = (i % cols, i / cols);
        let linked = grid
            .neighbours(i)
            .filter(|&j| cells[j] == c)
            .chain(grid.diagonals(i).filter(|&j| {
                // The two points between the diagonal neighbours.
                let (a, b) = (y * cols + j % cols, (j / cols) * cols + x);
                cells[j] == c && !(cells[a] == c ^ 3 && cells[b] == c ^ 3)
            }));
        for j in linked.collect::<Vec<_>>() {
            let (ra, rb) = (root(&mut parent, i), root(&mut parent, j));
            parent[ra] = rb;
        }
    }
    // Each group's sum of its stones' owner, as its colour sees it.
    let mut sum = vec![0.0f64; n];
    let sign = |c: u8| if c == 1 { 1.0 } else { -1.0 };
    for i in (0..n).filter(|&i| cells[i] != 0) {
        let r = root(&mut parent, i);
        sum[r] += own[i] * sign(cells[i]);
    }
    (0..n)
        .filter(|&i| cells[i] != 0)
        .filter(|&i| sum[root(&mut parent, i)] < 0.0)
        .map(|i| grid.point(i))
        .collect()
}

/// Dilations and erosions of Bouzy's algorithm: 5 and 21 keep the
/// territory a side has surrounded, frameworks not yet closed included.
const DILATIONS: u32 = 5;
const EROSIONS: u32 = 21;

/// The neighbours of each point as indices, `usize::MAX` past the edge.
fn neighbour_table(grid: &Grid) -> Vec<[usize; 4]> {
    (0..grid.cols * grid.rows)
        .map(|i| {
            let mut n = [usize::MAX; 4];
            for (k, j) in grid.neighbours(i).enumerate() {
                n[k] = j;
            }
            n
        })
        .collect()
}

/// Bouzy's influence (dilations then erosions, as in "Mathematical
/// morphology applied to computer Go", 2003) of the stones on `cells`:
/// positive where Black dominates, negative where White does, 0 where
/// neither side does.
fn bouzy(grid: &Grid, cells: &[u8], dilations: u32, erosions: u32) -> Vec<i32> {
    let nbrs = neighbour_table(grid);
    let mut v: Vec<i32> = cells
        .iter()
        .map(|&c| match c {
            1 => 128,
            2 => -128,
            _ => 0,
        })
        .collect();
    let mut next = v.clone();
    for _ in 0..dilations {
        for (i, ns) in nbrs.iter().enumerate() {
            let (mut plus, mut minus) = (0, 0);
            for &j in ns.iter().filter(|&&j| j != usize::MAX) {
                plus += i32::from(v[j] > 0);
                minus += i32::from(v[j] < 0);
            }
            next[i] = v[i];
            if v[i] >= 0 && minus == 0 {
                next[i] += plus;
            } else if v[i] <= 0 && plus == 0 {
                next[i] -= minus;
            }
        }
        std::mem::swap(&mut v, &mut next);
    }
    for _ in 0..erosions {
        for (i, ns) in nbrs.iter().enumerate() {
            let x = v[i];
            let ns = ns.iter().filter(|&&j| j != usize::MAX);
            next[i] = if x > 0 {
                (x - ns.filter(|&&j| v[j] <= 0).count() as i32).max(0)
            } else if x < 0 {
                (x + ns.filter(|&&j| v[j] >= 0).count() as i32).min(0)
            } else {
                0
            };
        }
        std::mem::swap(&mut v, &mut next);
    }
    v
}

/// How sure the playouts must be of an empty point's owner for it to
/// count as that side's whatever the influence says: playouts see the
/// eyes, cuts and captures influence does not, but in the open they
/// scatter, where influence measures frameworks better (on 300 KGS
/// games, influence alone names the winner less often, and so does the
/// playouts' owner alone).
const SURE: f64 = 0.6;

/// The estimate from influence with these `dead` stones off the board,
/// overruled where the playouts' mean owner `own` is [`SURE`].
fn by_influence(pos: &Position, dead: &[Point], settings: &Settings, own: &[f64]) -> Estimate {
    let board = &pos.board;
    let size = board.size();
    let grid = Grid::of(size);
    let original = board.cells();
    let cells = without_dead(board, &grid, dead);
    let dead_mask: Vec<bool> = original
        .iter()
        .zip(&cells)
        .map(|(&o, &c)| o != 0 && c == 0)
        .collect();
    let infl = bouzy(&grid, &cells, DILATIONS, EROSIONS);
    let (mut black, mut white) = (Side::default(), Side::default());
    let mut owner = Vec::with_capacity(cells.len());
    let mut ownership = Vec::with_capacity(cells.len());
    for i in 0..cells.len() {
        if dead_mask[i] {
            match original[i] {
                1 => black.dead += 1,
                _ => white.dead += 1,
            }
        }
        let (who, sure) = match cells[i] {
            1 => (Some(Color::Black), 1.0),
            2 => (Some(Color::White), -1.0),
            _ => {
                let mut v = infl[i];
                let o = own[i];
                // A dead stone's point goes to its own side only by influence.
                let for_dead = match original[i] {
                    1 => o < 0.0,
                    2 => o > 0.0,
                    _ => true,
                };
                if o.abs() > SURE && for_dead {
                    v = if o > 0.0 { 8 } else { -8 };
                }
                let who = match v.signum() {
                    1 => Some(Color::Black),
                    -1 => Some(Color::White),
                    _ => None,
                };
                match who {
                    Some(Color::Black) => black.territory += 1,
                    Some(Color::White) => white.territory += 1,
                    None => {}
                }
                (who, (v as f32 / 8.0).clamp(-1.0, 1.0))
            }
        };
        owner.push(who);
        ownership.push(sure);
    }
    let margin = totals(pos, &cells, &mut black, &mut white, settings);
    let mut dead: Vec<Point> = (0..cells.len())
        .filter(|&i| dead_mask[i])
        .map(|i| grid.point(i))
        .collect();
    sort_points(&mut dead);
    Estimate {
        score: Score {
            settings: settings.clone(),
            black,
            white,
            dead,
            owner,
            margin,
        },
        ownership,
        finished: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coords::BoardSize;
    use crate::score::Rules;

    fn settings(rules: Rules, komi: f64) -> Settings {
        Settings {
            rules,
            komi,
            handicap: 0,
        }
    }

    fn estimate(pos: &Position, s: &Settings) -> Estimate {
        estimate_position(pos, s, &EstimateOptions::default())
    }

    #[test]
    fn both_ways_of_counting_at_once_are_each_way_alone() {
        let mid = Position::from_rows(&[
            "....X.O..",
            "..X.X.O..",
            "..O.X.O..",
            "....X.OX.",
            "...XX.O..",
            "....XOO..",
            "....X.O..",
            ".X..X.O..",
            ".........",
        ]);
        let done = Position::from_rows(&["..XO.", "..XO.", "..XO.", "..XO.", "..XO."]);
        let (jp, cn) = (
            settings(Rules::Japanese, 6.5),
            settings(Rules::Chinese, 7.5),
        );
        for pos in [&mid, &done] {
            let dead = crate::score::estimate_dead(&pos.board);
            let (a, b) = count_or_estimate_both(pos, &dead, &[], &jp, &cn);
            assert_eq!(a, count_or_estimate(pos, &dead, &[], &jp));
            assert_eq!(b, count_or_estimate(pos, &dead, &[], &cn));
        }
    }

    #[test]
    fn an_empty_board_is_worth_komi() {
        for n in [9, 19] {
            let pos = Position::new(BoardSize::square(n));
            for (rules, komi) in [(Rules::Japanese, 6.5), (Rules::Chinese, 7.5)] {
                let e = estimate(&pos, &settings(rules, komi));
                assert!(!e.finished);
                assert!(e.score.dead.is_empty());
                assert_eq!(e.score.black.territory + e.score.white.territory, 0);
                assert_eq!(e.score.margin, -komi, "{n}×{n} {rules:?}");
            }
        }
    }

    #[test]
    fn a_stone_inside_territory_is_dead_while_the_borders_are_open() {
        let pos = Position::from_rows(&[
            "....X.O..",
            "....X.O..",
            "..O.X.O..",
            "....X.O..",
            "....X.O..",
            "....X.O..",
            "....X.O..",
            "....X.O..",
            ".........",
        ]);
        let e = estimate(&pos, &settings(Rules::Japanese, 6.5));
        assert!(!e.finished);
        assert_eq!(e.score.dead, vec![Point::new(2, 2)]);
        assert_eq!(e.score.owner[2 * 9 + 2], Some(Color::Black));
        assert_eq!(e.score.black.captures, 1);
        let (b, w) = (e.score.black.territory, e.score.white.territory);
        assert!(b > w, "{b} {w}");
        assert_eq!(e.winner(), Some(Color::Black), "{}", e.score.result());
    }

    /// The stones among `points` that the estimate gives as dead.
    fn dead_among(e: &Estimate, points: &[(u8, u8)]) -> Vec<(u8, u8)> {
        points
            .iter()
            .copied()
            .filter(|&(x, y)| e.score.dead.contains(&Point::new(x, y)))
            .collect()
    }

    #[test]
    fn the_chain_with_fewer_liberties_loses_a_capturing_race() {
        // Black's chain d9–d7 has two liberties (c9, c8), White's e9–e7
        // three (f9–f7), and neither shares one: White wins the race
        // whoever plays first.
        let pos = Position::from_rows(&[
            ".O.XO.X..",
            "OO.XO.XXX",
            ".OOXO.X..",
            "OOOOXXXXX",
            "...OX....",
            "...OX....",
            "...OX....",
            "...OX....",
            "...OX....",
        ]);
        let e = estimate(&pos, &settings(Rules::Japanese, 6.5));
        let black = [(3, 0), (3, 1), (3, 2)];
        let white = [(4, 0), (4, 1), (4, 2)];
        assert_eq!(dead_among(&e, &black), black.to_vec());
        assert_eq!(dead_among(&e, &white), vec![]);
        // Give Black two more liberties than White: the race turns round.
        let pos = Position::from_rows(&[
            ".O.XO.X..",
            ".O.XO.XXX",
            ".O.XOXX..",
            "OO.OXXXXX",
            "...OX....",
            "...OX....",
            "...OX....",
            "...OX....",
            "...OX....",
        ]);
        let e = estimate(&pos, &settings(Rules::Japanese, 6.5));
        assert_eq!(dead_among(&e, &white), white.to_vec(), "{:?}", e.score.dead);
        assert_eq!(dead_among(&e, &black), vec![]);
    }

    #[test]
    fn a_group_with_one_eye_dies_and_one_with_two_lives() {
        // White's group in Black's corner has one eye (b8) and no way out.
        let one = Position::from_rows(&[
            "XXXXX....",
            "XOOOX....",
            "XO.OX....",
            "XOOOX....",
            "XXXXX....",
            ".........",
            ".........",
            "....O....",
            ".........",
        ]);
        let e = estimate(&one, &settings(Rules::Japanese, 6.5));
        let group = [
            (1, 1),
            (2, 1),
            (3, 1),
            (1, 2),
            (3, 2),
            (1, 3),
            (2, 3),
            (3, 3),
        ];
        assert_eq!(dead_among(&e, &group), group.to_vec(), "{:?}", e.score.dead);
        // Two eyes (b8 and d8): alive, and the surrounding black stones too.
        let two = Position::from_rows(&[
            "XXXXXXX..",
            "XOOOOOX..",
            "XO.O.OX..",
            "XOOOOOX..",
            "XXXXXXX..",
            ".........",
            ".........",
            "....O....",
            ".........",
        ]);
        let e = estimate(&two, &settings(Rules::Japanese, 6.5));
        assert!(e.score.dead.is_empty(), "{:?}", e.score.dead);
    }

    #[test]
    fn groups_in_seki_are_not_dead() {
        // The inner black chain (b1–b3, c3) and the inner white one
        // (d1–d3) share their only two liberties, c1 and c2: whoever
        // plays there puts their own chain in atari.
        let pos = Position::from_rows(&[
            "OX.OX....",
            "OX.OX....",
            "OXXOX....",
            "OOOXX....",
            "..OX.....",
            "..OX.....",
            "..OX.....",
            "..OX.....",
            "..OX.....",
        ]);
        let s = settings(Rules::Japanese, 6.5);
        let e = estimate(&pos, &s);
        assert!(e.score.dead.is_empty(), "{:?}", e.score.dead);
        assert_eq!(super::super::estimate_dead(&pos.board), Vec::<Point>::new());
        // Open the right side to the middle of a game: still alive.
        let mut open = pos.clone();
        open.board.set(Point::new(3, 8), crate::board::Stone::Empty);
        open.board.set(Point::new(3, 7), crate::board::Stone::Empty);
        let e = estimate(&open, &s);
        assert!(!e.finished);
        for p in [(1, 0), (1, 1), (2, 2), (3, 0), (3, 1), (3, 2)] {
            assert!(!e.score.dead.contains(&Point::new(p.0, p.1)), "{p:?}");
        }
    }
}
