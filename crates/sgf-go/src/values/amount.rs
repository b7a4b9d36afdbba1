//! Amounts of points or stones, as margins and komi are written; and the
//! plain decimal numbers every lenient reader starts from.
//!
//! An amount is read from the whole of its text or not at all: `0:07:42`
//! is not `0`, `6.5 or 7.5` is not `6.5` (a prefix of a value is never
//! read as the value).

use super::{cjk_number, fold, is_cjk_digit};

/// An amount read from text: its value in the unit written, and whether
/// that unit is stones (子, Chinese counting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Amount {
    pub value: f64,
    pub stones: bool,
}

impl Amount {
    /// In points: a stone is two.
    pub fn points(self) -> f64 {
        if self.stones {
            self.value * 2.0
        } else {
            self.value
        }
    }
}

/// A decimal number that is the whole of `t` (already folded and
/// trimmed): `6.5`, `-3`, `+5`, `34.` (a trailing point), `.5`, `6,5` (a
/// decimal comma). `None` for anything else, and for a comma followed by
/// exactly three digits (`1,500`: a thousands separator or a decimal
/// comma, which the text does not say).
pub(crate) fn plain_decimal(t: &str) -> Option<f64> {
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let neg = t.starts_with('-');
    let (int, frac) = match body.find(['.', ',']) {
        Some(p) => (&body[..p], Some((&body[p + 1..], body.as_bytes()[p]))),
        None => (body, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) {
        return None;
    }
    let frac_digits = match frac {
        Some((f, sep)) => {
            if !all_digits(f) || (sep == b',' && (f.is_empty() || f.len() == 3)) {
                return None;
            }
            f
        }
        None => "",
    };
    if int.is_empty() && frac_digits.is_empty() {
        return None;
    }
    let text = format!(
        "{}{}.{}",
        if neg { "-" } else { "" },
        if int.is_empty() { "0" } else { int },
        if frac_digits.is_empty() {
            "0"
        } else {
            frac_digits
        }
    );
    text.parse().ok()
}

/// The number at the start of `s` with its sign: ASCII digits with a `.`
/// or `,` decimal, or a CJK numeral; with the text after it.
fn lead_number(s: &str) -> Option<(f64, &str)> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (x, used) = if body.starts_with(|c: char| c.is_ascii_digit()) {
        let b = body.as_bytes();
        let mut end = 0;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if end + 1 < b.len() && matches!(b[end], b'.' | b',') && b[end + 1].is_ascii_digit() {
            end += 1;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
        (plain_decimal(&body[..end])?, end)
    } else {
        let num: String = body.chars().take_while(|&c| is_cjk_digit(c)).collect();
        (f64::from(cjk_number(&num)?), num.len())
    };
    Some((if neg { -x } else { x }, &body[used..]))
}

/// A fraction `a/b` at the start of `s` (after white space).
fn fraction(s: &str) -> Option<(f64, &str)> {
    let t = s.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let after = t[digits..].trim_start().strip_prefix('/')?;
    let after = after.trim_start();
    let den_len = after.bytes().take_while(u8::is_ascii_digit).count();
    let num: f64 = t[..digits].parse().ok()?;
    let den: f64 = after[..den_len].parse().ok()?;
    (den != 0.0).then_some((num / den, &after[den_len..]))
}

/// Units of an amount, longest first: (word, stones).
const UNITS: &[(&str, bool)] = &[
    ("points", false),
    ("point", false),
    ("pts", false),
    ("pt", false),
    ("stones", true),
    ("stone", true),
    ("目", false),
    ("集", false),
    ("집", false),
    ("点", false),
    ("點", false),
    ("子", true),
];

/// An amount at the start of `s` (`6.5`, `6目半`, `7目`, `3又3/4子`,
/// `1/4子`, `5 1/2`, `6집반`, `4 points`, `七目半`), with the text after
/// it. `s` is folded and in lower case.
fn lead_amount(s: &str) -> Option<(Amount, &str)> {
    let (mut x, mut rest) = lead_number(s)?;
    let sign = |q: f64, x: f64| q.copysign(if x < 0.0 { -1.0 } else { 1.0 });
    let r = rest.trim_start();
    if let Some(den) = r.strip_prefix('/') {
        // `3/4`: a fraction alone.
        let t = den.trim_start();
        let n = t.bytes().take_while(u8::is_ascii_digit).count();
        let d: f64 = t[..n].parse().ok()?;
        if d == 0.0 || x.fract() != 0.0 {
            return None;
        }
        x /= d;
        rest = &t[n..];
    } else if let Some(after) = r.strip_prefix('又').or_else(|| r.strip_prefix("and ")) {
        // `3又3/4`: whole and fraction.
        let (q, tail) = fraction(after)?;
        x += sign(q, x);
        rest = tail;
    } else if let Some((q, tail)) = fraction(rest) {
        // `5 1/2`.
        x += sign(q, x);
        rest = tail;
    }
    let mut r = rest.trim_start();
    let mut stones = false;
    if let Some((u, s)) = UNITS.iter().find(|(u, _)| r.starts_with(u)) {
        stones = *s;
        r = r[u.len()..].trim_start();
    }
    if let Some(t) = r.strip_prefix('半').or_else(|| r.strip_prefix('반')) {
        x += sign(0.5, x);
        r = t;
        // `6目半子` does not occur; `3子半` is three and a half stones.
        if !stones && let Some(t) = r.strip_prefix('子') {
            stones = true;
            r = t;
        }
    }
    Some((Amount { value: x, stones }, r))
}

/// Reads an amount that is the whole of `s` but for the words of `lead`
/// before it and of `trail` after it (case-insensitive): `6.5`, `6目半`,
/// `7目`, `3又3/4子`, `1/4子`, `5 1/2`, `6집반`, `4 points`, `七目半`, `５。５`.
pub(crate) fn amount(s: &str, lead: &[&str], trail: &[&str]) -> Option<Amount> {
    let f = fold(s).to_lowercase();
    let mut t = f.trim();
    // The words before the number, each once at most, in any order.
    let mut seen = 0;
    while seen < lead.len() {
        match lead.iter().find(|w| t.starts_with(**w)) {
            Some(w) => t = t[w.len()..].trim_start_matches([' ', ':']),
            None => break,
        }
        seen += 1;
    }
    let (a, rest) = lead_amount(t)?;
    let mut rest = rest.trim();
    for w in trail {
        if let Some(r) = rest.strip_prefix(w) {
            rest = r.trim();
        }
    }
    rest.is_empty().then_some(a)
}

/// The one amount in a sentence (`black wins by 5 3/4 points`,
/// `黑胜2又3/4子`, `白11目胜`): `None` when there is none, or when other
/// digits than the amount's stand in the text (`W+3.5 (komi 6.5)`).
pub(crate) fn amount_in(s: &str) -> Option<Amount> {
    let f = fold(s).to_lowercase();
    let is_digit = |c: char| c.is_ascii_digit() || is_cjk_digit(c);
    let start = f.find(is_digit)?;
    let before = &f[..start];
    let signed = before.trim_end().ends_with('-');
    let at = if signed {
        before.trim_end().len() - 1
    } else {
        start
    };
    let (a, rest) = lead_amount(&f[at..])?;
    if rest.contains(is_digit) {
        return None;
    }
    Some(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts() {
        for (s, v, stones) in [
            ("6.5", 6.5, false),
            ("6目半", 6.5, false),
            ("3又3/4子", 3.75, true),
            ("1/4子", 0.25, true),
            ("5 1/2", 5.5, false),
            ("6집반", 6.5, false),
            ("七目半", 7.5, false),
            ("５。５", 5.5, false),
            ("-0.5", -0.5, false),
            ("6,5", 6.5, false),
            ("4 points", 4.0, false),
        ] {
            assert_eq!(
                amount(s, &[], &[]),
                Some(Amount { value: v, stones }),
                "{s}"
            );
        }
        for s in ["half", "0:07:42", "6.5 or 7.5", "6.5x", "1,500", "1.2.3"] {
            assert_eq!(amount(s, &[], &[]), None, "{s}");
        }
        assert_eq!(amount_in("black wins by 3.5").map(|a| a.value), Some(3.5));
        assert_eq!(amount_in("w+3.5 (komi 6.5)"), None);
    }

    #[test]
    fn plain_decimals() {
        assert_eq!(plain_decimal("34."), Some(34.0));
        assert_eq!(plain_decimal(".5"), Some(0.5));
        assert_eq!(plain_decimal("6,5"), Some(6.5));
        assert_eq!(plain_decimal("-2"), Some(-2.0));
        assert_eq!(plain_decimal("1,500"), None);
        assert_eq!(plain_decimal("."), None);
        assert_eq!(plain_decimal("6,"), None);
        assert_eq!(plain_decimal("1.2.3"), None);
    }
}
