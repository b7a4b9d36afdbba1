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

/// The page's languages, `i18n.js`'s `LANGUAGES` (code → its own name),
/// English first.
fn languages() -> Vec<(String, String)> {
    let js = std::fs::read_to_string(assets().join("i18n.js")).unwrap();
    let head = "export const LANGUAGES = {";
    let start = js.find(head).expect("LANGUAGES in i18n.js") + head.len();
    let end = start + js[start..].find("};").unwrap();
    js[start..end]
        .split(',')
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let (code, name) = e.split_once(':').expect("code: name");
            let unquote = |s: &str| s.trim().trim_matches('"').to_string();
            (unquote(code), unquote(name))
        })
        .collect()
}

/// The translations' files, `assets/i18n/CODE.json`: their codes, sorted.
fn translation_files() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(assets().join("i18n"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn every_language_is_in_the_menu_the_server_and_the_locale_choice() {
    // A file is a language of the menu (English has none), and the
    // other way round, named as the file names itself.
    let langs = languages();
    assert_eq!(langs.first().map(|(c, _)| c.as_str()), Some("en"));
    let mut listed: Vec<String> = langs.iter().skip(1).map(|(c, _)| c.clone()).collect();
    listed.sort();
    let files = translation_files();
    assert!(files.len() >= 8, "{files:?}");
    assert_eq!(
        listed, files,
        "LANGUAGES of i18n.js and the files of assets/i18n"
    );
    let js = std::fs::read_to_string(assets().join("i18n.js")).unwrap();
    let pick = &js[js.find("export function pickLanguage").unwrap()..];
    let pick = &pick[..pick.find("\n}\n").unwrap()];
    let server =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/assets.rs"))
            .unwrap();
    for (code, name) in langs.iter().skip(1) {
        let text = std::fs::read_to_string(assets().join(format!("i18n/{code}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["language"].as_str(), Some(name.as_str()), "{code}");
        // The server embeds it; the browser's locale can choose it.
        let embedded = format!("(\"{code}\", include_str!(\"../assets/i18n/{code}.json\"))");
        assert!(server.contains(&embedded), "src/assets.rs lacks {embedded}");
        assert!(
            pick.contains(&format!("\"{code}\"")),
            "pickLanguage never gives {code}"
        );
    }
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
    // The server's messages and the library's, which the page translates
    // (written as JSON there), and the diagnostics' severities.
    let server = server_templates();
    let library = library_templates();
    let codes: BTreeSet<String> = sgf_core::Code::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    let mut keys: Option<BTreeSet<String>> = None;
    for lang in translation_files() {
        let text = std::fs::read_to_string(assets().join(format!("i18n/{lang}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["language"].as_str().is_some_and(|l| !l.is_empty()));
        let strings = v["strings"].as_object().unwrap();
        for (en, t) in strings {
            let t = t.as_str().unwrap();
            assert!(!t.trim().is_empty(), "{lang}: `{en}` is empty");
            assert!(
                page.contains(en.as_str()) || server.contains(en) || library.contains(en),
                "{lang}: `{en}` is not used by the page"
            );
            assert_eq!(placeholders(en), placeholders(t), "{lang}: `{en}` → `{t}`");
        }
        // Every message of the server and of the library's diagnostics,
        // and the diagnostics' severities.
        for en in server
            .iter()
            .chain(&library)
            .map(String::as_str)
            .chain(["error", "warning"])
        {
            assert!(strings.contains_key(en), "{lang}: `{en}` is not translated");
        }
        // Each code's summary, for the messages no template fits.
        let summaries = v["codes"].as_object().expect("codes");
        let have: BTreeSet<String> = summaries.keys().cloned().collect();
        assert_eq!(have, codes, "{lang}: the codes' summaries");
        for (code, t) in summaries {
            assert!(
                t.as_str().is_some_and(|t| !t.trim().is_empty()),
                "{lang}: {code}"
            );
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
                let mut from = i.saturating_sub(60);
                while !src.is_char_boundary(from) {
                    from -= 1;
                }
                let before = src[from..i].to_string();
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

/// The strings of list `name` of `i18n.js` (`const NAME = [...]`).
fn js_list(name: &str) -> Vec<String> {
    let js = std::fs::read_to_string(assets().join("i18n.js")).unwrap();
    let head = format!("const {name} = [");
    let start = js
        .find(&head)
        .unwrap_or_else(|| panic!("{name} in i18n.js"));
    let end = start + js[start..].find("\n];").unwrap();
    // (A line of its own that is a comment says what follows.)
    let items: Vec<&str> = js[start + head.len()..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let list = format!("[{}]", items.join("\n").trim().trim_end_matches(','));
    serde_json::from_str(&list).unwrap_or_else(|e| panic!("{name} is a list of strings: {e}"))
}

/// The messages of `i18n.js`'s `SERVER` list.
fn server_templates() -> Vec<String> {
    js_list("SERVER")
}

/// Template `t` with each `{name}` as a sample value (two characters:
/// enough for two `{}` side by side, `moves{}{}`).
fn sample(t: &str) -> String {
    let mut s = String::new();
    let mut rest = t;
    while let Some(a) = rest.find('{') {
        let z = rest[a..].find('}').unwrap();
        s.push_str(&rest[..a]);
        s.push_str("XX");
        rest = &rest[a + z + 1..];
    }
    s + rest
}

#[test]
fn every_message_of_the_server_is_in_the_page_s_languages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // With the library's refusals of an edit (sgf-core's `EditError`: a
    // comment the record's charset cannot hold).
    let mut sources = vec![
        root.join("../sgf-go/src/board.rs"),
        root.join("../sgf-core/src/edit.rs"),
    ];
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
        "no such node in the tree",
        "index out of range",
    ];
    // (Compared without white space: `write!(\n f,\n "…"` as `write!(f,"…"`.)
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    let refusal = |before: &str| {
        let b = squash(before);
        [
            "Err(",
            "Err(format!(",
            "ok_or(",
            "ok_or_else(|| format!(",
            "refused(",
            "refused(format!(",
            "Some((format!(",
            "write!(f,",
            "f.write_str(",
        ]
        .iter()
        .any(|p| b.ends_with(&squash(p)))
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

/// The closing `"` of the string literal that opens at `b[i]` (escapes
/// skipped), or the end.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i
}

/// Where `src[open]` (a `(`) closes, and its top-level arguments: string
/// and character literals and comments skipped.
fn call_args(src: &str, open: usize) -> Vec<&str> {
    let b = src.as_bytes();
    let (mut depth, mut i, mut from) = (0usize, open, open + 1);
    let mut out = Vec::new();
    while i < b.len() {
        match b[i] {
            b'"' => i = string_end(b, i),
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 3,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    out.push(src[from..i].trim());
                    return out;
                }
            }
            b',' if depth == 1 => {
                out.push(src[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The crates whose diagnostics the viewer shows: the reader (with the
/// other formats' importers and the dialects) and the Go checks.
const LIBRARY_CRATES: [&str; 3] = ["sgf-core", "sgf-go", "sgf-formats"];

/// The calls that give a diagnostic or a repair's change its message,
/// with the message's place among their arguments: the diagnostic itself,
/// the parser's syntax problems (counted, then made into diagnostics), the
/// other formats' importers' report, and the changes of the repair
/// (`check --fix`, the page's Repair) and of the dialects' normalisation.
const MESSAGE_CALLS: [(&str, usize); 11] = [
    ("Diagnostic::new(", 2),
    ("self.syntax(", 2),
    ("rep.unreadable(", 1),
    ("rep.push(", 2),
    ("f.note(", 2),
    ("f.note_value(", 2),
    ("ch.changed(", 1),
    ("notes.push((", LAST),
    // A record the other formats' readers refuse (the page shows it as
    // `{name}: {message}`).
    ("ReadError {", MESSAGE_FIELD),
    ("ReadError::new(", 1),
    ("refuse(", 0),
];

/// The `message:` field of a struct (`ReadError { format, message, … }`).
const MESSAGE_FIELD: usize = usize::MAX - 1;

/// The last argument (the notes of the repair and of the charsets: `(code,
/// span, message)` or `(code, message)`).
const LAST: usize = usize::MAX;

/// Messages handed on whole (a parameter, a message made elsewhere) or
/// built in pieces: the page shows these by their code's summary unless
/// a template happens to fit. Each is `file: expression`.
const NOT_TEMPLATES: [&str; 9] = [
    // The parser's own `syntax`: its callers are read instead.
    "sgf-core/src/parse/builder.rs: msg",
    // The importers' report: `Report::push` and `Report::unreadable`.
    "sgf-formats/src/common.rs: msg",
    // A dialect's description, its detail and its count of games.
    "sgf-formats/src/dialect/mod.rs: msg",
    // The dialects' changes and the repair's, each its own list.
    "sgf-formats/src/dialect/mod.rs: c.message",
    "sgf-formats/src/repair.rs: c.message.clone()",
    // The repair's notes, each made with `notes.push((code, span, msg))`.
    "sgf-go/src/fix/go.rs: m",
    // WGS's `refuse(message, report)`, whose callers are read instead.
    "sgf-formats/src/wgs.rs: message",
    // `ReadError::new(format, message)`, whose callers are read instead.
    "sgf-formats/src/format.rs: message.into()",
    // The judgement's reason (`NotRecord::reason`): judge.rs is read
    // instead (see `every_word_of_the_judgement_is_in_the_page_s_languages`).
    "sgf-formats/src/format.rs: why.reason()",
];

/// The messages the library gives its diagnostics (`Diagnostic::new` and
/// the parser's `syntax`), as the format strings that write them: the
/// literal or `format!` given, or for a variable the strings of its `let`
/// in the same function. Each with the file and line.
#[allow(clippy::type_complexity)]
fn library_messages() -> (Vec<(String, String)>, BTreeSet<String>, Vec<String>) {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut dirs: Vec<_> = LIBRARY_CRATES
        .iter()
        .map(|c| crates.join(c).join("src"))
        .collect();
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(&crates)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((rel, p));
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    let mut unresolved = BTreeSet::new();
    let mut all = Vec::new();
    for (rel, p) in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let src = text.split("#[cfg(test)]").next().unwrap();
        all.extend(literals(src).into_iter().map(|(t, _)| t));
        for (call, at) in MESSAGE_CALLS {
            for (i, _) in src.match_indices(call) {
                // A function's definition, not a call of it.
                if src[..i].ends_with("fn ") {
                    continue;
                }
                let line = src[..i].lines().count();
                let args = call_args(src, i + call.len() - 1);
                // (A trailing comma leaves an empty last argument.)
                let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
                let at = if at == LAST {
                    args.len().saturating_sub(1)
                } else {
                    at
                };
                // (`message` alone: the field written by its variable's name.)
                let field = args
                    .iter()
                    .find_map(|a| a.strip_prefix("message:"))
                    .or(args.iter().find(|a| **a == "message").copied());
                let msg = if at == MESSAGE_FIELD {
                    field.map(str::trim)
                } else {
                    args.get(at).copied()
                };
                let Some(msg) = msg.as_ref() else { continue };
                let ident = msg.chars().all(|c| c.is_alphanumeric() || c == '_');
                let mut found: Vec<String> = if msg.starts_with('"') || msg.starts_with("format!(")
                {
                    literals(msg).into_iter().take(1).map(|(t, _)| t).collect()
                } else if !ident {
                    // An expression (`match`, `if`): the messages in it.
                    literals(msg)
                        .into_iter()
                        .map(|(t, _)| t)
                        .filter(|t| t.contains(' '))
                        .collect()
                } else {
                    Vec::new()
                };
                // A variable: the strings of its `let` in this function.
                if found.is_empty() && ident {
                    let body = &src[src[..i].rfind("fn ").unwrap_or(0)..i];
                    let binding = body.rmatch_indices("let ").find(|(k, _)| {
                        let pat = &body[k + 4..k + 4 + body[k + 4..].find('=').unwrap_or(0)];
                        pat.split(|c: char| !c.is_alphanumeric() && c != '_')
                            .any(|w| w == *msg)
                    });
                    if let Some((k, _)) = binding {
                        let expr = &body[k..];
                        let end = statement_end(expr);
                        found = literals(&expr[..end])
                            .into_iter()
                            .map(|(t, _)| t)
                            .filter(|t| t.contains(' '))
                            .collect();
                    }
                }
                if found.is_empty() {
                    unresolved.insert(format!("{rel}: {msg}"));
                }
                for f in found {
                    out.push((f, format!("{rel}:{line}")));
                }
            }
        }
    }
    (out, unresolved, all)
}

/// Where the statement that `s` starts ends (its `;` outside brackets).
fn statement_end(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut depth, mut i) = (0i32, 0);
    while i < b.len() {
        match b[i] {
            b'"' => i = string_end(b, i),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Whether format string `pattern` writes `text`, one of its `{…}` empty
/// or none.
fn formats_maybe_empty(pattern: &str, text: &str) -> bool {
    formats(pattern, text)
        || pattern.match_indices('{').any(|(a, _)| {
            let z = a + pattern[a..].find('}').unwrap_or(0);
            formats(&format!("{}{}", &pattern[..a], &pattern[z + 1..]), text)
        })
}

/// The messages of `i18n.js`'s `LIBRARY` list.
fn library_templates() -> Vec<String> {
    js_list("LIBRARY")
}

#[test]
fn every_message_of_the_library_s_diagnostics_is_in_the_page_s_languages() {
    let (messages, unresolved, all) = library_messages();
    assert!(messages.len() > 100, "{}", messages.len());
    let templates = library_templates();
    // Every template is what the library writes: a message, or a part of
    // one (`{what}`), or one whose part is left empty (`{with}`); written
    // by a string of the library that holds at least half its words (not
    // by `{}` or `{e}`, which write anything).
    let fixed = |p: &str| {
        placeholders(p)
            .iter()
            .fold(p.len(), |n, h| n - h.len() * p.matches(h.as_str()).count())
    };
    for t in &templates {
        assert!(
            all.iter()
                .any(|m| 2 * fixed(m) >= fixed(t) && formats_maybe_empty(m, &sample(t))),
            "`{t}` is not a message of the library's diagnostics"
        );
    }
    // Every message the library writes is a template.
    let missing: BTreeSet<String> = messages
        .iter()
        .filter(|(m, _)| !templates.iter().any(|t| formats(m, &sample(t))))
        .map(|(m, at)| format!("{at}: {m}"))
        .collect();
    assert!(
        missing.is_empty(),
        "messages of the library not in i18n.js's LIBRARY list: {missing:#?}"
    );
    // The messages that are no template are the known ones.
    let known: BTreeSet<String> = NOT_TEMPLATES.iter().map(|s| s.to_string()).collect();
    assert_eq!(unresolved, known, "messages handed on or built in pieces");
}

/// The judgement of whether a file is a game record
/// (`sgf_formats::judge`): the sentence the viewer shows where the board
/// would be, its reasons and the kinds of file they name are all words of
/// the page's languages.
#[test]
fn every_word_of_the_judgement_is_in_the_page_s_languages() {
    let judge = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sgf-formats/src/judge.rs");
    let src = std::fs::read_to_string(judge).unwrap();
    // Its words: the string literals with a space (byte strings, the
    // magic numbers, are none).
    let words: Vec<String> = literals(&src)
        .into_iter()
        .filter(|(t, before)| t.contains(' ') && !before.ends_with('b'))
        .map(|(t, _)| t)
        .collect();
    assert!(words.len() > 20, "{words:?}");
    for w in [
        "it is empty",
        "a PNG image",
        "{name} is not a game record: {}",
    ] {
        assert!(words.iter().any(|x| x == w), "`{w}` in {words:?}");
    }
    let templates = library_templates();
    let missing: Vec<&String> = words
        .iter()
        .filter(|w| !templates.iter().any(|t| formats(w, &sample(t))))
        .collect();
    assert!(
        missing.is_empty(),
        "words of the judgement not in i18n.js's LIBRARY list: {missing:#?}"
    );
}
