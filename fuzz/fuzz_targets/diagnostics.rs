//! Both renderings of diagnostics, as `qipu check` prints them: the
//! compiler-style snippet (human) and the JSON object, for SGF and for
//! converted records, whatever the charset and wherever the span falls;
//! and the checks gathered with a bound keep what the whole list cut keeps;
//! a report whose diagnostics are made again as it is written (not held)
//! is the report that holds them; the line index finds every offset's line.
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
    // Gathered with a bound, the checks keep what cutting the whole list
    // in input order keeps, and count the rest.
    for k in [1, 3] {
        let mut capped = sgf_core::diag::Capped::new(k, 0);
        sgf_go::check::check_into(&p.document, &mut capped);
        let (kept, omitted) = capped.finish();
        let mut all = sgf_go::check::check(&p.document);
        let total = all.len();
        sgf_core::diag::sort_diagnostics(&mut all);
        let mut seen = std::collections::HashMap::new();
        all.retain(|d| {
            let n = seen.entry(d.code).or_insert(0usize);
            *n += 1;
            *n <= k
        });
        assert_eq!(kept, all);
        let left: usize = omitted.iter().map(|(_, o)| o.count).sum();
        assert_eq!(kept.len() + left, total);
    }
    // Every diagnostic shown, made again as the report is written (at most
    // one held): the same report as holding them all, read whole, cut
    // into parts, repaired.
    use sgf_report::check::{CheckOptions, Fix, HumanOptions, Target, check_bytes};
    for variant in 0..3 {
        let opts = |held: usize| {
            let mut o = CheckOptions::default();
            o.held_diagnostics = Some(held);
            o.part_bytes = (variant == 1).then_some(64);
            o.fix = (variant == 2).then(|| Fix::to(Target::Held));
            o
        };
        let held = check_bytes("fuzz.sgf", data.to_vec(), &opts(usize::MAX));
        // As few held as keeps a window at a time to eight passes or so.
        let n = held.diagnostics(usize::MAX, |_| true).len();
        let again = check_bytes("fuzz.sgf", data.to_vec(), &opts((n / 8).max(1)));
        assert_eq!(again.json_line(), held.json_line());
        let h = HumanOptions::default();
        assert_eq!(again.human(&h), held.human(&h));
        assert_eq!(again.counts(), held.counts());
    }
    // The line index against a plain count.
    let li = sgf_core::LineIndex::new(data);
    let (mut line, mut start) = (1u32, 0usize);
    for off in 0..=data.len().min(4096) {
        if off > 0 {
            let c = data[off - 1];
            if c == b'\n' || (c == b'\r' && data.get(off) != Some(&b'\n')) {
                line += 1;
                start = off;
            }
        }
        assert_eq!(li.line_col(off as u32), (line, (off - start) as u32 + 1));
    }
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
