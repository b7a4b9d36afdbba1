//! The page's translations (`assets/i18n/*.json`): the same strings in
//! every language, each one used by the page, and every `{name}` kept.

use std::collections::BTreeSet;
use std::path::Path;

fn assets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn placeholders(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = s;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        out.insert(rest[i..i + j + 1].to_string());
        rest = &rest[i + j + 1..];
    }
    out
}

#[test]
fn every_language_translates_the_same_strings_the_page_uses() {
    // The page: its HTML and every script (the annotations' words too),
    // the static viewer's own (static/static.js) with them.
    let static_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
    let mut files: Vec<_> = std::fs::read_dir(assets())
        .unwrap()
        .chain(std::fs::read_dir(&static_dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "js" || x == "html"))
        .collect();
    files.sort();
    assert!(files.len() > 2, "{files:?}");
    let page: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let mut keys: Option<BTreeSet<String>> = None;
    for lang in ["zh-Hans", "zh-Hant", "ja", "ko"] {
        let text = std::fs::read_to_string(assets().join(format!("i18n/{lang}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["language"].as_str().is_some_and(|l| !l.is_empty()));
        let strings = v["strings"].as_object().unwrap();
        for (en, t) in strings {
            let t = t.as_str().unwrap();
            assert!(!t.trim().is_empty(), "{lang}: `{en}` is empty");
            assert!(
                page.contains(en.as_str()),
                "{lang}: `{en}` is not used by the page"
            );
            assert_eq!(placeholders(en), placeholders(t), "{lang}: `{en}` → `{t}`");
        }
        let these: BTreeSet<String> = strings.keys().cloned().collect();
        match &keys {
            None => keys = Some(these),
            Some(k) => assert_eq!(k, &these, "{lang} translates other strings"),
        }
    }
}
