//! What the index keeps of one game: its information (from the library's
//! game summary, `sgf_formats::summary`), the Dyer signature, the final position's hash and
//! the encoded moves.

use sgf_core::{Color, Document};
use sgf_formats::summary::GameSummary;
use sgf_go::GameResult;

use crate::encode::{EncodedGame, PASS, encode_game, encode_game_with};
use crate::filter::{date_key, fold};

/// One game ready to be stored: the library's summary of it, and what
/// the index adds (normalised values, the signature, the encoded moves).
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Index in its file.
    pub game: u32,
    /// The game's summary (players, event, dates, komi, rules…): what the
    /// index does not store left out (its moves, which `encoded` holds and
    /// `moves` counts, setup and information as written), a collection
    /// has thousands.
    pub summary: GameSummary,
    /// Black's rank, normalised.
    pub black_rank: Option<String>,
    /// White's rank, normalised.
    pub white_rank: Option<String>,
    /// Earliest date as `YYYYMMDD` (missing parts 00).
    pub date_min: Option<i64>,
    /// Latest date as `YYYYMMDD` (missing parts 99).
    pub date_max: Option<i64>,
    /// The result in FF\[4\] form when it reads as one, else as written.
    pub result: Option<String>,
    /// `B`, `W`, `0` (draw).
    pub winner: Option<&'static str>,
    /// Main-line moves (every `B` and `W`, as `qipu info` counts them).
    pub moves: u32,
    /// Dyer signature (least of the symmetric forms).
    pub dyer: String,
    /// Hash of the final position (least of the symmetric forms).
    pub final_hash: i64,
    /// The encoded game.
    pub encoded: EncodedGame,
}

/// The Dyer signature of encoded main-line moves (see
/// [`sgf_go::signature::dyer_signature`]).
pub fn dyer_signature(main: &[(Color, u16)], cols: u8, rows: u8) -> String {
    let moves: Vec<Option<sgf_core::Point>> = main
        .iter()
        .take(crate::encode::SIGNATURE_MOVES)
        .map(|&(_, p)| {
            (p != PASS)
                .then(|| sgf_core::Point::new((p % cols as u16) as u8, (p / cols as u16) as u8))
        })
        .collect();
    sgf_go::signature::dyer_signature(&moves, cols, rows)
}

pub use sgf_go::signature::position_hash;

/// Everything the index keeps of game `game` of `doc`: its information
/// from the library's one game summary ([`sgf_formats::summary`]), the
/// encoded moves, the signature and the final position.
///
/// # Panics
/// When `game` is out of range.
pub fn game_row(doc: &Document, game: usize) -> GameRow {
    row_of(doc, game, encode_game(doc, game))
}

/// [`game_row`] without the encoded moves (`encoded.tokens` is empty),
/// and how many tokens they are: what the index keeps of a long game
/// before it writes its moves as it encodes them again
/// ([`crate::encode::encode_game_with`]).
///
/// # Panics
/// When `game` is out of range.
pub fn game_row_counted(doc: &Document, game: usize) -> (GameRow, u32) {
    let (encoded, tokens) = encode_game_with(doc, game, &mut |_| {});
    (row_of(doc, game, encoded), tokens)
}

/// The row of game `game` of `doc`, encoded as `encoded`.
fn row_of(doc: &Document, game: usize, encoded: EncodedGame) -> GameRow {
    // Counted, not listed: the moves are in `encoded` (a long game's list
    // of moves took 24 bytes a move).
    let (mut s, moves) = GameSummary::counted(doc, game, None).expect("game index in range");
    let winner = match &s.outcome {
        Some(GameResult::Win { winner, .. }) => Some(winner.as_str()),
        Some(GameResult::Draw) => Some("0"),
        _ => None,
    };
    let rank = |r: &Option<String>| {
        r.as_deref()
            .map(|r| sgf_go::values::read_rank(r).unwrap_or_else(|| r.to_string()))
            .filter(|r| !r.is_empty())
    };
    s.info = Vec::new();
    GameRow {
        game: game as u32,
        black_rank: rank(&s.black_rank),
        white_rank: rank(&s.white_rank),
        date_min: s
            .dates
            .as_ref()
            .and_then(|d| d.iter().map(|d| date_key(d, true)).min()),
        date_max: s
            .dates
            .as_ref()
            .and_then(|d| d.iter().map(|d| date_key(d, false)).max()),
        result: s
            .outcome
            .as_ref()
            .map(|r| r.to_string())
            .or_else(|| s.result.clone()),
        winner,
        moves: moves as u32,
        dyer: dyer_signature(&encoded.main_moves, encoded.cols, encoded.rows),
        final_hash: position_hash(&encoded.final_cells, encoded.cols, encoded.rows),
        summary: s,
        encoded,
    }
}

/// The folded form of a name, for the filters.
pub(crate) fn key(s: Option<&str>) -> Option<String> {
    s.map(fold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::parse;

    #[test]
    fn rows_signatures_and_hashes() {
        let mut moves = String::new();
        for i in 0..80u8 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            moves.push_str(&format!(
                ";{c}[{}{}]",
                (b'a' + i % 19) as char,
                (b'a' + i / 19) as char
            ));
        }
        let a = format!("(;SZ[19]PB[Ｌee]BR[9 dan]DT[2003/5/6]RE[B+Resign]KM[6.5]{moves})");
        let doc = parse(a.as_bytes()).document;
        let r = game_row(&doc, 0);
        assert_eq!(r.moves, 80);
        assert_eq!(r.winner, Some("B"));
        assert_eq!(r.result.as_deref(), Some("B+R"));
        assert_eq!(r.black_rank.as_deref(), Some("9d"));
        assert_eq!((r.date_min, r.date_max), (Some(20030506), Some(20030506)));
        assert_eq!(key(r.summary.black.as_deref()).as_deref(), Some("lee"));
        assert_eq!(r.dyer.len(), 12);
        // The moves are counted and the signature's kept, not the whole
        // line: the signature is that of every move of the main line.
        assert_eq!(r.encoded.main_moves.len(), crate::encode::SIGNATURE_MOVES);
        let line: Vec<Option<sgf_core::Point>> = sgf_go::main_line_moves(&doc, 0)
            .iter()
            .map(|m| match m.mv {
                Some(sgf_go::Move::Play(p)) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(r.dyer, sgf_go::signature::dyer_signature(&line, 19, 19));
        // The mirror image has the same signature and final hash.
        let mirrored: String = moves
            .split(';')
            .filter(|m| !m.is_empty())
            .map(|m| {
                let b = m.as_bytes();
                format!(
                    ";{}[{}{}]",
                    b[0] as char,
                    (b'a' + 18 - (b[2] - b'a')) as char,
                    b[3] as char
                )
            })
            .collect();
        let doc2 = parse(format!("(;SZ[19]{mirrored})").as_bytes()).document;
        let r2 = game_row(&doc2, 0);
        assert_eq!(r.dyer, r2.dyer);
        assert_eq!(r.final_hash, r2.final_hash);
        let doc3 = parse(b"(;SZ[19];B[aa])").document;
        assert_ne!(game_row(&doc3, 0).final_hash, r.final_hash);
    }
}
