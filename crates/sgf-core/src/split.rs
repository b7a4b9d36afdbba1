//! Splitting a collection into runs of whole game trees, so that a large
//! file can be read, checked and repaired a part at a time — on several
//! cores, with memory for a few parts instead of the whole tree.
//!
//! The split is made only where it is certain to fall between game trees:
//! the file is scanned with the grammar's rules (values end at an
//! unescaped `]`, trees nest in parentheses), and refused when that scan
//! could be wrong (a byte ≥ 0x80 right before `]` or `\`, where a
//! double-byte charset could hide a trail byte; UTF-16; anything but white
//! space between trees; a tree left open). Readers then fall back on
//! reading the file whole, which is always right.

use std::ops::Range;

/// Byte ranges that cover `bytes` exactly (in order, without gaps), each
/// holding whole game trees and about `target` bytes, when `bytes` can be
/// split safely into at least two of them (see the module docs).
pub fn split_collection(bytes: &[u8], target: usize) -> Option<Vec<Range<usize>>> {
    if bytes.len() / 2 < target.max(1) || crate::charset::sniff_utf16(bytes).is_some() {
        return None;
    }
    let mut parts = Vec::new();
    let mut part_start = 0usize;
    let mut depth = 0usize;
    let mut i = 0usize;
    let n = bytes.len();
    while i < n {
        let b = bytes[i];
        match b {
            b'[' => {
                // A value: up to the first `]` not escaped.
                i += 1;
                loop {
                    let off = memchr::memchr2(b']', b'\\', &bytes[i..])?;
                    let at = i + off;
                    if at > 0 && bytes[at - 1] >= 0x80 {
                        // Possibly the trail byte of a double-byte character.
                        return None;
                    }
                    if bytes[at] == b'\\' {
                        i = at + 2;
                        if i > n {
                            return None;
                        }
                        continue;
                    }
                    i = at + 1;
                    break;
                }
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
                if depth == 0 && i + 1 - part_start >= target {
                    // The next part starts at the line after this tree, so
                    // that a part's lines are the file's lines.
                    let end = i + 1;
                    let ws = bytes[end..]
                        .iter()
                        .take_while(|&&c| crate::lexer::is_ws(c))
                        .count();
                    let next_tree = end + ws;
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
            _ if depth == 0 && !crate::lexer::is_ws(b) => return None,
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
    (parts.len() >= 2).then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_between_trees_only() {
        let file = b"(;C[a)b\\]](;B[aa]))\n(;C[(])\n\n(;W[bb]) (;W[cc])";
        let parts = split_collection(file, 1).unwrap();
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
        let parts = split_collection(file, 15).unwrap();
        assert_eq!(split_collection(file, usize::MAX), None);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts.last().unwrap().end, file.len());
    }

    #[test]
    fn refuses_what_could_be_wrong() {
        for bad in [
            &b"(;C[x])junk(;C[y])"[..],
            b"(;C[x])(;C[y",
            b"(;C[\x83]])(;C[y])",
            b"(;C[\x83\\])(;C[y])",
            b")(;C[x])(;C[y])",
            b"(;C[x])(;C[y]",
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
