//! # sgf-formats: the other Go record formats, and the SGF dialects people have
//!
//! Reads the records that Chinese, Korean and Japanese servers hand out —
//! Tygem **GIB**, WBaduk/Cyberoro/Sina **NGF** (both variants), Pandanet
//! **UGF/UGI** (with the review tree as real variations), QQ Go **WGS** — into ordinary
//! SGF documents of `sgf-core`, and normalises the SGF dialects of Sina and
//! the Nihon Ki-in, Fox, Go Assistant and OGS.
//!
//! ```
//! let ngf = "Rated game\n19\nWhite       3D\nBlack       2D\nsite\n0\n0\n6\n20240101 [10:00]\n5\nBlack wins by resign!\n2\nPMABBREER\nPMACWEEEE\n";
//! let loaded = sgf_formats::read_any(ngf.as_bytes(), None).unwrap();
//! assert_eq!(loaded.format, "NGF");
//! let root = loaded.parsed.document.game(0).unwrap().root();
//! assert_eq!(root.text("KM").unwrap(), "6.5");
//! assert_eq!(root.text("RE").unwrap(), "B+R");
//! ```
//!
//! Every reader builds the record with [`builder::SgfBuilder`] and parses
//! it with `sgf_core::parse_str`, so converted records use the same model,
//! checks and writers as SGF files. Diagnostics of converted records point
//! at the offending line of the *input* ([`Loaded::converted`]).
//!
//! What each reader maps where is documented in `docs/formats.md`; how to
//! add a format is in [`registry`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "archive")]
pub mod archive;
pub mod builder;
pub mod collection;
mod common;
pub mod dialect;
pub mod format;
pub mod gib;
pub mod input;
pub mod judge;
pub mod ngf;
pub mod parts;
pub mod registry;
pub mod repair;
mod replay;
pub mod save;
pub mod sgf;
pub mod summary;
pub mod ugf;
pub mod walk;
pub mod wgs;

pub use common::{HandicapOrder, handicap_points};
pub use dialect::{
    Dialect, DialectCount, detect_dialects, dialect_counts, dialect_diagnostics, dialect_report,
    merge_dialect_counts, normalize,
};
pub use format::{Format, Loaded, ReadError, ReadOptions, game_charset};
pub use registry::{Registry, UNSUPPORTED, Unsupported, builtin, read_any};
