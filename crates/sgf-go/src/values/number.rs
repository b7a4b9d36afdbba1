//! Numbers written loosely: `1 kk` → 1, `34.` → 34, `6,5` → 6.5,
//! `5 1/2` → 5.5, `3/4` → 0.75, `６` → 6, `九` → 9.

use super::{amount, cjk_number, fold, is_cjk_digit};

/// An integer: the leading one of `s` (`1 kk` → 1, `3.0` → 3, `+5` → 5,
/// `２子` → 2, `九` → 9). `None` when there is none.
pub fn read_number(s: &str) -> Option<i64> {
    let f = fold(s);
    let t = f.trim();
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: i64 = if digits.is_empty() {
        let cjk: String = rest.chars().take_while(|&c| is_cjk_digit(c)).collect();
        i64::from(cjk_number(&cjk)?)
    } else {
        digits.parse().ok()?
    };
    Some(if neg { -n } else { n })
}

/// A real number written loosely (`34.`, `6,5`, `5 1/2`, `3/4`, `6.5目`,
/// `6目半`, `５。５`); stones are not converted to points (see
/// [`read_komi`](super::read_komi) for that).
pub fn read_real(s: &str) -> Option<f64> {
    if let Some(x) = sgf_core::value::parse_real(s.trim().as_bytes()) {
        return Some(x);
    }
    amount::amount(s).map(|a| a.value)
}

/// A real number the way SGF writes it: `6.5`, `0`, `3.75`, `-5.5`, at
/// most four decimals.
pub fn fmt_real(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
