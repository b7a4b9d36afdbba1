//! `qipu position`: the board at a move or node.

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use serde_json::json;
use sgf_core::Document;
use sgf_go::Cursor;

use crate::input;

/// Show the board after a move of the main line or at a node.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or is not a game record (an archive of several
/// records says how to name one), the output could not be written (a file
/// written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The position shown.
    #[command(flatten)]
    pub at: At,
    /// JSON: `{"size": [cols, rows], "rows": ["..X..O", …], "move_number": N, "to_play": "B", "captures": {"B": 0, "W": 2}}`.
    #[arg(long)]
    pub json: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// A position of a record, as the commands that show one take it: the
/// file, the game, and the move or node (one group of arguments, shared
/// by `position` and `render`).
#[derive(ClapArgs, Debug)]
pub struct At {
    /// Input file (`-` for standard input; `ARCHIVE!MEMBER` for a record
    /// file inside a zip, tar, tar.gz or 7z archive, or the archive itself
    /// when it holds one).
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
            // Move N as `sgf_go::moves` defines it, whatever MN says.
            let moves = sgf_go::main_line_moves(doc, game);
            if n > 0 {
                let Some(m) = moves.get(n - 1) else {
                    bail!("the main line has only {} move(s)", moves.len());
                };
                c.seek(doc, m.node);
            }
        }
        (None, Some(k)) => {
            let Some(target) = g.nodes().nth(k) else {
                bail!(
                    "the game has only {} node(s) (numbered from 0)",
                    g.nodes().count()
                );
            };
            c.seek(doc, target.id());
        }
        (None, None) => c.advance_to_end(doc),
    }
    Ok(c)
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    // Only the part of a collection that holds the game is read.
    let at = input::load_game_numbered(&args.at.file, args.at.game, args.quiet)?;
    let doc = &at.loaded.parsed.document;
    let c = locate(doc, at.index, args.at.r#move, args.at.node)?;
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
        // The same text diagram as `qipu render --format ascii`: one
        // drawing, one convention for the last move and markup.
        let opts = sgf_render::RenderOptions {
            variations: sgf_render::Variations::None,
            view: false,
            ..sgf_render::RenderOptions::default()
        };
        sgf_render::Diagram::at(doc, c.node(), &opts)?.to_text(&opts, sgf_render::TextStyle::Ascii)
    };
    input::write_output(None, out.as_bytes())?;
    Ok(0)
}
