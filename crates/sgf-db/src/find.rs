//! Queries: game-information filters plus an optional position or
//! pattern, over one database or several (shards) at once; duplicates;
//! the hit games as SGF.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use rusqlite::params_from_iter;
use serde::Serialize;
use sgf_core::Color;

use crate::filter::Filter;
use crate::pattern::Pattern;
use crate::search::{Compiled, RawHit, Scratch, SearchOptions, point_name};
use crate::store::{Database, DbError, Index, about};

/// A query.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Query {
    /// Which games.
    pub filter: Filter,
    /// The position or pattern; without one every game passing the filter is a hit.
    pub pattern: Option<Pattern>,
    /// How the pattern is searched.
    pub options: SearchOptions,
    /// At most this many hits are listed (all are counted).
    pub limit: Option<usize>,
}

/// A hit: a game and where the pattern stands in it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// The file (for an archive member: the archive).
    pub path: String,
    /// The member of the archive, if the game is in one.
    pub member: Option<String>,
    /// The game's index in its file, from 0.
    pub game: u32,
    /// Moves played on the line when the pattern stands (0 without a pattern).
    #[serde(rename = "move")]
    pub move_number: u32,
    /// The node in file order (root 0), as `qipu position --node` counts.
    pub node: u32,
    /// Whether the hit is in a variation.
    pub variation: bool,
    /// Black.
    pub black: Option<String>,
    /// White.
    pub white: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// The result.
    pub result: Option<String>,
    /// The symmetry that maps the pattern onto the game (0 identity).
    pub symmetry: u8,
    /// Whether colours are exchanged.
    pub swapped: bool,
    /// The next move in the pattern's area, in the pattern's coordinates
    /// and colours (`"B pd"`), if any.
    pub continuation: Option<String>,
    /// The game's row id in its database.
    pub id: i64,
    /// Which database: its index in the list given to [`find_all`] (the
    /// first place of a database given twice).
    pub db: usize,
}

/// A continuation: a move played next in the pattern's area, with counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Continuation {
    /// The point, in the pattern's coordinates (`pd`).
    #[serde(rename = "move")]
    pub point: String,
    /// Who played it, in the pattern's colours.
    pub color: &'static str,
    /// How often.
    pub count: u64,
    /// How often Black (in the pattern's colours) won those games.
    pub black_wins: u64,
    /// How often White won.
    pub white_wins: u64,
}

/// The answer to a query.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FindResult {
    /// Number of hits.
    pub total: u64,
    /// Number of games with a hit.
    pub games: u64,
    /// The hits (at most the query's limit), in database and file order.
    pub hits: Vec<Hit>,
    /// The continuations, most played first.
    pub continuations: Vec<Continuation>,
}

type Conts = HashMap<(Color, u8, u8), (u64, u64, u64)>;

/// What a share of the games gave: counts and continuations for every
/// hit, the hits themselves only up to the limit (so a pattern found
/// millions of times does not fill the memory).
#[derive(Default)]
struct Part {
    total: u64,
    games: u64,
    conts: Conts,
    kept: Vec<(usize, Vec<RawHit>)>,
    kept_hits: usize,
}

fn filtered(db: &Database, idx: &Index, f: &Filter) -> Result<Option<Vec<bool>>, DbError> {
    if f.is_empty() {
        return Ok(None);
    }
    let (cond, params) = f.to_sql().map_err(DbError::Usage)?;
    let mut st = db
        .connection()
        .prepare(&format!("SELECT g.id FROM games g WHERE {cond}"))?;
    let ids: Vec<i64> = st
        .query_map(params_from_iter(params), |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let pos: HashMap<i64, usize> = idx
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id, i))
        .collect();
    let mut keep = vec![false; idx.games.len()];
    for id in ids {
        if let Some(&i) = pos.get(&id) {
            keep[i] = true;
        }
    }
    Ok(Some(keep))
}

fn count(idx: &Index, game: usize, hits: &[RawHit], part: &mut Part) {
    let w = idx.games[game].winner;
    part.games += 1;
    for h in hits {
        part.total += 1;
        if let Some(k) = h.continuation {
            let e = part.conts.entry(k).or_default();
            e.0 += 1;
            // The winner in the pattern's colours.
            match (w, h.swapped) {
                (1, false) | (2, true) => e.1 += 1,
                (2, false) | (1, true) => e.2 += 1,
                _ => {}
            }
        }
    }
}

fn search_index(idx: &Index, c: Option<&Compiled>, keep: Option<&[bool]>, limit: usize) -> Part {
    let n = idx.games.len();
    let pass = |i: usize| keep.is_none_or(|k| k[i]);
    let whole = RawHit {
        move_number: 0,
        node: 0,
        variation: false,
        symmetry: 0,
        swapped: false,
        at: (0, 0),
        continuation: None,
    };
    let games: Vec<usize> = (0..n).filter(|&i| pass(i)).collect();
    let parts: Vec<Part> = games
        .par_chunks(256)
        .map_init(Scratch::default, |s, chunk| {
            let mut part = Part::default();
            let mut buf = Vec::new();
            for &i in chunk {
                buf.clear();
                match c {
                    Some(c) => c.search_game(&idx.view(&idx.games[i]), s, &mut buf),
                    None => buf.push(whole.clone()),
                }
                if buf.is_empty() {
                    continue;
                }
                count(idx, i, &buf, &mut part);
                if part.kept_hits < limit {
                    part.kept_hits += buf.len();
                    part.kept.push((i, std::mem::take(&mut buf)));
                }
            }
            part
        })
        .collect();
    let mut all = Part::default();
    for p in parts {
        all.total += p.total;
        all.games += p.games;
        for (k, v) in p.conts {
            let e = all.conts.entry(k).or_default();
            e.0 += v.0;
            e.1 += v.1;
            e.2 += v.2;
        }
        if all.kept_hits < limit {
            all.kept_hits += p.kept_hits;
            all.kept.extend(p.kept);
        }
    }
    all
}

/// The key that tells two names of one file apart from two files: its
/// canonical path (the path as given when it has none).
pub(crate) fn same_file_key(p: &Path) -> std::path::PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// One database's share of [`find_all`].
fn find_in(
    db: &Database,
    dbi: usize,
    q: &Query,
    compiled: Option<&Compiled>,
    limit: usize,
    res: &mut FindResult,
    conts: &mut Conts,
) -> Result<(), DbError> {
    let idx = db.loaded()?;
    let keep = filtered(db, &idx, &q.filter)?;
    let part = search_index(
        &idx,
        compiled,
        keep.as_deref(),
        limit - res.hits.len().min(limit),
    );
    res.total += part.total;
    res.games += part.games;
    for (k, v) in part.conts {
        let e = conts.entry(k).or_default();
        e.0 += v.0;
        e.1 += v.1;
        e.2 += v.2;
    }
    let mut info = db
        .connection()
        .prepare_cached("SELECT black, white, date, result FROM games WHERE id = ?1")?;
    for (gi, hits) in part.kept {
        if res.hits.len() >= limit {
            break;
        }
        let g = &idx.games[gi];
        type Info = (
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let (black, white, date, result): Info =
            info.query_row([g.id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        let f = &idx.files[g.file as usize];
        for h in hits {
            if res.hits.len() >= limit {
                break;
            }
            res.hits.push(Hit {
                path: f.path.clone(),
                member: f.member.clone(),
                game: g.game,
                move_number: h.move_number,
                node: h.node,
                variation: h.variation,
                black: black.clone(),
                white: white.clone(),
                date: date.clone(),
                result: result.clone(),
                symmetry: h.symmetry,
                swapped: h.swapped,
                continuation: h
                    .continuation
                    .map(|(c, x, y)| format!("{} {}", c.as_str(), point_name(x, y))),
                id: g.id,
                db: dbi,
            });
        }
    }
    Ok(())
}

impl Query {
    /// Checks that every part of the query has an effect: the search
    /// options (anywhere, colours swapped, who is to play, the move range,
    /// variations) need a pattern or a position, the move range must not
    /// be empty, and the filter must be valid ([`Filter::to_sql`]).
    ///
    /// # Errors
    /// [`DbError::Usage`], saying what is wrong.
    pub fn check(&self) -> Result<(), DbError> {
        if self.pattern.is_none() && self.options != SearchOptions::default() {
            return Err(DbError::Usage(
                "the search options (anywhere, colours swapped, who is to play, a move range, variations) need a pattern or a position"
                    .into(),
            ));
        }
        if let (Some(a), Some(b)) = (self.options.min_move, self.options.max_move)
            && a > b
        {
            return Err(DbError::Usage(format!(
                "the move range {a}..{b} is empty (the first move is after the last)"
            )));
        }
        self.filter.to_sql().map_err(DbError::Usage)?;
        Ok(())
    }
}

/// Runs a query over several databases at once (shards), as if they were
/// one: hits in the order of the databases, continuations added up. A
/// database given twice (the same file, by its canonical path) is
/// searched once; [`Hit::db`] is the index of its first place in `dbs`.
///
/// # Errors
/// When the query is not valid ([`Query::check`]) or a database cannot be
/// read (the message names it).
pub fn find_all(dbs: &[&Database], q: &Query) -> Result<FindResult, DbError> {
    q.check()?;
    let compiled = q.pattern.as_ref().map(|p| Compiled::new(p, &q.options));
    let mut res = FindResult::default();
    let mut conts: Conts = HashMap::new();
    let limit = q.limit.unwrap_or(usize::MAX);
    let mut searched = std::collections::HashSet::new();
    for (dbi, db) in dbs.iter().enumerate() {
        if !searched.insert(same_file_key(db.path())) {
            continue;
        }
        find_in(db, dbi, q, compiled.as_ref(), limit, &mut res, &mut conts)
            .map_err(|e| about(db.path(), e))?;
    }
    let mut cs: Vec<Continuation> = conts
        .into_iter()
        .map(|((c, x, y), (n, b, w))| Continuation {
            point: point_name(x, y),
            color: c.as_str(),
            count: n,
            black_wins: b,
            white_wins: w,
        })
        .collect();
    cs.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.color.cmp(b.color))
            .then_with(|| a.point.cmp(&b.point))
    });
    res.continuations = cs;
    Ok(res)
}

impl Database {
    /// Runs a query over this database.
    ///
    /// # Errors
    /// See [`find_all`].
    pub fn find(&self, q: &Query) -> Result<FindResult, DbError> {
        find_all(&[self], q)
    }

    /// Groups of duplicate games: the same Dyer signature (main-line moves
    /// 20, 40, 60, 31, 51 and 71, least of the symmetric forms) and the same
    /// final position (up to symmetry). Games without moves are left out.
    ///
    /// # Errors
    /// When the database cannot be read (the message names it).
    pub fn dups(&self) -> Result<Vec<DupGroup>, DbError> {
        self.dups_inner().map_err(|e| about(self.path(), e))
    }

    fn dups_inner(&self) -> Result<Vec<DupGroup>, DbError> {
        let mut st = self.connection().prepare(
            "SELECT g.dyer, g.final_hash, g.id, s.path, f.member, g.game, g.black, g.white, g.date, g.result, g.moves
             FROM games g JOIN files f ON g.file_id = f.id JOIN sources s ON f.source_id = s.id
             WHERE g.moves > 0 AND (g.dyer, g.final_hash) IN
               (SELECT dyer, final_hash FROM games WHERE moves > 0 GROUP BY dyer, final_hash HAVING count(*) > 1)
             ORDER BY g.dyer, g.final_hash, s.path, f.member, g.game",
        )?;
        let mut groups: Vec<DupGroup> = Vec::new();
        let mut last: Option<(String, i64)> = None;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let k: (String, i64) = (r.get(0)?, r.get(1)?);
            let g = DupGame {
                id: r.get(2)?,
                path: r.get(3)?,
                member: r.get(4)?,
                game: r.get(5)?,
                black: r.get(6)?,
                white: r.get(7)?,
                date: r.get(8)?,
                result: r.get(9)?,
                moves: r.get(10)?,
            };
            if last.as_ref() != Some(&k) {
                groups.push(DupGroup {
                    signature: k.0.clone(),
                    games: Vec::new(),
                });
                last = Some(k);
            }
            groups.last_mut().expect("pushed").games.push(g);
        }
        Ok(groups)
    }

    /// Number of games.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn game_count(&self) -> Result<u64, DbError> {
        let n = self
            .connection()
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map_err(|e| about(self.path(), e.into()))?;
        Ok(n as u64)
    }
}

/// A group of duplicates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DupGroup {
    /// The Dyer signature they share.
    pub signature: String,
    /// The games, in path order.
    pub games: Vec<DupGame>,
}

/// A game of a duplicate group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DupGame {
    /// The file.
    pub path: String,
    /// The archive member.
    pub member: Option<String>,
    /// Index in the file.
    pub game: u32,
    /// Black.
    pub black: Option<String>,
    /// White.
    pub white: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// The result.
    pub result: Option<String>,
    /// Main-line moves.
    pub moves: u32,
    /// Row id.
    pub id: i64,
}

/// What [`write_hits`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Written {
    /// Games written.
    pub games: usize,
    /// Hit games that could not be written: their file (or archive) is
    /// gone, changed since it was indexed, or cannot be read.
    pub missing: usize,
    /// Why, one line each, naming the file.
    pub problems: Vec<String>,
}

/// Reads the games of `hits` from their files (or archives) and writes
/// them as one SGF collection in canonical FF\[4\] UTF-8 form. Returns the
/// problems (a file gone or changed), one line each; those games are left out.
///
/// # Errors
/// When writing fails.
pub fn write_hits_sgf(
    dbs: &[&Database],
    hits: &[Hit],
    out: &mut dyn Write,
) -> Result<Vec<String>, DbError> {
    Ok(write_hits(dbs, hits, out)?.problems)
}

/// Reads the games of `hits` from their files (or archives) and writes
/// them as one SGF collection in canonical FF\[4\] UTF-8 form, each game
/// once. A game whose file is gone, cannot be read (only regular files
/// are, at most [`sgf_formats::input::MAX_INPUT_BYTES`]), or changed since
/// it was indexed (its size or modification time differ: the game there
/// may be another one) is left out and counted in [`Written::missing`],
/// with one line per file in [`Written::problems`].
///
/// # Errors
/// When writing fails, or a database cannot be read.
pub fn write_hits(
    dbs: &[&Database],
    hits: &[Hit],
    out: &mut dyn Write,
) -> Result<Written, DbError> {
    use sgf_formats::input::{MAX_INPUT_BYTES, check_regular, read_file};
    let mut w = Written::default();
    let mut written: std::collections::HashSet<(usize, i64)> = Default::default();
    // Each file (or archive) is read once, however many of its games hit:
    // (canonical path, size and modification time when indexed, hits).
    type Source<'h> = (String, i64, i64, Vec<&'h Hit>);
    let mut by_source: Vec<Source<'_>> = Vec::new();
    for h in hits {
        if !written.insert((h.db, h.id)) {
            continue;
        }
        let db = dbs
            .get(h.db)
            .ok_or_else(|| DbError::Usage("hit of an unknown database".into()))?;
        let (abs, size, mtime): (String, i64, i64) = db
            .connection()
            .query_row(
                "SELECT s.abs_path, s.size, s.mtime FROM games g JOIN files f ON g.file_id = f.id JOIN sources s ON f.source_id = s.id WHERE g.id = ?1",
                [h.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(|e| about(db.path(), e.into()))?;
        match by_source.iter_mut().find(|s| s.0 == abs) {
            Some(s) => s.3.push(h),
            None => by_source.push((abs, size, mtime, vec![h])),
        }
    }
    let opts = sgf_core::WriteOptions::default();
    for (abs, size, mtime, hs) in by_source {
        let path = Path::new(&abs);
        let shown = &hs[0].path;
        let lost = |why: String, w: &mut Written| {
            w.missing += hs.len();
            w.problems.push(format!(
                "{shown}: {why}; {} hit game(s) not written",
                hs.len()
            ));
        };
        let meta = match check_regular(path) {
            Ok(m) => m,
            Err(e) => {
                lost(e.to_string(), &mut w);
                continue;
            }
        };
        if meta.len() as i64 != size || crate::store::mtime_of(&meta) != mtime {
            lost("changed since it was indexed (index again)".into(), &mut w);
            continue;
        }
        let mut members: HashMap<Option<String>, Vec<u8>> = HashMap::new();
        if hs.iter().any(|h| h.member.is_some()) {
            let wanted: std::collections::HashSet<&str> =
                hs.iter().filter_map(|h| h.member.as_deref()).collect();
            let r = sgf_formats::archive::read_members(
                path,
                &sgf_formats::archive::ArchiveOptions::default(),
                &mut |m| {
                    if let Ok(m) = m
                        && wanted.contains(m.name.as_str())
                    {
                        members.insert(Some(m.name), m.bytes);
                    }
                },
            );
            if let Err(e) = r {
                w.problems.push(e.to_string());
            }
        } else {
            match read_file(path, MAX_INPUT_BYTES) {
                Ok(b) => {
                    members.insert(None, b);
                }
                Err(e) => {
                    lost(e.to_string(), &mut w);
                    continue;
                }
            }
        }
        let mut docs: HashMap<Option<String>, sgf_core::Document> = HashMap::new();
        for h in hs {
            if !docs.contains_key(&h.member) {
                let Some(bytes) = members.get(&h.member) else {
                    w.missing += 1;
                    w.problems.push(format!(
                        "{}: {} is gone (index again)",
                        h.path,
                        h.member.as_deref().unwrap_or("the file")
                    ));
                    continue;
                };
                let name = h.member.as_deref().map_or(path, Path::new);
                match sgf_formats::read_any(bytes, Some(name)) {
                    Ok(l) => {
                        docs.insert(h.member.clone(), l.parsed.document);
                    }
                    Err(e) => {
                        w.missing += 1;
                        w.problems.push(format!("{}: {e}", h.path));
                        continue;
                    }
                }
            }
            let doc = &docs[&h.member];
            if (h.game as usize) >= doc.game_count() {
                w.missing += 1;
                w.problems.push(format!(
                    "{}: game {} is gone (the file changed; index again)",
                    h.path,
                    h.game + 1
                ));
                continue;
            }
            let bytes = sgf_core::game_to_canonical_bytes(doc, h.game as usize, &opts);
            out.write_all(&bytes)
                .and_then(|_| out.write_all(b"\n"))
                .map_err(|e| DbError::Io(e.to_string()))?;
            w.games += 1;
        }
    }
    Ok(w)
}

/// The full-board position of a record: after `mv` moves of the main line,
/// or at node `node` in file order, or at the end of the main line; game
/// `game` (from 0) of the file.
///
/// # Errors
/// When the record cannot be read or has no such game, move or node.
pub fn position_of(
    bytes: &[u8],
    path_hint: Option<&Path>,
    game: usize,
    mv: Option<usize>,
    node: Option<usize>,
) -> Result<Pattern, DbError> {
    let loaded =
        sgf_formats::read_any(bytes, path_hint).map_err(|e| DbError::Usage(e.to_string()))?;
    let doc = &loaded.parsed.document;
    let Some(g) = doc.game(game) else {
        return Err(DbError::Usage(format!(
            "the position file has {} game(s); there is no game {}",
            doc.game_count(),
            game + 1
        )));
    };
    let mut c = sgf_go::Cursor::new(doc, game);
    match (mv, node) {
        (Some(n), _) => {
            let mut played = 0;
            while played < n {
                if !c.advance(doc) {
                    return Err(DbError::Usage(format!(
                        "the main line has only {played} move(s)"
                    )));
                }
                if !c.report().moves.is_empty() {
                    played += 1;
                }
            }
        }
        (None, Some(k)) => {
            let Some(target) = g.nodes().nth(k) else {
                return Err(DbError::Usage(format!("the game has no node {k}")));
            };
            c.seek(doc, target.id());
        }
        (None, None) => c.advance_to_end(doc),
    }
    let size = c.size();
    Pattern::full_board(c.position().board.cells(), size.cols, size.rows)
        .map_err(|e| DbError::Usage(e.to_string()))
}
