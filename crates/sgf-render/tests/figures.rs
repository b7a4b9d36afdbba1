//! Figure splitting with FG and PM, against golden summaries in
//! `testdata/render/figures`. `QIPU_UPDATE_SNAPSHOTS=1` rewrites them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sgf_core::{Point, parse};
use sgf_go::Stone;
use sgf_render::figure::{FigureFlags, FigureOptions, figures};
use sgf_render::{
    Diagram, Figure, FiguresPage, Pictures, RenderOptions, Theme, figures_html,
    try_for_each_figure_streamed, write_figures_html,
};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/render/figures")
}

/// A readable summary: what the figure says and a grid of what it draws.
fn summary(figs: &[Figure]) -> String {
    let mut s = String::new();
    for f in figs {
        let _ = writeln!(s, "== {} | moves {:?} | {:?}", f.title(), f.moves, f.flags);
        let _ = writeln!(
            s,
            "not shown: {}",
            f.not_shown().collect::<Vec<_>>().join(", ")
        );
        for (n, c) in &f.comments {
            let _ = writeln!(s, "comment {n:?}: {c}");
        }
        let d = &f.diagram;
        for y in 0..d.size.rows {
            for x in 0..d.size.cols {
                let p = Point::new(x, y);
                let i = d.idx(p);
                let cell = match (d.stones[i], d.numbers[i]) {
                    (Stone::Empty, _) => ".".to_string(),
                    (Stone::Black, 0) => "X".to_string(),
                    (Stone::White, 0) => "O".to_string(),
                    (Stone::Black, n) => format!("b{n}"),
                    (Stone::White, n) => format!("w{n}"),
                };
                let _ = write!(s, "{cell:>4}");
            }
            s.push('\n');
        }
    }
    s
}

fn check(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("QIPU_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(e) if e == actual => {}
        Ok(e) => failures.push(format!(
            "{} differs:\n--- expected\n{e}\n--- actual\n{actual}",
            path.display()
        )),
        Err(_) => failures.push(format!("{} missing", path.display())),
    }
}

#[test]
fn figure_snapshots() {
    let mut failures = Vec::new();
    for (name, every) in [("ko_book", None), ("every", Some(4))] {
        let src = std::fs::read(dir().join(format!("{name}.sgf"))).unwrap();
        let doc = parse(&src).document;
        let opts = FigureOptions {
            every,
            ..FigureOptions::default()
        };
        let figs = figures(&doc, 0, &opts);
        check(
            &dir().join(format!("{name}.figures.txt")),
            &summary(&figs),
            &mut failures,
        );
        check(
            &dir().join(format!("{name}.fig1.svg")),
            &figs[0].to_svg(Theme::Light),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ko_book_figures_follow_fg_and_pm() {
    let src = std::fs::read(dir().join("ko_book.sgf")).unwrap();
    let doc = parse(&src).document;
    let figs = figures(&doc, 0, &FigureOptions::default());
    assert_eq!(figs.len(), 3);
    // FG[256:Ko fight]: captured stones kept, so both ko recaptures are listed.
    assert_eq!(figs[0].title(), "Ko fight");
    assert!(!figs[0].flags.remove_captured && figs[0].flags.coordinates);
    assert_eq!(
        figs[0].not_shown().collect::<Vec<_>>(),
        vec!["4 at B8", "7 at 1"]
    );
    // FG[4:…]: captured stones removed and nothing listed.
    assert!(figs[1].flags.remove_captured && !figs[1].flags.list_unshown);
    assert!(figs[1].not_shown().len() == 0);
    assert_eq!(figs[1].moves, Some((8, 11)));
    // FG[] with PM[2] and MN[150]: 150 is printed 50, and the pass is listed as 52.
    let f = &figs[2];
    assert_eq!(f.moves, Some((150, 152)));
    let d = &f.diagram;
    assert_eq!(d.numbers[d.idx(Point::new(7, 7))], 50);
    assert_eq!(d.numbers[d.idx(Point::new(7, 6))], 51);
    assert_eq!(f.not_shown().collect::<Vec<_>>(), vec!["52 pass"]);
    assert_eq!(
        f.comments,
        vec![(Some(50), "Numbered modulo 100.".to_string())]
    );
    // Stones of earlier figures are drawn without numbers.
    assert_eq!(d.numbers[d.idx(Point::new(2, 1))], 0);
    assert_eq!(d.stones[d.idx(Point::new(2, 1))], Stone::Black);
    // The SVG carries the title and the list under the board.
    let svg = figs[0].to_svg(Theme::Light);
    assert!(svg.contains("class=\"title\"") && svg.contains("class=\"note\""));
}

/// The SVG and the page written as they are made are the bytes of the
/// `String` forms: figures with a capture (a move listed as not shown, a
/// note wrapped over lines), a comment with text to escape, labels and
/// markup (glyphs defined before the body), in both themes.
#[test]
fn written_as_made_is_the_string_form() {
    let mut src = String::from(
        "(;SZ[9]FF[4]PB[A & B]PW[C]C[<start>]AB[ba][ab][bc]AW[ca][db][cc][bb];B[cb]LB[ee:A][ff:中]TR[dd];W[ee];B[ed]C[a \"ko\"];W[bb];B[cb]",
    );
    // Enough passes for the notes to wrap onto several lines.
    for i in 0..40 {
        src.push_str(if i % 2 == 0 { ";W[]" } else { ";B[]" });
    }
    src.push_str(";W[gg]FG[257:Second]MA[gg]SQ[hh];B[hh](;W[aa])(;W[ii]))");
    let doc = parse(src.as_bytes()).document;
    let figs = figures(&doc, 0, &FigureOptions::default());
    assert_eq!(figs.len(), 2);
    assert!(figs[0].not_shown().len() > 40);
    for theme in [Theme::Light, Theme::Dark] {
        for f in &figs {
            let mut written = Vec::new();
            f.write_svg(theme, &mut written).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), f.to_svg(theme));
        }
        for pictures in [Pictures::Files("svg"), Pictures::InlineSvg(theme)] {
            let mut written = Vec::new();
            write_figures_html("A & B", &figs, pictures, &mut written).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                figures_html("A & B", &figs, pictures)
            );
        }
    }
    // A diagram with variations, a capture and the status line.
    let opts = RenderOptions {
        status: true,
        ..RenderOptions::default()
    };
    let last = doc.game(0).unwrap().main_line().last().unwrap().id();
    let d = Diagram::at(&doc, last, &opts).unwrap();
    let mut written = Vec::new();
    d.write_svg(&opts, &mut written).unwrap();
    assert_eq!(String::from_utf8(written).unwrap(), d.to_svg(&opts));
}

/// Figures streamed ([`try_for_each_figure_streamed`]: the moves not
/// shown made again from the record as they are written) are the figures
/// held: the same notes, SVG and page, however they are split, with
/// captured stones kept or removed, with the list turned off by `FG`, on a
/// board whose notes name points by letters.
#[test]
fn streamed_figures_are_the_held_ones() {
    // Moves on few points, so that most cannot be shown; captures, passes,
    // comments, a figure whose FG turns the list off, PM[2].
    let mut src = String::from("(;SZ[7]PM[2]C[start]AB[aa]AW[ba]");
    for i in 0..400u32 {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let p = match i % 7 {
            5 => String::new(),
            k => format!(
                "{}{}",
                (b'a' + (k as u8 + i as u8 / 7) % 4) as char,
                (b'a' + k as u8 % 3) as char
            ),
        };
        let fg = match i {
            120 => "FG[4:No list]",
            150 => "FG[]",
            260 => "FG[256]",
            _ => "",
        };
        let comment = if i % 50 == 0 { "C[note]" } else { "" };
        src.push_str(&format!(";{fg}{comment}{c}[{p}]"));
    }
    src.push(')');
    let big = "(;SZ[30];B[aa];W[ab];B[aa]FG[];W[ab];B[];W[zz];B[zz];W[dd])";
    let options = [
        FigureOptions::default(),
        FigureOptions {
            every: Some(37),
            ..FigureOptions::default()
        },
        FigureOptions {
            defaults: FigureFlags {
                remove_captured: true,
                ..FigureFlags::default()
            },
            ..FigureOptions::default()
        },
    ];
    let mut listed = 0;
    for text in [src.as_str(), big] {
        let doc = parse(text.as_bytes()).document;
        for opts in &options {
            let held = figures(&doc, 0, opts);
            let mut streamed = Vec::new();
            let mut page = FiguresPage::start("t", Pictures::Files("svg"), Vec::new()).unwrap();
            let Ok(()) = try_for_each_figure_streamed(&doc, 0, opts, |s| {
                let f = &held[streamed.len()];
                assert_eq!(s.number(), f.number);
                assert_eq!(s.to_figure(), *f);
                assert_eq!(s.not_shown_len(), f.not_shown().len());
                let mut notes = Vec::new();
                s.for_each_not_shown(|n| notes.push(n.to_string()));
                assert_eq!(notes, f.not_shown().collect::<Vec<_>>());
                assert!(s.without_notes().diagram.notes.is_empty());
                assert_eq!(s.to_svg(Theme::Dark), f.to_svg(Theme::Dark));
                let mut written = Vec::new();
                s.write_svg(Theme::Light, &mut written).unwrap();
                assert_eq!(String::from_utf8(written).unwrap(), f.to_svg(Theme::Light));
                page.add_streamed(&s).unwrap();
                listed += notes.len();
                streamed.push(s.number());
                Ok::<(), std::convert::Infallible>(())
            });
            assert_eq!(streamed.len(), held.len());
            let page = String::from_utf8(page.finish().unwrap()).unwrap();
            assert_eq!(page, figures_html("t", &held, Pictures::Files("svg")));
        }
    }
    // The cases are there: many notes, wrapped over lines; a figure
    // without its list; points named by letters on the large board.
    assert!(listed > 500, "{listed}");
    let doc = parse(src.as_bytes()).document;
    let held = figures(&doc, 0, &FigureOptions::default());
    assert!(
        held.iter()
            .any(|f| !f.flags.list_unshown && f.moves.is_some())
    );
    assert!(
        held[0]
            .to_svg(Theme::Light)
            .matches("class=\"note\"")
            .count()
            > 3
    );
    let doc = parse(big.as_bytes()).document;
    let held = figures(&doc, 0, &FigureOptions::default());
    assert!(
        held[1].not_shown().any(|n| n == "4 at ab"),
        "{:?}",
        held[1].not_shown().collect::<Vec<_>>()
    );
}

/// A writer that fails stops the SVG with its error.
#[test]
fn written_svg_fails_with_the_writer() {
    struct Full(usize);
    impl std::io::Write for Full {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 < b.len() {
                return Err(std::io::Error::other("full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let doc = parse(b"(;SZ[9];B[ee];W[cc])").document;
    let figs = figures(&doc, 0, &FigureOptions::default());
    let err = figs[0].write_svg(Theme::Light, Full(100)).unwrap_err();
    assert_eq!(err.to_string(), "full");
}
