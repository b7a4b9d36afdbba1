//! `VW` as each format version means it.

use sgf_core::{Point, parse};
use sgf_render::{Diagram, RenderOptions};

fn view(sgf: &str) -> Diagram {
    let doc = parse(sgf.as_bytes()).document;
    let node = doc.game(0).unwrap().main_line().last().unwrap().id();
    Diagram::at(&doc, node, &RenderOptions::default()).unwrap()
}

fn visible(d: &Diagram) -> Vec<Point> {
    let mut out = Vec::new();
    for y in d.view.y0..=d.view.y1 {
        for x in d.view.x0..=d.view.x1 {
            let p = Point::new(x, y);
            if !d.hidden[y as usize * d.size.cols as usize + x as usize] {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn ff3_view_is_two_corners() {
    let d = view("(;FF[3]GM[1]SZ[9];B[cc]VW[ba][db])");
    assert_eq!((d.view.x0, d.view.y0, d.view.x1, d.view.y1), (1, 0, 3, 1));
    assert_eq!(visible(&d).len(), 6);
}

#[test]
fn ff4_view_is_a_point_list() {
    let d = view("(;FF[4]GM[1]SZ[9];B[cc]VW[ba][db])");
    assert_eq!((d.view.x0, d.view.y0, d.view.x1, d.view.y1), (1, 0, 3, 1));
    assert_eq!(visible(&d), vec![Point::new(1, 0), Point::new(3, 1)]);
    let d = view("(;FF[4]GM[1]SZ[9];B[cc]VW[ba:db])");
    assert_eq!(visible(&d).len(), 6);
}
