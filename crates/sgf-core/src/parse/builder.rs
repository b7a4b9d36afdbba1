//! The tree builder: one pass over the bytes, nodes and properties into the document, syntax problems as diagnostics.

use super::*;
use crate::arena::{VIRTUAL, shrink_spare};
use crate::lexer::{Token, TokenKind};
use crate::work;

#[derive(Copy, Clone, Debug)]
pub(super) struct Frame {
    /// First node of this tree, NONE until its `;`.
    first: u32,
    /// Node the next node attaches to.
    last: u32,
    /// Last child appended to `last` (to link siblings without a walk).
    last_child: u32,
    /// Parent for the first node.
    parent: u32,
    /// `(` offset, NONE when missing.
    open: u32,
    /// An extra parenthesis that opens no tree.
    junk: bool,
    /// Index of the nearest frame below this one that is not junk, NONE
    /// when there is none: a run of junk frames is crossed in one step.
    /// (Only the top frame ever becomes junk, so this never goes stale.)
    real_below: u32,
    /// A child tree was closed: further nodes stand after variations.
    after_var: bool,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Start {
    Paren,
    ParenNoSemi,
    SemiOnly,
}

const _: () = assert!(PROPERTIES.len() <= 128, "duplicate tracking uses a u128");
pub(super) const MAX_SYNTAX_DIAGS: usize = 500;

/// Whether a registry entry's values are text (read leniently).
pub(super) static TEXT_KEY: [bool; 128] = {
    let mut t = [false; 128];
    let mut i = 0;
    while i < PROPERTIES.len() {
        t[i] = matches!(
            PROPERTIES[i].value,
            crate::props::ValueType::SimpleText
                | crate::props::ValueType::Text
                | crate::props::ValueType::ListOfPointText
                | crate::props::ValueType::TextText
                | crate::props::ValueType::Figure
        );
        i += 1;
    }
    t
};

pub(super) struct Builder<'a> {
    src: &'a [u8],
    pos: usize,
    doc: Document,
    diags: Vec<Diagnostic>,
    syntax_count: usize,
    opts: &'a ParseOptions,
    stack: Vec<Frame>,
    /// Byte ranges read charset-aware, with their double-byte family.
    dbcs_ranges: &'a [(usize, usize, Dbcs)],
    dbcs: Option<Dbcs>,
    cur: u32,
    /// For each registry key, the last node it appeared in (duplicate check).
    seen_at: [u32; 128],
    /// For each registry key, where its first property in the node of
    /// `seen_at` is (or would have been, when refused): the first
    /// occurrence a duplicate names, without a walk over the node.
    first_at: [u32; 128],
    /// The same for unknown keys (from `UNKNOWN_BASE`): (node, first property).
    seen_unknown: Vec<(u32, u32)>,
    stopped: bool,
    game_start: u32,
    /// `(` minus `)` outside values, computed when first needed.
    paren_balance: Option<i64>,
    /// Every node so far went in as the last child of a node on the path
    /// to the node before it: the arena is then in pre-order, game after
    /// game (see `Document::preorder`). Some recoveries break it.
    in_order: bool,
}

/// The number of `(` minus `)` outside values.
pub(super) fn paren_balance(src: &[u8], dbcs: Option<Dbcs>) -> i64 {
    let mut n = 0i64;
    let mut i = 0;
    while let Some(k) = memchr::memchr3(b'(', b')', b'[', &src[i..]) {
        let j = i + k;
        match src[j] {
            b'(' => n += 1,
            b')' => n -= 1,
            _ => {
                i = lexer::find_close(src, j + 1, dbcs).map_or(src.len(), |c| c + 1);
                continue;
            }
        }
        i = j + 1;
    }
    n
}

impl<'a> Builder<'a> {
    pub(super) fn run(
        src: Arc<[u8]>,
        opts: &ParseOptions,
        dbcs_ranges: &[(usize, usize, Dbcs)],
    ) -> (Document, Vec<Diagnostic>) {
        let bytes: &[u8] = &src;
        let mut doc = Document::empty(src.clone());
        let arenas = crate::doc::Arenas::take();
        doc.slots = arenas.slots;
        doc.full = arenas.nodes;
        doc.props = arenas.props;
        doc.values = arenas.values;
        // Exact upper bounds (semicolons and brackets inside text only
        // overestimate): growing these arrays would copy them.
        let semis = memchr::memchr_iter(b';', bytes).count();
        let brackets = memchr::memchr_iter(b'[', bytes).count();
        doc.slots.reserve(semis + 1);
        doc.full.reserve(semis + 1);
        doc.props.reserve(brackets);
        doc.values.reserve(brackets);
        let mut b = Builder {
            src: bytes,
            pos: 0,
            doc,
            diags: Vec::new(),
            syntax_count: 0,
            opts,
            stack: Vec::new(),
            dbcs_ranges,
            dbcs: None,
            cur: NONE,
            seen_at: [NONE; 128],
            first_at: [NONE; 128],
            seen_unknown: Vec::new(),
            stopped: false,
            game_start: 0,
            paren_balance: None,
            in_order: true,
        };
        b.collection();
        let Builder {
            mut doc,
            diags,
            in_order,
            ..
        } = b;
        // The text outside the trees belongs before the game that follows it.
        for o in &mut doc.outside {
            o.root = doc.games.get(o.root as usize).map_or(NONE, |g| g.root);
        }
        doc.parsed_nodes = doc.node_len() as u32;
        // The bounds reserved above count every `;` and `[`, and a long
        // line's compact nodes use no full record: what is left over is
        // given back (untouched, it was not resident, but it was address
        // space, and what `Document::heap_bytes` counts).
        doc.slots.shrink_spare();
        shrink_spare(&mut doc.full);
        shrink_spare(&mut doc.props);
        shrink_spare(&mut doc.values);
        if in_order {
            let n = doc.node_len() as u32;
            let ends = (0..doc.games.len())
                .map(|gi| doc.games.get(gi + 1).map_or(n, |g| g.root))
                .collect();
            doc.game_ends = Some(ends);
        }
        (doc, diags)
    }

    fn syntax(&mut self, code: Code, span: Span, msg: impl Into<String>) {
        // Stray text read as several pieces (`illegal_chars`) is one problem.
        if code == Code::StrayCharacters
            && let Some(last) = self.diags.last_mut()
            && last.code == Code::StrayCharacters
            && last.span.end <= span.start
            // (The gap's length first: at most one byte is then looked at.)
            && span.start - last.span.end <= 1
            && self.src[last.span.end as usize..span.start as usize]
                .iter()
                .all(|&b| lexer::is_ws(b))
        {
            last.span.end = span.end;
            last.message = format!(
                "unexpected `{}` outside a value is ignored",
                preview(&self.src[last.span.start as usize..span.end as usize])
            );
            return;
        }
        self.syntax_count += 1;
        if self.syntax_count < MAX_SYNTAX_DIAGS {
            self.diags.push(Diagnostic::new(code, span, msg));
        } else if self.syntax_count == MAX_SYNTAX_DIAGS {
            self.diags.push(Diagnostic::new(
                Code::TooManyDiagnostics,
                span,
                "too many syntax problems; further ones are not reported",
            ));
        }
    }

    #[inline]
    fn skip_ws(&mut self) {
        self.pos = lexer::skip_ws(self.src, self.pos);
    }

    fn collection(&mut self) {
        let src = self.src;
        let mut pos = 0usize;
        loop {
            if self.stopped {
                return;
            }
            let found = find_tree_start(src, pos);
            let junk_end = found.map_or(src.len(), |(p, _)| p);
            if src[pos..junk_end].iter().any(|&b| !lexer::is_ws(b)) {
                let s = pos
                    + src[pos..junk_end]
                        .iter()
                        .take_while(|&&b| lexer::is_ws(b))
                        .count();
                let span = Span::new(s as u32, junk_end as u32);
                // Kept (see `Document::outside_texts`), but for a UTF-8
                // byte-order mark, which is no text; `root` holds the
                // index of the next game until the games are known.
                let start = if s == 0 && src.starts_with(b"\xEF\xBB\xBF") {
                    3 + src[3..junk_end]
                        .iter()
                        .take_while(|&&b| lexer::is_ws(b))
                        .count()
                } else {
                    s
                };
                let end = junk_end
                    - src[start.min(junk_end)..junk_end]
                        .iter()
                        .rev()
                        .take_while(|&&b| lexer::is_ws(b))
                        .count();
                if start < end {
                    self.doc.outside.push(crate::doc::OutsideSpan {
                        start: start as u32,
                        end: end as u32,
                        root: self.doc.games.len() as u32,
                    });
                }
                if self.doc.games.is_empty() {
                    let (code, msg) = if found.is_some() {
                        (
                            Code::TextBeforeTree,
                            "text before the first game tree is ignored",
                        )
                    } else {
                        (Code::NoGameTree, "no SGF game tree found")
                    };
                    self.diags.push(Diagnostic::new(code, span, msg));
                    if let Some(at) = sgf_like(&src[s..junk_end]) {
                        let at = s + at;
                        let end = src[at..junk_end]
                            .iter()
                            .position(|&b| b == b'\n' || b == b'\r')
                            .map_or(junk_end, |e| at + e);
                        self.diags.push(Diagnostic::new(
                            Code::DataBeforeTree,
                            Span::new(at as u32, end as u32),
                            format!(
                                "possible SGF data before the first game tree: `{}`",
                                preview(&src[at..end])
                            ),
                        ));
                    }
                } else {
                    self.syntax(
                        Code::TextAfterTrees,
                        span,
                        "text outside any game tree is ignored",
                    );
                }
            } else if found.is_none() && self.doc.games.is_empty() {
                self.diags.push(Diagnostic::new(
                    Code::NoGameTree,
                    Span::new(0, 0),
                    "no SGF game tree found",
                ));
            }
            let Some((at, kind)) = found else { return };
            self.game_start = at as u32;
            // The ranges are sorted and apart (one a game): a binary
            // search, not a walk over them for each of a million games.
            let r = self.dbcs_ranges.partition_point(|r| r.0 <= at);
            self.dbcs = r
                .checked_sub(1)
                .map(|i| self.dbcs_ranges[i])
                .filter(|r| at < r.1)
                .map(|r| r.2);
            match kind {
                Start::Paren | Start::ParenNoSemi => {
                    self.pos = at + 1;
                    self.push_frame(at as u32);
                }
                Start::SemiOnly => {
                    self.pos = at;
                    self.syntax(
                        Code::MissingParen,
                        Span::new(at as u32, at as u32 + 1),
                        "a game tree must start with `(`; one is assumed",
                    );
                    self.stack.push(Frame {
                        first: NONE,
                        last: NONE,
                        last_child: NONE,
                        parent: NONE,
                        open: NONE,
                        junk: false,
                        real_below: NONE,
                        after_var: false,
                    });
                }
            }
            self.tree();
            pos = self.pos;
            if pos >= src.len() {
                return;
            }
        }
    }

    /// Index of the frame new trees and nodes attach to: the nearest real frame.
    fn real_frame(&self) -> Option<usize> {
        let top = self.stack.last()?;
        if !top.junk {
            return Some(self.stack.len() - 1);
        }
        (top.real_below != NONE).then_some(top.real_below as usize)
    }

    /// The nearest real frame below frame `fi` whose latest node is
    /// `parent` (the frame a new variation of `parent` is linked in).
    fn frame_with_last(&self, fi: usize, parent: u32) -> Option<usize> {
        let mut j = self.stack[fi].real_below;
        while j != NONE {
            work::add(1);
            let g = &self.stack[j as usize];
            if g.last == parent {
                return Some(j as usize);
            }
            j = g.real_below;
        }
        None
    }

    fn push_frame(&mut self, open: u32) {
        if self.stack.len() >= self.opts.max_depth {
            self.syntax(
                Code::LimitReached,
                Span::new(open, open + 1),
                format!("variations nest deeper than {}", self.opts.max_depth),
            );
            self.stopped = true;
            return;
        }
        let real = self.real_frame();
        let parent = match real {
            Some(i) if self.stack[i].last != NONE => self.stack[i].last,
            Some(i) => self.stack[i].parent,
            None => NONE,
        };
        self.stack.push(Frame {
            first: NONE,
            last: NONE,
            last_child: NONE,
            parent,
            open,
            junk: false,
            real_below: real.map_or(NONE, |i| i as u32),
            after_var: false,
        });
    }

    /// Reads one game tree (until its closing `)` or the end of the input).
    fn tree(&mut self) {
        let src = self.src;
        while !self.stopped {
            self.skip_ws();
            let pos = self.pos;
            let Some(tok) = lexer::token_at(src, pos, self.dbcs, false) else {
                break;
            };
            match tok.kind {
                TokenKind::Semi => {
                    self.pos = pos + 1;
                    self.node(pos as u32);
                    self.node_run();
                }
                TokenKind::Value => {
                    self.pos = tok.end as usize;
                    self.syntax(
                        Code::ValueWithoutProperty,
                        Span::new(tok.start, tok.end),
                        "a value without a property identifier is ignored",
                    );
                    if tok.flags & lexer::UNTERMINATED != 0 {
                        self.unterminated(pos);
                    }
                }
                TokenKind::LParen => {
                    self.pos = pos + 1;
                    self.lparen(pos as u32);
                }
                TokenKind::RParen => {
                    self.pos = pos + 1;
                    if self.rparen(pos as u32) {
                        return;
                    }
                }
                TokenKind::Ident => self.property(tok),
                TokenKind::Junk => self.junk(tok),
            }
        }
        if !self.stack.is_empty() && !self.stopped {
            let open = self.stack.iter().filter(|f| !f.junk).count();
            let first = self
                .stack
                .iter()
                .find(|f| f.open != NONE)
                .map_or(self.game_start, |f| f.open);
            self.syntax(
                Code::UnclosedTree,
                Span::new(first, first + 1),
                format!("{open} game tree(s) not closed at the end of the input"),
            );
        }
        self.stack.clear();
    }

    /// Handles `)`; returns true when the game tree is complete.
    fn rparen(&mut self, pos: u32) -> bool {
        let Some(f) = self.stack.pop() else {
            self.syntax(
                Code::UnmatchedParen,
                Span::new(pos, pos + 1),
                "`)` closes nothing",
            );
            return false;
        };
        if !f.junk {
            if f.first == NONE {
                self.syntax(
                    Code::EmptyVariation,
                    Span::new(f.open.min(pos), pos + 1),
                    "a variation without nodes is ignored",
                );
            } else {
                if let Ok(i) = self.doc.parens.binary_search_by_key(&f.first, |p| p.node) {
                    self.doc.parens[i].close = pos;
                }
                if let Some(i) = self.real_frame() {
                    let top = &mut self.stack[i];
                    top.after_var = true;
                    // The closed tree's first node is the latest child of `top.last`.
                    if self.doc.parent_of(f.first) == top.last {
                        top.last_child = f.first;
                    }
                }
            }
        }
        self.stack.is_empty()
    }

    fn lparen(&mut self, open: u32) {
        self.skip_ws();
        if self.src.get(self.pos) == Some(&b')') {
            let close = self.pos as u32;
            self.pos += 1;
            self.syntax(
                Code::EmptyVariation,
                Span::new(open, close + 1),
                "an empty variation `()` is ignored",
            );
            return;
        }
        if let Some(top) = self.stack.last()
            && !top.junk
            && top.first == NONE
        {
            // `((`: the outer parenthesis opens no tree of its own. When the
            // file has more `(` than `)`, it was a stray one and is dropped
            // (as SGFC does); otherwise its `)` comes too and is skipped then.
            let outer = top.open;
            let balance = *self
                .paren_balance
                .get_or_insert_with(|| paren_balance(self.src, self.dbcs));
            if balance > 0 {
                self.stack.pop();
            } else if let Some(top) = self.stack.last_mut() {
                top.junk = true;
            }
            let span = if outer == NONE {
                Span::new(open, open + 1)
            } else {
                Span::new(outer, outer + 1)
            };
            self.syntax(
                Code::NestedParen,
                span,
                "`(` must be followed by a node; the extra parenthesis is ignored",
            );
        }
        self.push_frame(open);
    }

    #[inline(always)]
    fn node(&mut self, semi: u32) {
        let id = self.doc.node_len() as u32;
        if let Some(f) = self.stack.last_mut()
            && !f.junk
            && f.first != NONE
            && !f.after_var
            && (id as usize) < self.opts.max_nodes
        {
            // The common case: the next node of a sequence. Its parent has
            // no child yet (a child tree would have set `after_var`).
            let parent = f.last;
            f.last = id;
            f.last_child = NONE;
            if parent + 1 != id || self.doc.nd(parent).first_child != NONE {
                self.order_check(parent, id, true);
            }
            self.doc.push_node(NodeData {
                parent,
                first_child: NONE,
                next_sibling: NONE,
                pstart: self.doc.props.len() as u32,
                semi,
                plen: 0,
                flags: 0,
            });
            self.doc.set_first_child(parent, id);
            self.cur = id;
            return;
        }
        self.node_slow(semi);
    }

    /// Keeps `in_order` true only while node `id` goes in as the last child
    /// (`last`: nothing is linked after it) of `parent`, an ancestor of the
    /// node before it (or that node itself). Each walk climbs a finished
    /// branch that no later walk climbs again: linear over a whole file.
    #[cold]
    fn order_check(&mut self, parent: u32, id: u32, last: bool) {
        if !self.in_order {
            return;
        }
        let mut a = id.checked_sub(1).unwrap_or(NONE);
        while a != NONE && a != parent {
            a = self.doc.parent_of(a);
        }
        self.in_order = last && a == parent;
    }

    fn node_slow(&mut self, semi: u32) {
        if self.doc.node_len() >= self.opts.max_nodes {
            let p = if semi == NONE { self.pos as u32 } else { semi };
            self.syntax(
                Code::LimitReached,
                Span::new(p, p),
                format!(
                    "more than {} nodes; the rest is not read",
                    self.opts.max_nodes
                ),
            );
            self.stopped = true;
            return;
        }
        let id = self.doc.node_len() as u32;
        let top = self.stack.len() - 1;
        let fi = self.real_frame().unwrap_or(top);
        let in_junk = fi != top || self.stack[fi].junk;
        let f = self.stack[fi];
        let mut nd = NodeData::new(NONE);
        nd.semi = semi;
        nd.pstart = self.doc.props.len() as u32;
        let first_of_frame = f.first == NONE && !f.junk;
        if first_of_frame {
            nd.parent = f.parent;
            nd.flags |= F_PARENS;
            self.doc.parens.push(Parens {
                node: id,
                open: f.open,
                close: NONE,
            });
        } else {
            nd.parent = f.last;
            if f.after_var || in_junk {
                nd.flags |= F_AFTER_VARIATIONS;
                let at = if semi == NONE { self.pos as u32 } else { semi };
                self.syntax(
                    Code::NodeAfterVariations,
                    Span::new(at, at + u32::from(semi != NONE)),
                    "a node after the variations of its parent; read as one more variation",
                );
            }
        }
        let parent = nd.parent;
        self.doc.push_node(nd);
        if parent == NONE {
            self.doc.games.push(GameData {
                root: id,
                encoding: WINDOWS_1252,
                display: WINDOWS_1252,
                source: CharsetSource::Default,
                start: self.game_start,
                dbcs: self.dbcs,
                undecodable: false,
            });
        } else {
            // Link after the parent's last child: the frame below knows it
            // for variations; an inline node is the first child.
            let below = if first_of_frame {
                self.frame_with_last(fi, parent)
            } else {
                None
            };
            let prev = if first_of_frame {
                below.map_or(NONE, |g| self.stack[g].last_child)
            } else {
                f.last_child
            };
            let first = prev == NONE || self.doc.nd(parent).first_child == NONE;
            let free = if first {
                self.doc.nd(parent).first_child == NONE
            } else {
                self.doc.nd(prev).next_sibling == NONE
            };
            self.order_check(parent, id, free);
            if first {
                self.doc.set_first_child(parent, id);
            } else {
                self.doc.full_mut(prev).next_sibling = id;
            }
            if let Some(g) = below {
                self.stack[g].last_child = id;
            }
        }
        let f = &mut self.stack[fi];
        if first_of_frame {
            f.first = id;
        }
        f.last = id;
        f.last_child = NONE;
        f.after_var = false;
        self.cur = id;
    }

    /// The properties of the node just started, then, while the next
    /// thing is another `;` of the same plain sequence, the nodes that
    /// follow: most of a game is such a run. The hot state stays in locals;
    /// anything out of the ordinary is left to the general loop.
    fn node_run(&mut self) {
        // A node refused at the node limit: its properties are not read
        // either (they would go to the node before it).
        if self.stopped {
            return;
        }
        let src = self.src;
        let max_nodes = self.opts.max_nodes;
        let mut pos = self.pos;
        let mut cur = self.cur;
        // Only a node that is the latest of a real top frame is continued here
        // (the frame's `first`/`after_var` are then as `node` would leave them).
        let plain = self
            .stack
            .last()
            .is_some_and(|f| !f.junk && f.last == cur && f.first != NONE && !f.after_var);
        let stop = if self.dbcs.is_some() {
            &lexer::VALUE_STOP_DBCS
        } else {
            &lexer::VALUE_STOP
        };
        let doc = &mut self.doc;
        let seen_at = &mut self.seen_at;
        let first_at = &mut self.first_at;
        // Whether `cur` is compact (it then takes nothing more here).
        let mut cur_compact = cur != NONE && doc.is_compact(cur);
        'nodes: loop {
            // The most common node of all, a move alone (`;B[pd]`) followed
            // by `;`, `(` or `)`, or by a line break and one of them: what
            // `fast_props` would make, without its general tests.
            if plain && let Some((black, end, after)) = lexer::lone_move(src, pos) {
                let key = if black { props::id::B } else { props::id::W } as Key;
                seen_at[key as usize] = cur;
                first_at[key as usize] = doc.props.len() as u32;
                let vstart = doc.values.len() as u32;
                doc.values
                    .push(ValueData::source(pos as u32 + 1, end as u32, true));
                doc.props.push(PropData {
                    ident: pos as u32,
                    vstart,
                    vlen: 1,
                    key,
                    ident_len: 1,
                });
                doc.full_mut(cur).plen += 1;
                pos = after;
            } else {
                let before = doc.props.len();
                pos = fast_props(src, pos, cur, doc, seen_at, first_at, stop);
                // A node gets at most one of each of the 128 known properties
                // here, right after its `;`: far from `MAX_PROPS_PER_NODE`.
                let added = doc.props.len() - before;
                if added > 0 {
                    doc.full_mut(cur).plen += added as u16;
                }
                if !plain {
                    break;
                }
                pos = lexer::skip_ws(src, pos);
            }
            // The nodes that follow. A move alone that continues the line
            // takes a compact slot and nothing else (see the node store in
            // `arena.rs`).
            loop {
                if src.get(pos) != Some(&b';') {
                    break 'nodes;
                }
                let id = doc.node_len();
                if id >= max_nodes {
                    break 'nodes;
                }
                if cur as usize + 1 == id
                    && Document::compact_fits(pos)
                    && let Some((black, _, after)) = lexer::lone_move(src, pos + 1)
                {
                    let id = doc.push_compact(pos as u32);
                    // A compact node's first child is the node after it.
                    if !cur_compact {
                        doc.full_mut(cur).first_child = id;
                    }
                    cur_compact = true;
                    let key = if black { props::id::B } else { props::id::W } as Key;
                    seen_at[key as usize] = id;
                    first_at[key as usize] = VIRTUAL | id;
                    cur = id;
                    pos = after;
                    continue;
                }
                let id = doc.push_node(NodeData {
                    parent: cur,
                    first_child: NONE,
                    next_sibling: NONE,
                    pstart: doc.props.len() as u32,
                    semi: pos as u32,
                    plen: 0,
                    flags: 0,
                });
                if !cur_compact {
                    doc.full_mut(cur).first_child = id;
                }
                cur_compact = false;
                cur = id;
                pos += 1;
                break;
            }
        }
        self.pos = pos;
        if cur != self.cur {
            self.cur = cur;
            if let Some(f) = self.stack.last_mut() {
                f.last = cur;
            }
        }
    }

    /// An identifier (the token `ident`, at `self.pos`) and its values.
    fn property(&mut self, ident: Token) {
        let src = self.src;
        let (start, end) = (ident.start as usize, ident.end as usize);
        let lower = ident.flags & lexer::LOWERCASE != 0;
        self.pos = end;
        let top = self.stack[self.stack.len() - 1];
        // Inside a parenthesis read as junk, a node started there by `;`
        // (the latest node of the real frame below) takes the properties,
        // as `fast_props` gives them to it.
        let needs_node = if top.junk {
            self.real_frame().is_none_or(|i| {
                let f = &self.stack[i];
                f.first == NONE || f.after_var || f.last != self.cur
            })
        } else {
            top.first == NONE || top.after_var
        };
        if needs_node {
            self.syntax(
                Code::MissingSemicolon,
                Span::new(start as u32, start as u32),
                "properties without a node start `;`; one is assumed",
            );
            self.node(NONE);
            if self.stopped {
                return;
            }
        }
        let raw = &src[start..end];
        let span = Span::new(start as u32, end as u32);
        let key: Option<Key> = if !lower {
            match props::lookup(raw) {
                Some(k) => Some(k),
                None if raw.len() <= u16::MAX as usize => {
                    self.doc.key_for(std::str::from_utf8(raw).unwrap_or("?"))
                }
                None => None,
            }
        } else {
            let stripped: Vec<u8> = raw
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_lowercase())
                .collect();
            if stripped.first().is_some_and(u8::is_ascii_uppercase)
                && raw.len() <= u16::MAX as usize
            {
                self.doc
                    .key_for(std::str::from_utf8(&stripped).unwrap_or("?"))
            } else {
                None
            }
        };

        // A node read compact takes more properties (after a parenthesis
        // read as junk): its move becomes records of its own first.
        if self.cur != NONE && self.doc.is_compact(self.cur) {
            let pstart = self.doc.own_props(self.cur).pstart;
            for f in &mut self.first_at {
                if *f == VIRTUAL | self.cur {
                    *f = pstart;
                }
            }
        }
        // Values.
        let lenient = self.opts.lenient_brackets
            && key.is_some_and(|k| (k as usize) < 128 && TEXT_KEY[k as usize]);
        let vstart = self.doc.values.len() as u32;
        loop {
            self.skip_ws();
            if src.get(self.pos) != Some(&b'[') {
                break;
            }
            let open = self.pos;
            let (vend, flags) = lexer::scan_value(src, open + 1, self.dbcs, lenient);
            self.pos = vend;
            if flags != 0 {
                if flags & lexer::INNER_BRACKET != 0 {
                    self.syntax(
                        Code::StrayCharacters,
                        Span::new(open as u32, vend as u32),
                        "an unescaped `]` inside the value was read as text",
                    );
                }
                if flags & lexer::UNTERMINATED != 0 {
                    self.unterminated(open);
                }
            }
            self.doc.values.push(ValueData::source(
                open as u32,
                vend as u32,
                flags & lexer::UNTERMINATED == 0,
            ));
        }
        let vlen = self.doc.values.len() as u32 - vstart;
        let Some(key) = key else {
            self.doc.values.truncate(vstart as usize);
            let msg = if vlen == 0 {
                format!("`{}` is not SGF", preview(raw))
            } else {
                format!(
                    "`{}` is not a property identifier (an upper-case letter must come first); its values are ignored",
                    preview(raw)
                )
            };
            let code = if vlen == 0 {
                Code::StrayCharacters
            } else {
                Code::ValueWithoutProperty
            };
            self.syntax(code, span, msg);
            return;
        };
        if vlen == 0 {
            self.syntax(
                Code::PropertyWithoutValue,
                span,
                format!("property `{}` has no value and is ignored", preview(raw)),
            );
            return;
        }
        if lower {
            self.diags.push(Diagnostic::new(
                Code::LowercaseIdentifier,
                span,
                format!(
                    "lower-case letters in `{}` are ignored: read as `{}`",
                    preview(raw),
                    self.doc.key_ident(key)
                ),
            ));
        }
        if raw.len() > 100 {
            self.diags.push(Diagnostic::new(
                Code::IdentifierTooLong,
                span,
                format!("property identifier of {} characters", raw.len()),
            ));
        }
        // Repeated identifiers in a node.
        let dup = if key < 128 {
            let d = self.seen_at[key as usize] == self.cur;
            if !d {
                self.seen_at[key as usize] = self.cur;
                self.first_at[key as usize] = self.doc.props.len() as u32;
            }
            d
        } else {
            let i = usize::from(key - UNKNOWN_BASE);
            if self.seen_unknown.len() <= i {
                self.seen_unknown.resize(i + 1, (NONE, NONE));
            }
            let seen = &mut self.seen_unknown[i];
            let d = seen.0 == self.cur;
            if !d {
                *seen = (self.cur, self.doc.props.len() as u32);
            }
            d
        };
        if dup {
            self.duplicate(key, span);
        }
        if self.doc.nd(self.cur).plen == MAX_PROPS_PER_NODE {
            self.doc.values.truncate(vstart as usize);
            self.syntax(
                Code::LimitReached,
                span,
                format!(
                    "more than {MAX_PROPS_PER_NODE} properties in one node; this one is ignored"
                ),
            );
            return;
        }
        self.doc.props.push(PropData {
            ident: start as u32,
            vstart,
            vlen,
            key,
            ident_len: (end - start) as u16,
        });
        self.doc.full_mut(self.cur).plen += 1;
    }

    #[cold]
    fn duplicate(&mut self, key: Key, span: Span) {
        let nd = self.doc.nd(self.cur);
        let at = if key < 128 {
            self.first_at[key as usize]
        } else {
            self.seen_unknown[usize::from(key - UNKNOWN_BASE)].1
        };
        // Where the first occurrence went: not there when it was refused.
        let first = (nd.pstart..nd.pstart + nd.plen as u32)
            .contains(&at)
            .then_some(at)
            .map(|i| {
                let p = self.doc.pd(i);
                Span::new(p.ident, p.ident + p.ident_len as u32)
            });
        let mut d = Diagnostic::new(
            Code::DuplicateProperty,
            span,
            format!(
                "`{}` appears more than once in this node; the values are merged",
                self.doc.key_ident(key)
            ),
        );
        if let Some(f) = first {
            d = d.with_related(f, "first occurrence");
        }
        self.diags.push(d);
    }

    #[cold]
    fn unterminated(&mut self, open: usize) {
        self.syntax(
            Code::UnclosedValue,
            Span::new(open as u32, open as u32 + 1),
            "value not closed with `]` before the end of the input",
        );
    }

    /// A run of bytes that are not SGF (the token `junk`, at `self.pos`),
    /// coalesced across white space with the junk that follows.
    #[cold]
    fn junk(&mut self, junk: Token) {
        let src = self.src;
        let start = self.pos;
        let mut end = junk.end as usize;
        loop {
            let next = lexer::skip_ws(src, end);
            match src.get(next) {
                Some(&c) if lexer::is_junk(c) => end = lexer::scan_junk(src, next).0,
                _ => break,
            }
        }
        self.pos = end.max(start + 1);
        self.syntax(
            Code::StrayCharacters,
            Span::new(start as u32, self.pos as u32),
            format!(
                "unexpected `{}` outside a value is ignored",
                preview(&src[start..self.pos])
            ),
        );
    }
}

/// The common shape `XY[ab]XY[cd]…` at `pos` in node `cur`: known one- or
/// two-letter identifiers of non-text properties, short values without
/// escapes (`stop`: the bytes that end the quick scan of a value). Returns
/// where it stopped; anything else is left to [`Builder::property`]. The
/// caller counts the properties into the node.
#[inline(always)]
fn fast_props(
    src: &[u8],
    mut pos: usize,
    cur: u32,
    doc: &mut Document,
    seen_at: &mut [u32; 128],
    first_at: &mut [u32; 128],
    stop: &[bool; 256],
) -> usize {
    while let Some((a, b, open)) = lexer::short_ident(src, pos) {
        let k = props::SHORT[a][b];
        if k == props::NO || TEXT_KEY[k as usize] || seen_at[k as usize] == cur {
            break;
        }
        let key = k as Key;
        // A list of values (`AB[aa][bb]`) is left to the general path.
        let Some((i, next)) = lexer::short_value(src, open, stop) else {
            break;
        };
        seen_at[key as usize] = cur;
        first_at[key as usize] = doc.props.len() as u32;
        let vstart = doc.values.len() as u32;
        doc.values
            .push(ValueData::source(open as u32, i as u32 + 1, true));
        doc.props.push(PropData {
            ident: pos as u32,
            vstart,
            vlen: 1,
            key,
            ident_len: (open - pos) as u16,
        });
        // White space between properties means nothing: skipped once here.
        pos = next;
    }
    pos
}
