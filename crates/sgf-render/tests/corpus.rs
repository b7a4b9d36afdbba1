//! Every record of the sample corpus (outside the big `real/` collections)
//! drawn at many nodes, as SVG, text and a small PNG, and split into figures:
//! no panics, and SVG that resvg reads. Skips when the corpus is absent.

use std::path::{Path, PathBuf};

use sgf_core::parse;
use sgf_render::figure::{FigureOptions, figures};
use sgf_render::{Diagram, MoveNumbers, RenderOptions, TextStyle, Theme};

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "real") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
                && p.metadata().is_ok_and(|m| m.len() < 400_000)
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_corpus_renders_without_panics() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let list = files(&dir);
    assert!(!list.is_empty());
    let opts = [
        RenderOptions::default(),
        RenderOptions {
            move_numbers: MoveNumbers::All,
            theme: Theme::Dark,
            coordinates: false,
            ..RenderOptions::default()
        },
    ];
    let mut drawn = 0;
    for (fi, f) in list.iter().enumerate() {
        let bytes = std::fs::read(f).unwrap();
        let doc = parse(&bytes).document;
        for (gi, game) in doc.games().enumerate() {
            let nodes: Vec<_> = game.nodes().map(|n| n.id()).collect();
            // Five nodes of each game.
            let step = (nodes.len() / 4).max(1);
            for (k, &id) in nodes.iter().enumerate().step_by(step) {
                let o = &opts[k % 2];
                let d = Diagram::at(&doc, id, o).unwrap();
                let svg = d.to_svg(o);
                if k == 0 && fi % 10 == 0 {
                    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
                        .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                }
                let _ = d.to_text(o, TextStyle::Unicode);
                drawn += 1;
            }
            // Rasterising is slow in debug builds: a PNG for one file in ten.
            if let Some(&last) = nodes.last().filter(|_| gi == 0 && fi % 10 == 0) {
                let d = Diagram::at(&doc, last, &opts[0]).unwrap();
                assert!(d.to_png(&opts[0], 48).unwrap().starts_with(b"\x89PNG"));
            }
            let every = FigureOptions {
                every: Some(100),
                ..FigureOptions::default()
            };
            if gi == 0 {
                // The streamed figures (notes made again as written) are
                // the held ones, picture for picture.
                let held = figures(&doc, gi, &every);
                let mut k = 0;
                let Ok(()) = sgf_render::try_for_each_figure_streamed(&doc, gi, &every, |s| {
                    let mut written = Vec::new();
                    s.write_svg(Theme::Light, &mut written).unwrap();
                    assert!(
                        written == held[k].to_svg(Theme::Light).into_bytes(),
                        "{}: figure {}",
                        f.display(),
                        k + 1
                    );
                    k += 1;
                    Ok::<(), std::convert::Infallible>(())
                });
                assert_eq!(k, held.len(), "{}", f.display());
            }
        }
    }
    eprintln!("{} files, {drawn} diagrams", list.len());
}
