//! Both renderings of diagnostics, as `qipu check` prints them: the
//! compiler-style snippet (human) and the JSON object, for SGF and for
//! converted records, whatever the charset and wherever the span falls.
#![no_main]
use libfuzzer_sys::fuzz_target;

fn render_all(
    doc: &sgf_core::Document,
    input: Option<&(Vec<u8>, &'static encoding_rs::Encoding)>,
    diags: &[sgf_core::Diagnostic],
) {
    let sources = sgf_report::Sources::new(doc, input);
    for d in diags.iter().take(200) {
        let s = sgf_report::render_in("fuzz.sgf", sources.of(d), d, false);
        assert!(s.contains(d.code.as_str()));
        let _ = sgf_report::render_in("fuzz.sgf", sources.of(d), d, true);
        let _ = sgf_report::one_line_in("fuzz.sgf", sources.of(d), d);
        let j = sgf_report::to_json(&sources, d);
        assert!(j["line"].as_u64().is_some_and(|l| l >= 1));
    }
}

fuzz_target!(|data: &[u8]| {
    let p = sgf_core::parse(data);
    let mut diags = p.diagnostics.clone();
    diags.extend(sgf_go::check::check(&p.document));
    render_all(&p.document, None, &diags);
    if let Ok(loaded) = sgf_formats::read_any(data, None)
        && loaded.converted
    {
        let input = (data.to_vec(), loaded.encoding());
        render_all(
            &loaded.parsed.document,
            Some(&input),
            &loaded.parsed.diagnostics,
        );
    }
});
