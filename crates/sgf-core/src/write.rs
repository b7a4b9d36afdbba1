//! Writers: lossless (the input back, byte for byte, with edits spliced in)
//! and canonical (FF\[4\], UTF-8, one node per line).

use std::io::{self, Write};

use encoding_rs::{Encoding, UTF_8};

use crate::charset::Dbcs;
use crate::doc::{
    Document, F_SYN_PAREN, F_SYNTHETIC, Key, NONE, NodeData, UNKNOWN_BASE, ValueData,
};
use crate::props::{self, ValueType};
use crate::text;
use crate::value::{self, Point};
use crate::work;

/// Writes the document losslessly: an unedited document is written back
/// exactly as it was read; edits replace only the edited tokens.
///
/// # Errors
/// Only errors of `w`.
pub fn write_lossless<W: Write>(doc: &Document, w: &mut W) -> io::Result<()> {
    if !doc.edited {
        return w.write_all(doc.original());
    }
    let out = lossless_bytes(doc);
    match doc.transcoded_from {
        Some((enc, bom)) if doc.utf32 => {
            let s = String::from_utf8_lossy(&out);
            let big = enc == encoding_rs::UTF_16BE;
            let mut v = Vec::new();
            if bom > 0 {
                v.extend_from_slice(if big {
                    &[0, 0, 0xFE, 0xFF]
                } else {
                    &[0xFF, 0xFE, 0, 0]
                });
            }
            v.extend(crate::charset::encode_utf32(&s, big));
            w.write_all(&v)
        }
        Some((enc, bom)) => {
            let s = String::from_utf8_lossy(&out);
            let big = enc == encoding_rs::UTF_16BE;
            let mut v = Vec::with_capacity(s.len() * 2 + 2);
            if bom > 0 {
                v.extend_from_slice(if big { &[0xFE, 0xFF] } else { &[0xFF, 0xFE] });
            }
            for u in s.encode_utf16() {
                v.extend_from_slice(&if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                });
            }
            w.write_all(&v)
        }
        None => w.write_all(&out),
    }
}

/// Why [`to_lossless_bytes_checked`] refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LosslessError {
    /// The first node (numbered from 0 in file order over all games) that
    /// would read differently.
    pub node: usize,
    /// The game that holds it would be read in another charset: the edit
    /// removed the text the charset decision rested on (the last GBK text
    /// of a game declared `CA[GBK]` whose other bytes are valid UTF-8).
    pub charset: Option<&'static str>,
}

impl std::fmt::Display for LosslessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.charset {
            Some(c) => write!(
                f,
                "after the edits the file's bytes read as {c} (around node {}): written as it was, its text would read differently; write the canonical form instead",
                self.node
            ),
            None => write!(
                f,
                "the edits touch damaged parts of the file (around node {}): written as it was, it would read differently; write the canonical form instead",
                self.node
            ),
        }
    }
}

impl std::error::Error for LosslessError {}

/// [`to_lossless_bytes`], verified: the output is read again and must give
/// the edited tree (compared node by node in canonical form). In a file
/// without syntax errors that holds unless an edit removes what a charset
/// decision rested on; next to damage the input carried (text the reader
/// ignored, a missing `;`), an edit can make that damage read differently.
/// Then this refuses rather than change the file silently.
///
/// # Errors
/// When the lossless form would not read back as the edited document.
pub fn to_lossless_bytes_checked(doc: &Document) -> Result<Vec<u8>, LosslessError> {
    let out = to_lossless_bytes(doc);
    if !doc.edited {
        return Ok(out);
    }
    let again = crate::parse(&out).document;
    let opts = WriteOptions::default();
    if to_canonical_bytes(doc, &opts) == to_canonical_bytes(&again, &opts) {
        return Ok(out);
    }
    let node_text = |d: &Document, n: crate::NodeId| -> Vec<(String, Vec<Vec<u8>>)> {
        d.node(n)
            .props()
            .map(|p| {
                (
                    p.ident().to_string(),
                    p.values().map(|v| v.raw().to_vec()).collect(),
                )
            })
            .collect()
    };
    let (mut a, mut b) = (doc.all_nodes(), again.all_nodes());
    let mut i = 0;
    loop {
        let (Some((ga, na)), Some((gb, nb))) = (a.next(), b.next()) else {
            return Err(LosslessError {
                node: i,
                charset: None,
            });
        };
        let (ea, eb) = (doc.encoding_of(na), again.encoding_of(nb));
        if ea != eb {
            return Err(LosslessError {
                node: i,
                charset: Some(eb.name()),
            });
        }
        if ga != gb
            || doc.node(na).child_count() != again.node(nb).child_count()
            || node_text(doc, na) != node_text(&again, nb)
        {
            return Err(LosslessError {
                node: i,
                charset: None,
            });
        }
        i += 1;
    }
}

/// The lossless output as bytes.
pub fn to_lossless_bytes(doc: &Document) -> Vec<u8> {
    let mut v = Vec::new();
    write_lossless(doc, &mut v).expect("writing to a Vec cannot fail");
    v
}

fn lossless_bytes(doc: &Document) -> Vec<u8> {
    let src = &doc.src[..];
    // Every token any arena entry refers to, in source order: the white
    // space and junk before a token belong to it.
    let mut toks: Vec<(u32, u32)> = Vec::with_capacity(doc.values.len() + doc.props.len() * 2);
    for n in &doc.nodes {
        if n.semi != NONE {
            toks.push((n.semi, n.semi + 1));
        }
    }
    for p in &doc.parens {
        for x in [p.open, p.close] {
            if x != NONE {
                toks.push((x, x + 1));
            }
        }
    }
    for p in &doc.props {
        if p.ident != NONE {
            toks.push((p.ident, p.ident + p.ident_len as u32));
        }
    }
    for v in &doc.values {
        if let Some(open) = v.open() {
            toks.push((open, v.end()));
        }
    }
    toks.sort_unstable();
    toks.dedup();
    let lead = |start: u32| -> usize {
        match toks.binary_search_by(|t| t.0.cmp(&start)) {
            Ok(0) | Err(0) => 0,
            Ok(i) | Err(i) => toks[i - 1].1.min(start) as usize,
        }
    };
    let mut out = Out {
        buf: Vec::with_capacity(src.len() + 256),
        open_value: false,
    };
    let emit = |out: &mut Out, start: u32, end: u32| {
        out.src(&src[lead(start)..end as usize]);
    };

    enum Item {
        Node(u32),
        Close(u32),
    }
    for g in &doc.games {
        let mut stack = vec![Item::Node(g.root)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Node(n) => {
                    let nd = &doc.nodes[n as usize];
                    let (open, close) = doc.parens_of(n);
                    let synthetic = nd.flags & F_SYNTHETIC != 0;
                    let is_root = nd.parent == NONE;
                    let paren_needed = nd.flags & F_SYN_PAREN != 0 || (synthetic && is_root);
                    if open != NONE {
                        emit(&mut out, open, open + 1);
                    } else if paren_needed {
                        if synthetic && is_root && !out.buf.is_empty() {
                            out.put(b"\n");
                        }
                        // A new `(` goes after the white space before the
                        // node, so the node keeps its line: `\n(;W[cn]`.
                        if nd.semi != NONE {
                            out.src(&src[lead(nd.semi)..nd.semi as usize]);
                        }
                        out.put(b"(");
                    }
                    if nd.semi != NONE && open == NONE && paren_needed {
                        out.put(b";");
                    } else if nd.semi != NONE {
                        emit(&mut out, nd.semi, nd.semi + 1);
                    } else if synthetic {
                        if !paren_needed && open == NONE {
                            out.put(b"\n");
                        }
                        out.put(b";");
                    } else if !is_root {
                        // The input lacked this node's `;` and the reader
                        // assumed one: after a parenthesis, before its first
                        // property. Where an edit changed that (the node now
                        // follows its parent's properties, or lost its first
                        // property, or was empty), the `;` is written, or
                        // the node would merge into its neighbours.
                        let last = out.buf.iter().rev().find(|&&b| !crate::lexer::is_ws(b));
                        let first_from_input =
                            nd.plen > 0 && doc.props[nd.pstart as usize].ident != NONE;
                        if !(matches!(last, Some(b'(' | b')')) && first_from_input) {
                            out.put(b";");
                        }
                    }
                    for pi in nd.pstart..nd.pstart + nd.plen as u32 {
                        let p = &doc.props[pi as usize];
                        if p.ident != NONE {
                            emit(&mut out, p.ident, p.ident + p.ident_len as u32);
                        } else {
                            out.put(doc.key_ident(p.key).as_bytes());
                        }
                        for vi in p.vstart..p.vstart + p.vlen {
                            let v = &doc.values[vi as usize];
                            if let Some(open) = v.open() {
                                emit(&mut out, open, v.end());
                                // The input may end inside this value.
                                out.open_value =
                                    !value_closes(&src[open as usize..v.end() as usize]);
                            } else {
                                out.put(b"[");
                                out.buf.extend_from_slice(doc.raw_value(v));
                                out.buf.push(b']');
                            }
                        }
                    }
                    if open != NONE || close != NONE || paren_needed {
                        stack.push(Item::Close(n));
                    }
                    let mut kids = Vec::new();
                    let mut c = nd.first_child;
                    while c != NONE {
                        kids.push(c);
                        c = doc.nodes[c as usize].next_sibling;
                    }
                    for &k in kids.iter().rev() {
                        stack.push(Item::Node(k));
                    }
                }
                Item::Close(n) => {
                    let (open, close) = doc.parens_of(n);
                    if close != NONE {
                        emit(&mut out, close, close + 1);
                    } else if open == NONE {
                        // Parentheses the edit made necessary.
                        out.put(b")");
                    }
                }
            }
        }
    }
    let tail = toks.last().map_or(0, |t| t.1 as usize);
    out.src(&src[tail.min(src.len())..]);
    out.buf
}

/// The lossless output, and whether the last thing copied from the input
/// is a value the input left open (it ended inside it).
struct Out {
    buf: Vec<u8>,
    open_value: bool,
}

impl Out {
    /// Bytes copied from the input.
    fn src(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// New bytes: an input that ended inside a value gets its `]` first, so
    /// that what an edit adds after it is not read as part of it.
    fn put(&mut self, b: &[u8]) {
        if std::mem::take(&mut self.open_value) {
            self.buf.push(b']');
        }
        self.buf.extend_from_slice(b);
    }
}

/// Whether a value token `[…]` ends with its closing bracket (not with the
/// end of the input, nor with an escaped `\]`).
fn value_closes(tok: &[u8]) -> bool {
    if tok.len() < 2 || tok[tok.len() - 1] != b']' {
        return false;
    }
    let backslashes = tok[1..tok.len() - 1]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    backslashes % 2 == 0
}

/// How point lists are written by the canonical writer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum PointLists {
    /// As in the input.
    #[default]
    AsWritten,
    /// Compressed into rectangles (`AB[aa:cc]`).
    Compressed,
    /// One value per point.
    Expanded,
}

/// Options of the canonical writer.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Lines are wrapped between values beyond this width (text values are
    /// never broken).
    pub line_width: usize,
    /// Point list style.
    pub point_lists: PointLists,
    /// Game-info and root properties each on their own line.
    pub game_info_lines: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            line_width: 79,
            point_lists: PointLists::AsWritten,
            game_info_lines: true,
        }
    }
}

/// Writes the canonical FF\[4\] UTF-8 form: `FF\[4\]` and `CA[UTF-8]` in every
/// root, identifiers in FF\[4\] form, repeated properties merged, text
/// re-escaped, one node per line, variations in order. Text outside the
/// game trees stays where it stands, on lines of its own, when that cannot
/// change how the output reads ([`crate::OutsideText::in_place`]).
///
/// # Errors
/// Only errors of `w`.
pub fn write_canonical<W: Write>(doc: &Document, opts: &WriteOptions, w: &mut W) -> io::Result<()> {
    let rest = canonical(doc, opts, Some(w), 1 << 21)?;
    w.write_all(&rest)
}

/// What the canonical form writes between two games (each game ends with
/// a line break of its own): a reader that wrote a collection a part at a
/// time joins the parts with it.
pub const GAME_SEPARATOR: &[u8] = b"\n";

/// The canonical output as bytes.
pub fn to_canonical_bytes(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    canonical::<Vec<u8>>(doc, opts, None, usize::MAX).expect("no writer, no error")
}

/// The canonical form of one game of `doc` (a file of its own).
///
/// # Panics
/// When `game` is out of range.
pub fn game_to_canonical_bytes(doc: &Document, game: usize, opts: &WriteOptions) -> Vec<u8> {
    assert!(game < doc.games.len(), "no game {game}");
    let mut cw = Canon {
        doc,
        opts,
        out: Vec::new(),
        col: 0,
        scratch: Vec::new(),
        enc: UTF_8,
        dbcs: None,
        lists: opts.point_lists,
        budget: doc.src.len() * 4 + 52 * 52,
    };
    cw.game(game);
    cw.newline();
    cw.out
}

/// Writes the canonical form into a buffer, handed to `sink` each time it
/// passes 1 MB when there is one; returns what is left in the buffer.
fn canonical<W: Write>(
    doc: &Document,
    opts: &WriteOptions,
    mut sink: Option<&mut W>,
    max_capacity: usize,
) -> io::Result<Vec<u8>> {
    let mut cw = Canon {
        doc,
        opts,
        // The canonical form adds about one line break per node, and the
        // root's `CA`, `FF` and line breaks: reserved once, never regrown.
        out: Vec::with_capacity(
            (doc.src.len() + doc.src.len() / 8 + doc.nodes.len() + 1024).min(max_capacity),
        ),
        col: 0,
        scratch: Vec::new(),
        enc: UTF_8,
        dbcs: None,
        lists: opts.point_lists,
        budget: doc.src.len() * 4 + 52 * 52,
    };
    let outside = doc.outside_texts();
    for gi in 0..doc.games.len() {
        if gi > 0 {
            // GAME_SEPARATOR.
            cw.newline();
        }
        // Text before the game, then a blank line.
        for o in outside
            .iter()
            .filter(|o| o.in_place && o.before == Some(gi))
        {
            cw.put_text(o.text.as_bytes());
            cw.newline();
            cw.newline();
        }
        cw.game(gi);
        cw.newline();
        if let Some(w) = sink.as_mut()
            && cw.out.len() > 1 << 20
        {
            w.write_all(&cw.out)?;
            cw.out.clear();
        }
    }
    // Text after the last game, after a blank line.
    for o in outside.iter().filter(|o| o.in_place && o.before.is_none()) {
        cw.newline();
        cw.put_text(o.text.as_bytes());
        cw.newline();
    }
    Ok(cw.out)
}

struct Canon<'a> {
    doc: &'a Document,
    opts: &'a WriteOptions,
    out: Vec<u8>,
    col: usize,
    scratch: Vec<u8>,
    enc: &'static Encoding,
    dbcs: Option<Dbcs>,
    /// Point lists are compressed or expanded only where a point is two
    /// letters (Go, the default game): in other games it is the game's own.
    lists: PointLists,
    /// The points the rewriting of point lists may still go through: four
    /// per byte of the source and a full board, so that hostile input
    /// (`AB[aa:ZZ]` in every node, 2,704 points from ten bytes) costs work
    /// linear in its size; lists past it are written as they are.
    budget: usize,
}

impl Canon<'_> {
    fn newline(&mut self) {
        self.out.push(b'\n');
        self.col = 0;
    }

    #[inline]
    fn put(&mut self, b: &[u8]) {
        put_bytes(&mut self.out, b);
        self.col += b.len();
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.out.push(b);
        self.col += 1;
    }

    /// Puts text that may hold line breaks.
    fn put_text(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
        match memchr::memrchr(b'\n', b) {
            Some(p) => self.col = b.len() - p - 1,
            None => self.col += b.len(),
        }
    }

    fn game(&mut self, gi: usize) {
        let g = &self.doc.games[gi];
        self.enc = g.encoding;
        self.dbcs = g.dbcs;
        self.lists = if crate::validate::game_type(self.doc, gi) == 1 {
            self.opts.point_lists
        } else {
            PointLists::AsWritten
        };
        enum Item {
            Node(u32, bool),
            Close,
        }
        let mut stack = vec![Item::Node(g.root, true)];
        let mut first = true;
        while let Some(it) = stack.pop() {
            match it {
                Item::Node(n, paren) => {
                    if !first {
                        self.newline();
                    }
                    first = false;
                    if paren {
                        self.byte(b'(');
                    }
                    self.node(n);
                    if paren {
                        stack.push(Item::Close);
                    }
                    // Follow a line of single children directly.
                    let nodes = &self.doc.nodes;
                    let mut fc = nodes[n as usize].first_child;
                    while fc != NONE && nodes[fc as usize].next_sibling == NONE {
                        if !self.move_line(fc) {
                            self.newline();
                            self.node(fc);
                        }
                        fc = nodes[fc as usize].first_child;
                    }
                    {
                        let at = stack.len();
                        let mut c = fc;
                        while c != NONE {
                            stack.push(Item::Node(c, true));
                            c = self.doc.nodes[c as usize].next_sibling;
                        }
                        stack[at..].reverse();
                    }
                }
                Item::Close => self.byte(b')'),
            }
        }
    }

    fn node(&mut self, n: u32) {
        let doc = self.doc;
        let nd = &doc.nodes[n as usize];
        let is_root = nd.parent == NONE;
        self.byte(b';');
        if nd.plen == 1 && !is_root && self.fast_node(nd) {
            return;
        }
        let props = &doc.props[nd.pstart as usize..nd.pstart as usize + nd.plen as usize];
        // Repeated identifiers are merged into their first occurrence.
        let mut seen: u128 = 0;
        let mut dups = false;
        for (i, p) in props.iter().enumerate() {
            if p.key < 128 {
                let bit = 1u128 << p.key;
                dups |= seen & bit != 0;
                seen |= bit;
            } else if props[..i].iter().any(|q| q.key == p.key) {
                dups = true;
            }
        }
        let ff = props::id::FF;
        let ca = props::id::CA;
        let has = |k: Key| seen & (1u128 << k) != 0;
        let mut first = true;
        if is_root && !has(ff) {
            self.put(b"FF[4]");
            first = false;
            if !has(ca) {
                self.sep(true);
                self.put(b"CA[UTF-8]");
            }
        }
        for (i, p) in props.iter().enumerate() {
            if dups && props[..i].iter().any(|q| q.key == p.key) {
                continue;
            }
            let (vt, game_info) = if p.key < UNKNOWN_BASE {
                let info = props::info(p.key);
                (info.value, info.kind == props::PropKind::GameInfo)
            } else {
                (ValueType::Unknown, false)
            };
            if !first {
                self.sep(self.opts.game_info_lines && (is_root || game_info));
            }
            first = false;
            let ident = doc.key_ident(p.key).as_bytes();
            self.put(ident);
            if is_root && p.key == ff {
                self.put(b"[4]");
                if !has(ca) {
                    self.sep(true);
                    self.put(b"CA[UTF-8]");
                }
                continue;
            }
            if is_root && p.key == ca {
                self.put(b"[UTF-8]");
                continue;
            }
            if dups {
                let vals: Vec<&ValueData> = props[i..]
                    .iter()
                    .filter(|q| q.key == p.key)
                    .flat_map(|q| &doc.values[q.vstart as usize..(q.vstart + q.vlen) as usize])
                    .collect();
                self.values(vt, ident.len(), &vals);
            } else {
                let vals = &doc.values[p.vstart as usize..(p.vstart + p.vlen) as usize];
                if vt.is_point_list() && self.lists != PointLists::AsWritten {
                    let v: Vec<&ValueData> = vals.iter().collect();
                    self.values(vt, ident.len(), &v);
                } else {
                    for (j, v) in vals.iter().enumerate() {
                        self.value(vt, ident.len(), j, v);
                    }
                }
            }
        }
    }

    /// A line break and a node of one known property with one short ASCII
    /// value (a move), the bulk of every record: assembled in a fixed-size
    /// buffer so that it costs two fixed copies instead of a dozen pushes.
    #[inline]
    fn move_line(&mut self, n: u32) -> bool {
        const VAL: usize = 16;
        let doc = self.doc;
        let nd = &doc.nodes[n as usize];
        if nd.plen != 1 || nd.parent == NONE || !self.enc.is_ascii_compatible() {
            return false;
        }
        let p = &doc.props[nd.pstart as usize];
        if p.key >= UNKNOWN_BASE || p.vlen != 1 {
            return false;
        }
        // A point list may be rewritten (`MA[aa:bb]` expanded): it was
        // copied as written when the source went on far enough after it
        // (a game followed by another), as `fast_node` knows.
        if self.lists != PointLists::AsWritten && props::info(p.key).value.is_point_list() {
            return false;
        }
        let v = &doc.values[p.vstart as usize];
        let Some(open) = v.open() else { return false };
        let raw = doc.raw_value(v);
        let ident = props::info(p.key).ident.as_bytes();
        let from = open as usize + 1;
        if ident.len() > 4
            || raw.len() > VAL
            || from + VAL > doc.src.len()
            || !raw
                .iter()
                .all(|&b| b != b'\\' && b != b']' && b != b'\n' && b < 0x80)
        {
            return false;
        }
        // `\n;` ident `[` in one 8-byte word, then a fixed 16 bytes from the
        // source, each cut to length afterwards: fixed-size copies only, and
        // nothing stored byte by byte is read back (no store-forwarding stall).
        let mut head = u64::from(b'\n') | u64::from(b';') << 8;
        for (i, &c) in ident.iter().enumerate() {
            head |= u64::from(c) << (16 + 8 * i);
        }
        head |= u64::from(b'[') << (16 + 8 * ident.len());
        let head_len = 3 + ident.len();
        let out = &mut self.out;
        out.reserve(32);
        let len = out.len();
        out.extend_from_slice(&head.to_le_bytes());
        out.truncate(len + head_len);
        let value: &[u8; VAL] = doc.src[from..from + VAL].try_into().expect("VAL bytes");
        out.extend_from_slice(value);
        out.truncate(len + head_len + raw.len());
        out.push(b']');
        self.col = head_len + raw.len();
        true
    }

    /// A node with one known property of one short ASCII value (a move):
    /// written without the general machinery.
    #[inline]
    fn fast_node(&mut self, nd: &NodeData) -> bool {
        let doc = self.doc;
        let p = &doc.props[nd.pstart as usize];
        if p.key >= UNKNOWN_BASE || p.vlen != 1 || !self.enc.is_ascii_compatible() {
            return false;
        }
        // A point list may be rewritten (`AB[cc:dd]` expanded).
        if self.lists != PointLists::AsWritten && props::info(p.key).value.is_point_list() {
            return false;
        }
        let raw = doc.raw_value(&doc.values[p.vstart as usize]);
        if raw.len() > 16
            || !raw
                .iter()
                .all(|&b| b != b'\\' && b != b']' && b != b'\n' && b < 0x80)
        {
            return false;
        }
        let ident = props::info(p.key).ident.as_bytes();
        put_bytes(&mut self.out, ident);
        self.out.push(b'[');
        put_bytes(&mut self.out, raw);
        self.out.push(b']');
        self.col += ident.len() + raw.len() + 2;
        true
    }

    fn sep(&mut self, own_line: bool) {
        if own_line || self.col >= self.opts.line_width {
            self.newline();
        }
    }

    fn values(&mut self, vt: ValueType, indent: usize, values: &[&ValueData]) {
        if vt.is_point_list()
            && self.lists != PointLists::AsWritten
            && let Some(pts) = self.point_list(values)
        {
            for (j, p) in pts.iter().enumerate() {
                self.wrap(j, indent, p.len());
                self.put(b"[");
                self.put(p);
                self.put(b"]");
            }
            return;
        }
        for (j, v) in values.iter().enumerate() {
            self.value(vt, indent, j, v);
        }
    }

    /// The values of a point list compressed or expanded, when they are all points.
    fn point_list(&mut self, values: &[&ValueData]) -> Option<Vec<Vec<u8>>> {
        let rects: Vec<(Point, Point)> = values
            .iter()
            .map(|v| value::parse_rect(self.doc.raw_value(v)))
            .collect::<Option<_>>()?;
        let count: usize = rects
            .iter()
            .map(|(a, b)| {
                (usize::from(a.x.abs_diff(b.x)) + 1) * (usize::from(a.y.abs_diff(b.y)) + 1)
            })
            .sum();
        self.budget = self.budget.checked_sub(count)?;
        // Each point once, or the list is written as it is: a point given
        // twice stops the expansion (a board has at most 52×52 points; a
        // list of a million board-sized rectangles is not expanded whole).
        let mut seen = vec![false; 52 * 52];
        let mut pts: Vec<Point> = Vec::new();
        for &(a, b) in &rects {
            for p in value::rect_points(a, b) {
                work::add(1);
                match seen.get_mut(p.y as usize * 52 + p.x as usize) {
                    Some(s) if !*s => *s = true,
                    _ => return None,
                }
                pts.push(p);
            }
        }
        if pts.is_empty() {
            return None;
        }
        let fmt_pt = |p: Point| p.to_sgf().to_vec();
        Some(match self.lists {
            PointLists::Expanded => pts.into_iter().map(fmt_pt).collect(),
            _ => value::compress_points(&pts)
                .into_iter()
                .map(|(a, b)| {
                    let mut v = fmt_pt(a);
                    if a != b {
                        v.push(b':');
                        v.extend_from_slice(&b.to_sgf());
                    }
                    v
                })
                .collect(),
        })
    }

    #[inline]
    fn wrap(&mut self, j: usize, indent: usize, len: usize) {
        if j > 0 && self.col + len + 2 > self.opts.line_width && self.col > indent {
            self.newline();
        }
    }

    #[inline]
    fn value(&mut self, vt: ValueType, indent: usize, j: usize, v: &ValueData) {
        let raw = self.doc.raw_value(v);
        if raw.len() <= 16
            && self.enc.is_ascii_compatible()
            && raw
                .iter()
                .all(|&b| b != b'\\' && b != b']' && b != b'\n' && b < 0x80)
        {
            // Moves, points, numbers: short ASCII, written as they are.
            if j > 0 {
                self.wrap(j, indent, raw.len());
            }
            self.out.push(b'[');
            put_bytes(&mut self.out, raw);
            self.out.push(b']');
            self.col += raw.len() + 2;
            return;
        }
        // A `]` in raw bytes comes from a lenient reading of an unescaped bracket.
        let plain = memchr::memchr2(b'\\', b']', raw).is_none()
            && ((raw.is_ascii() && self.enc.is_ascii_compatible())
                || (self.enc == UTF_8 && std::str::from_utf8(raw).is_ok()));
        if plain {
            // Nothing to unescape and already UTF-8: the raw bytes are canonical.
            self.wrap(j, indent, raw.len());
            self.put(b"[");
            self.put_text(raw);
            self.put(b"]");
            return;
        }
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        encode_value(&mut buf, vt, raw, self.enc, self.dbcs);
        self.wrap(j, indent, buf.len());
        self.put(b"[");
        self.put_text(&buf);
        self.put(b"]");
        self.scratch = buf;
    }
}

/// Appends bytes; short slices byte by byte, which beats a `memcpy` call
/// for the one- and two-byte identifiers and values that dominate SGF.
#[inline]
fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    if b.len() <= 8 {
        for &c in b {
            out.push(c);
        }
    } else {
        out.extend_from_slice(b);
    }
}

/// Re-escapes raw value bytes as UTF-8: text is decoded and escaped again; a
/// value of any other type keeps the structure of a composed value (the first
/// unescaped `:`).
pub(crate) fn encode_value(
    out: &mut Vec<u8>,
    vt: ValueType,
    raw: &[u8],
    enc: &'static Encoding,
    dbcs: Option<Dbcs>,
) {
    let decode = |r: &[u8]| -> String { text::decode(text::unescape(r, dbcs), enc).into_owned() };
    match vt {
        ValueType::Text | ValueType::SimpleText => {
            text::escape_into(out, &decode(raw), false);
        }
        _ => match text::find_colon(raw, text::colon_rules(enc, dbcs)) {
            Some(c) => {
                text::escape_into(out, &decode(&raw[..c]), true);
                out.push(b':');
                text::escape_into(out, &decode(&raw[c + 1..]), false);
            }
            None => text::escape_into(out, &decode(raw), true),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// Fuzz (`edit`, found by CI's share): the text before a game that
    /// was removed went with it in the lossless form but stayed in the
    /// canonical form, so the two no longer read back alike.
    #[test]
    fn text_before_a_removed_game_goes_with_it_in_both_forms() {
        let mut doc = crate::parse(b"(;GM[1]C[a])\nTitle two\n(;GM[1]C[b])\nthe end").document;
        let root2 = doc.game(1).unwrap().root().id();
        doc.remove_node(root2).unwrap();
        let wo = WriteOptions::default();
        let canon = String::from_utf8(to_canonical_bytes(&doc, &wo)).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        assert_eq!(
            canon,
            String::from_utf8(to_canonical_bytes(&again, &wo)).unwrap()
        );
        assert!(
            !canon.contains("Title two") && canon.contains("the end"),
            "{canon}"
        );
    }

    fn canon(s: &[u8]) -> String {
        let p = parse(s);
        String::from_utf8(to_canonical_bytes(&p.document, &WriteOptions::default())).unwrap()
    }

    /// Parts of a collection written one by one and joined with
    /// `GAME_SEPARATOR` give the collection's canonical form.
    #[test]
    fn parts_join_into_the_collection() {
        let opts = WriteOptions::default();
        let whole = crate::parse(b"(;B[aa])\n(;W[bb]C[x])\n(;B[cc])").document;
        let a = to_canonical_bytes(&crate::parse(b"(;B[aa])").document, &opts);
        let b = to_canonical_bytes(&crate::parse(b"(;W[bb]C[x])\n(;B[cc])").document, &opts);
        let joined = [a, GAME_SEPARATOR.to_vec(), b].concat();
        assert_eq!(to_canonical_bytes(&whole, &opts), joined);
    }

    /// Fuzzing found it: junk the reader ignored (`[s]` without an
    /// identifier) reads as a value of a move an edit puts before it. The
    /// checked writer refuses instead of changing the file silently.
    #[test]
    fn the_checked_writer_refuses_what_would_read_differently() {
        let mut doc = crate::parse(b"(;([s]o\n").document;
        let var = doc.game(0).unwrap().nodes().nth(1).unwrap().id();
        let kid = doc.add_child(var).unwrap();
        doc.set_raw(kid, "B", &["kk".into()]).unwrap();
        let err = to_lossless_bytes_checked(&doc).unwrap_err();
        assert_eq!(err.node, 2);
        // A clean file edited the same way is written and reads back.
        let mut doc = crate::parse(b"(;C[x](;B[aa]))").document;
        let var = doc.game(0).unwrap().nodes().nth(1).unwrap().id();
        let kid = doc.add_child(var).unwrap();
        doc.set_raw(kid, "W", &["kk".into()]).unwrap();
        assert_eq!(
            to_lossless_bytes_checked(&doc).unwrap(),
            b"(;C[x](;B[aa]\n;W[kk]))"
        );
    }

    /// Fuzzing found it: a `CA[GBK]` game whose only GBK text is deleted
    /// reads, written as it was, as UTF-8 (its other bytes are valid
    /// UTF-8): refused, with the charset named.
    #[test]
    fn the_checked_writer_refuses_a_charset_that_would_change() {
        let src = b"(;CA[GBK];C[a\xef\xbf\xbdd];C[\xba\xda\xc6\xe5])";
        let mut doc = crate::parse(src).document;
        assert_eq!(doc.game(0).unwrap().charset(), "GBK");
        let last = doc.game(0).unwrap().nodes().nth(2).unwrap().id();
        doc.remove_node(last).unwrap();
        let err = to_lossless_bytes_checked(&doc).unwrap_err();
        assert_eq!(err.charset, Some("UTF-8"));
        assert!(err.to_string().contains("read as UTF-8"), "{err}");
    }

    /// Fuzzing found it: a property added to a file that ends inside a
    /// value (`(W[`) was written inside that value.
    #[test]
    fn an_input_ending_inside_a_value_is_closed_before_additions() {
        let mut doc = crate::parse(b"(W[").document;
        assert_eq!(to_lossless_bytes(&doc), b"(W[");
        let node = doc.game(0).unwrap().root().id();
        doc.add_raw(node, "N", &["x".into()]).unwrap();
        let out = to_lossless_bytes(&doc);
        assert_eq!(out, b"(W[]N[x]");
        let again = crate::parse(&out).document;
        assert_eq!(
            again.game(0).unwrap().root().text("N").as_deref(),
            Some("x")
        );
        // An escaped bracket at the end does not close the value either.
        let mut doc = crate::parse(b"(;C[a\\]").document;
        let node = doc.game(0).unwrap().root().id();
        doc.add_raw(node, "N", &["y".into()]).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        assert_eq!(
            again.game(0).unwrap().root().text("N").as_deref(),
            Some("y")
        );
    }

    /// Fuzzing found it: a node read without its `;` (after a variation)
    /// merged into its parent once the variation before it was deleted.
    #[test]
    fn a_node_without_semicolon_stays_a_node_after_edits() {
        let src = b"(;US[A](;B[pd]) ]RE[W])";
        let mut doc = crate::parse(src).document;
        assert_eq!(to_lossless_bytes(&doc), src);
        let root = doc.game(0).unwrap().root().id();
        let first = doc.node(root).children().next().unwrap().id();
        doc.remove_node(first).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        let opts = WriteOptions::default();
        assert_eq!(
            canon(&to_canonical_bytes(&doc, &opts)),
            canon(&to_canonical_bytes(&again, &opts))
        );
        assert_eq!(again.game(0).unwrap().nodes().count(), 2);
    }

    #[test]
    fn lossless_identity() {
        for s in [
            &b"(;FF[4]GM[1] ;B[aa]\n(;W[bb])(;W[cc]))"[..],
            b"junk before (;B[aa] -- W[bb]) trailing",
            b"(;C[abc",
            b";GM[1];B[aa])",
            b"(FF[4]KO[x];B[pd])",
        ] {
            let p = parse(s);
            assert_eq!(to_lossless_bytes(&p.document), s);
            let mut d = p.document.clone();
            d.edited = true; // force the token walk
            assert_eq!(
                String::from_utf8_lossy(&to_lossless_bytes(&d)),
                String::from_utf8_lossy(s)
            );
        }
    }

    #[test]
    fn canonical_layout() {
        assert_eq!(
            canon(b"(;GM[1]SZ[9];B[aa](;W[bb])(;W[cc];B[dd]))"),
            "(;FF[4]\nCA[UTF-8]\nGM[1]\nSZ[9]\n;B[aa]\n(;W[bb])\n(;W[cc]\n;B[dd]))\n"
        );
        assert_eq!(
            canon(b"(;FF[3]CA[ISO-8859-1]AddBlack[aa]AB[bb])"),
            "(;FF[4]\nCA[UTF-8]\nAB[aa][bb])\n"
        );
        assert_eq!(
            canon(br"(;C[a\]b\\c\d])"),
            "(;FF[4]\nCA[UTF-8]\nC[a\\]b\\\\cd])\n"
        );
        assert_eq!(
            canon(b"(;LB[aa:x\\:y])"),
            "(;FF[4]\nCA[UTF-8]\nLB[aa:x:y])\n"
        );
        assert_eq!(
            canon(b"(;AP[a\\:b:1])"),
            "(;FF[4]\nCA[UTF-8]\nAP[a\\:b:1])\n"
        );
    }

    #[test]
    fn canonical_transcodes() {
        // GBK 黑棋 → UTF-8
        let out = canon(b"(;CA[GB2312]PB[\xba\xda\xc6\xe5])");
        assert!(out.contains("PB[黑棋]"), "{out}");
        assert!(out.contains("CA[UTF-8]"));
    }

    /// `fmt --expand` once left a list alone when it was its node's only
    /// property, and expanded lists in games whose points are not letters.
    #[test]
    fn expanding_alone_and_only_in_go() {
        let opts = WriteOptions {
            point_lists: PointLists::Expanded,
            ..WriteOptions::default()
        };
        let doc = crate::parse(b"(;GM[1]SZ[19];AB[cc:dd])").document;
        assert!(canon(&to_canonical_bytes(&doc, &opts)).ends_with(";AB[cc][dc][cd][dd])\n"));
        let doc = crate::parse(b"(;GM[19]SZ[19];MA[ee:ff]B[aa])").document;
        assert!(canon(&to_canonical_bytes(&doc, &opts)).contains("MA[ee:ff]"));
        // Decided per game tree (libsgfc++'s compressed-point-list.sgf): a
        // Go game before a game of another kind is expanded.
        let doc =
            crate::parse(b"(;FF[4]GM[1];MA[aa:bb];AB[cc:dd])(;FF[4]GM[19];MA[ee:ff])").document;
        let out = canon(&to_canonical_bytes(&doc, &opts));
        assert!(
            out.contains(";MA[aa][ba][ab][bb]\n;AB[cc][dc][cd][dd])"),
            "{out}"
        );
        assert!(out.contains(";MA[ee:ff])"), "{out}");
    }

    #[test]
    fn compress_and_expand() {
        let p = parse(b"(;AB[aa][ba][ab][bb][dd])");
        let o = WriteOptions {
            point_lists: PointLists::Compressed,
            ..Default::default()
        };
        let s = String::from_utf8(to_canonical_bytes(&p.document, &o)).unwrap();
        assert!(s.contains("AB[aa:bb][dd]"), "{s}");
        let p = parse(s.as_bytes());
        let o = WriteOptions {
            point_lists: PointLists::Expanded,
            ..Default::default()
        };
        let s = String::from_utf8(to_canonical_bytes(&p.document, &o)).unwrap();
        assert!(s.contains("AB[aa][ba][ab][bb][dd]"), "{s}");
    }
}
