//! Building the index: archives (zip, tar, tar.gz, 7z), incremental
//! re-indexing, unreadable files, filters, duplicates, shards, hits as SGF.

use std::path::{Path, PathBuf};

#[path = "../../../testsupport/archives.rs"]
mod archives;
use archives::{gz, tar_of, zip_of};

use sgf_db::{Database, Filter, NoProgress, Pattern, Query, TextMatch, Winner, find_all};

#[path = "../../../testsupport/corpus.rs"]
mod corpus;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-db-index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("testdata/db").join(name)).unwrap()
}

fn games_in(db: &Database) -> Vec<(String, Option<String>, u32)> {
    let mut q = Query::default();
    q.limit = None;
    let r = db.find(&q).unwrap();
    let mut v: Vec<_> = r
        .hits
        .iter()
        .map(|h| {
            let name = Path::new(&h.path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, h.member.clone(), h.game)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn archives_incremental_and_unreadable() {
    let d = tmp("arch");
    let src = d.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let a = fixture("dup-a.sgf");
    let v = fixture("variations.sgf");
    std::fs::write(src.join("plain.sgf"), &a).unwrap();
    std::fs::write(
        src.join("sub/games.zip"),
        zip_of(&[
            ("z/a.sgf", &a),
            ("z/notes.txt", b"hello"),
            ("z/v.sgf", &v),
            // A member with no game in it: an error, the rest is read.
            ("z/hello.sgf", b"hello"),
        ]),
    )
    .unwrap();
    std::fs::write(src.join("games.tar"), tar_of(&[("t/a.sgf", &a)])).unwrap();
    std::fs::write(src.join("games.tar.gz"), gz(&tar_of(&[("g/v.sgf", &v)]))).unwrap();
    std::fs::copy(repo().join("testdata/db/games.7z"), src.join("games.7z")).unwrap();
    // Unreadable: a damaged archive and an encrypted UGF.
    std::fs::write(src.join("broken.zip"), b"PK\x03\x04 not really").unwrap();
    std::fs::copy(
        repo().join("testdata/formats/ugf/crypt.ugf"),
        src.join("x.ugf"),
    )
    .unwrap();
    let mut db = Database::open(d.join("g.qdb")).unwrap();
    let r = db.index(&[&src], &NoProgress).unwrap();
    assert!(
        r.problems.iter().any(|p| p.contains("broken.zip")),
        "{:?}",
        r.problems
    );
    assert!(
        r.problems.iter().any(|p| p.contains("x.ugf")),
        "{:?}",
        r.problems
    );
    assert!(
        r.problems
            .iter()
            .any(|p| p.contains("z/hello.sgf") && p.contains("[S002]")),
        "{:?}",
        r.problems
    );
    assert_eq!(r.failed, 3, "{:?}", r.problems);
    // plain 1 + zip 1+5 + tar 1 + tar.gz 5 + 7z 2
    assert_eq!(r.total_games, 15, "{:?}", games_in(&db));
    let g = games_in(&db);
    assert!(g.contains(&("games.zip".into(), Some("z/v.sgf".into()), 4)));
    assert!(g.contains(&("games.7z".into(), Some("pro/b.sgf".into()), 0)));
    assert!(g.contains(&("games.tar.gz".into(), Some("g/v.sgf".into()), 0)));
    assert!(!g.iter().any(|x| x.1.as_deref() == Some("z/notes.txt")));

    // Nothing changed: only the two files that could not be read are read
    // again (a file made readable keeps its modification time); the
    // archive with a bad member is not, its error is reported again.
    let r2 = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r2.read, r2.games, r2.total_games), (2, 0, 15));
    assert_eq!((r2.failed, r2.unchanged), (3, 5), "{:?}", r2.problems);
    assert!(r2.problems.iter().any(|p| p.contains("z/hello.sgf")));
    // One file changed, one removed, one added.
    std::fs::write(src.join("plain.sgf"), [&a[..], b"\n", &v[..]].concat()).unwrap();
    std::fs::remove_file(src.join("games.tar")).unwrap();
    std::fs::write(src.join("sub/new.sgf"), &a).unwrap();
    let r3 = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r3.read, r3.removed), (2 + 2, 1), "{r3:?}");
    assert_eq!(r3.total_games, 15 + 5 - 1 + 1);
    // Indexing another directory leaves these alone.
    let other = d.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("o.sgf"), &a).unwrap();
    let r4 = db.index(&[&other], &NoProgress).unwrap();
    assert_eq!((r4.read, r4.removed, r4.total_games), (1, 0, 21));

    // The hits of archive members are written out as SGF.
    let mut q = Query::default();
    q.filter.black = Some("seven".into());
    let hits = db.find(&q).unwrap();
    assert_eq!(hits.total, 1);
    let mut out = Vec::new();
    let problems = sgf_db::write_hits_sgf(&[&db], &hits.hits, &mut out).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("PB[Seven]") && text.contains("B[gc]"),
        "{text}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn filters_dups_and_shards() {
    let d = tmp("filters");
    let src = d.join("src");
    std::fs::create_dir_all(&src).unwrap();
    for f in ["variations.sgf", "dup-a.sgf", "dup-b.sgf"] {
        std::fs::write(src.join(f), fixture(f)).unwrap();
    }
    let mut db = Database::open(d.join("g.qdb")).unwrap();
    db.index(&[&src], &NoProgress).unwrap();
    let count = |f: Filter| {
        let mut q = Query::default();
        q.filter = f;
        db.find(&q).unwrap().games
    };
    let mut f = Filter::default();
    f.player = Some("ALICE".into());
    assert_eq!(count(f), 1, "full-width name, any case");
    let mut f = Filter::default();
    f.white = Some("ank".into());
    assert_eq!(count(f.clone()), 0, "prefix by default");
    f.text_match = TextMatch::Substring;
    assert_eq!(count(f), 2);
    let mut f = Filter::default();
    f.date_from = Some("2001-03".into());
    f.date_to = Some("2001-12-31".into());
    assert_eq!(count(f), 1, "the partial date 2001-03");
    let mut f = Filter::default();
    f.winner = Some(Winner::White);
    assert_eq!(count(f), 2);
    let mut f = Filter::default();
    f.result = Some("w+3".into());
    assert_eq!(count(f), 1);
    let mut f = Filter::default();
    f.handicap = Some(sgf_db::Range::parse("2..").unwrap());
    assert_eq!(count(f), 1);
    let mut f = Filter::default();
    f.size = Some((13, 13));
    assert_eq!(count(f), 1);
    let mut f = Filter::default();
    f.comment = Some("JOSEKI words".into());
    assert_eq!(count(f), 1);
    let mut f = Filter::default();
    f.moves = Some(sgf_db::Range::parse("30..").unwrap());
    assert_eq!(count(f), 2);
    let mut f = Filter::default();
    f.date_from = Some("whenever".into());
    let mut q = Query::default();
    q.filter = f;
    assert!(db.find(&q).is_err());

    let dups = db.dups().unwrap();
    assert_eq!(dups.len(), 1);
    let names: Vec<_> = dups[0]
        .games
        .iter()
        .map(|g| g.black.clone().unwrap())
        .collect();
    assert_eq!(names, ["Ivan", "ivan2"]);

    // Two shards answer as the one database does.
    let (s1, s2) = (d.join("s1"), d.join("s2"));
    std::fs::create_dir_all(&s1).unwrap();
    std::fs::create_dir_all(&s2).unwrap();
    std::fs::write(s1.join("v.sgf"), fixture("variations.sgf")).unwrap();
    std::fs::write(s2.join("a.sgf"), fixture("dup-a.sgf")).unwrap();
    std::fs::write(s2.join("b.sgf"), fixture("dup-b.sgf")).unwrap();
    let mut d1 = Database::open(d.join("s1.qdb")).unwrap();
    let mut d2 = Database::open(d.join("s2.qdb")).unwrap();
    d1.index(&[&s1], &NoProgress).unwrap();
    d2.index(&[&s2], &NoProgress).unwrap();
    let mut q = Query::default();
    q.pattern = Some(Pattern::from_rows(&["X.", ".O"]).unwrap());
    q.options.anywhere = true;
    q.options.swap_colors = true;
    let one = db.find(&q).unwrap();
    let both = find_all(&[&d1, &d2], &q).unwrap();
    assert!(one.total > 0);
    assert_eq!((both.total, both.games), (one.total, one.games));
    assert_eq!(both.continuations, one.continuations);
    assert_eq!(
        both.hits.iter().filter(|h| h.db == 1).count() as u64
            + both.hits.iter().filter(|h| h.db == 0).count() as u64,
        one.total
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn corpus_archives_when_present() {
    let Some(c) = corpus::corpus_path("legacy/gnugo-all-sgf.tar.gz") else {
        return;
    };
    let d = tmp("corpus");
    let mut db = Database::open(d.join("g.qdb")).unwrap();
    let r = db.index(&[&c], &NoProgress).unwrap();
    assert!(r.total_games > 10, "{r:?}");
    let g = games_in(&db);
    assert!(g.iter().all(|x| x.1.is_some()));
    std::fs::remove_dir_all(&d).unwrap();
}

/// A long game (a file of a megabyte and more, read whole) has its moves
/// encoded again as they are written into the database, not held: what
/// is stored is what encoding it once gives, and it is found.
#[test]
fn long_game_is_stored_as_encoded() {
    let d = tmp("long");
    let mut src = String::from("(;SZ[19]PB[Long]C[start]");
    for i in 0..200_000u32 {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let p = i % 300;
        let (x, y) = (
            (b'a' + (p % 19) as u8) as char,
            (b'a' + (p / 19) as u8) as char,
        );
        src.push_str(&format!(";{c}[{x}{y}]"));
    }
    src.push(')');
    assert!(src.len() > 1 << 20);
    let path = d.join("long.sgf");
    std::fs::write(&path, &src).unwrap();
    let mut db = Database::open(d.join("g.qdb")).unwrap();
    let r = db.index(&[&path], &NoProgress).unwrap();
    assert_eq!((r.games, r.failed), (1, 0));
    let data: Vec<u8> = db
        .connection()
        .query_row("SELECT data FROM files", [], |r| r.get(0))
        .unwrap();
    let doc = sgf_core::parse(src.as_bytes()).document;
    let mut stored = Vec::new();
    sgf_db::encode::write_stored(&sgf_db::encode::encode_game(&doc, 0), &mut stored);
    assert!(data == stored, "{} then {} bytes", stored.len(), data.len());
    let mut q = Query::default();
    q.filter.player = Some("Long".into());
    assert_eq!(db.find(&q).unwrap().hits.len(), 1);
    let _ = std::fs::remove_dir_all(&d);
}
