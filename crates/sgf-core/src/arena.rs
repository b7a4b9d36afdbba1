//! The arena behind a [`Document`](crate::Document): nodes, properties and
//! values as plain records of offsets into the source, the identifiers
//! that index them, and a per-thread pool that lets the next parse reuse
//! their memory.

use encoding_rs::Encoding;

use crate::charset::{CharsetSource, Dbcs};

pub(crate) const NONE: u32 = u32::MAX;
/// A property key: a registry index, or `UNKNOWN_BASE` + an interned unknown identifier.
pub(crate) type Key = u16;
/// Key offset of interned unknown identifiers.
pub(crate) const UNKNOWN_BASE: Key = 0x100;

/// Node flag: the lossless writer must generate parentheses around this node's tree.
pub(crate) const F_SYN_PAREN: u16 = 1;
/// Node flag: not reachable from any game (removed by an edit).
pub(crate) const F_DETACHED: u16 = 2;
/// Node flag: created by an edit (no source tokens).
pub(crate) const F_SYNTHETIC: u16 = 4;
/// Node flag: stood after its parent's variations in the source (Go Assistant style).
pub(crate) const F_AFTER_VARIATIONS: u16 = 8;
/// Node flag: has an entry in `parens` (the first node of a tree or
/// variation as read), so that nodes without one skip the search.
pub(crate) const F_PARENS: u16 = 16;

/// Identifies a node of a [`Document`](crate::Document).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The arena index (stable for the life of the document).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Identifies a property of a [`Document`](crate::Document).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PropId(pub(crate) u32);

/// Identifies a value of a [`Document`](crate::Document).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueId(pub(crate) u32);

#[derive(Clone, Debug)]
pub(crate) struct NodeData {
    pub parent: u32,
    pub first_child: u32,
    pub next_sibling: u32,
    pub pstart: u32,
    /// `;`, NONE when missing in the source or for edited nodes.
    pub semi: u32,
    pub plen: u16,
    pub flags: u16,
}

/// Most properties of a node: the parser refuses more (a limit diagnostic).
pub(crate) const MAX_PROPS_PER_NODE: u16 = u16::MAX;

impl NodeData {
    pub(crate) fn new(parent: u32) -> NodeData {
        NodeData {
            parent,
            first_child: NONE,
            next_sibling: NONE,
            pstart: 0,
            semi: NONE,
            plen: 0,
            flags: 0,
        }
    }
}

/// The parentheses of a tree in the source: `(` before its first node and
/// the `)` that closes it. Kept apart from nodes because few nodes have them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parens {
    pub node: u32,
    pub open: u32,
    pub close: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct PropData {
    /// Offset of the identifier in the source, or NONE for edited properties.
    pub ident: u32,
    pub vstart: u32,
    pub vlen: u32,
    pub key: Key,
    pub ident_len: u16,
}

pub(crate) const OWNED: u32 = 1 << 31;

/// A value: `[`…`]` in the source, or edited content in `Document::owned`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueData {
    /// Source: offset of `[`. Edited: `OWNED` | index into `Document::owned`.
    pub(crate) start: u32,
    /// Source: one past `]`, or the end of the input with `OWNED` set when
    /// the `]` is missing. Edited: 0.
    pub(crate) end: u32,
}

impl ValueData {
    pub(crate) fn source(open: u32, end: u32, terminated: bool) -> ValueData {
        ValueData {
            start: open,
            end: if terminated { end } else { end | OWNED },
        }
    }
    pub(crate) fn owned(index: usize) -> ValueData {
        ValueData {
            start: OWNED | index as u32,
            end: 0,
        }
    }
    /// Offset of `[` for source values.
    pub(crate) fn open(&self) -> Option<u32> {
        (self.start & OWNED == 0).then_some(self.start)
    }
    /// One past the value in the source.
    pub(crate) fn end(&self) -> u32 {
        self.end & !OWNED
    }
    pub(crate) fn owned_index(&self) -> Option<usize> {
        (self.start & OWNED != 0).then_some((self.start & !OWNED) as usize)
    }
    pub(crate) fn is_unterminated(&self) -> bool {
        self.start & OWNED == 0 && self.end & OWNED != 0
    }
}

#[derive(Clone, Debug)]
pub(crate) struct GameData {
    pub root: u32,
    /// What values are decoded from (UTF-8 for transcoded UTF-16 files).
    pub encoding: &'static Encoding,
    /// What the file was written in, as reported to users.
    pub display: &'static Encoding,
    pub source: CharsetSource,
    /// First byte of the game in the source.
    pub start: u32,
    /// Values are read charset-aware (unescaped double-byte trail bytes).
    pub dbcs: Option<Dbcs>,
    /// `CA` names a charset that cannot be decoded and the text uses it
    /// (see [`Game::is_undecodable`]).
    pub undecodable: bool,
}

/// Text outside the game trees in the source: `start..end` (white space at
/// its ends left out), before the game whose root is `root` (`NONE`: after
/// the last game).
#[derive(Clone, Debug)]
pub(crate) struct OutsideSpan {
    pub start: u32,
    pub end: u32,
    pub root: u32,
}

/// Arena vectors kept by a thread for the next parse: a batch of files then
/// reuses memory instead of faulting in fresh pages for every file.
#[derive(Default)]
pub(crate) struct Arenas {
    pub nodes: Vec<NodeData>,
    pub props: Vec<PropData>,
    pub values: Vec<ValueData>,
}

/// The most memory a thread keeps for reuse.
const POOL_MAX_BYTES: usize = 128 << 20;

thread_local! {
    static POOL: std::cell::RefCell<Option<Arenas>> = const { std::cell::RefCell::new(None) };
}

impl Arenas {
    /// Empty arenas, reusing the thread's pooled memory when there is some.
    pub(crate) fn take() -> Arenas {
        POOL.try_with(|p| p.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<NodeData>()
            + self.props.capacity() * std::mem::size_of::<PropData>()
            + self.values.capacity() * std::mem::size_of::<ValueData>()
    }
}

impl Arenas {
    /// Keeps the vectors (emptied) for the thread's next parse, unless they
    /// are larger than the pool keeps or smaller than what it holds.
    pub(crate) fn give_back(mut self) {
        let size = self.bytes();
        if size == 0 || size > POOL_MAX_BYTES {
            return;
        }
        self.nodes.clear();
        self.props.clear();
        self.values.clear();
        let _ = POOL.try_with(|p| {
            let mut p = p.borrow_mut();
            if p.as_ref().is_none_or(|old| old.bytes() < size) {
                *p = Some(self);
            }
        });
    }
}
