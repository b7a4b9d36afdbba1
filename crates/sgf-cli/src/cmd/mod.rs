//! One module per subcommand.

pub mod check;
pub mod convert;
pub mod dump;
pub mod fmt;
pub mod info;
pub mod position;
pub mod tree;
