//! Parsing never panics and every span stays inside the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let p = sgf_core::parse(data);
    let len = p.document.source().len() as u32;
    for d in &p.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= len);
        let _ = p.document.line_col(d.span.start);
    }
    for (_, n) in p.document.all_nodes() {
        for prop in p.document.node(n).props() {
            for v in prop.values() {
                let _ = v.text();
                let _ = v.composed();
                let _ = v.number();
                let _ = v.point();
            }
        }
    }
});
