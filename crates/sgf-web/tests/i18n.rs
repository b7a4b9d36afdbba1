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
    // The server's messages, which the page translates (written as JSON there).
    let server = server_templates();
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
                page.contains(en.as_str()) || server.contains(en),
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

/// The string literals of Rust source `src` (tests left out), each with
/// the code just before it.
fn literals(src: &str) -> Vec<(String, String)> {
    let src = src.split("#[cfg(test)]").next().unwrap_or(src);
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            // A comment runs to the end of its line.
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            // A character literal (`'"'`), not a lifetime.
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 4,
            b'"' => {
                let mut text = String::new();
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        j += 1;
                        match b.get(j) {
                            Some(b'n') => text.push('\n'),
                            Some(b'\n') => {
                                // A continued line: the break and the indent go.
                                while b.get(j + 1).is_some_and(|c| c.is_ascii_whitespace()) {
                                    j += 1;
                                }
                            }
                            Some(&c) => text.push(c as char),
                            None => {}
                        }
                        j += 1;
                        continue;
                    }
                    let ch = src[j..].chars().next().unwrap();
                    text.push(ch);
                    j += ch.len_utf8();
                }
                let before = src[i.saturating_sub(60)..i].to_string();
                out.push((text, before));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether `text` is what format string `pattern` can write: each `{…}`
/// of it stands for one character or more.
fn formats(pattern: &str, text: &str) -> bool {
    // The pattern's pieces between its `{…}`s; `{{`/`}}` do not occur in messages.
    let mut pieces = Vec::new();
    let mut rest = pattern;
    while let Some(a) = rest.find('{') {
        let Some(z) = rest[a..].find('}') else { break };
        pieces.push(&rest[..a]);
        rest = &rest[a + z + 1..];
    }
    pieces.push(rest);
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return pattern == text;
    }
    if !text.starts_with(first) || !text.ends_with(last) || text.len() < first.len() + last.len() {
        return false;
    }
    // Each middle piece found after at least one character, leftmost first
    // (leftmost matches leave the most room for what follows).
    let mut at = first.len();
    let end = text.len() - last.len();
    for p in &pieces[1..pieces.len() - 1] {
        let from = text[at..end].char_indices().nth(1).map(|(k, _)| at + k);
        let Some(from) = from else { return false };
        match text[from..end].find(p) {
            Some(k) => at = from + k + p.len(),
            None => return false,
        }
    }
    end > at
}

/// The messages of `i18n.js`'s `SERVER` list.
fn server_templates() -> Vec<String> {
    let js = std::fs::read_to_string(assets().join("i18n.js")).unwrap();
    let start = js.find("const SERVER = [").expect("SERVER in i18n.js");
    let end = start + js[start..].find("\n];").unwrap();
    let list = format!(
        "[{}]",
        js[start + "const SERVER = [".len()..end]
            .trim()
            .trim_end_matches(',')
    );
    serde_json::from_str(&list).expect("SERVER is a list of strings")
}

#[test]
fn every_message_of_the_server_is_in_the_page_s_languages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![root.join("../sgf-go/src/board.rs")];
    for dir in [root.join("src"), root.join("src/session")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rs") {
                sources.push(p);
            }
        }
    }
    let all: Vec<(String, String)> = sources
        .iter()
        .flat_map(|p| literals(&std::fs::read_to_string(p).unwrap()))
        .collect();
    let templates = server_templates();
    // Each `{name}` as a sample value.
    let sample = |t: &str| {
        let mut s = String::new();
        let mut rest = t;
        while let Some(a) = rest.find('{') {
            let z = rest[a..].find('}').unwrap();
            s.push_str(&rest[..a]);
            s.push('X');
            rest = &rest[a + z + 1..];
        }
        s + rest
    };
    // Every template is a message the server writes.
    for t in &templates {
        assert!(
            all.iter().any(|(r, _)| formats(r, &sample(t))),
            "`{t}` is not a message of the server"
        );
    }
    // Every message the server refuses with is one of them: the literals
    // of `Err(…)`, `ok_or…(…)`, `refused(…)` and the notes of a state.
    // Left out: what only a program sending bad requests sees, and words
    // for the terminal.
    let for_programs = [
        "bad request: {why}",
        "give `new_game` alone",
        "give `path` or `text`, not both",
        "nothing to open: give `path` or `text` (a file's bytes go to /api/upload)",
        "no such request: {path}",
        "`sym` {sym} is no symmetry: 0 to 7",
        "internal lock",
        "internal error",
        "{e} (\"Save as\")",
        "{name}: {}",
        "{rel}: {e}",
        "{rel}: {}",
        "{abs}: {e}",
        "{s}: {d:?}",
    ];
    let refusal = |before: &str| {
        let b = before.trim_end();
        [
            "Err(",
            "Err(format!(",
            "ok_or(",
            "ok_or_else(|| format!(",
            "refused(",
            "refused(format!(",
            "Some((format!(",
        ]
        .iter()
        .any(|p| b.ends_with(p))
    };
    let mut missing = Vec::new();
    for (r, before) in &all {
        if !refusal(before) || !r.contains(' ') || for_programs.contains(&r.as_str()) {
            continue;
        }
        if !templates.iter().any(|t| formats(r, &sample(t))) {
            missing.push(r.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "messages of the server not in i18n.js's SERVER list: {missing:#?}"
    );
}

#[test]
fn format_strings_match_what_they_write() {
    assert!(formats(
        "no {what} before this node",
        "no comment before this node"
    ));
    assert!(formats("{engine} ({who}) plays {}", "X (Black) plays X"));
    assert!(!formats(
        "no {what} before this node",
        "no  before this node"
    ));
    assert!(!formats(
        "a board has 2 to 52 lines",
        "a board has 2 to 19 lines"
    ));
    assert!(formats("{NO_SESSION} (it was closed)", "X (it was closed)"));
    assert!(!formats("{a}: {b}", "X:"));
}
