//! Reading values written the way people write them, to correct them:
//! `1 kk` → 1, `34.` → 34, `6,5` → 6.5, `5 1/2` → 5.5, `6目半` → 6.5,
//! `9 hours` → 32400 s, `1時間` → 3600 s.

/// A leading integer: `1 kk` → 1, `3.0` → 3, `+5` → 5.
pub fn number(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(if neg { -n } else { n })
}

/// A real number written loosely: `34.`, `6,5`, `5 1/2`, `3/4`, `6.5目`,
/// `6目半`, `黒6目半`, `七目半` is not read (no CJK numerals).
pub fn real(s: &str) -> Option<f64> {
    let t = s.trim();
    let neg = t.starts_with('-');
    let mut value = 0.0;
    let mut seen = false;
    // integer part, decimal part with '.' or ',', then optional fraction "a/b", then 半.
    let chars: Vec<char> = t.chars().collect();
    let mut i = chars.iter().position(|c| c.is_ascii_digit())?;
    let start = i;
    while i < chars.len() && chars[i].is_ascii_digit() {
        i += 1;
    }
    let int: String = chars[start..i].iter().collect();
    // "3/4" alone: a fraction.
    if i < chars.len() && chars[i] == '/' {
        let j0 = i + 1;
        let mut j = j0;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        let den: f64 = chars[j0..j].iter().collect::<String>().parse().ok()?;
        let num: f64 = int.parse().ok()?;
        if den == 0.0 {
            return None;
        }
        return Some(if neg { -num / den } else { num / den });
    }
    value += int.parse::<f64>().ok()?;
    seen |= !int.is_empty();
    if i + 1 < chars.len() && (chars[i] == '.' || chars[i] == ',') && chars[i + 1].is_ascii_digit()
    {
        let f0 = i + 1;
        let mut f = f0;
        while f < chars.len() && chars[f].is_ascii_digit() {
            f += 1;
        }
        let frac: String = chars[f0..f].iter().collect();
        value += format!("0.{frac}").parse::<f64>().ok()?;
        i = f;
    } else if i < chars.len() && (chars[i] == '.' || chars[i] == ',') {
        i += 1;
    }
    // " 1/2"
    let rest: String = chars[i..].iter().collect();
    let rest_t = rest.trim_start();
    if let Some((a, b)) = rest_t.split_once('/') {
        let a: String = a.chars().filter(|c| c.is_ascii_digit()).collect();
        let b: String = b.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>())
            && b != 0.0
            && !a.to_string().is_empty()
        {
            value += a / b;
        }
    }
    if rest.contains('半') {
        value += 0.5;
    }
    seen.then_some(if neg { -value } else { value })
}

/// A duration in seconds: `9 hours`, `1h30m`, `90 min`, `1時間`, `30秒`,
/// `45分`, `1:30:00`, a bare number (seconds).
pub fn seconds(s: &str) -> Option<f64> {
    let t = s.trim().to_lowercase();
    if let Some(v) = sgf_core::value::parse_real(t.as_bytes()) {
        return Some(v);
    }
    // h:mm:ss or mm:ss
    if t.contains(':') && t.chars().all(|c| c.is_ascii_digit() || c == ':') {
        let parts: Vec<f64> = t
            .split(':')
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?;
        return Some(parts.iter().fold(0.0, |acc, p| acc * 60.0 + p));
    }
    let mut total = 0.0;
    let mut any = false;
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let s0 = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
            i += 1;
        }
        let n: f64 = chars[s0..i].iter().collect::<String>().parse().ok()?;
        while i < chars.len() && chars[i] == ' ' {
            i += 1;
        }
        let unit: String = chars[i..]
            .iter()
            .take_while(|c| !c.is_ascii_digit() && **c != ' ')
            .collect();
        let mult = if unit.starts_with('h')
            || unit.starts_with("時間")
            || unit.starts_with('小')
            || unit.starts_with("시간")
        {
            3600.0
        } else if unit.starts_with('m') || unit.starts_with('分') || unit.starts_with('분') {
            60.0
        } else if unit.starts_with('s')
            || unit.starts_with('秒')
            || unit.starts_with('초')
            || unit.is_empty()
        {
            1.0
        } else {
            return None;
        };
        total += n * mult;
        any = true;
        i += unit.chars().count();
    }
    any.then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number("1 kk"), Some(1));
        assert_eq!(number("3.0"), Some(3));
        assert_eq!(number("-2"), Some(-2));
        assert_eq!(number("two"), None);
    }

    #[test]
    fn reals() {
        for (s, v) in [
            ("34.", 34.0),
            ("6,5", 6.5),
            ("5 1/2", 5.5),
            ("3/4", 0.75),
            ("6.5目", 6.5),
            ("6目半", 6.5),
            ("黒6目半", 6.5),
            ("-0.5", -0.5),
            ("7点", 7.0),
        ] {
            assert_eq!(real(s), Some(v), "{s}");
        }
        assert_eq!(real("half"), None);
    }

    #[test]
    fn durations() {
        for (s, v) in [
            ("9 hours", 32400.0),
            ("1h30m", 5400.0),
            ("90 min", 5400.0),
            ("1時間", 3600.0),
            ("30秒", 30.0),
            ("45分", 2700.0),
            ("1:30:00", 5400.0),
            ("600", 600.0),
        ] {
            assert_eq!(seconds(s), Some(v), "{s}");
        }
        assert_eq!(seconds("forever"), None);
        assert_eq!(seconds("3 fortnights"), None);
    }
}
