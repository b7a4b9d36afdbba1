//! # sgf-core: SGF FF\[1\]–FF\[4\], read faithfully, checked precisely, written back losslessly
//!
//! The game-independent core of Qipu: a lexer and a parser that never fail,
//! never panic and never recurse on input depth; a lossless document model;
//! charset handling (`CA`, detection, double-byte trail bytes); the property
//! registry; typed values; a lossless and a canonical writer; editing.
//!
//! ```
//! use sgf_core::{parse, write};
//!
//! let parsed = parse(b"(;FF[4]GM[1]SZ[9]PB[Black]C[Hello \\] world];B[ee](;W[gc])(;W[cg]))");
//! assert!(parsed.diagnostics.is_empty());
//! let doc = &parsed.document;
//! let game = doc.game(0).unwrap();
//! assert_eq!(game.root().text("PB").unwrap(), "Black");
//! assert_eq!(game.root().text("C").unwrap(), "Hello ] world");
//! // Lossless: the bytes come back unchanged.
//! assert_eq!(write::to_lossless_bytes(doc), parsed.document.source());
//! // Canonical: FF[4], UTF-8, one node per line.
//! let canonical = write::to_canonical_bytes(doc, &write::WriteOptions::default());
//! assert!(canonical.starts_with(b"(;FF[4]\nCA[UTF-8]"));
//! ```
//!
//! ## Model
//! A [`Document`] owns the input bytes. Nodes, properties and values are
//! arena entries recording the byte positions of their tokens; white space
//! and anything that is not SGF (junk, text before the first tree) is kept
//! as the bytes between tokens. Typed views ([`doc::Value::text`],
//! [`doc::Value::number`], …) decode on demand.
//!
//! ## Limitations
//! - Spans of UTF-16 and UTF-32 files are offsets in the UTF-8 transcoding
//!   ([`Document::source`]); [`Document::original_offset`] maps them back.
//! - The lossless writer re-encodes an edited UTF-16 or UTF-32 file from its
//!   transcoding; an input with unpaired surrogates is written with U+FFFD.
//!
//! ## Charsets
//! One decision ([`charset::decide`]) serves every game of an SGF file and
//! every record of the other formats: ASCII (FF\[4\]'s default ISO-8859-1,
//! ISO-2022-JP escapes recognised), valid UTF-8, a declared charset the
//! bytes agree with, UTF-8 damaged in a few places (only the bad sequences
//! become U+FFFD), else detection — chardetng on long texts, a Go-aware
//! plausibility ([`charset::plausibility`]) on short ones, falling back on
//! ISO-8859-1 when no multi-byte reading is clearly better. Whether a game
//! in a double-byte charset left its trail bytes `\\`/`]` unescaped is
//! decided per game ([`Document::dbcs_of`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod arena;
pub mod charset;
pub mod diag;
pub mod doc;
pub mod dump;
pub mod edit;
mod journal;
pub mod lexer;
pub mod parse;
pub mod props;
pub mod split;
pub mod text;
pub mod validate;
pub mod value;
#[doc(hidden)]
pub mod work;
pub mod write;

#[cfg(test)]
mod linear_tests;

pub use diag::{Code, Diagnostic, LineIndex, Severity, Span};
pub use doc::{Descent, Document, Game, Node, NodeId, OutsideText, Prop, Value};
pub use edit::{Change, EditError};
pub use parse::{ParseOptions, Parsed, parse, parse_shared, parse_str, parse_with};
pub use props::{PropInfo, PropKind, ValueType};
pub use value::{Color, Point};
pub use write::{
    LosslessError, PointLists, WriteOptions, game_to_canonical_bytes, to_canonical_bytes,
    to_lossless_bytes, to_lossless_bytes_checked, write_canonical, write_lossless,
};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
