//! Every reader of the registry (SGF, GIB, NGF, UGF/UGI, …), forced on any
//! bytes, and the sniffing front door: no panic, and the spans of the
//! reader's diagnostics stay inside the input they point into.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let registry = sgf_formats::builtin();
    let opts = sgf_formats::ReadOptions::default();
    for format in registry.formats() {
        let _ = format.sniff(data);
        match format.read(data, &opts) {
            Ok(loaded) => {
                let doc = &loaded.parsed.document;
                let len = if loaded.converted {
                    data.len()
                } else {
                    doc.source().len()
                };
                for d in &loaded.parsed.diagnostics {
                    assert!(d.span.start <= d.span.end, "{d:?}");
                    // Reader diagnostics of converted records point into the
                    // input; the rest into the converted document.
                    let limit = len.max(doc.source().len());
                    assert!(d.span.end as usize <= limit, "{} {d:?}", format.name());
                }
                let _ = sgf_core::to_lossless_bytes(doc);
            }
            Err(e) => assert!(!e.message.is_empty()),
        }
    }
    let _ = sgf_formats::read_any(data, None);
});
