//! A random legal game replays to the same position as a naive, obviously
//! correct implementation written here, on square and rectangular boards.

use std::collections::{HashSet, VecDeque};

use proptest::prelude::*;
use sgf_core::parse;
use sgf_go::Cursor;

#[derive(Clone, PartialEq, Debug)]
struct Naive {
    w: usize,
    h: usize,
    b: Vec<Vec<char>>,
    caps: [u32; 2],
}

impl Naive {
    fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            b: vec![vec!['.'; w]; h],
            caps: [0, 0],
        }
    }
    fn nbrs(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        if x > 0 {
            v.push((x - 1, y));
        }
        if x + 1 < self.w {
            v.push((x + 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if y + 1 < self.h {
            v.push((x, y + 1));
        }
        v
    }
    /// The group at (x, y) and whether it has a liberty.
    fn group(&self, x: usize, y: usize) -> (HashSet<(usize, usize)>, bool) {
        let c = self.b[y][x];
        let mut seen = HashSet::new();
        let mut q = VecDeque::from([(x, y)]);
        let mut lib = false;
        seen.insert((x, y));
        while let Some((a, b)) = q.pop_front() {
            for (nx, ny) in self.nbrs(a, b) {
                let v = self.b[ny][nx];
                if v == '.' {
                    lib = true;
                }
                if v == c && seen.insert((nx, ny)) {
                    q.push_back((nx, ny));
                }
            }
        }
        (seen, lib)
    }
    /// Plays; returns false (and changes nothing) if the move is suicide.
    fn play(&mut self, c: char, x: usize, y: usize) -> bool {
        let them = if c == 'X' { 'O' } else { 'X' };
        let saved = self.clone();
        self.b[y][x] = c;
        let mut captured = 0;
        for (nx, ny) in self.nbrs(x, y) {
            if self.b[ny][nx] == them {
                let (g, lib) = self.group(nx, ny);
                if !lib {
                    captured += g.len();
                    for (gx, gy) in g {
                        self.b[gy][gx] = '.';
                    }
                }
            }
        }
        if !self.group(x, y).1 {
            *self = saved;
            return false;
        }
        self.caps[if c == 'X' { 0 } else { 1 }] += captured as u32;
        true
    }
}

fn letter(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn replay_matches_naive(w in 1usize..=21, h in 1usize..=21, seed in any::<u64>(), len in 0usize..300) {
        let mut rng = seed;
        let mut next = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng };
        let mut naive = Naive::new(w, h);
        let mut history: Vec<Vec<Vec<char>>> = vec![naive.b.clone()];
        let mut sgf = if w == h { format!("(;GM[1]FF[4]SZ[{w}]") } else { format!("(;GM[1]FF[4]SZ[{w}:{h}]") };
        let mut colour = 'X';
        for _ in 0..len {
            let empties: Vec<(usize, usize)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| naive.b[y][x] == '.').collect();
            let id = if colour == 'X' { "B" } else { "W" };
            let mut played = false;
            if !empties.is_empty() && next() % 20 != 0 {
                for _ in 0..8 {
                    let (x, y) = empties[(next() % empties.len() as u64) as usize];
                    let before = naive.clone();
                    if naive.play(colour, x, y) {
                        // Positional superko is not a rule here; forbid only immediate repetition (simple ko).
                        if history.len() >= 2 && naive.b == history[history.len() - 2] {
                            naive = before;
                            continue;
                        }
                        sgf.push_str(&format!(";{id}[{}{}]", letter(x), letter(y)));
                        played = true;
                        break;
                    }
                }
            }
            if !played {
                sgf.push_str(&format!(";{id}[]"));
            }
            history.push(naive.b.clone());
            colour = if colour == 'X' { 'O' } else { 'X' };
        }
        sgf.push(')');
        let doc = parse(sgf.as_bytes()).document;
        let mut c = Cursor::new(&doc, 0);
        c.to_end(&doc);
        let rows: Vec<String> = naive.b.iter().map(|r| r.iter().collect()).collect();
        prop_assert_eq!(c.position().rows(), rows);
        prop_assert_eq!(c.position().captures, naive.caps);
        prop_assert_eq!(c.position().move_number as usize, len);
        // And walking back to the root restores the empty board.
        while c.up() {}
        prop_assert_eq!(c.position().board.count(), (0, 0));
    }
}

#[test]
fn big_board_52() {
    let mut sgf = String::from("(;GM[1]FF[4]SZ[52]");
    for i in 0..52 {
        sgf.push_str(&format!(
            ";B[{}{}];W[{}{}]",
            letter(i),
            letter(0),
            letter(i),
            letter(1)
        ));
    }
    sgf.push_str(";B[Za])");
    let doc = parse(sgf.as_bytes()).document;
    let mut c = Cursor::new(&doc, 0);
    c.to_end(&doc);
    // White's last stone on the second row takes the last liberty of Black's
    // first row: all 52 stones are captured; Black then plays in the corner.
    assert_eq!(c.position().board.size().cols, 52);
    assert_eq!(c.position().captured_by(sgf_core::Color::White), 52);
    assert_eq!(
        c.position().rows()[1]
            .chars()
            .filter(|&ch| ch == 'O')
            .count(),
        52
    );
    assert_eq!(c.position().rows()[0], format!("{}X", ".".repeat(51)));
}

/// What the naive board says a move did, to compare with the reports.
#[derive(Clone, PartialEq, Debug, Default)]
struct Outcome {
    captured: Vec<(usize, usize)>,
    suicide: Vec<(usize, usize)>,
    occupied: bool,
    ko_retake: bool,
}

/// The naive position around the board: captures by colour, the ko point.
#[derive(Clone, PartialEq, Debug)]
struct NaivePos {
    board: Naive,
    ko: Option<(usize, usize)>,
    moves: u32,
}

impl NaivePos {
    /// Executes any move as SGF requires (over a stone, suicide and ko
    /// retakes included): the reference for every case the replay meets.
    fn play_any(&mut self, c: char, at: Option<(usize, usize)>) -> Outcome {
        self.moves += 1;
        let Some((x, y)) = at else {
            self.ko = None;
            return Outcome::default();
        };
        let b = &mut self.board;
        let them = if c == 'X' { 'O' } else { 'X' };
        let mut out = Outcome {
            occupied: b.b[y][x] != '.',
            ko_retake: self.ko == Some((x, y)),
            ..Outcome::default()
        };
        b.b[y][x] = c;
        for (nx, ny) in b.nbrs(x, y) {
            if b.b[ny][nx] == them {
                let (g, lib) = b.group(nx, ny);
                if !lib {
                    for (gx, gy) in g {
                        b.b[gy][gx] = '.';
                        out.captured.push((gx, gy));
                    }
                }
            }
        }
        let (own, lib) = b.group(x, y);
        if !lib {
            for &(gx, gy) in &own {
                b.b[gy][gx] = '.';
                out.suicide.push((gx, gy));
            }
        }
        let me = usize::from(c != 'X');
        b.caps[me] += out.captured.len() as u32;
        b.caps[1 - me] += out.suicide.len() as u32;
        // Simple ko: one stone took one stone and is left a single stone
        // with a single liberty.
        let liberties = b
            .nbrs(x, y)
            .into_iter()
            .filter(|&(nx, ny)| b.b[ny][nx] == '.')
            .count();
        self.ko = (out.captured.len() == 1 && own.len() == 1 && lib && liberties == 1)
            .then(|| out.captured[0]);
        out.captured.sort();
        out.suicide.sort();
        out
    }
}

fn xy(p: sgf_core::Point) -> (usize, usize) {
    (p.x as usize, p.y as usize)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    /// Any moves — over stones, suicides, ko retakes, passes, one colour
    /// twice — on boards from 1×1 to 52×52: the cursor's position, captures,
    /// ko and events after every node, and every position again on the way
    /// back, match the naive board; so do the results of `Position::play`
    /// and the liberties of a group.
    #[test]
    fn any_moves_match_naive(
        (w, h) in prop_oneof![
            (1usize..=4, 1usize..=4),
            (1usize..=21, 1usize..=21),
            (1usize..=52, 1usize..=52),
        ],
        seed in any::<u64>(),
        len in 0usize..400,
    ) {
        use sgf_go::{Event, Move, Position};
        use sgf_core::{Color, Point};
        let mut rng = seed | 1;
        let mut next = move || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng };
        let mut naive = NaivePos { board: Naive::new(w, h), ko: None, moves: 0 };
        let mut history = vec![naive.clone()];
        let mut outcomes = vec![Outcome::default()];
        let mut played: Vec<(char, Option<(usize, usize)>)> = Vec::new();
        let mut sgf = if w == h { format!("(;GM[1]FF[4]SZ[{w}]") } else { format!("(;GM[1]FF[4]SZ[{w}:{h}]") };
        let mut colour = 'X';
        for _ in 0..len {
            let r = next() % 100;
            let empties: Vec<(usize, usize)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| naive.board.b[y][x] == '.').collect();
            let at = if r < 4 {
                None
            } else if r < 10 || empties.is_empty() {
                Some(((next() % w as u64) as usize, (next() % h as u64) as usize))
            } else if r < 20 && naive.ko.is_some() {
                naive.ko
            } else {
                Some(empties[(next() % empties.len() as u64) as usize])
            };
            // Now and then the same colour twice.
            if next() % 25 == 0 {
                colour = if colour == 'X' { 'O' } else { 'X' };
            }
            let id = if colour == 'X' { "B" } else { "W" };
            match at {
                Some((x, y)) => sgf.push_str(&format!(";{id}[{}{}]", letter(x), letter(y))),
                None => sgf.push_str(&format!(";{id}[]")),
            }
            outcomes.push(naive.play_any(colour, at));
            history.push(naive.clone());
            played.push((colour, at));
            colour = if colour == 'X' { 'O' } else { 'X' };
        }
        sgf.push(')');
        let doc = parse(sgf.as_bytes()).document;
        let same = |pos: &Position, n: &NaivePos| -> Result<(), TestCaseError> {
            let rows: Vec<String> = n.board.b.iter().map(|r| r.iter().collect()).collect();
            prop_assert_eq!(pos.rows(), rows);
            prop_assert_eq!(pos.captures, n.board.caps);
            prop_assert_eq!(pos.ko.map(xy), n.ko);
            prop_assert_eq!(pos.move_number, n.moves);
            Ok(())
        };
        // Forward with the cursor, node by node.
        let mut c = Cursor::new(&doc, 0);
        let mut step = 0;
        while c.next(&doc) {
            step += 1;
            same(c.position(), &history[step])?;
            let rep = c.report();
            let want = &outcomes[step];
            let mut captured: Vec<_> = rep.captured.iter().map(|&p| xy(p)).collect();
            captured.sort();
            prop_assert_eq!(&captured, &want.captured);
            let events: Vec<&Event> = rep.events.iter().map(|e| &e.event).collect();
            let (colour, at) = played[step - 1];
            let mut expected = Vec::new();
            // `tt` on a board of more than 19 lines: a stone, and a warning.
            if at == Some((19, 19)) {
                expected.push(Event::BadCoordinate { issue: sgf_go::CoordIssue::AmbiguousPass });
            }
            if step > 1 && played[step - 2].0 == colour {
                expected.push(Event::SameColorTwice);
            }
            if let Some((x, y)) = at {
                let point = Point::new(x as u8, y as u8);
                if want.occupied {
                    expected.push(Event::Occupied { point });
                }
                if !want.suicide.is_empty() {
                    expected.push(Event::Suicide { stones: want.suicide.len() });
                }
                if want.ko_retake {
                    expected.push(Event::KoRetake { point });
                }
            }
            prop_assert_eq!(events, expected.iter().collect::<Vec<_>>());
        }
        prop_assert_eq!(step, len);
        // Back to the root, position by position.
        while c.up() {
            step -= 1;
            same(c.position(), &history[step])?;
        }
        prop_assert_eq!(step, 0);
        // `Position::play` reports the same.
        let mut pos = Position::new(sgf_go::BoardSize { cols: w as u8, rows: h as u8 });
        for (k, &(colour, at)) in played.iter().enumerate() {
            let color = if colour == 'X' { Color::Black } else { Color::White };
            let mv = at.map_or(Move::Pass, |(x, y)| Move::Play(Point::new(x as u8, y as u8)));
            let r = pos.play(color, mv);
            let want = &outcomes[k + 1];
            let mut captured: Vec<_> = r.effect.captured.iter().map(|&p| xy(p)).collect();
            let mut suicide: Vec<_> = r.effect.suicide.iter().map(|&p| xy(p)).collect();
            captured.sort();
            suicide.sort();
            prop_assert_eq!(&captured, &want.captured);
            prop_assert_eq!(&suicide, &want.suicide);
            prop_assert_eq!(r.effect.occupied.is_some(), want.occupied);
            prop_assert_eq!(r.ko_retake, want.ko_retake);
            same(&pos, &history[k + 1])?;
            // The liberties of the group on a point.
            let naive_board = &history[k + 1].board;
            let (x, y) = ((next() % w as u64) as usize, (next() % h as u64) as usize);
            let liberties = if naive_board.b[y][x] == '.' {
                0
            } else {
                let (g, _) = naive_board.group(x, y);
                let mut libs = HashSet::new();
                for &(gx, gy) in &g {
                    libs.extend(naive_board.nbrs(gx, gy).into_iter().filter(|&(nx, ny)| naive_board.b[ny][nx] == '.'));
                }
                libs.len()
            };
            prop_assert_eq!(pos.board.liberties(Point::new(x as u8, y as u8)), liberties);
        }
    }
}
