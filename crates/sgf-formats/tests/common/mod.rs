//! Shared helpers: fixtures, the sample corpus, and a tiny replay that
//! counts stones and captures (the Go engine crate is not a dependency).

#![allow(dead_code)]

#[path = "../../../../testsupport/corpus.rs"]
mod corpus;

// Each test binary uses its own share of these.
#[allow(unused_imports)]
pub use corpus::{corpus_dir, corpus_path};

use std::path::Path;

use sgf_core::{Document, Span};

/// Bytes of `testdata/formats/<rel>`.
pub fn fixture(rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/formats")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// 1-based line of a byte offset.
pub fn line_of(bytes: &[u8], span: Span) -> usize {
    let end = (span.start as usize).min(bytes.len());
    bytes[..end].iter().filter(|&&b| b == b'\n').count()
        + 1
        + bytes[..end]
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            .count()
}

/// What a careful reader checks of a game.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Summary {
    pub pb: Option<String>,
    pub pw: Option<String>,
    pub br: Option<String>,
    pub wr: Option<String>,
    pub re: Option<String>,
    pub km: Option<String>,
    pub ha: Option<String>,
    pub dt: Option<String>,
    pub size: u8,
    /// Main-line nodes with a move (passes included).
    pub moves: usize,
    pub passes: usize,
    /// Stones on the board at the end of the main line.
    pub black: usize,
    pub white: usize,
    /// Stones captured by Black and by White.
    pub captured_by_black: usize,
    pub captured_by_white: usize,
    /// Moves onto an occupied point (0 for a sound record).
    pub occupied: usize,
}

/// The main line of game `gi`, played out.
pub fn summarize(doc: &Document, gi: usize) -> Summary {
    let g = doc.game(gi).expect("game");
    let root = g.root();
    let t = |id: &str| root.text(id).map(|s| s.into_owned());
    let size = root.value("SZ").and_then(|v| v.number()).unwrap_or(19) as usize;
    let mut s = Summary {
        pb: t("PB"),
        pw: t("PW"),
        br: t("BR"),
        wr: t("WR"),
        re: t("RE"),
        km: t("KM"),
        ha: t("HA"),
        dt: t("DT"),
        size: size as u8,
        ..Summary::default()
    };
    let mut board = vec![0u8; size * size];
    let pt = |raw: &[u8]| -> Option<usize> {
        let raw = raw.trim_ascii();
        if raw.len() != 2 {
            return None;
        }
        let (x, y) = (
            (raw[0].wrapping_sub(b'a')) as usize,
            (raw[1].wrapping_sub(b'a')) as usize,
        );
        (x < size && y < size).then_some(y * size + x)
    };
    let neighbours = |i: usize| {
        let (x, y) = (i % size, i / size);
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < size {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - size);
        }
        if y + 1 < size {
            v.push(i + size);
        }
        v
    };
    let dead = |board: &[u8], i: usize| -> Vec<usize> {
        let c = board[i];
        let mut seen = vec![i];
        let mut k = 0;
        while k < seen.len() {
            for j in neighbours(seen[k]) {
                if board[j] == 0 {
                    return Vec::new();
                }
                if board[j] == c && !seen.contains(&j) {
                    seen.push(j);
                }
            }
            k += 1;
        }
        seen
    };
    for n in g.main_line() {
        for (id, c) in [("AB", 1u8), ("AW", 2), ("AE", 0)] {
            for v in n.values(id) {
                if let Some((a, b)) = v.rect() {
                    for x in a.x..=b.x {
                        for y in a.y..=b.y {
                            if (x as usize) < size && (y as usize) < size {
                                board[y as usize * size + x as usize] = c;
                            }
                        }
                    }
                }
            }
        }
        for (id, c) in [("B", 1u8), ("W", 2)] {
            let Some(v) = n.value(id) else { continue };
            s.moves += 1;
            let Some(i) = pt(v.raw()) else {
                s.passes += 1;
                continue;
            };
            if board[i] != 0 {
                s.occupied += 1;
            }
            board[i] = c;
            for j in neighbours(i) {
                if board[j] == 3 - c {
                    let g = dead(&board, j);
                    for &k in &g {
                        board[k] = 0;
                    }
                    if c == 1 {
                        s.captured_by_black += g.len();
                    } else {
                        s.captured_by_white += g.len();
                    }
                }
            }
            let own = dead(&board, i);
            for &k in &own {
                board[k] = 0;
            }
            if c == 1 {
                s.captured_by_white += own.len();
            } else {
                s.captured_by_black += own.len();
            }
        }
    }
    s.black = board.iter().filter(|&&c| c == 1).count();
    s.white = board.iter().filter(|&&c| c == 2).count();
    s
}

/// The main-line moves as SGF strings (`B[pd]`, `W[]`).
pub fn main_line_moves(doc: &Document, gi: usize) -> Vec<String> {
    let g = doc.game(gi).expect("game");
    g.main_line()
        .flat_map(|n| {
            ["B", "W"]
                .into_iter()
                .filter_map(move |c| n.value(c).map(|v| format!("{c}[{}]", v.decoded())))
        })
        .collect()
}

/// The SGF files of the corpus (every folder, `real/` included), with the
/// members of its `.tar.gz` archives, as (name, bytes), in name order.
#[allow(dead_code)]
pub fn corpus_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    corpus::sgf_files(dir, &[], u64::MAX)
}
