//! Building an SGF record in memory: what every reader of a foreign format
//! fills, and then turns into a [`sgf_core::Document`] by writing SGF text
//! and parsing it (so converted records go through exactly the same model,
//! checks and writers as SGF files).

use sgf_core::value::{Color, Point};
use sgf_core::{Code, Diagnostic, Parsed, Span};

use crate::common::sgf_point;

#[derive(Default, Debug, Clone)]
struct BNode {
    /// Identifier and raw (already escaped) values, in insertion order.
    props: Vec<(String, Vec<String>)>,
    children: Vec<usize>,
}

/// An SGF game tree under construction. Node 0 ([`SgfBuilder::ROOT`]) is
/// the root; values are given as text and escaped here.
///
/// ```
/// use sgf_formats::builder::SgfBuilder;
/// use sgf_core::value::{Color, Point};
///
/// let mut b = SgfBuilder::new_go(19);
/// b.set_text(SgfBuilder::ROOT, "PB", "黑]棋");
/// let n = b.add_child(SgfBuilder::ROOT);
/// b.set_move(n, Color::Black, Some(Point::new(15, 3)));
/// assert_eq!(
///     b.to_sgf(),
///     "(;FF[4]CA[UTF-8]GM[1]SZ[19]PB[黑\\]棋]\n;B[pd])\n"
/// );
/// ```
#[derive(Debug, Clone)]
pub struct SgfBuilder {
    nodes: Vec<BNode>,
}

impl Default for SgfBuilder {
    fn default() -> Self {
        SgfBuilder::new()
    }
}

impl SgfBuilder {
    /// The root node.
    pub const ROOT: usize = 0;

    /// A tree with an empty root.
    pub fn new() -> SgfBuilder {
        SgfBuilder {
            nodes: vec![BNode::default()],
        }
    }

    /// A Go record: `FF[4]CA[UTF-8]GM[1]SZ[size]` in the root.
    pub fn new_go(size: u8) -> SgfBuilder {
        let mut b = SgfBuilder::new();
        b.set_raw(Self::ROOT, "FF", vec!["4".into()]);
        b.set_raw(Self::ROOT, "CA", vec!["UTF-8".into()]);
        b.set_raw(Self::ROOT, "GM", vec!["1".into()]);
        b.set_raw(Self::ROOT, "SZ", vec![size.to_string()]);
        b
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the root exists and it is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1 && self.nodes[0].props.is_empty()
    }

    /// Adds a node as the last child of `parent`.
    pub fn add_child(&mut self, parent: usize) -> usize {
        let id = self.nodes.len();
        self.nodes.push(BNode::default());
        self.nodes[parent].children.push(id);
        id
    }

    /// Adds a node as the first child of `parent` (the main line).
    pub fn add_first_child(&mut self, parent: usize) -> usize {
        let id = self.nodes.len();
        self.nodes.push(BNode::default());
        self.nodes[parent].children.insert(0, id);
        id
    }

    /// The children of a node.
    pub fn children(&self, node: usize) -> &[usize] {
        &self.nodes[node].children
    }

    /// Removes a childless node from its parent (the node slot stays unused).
    pub fn detach_leaf(&mut self, parent: usize, node: usize) {
        if self.nodes[node].children.is_empty() {
            self.nodes[parent].children.retain(|&c| c != node);
        }
    }

    /// Sets a property to raw values (SGF value content, escapes included).
    pub fn set_raw(&mut self, node: usize, ident: &str, raws: Vec<String>) {
        let props = &mut self.nodes[node].props;
        match props.iter_mut().find(|(i, _)| i == ident) {
            Some((_, v)) => *v = raws,
            None => props.push((ident.to_string(), raws)),
        }
    }

    /// Appends raw values to a property (creating it).
    pub fn add_raw(&mut self, node: usize, ident: &str, raw: String) {
        let props = &mut self.nodes[node].props;
        match props.iter_mut().find(|(i, _)| i == ident) {
            Some((_, v)) => v.push(raw),
            None => props.push((ident.to_string(), vec![raw])),
        }
    }

    /// Sets a property to one text value (escaped here). Empty text sets nothing.
    pub fn set_text(&mut self, node: usize, ident: &str, text: &str) {
        if !text.is_empty() {
            self.set_raw(node, ident, vec![sgf_core::text::escape(text, false)]);
        }
    }

    /// Appends one text value (escaped here) to a list property.
    pub fn add_text(&mut self, node: usize, ident: &str, text: &str) {
        self.add_raw(node, ident, sgf_core::text::escape(text, false));
    }

    /// Appends a line to a text property (a comment built from several parts).
    pub fn append_line(&mut self, node: usize, ident: &str, line: &str) {
        let props = &mut self.nodes[node].props;
        let esc = sgf_core::text::escape(line, false);
        match props.iter_mut().find(|(i, _)| i == ident) {
            Some((_, v)) if !v.is_empty() => {
                v[0].push('\n');
                v[0].push_str(&esc);
            }
            _ => self.set_raw(node, ident, vec![esc]),
        }
    }

    /// Sets a move: `B[pd]`, or `B[]` for a pass (`None`).
    pub fn set_move(&mut self, node: usize, color: Color, at: Option<Point>) {
        self.set_raw(
            node,
            color.as_str(),
            vec![at.map(sgf_point).unwrap_or_default()],
        );
    }

    /// Adds setup stones.
    pub fn add_stones(&mut self, node: usize, ident: &str, points: &[Point]) {
        for &p in points {
            self.add_raw(node, ident, sgf_point(p));
        }
    }

    /// The raw values of a property.
    pub fn raw_values(&self, node: usize, ident: &str) -> Option<&[String]> {
        self.nodes[node]
            .props
            .iter()
            .find(|(i, _)| i == ident)
            .map(|(_, v)| v.as_slice())
    }

    /// Whether a node has a property.
    pub fn has(&self, node: usize, ident: &str) -> bool {
        self.nodes[node].props.iter().any(|(i, _)| i == ident)
    }

    /// The SGF text: the root and every single-child line one node per line,
    /// variations in parentheses. No recursion (records can be long).
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        enum Item {
            Node(usize),
            Close,
        }
        let mut stack = vec![Item::Node(Self::ROOT)];
        let mut first = true;
        while let Some(it) = stack.pop() {
            match it {
                Item::Node(n) => {
                    if !first {
                        out.push('\n');
                    }
                    first = false;
                    out.push('(');
                    stack.push(Item::Close);
                    let mut cur = n;
                    loop {
                        self.write_node(&mut out, cur);
                        match self.nodes[cur].children.as_slice() {
                            [only] => {
                                out.push('\n');
                                cur = *only;
                            }
                            kids => {
                                for &k in kids.iter().rev() {
                                    stack.push(Item::Node(k));
                                }
                                break;
                            }
                        }
                    }
                }
                Item::Close => out.push(')'),
            }
        }
        out.push('\n');
        out
    }

    fn write_node(&self, out: &mut String, n: usize) {
        out.push(';');
        for (ident, vals) in &self.nodes[n].props {
            if vals.is_empty() {
                continue;
            }
            out.push_str(ident);
            for v in vals {
                out.push('[');
                out.push_str(v);
                out.push(']');
            }
        }
    }

    /// Parses the SGF text into a document whose source is the canonical
    /// form (what `qipu convert` writes), so that offsets found in the
    /// document later (by a checker) are offsets in that text. The text is
    /// well formed by construction; should the parser still complain, its
    /// diagnostics are kept as `R002` with an empty span. `diagnostics` (the
    /// reader's, with spans into the input) are returned with the document.
    pub fn into_parsed(self, mut diagnostics: Vec<Diagnostic>) -> Parsed {
        let first = sgf_core::parse_str(&self.to_sgf());
        let canon =
            sgf_core::to_canonical_bytes(&first.document, &sgf_core::WriteOptions::default());
        let mut parsed = sgf_core::parse(&canon);
        for d in first
            .diagnostics
            .into_iter()
            .chain(parsed.diagnostics.drain(..))
        {
            diagnostics.push(Diagnostic::new(
                Code::FormatUnreadable,
                Span::default(),
                format!("the converted record: [{}] {}", d.code.as_str(), d.message),
            ));
        }
        parsed.diagnostics = diagnostics;
        parsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_and_escaping() {
        let mut b = SgfBuilder::new_go(9);
        let a = b.add_child(SgfBuilder::ROOT);
        b.set_move(a, Color::Black, Some(Point::new(4, 4)));
        let v1 = b.add_child(a);
        b.set_move(v1, Color::White, None);
        let v2 = b.add_child(a);
        b.set_move(v2, Color::White, Some(Point::new(2, 2)));
        b.set_text(v2, "C", "a]b\\c");
        let v0 = b.add_first_child(a);
        b.set_move(v0, Color::White, Some(Point::new(6, 6)));
        let s = b.to_sgf();
        assert_eq!(
            s,
            "(;FF[4]CA[UTF-8]GM[1]SZ[9]\n;B[ee]\n(;W[gg])\n(;W[])\n(;W[cc]C[a\\]b\\\\c]))\n"
        );
        let p = b.into_parsed(Vec::new());
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let g = p.document.game(0).unwrap();
        assert_eq!(g.nodes().count(), 5);
    }

    #[test]
    fn long_lines_do_not_recurse() {
        let mut b = SgfBuilder::new_go(19);
        let mut n = SgfBuilder::ROOT;
        for i in 0..100_000 {
            n = b.add_child(n);
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.set_move(n, c, None);
        }
        let p = b.into_parsed(Vec::new());
        assert_eq!(p.document.game(0).unwrap().main_line().count(), 100_001);
    }
}
