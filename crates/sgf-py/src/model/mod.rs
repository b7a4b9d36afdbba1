//! Collections, games and nodes: the navigable, editable tree, one file
//! per object.

mod collection;
mod diagnostic;
mod game;
mod handles;
mod inner;
mod node;
mod positions;
mod reading;
mod saving;

pub use collection::restore_collection;
pub use diagnostic::Diagnostic;
pub use handles::{Collection, Game, Node};
pub use inner::Inner;
pub(crate) use inner::game_index;
pub use positions::Positions;
pub use reading::{LoadedFile, parse, read, read_error, read_file, read_input};
pub use saving::save_bytes_native;
