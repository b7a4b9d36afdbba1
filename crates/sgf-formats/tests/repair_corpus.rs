//! Repair without loss, on the whole sample corpus (skipped without it):
//! for every game of every file, every Text and SimpleText value, every
//! game-info value and every unknown or private property's value of the
//! input still appears in the output of `check --fix` and of `fmt`
//! (compared after NFKC and case folding, white space collapsed: the
//! oracle of `testsupport/text_survival.rs`, which the fuzz targets share);
//! and `fix` and `fmt` are idempotent, byte for byte; and no Number,
//! Real, `DT` or `RE` value is changed into another value (the oracle of
//! `testsupport/typed_values.rs`). The counts are printed for the record
//! (characters lost: by fix and fmt together).

mod common;
#[path = "../../../testsupport/text_survival.rs"]
mod text_survival;
#[path = "../../../testsupport/typed_values.rs"]
mod typed_values;

use sgf_core::{WriteOptions, parse, to_canonical_bytes};
use sgf_formats::repair::{self, RepairOptions};
use text_survival::{all_text, converted_exactly, kept_values};

/// `check --fix` (the input itself when it is refused: left as it is).
fn fix(bytes: &[u8]) -> Vec<u8> {
    let mut doc = parse(bytes).document;
    repair::repair_to_canonical(
        &mut doc,
        &WriteOptions::default(),
        &RepairOptions::default(),
    )
    .map_or_else(|_| bytes.to_vec(), |r| r.bytes)
}

fn fmt(bytes: &[u8]) -> Vec<u8> {
    let mut p = parse(bytes);
    repair::fmt(&mut p);
    to_canonical_bytes(&p.document, &WriteOptions::default())
}

/// What one file gives: games, values checked, characters lost, values
/// changed, failures.
fn check_file(name: &str, bytes: &[u8]) -> (usize, usize, usize, usize, Vec<String>) {
    let input = parse(bytes).document;
    let (mut values, mut lost_chars, mut failures) = (0, 0, Vec::new());
    if input.game_count() == 0 {
        return (0, 0, 0, 0, failures);
    }
    let once = fix(bytes);
    let f1 = fmt(bytes);
    let (out_doc, fmt_doc) = (parse(&once).document, parse(&f1).document);
    let output = all_text(&out_doc);
    let formatted = all_text(&fmt_doc);
    for (ident, v) in kept_values(&input) {
        values += 1;
        // check --fix, and fmt (the dialects normalised) alike.
        for (what, out, doc) in [("fix", &output, &out_doc), ("fmt", &formatted, &fmt_doc)] {
            if !out.contains(&v) && !converted_exactly(&ident, &v, doc) {
                lost_chars += v.chars().count();
                failures.push(format!(
                    "{name}: {what}: {ident} lost {:?}",
                    v.chars().take(60).collect::<String>()
                ));
            }
        }
    }
    let changed = typed_values::changed(&input, &out_doc);
    for c in &changed {
        failures.push(format!("{name}: fix: value changed: {c}"));
    }
    if fix(&once) != once {
        failures.push(format!("{name}: fix(fix(x)) != fix(x)"));
    }
    if fmt(&f1) != f1 {
        failures.push(format!("{name}: fmt(fmt(x)) != fmt(x)"));
    }
    (
        input.game_count(),
        values,
        lost_chars,
        changed.len(),
        failures,
    )
}

#[test]
fn repair_loses_nothing_and_fix_and_fmt_are_idempotent() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let files = common::corpus_files(&dir);
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, usize, usize, usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut acc = (0, 0, 0, 0, 0, Vec::new());
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((name, bytes)) = files.get(i) else {
                            break;
                        };
                        let (g, v, l, c, f) = check_file(name, bytes);
                        acc.0 += usize::from(g > 0);
                        acc.1 += g;
                        acc.2 += v;
                        acc.3 += l;
                        acc.4 += c;
                        acc.5.extend(f);
                    }
                    acc
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let (mut nfiles, mut games, mut values, mut lost, mut changed) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for r in results {
        nfiles += r.0;
        games += r.1;
        values += r.2;
        lost += r.3;
        changed += r.4;
        failures.extend(r.5);
    }
    failures.sort();
    eprintln!(
        "repair corpus: {nfiles} files, {games} games, {values} values checked, {lost} characters lost, {changed} values changed to another value, {} problems",
        failures.len()
    );
    assert!(nfiles > 100);
    // Every problem, for a closer look: QIPU_REPAIR_REPORT=FILE.
    if let Some(path) = std::env::var_os("QIPU_REPAIR_REPORT") {
        std::fs::write(path, failures.join("\n")).unwrap();
    }
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
