//! # sgf-gtp: Go engines for Qipu
//!
//! A client of the Go Text Protocol (GTP v2) and of KataGo's JSON analysis
//! engine: start an engine from a command line or the user's
//! `engines.toml` ([`EngineSpec`]), replay a game record into it
//! ([`Engine::replay`]), ask for moves and dead stones, and read its
//! analysis as it streams (`lz-analyze`, `kata-analyze`) or from KataGo's
//! analysis engine ([`katago::AnalysisEngine`]).
//!
//! An engine that crashes, hangs or talks nonsense is an [`Error`] of
//! that engine: every read has a time limit, a hung engine is killed,
//! and what it wrote on standard error is kept for the message.
//!
//! ```no_run
//! use sgf_gtp::{Engine, EngineSpec};
//!
//! let doc = sgf_core::parse(b"(;SZ[9]KM[7];B[ee];W[ge])").document;
//! let last = doc.game(0).unwrap().main_line().last().unwrap().id();
//! let mut gnugo = Engine::start(&EngineSpec::from_command_line("gnugo --mode gtp")?)?;
//! let position = gnugo.replay(&doc, 0, last)?;
//! let reply = gnugo.genmove(sgf_core::Color::Black, position.size())?;
//! println!("GNU Go plays {}", reply.to_gtp(position.size()));
//! # Ok::<(), sgf_gtp::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
mod engine;
mod error;
pub mod katago;
mod line;
pub mod live;
mod process;
pub mod review;
pub mod spec;

pub use analysis::{Analysis, AnalysisFormat, Candidate, EngineMove, parse_analysis_line};
pub use engine::{Engine, gtp_color};
pub use error::{Error, Result};
pub use line::{GameLine, LineStep};
pub use live::{LiveEngine, Snapshot};
pub use spec::{EngineSpec, Protocol, config_path, load_config};
