//! Komi: `6.5`, `6目半`, `黒6目半`, `贴7目半`, `黑贴3又3/4子` (Chinese
//! counting, 7.5 points), `6집반`, `コミなし` (0), `５。５`; and Fox's
//! scaled integers (`KM[375]`, `KM[650]`).

use super::amount::amount;

/// Komi in points from what people write, from the whole text but for
/// the words komi is written with (`黒6目半`, `贴7目半`, `komi 6.5`).
/// `None` when the text says something else too (`6.5 or 7.5`), and for
/// reverse komi (`逆コミ`), whose receiver the text leaves unclear.
pub fn read_komi(s: &str) -> Option<f64> {
    let t = s.trim();
    if let Some(x) = super::amount::plain_decimal(super::fold(t).trim()) {
        return Some(x);
    }
    let folded = super::fold(t);
    let no_digit = !folded
        .chars()
        .any(|c| c.is_ascii_digit() || super::is_cjk_digit(c));
    if no_digit
        && ["なし", "无", "無", "없음", "none"]
            .iter()
            .any(|w| folded.to_lowercase().contains(w))
    {
        return Some(0.0);
    }
    if t.contains('逆') {
        return None;
    }
    amount(t, LEAD, TRAIL).map(|a| a.points())
}

/// Words before a komi: who receives it, and the word komi.
const LEAD: &[&str] = &[
    "黒", "黑", "白", "贴", "貼", "还", "還", "コミ", "komi", "덤", "black", "white",
];
/// Words after a komi.
const TRAIL: &[&str] = &["コミ", "komi", "덤"];

/// The komi a Fox-style scaled integer stands for: ×50 under Chinese rules
/// (`375` is 7.5), ×100 otherwise (`650` is 6.5). `None` when `k` is not
/// such an integer (it is a plausible komi already, or not a whole number)
/// or when no scale gives a plausible komi (a multiple of ½ up to 20), so
/// that a komi is never scaled twice.
pub fn scaled_komi(k: f64, chinese: bool) -> Option<f64> {
    if k.fract() != 0.0 || k.abs() <= 20.0 {
        return None;
    }
    let r = k / if chinese { 50.0 } else { 100.0 };
    (r.abs() <= 20.0 && (r * 2.0).fract() == 0.0).then_some(r)
}
