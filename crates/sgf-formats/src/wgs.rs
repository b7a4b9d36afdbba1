//! WGS: the binary records of QQ Go (QQ围棋, Tencent's Go server).
//!
//! A fixed header of 122 bytes, little-endian, then two bytes per move:
//!
//! | offset | what |
//! | --- | --- |
//! | 4–7 | Black's QQ number (u32) |
//! | 10–31 | Black's name, GB2312, NUL-padded |
//! | 36–39 | Black's rating (i32): 100 points a level, 1d from 100, 1k from 0 |
//! | 42 | Black's assessed amateur dan (评测段位), 0 for none |
//! | 52–55, 58–79, 84–87, 90 | the same for White |
//! | 100 | handicap |
//! | 101 | board size |
//! | 103, 104 | komi: whole points, then tenths |
//! | 105 | how the game ended (see [`ending`]) |
//! | 106 | winner: 1 Black, 0 White |
//! | 108–109 | score (i16); the margin is `|score − 0.5|` points |
//! | 120–121 | number of moves (u16) |
//! | 122… | moves: column × 4, row (from the top); `01 00` is a pass |
//!
//! The layout comes from the facts in the public sample and in the GPL
//! converter wgs2sgf (no code of it is used). Handicap stones are not
//! listed; White plays first after them. There is no date.
//!
//! Nothing is dropped: every header byte that no SGF property holds and
//! that is not zero is kept in [`HEADER_PROP`], the known fields by name
//! (`BRATING=-119`, `END=9`, …), the others as `rawA-B=hex`: the bytes
//! from offset A to B inclusive, from the first to the last non-zero byte
//! of a stretch no field accounts for (`raw0=02`). QQ numbers are contact numbers of QQ's messenger and,
//! like UGF e-mail addresses, are kept only with
//! [`ReadOptions::keep_email`].

use sgf_core::value::{Color, Point};
use sgf_core::{Code, Span};

use crate::builder::SgfBuilder;
use crate::common::{self, HandicapOrder, Report, handicap_points};
use crate::format::{Format, Loaded, ReadError, ReadOptions};
use crate::replay;
use sgf_go::values::fmt_real;

/// The WGS format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wgs;

/// The private property that keeps header fields without an SGF equivalent.
pub const HEADER_PROP: &str = "WGSHEADER";

/// Bytes before the first move.
pub const HEADER_LEN: usize = 122;

const SIZE: usize = 101;
const COUNT: usize = 120;

/// The player fields: (colour letter, QQ number, name, rating, amateur dan).
const PLAYERS: [(char, usize, usize, usize, usize); 2] =
    [('B', 4, 10, 36, 42), ('W', 52, 58, 84, 90)];
const NAME_LEN: usize = 22;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    for (i, v) in x.iter_mut().enumerate() {
        *v = b.get(at + i).copied().unwrap_or(0);
    }
    u32::from_le_bytes(x)
}

fn span(start: usize, len: usize) -> Span {
    Span::new(start as u32, (start + len) as u32)
}

/// The level QQ Go shows for a rating: 100 points a level, 1d from 100, 1k
/// from 0 to 99, 2k from −100, …, capped at 9k and 9d (the table wgs2sgf
/// documents; the rating itself is kept).
///
/// ```
/// assert_eq!(sgf_formats::wgs::rank_of(-119), "3k");
/// assert_eq!(sgf_formats::wgs::rank_of(40), "1k");
/// assert_eq!(sgf_formats::wgs::rank_of(250), "2d");
/// ```
pub fn rank_of(rating: i32) -> String {
    let level = rating.div_euclid(100);
    if level >= 1 {
        format!("{}d", level.min(9))
    } else {
        format!("{}k", (1 - level).min(9))
    }
}

/// What the ending code (offset 105) means, as QQ Go's table has it.
///
/// ```
/// assert_eq!(sgf_formats::wgs::ending(9), Some("resignation"));
/// assert_eq!(sgf_formats::wgs::ending(11), None);
/// ```
pub fn ending(code: u8) -> Option<&'static str> {
    Some(match code {
        0 => "game in progress",
        1 => "draw by the move limit",
        2 => "draw",
        3 => "error",
        4 => "ended",
        5 => "game dissolved, no result",
        6 => "the loser left",
        7 => "stopped by agreement, no result",
        8 => "time",
        9 => "resignation",
        10 => "counting",
        _ => return None,
    })
}

/// `RE` for an ending, a winner byte and a score; `None` when the record
/// does not say who won (or the game has no result yet).
fn result(end: u8, winner: u8, score: i16) -> Option<String> {
    let who = match winner {
        1 => Some("B"),
        0 => Some("W"),
        _ => None,
    };
    Some(match end {
        1 | 2 => "0".into(),
        5 | 7 => "Void".into(),
        6 => format!("{}+F", who?),
        8 => format!("{}+T", who?),
        9 => format!("{}+R", who?),
        10 => format!("{}+{}", who?, fmt_real((f64::from(score) - 0.5).abs())),
        _ => return None,
    })
}

impl Format for Wgs {
    fn name(&self) -> &'static str {
        "WGS"
    }
    fn description(&self) -> &'static str {
        "QQ Go (QQ围棋) binary game record (.wgs)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["wgs"]
    }
    fn is_binary(&self) -> bool {
        true
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        if bytes.len() < HEADER_LEN || !(2..=52).contains(&bytes[SIZE]) {
            return 0;
        }
        let plausible = bytes[104] <= 9 && bytes[100] <= 9 && bytes[105] <= 10;
        let count = u16_at(bytes, COUNT).unwrap_or(0) as usize;
        let exact = HEADER_LEN + 2 * count == bytes.len();
        if exact && plausible {
            90
        } else if exact {
            // Odd komi, handicap or ending bytes: still the shape of a record.
            60
        } else if plausible && bytes.starts_with(&[2, 0, 0, 0]) {
            // Truncated or with bytes added, but the header looks like the sample's.
            30
        } else {
            0
        }
    }
    fn read(&self, bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError> {
        read(bytes, opts)
    }
}

fn refuse(message: String, rep: Report) -> ReadError {
    ReadError {
        format: "WGS",
        message,
        diagnostics: rep.finish(),
        not_record: None,
    }
}

fn read(bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError> {
    let mut rep = Report::default();
    if bytes.len() < HEADER_LEN {
        return Err(refuse(
            format!(
                "the file has {} bytes, a WGS header has {HEADER_LEN}: truncated, or not a WGS record",
                bytes.len()
            ),
            rep,
        ));
    }
    let size = bytes[SIZE];
    if !(2..=52).contains(&size) {
        return Err(refuse(
            format!("board size {size} (byte {SIZE}) is not a board: not a WGS record"),
            rep,
        ));
    }
    // Which header bytes a field accounts for; the rest is kept raw.
    let mut known = [false; HEADER_LEN];
    let mut mark = |start: usize, len: usize| known[start..start + len].fill(true);
    let mut kept: Vec<String> = Vec::new();

    // Names: up to the first NUL of their fields, GB2312 (a GB18030 subset).
    let names: Vec<&[u8]> = PLAYERS
        .iter()
        .map(|&(_, _, at, _, _)| {
            let field = &bytes[at..at + NAME_LEN];
            let len = field.iter().position(|&c| c == 0).unwrap_or(NAME_LEN);
            mark(at, (len + 1).min(NAME_LEN));
            &field[..len]
        })
        .collect();
    let sample = names.join(&b"\n"[..]);
    let cs = common::choose_charset(
        &sample,
        Some((encoding_rs::GB18030, "the WGS format (GB2312 names)")),
    );
    rep.charset(&cs, span(10, NAME_LEN));

    let mut b = SgfBuilder::new_go(size);
    let root = SgfBuilder::ROOT;
    mark(SIZE, 1);
    let mut qq_left_out = false;
    for (&(c, qq, _, rating_at, dan_at), name) in PLAYERS.iter().zip(&names) {
        let name = common::decode(name, cs.encoding);
        b.set_text(root, &format!("P{c}"), name.trim());
        let rating = u32_at(bytes, rating_at) as i32;
        b.set_text(root, &format!("{c}R"), &rank_of(rating));
        kept.push(format!("{c}RATING={rating}"));
        mark(rating_at, 4);
        if bytes[dan_at] != 0 {
            kept.push(format!("{c}AMATEURDAN={}", bytes[dan_at]));
        }
        mark(dan_at, 1);
        let number = u32_at(bytes, qq);
        if number != 0 {
            if opts.keep_email {
                kept.push(format!("{c}QQ={number}"));
            } else {
                qq_left_out = true;
            }
        }
        mark(qq, 4);
    }
    if qq_left_out {
        rep.push(
            Code::FieldKept,
            span(4, 4),
            "the players' QQ numbers are not copied (ReadOptions::keep_email)",
        );
    }

    // Komi.
    let (whole, tenths) = (bytes[103], bytes[104]);
    if tenths > 9 {
        rep.unreadable(
            span(103, 2),
            format!("komi {whole} and {tenths} tenths not understood; kept in {HEADER_PROP}"),
        );
        kept.push(format!("KOMI={whole},{tenths}"));
    } else {
        b.set_raw(
            root,
            "KM",
            vec![fmt_real(f64::from(whole) + f64::from(tenths) / 10.0)],
        );
    }
    mark(103, 2);

    // The result.
    let (end, winner) = (bytes[105], bytes[106]);
    let score = i16::from_le_bytes([bytes[108], bytes[109]]);
    kept.push(format!("END={end}"));
    kept.push(format!("WINNER={winner}"));
    if score != 0 {
        kept.push(format!("SCORE={score}"));
    }
    mark(105, 2);
    mark(108, 2);
    match result(end, winner, score) {
        Some(re) => b.set_raw(root, "RE", vec![re]),
        None if ending(end).is_none() => {
            rep.unreadable(span(105, 1), format!("ending code {end} not known; no RE"))
        }
        None if matches!(end, 6 | 8..=10) => rep.unreadable(
            span(106, 1),
            format!("winner {winner} not understood (1 Black, 0 White); no RE"),
        ),
        None => {}
    }

    // Moves.
    mark(COUNT, 2);
    let announced = u16_at(bytes, COUNT).unwrap_or(0) as usize;
    let body = &bytes[HEADER_LEN..];
    let pairs = body.len() / 2;
    let mut moves: Vec<(usize, Option<Point>)> = Vec::with_capacity(pairs);
    let mut off_board = 0usize;
    let mut odd_column = false;
    for i in 0..pairs {
        let at = HEADER_LEN + 2 * i;
        let (col, row) = (body[2 * i], body[2 * i + 1]);
        if (col, row) == (1, 0) {
            moves.push((i, None));
            continue;
        }
        if !col.is_multiple_of(4) && !odd_column {
            odd_column = true;
            rep.unreadable(
                span(at, 2),
                format!(
                    "move {}: column byte {col} is not a multiple of 4; read as column {}",
                    i + 1,
                    col / 4
                ),
            );
        }
        let (x, y) = (col / 4, row);
        if x >= size || y >= size {
            off_board += 1;
            rep.unreadable(
                span(at, 2),
                format!("move {} is outside the board; skipped", i + 1),
            );
            continue;
        }
        moves.push((i, Some(Point::new(x, y))));
    }
    if pairs >= 4 && off_board * 2 > pairs {
        return Err(refuse(
            format!("{off_board} of {pairs} moves are outside the board: not a WGS record"),
            rep,
        ));
    }
    if !body.len().is_multiple_of(2) {
        rep.unreadable(
            span(bytes.len() - 1, 1),
            "an odd byte after the last move: the file is cut in the middle of a move",
        );
    }
    if pairs < announced {
        rep.unreadable(
            span(bytes.len(), 0),
            format!(
                "the file is truncated: the header announces {announced} moves, the file holds {pairs}"
            ),
        );
    } else if pairs > announced {
        rep.unreadable(
            span(HEADER_LEN + 2 * announced, 2 * (pairs - announced)),
            format!("the header announces {announced} moves, the file holds {pairs}; all are read"),
        );
    }

    // Handicap stones: not listed; White moves first after them.
    let handicap = bytes[100];
    mark(100, 1);
    let mut white_first = false;
    if handicap >= 2 {
        let played = |white_first: bool| -> Vec<(Color, Option<Point>)> {
            moves
                .iter()
                .map(|&(i, p)| (color_of(i, white_first), p))
                .collect()
        };
        let seq = played(true);
        let placed = [HandicapOrder::Tygem, HandicapOrder::Western]
            .into_iter()
            .filter_map(|o| handicap_points(size, handicap, o).map(|p| (o, p)))
            .min_by_key(|(_, p)| replay::occupied_moves(size, p, &seq));
        match placed {
            Some((order, pts)) => {
                white_first = true;
                b.set_raw(root, "HA", vec![handicap.to_string()]);
                b.add_stones(root, "AB", &pts);
                rep.push(
                    Code::HandicapPlaced,
                    span(100, 1),
                    format!(
                        "{handicap} handicap stones are not listed in WGS files; placed by the {} convention",
                        order.name()
                    ),
                );
            }
            None => {
                rep.unreadable(
                    span(100, 1),
                    format!(
                        "no fixed placement for {handicap} handicap stones on {size}×{size}; kept in {HEADER_PROP}"
                    ),
                );
                kept.push(format!("HANDICAP={handicap}"));
            }
        }
    } else if handicap == 1 {
        kept.push("HANDICAP=1".into());
    }

    let mut node = root;
    for &(i, p) in &moves {
        node = b.add_child(node);
        b.set_move(node, color_of(i, white_first), p);
    }

    // Header bytes no field accounts for, in runs, when not all zero.
    let mut i = 0;
    while i < HEADER_LEN {
        if known[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < HEADER_LEN && !known[i] {
            i += 1;
        }
        // Zeros around the non-zero bytes are padding as far as anyone knows.
        let run = &bytes[start..i];
        if let (Some(a), Some(z)) = (
            run.iter().position(|&x| x != 0),
            run.iter().rposition(|&x| x != 0),
        ) {
            let hex: String = run[a..=z].iter().map(|x| format!("{x:02x}")).collect();
            let (a, z) = (start + a, start + z);
            kept.push(if a == z {
                format!("raw{a}={hex}")
            } else {
                format!("raw{a}-{z}={hex}")
            });
        }
    }
    for k in &kept {
        b.add_text(root, HEADER_PROP, k);
    }
    let keys: Vec<&str> = kept
        .iter()
        .map(|k| k.split_once('=').map_or(k.as_str(), |(k, _)| k))
        .collect();
    rep.push(
        Code::FieldKept,
        Span::default(),
        format!(
            "fields without an SGF equivalent kept in {HEADER_PROP}: {}",
            keys.join(", ")
        ),
    );
    rep.push(
        Code::FormatConverted,
        Span::default(),
        format!(
            "WGS record converted to SGF ({} moves, charset {})",
            moves.len(),
            cs.name
        ),
    );
    Ok(Loaded {
        format: "WGS",
        charset: cs.name,
        converted: true,
        parsed: b.into_parsed(rep.finish()),
    })
}

/// The colour of the `i`-th move (from 0): Black first, or White after
/// handicap stones.
fn color_of(i: usize, white_first: bool) -> Color {
    if i.is_multiple_of(2) != white_first {
        Color::Black
    } else {
        Color::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_level_table() {
        for (rating, rank) in [
            (-157, "3k"),
            (-119, "3k"),
            (-100, "2k"),
            (-1, "2k"),
            (0, "1k"),
            (99, "1k"),
            (100, "1d"),
            (899, "8d"),
            (5000, "9d"),
            (-5000, "9k"),
            (i32::MIN, "9k"),
            (i32::MAX, "9d"),
        ] {
            assert_eq!(rank_of(rating), rank, "{rating}");
        }
    }

    #[test]
    fn results() {
        assert_eq!(result(9, 1, 0).as_deref(), Some("B+R"));
        assert_eq!(result(8, 0, 0).as_deref(), Some("W+T"));
        assert_eq!(result(6, 1, 0).as_deref(), Some("B+F"));
        assert_eq!(result(10, 1, 8).as_deref(), Some("B+7.5"));
        assert_eq!(result(10, 0, -7).as_deref(), Some("W+7.5"));
        assert_eq!(result(2, 7, 0).as_deref(), Some("0"));
        assert_eq!(result(5, 0, 0).as_deref(), Some("Void"));
        assert_eq!(result(0, 1, 0), None);
        assert_eq!(result(9, 3, 0), None);
        assert_eq!(result(11, 1, 0), None);
    }
}
