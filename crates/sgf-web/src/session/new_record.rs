//! A new record (File → New game, or a game against an engine): no engine
//! needed, so the static viewer has it too.

use sgf_go::coords;

use super::OpError;
use crate::api::NewRecord;

/// A new record as SGF: board size, komi, rules, handicap stones in the
/// fixed placement, players.
pub(crate) fn new_record_sgf(r: &NewRecord) -> Result<String, OpError> {
    let (size, handicap, komi) = (r.size, r.handicap, r.komi);
    if !(2..=52).contains(&size) {
        return Err("a board has 2 to 52 lines".into());
    }
    if !komi.is_finite() || komi.abs() > 1000.0 {
        return Err("komi must be a number".into());
    }
    let bs = coords::BoardSize::square(size);
    // `AP` is `name:version` (an AP without its version is an error).
    let ap = concat!("Qipu:", env!("CARGO_PKG_VERSION"));
    let mut sgf = format!("(;GM[1]FF[4]CA[UTF-8]AP[{ap}]SZ[{size}]KM[{komi}]");
    let text = |id: &str, v: &str| {
        let v = v.trim();
        if v.is_empty() {
            String::new()
        } else {
            format!("{id}[{}]", sgf_core::text::escape(v, false))
        }
    };
    sgf += &text("RU", &r.rules);
    if handicap >= 2 {
        let pts = coords::handicap_points(bs, handicap).ok_or_else(|| {
            format!("a handicap of {handicap} stones cannot be placed on {size}×{size}")
        })?;
        sgf += &format!("HA[{handicap}]AB");
        for p in pts {
            sgf += &format!("[{}]", p);
        }
    }
    sgf += &text("PB", &r.black);
    sgf += &text("PW", &r.white);
    sgf.push(')');
    Ok(sgf)
}
