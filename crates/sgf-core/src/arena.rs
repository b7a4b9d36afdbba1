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

#[derive(Clone, Copy, Debug)]
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

#[derive(Clone, Copy, Debug)]
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

/// Ids per block of [`Slots`].
const BLOCK_SHIFT: u32 = 8;
const BLOCK: u32 = 1 << BLOCK_SHIFT;
/// A narrow slot's compact bit.
const NARROW_COMPACT: u16 = 1 << 15;

/// How a block of [`Slots`] keeps its slots (see [`Block::form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Two bytes each in `narrow`, from the block's `narrow`: a compact
    /// slot's offset from `semi_base` (with [`NARROW_COMPACT`]), or a full
    /// slot's index from `full_base`.
    Narrow,
    /// Four bytes each in `wide`, from `at`: the slots themselves.
    Wide,
    /// Every slot compact, the k-th `;` at `semi_base + k * stride`: no
    /// bytes at all (a machine-written line, `;B[pd];W[dd]…`).
    Strided,
    /// Every slot compact, the k-th `;` at `semi_base + k * stride`
    /// plus one byte in `tight` from `at` (a line broken now and then).
    Tight,
}

/// The slot of every node id (see the node store below), by blocks of 256
/// ids. A block of parsed moves alone, evenly spaced or nearly, keeps
/// none or one byte a slot; else two, relative to what the block starts
/// from; a block whose slots do not fit two (offsets more than 32 KB
/// apart, records made far away by edits) keeps four.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slots {
    len: u32,
    narrow: Vec<u16>,
    tight: Vec<u8>,
    wide: Vec<u32>,
    blocks: Vec<Block>,
}

/// A block's form is read from plain fields, not an enum: the test for
/// the narrow form, the common one, is then one comparison and never a
/// jump through a table, in every link's read.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// The `;` that compact slots count from (NONE until the first one).
    semi_base: u32,
    /// The full record that full slots count from (NONE until the first).
    full_base: u32,
    /// Where a narrow block's slots start in `narrow`; NONE for the
    /// other forms.
    narrow: u32,
    /// Where a wide block's slots start in `wide`, or a tight one's in
    /// `tight`; NONE for a strided one.
    at: u32,
    /// The distance between `;`s of a strided or tight block; 0 for the
    /// other forms.
    stride: u16,
}

impl Block {
    fn form(&self) -> Form {
        if self.narrow != NONE {
            Form::Narrow
        } else if self.stride == 0 {
            Form::Wide
        } else if self.at == NONE {
            Form::Strided
        } else {
            Form::Tight
        }
    }
}

impl Slots {
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot of `id`: [`COMPACT`] and the offset of its `;`, or the
    /// index of its full record.
    #[inline(always)]
    pub(crate) fn get(&self, id: u32) -> u32 {
        let b = &self.blocks[(id >> BLOCK_SHIFT) as usize];
        let k = id & (BLOCK - 1);
        // Narrow first: the form of every block of most records.
        if b.narrow != NONE {
            let s = self.narrow[(b.narrow + k) as usize];
            if s & NARROW_COMPACT != 0 {
                COMPACT | (b.semi_base + u32::from(s & !NARROW_COMPACT))
            } else {
                b.full_base + u32::from(s)
            }
        } else if b.stride == 0 {
            self.wide[(b.at + k) as usize]
        } else {
            let r = if b.at != NONE {
                u32::from(self.tight[(b.at + k) as usize])
            } else {
                0
            };
            COMPACT | b.semi_base.wrapping_add(k * u32::from(b.stride) + r)
        }
    }

    /// Sets the slot of `id`.
    pub(crate) fn set(&mut self, id: u32, slot: u32) {
        let bi = (id >> BLOCK_SHIFT) as usize;
        let b = &mut self.blocks[bi];
        match b.form() {
            Form::Narrow => {
                let narrow = if slot & COMPACT != 0 {
                    let semi = slot & !COMPACT;
                    if b.semi_base == NONE {
                        b.semi_base = semi;
                    }
                    semi.checked_sub(b.semi_base)
                        .filter(|&d| d < u32::from(NARROW_COMPACT))
                        .map(|d| d as u16 | NARROW_COMPACT)
                } else {
                    if b.full_base == NONE {
                        b.full_base = slot;
                    }
                    slot.checked_sub(b.full_base)
                        .filter(|&d| d < u32::from(NARROW_COMPACT))
                        .map(|d| d as u16)
                };
                if let Some(n) = narrow {
                    let at = (b.narrow + (id & (BLOCK - 1))) as usize;
                    self.narrow[at] = n;
                    return;
                }
            }
            Form::Strided | Form::Tight => {
                if self.get(id) == slot {
                    return;
                }
            }
            Form::Wide => {}
        }
        if self.blocks[bi].form() != Form::Wide {
            self.widen(bi);
        }
        let b = self.blocks[bi];
        self.wide[(b.at + (id & (BLOCK - 1))) as usize] = slot;
    }

    /// Gives block `bi` four-byte slots.
    #[cold]
    fn widen(&mut self, bi: usize) {
        let first = bi as u32 * BLOCK;
        let at = self.wide.len() as u32;
        for id in first..first + BLOCK {
            let v = if id < self.len { self.get(id) } else { 0 };
            self.wide.push(v);
        }
        let last = bi + 1 == self.blocks.len();
        let b = &mut self.blocks[bi];
        // The last block's narrow slots are the end of `narrow`.
        if b.narrow != NONE && last {
            self.narrow.truncate(b.narrow as usize);
        }
        b.narrow = NONE;
        b.stride = 0;
        b.at = at;
    }

    /// Gives the last block, full, one byte a slot or none when its slots
    /// are compact and their `;`s evenly spaced, or nearly (moves of six
    /// bytes and passes of four, a line break now and then).
    fn tighten_last(&mut self) {
        let Some(b) = self.blocks.last_mut() else {
            return;
        };
        if b.narrow == NONE {
            return;
        }
        let narrow_at = b.narrow as usize;
        let slots = &self.narrow[narrow_at..];
        debug_assert_eq!(slots.len(), BLOCK as usize);
        if slots.iter().any(|&s| s & NARROW_COMPACT == 0) {
            return;
        }
        let d = |k: usize| i64::from(slots[k] & !NARROW_COMPACT);
        // The stride is the mean distance; what is left over, `d(k) - k *
        // stride`, is kept from its least.
        let last = slots.len() - 1;
        let stride = (d(last) - d(0) + last as i64 / 2) / last as i64;
        let over = |k: usize| d(k) - k as i64 * stride;
        let (least, most) = (0..slots.len()).fold((i64::MAX, i64::MIN), |(lo, hi), k| {
            (lo.min(over(k)), hi.max(over(k)))
        });
        // Not 0: that marks the other forms.
        let Some(stride16) = u16::try_from(stride).ok().filter(|&s| s > 0) else {
            return;
        };
        if most == least {
            b.at = NONE;
        } else if most - least <= i64::from(u8::MAX) {
            b.at = self.tight.len() as u32;
            self.tight
                .extend((0..slots.len()).map(|k| (over(k) - least) as u8));
        } else {
            return;
        }
        b.narrow = NONE;
        // The base may fall before the block's first `;` (a pass first):
        // reads add back to the offset, in the same wrapping arithmetic.
        b.semi_base = b.semi_base.wrapping_add(least as u32);
        b.stride = stride16;
        self.narrow.truncate(narrow_at);
    }

    /// Adds the slot of the next id.
    #[inline]
    pub(crate) fn push(&mut self, slot: u32) {
        let id = self.len;
        if id & (BLOCK - 1) == 0 {
            self.tighten_last();
            self.blocks.push(Block {
                semi_base: NONE,
                full_base: NONE,
                narrow: self.narrow.len() as u32,
                at: NONE,
                stride: 0,
            });
        }
        self.len += 1;
        let b = self.blocks[self.blocks.len() - 1];
        if b.narrow != NONE {
            // The common case: a compact slot close to its block's first.
            if slot & COMPACT != 0
                && b.semi_base != NONE
                && let Some(d) = (slot & !COMPACT)
                    .checked_sub(b.semi_base)
                    .filter(|&d| d < u32::from(NARROW_COMPACT))
            {
                self.narrow.push(d as u16 | NARROW_COMPACT);
                return;
            }
            self.narrow.push(0);
        }
        self.set(id, slot);
    }

    /// Reserves room for `n` more ids; what a long line's tight blocks
    /// leave unused is never touched, and given back by
    /// [`Slots::shrink_spare`].
    pub(crate) fn reserve(&mut self, n: usize) {
        self.narrow.reserve(n);
        self.blocks.reserve(n / BLOCK as usize + 1);
    }

    /// Gives back what was reserved and is far from used: the two bytes
    /// an id reserved for a line whose blocks came out tight.
    pub(crate) fn shrink_spare(&mut self) {
        if self.narrow.capacity() > 2 * self.narrow.len() + (32 << 10) {
            self.narrow
                .shrink_to(self.narrow.len() + self.narrow.len() / 4);
        }
        if self.tight.capacity() > self.tight.len() + self.tight.len() / 8 + 4096 {
            self.tight.shrink_to_fit();
        }
        shrink_spare(&mut self.blocks);
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.narrow.clear();
        self.tight.clear();
        self.blocks.clear();
        self.wide.clear();
    }

    /// Heap bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.narrow.capacity() * 2
            + self.tight.capacity()
            + self.blocks.capacity() * std::mem::size_of::<Block>()
            + self.wide.capacity() * 4
    }

    /// The slots in id order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).map(|id| self.get(id))
    }
}

/// Gives back what a vector reserved beyond a quarter more than it holds,
/// when that is over a MiB (the arenas of small documents are reused as
/// they are).
pub(crate) fn shrink_spare<T>(v: &mut Vec<T>) {
    let spare = (v.capacity() - v.len()) * std::mem::size_of::<T>();
    if spare > 1 << 20 && v.capacity() > 2 * v.len() {
        v.shrink_to(v.len() + v.len() / 4);
    }
}

/// Arena vectors kept by a thread for the next parse: a batch of files then
/// reuses memory instead of faulting in fresh pages for every file.
#[derive(Default)]
pub(crate) struct Arenas {
    pub slots: Slots,
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
        self.slots.bytes()
            + self.nodes.capacity() * std::mem::size_of::<NodeData>()
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
        self.slots.clear();
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

// The node store. Most nodes of a game are a move alone, `;B[pd]` (or a
// pass, `;B[]`), each the only child of the node before it: such a node is
// kept as nothing but the offset of its `;` (a compact slot), its links
// and its one property and value read back from its place in the id order
// and the source. A main line of a million moves then takes at most two
// bytes a move, and none where the moves are evenly spaced (see `Slots`),
// not the 48 of a full node, property and value. Every other node has a
// full record in `Document::full`; ids stay the same when a compact node
// is given one (by an edit, or a variation added to it while parsing).

/// Slot bit: the node is compact, and the rest of the slot is the offset
/// of its `;`, followed by `B[xy]` or `W[xy]` (two lower-case letters),
/// or by a pass, `B[]` or `W[]`.
/// A compact node is the first child of the node before it (id − 1), has
/// no next sibling, and its first child is id + 1 when that node's parent
/// is it. Without the bit, the slot indexes `Document::full`.
pub(crate) const COMPACT: u32 = 1 << 31;

/// The end of a compact node at `semi`: after its `]`, the sixth byte of
/// `;B[pd]` or the fourth of a pass, `;B[]`.
#[inline]
pub(crate) fn compact_end(src: &[u8], semi: u32) -> u32 {
    if src[semi as usize + 3] == b']' {
        semi + 4
    } else {
        semi + 6
    }
}

/// Property and value ids with this bit are the one property and value of
/// a compact node (or of a node made full with its property left as read):
/// the rest is the node's id.
pub(crate) const VIRTUAL: u32 = 1 << 31;

/// A node's properties (or a property's values): the arena's slice, or the
/// one read back from the source for a compact node.
pub(crate) enum Few<'a, T> {
    Slice(&'a [T]),
    One([T; 1]),
}

impl<T> std::ops::Deref for Few<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Few::Slice(s) => s,
            Few::One(o) => o,
        }
    }
}

impl crate::Document {
    /// Number of node ids (including detached nodes).
    #[inline]
    pub(crate) fn node_len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the node is compact.
    #[inline]
    pub(crate) fn is_compact(&self, id: u32) -> bool {
        self.slots.get(id) & COMPACT != 0
    }

    /// The parent of a node.
    #[inline(always)]
    pub(crate) fn parent_of(&self, id: u32) -> u32 {
        let s = self.slots.get(id);
        if s & COMPACT != 0 {
            id - 1
        } else {
            self.full[s as usize].parent
        }
    }

    /// The first child of a node (NONE for none).
    #[inline]
    pub(crate) fn first_child_of(&self, id: u32) -> u32 {
        let s = self.slots.get(id);
        if s & COMPACT == 0 {
            return self.full[s as usize].first_child;
        }
        let next = id + 1;
        if (next as usize) < self.slots.len() && self.parent_of(next) == id {
            next
        } else {
            NONE
        }
    }

    /// The next sibling of a node (NONE for none).
    #[inline]
    pub(crate) fn next_sibling_of(&self, id: u32) -> u32 {
        let s = self.slots.get(id);
        if s & COMPACT == 0 {
            self.full[s as usize].next_sibling
        } else {
            NONE
        }
    }

    /// The offset of the `;` of a compact node (`;B[xy]`), None for a node
    /// with a full record.
    #[inline]
    pub(crate) fn compact_semi(&self, id: u32) -> Option<u32> {
        let s = self.slots.get(id);
        (s & COMPACT != 0).then_some(s & !COMPACT)
    }

    /// A node's record, read back for a compact node.
    #[inline]
    pub(crate) fn nd(&self, id: u32) -> NodeData {
        let s = self.slots.get(id);
        if s & COMPACT == 0 {
            return self.full[s as usize];
        }
        let next = id + 1;
        let first_child = if (next as usize) < self.slots.len() && self.parent_of(next) == id {
            next
        } else {
            NONE
        };
        NodeData {
            parent: id - 1,
            first_child,
            next_sibling: NONE,
            pstart: VIRTUAL | id,
            semi: s & !COMPACT,
            plen: 1,
            flags: 0,
        }
    }

    /// A node's record to change: a compact node (and a compact parent,
    /// whose first child is read from this node's parent link) is given a
    /// full one first. Its property stays as read (see [`VIRTUAL`]).
    pub(crate) fn nd_mut(&mut self, id: u32) -> &mut NodeData {
        if id > 0 && self.is_compact(id - 1) && self.parent_of(id) == id - 1 {
            self.make_full(id - 1);
        }
        if self.is_compact(id) {
            self.make_full(id);
        }
        let s = self.slots.get(id);
        &mut self.full[s as usize]
    }

    /// A node's record to change where its parent link stays as it is
    /// (its properties, next sibling, first child or flags): a compact node
    /// is given a full one, its parent left compact.
    pub(crate) fn full_mut(&mut self, id: u32) -> &mut NodeData {
        if self.is_compact(id) {
            self.make_full(id);
        }
        let s = self.slots.get(id);
        &mut self.full[s as usize]
    }

    fn make_full(&mut self, id: u32) {
        let nd = self.nd(id);
        self.slots.set(id, self.full.len() as u32);
        self.full.push(nd);
    }

    /// Adds a full node; returns its id.
    pub(crate) fn push_node(&mut self, nd: NodeData) -> u32 {
        let id = self.slots.len() as u32;
        self.slots.push(self.full.len() as u32);
        self.full.push(nd);
        id
    }

    /// Gives the last node a full record when it is compact: an edit
    /// about to add a node whose parent it is records the parent's links
    /// as they were, before the new id makes them read differently.
    pub(crate) fn freeze_last(&mut self) {
        if let Some(last) = self.slots.len().checked_sub(1)
            && self.is_compact(last as u32)
        {
            self.make_full(last as u32);
        }
    }

    /// Adds a compact node, a move alone whose `;` is at `semi` (`;B[xy]`
    /// or `;W[xy]` in the source), as the first child of the last node.
    pub(crate) fn push_compact(&mut self, semi: u32) -> u32 {
        debug_assert!(semi & COMPACT == 0 && !self.slots.is_empty());
        let id = self.slots.len() as u32;
        self.slots.push(COMPACT | semi);
        id
    }

    /// Whether a compact node may stand at `semi` (offsets of files past
    /// 2 GiB take the full form).
    #[inline]
    pub(crate) fn compact_fits(semi: usize) -> bool {
        semi < COMPACT as usize
    }

    /// Links `child` as the first child of `parent`, when it is not already
    /// (a compact parent of the node right after it needs no change).
    pub(crate) fn set_first_child(&mut self, parent: u32, child: u32) {
        if self.is_compact(parent) && self.nd(parent).first_child == child {
            return;
        }
        self.full_mut(parent).first_child = child;
    }

    /// The `;` of a node whose property is [`VIRTUAL`].
    #[inline]
    fn virtual_semi(&self, id: u32) -> u32 {
        let s = self.slots.get(id);
        if s & COMPACT != 0 {
            s & !COMPACT
        } else {
            self.full[s as usize].semi
        }
    }

    /// A property's record, read back for a compact node's.
    #[inline]
    pub(crate) fn pd(&self, pid: u32) -> PropData {
        if pid & VIRTUAL == 0 {
            return self.props[pid as usize];
        }
        let id = pid & !VIRTUAL;
        let semi = self.virtual_semi(id);
        let key = if self.src[semi as usize + 1] == b'B' {
            crate::props::id::B
        } else {
            crate::props::id::W
        } as Key;
        PropData {
            ident: semi + 1,
            vstart: VIRTUAL | id,
            vlen: 1,
            key,
            ident_len: 1,
        }
    }

    /// A value's record, read back for a compact node's.
    #[inline]
    pub(crate) fn vd(&self, vid: u32) -> ValueData {
        if vid & VIRTUAL == 0 {
            return self.values[vid as usize];
        }
        let semi = self.virtual_semi(vid & !VIRTUAL);
        ValueData::source(semi + 2, compact_end(&self.src, semi), true)
    }

    /// The properties of a node record.
    #[inline]
    pub(crate) fn props_of(&self, nd: &NodeData) -> Few<'_, PropData> {
        if nd.pstart & VIRTUAL != 0 {
            return Few::One([self.pd(nd.pstart)]);
        }
        Few::Slice(&self.props[nd.pstart as usize..nd.pstart as usize + nd.plen as usize])
    }

    /// The values of a property record.
    #[inline]
    pub(crate) fn values_of(&self, p: &PropData) -> Few<'_, ValueData> {
        if p.vstart & VIRTUAL != 0 {
            return Few::One([self.vd(p.vstart)]);
        }
        Few::Slice(&self.values[p.vstart as usize..(p.vstart + p.vlen) as usize])
    }

    /// Gives a node whose property is [`VIRTUAL`] records of its own in
    /// `props` and `values` (the node made full first), so that its
    /// properties can change; returns the node's record.
    pub(crate) fn own_props(&mut self, id: u32) -> &mut NodeData {
        let nd = self.nd(id);
        if nd.pstart & VIRTUAL != 0 {
            let p = self.pd(nd.pstart);
            let v = self.vd(p.vstart);
            let vstart = self.values.len() as u32;
            self.values.push(v);
            let pstart = self.props.len() as u32;
            self.props.push(PropData { vstart, ..p });
            let n = self.full_mut(id);
            n.pstart = pstart;
            n.plen = 1;
        }
        self.full_mut(id)
    }
}

#[cfg(test)]
mod tests {
    use super::Form;
    use crate::{Color, NodeId, parse, to_canonical_bytes, to_lossless_bytes};

    const LINE: &[u8] = b"(;GM[1]SZ[19];B[pd];W[dd];B[pp]\n;W[dp];B[cc]C[x];W[qq])";

    fn ids(doc: &crate::Document) -> Vec<u32> {
        doc.game(0).unwrap().nodes().map(|n| n.id().0).collect()
    }

    #[test]
    fn a_line_of_moves_is_compact_and_reads_the_same() {
        let doc = parse(LINE).document;
        let compact: Vec<bool> = (0..doc.node_len() as u32)
            .map(|i| doc.is_compact(i))
            .collect();
        // The root is full, so is the node with a comment; the move after
        // it starts no run of its own.
        assert_eq!(compact, [false, true, true, true, true, false, false]);
        let line: Vec<String> = doc
            .game(0)
            .unwrap()
            .main_line()
            .map(|n| {
                n.props()
                    .map(|p| {
                        let v: Vec<String> = p.values().map(|v| v.raw_text().into()).collect();
                        format!("{}{:?}", p.ident(), v)
                    })
                    .collect::<String>()
            })
            .collect();
        assert_eq!(
            line,
            [
                "GM[\"1\"]SZ[\"19\"]",
                "B[\"pd\"]",
                "W[\"dd\"]",
                "B[\"pp\"]",
                "W[\"dp\"]",
                "B[\"cc\"]C[\"x\"]",
                "W[\"qq\"]"
            ]
        );
        let n3 = doc.node(NodeId(3));
        assert_eq!(n3.parent().unwrap().id(), NodeId(2));
        assert_eq!(n3.first_child().unwrap().id(), NodeId(4));
        assert_eq!(n3.simple_move(), Some((crate::Color::Black, *b"pp")));
        assert_eq!(n3.span(), crate::Span::new(25, 31));
        assert_eq!(to_lossless_bytes(&doc), LINE);
        let canon = String::from_utf8(to_canonical_bytes(&doc, &Default::default())).unwrap();
        assert!(canon.contains(";B[pd]\n;W[dd]\n;B[pp]\n;W[dp]"), "{canon}");
    }

    /// A main line of `n` moves, `sep` after every `every` (none when 0).
    fn long_line(n: u32, every: u32, sep: &str) -> String {
        let mut src = String::from("(;GM[1]SZ[19]");
        for i in 0..n {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let x = (b'a' + (i % 19) as u8) as char;
            let y = (b'a' + (i / 19 % 19) as u8) as char;
            src.push_str(&format!(";{c}[{x}{y}]"));
            if every > 0 && i % every == every - 1 {
                src.push_str(sep);
            }
        }
        src.push(')');
        src
    }

    #[test]
    fn a_long_line_takes_a_byte_a_move_or_none() {
        // Broken every ten moves: one byte a move (what is left over from
        // a stride of six); never broken, or after every move, whatever
        // the white space (Windows' line breaks, spaces): none.
        for (every, sep, most) in [
            (10, "\n", 100_001 + 16_384),
            (0, "", 16_384),
            (1, "\r\n", 16_384),
            (1, " ", 16_384),
            (3, "\t \r\n", 100_001 + 16_384),
        ] {
            let src = long_line(100_000, every, sep);
            let doc = parse(src.as_bytes()).document;
            assert_eq!(doc.node_len(), 100_001);
            // The root alone has a full record, and the last move when
            // nothing stands between it and the `)`; every other is compact.
            assert!(doc.full.len() <= 2, "{}", doc.full.len());
            assert!(doc.slots.wide.is_empty());
            assert!(doc.slots.bytes() < most, "{}", doc.slots.bytes());
            assert_eq!(doc.props.len(), doc.full.len() + 1);
            // What was reserved for a full record per `;` is given back, so
            // the memory counted is the text and its slots.
            let heap = doc.heap_bytes();
            assert!(heap < 3 * src.len(), "{heap} for {}", src.len());
            assert!(doc.full.capacity() * std::mem::size_of::<crate::doc::NodeData>() < 1 << 20);
            assert_eq!(to_lossless_bytes(&doc), src.as_bytes());
            let line: Vec<_> = doc.game(0).unwrap().main_line().collect();
            assert_eq!(line.len(), 100_001);
            for (i, n) in line.iter().enumerate().skip(1) {
                assert_eq!(n.id().0 as usize, i);
                assert_eq!(n.parent().unwrap().id().0 as usize, i - 1);
                let k = i as u32 - 1;
                let c = if k.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let xy = [b'a' + (k % 19) as u8, b'a' + (k / 19 % 19) as u8];
                assert_eq!(n.simple_move(), Some((c, xy)), "move {i}");
            }
        }
    }

    #[test]
    fn blocks_of_every_form_read_and_edit_alike() {
        // Blocks of 256 moves: evenly spaced, broken here and there, too
        // unevenly for a byte, with a variation (a full record), with
        // passes now and then, and evenly spaced again.
        let mut src = String::from("(;GM[1]");
        let mut moves: Vec<Vec<u8>> = Vec::new();
        for i in 0..2000u32 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let xy = if i / 256 == 6 && i % 9 == 0 {
                Vec::new()
            } else {
                vec![b'a' + (i % 19) as u8, b'a' + (i / 7 % 19) as u8]
            };
            src.push_str(&format!(";{c}[{}]", std::str::from_utf8(&xy).unwrap()));
            moves.push(xy);
            match i / 256 {
                1 if i % 37 == 0 => src.push('\n'),
                2 if i % 64 == 0 => src.push_str(&" ".repeat(300)),
                3 if i == 800 => src.push('('),
                _ => {}
            }
        }
        src.push_str(")(;B[ss]))");
        let forms = |doc: &crate::Document| -> Vec<Form> {
            doc.slots.blocks.iter().map(|b| b.form()).collect()
        };
        let mut doc = parse(src.as_bytes()).document;
        let f = forms(&doc);
        // The first block holds the root, a full record.
        assert_eq!(f[0], Form::Narrow, "{f:?}");
        assert_eq!(f[1], Form::Tight, "{f:?}");
        assert_eq!(f[2], Form::Narrow, "{f:?}");
        assert_eq!(f[3], Form::Narrow, "{f:?}");
        assert_eq!((f[4], f[5]), (Form::Strided, Form::Strided), "{f:?}");
        assert_eq!(f[6], Form::Tight, "{f:?}");
        let passes = (0..2000).filter(|&i| moves[i].is_empty());
        assert!(passes.clone().count() > 20);
        assert!(passes.clone().all(|i| doc.is_compact(i as u32 + 1)));
        assert_eq!(to_lossless_bytes(&doc), src.as_bytes());
        // The moves and passes, commented or not.
        let line = |doc: &crate::Document| -> Vec<Vec<u8>> {
            doc.game(0)
                .unwrap()
                .main_line()
                .filter_map(|n| {
                    let v = n.value("B").or_else(|| n.value("W"))?;
                    Some(v.raw().to_vec())
                })
                .collect()
        };
        let same = |doc: &crate::Document, when: &str| {
            let l = line(doc);
            if let Some(i) = (0..moves.len()).find(|&i| l.get(i) != Some(&moves[i])) {
                panic!("{when}: move {i} of {}: {:?}", l.len(), l.get(i));
            }
        };
        same(&doc, "read");
        let pass = doc.node(NodeId(1549));
        assert_eq!(
            (pass.value("B").unwrap().raw(), pass.simple_move()),
            (&b""[..], None)
        );
        let canon = String::from_utf8(to_canonical_bytes(&doc, &Default::default())).unwrap();
        assert!(canon.contains("\n;W[im]\n;B[]\n;W[km]\n"), "{canon}");
        // A comment on a move of each form gives it a full record; the
        // others read as before; undone, the file is as it was.
        let edited = [100, 300, 600, 1500, 1549];
        doc.begin_change();
        for id in edited {
            doc.set_text(NodeId(id), "C", "note").unwrap();
        }
        let change = doc.end_change();
        let redo = doc.revert(change);
        assert_eq!(to_lossless_bytes(&doc), src.as_bytes());
        same(&doc, "undone");
        doc.revert(redo);
        let f = forms(&doc);
        assert_eq!(
            (f[1], f[4], f[5], f[6]),
            (Form::Wide, Form::Strided, Form::Wide, Form::Wide)
        );
        same(&doc, "redone");
        for id in edited {
            assert_eq!(doc.node(NodeId(id)).text("C").as_deref(), Some("note"));
            assert_eq!(doc.node(NodeId(id + 1)).parent().unwrap().id().0, id);
        }
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out.len(), src.len() + edited.len() * "C[note]".len());
        assert!(out.contains(";B[]C[note];W[km]"));
        // New nodes after the last block tighten nothing they should not.
        let last = doc.game(0).unwrap().main_line().last().unwrap().id();
        let added = doc.add_child(last).unwrap();
        doc.set_raw(added, "B", &["aa".to_string()]).unwrap();
        assert_eq!(doc.node(added).parent().unwrap().id(), last);
        assert_eq!(line(&doc).len(), moves.len() + 1);
    }

    #[test]
    fn slots_that_do_not_fit_two_bytes_take_four() {
        // Compact moves more than 32 KB apart in one block of ids (a long
        // comment between them), then full records made far from the
        // block's first by edits.
        let long = "x".repeat(40_000);
        let src = format!("(;GM[1];B[aa];W[bb];B[cc]C[{long}];W[dd];B[ee];W[ff])\n");
        let doc = parse(src.as_bytes()).document;
        assert!(doc.is_compact(1) && doc.is_compact(5));
        assert!(!doc.slots.wide.is_empty());
        let moves = |doc: &crate::Document| -> Vec<[u8; 2]> {
            doc.game(0)
                .unwrap()
                .main_line()
                .filter_map(|n| n.simple_move().map(|m| m.1))
                .collect()
        };
        assert_eq!(moves(&doc), [*b"aa", *b"bb", *b"dd", *b"ee", *b"ff"]);
        assert_eq!(to_lossless_bytes(&doc), src.as_bytes());
        // Two moves, then 40,000 nodes with comments; a comment on the
        // second move makes its record at the end of `full`, far past
        // its block's first (the root's).
        let mut src = String::from("(;GM[1];B[cc];W[dd]");
        for i in 0..40_000 {
            src.push_str(if i % 2 == 0 {
                ";B[aa]C[a]"
            } else {
                ";W[bb]C[b]"
            });
        }
        src.push_str(")\n");
        let mut doc = parse(src.as_bytes()).document;
        assert!(doc.is_compact(2) && doc.slots.wide.is_empty());
        doc.set_text(NodeId(2), "C", "late").unwrap();
        assert!(!doc.is_compact(2) && !doc.slots.wide.is_empty());
        assert_eq!(doc.node(NodeId(2)).text("C").as_deref(), Some("late"));
        assert_eq!(doc.node(NodeId(2)).parent().unwrap().id().0, 1);
        assert_eq!(doc.node(NodeId(3)).parent().unwrap().id().0, 2);
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert!(
            out.starts_with("(;GM[1];B[cc];W[dd]C[late];B[aa]C[a]"),
            "{}",
            &out[..60]
        );
        assert_eq!(out.len(), src.len() + "C[late]".len());
    }

    #[test]
    fn edits_of_compact_nodes_write_and_undo() {
        let mut doc = parse(LINE).document;
        let n3 = NodeId(3);
        // A comment on a compact move, a variation below another, a move removed.
        doc.begin_change();
        doc.set_text(n3, "C", "note").unwrap();
        let var = doc.add_child(NodeId(2)).unwrap();
        doc.set_raw(var, "W", &["qd".into()]).unwrap();
        let undo = doc.end_change();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(
            out,
            "(;GM[1]SZ[19];B[pd];W[dd](;B[pp]C[note]\n;W[dp];B[cc]C[x];W[qq])(;W[qd]))"
        );
        assert_eq!(doc.node(n3).text("C").as_deref(), Some("note"));
        let redo = doc.revert(undo);
        assert_eq!(to_lossless_bytes(&doc), LINE);
        assert_eq!(ids(&doc), [0, 1, 2, 3, 4, 5, 6]);
        doc.revert(redo);
        assert_eq!(to_lossless_bytes(&doc), out.as_bytes());

        let mut doc = parse(LINE).document;
        doc.begin_change();
        doc.remove_node(NodeId(4)).unwrap();
        let undo = doc.end_change();
        assert_eq!(to_lossless_bytes(&doc), b"(;GM[1]SZ[19];B[pd];W[dd];B[pp])");
        doc.revert(undo);
        assert_eq!(to_lossless_bytes(&doc), LINE);
        // A new node as the child of the last compact one.
        let mut doc = parse(b"(;GM[1];B[aa];W[bb];B[cc])\n").document;
        let last = NodeId(doc.node_len() as u32 - 1);
        assert!(doc.is_compact(last.0));
        doc.begin_change();
        let child = doc.add_child(last).unwrap();
        doc.set_raw(child, "W", &["dd".into()]).unwrap();
        let undo = doc.end_change();
        assert_eq!(
            to_lossless_bytes(&doc),
            b"(;GM[1];B[aa];W[bb];B[cc]\n;W[dd])\n"
        );
        doc.revert(undo);
        assert_eq!(to_lossless_bytes(&doc), b"(;GM[1];B[aa];W[bb];B[cc])\n");
        assert!(doc.node(last).first_child().is_none());
    }

    #[test]
    fn properties_after_a_compact_node_join_it() {
        // After a parenthesis read as junk, properties go to the node before.
        let src = b"(;GM[1];B[aa];W[bb]((C[x]B[cc])))";
        let r = parse(src);
        let doc = &r.document;
        assert_eq!(to_lossless_bytes(doc), src);
        let texts: Vec<String> = doc
            .game(0)
            .unwrap()
            .nodes()
            .map(|n| n.props().map(|p| p.ident().to_string()).collect())
            .collect();
        let plain = parse(b"(;GM[1];B[aa] ;W[bb] ((C[x]B[cc])))");
        let want: Vec<String> = plain
            .document
            .game(0)
            .unwrap()
            .nodes()
            .map(|n| n.props().map(|p| p.ident().to_string()).collect())
            .collect();
        assert_eq!(texts, want);
        let codes = |d: &[crate::Diagnostic]| d.iter().map(|d| d.code).collect::<Vec<_>>();
        assert_eq!(codes(&r.diagnostics), codes(&plain.diagnostics));
    }
}
