//! The parser: bytes in, a [`Document`] and diagnostics out. Never fails,
//! never panics, never recurses on input depth.

use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use crate::charset::{self, CharsetSource, Dbcs, Why};
use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::doc::{
    Document, F_AFTER_VARIATIONS, F_PARENS, GameData, Key, MAX_PROPS_PER_NODE, NONE, NodeData,
    NodeId, Parens, PropData, ValueData,
};
use crate::lexer;
use crate::props::{self, PROPERTIES};

/// Options for [`parse_with`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Read every game in this charset, ignoring `CA` and detection.
    pub charset: Option<&'static Encoding>,
    /// Inputs larger than this are cut (with a diagnostic). At most 2 GiB − 2.
    pub max_bytes: usize,
    /// Stop after this many nodes.
    pub max_nodes: usize,
    /// Stop when variations nest deeper than this.
    pub max_depth: usize,
    /// Read an unescaped `]` inside a text value as text when plain text
    /// follows it (see [`lexer::Lexer::next_lenient`]).
    pub lenient_brackets: bool,
    /// Try reading double-byte charsets with unescaped trail bytes.
    pub dbcs_detection: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            charset: None,
            max_bytes: 1 << 30,
            max_nodes: usize::MAX,
            max_depth: usize::MAX,
            lenient_brackets: true,
            dbcs_detection: true,
        }
    }
}

/// The result of parsing: always a document, plus what was wrong.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The best tree that could be read.
    pub document: Document,
    /// Problems, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The document, or the first error-severity diagnostic.
    ///
    /// # Errors
    /// When any diagnostic has error severity.
    pub fn strict(self) -> Result<Document, Diagnostic> {
        match self
            .diagnostics
            .into_iter()
            .find(|d| d.severity == Severity::Error)
        {
            Some(d) => Err(d),
            None => Ok(self.document),
        }
    }
}

/// Parses SGF bytes with default options.
///
/// ```
/// let parsed = sgf_core::parse(b"(;GM[1]SZ[9];B[ee];W[gc])");
/// assert!(parsed.diagnostics.is_empty());
/// let game = parsed.document.game(0).unwrap();
/// assert_eq!(game.main_line().count(), 3);
/// ```
pub fn parse(input: &[u8]) -> Parsed {
    parse_with(input, &ParseOptions::default())
}

/// Parses text that is already Unicode (pasted, from a browser): `CA` is ignored.
pub fn parse_str(input: &str) -> Parsed {
    let opts = ParseOptions {
        charset: Some(UTF_8),
        ..ParseOptions::default()
    };
    parse_with(input.as_bytes(), &opts)
}

/// Parses SGF bytes.
pub fn parse_with(input: &[u8], opts: &ParseOptions) -> Parsed {
    let mut pre = Vec::new();
    let limit = opts.max_bytes.min((u32::MAX - 2) as usize >> 1);
    let mut input = input;
    if input.len() > limit {
        pre.push(Diagnostic::new(
            Code::LimitReached,
            Span::new(limit as u32, limit as u32),
            format!("input larger than {limit} bytes; the rest is not read"),
        ));
        input = &input[..limit];
    }

    // UTF-16 is not ASCII-compatible: transcode first.
    let mut transcoded = None;
    let mut utf32 = false;
    let src: Arc<[u8]> = match charset::sniff_utf32(input) {
        // UTF-32 (with its BOM) the same way; recorded as the UTF-16 of the
        // same byte order, with `utf32` set.
        Some(big) if opts.charset.is_none() => {
            let (text, bad) = charset::decode_utf32(&input[4..], big);
            let name = if big { "UTF-32BE" } else { "UTF-32LE" };
            pre.push(Diagnostic::new(
                Code::Utf16,
                Span::new(0, 0),
                format!("the file is {name}; read after transcoding"),
            ));
            if bad > 0 {
                pre.push(Diagnostic::new(
                    Code::InvalidBytes,
                    Span::new(0, 0),
                    format!("{bad} invalid {name} unit(s); shown as U+FFFD"),
                ));
            }
            let enc = if big {
                encoding_rs::UTF_16BE
            } else {
                encoding_rs::UTF_16LE
            };
            transcoded = Some((enc, 4));
            utf32 = true;
            Arc::from(text.as_bytes())
        }
        _ => match charset::sniff_utf16(input) {
            Some((enc, bom)) if opts.charset.is_none() || opts.charset == Some(enc) => {
                let (text, _) = enc.decode_without_bom_handling(&input[bom..]);
                pre.push(Diagnostic::new(
                    Code::Utf16,
                    Span::new(0, 0),
                    format!("the file is {}; read after transcoding", enc.name()),
                ));
                transcoded = Some((enc, bom));
                Arc::from(text.as_bytes())
            }
            _ => Arc::from(input),
        },
    };

    if src.iter().all(|&b| lexer::is_ws(b)) {
        let mut doc = Document::empty(src);
        if transcoded.is_some() {
            doc.original = Some(Arc::from(input));
            doc.transcoded_from = transcoded;
            doc.utf32 = utf32;
        }
        pre.push(Diagnostic::new(
            Code::EmptyInput,
            Span::new(0, 0),
            "the input is empty",
        ));
        return Parsed {
            document: doc,
            diagnostics: pre,
        };
    }

    let (mut doc, mut diags) = Builder::run(src.clone(), opts, &[]);
    resolve_charsets(&mut doc, &mut diags, opts, transcoded);

    if opts.dbcs_detection && opts.charset.is_none() {
        let ranges = suspicious_dbcs(&doc);
        if !ranges.is_empty() {
            let plain: Vec<(usize, usize, Dbcs)> = ranges.iter().map(|r| (r.0, r.1, r.2)).collect();
            let (mut doc2, mut diags2) = Builder::run(src.clone(), opts, &plain);
            resolve_charsets(&mut doc2, &mut diags2, opts, transcoded);
            // Decided per game: a collection joins games from different
            // sources, some escaped correctly and some not.
            let r1 = rate(&doc, &diags, &ranges);
            let r2 = rate(&doc2, &diags2, &ranges);
            let aware: Vec<bool> = r1
                .iter()
                .zip(&r2)
                .map(|(a, b)| {
                    b.errors < a.errors
                        || (b.errors == a.errors
                            // The declaration means the charset-aware
                            // reading; without one, the more plausible text.
                            && (a.declared || b.plausible > a.plausible))
                })
                .collect();
            let chosen: Vec<(usize, usize, Dbcs, usize)> = ranges
                .iter()
                .zip(&aware)
                .filter(|x| *x.1)
                .map(|x| *x.0)
                .collect();
            if !chosen.is_empty() {
                if chosen.len() < ranges.len() {
                    let plain: Vec<(usize, usize, Dbcs)> =
                        chosen.iter().map(|r| (r.0, r.1, r.2)).collect();
                    (doc2, diags2) = Builder::run(src.clone(), opts, &plain);
                    resolve_charsets(&mut doc2, &mut diags2, opts, transcoded);
                }
                for &(_, _, d, at) in &chosen {
                    diags2.push(Diagnostic::new(
                        Code::UnescapedTrailBytes,
                        Span::new(at as u32, at as u32 + 2),
                        format!(
                            "{} {}; the game was read charset-aware",
                            d.name(),
                            d.clash()
                        ),
                    ));
                }
                doc = doc2;
                diags = diags2;
            }
        }
    }

    if let Some(first_nul) = memchr::memchr(0, &doc.src) {
        let count = bytecount_nul(&doc.src);
        diags.push(Diagnostic::new(
            Code::NulByte,
            Span::new(first_nul as u32, first_nul as u32 + 1),
            format!("{count} NUL byte(s) in the input"),
        ));
    }

    if let Some((enc, bom)) = transcoded {
        doc.original = Some(Arc::from(input));
        doc.transcoded_from = Some((enc, bom));
        doc.utf32 = utf32;
    }

    lowercase_severity(&doc, &mut diags);
    pre.append(&mut diags);
    pre.sort_by_key(|d| (d.span.start, d.span.end));
    Parsed {
        document: doc,
        diagnostics: pre,
    }
}

fn bytecount_nul(b: &[u8]) -> usize {
    memchr::memchr_iter(0, b).count()
}

#[derive(Copy, Clone, Debug)]
struct Frame {
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
    /// A child tree was closed: further nodes stand after variations.
    after_var: bool,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Start {
    Paren,
    ParenNoSemi,
    SemiOnly,
}

const _: () = assert!(PROPERTIES.len() <= 128, "duplicate tracking uses a u128");
const MAX_SYNTAX_DIAGS: usize = 500;

/// Whether a registry entry's values are text (read leniently).
static TEXT_KEY: [bool; 128] = {
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

/// Bytes that end the fast scan of a value: `]`, `\\`, `[`.
static VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b']' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'[' as usize] = true;
    t
};

struct Builder<'a> {
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
    seen_unknown: Vec<Key>,
    stopped: bool,
    game_start: u32,
    /// `(` minus `)` outside values, computed when first needed.
    paren_balance: Option<i64>,
}

/// The number of `(` minus `)` outside values.
fn paren_balance(src: &[u8], dbcs: Option<Dbcs>) -> i64 {
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
    fn run(
        src: Arc<[u8]>,
        opts: &ParseOptions,
        dbcs_ranges: &[(usize, usize, Dbcs)],
    ) -> (Document, Vec<Diagnostic>) {
        let bytes: &[u8] = &src;
        let mut doc = Document::empty(src.clone());
        let arenas = crate::doc::Arenas::take();
        doc.nodes = arenas.nodes;
        doc.props = arenas.props;
        doc.values = arenas.values;
        // Exact upper bounds (semicolons and brackets inside text only
        // overestimate): growing these arrays would copy them.
        let semis = memchr::memchr_iter(b';', bytes).count();
        let brackets = memchr::memchr_iter(b'[', bytes).count();
        doc.nodes.reserve(semis + 1);
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
            seen_unknown: Vec::new(),
            stopped: false,
            game_start: 0,
            paren_balance: None,
        };
        b.collection();
        let Builder { mut doc, diags, .. } = b;
        doc.parsed_nodes = doc.nodes.len() as u32;
        (doc, diags)
    }

    fn syntax(&mut self, code: Code, span: Span, msg: impl Into<String>) {
        // Stray text read as several pieces (`illegal_chars`) is one problem.
        if code == Code::StrayCharacters
            && let Some(last) = self.diags.last_mut()
            && last.code == Code::StrayCharacters
            && last.span.end <= span.start
            && self.src[last.span.end as usize..span.start as usize]
                .iter()
                .all(|&b| lexer::is_ws(b))
            && span.start - last.span.end <= 1
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
        let src = self.src;
        let mut p = self.pos;
        while p < src.len() && lexer::is_ws(src[p]) {
            p += 1;
        }
        self.pos = p;
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
            self.dbcs = self
                .dbcs_ranges
                .iter()
                .find(|r| r.0 <= at && at < r.1)
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
        self.stack.iter().rposition(|f| !f.junk)
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
        let parent = match self.real_frame() {
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
            after_var: false,
        });
    }

    /// Reads one game tree (until its closing `)` or the end of the input).
    fn tree(&mut self) {
        let src = self.src;
        while !self.stopped {
            self.skip_ws();
            let pos = self.pos;
            let Some(&b) = src.get(pos) else { break };
            match b {
                b';' => {
                    self.pos = pos + 1;
                    self.node(pos as u32);
                    self.fast_props();
                }
                b'[' => {
                    let (end, flags) = lexer::scan_value(src, pos + 1, self.dbcs, false);
                    self.pos = end;
                    self.syntax(
                        Code::ValueWithoutProperty,
                        Span::new(pos as u32, end as u32),
                        "a value without a property identifier is ignored",
                    );
                    if flags & lexer::UNTERMINATED != 0 {
                        self.unterminated(pos);
                    }
                }
                b'(' => {
                    self.pos = pos + 1;
                    self.lparen(pos as u32);
                }
                b')' => {
                    self.pos = pos + 1;
                    if self.rparen(pos as u32) {
                        return;
                    }
                }
                b'A'..=b'Z' | b'a'..=b'z' => self.property(),
                _ => self.junk(),
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
                    if self.doc.nodes[f.first as usize].parent == top.last {
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
        let id = self.doc.nodes.len() as u32;
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
            self.doc.nodes.push(NodeData {
                parent,
                first_child: NONE,
                next_sibling: NONE,
                pstart: self.doc.props.len() as u32,
                semi,
                plen: 0,
                flags: 0,
            });
            self.doc.nodes[parent as usize].first_child = id;
            self.cur = id;
            if !self.seen_unknown.is_empty() {
                self.seen_unknown.clear();
            }
            return;
        }
        self.node_slow(semi);
    }

    fn node_slow(&mut self, semi: u32) {
        if self.doc.nodes.len() >= self.opts.max_nodes {
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
        let id = self.doc.nodes.len() as u32;
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
        self.doc.nodes.push(nd);
        if parent == NONE {
            self.doc.games.push(GameData {
                root: id,
                encoding: WINDOWS_1252,
                display: WINDOWS_1252,
                source: CharsetSource::Default,
                start: self.game_start,
                dbcs: self.dbcs,
            });
        } else {
            // Link after the parent's last child: the frame below knows it
            // for variations; an inline node is the first child.
            let prev = if first_of_frame {
                self.stack[..fi]
                    .iter()
                    .rev()
                    .find(|g| !g.junk && g.last == parent)
                    .map_or(NONE, |g| g.last_child)
            } else {
                f.last_child
            };
            if prev == NONE || self.doc.nodes[parent as usize].first_child == NONE {
                self.doc.nodes[parent as usize].first_child = id;
            } else {
                self.doc.nodes[prev as usize].next_sibling = id;
            }
            if first_of_frame
                && let Some(g) = self.stack[..fi]
                    .iter_mut()
                    .rev()
                    .find(|g| !g.junk && g.last == parent)
            {
                g.last_child = id;
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
        self.seen_unknown.clear();
    }

    /// The common shape `XY[ab]XY[cd]…` directly after a `;`: known one- or
    /// two-letter identifiers of non-text properties, short values without
    /// escapes, no white space. Anything else is left to [`Builder::property`].
    #[inline]
    fn fast_props(&mut self) {
        let src = self.src;
        let mut pos = self.pos;
        // Room for the longest shape handled here, so indexing stays in bounds.
        while pos + 24 <= src.len() {
            let a = src[pos].wrapping_sub(b'A');
            if a >= 26 {
                break;
            }
            let b = src[pos + 1];
            let (k, open) = if b == b'[' {
                (props::SHORT[a as usize][26], pos + 1)
            } else if b.wrapping_sub(b'A') < 26 && src[pos + 2] == b'[' {
                (props::SHORT[a as usize][(b - b'A') as usize], pos + 2)
            } else {
                break;
            };
            if k == props::NO || TEXT_KEY[k as usize] || self.seen_at[k as usize] == self.cur {
                break;
            }
            let key = k as Key;
            // The value: up to 16 bytes, no escape, no bracket. Moves (two
            // letters) first.
            let mut i = open + 1;
            let limit = open + 18;
            if src[open + 3] == b']'
                && !VALUE_STOP[src[open + 1] as usize]
                && !VALUE_STOP[src[open + 2] as usize]
            {
                i = open + 3;
            } else {
                while i < limit && !VALUE_STOP[src[i] as usize] {
                    i += 1;
                }
            }
            // A list of values (`AB[aa][bb]`, also across white space) is
            // left to the general path.
            if i == limit || src[i] != b']' || src[i + 1] == b'[' {
                break;
            }
            if lexer::is_ws(src[i + 1]) {
                let mut j = i + 1;
                while j < src.len() && lexer::is_ws(src[j]) {
                    j += 1;
                }
                if src.get(j) == Some(&b'[') {
                    break;
                }
            }
            let node = &mut self.doc.nodes[self.cur as usize];
            if node.plen == MAX_PROPS_PER_NODE {
                break;
            }
            node.plen += 1;
            self.seen_at[key as usize] = self.cur;
            let vstart = self.doc.values.len() as u32;
            self.doc
                .values
                .push(ValueData::source(open as u32, i as u32 + 1, true));
            self.doc.props.push(PropData {
                ident: pos as u32,
                vstart,
                vlen: 1,
                key,
                ident_len: (open - pos) as u16,
            });
            pos = i + 1;
        }
        self.pos = pos;
    }

    /// An identifier and its values, at `self.pos`.
    fn property(&mut self) {
        let src = self.src;
        let start = self.pos;
        let mut end = start;
        let mut lower = false;
        while end < src.len() {
            let c = src[end];
            if c.is_ascii_uppercase() {
            } else if c.is_ascii_lowercase() {
                lower = true;
            } else if !c.is_ascii_digit() {
                break;
            }
            end += 1;
        }
        self.pos = end;
        let top = self.stack[self.stack.len() - 1];
        if top.junk || top.first == NONE || top.after_var {
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
            self.seen_at[key as usize] = self.cur;
            d
        } else if self.seen_unknown.contains(&key) {
            true
        } else {
            self.seen_unknown.push(key);
            false
        };
        if dup {
            self.duplicate(key, span);
        }
        if self.doc.nodes[self.cur as usize].plen == MAX_PROPS_PER_NODE {
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
        self.doc.nodes[self.cur as usize].plen += 1;
    }

    #[cold]
    fn duplicate(&mut self, key: Key, span: Span) {
        let nd = &self.doc.nodes[self.cur as usize];
        let first = (nd.pstart..nd.pstart + nd.plen as u32)
            .find(|&i| self.doc.props[i as usize].key == key)
            .map(|i| {
                let p = &self.doc.props[i as usize];
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

    /// A run of bytes that are not SGF, coalesced across white space.
    #[cold]
    fn junk(&mut self) {
        let src = self.src;
        let start = self.pos;
        let mut end = start;
        loop {
            while end < src.len()
                && !matches!(src[end], b'(' | b')' | b';' | b'[')
                && !src[end].is_ascii_alphabetic()
                && !lexer::is_ws(src[end])
            {
                end += 1;
            }
            let mut next = end;
            while next < src.len() && lexer::is_ws(src[next]) {
                next += 1;
            }
            match src.get(next) {
                Some(&c) if !matches!(c, b'(' | b')' | b';' | b'[') && !c.is_ascii_alphabetic() => {
                    end = next;
                }
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

/// Stray bytes for a message: UTF-8 shown as text, other bytes and control
/// characters as `\xHH` (the charset is not known yet when they are met).
fn preview(b: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for chunk in b[..b.len().min(24)].utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                let _ = write!(s, "\\u{{{:x}}}", c as u32);
            } else {
                s.push(c);
            }
        }
        for x in chunk.invalid() {
            let _ = write!(s, "\\x{x:02X}");
        }
    }
    if b.len() > 24 {
        s.push('…');
    }
    s
}

fn skip_ws(src: &[u8], mut i: usize) -> usize {
    while i < src.len() && lexer::is_ws(src[i]) {
        i += 1;
    }
    i
}

/// Whether an identifier followed by `[` starts at `i`.
fn ident_value_at(src: &[u8], i: usize) -> bool {
    let mut j = i;
    while j < src.len() && src[j].is_ascii_alphabetic() {
        j += 1;
    }
    j > i && j - i <= 12 && src[i].is_ascii_uppercase() && src.get(skip_ws(src, j)) == Some(&b'[')
}

/// Where the next game tree starts at or after `from`: `(;`, `((;`, a
/// `(` followed by properties (no `;`), or a `;` followed by properties
/// (no `(`).
fn find_tree_start(src: &[u8], from: usize) -> Option<(usize, Start)> {
    // The damaged starts `(GM[1]…` and `;GM[1]…` count only where nothing
    // but white space (or a UTF-8 BOM at the very start) precedes them:
    // inside text, `(FF[4] …)` is prose, not a game tree.
    let mut clean_from = from;
    if from == 0 && src.starts_with(b"\xEF\xBB\xBF") {
        clean_from = 3;
    }
    let clean_until = skip_ws(src, clean_from);
    let mut i = from;
    while i < src.len() {
        let p = i + memchr::memchr2(b'(', b';', &src[i..])?;
        let damaged_ok = p == clean_until;
        if src[p] == b'(' {
            let mut q = skip_ws(src, p + 1);
            while src.get(q) == Some(&b'(') {
                q = skip_ws(src, q + 1);
            }
            match src.get(q) {
                Some(b';') => return Some((p, Start::Paren)),
                Some(_) if damaged_ok && ident_value_at(src, q) => {
                    return Some((p, Start::ParenNoSemi));
                }
                _ => {}
            }
        } else if damaged_ok && ident_value_at(src, skip_ws(src, p + 1)) {
            return Some((p, Start::SemiOnly));
        }
        i = p + 1;
    }
    None
}

/// Where text that is not a game tree holds something shaped like SGF
/// properties: an upper-case identifier directly followed by a `[…]` value
/// that closes, or two values back to back (`][`).
fn sgf_like(junk: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'[', &junk[i..]) {
        let open = i + off;
        let closes = junk[open + 1..]
            .iter()
            .take(200)
            .take_while(|&&b| b != b'\n')
            .position(|&b| b == b']');
        if let Some(c) = closes {
            let close = open + 1 + c;
            let ident = junk[..open]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_uppercase())
                .count();
            let before_ok = open - ident == 0 || !junk[open - ident - 1].is_ascii_alphanumeric();
            if (1..=2).contains(&ident) && before_ok {
                return Some(open - ident);
            }
            if junk.get(close + 1) == Some(&b'[') {
                return Some(open - ident);
            }
        }
        i = open + 1;
    }
    None
}

/// Chooses the charset of every game from `CA` and the bytes.
fn resolve_charsets(
    doc: &mut Document,
    diags: &mut Vec<Diagnostic>,
    opts: &ParseOptions,
    transcoded: Option<(&'static Encoding, usize)>,
) {
    let n = doc.games.len();
    if n == 0 {
        return;
    }
    if let Some(enc) = opts.charset {
        for g in &mut doc.games {
            g.encoding = enc;
            g.display = enc;
            g.source = CharsetSource::Override;
        }
        doc.uniform = Some(enc);
        return;
    }
    if let Some((enc, bom)) = transcoded {
        for g in &mut doc.games {
            g.encoding = UTF_8;
            g.display = enc;
            g.source = if bom > 0 {
                CharsetSource::Bom
            } else {
                CharsetSource::Detected
            };
        }
        doc.uniform = Some(UTF_8);
        return;
    }
    let src = doc.src.clone();
    let whole_valid = std::str::from_utf8(&src).is_ok();
    let mut labels: Vec<Option<Vec<u8>>> = Vec::with_capacity(n);
    for gi in 0..n {
        let start = doc.games[gi].start as usize;
        let end = if gi + 1 < n {
            doc.games[gi + 1].start as usize
        } else {
            src.len()
        };
        let region = &src[start.min(end)..end];
        let root = NodeId(doc.games[gi].root);
        let ca = doc
            .node(root)
            .get_known(props::id::CA)
            .and_then(|p| p.first());
        let ca_span = ca.map(|v| v.span()).unwrap_or_default();
        let label = ca.map(|v| v.raw().to_vec());
        let root_span = doc.node(root).span();
        let (enc, source) = choose_charset(
            region,
            start,
            label.as_deref(),
            whole_valid,
            ca_span,
            root_span,
            diags,
        );
        let g = &mut doc.games[gi];
        g.encoding = enc;
        g.display = enc;
        g.source = source;
        labels.push(label.map(|l| l.to_ascii_uppercase()));
    }
    let first = doc.games[0].encoding;
    doc.uniform = doc
        .games
        .iter()
        .all(|g| g.encoding == first && g.dbcs.is_none())
        .then_some(first);
    let mut declared: Vec<&Vec<u8>> = labels.iter().flatten().collect();
    declared.sort();
    declared.dedup();
    if declared.len() > 1 {
        diags.push(Diagnostic::new(
            Code::MixedCharsets,
            Span::new(0, 0),
            format!(
                "games of this file declare different charsets: {}",
                declared
                    .iter()
                    .map(|l| String::from_utf8_lossy(l).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}

fn first_invalid_utf8(region: &[u8]) -> usize {
    match std::str::from_utf8(region) {
        Ok(_) => 0,
        Err(e) => e.valid_up_to(),
    }
}

#[allow(clippy::too_many_arguments)]
fn choose_charset(
    region: &[u8],
    region_start: usize,
    label: Option<&[u8]>,
    whole_valid: bool,
    ca_span: Span,
    root_span: Span,
    diags: &mut Vec<Diagnostic>,
) -> (&'static Encoding, CharsetSource) {
    let declared = match label {
        Some(l) => match charset::encoding_for_label(l) {
            Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span,
                    format!(
                        "CA[{}] but the file is not UTF-16; the charset is detected from the bytes",
                        String::from_utf8_lossy(l)
                    ),
                ));
                None
            }
            Some(e) => Some(e),
            None => {
                diags.push(Diagnostic::new(
                    Code::UnknownCharset,
                    ca_span,
                    format!(
                        "unknown charset `{}`; the charset is detected from the bytes",
                        String::from_utf8_lossy(l)
                    ),
                ));
                None
            }
        },
        None => None,
    };
    let invalid_at = |region: &[u8]| {
        let p = (region_start + first_invalid_utf8(region)) as u32;
        Span::new(p, p + 1)
    };
    let label_text = || label.map(String::from_utf8_lossy).unwrap_or_default();
    let dec = charset::decide(region, declared, whole_valid);
    let enc = dec.encoding;
    match dec.why {
        Why::Ascii => match declared {
            Some(e) => (e, CharsetSource::Declared),
            None => (enc, CharsetSource::Default),
        },
        Why::Declared => (enc, CharsetSource::Declared),
        Why::DeclaredInvalid => {
            diags.push(Diagnostic::new(
                Code::InvalidBytes,
                ca_span,
                format!(
                    "byte sequences that are invalid in {}; shown as U+FFFD",
                    enc.name()
                ),
            ));
            (enc, CharsetSource::Declared)
        }
        Why::Utf8 => {
            if declared.is_some() {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span,
                    format!(
                        "CA says {} but the text is valid UTF-8; read as UTF-8",
                        label_text()
                    ),
                ));
            } else {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span,
                    "no CA property; the text is UTF-8",
                ));
            }
            (UTF_8, CharsetSource::Detected)
        }
        Why::Utf8Damaged => {
            let declared_utf8 = declared == Some(UTF_8);
            if !declared_utf8 {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span,
                    "no CA property; the text is UTF-8",
                ));
            }
            diags.push(Diagnostic::new(
                Code::InvalidBytes,
                invalid_at(region),
                format!(
                    "{} invalid UTF-8 sequence(s) (a character cut short or replaced); only they are shown as U+FFFD",
                    dec.invalid
                ),
            ));
            let source = if declared_utf8 {
                CharsetSource::Declared
            } else {
                CharsetSource::Detected
            };
            (UTF_8, source)
        }
        Why::Detected => {
            if declared.is_some() {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span,
                    format!(
                        "CA[{}] but the text is not in it; read as {}",
                        label_text(),
                        enc.name()
                    ),
                ));
            } else {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span,
                    format!("no CA property; the text looks like {}", enc.name()),
                ));
            }
            (enc, CharsetSource::Detected)
        }
    }
}

/// Games in a double-byte charset whose trail bytes `\` or `]` appear in the
/// text: (start, end, family) byte ranges to try reading charset-aware.
fn suspicious_dbcs(doc: &Document) -> Vec<(usize, usize, Dbcs, usize)> {
    let n = doc.games.len();
    let mut out = Vec::new();
    for gi in 0..n {
        let Some(d) = Dbcs::of(doc.games[gi].encoding) else {
            continue;
        };
        let start = doc.games[gi].start as usize;
        let end = if gi + 1 < n {
            doc.games[gi + 1].start as usize
        } else {
            doc.src.len()
        };
        let r = &doc.src[start.min(end)..end];
        let mut i = 0;
        while i + 1 < r.len() {
            if d.is_lead(r[i]) {
                let n = d.char_len(&r[i..]).max(1);
                if r[i + 1..i + n].iter().any(|b| matches!(b, b'\\' | b']')) {
                    out.push((start, end, d, start + i));
                    break;
                }
                i += n;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// How one reading of a suspicious game went.
#[derive(Clone, Copy, Default)]
struct Rating {
    /// Syntax errors, text that swallowed properties, undecodable
    /// characters (lower is better).
    errors: usize,
    /// [`charset::plausibility_of`] of its non-ASCII text values.
    plausible: i32,
    /// The game declares its charset (`CA`, confirmed by the bytes).
    declared: bool,
}

/// Rates the reading of each range (sorted, disjoint), in one pass.
fn rate(
    doc: &Document,
    diags: &[Diagnostic],
    ranges: &[(usize, usize, Dbcs, usize)],
) -> Vec<Rating> {
    let mut out = vec![Rating::default(); ranges.len()];
    let find = |p: u32| {
        let p = p as usize;
        let i = ranges.partition_point(|r| r.0 <= p);
        (i > 0 && p < ranges[i - 1].1).then(|| i - 1)
    };
    for d in diags {
        if d.code.layer() == "syntax"
            && d.severity == Severity::Error
            && let Some(i) = find(d.span.start)
        {
            out[i].errors += 10;
        }
    }
    for g in &doc.games {
        let Some(i) = find(g.start) else { continue };
        let r = &mut out[i];
        r.declared |= g.source == CharsetSource::Declared;
        for n in doc.preorder(NodeId(g.root)) {
            for p in doc.node(n).props() {
                // Values of other types are ASCII; non-ASCII bytes there are
                // text after all (the Sina / Nihon Ki-in `TE[…]`, `KO[…]`).
                if !p.value_type().is_text()
                    && p.info().is_some()
                    && p.values().all(|v| v.raw().is_ascii())
                {
                    continue;
                }
                for v in p.values() {
                    if !v.raw().is_ascii() {
                        let text = v.decoded();
                        r.errors += text.matches('\u{FFFD}').count();
                        r.plausible += charset::plausibility_of(&text, g.encoding);
                    }
                    // Look at the unescaped bytes: once decoded, a `]` can
                    // hide inside a double-byte character.
                    r.errors += 10 * swallowed_properties(&crate::text::unescape(v.raw(), g.dbcs));
                }
            }
        }
    }
    out
}

/// Counts `]` followed by an identifier and `[` inside decoded text: the
/// sign of a value that ran past its real end.
fn swallowed_properties(b: &[u8]) -> usize {
    memchr::memchr_iter(b']', b)
        .filter(|&i| ident_value_at(b, skip_ws(b, i + 1)))
        .count()
}

/// Lower-case identifiers are legal before FF[4]: report them as information there.
fn lowercase_severity(doc: &Document, diags: &mut [Diagnostic]) {
    if !diags.iter().any(|d| d.code == Code::LowercaseIdentifier) {
        return;
    }
    let ffs: Vec<(u32, i64)> = doc
        .games
        .iter()
        .map(|g| {
            let ff = doc
                .node(NodeId(g.root))
                .get_known(props::id::FF)
                .and_then(|p| p.first())
                .and_then(|v| v.number())
                .unwrap_or(1);
            (g.start, ff)
        })
        .collect();
    for d in diags.iter_mut() {
        if d.code == Code::LowercaseIdentifier {
            let ff = ffs
                .iter()
                .rev()
                .find(|(s, _)| *s <= d.span.start)
                .map_or(1, |x| x.1);
            if ff < 4 {
                d.severity = Severity::Info;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(src: &[u8]) -> Vec<&'static str> {
        parse(src)
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    }

    #[test]
    fn simple_tree() {
        let p = parse(b"(;FF[4]GM[1]SZ[19];B[pd](;W[dd])(;W[dp];B[pp]))");
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let doc = &p.document;
        assert_eq!(doc.game_count(), 1);
        let root = doc.game(0).unwrap().root();
        assert_eq!(root.props().count(), 3);
        let b = root.first_child().unwrap();
        assert_eq!(b.child_count(), 2);
        assert_eq!(doc.game(0).unwrap().nodes().count(), 5);
    }

    #[test]
    fn recovery() {
        assert_eq!(codes(b""), vec!["S001"]);
        assert_eq!(codes(b"  \n"), vec!["S001"]);
        assert_eq!(codes(b"hello"), vec!["S002"]);
        assert_eq!(codes(b"(;C[abc"), vec!["S006", "S005"]);
        assert_eq!(codes(b"(;B[aa]"), vec!["S006"]);
        assert_eq!(codes(b"(;B[aa] -- W[bb])"), vec!["S004"]);
        assert_eq!(codes(b"(;PL B[aa])"), vec!["S012"]);
        assert_eq!(codes(b"(;B[aa]))"), vec!["S020"]);
        assert_eq!(codes(b"(FF[4];B[aa])"), vec!["S008"]);
        assert_eq!(codes(b";FF[4];B[aa])"), vec!["S009"]);
        assert_eq!(codes(b"(;B[aa]())"), vec!["S010"]);
        assert_eq!(codes(b"(;B[aa]((;W[bb])))"), vec!["S011"]);
        assert_eq!(codes(b"(;B[aa]((;W[bb]))"), vec!["S011"]);
        // A second value on the next line belongs to the same property.
        assert_eq!(codes(b"(;GM[1];B[aa]\n[bb];W[cc])"), Vec::<&str>::new());
        assert_eq!(codes(b"(;B[aa];[bb])"), vec!["S013"]);
        assert_eq!(codes(b"(;B[aa](;W[bb])(;W[cc]);W[dd])"), vec!["S014"]);
        assert_eq!(codes(b"(;FF[4]AddBlack[aa])"), vec!["S015"]);
        assert_eq!(codes(b"(;AB[aa]AB[bb])"), vec!["S018"]);
        assert_eq!(codes(b"junk (;B[aa])"), vec!["S003"]);
        assert_eq!(codes(b"Subject: Re: [go] a game\n(;B[aa])"), vec!["S003"]);
        assert_eq!(codes(b"Error 5\n[aa][bb]\n(;B[aa])"), vec!["S003", "S023"]);
        assert_eq!(codes(b"see B[aa] here\n(;B[aa])"), vec!["S003", "S023"]);
    }

    #[test]
    fn lowercase_identifiers() {
        let p = parse(b"(;FF[3]AddBlack[aa]CoPyright[x])");
        let root = p.document.game(0).unwrap().root();
        let ids: Vec<&str> = root.props().map(|p| p.ident()).collect();
        assert_eq!(ids, vec!["FF", "AB", "CP"]);
        assert!(p.diagnostics.iter().all(|d| d.severity == Severity::Info));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let n = 200_000;
        let mut s = Vec::new();
        for _ in 0..n {
            s.extend_from_slice(b"(;B[aa]");
        }
        s.extend(std::iter::repeat_n(b')', n));
        let p = parse(&s);
        assert!(p.diagnostics.is_empty());
        assert_eq!(p.document.game(0).unwrap().nodes().count(), n);
        drop(p);
    }

    #[test]
    fn garbage_does_not_panic() {
        let mut x: u32 = 12345;
        for len in [1, 7, 100, 5000] {
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                x = x.wrapping_mul(1103515245).wrapping_add(12345);
                v.push((x >> 16) as u8);
            }
            let _ = parse(&v);
            v.insert(0, b'(');
            v.insert(1, b';');
            let _ = parse(&v);
        }
    }

    #[test]
    fn gbk_detected_without_ca() {
        // 黑棋 in GBK.
        let src = b"(;PB[\xba\xda\xc6\xe5]C[\xba\xda\xc6\xe5\xba\xdc\xba\xc3\xa3\xac\xb0\xd7\xc6\xe5\xd2\xb2\xb2\xbb\xb4\xed])";
        let p = parse(src);
        let g = p.document.game(0).unwrap();
        assert_eq!(g.root().text("PB").unwrap(), "黑棋");
        assert_eq!(p.diagnostics[0].code, Code::CharsetDetected);
    }

    #[test]
    fn shift_jis_unescaped_trail_bytes() {
        // PB[申ソ] with ソ = 0x83 0x5C, no escaping, then BR.
        let src = b"(;CA[Shift_JIS]PB[\x90\x5c\x83\x5c]BR[9d];B[aa])";
        let p = parse(src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PB").unwrap(), "申ソ");
        assert_eq!(root.text("BR").unwrap(), "9d");
        assert!(
            p.diagnostics
                .iter()
                .any(|d| d.code == Code::UnescapedTrailBytes)
        );
    }

    #[test]
    fn shift_jis_trail_bytes_in_dialect_text() {
        // `TE` (a Double in FF[4]) holds an event name in the Nihon Ki-in
        // dialect: 表 (0x95 0x5C) before `]` must not escape it.
        let text = "(\nTE[第10回テスト代表]\nRD[2024-03-01]\nPC[東京]\nKO[黒6目半]\n;B[pd])";
        let (src, _, _) = encoding_rs::SHIFT_JIS.encode(text);
        let p = parse(&src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("TE").unwrap(), "第10回テスト代表");
        assert_eq!(root.text("RD").unwrap(), "2024-03-01");
    }

    #[test]
    fn shift_jis_escaped_trail_bytes() {
        // The writer escaped the trail byte: 0x83 0x5C 0x5C.
        let src = b"(;CA[Shift_JIS]PB[\x83\x5c\x5c]BR[9d];B[aa])";
        let p = parse(src);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PB").unwrap(), "ソ");
        assert!(
            !p.diagnostics
                .iter()
                .any(|d| d.code == Code::UnescapedTrailBytes)
        );
    }

    #[test]
    fn utf8_declared_but_cut() {
        let mut s = b"(;CA[UTF-8]PB[".to_vec();
        let name = "天下无狗".as_bytes();
        s.extend_from_slice(&name[..name.len() - 1]);
        s.extend_from_slice(b"]PW[x];B[aa])");
        let p = parse(&s);
        let root = p.document.game(0).unwrap().root();
        assert_eq!(root.text("PW").unwrap(), "x");
        assert!(root.text("PB").unwrap().starts_with("天下无"));
        assert!(p.diagnostics.iter().any(|d| d.code == Code::InvalidBytes));
    }

    #[test]
    fn utf16_input() {
        let mut v = vec![0xFF, 0xFE];
        v.extend(
            "(;CA[UTF-16LE]PB[黑];B[aa])"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes()),
        );
        let p = parse(&v);
        let g = p.document.game(0).unwrap();
        assert_eq!(g.root().text("PB").unwrap(), "黑");
        assert_eq!(g.charset(), "UTF-16LE");
    }
}
