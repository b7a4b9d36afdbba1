//! The promise of the value repairs, as a property: for generated values
//! of every numeric, real, date and result property, written in the forms
//! people write (and those forms with words or digits after them), the
//! repair of `check --fix` is the identity, or exact (the output, read
//! strictly, is the value the input meant), or keeps the original wording
//! in `GC`; and a value with more after it is never read as the value of
//! its start (`BL[0:07:42]` is never `BL[0]`, `MN[12 13]` never `MN[12]`).
//!
//! Breaking a reader so that it takes a prefix (`read_seconds` reading
//! `0:07:42` as 0, `read_number` reading `12 13` as 12) fails this test.

#[path = "../../../testsupport/typed_values.rs"]
mod typed_values;

use proptest::prelude::*;
use sgf_core::{Document, ValueType, WriteOptions, parse};
use sgf_formats::repair::{self, RepairOptions};
use sgf_go::values::{GameResult, PartialDate, WinBy};
use typed_values::{Typed, prefix_read, strict};

/// A generated value: the property, its text, and what the text means
/// (`None` when it means nothing certain: a form with more after it).
#[derive(Clone, Debug)]
struct Case {
    ident: &'static str,
    ty: ValueType,
    text: String,
    meant: Option<Typed>,
    /// What the start of the text means, when something follows it.
    start_meant: Option<Typed>,
}

/// Full-width digits for ASCII ones.
fn wide(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c),
            ',' => '，',
            '.' => '．',
            c => c,
        })
        .collect()
}

/// A CJK numeral up to 99.
fn cjk(n: u32) -> String {
    const D: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => D[n as usize].to_string(),
        10..=19 => format!("十{}", D[(n % 10) as usize]),
        _ => format!("{}十{}", D[(n / 10) as usize], D[(n % 10) as usize]),
    }
}

/// Words or digits after a value, which make it mean something else or
/// nothing certain.
const TAILS: &[&str] = &[
    " or 7", ":7", " 12", "kk", "x", " ?", "..5", ",5,5", "/0", "-3",
];

/// An integer `n` (Number properties) in form `form`.
fn number(ident: &'static str, n: u32, form: usize) -> String {
    match form % 6 {
        0 => n.to_string(),
        1 => format!("+{n}"),
        2 => format!("{n}.0"),
        3 => wide(&n.to_string()),
        4 if ident == "HA" => format!("{n} stones"),
        4 if (1..100).contains(&n) => cjk(n),
        _ => format!(" {n} "),
    }
}

/// A real `x`, a multiple of ¼, in form `form`.
fn real(ident: &'static str, x: f64, form: usize) -> String {
    let plain = sgf_go::values::fmt_real(x);
    let (whole, frac) = (x.trunc() as i64, x.fract());
    match form % 6 {
        0 => plain,
        1 => plain.replace('.', ","),
        2 => wide(&plain),
        3 if frac == 0.5 && ident == "KM" => format!("{whole}目半"),
        3 if frac > 0.0 => format!("{whole} {}/4", (frac * 4.0) as i64),
        4 if frac == 0.0 && ident != "KM" && whole >= 60 => {
            // A clock: h:mm:ss or m:ss.
            let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
            if h > 0 {
                format!("{h}:{m:02}:{s:02}")
            } else {
                format!("{m}:{s:02}")
            }
        }
        5 if frac == 0.0 && ident != "KM" && whole % 60 == 0 && whole > 0 => {
            format!("{} min", whole / 60)
        }
        _ => plain,
    }
}

/// A date in form `form` (the day-first and month-first forms only where
/// the day shows which is which).
fn date(y: u16, m: u8, d: u8, form: usize) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    match form % 9 {
        0 => format!("{y}/{m}/{d}"),
        1 => format!("{y}.{m:02}.{d:02}"),
        2 => format!("{y}年{m}月{d}日"),
        3 => format!("{y}{m:02}{d:02}"),
        4 if d > 12 => format!("{d}/{m:02}/{y}"),
        5 if d > 12 => format!("{m:02}/{d}/{y}"),
        6 => {
            let ys: String = y
                .to_string()
                .chars()
                .map(|c| {
                    ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
                        [c as usize - '0' as usize]
                })
                .collect();
            format!("{ys}年{}月{}日", cjk(u32::from(m)), cjk(u32::from(d)))
        }
        7 => format!("{} {d}, {y}", MONTHS[usize::from(m) - 1]),
        _ => wide(&format!("{y}-{m:02}-{d:02}")),
    }
}

/// A result in form `form`: who won, how.
fn result(black: bool, how: usize, margin: f64, form: usize) -> (String, GameResult) {
    let (c, word, cjk_c) = if black {
        ("B", "Black", "黑")
    } else {
        ("W", "White", "白")
    };
    let winner = if black {
        sgf_core::Color::Black
    } else {
        sgf_core::Color::White
    };
    let m = sgf_go::values::fmt_real(margin);
    let (text, by) = match (how % 3, form % 4) {
        (0, 0) => (format!("{c}+Resign"), WinBy::Resign),
        (0, 1) => (format!("{word} wins by resignation"), WinBy::Resign),
        (0, 2) => (format!("{cjk_c}中盘胜"), WinBy::Resign),
        (0, _) => (format!("{}+r", c.to_lowercase()), WinBy::Resign),
        (1, 0) => (format!("{c}+T"), WinBy::Time),
        (1, _) => (format!("{word} wins on time"), WinBy::Time),
        (_, 0) => (format!("{c}+{}", m.replace('.', ",")), WinBy::Score(margin)),
        (_, 1) => (format!("{word} wins by {m} points"), WinBy::Score(margin)),
        (_, 2) => (format!("{cjk_c}胜{m}目"), WinBy::Score(margin)),
        (_, _) => (wide(&format!("{c}+{m}")), WinBy::Score(margin)),
    };
    (text, GameResult::Win { winner, by })
}

/// A case of one kind (`kind` picks the property), with a tail or not.
fn case(kind: usize, a: u32, b: u32, form: usize, tail: Option<usize>) -> Case {
    let (ident, ty, text, meant) = match kind % 9 {
        0 => ("HA", ValueType::Number, number("HA", a % 9 + 2, form), {
            Typed::Num(f64::from(a % 9 + 2))
        }),
        1 => ("MN", ValueType::Number, number("MN", a % 400, form), {
            Typed::Num(f64::from(a % 400))
        }),
        2 => {
            let x = f64::from(a % 40) / 4.0;
            ("KM", ValueType::Real, real("KM", x, form), Typed::Num(x))
        }
        3 | 4 => {
            let ident = if kind % 9 == 3 { "BL" } else { "TM" };
            let x = f64::from(a % 20000);
            (ident, ValueType::Real, real(ident, x, form), Typed::Num(x))
        }
        5 => {
            let x = f64::from(a % 400) / 4.0;
            ("V", ValueType::Real, real("V", x, form), Typed::Num(x))
        }
        6 | 7 => {
            let (y, m) = (1900 + (a % 130) as u16, (b % 12) as u8 + 1);
            let d = (a / 130 % 28) as u8 + 1;
            let want = PartialDate {
                year: y,
                month: Some(m),
                day: Some(d),
            };
            (
                "DT",
                ValueType::SimpleText,
                date(y, m, d, form),
                Typed::Dates(vec![want]),
            )
        }
        _ => {
            let margin = f64::from(a % 80) / 2.0 + 0.5;
            let (text, r) = result(b.is_multiple_of(2), b as usize / 2, margin, form);
            ("RE", ValueType::SimpleText, text, Typed::Result(r))
        }
    };
    match tail {
        None => Case {
            ident,
            ty,
            text,
            meant: Some(meant),
            start_meant: None,
        },
        Some(t) => {
            let tail = TAILS[t % TAILS.len()];
            // Words after a result or a date are read around (`黑中盘胜
            // (现场消息)`, the wording kept in GC); digits never are.
            let words =
                matches!(ident, "RE" | "DT") && !tail.contains(|c: char| c.is_ascii_digit());
            Case {
                ident,
                ty,
                text: format!("{text}{tail}"),
                meant: None,
                start_meant: (!words).then_some(meant),
            }
        }
    }
}

/// The record holding the value: game information in the root, the others
/// in a move node.
fn record(c: &Case) -> String {
    let v = sgf_core::text::escape(&c.text, false);
    if matches!(c.ident, "MN" | "BL" | "V") {
        format!("(;GM[1]FF[4]SZ[19];B[dd]{}[{v}])", c.ident)
    } else {
        format!("(;GM[1]FF[4]SZ[19]{}[{v}];B[dd])", c.ident)
    }
}

/// The value of `ident` in the output, and its `GC`.
fn output(doc: &Document, ident: &str) -> (Option<String>, String) {
    let mut value = None;
    let mut gc = String::new();
    for (_, n) in doc.all_nodes() {
        let node = doc.node(n);
        if value.is_none() {
            value = node.value(ident).map(|v| v.decoded().into_owned());
        }
        if let Some(g) = node.text("GC") {
            gc.push_str(&g);
            gc.push('\n');
        }
    }
    (value, gc)
}

/// What is wrong with the repair of `c`, if anything.
fn broken(c: &Case) -> Option<String> {
    let input = record(c);
    let mut doc = parse(input.as_bytes()).document;
    let r = repair::repair_to_canonical(
        &mut doc,
        &WriteOptions::default(),
        &RepairOptions::default(),
    )
    .ok()?;
    let out = parse(&r.bytes).document;
    let (value, gc) = output(&out, c.ident);
    let text = c.text.trim();
    let kept = gc
        .lines()
        .any(|l| l == format!("{} as written: {text}", c.ident));
    let Some(value) = value else {
        return (!kept).then(|| format!("{input}: deleted, its wording not kept"));
    };
    if value.trim() == text {
        return None;
    }
    let read = strict(c.ident, c.ty, &value);
    if read.is_none() {
        return Some(format!(
            "{input}: rewritten as {value:?}, which is not FF[4]"
        ));
    }
    if let Some(m) = &c.meant {
        return (read.as_ref() != Some(m))
            .then(|| format!("{input}: means {m:?}, repaired to {value:?} (another value)"));
    }
    if c.start_meant.is_some() && read == c.start_meant {
        return Some(format!(
            "{input}: the start of the value read as the value ({value:?})"
        ));
    }
    if matches!(c.ty, ValueType::Number | ValueType::Real) && prefix_read(text, &value) {
        return Some(format!("{input}: a prefix read as the value ({value:?})"));
    }
    (!kept).then(|| format!("{input}: rewritten as {value:?} without its wording in GC"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_value_is_kept_exact_or_with_its_wording(
        kind in 0usize..9,
        a in 0u32..1_000_000,
        b in 0u32..1000,
        form in 0usize..12,
        tail in proptest::option::of(0usize..TAILS.len()),
    ) {
        let c = case(kind, a, b, form, tail);
        if let Some(why) = broken(&c) {
            prop_assert!(false, "{}", why);
        }
    }
}

/// The forms the generator writes, each read exactly once: no form is
/// generated that the readers do not understand (the property would then
/// only test "left alone").
#[test]
fn every_generated_form_is_read_exactly() {
    let mut unread = Vec::new();
    for kind in 0..9 {
        for form in 0..12 {
            for a in [7u32, 125, 3725, 90_011] {
                for b in [0u32, 3, 5, 7] {
                    let c = case(kind, a, b, form, None);
                    let input = record(&c);
                    let mut doc = parse(input.as_bytes()).document;
                    let r = repair::repair_to_canonical(
                        &mut doc,
                        &WriteOptions::default(),
                        &RepairOptions::default(),
                    )
                    .unwrap();
                    let out = parse(&r.bytes).document;
                    let value = output(&out, c.ident).0.unwrap_or_default();
                    if strict(c.ident, c.ty, &value).as_ref() != c.meant.as_ref() {
                        unread.push(format!("{input} → {value:?}"));
                    }
                }
            }
        }
    }
    assert!(unread.is_empty(), "{}", unread.join("\n"));
}

/// The oracle of the corpus test sees a number read from the start of a
/// longer one, and a value changed into another.
#[test]
fn the_typed_oracle_sees_changed_values() {
    let before = parse(b"(;GM[1]KM[6.5]DT[2001-08-25];B[aa]BL[0:07:42])").document;
    let prefix = parse(b"(;GM[1]KM[6.5]DT[2001-08-25];B[aa]BL[0])").document;
    let other = parse(b"(;GM[1]KM[7.5]DT[2001-08-25];B[aa]BL[462])").document;
    let good = parse(b"(;GM[1]KM[6.5]DT[2001-08-25];B[aa]BL[462])").document;
    assert_eq!(typed_values::changed(&before, &prefix).len(), 1);
    assert_eq!(typed_values::changed(&before, &other).len(), 1);
    assert!(typed_values::changed(&before, &good).is_empty());
    assert!(prefix_read("0:07:42", "0"));
    assert!(prefix_read("１２ 13", "12"));
    assert!(!prefix_read("34.", "34"));
}
