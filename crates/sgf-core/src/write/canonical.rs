//! The canonical writer: FF\[4\], UTF-8, one node per line.

use std::io::{self, Write};

use encoding_rs::{Encoding, UTF_8};

use crate::charset::Dbcs;
use crate::doc::{Document, Key, NONE, NodeData, UNKNOWN_BASE, ValueData};
use crate::props::{self, ValueType};
use crate::value::{self, Point};
use crate::work;

use crate::text::encode_value;

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
    let rest = canonical(doc, opts, Some(w), SPILL_BYTES + (SPILL_BYTES >> 2))?;
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
    let mut cw = Canon::new(doc, opts, Vec::new());
    cw.game(game);
    cw.newline();
    cw.out
}

/// Writes the canonical form into a buffer, handed to `sink` each time it
/// passes `SPILL_BYTES` when there is one; returns what is left in the buffer.
fn canonical<W: Write>(
    doc: &Document,
    opts: &WriteOptions,
    sink: Option<&mut W>,
    max_capacity: usize,
) -> io::Result<Vec<u8>> {
    // The canonical form adds about one line break per node, and the
    // root's `CA`, `FF` and line breaks: reserved once, never regrown.
    let out = Vec::with_capacity(
        (doc.src.len() + doc.src.len() / 8 + doc.node_len() + 1024).min(max_capacity),
    );
    let mut cw = Canon::new(doc, opts, out);
    cw.sink = sink.map(|w| w as &mut dyn Write);
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
        cw.spill();
    }
    // Text after the last game, after a blank line.
    for o in outside.iter().filter(|o| o.in_place && o.before.is_none()) {
        cw.newline();
        cw.put_text(o.text.as_bytes());
        cw.newline();
    }
    match cw.failed.take() {
        Some(e) => Err(e),
        None => Ok(cw.out),
    }
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
    /// Where the output goes each time it passes `SPILL_BYTES`, when it is
    /// written as it is made (a game of a million moves is not held whole).
    sink: Option<&'a mut dyn Write>,
    /// The first failure of `sink`; nothing more is handed to it.
    failed: Option<io::Error>,
}

/// How much output [`Canon`] holds before handing it to its sink.
const SPILL_BYTES: usize = 256 << 10;

impl<'a> Canon<'a> {
    fn new(doc: &'a Document, opts: &'a WriteOptions, out: Vec<u8>) -> Canon<'a> {
        Canon {
            doc,
            opts,
            out,
            col: 0,
            scratch: Vec::new(),
            enc: UTF_8,
            dbcs: None,
            lists: opts.point_lists,
            budget: doc.src.len() * 4 + 52 * 52,
            sink: None,
            failed: None,
        }
    }
}

impl Canon<'_> {
    /// Hands the output so far to the sink once it passes `SPILL_BYTES`.
    #[inline]
    fn spill(&mut self) {
        if self.out.len() < SPILL_BYTES {
            return;
        }
        if self.failed.is_some() {
            // The output is lost with the error: not held either.
            self.out.clear();
            return;
        }
        if let Some(w) = self.sink.as_mut() {
            match w.write_all(&self.out) {
                Ok(()) => self.out.clear(),
                Err(e) => self.failed = Some(e),
            }
        }
    }

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
                    let doc = self.doc;
                    let mut fc = doc.first_child_of(n);
                    while fc != NONE && doc.next_sibling_of(fc) == NONE {
                        if !self.move_line(fc) {
                            self.newline();
                            self.node(fc);
                        }
                        self.spill();
                        fc = doc.first_child_of(fc);
                    }
                    {
                        let at = stack.len();
                        let mut c = fc;
                        while c != NONE {
                            stack.push(Item::Node(c, true));
                            c = self.doc.next_sibling_of(c);
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
        let nd = doc.nd(n);
        let is_root = nd.parent == NONE;
        self.byte(b';');
        if nd.plen == 1 && !is_root && self.fast_node(&nd) {
            return;
        }
        let props = doc.props_of(&nd);
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
                let vals: Vec<ValueData> = props[i..]
                    .iter()
                    .filter(|q| q.key == p.key)
                    .flat_map(|q| doc.values_of(q).to_vec())
                    .collect();
                let vals: Vec<&ValueData> = vals.iter().collect();
                self.values(vt, ident.len(), &vals);
            } else {
                let vals = doc.values_of(p);
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
        if let Some(semi) = doc.compact_semi(n)
            && self.enc.is_ascii_compatible()
        {
            // `;B[pd]` or `;B[]` as read: the line is its bytes after a
            // break (copies of a fixed size, which need no call).
            let at = semi as usize;
            self.out.push(b'\n');
            if doc.src[at + 3] == b']' {
                self.out.extend_from_slice(&doc.src[at..at + 4]);
                self.col = 4;
            } else {
                self.out.extend_from_slice(&doc.src[at..at + 6]);
                self.col = 6;
            }
            return true;
        }
        let nd = doc.nd(n);
        if nd.plen != 1 || nd.parent == NONE || !self.enc.is_ascii_compatible() {
            return false;
        }
        let p = doc.pd(nd.pstart);
        if p.key >= UNKNOWN_BASE || p.vlen != 1 {
            return false;
        }
        // A point list may be rewritten (`MA[aa:bb]` expanded): it was
        // copied as written when the source went on far enough after it
        // (a game followed by another), as `fast_node` knows.
        if self.lists != PointLists::AsWritten && props::info(p.key).value.is_point_list() {
            return false;
        }
        let v = doc.vd(p.vstart);
        let Some(open) = v.open() else { return false };
        let raw = doc.raw_value(&v);
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
        let p = doc.pd(nd.pstart);
        if p.key >= UNKNOWN_BASE || p.vlen != 1 || !self.enc.is_ascii_compatible() {
            return false;
        }
        // A point list may be rewritten (`AB[cc:dd]` expanded).
        if self.lists != PointLists::AsWritten && props::info(p.key).value.is_point_list() {
            return false;
        }
        let raw = doc.raw_value(&doc.vd(p.vstart));
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
