//! Collections, games and nodes: the navigable, editable tree, one file
//! per object.

mod collection;
mod diagnostic;
mod game;
mod inner;
mod node;
mod positions;
mod reading;

pub use collection::Collection;
pub use diagnostic::Diagnostic;
pub use game::Game;
pub(crate) use inner::game_index;
pub use inner::{Inner, restore_collection};
pub use node::Node;
pub use positions::Positions;
pub use reading::{LoadedFile, parse, read, read_file, read_input, save_bytes_native};
