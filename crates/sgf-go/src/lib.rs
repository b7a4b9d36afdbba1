//! # sgf-go: Go semantics for SGF records
//!
//! Board sizes from 1×1 to 52×52 (square or rectangular), moves with
//! captures and suicide, passes (`[]`, and `[tt]` up to 19×19), setup stones,
//! `PL`, `MN`, captured-stone counts, the simple-ko point, and the detection
//! of occupied-point, suicide and ko-retake moves — executed as SGF requires,
//! reported to the caller. A [`Cursor`] walks the game tree back and forth
//! with an undo log; [`GameInfo`] reads dates and results; [`edit`] plays
//! moves and edits setup and markup; [`score`] counts the end of a game.
//!
//! ```
//! use sgf_core::parse;
//! use sgf_go::{Cursor, GameInfo};
//!
//! let doc = parse(b"(;SZ[9]PB[Black]RE[B+R]DT[2024-01-05];B[ee];W[ef];B[fe])").document;
//! let mut cursor = Cursor::new(&doc, 0);
//! cursor.to_end(&doc);
//! assert_eq!(cursor.position().move_number, 3);
//! assert_eq!(cursor.position().rows()[4], "....XX...");
//! let info = GameInfo::of(&doc, 0);
//! assert_eq!(info.black.as_deref(), Some("Black"));
//! assert!(info.result.unwrap().value.is_some());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod check;
pub mod coords;
pub mod edit;
pub mod filter;
pub mod fix;
pub mod info;
pub mod moves;
pub mod replay;
pub mod score;
pub mod signature;
pub mod symmetry;
pub mod values;

pub use board::{Board, Illegal, MoveEffect, Position, Stone};
pub use coords::{BoardSize, CoordIssue, Move, board_size, parse_move};
pub use info::{GameInfo, GameResult, PartialDate, WinBy, parse_dates, parse_result};
pub use moves::{GameMove, main_line_move_count, main_line_moves, main_line_moves_iter};
pub use replay::{
    Cursor, Event, NodeEvent, NodeReport, Walk, apply_node, apply_node_into, main_line_end,
};
