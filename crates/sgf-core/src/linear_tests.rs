//! Hostile input costs work linear in its size: the parser's recovery,
//! the validator, the listing, the writers, the splitter and the lexer on
//! every shape of `testsupport/hostile.rs`, at two sizes, with the steps
//! of their scans and walks counted ([`crate::work`]). Nothing is timed.

#[macro_use]
#[path = "../../../testsupport/hostile.rs"]
mod hostile;

use crate::work;

/// Everything this crate does to a file read whole.
fn pipeline(src: &[u8]) {
    let p = crate::parse(src);
    let doc = &p.document;
    let _ = crate::validate::validate(doc);
    let _ = crate::dump::listing(doc);
    for lists in [
        crate::PointLists::AsWritten,
        crate::PointLists::Compressed,
        crate::PointLists::Expanded,
    ] {
        let opts = crate::WriteOptions {
            point_lists: lists,
            ..crate::WriteOptions::default()
        };
        let _ = crate::write::to_canonical_bytes(doc, &opts);
    }
    let _ = crate::write::to_lossless_bytes(doc);
    for g in doc.games() {
        for n in g.nodes() {
            for p in n.props() {
                for v in p.values() {
                    let _ = v.text();
                }
            }
        }
    }
    let _ = crate::split::split_collection(src, 64);
    for _ in crate::lexer::Lexer::new(src) {}
}

fn steps(src: &[u8]) -> u64 {
    work::take();
    pipeline(src);
    work::take()
}

fn check(name: &str) {
    hostile::check_linear(name, 32, steps);
}

each_shape!(linear_tests);

/// `game_of` (from the games' id ranges, or from the index made in one
/// pass) names the game a walk up to the root finds, on every shape.
#[test]
fn game_of_agrees_with_the_walk_up() {
    for (name, src) in hostile::shapes(5) {
        let doc = crate::parse(&src).document;
        for i in 0..doc.node_capacity() {
            let n = crate::NodeId(i as u32);
            let root = doc.root_of(n);
            let walked = doc.games.iter().position(|g| g.root == root.0);
            assert_eq!(doc.game_of(n), walked, "{name}: node {i}");
        }
    }
}
