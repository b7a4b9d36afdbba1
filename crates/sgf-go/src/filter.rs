//! What game-selection filters share, whoever applies them (the
//! database's SQL, the dataset builder's selection): number ranges as
//! people write them, names folded for matching, and dates as sortable
//! numbers.

/// A number range, both ends inclusive and optional.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Range {
    /// Lowest value.
    pub min: Option<f64>,
    /// Highest value.
    pub max: Option<f64>,
}

impl Range {
    /// Reads `A`, `A..B`, `A..` or `..B`.
    ///
    /// # Errors
    /// When an end is not a finite number, both ends are missing (`..`),
    /// or the first is greater than the last (`10..5`): a range that
    /// would select nothing, or everything, is a mistake.
    pub fn parse(s: &str) -> Result<Range, String> {
        let num = |t: &str| -> Result<Option<f64>, String> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(None);
            }
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Some)
                .ok_or_else(|| format!("`{t}` is not a number (ranges are A, A..B, A.. or ..B)"))
        };
        let r = match s.split_once("..") {
            Some((a, b)) => Range {
                min: num(a)?,
                max: num(b)?,
            },
            None => {
                let v = num(s)?;
                if v.is_none() {
                    return Err("an empty range (ranges are A, A..B, A.. or ..B)".into());
                }
                Range { min: v, max: v }
            }
        };
        r.check().map_err(|e| format!("`{s}`: {e}"))?;
        Ok(r)
    }

    /// [`Range::parse`] for counts (moves, stones): whole numbers, 0 or more.
    ///
    /// # Errors
    /// As [`Range::parse`], and when an end is negative or not whole.
    pub fn parse_count(s: &str) -> Result<Range, String> {
        let r = Range::parse(s)?;
        for v in [r.min, r.max].into_iter().flatten() {
            if v < 0.0 || v.fract() != 0.0 || v > f64::from(u32::MAX) {
                return Err(format!(
                    "`{s}`: `{v}` is not a count (a whole number, 0 or more)"
                ));
            }
        }
        Ok(r)
    }

    /// Whether the range selects something and is not everything.
    ///
    /// # Errors
    /// When both ends are missing, an end is not finite, or the first is
    /// greater than the last.
    pub fn check(&self) -> Result<(), String> {
        match (self.min, self.max) {
            (None, None) => Err("a range without ends (ranges are A, A..B, A.. or ..B)".into()),
            (a, b) if a.is_some_and(|v| !v.is_finite()) || b.is_some_and(|v| !v.is_finite()) => {
                Err("an end of the range is not a number".into())
            }
            (Some(a), Some(b)) if a > b => Err(format!(
                "the range is empty ({a} is greater than {b}; write the smaller end first)"
            )),
            _ => Ok(()),
        }
    }
}

/// Case, width and compatibility forms folded (NFKC, then lower case), so
/// `ＬＥＥ`, `Lee` and `lee` compare equal, in any script.
pub fn fold(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let n: String = s.trim().nfkc().collect();
    n.to_lowercase()
}

/// A date as a sortable number `YYYYMMDD`, with a missing month or day as
/// `00` (`low`) or `99`.
pub fn date_key(d: &crate::PartialDate, low: bool) -> i64 {
    let fill = if low { 0 } else { 99 };
    d.year as i64 * 10_000 + d.month.map_or(fill, i64::from) * 100 + d.day.map_or(fill, i64::from)
}

/// A date the user wrote, read as `DT` values are (`sgf_go::values`).
pub fn parse_user_date(s: &str) -> Option<crate::PartialDate> {
    crate::values::read_date(s)
        .and_then(|d| crate::parse_dates(&d))
        .and_then(|v| v.first().copied())
}
