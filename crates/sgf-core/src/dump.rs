//! The whole collection as it was read, as an indented listing (what
//! `qipu dump` prints, and the fixture snapshots show). Values are
//! decoded, escapes resolved and soft line breaks removed.

use std::collections::HashMap;

use crate::doc::{Document, NodeId};

/// An indented listing: one line per node, `number depth-indent props`.
pub fn listing(doc: &Document) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for game in doc.games() {
        let _ = writeln!(s, "game {} ({})", game.index(), game.charset());
        let mut depth: HashMap<NodeId, usize> = HashMap::new();
        for (i, node) in game.nodes().enumerate() {
            // More than one child: asked of the first two, not counted (a
            // node of a million variations would be counted for each).
            let d = node.parent().map_or(0, |p| {
                let branches = p.first_child().and_then(|c| c.next_sibling()).is_some();
                depth[&p.id()] + usize::from(branches)
            });
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
