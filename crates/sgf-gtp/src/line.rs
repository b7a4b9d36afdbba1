//! What an engine needs to reach a position of a record: the board size,
//! komi and rules, and the steps from the empty board (stones placed by
//! setup, then moves). A [`GameLine`] is taken from the record once and
//! sent to an engine on any thread; [`crate::Engine::replay_line`] sends
//! only what differs from the line the engine already has.

use sgf_core::{Color, Document, NodeId, Point};
use sgf_go::coords::BoardSize;
use sgf_go::score::Settings;
use sgf_go::{Cursor, GameInfo, Move};

/// One step of a [`GameLine`].
#[derive(Clone, Debug, PartialEq)]
pub enum LineStep {
    /// The board cleared and these stones placed (the root's setup, or
    /// setup later in the game). `handicap`: the root's black stones, which
    /// an engine may take as free handicap.
    Place {
        /// The stones, row-major.
        stones: Vec<(Color, Point)>,
        /// Whether these are the root's stones (handicap when only black).
        handicap: bool,
    },
    /// A move (or pass).
    Play(Color, Move),
}

/// The way from the empty board to a position of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// The board size.
    pub size: BoardSize,
    /// Komi, rules and handicap of the record.
    pub settings: Settings,
    /// The steps, in order.
    pub steps: Vec<LineStep>,
    /// The player to move at the end.
    pub to_play: Color,
}

/// The stones on the cursor's board, row-major.
fn stones(c: &Cursor) -> Vec<(Color, Point)> {
    let size = c.size();
    let board = &c.position().board;
    let mut out = Vec::new();
    for y in 0..size.rows {
        for x in 0..size.cols {
            let p = Point::new(x, y);
            if let Some(col) = board.get(p).color() {
                out.push((col, p));
            }
        }
    }
    out
}

impl GameLine {
    /// The line of game `game` of `doc` from the root to `node`; `None`
    /// when there is no such game or the node is not in it.
    pub fn of(doc: &Document, game: usize, node: NodeId) -> Option<GameLine> {
        doc.game(game)?;
        let mut target = Cursor::new(doc, game);
        if !target.goto(doc, node) {
            return None;
        }
        let path: Vec<NodeId> = target.path().collect();
        let mut c = Cursor::new(doc, game);
        let mut steps = Vec::new();
        let root_stones = stones(&c);
        if !root_stones.is_empty() {
            steps.push(LineStep::Place {
                stones: root_stones,
                handicap: true,
            });
        }
        for &id in &path[1..] {
            c.down(doc, id);
            let n = doc.node(id);
            if n.has("AB") || n.has("AW") || n.has("AE") {
                // Setup after the root: the engine gets the whole board anew.
                steps.push(LineStep::Place {
                    stones: stones(&c),
                    handicap: false,
                });
                continue;
            }
            steps.extend(
                c.report()
                    .moves
                    .iter()
                    .map(|&(col, mv)| LineStep::Play(col, mv)),
            );
        }
        Some(GameLine {
            size: c.size(),
            settings: Settings::of_game(&GameInfo::of(doc, game)),
            to_play: c.next_player(doc),
            steps,
        })
    }

    /// The number of moves (passes included) in the line.
    pub fn moves(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, LineStep::Play(..)))
            .count()
    }

    /// Whether the line ends with two passes in a row (the game is over).
    pub fn ends_with_two_passes(&self) -> bool {
        let n = self.steps.len();
        n >= 2
            && self.steps[n - 2..]
                .iter()
                .all(|s| matches!(s, LineStep::Play(_, Move::Pass)))
    }

    /// Whether `self` is the start of `other` on the same board and settings.
    pub fn is_prefix_of(&self, other: &GameLine) -> bool {
        self.size == other.size
            && self.settings == other.settings
            && other.steps.len() >= self.steps.len()
            && other.steps[..self.steps.len()] == self.steps[..]
    }
}

/// Whether a stone list is black stones only (a handicap placement).
pub(crate) fn only_black(stones: &[(Color, Point)]) -> bool {
    stones.iter().all(|&(c, _)| c == Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_record() {
        let doc = sgf_core::parse(b"(;SZ[9]KM[5.5]HA[2]AB[cc][gg];W[ee];B[ce];W[];AW[aa];B[dd])")
            .document;
        let nodes: Vec<NodeId> = doc.game(0).unwrap().main_line().map(|n| n.id()).collect();
        let l = GameLine::of(&doc, 0, nodes[3]).unwrap();
        assert_eq!(l.size, BoardSize::square(9));
        assert_eq!(l.settings.komi, 5.5);
        assert_eq!(l.steps.len(), 4);
        assert!(
            matches!(&l.steps[0], LineStep::Place { stones, handicap: true } if stones.len() == 2 && only_black(stones))
        );
        assert_eq!(l.steps[3], LineStep::Play(Color::White, Move::Pass));
        assert_eq!(l.moves(), 3);
        assert_eq!(l.to_play, Color::Black);
        assert!(!l.ends_with_two_passes());
        let end = GameLine::of(&doc, 0, nodes[5]).unwrap();
        assert!(l.is_prefix_of(&end));
        assert!(!end.is_prefix_of(&l));
        match &end.steps[4] {
            LineStep::Place { stones, handicap } => {
                assert!(!handicap);
                assert_eq!(stones.len(), 5);
                assert!(stones.contains(&(Color::White, Point::new(0, 0))));
            }
            s => panic!("{s:?}"),
        }
        assert_eq!(GameLine::of(&doc, 1, nodes[0]), None);
    }
}
