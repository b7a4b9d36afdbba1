//! `qipu position`: the board at a move or node.

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use serde_json::json;
use sgf_core::{Document, Point};
use sgf_go::{Cursor, Stone, coords};

use crate::input;

/// Show the board after a move of the main line or at a node.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// Game of the collection (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// After the N-th move of the main line (0: after the root's setup).
    #[arg(long, conflicts_with = "node")]
    pub r#move: Option<usize>,
    /// At node K in file order (from 0).
    #[arg(long)]
    pub node: Option<usize>,
    /// JSON: `{"size": [cols, rows], "rows": ["..X..O", …], "move_number": N, "to_play": "B", "captures": {"B": 0, "W": 2}}`.
    #[arg(long)]
    pub json: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Places a cursor as `--move`/`--node` ask (default: the end of the main line).
pub fn locate(
    doc: &Document,
    game: usize,
    mv: Option<usize>,
    node: Option<usize>,
) -> Result<Cursor> {
    let Some(g) = doc.game(game) else {
        bail!(
            "the file has {} game(s); there is no game {}",
            doc.game_count(),
            game + 1
        );
    };
    let mut c = Cursor::new(doc, game);
    match (mv, node) {
        (Some(n), _) => {
            let mut played = 0;
            while played < n {
                if !c.next(doc) {
                    bail!("the main line has only {played} move(s)");
                }
                if !c.report().moves.is_empty() {
                    played += 1;
                }
            }
        }
        (None, Some(k)) => {
            let Some(target) = g.nodes().nth(k) else {
                bail!(
                    "the game has only {} node(s) (numbered from 0)",
                    g.nodes().count()
                );
            };
            c.goto(doc, target.id());
        }
        (None, None) => c.to_end(doc),
    }
    Ok(c)
}

/// A text diagram with coordinates: `X` black, `O` white, `.` empty, `+` star points.
pub fn diagram(c: &Cursor, doc: &Document) -> String {
    let p = c.position();
    let size = p.board.size();
    let cols: Vec<String> = (0..size.cols)
        .map(|x| {
            let h = coords::human(Point::new(x, 0), size);
            h.trim_end_matches(|ch: char| ch.is_ascii_digit())
                .to_string()
        })
        .collect();
    let w = cols.iter().map(|c| c.len()).max().unwrap_or(1);
    let header: String = cols.iter().map(|c| format!(" {c:>w$}")).collect();
    let mut s = format!("    {header}\n");
    let last = p.last_move.and_then(|(_, m)| m.point());
    for y in 0..size.rows {
        let label = if size.cols <= 25 {
            (size.rows - y).to_string()
        } else {
            (sgf_core::value::coord_letter(y) as char).to_string()
        };
        s.push_str(&format!("{label:>3} "));
        for x in 0..size.cols {
            let pt = Point::new(x, y);
            let ch = match p.board.get(pt) {
                Stone::Black => 'X',
                Stone::White => 'O',
                Stone::Empty if is_star(size, pt) => '+',
                Stone::Empty => '.',
            };
            let mark = if Some(pt) == last { '(' } else { ' ' };
            s.push(mark);
            s.push_str(&" ".repeat(w - 1));
            s.push(ch);
        }
        s.push_str(&format!(" {label}\n"));
    }
    s.push_str(&format!("    {header}\n"));
    s.push_str(&format!(
        "move {}, {} to play, captures: Black {} White {}\n",
        p.move_number,
        if c.next_player(doc) == sgf_core::Color::Black {
            "Black"
        } else {
            "White"
        },
        p.captures[0],
        p.captures[1]
    ));
    s
}

/// Star points: 9, 13, 19 and sensible ones for other sizes (odd sides from 7).
pub fn is_star(size: sgf_go::BoardSize, p: Point) -> bool {
    coords::star_points(size).contains(&p)
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let loaded = input::load(&args.file)?;
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    let doc = &loaded.parsed.document;
    let c = locate(doc, args.game.saturating_sub(1), args.r#move, args.node)?;
    let p = c.position();
    let out = if args.json {
        let v = json!({
            "size": [p.board.size().cols, p.board.size().rows],
            "rows": p.rows(),
            "move_number": p.move_number,
            "to_play": c.next_player(doc).as_str(),
            "captures": {"B": p.captures[0], "W": p.captures[1]},
            "node": doc.node(c.node()).number(),
            "ko": p.ko.map(|k| k.to_string()),
            "last_move": p.last_move.map(|(col, m)| json!([col.as_str(), m.point().map(|x| x.to_string()).unwrap_or_default()])),
        });
        serde_json::to_string_pretty(&v)? + "\n"
    } else {
        diagram(&c, doc)
    };
    input::write_output(None, out.as_bytes())?;
    Ok(0)
}
