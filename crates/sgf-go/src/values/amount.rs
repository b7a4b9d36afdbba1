//! Amounts of points or stones, as margins and komi are written.

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

/// The first number of `s` with its sign: ASCII digits with a `.` or `,`
/// decimal, or a CJK numeral; with the text after it.
fn first_number(s: &str) -> Option<(f64, &str)> {
    let start = s.find(|c: char| c.is_ascii_digit() || is_cjk_digit(c))?;
    let neg = s[..start].trim_end().ends_with('-');
    let rest = &s[start..];
    let (x, used) = if rest.starts_with(|c: char| c.is_ascii_digit()) {
        let b = rest.as_bytes();
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
        (rest[..end].replace(',', ".").parse::<f64>().ok()?, end)
    } else {
        let num: String = rest.chars().take_while(|&c| is_cjk_digit(c)).collect();
        (f64::from(cjk_number(&num)?), num.len())
    };
    Some((if neg { -x } else { x }, &rest[used..]))
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

/// Reads an amount: `6.5`, `6目半`, `7目`, `3又3/4子`, `1/4子`, `5 1/2`,
/// `6집반`, `4 points`, `七目半`, `５。５`.
pub(crate) fn amount(s: &str) -> Option<Amount> {
    let f = fold(s);
    let (mut x, mut rest) = first_number(f.trim())?;
    let r = rest.trim_start();
    if let Some(den) = r.strip_prefix('/') {
        // `3/4`: a fraction alone.
        let t = den.trim_start();
        let n = t.bytes().take_while(u8::is_ascii_digit).count();
        let d: f64 = t[..n].parse().ok()?;
        if d == 0.0 {
            return None;
        }
        x /= d;
        rest = &t[n..];
    } else if let Some(after) = r.strip_prefix('又').or_else(|| r.strip_prefix("and")) {
        // `3又3/4`: whole and fraction.
        let (q, tail) = fraction(after)?;
        x += q.copysign(if x < 0.0 { -1.0 } else { 1.0 });
        rest = tail;
    } else if let Some((q, tail)) = fraction(rest) {
        // `5 1/2`.
        x += q.copysign(if x < 0.0 { -1.0 } else { 1.0 });
        rest = tail;
    }
    let r = rest.trim_start();
    let stones = r.starts_with('子');
    let half = ["目半", "集半", "집반", "半", "반", "点半", "點半"]
        .iter()
        .any(|h| r.starts_with(h));
    if half {
        x += if x < 0.0 { -0.5 } else { 0.5 };
    }
    Some(Amount { value: x, stones })
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
        ] {
            assert_eq!(amount(s), Some(Amount { value: v, stones }), "{s}");
        }
        assert_eq!(amount("half"), None);
    }
}
