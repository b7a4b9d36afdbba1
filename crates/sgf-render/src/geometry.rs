//! Where things are drawn: the size of the picture, the cell size and the
//! position of every point, so that a client can map a click to a point.

use sgf_core::Point;

use crate::diagram::{Diagram, Note, Region};
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
    notes: &[Note],
    board: BoardSize,
    max_w: f64,
    size: f64,
    mut line: impl FnMut(&str),
) {
    let mut cur = String::new();
    let mut candidate = String::new();
    for (i, n) in notes.iter().enumerate() {
        let n = &n.text(board);
        let comma = if i + 1 < notes.len() { "," } else { "" };
        candidate.clear();
        if !cur.is_empty() {
            candidate.push_str(&cur);
            candidate.push(' ');
        }
        candidate.push_str(n);
        candidate.push_str(comma);
        if !cur.is_empty() && crate::font::estimate_width(&candidate) * size > max_w {
            line(&cur);
            cur.clear();
            cur.push_str(n);
            cur.push_str(comma);
        } else {
            std::mem::swap(&mut cur, &mut candidate);
        }
    }
    if !cur.is_empty() {
        line(&cur);
    }
}

impl Geometry {
    /// The layout of `d`, with or without coordinates.
    pub fn of(d: &Diagram, coordinates: bool) -> Geometry {
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
        let mut notes = 0usize;
        note_lines(
            &d.notes,
            d.size,
            width - cell * 0.6,
            cell * NOTE_SIZE,
            |_| {
                notes += 1;
            },
        );
        let notes_height = if notes > 0 {
            (notes as f64 * NOTE_LINE + 0.4) * cell
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
