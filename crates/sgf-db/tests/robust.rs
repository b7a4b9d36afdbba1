//! The database never loses, never hangs, and says what is wrong: only
//! regular files are read, files with no game are errors, damaged and
//! foreign databases are recognised at open, one index run at a time,
//! queries whose parts would have no effect are refused, pattern sizes are
//! bounded, and hits whose files are gone are reported.

use std::path::{Path, PathBuf};

use sgf_db::{Database, DbError, Filter, NoProgress, Pattern, Query, Range, find_all};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-db-robust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("testdata/db").join(name)).unwrap()
}

/// A database of the three fixture games (7 games), closed (its journal
/// folded in), at `dir/g.qdb`.
fn small_db(dir: &Path) -> PathBuf {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    for f in ["variations.sgf", "dup-a.sgf", "dup-b.sgf"] {
        std::fs::write(src.join(f), fixture(f)).unwrap();
    }
    let p = dir.join("g.qdb");
    let mut db = Database::open(&p).unwrap();
    let r = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r.games, r.failed), (7, 0), "{:?}", r.problems);
    drop(db);
    p
}

fn err_of(r: Result<Database, DbError>) -> DbError {
    match r {
        Ok(db) => panic!("{} opened", db.path().display()),
        Err(e) => e,
    }
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_not_read() {
    let d = tmp("special");
    let db_path = d.join("g.qdb");
    let mut db = Database::open(&db_path).unwrap();
    // `/dev/zero` read whole would fill the memory; a FIFO would block for
    // ever (no writer comes), named like a record or like an archive.
    let mut paths = vec![PathBuf::from("/dev/zero")];
    for name in ["pipe.sgf", "pipe.tar"] {
        let fifo = d.join(name);
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            paths.push(fifo);
        }
    }
    let good = d.join("a.sgf");
    std::fs::write(&good, fixture("dup-a.sgf")).unwrap();
    paths.push(good);
    let r = db.index(&paths, &NoProgress).unwrap();
    assert_eq!(r.failed, paths.len() - 1, "{:?}", r.problems);
    assert_eq!((r.read, r.games), (1, 1), "{r:?}");
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("/dev/zero") && p.contains("character device")),
        "{:?}",
        r.problems
    );
    if paths.len() == 4 {
        assert!(
            r.problems
                .iter()
                .any(|p| p.contains("pipe.tar: ") && p.contains("FIFO"))
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_file_with_no_game_is_an_error_and_is_tried_again() {
    let d = tmp("nogame");
    let src = d.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("notes.sgf"), "just some text, no game").unwrap();
    std::fs::write(src.join("empty.sgf"), "").unwrap();
    std::fs::write(src.join("a.sgf"), fixture("dup-a.sgf")).unwrap();
    let mut db = Database::open(d.join("g.qdb")).unwrap();
    let r = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r.read, r.games, r.failed), (3, 1, 2), "{:?}", r.problems);
    for f in ["notes.sgf", "empty.sgf"] {
        assert!(
            r.problems
                .iter()
                .any(|p| p.contains(f) && p.contains("not a game record")),
            "{f}: {:?}",
            r.problems
        );
    }
    // Nothing changed: they still fail, they are not "unchanged".
    let r = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r.read, r.unchanged, r.failed), (2, 1, 2), "{r:?}");
    // Mended without a change of time or size, they are read.
    let a = fixture("dup-a.sgf");
    std::fs::write(src.join("notes.sgf"), &a).unwrap();
    let r = db.index(&[&src], &NoProgress).unwrap();
    assert_eq!((r.games, r.failed, r.total_games), (1, 1, 2), "{r:?}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn damaged_and_foreign_databases_are_named_and_refused() {
    let d = tmp("damaged");
    let good = small_db(&d);
    let bytes = std::fs::read(&good).unwrap();
    assert!(bytes.len() > 3 * 4096, "{} bytes", bytes.len());
    let write = |name: &str, b: &[u8]| {
        let p = d.join(name);
        std::fs::write(&p, b).unwrap();
        p
    };
    // Truncated after its third page.
    let truncated = write("truncated.qdb", &bytes[..3 * 4096]);
    // A value of the wrong type where a number is read.
    let wrong = write("wrong.qdb", &bytes);
    {
        let c = rusqlite::Connection::open(&wrong).unwrap();
        c.execute("UPDATE games SET game = x'00ff' WHERE id = 2", [])
            .unwrap();
    }
    let random: Vec<u8> = (0..5000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let binary = write("x.db", &random);
    let empty = write("empty.qdb", b"");
    let foreign = d.join("other.db");
    {
        let c = rusqlite::Connection::open(&foreign).unwrap();
        c.execute_batch("CREATE TABLE t(a); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let foreign_before = std::fs::read(&foreign).unwrap();
    let cases: [(&Path, &str); 5] = [
        (&truncated, ": damaged ("),
        (&wrong, ": damaged (row 2 of the table `games`"),
        (
            &binary,
            ": not a Qipu database (not an SQLite database file)",
        ),
        (&empty, ": not a Qipu database (an empty file)"),
        (&foreign, ": not a Qipu database ("),
    ];
    for (p, want) in cases {
        let e = err_of(Database::open_existing(p));
        let msg = e.to_string();
        assert!(
            msg.starts_with(&p.display().to_string()) && msg.contains(want),
            "{}: {msg}",
            p.display()
        );
        assert!(
            matches!(e, DbError::Corrupt(_) | DbError::NotQipu(_)),
            "{e:?}"
        );
        if p != empty {
            // Indexing into it is refused too (an empty file is a new database).
            let e = err_of(Database::open(p));
            assert!(e.to_string().contains(want), "{e}");
        }
    }
    assert_eq!(std::fs::read(&foreign).unwrap(), foreign_before);
    let e = err_of(Database::open_existing(&d));
    assert!(e.to_string().contains("a directory"), "{e}");
    let e = err_of(Database::open_existing(d.join("missing.qdb")));
    assert!(e.to_string().contains("no such database"), "{e}");
    // Damaged after it was opened: the readers say so, with the name.
    let late = write("late.qdb", &bytes);
    let db = Database::open_existing(&late).unwrap();
    db.connection()
        .execute("UPDATE games SET black = x'00' WHERE id = 1", [])
        .unwrap();
    let mut q = Query::default();
    q.limit = None;
    let e = db.find(&q).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with(&late.display().to_string()) && msg.contains("damaged ("),
        "{msg}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn one_index_run_at_a_time() {
    let d = tmp("lock");
    let db_path = small_db(&d);
    let lock_path = d.join("g.qdb-lock");
    assert!(!lock_path.exists(), "the lock is removed after a run");
    // Another process indexing holds the lock.
    let held = std::fs::File::create(&lock_path).unwrap();
    held.lock().unwrap();
    let mut db = Database::open(&db_path).unwrap();
    std::fs::write(d.join("src/new.sgf"), fixture("dup-a.sgf")).unwrap();
    let e = db.index(&[d.join("src")], &NoProgress).unwrap_err();
    assert!(matches!(e, DbError::Busy(_)), "{e:?}");
    assert!(e.to_string().contains("being indexed by another process"));
    assert_eq!(db.game_count().unwrap(), 7, "nothing was done");
    drop(held);
    let r = db.index(&[d.join("src")], &NoProgress).unwrap();
    assert_eq!((r.read, r.total_games), (1, 8));
    assert!(!lock_path.exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn options_without_effect_and_empty_ranges_are_refused() {
    let d = tmp("usage");
    let db = Database::open_existing(small_db(&d)).unwrap();
    let usage = |q: &Query| match db.find(q) {
        Err(DbError::Usage(m)) => m,
        r => panic!("{r:?}"),
    };
    let mut q = Query::default();
    q.options.min_move = Some(10);
    assert!(usage(&q).contains("need a pattern or a position"));
    q.pattern = Some(Pattern::from_rows(&["X."]).unwrap());
    q.options.max_move = Some(5);
    assert!(usage(&q).contains("is empty"));
    let mut q = Query::default();
    q.options.swap_colors = true;
    assert!(usage(&q).contains("need a pattern"));
    let mut q = Query::default();
    q.filter.player = Some("  ".into());
    assert!(usage(&q).contains("empty"));
    let mut q = Query::default();
    q.filter.text_match = sgf_db::TextMatch::Substring;
    assert!(usage(&q).contains("needs a player"));
    let mut q = Query::default();
    q.filter.date_from = Some("2006".into());
    q.filter.date_to = Some("2003".into());
    assert!(usage(&q).contains("inverted"));
    q.filter.date_to = Some("2006".into());
    assert!(db.find(&q).is_ok(), "one year is a range");
    let mut q = Query::default();
    q.filter.comment = Some(vec!["w"; 40].join(" "));
    assert!(usage(&q).contains("at most"));
    let mut f = Filter::default();
    f.handicap = Some(Range {
        min: Some(4.0),
        max: Some(2.0),
    });
    assert!(f.to_sql().is_err());
    for bad in ["10..5", "..", "nan", "inf..", "", "x"] {
        assert!(Range::parse(bad).is_err(), "{bad}");
    }
    for bad in ["-1..", "1.5", "..2.5"] {
        assert!(Range::parse_count(bad).is_err(), "{bad}");
    }
    assert_eq!(Range::parse_count("3..").unwrap().min, Some(3.0));
    assert!(Range::parse("-3.5..0").is_ok(), "komi can be negative");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_database_given_twice_is_searched_once() {
    let d = tmp("twice");
    let p = small_db(&d);
    let a = Database::open_existing(&p).unwrap();
    // Another name of the same file.
    let b = Database::open_existing(d.join(".").join("g.qdb")).unwrap();
    let mut q = Query::default();
    q.filter.player = Some("ivan".into());
    let once = find_all(&[&a], &q).unwrap();
    let twice = find_all(&[&a, &b, &a], &q).unwrap();
    assert_eq!(once.total, 2);
    assert_eq!(twice, once);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn pattern_sequences_are_bounded() {
    // Moves in the region, alternating colours, on points never reused.
    let points: Vec<String> = (0..19u8)
        .flat_map(|y| {
            (0..19u8).map(move |x| format!("{}{}", (b'a' + x) as char, (b'a' + y) as char))
        })
        .collect();
    let sgf = |n: usize| {
        let mut s = String::from("(;SZ[19]");
        for i in 0..n {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            // Past 361 points, passes would come: a pass is refused
            // anyway, so the bound is checked on plays.
            s.push_str(&format!(";{c}[{}]", points[i % 361]));
        }
        s.push(')');
        s
    };
    assert_eq!(
        Pattern::from_sgf(sgf(300).as_bytes())
            .unwrap()
            .sequence
            .len(),
        300
    );
    // 100,000 moves: refused at once, not replayed (13 KB a move before).
    let e = Pattern::from_sgf(sgf(100_000).as_bytes()).unwrap_err();
    assert!(e.to_string().contains("more than 500 moves"), "{e}");
    let big = vec![b' '; sgf_db::MAX_PATTERN_FILE_BYTES as usize + 1];
    let e = Pattern::from_sgf(&big).unwrap_err();
    assert!(e.to_string().contains("4 MiB"), "{e}");
}

#[test]
fn hits_whose_files_are_gone_or_changed_are_reported() {
    let d = tmp("gone");
    let p = small_db(&d);
    let db = Database::open_existing(&p).unwrap();
    let mut q = Query::default();
    q.limit = None;
    let hits = db.find(&q).unwrap().hits;
    assert_eq!(hits.len(), 7);
    std::fs::remove_file(d.join("src/dup-a.sgf")).unwrap();
    // Changed: the same games, so the same count, but another size.
    let mut v = fixture("variations.sgf");
    v.extend_from_slice(b"\n");
    std::fs::write(d.join("src/variations.sgf"), v).unwrap();
    let mut out = Vec::new();
    let w = sgf_db::write_hits(&[&db], &hits, &mut out).unwrap();
    assert_eq!((w.games, w.missing), (1, 6), "{:?}", w.problems);
    assert!(
        w.problems
            .iter()
            .any(|p| p.contains("dup-a.sgf") && p.contains("1 hit game(s) not written")),
        "{:?}",
        w.problems
    );
    assert!(
        w.problems
            .iter()
            .any(|p| p.contains("variations.sgf") && p.contains("changed since it was indexed")),
        "{:?}",
        w.problems
    );
    assert_eq!(String::from_utf8(out).unwrap().matches("(;").count(), 1);
    std::fs::remove_dir_all(&d).unwrap();
}
