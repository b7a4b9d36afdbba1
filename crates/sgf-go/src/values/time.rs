//! Durations and counts: `9 hours`, `1h30m`, `90 min`, `1時間`, `30秒`,
//! `45分`, `1小时30分`, `60分钟`, `2시간`; clock forms `1:30:00`, `7:42`,
//! `0:07:42.5`; `5回`, `3次`, `3 times`. Each is read from the whole text
//! or not at all (`0:07:42` is never `0`).

use super::fold;

const HOURS: &[&str] = &[
    "時間", "小时", "小時", "시간", "hours", "hour", "hrs", "hr", "h", "時",
];
const MINUTES: &[&str] = &[
    "分钟", "分鐘", "分", "분", "minutes", "minute", "mins", "min", "m",
];
const SECONDS: &[&str] = &["秒", "초", "seconds", "second", "secs", "sec", "s"];

/// A duration in seconds from text with units. `None` when a number has no
/// unit (its unit is not known) or nothing can be read.
pub fn read_duration(s: &str) -> Option<f64> {
    let f = fold(s).to_lowercase();
    let mut rest = f.trim();
    let mut total = 0.0;
    let mut any = false;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let gap = rest[..start].trim();
        // Words between amounts (`1 hour and 30 minutes`), none before.
        if !(gap.is_empty() || any && matches!(gap, "and" | "," | "+")) {
            return None;
        }
        let r = &rest[start..];
        let len = r
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        let x: f64 = r[..len].parse().ok()?;
        let a = r[len..].trim_start();
        let (mult, skip) = [(3600.0, HOURS), (60.0, MINUTES), (1.0, SECONDS)]
            .iter()
            .find_map(|(m, units)| {
                units
                    .iter()
                    .find(|u| a.starts_with(**u))
                    .map(|u| (*m, u.len()))
            })?;
        total += x * mult;
        any = true;
        rest = &a[skip..];
    }
    (any && rest.trim().is_empty()).then_some(total)
}

/// A duration in seconds, as `TM` and `BL`/`WL` want it: a plain number
/// (seconds, `7,5` with a decimal comma), a clock ([`read_clock`]), or
/// text with units ([`read_duration`]).
pub fn read_seconds(s: &str) -> Option<f64> {
    let f = fold(s);
    let t = f.trim();
    if let Some(v) = super::amount::plain_decimal(t) {
        return Some(v);
    }
    read_clock(t).or_else(|| read_duration(t))
}

/// A clock: `m:ss` or `h:mm:ss`, the seconds with a fraction or not
/// (`7:42`, `0:07:42`, `1:02.5`, `0:00:09,8`): the minutes and seconds
/// after the first field are two digits below 60. `None` for any other
/// text (`1:5`, `1:75`, `1:2:3:4`).
pub fn read_clock(s: &str) -> Option<f64> {
    let f = fold(s);
    let t = f.trim();
    let parts: Vec<&str> = t.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let (last, whole) = parts.split_last()?;
    let first = whole[0];
    if first.is_empty() || first.len() > 6 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut total: f64 = first.parse().ok()?;
    for p in &whole[1..] {
        if p.len() != 2 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: f64 = p.parse().ok()?;
        if v >= 60.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    // The seconds: two digits, then a fraction or not.
    let (int, frac) = match last.find(['.', ',']) {
        Some(i) => (&last[..i], Some(&last[i + 1..])),
        None => (*last, None),
    };
    if int.len() != 2
        || !int.bytes().all(|b| b.is_ascii_digit())
        || frac.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let secs: f64 = format!("{int}.{}", frac.unwrap_or("0")).parse().ok()?;
    if secs >= 60.0 {
        return None;
    }
    Some(total * 60.0 + secs)
}

/// A count: `5`, `5回`, `3次`, `3번`, `3 times`, `3 periods`.
pub fn read_count(s: &str) -> Option<u32> {
    let f = fold(s);
    let t = f.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let n: u32 = t[..digits].parse().ok()?;
    let unit = t[digits..].trim().to_lowercase();
    (unit.is_empty() || ["回", "次", "번", "times", "periods", "x"].contains(&unit.as_str()))
        .then_some(n)
}

/// The overtime text for `OT`: `5x30 byo-yomi`.
pub fn byo_yomi(periods: u32, seconds: f64) -> String {
    format!("{periods}x{} byo-yomi", super::fmt_real(seconds))
}
