//! PNG output decoded again and spot-checked: stone colours at known points,
//! the board colour between them, the size asked for, identical bytes twice.

use resvg::tiny_skia::Pixmap;
use sgf_core::{Point, parse};
use sgf_render::{Diagram, RenderOptions, Theme, render_png};

#[path = "../../../testsupport/require.rs"]
mod require;

/// The colour at the centre of a point of the drawn board.
fn pixel_at(png: &[u8], d: &Diagram, opts: &RenderOptions, p: Point) -> (u8, u8, u8) {
    let pix = Pixmap::decode_png(png).expect("a PNG we can read");
    let g = d.geometry(opts);
    let scale = f64::from(pix.width()) / g.width;
    let (x, y) = g.center(p);
    // A little off the centre: the last-move marker sits on the centre.
    let px = ((x + 0.3 * g.cell) * scale) as u32;
    let py = ((y + 0.12 * g.cell) * scale) as u32;
    let c = pix.pixel(px, py).expect("inside the image");
    (c.red(), c.green(), c.blue())
}

fn luma((r, g, b): (u8, u8, u8)) -> u32 {
    (u32::from(r) * 299 + u32::from(g) * 587 + u32::from(b) * 114) / 1000
}

#[test]
fn stones_have_their_colours() {
    let doc = parse(b"(;SZ[9]AB[cc][gg]AW[cg];B[ee];W[gc]TR[ee])").document;
    let node = doc.game(0).unwrap().main_line().last().unwrap().id();
    for theme in [Theme::Light, Theme::Dark] {
        let opts = RenderOptions {
            theme,
            ..RenderOptions::default()
        };
        let d = Diagram::at(&doc, node, &opts).unwrap();
        let png = render_png(&doc, node, &opts, 450).unwrap();
        let pix = Pixmap::decode_png(&png).unwrap();
        assert_eq!(pix.width().max(pix.height()), 450);
        let black = pixel_at(&png, &d, &opts, Point::new(2, 2));
        let white = pixel_at(&png, &d, &opts, Point::new(2, 6));
        let empty = pixel_at(&png, &d, &opts, Point::new(5, 5));
        assert!(luma(black) < 40, "{theme:?} black stone: {black:?}");
        assert!(luma(white) > 200, "{theme:?} white stone: {white:?}");
        let board = luma(empty);
        assert!(board > 40 && board < 200, "{theme:?} board: {empty:?}");
        if theme == Theme::Light {
            // Wood: more red than blue.
            assert!(empty.0 > empty.2 + 60, "{empty:?}");
        }
        // The move at ee and the stone at gc.
        assert!(luma(pixel_at(&png, &d, &opts, Point::new(4, 4))) < 40);
        assert!(luma(pixel_at(&png, &d, &opts, Point::new(6, 2))) > 200);
        // Deterministic bytes.
        assert_eq!(png, render_png(&doc, node, &opts, 450).unwrap());
    }
}

#[test]
fn sizes_are_checked() {
    let doc = parse(b"(;SZ[19])").document;
    let root = doc.game(0).unwrap().root().id();
    let opts = RenderOptions::default();
    assert!(render_png(&doc, root, &opts, 0).is_err());
    assert!(render_png(&doc, root, &opts, 100_000).is_err());
    let png = render_png(&doc, root, &opts, 64).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn big_and_rectangular_boards() {
    for src in [
        &b"(;SZ[52];W[aa];B[ZZ])"[..],
        b"(;SZ[13:7];B[mg])",
        b"(;SZ[2];B[aa])",
    ] {
        let doc = parse(src).document;
        let node = doc.game(0).unwrap().main_line().last().unwrap().id();
        let opts = RenderOptions::default();
        let d = Diagram::at(&doc, node, &opts).unwrap();
        let png = render_png(&doc, node, &opts, 800).unwrap();
        let last = d.last_move.unwrap();
        let c = pixel_at(&png, &d, &opts, last);
        assert!(
            luma(c) < 60,
            "{:?} at {last}: {c:?}",
            String::from_utf8_lossy(src)
        );
    }
}

/// With the `cjk-png` feature and a CJK font on the machine, a CJK label is
/// drawn as text, not as its outline box.
#[cfg(feature = "cjk-png")]
#[test]
fn cjk_labels_in_png() {
    if !sgf_render::png_has_cjk_text() {
        require::missing(
            "no CJK font found (apt-get install fonts-wqy-microhei, or set QIPU_CJK_FONT)",
        );
        return;
    }
    let doc = parse("(;SZ[5]LB[cc:甲])".as_bytes()).document;
    let root = doc.game(0).unwrap().root().id();
    let opts = RenderOptions::default();
    let d = Diagram::at(&doc, root, &opts).unwrap();
    let png = render_png(&doc, root, &opts, 400).unwrap();
    let pix = Pixmap::decode_png(&png).unwrap();
    let g = d.geometry(&opts);
    let scale = f64::from(pix.width()) / g.width;
    let (cx, cy) = g.center(Point::new(2, 2));
    // Dark pixels in the inner third of the cell: strokes of 甲, not a box outline.
    let half = g.cell * 0.15 * scale;
    let (x0, y0) = ((cx * scale - half) as u32, (cy * scale - half) as u32);
    let mut dark = 0;
    for y in y0..y0 + (2.0 * half) as u32 {
        for x in x0..x0 + (2.0 * half) as u32 {
            if luma(pixel(&pix, x, y)) < 80 {
                dark += 1;
            }
        }
    }
    assert!(dark > 10, "{dark} dark pixels");
}

#[cfg(feature = "cjk-png")]
fn pixel(pix: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let c = pix.pixel(x, y).unwrap();
    (c.red(), c.green(), c.blue())
}
