//! The value repairs skip values judged fine from their bytes alone; these
//! are the values whose bytes look fine and whose text is not: they must
//! still be repaired.

use sgf_core::Code;
use sgf_go::fix::repair;

fn codes(sgf: &[u8]) -> (Vec<Code>, String) {
    let mut doc = sgf_core::parse(sgf).document;
    let changes = repair(&mut doc);
    let out = String::from_utf8_lossy(&sgf_core::to_canonical_bytes(
        &doc,
        &sgf_core::WriteOptions::default(),
    ))
    .into_owned();
    (changes.into_iter().map(|c| c.code).collect(), out)
}

#[test]
fn text_that_reads_as_white_space_only_is_empty() {
    // ISO-2022-JP `!!` is an ideographic space: graphic bytes, no text.
    let (c, out) = codes(b"(;CA[ISO-2022-JP]GM[1]FF[4]SZ[19]C[\x1b$B!!\x1b(B];B[pd])");
    assert!(c.contains(&Code::EmptyValue), "{c:?}");
    assert!(!out.contains("C["), "{out}");
    // A Latin-1 no-break space.
    let (c, out) = codes(b"(;CA[ISO-8859-1]GM[1]FF[4]SZ[19]PB[\xa0]PW[ x ];B[pd])");
    assert!(c.contains(&Code::EmptyValue), "{c:?}");
    assert!(!out.contains("PB[") && out.contains("PW[ x ]"), "{out}");
}

#[test]
fn fine_looking_values_with_a_flaw_are_repaired() {
    // White space around a number, inside a point, two values of one.
    let (c, out) = codes(b"(;GM[1]FF[4]SZ[19]HA[ 2 ]AB[d d][pp]KM[6.5][7];B[pd])");
    assert!(c.contains(&Code::ValueWhitespace), "{c:?}");
    assert!(c.contains(&Code::TooManyValues), "{c:?}");
    assert!(
        out.contains("HA[2]") && out.contains("AB[dd][pp]") && out.contains("KM[6.5]"),
        "{out}"
    );
    // A value for a property that takes none, a composed value without `:`.
    let (c, _) = codes(b"(;GM[1]FF[4]SZ[19]AP[foxwq];B[pd]KO[x])");
    assert!(c.contains(&Code::ComposedExpected), "{c:?}");
    assert!(c.contains(&Code::ValueForNone), "{c:?}");
}
