//! Durations and counts: `9 hours`, `1h30m`, `90 min`, `1時間`, `30秒`,
//! `45分`, `1小时30分`, `60分钟`, `2시간`, `1:30:00`; `5回`, `3次`, `3 times`.

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
        if !rest[..start].trim().is_empty() && any {
            // Words between amounts (`1 hour and 30 minutes`).
            let gap = rest[..start].trim();
            if !matches!(gap, "and" | "," | "+") {
                return None;
            }
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
/// (seconds), `h:mm:ss` or `mm:ss`, or text with units ([`read_duration`]).
pub fn read_seconds(s: &str) -> Option<f64> {
    let f = fold(s);
    let t = f.trim();
    if let Some(v) = sgf_core::value::parse_real(t.as_bytes()) {
        return Some(v);
    }
    if t.contains(':') && t.chars().all(|c| c.is_ascii_digit() || c == ':') {
        let parts: Vec<f64> = t
            .split(':')
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?;
        return Some(parts.iter().fold(0.0, |acc, p| acc * 60.0 + p));
    }
    read_duration(t)
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
    let unit = t[digits..].trim();
    (unit.is_empty() || ["回", "次", "번", "times", "periods", "x"].contains(&unit)).then_some(n)
}

/// The overtime text for `OT`: `5x30 byo-yomi`.
pub fn byo_yomi(periods: u32, seconds: f64) -> String {
    format!("{periods}x{} byo-yomi", super::fmt_real(seconds))
}
