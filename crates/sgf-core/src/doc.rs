//! The document: a lossless arena of game trees, nodes, properties and values.
//!
//! Every element records where its tokens stand in the source, so unedited
//! parts are written back byte for byte; typed views decode on demand.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use encoding_rs::Encoding;

use crate::charset::{CharsetSource, Dbcs};
use crate::diag::{LineIndex, Span};
use crate::props::{self, KnownId, PropInfo, ValueType};
use crate::text;
use crate::value::{self, Color, Point};
use crate::work;

pub(crate) use crate::arena::*;
pub use crate::arena::{NodeId, PropId, ValueId};

/// Text outside the game trees: before the first (`Game 1:`), between two,
/// or after the last (see [`Document::outside_texts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideText<'d> {
    /// Where it is in the source (white space at its ends left out).
    pub span: Span,
    /// The game it stands before; `None`: after the last game.
    pub before: Option<usize>,
    /// The text, decoded in the charset of the game next to it (the one
    /// after it; the last game for text after the last).
    pub text: Cow<'d, str>,
    /// Whether the canonical form writes it where it stands, as it is:
    /// read there, it holds nothing a reader takes for SGF (a game tree's
    /// start) and, first in the file, nothing that makes the file look
    /// like UTF-16 (NUL bytes) or start with a byte-order mark. Else it is
    /// left out of the canonical form, and the repairs (`qipu fmt`,
    /// `check --fix`) keep it in the game comment `GC`.
    pub in_place: bool,
}

/// A parsed SGF collection.
///
/// Owns its source bytes; nodes, properties and values are arena entries
/// that point into them. See the crate docs for the lossless guarantees.
#[derive(Clone, Debug)]
pub struct Document {
    pub(crate) src: Arc<[u8]>,
    /// The input before transcoding (UTF-16 files), to write it back as it was.
    pub(crate) original: Option<Arc<[u8]>>,
    pub(crate) transcoded_from: Option<(&'static Encoding, usize)>,
    /// The transcoded file was UTF-32 (`transcoded_from` then names the
    /// UTF-16 of the same byte order, which encoding_rs knows).
    pub(crate) utf32: bool,
    /// Each node id's slot: a compact node, or its index in `full` (see
    /// the node store in `arena.rs`).
    pub(crate) slots: crate::arena::Slots,
    /// Full node records.
    pub(crate) full: Vec<NodeData>,
    /// Source parentheses, sorted by node.
    pub(crate) parens: Vec<Parens>,
    pub(crate) props: Vec<PropData>,
    pub(crate) values: Vec<ValueData>,
    pub(crate) games: Vec<GameData>,
    pub(crate) unknown: Vec<Box<str>>,
    /// The key of each identifier in `unknown`: a file of many distinct
    /// unknown identifiers is read without a walk over them for each.
    pub(crate) unknown_keys: HashMap<Box<str>, Key>,
    pub(crate) owned: Vec<Box<[u8]>>,
    /// Nodes created by the parser; games own contiguous id ranges of them.
    pub(crate) parsed_nodes: u32,
    /// Every game decodes the same way (same encoding, no double-byte mode).
    pub(crate) uniform: Option<&'static Encoding>,
    pub(crate) edited: bool,
    pub(crate) lines: OnceLock<LineIndex>,
    /// The game of every parsed node, made when first needed by
    /// [`Document::game_of`] on a document not in file order (one pass,
    /// not a walk up the tree for each value); only read while not edited.
    pub(crate) game_index: OnceLock<Box<[u32]>>,
    /// Where each game's nodes end in the arena, when the parser put every
    /// game's nodes in pre-order one game after the other (not after some
    /// recoveries). Edits keep it for the state they can be undone to.
    pub(crate) game_ends: Option<Box<[u32]>>,
    /// The change being recorded (see [`Document::begin_change`]).
    pub(crate) journal: Option<Box<crate::journal::Change>>,
    /// See [`Document::set_utf8_fallback`].
    pub(crate) utf8_fallback: Option<bool>,
    /// Text outside the game trees, in source order.
    pub(crate) outside: Vec<OutsideSpan>,
}

impl Document {
    pub(crate) fn empty(src: Arc<[u8]>) -> Document {
        Document {
            src,
            original: None,
            transcoded_from: None,
            utf32: false,
            slots: Default::default(),
            full: Vec::new(),
            parens: Vec::new(),
            props: Vec::new(),
            values: Vec::new(),
            games: Vec::new(),
            unknown: Vec::new(),
            unknown_keys: HashMap::new(),
            owned: Vec::new(),
            parsed_nodes: 0,
            uniform: Some(encoding_rs::UTF_8),
            edited: false,
            lines: OnceLock::new(),
            game_index: OnceLock::new(),
            game_ends: None,
            journal: None,
            utf8_fallback: None,
            outside: Vec::new(),
        }
    }

    /// A new document with one empty game (`(;)`).
    pub fn new() -> Document {
        let mut d = Document::empty(Arc::from(&b""[..]));
        let mut n = NodeData::new(NONE);
        n.flags = F_SYNTHETIC;
        d.push_node(n);
        d.games.push(GameData {
            root: 0,
            encoding: encoding_rs::UTF_8,
            display: encoding_rs::UTF_8,
            source: CharsetSource::Default,
            start: 0,
            dbcs: None,
            undecodable: false,
        });
        d.edited = true;
        d
    }

    /// The bytes the document was parsed from (UTF-8 after transcoding a UTF-16 file).
    pub fn source(&self) -> &[u8] {
        &self.src
    }

    /// The original input bytes.
    pub fn original(&self) -> &[u8] {
        self.original.as_deref().unwrap_or(&self.src)
    }

    /// The offset in the original input of an offset in [`Document::source`]
    /// (they differ only for transcoded UTF-16 files).
    pub fn original_offset(&self, offset: u32) -> u32 {
        let Some((_, bom)) = self.transcoded_from else {
            return offset;
        };
        let text = String::from_utf8_lossy(&self.src);
        let mut o = (offset as usize).min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        if self.utf32 {
            return (bom + 4 * text[..o].chars().count()) as u32;
        }
        (bom + 2 * text[..o].encode_utf16().count()) as u32
    }

    /// Line and column lookups over [`Document::source`].
    pub fn line_index(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.src))
    }

    /// 1-based line and byte column of a source offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        self.line_index().line_col(offset)
    }

    /// Heap bytes the document holds (its source and arenas), to report
    /// memory use.
    pub fn heap_bytes(&self) -> usize {
        self.src.len()
            + self.original.as_ref().map_or(0, |o| o.len())
            + self.slots.bytes()
            + self.full.capacity() * std::mem::size_of::<NodeData>()
            + self.parens.capacity() * std::mem::size_of::<Parens>()
            + self.props.capacity() * std::mem::size_of::<PropData>()
            + self.values.capacity() * std::mem::size_of::<ValueData>()
            + self.games.capacity() * std::mem::size_of::<GameData>()
            + self.owned.iter().map(|o| o.len() + 16).sum::<usize>()
    }

    /// Whether the document was changed since it was parsed.
    pub fn is_edited(&self) -> bool {
        self.edited
    }

    /// Whether the values of `node`'s game are read charset-aware because the
    /// file left double-byte trail bytes `\` and `]` unescaped.
    pub fn dbcs_of(&self, node: NodeId) -> Option<Dbcs> {
        if self.uniform.is_some() {
            return None;
        }
        self.game_of(node).and_then(|g| self.games[g].dbcs)
    }

    /// Index of the game that holds `node`.
    pub fn game_of(&self, node: NodeId) -> Option<usize> {
        if node.0 < self.parsed_nodes {
            // Parsed games own contiguous ranges of node ids, in order.
            let i = self.games.partition_point(|g| g.root <= node.0);
            // In file order, the range is the game's: no walk up the tree
            // (a walk for each value of a game nested a million deep).
            if i > 0
                && let Some(ends) = self.file_order()
                && ends.get(i - 1).is_some_and(|&end| node.0 < end)
            {
                return Some(i - 1);
            }
            if !self.edited {
                let index = self.game_index.get_or_init(|| self.parsed_games());
                return match index.get(node.0 as usize) {
                    Some(&g) if g != NONE => Some(g as usize),
                    _ => None,
                };
            }
            if i > 0 && self.root_of(node).0 == self.games[i - 1].root {
                return Some(i - 1);
            }
        }
        let root = self.root_of(node);
        self.games.iter().position(|g| g.root == root.0)
    }

    /// The game of each parsed node (NONE for one in no game), by a walk
    /// down each game.
    fn parsed_games(&self) -> Box<[u32]> {
        let mut index = vec![NONE; self.parsed_nodes as usize];
        for (gi, g) in self.games.iter().enumerate() {
            let mut stack = vec![g.root];
            while let Some(n) = stack.pop() {
                work::add(1);
                if let Some(slot) = index.get_mut(n as usize) {
                    *slot = gi as u32;
                }
                let mut c = self.nd(n).first_child;
                while c != NONE {
                    stack.push(c);
                    c = self.nd(c).next_sibling;
                }
            }
        }
        index.into_boxed_slice()
    }

    /// The first game whose text cannot be decoded
    /// ([`Game::is_undecodable`]): when there is one, the document cannot
    /// be written in the canonical UTF-8 form (`fmt`, `convert`,
    /// `check --fix`) without loss, and writers refuse it.
    pub fn undecodable_game(&self) -> Option<usize> {
        self.games.iter().position(|g| g.undecodable)
    }

    /// Number of game trees.
    pub fn game_count(&self) -> usize {
        self.games.len()
    }

    /// The games of the collection.
    pub fn games(&self) -> impl ExactSizeIterator<Item = Game<'_>> + '_ {
        (0..self.games.len()).map(move |i| Game {
            doc: self,
            index: i,
        })
    }

    /// One game by index.
    pub fn game(&self, index: usize) -> Option<Game<'_>> {
        (index < self.games.len()).then_some(Game { doc: self, index })
    }

    /// A node by id.
    pub fn node(&self, id: NodeId) -> Node<'_> {
        Node { doc: self, id }
    }

    /// Number of arena slots (including detached nodes).
    pub fn node_capacity(&self) -> usize {
        self.node_len()
    }

    /// The node whose arena index is `index` ([`NodeId::index`]), when
    /// the arena has that slot: how a front end that hands node indices to
    /// another language (JavaScript) takes them back. The node may have
    /// been removed from the tree by an edit since.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        (index < self.node_len()).then_some(NodeId(index as u32))
    }

    /// The encoding values of `node` are decoded from.
    pub fn encoding_of(&self, node: NodeId) -> &'static Encoding {
        if let Some(e) = self.uniform {
            return e;
        }
        self.game_of(node)
            .map_or(encoding_rs::WINDOWS_1252, |g| self.games[g].encoding)
    }

    /// The root of the game that holds `node`.
    pub fn root_of(&self, node: NodeId) -> NodeId {
        let mut n = node.0;
        while self.parent_of(n) != NONE {
            work::add(1);
            n = self.parent_of(n);
        }
        NodeId(n)
    }

    /// The identifier of a property key.
    pub(crate) fn key_ident(&self, key: Key) -> &str {
        if key < UNKNOWN_BASE {
            props::info(key as KnownId).ident
        } else {
            &self.unknown[(key - UNKNOWN_BASE) as usize]
        }
    }

    /// Key for an identifier (interning unknown ones).
    pub(crate) fn key_for(&mut self, ident: &str) -> Option<Key> {
        if let Some(k) = props::lookup(ident.as_bytes()) {
            return Some(k);
        }
        if let Some(&k) = self.unknown_keys.get(ident) {
            return Some(k);
        }
        if self.unknown.len() >= (Key::MAX - UNKNOWN_BASE) as usize {
            return None;
        }
        self.unknown.push(ident.into());
        let k = UNKNOWN_BASE + (self.unknown.len() - 1) as Key;
        self.unknown_keys.insert(ident.into(), k);
        Some(k)
    }

    /// Looks up the key of an identifier without interning.
    pub(crate) fn find_key(&self, ident: &str) -> Option<Key> {
        if let Some(k) = props::lookup(ident.as_bytes()) {
            return Some(k);
        }
        self.unknown_keys.get(ident).copied()
    }

    #[inline]
    /// A two-byte value that is not a closed source value (see
    /// [`Node::simple_move`]): rare, kept out of the hot path.
    #[cold]
    fn edited_pair(&self, v: &ValueData) -> Option<[u8; 2]> {
        match *self.raw_value(v) {
            [a, b] => Some([a, b]),
            _ => None,
        }
    }

    pub(crate) fn raw_value(&self, v: &ValueData) -> &[u8] {
        match v.open() {
            Some(open) => {
                let end = v.end() as usize;
                let close = if v.is_unterminated() { end } else { end - 1 };
                &self.src[(open as usize + 1).min(close)..close]
            }
            None => &self.owned[v.owned_index().unwrap_or(0)],
        }
    }

    /// The source parentheses of a node's tree: (`(` offset, `)` offset), NONE when absent.
    pub(crate) fn parens_of(&self, node: u32) -> (u32, u32) {
        if node as usize >= self.node_len()
            || self.is_compact(node)
            || self.nd(node).flags & F_PARENS == 0
        {
            return (NONE, NONE);
        }
        match self.parens.binary_search_by_key(&node, |p| p.node) {
            Ok(i) => (self.parens[i].open, self.parens[i].close),
            Err(_) => (NONE, NONE),
        }
    }

    /// Node ids of a game tree in file order (pre-order, first variation first).
    pub fn preorder(&self, root: NodeId) -> Preorder<'_> {
        // A whole game of a parsed document is usually a run of ids.
        let end = self
            .file_order()
            .and_then(|ends| {
                let gi = self.games.binary_search_by_key(&root.0, |g| g.root).ok()?;
                ends.get(gi).copied()
            })
            .unwrap_or(NONE);
        Preorder {
            doc: self,
            root: root.0,
            next: root.0,
            end,
        }
    }

    /// The end of every game's run of ids, when the arena holds the games'
    /// nodes in pre-order one game after the other and no edit changed it.
    fn file_order(&self) -> Option<&[u32]> {
        if self.edited {
            return None;
        }
        self.game_ends.as_deref()
    }

    /// Nodes in file order across all games, with their game index.
    pub fn all_nodes(&self) -> impl Iterator<Item = (usize, NodeId)> + '_ {
        self.games
            .iter()
            .enumerate()
            .flat_map(move |(gi, g)| self.preorder(NodeId(g.root)).map(move |n| (gi, n)))
    }
}

impl Drop for Document {
    fn drop(&mut self) {
        Arenas {
            slots: std::mem::take(&mut self.slots),
            nodes: std::mem::take(&mut self.full),
            props: std::mem::take(&mut self.props),
            values: std::mem::take(&mut self.values),
        }
        .give_back();
    }
}

impl Default for Document {
    fn default() -> Self {
        Document::new()
    }
}

/// Pre-order iterator over a game tree: follows the first-child,
/// next-sibling and parent links, so it needs no stack and no allocation
/// (and no recursion, whatever the depth).
pub struct Preorder<'d> {
    doc: &'d Document,
    root: u32,
    next: u32,
    /// One past the game's last id when its nodes are a run of ids in
    /// pre-order (then no links need following), else NONE.
    end: u32,
}

impl Iterator for Preorder<'_> {
    type Item = NodeId;
    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        let n = self.next;
        if self.end != NONE {
            if n >= self.end {
                return None;
            }
            self.next = n + 1;
            return Some(NodeId(n));
        }
        if n == NONE {
            return None;
        }
        self.step(n);
        Some(NodeId(n))
    }

    fn nth(&mut self, k: usize) -> Option<NodeId> {
        if self.end != NONE {
            let n = (self.next as usize).saturating_add(k);
            if n >= self.end as usize {
                self.next = self.end;
                return None;
            }
            self.next = n as u32 + 1;
            return Some(NodeId(n as u32));
        }
        for _ in 0..k {
            self.next()?;
        }
        self.next()
    }
}

impl Preorder<'_> {
    /// Moves past `n` by the links: to its first child, else to the next
    /// sibling of it or of its nearest ancestor below the root.
    fn step(&mut self, n: u32) {
        let doc = self.doc;
        let nd = doc.nd(n);
        self.next = if nd.first_child != NONE {
            nd.first_child
        } else {
            // Up to the first ancestor (below the root) with a next sibling.
            let mut c = n;
            loop {
                if c == self.root {
                    break NONE;
                }
                let cd = doc.nd(c);
                if cd.next_sibling != NONE {
                    break cd.next_sibling;
                }
                c = cd.parent;
                if c == NONE {
                    break NONE;
                }
            }
        };
    }
}

/// A game tree of a document.
#[derive(Copy, Clone)]
pub struct Game<'d> {
    doc: &'d Document,
    index: usize,
}

impl<'d> Game<'d> {
    /// Index in the collection.
    pub fn index(&self) -> usize {
        self.index
    }
    /// Where the game tree starts in the source: its `(` (its first `;`
    /// when it has no `(`), before its root node's span.
    pub fn start(&self) -> u32 {
        self.doc.games[self.index].start
    }
    /// The root node.
    pub fn root(&self) -> Node<'d> {
        Node {
            doc: self.doc,
            id: NodeId(self.doc.games[self.index].root),
        }
    }
    /// The encoding its text is read in.
    pub fn encoding(&self) -> &'static Encoding {
        self.doc.games[self.index].encoding
    }
    /// The charset the game was read in (`UTF-8`, `GBK`, `UTF-16LE`, `UTF-32LE`, …).
    pub fn charset(&self) -> &'static str {
        if self.doc.utf32 && self.doc.transcoded_from.is_some() {
            return match self.doc.transcoded_from {
                Some((e, _)) if e == encoding_rs::UTF_16BE => "UTF-32BE",
                _ => "UTF-32LE",
            };
        }
        crate::charset::display_name(self.doc.games[self.index].display)
    }
    /// Where the charset came from.
    pub fn charset_source(&self) -> CharsetSource {
        self.doc.games[self.index].source
    }
    /// Whether the game's text is in a charset that cannot be decoded:
    /// its `CA` names one (`ISO-2022-KR`, `HZ-GB-2312`, `ISO-2022-CN`…,
    /// see [`crate::charset::is_undecodable_label`]) and its bytes use
    /// that charset's shifts. Its values are shown as their bytes are
    /// (ISO-8859-1 for 7-bit text), which is not what they mean: the game
    /// cannot be written in another charset, such as the canonical UTF-8
    /// form, without loss. Writers refuse it ([`Document::undecodable_game`]);
    /// the lossless writer keeps its bytes. The reader reports it (`C009`).
    pub fn is_undecodable(&self) -> bool {
        self.doc.games[self.index].undecodable
    }
    /// The nodes in file order.
    pub fn nodes(&self) -> impl Iterator<Item = Node<'d>> + use<'d> {
        let doc = self.doc;
        doc.preorder(NodeId(doc.games[self.index].root))
            .map(move |id| Node { doc, id })
    }
    /// The node with number `k` in file order (from 0).
    pub fn node_by_number(&self, k: usize) -> Option<Node<'d>> {
        self.nodes().nth(k)
    }
    /// The main line: the root and every first child.
    pub fn main_line(&self) -> impl Iterator<Item = Node<'d>> + use<'d> {
        let doc = self.doc;
        let mut cur = Some(NodeId(doc.games[self.index].root));
        std::iter::from_fn(move || {
            let id = cur?;
            let fc = doc.nd(id.0).first_child;
            cur = (fc != NONE).then_some(NodeId(fc));
            Some(Node { doc, id })
        })
    }
}

/// A node of a document.
#[derive(Copy, Clone)]
pub struct Node<'d> {
    doc: &'d Document,
    id: NodeId,
}

impl<'d> Node<'d> {
    /// Its id.
    pub fn id(&self) -> NodeId {
        self.id
    }
    fn data(&self) -> NodeData {
        self.doc.nd(self.id.0)
    }
    /// The document.
    pub fn document(&self) -> &'d Document {
        self.doc
    }
    /// The parent, `None` for a root.
    pub fn parent(&self) -> Option<Node<'d>> {
        let p = self.doc.parent_of(self.id.0);
        (p != NONE).then_some(Node {
            doc: self.doc,
            id: NodeId(p),
        })
    }
    /// The first child (the main line continuation).
    pub fn first_child(&self) -> Option<Node<'d>> {
        let c = self.doc.first_child_of(self.id.0);
        (c != NONE).then_some(Node {
            doc: self.doc,
            id: NodeId(c),
        })
    }
    /// The next sibling.
    pub fn next_sibling(&self) -> Option<Node<'d>> {
        let c = self.doc.next_sibling_of(self.id.0);
        (c != NONE).then_some(Node {
            doc: self.doc,
            id: NodeId(c),
        })
    }
    /// The children, main line first.
    pub fn children(&self) -> impl Iterator<Item = Node<'d>> + use<'d> {
        let doc = self.doc;
        let mut c = self.data().first_child;
        std::iter::from_fn(move || {
            if c == NONE {
                return None;
            }
            work::add(1);
            let id = NodeId(c);
            c = doc.nd(c).next_sibling;
            Some(Node { doc, id })
        })
    }
    /// Number of children (a walk over them: see [`Node::is_only_child`]
    /// to ask about one node without one).
    pub fn child_count(&self) -> usize {
        self.children().count()
    }
    /// Whether the node has a parent and no sibling: the one continuation
    /// of its parent. In constant time, unlike `child_count() == 1` on the
    /// parent, which walks every sibling.
    pub fn is_only_child(&self) -> bool {
        let d = self.data();
        d.parent != NONE && d.next_sibling == NONE && self.doc.nd(d.parent).first_child == self.id.0
    }
    /// The node and its siblings (the parent's children), main line first;
    /// a root alone.
    pub fn siblings(&self) -> Vec<Node<'d>> {
        match self.parent() {
            Some(p) => p.children().collect(),
            None => vec![*self],
        }
    }
    /// The position of the node among its siblings: 0 on the main line of its parent.
    pub fn variation_index(&self) -> usize {
        self.parent()
            .and_then(|p| p.children().position(|c| c.id == self.id))
            .unwrap_or(0)
    }
    /// The previous sibling.
    pub fn previous_sibling(&self) -> Option<Node<'d>> {
        let i = self.variation_index();
        (i > 0).then(|| self.siblings()[i - 1])
    }
    /// The nodes from the root to this node.
    pub fn path(&self) -> Vec<Node<'d>> {
        let mut v = vec![*self];
        let mut n = self.parent();
        while let Some(p) = n {
            v.push(p);
            n = p.parent();
        }
        v.reverse();
        v
    }
    /// The nodes from the root down to this node, as [`Node::path`] but
    /// holding only the variations taken on the way: walking down a main
    /// line of a million moves to its end costs no memory.
    pub fn descent(&self) -> Descent<'d> {
        let doc = self.doc;
        let mut turns = Vec::new();
        let mut n = self.id.0;
        loop {
            let p = doc.parent_of(n);
            if p == NONE {
                break;
            }
            if doc.nd(p).first_child != n {
                turns.push((p, n));
            }
            n = p;
        }
        Descent {
            doc,
            turns,
            next: n,
            target: self.id.0,
        }
    }
    /// Whether the node is on the main line of its game (every ancestor a first child).
    pub fn is_main_line(&self) -> bool {
        let doc = self.doc;
        let mut n = self.id.0;
        loop {
            let p = doc.parent_of(n);
            if p == NONE {
                return true;
            }
            if doc.nd(p).first_child != n {
                return false;
            }
            n = p;
        }
    }
    /// Whether the node stood after its parent's variations in the source.
    pub fn is_after_variations(&self) -> bool {
        self.data().flags & F_AFTER_VARIATIONS != 0
    }
    /// Whether the node opens a parenthesis of its own (`(;B[pd]` as the
    /// first node of a variation or game tree), as written in the input.
    pub fn opens_parenthesis(&self) -> bool {
        self.doc.parens_of(self.id.0).0 != NONE
    }
    /// Whether the node has no `;` in the source (a repaired missing semicolon).
    pub fn missing_semicolon(&self) -> bool {
        let d = self.data();
        d.semi == NONE && d.flags & F_SYNTHETIC == 0
    }
    /// Byte span of the node in the source: from its `;` (or first property)
    /// to the end of its last value. Empty for edited nodes.
    pub fn span(&self) -> Span {
        let d = self.data();
        let start = if d.semi != NONE {
            d.semi
        } else if let Some(p) = self.props().next() {
            p.span().start
        } else {
            let (open, _) = self.doc.parens_of(self.id.0);
            if open != NONE { open } else { 0 }
        };
        let end = self
            .props()
            .filter_map(|p| {
                let s = p.span();
                (s.end > 0).then_some(s.end)
            })
            .max()
            .unwrap_or(if d.semi != NONE { d.semi + 1 } else { start });
        Span::new(start, end.max(start))
    }
    /// The properties in file order (repeated identifiers appear repeatedly).
    pub fn props(&self) -> impl ExactSizeIterator<Item = Prop<'d>> + use<'d> {
        let doc = self.doc;
        let d = self.data();
        let node = self.id;
        (d.pstart..d.pstart + d.plen as u32).map(move |i| {
            work::add(1);
            Prop {
                doc,
                id: PropId(i),
                node,
            }
        })
    }
    /// The first property with FF\[4\] identifier `ident`.
    pub fn get(&self, ident: &str) -> Option<Prop<'d>> {
        let key = self.doc.find_key(ident)?;
        self.props().find(|p| p.data().key == key)
    }
    /// Whether a property is present.
    pub fn has(&self, ident: &str) -> bool {
        self.get(ident).is_some()
    }
    /// The registry ids present in the node, as a bit set (bit `id`); one
    /// pass over the properties, so checks can skip what is absent.
    pub fn known_set(&self) -> u128 {
        let mut set = 0u128;
        for p in self.props() {
            let k = p.data().key;
            if k < 128 {
                set |= 1u128 << k;
            }
        }
        set
    }

    /// The node's move when the node is nothing but one move written the
    /// plain way: a single `B` or `W` property with one two-letter
    /// lower-case value (`;B[pd]`). Most nodes of real games are that; the
    /// checks and repairs skip them quickly.
    #[inline]
    pub fn simple_move(&self) -> Option<(crate::Color, [u8; 2])> {
        let doc = self.doc;
        let slot = doc.slots.get(self.id.0);
        if slot & COMPACT != 0 {
            // `;B[pd]` at the slot's offset, checked when it was read; or
            // a pass, `;B[]`, not a two-letter point.
            let at = (slot & !COMPACT) as usize;
            if doc.src[at + 3] == b']' {
                return None;
            }
            let color = if doc.src[at + 1] == b'B' {
                crate::Color::Black
            } else {
                crate::Color::White
            };
            return Some((color, [doc.src[at + 3], doc.src[at + 4]]));
        }
        let d = doc.full[slot as usize];
        if d.plen != 1 {
            return None;
        }
        let p = doc.pd(d.pstart);
        if p.vlen != 1 {
            return None;
        }
        let color = if p.key == props::id::B {
            crate::Color::Black
        } else if p.key == props::id::W {
            crate::Color::White
        } else {
            return None;
        };
        let v = doc.vd(p.vstart);
        // A closed source value `[pd]` spans four bytes from its `[` (an
        // unclosed or edited one has the flag bit in `end` or `start`).
        let pair = if v.start & OWNED == 0 && v.end.wrapping_sub(v.start) == 4 {
            let at = v.start as usize + 1;
            match doc.src.get(at..at + 2) {
                Some(&[a, b]) => [a, b],
                _ => return None,
            }
        } else {
            doc.edited_pair(&v)?
        };
        let lower = |c: u8| c.wrapping_sub(b'a') < 26;
        (lower(pair[0]) & lower(pair[1])).then_some((color, pair))
    }

    /// Whether a known property is present (fast path by registry id).
    pub fn has_known(&self, id: KnownId) -> bool {
        self.props().any(|p| p.data().key == id)
    }
    /// The first property with a registry id.
    pub fn get_known(&self, id: KnownId) -> Option<Prop<'d>> {
        self.props().find(|p| p.data().key == id)
    }
    /// All values of `ident` in this node, repeated properties merged in order.
    pub fn values(&self, ident: &str) -> impl Iterator<Item = Value<'d>> + use<'d> {
        let key = self.doc.find_key(ident);
        let props = self.props();
        props
            .filter(move |p| Some(p.data().key) == key)
            .flat_map(|p| p.values())
    }
    /// The first value of `ident`, if any.
    pub fn value(&self, ident: &str) -> Option<Value<'d>> {
        self.values(ident).next()
    }
    /// The first value of `ident` as text with the rules of its type applied.
    pub fn text(&self, ident: &str) -> Option<Cow<'d, str>> {
        self.value(ident).map(|v| v.text())
    }
    /// Number of nodes in file order before this one within its game (node number, from 0).
    pub fn number(&self) -> usize {
        let root = self.doc.root_of(self.id);
        self.doc
            .preorder(root)
            .position(|n| n == self.id)
            .unwrap_or(0)
    }
    /// Depth from the root (root = 0).
    pub fn depth(&self) -> usize {
        let mut d = 0;
        let mut n = self.data().parent;
        while n != NONE {
            d += 1;
            n = self.doc.parent_of(n);
        }
        d
    }
}

/// The nodes from a game's root down to a node (see [`Node::descent`]).
pub struct Descent<'d> {
    doc: &'d Document,
    /// (parent, child) where the way leaves the main line, deepest first.
    turns: Vec<(u32, u32)>,
    /// The next node, NONE once past the target.
    next: u32,
    target: u32,
}

impl<'d> Iterator for Descent<'d> {
    type Item = Node<'d>;
    fn next(&mut self) -> Option<Node<'d>> {
        let n = self.next;
        if n == NONE {
            return None;
        }
        self.next = if n == self.target {
            NONE
        } else {
            match self.turns.last() {
                Some(&(p, c)) if p == n => {
                    self.turns.pop();
                    c
                }
                _ => self.doc.nd(n).first_child,
            }
        };
        Some(Node {
            doc: self.doc,
            id: NodeId(n),
        })
    }
}

/// A property of a node.
#[derive(Copy, Clone)]
pub struct Prop<'d> {
    doc: &'d Document,
    id: PropId,
    node: NodeId,
}

impl<'d> Prop<'d> {
    fn data(&self) -> PropData {
        self.doc.pd(self.id.0)
    }
    /// Its id.
    pub fn id(&self) -> PropId {
        self.id
    }
    /// The node it belongs to.
    pub fn node(&self) -> NodeId {
        self.node
    }
    /// The FF\[4\] identifier (lower-case letters of FF\[3\] files removed).
    pub fn ident(&self) -> &'d str {
        self.doc.key_ident(self.data().key)
    }
    /// The identifier as written.
    #[inline]
    pub fn raw_ident(&self) -> &'d [u8] {
        let d = self.data();
        if d.ident == NONE {
            self.ident().as_bytes()
        } else {
            &self.doc.src[d.ident as usize..d.ident as usize + d.ident_len as usize]
        }
    }
    /// The registry entry, for known properties.
    pub fn info(&self) -> Option<&'static PropInfo> {
        let k = self.data().key;
        (k < UNKNOWN_BASE).then(|| props::info(k))
    }
    /// The registry id, for known properties.
    pub fn known_id(&self) -> Option<KnownId> {
        let k = self.data().key;
        (k < UNKNOWN_BASE).then_some(k)
    }
    /// The value type (Unknown for unknown properties).
    pub fn value_type(&self) -> ValueType {
        self.info().map_or(ValueType::Unknown, |i| i.value)
    }
    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = Value<'d>> + use<'d> {
        let doc = self.doc;
        let d = self.data();
        let vt = self.value_type();
        let node = self.node;
        (d.vstart..d.vstart + d.vlen).map(move |i| {
            work::add(1);
            Value {
                doc,
                id: ValueId(i),
                vt,
                node,
            }
        })
    }
    /// Number of values.
    pub fn value_count(&self) -> usize {
        self.data().vlen as usize
    }
    /// The first value.
    pub fn first(&self) -> Option<Value<'d>> {
        self.values().next()
    }
    /// Span from the identifier to the end of the last value (empty when edited).
    pub fn span(&self) -> Span {
        let d = self.data();
        if d.ident == NONE {
            return Span::default();
        }
        let end = self
            .values()
            .last()
            .map(|v| v.span())
            .filter(|s| s.end > 0)
            .map_or(d.ident + d.ident_len as u32, |s| s.end);
        Span::new(d.ident, end)
    }
    /// Span of the identifier.
    pub fn ident_span(&self) -> Span {
        let d = self.data();
        if d.ident == NONE {
            Span::default()
        } else {
            Span::new(d.ident, d.ident + d.ident_len as u32)
        }
    }
}

/// A property value: raw bytes plus decoded views.
#[derive(Copy, Clone)]
pub struct Value<'d> {
    doc: &'d Document,
    id: ValueId,
    vt: ValueType,
    node: NodeId,
}

impl<'d> Value<'d> {
    fn data(&self) -> ValueData {
        self.doc.vd(self.id.0)
    }
    /// Its id.
    pub fn id(&self) -> ValueId {
        self.id
    }
    /// The bytes between the brackets, as written (escapes included).
    pub fn raw(&self) -> &'d [u8] {
        self.doc.raw_value(&self.data())
    }
    /// Whether the value is `[]` (or only white space).
    pub fn is_empty(&self) -> bool {
        self.raw().iter().all(|&b| crate::lexer::is_ws(b))
    }
    /// Whether the closing `]` is missing.
    pub fn is_unterminated(&self) -> bool {
        self.data().is_unterminated()
    }
    /// Span of `[…]` in the source (empty for edited values).
    pub fn span(&self) -> Span {
        let d = self.data();
        match d.open() {
            Some(open) => Span::new(open, d.end()),
            None => Span::default(),
        }
    }
    /// The encoding the value is decoded from.
    pub fn encoding(&self) -> &'static Encoding {
        self.doc.encoding_of(self.node)
    }
    /// The bytes between the brackets decoded in the value's charset,
    /// escapes as written: given back to [`Document::set_raw`], it makes
    /// the same bytes wherever the charset can encode them.
    pub fn raw_text(&self) -> Cow<'d, str> {
        let raw = self.raw();
        let enc = self.encoding();
        // A double-byte charset read without its rules (escapes first): a
        // `\` after a lead byte is an escape, not the character's second
        // byte. Decoding the bytes as written would join them into another
        // character than the one the value reads as; the text is then the
        // value as read, escaped again (`decoded` gives the same text).
        if crate::charset::Dbcs::of(enc).is_some()
            && self.doc.dbcs_of(self.node).is_none()
            && raw.windows(2).any(|w| w[0] >= 0x80 && w[1] == b'\\')
        {
            let mut out = Vec::with_capacity(raw.len() + 8);
            crate::text::encode_value(&mut out, self.vt, raw, enc, None);
            return Cow::Owned(String::from_utf8_lossy(&out).into_owned());
        }
        text::decode(Cow::Borrowed(raw), enc)
    }
    /// Escapes resolved, soft line breaks removed, decoded; white space as written.
    pub fn decoded(&self) -> Cow<'d, str> {
        text::decode(
            text::unescape(self.raw(), self.doc.dbcs_of(self.node)),
            self.encoding(),
        )
    }
    /// The value as Text (line breaks kept, other white space as spaces).
    pub fn as_text(&self) -> Cow<'d, str> {
        text::text_ws(self.decoded())
    }
    /// The value as SimpleText (all white space as spaces).
    pub fn as_simple_text(&self) -> Cow<'d, str> {
        text::simple_text_ws(self.decoded())
    }
    /// The value as text following its property's type (Text or SimpleText;
    /// SimpleText rules for other types).
    pub fn text(&self) -> Cow<'d, str> {
        match self.vt {
            ValueType::Text => self.as_text(),
            _ => self.as_simple_text(),
        }
    }
    /// Raw parts of a composed value, split at the first unescaped `:`.
    pub fn composed_raw(&self) -> Option<(&'d [u8], &'d [u8])> {
        let raw = self.raw();
        let rules = text::colon_rules(self.encoding(), self.doc.dbcs_of(self.node));
        text::find_colon(raw, rules).map(|i| (&raw[..i], &raw[i + 1..]))
    }
    /// Decoded parts of a composed value.
    pub fn composed(&self) -> Option<(Cow<'d, str>, Cow<'d, str>)> {
        let (a, b) = self.composed_raw()?;
        let enc = self.encoding();
        let dbcs = self.doc.dbcs_of(self.node);
        let dec = |r: &'d [u8]| text::simple_text_ws(text::decode(text::unescape(r, dbcs), enc));
        Some((dec(a), dec(b)))
    }
    /// As a Number.
    pub fn number(&self) -> Option<i64> {
        value::parse_number(self.raw())
    }
    /// As a Real.
    pub fn real(&self) -> Option<f64> {
        value::parse_real(self.raw())
    }
    /// As a Double (1 or 2).
    pub fn double(&self) -> Option<u8> {
        value::parse_double(self.raw())
    }
    /// As a Color.
    pub fn color(&self) -> Option<Color> {
        value::parse_color(self.raw())
    }
    /// As a point (`aa`); compressed rectangles give `None`, see [`Value::rect`].
    pub fn point(&self) -> Option<Point> {
        value::parse_point(self.raw())
    }
    /// As a compressed rectangle `ul:lr` (a single point gives a 1×1 rectangle).
    pub fn rect(&self) -> Option<(Point, Point)> {
        value::parse_rect(self.raw())
    }
}

#[cfg(test)]
mod tests {
    use crate::parse;

    #[test]
    fn navigation() {
        // Numbers in file order: root=0, a=1, b=2, c=3, d=4, e=5 (document 000's example shape).
        let doc = parse(b"(;GM[1];N[a](;N[b];N[c])(;N[d](;N[e])(;N[f])))").document;
        let g = doc.game(0).unwrap();
        let names: Vec<String> = g
            .nodes()
            .map(|n| n.text("N").map(|s| s.into_owned()).unwrap_or_default())
            .collect();
        assert_eq!(names, ["", "a", "b", "c", "d", "e", "f"]);
        let f = g.node_by_number(6).unwrap();
        assert_eq!(f.number(), 6);
        assert_eq!(f.variation_index(), 1);
        assert_eq!(f.previous_sibling().unwrap().text("N").unwrap(), "e");
        assert_eq!(f.siblings().len(), 2);
        assert_eq!(f.path().len(), 4);
        assert_eq!(f.depth(), 3);
        assert!(!f.is_main_line());
        assert!(g.node_by_number(3).unwrap().is_main_line());
        assert_eq!(g.main_line().count(), 4);
        assert_eq!(g.root().siblings().len(), 1);
    }
}
