//! The whole collection as it was read, as an indented listing (what
//! `qipu dump` prints, and the fixture snapshots show) or as JSON (`qipu
//! dump --json`). Values are decoded, escapes resolved and soft line
//! breaks removed. Both are written as they are made, node by node, so
//! that a large game costs no more than its tree.

use std::io::{self, Write};

use crate::doc::{Document, Game};

/// An indented listing: one line per node, `number depth-indent props`.
pub fn listing(doc: &Document) -> String {
    let mut out = Vec::new();
    let _ = write_listing(doc, 0, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the [`listing`] of `doc`, whose first game is game
/// `first_game` (from 0) of the file (a part of a collection read alone).
///
/// # Errors
/// When `out` fails.
pub fn write_listing(doc: &Document, first_game: usize, out: &mut dyn Write) -> io::Result<()> {
    let mut line = String::new();
    for game in doc.games() {
        writeln!(
            out,
            "game {} ({})",
            game.index() + first_game,
            game.charset()
        )?;
        for Visit {
            index: i,
            node,
            depth: d,
            ..
        } in visits(&game)
        {
            line.clear();
            use std::fmt::Write as _;
            let _ = write!(line, "{:>5} {}", i, "  ".repeat(d.min(40)));
            if node.props().len() == 0 {
                line.push(';');
            }
            for p in node.props() {
                line.push_str(p.ident());
                for v in p.values() {
                    let t = v.decoded();
                    line.push('[');
                    for c in t.chars() {
                        match c {
                            '\\' => line.push_str("\\\\"),
                            '\n' => line.push_str("\\n"),
                            '\r' => line.push_str("\\r"),
                            c => line.push(c),
                        }
                    }
                    line.push(']');
                }
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
    }
    Ok(())
}

/// A node as [`visits`] meets it.
struct Visit<'d> {
    /// Its number in file order (pre-order) within the game.
    index: usize,
    node: crate::Node<'d>,
    /// How many of its ancestors have more than one child.
    depth: usize,
    /// The number of its parent.
    parent: Option<usize>,
}

/// The nodes of a game in file order (pre-order, first variation first),
/// each with what its parent gives it. Only the variations still to visit
/// are held: a main line of a million moves costs nothing.
fn visits<'d>(game: &Game<'d>) -> impl Iterator<Item = Visit<'d>> + use<'d> {
    let mut stack = vec![(game.root(), 0usize, None)];
    let mut index = 0;
    std::iter::from_fn(move || {
        let (node, depth, parent) = stack.pop()?;
        if let Some(first) = node.first_child() {
            // More than one child: asked of the first two, not counted (a
            // node of a million variations would be counted for each).
            let d = depth + usize::from(first.next_sibling().is_some());
            let at = stack.len();
            let mut c = Some(first);
            while let Some(n) = c {
                stack.push((n, d, Some(index)));
                c = n.next_sibling();
            }
            stack[at..].reverse();
        }
        index += 1;
        Some(Visit {
            index: index - 1,
            node,
            depth,
            parent,
        })
    })
}

/// Writes the games of `doc` as the members of the `games` array of `qipu
/// dump --json` (`{"games":[…]}`): `{"charset":"UTF-8","nodes":[{"parent":null,"props":[["FF",["4"]],…]},…]}`,
/// nodes in file order (pre-order), `parent` the index of the parent in
/// that list. A comma goes before each game unless `first` (which is then
/// cleared), so that the games of the parts of a collection join into one
/// array.
///
/// # Errors
/// When `out` fails.
pub fn write_json_games(doc: &Document, first: &mut bool, out: &mut dyn Write) -> io::Result<()> {
    write_json_games_of(doc, None, first, out)
}

/// [`write_json_games`] of the games of the file `file` (a member of an
/// archive, say): each game object then starts with `"file": FILE`.
///
/// # Errors
/// When `out` cannot be written.
pub fn write_json_games_of(
    doc: &Document,
    file: Option<&str>,
    first: &mut bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    for game in doc.games() {
        if !std::mem::take(first) {
            buf.push(b',');
        }
        buf.push(b'{');
        if let Some(f) = file {
            buf.extend_from_slice(b"\"file\":");
            json_string(f, &mut buf);
            buf.push(b',');
        }
        buf.extend_from_slice(b"\"charset\":");
        json_string(game.charset(), &mut buf);
        buf.extend_from_slice(b",\"nodes\":[");
        json_nodes(&game, &mut buf, out)?;
        buf.extend_from_slice(b"]}");
    }
    out.write_all(&buf)
}

fn json_nodes(game: &Game<'_>, buf: &mut Vec<u8>, out: &mut dyn Write) -> io::Result<()> {
    for Visit {
        index: i,
        node,
        parent,
        ..
    } in visits(game)
    {
        if i > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"parent\":");
        match parent {
            Some(p) => buf.extend_from_slice(p.to_string().as_bytes()),
            None => buf.extend_from_slice(b"null"),
        }
        buf.extend_from_slice(b",\"props\":[");
        for (k, p) in node.props().enumerate() {
            if k > 0 {
                buf.push(b',');
            }
            buf.push(b'[');
            json_string(p.ident(), buf);
            buf.extend_from_slice(b",[");
            for (j, v) in p.values().enumerate() {
                if j > 0 {
                    buf.push(b',');
                }
                json_string(&v.decoded(), buf);
            }
            buf.extend_from_slice(b"]]");
        }
        buf.extend_from_slice(b"]}");
        if buf.len() > 1 << 16 {
            out.write_all(buf)?;
            buf.clear();
        }
    }
    Ok(())
}

/// A JSON string, escaped as serde_json escapes it: `"`, `\` and the
/// control characters (`\b \f \n \r \t`, the others as `\u00xx`);
/// everything else as it is.
pub fn json_string(s: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => {
                out.extend_from_slice(&bytes[start..i]);
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 15) as usize]);
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(esc);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped_as_json_wants() {
        let mut out = Vec::new();
        json_string("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}黑", &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\u{7f}黑\""
        );
    }

    #[test]
    fn parts_number_their_games_and_join_into_one_array() {
        let doc = crate::parse(b"(;CA[UTF-8]C[a](;B[aa])(;W[bb];B[cc]))(;CA[UTF-8]C[b])").document;
        let listing = listing(&doc);
        assert!(
            listing.starts_with("game 0 (UTF-8)\n    0 CA[UTF-8]C[a]\n"),
            "{listing}"
        );
        assert!(
            listing.contains("    2   W[bb]\n    3   B[cc]\n"),
            "{listing}"
        );
        let mut part = Vec::new();
        write_listing(&crate::parse(b"(;CA[UTF-8]C[b])").document, 1, &mut part).unwrap();
        assert!(listing.ends_with(std::str::from_utf8(&part).unwrap()));
        let mut out = Vec::new();
        let mut first = true;
        write_json_games(&doc, &mut first, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            concat!(
                r#"{"charset":"UTF-8","nodes":[{"parent":null,"props":[["CA",["UTF-8"]],["C",["a"]]]},"#,
                r#"{"parent":0,"props":[["B",["aa"]]]},{"parent":0,"props":[["W",["bb"]]]},"#,
                r#"{"parent":2,"props":[["B",["cc"]]]}]},"#,
                r#"{"charset":"UTF-8","nodes":[{"parent":null,"props":[["CA",["UTF-8"]],["C",["b"]]]}]}"#
            )
        );
        assert!(!first);
    }
}
