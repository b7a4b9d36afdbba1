//! `qipu dump`: the whole collection as it was read, as JSON or as an
//! indented listing.
//!
//! `{"games": [{"charset": "UTF-8", "nodes": [{"parent": null, "props": [["FF", ["4"]], …]}, …]}]}`
//! Nodes are listed in file order (pre-order); `parent` indexes that list.
//! Values are decoded, escapes resolved and soft line breaks removed; white
//! space is kept as written.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::doc::{Document, NodeId};

fn json_str<W: Write>(w: &mut W, s: &str) -> io::Result<()> {
    serde_json::to_writer(&mut *w, s).map_err(io::Error::other)
}

/// Writes the dump of `doc`.
///
/// # Errors
/// Only errors of `w`.
pub fn write_dump<W: Write>(doc: &Document, w: &mut W) -> io::Result<()> {
    w.write_all(b"{\"games\":[")?;
    for (gi, game) in doc.games().enumerate() {
        if gi > 0 {
            w.write_all(b",")?;
        }
        w.write_all(b"{\"charset\":")?;
        json_str(w, game.charset())?;
        w.write_all(b",\"nodes\":[")?;
        let mut index: HashMap<NodeId, usize> = HashMap::new();
        for (i, node) in game.nodes().enumerate() {
            index.insert(node.id(), i);
            if i > 0 {
                w.write_all(b",")?;
            }
            w.write_all(b"{\"parent\":")?;
            match node.parent() {
                Some(p) => write!(w, "{}", index[&p.id()])?,
                None => w.write_all(b"null")?,
            }
            w.write_all(b",\"props\":[")?;
            for (pi, p) in node.props().enumerate() {
                if pi > 0 {
                    w.write_all(b",")?;
                }
                w.write_all(b"[")?;
                json_str(w, p.ident())?;
                w.write_all(b",[")?;
                for (vi, v) in p.values().enumerate() {
                    if vi > 0 {
                        w.write_all(b",")?;
                    }
                    json_str(w, &v.decoded())?;
                }
                w.write_all(b"]]")?;
            }
            w.write_all(b"]}")?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"]}\n")
}

/// An indented listing: one line per node, `number depth-indent props`.
pub fn listing(doc: &Document) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for game in doc.games() {
        let _ = writeln!(s, "game {} ({})", game.index(), game.charset());
        let mut depth: HashMap<NodeId, usize> = HashMap::new();
        for (i, node) in game.nodes().enumerate() {
            let d = node
                .parent()
                .map_or(0, |p| depth[&p.id()] + usize::from(p.child_count() > 1));
            depth.insert(node.id(), d);
            let _ = write!(s, "{:>5} {}", i, "  ".repeat(d.min(40)));
            if node.props().len() == 0 {
                s.push(';');
            }
            for p in node.props() {
                s.push_str(p.ident());
                for v in p.values() {
                    let t = v.decoded();
                    let _ = write!(
                        s,
                        "[{}]",
                        t.replace('\\', "\\\\")
                            .replace('\n', "\\n")
                            .replace('\r', "\\r")
                    );
                }
            }
            s.push('\n');
        }
    }
    s
}

/// The dump as a string.
pub fn dump_string(doc: &Document) -> String {
    let mut v = Vec::new();
    write_dump(doc, &mut v).expect("writing to a Vec cannot fail");
    String::from_utf8(v).expect("JSON is UTF-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dump_shape() {
        let p = crate::parse(b"(;FF[4]C[a\\]b\\\nc];B[aa](;W[bb])(;W[cc]))");
        let s = super::dump_string(&p.document);
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        let nodes = &v["games"][0]["nodes"];
        assert_eq!(nodes.as_array().unwrap().len(), 4);
        assert_eq!(nodes[0]["parent"], serde_json::Value::Null);
        assert_eq!(nodes[0]["props"][1][1][0], "a]bc");
        assert_eq!(nodes[3]["parent"], 1);
    }
}
