//! Dates: `DT` in the FF\[4\] form (`1996-12-27,28,1997-01-03,04`), and as
//! people write them: `2024/1/5`, `2018.04.27`, `2024年1月5日`, `20240105`,
//! `2024-1-5`, `August 1, 2001`, `1 Aug 2001`, `12th and 13th march 94`,
//! timestamps (`2016- 3-26-17-29-25`, `2012:11:22:18:03`,
//! `2019/03/08,22:09:00`), full-width digits, CJK numerals
//! (`二〇〇一年八月二十五日`), Korean (`2001년 8월 25일`), and the day
//! before the month where the numbers show which is which (`25/08/2001`,
//! `08/25/2001`; never `05/01/2024`).

use std::fmt;

use super::fold;

/// A date, possibly partial (`1996`, `1996-05`, `1996-05-06`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialDate {
    /// Year.
    pub year: u16,
    /// Month 1–12.
    pub month: Option<u8>,
    /// Day 1–31.
    pub day: Option<u8>,
}

impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
            if let Some(d) = self.day {
                write!(f, "-{d:02}")?;
            }
        }
        Ok(())
    }
}

fn days_in(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        _ => 28,
    }
}

fn digits(s: &str, n: usize) -> Option<u16> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

/// Parses `DT` as FF\[4\] defines it: comma-separated ISO dates with the
/// shortcuts `MM-DD`, `MM` and `DD` that inherit the preceding year and month
/// (`1996-12-27,28,1997-01-03,04`). `None` when it is not in that format.
pub fn parse_dates(s: &str) -> Option<Vec<PartialDate>> {
    #[derive(Copy, Clone, PartialEq)]
    enum Last {
        None,
        Year,
        YearMonth,
        Full,
        MonthDay,
        Month,
        Day,
    }
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut out: Vec<PartialDate> = Vec::new();
    let mut last = Last::None;
    for part in s.split(',') {
        let f: Vec<&str> = part.split('-').collect();
        let prev = out.last().copied();
        let (date, kind) = match f.as_slice() {
            [y] if y.len() == 4 => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: None,
                    day: None,
                },
                Last::Year,
            ),
            [y, m] if y.len() == 4 => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: Some(digits(m, 2)? as u8),
                    day: None,
                },
                Last::YearMonth,
            ),
            [y, m, d] => (
                PartialDate {
                    year: digits(y, 4)?,
                    month: Some(digits(m, 2)? as u8),
                    day: Some(digits(d, 2)? as u8),
                },
                Last::Full,
            ),
            // MM-DD: after YYYY-MM-DD, YYYY-MM, MM-DD, MM or DD.
            [m, d]
                if matches!(
                    last,
                    Last::Full | Last::YearMonth | Last::MonthDay | Last::Month | Last::Day
                ) =>
            {
                (
                    PartialDate {
                        year: prev?.year,
                        month: Some(digits(m, 2)? as u8),
                        day: Some(digits(d, 2)? as u8),
                    },
                    Last::MonthDay,
                )
            }
            // MM: after YYYY-MM or MM; DD: after YYYY-MM-DD, MM-DD or DD.
            [x] if x.len() == 2 => {
                let v = digits(x, 2)? as u8;
                match last {
                    Last::YearMonth | Last::Month => (
                        PartialDate {
                            year: prev?.year,
                            month: Some(v),
                            day: None,
                        },
                        Last::Month,
                    ),
                    Last::Full | Last::MonthDay | Last::Day => (
                        PartialDate {
                            year: prev?.year,
                            month: prev?.month,
                            day: Some(v),
                        },
                        Last::Day,
                    ),
                    _ => return None,
                }
            }
            _ => return None,
        };
        if let Some(m) = date.month
            && !(1..=12).contains(&m)
        {
            return None;
        }
        if let (Some(m), Some(d)) = (date.month, date.day)
            && (d < 1 || d > days_in(date.year, m))
        {
            return None;
        }
        out.push(date);
        last = kind;
    }
    Some(out)
}

/// A date written another way, rewritten in the ISO format when that is
/// unambiguous: `2024/1/5`, `2024.01.05`, `2024年1月5日`, `20240105`,
/// `2024-1-5`. `None` when no single reading exists.
fn correct_date(s: &str) -> Option<String> {
    let t = s.trim();
    if let Some(d) = worded_date(t) {
        return Some(d);
    }
    let norm: String = t
        .chars()
        .map(|c| match c {
            '/' | '.' | '年' | '月' | ' ' | '_' | '년' | '월' => '-',
            '日' | '일' => ' ',
            c => c,
        })
        .collect();
    let norm = norm.trim().trim_end_matches('-').to_string();
    if norm.len() == 8 && norm.bytes().all(|b| b.is_ascii_digit()) {
        let r = format!("{}-{}-{}", &norm[..4], &norm[4..6], &norm[6..]);
        return parse_dates(&r).map(|_| r);
    }
    let f: Vec<&str> = norm.split('-').filter(|x| !x.is_empty()).collect();
    if let [a, b, y] = f.as_slice()
        && y.len() == 4
        && a.len() <= 2
        && b.len() <= 2
    {
        return day_month_year(a, b, y);
    }
    if f.is_empty()
        || f.len() > 3
        || f[0].len() != 4
        || !f.iter().all(|x| x.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let mut r = f[0].to_string();
    for x in &f[1..] {
        if x.len() > 2 {
            return None;
        }
        r.push_str(&format!("-{x:0>2}"));
    }
    parse_dates(&r).map(|_| r)
}

/// `D-M-YYYY` or `M-D-YYYY`, when the numbers show which is which: one
/// of the first two is above 12, or both are the same (`25-08-2001`,
/// `08-25-2001`, `07-07-2001`). `None` for `05-01-2024`.
fn day_month_year(a: &str, b: &str, y: &str) -> Option<String> {
    let num = |x: &str| -> Option<u8> {
        x.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| x.parse().ok())?
    };
    let (a, b) = (num(a)?, num(b)?);
    let (month, day) = match (a > 12, b > 12) {
        (true, false) => (b, a),
        (false, true) => (a, b),
        _ if a == b => (a, b),
        _ => return None,
    };
    let r = format!("{y}-{month:02}-{day:02}");
    parse_dates(&r).map(|_| r)
}

/// A date written with CJK numerals, in ASCII digits: a year digit by
/// digit (`二〇〇一年`), a month and a day in tens (`八月二十五日`). The
/// text unchanged when it has no `年`, `月` or `日`.
fn cjk_digits(t: &str) -> String {
    if !t.contains(['年', '月', '日']) {
        return t.to_string();
    }
    let digit = |c: char| match c {
        '〇' | '零' | '○' => Some(0),
        c => super::cjk_number(&c.to_string()).filter(|_| c != '初'),
    };
    let mut out = String::with_capacity(t.len());
    let cs: Vec<char> = t.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let run: String = cs[i..]
            .iter()
            .take_while(|&&c| c == '十' || digit(c).is_some())
            .collect();
        if run.is_empty() {
            out.push(cs[i]);
            i += 1;
            continue;
        }
        let n = run.chars().count();
        if run.contains('十') {
            match super::cjk_number(&run) {
                Some(v) => out.push_str(&v.to_string()),
                None => out.push_str(&run),
            }
        } else {
            for c in run.chars() {
                out.push_str(&digit(c).map_or(c.to_string(), |d| d.to_string()));
            }
        }
        i += n;
    }
    out
}

/// Dates with an English month name: `August 1, 2001`, `1 Aug 2001`,
/// `12th and 13th march 94` (two-digit years: 50–99 → 19xx, else 20xx).
fn worded_date(t: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut month = None;
    let mut numbers = Vec::new();
    for w in &words {
        if w.chars().all(|c| c.is_ascii_alphabetic()) {
            if let Some(m) = MONTHS.iter().position(|m| w.starts_with(m) && w.len() >= 3) {
                if month.is_some() {
                    return None;
                }
                month = Some(m as u8 + 1);
            }
            continue;
        }
        let digits: String = w.chars().take_while(|c| c.is_ascii_digit()).collect();
        let suffix = &w[digits.len()..];
        if digits.is_empty() || !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
            return None;
        }
        numbers.push((digits.parse::<u32>().ok()?, digits.len()));
    }
    let month = month?;
    let year_at = numbers
        .iter()
        .position(|&(_, len)| len == 4)
        .or_else(|| numbers.iter().rposition(|&(n, len)| len == 2 && n > 31))
        .or_else(|| (numbers.len() >= 2).then(|| numbers.len() - 1))?;
    let (y, len) = numbers.remove(year_at);
    let year = match len {
        4 => y,
        2 if y >= 50 => 1900 + y,
        2 => 2000 + y,
        _ => return None,
    };
    if numbers.is_empty() {
        let r = format!("{year:04}-{month:02}");
        return parse_dates(&r).map(|_| r);
    }
    let mut r = format!("{year:04}-{month:02}-{:02}", numbers[0].0);
    for &(d, _) in &numbers[1..] {
        r.push_str(&format!(",{d:02}"));
    }
    parse_dates(&r).map(|_| r)
}

/// A date as people write it, in the FF\[4\] `DT` form; `None` when no
/// single reading exists (`5/1/2024`, `yesterday`).
pub fn read_date(s: &str) -> Option<String> {
    let f = cjk_digits(&fold(s));
    let t = f.trim();
    if parse_dates(t).is_some() {
        return Some(t.to_string());
    }
    correct_date(t)
        .or_else(|| date_list(t))
        .or_else(|| timestamp(t))
}

/// Several dates or a range of days, as Chinese and Japanese records write
/// them: `1940.10.30-31` (two days), `1934.12.10、17、24、26、1935.01`,
/// `2001/3/5,6`. Written with the FF[4] shortcuts (`1940-10-30,31`).
fn date_list(t: &str) -> Option<String> {
    // The parts, with what each gives: (year, month, first day, last day).
    let mut dates: Vec<(u32, Option<u32>, Option<u32>)> = Vec::new();
    for part in t.split([',', '、', '，', ';', '；', '&']) {
        let part = part.trim().trim_end_matches('日');
        if part.is_empty() {
            return None;
        }
        let nums: Vec<&str> = part
            .split(['.', '/', '-', '年', '月', '日', ' '])
            .filter(|g| !g.is_empty())
            .collect();
        if nums
            .iter()
            .any(|g| !g.bytes().all(|b| b.is_ascii_digit()) || g.len() > 4)
        {
            return None;
        }
        let n: Vec<u32> = nums.iter().map(|g| g.parse().ok()).collect::<Option<_>>()?;
        let range = part.contains('-') && !part.starts_with('-');
        let prev = dates.last().copied();
        match (n.as_slice(), nums.first().map(|g| g.len())) {
            // Y.M.D-D2: a range of days.
            ([y, m, d, d2], Some(4)) if range && d2 > d => {
                for day in *d..=*d2 {
                    dates.push((*y, Some(*m), Some(day)));
                }
            }
            // Y.M.D-M2.D2: a range over a month's end.
            ([y, m, d, m2, d2], Some(4)) if range && (m2, d2) > (m, d) => {
                let (mut mm, mut dd) = (*m, *d);
                loop {
                    dates.push((*y, Some(mm), Some(dd)));
                    if (mm, dd) == (*m2, *d2) || dates.len() > 62 {
                        break;
                    }
                    dd += 1;
                    if dd > u32::from(days_in(u16::try_from(*y).ok()?, u8::try_from(mm).ok()?)) {
                        (mm, dd) = (mm + 1, 1);
                    }
                    if mm > 12 {
                        return None;
                    }
                }
            }
            ([y, m, d], Some(4)) => dates.push((*y, Some(*m), Some(*d))),
            ([y, m], Some(4)) => dates.push((*y, Some(*m), None)),
            ([y], Some(4)) => dates.push((*y, None, None)),
            // M.D after a date of that year; D after a date of that month.
            ([m, d], _) => dates.push((prev?.0, Some(*m), Some(*d))),
            ([d], _) if prev?.1.is_some() => dates.push((prev?.0, prev?.1, Some(*d))),
            _ => return None,
        }
    }
    if dates.len() < 2 {
        return None;
    }
    let mut out = String::new();
    let mut last: Option<(u32, Option<u32>, Option<u32>)> = None;
    for &(y, m, d) in &dates {
        if !out.is_empty() {
            out.push(',');
        }
        let same_year = last.is_some_and(|l| l.0 == y);
        let same_month = same_year && last.is_some_and(|l| l.1 == m && l.2.is_some());
        match (m, d) {
            (Some(_), Some(d)) if same_month => out.push_str(&format!("{d:02}")),
            (Some(m), Some(d)) if same_year && last.is_some_and(|l| l.2.is_some()) => {
                out.push_str(&format!("{m:02}-{d:02}"))
            }
            (Some(m), Some(d)) => out.push_str(&format!("{y:04}-{m:02}-{d:02}")),
            (Some(m), None) => out.push_str(&format!("{y:04}-{m:02}")),
            _ => out.push_str(&format!("{y:04}")),
        }
        last = Some((y, m, d));
    }
    parse_dates(&out).map(|_| out)
}

/// A date `YYYY-MM-DD` from the first three numbers of a timestamp
/// (`2016- 3-26-17-29-25`, `2012:11:22:18:03`, `2012年11月22日 下午 6:3`,
/// `2019/03/08,22:09:00`) or from one eight-digit group (`20170316 [09:37]`).
fn timestamp(s: &str) -> Option<String> {
    // Nothing but numbers, separators and the words of a time of day: a
    // date with other words after it is not understood (`19000101 or 7`).
    let mut bare = s.to_lowercase();
    for w in ["下午", "上午", "午前", "午後", "am", "pm"] {
        bare = bare.replace(w, " ");
    }
    if !bare
        .chars()
        .all(|c| c.is_ascii_digit() || " -/.:,[]()年月日時时分秒t".contains(c))
    {
        return None;
    }
    let groups: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    // A time of day: two or three numbers of one or two digits.
    let time = |t: &[&str]| (2..=3).contains(&t.len()) && t.iter().all(|g| g.len() <= 2);
    // A time of day must follow the date (`17-29-25`, `18:03`): four
    // numbers would be a date with a second day (`1940.10.30-31`).
    let (y, m, d) = match groups.as_slice() {
        [g, t @ ..] if g.len() == 8 && time(t) && s.contains(':') => (
            g[..4].parse::<u32>().ok()?,
            g[4..6].parse::<u32>().ok()?,
            g[6..].parse::<u32>().ok()?,
        ),
        [y, m, d, t @ ..] if y.len() == 4 && time(t) && (s.contains(':') || groups.len() >= 6) => {
            (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
        }
        _ => return None,
    };
    if !(1000..=2999).contains(&y) {
        return None;
    }
    let r = format!("{y:04}-{m:02}-{d:02}");
    parse_dates(&r).map(|_| r)
}
