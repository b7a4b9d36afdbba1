//! The index's answers compared with a plain scan: every game of a sample
//! replayed node by node with `sgf_go::Cursor`, and every placement of the
//! pattern (each symmetry, colour swap and translation) checked point by
//! point on each position. Positions and patterns are taken from the sample
//! games themselves, so most of them have hits.
//!
//! The sample is `testdata/db/` plus, when the sample corpus is there, the
//! first games of two real collections (cut out with their `.index.tsv`
//! into a temporary directory).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use sgf_core::{Color, Document, NodeId};
use sgf_db::pattern::{ANY, OUTSIDE};
use sgf_db::{Database, NoProgress, Pattern, Query, SearchOptions, symmetry};
use sgf_go::Cursor;

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-db-brute-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The sample directory: our fixtures, plus corpus games when present.
fn sample(name: &str, per_file: usize) -> PathBuf {
    let d = tmp(name);
    for f in ["variations.sgf", "dup-a.sgf", "dup-b.sgf"] {
        std::fs::copy(repo().join("testdata/db").join(f), d.join(f)).unwrap();
    }
    let Some(corpus) = corpus::corpus_path("real") else {
        eprintln!("the comparison runs on the fixtures alone");
        return d;
    };
    for f in ["kgs/kgs-6d-2003.sgf", "fox/fox-pro-part1.sgf"] {
        let data = std::fs::read(corpus.join(f)).unwrap();
        let tsv = std::fs::read_to_string(corpus.join(format!("{f}.index.tsv"))).unwrap();
        let mut out = Vec::new();
        for line in tsv.lines().filter(|l| !l.starts_with('#')).take(per_file) {
            let mut it = line.split('\t');
            let off: usize = it.next().unwrap().parse().unwrap();
            let len: usize = it.next().unwrap().parse().unwrap();
            out.extend_from_slice(&data[off..off + len]);
            out.push(b'\n');
        }
        let name = Path::new(f).file_name().unwrap();
        std::fs::write(d.join(name), out).unwrap();
    }
    d
}

/// A move of a sequence on the board, and the constraints after it.
type Step = (Color, usize, Vec<(usize, u8)>);

/// One placement of the pattern on a board: constraints, area, and the
/// way back to the pattern's coordinates.
#[derive(Clone)]
struct Placement {
    cells: Vec<(usize, u8)>,
    area: HashMap<usize, (u8, u8)>,
    swap: bool,
    to_play: Option<Color>,
    seq: Vec<Step>,
}

fn placements(p: &Pattern, o: &SearchOptions, cols: u8, rows: u8) -> Vec<Placement> {
    let (bx, by, bw, bh) = p.bbox;
    let mut out: Vec<Placement> = Vec::new();
    let mut seen = HashSet::new();
    let syms: Vec<u8> = if o.anywhere {
        symmetry::ALL.to_vec()
    } else {
        if (p.cols, p.rows) != (cols, rows) {
            return out;
        }
        symmetry::of_board(cols, rows).to_vec()
    };
    for swap in [false, true] {
        if swap && !o.swap_colors {
            continue;
        }
        for &s in &syms {
            // Every translation (one when anchored).
            let (tw, th) = symmetry::dims(s, bw, bh);
            let offsets: Vec<(i32, i32)> = if o.anywhere {
                if tw > cols || th > rows {
                    continue;
                }
                (0..=(rows - th) as i32)
                    .flat_map(|y| (0..=(cols - tw) as i32).map(move |x| (x, y)))
                    .collect()
            } else {
                vec![(0, 0)]
            };
            for (ox, oy) in offsets {
                let map = |x: u8, y: u8| -> usize {
                    let (u, v) = if o.anywhere {
                        let (u, v) = symmetry::apply(s, x - bx, y - by, bw, bh);
                        (u as i32 + ox, v as i32 + oy)
                    } else {
                        let (u, v) = symmetry::apply(s, x, y, cols, rows);
                        (u as i32, v as i32)
                    };
                    v as usize * cols as usize + u as usize
                };
                let sw = |m: u8| {
                    if swap {
                        (m & 1) | ((m & 2) << 1) | ((m & 4) >> 1)
                    } else {
                        m
                    }
                };
                let constraints = |masks: &[u8]| -> Vec<(usize, u8)> {
                    let mut c = Vec::new();
                    for y in 0..bh {
                        for x in 0..bw {
                            let m = masks[y as usize * bw as usize + x as usize];
                            if m != OUTSIDE && m != ANY {
                                c.push((map(bx + x, by + y), sw(m)));
                            }
                        }
                    }
                    c.sort();
                    c
                };
                let cells = constraints(&p.masks);
                let mut area = HashMap::new();
                for y in 0..bh {
                    for x in 0..bw {
                        if p.masks[y as usize * bw as usize + x as usize] != OUTSIDE {
                            area.insert(map(bx + x, by + y), (bx + x, by + y));
                        }
                    }
                }
                let seq: Vec<Step> = p
                    .sequence
                    .iter()
                    .zip(&p.steps)
                    .map(|(m, st)| {
                        let c = if swap { m.color.opponent() } else { m.color };
                        (c, map(m.point.x, m.point.y), constraints(st))
                    })
                    .collect();
                let to_play = o
                    .to_play
                    .or(p.to_play)
                    .map(|c| if swap { c.opponent() } else { c });
                let mut areakey: Vec<usize> = area.keys().copied().collect();
                areakey.sort();
                let key = (
                    cells.clone(),
                    areakey,
                    seq.iter()
                        .map(|(c, i, s)| (*c, *i, s.clone()))
                        .collect::<Vec<_>>(),
                    to_play,
                );
                if seen.insert(key) {
                    out.push(Placement {
                        cells,
                        area,
                        swap,
                        to_play,
                        seq,
                    });
                }
            }
        }
    }
    out
}

fn holds(cells: &[u8], c: &[(usize, u8)]) -> bool {
    c.iter().all(|&(i, m)| m >> cells[i] & 1 == 1)
}

/// (game, node, move, continuation) of every hit, by the plain scan.
fn brute(
    doc: &Document,
    game: usize,
    p: &Pattern,
    o: &SearchOptions,
) -> Vec<(u32, u32, Option<String>)> {
    let mut c = Cursor::new(doc, game);
    let size = c.size();
    let pls = placements(p, o, size.cols, size.rows);
    let g = doc.game(game).unwrap();
    let order: HashMap<NodeId, u32> = g
        .nodes()
        .enumerate()
        .map(|(i, n)| (n.id(), i as u32))
        .collect();
    // Depth-first over the tree (or down the main line), with each
    // node's matched set and move count.
    let mut hits = Vec::new();
    let min = o.min_move.unwrap_or(0);
    let max = o.max_move.unwrap_or(u32::MAX);
    let mut stack: Vec<(NodeId, Vec<bool>, u32)> = vec![(g.root().id(), vec![false; pls.len()], 0)];
    while let Some((node, parent_matched, parent_moves)) = stack.pop() {
        c.goto(doc, node);
        let moves = parent_moves + u32::from(!c.report().moves.is_empty());
        let pos = c.position();
        let cells = pos.board.cells();
        let matched: Vec<bool> = pls.iter().map(|pl| holds(cells, &pl.cells)).collect();
        let entering = min > 0 && moves == min && !c.report().moves.is_empty();
        let in_range = moves >= min && moves <= max;
        for (k, pl) in pls.iter().enumerate() {
            let new = matched[k] && (!parent_matched[k] || entering);
            if !(new && in_range) || pl.to_play.is_some_and(|t| t != pos.to_play) {
                continue;
            }
            // Down the first line: the sequence, then the continuation.
            let mut line = c.clone();
            let mut ok = true;
            for (sc, si, st) in &pl.seq {
                let mut played = None;
                while line.next(doc) {
                    if let Some(&(col, mv)) = line.report().moves.first() {
                        played = Some((col, mv));
                        break;
                    }
                }
                let want = played.and_then(|(col, mv)| {
                    let pt = mv.point()?;
                    Some(col == *sc && pt.y as usize * size.cols as usize + pt.x as usize == *si)
                });
                if want != Some(true) || !holds(line.position().board.cells(), st) {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            let mut cont = None;
            while line.next(doc) {
                if let Some(&(col, mv)) = line.report().moves.first()
                    && let Some(pt) = mv.point()
                    && let Some(&(x, y)) = pl
                        .area
                        .get(&(pt.y as usize * size.cols as usize + pt.x as usize))
                {
                    let col = if pl.swap { col.opponent() } else { col };
                    cont = Some(format!(
                        "{} {}{}",
                        col.as_str(),
                        (b'a' + x) as char,
                        (b'a' + y) as char
                    ));
                    break;
                }
            }
            hits.push((order[&node], moves, cont));
        }
        let n = doc.node(node);
        let children: Vec<NodeId> = n.children().map(|x| x.id()).collect();
        let take = if o.variations {
            children.len()
        } else {
            children.len().min(1)
        };
        for &ch in children[..take].iter().rev() {
            stack.push((ch, matched.clone(), moves));
        }
    }
    hits
}

struct Sample {
    db: Database,
    docs: BTreeMap<(String, u32), (Document, usize)>,
}

fn open_sample(name: &str, per_file: usize) -> (Sample, PathBuf) {
    let dir = sample(name, per_file);
    let mut db = Database::open(dir.join("sample.qdb")).unwrap();
    let rep = db.index(&[&dir], &NoProgress).unwrap();
    assert!(rep.problems.is_empty(), "{:?}", rep.problems);
    let mut docs = BTreeMap::new();
    for f in sgf_formats::walk::collect(&[&dir], &Default::default())
        .unwrap()
        .files
    {
        let doc = sgf_formats::read_any(&std::fs::read(&f).unwrap(), Some(&f))
            .unwrap()
            .parsed
            .document;
        for g in 0..doc.game_count() {
            docs.insert(
                (f.to_string_lossy().into_owned(), g as u32),
                (doc.clone(), g),
            );
        }
    }
    (Sample { db, docs }, dir)
}

fn compare(s: &Sample, p: &Pattern, o: &SearchOptions, what: &str) -> usize {
    let mut q = Query::default();
    q.pattern = Some(p.clone());
    q.options = o.clone();
    let res = s.db.find(&q).unwrap();
    let mut got: Vec<(String, u32, u32, u32, Option<String>)> = res
        .hits
        .iter()
        .map(|h| {
            (
                h.path.clone(),
                h.game,
                h.node,
                h.move_number,
                h.continuation.clone(),
            )
        })
        .collect();
    let mut want = Vec::new();
    for ((path, g), (doc, gi)) in &s.docs {
        for (node, mv, cont) in brute(doc, *gi, p, o) {
            want.push((path.clone(), *g, node, mv, cont));
        }
    }
    got.sort();
    want.sort();
    if got != want {
        let only_got: Vec<_> = got.iter().filter(|x| !want.contains(x)).take(5).collect();
        let only_want: Vec<_> = want.iter().filter(|x| !got.contains(x)).take(5).collect();
        panic!(
            "{what}: {} hits from the index, {} from the scan; index only {only_got:?}; scan only {only_want:?}",
            got.len(),
            want.len()
        );
    }
    assert_eq!(res.total as usize, want.len());
    // The continuations are the hits' continuations, counted.
    let counted: u64 = res.continuations.iter().map(|c| c.count).sum();
    assert_eq!(
        counted as usize,
        want.iter().filter(|w| w.4.is_some()).count(),
        "{what}"
    );
    want.len()
}

fn cells_of(p: &Pattern) -> Vec<u8> {
    p.masks
        .iter()
        .map(|&m| match m {
            sgf_db::pattern::BLACK => 1,
            sgf_db::pattern::WHITE => 2,
            _ => 0,
        })
        .collect()
}

#[test]
fn index_answers_equal_a_plain_scan() {
    let (s, dir) = open_sample("scan", 20);
    let mut total_hits = 0;
    let mut checked = 0;
    // Positions and patterns from the sample's own games.
    let keys: Vec<(String, u32)> = s.docs.keys().cloned().collect();
    let pick: Vec<&(String, u32)> = keys.iter().step_by((keys.len() / 4).max(1)).collect();
    for (path, g) in pick {
        let (doc, gi) = &s.docs[&(path.clone(), *g)];
        let bytes = sgf_core::to_lossless_bytes(doc);
        let len = sgf_go::main_line_end(doc, *gi).position().move_number as usize;
        for mv in [len.min(6), len.min(40)] {
            let full = sgf_db::position_of(&bytes, None, *gi, Some(mv), None).unwrap();
            let (cols, rows) = (full.cols, full.rows);
            let cells = cells_of(&full);
            let o = SearchOptions::default();
            total_hits += compare(&s, &full, &o, &format!("full board {path} {g} move {mv}"));
            let mut sw = o.clone();
            sw.swap_colors = true;
            total_hits += compare(&s, &full, &sw, "full board, colours swapped");
            // A corner, anchored.
            let k = 7.min(cols).min(rows);
            let corner = Pattern::region_of(&cells, cols, rows, (cols - k, 0, k, k)).unwrap();
            total_hits += compare(&s, &corner, &o, "corner");
            // Windows anywhere, with variations, swap and ranges.
            let (cx, cy) = (cols / 2 - 1, rows / 2 - 1);
            for (w, h) in [(3u8, 3u8), (2, 3)] {
                let win = Pattern::region_of(
                    &cells,
                    cols,
                    rows,
                    (cx.min(cols - w), cy.min(rows - h), w, h),
                )
                .unwrap();
                let mut a = SearchOptions::default();
                a.anywhere = true;
                total_hits += compare(&s, &win, &a, "window anywhere");
                a.variations = true;
                a.swap_colors = true;
                total_hits += compare(&s, &win, &a, "window anywhere, variations, swapped");
                a.min_move = Some(5);
                a.max_move = Some(30);
                a.to_play = Some(Color::White);
                total_hits += compare(&s, &win, &a, "window anywhere, moves 5..30, white to play");
            }
            checked += 1;
        }
    }
    // Wildcards.
    for rows in [
        vec!["X*", "oO"],
        vec!["xX.", "*O-"],
        vec!["X.", ".X"],
        vec!["OX", "XO"],
    ] {
        let p = Pattern::from_rows(&rows).unwrap();
        let mut a = SearchOptions::default();
        a.anywhere = true;
        total_hits += compare(&s, &p, &a, &format!("wildcards {rows:?}"));
        a.variations = true;
        total_hits += compare(&s, &p, &a, &format!("wildcards {rows:?}, variations"));
    }
    // Sequences with captures, from the fixtures and the sample.
    let seqs: Vec<&[u8]> = vec![
        b"(;SZ[9]AB[ab][ca]AW[ba]VW[aa:dd];W[ac];B[ad])",
        b"(;SZ[9]VW[aa:dd];B[aa];W[ba];B[ab];W[bb];B[ca];W[ac])",
        b"(;SZ[19]AB[pd]VW[ma:sg];W[qf];B[nc])",
        b"(;SZ[19]AB[pd]AW[qf]VW[ma:sg];B[nc])",
    ];
    for sq in seqs {
        let p = Pattern::from_sgf(sq).unwrap();
        let mut a = SearchOptions::default();
        total_hits += compare(&s, &p, &a, "sequence anchored");
        a.swap_colors = true;
        total_hits += compare(&s, &p, &a, "sequence anchored, swapped");
        a.anywhere = true;
        total_hits += compare(&s, &p, &a, "sequence anywhere");
    }
    assert!(checked >= 4);
    assert!(
        total_hits > 50,
        "too few hits to mean anything: {total_hits}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
