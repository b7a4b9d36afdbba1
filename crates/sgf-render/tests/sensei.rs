//! Sensei's Library diagrams (`TextStyle::Sensei`).

use sgf_core::parse;
use sgf_render::{Diagram, MoveNumbers, RenderOptions, TextStyle};

fn sensei(sgf: &str, opts: &RenderOptions) -> String {
    let doc = parse(sgf.as_bytes()).document;
    let node = doc.game(0).unwrap().main_line().last().unwrap().id();
    Diagram::at(&doc, node, opts)
        .unwrap()
        .to_text(opts, TextStyle::Sensei)
}

#[test]
fn stones_markup_labels_and_edges() {
    let opts = RenderOptions {
        coordinates: false,
        ..RenderOptions::default()
    };
    let out = sensei(
        "(;GM[1]SZ[9]AB[cc][gg]AW[cg];W[gc]CR[cc]TR[gc]SQ[ee]LB[ce:A][ec:b]MA[gg])",
        &opts,
    );
    let expected = "\
$$B
$$ ---------------------
$$ | . . . . . . . . . |
$$ | . . . . . . . . . |
$$ | . . B . b . Q . . |
$$ | . . . . . . . . . |
$$ | . . a . S . . . . |
$$ | . . . . . . . . . |
$$ | . . O . . . Z . . |
$$ | . . . . . . . . . |
$$ | . . . . . . . . . |
$$ ---------------------
";
    assert_eq!(out, expected);
}

#[test]
fn ten_moves_are_numbered_from_the_first_shown() {
    let opts = RenderOptions {
        coordinates: true,
        move_numbers: MoveNumbers::From(3),
        ..RenderOptions::default()
    };
    let out = sensei("(;GM[1]SZ[9];B[aa];W[ba];B[ca];W[da];B[ea])", &opts);
    assert!(out.starts_with("$$Bcm3\n"), "{out}");
    assert!(out.contains("\n$$ | X O 1 2 3 . . . . |\n"), "{out}");
}

#[test]
fn a_partial_view_draws_only_its_edges() {
    let opts = RenderOptions {
        coordinates: false,
        ..RenderOptions::default()
    };
    let out = sensei("(;GM[1]SZ[9]VW[aa:cc];B[bb])", &opts);
    // The edges out of view are open; the star point at C7 is `,`.
    assert_eq!(out, "$$W\n$$ -------\n$$ | . . .\n$$ | . X .\n$$ | . . ,\n");
}

#[test]
fn a_diagram_built_by_hand_with_too_few_numbers_is_drawn() {
    let mut d = Diagram::empty(sgf_go::BoardSize { cols: 5, rows: 5 });
    // One number for 25 points: the others have none.
    d.numbers = vec![1];
    let out = d.to_text(&RenderOptions::default(), TextStyle::Sensei);
    assert_eq!(out.lines().count(), 5 + 3);
}
