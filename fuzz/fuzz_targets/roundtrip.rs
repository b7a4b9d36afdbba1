//! The lossless writer gives back the input byte for byte.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let p = sgf_core::parse(data);
    assert_eq!(sgf_core::to_lossless_bytes(&p.document), data);
});
