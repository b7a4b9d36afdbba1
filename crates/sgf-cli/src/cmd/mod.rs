//! One module per subcommand.

pub mod analyze;
pub mod check;
pub mod convert;
pub mod dataset;
pub mod db;
pub mod dump;
pub mod export;
pub mod figures;
pub mod fmt;
pub mod info;
pub mod position;
pub mod render;
pub mod score;
pub mod stats;
pub mod tree;
pub mod view;
