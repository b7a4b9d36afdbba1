//! # sgf-db: a database of Go games with position and pattern search
//!
//! `qipu db` in a library: an SQLite file (embedded, no server) indexing
//! the games of record files, directories and archives (zip, tar, tar.gz,
//! 7z), with
//!
//! - game-information filters ([`Filter`]): players, event, dates (partial
//!   dates too), result and winner, rank, handicap, komi, board size, rules,
//!   words in comments;
//! - full-board position search under the 8 symmetries, optionally with
//!   colours swapped, and pattern search ([`Pattern`]): a region with
//!   wildcards, anchored or anywhere, who is to play, a move range, main
//!   lines or variations, and move sequences with captures;
//! - continuations: the next move in the pattern's area, with how often it
//!   was played and who won ([`FindResult`]);
//! - duplicates by Dyer signature confirmed by the final position
//!   ([`Database::dups`]);
//! - shards: [`find_all`] queries several databases as one.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use sgf_db::{Database, NoProgress, Pattern, Query};
//! let dir = std::env::temp_dir().join(format!("sgf-db-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("a.sgf"), "(;SZ[19]PB[Lee]RE[B+R];B[pd];W[dp];B[pp];W[dd])")?;
//! let mut db = Database::open(dir.join("games.qdb"))?;
//! let report = db.index(&[&dir], &NoProgress)?;
//! assert_eq!(report.games, 1);
//!
//! // A black stone on the 4-4 point of a corner, the rest of the 6×6 corner empty.
//! let pattern = Pattern::from_sgf(b"(;SZ[19]AB[dd]VW[aa:ff])")?;
//! let mut q = Query::default();
//! q.pattern = Some(pattern);
//! let found = db.find(&q)?;
//! assert_eq!(found.total, 2); // two corners, as black plays them
//! assert_eq!((found.hits[0].move_number, found.hits[1].move_number), (1, 3));
//! q.options.swap_colors = true; // white's corners too
//! assert_eq!(db.find(&q)?.total, 4);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! How the index is laid out and searched: [`store`], [`encode`],
//! [`search`]. The pattern file format: `docs/db-patterns.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encode;
pub mod filter;
pub mod find;
pub mod game;
pub mod pattern;
pub mod search;
pub mod store;
pub use sgf_go::symmetry;

pub use filter::{Filter, MAX_COMMENT_WORDS, Range, TextMatch, Winner};
pub use find::{
    Continuation, DupGame, DupGroup, FindResult, Hit, Query, Written, find_all, position_of,
    write_hits, write_hits_sgf,
};
pub use pattern::{MAX_PATTERN_FILE_BYTES, MAX_SEQUENCE_MOVES, Pattern, PatternError};
pub use search::SearchOptions;
pub use store::{Database, DbError, Index, IndexOptions, IndexReport, NoProgress, Progress};
