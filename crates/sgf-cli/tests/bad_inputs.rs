//! Every command over the same set of inputs that are not game records
//! (issue 40): each says so in one sentence that names the input, exits
//! with status 2, and creates or changes no file. And archives in every
//! command: a member named `ARCHIVE!MEMBER`, an archive of one record read
//! as that record, never written into.

mod common;
use common::*;

#[path = "../../../testsupport/archives.rs"]
mod archives;
use archives::{gz, tar_of, zip_of};

use std::path::{Path, PathBuf};

#[path = "../../../testsupport/hostile.rs"]
mod hostile;

/// Bytes from a fixed generator: the same noise every run.
fn noise(n: usize) -> Vec<u8> {
    hostile::noise(n, 7)
}

fn db_fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("testdata/db").join(name)).unwrap()
}

/// The bad inputs, made in `d`: name → what it is.
fn bad_inputs(d: &Path) -> Vec<(String, &'static str)> {
    let record = db_fixture("variations.sgf");
    let zip = zip_of(&[("a.sgf", &record[..]), ("b.sgf", &record[..])]);
    let targz = gz(&tar_of(&[("a.sgf", &record[..]), ("b.sgf", &record[..])]));
    let sevenz = db_fixture("games.7z");
    let put = |name: &str, bytes: &[u8]| std::fs::write(d.join(name), bytes).unwrap();
    put("empty.sgf", b"");
    std::fs::create_dir_all(d.join("empty-folder")).unwrap();
    put(
        "text.sgf",
        b"# Network services, Internet style\nftp 21/tcp\nssh 22/tcp # (the secure shell)\n",
    );
    put("random.sgf", &noise(200_000));
    put("cut.zip", &zip[..zip.len() / 2]);
    put("cut.tar.gz", &targz[..targz.len() / 2]);
    put("cut.7z", &sevenz[..sevenz.len() / 2]);
    put("zero.7z", b"");
    std::fs::create_dir_all(d.join("folder.sgf")).unwrap();
    let mut v: Vec<(String, &'static str)> = [
        ("empty.sgf", "an empty file"),
        ("empty-folder", "an empty folder"),
        ("text.sgf", "a text file"),
        ("random.sgf", "random bytes"),
        ("cut.zip", "a truncated zip"),
        ("cut.tar.gz", "a truncated tar.gz"),
        ("cut.7z", "a truncated 7z"),
        ("zero.7z", "a 0-byte 7z"),
        ("folder.sgf", "a directory named .sgf"),
    ]
    .iter()
    .map(|(n, w)| (d.join(n).to_string_lossy().into_owned(), *w))
    .collect();
    #[cfg(unix)]
    if std::process::Command::new("mkfifo")
        .arg(d.join("fifo.sgf"))
        .status()
        .is_ok_and(|s| s.success())
    {
        v.push((d.join("fifo.sgf").to_string_lossy().into_owned(), "a FIFO"));
    }
    v
}

/// Every file under `d` with its bytes (a FIFO and folders by name only).
fn snapshot(d: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                out.push((e.path(), None));
                stack.push(e.path());
            } else if t.is_file() {
                out.push((e.path(), Some(std::fs::read(e.path()).unwrap())));
            } else {
                out.push((e.path(), None));
            }
        }
    }
    out.sort();
    out
}

/// The commands, each with where it would write (under `out`).
fn commands(input: &str, out: &Path) -> Vec<Vec<String>> {
    let o = |name: &str| out.join(name).to_string_lossy().into_owned();
    let i = input.to_string();
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<String>>();
    let with = |mut v: Vec<String>, rest: &[String]| {
        v.extend_from_slice(rest);
        v
    };
    vec![
        s(&["check", input]),
        s(&["check", "--json", input]),
        with(s(&["check", "--fix", input, "-o"]), &[o("fixed.sgf")]),
        with(s(&["fmt", input, "-o"]), &[o("fmt.sgf")]),
        with(s(&["dump", input, "-o"]), &[o("dump.txt")]),
        s(&["info", input]),
        s(&["position", input]),
        s(&["tree", input]),
        with(s(&["convert", input, "-o"]), &[o("convert.sgf")]),
        with(s(&["convert", input, "-d"]), &[o("converted")]),
        with(s(&["render", input, "-o"]), &[o("board.svg")]),
        with(s(&["figures", input, "--output"]), &[o("figures.html")]),
        s(&["stats", input]),
        with(s(&["export", input, "-o"]), &[o("export.jsonl")]),
        with(s(&["dataset", input, "--output"]), &[o("dataset")]),
        with(s(&["db", "index"]), &[o("games.db"), i.clone()]),
        s(&["score", input]),
        with(
            s(&["analyze", "--engine", "/bin/false", "--output"]),
            &[o("a.sgf"), i],
        ),
    ]
}

/// What must never reach a user: a decompressor's or Rust's debug form.
const DEBUG_TEXT: [&str; 6] = ["Other(", "Io(", "Error {", "kind:", "Custom {", "panicked"];

#[test]
fn every_command_refuses_what_is_not_a_record_in_one_sentence() {
    let d = scratch("bad-inputs");
    let inputs = bad_inputs(&d);
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let before = snapshot(&d);
    let mut table = Vec::new();
    for (input, what) in &inputs {
        for args in commands(input, &out) {
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = qipu(&argv);
            let stderr = String::from_utf8_lossy(&r.stderr);
            let stdout = String::from_utf8_lossy(&r.stdout);
            table.push(format!("{:?} {} {what}", r.status.code(), argv[0]));
            assert_eq!(
                r.status.code(),
                Some(2),
                "{argv:?} ({what}): {stderr}{stdout}"
            );
            // `check` reports on standard output (its report), the others
            // on standard error.
            let said: String = if argv[0] == "check" {
                format!("{stdout}{stderr}")
            } else {
                stderr.to_string()
            };
            let first = said
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default();
            let name = Path::new(input).file_name().unwrap().to_string_lossy();
            assert!(
                first.contains(&*name) || first.contains("no record files found"),
                "{argv:?} ({what}): the first line does not name the input: {said}"
            );
            for t in DEBUG_TEXT {
                assert!(!said.contains(t), "{argv:?} ({what}): debug text: {said}");
            }
            // One sentence, then at most a count of what failed.
            let lines = stderr.lines().filter(|l| !l.trim().is_empty()).count();
            assert!(lines <= 3, "{argv:?} ({what}): {stderr}");
            // Nothing written, the inputs as they were.
            assert_eq!(
                snapshot(&d),
                before,
                "{argv:?} ({what}) wrote or changed a file"
            );
        }
    }
    assert!(table.len() >= 18 * 9, "{}", table.join("\n"));
}

#[test]
fn random_bytes_and_text_are_never_shown_as_games() {
    let d = scratch("junk-said");
    std::fs::write(d.join("noise.sgf"), noise(50_000)).unwrap();
    let noise_path = d.join("noise.sgf").to_string_lossy().into_owned();
    let r = qipu(&["info", &noise_path]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        r.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
    assert!(
        err.contains("is not a game record: it is not text in any charset"),
        "{err}"
    );
    let r = qipu(&["check", "--json", &noise_path]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["not_record"], "not-text");
    assert_eq!(r.status.code(), Some(2));
    // A zip whatever its name: an archive, never text.
    let rec = db_fixture("dup-a.sgf");
    std::fs::write(d.join("looks.sgf"), zip_of(&[("in/x.sgf", &rec[..])])).unwrap();
    let looks = d.join("looks.sgf").to_string_lossy().into_owned();
    let r = qipu(&["info", &looks]);
    assert_eq!(r.status.code(), Some(0), "{r:?}");
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("looks.sgf!in/x.sgf:") && text.contains("Ivan"),
        "{text}"
    );
}

/// The record of `a` (a command's standard output) with the file names
/// left out: an archive's member and the plain file give the same games.
fn same_games(cmd: &[&str], plain: &str, member: &str) {
    let with = |input: &str| {
        let args: Vec<&str> = cmd
            .iter()
            .map(|a| if *a == "IN" { input } else { a })
            .collect();
        let r = qipu(&args);
        assert_eq!(r.status.code(), Some(0), "{args:?}: {r:?}");
        String::from_utf8(r.stdout).unwrap()
    };
    let a = with(plain);
    let b = with(member);
    // Without the member's header line (`ARCHIVE!MEMBER:`) and its
    // `"file"` in JSON (`"file": "…",` or `"file":"…",`).
    let strip = |s: &str| {
        let mut t = s
            .lines()
            .filter(|l| !(l.ends_with(':') && l.contains('!')))
            .collect::<Vec<_>>()
            .join("\n");
        while let Some(i) = t.find("\"file\":") {
            let after = i + "\"file\":".len();
            let open = after + t[after..].find('"').unwrap();
            let close = open + 1 + t[open + 1..].find('"').unwrap();
            let mut end = close + 1;
            while t[end..].starts_with([',', ' ', '\n']) {
                end += 1;
            }
            t.replace_range(i..end, "");
        }
        t
    };
    assert_eq!(strip(&a), strip(&b), "{cmd:?}: {plain} vs {member}");
    assert!(!a.is_empty());
}

#[test]
fn an_archive_of_a_collection_gives_the_games_of_the_plain_file() {
    let d = scratch("archive-same");
    let rec = db_fixture("variations.sgf");
    let plain = d.join("games.sgf");
    std::fs::write(&plain, &rec).unwrap();
    std::fs::write(d.join("g.zip"), zip_of(&[("games.sgf", &rec[..])])).unwrap();
    std::fs::write(d.join("g.tar.gz"), gz(&tar_of(&[("games.sgf", &rec[..])]))).unwrap();
    std::fs::write(d.join("games.sgf.gz"), gz(&rec)).unwrap();
    let plain = plain.to_string_lossy().into_owned();
    let p = |n: &str| d.join(n).to_string_lossy().into_owned();
    for archive in [p("g.zip"), p("g.tar.gz"), p("games.sgf.gz")] {
        for cmd in [
            &["fmt", "IN"][..],
            &["convert", "IN"],
            &["info", "IN"],
            &["info", "--json", "IN"],
            &["dump", "--json", "IN"],
            &["tree", "IN"],
            &["position", "IN", "--game", "2"],
            &["render", "IN", "--format", "svg"],
        ] {
            same_games(cmd, &plain, &archive);
        }
        // A member by name too.
        same_games(&["fmt", "IN"], &plain, &format!("{archive}!games.sgf"));
        // check: the same diagnostics, the member named.
        let r = qipu(&["check", "--json", &archive]);
        let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        let w: serde_json::Value =
            serde_json::from_slice(&qipu(&["check", "--json", &plain]).stdout).unwrap();
        assert_eq!(v["diagnostics"], w["diagnostics"], "{archive}");
        assert_eq!(v["path"], format!("{archive}!games.sgf"));
    }
    // 7z: the fixture's member is the file dup-a.sgf.
    let seven = repo()
        .join("testdata/db/games.7z")
        .to_string_lossy()
        .into_owned();
    let dup = repo()
        .join("testdata/db/dup-a.sgf")
        .to_string_lossy()
        .into_owned();
    same_games(&["fmt", "IN"], &dup, &format!("{seven}!pro/a.sgf"));
    same_games(&["info", "IN"], &dup, &format!("{seven}!pro/a.sgf"));
    let r = qipu(&["check", &format!("{seven}!pro/a.sgf")]);
    assert!(r.status.code().is_some_and(|c| c < 2), "{r:?}");
}

#[test]
fn archives_are_read_member_by_member_and_never_written_into() {
    let d = scratch("archive-members");
    let a = db_fixture("dup-a.sgf");
    let b = db_fixture("dup-b.sgf");
    let zip = zip_of(&[
        ("x/a.sgf", &a[..]),
        ("b.sgf", &b[..]),
        ("notes.sgf", b"just notes"),
    ]);
    let zp = d.join("two.zip");
    std::fs::write(&zp, &zip).unwrap();
    let z = zp.to_string_lossy().into_owned();
    // One output from one record: which one is asked for.
    for args in [
        vec!["fmt", &z[..]],
        vec!["position", &z],
        vec!["score", &z],
        vec!["render", &z, "--format", "svg"],
    ] {
        let r = qipu(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(
            err.contains("is a zip archive of 3 record files; name one as")
                && err.contains("two.zip!x/a.sgf"),
            "{err}"
        );
    }
    // Each member in turn: two records, one that is not.
    let r = qipu(&["info", &z]);
    let out = String::from_utf8_lossy(&r.stdout);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(
        out.contains("two.zip!x/a.sgf:") && out.contains("two.zip!b.sgf:"),
        "{out}"
    );
    assert!(
        err.contains("two.zip!notes.sgf is not a game record"),
        "{err}"
    );
    // A member alone.
    let r = qipu(&["info", &format!("{z}!b.sgf")]);
    assert_eq!(r.status.code(), Some(0), "{r:?}");
    let r = qipu(&["info", &format!("{z}!missing.sgf")]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2));
    assert!(err.contains("has no record file `missing.sgf`"), "{err}");
    // Never written into: the archive as it was.
    for target in [z.clone(), format!("{z}!b.sgf")] {
        let r = qipu(&["check", "--fix", "--in-place", &target]);
        let said = String::from_utf8_lossy(&r.stdout);
        assert_eq!(r.status.code(), Some(2), "{said}");
        assert!(said.contains("an archive is never written into"), "{said}");
    }
    assert_eq!(std::fs::read(&zp).unwrap(), zip);
    // A repair of a member into a file of its own.
    let fixed = d.join("fixed.sgf");
    let r = qipu(&[
        "check",
        "--fix",
        &format!("{z}!b.sgf"),
        "-o",
        fixed.to_str().unwrap(),
    ]);
    assert!(r.status.code().is_some_and(|c| c < 2), "{r:?}");
    assert!(std::fs::read_to_string(&fixed).unwrap().starts_with("(;"));
    // Standard input holding an archive.
    let r = qipu_in(&["info", "-"], Some(&zip));
    assert!(
        String::from_utf8_lossy(&r.stdout).contains("<stdin>!b.sgf:"),
        "{r:?}"
    );
    // The database indexes whole archives (a source is a file), and says so.
    let db = d.join("games.db");
    let r = qipu(&["db", "index", db.to_str().unwrap(), &format!("{z}!b.sgf")]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("indexes whole archives; name the archive"),
        "{r:?}"
    );
    assert!(!db.exists());
    // convert -d: a file per member, named after it.
    let dir = d.join("conv");
    let r = qipu(&["convert", &z, "-d", dir.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(dir.join("a.sgf").exists() && dir.join("b.sgf").exists());
}
