//! Golden files: every `testdata/render/*.sgf` drawn as SVG, ASCII and Unicode text.
//! `QIPU_UPDATE_SNAPSHOTS=1` rewrites them.

use std::path::{Path, PathBuf};

use sgf_core::parse;
use sgf_render::{Diagram, MoveNumbers, RenderOptions, TextStyle, Theme};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/render")
}

/// Options from the fixture's `qipu-render:` line, and the node to draw (file order).
fn options(src: &str) -> (RenderOptions, Option<usize>) {
    let mut opts = RenderOptions::default();
    let mut node = None;
    let Some(line) = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("qipu-render:"))
    else {
        return (opts, node);
    };
    for kv in line.split_whitespace() {
        let (k, v) = kv.split_once('=').expect("key=value");
        match k {
            "node" => node = Some(v.parse().expect("a node number")),
            "numbers" => {
                opts.move_numbers = match v.split_once(':') {
                    None if v == "all" => MoveNumbers::All,
                    Some(("last", n)) => MoveNumbers::Last(n.parse().unwrap()),
                    Some(("from", n)) => MoveNumbers::From(n.parse().unwrap()),
                    _ => panic!("numbers={v}"),
                }
            }
            "theme" => {
                opts.theme = if v == "dark" {
                    Theme::Dark
                } else {
                    Theme::Light
                }
            }
            "coordinates" => opts.coordinates = v != "false",
            "status" => opts.status = v != "false",
            _ => panic!("unknown option {k}"),
        }
    }
    (opts, node)
}

fn check(path: &Path, actual: &str, update: bool, failures: &mut Vec<String>) {
    if update {
        std::fs::write(path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .map_or(expected.lines().count().min(actual.lines().count()), |i| i);
            failures.push(format!(
                "{}: differs from line {}:\n  expected: {:?}\n  actual:   {:?}",
                path.display(),
                line + 1,
                expected.lines().nth(line).unwrap_or(""),
                actual.lines().nth(line).unwrap_or("")
            ));
        }
        Err(_) => failures.push(format!(
            "{}: missing (run with QIPU_UPDATE_SNAPSHOTS=1)",
            path.display()
        )),
    }
}

#[test]
fn render_snapshots() {
    let update = std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some();
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 6, "fixtures in {}", dir().display());
    let mut failures = Vec::new();
    for f in &fixtures {
        let bytes = std::fs::read(f).unwrap();
        let src = String::from_utf8_lossy(&bytes);
        let (opts, node) = options(&src);
        let doc = parse(&bytes).document;
        let game = doc.game(0).unwrap();
        let id = match node {
            Some(k) => game.nodes().nth(k).expect("node in range").id(),
            None => game.main_line().last().unwrap().id(),
        };
        let d = Diagram::at(&doc, id, &opts).unwrap();
        let svg = d.to_svg(&opts);
        // The SVG is well-formed and our rasteriser reads it.
        resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Same input, same bytes.
        assert_eq!(svg, Diagram::at(&doc, id, &opts).unwrap().to_svg(&opts));
        let stem = f.with_extension("");
        let with = |ext: &str| PathBuf::from(format!("{}.{ext}", stem.display()));
        check(&with("svg"), &svg, update, &mut failures);
        check(
            &with("ascii.txt"),
            &d.to_text(&opts, TextStyle::Ascii),
            update,
            &mut failures,
        );
        check(
            &with("unicode.txt"),
            &d.to_text(&opts, TextStyle::Unicode),
            update,
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
