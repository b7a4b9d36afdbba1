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

/// A rank to compare: kyu, amateur dan, professional dan.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// `Nk` (1–99).
    Kyu(u8),
    /// `Nd` (1–99).
    Dan(u8),
    /// `Np` (1–99).
    Pro(u8),
}

/// Titles that a professional's rank field holds instead of a rank
/// (`BR[名人]`, `WR[Honinbo]`): a title holder is 9p.
const TITLES: &[&str] = &[
    "名人",
    "本因坊",
    "棋聖",
    "棋圣",
    "天元",
    "王座",
    "碁聖",
    "十段",
    "王位",
    "国手",
    "國手",
    "名譽",
    "名誉",
    "명인",
    "국수",
    "기성",
    "왕위",
    "meijin",
    "honinbo",
    "hon'inbo",
    "kisei",
    "tengen",
    "oza",
    "gosei",
    "judan",
    "oi",
    "kuksu",
    "myeongin",
];

impl Rank {
    /// The rank a text states, as [`read_rank`] reads it (`5d`, `5d?`,
    /// `1p`, `3k`, `五段`, `5단`, `初段`, `9段`, `15级`); the `?` and `*`
    /// markers are left out.
    pub fn read(s: &str) -> Option<Rank> {
        let r = read_rank(s)?;
        let body = r.trim_end_matches(['?', '*']);
        let (num, unit) = body.split_at(body.len() - 1);
        let n: u8 = num.parse().ok()?;
        match unit {
            "k" => Some(Rank::Kyu(n)),
            "d" => Some(Rank::Dan(n)),
            "p" => Some(Rank::Pro(n)),
            _ => None,
        }
    }

    /// [`Rank::read`], or 9p for a title in place of a rank (`名人`,
    /// `Honinbo`). Not a repair: a value is never rewritten with it.
    pub fn implied(s: &str) -> Option<Rank> {
        Rank::read(s).or_else(|| {
            let t = s.trim().to_lowercase();
            let words = t.split(|c: char| c.is_whitespace() || c == ',' || c == '/');
            let title = words.clone().any(|w| TITLES.contains(&w))
                || TITLES.iter().any(|w| !w.is_ascii() && t.contains(w));
            title.then_some(Rank::Pro(9))
        })
    }

    /// A number that orders ranks: 30k is −29, 1k is 0, 1d is 1, 9d is 9,
    /// and a professional's `Np` is 9 + N (1p above every amateur dan up to
    /// 9d).
    pub fn scale(self) -> i32 {
        match self {
            Rank::Kyu(n) => 1 - n as i32,
            Rank::Dan(n) => n as i32,
            Rank::Pro(n) => 9 + n as i32,
        }
    }
}

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rank::Kyu(n) => write!(f, "{n}k"),
            Rank::Dan(n) => write!(f, "{n}d"),
            Rank::Pro(n) => write!(f, "{n}p"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_every_way_they_are_written() {
        for (s, r) in [
            ("5d", Rank::Dan(5)),
            ("5d?", Rank::Dan(5)),
            ("1p", Rank::Pro(1)),
            ("3k", Rank::Kyu(3)),
            ("五段", Rank::Dan(5)),
            ("5단", Rank::Dan(5)),
            ("初段", Rank::Dan(1)),
            ("9段", Rank::Dan(9)),
            ("15级", Rank::Kyu(15)),
            ("P3段", Rank::Pro(3)),
        ] {
            assert_eq!(Rank::implied(s), Some(r), "{s}");
        }
        assert_eq!(Rank::implied("名人"), Some(Rank::Pro(9)));
        assert_eq!(Rank::implied("Honinbo"), Some(Rank::Pro(9)));
        assert_eq!(Rank::read("Honinbo"), None);
        assert_eq!(Rank::implied("Oil"), None);
        assert!(Rank::Kyu(1).scale() < Rank::Dan(1).scale());
        assert!(Rank::Dan(9).scale() < Rank::Pro(1).scale());
        assert_eq!(Rank::Kyu(30).scale(), -29);
    }
}
