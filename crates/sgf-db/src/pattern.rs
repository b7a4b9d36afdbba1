//! Patterns: a region of the board with black, white and empty points and
//! wildcards, who is to play, and an optional sequence of moves. Written as
//! an SGF file (see `docs/db-patterns.md`), as text rows, or taken from a
//! position.

use sgf_core::props::id;
use sgf_core::{Color, Point};
use sgf_go::{BoardSize, Cursor, Move, coords};

/// What a point of a pattern accepts: bit 0 empty, bit 1 black, bit 2
/// white (the board's cell values 0, 1, 2).
pub type Mask = u8;
/// Outside the region (accepts anything, is not part of the area).
pub const OUTSIDE: Mask = 0;
/// An empty point.
pub const EMPTY: Mask = 1;
/// A black stone.
pub const BLACK: Mask = 2;
/// A white stone.
pub const WHITE: Mask = 4;
/// Black or empty.
pub const BLACK_OR_EMPTY: Mask = 3;
/// White or empty.
pub const WHITE_OR_EMPTY: Mask = 5;
/// Anything (a wildcard inside the region).
pub const ANY: Mask = 7;

/// The most moves a pattern's sequence may have. Each move is kept as the
/// region after it, for each of the up to 16 images of the pattern
/// searched (about 17 KB a move for a whole 19×19 board), so the bound
/// keeps a search's memory bounded (under 10 MB on 19×19, 70 MB on the
/// largest board, 52×52).
pub const MAX_SEQUENCE_MOVES: usize = 500;

/// The largest pattern file read, in bytes (4 MiB: a pattern is one game
/// of a few hundred moves at most; a record of that size is a collection).
pub const MAX_PATTERN_FILE_BYTES: u64 = 4 << 20;

/// A move of a pattern's sequence, in the pattern's board coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeqMove {
    /// Who plays it.
    pub color: Color,
    /// Where.
    pub point: Point,
}

/// A pattern (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// Columns of the board it was drawn on.
    pub cols: u8,
    /// Rows of the board it was drawn on.
    pub rows: u8,
    /// The region's bounding box: left column, top row, width, height.
    pub bbox: (u8, u8, u8, u8),
    /// One [`Mask`] per point of the bounding box, row by row; [`OUTSIDE`]
    /// for points of the box not in the region.
    pub masks: Vec<Mask>,
    /// Who is to play where the pattern stands, when it matters.
    pub to_play: Option<Color>,
    /// Moves that must follow, in order, in the game.
    pub sequence: Vec<SeqMove>,
    /// The masks after each move of the sequence (captures included).
    pub steps: Vec<Vec<Mask>>,
}

/// Why a pattern could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError(pub String);

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PatternError {}

fn cell_mask(v: u8) -> Mask {
    match v {
        1 => BLACK,
        2 => WHITE,
        _ => EMPTY,
    }
}

impl Pattern {
    /// The whole board `cells` (row-major, 0 empty, 1 black, 2 white) of a
    /// `cols`×`rows` board, every point exact: a full-board position.
    ///
    /// # Errors
    /// When `cells` does not have `cols × rows` points or the size is not a
    /// board size (1 to 52).
    pub fn full_board(cells: &[u8], cols: u8, rows: u8) -> Result<Pattern, PatternError> {
        Pattern::region_of(cells, cols, rows, (0, 0, cols, rows))
    }

    /// The rectangle `(left, top, width, height)` of a position, every point
    /// exact.
    ///
    /// # Errors
    /// When the rectangle is empty or leaves the board, or `cells` does not
    /// have `cols × rows` points.
    pub fn region_of(
        cells: &[u8],
        cols: u8,
        rows: u8,
        rect: (u8, u8, u8, u8),
    ) -> Result<Pattern, PatternError> {
        let (x0, y0, w, h) = rect;
        if cols == 0 || rows == 0 || cols > 52 || rows > 52 {
            return Err(PatternError(format!("no board is {cols}×{rows}")));
        }
        if cells.len() != cols as usize * rows as usize {
            return Err(PatternError(format!(
                "{} points given for a {cols}×{rows} board",
                cells.len()
            )));
        }
        if w == 0
            || h == 0
            || x0 as usize + w as usize > cols as usize
            || y0 as usize + h as usize > rows as usize
        {
            return Err(PatternError("the region leaves the board".into()));
        }
        let mut masks = Vec::with_capacity(w as usize * h as usize);
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                masks.push(cell_mask(cells[y as usize * cols as usize + x as usize]));
            }
        }
        Ok(Pattern {
            cols,
            rows,
            bbox: rect,
            masks,
            to_play: None,
            sequence: Vec::new(),
            steps: Vec::new(),
        })
    }

    /// A pattern from text rows, one character per point: `X` black, `O`
    /// white, `.` empty, `*` anything, `x` black or empty, `o` white or
    /// empty, `-` outside the region. The rows are the whole board it was
    /// drawn on.
    ///
    /// # Errors
    /// When rows differ in length, a character is not one of these, or the
    /// board would be larger than 52×52.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Pattern, PatternError> {
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.as_ref().chars().count());
        if h == 0 || w == 0 || h > 52 || w > 52 {
            return Err(PatternError(format!("a pattern of {w}×{h} points")));
        }
        let mut masks = Vec::with_capacity(w * h);
        for (y, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.chars().count() != w {
                return Err(PatternError(format!(
                    "row {} is not {w} points long",
                    y + 1
                )));
            }
            for c in r.chars() {
                masks.push(match c {
                    'X' | '#' => BLACK,
                    'O' | '@' => WHITE,
                    '.' | '+' => EMPTY,
                    '*' | '?' => ANY,
                    'x' => BLACK_OR_EMPTY,
                    'o' => WHITE_OR_EMPTY,
                    '-' | ' ' => OUTSIDE,
                    _ => {
                        return Err(PatternError(format!(
                            "`{c}` in row {}: use X O . * x o -",
                            y + 1
                        )));
                    }
                });
            }
        }
        Ok(Pattern {
            cols: w as u8,
            rows: h as u8,
            bbox: (0, 0, w as u8, h as u8),
            masks,
            to_play: None,
            sequence: Vec::new(),
            steps: Vec::new(),
        }
        .trimmed())
    }

    /// A pattern from an SGF file (`docs/db-patterns.md`): the root's setup
    /// stones, `VW` for the region (the whole board without it), `MA` for
    /// anything, `TR` for black or empty, `SQ` for white or empty, `PL` for
    /// who is to play, and the moves of the main line as a sequence that
    /// must follow (replayed with captures).
    ///
    /// The file is at most [`MAX_PATTERN_FILE_BYTES`] and its sequence at
    /// most [`MAX_SEQUENCE_MOVES`] moves.
    ///
    /// # Errors
    /// When the file has no game, the region has no point, or the file or
    /// its sequence is too long.
    pub fn from_sgf(bytes: &[u8]) -> Result<Pattern, PatternError> {
        if bytes.len() as u64 > MAX_PATTERN_FILE_BYTES {
            return Err(PatternError(format!(
                "the pattern file is larger than {}, the most a pattern file may be",
                sgf_formats::input::human_bytes(MAX_PATTERN_FILE_BYTES)
            )));
        }
        let loaded = sgf_formats::read_any(bytes, None)
            .map_err(|e| PatternError(format!("the pattern file: {e}")))?;
        let doc = &loaded.parsed.document;
        let game = doc
            .game(0)
            .ok_or_else(|| PatternError("the pattern file has no game".into()))?;
        let root = game.root();
        let mut cursor = Cursor::new(doc, 0);
        let size = cursor.size();
        let ff = root.value("FF").and_then(|v| v.number()).unwrap_or(4);
        let mut region = coords::view_points(&root, size, ff);
        if region.is_empty() {
            region = (0..size.rows)
                .flat_map(|y| (0..size.cols).map(move |x| Point::new(x, y)))
                .collect();
        }
        let x0 = region.iter().map(|p| p.x).min().unwrap_or(0);
        let y0 = region.iter().map(|p| p.y).min().unwrap_or(0);
        let x1 = region.iter().map(|p| p.x).max().unwrap_or(0);
        let y1 = region.iter().map(|p| p.y).max().unwrap_or(0);
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        let at = |p: Point| (p.y - y0) as usize * w as usize + (p.x - x0) as usize;
        let cells = cursor.position().board.cells().to_vec();
        let cell = |cells: &[u8], p: Point| cells[p.y as usize * size.cols as usize + p.x as usize];
        let mut masks = vec![OUTSIDE; w as usize * h as usize];
        for &p in &region {
            masks[at(p)] = cell_mask(cell(&cells, p));
        }
        for (ident, m, known) in [
            ("MA", ANY, id::MA),
            ("TR", BLACK_OR_EMPTY, id::TR),
            ("SQ", WHITE_OR_EMPTY, id::SQ),
        ] {
            if !root.has_known(known) {
                continue;
            }
            for p in coords::points_of(&root, ident, size) {
                if region.contains(&p) {
                    masks[at(p)] = m;
                }
            }
        }
        let to_play = root
            .value("PL")
            .and_then(|v| sgf_go::replay::pl_color(v.raw()));
        let mut sequence = Vec::new();
        let mut steps = Vec::new();
        let mut prev = cells;
        let mut cur = masks.clone();
        while cursor.next(doc) {
            let Some(&(color, mv)) = cursor.report().moves.first() else {
                continue;
            };
            if sequence.len() >= MAX_SEQUENCE_MOVES {
                return Err(PatternError(format!(
                    "the pattern's sequence has more than {MAX_SEQUENCE_MOVES} moves, the most a pattern may have"
                )));
            }
            let Move::Play(point) = mv else {
                return Err(PatternError("a pass in the pattern's sequence".into()));
            };
            if !region.contains(&point) {
                return Err(PatternError(format!(
                    "the sequence's move {} is outside the region",
                    sequence.len() + 1
                )));
            }
            sequence.push(SeqMove { color, point });
            let now = cursor.position().board.cells().to_vec();
            for &p in &region {
                if cell(&now, p) != cell(&prev, p) {
                    cur[at(p)] = cell_mask(cell(&now, p));
                }
            }
            steps.push(cur.clone());
            prev = now;
        }
        Ok(Pattern {
            cols: size.cols,
            rows: size.rows,
            bbox: (x0, y0, w, h),
            masks,
            to_play,
            sequence,
            steps,
        })
    }

    /// The pattern cut to the bounding box of its region (rows or columns
    /// entirely outside it dropped).
    pub fn trimmed(mut self) -> Pattern {
        let (bx, by, w, h) = self.bbox;
        let (w, h) = (w as usize, h as usize);
        let inside = |x: usize, y: usize, m: &[Mask]| m[y * w + x] != OUTSIDE;
        let xs: Vec<usize> = (0..w)
            .filter(|&x| (0..h).any(|y| inside(x, y, &self.masks)))
            .collect();
        let ys: Vec<usize> = (0..h)
            .filter(|&y| (0..w).any(|x| inside(x, y, &self.masks)))
            .collect();
        let (Some(&xa), Some(&xb), Some(&ya), Some(&yb)) =
            (xs.first(), xs.last(), ys.first(), ys.last())
        else {
            return self;
        };
        let cut = |m: &[Mask]| -> Vec<Mask> {
            (ya..=yb)
                .flat_map(|y| (xa..=xb).map(move |x| m[y * w + x]))
                .collect()
        };
        self.masks = cut(&self.masks);
        self.steps = self.steps.iter().map(|s| cut(s)).collect();
        self.bbox = (
            bx + xa as u8,
            by + ya as u8,
            (xb - xa + 1) as u8,
            (yb - ya + 1) as u8,
        );
        self
    }

    /// The board size it was drawn on.
    pub fn board_size(&self) -> BoardSize {
        BoardSize {
            cols: self.cols,
            rows: self.rows,
        }
    }

    /// Whether every point of the board is in the region and exact (a
    /// full-board position).
    pub fn is_full_board(&self) -> bool {
        self.bbox == (0, 0, self.cols, self.rows)
            && self
                .masks
                .iter()
                .all(|&m| matches!(m, EMPTY | BLACK | WHITE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_sgf_reads_region_wildcards_and_sequence() {
        let p =
            Pattern::from_sgf(b"(;SZ[9]AB[bb]AW[cb][ba]VW[aa:cc]MA[ac]TR[cc]PL[B];B[ca];W[aa])")
                .unwrap();
        assert_eq!(p.bbox, (0, 0, 3, 3));
        assert_eq!(
            p.masks,
            vec![
                EMPTY,
                WHITE,
                EMPTY,
                EMPTY,
                BLACK,
                WHITE,
                ANY,
                EMPTY,
                BLACK_OR_EMPTY
            ]
        );
        assert_eq!(p.to_play, Some(Color::Black));
        assert_eq!(p.sequence.len(), 2);
        assert_eq!(p.steps[0][1], WHITE);
        assert_eq!(p.steps[0][2], BLACK);
        assert_eq!(p.steps[1][0], WHITE);
        assert!(!p.is_full_board());
    }

    #[test]
    fn rows_and_errors() {
        let p = Pattern::from_rows(&["---", "-X.", "-oO"]).unwrap();
        assert_eq!(p.bbox, (1, 1, 2, 2));
        assert_eq!(p.masks, vec![BLACK, EMPTY, WHITE_OR_EMPTY, WHITE]);
        assert!(Pattern::from_rows(&["X.", "X"]).is_err());
        assert!(Pattern::from_rows(&["Xz"]).is_err());
        assert!(Pattern::from_sgf(b"(;SZ[5]AB[aa]VW[aa:bb];W[ee])").is_err());
        let full = Pattern::full_board(&[0, 1, 2, 0], 2, 2).unwrap();
        assert!(full.is_full_board());
        assert!(Pattern::full_board(&[0, 1], 2, 2).is_err());
    }
}
