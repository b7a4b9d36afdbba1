//! Recovery: where damaged input goes on (the next game tree, text that looks like SGF, previews of what is skipped).

use super::*;
pub(super) use crate::lexer::skip_ws;
use crate::work;

/// Stray bytes for a message: UTF-8 shown as text, other bytes and control
/// characters as `\xHH` (the charset is not known yet when they are met).
pub(super) fn preview(b: &[u8]) -> String {
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

/// Whether an identifier followed by `[` starts at `i`.
pub(super) fn ident_value_at(src: &[u8], i: usize) -> bool {
    let mut j = i;
    while j < src.len() && src[j].is_ascii_alphabetic() {
        j += 1;
    }
    j > i && j - i <= 12 && src[i].is_ascii_uppercase() && src.get(skip_ws(src, j)) == Some(&b'[')
}

/// Where the next game tree starts at or after `from`: `(;`, `((;`, a
/// `(` followed by properties (no `;`), or a `;` followed by properties
/// (no `(`).
pub(super) fn find_tree_start(src: &[u8], from: usize) -> Option<(usize, Start)> {
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
        work::add(p - i + 1);
        let damaged_ok = p == clean_until;
        if src[p] == b'(' {
            let mut q = skip_ws(src, p + 1);
            while src.get(q) == Some(&b'(') {
                q = skip_ws(src, q + 1);
            }
            work::add(q - p);
            match src.get(q) {
                Some(b';') => return Some((p, Start::Paren)),
                Some(_) if damaged_ok && ident_value_at(src, q) => {
                    return Some((p, Start::ParenNoSemi));
                }
                _ => {}
            }
            // Every `(` of the run `p..q` (parentheses and white space)
            // leads to the same `q`, and none of them is at `clean_until`
            // (only `p` can be): none starts a tree. Going on after the run,
            // not after `p`, keeps a run of `(` linear.
            i = q;
            continue;
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
pub(super) fn sgf_like(junk: &[u8]) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `find_tree_start` as it was, rescanning the rest of a run of `(`
    /// from each of them: the reference the linear one must agree with.
    fn find_tree_start_rescanning(src: &[u8], from: usize) -> Option<(usize, Start)> {
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

    /// Every input of up to 7 bytes over the bytes that matter (and a
    /// BOM before some), from every position: the same answer.
    #[test]
    fn skipping_a_run_of_parentheses_finds_what_rescanning_found() {
        const ALPHABET: &[u8] = b"(; A[]x";
        let key = |r: Option<(usize, Start)>| r.map(|(p, s)| (p, s as u8));
        let mut src = Vec::new();
        for len in 0..=7u32 {
            for n in 0..ALPHABET.len().pow(len) {
                for bom in [false, true] {
                    src.clear();
                    if bom {
                        src.extend_from_slice(b"\xEF\xBB\xBF");
                    }
                    let mut k = n;
                    for _ in 0..len {
                        src.push(ALPHABET[k % ALPHABET.len()]);
                        k /= ALPHABET.len();
                    }
                    for from in 0..=src.len() {
                        assert_eq!(
                            key(find_tree_start(&src, from)),
                            key(find_tree_start_rescanning(&src, from)),
                            "{:?} from {from}",
                            String::from_utf8_lossy(&src)
                        );
                    }
                }
            }
        }
    }
}
