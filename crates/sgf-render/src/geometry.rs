//! Where things are drawn: the size of the picture, the cell size and the
//! position of every point, so that a client can map a click to a point.

use sgf_core::Point;

use crate::diagram::{Diagram, Note, Region};
use crate::font;
use sgf_go::coords::BoardSize;

/// Side of a cell (the distance between two lines) in SVG user units.
pub const CELL: f64 = 40.0;

/// Radius of a stone, in cells.
pub(crate) const STONE_R: f64 = 0.48;

/// The layout of a drawn diagram, in SVG user units (the `viewBox`, which
/// starts at 0,0; a PNG scales it uniformly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Width of the picture.
    pub width: f64,
    /// Height of the picture.
    pub height: f64,
    /// Distance between two lines.
    pub cell: f64,
    /// Horizontal centre of the top-left drawn point (`view.x0`, `view.y0`).
    pub origin_x: f64,
    /// Vertical centre of the top-left drawn point.
    pub origin_y: f64,
    /// The board points drawn.
    pub view: Region,
    /// Height of the title band at the top (0 without a title).
    pub title_height: f64,
    /// Top of the status band at the bottom (`height` without a status line).
    pub status_top: f64,
    /// Top of the notes band (under the status band).
    pub notes_top: f64,
    /// Whether coordinates are drawn.
    pub coordinates: bool,
}

/// Font size of notes, in cells.
pub(crate) const NOTE_SIZE: f64 = 0.42;
/// Line height of notes, in cells.
pub(crate) const NOTE_LINE: f64 = 0.62;

/// Wraps notes (joined with ", ") into lines at most `max_w` user units
/// wide, handed to `line` one at a time (a figure of a long game lists a
/// million moves: only the line being filled is held).
pub(crate) fn note_lines(
    notes: &dyn Notes,
    board: BoardSize,
    max_w: f64,
    size: f64,
    mut line: impl FnMut(&str),
) {
    let mut wrap = NoteLines::new(board, max_w, size);
    notes.each(&mut |n| wrap.push(n, &mut line));
    wrap.finish(&mut line);
}

/// The notes under a diagram, handed over in order: held in a list, or
/// made again from the record each time they are needed (a figure of a
/// long game has a million).
pub(crate) trait Notes {
    /// Hands each note to `f`, in order.
    fn each(&self, f: &mut dyn FnMut(Note));
    /// Whether there are none.
    fn is_empty(&self) -> bool;
}

impl Notes for Vec<Note> {
    fn each(&self, f: &mut dyn FnMut(Note)) {
        for &n in self {
            f(n);
        }
    }

    fn is_empty(&self) -> bool {
        <[Note]>::is_empty(self)
    }
}

/// [`note_lines`] fed one note at a time.
pub(crate) struct NoteLines {
    board: BoardSize,
    max_w: f64,
    size: f64,
    /// The line being filled, and its width in em.
    cur: String,
    cur_w: f64,
    /// The last note pushed: whether a comma follows it is known at the next.
    pending: Option<String>,
}

impl NoteLines {
    pub(crate) fn new(board: BoardSize, max_w: f64, size: f64) -> NoteLines {
        NoteLines {
            board,
            max_w,
            size,
            cur: String::new(),
            cur_w: 0.0,
            pending: None,
        }
    }

    /// Adds a note; a line that is full is handed to `line`.
    pub(crate) fn push(&mut self, n: Note, line: &mut impl FnMut(&str)) {
        if let Some(prev) = self.pending.replace(n.text(self.board)) {
            self.place(&prev, true, line);
        }
    }

    /// Hands the last line to `line`.
    pub(crate) fn finish(mut self, line: &mut impl FnMut(&str)) {
        if let Some(last) = self.pending.take() {
            self.place(&last, false, line);
        }
        if !self.cur.is_empty() {
            line(&self.cur);
        }
    }

    fn place(&mut self, n: &str, comma: bool, line: &mut impl FnMut(&str)) {
        if !self.cur.is_empty() {
            // The width of "cur n," summed as `estimate_width` sums it: its
            // sum goes on from the sum of `cur`, the same additions in the
            // same order, so lines break exactly where the whole text would.
            let mut w = self.cur_w + font::char_width(' ');
            for c in n.chars() {
                w += font::char_width(c);
            }
            if comma {
                w += font::char_width(',');
            }
            if w * self.size <= self.max_w {
                self.cur.push(' ');
                self.cur.push_str(n);
                if comma {
                    self.cur.push(',');
                }
                self.cur_w = w;
                return;
            }
            line(&self.cur);
            self.cur.clear();
        }
        self.cur.push_str(n);
        if comma {
            self.cur.push(',');
        }
        self.cur_w = font::estimate_width(&self.cur);
    }
}

impl Geometry {
    /// The layout of `d`, with or without coordinates.
    pub fn of(d: &Diagram, coordinates: bool) -> Geometry {
        Geometry::with_notes(d, &d.notes, coordinates)
    }

    /// The layout of `d` with `notes` under it.
    pub(crate) fn with_notes(d: &Diagram, notes: &dyn Notes, coordinates: bool) -> Geometry {
        let g = Geometry::with_note_lines(d, coordinates, 0);
        let mut lines = 0usize;
        note_lines(notes, d.size, g.note_width(), g.note_size(), |_| {
            lines += 1;
        });
        Geometry::with_note_lines(d, coordinates, lines)
    }

    /// The layout of `d` with `lines` lines of notes under it.
    pub(crate) fn with_note_lines(d: &Diagram, coordinates: bool, lines: usize) -> Geometry {
        let cell = CELL;
        let margin = if coordinates { 1.35 } else { 0.6 } * cell;
        let title_height = if d.title.is_some() { 1.1 * cell } else { 0.0 };
        let status_height = if d.status.is_some() { 1.1 * cell } else { 0.0 };
        let view = d.drawn_view();
        let board_w = f64::from(view.cols() - 1) * cell;
        let board_h = f64::from(view.rows() - 1) * cell;
        let width = board_w + 2.0 * margin;
        let status_top = title_height + board_h + 2.0 * margin;
        let notes_top = status_top + status_height;
        let notes_height = if lines > 0 {
            (lines as f64 * NOTE_LINE + 0.4) * cell
        } else {
            0.0
        };
        Geometry {
            width,
            height: notes_top + notes_height,
            notes_top,
            cell,
            origin_x: margin,
            origin_y: title_height + margin,
            view,
            title_height,
            status_top,
            coordinates,
        }
    }

    /// The widest a line of notes may be.
    pub(crate) fn note_width(&self) -> f64 {
        self.width - self.cell * 0.6
    }

    /// The font size of notes.
    pub(crate) fn note_size(&self) -> f64 {
        self.cell * NOTE_SIZE
    }

    /// The centre of a point.
    pub fn center(&self, p: Point) -> (f64, f64) {
        (
            self.origin_x + (f64::from(p.x) - f64::from(self.view.x0)) * self.cell,
            self.origin_y + (f64::from(p.y) - f64::from(self.view.y0)) * self.cell,
        )
    }

    /// The drawn point nearest to `(x, y)` (user units), if within half a cell of it.
    pub fn point_at(&self, x: f64, y: f64) -> Option<Point> {
        let fx = (x - self.origin_x) / self.cell;
        let fy = (y - self.origin_y) / self.cell;
        let (rx, ry) = (fx.round(), fy.round());
        if !(rx.is_finite() && ry.is_finite())
            || (fx - rx).abs() > 0.5
            || (fy - ry).abs() > 0.5
            || rx < 0.0
            || ry < 0.0
            || rx >= f64::from(self.view.cols())
            || ry >= f64::from(self.view.rows())
        {
            return None;
        }
        Some(Point::new(self.view.x0 + rx as u8, self.view.y0 + ry as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_go::BoardSize;

    /// Lines broken as the whole text measures: each note tried on the
    /// line with the width of the line and it together.
    fn wrapped_whole(notes: &[Note], board: BoardSize, max_w: f64, size: f64) -> Vec<String> {
        let mut lines = Vec::new();
        let mut cur = String::new();
        for (i, n) in notes.iter().enumerate() {
            let n = n.text(board) + if i + 1 < notes.len() { "," } else { "" };
            let candidate = if cur.is_empty() {
                n.clone()
            } else {
                format!("{cur} {n}")
            };
            if !cur.is_empty() && font::estimate_width(&candidate) * size > max_w {
                lines.push(std::mem::replace(&mut cur, n));
            } else {
                cur = candidate;
            }
        }
        if !cur.is_empty() {
            lines.push(cur);
        }
        lines
    }

    #[test]
    fn notes_wrap_as_their_whole_text_measures() {
        use crate::diagram::NoteAt;
        let board = BoardSize::square(19);
        let notes: Vec<Note> = (1..3000u32)
            .map(|i| Note {
                number: i * 7 % 1000 + 1,
                at: match i % 3 {
                    0 => NoteAt::Pass,
                    1 => NoteAt::Number(i % 400),
                    _ => NoteAt::Point(Point::new((i % 19) as u8, (i / 19 % 19) as u8)),
                },
            })
            .collect();
        // Widths at which lines hold a few notes, one, or less than one.
        for (max_w, size) in [(500.0, 16.8), (777.7, 16.8), (90.0, 16.8), (10.0, 16.8)] {
            for k in [0, 1, 2, 3, 50, notes.len()] {
                let mut lines = Vec::new();
                note_lines(&notes[..k].to_vec(), board, max_w, size, |l| {
                    lines.push(l.to_string())
                });
                assert_eq!(lines, wrapped_whole(&notes[..k], board, max_w, size));
            }
        }
    }

    #[test]
    fn clicks_map_to_points() {
        let mut d = Diagram::empty(BoardSize::square(19));
        let g = Geometry::of(&d, true);
        let p = Point::new(3, 15);
        let (x, y) = g.center(p);
        assert_eq!(g.point_at(x + 0.3 * g.cell, y - 0.4 * g.cell), Some(p));
        assert_eq!(g.point_at(1.0, 1.0), None);
        assert_eq!(g.point_at(g.width - 1.0, g.height - 1.0), None);
        d.set_view(&[Point::new(10, 10), Point::new(12, 13)]);
        let g = Geometry::of(&d, false);
        assert_eq!(g.point_at(g.origin_x, g.origin_y), Some(Point::new(10, 10)));
        assert_eq!(g.center(Point::new(12, 13)).0, g.origin_x + 2.0 * g.cell);
    }
}
