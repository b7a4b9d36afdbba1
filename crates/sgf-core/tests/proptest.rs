//! Property tests: any input parses without panic and comes back byte for
//! byte; SGF-shaped input survives the canonical writer as the same tree;
//! random edits keep the lossless output valid.

mod common;

use common::signature;
use proptest::prelude::*;
use sgf_core::{
    ParseOptions, Severity, WriteOptions, parse, parse_with, to_canonical_bytes, to_lossless_bytes,
};

/// `Game::nodes` (a run of ids when the arena is in file order, the links
/// otherwise) is the pre-order that the parent/child links give, and
/// `node_by_number` agrees with it.
fn assert_file_order(doc: &sgf_core::Document) {
    for g in doc.games() {
        let mut want = Vec::new();
        let mut stack = vec![g.root()];
        while let Some(n) = stack.pop() {
            want.push(n.id());
            let kids: Vec<_> = n.children().collect();
            stack.extend(kids.into_iter().rev());
        }
        let got: Vec<_> = g.nodes().map(|n| n.id()).collect();
        assert_eq!(got, want);
        for (k, &id) in want.iter().enumerate().step_by(3) {
            assert_eq!(g.node_by_number(k).map(|n| n.id()), Some(id));
        }
        assert!(g.node_by_number(want.len()).is_none());
    }
}

/// A syntax error in the structure (repeated properties are content, kept by the lossless writer).
fn structural(d: &sgf_core::Diagnostic) -> bool {
    d.severity == Severity::Error
        && d.code.layer() == "syntax"
        && d.code != sgf_core::Code::DuplicateProperty
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("a".to_string()),
            Just(" ".to_string()),
            Just("]".to_string()),
            Just("\\".to_string()),
            Just(":".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\t".to_string()),
            Just("黑".to_string()),
            Just("[".to_string()),
            Just(";".to_string()),
            Just("(".to_string()),
        ],
        0..12,
    )
    .prop_map(|v| v.concat())
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn point() -> impl Strategy<Value = String> {
    (0u8..19, 0u8..19).prop_map(|(x, y)| format!("{}{}", (b'a' + x) as char, (b'a' + y) as char))
}

fn prop_text() -> impl Strategy<Value = String> {
    prop_oneof![
        point().prop_map(|p| format!("B[{p}]")),
        point().prop_map(|p| format!("W[{p}]")),
        Just("B[]".to_string()),
        text().prop_map(|t| format!("C[{}]", escape(&t))),
        text().prop_map(|t| format!("N[{}]", escape(&t))),
        prop::collection::vec(point(), 1..4).prop_map(|v| format!(
            "AB{}",
            v.iter().map(|p| format!("[{p}]")).collect::<String>()
        )),
        (point(), text()).prop_map(|(p, t)| format!("LB[{p}:{}]", escape(&t).replace(':', "\\:"))),
        text().prop_map(|t| format!("XQ[{}]", escape(&t))),
        Just("AddWhite[cc]".to_string()),
    ]
}

fn node() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop_text(), 0..4),
        prop_oneof![Just(""), Just(" "), Just("\n")],
    )
        .prop_map(|(ps, ws)| format!(";{}{}", ps.join(ws), ws))
}

fn tree() -> impl Strategy<Value = String> {
    let leaf = prop::collection::vec(node(), 1..4).prop_map(|ns| format!("({})", ns.concat()));
    leaf.prop_recursive(4, 24, 4, |inner| {
        (
            prop::collection::vec(node(), 1..3),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(ns, kids)| format!("({}{})", ns.concat(), kids.concat()))
    })
}

/// A game tree as data, to write the same tree in several layouts.
#[derive(Clone, Debug)]
struct Shape {
    nodes: Vec<Vec<String>>,
    children: Vec<Shape>,
}

fn shape() -> impl Strategy<Value = Shape> {
    let nodes = || prop::collection::vec(prop::collection::vec(prop_text(), 0..4), 1..4);
    let leaf = nodes().prop_map(|nodes| Shape {
        nodes,
        children: Vec::new(),
    });
    leaf.prop_recursive(4, 24, 4, move |inner| {
        (nodes(), prop::collection::vec(inner, 0..4))
            .prop_map(|(nodes, children)| Shape { nodes, children })
    })
}

/// Writes `s` compactly, or with white space after every `;` and between
/// properties and trees (which the parser reads by its general path, not
/// the fast one for compact nodes).
fn layout(s: &Shape, spaced: bool, out: &mut String) {
    let sep = if spaced { " \n " } else { "" };
    out.push('(');
    for n in &s.nodes {
        out.push(';');
        out.push_str(sep);
        out.push_str(&n.join(sep));
    }
    for c in &s.children {
        out.push_str(sep);
        layout(c, spaced, out);
    }
    out.push(')');
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn split_parts_read_like_the_whole(
        trees in prop::collection::vec(tree(), 1..6),
        seps in prop::collection::vec(prop_oneof![Just("\n"), Just(" "), Just("\r\n\n"), Just("x\n")], 5),
        target in prop_oneof![Just(1usize), 1usize..120],
    ) {
        let mut src = String::new();
        for (i, t) in trees.iter().enumerate() {
            if i > 0 {
                src.push_str(seps[i - 1]);
            }
            src.push_str(t);
        }
        let bytes = src.as_bytes();
        let split = sgf_core::split::split_collection(bytes, target);
        // Trees on lines of their own are always cut when there is room.
        if trees.len() >= 2 && seps.iter().take(trees.len() - 1).all(|s| s.ends_with('\n')) && !seps.contains(&"x\n") && target == 1 {
            prop_assert!(split.is_some(), "{}", src);
        }
        if let Some(split) = split {
            prop_assert!(split.ranges.len() >= 2);
            prop_assert_eq!(split.ranges[0].start, 0);
            prop_assert_eq!(split.ranges.last().unwrap().end, bytes.len());
            for w in split.ranges.windows(2) {
                prop_assert_eq!(w[0].end, w[1].start);
            }
            let parts: Vec<_> = split.ranges.iter().map(|r| parse(&bytes[r.clone()])).collect();
            if parts.iter().all(|p| split.holds_for(&p.document)) {
                let joined: common::Signature =
                    parts.iter().flat_map(|p| signature(&p.document)).collect();
                prop_assert_eq!(joined, signature(&parse(bytes).document), "{}", src);
            }
        }
    }

    #[test]
    fn white_space_between_tokens_changes_nothing(
        shapes in prop::collection::vec(shape(), 1..3),
        max_nodes in prop_oneof![Just(usize::MAX), 1usize..12],
    ) {
        let (mut compact, mut spaced) = (String::new(), String::new());
        for s in &shapes {
            layout(s, false, &mut compact);
            layout(s, true, &mut spaced);
        }
        let mut opts = ParseOptions::default();
        opts.max_nodes = max_nodes;
        let a = parse_with(compact.as_bytes(), &opts);
        let b = parse_with(spaced.as_bytes(), &opts);
        prop_assert_eq!(signature(&a.document), signature(&b.document), "{}\n{}", compact, spaced);
        let codes = |p: &sgf_core::Parsed| p.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
        prop_assert_eq!(codes(&a), codes(&b), "{}\n{}", compact, spaced);
        prop_assert_eq!(to_lossless_bytes(&a.document), compact.as_bytes());
    }

    #[test]
    fn any_bytes_parse_and_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let p = parse(&bytes);
        assert_file_order(&p.document);
        for d in &p.diagnostics {
            prop_assert!(d.span.start <= d.span.end);
            prop_assert!(d.span.end as usize <= p.document.source().len());
        }
        prop_assert_eq!(to_lossless_bytes(&p.document), bytes);
        let canon = to_canonical_bytes(&p.document, &WriteOptions::default());
        let again = to_canonical_bytes(&parse(&canon).document, &WriteOptions::default());
        prop_assert_eq!(canon, again);
    }

    #[test]
    fn sgf_like_bytes_round_trip(s in prop::collection::vec(prop_oneof![
        Just(b'('), Just(b')'), Just(b';'), Just(b'['), Just(b']'), Just(b'\\'),
        Just(b'B'), Just(b'W'), Just(b'a'), Just(b' '), Just(b':'), Just(b'C')
    ], 0..200)) {
        let p = parse(&s);
        assert_file_order(&p.document);
        prop_assert_eq!(to_lossless_bytes(&p.document), s);
        let canon = to_canonical_bytes(&p.document, &WriteOptions::default());
        let p2 = parse(&canon);
        prop_assert_eq!(signature(&p.document), signature(&p2.document));
    }

    #[test]
    fn collections_survive_fmt(trees in prop::collection::vec(tree(), 1..3)) {
        let src = trees.join("\n");
        let p = parse(src.as_bytes());
        assert_file_order(&p.document);
        prop_assert_eq!(to_lossless_bytes(&p.document), src.as_bytes());
        let canon = to_canonical_bytes(&p.document, &WriteOptions::default());
        let p2 = parse(&canon);
        prop_assert!(!p2.diagnostics.iter().any(structural),
            "{:?}\n{}", p2.diagnostics, String::from_utf8_lossy(&canon));
        prop_assert_eq!(signature(&p.document), signature(&p2.document));
        let again = to_canonical_bytes(&p2.document, &WriteOptions::default());
        prop_assert_eq!(canon, again);
    }

    #[test]
    fn node_order_survives_edits_and_undo(t in tree(), ops in prop::collection::vec((0u8..4, any::<prop::sample::Index>()), 1..6)) {
        let mut doc = parse(t.as_bytes()).document;
        assert_file_order(&doc);
        let before = signature(&doc);
        doc.begin_change();
        for (op, idx) in ops {
            let nodes: Vec<_> = doc.game(0).map(|g| g.nodes().map(|n| n.id()).collect()).unwrap_or_default();
            if nodes.is_empty() { break; }
            let n = nodes[idx.index(nodes.len())];
            match op {
                0 => { let c = doc.add_child(n).unwrap(); doc.set_values(c, "B", &["dd"]).unwrap(); }
                1 => { if doc.node(n).parent().is_some() { doc.remove_node(n).unwrap(); } }
                2 => { if doc.node(n).parent().is_some() { doc.promote_to_main_line(n).unwrap(); } }
                _ => { doc.split_below(n).unwrap(); }
            }
            assert_file_order(&doc);
        }
        let change = doc.end_change();
        let redo = doc.revert(change);
        assert_file_order(&doc);
        prop_assert_eq!(signature(&doc), before);
        doc.revert(redo);
        assert_file_order(&doc);
    }

    #[test]
    fn edits_keep_the_lossless_output_valid(t in tree(), ops in prop::collection::vec((0u8..5, any::<prop::sample::Index>(), text()), 1..6)) {
        let mut doc = parse(t.as_bytes()).document;
        for (op, idx, txt) in ops {
            let nodes: Vec<_> = doc.game(0).map(|g| g.nodes().map(|n| n.id()).collect()).unwrap_or_default();
            if nodes.is_empty() { break; }
            let n = nodes[idx.index(nodes.len())];
            match op {
                0 => { doc.set_text(n, "C", &txt).unwrap(); }
                1 => { let c = doc.add_child(n).unwrap(); doc.set_values(c, "B", &["dd"]).unwrap(); }
                2 => { if doc.node(n).parent().is_some() { doc.remove_node(n).unwrap(); } }
                3 => { if doc.node(n).parent().is_some() { doc.promote_to_main_line(n).unwrap(); } }
                _ => { doc.remove_property(n, "C"); }
            }
        }
        let out = to_lossless_bytes(&doc);
        let p = parse(&out);
        prop_assert!(!p.diagnostics.iter().any(structural),
            "{:?}\n{}", p.diagnostics, String::from_utf8_lossy(&out));
        prop_assert_eq!(signature(&doc), signature(&p.document));
    }
}
