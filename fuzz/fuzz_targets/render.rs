//! Drawing: any node of any record as SVG and text (and, for small inputs,
//! PNG), with the options varied by the input; book figures too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_render::{Diagram, FigureOptions, MoveNumbers, RenderOptions, TextStyle, Variations};

fuzz_target!(|data: &[u8]| {
    let doc = sgf_core::parse(data).document;
    let Some(g) = doc.game(0) else { return };
    let nodes: Vec<_> = g.nodes().map(|n| n.id()).take(2000).collect();
    let k = data.len();
    let node = nodes[k % nodes.len()];
    let opts = RenderOptions {
        coordinates: k & 1 == 0,
        move_numbers: match k % 3 {
            0 => MoveNumbers::None,
            1 => MoveNumbers::All,
            _ => MoveNumbers::Last(3),
        },
        variations: if k & 2 == 0 {
            Variations::Auto
        } else {
            Variations::Children
        },
        view: k & 4 == 0,
        ..RenderOptions::default()
    };
    if let Ok(d) = Diagram::at(&doc, node, &opts) {
        let svg = d.to_svg(&opts);
        assert!(svg.starts_with("<svg"));
        let _ = d.to_text(&opts, TextStyle::Ascii);
        let _ = d.to_text(&opts, TextStyle::Unicode);
        if data.len() < 200 {
            let _ = d.to_png(&opts, 48);
        }
    }
    let figs = sgf_render::figures(&doc, 0, &FigureOptions::default());
    for f in figs.iter().take(3) {
        let _ = f.to_svg(sgf_render::Theme::Light);
    }
});
