//! Training data for Go programs from game records: `qipu dataset` and
//! `qipu.dataset` are its faces.
//!
//! Records are read with the one collection reader
//! ([`sgf_formats::collection`]: files, directories, zip, tar, tar.gz and
//! 7z archives, a part at a time on every core), games are selected
//! ([`Selection`]: size, handicap, komi, rules, dates, ranks, length,
//! ending, players, illegal moves, duplicates as `qipu db dups` finds
//! them), each position of a kept game's main line becomes a sample
//! ([`features`]: planes, labels, metadata, symmetries), and samples are
//! shuffled in a seeded buffer and written in shards of a train and a
//! validation split, split by game.
//!
//! # The `.npz` shards
//!
//! `train-00000.npz`, `train-00001.npz`, …, `val-00000.npz`…, each read by
//! `numpy.load` alone. With `N` positions, `C` planes and a `S`×`S` board:
//!
//! | array | type | shape | what |
//! | --- | --- | --- | --- |
//! | `planes` | `uint8` | `(N, C, ceil(S*S/8))` | the planes, bit-packed: `np.unpackbits(planes, axis=-1, count=S*S).reshape(N, C, S, S)` |
//! | `policy` | `uint16` | `(N,)` | the move played, `y*S + x` (SGF orientation), `S*S` for a pass |
//! | `value` | `int8` | `(N,)` | the result for the side to move: 1, −1, 0 (draw or unknown) |
//! | `score` | `float32` | `(N,)` | the margin for the side to move, NaN when the result has none |
//! | `to_move` | `uint8` | `(N,)` | 0 Black, 1 White |
//! | `move_number` | `uint32` | `(N,)` | 1 for the first move |
//! | `game` | `uint32` | `(N,)` | the game's line in `games.jsonl` (its `id`) |
//! | `komi` | `float32` | `(N,)` | NaN when unknown |
//! | `ranks` | `int8` | `(N, 2)` | Black's and White's rank: 30k = −29, 1k = 0, 1d = 1, 9d = 9, Np = 9 + N; −128 unknown |
//! | `rules` | `uint8` | `(N,)` | index in `rules_codes` of `dataset.json` |
//! | `symmetry` | `uint8` | `(N,)` | the symmetry applied: bit 2 transposes, then bit 0 flips x and bit 1 flips y |
//!
//! The planes, in order, are named in `dataset.json` (`planes`) and
//! described in [`features`].

pub mod build;
pub mod features;
pub mod game;
mod leela;
mod npz;
pub mod repack;
mod rng;
pub mod select;

pub use build::{Error, Format, Options, Progress, Summary, build, game_samples, stream};
pub use features::{Features, Sample, Symmetry};
pub use repack::{RepackSummary, repack};
pub use select::{Dropped, Ending, Illegal, Selection};
