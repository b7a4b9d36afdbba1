//! The lossless writer: the input back, byte for byte, with edits spliced in.

use std::io::{self, Write};

use crate::arena::{COMPACT, VIRTUAL, compact_end};
use crate::doc::{Document, F_SYN_PAREN, F_SYNTHETIC, NONE};

use super::canonical::{WriteOptions, to_canonical_bytes};

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
    // A compact node's three tokens (`;`, `B`, `[xy]`) are contiguous:
    // its `;` alone stands for them, in a list of its own (ids follow the
    // source, so it is sorted).
    let mut compact: Vec<u32> = Vec::new();
    for (id, slot) in doc.slots.iter().enumerate() {
        if slot & COMPACT != 0 {
            compact.push(slot & !COMPACT);
            continue;
        }
        let n = &doc.full[slot as usize];
        if n.semi != NONE {
            toks.push((n.semi, n.semi + 1));
        }
        if n.pstart & VIRTUAL != 0 {
            let p = doc.pd(VIRTUAL | id as u32);
            toks.push((p.ident, p.ident + 1));
            let v = doc.vd(p.vstart);
            toks.push((v.start, v.end()));
        }
    }
    if !compact.is_sorted() {
        compact.sort_unstable();
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
    // The token that starts last before `start`, of either list.
    let before = |start: u32| -> Option<(u32, u32)> {
        let a = match toks.binary_search_by(|t| t.0.cmp(&start)) {
            Ok(0) | Err(0) => None,
            Ok(i) | Err(i) => Some(toks[i - 1]),
        };
        let b = match compact.binary_search(&start) {
            Ok(0) | Err(0) => None,
            Ok(i) | Err(i) => {
                let c = compact[i - 1];
                Some(if start > c + 2 {
                    (c + 2, compact_end(src, c))
                } else if start == c + 2 {
                    (c + 1, c + 2)
                } else {
                    (c, c + 1)
                })
            }
        };
        match (a, b) {
            (Some(a), Some(b)) => Some(if a.0 >= b.0 { a } else { b }),
            (a, b) => a.or(b),
        }
    };
    let lead = |start: u32| -> usize { before(start).map_or(0, |t| t.1.min(start) as usize) };
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
                    let nd = doc.nd(n);
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
                        let first_from_input = nd.plen > 0 && doc.pd(nd.pstart).ident != NONE;
                        if !(matches!(last, Some(b'(' | b')')) && first_from_input) {
                            out.put(b";");
                        }
                    }
                    for pi in nd.pstart..nd.pstart + nd.plen as u32 {
                        let p = doc.pd(pi);
                        if p.ident != NONE {
                            emit(&mut out, p.ident, p.ident + p.ident_len as u32);
                        } else {
                            out.put(doc.key_ident(p.key).as_bytes());
                        }
                        for vi in p.vstart..p.vstart + p.vlen {
                            let v = doc.vd(vi);
                            if let Some(open) = v.open() {
                                emit(&mut out, open, v.end());
                                // The input may end inside this value.
                                out.open_value =
                                    !value_closes(&src[open as usize..v.end() as usize]);
                            } else {
                                out.put(b"[");
                                out.buf.extend_from_slice(doc.raw_value(&v));
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
                        c = doc.nd(c).next_sibling;
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
    let tail = toks
        .last()
        .map_or(0, |t| t.1)
        .max(compact.last().map_or(0, |&c| compact_end(src, c))) as usize;
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
