//! The WGS reader never panics on any bytes; what it accepts has its
//! diagnostics inside the input and writes back as SGF that parses without
//! syntax errors; what it refuses says why.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_formats::{Format, ReadOptions, wgs::Wgs};

fuzz_target!(|data: &[u8]| {
    let _ = Wgs.sniff(data);
    let mut opts = ReadOptions::default();
    opts.keep_email = data.first().is_some_and(|b| b & 1 == 1);
    match Wgs.read(data, &opts) {
        Ok(l) => {
            for d in &l.parsed.diagnostics {
                assert!(d.span.start <= d.span.end && d.span.end as usize <= data.len());
            }
            let sgf = sgf_core::to_canonical_bytes(
                &l.parsed.document,
                &sgf_core::WriteOptions::default(),
            );
            let again = sgf_core::parse(&sgf);
            assert!(!again.diagnostics.iter().any(|d| {
                d.code.layer() == "syntax" && d.severity == sgf_core::Severity::Error
            }));
            assert_eq!(again.document.game_count(), 1);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
});
