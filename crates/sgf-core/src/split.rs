//! Splitting a collection into runs of whole game trees, so that a large
//! file can be read, checked and repaired a part at a time — on several
//! cores, with memory for a few parts instead of the whole tree.
//!
//! The split is made only where it falls between game trees: the file is
//! scanned with the parser's tokenizer ([`crate::lexer`]: values end at an
//! unescaped `]`, trees nest in parentheses), and refused when that scan could be wrong (UTF-16
//! or UTF-32; ISO-2022-JP; anything but white space between trees; a tree
//! that does not start `(;`; a tree left open). Readers then
//! fall back on reading the file whole, which is always right.
//!
//! One doubt remains: a byte ≥ 0x80 right before `]` or `\` can be the
//! lead byte of a double-byte character whose trail byte is that `]`, when
//! the parser reads a game charset-aware (see [`crate::Document::dbcs_of`]).
//! The split says so ([`Split::dbcs_doubt`]); it holds when no game of a
//! part is in a double-byte charset ([`Split::holds_for`]), as the parser
//! then reads every value as the scan did. A file
//! that is valid UTF-8 and declares no other charset has no such doubt.

use std::ops::Range;

use crate::lexer;

/// A collection cut into parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Byte ranges that cover the file exactly, in order, without gaps.
    pub ranges: Vec<Range<usize>>,
    /// A byte ≥ 0x80 stands right before a `]` or `\` in a file that may be
    /// read in a double-byte charset: the split holds only if no game of
    /// any part is read charset-aware (see the module docs).
    pub dbcs_doubt: bool,
}

impl Split {
    /// Whether the cut holds for a part read into `doc`. Not when the part
    /// alone looked like UTF-16 or UTF-32 (the whole file did not, or it
    /// would not have been cut), nor, while a doubt about double-byte trail
    /// bytes stands, when a game of the part is in a double-byte charset:
    /// whether such a game is read charset-aware depends on what follows
    /// it in the file. Then only the whole file is read right.
    pub fn holds_for(&self, doc: &crate::Document) -> bool {
        doc.transcoded_from.is_none()
            && (!self.dbcs_doubt
                || doc
                    .games()
                    .all(|g| crate::charset::Dbcs::of(g.encoding()).is_none()))
    }
}

/// Byte ranges that cover `bytes` exactly (in order, without gaps), each
/// holding whole game trees and about `target` bytes, when `bytes` can be
/// split into at least two of them (see the module docs).
pub fn split_collection(bytes: &[u8], target: usize) -> Option<Split> {
    if bytes.len() / 2 < target.max(1)
        || crate::charset::sniff_utf16(bytes).is_some()
        || crate::charset::sniff_utf32(bytes).is_some()
        // ISO-2022-JP text is 7-bit: its `]` and `\` inside kanji show no
        // high byte for the doubt below. Such a file is read whole.
        || memchr::memmem::find(bytes, b"\x1b$").is_some()
    {
        return None;
    }
    // In UTF-8 a byte ≥ 0x80 before `]` ends a character: no trail byte
    // can be `]` or `\`.
    let utf8 = only_utf8(bytes);
    let mut dbcs_doubt = false;
    let mut parts = Vec::new();
    let mut part_start = 0usize;
    let mut depth = 0usize;
    let mut i = 0usize;
    let n = bytes.len();
    while i < n {
        if depth > 0 {
            // Inside a tree only values and parentheses matter.
            match lexer::next_structural(&bytes[i..]) {
                Some(k) => i += k,
                None => break,
            }
        }
        let b = bytes[i];
        match b {
            b'[' => {
                // A value: up to the first `]` not escaped, read as the
                // parser reads it in a game not read charset-aware.
                let end = lexer::find_close(bytes, i + 1, None)? + 1;
                if !utf8 && !dbcs_doubt {
                    dbcs_doubt = trail_byte_doubt(&bytes[i + 1..end]);
                }
                i = end;
                continue;
            }
            b'(' => {
                // A game tree that does not start `(;` is read with the
                // parser's recovery, whose guesses depend on what follows:
                // such a file is read whole.
                if depth == 0 && bytes.get(lexer::skip_ws(bytes, i + 1)) != Some(&b';') {
                    return None;
                }
                depth += 1;
            }
            b')' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
                if depth == 0 && i + 1 - part_start >= target {
                    // The next part starts at the line after this tree, so
                    // that a part's lines are the file's lines.
                    let end = i + 1;
                    let next_tree = lexer::skip_ws(bytes, end);
                    if next_tree < n && bytes[next_tree] != b'(' {
                        return None;
                    }
                    if let Some(nl) = bytes[end..next_tree].iter().rposition(|&c| c == b'\n') {
                        let next = end + nl + 1;
                        parts.push(part_start..next);
                        part_start = next;
                    }
                    i = next_tree;
                    continue;
                }
            }
            _ if depth == 0 && !lexer::is_ws(b) => return None,
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        return None;
    }
    if part_start < n {
        parts.push(part_start..n);
    }
    (parts.len() >= 2).then_some(Split {
        ranges: parts,
        dbcs_doubt,
    })
}

/// Whether a byte ≥ 0x80 stands right before a `]` or `\\` of a value
/// (its text and closing `]`, as the value was read without a charset):
/// possibly the trail byte of a double-byte character, which would not
/// close or escape anything read in that charset.
fn trail_byte_doubt(value: &[u8]) -> bool {
    memchr::memchr2_iter(b']', b'\\', value).any(|at| at > 0 && value[at - 1] >= 0x80)
}

/// Whether `bytes` are valid UTF-8 and every `CA` they hold says UTF-8,
/// so that no reader takes them for a double-byte charset.
fn only_utf8(bytes: &[u8]) -> bool {
    if std::str::from_utf8(bytes).is_err() {
        return false;
    }
    memchr::memmem::find_iter(bytes, b"CA[").all(|at| {
        let value = &bytes[at + 3..];
        let end = memchr::memchr(b']', value).unwrap_or(value.len());
        let v = value[..end].trim_ascii();
        v.eq_ignore_ascii_case(b"UTF-8") || v.eq_ignore_ascii_case(b"UTF8")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_between_trees_only() {
        let file = b"(;C[a)b\\]](;B[aa]))\n(;C[(])\n\n(;W[bb]) (;W[cc])";
        let split = split_collection(file, 1).unwrap();
        assert!(!split.dbcs_doubt);
        let parts = split.ranges;
        // Only where a line break separates two trees.
        assert_eq!(
            parts.iter().map(|r| &file[r.clone()]).collect::<Vec<_>>(),
            vec![
                &b"(;C[a)b\\]](;B[aa]))\n"[..],
                b"(;C[(])\n\n",
                b"(;W[bb]) (;W[cc])"
            ]
        );
        // Parts hold several trees when the target is larger.
        let parts = split_collection(file, 15).unwrap().ranges;
        assert_eq!(split_collection(file, usize::MAX), None);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts.last().unwrap().end, file.len());
    }

    #[test]
    fn splits_utf8_text_ending_before_brackets() {
        let file = "(;CA[utf-8]C[黑])\n(;C[白\\]])\n".as_bytes();
        let split = split_collection(file, 1).unwrap();
        assert_eq!((split.ranges.len(), split.dbcs_doubt), (2, false));
        // Other bytes before `]` leave a doubt, for the reader to settle.
        for doubt in [
            "(;CA[GBK]C[黑])\n(;C[y])".as_bytes(),
            b"(;C[\x83]])\n(;C[y])",
            b"(;C[\x83\\]])\n(;C[y])",
        ] {
            assert!(split_collection(doubt, 1).unwrap().dbcs_doubt);
        }
    }

    #[test]
    fn refuses_what_could_be_wrong() {
        for bad in [
            &b"(;C[x])\njunk(;C[y])"[..],
            b"(;C[x])\n(;C[y",
            b")(;C[x])\n(;C[y])",
            b"(;C[\x1b$B4A\x1b(B])\n(;C[y])",
            b"(;C[x])\n(;C[y]",
            b"(;C[x])\n(C[y])",
            b"(;C[x])",
        ] {
            assert_eq!(
                split_collection(bad, 1),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
