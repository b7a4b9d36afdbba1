//! # The values people write
//!
//! Game records carry values in every form their authors found natural:
//! `2018.04.27`, `2000/2/16`, `Black wins by resignation`, `黑胜2又3/4子`,
//! `黒6目半勝ち`, `백 불계승`, `KM[5。5]`, Fox's komi ×50/×100, `5 1/2`,
//! `1時間`, `3段`, full-width digits. This module is the one place that
//! reads them, for every part of Qipu: the repair (`qipu check --fix`), the
//! dialect normaliser (`qipu fmt`), the other formats' readers, [`GameInfo`],
//! `info`, `export`, the viewer and Python.
//!
//! Each kind has a strict reader for the FF\[4\] form (`parse_…`) and a
//! lenient one for what people write (`read_…`), which returns the typed
//! value; the FF\[4\] text of a value is its `Display` (or [`fmt_real`]).
//!
//! A lenient reader gives the value the whole text means, or `None` ("not
//! understood"): a prefix of a value is never read as the value
//! (`BL[0:07:42]` is 462 seconds, never 0; `1 kk` is not 1). What it
//! gives may say less than the text (a time of day after a date, the
//! words around a result): the repair then keeps the wording in `GC`.
//!
//! Conventions:
//! - Chinese counting gives margins and komi in stones (子): one stone is
//!   two points, so `黑胜2又3/4子` is `B+5.5` and `黑贴3又3/4子` is 7.5.
//! - `半`/`반` is half a point: `6目半` 6.5, `6집반` 6.5.
//! - Full-width digits and punctuation read as ASCII (`５。５` is 5.5).
//!
//! Every form with its typed result is listed in `testdata/values/values.tsv`.
//!
//! [`GameInfo`]: crate::GameInfo

mod amount;
pub mod date;
pub mod komi;
pub mod number;
pub mod rank;
pub mod result;
pub mod time;

pub use date::{PartialDate, parse_dates, read_date};
pub use komi::{read_komi, scaled_komi};
pub use number::{fmt_real, read_number, read_real};
pub use rank::{Rank, read_rank};
pub use result::{GameResult, WinBy, parse_result, read_result};
pub use time::{byo_yomi, read_clock, read_count, read_duration, read_seconds};

/// Folds what East Asian input methods write into ASCII: full-width forms
/// (`０`–`９`, `＋`, `．`, `／`…) to their ASCII letters, the ideographic
/// space to a space, and the ideographic full stop `。` between digits to a
/// decimal point.
pub fn fold(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in cs.iter().enumerate() {
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '。' | '｡'
                if i > 0
                    && fold_digit(cs[i - 1]).is_some()
                    && cs.get(i + 1).is_some_and(|&n| fold_digit(n).is_some()) =>
            {
                '.'
            }
            c => c,
        };
        out.push(c);
    }
    out
}

fn fold_digit(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

/// The value of a CJK numeral up to 99 (`初` counts as 1, as in 初段).
pub(crate) fn cjk_number(s: &str) -> Option<u32> {
    let digit = |c: char| -> Option<u32> {
        Some(match c {
            '一' | '初' => 1,
            '二' | '两' | '兩' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        ['十'] => Some(10),
        [c] => digit(*c),
        ['十', u] => Some(10 + digit(*u)?),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', u] => Some(10 * digit(*t)? + digit(*u)?),
        _ => None,
    }
}

/// Whether `c` can be part of a CJK numeral.
pub(crate) fn is_cjk_digit(c: char) -> bool {
    c == '十' || cjk_number(&c.to_string()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold("５。５"), "5.5");
        assert_eq!(fold("Ｂ＋Ｒ"), "B+R");
        assert_eq!(fold("黑胜。"), "黑胜。");
        assert_eq!(fold("a\u{3000}b"), "a b");
        assert_eq!(cjk_number("九"), Some(9));
        assert_eq!(cjk_number("十五"), Some(15));
        assert_eq!(cjk_number("二十"), Some(20));
        assert_eq!(cjk_number("段"), None);
    }
}
