//! `qipu db`: the game database (crate `sgf-db`): index, find, dups.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, Subcommand};
use sgf_core::Color;
use sgf_db::{Database, Filter, Pattern, Query, Range, TextMatch, Winner};

/// A game database: index records, search positions and patterns, find duplicates.
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
#[derive(ClapArgs, Debug)]
pub struct IndexArgs {
    /// The database file (created when missing).
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
}

/// Find games by game information, full-board position or pattern, over one database or
/// several (shards) at once.
#[derive(ClapArgs, Debug)]
pub struct FindArgs {
    /// Database files (several: searched as one).
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
    /// Write the hit games to this file as one SGF collection.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Groups of duplicate games (Dyer signature confirmed by the final position).
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

struct Bar(indicatif::ProgressBar);

impl sgf_db::Progress for Bar {
    fn start(&self, files: u64) {
        self.0.set_length(files);
    }
    fn advance(&self) {
        self.0.inc(1);
    }
}

fn index(a: &IndexArgs) -> Result<u8> {
    let mut db = Database::open(&a.db)?;
    let bar = Bar(crate::walk::progress(0, a.quiet));
    let report = db.index(&a.paths, &bar)?;
    bar.0.finish_and_clear();
    for p in &report.problems {
        eprintln!("warning: {p}");
    }
    if a.json {
        say(&serde_json::to_string(&report)?)?;
    } else {
        say(&format!(
            "{} file(s) read, {} unchanged, {} removed; {} game(s) stored, {} in the database",
            report.read, report.unchanged, report.removed, report.games, report.total_games
        ))?;
    }
    Ok(0)
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
    let range = |s: &Option<String>| {
        s.as_deref()
            .map(Range::parse)
            .transpose()
            .map_err(anyhow::Error::msg)
    };
    f.handicap = range(&a.handicap)?;
    f.komi = range(&a.komi)?;
    f.moves = range(&a.length)?;
    f.size = a.size.as_deref().map(size).transpose()?;
    f.rules = a.rules.clone();
    f.comment = a.comment.clone();
    // Dates are checked here so a typo is a usage error, not an empty answer.
    f.to_sql().map_err(anyhow::Error::msg)?;
    Ok(f)
}

fn find(a: &FindArgs) -> Result<u8> {
    let dbs: Vec<Database> = a
        .dbs
        .iter()
        .map(Database::open_existing)
        .collect::<Result<_, _>>()?;
    let mut q = Query::default();
    q.filter = filter_of(a)?;
    if let Some(p) = &a.position {
        let bytes = crate::input::read_bytes(&p.to_string_lossy())?;
        if a.game == 0 {
            bail!("games are numbered from 1");
        }
        q.pattern = Some(sgf_db::position_of(
            &bytes,
            Some(p),
            a.game - 1,
            a.r#move,
            a.node,
        )?);
    }
    if let Some(p) = &a.pattern {
        let bytes = crate::input::read_bytes(&p.to_string_lossy())?;
        q.pattern =
            Some(Pattern::from_sgf(&bytes).with_context(|| format!("pattern {}", p.display()))?);
    }
    q.options.anywhere = a.anywhere;
    q.options.swap_colors = a.swap_colors;
    q.options.to_play = a.to_play.as_deref().map(color).transpose()?;
    q.options.variations = a.variations;
    if let Some(m) = &a.moves {
        let r = Range::parse(m).map_err(anyhow::Error::msg)?;
        q.options.min_move = r.min.map(|v| v.max(0.0) as u32);
        q.options.max_move = r.max.map(|v| v.max(0.0) as u32);
    }
    q.limit = a.limit.or(if a.json { None } else { Some(50) });
    if a.output.is_some() {
        // Every hit game goes to the file, whatever is listed.
        q.limit = None;
    }
    let refs: Vec<&Database> = dbs.iter().collect();
    let res = sgf_db::find_all(&refs, &q)?;
    if let Some(out) = &a.output {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(out)
                .with_context(|| format!("cannot write {}", out.display()))?,
        );
        for p in sgf_db::write_hits_sgf(&refs, &res.hits, &mut f)? {
            eprintln!("warning: {p}");
        }
        f.flush()?;
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
        return Ok(0);
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
    Ok(0)
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
