//! Numbers written loosely: `34.` → 34, `6,5` → 6.5, `5 1/2` → 5.5,
//! `3/4` → 0.75, `６` → 6, `九` → 9, `2 stones` → 2. Each is read from
//! the whole of its text or not at all: `1 kk`, `3.5` (as an integer) and
//! `0:07:42` are not understood.

use super::{amount, cjk_number, fold};

/// Counting words an integer may carry: `2子`, `2 stones`, `120手`.
const COUNTERS: &[&str] = &[
    "stones", "stone", "moves", "move", "子", "石", "手", "路", "目", "수", "점",
];

/// An integer that is the whole text (`3`, `+5`, `3.0`, `２子`, `九`,
/// `2 stones`). `None` when the text says something else too (`1 kk`,
/// `3.5`, `two`).
pub fn read_number(s: &str) -> Option<i64> {
    let f = fold(s).to_lowercase();
    let mut t = f.trim();
    if let Some(c) = COUNTERS.iter().find(|c| t.ends_with(**c)) {
        t = t[..t.len() - c.len()].trim_end();
    }
    if let Some(x) = amount::plain_decimal(t) {
        return (x.fract() == 0.0 && x.abs() < 1e15).then_some(x as i64);
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let n = i64::from(cjk_number(body)?);
    Some(if neg { -n } else { n })
}

/// A real number written loosely (`34.`, `6,5`, `5 1/2`, `3/4`, `6.5目`,
/// `6目半`, `５。５`), from the whole text; stones are not converted to
/// points (see [`read_komi`](super::read_komi) for that).
pub fn read_real(s: &str) -> Option<f64> {
    let f = fold(s);
    if let Some(x) = amount::plain_decimal(f.trim()) {
        return Some(x);
    }
    amount::amount(s, &[], &[]).map(|a| a.value)
}

/// A real number the way SGF writes it: `6.5`, `0`, `3.75`, `-5.5`. Four
/// decimals when they give the number (up to the rounding of binary
/// arithmetic: `1.1 hours` is 3960 seconds), else as many as it takes to
/// read the same number again (`1/3` is `0.3333333333333333`): the text
/// written always reads as the value meant.
pub fn fmt_real(x: f64) -> String {
    let close = |y: f64| (y - x).abs() <= 1e-9 * x.abs().max(1.0);
    let whole = x.round();
    if close(whole) && whole.abs() < 1e15 {
        return format!("{}", whole as i64);
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s.parse::<f64>().is_ok_and(close) {
        s
    } else {
        format!("{x}")
    }
}
