//! `qipu db`: the game database (crate `sgf-db`): index, find, dups.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, Subcommand};
use sgf_core::Color;
use sgf_db::{Database, DbError, Filter, IndexOptions, Pattern, Query, Range, TextMatch, Winner};

/// A game database: index records, search positions and patterns, find duplicates.
///
/// Exit status (every subcommand): 0 success; 2 bad usage, a database that
/// is missing, not a Qipu database or damaged, a record or archive member
/// that could not be read (`index`: the others are still indexed; `find -o`:
/// the other hit games are still written) or another `db index` running
/// on the database. `--help` of each subcommand has the details.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: DbCommand,
}

/// The `db` subcommands.
#[derive(Subcommand, Debug)]
pub enum DbCommand {
    Index(IndexArgs),
    Find(Box<FindArgs>),
    Dups(DupsArgs),
}

/// Index the games of files, directories and archives (zip, tar, tar.gz, 7z) into DB;
/// running it again reads only what changed.
///
/// Only regular files are read (a device or a FIFO given as a path is
/// refused), each at most 1 GiB, archive members at most 256 MiB. A file or
/// member that cannot be read or holds no game (a text file, a binary) is
/// reported with its reason and skipped, the others are indexed, and the
/// next run tries it again. One `db index` at a time writes into a
/// database: a second one fails at once, before reading anything, unless
/// `--wait` is given. DB is made when it is missing (or an empty file); an
/// existing file is checked first (not a Qipu database, damaged: nothing
/// is done).
///
/// Exit status: 0 every file was indexed; 2 some file or member could not
/// be read or holds no game (the others are indexed; the summary says how
/// many failed), a path does not exist, DB is not a Qipu database or is
/// damaged, another `db index` is running on DB (without `--wait`), or bad
/// usage.
#[derive(ClapArgs, Debug)]
pub struct IndexArgs {
    /// The database file (made when missing or empty).
    pub db: PathBuf,
    /// Record files, directories and archives.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// JSON: `{"read": n, "unchanged": n, "removed": n, "games": n, "total_games": n, "problems": […]}`.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// When another `db index` is running on DB, wait for it to finish
    /// (by default this one fails at once).
    #[arg(long)]
    pub wait: bool,
}

/// Find games by game information, full-board position or pattern, over one database or
/// several (shards) at once.
///
/// Every option given must have an effect: `--moves`, `--to-play`,
/// `--swap-colors` and `--variations` need `--pattern` or `--position`,
/// `--contains` needs a name or event, and an empty text, an empty or
/// inverted range (`--moves 10..5`, `--from 2006 --to 2003`) is refused. A
/// database named twice is searched once. A pattern file is at most 4 MiB
/// with at most 500 moves in its sequence.
///
/// `-o FILE` writes the hit games as one SGF collection, read again from
/// their record files: a file that is gone, changed since it was indexed or
/// cannot be read is reported, the other games are written. With no game
/// to write, FILE is not written (nor replaced). `-o -` writes the
/// collection to standard output instead of the list of hits.
///
/// Exit status: 0 success (with or without hits); 2 bad usage, a database
/// missing, not a Qipu database or damaged, a pattern or position file that
/// cannot be read, or with `-o`, hit games that could not be written (the
/// others are written).
#[derive(ClapArgs, Debug)]
pub struct FindArgs {
    /// Database files (several: searched as one; a file named twice is searched once).
    #[arg(required = true)]
    pub dbs: Vec<PathBuf>,
    /// Either player (prefix; see --contains), case- and width-insensitive.
    #[arg(long)]
    pub player: Option<String>,
    /// Black.
    #[arg(long)]
    pub black: Option<String>,
    /// White.
    #[arg(long)]
    pub white: Option<String>,
    /// The event.
    #[arg(long)]
    pub event: Option<String>,
    /// Names and events match anywhere, not only at the start.
    #[arg(long)]
    pub contains: bool,
    /// Games on or after this date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    pub from: Option<String>,
    /// Games on or before this date.
    #[arg(long)]
    pub to: Option<String>,
    /// The result starts with this (B+, W+R, B+0.5).
    #[arg(long)]
    pub result: Option<String>,
    /// Who won: B, W, draw, none.
    #[arg(long)]
    pub winner: Option<String>,
    /// Either player's rank (9d, 3p, 5k).
    #[arg(long)]
    pub rank: Option<String>,
    /// Handicap: N or A..B.
    #[arg(long)]
    pub handicap: Option<String>,
    /// Komi: X or A..B.
    #[arg(long)]
    pub komi: Option<String>,
    /// Board size: N or COLSxROWS.
    #[arg(long)]
    pub size: Option<String>,
    /// The rules (a substring).
    #[arg(long)]
    pub rules: Option<String>,
    /// Words that must all appear in the comments.
    #[arg(long)]
    pub comment: Option<String>,
    /// Main-line length in moves: N or A..B.
    #[arg(long)]
    pub length: Option<String>,
    /// Full-board position: the position of this record (under the 8 symmetries).
    #[arg(long, conflicts_with = "pattern")]
    pub position: Option<PathBuf>,
    /// Game of the position file (from 1).
    #[arg(long, default_value_t = 1, requires = "position")]
    pub game: usize,
    /// The position after the N-th move of its main line (default: the end).
    #[arg(long, conflicts_with = "node", requires = "position")]
    pub r#move: Option<usize>,
    /// The position at node K in file order (from 0).
    #[arg(long, requires = "position")]
    pub node: Option<usize>,
    /// A pattern file (docs/db-patterns.md).
    #[arg(long)]
    pub pattern: Option<PathBuf>,
    /// The pattern anywhere on the board, not only where it is drawn (up to symmetry).
    #[arg(long, requires = "pattern")]
    pub anywhere: bool,
    /// Also with the colours swapped.
    #[arg(long)]
    pub swap_colors: bool,
    /// Who is to play where the pattern stands: B or W.
    #[arg(long)]
    pub to_play: Option<String>,
    /// Hits only within these move numbers: N, A..B, A.. or ..B.
    #[arg(long)]
    pub moves: Option<String>,
    /// Search variations too, not only main lines.
    #[arg(long)]
    pub variations: bool,
    /// List at most N hits (all are counted); default all with --json, 50 otherwise.
    #[arg(long)]
    pub limit: Option<usize>,
    /// JSON: `{"total": N, "games": N, "hits": [{"path": "…", "game": 0, "move": 37, …}],
    /// "continuations": [{"move": "pd", "color": "B", "count": N, "black_wins": N, "white_wins": N}]}`.
    #[arg(long)]
    pub json: bool,
    /// Write the hit games to this file as one SGF collection (`-` standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Groups of duplicate games (Dyer signature confirmed by the final position).
///
/// Exit status: 0 success (with or without duplicates); 2 DB is missing,
/// not a Qipu database or damaged, or bad usage.
#[derive(ClapArgs, Debug)]
pub struct DupsArgs {
    /// The database file.
    pub db: PathBuf,
    /// JSON: `{"groups": [{"signature": "…", "games": [{"path": "…", "game": 0, …}]}]}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `qipu db`.
pub fn run(a: &Args) -> Result<u8> {
    let r = match &a.command {
        DbCommand::Index(a) => index(a),
        DbCommand::Find(a) => find(a),
        DbCommand::Dups(a) => dups(a),
    };
    // A reader that stopped early (`| head`) is not an error.
    match r {
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(0)
        }
        r => r,
    }
}

/// One line on standard output.
fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    Ok(())
}

struct Bar {
    bar: indicatif::ProgressBar,
    db: String,
}

impl sgf_db::Progress for Bar {
    fn start(&self, files: u64) {
        self.bar.set_length(files);
    }
    fn advance(&self) {
        self.bar.inc(1);
    }
    fn waiting(&self) {
        self.bar.suspend(|| {
            eprintln!(
                "qipu: {}: being indexed by another process; waiting for it to finish",
                self.db
            );
        });
    }
}

fn index(a: &IndexArgs) -> Result<u8> {
    let existed = std::fs::symlink_metadata(&a.db).is_ok();
    let mut db = Database::open(&a.db)?;
    let bar = Bar {
        bar: crate::walk::progress(0, a.quiet),
        db: a.db.display().to_string(),
    };
    let mut opts = IndexOptions::default();
    opts.wait = a.wait;
    let indexed = db.index_with(&a.paths, &bar, &opts);
    // A database made by this run that holds no game (nothing could be
    // read) is not left behind.
    if !existed && indexed.as_ref().map_or(true, |r| r.total_games == 0) {
        drop(db);
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = a.db.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
    let report = match indexed {
        Ok(r) => r,
        Err(DbError::Busy(m)) => {
            bar.bar.finish_and_clear();
            bail!("{m}; run again when it is done, or wait for it with --wait")
        }
        Err(e) => {
            bar.bar.finish_and_clear();
            return Err(e.into());
        }
    };
    bar.bar.finish_and_clear();
    for p in &report.problems {
        eprintln!("qipu: {p}");
    }
    if a.json {
        say(&serde_json::to_string(&report)?)?;
    } else {
        let failed = if report.failed > 0 {
            format!(
                "; {} file(s) or archive member(s) could not be read",
                report.failed
            )
        } else {
            String::new()
        };
        say(&format!(
            "{} file(s) read, {} unchanged, {} removed; {} game(s) stored, {} in the database{failed}",
            report.read, report.unchanged, report.removed, report.games, report.total_games
        ))?;
    }
    Ok(if report.failed > 0 { 2 } else { 0 })
}

fn color(s: &str) -> Result<Color> {
    match s.trim().to_ascii_uppercase().as_str() {
        "B" | "BLACK" => Ok(Color::Black),
        "W" | "WHITE" => Ok(Color::White),
        _ => bail!("`{s}`: the colour is B or W"),
    }
}

fn size(s: &str) -> Result<(u8, u8)> {
    let parse = |t: &str| -> Result<u8> {
        t.trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=52).contains(n))
            .with_context(|| format!("`{s}`: a board size is N or COLSxROWS, 1 to 52"))
    };
    match s.split_once(['x', 'X', ':']) {
        Some((c, r)) => Ok((parse(c)?, parse(r)?)),
        None => {
            let n = parse(s)?;
            Ok((n, n))
        }
    }
}

/// Refuses the options of `db find` that would have no effect (they are
/// silently ignored otherwise) or select nothing.
fn check_find_usage(a: &FindArgs) -> Result<()> {
    if a.pattern.is_none() && a.position.is_none() {
        for (flag, given) in [
            ("--moves", a.moves.is_some()),
            ("--to-play", a.to_play.is_some()),
            ("--swap-colors", a.swap_colors),
            ("--variations", a.variations),
        ] {
            if given {
                bail!("{flag} has no effect without --pattern or --position");
            }
        }
    }
    if a.contains
        && a.player.is_none()
        && a.black.is_none()
        && a.white.is_none()
        && a.event.is_none()
    {
        bail!("--contains has no effect without --player, --black, --white or --event");
    }
    for (flag, v) in [
        ("--player", &a.player),
        ("--black", &a.black),
        ("--white", &a.white),
        ("--event", &a.event),
        ("--from", &a.from),
        ("--to", &a.to),
        ("--result", &a.result),
        ("--winner", &a.winner),
        ("--rank", &a.rank),
        ("--handicap", &a.handicap),
        ("--komi", &a.komi),
        ("--size", &a.size),
        ("--rules", &a.rules),
        ("--comment", &a.comment),
        ("--length", &a.length),
        ("--to-play", &a.to_play),
        ("--moves", &a.moves),
    ] {
        if v.as_deref().is_some_and(|v| v.trim().is_empty()) {
            bail!("{flag} is empty");
        }
    }
    if a.json && a.output.as_deref() == Some(std::path::Path::new("-")) {
        bail!("--json and -o - would both write to standard output");
    }
    Ok(())
}

fn filter_of(a: &FindArgs) -> Result<Filter> {
    let mut f = Filter::default();
    f.player = a.player.clone();
    f.black = a.black.clone();
    f.white = a.white.clone();
    f.event = a.event.clone();
    f.text_match = if a.contains {
        TextMatch::Substring
    } else {
        TextMatch::Prefix
    };
    f.date_from = a.from.clone();
    f.date_to = a.to.clone();
    f.result = a.result.clone();
    f.winner = a
        .winner
        .as_deref()
        .map(Winner::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    f.rank = a.rank.clone();
    let range = |flag: &str, s: &Option<String>, count: bool| {
        s.as_deref()
            .map(if count {
                Range::parse_count
            } else {
                Range::parse
            })
            .transpose()
            .map_err(|e| anyhow::anyhow!("{flag}: {e}"))
    };
    f.handicap = range("--handicap", &a.handicap, true)?;
    f.komi = range("--komi", &a.komi, false)?;
    f.moves = range("--length", &a.length, true)?;
    f.size = a.size.as_deref().map(size).transpose()?;
    f.rules = a.rules.clone();
    f.comment = a.comment.clone();
    // Dates are checked here so a typo is a usage error, not an empty answer.
    f.to_sql().map_err(anyhow::Error::msg)?;
    Ok(f)
}

/// Reads a pattern file (`-`: standard input), at most
/// [`sgf_db::MAX_PATTERN_FILE_BYTES`].
fn read_pattern_file(p: &std::path::Path) -> Result<Vec<u8>> {
    use sgf_formats::input::{read_file, read_stream};
    let limit = sgf_db::MAX_PATTERN_FILE_BYTES;
    if p == std::path::Path::new("-") {
        return read_stream(&mut std::io::stdin().lock(), limit)
            .context("cannot read the pattern from standard input");
    }
    read_file(p, limit).with_context(|| format!("cannot read the pattern {}", p.display()))
}

fn find(a: &FindArgs) -> Result<u8> {
    check_find_usage(a)?;
    // Each database once, by its canonical path; `places` maps the ones
    // searched to their place on the command line (the hits' `db`).
    let mut dbs: Vec<Database> = Vec::new();
    let mut places: Vec<usize> = Vec::new();
    let mut seen: HashMap<PathBuf, &PathBuf> = HashMap::new();
    for (i, p) in a.dbs.iter().enumerate() {
        let key = p.canonicalize().unwrap_or_else(|_| p.clone());
        if let Some(first) = seen.get(&key) {
            eprintln!(
                "qipu: {}: the same database as {}; searched once",
                p.display(),
                first.display()
            );
            continue;
        }
        seen.insert(key, p);
        dbs.push(Database::open_existing(p)?);
        places.push(i);
    }
    let mut q = Query::default();
    q.filter = filter_of(a)?;
    if let Some(p) = &a.position {
        let src = crate::input::read_one(&p.to_string_lossy())?;
        if a.game == 0 {
            bail!("games are numbered from 1");
        }
        q.pattern = Some(
            sgf_db::position_of(&src.bytes, src.hint(), a.game - 1, a.r#move, a.node)
                .with_context(|| format!("position {}", src.name))?,
        );
    }
    if let Some(p) = &a.pattern {
        let bytes = read_pattern_file(p)?;
        q.pattern =
            Some(Pattern::from_sgf(&bytes).with_context(|| format!("pattern {}", p.display()))?);
    }
    q.options.anywhere = a.anywhere;
    q.options.swap_colors = a.swap_colors;
    q.options.to_play = a.to_play.as_deref().map(color).transpose()?;
    q.options.variations = a.variations;
    if let Some(m) = &a.moves {
        let r = Range::parse_count(m).map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
        q.options.min_move = r.min.map(|v| v as u32);
        q.options.max_move = r.max.map(|v| v as u32);
    }
    q.limit = a.limit.or(if a.json { None } else { Some(50) });
    // Checked before the search: a file that cannot be written is known now.
    let out_name = a.output.as_ref().map(|o| o.to_string_lossy().into_owned());
    let mut dest = match &out_name {
        Some(o) => {
            // Every hit game goes to the file, whatever is listed.
            q.limit = None;
            Some(crate::input::create_output(Some(o))?)
        }
        None => None,
    };
    let to_stdout = out_name.as_deref() == Some("-");
    let refs: Vec<&Database> = dbs.iter().collect();
    let mut res = sgf_db::find_all(&refs, &q)?;
    let mut status = 0;
    if let (Some(mut out), Some(name)) = (dest.take(), out_name.as_deref()) {
        let w = sgf_db::write_hits(&refs, &res.hits, &mut out);
        let w = match w {
            Ok(w) => w,
            // A failed write is the commit's to report (with the file's name).
            Err(sgf_db::DbError::Io(_)) => {
                crate::input::commit(out, Some(name))?;
                bail!("cannot write {name}");
            }
            Err(e) => return Err(e.into()),
        };
        for p in &w.problems {
            eprintln!("qipu: {p}");
        }
        if w.games > 0 {
            crate::input::commit(out, Some(name))?;
        } else if !to_stdout {
            // Never an empty file: nothing is made, and a file there stays as it was.
            eprintln!("qipu: no hit game to write: {name} not written");
        }
        if w.missing > 0 {
            eprintln!(
                "qipu: {} of {} hit game(s) could not be written (their record files are gone, changed or unreadable); {} written",
                w.missing,
                w.missing + w.games,
                w.games
            );
            status = 2;
        }
    }
    for h in &mut res.hits {
        h.db = places.get(h.db).copied().unwrap_or(h.db);
    }
    if to_stdout {
        eprintln!("{} hit(s) in {} game(s)", res.total, res.games);
        return Ok(status);
    }
    let shown = a
        .limit
        .or(if a.json { None } else { Some(50) })
        .unwrap_or(usize::MAX);
    if a.json {
        let mut v = serde_json::to_value(&res)?;
        if let Some(h) = v.get_mut("hits").and_then(|h| h.as_array_mut()) {
            h.truncate(shown);
        }
        say(&serde_json::to_string(&v)?)?;
        return Ok(status);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} hit(s) in {} game(s)", res.total, res.games)?;
    for h in res.hits.iter().take(shown) {
        let file = match &h.member {
            Some(m) => format!("{}:{m}", h.path),
            None => h.path.clone(),
        };
        let players = format!(
            "{} - {}",
            h.black.as_deref().unwrap_or("?"),
            h.white.as_deref().unwrap_or("?")
        );
        writeln!(
            out,
            "{file} game {} move {}{}  {players}  {}  {}",
            h.game + 1,
            h.move_number,
            if h.variation { " (variation)" } else { "" },
            h.date.as_deref().unwrap_or(""),
            h.result.as_deref().unwrap_or("")
        )?;
    }
    if (res.total as usize) > shown {
        writeln!(
            out,
            "… {} more (--limit, --json)",
            res.total as usize - shown
        )?;
    }
    if !res.continuations.is_empty() {
        writeln!(
            out,
            "\ncontinuations (move, colour, count, Black wins, White wins):"
        )?;
        for c in res.continuations.iter().take(20) {
            writeln!(
                out,
                "  {} {}  {:>6}  {:>6}  {:>6}",
                c.point, c.color, c.count, c.black_wins, c.white_wins
            )?;
        }
    }
    Ok(status)
}

fn dups(a: &DupsArgs) -> Result<u8> {
    let db = Database::open_existing(&a.db)?;
    let groups = db.dups()?;
    if a.json {
        say(&serde_json::to_string(
            &serde_json::json!({ "groups": groups }),
        )?)?;
        return Ok(0);
    }
    let mut out = std::io::stdout().lock();
    for g in &groups {
        writeln!(out, "{} ({} games)", g.signature, g.games.len())?;
        for d in &g.games {
            let file = match &d.member {
                Some(m) => format!("{}:{m}", d.path),
                None => d.path.clone(),
            };
            writeln!(
                out,
                "  {file} game {}  {} - {}  {}  {}",
                d.game + 1,
                d.black.as_deref().unwrap_or("?"),
                d.white.as_deref().unwrap_or("?"),
                d.date.as_deref().unwrap_or(""),
                d.result.as_deref().unwrap_or("")
            )?;
        }
    }
    writeln!(out, "{} group(s) of duplicates", groups.len())?;
    Ok(0)
}
