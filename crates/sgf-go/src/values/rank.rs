//! Ranks: `2d`, `10k`, `9p`, `7d*`, `2k?` from what clients write: `2D`,
//! `10K`, `9DP`, `7D*`, `3段`, `1급`, `15级`, `初段`, `五段`, `P3段`.

use super::{cjk_number, fold, is_cjk_digit};

/// The rank in SGF style, or `None` when the text is not a rank.
pub fn read_rank(s: &str) -> Option<String> {
    let t = s.trim();
    let mut body = fold(t);
    let mut marker = String::new();
    while let Some(c) = body.chars().last().filter(|c| *c == '*' || *c == '?') {
        marker.insert(0, c);
        body.pop();
    }
    let mut pro = false;
    if let Some(rest) = body.strip_prefix(['P', 'p']) {
        pro = true;
        body = rest.to_string();
    }
    let num_end = body
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || is_cjk_digit(*c)))
        .map_or(body.len(), |(i, _)| i);
    let (num, unit) = body.split_at(num_end);
    let n = if num.chars().all(|c| c.is_ascii_digit()) {
        num.parse::<u32>().ok()
    } else {
        cjk_number(num)
    }
    .filter(|&n| n > 0 && n <= 99)?;
    let unit = match unit.trim().to_lowercase().as_str() {
        "d" | "段" | "단" | "dan" => {
            if pro {
                'p'
            } else {
                'd'
            }
        }
        "k" | "级" | "級" | "급" | "kyu" => 'k',
        "p" | "dp" | "pro" => 'p',
        _ => return None,
    };
    Some(format!("{n}{unit}{marker}"))
}
