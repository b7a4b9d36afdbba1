//! Go: positions replayed by sgf-go, checked play, boards as typed arrays,
//! and diagrams drawn by sgf-render.

use sgf_core::NodeId;
#[cfg(feature = "full")]
use sgf_core::{Color, Point};
#[cfg(feature = "full")]
use sgf_go::Cursor;
use sgf_go::{BoardSize, Move};
use wasm_bindgen::prelude::*;

use crate::Collection;
#[cfg(feature = "full")]
use crate::err;

#[cfg(feature = "full")]
/// A position: the board after a node, with the player to move, captures,
/// ko and last move.
#[wasm_bindgen]
pub struct Position {
    cols: u8,
    rows: u8,
    cells: Vec<u8>,
    to_play: Color,
    captures: [u32; 2],
    ko: Option<Point>,
    move_number: u32,
    last_move: Option<(Color, Move)>,
    node: u32,
}

#[cfg(feature = "full")]
impl Position {
    fn of(c: &Cursor, doc: &sgf_core::Document) -> Position {
        let p = c.position();
        let s = p.board.size();
        Position {
            cols: s.cols,
            rows: s.rows,
            cells: p.board.cells().to_vec(),
            to_play: c.next_player(doc),
            captures: p.captures,
            ko: p.ko,
            move_number: p.move_number,
            last_move: p.last_move,
            node: c.node().index() as u32,
        }
    }
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl Position {
    /// Columns of the board.
    #[wasm_bindgen(getter)]
    pub fn cols(&self) -> u8 {
        self.cols
    }
    /// Rows of the board.
    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> u8 {
        self.rows
    }
    /// The points, row by row from the top: 0 empty, 1 black, 2 white.
    #[wasm_bindgen(getter)]
    pub fn board(&self) -> Vec<u8> {
        self.cells.clone()
    }
    /// Who plays next: `B` or `W`.
    #[wasm_bindgen(getter, js_name = toPlay)]
    pub fn to_play(&self) -> String {
        self.to_play.as_str().to_string()
    }
    /// Stones captured by Black.
    #[wasm_bindgen(getter, js_name = capturesBlack)]
    pub fn captures_black(&self) -> u32 {
        self.captures[0]
    }
    /// Stones captured by White.
    #[wasm_bindgen(getter, js_name = capturesWhite)]
    pub fn captures_white(&self) -> u32 {
        self.captures[1]
    }
    /// The point the opponent may not retake at once (SGF letters), if any.
    #[wasm_bindgen(getter)]
    pub fn ko(&self) -> Option<String> {
        self.ko.map(|p| p.to_string())
    }
    /// The number of the last move (`MN` renumbers).
    #[wasm_bindgen(getter, js_name = moveNumber)]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    /// The last move: its colour (`B`, `W`), or undefined.
    #[wasm_bindgen(getter, js_name = lastColor)]
    pub fn last_color(&self) -> Option<String> {
        self.last_move.map(|(c, _)| c.as_str().to_string())
    }
    /// The last move's point (SGF letters; `""` for a pass), or undefined.
    #[wasm_bindgen(getter, js_name = lastPoint)]
    pub fn last_point(&self) -> Option<String> {
        self.last_move.map(|(_, m)| match m {
            Move::Play(p) => p.to_string(),
            Move::Pass => String::new(),
        })
    }
    /// The node it is the position after.
    #[wasm_bindgen(getter)]
    pub fn node(&self) -> u32 {
        self.node
    }
}

#[cfg(feature = "full")]
/// A colour from `B`/`W` (any case, or `black`/`white`).
fn color_of(s: &str) -> Result<Color, JsError> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(err(format!("expected a colour, \"B\" or \"W\", got {s:?}"))),
    }
}

#[cfg(feature = "full")]
/// A move from a point's SGF letters (`""`, or `"tt"` on boards up to
/// 19×19: a pass), or from `at`, `[x, y]` counted from 0 from the top
/// left (as the game summary gives a move's point), checked against the
/// board.
fn move_of(point: &str, at: Option<Vec<u32>>, size: BoardSize) -> Result<Move, JsError> {
    if let Some(at) = at {
        return match at[..] {
            [x, y] if x < u32::from(size.cols) && y < u32::from(size.rows) => {
                Ok(Move::Play(Point::new(x as u8, y as u8)))
            }
            _ => Err(err(format!(
                "expected a point of the {}x{} board, [x, y] from [0, 0] to [{}, {}], got {at:?}",
                size.cols,
                size.rows,
                size.cols - 1,
                size.rows - 1
            ))),
        };
    }
    sgf_go::parse_move(point.as_bytes(), size).mv.ok_or_else(|| {
        err(format!(
            "expected a point of the {}x{} board as SGF letters (\"pd\"), or \"\" to pass, got {point:?}",
            size.cols, size.rows
        ))
    })
}

impl Collection {
    /// A cursor on node `n` of its game.
    #[cfg(feature = "full")]
    fn cursor_at(&self, n: NodeId) -> Result<Cursor, JsError> {
        let gi = self.game_of_root(self.doc.root_of(n))?;
        let mut c = Cursor::new(&self.doc, gi);
        if !c.goto(&self.doc, n) {
            return Err(err("the node is not in its game"));
        }
        Ok(c)
    }

    fn size_at(&self, n: NodeId) -> BoardSize {
        sgf_go::board_size(&self.doc.node(self.doc.root_of(n))).0
    }
}

#[wasm_bindgen]
impl Collection {
    /// The move of node `id`: `"B pd"`, `"W "` for a pass, or undefined.
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = moveOf)]
    pub fn move_of(&self, id: u32) -> Result<Option<String>, JsError> {
        let n = self.id(id)?;
        let size = self.size_at(n);
        Ok(
            sgf_go::edit::node_move(&self.doc, n, size).map(|(c, m)| match m {
                Move::Play(p) => format!("{} {p}", c.as_str()),
                Move::Pass => format!("{} ", c.as_str()),
            }),
        )
    }
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl Collection {
    /// The position after node `id`.
    ///
    /// # Errors
    /// A removed node.
    #[wasm_bindgen(js_name = positionOf)]
    pub fn position_of(&self, id: u32) -> Result<Position, JsError> {
        let c = self.cursor_at(self.attached(id)?)?;
        Ok(Position::of(&c, &self.doc))
    }

    /// The position after move `n` of game `gi`'s main line (moves as
    /// [`sgf_go::main_line_moves`] counts them: every `B` and `W`, passes
    /// and unplayable moves included; 0 is the root with its setup).
    ///
    /// # Errors
    /// No such game, or fewer moves.
    #[wasm_bindgen(js_name = positionAt)]
    pub fn position_at(&self, gi: u32, n: u32) -> Result<Position, JsError> {
        self.game(gi)?;
        let mut c = Cursor::new(&self.doc, gi as usize);
        if n > 0 {
            let moves = sgf_go::main_line_moves(&self.doc, gi as usize);
            let m = moves.get(n as usize - 1).ok_or_else(|| {
                err(format!(
                    "expected a move number from 0 to {} (the main line's moves), got {n}",
                    moves.len()
                ))
            })?;
            c.goto(&self.doc, m.node);
        }
        Ok(Position::of(&c, &self.doc))
    }

    /// The number of moves of game `gi`'s main line.
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = moveCount)]
    pub fn move_count(&self, gi: u32) -> Result<u32, JsError> {
        self.game(gi)?;
        Ok(sgf_go::main_line_move_count(&self.doc, gi as usize) as u32)
    }

    /// The boards after every node of game `gi`'s main line, one after the
    /// other (`cols × rows` bytes each, 0 empty, 1 black, 2 white).
    ///
    /// # Errors
    /// No such game.
    pub fn boards(&self, gi: u32) -> Result<Vec<u8>, JsError> {
        self.game(gi)?;
        let mut c = Cursor::new(&self.doc, gi as usize);
        let mut cells = c.position().board.cells().to_vec();
        while c.next(&self.doc) {
            cells.extend_from_slice(c.position().board.cells());
        }
        Ok(cells)
    }

    /// Why the rules forbid `color` playing `point` (or `at`, see
    /// [`Collection::play`]) below node `id` as a new move (`occupied`,
    /// `suicide`, `ko`, then `:` and a message), or undefined when it is
    /// legal or a child already plays it
    /// ([`sgf_go::edit::illegal_new_move`], the editors' one check).
    ///
    /// # Errors
    /// A removed node, a bad colour or point.
    #[wasm_bindgen(js_name = illegalMove)]
    pub fn illegal_move(
        &self,
        id: u32,
        color: &str,
        point: &str,
        at: Option<Vec<u32>>,
    ) -> Result<Option<String>, JsError> {
        let n = self.attached(id)?;
        let c = color_of(color)?;
        let mv = move_of(point, at, self.size_at(n))?;
        let cur = self.cursor_at(n)?;
        Ok(sgf_go::edit::illegal_new_move(&self.doc, &cur, c, mv)
            .map(|why| format!("{}:{why}", why.code())))
    }

    /// Plays `color` at `point` (SGF letters, `""` to pass), or at `at`
    /// when given (`[x, y]` from 0 from the top left), below node `id`:
    /// the child that already plays it, or a new child (a variation when
    /// there are children) ([`sgf_go::edit::play_below`]). Not checked:
    /// call [`Collection::illegal_move`] first.
    ///
    /// # Errors
    /// A removed node, a bad colour or a point off the board.
    pub fn play(
        &mut self,
        id: u32,
        color: &str,
        point: &str,
        at: Option<Vec<u32>>,
    ) -> Result<u32, JsError> {
        let n = self.attached(id)?;
        let c = color_of(color)?;
        let size = self.size_at(n);
        let mv = move_of(point, at, size)?;
        let child = sgf_go::edit::play_below(&mut self.doc, n, size, c, mv).map_err(err)?;
        Ok(child.index() as u32)
    }

    /// The board diagram at node `id` as a standalone SVG document
    /// ([`sgf_render::render_svg`]): its markup, the last move, variation
    /// markers, coordinates and a status line. `move_numbers`: 0 none, -1
    /// every stone, `k` the last `k` moves.
    ///
    /// # Errors
    /// A removed node or a bad theme.
    #[allow(clippy::too_many_arguments)]
    pub fn svg(
        &self,
        id: u32,
        coordinates: Option<bool>,
        move_numbers: Option<i32>,
        theme: Option<String>,
        status: Option<bool>,
        id_prefix: Option<String>,
    ) -> Result<String, JsError> {
        let n = self.attached(id)?;
        let mut o = sgf_render::RenderOptions::default();
        if let Some(c) = coordinates {
            o.coordinates = c;
        }
        if let Some(s) = status {
            o.status = s;
        }
        o.move_numbers = match move_numbers {
            None | Some(0) => sgf_render::MoveNumbers::None,
            Some(k) if k < 0 => sgf_render::MoveNumbers::All,
            Some(k) => sgf_render::MoveNumbers::Last(k as u32),
        };
        o.theme = match theme.as_deref() {
            None | Some("light") => sgf_render::Theme::Light,
            Some("dark") => sgf_render::Theme::Dark,
            Some(t) => {
                return Err(err(format!(
                    "theme must be \"light\" or \"dark\", not {t:?}"
                )));
            }
        };
        if let Some(p) = id_prefix {
            o.id_prefix = p;
        }
        sgf_render::render_svg(&self.doc, n, &o).map_err(err)
    }
}
