//! The record of an edit that undo puts back (see
//! [`Document::begin_change`](crate::Document::begin_change)): plain data
//! over the arena, so that the document can hold one without depending on
//! the editing code.

use encoding_rs::Encoding;

use crate::arena::{GameData, NodeData};

/// A recorded edit: what it changed, to put back. Undo keeps these
/// instead of copies of the document: a few nodes' links and property
/// lists, whatever the size of the file (see [`Document::begin_change`](crate::Document::begin_change)).
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Nodes touched, with their data before the edit.
    pub(crate) nodes: Vec<(u32, NodeData)>,
    /// Indices already in `nodes`.
    pub(crate) seen: std::collections::HashSet<u32>,
    /// The games before the edit, when it changed them.
    pub(crate) games: Option<Vec<GameData>>,
    pub(crate) uniform: Option<&'static Encoding>,
    pub(crate) edited: bool,
    /// Arena length when recording began: nodes from here on were added.
    pub(crate) node_len: u32,
}

impl Change {
    /// Whether the edit changed nothing.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.games.is_none()
    }

    /// Heap bytes held (to report memory use).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<(u32, NodeData)>()
            + self.seen.capacity() * 8
            + self
                .games
                .as_ref()
                .map_or(0, |g| g.capacity() * std::mem::size_of::<GameData>())
    }

    /// One change for `self` followed by `later` (typing in a field is one
    /// undo step).
    pub fn then(mut self, later: Change) -> Change {
        for (i, d) in later.nodes {
            if self.seen.insert(i) {
                self.nodes.push((i, d));
            }
        }
        if self.games.is_none() {
            self.games = later.games;
        }
        self
    }
}
