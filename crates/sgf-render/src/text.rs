//! Text diagrams, for terminals and plain-text documents.
//!
//! Each point is a mark slot followed by its content:
//!
//! | content | meaning | slot | meaning |
//! | --- | --- | --- | --- |
//! | `X` `O` (`●` `○`) | black, white stone | `^` | `TR` triangle |
//! | `.` (grid lines) | empty point | `@` | `CR` circle |
//! | `+` (`╋`) | star point | `#` | `SQ` square |
//! | `x` `o` (`▪` `▫`) | black, white territory | `*` | `MA` cross |
//! | text | `LB` label, variation marker | `~` | `SL` selected |
//! | blank | hidden by `VW` | `>` | last move |
//! | | | `:` | dimmed (`DD`) |
//! | | | `=` | territory on a stone |
//!
//! Labels wider than the cells, arrows and lines are listed under the board,
//! with a key of the marks used and the status line. Move numbers are drawn
//! in SVG and PNG only.

use std::fmt::Write as _;

use sgf_core::{Color, Point};
use sgf_go::Stone;

use crate::diagram::{Diagram, Shape};
use crate::font::is_wide;
use crate::options::TextStyle;

/// Display width of text in a terminal (wide CJK characters take two columns).
fn width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

/// Cuts text to at most `w` columns.
fn truncate(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = if is_wide(c) { 2 } else { 1 };
        if used + cw > w {
            break;
        }
        out.push(c);
        used += cw;
    }
    out
}

/// Human name of a point for the lists under the board.
fn name(d: &Diagram, p: Point) -> String {
    sgf_go::coords::human(p, d.size)
}

/// Draws `d` as a Sensei's Library diagram: `$$B` (the colour of the first
/// numbered move, else of the player to move; `c` with coordinates, `m`
/// with the number of the first move when it is not 1), the board edges
/// that are in view, then a row per line. Moves are numbered only when the
/// numbers shown fit in ten (`1`…`9`, `0`), as the wiki draws them; markup
/// without a wiki sign (selection, dimming, territory, arrows) is left out.
pub(crate) fn write_sensei(d: &Diagram, coordinates: bool) -> String {
    let v = d.drawn_view();
    let cols = d.size.cols as usize;
    let numbered: Vec<(Point, u32)> = (v.y0..=v.y1)
        .flat_map(|y| (v.x0..=v.x1).map(move |x| Point::new(x, y)))
        .filter(|&p| d.visible(p))
        .filter_map(
            |p| match d.numbers.get(p.y as usize * cols + p.x as usize) {
                Some(&n) if n > 0 => Some((p, n)),
                _ => None,
            },
        )
        .collect();
    let first = numbered.iter().map(|&(_, n)| n).min();
    let last = numbered.iter().map(|&(_, n)| n).max();
    let numbers = match (first, last) {
        (Some(a), Some(b)) if b - a < 10 => Some(a),
        _ => None,
    };
    let color = numbers
        .and_then(|a| numbered.iter().find(|&&(_, n)| n == a))
        .and_then(|&(p, _)| d.stone(p).color())
        .or(d.status.as_ref().map(|s| s.to_play))
        .unwrap_or(Color::Black);
    let mut out = String::from(if color == Color::Black { "$$B" } else { "$$W" });
    if coordinates {
        out.push('c');
    }
    if let Some(a) = numbers.filter(|&a| a > 1) {
        let _ = write!(out, "m{a}");
    }
    if let Some(t) = &d.title {
        out.push(' ');
        out.push_str(t);
    }
    out.push('\n');
    let (left, right) = (v.x0 == 0, v.x1 + 1 == d.size.cols);
    let width = 2 * (v.x1 - v.x0 + 1) as usize + 1 + 2 * usize::from(left) + 2 * usize::from(right);
    let edge = format!("$$ {}\n", "-".repeat(width.saturating_sub(2)));
    if v.y0 == 0 {
        out.push_str(&edge);
    }
    for y in v.y0..=v.y1 {
        out.push_str("$$");
        if left {
            out.push_str(" |");
        }
        for x in v.x0..=v.x1 {
            let p = Point::new(x, y);
            out.push(' ');
            out.push(sensei_cell(d, p, numbers));
        }
        if right {
            out.push_str(" |");
        }
        out.push('\n');
    }
    if v.y1 + 1 == d.size.rows {
        out.push_str(&edge);
    }
    out
}

/// The wiki's sign for one point.
fn sensei_cell(d: &Diagram, p: Point, first: Option<u32>) -> char {
    if !d.visible(p) {
        return ' ';
    }
    let shape = d.shapes.iter().find(|(q, _)| *q == p).map(|&(_, s)| s);
    let number = first.and_then(|a| {
        // A caller-built diagram may carry no numbers at all.
        let n = d
            .numbers
            .get(p.y as usize * d.size.cols as usize + p.x as usize)
            .copied()
            .unwrap_or(0);
        (n >= a && n > 0).then(|| char::from(b'0' + ((n - a + 1) % 10) as u8))
    });
    match d.stone(p) {
        Stone::Black => number.unwrap_or(match shape {
            Some(Shape::Circle) => 'B',
            Some(Shape::Square) => '#',
            Some(Shape::Triangle) => 'Y',
            Some(Shape::Cross) => 'Z',
            _ => 'X',
        }),
        Stone::White => number.unwrap_or(match shape {
            Some(Shape::Circle) => 'W',
            Some(Shape::Square) => '@',
            Some(Shape::Triangle) => 'Q',
            Some(Shape::Cross) => 'P',
            _ => 'O',
        }),
        Stone::Empty => {
            let label = d
                .labels
                .iter()
                .chain(d.variations.iter())
                .find(|(q, _)| *q == p)
                .and_then(|(_, t)| {
                    let mut cs = t.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
                        _ => None,
                    }
                });
            label.unwrap_or(match shape {
                Some(Shape::Circle) => 'C',
                Some(Shape::Square) => 'S',
                Some(Shape::Triangle) => 'T',
                Some(Shape::Cross) => 'M',
                _ if d.hoshi.contains(&p) => ',',
                _ => '.',
            })
        }
    }
}

/// Draws `d` as text.
pub(crate) fn write(d: &Diagram, coordinates: bool, style: TextStyle) -> String {
    let v = d.drawn_view();
    let unicode = style == TextStyle::Unicode;
    // Cells are as wide as the widest label, up to three columns.
    let cw = d
        .labels
        .iter()
        .chain(d.variations.iter())
        .filter(|(p, _)| d.visible(*p))
        .map(|(_, t)| width(t))
        .max()
        .unwrap_or(1)
        .clamp(1, 3);
    let mut used = std::collections::BTreeSet::new();
    let mut long_labels = Vec::new();
    let (cols, rows): (Vec<String>, Vec<String>) = if d.size.cols <= 25 {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        (
            (0..d.size.cols)
                .map(|x| (letters[x as usize] as char).to_string())
                .collect(),
            (0..d.size.rows)
                .map(|y| (d.size.rows - y).to_string())
                .collect(),
        )
    } else {
        let l = |i: u8| (sgf_core::value::coord_letter(i) as char).to_string();
        (
            (0..d.size.cols).map(l).collect(),
            (0..d.size.rows).map(l).collect(),
        )
    };
    let rw = rows.iter().map(|r| r.len()).max().unwrap_or(1);
    let mut out = String::new();
    if let Some(t) = &d.title {
        out.push_str(t);
        out.push('\n');
    }
    let header = || {
        let mut h = " ".repeat(rw + 1);
        for x in v.x0..=v.x1 {
            let _ = write!(
                h,
                " {:<cw$}",
                cols.get(x as usize).map_or("", String::as_str)
            );
        }
        h.trim_end().to_string()
    };
    if coordinates {
        out.push_str(&header());
        out.push('\n');
    }
    for y in v.y0..=v.y1 {
        let mut line = String::new();
        if coordinates {
            let _ = write!(
                line,
                "{:>rw$} ",
                rows.get(y as usize).map_or("", String::as_str)
            );
        }
        for x in v.x0..=v.x1 {
            let p = Point::new(x, y);
            if !d.visible(p) {
                line.push_str(&" ".repeat(cw + 1));
                continue;
            }
            let stone = d.stone(p);
            let shape = d.shapes.iter().find(|(q, _)| *q == p).map(|&(_, s)| s);
            let territory = d.territory.iter().find(|(q, _)| *q == p).map(|&(_, c)| c);
            let slot = if let Some(s) = shape {
                let ch = match s {
                    Shape::Triangle => '^',
                    Shape::Circle => '@',
                    Shape::Square => '#',
                    Shape::Cross => '*',
                    Shape::Selected => '~',
                };
                used.insert(ch);
                ch
            } else if d.last_move == Some(p) {
                used.insert('>');
                '>'
            } else if territory.is_some() && stone != Stone::Empty {
                used.insert('=');
                '='
            } else if d.is_dimmed(p) {
                used.insert(':');
                ':'
            } else if unicode && x > v.x0 && !d.is_hidden(Point::new(x - 1, y)) {
                '─'
            } else {
                ' '
            };
            line.push(slot);
            let label = d.labels.iter().find(|(q, _)| *q == p).or_else(|| {
                d.variations
                    .iter()
                    .find(|(q, _)| *q == p && stone == Stone::Empty)
            });
            let content = if let Some((_, t)) = label {
                let shown = truncate(t, cw);
                if shown != *t {
                    long_labels.push(format!("{} \"{}\"", name(d, p), t));
                }
                shown
            } else {
                let ch = match (stone, territory) {
                    (Stone::Black, _) => {
                        if unicode {
                            '●'
                        } else {
                            'X'
                        }
                    }
                    (Stone::White, _) => {
                        if unicode {
                            '○'
                        } else {
                            'O'
                        }
                    }
                    (Stone::Empty, Some(Color::Black)) => {
                        used.insert('x');
                        if unicode { '▪' } else { 'x' }
                    }
                    (Stone::Empty, Some(Color::White)) => {
                        used.insert('o');
                        if unicode { '▫' } else { 'o' }
                    }
                    (Stone::Empty, None) if d.hoshi.contains(&p) => {
                        if unicode {
                            '╋'
                        } else {
                            '+'
                        }
                    }
                    (Stone::Empty, None) if unicode => grid_char(d, p),
                    (Stone::Empty, None) => '.',
                };
                ch.to_string()
            };
            let pad = cw.saturating_sub(width(&content));
            line.push_str(&content);
            // Box-drawing lines run on through the padding to the next point.
            let next_visible = x < v.x1 && d.visible(Point::new(x + 1, y));
            let fill = if unicode && next_visible { '─' } else { ' ' };
            for _ in 0..pad {
                line.push(fill);
            }
        }
        if coordinates {
            let _ = write!(line, " {}", rows.get(y as usize).map_or("", String::as_str));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if coordinates {
        out.push_str(&header());
        out.push('\n');
    }
    if !long_labels.is_empty() {
        let _ = writeln!(out, "labels: {}", long_labels.join(", "));
    }
    for (title, list) in [("arrows", &d.arrows), ("lines", &d.lines)] {
        let shown: Vec<String> = list
            .iter()
            .filter(|(a, b)| v.contains(*a) && v.contains(*b))
            .map(|&(a, b)| format!("{}-{}", name(d, a), name(d, b)))
            .collect();
        if !shown.is_empty() {
            let _ = writeln!(out, "{title}: {}", shown.join(", "));
        }
    }
    if !used.is_empty() {
        let key: Vec<String> = used
            .iter()
            .map(|c| {
                let what = match c {
                    '^' => "triangle",
                    '@' => "circle",
                    '#' => "square",
                    '*' => "cross",
                    '~' => "selected",
                    '>' => "last move",
                    '=' => "territory on a stone",
                    ':' => "dimmed",
                    'x' => "black territory",
                    'o' => "white territory",
                    _ => "",
                };
                let shown = match (unicode, c) {
                    (true, 'x') => '▪',
                    (true, 'o') => '▫',
                    _ => *c,
                };
                format!("{shown} {what}")
            })
            .collect();
        let _ = writeln!(out, "key: {}", key.join(", "));
    }
    for n in &d.notes {
        let _ = writeln!(out, "{}", n.text(d.size));
    }
    if let Some(st) = d.status {
        let _ = writeln!(
            out,
            "move {}, {} to play, captures: Black {} White {}",
            st.move_number,
            if st.to_play == Color::Black {
                "Black"
            } else {
                "White"
            },
            st.captures[0],
            st.captures[1]
        );
    }
    out
}

/// The box-drawing character of an empty point.
fn grid_char(d: &Diagram, p: Point) -> char {
    let top = p.y == 0;
    let bottom = p.y + 1 == d.size.rows;
    let left = p.x == 0;
    let right = p.x + 1 == d.size.cols;
    match (top, bottom, left, right) {
        (true, _, true, _) => '┌',
        (true, _, _, true) => '┐',
        (_, true, true, _) => '└',
        (_, true, _, true) => '┘',
        (true, _, _, _) => '┬',
        (_, true, _, _) => '┴',
        (_, _, true, _) => '├',
        (_, _, _, true) => '┤',
        _ => '┼',
    }
}
