//! # sgf-db: a database of Go games with position and pattern search
//!
//! (crate docs filled in below)

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encode;
pub mod pattern;
pub mod search;
pub mod symmetry;
