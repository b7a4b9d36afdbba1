//! The sample corpus files named by issue 25, each with what it must give
//! (skipped without the corpus, a failure under `QIPU_REQUIRE_ALL=1`):
//! the clock times of `legacy/gnugo-cgf2001-goro.sgf`, the label text of
//! `charsets/m8weiqipu/15-y.sgf`, libsgfc++'s `compressed-point-list.sgf`
//! expanded game by game, and SGFC's `reorder.sgf` with
//! `--variation-level` as SGFC's `reorder-result.sgf` has it.

use std::path::PathBuf;

use sgf_core::{Document, PointLists, WriteOptions, parse, to_canonical_bytes};
use sgf_formats::repair::{self, RepairOptions};

/// A corpus file, or `None` (with a message) when the corpus is absent.
fn corpus_file(rel: &str) -> Option<Vec<u8>> {
    let dir = std::env::var_os("QIPU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let path = dir.join(rel);
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) => {
            assert!(
                std::env::var_os("QIPU_REQUIRE_ALL").is_none(),
                "{}: {e} (QIPU_REQUIRE_ALL is set)",
                path.display()
            );
            eprintln!("SKIPPED: {} is not there ({e})", path.display());
            None
        }
    }
}

fn fix(bytes: &[u8], variation_level: bool) -> String {
    let mut doc = parse(bytes).document;
    let mut opts = RepairOptions::default();
    opts.variation_level = variation_level;
    let r = repair::repair_to_canonical(&mut doc, &WriteOptions::default(), &opts).unwrap();
    String::from_utf8(r.bytes).unwrap()
}

#[test]
fn clock_times_are_read_exactly() {
    let Some(b) = corpus_file("legacy/gnugo-cgf2001-goro.sgf") else {
        return;
    };
    let out = fix(&b, false);
    assert!(out.contains("BL[462]"), "{out}");
    assert!(out.contains("WL[1220]"), "{out}");
}

#[test]
fn a_legacy_label_keeps_its_text() {
    let Some(b) = corpus_file("charsets/m8weiqipu/15-y.sgf") else {
        return;
    };
    assert!(fix(&b, false).contains("LB[rb:b]"));
}

#[test]
fn point_lists_are_expanded_per_game_tree() {
    let Some(b) = corpus_file("peer-suites/libsgfcpp/compressed-point-list.sgf") else {
        return;
    };
    let mut p = parse(&b);
    repair::fmt(&mut p);
    let mut opts = WriteOptions::default();
    opts.point_lists = PointLists::Expanded;
    let out = String::from_utf8(to_canonical_bytes(&p.document, &opts)).unwrap();
    assert!(
        out.contains(";MA[aa][ba][ab][bb]\n;AB[cc][dc][cd][dd])"),
        "{out}"
    );
    // GM[19]: the points are that game's, written as they are.
    assert!(out.contains(";MA[ee:ff]\n;AB[gg:hh])"), "{out}");
}

/// Each node in pre-order, its properties sorted, without those a writer
/// adds (`AP`, `FF`, `CA`, `SZ`).
fn shape(doc: &Document) -> Vec<Vec<Vec<String>>> {
    doc.games()
        .map(|g| {
            g.nodes()
                .map(|n| {
                    let mut props: Vec<String> = n
                        .props()
                        .filter(|p| !matches!(p.ident(), "AP" | "FF" | "CA" | "SZ"))
                        .map(|p| {
                            let vals: Vec<String> =
                                p.values().map(|v| v.decoded().into_owned()).collect();
                            format!("{}[{}]", p.ident(), vals.join("]["))
                        })
                        .collect();
                    props.sort();
                    props
                })
                .collect()
        })
        .collect()
}

#[test]
fn variation_levels_as_sgfc_corrects_them() {
    let (Some(input), Some(want)) = (
        corpus_file("peer-suites/sgfc/reorder.sgf"),
        corpus_file("peer-suites/sgfc/reorder-result.sgf"),
    ) else {
        return;
    };
    // SGFC's `-v` (and `-r`'s AE without effect): SGFC also drops the AE
    // of an empty point in the first game, as Qipu's G004 repair does.
    let out = fix(&input, true);
    assert_eq!(
        shape(&parse(out.as_bytes()).document),
        shape(&parse(&want).document),
        "{out}"
    );
    // And the questions it warns about (W56, W57) are reported.
    let doc = parse(&input).document;
    let codes: Vec<&str> = sgf_go::check::check(&doc)
        .iter()
        .map(|d| d.code.as_str())
        .filter(|c| c.starts_with("G01"))
        .collect();
    assert_eq!(codes, ["G010", "G010", "G011"]);
}
