//! The compact form of a game that searches replay: one `u16` token per
//! board change, with the captures already resolved, so a search never
//! computes liberties; plus the points each colour ever held.
//!
//! A token is a 4-bit opcode and a 12-bit operand (a point index
//! `y * cols + x`, below 52 × 52 = 2704, or [`PASS`]):
//!
//! | opcode | meaning |
//! | --- | --- |
//! | `MOVE_B p`, `MOVE_W p` | a new node whose move is a black/white stone at `p` (or a pass) |
//! | `NODE` | a new node without a move |
//! | `SET_E p`, `SET_B p`, `SET_W p` | in the current node, `p` becomes empty/black/white (captures, setup) |
//! | `TO_PLAY c` | the player to move is not the opponent of the last mover (`PL`, handicap) |
//! | `OPEN`, `CLOSE` | a variation starts; the variation ends and the position returns to where it started |
//!
//! Nodes come in the file's order (pre-order, first variation first). A
//! node with several children is written `X ( c1… ) ( c2… ) c3…`: every
//! child but the last inside `OPEN`/`CLOSE`. So the main line is every
//! token before the first `CLOSE`.

use sgf_core::props::id;
use sgf_core::{Color, Document, NodeId};
use sgf_go::{Cursor, Event, Move};

/// A new node with a black move.
pub const MOVE_B: u16 = 0;
/// A new node with a white move.
pub const MOVE_W: u16 = 1;
/// A point becomes empty.
pub const SET_E: u16 = 2;
/// A point becomes black.
pub const SET_B: u16 = 3;
/// A point becomes white.
pub const SET_W: u16 = 4;
/// A new node without a move.
pub const NODE: u16 = 5;
/// A variation starts.
pub const OPEN: u16 = 6;
/// A variation ends.
pub const CLOSE: u16 = 7;
/// The player to move (operand 1 black, 2 white).
pub const TO_PLAY: u16 = 8;
/// The operand of a pass.
pub const PASS: u16 = 0xFFF;

/// The main-line moves an [`EncodedGame`] keeps: up to the last that the
/// Dyer signature reads ([`sgf_go::signature::DYER_MOVES`]), not the whole
/// line of a long game.
pub const SIGNATURE_MOVES: usize = {
    let (mut most, mut i) = (0, 0);
    while i < sgf_go::signature::DYER_MOVES.len() {
        if sgf_go::signature::DYER_MOVES[i] > most {
            most = sgf_go::signature::DYER_MOVES[i];
        }
        i += 1;
    }
    most
};

/// A token.
#[inline]
pub fn tok(op: u16, arg: u16) -> u16 {
    (op << 12) | arg
}

/// One game, encoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EncodedGame {
    /// Columns.
    pub cols: u8,
    /// Rows.
    pub rows: u8,
    /// The tokens (see the module docs).
    pub tokens: Vec<u16>,
    /// Per row, bit `x` set when a black stone stood on `(x, row)` at any node.
    pub ever_black: Vec<u64>,
    /// The same for white.
    pub ever_white: Vec<u64>,
    /// The main line's first moves, as many as the Dyer signature reads
    /// ([`SIGNATURE_MOVES`]): point index or [`PASS`], with the colour.
    pub main_moves: Vec<(Color, u16)>,
    /// The board at the end of the main line (0 empty, 1 black, 2 white).
    pub final_cells: Vec<u8>,
    /// Nodes in the game.
    pub nodes: u32,
    /// The text of every comment (`C`), one per line.
    pub comments: String,
}

struct Frame {
    node: NodeId,
    undo_len: usize,
    to_play: Color,
}

enum Task {
    Enter(NodeId),
    Open,
    Close(Frame),
}

/// Encodes game `game` of `doc` (all its variations), replaying it with
/// `sgf_go`'s [`Cursor`]. Boards wider than 52 do not exist in SGF, so every
/// point fits the 12-bit operand.
///
/// # Panics
/// When `game` is out of range.
pub fn encode_game(doc: &Document, game: usize) -> EncodedGame {
    let mut tokens = Vec::new();
    let (mut out, _) = encode_game_with(doc, game, &mut |t| tokens.push(t));
    out.tokens = tokens;
    out
}

/// Where the tokens go as they are made: `each`, and what the game keeps
/// of them (how many, the points each colour held).
struct Tokens<'a> {
    each: &'a mut dyn FnMut(u16),
    count: u32,
    cols: usize,
    points: usize,
    ever_black: Vec<u64>,
    ever_white: Vec<u64>,
}

impl Tokens<'_> {
    fn push(&mut self, t: u16) {
        self.count += 1;
        // Every stone that was ever on the board comes through a token.
        let (op, arg) = (t >> 12, t & 0xFFF);
        let black = match op {
            MOVE_B | SET_B if arg != PASS => Some(true),
            MOVE_W | SET_W if arg != PASS => Some(false),
            _ => None,
        };
        let i = arg as usize;
        if let Some(black) = black
            && i < self.points
        {
            let (x, y) = (i % self.cols, i / self.cols);
            if black {
                self.ever_black[y] |= 1 << x;
            } else {
                self.ever_white[y] |= 1 << x;
            }
        }
        (self.each)(t);
    }
}

/// [`encode_game`] handing each token to `each` as it is made instead of
/// keeping it (the game's `tokens` are left empty), and how many there
/// are: a game of a million moves has megabytes of them, written as made
/// (the index's second pass) or only counted (its first).
///
/// # Panics
/// When `game` is out of range.
pub fn encode_game_with(
    doc: &Document,
    game: usize,
    each: &mut dyn FnMut(u16),
) -> (EncodedGame, u32) {
    let g = doc.game(game).expect("game index in range");
    let mut cursor = Cursor::new(doc, game);
    let size = cursor.size();
    let (cols, rows) = (size.cols, size.rows);
    let n = size.points();
    let mut out = EncodedGame {
        cols,
        rows,
        ..EncodedGame::default()
    };
    let mut tokens = Tokens {
        each,
        count: 0,
        cols: cols as usize,
        points: n,
        ever_black: vec![0; rows as usize],
        ever_white: vec![0; rows as usize],
    };
    // The board as the tokens leave it, and how to undo it at a CLOSE.
    let mut shadow = vec![0u8; n];
    let mut undo: Vec<(u16, u8)> = Vec::new();
    let mut to_play = Color::Black;
    let mut main_done = false;
    let mut work = vec![Task::Enter(g.root().id())];
    let mut first = true;
    // `Close` tasks on the stack: none means no walk comes back up, so the
    // cursor and the undo log keep nothing (a long main line is encoded in
    // constant memory).
    let mut closes = 0usize;
    while let Some(task) = work.pop() {
        match task {
            Task::Open => tokens.push(tok(OPEN, 0)),
            Task::Close(f) => {
                closes -= 1;
                tokens.push(tok(CLOSE, 0));
                while undo.len() > f.undo_len {
                    let (i, old) = undo.pop().expect("non-empty");
                    shadow[i as usize] = old;
                }
                to_play = f.to_play;
                cursor.goto(doc, f.node);
            }
            Task::Enter(node) => {
                if !std::mem::take(&mut first) {
                    cursor.down(doc, node);
                }
                if closes == 0 {
                    cursor.forget();
                    undo.clear();
                }
                out.nodes += 1;
                let nd = doc.node(node);
                let rep = cursor.report();
                let pos = cursor.position();
                let cells = pos.board.cells();
                let first_move = rep.moves.first().copied();
                let mover_point = match first_move {
                    Some((c, mv)) => {
                        let (op, own) = match c {
                            Color::Black => (MOVE_B, 1u8),
                            Color::White => (MOVE_W, 2u8),
                        };
                        let p = match mv {
                            Move::Pass => PASS,
                            Move::Play(p) => p.y as u16 * cols as u16 + p.x as u16,
                        };
                        tokens.push(tok(op, p));
                        // The decoder puts the stone down; a suicide is undone below.
                        if p != PASS {
                            undo.push((p, shadow[p as usize]));
                            shadow[p as usize] = own;
                        }
                        if !main_done && out.main_moves.len() < SIGNATURE_MOVES {
                            out.main_moves.push((c, p));
                        }
                        to_play = c.opponent();
                        Some(p)
                    }
                    None => {
                        tokens.push(tok(NODE, 0));
                        None
                    }
                };
                // Setup, suicide and two moves in a node are rare: compare the
                // whole board then; otherwise only the captured points change.
                let full = nd.has_known(id::AB)
                    || nd.has_known(id::AW)
                    || nd.has_known(id::AE)
                    || rep.moves.len() > 1
                    || rep
                        .events
                        .iter()
                        .any(|e| matches!(e.event, Event::Suicide { .. }));
                let mut set = |i: usize, v: u8, tokens: &mut Tokens<'_>| {
                    if shadow[i] != v {
                        let op = [SET_E, SET_B, SET_W][v as usize];
                        tokens.push(tok(op, i as u16));
                        undo.push((i as u16, shadow[i]));
                        shadow[i] = v;
                    }
                };
                if full {
                    for (i, &v) in cells.iter().enumerate() {
                        set(i, v, &mut tokens);
                    }
                } else {
                    for p in &rep.captured {
                        let i = p.y as usize * cols as usize + p.x as usize;
                        set(i, cells[i], &mut tokens);
                    }
                    if let Some(p) = mover_point.filter(|&p| p != PASS) {
                        set(p as usize, cells[p as usize], &mut tokens);
                    }
                }
                if pos.to_play != to_play {
                    to_play = pos.to_play;
                    tokens.push(tok(TO_PLAY, 1 + to_play as u16));
                }
                if nd.has_known(id::C)
                    && let Some(t) = nd.text("C")
                {
                    if !out.comments.is_empty() {
                        out.comments.push('\n');
                    }
                    out.comments.push_str(&t);
                }
                let children: Vec<NodeId> = nd.children().map(|c| c.id()).collect();
                if children.is_empty() {
                    if !main_done {
                        main_done = true;
                        out.final_cells = shadow.clone();
                    }
                    continue;
                }
                let (&last, rest) = children.split_last().expect("non-empty");
                work.push(Task::Enter(last));
                for &c in rest.iter().rev() {
                    closes += 1;
                    work.push(Task::Close(Frame {
                        node,
                        undo_len: undo.len(),
                        to_play,
                    }));
                    work.push(Task::Enter(c));
                    work.push(Task::Open);
                }
            }
        }
    }
    out.ever_black = tokens.ever_black;
    out.ever_white = tokens.ever_white;
    (out, tokens.count)
}

/// When each point is first taken on the main line of `tokens` (a
/// `cols`×`rows` game), and whether it is emptied again afterwards: per
/// point, half the number of moves played when a stone first stood there
/// (254 at most, 255 never); per row, bit `x` set for a point captured (or
/// cleared) after a stone stood on it. A search uses these to rule out
/// placements without replaying the game; they are computed when the index
/// is loaded, not stored.
pub fn first_stones(tokens: &[u16], cols: u8, rows: u8) -> (Vec<u8>, Vec<u64>) {
    let n = cols as usize * rows as usize;
    let mut first = vec![255u8; n];
    let mut reemptied = vec![0u64; rows as usize];
    let mut board = vec![0u8; n];
    let mut moves = 0u32;
    for &t in tokens {
        let (op, arg) = (t >> 12, t & 0xFFF);
        let v = match op {
            CLOSE => break,
            MOVE_B | MOVE_W => {
                moves += 1;
                [1u8, 2][op as usize]
            }
            SET_E => 0,
            SET_B => 1,
            SET_W => 2,
            _ => continue,
        };
        let i = arg as usize;
        if arg == PASS || i >= n {
            continue;
        }
        if v == 0 && board[i] != 0 {
            reemptied[i / cols as usize] |= 1 << (i % cols as usize);
        } else if v != 0 && first[i] == 255 {
            first[i] = (moves / 2).min(254) as u8;
        }
        board[i] = v;
    }
    (first, reemptied)
}

/// Bytes per row of a packed bit row.
fn row_bytes(cols: u8) -> usize {
    (cols as usize).div_ceil(8)
}

/// Appends the stored form of a game: cols, rows, token count (u32 LE), the
/// packed rows of `ever_black` and `ever_white`, the tokens (u16 LE).
pub fn write_stored(g: &EncodedGame, out: &mut Vec<u8>) {
    write_stored_head(g, g.tokens.len() as u32, out);
    for &t in &g.tokens {
        out.extend_from_slice(&t.to_le_bytes());
    }
}

/// Appends what comes before the tokens in the stored form of a game of
/// `tokens` tokens (see [`write_stored`]), for tokens written after it as
/// they are made ([`encode_game_with`]), two bytes each, little-endian.
pub fn write_stored_head(g: &EncodedGame, tokens: u32, out: &mut Vec<u8>) {
    out.push(g.cols);
    out.push(g.rows);
    out.extend_from_slice(&tokens.to_le_bytes());
    let rb = row_bytes(g.cols);
    for rows in [&g.ever_black, &g.ever_white] {
        for &r in rows.iter() {
            out.extend_from_slice(&r.to_le_bytes()[..rb]);
        }
    }
}

/// One game read back from its stored form.
#[derive(Clone, Debug)]
pub struct Stored<'a> {
    /// Columns.
    pub cols: u8,
    /// Rows.
    pub rows: u8,
    /// Packed rows: `ever_black`, then `ever_white`.
    pub ever: &'a [u8],
    /// Tokens as little-endian bytes.
    pub tokens: &'a [u8],
}

/// Reads the stored games of one file, in order. `None` when the bytes are
/// not in the stored form (a damaged database).
pub fn read_stored(mut b: &[u8]) -> Option<Vec<Stored<'_>>> {
    let mut out = Vec::new();
    while !b.is_empty() {
        if b.len() < 6 {
            return None;
        }
        let (cols, rows) = (b[0], b[1]);
        let nt = u32::from_le_bytes(b[2..6].try_into().ok()?) as usize;
        let ne = 2 * rows as usize * row_bytes(cols);
        let need = 6usize.checked_add(ne)?.checked_add(nt.checked_mul(2)?)?;
        if b.len() < need || cols == 0 || rows == 0 || cols > 52 || rows > 52 {
            return None;
        }
        out.push(Stored {
            cols,
            rows,
            ever: &b[6..6 + ne],
            tokens: &b[6 + ne..need],
        });
        b = &b[need..];
    }
    Some(out)
}

/// Unpacks `rows` packed rows of `cols` bits.
pub fn unpack_rows(packed: &[u8], cols: u8, rows: u8, out: &mut Vec<u64>) {
    let rb = row_bytes(cols);
    for y in 0..rows as usize {
        let mut w = [0u8; 8];
        w[..rb].copy_from_slice(&packed[y * rb..(y + 1) * rb]);
        out.push(u64::from_le_bytes(w));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::parse;

    fn ops(g: &EncodedGame) -> Vec<(u16, u16)> {
        g.tokens.iter().map(|t| (t >> 12, t & 0xFFF)).collect()
    }

    /// Tokens handed over as made are the kept ones, counted, and the rest
    /// of the game is the same (the points each colour held follow the
    /// tokens).
    #[test]
    fn tokens_handed_over_are_the_kept_ones() {
        let src = b"(;SZ[9]AB[aa][bb]AW[cc]C[root];B[dd];W[ee](;B[ab];W[ba]C[x];B[])(;B[ff]AE[aa];W[gg]PL[W]))";
        let doc = parse(src).document;
        let kept = encode_game(&doc, 0);
        let mut handed = Vec::new();
        let (rest, count) = encode_game_with(&doc, 0, &mut |t| handed.push(t));
        assert_eq!(handed, kept.tokens);
        assert_eq!(count as usize, kept.tokens.len());
        assert!(rest.tokens.is_empty());
        assert_eq!(
            EncodedGame {
                tokens: kept.tokens.clone(),
                ..rest.clone()
            },
            kept
        );
        assert!(rest.ever_black[0] & 1 != 0 && rest.ever_white[2] & 4 != 0);
        // The stored form: its head, then the tokens.
        let mut whole = Vec::new();
        write_stored(&kept, &mut whole);
        let mut head = Vec::new();
        write_stored_head(&rest, count, &mut head);
        assert_eq!(whole[..head.len()], head[..]);
        assert_eq!(whole.len(), head.len() + 2 * kept.tokens.len());
    }

    #[test]
    fn captures_and_variations() {
        // On a 3×3, B[bb] captures the white stones at aa and ba.
        let doc = parse(b"(;SZ[3];B[ab];W[ba];B[ca](;W[aa];B[bb])(;W[cc]))").document;
        let g = encode_game(&doc, 0);
        assert_eq!(
            ops(&g),
            vec![
                (NODE, 0),
                (MOVE_B, 3),
                (MOVE_W, 1),
                (MOVE_B, 2),
                (OPEN, 0),
                (MOVE_W, 0),
                (MOVE_B, 4),
                (SET_E, 1),
                (SET_E, 0),
                (CLOSE, 0),
                (MOVE_W, 8),
            ]
        );
        assert_eq!(g.main_moves.len(), 5);
        assert_eq!(g.final_cells, vec![0, 0, 1, 1, 1, 0, 0, 0, 0]);
        assert_eq!(g.nodes, 7);
        assert_eq!(g.ever_black, vec![0b100, 0b011, 0]);
        assert_eq!(g.ever_white, vec![0b011, 0, 0b100]);
        // Main line: ab move 1, ba 2, ca 3, aa 4, bb 5; aa and ba captured at 5.
        let (first, reemptied) = first_stones(&g.tokens, 3, 3);
        assert_eq!(first, vec![2, 1, 1, 0, 2, 255, 255, 255, 255]);
        assert_eq!(reemptied, vec![0b011, 0, 0]);
        let mut b = Vec::new();
        write_stored(&g, &mut b);
        write_stored(&g, &mut b);
        let s = read_stored(&b).unwrap();
        assert_eq!(s.len(), 2);
        let mut rows = Vec::new();
        unpack_rows(s[1].ever, 3, 3, &mut rows);
        assert_eq!(rows, g.ever_black);
        assert!(read_stored(&b[..b.len() - 1]).is_none());
    }

    #[test]
    fn setup_and_handicap_to_play() {
        let doc = parse(b"(;SZ[3]HA[2]AB[aa][cc];W[bb];AE[aa]AW[ab])").document;
        let g = encode_game(&doc, 0);
        assert_eq!(
            ops(&g),
            vec![
                (NODE, 0),
                (SET_B, 0),
                (SET_B, 8),
                (TO_PLAY, 2),
                (MOVE_W, 4),
                (NODE, 0),
                (SET_E, 0),
                (SET_W, 3),
            ]
        );
    }
}
