//! The dataset builder end to end: planes of a hand-checked game, the
//! symmetries and their policy remap, Leela Zero chunks read back by a
//! reader written from the format's description, the split by game, and
//! archives giving the shards the plain files give.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use sgf_dataset::{Features, Format, Options, Selection, Symmetry, build};

#[path = "../../../testsupport/archives.rs"]
mod archives;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An array of an `.npz`: its type, shape and bytes.
struct Npy {
    descr: String,
    shape: Vec<usize>,
    data: Vec<u8>,
}

/// Reads an `.npz` as NumPy does: a zip of `.npy` files (format 1.0).
fn read_npz(path: &Path) -> BTreeMap<String, Npy> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for i in 0..z.len() {
        let mut f = z.by_index(i).unwrap();
        let name = f.name().unwrap().trim_end_matches(".npy").to_string();
        let mut b = Vec::new();
        f.read_to_end(&mut b).unwrap();
        assert_eq!(&b[..8], b"\x93NUMPY\x01\x00");
        let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
        assert_eq!((10 + hl) % 64, 0, "aligned header");
        let h = String::from_utf8(b[10..10 + hl].to_vec()).unwrap();
        let descr = h
            .split("'descr': '")
            .nth(1)
            .unwrap()
            .split('\'')
            .next()
            .unwrap();
        let shape = h
            .split("'shape': (")
            .nth(1)
            .unwrap()
            .split(')')
            .next()
            .unwrap();
        let shape: Vec<usize> = shape
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| s.trim().parse().unwrap())
            .collect();
        let data = b[10 + hl..].to_vec();
        let item: usize = match descr {
            "|u1" | "|i1" => 1,
            "<u2" => 2,
            _ => 4,
        };
        assert_eq!(data.len(), shape.iter().product::<usize>() * item, "{name}");
        out.insert(
            name,
            Npy {
                descr: descr.into(),
                shape,
                data,
            },
        );
    }
    out
}

fn bit(plane: &[u8], i: usize) -> bool {
    plane[i / 8] & (0x80 >> (i % 8)) != 0
}

/// The board of plane `p` of sample `k` as rows (`#` set, `.` not).
fn rows(planes: &Npy, k: usize, p: usize, size: usize) -> Vec<String> {
    let (c, bpp) = (planes.shape[1], planes.shape[2]);
    let at = (k * c + p) * bpp;
    let plane = &planes.data[at..at + bpp];
    (0..size)
        .map(|y| {
            (0..size)
                .map(|x| if bit(plane, y * size + x) { '#' } else { '.' })
                .collect()
        })
        .collect()
}

fn opts(dir: &Path, size: u8) -> Options {
    Options {
        selection: Selection {
            size,
            ..Selection::default()
        },
        shuffle_buffer: 0,
        out_dir: dir.to_path_buf(),
        ..Options::default()
    }
}

/// A 9×9 game: a ko shape set up at the root, handicap stones in the
/// second node (as Fox writes them), a capture that makes a ko, a move
/// elsewhere (the ko may not be retaken), a pass, the retake.
const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[0.5]RE[W+2.5]HA[1]
AB[ba][ab][bc]AW[bb][ca][cc][db]
;AB[gg]
;B[cb];W[ii];B[];W[bb])";

#[test]
fn planes_of_a_hand_checked_game() {
    let d = tmp("hand");
    std::fs::write(d.join("g.sgf"), GAME).unwrap();
    let out = d.join("out");
    let mut o = opts(&out, 9);
    o.features = Features {
        history: 2,
        liberties: true,
        legal: true,
        ko: true,
        last_moves: 1,
    };
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    assert_eq!((s.games_read, s.games_kept, s.positions), (1, 1, 4));
    let z = read_npz(&out.join("train-00000.npz"));
    let planes = &z["planes"];
    // own 2, opp 2, black_to_move, ones, liberties 4, legal, ko, last 1.
    assert_eq!(planes.shape, vec![4, 13, 11]);
    assert_eq!(z["policy"].descr, "<u2");
    let policy: Vec<u16> = z["policy"]
        .data
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    // cb = (2,1) → 11; ii → 80; pass → 81; bb → 10.
    assert_eq!(policy, vec![11, 80, 81, 10]);
    let value: Vec<i8> = z["value"].data.iter().map(|&b| b as i8).collect();
    assert_eq!(value, vec![-1, 1, -1, 1], "White won");
    let score: Vec<f32> = z["score"]
        .data
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(score, vec![-2.5, 2.5, -2.5, 2.5]);
    assert_eq!(z["to_move"].data, vec![0, 1, 0, 1]);

    // Position 1: Black to move, before B[cb]; the handicap stone is there.
    let r = |k, p| rows(planes, k, p, 9);
    assert_eq!(
        r(0, 0)[..3],
        [".#.......", "#........", ".#......."],
        "Black's stones (own_0)"
    );
    assert_eq!(r(0, 0)[6], "......#..", "handicap stone from node 2");
    assert_eq!(
        r(0, 2)[..3],
        ["..#......", ".#.#.....", "..#......"],
        "White's (opp_0)"
    );
    assert!(r(0, 4).iter().all(|l| l == "#########"), "black to move");
    assert!(r(0, 5).iter().all(|l| l == "#########"), "ones");
    // White's bb has one liberty (cb); Black's three stones one… each:
    // ba: aa, ab side: aa and ac; bc: ac, bd.
    assert_eq!(r(0, 6)[1], ".#.......", "liberties_1: bb");
    assert!(
        r(0, 12).iter().all(|l| l == "........."),
        "no last move yet"
    );

    // Position 2: White to move after B[cb] took bb: a ko at bb.
    assert_eq!(
        r(1, 0)[..3],
        ["..#......", "...#.....", "..#......"],
        "White's (own_0)"
    );
    assert_eq!(
        r(1, 2)[..3],
        [".#.......", "#.#......", ".#......."],
        "Black's (opp_0)"
    );
    assert_eq!(
        r(1, 1)[..3],
        ["..#......", ".#.#.....", "..#......"],
        "own_1: before"
    );
    assert!(r(1, 4).iter().all(|l| l == "........."), "white to move");
    assert_eq!(r(1, 11)[1], ".#.......", "ko point");
    assert_eq!(&r(1, 10)[1][..3], "...", "legal: not the ko, not a stone");
    assert_eq!(&r(1, 10)[0][..4], "...#", "legal: aa would be a suicide");
    assert_eq!(r(1, 6)[1], "..#......", "liberties_1: the ko stone");
    assert_eq!(r(1, 12)[1], "..#......", "last move");

    // Position 3: Black to move after W[ii]; position 4: White after the
    // pass, the ko may be retaken (the last move was a pass by Black… no:
    // Black passed, so White retakes legally).
    assert!(
        r(2, 12)
            .iter()
            .all(|l| !l.contains("#") || l == "........#")
    );
    assert!(r(3, 12).iter().all(|l| l == "........."), "a pass: empty");
    assert_eq!(r(3, 11).concat(), ".".repeat(81), "no ko after a pass");
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert!(
        games.contains("\"file\":") && games.contains("\"result\":\"W+2.5\""),
        "{games}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Every symmetry of each position, in a row: the planes and the move
/// are mapped the same way.
#[test]
fn the_eight_symmetries_and_the_policy() {
    let d = tmp("sym");
    std::fs::write(
        d.join("g.sgf"),
        "(;GM[1]SZ[9]RE[B+R];B[cb];W[dg];B[hc];W[gh];B[])",
    )
    .unwrap();
    let out = d.join("out");
    let mut o = opts(&out, 9);
    o.symmetry = Symmetry::All;
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    assert_eq!(s.positions, 5 * 8);
    let z = read_npz(&out.join("train-00000.npz"));
    let planes = &z["planes"];
    let policy: Vec<u16> = z["policy"]
        .data
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let syms = &z["symmetry"].data;
    for pos in 0..5 {
        let base = pos * 8;
        let mut seen = BTreeSet::new();
        for k in 0..8 {
            let s = syms[base + k];
            assert_eq!(s as usize, k);
            for p in 0..planes.shape[1] {
                let id = rows(planes, base, p, 9);
                let t = rows(planes, base + k, p, 9);
                for y in 0..9u8 {
                    for x in 0..9u8 {
                        let (u, v) = sgf_go::symmetry::apply(s, x, y, 9, 9);
                        assert_eq!(
                            id[y as usize].as_bytes()[x as usize],
                            t[v as usize].as_bytes()[u as usize],
                            "position {pos}, symmetry {s}, plane {p}"
                        );
                    }
                }
            }
            let p0 = policy[base] as usize;
            if p0 == 81 {
                assert_eq!(policy[base + k], 81, "a pass stays a pass");
            } else {
                let (u, v) = sgf_go::symmetry::apply(s, (p0 % 9) as u8, (p0 / 9) as u8, 9, 9);
                assert_eq!(policy[base + k] as usize, v as usize * 9 + u as usize);
            }
            seen.insert(
                rows(planes, base + k, 0, 9).concat() + &rows(planes, base + k, 8, 9).concat(),
            );
        }
        if pos > 0 {
            assert_eq!(seen.len(), 8, "an asymmetric position has 8 forms");
        }
    }
    // Random: one form a position, the same for the same seed.
    let mut o = opts(&d.join("r1"), 9);
    o.symmetry = Symmetry::Random;
    o.seed = 5;
    build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    o.out_dir = d.join("r2");
    build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    let a = std::fs::read(d.join("r1/train-00000.npz")).unwrap();
    assert_eq!(a, std::fs::read(d.join("r2/train-00000.npz")).unwrap());
    assert_eq!(
        read_npz(&d.join("r1/train-00000.npz"))["symmetry"].shape,
        vec![5]
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A position of a Leela Zero chunk, read from the format's description:
/// 16 plane lines (90 hex digits, then the 361st point), the side to
/// move, 362 probabilities, the winner.
struct LzPosition {
    planes: Vec<Vec<bool>>,
    to_move: u8,
    probs: Vec<f32>,
    winner: i8,
}

fn read_lz(path: &Path) -> Vec<LzPosition> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() % 19, 0);
    lines
        .chunks(19)
        .map(|c| {
            let planes = c[..16]
                .iter()
                .map(|l| {
                    assert_eq!(l.len(), 91);
                    let mut bits = Vec::with_capacity(361);
                    for ch in l[..90].chars() {
                        let v = ch.to_digit(16).unwrap();
                        for b in (0..4).rev() {
                            bits.push(v >> b & 1 == 1);
                        }
                    }
                    bits.push(&l[90..] == "1");
                    bits
                })
                .collect();
            LzPosition {
                planes,
                to_move: c[16].parse().unwrap(),
                probs: c[17].split(' ').map(|p| p.parse().unwrap()).collect(),
                winner: c[18].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn leela_zero_chunks_read_back() {
    let d = tmp("lz");
    std::fs::write(
        d.join("g.sgf"),
        "(;GM[1]SZ[19]RE[W+R];B[pd];W[dp];B[pp];W[];B[dd])(;GM[1]SZ[19];B[aa])",
    )
    .unwrap();
    let mut o = opts(&d.join("lz"), 19);
    // No require_winner: the format asks for it (Options::complete).
    o.format = Format::Leela;
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    assert_eq!(s.dropped.get("no_winner"), Some(&1));
    let pos = read_lz(&d.join("lz/train-00000.gz"));
    assert_eq!(pos.len(), 5);
    // Leela Zero's points run from the bottom row: pd (15,3) is row 15
    // from the bottom, index 15*19 + 15.
    let lz = |x: usize, y: usize| (18 - y) * 19 + x;
    assert_eq!(pos[0].to_move, 0);
    assert_eq!(pos[0].probs.len(), 362);
    assert_eq!(pos[0].probs[lz(15, 3)], 1.0);
    assert_eq!(pos[0].winner, -1, "White won: Black to move loses");
    assert!(pos[0].planes.iter().all(|p| p.iter().all(|b| !b)));
    // Before W[]: White to move; own (plane 0) dp, opponent (plane 8) pd, pp.
    let p = &pos[3];
    assert_eq!((p.to_move, p.winner), (1, 1));
    assert_eq!(p.probs[361], 1.0, "a pass is last");
    assert!(p.planes[0][lz(3, 15)]);
    assert!(p.planes[8][lz(15, 3)] && p.planes[8][lz(15, 15)]);
    assert!(
        p.planes[9][lz(15, 3)] && !p.planes[9][lz(15, 15)],
        "one move back"
    );
    assert_eq!(p.planes[0].iter().filter(|&&b| b).count(), 1);
    let _ = std::fs::remove_dir_all(&d);
}

fn many_games(n: usize) -> String {
    let letters = b"abcdefghi";
    (0..n)
        .map(|i| {
            let a = letters[i % 9] as char;
            let b = letters[(i / 9) % 8] as char;
            let c = letters[(i / 72) % 9] as char;
            format!("(;GM[1]SZ[9]RE[B+1.5];B[{a}{b}];W[{c}i];B[])\n")
        })
        .collect()
}

#[test]
fn train_and_validation_never_share_a_game() {
    let d = tmp("split");
    std::fs::write(d.join("g.sgf"), many_games(300)).unwrap();
    let mut o = opts(&d.join("out"), 9);
    o.val_fraction = 0.3;
    o.shuffle_buffer = 64;
    o.shard_size = 100;
    o.selection.dedup = false;
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    assert_eq!(s.games_kept, 300);
    assert_eq!(s.train_positions + s.val_positions, s.positions);
    assert!(s.val_positions > 0 && s.train_positions > 0);
    let games = std::fs::read_to_string(d.join("out/games.jsonl")).unwrap();
    let split: BTreeMap<u64, String> = games
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_u64().unwrap(),
                v["split"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut counted = 0u64;
    for e in std::fs::read_dir(d.join("out")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".npz") {
            continue;
        }
        let which = name.split('-').next().unwrap();
        let z = read_npz(&path);
        let n = z["policy"].shape[0];
        assert!(n <= 100);
        counted += n as u64;
        for c in z["game"].data.chunks(4) {
            let id = u32::from_le_bytes(c.try_into().unwrap()) as u64;
            assert_eq!(split[&id], which, "game {id} in {name}");
        }
    }
    assert_eq!(counted, s.positions);
    // The same run again: the same files, byte for byte.
    o.out_dir = d.join("again");
    build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    for name in ["train-00000.npz", "val-00000.npz", "games.jsonl"] {
        assert_eq!(
            std::fs::read(d.join("out").join(name)).unwrap(),
            std::fs::read(d.join("again").join(name)).unwrap(),
            "{name}"
        );
    }
    // A directory that holds a dataset is not written over by accident.
    let err = build(&[d.join("g.sgf")], &o, &|_| true).unwrap_err();
    assert!(err.to_string().contains("--overwrite"), "{err}");
    o.overwrite = true;
    build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn archives_give_the_shards_plain_files_give() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let seven = repo.join("testdata/db/games.7z");
    let mut members = Vec::new();
    sgf_formats::archive::read_members(&seven, &Default::default(), &mut |m| {
        members.push(m.unwrap());
    })
    .unwrap();
    assert!(members.len() >= 2);
    let d = tmp("archives");
    let plain = d.join("plain");
    for m in &members {
        let p = plain.join(&m.name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, &m.bytes).unwrap();
    }
    let files: Vec<(&str, &[u8])> = members
        .iter()
        .map(|m| (m.name.as_str(), m.bytes.as_slice()))
        .collect();
    std::fs::write(d.join("g.zip"), archives::zip_of(&files)).unwrap();
    std::fs::write(d.join("g.tar.gz"), archives::gz(&archives::tar_of(&files))).unwrap();
    let run = |input: PathBuf, name: &str| {
        let mut o = opts(&d.join(name), 9);
        o.selection.dedup = false;
        let s = build(&[input], &o, &|_| true).unwrap();
        (
            s.games_kept,
            s.positions,
            std::fs::read(d.join(name).join("train-00000.npz")).unwrap(),
        )
    };
    let a = run(plain, "o-plain");
    assert!(a.0 >= 2 && a.1 > 0);
    for (input, name) in [
        (seven, "o-7z"),
        (d.join("g.zip"), "o-zip"),
        (d.join("g.tar.gz"), "o-tgz"),
    ] {
        assert_eq!(run(input, name), a, "{name}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The stream hands over what `build` writes: the same positions in the
/// same order, in batches of the shard size.
#[test]
fn stream_gives_what_build_writes() {
    let d = tmp("stream");
    std::fs::write(d.join("g.sgf"), many_games(40)).unwrap();
    let mut o = opts(&d.join("out"), 9);
    o.shard_size = 1000;
    o.shuffle_buffer = 16;
    o.seed = 3;
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    let z = read_npz(&d.join("out/train-00000.npz"));
    o.shard_size = 7;
    let mut got: Vec<u8> = Vec::new();
    let mut planes: Vec<u8> = Vec::new();
    let mut sizes = Vec::new();
    let t = sgf_dataset::stream(&[d.join("g.sgf")], &o, &|_| true, &mut |split, batch| {
        assert_eq!(split, "train");
        sizes.push(batch.len());
        for x in batch {
            got.extend_from_slice(&x.policy.to_le_bytes());
            planes.extend_from_slice(&x.planes);
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(t.positions, s.positions);
    assert_eq!(got, z["policy"].data);
    assert_eq!(planes, z["planes"].data);
    assert!(sizes[..sizes.len() - 1].iter().all(|&n| n == 7));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn options_by_name() {
    let mut o = Options::default();
    let j = serde_json::json!({
        "komi": "5..8", "min_rank": "3d", "ending": ["resign", "points"],
        "symmetry": "random", "val_fraction": 0.1, "keep_duplicates": true,
        "liberties": true, "rules": "japanese,chinese", "seed": 9, "handicap": null,
    });
    for (k, v) in j.as_object().unwrap() {
        o.set(k, v).unwrap();
    }
    assert_eq!(o.selection.min_rank, sgf_go::values::Rank::read("3d"));
    assert_eq!(o.selection.rules, vec!["japanese", "chinese"]);
    assert!(!o.selection.dedup && o.features.liberties);
    assert_eq!((o.symmetry, o.seed), (Symmetry::Random, 9));
    assert!(o.set("komi", &serde_json::json!("10..5")).is_err());
    assert!(o.set("colour", &serde_json::json!("b")).is_err());
}

/// A collection read in parts: each game keeps its number in the file
/// (the parts' work runs before the parts before them are counted).
#[test]
fn games_keep_their_number_in_a_file_read_in_parts() {
    let d = tmp("parts");
    let text = many_games(300).repeat(60);
    assert!(text.len() > 600_000, "large enough to be read in parts");
    std::fs::write(d.join("g.sgf"), text).unwrap();
    let mut o = opts(&d.join("out"), 9);
    o.selection.dedup = false;
    let s = build(&[d.join("g.sgf")], &o, &|_| true).unwrap();
    assert_eq!(s.games_kept, 18000);
    let games = std::fs::read_to_string(d.join("out/games.jsonl")).unwrap();
    let numbers: Vec<u64> = games
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(numbers, (1..=18000).collect::<Vec<u64>>());
    let _ = std::fs::remove_dir_all(&d);
}
