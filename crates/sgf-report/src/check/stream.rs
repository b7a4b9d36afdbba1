//! A part's diagnostics when every one is shown and there are too many to
//! hold (a problem on every move): the games' are counted as they are
//! checked, not held, and made again, in order, as the report is written.
//!
//! A report shows a part's diagnostics as a stable sort by span of what
//! the reader found, then each game's checks ([`GAME_CHECKS`], game after
//! game), then the rules about the file. Each check finds its problems in
//! the order of the file, or nearly, so each is made again by a thread of
//! its own, put in order through a small buffer, and the runs are merged
//! as they come. What comes too late for the buffer (a problem of the
//! root found once every move is played) is worked out as the diagnostics
//! are counted: a few such are made first and put in their place; a run
//! further out of order than that is made again a window at a time, each
//! window the next so many in order. Either way the order is the sort's,
//! exactly.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering as Atomic};
use std::sync::mpsc;

use rayon::prelude::*;
use sgf_core::diag::Sink;
use sgf_core::{Code, Diagnostic, Document, Severity};
use sgf_go::check::GAME_CHECKS;

/// What a code filter looks like: whether diagnostics of a code are shown.
pub(super) type Shown<'a> = &'a (dyn Fn(Code) -> bool + Sync);

/// How many of a part's diagnostics are held, unless asked otherwise: one
/// per kilobyte of the part (a quarter of its size again in memory), at
/// least 256. It is also the buffer, or the window, of a run made again
/// out of order.
pub(super) fn held_limit(len: usize, asked: Option<usize>) -> usize {
    asked.unwrap_or((len / 1024).max(256)).max(1)
}

/// A span's start and end: the order a report shows diagnostics in.
type Key = (u32, u32);

fn key(d: &Diagnostic) -> Key {
    (d.span.start, d.span.end)
}

/// Whether a list comes in order through a buffer of `size`: each arrival
/// goes into the buffer, and when it is full its least goes out. What
/// arrives less than what has gone out already is late: at most `size`
/// of them are noted (by their rank in the list), and the list does not
/// fit when there are more. Only the spans are held.
struct Reorder {
    buffer: BinaryHeap<std::cmp::Reverse<Key>>,
    size: usize,
    out: Option<Key>,
    /// Arrivals so far.
    rank: u64,
    late: Vec<u64>,
    fits: bool,
    /// The last arrival not late, and whether those came in order by
    /// themselves (then they need no buffer).
    last: Option<Key>,
    in_order: bool,
    /// The last arrival, and the ranks where a run in order begins anew
    /// (at most [`MAX_RUNS`] and one are noted).
    prev: Option<Key>,
    runs: Vec<u64>,
}

/// Runs in order a check's diagnostics may come in and still be merged as
/// they come, each made again on a thread of its own (a check that walks
/// the tree twice), rather than a window at a time.
const MAX_RUNS: usize = 16;

impl Reorder {
    fn add(&mut self, k: Key) {
        let rank = self.rank;
        self.rank += 1;
        if self.prev.is_some_and(|p| k < p) && self.runs.len() <= MAX_RUNS {
            self.runs.push(rank);
        }
        self.prev = Some(k);
        if !self.fits {
            return;
        }
        if self.out.is_some_and(|o| k < o) {
            if self.late.len() < self.size {
                self.late.push(rank);
            } else {
                self.fits = false;
                self.buffer = BinaryHeap::new();
                self.late = Vec::new();
            }
            return;
        }
        self.in_order &= self.last.is_none_or(|l| l <= k);
        self.last = Some(k);
        self.buffer.push(std::cmp::Reverse(k));
        if self.buffer.len() > self.size {
            self.out = self.buffer.pop().map(|r| r.0);
        }
    }

    /// The list is over (the buffer's last go out in order): the buffer
    /// is let go, so that a part of many games holds one at a time.
    fn end(&mut self) {
        self.buffer = BinaryHeap::new();
    }
}

/// One check's diagnostics of one game, shown ones only: held while the
/// part's held stay within their limit, else counted, with whether they
/// come in order through a buffer of `limit` ([`Reorder`]: worked out
/// only once they are not held, so that a part that holds them pays
/// nothing for it).
struct Track<'a> {
    held: Vec<Diagnostic>,
    /// Diagnostics held by the whole part so far, and how many may be.
    budget: &'a AtomicUsize,
    limit: usize,
    /// Not held: counted, and their order followed.
    over: Option<Reorder>,
    shown: Shown<'a>,
    errors: usize,
    warnings: usize,
    /// The least and greatest span, and the last.
    least: Option<Key>,
    most: Option<Key>,
    last: Option<Key>,
    /// They came in order.
    sorted: bool,
}

impl Track<'_> {
    /// Counts what it holds, and no longer holds anything.
    fn let_go(&mut self) -> &mut Reorder {
        let mut r = Reorder {
            buffer: BinaryHeap::new(),
            size: self.limit,
            out: None,
            rank: 0,
            late: Vec::new(),
            fits: true,
            last: None,
            in_order: true,
            prev: None,
            runs: Vec::new(),
        };
        for d in std::mem::take(&mut self.held) {
            r.add(key(&d));
        }
        self.over.insert(r)
    }
}

impl Sink for Track<'_> {
    fn push(&mut self, d: Diagnostic) {
        if !(self.shown)(d.code) {
            return;
        }
        match d.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => {}
        }
        let k = key(&d);
        self.least = Some(self.least.map_or(k, |l| l.min(k)));
        self.most = Some(self.most.map_or(k, |m| m.max(k)));
        self.sorted &= self.last.is_none_or(|l| l <= k);
        self.last = Some(k);
        if let Some(r) = &mut self.over {
            r.add(k);
            return;
        }
        if self.budget.fetch_add(1, Atomic::Relaxed) >= self.limit {
            self.let_go().add(k);
            return;
        }
        self.held.push(d);
    }
}

/// What the games of a part give when every diagnostic is shown.
pub(super) enum Games {
    /// Held, in the order the checks made them, game by game.
    Held(Vec<Diagnostic>),
    /// Too many to hold: counted, made again when the report is written.
    Counted(Counted),
}

/// The diagnostics of a part's games, counted and not held.
#[derive(Clone, Debug)]
pub(super) struct Counted {
    /// How each check ([`GAME_CHECKS`]) found them, game after game.
    order: [Order; GAME_CHECKS.len()],
    /// Errors and warnings among them (as found: before `-W`).
    pub(super) errors: usize,
    pub(super) warnings: usize,
    /// How many the buffer holds, or a window where a check found them
    /// further out of order.
    window: usize,
}

/// Checks the games of `doc` (side by side), keeping the diagnostics that
/// `shown` keeps: all of them when there are at most `limit`, else only
/// their counts (memory holds at most `limit` at any time).
pub(super) fn check_games(doc: &Document, shown: Shown<'_>, limit: usize) -> Games {
    let budget = AtomicUsize::new(0);
    let per_game: Vec<[Track<'_>; GAME_CHECKS.len()]> = (0..doc.game_count())
        .into_par_iter()
        .map(|gi| {
            GAME_CHECKS.map(|run| {
                let mut t = Track {
                    held: Vec::new(),
                    budget: &budget,
                    limit,
                    over: None,
                    shown,
                    errors: 0,
                    warnings: 0,
                    least: None,
                    most: None,
                    last: None,
                    sorted: true,
                };
                run(doc, gi, &mut t);
                if let Some(r) = &mut t.over {
                    r.end();
                }
                t
            })
        })
        .collect();
    if !per_game.iter().flatten().any(|t| t.over.is_some()) {
        let mut all = Vec::new();
        for t in per_game.into_iter().flatten() {
            if all.is_empty() {
                all = t.held;
            } else {
                all.extend(t.held);
            }
        }
        return Games::Held(all);
    }
    let mut per_game = per_game;
    let mut counted = Counted {
        order: std::array::from_fn(|_| Order::Sorted),
        errors: 0,
        warnings: 0,
        window: limit,
    };
    for (c, order) in counted.order.iter_mut().enumerate() {
        // Each game's in order (through the buffer, emptied at the end of
        // a game, with its late ones), and each game's after the game's
        // before it.
        let mut most = None;
        let (mut sorted, mut nearly, mut buffered) = (true, true, false);
        let mut late = Vec::new();
        // Each game's runs in order: game, first rank, rank past the last.
        let mut runs = Vec::new();
        for (gi, t) in per_game.iter_mut().map(|g| &mut g[c]).enumerate() {
            let after = t.least.zip(most).is_none_or(|(l, m)| l >= m);
            sorted &= t.sorted && after;
            most = t.most.or(most);
            let r = match t.over.as_mut() {
                Some(r) => r,
                None => t.let_go(),
            };
            r.end();
            if !r.fits || !after || late.len() + r.late.len() > limit {
                nearly = false;
            }
            if nearly {
                buffered |= !r.in_order;
                late.extend(r.late.drain(..).map(|rank| (gi as u32, rank)));
            }
            if r.rank > 0 && runs.len() <= MAX_RUNS {
                let starts = std::iter::once(0).chain(r.runs.iter().copied());
                let ends = r.runs.iter().copied().chain(std::iter::once(r.rank));
                runs.extend(starts.zip(ends).map(|(a, b)| (gi as u32, a, b)));
            }
        }
        *order = if sorted {
            Order::Sorted
        } else if nearly {
            Order::Nearly(late, buffered)
        } else if runs.len() <= MAX_RUNS {
            Order::Runs(runs)
        } else {
            Order::Not
        };
    }
    for t in per_game.iter().flatten() {
        counted.errors += t.errors;
        counted.warnings += t.warnings;
    }
    Games::Counted(counted)
}

/// How a check found a part's diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Order {
    /// In order: they are sent as they come.
    Sorted,
    /// In order but for these late ones (game, rank in the game's), made
    /// first and put in their place, and for what a buffer of the window
    /// puts right (when it is needed: true).
    Nearly(Vec<(u32, u64)>, bool),
    /// In a few runs in order (game, first rank, rank past the last), each
    /// made again on its own and merged.
    Runs(Vec<(u32, u64, u64)>),
    /// Further out of order: made again a window at a time.
    Not,
}

/// A [`Sink`] that hands each diagnostic to a closure.
struct Each<F>(F);

impl<F: FnMut(Diagnostic)> Sink for Each<F> {
    fn push(&mut self, d: Diagnostic) {
        (self.0)(d);
    }
}

/// Diagnostics sent to the merge this many at a time.
const BATCH: usize = 256;

/// One check's diagnostics made again, each with its place in the sort,
/// sent in order.
struct Out {
    tx: mpsc::SyncSender<Vec<Ranked>>,
    batch: Vec<Ranked>,
    /// The merge stopped listening.
    gone: bool,
}

impl Out {
    fn send(&mut self, item: Ranked) {
        if self.gone {
            return;
        }
        self.batch.push(item);
        if self.batch.len() >= BATCH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
        if !batch.is_empty() && self.tx.send(batch).is_err() {
            self.gone = true;
        }
    }
}

/// A diagnostic made again out of order, by its place in the sort: span,
/// game, and its rank among those the check made.
struct Ranked((u32, u32, u32, u64), Diagnostic);

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

/// Sends a check's diagnostics made again in order, those made first
/// (the late ones, in order) put in their place.
struct Emit {
    out: Out,
    first: std::iter::Peekable<std::vec::IntoIter<Ranked>>,
}

impl Emit {
    fn send(&mut self, r: Ranked) {
        while let Some(f) = self.first.next_if(|f| f.0 < r.0) {
            self.out.send(f);
        }
        self.out.send(r);
    }

    fn finish(mut self) {
        for f in self.first.by_ref() {
            self.out.send(f);
        }
        self.out.flush();
    }
}

/// Check `run` on every game of `doc`, each diagnostic `shown` keeps
/// handed to `f` with its place in the sort: span, game, and rank among
/// the game's.
fn each_ranked(
    doc: &Document,
    run: fn(&Document, usize, &mut dyn Sink),
    shown: Shown<'_>,
    f: impl FnMut(Ranked),
) {
    each_ranked_in(doc, 0..doc.game_count(), run, shown, f);
}

/// [`each_ranked`] on the games `games`.
fn each_ranked_in(
    doc: &Document,
    games: std::ops::Range<usize>,
    run: fn(&Document, usize, &mut dyn Sink),
    shown: Shown<'_>,
    mut f: impl FnMut(Ranked),
) {
    for gi in games {
        let mut rank = 0u64;
        run(
            doc,
            gi,
            &mut Each(|d: Diagnostic| {
                if shown(d.code) {
                    f(Ranked((d.span.start, d.span.end, gi as u32, rank), d));
                    rank += 1;
                }
            }),
        );
    }
}

/// Makes the diagnostics of check `run` on every game of `doc` again and
/// sends them in order ([`Order`]): as they come, through a buffer of
/// `window` ([`Reorder`]) with the late ones made first, or a window at a
/// time, each pass keeping the next `window` of the sort.
fn produce(
    doc: &Document,
    run: fn(&Document, usize, &mut dyn Sink),
    order: &Order,
    window: usize,
    shown: Shown<'_>,
    mut out: Out,
) {
    let (late, buffered): (&[(u32, u64)], bool) = match order {
        Order::Nearly(late, buffered) => (late, *buffered),
        _ => (&[], false),
    };
    let is_late = |r: &Ranked| late.binary_search(&(r.0.2, r.0.3)).is_ok();
    if matches!(order, Order::Sorted | Order::Nearly(..)) {
        let mut first = Vec::new();
        if !late.is_empty() {
            each_ranked(doc, run, shown, |r| {
                if is_late(&r) {
                    first.push(r);
                }
            });
            first.sort();
        }
        let window = if buffered { window } else { 0 };
        let mut emit = Emit {
            out,
            first: first.into_iter().peekable(),
        };
        let mut buffer: BinaryHeap<std::cmp::Reverse<Ranked>> = BinaryHeap::new();
        let mut game = 0;
        each_ranked(doc, run, shown, |r| {
            if r.0.2 != game {
                // The buffer is emptied at the end of each game.
                while let Some(std::cmp::Reverse(b)) = buffer.pop() {
                    emit.send(b);
                }
                game = r.0.2;
            }
            if is_late(&r) {
                return;
            }
            buffer.push(std::cmp::Reverse(r));
            if buffer.len() > window
                && let Some(std::cmp::Reverse(b)) = buffer.pop()
            {
                emit.send(b);
            }
        });
        while let Some(std::cmp::Reverse(b)) = buffer.pop() {
            emit.send(b);
        }
        emit.finish();
        return;
    }
    let mut sent: Option<(u32, u32, u32, u64)> = None;
    loop {
        let mut heap: BinaryHeap<Ranked> = BinaryHeap::new();
        each_ranked(doc, run, shown, |r| {
            if sent.is_some_and(|s| r.0 <= s) {
                return;
            }
            if heap.len() < window {
                heap.push(r);
            } else if heap.peek().is_some_and(|top| r < *top) {
                heap.pop();
                heap.push(r);
            }
        });
        let full = heap.len() >= window;
        let next = heap.into_sorted_vec();
        if let Some(last) = next.last() {
            sent = Some(last.0);
        }
        for r in next {
            out.send(r);
        }
        if !full || out.gone {
            break;
        }
    }
    out.flush();
}

/// Sends the diagnostics of one run in order of check `run` (see
/// [`Order::Runs`]): its game's, of ranks `from..to`, as they come.
fn produce_run(
    doc: &Document,
    run: fn(&Document, usize, &mut dyn Sink),
    (gi, from, to): (u32, u64, u64),
    shown: Shown<'_>,
    mut out: Out,
) {
    let gi = gi as usize;
    each_ranked_in(doc, gi..gi + 1, run, shown, |r| {
        if (from..to).contains(&r.0.3) {
            out.send(r);
        }
    });
    out.flush();
}

/// One check's diagnostics (or one run of them) as the merge reads them:
/// sent by their thread, or all made here where no thread can be started
/// (WebAssembly).
struct Pull {
    rx: Option<mpsc::Receiver<Vec<Ranked>>>,
    batch: std::vec::IntoIter<Ranked>,
    head: Option<Ranked>,
}

impl Pull {
    fn peek(&mut self) -> Option<&Ranked> {
        if self.head.is_none() {
            self.head = self.batch.next();
            while self.head.is_none() {
                let Some(Ok(b)) = self.rx.as_ref().map(mpsc::Receiver::recv) else {
                    break;
                };
                self.batch = b.into_iter();
                self.head = self.batch.next();
            }
        }
        self.head.as_ref()
    }

    /// Check `run`'s diagnostics all made at once and put in order.
    fn held(doc: &Document, run: fn(&Document, usize, &mut dyn Sink), shown: Shown<'_>) -> Pull {
        let mut all = Vec::new();
        each_ranked(doc, run, shown, |r| all.push(r));
        all.sort();
        Pull {
            rx: None,
            batch: all.into_iter(),
            head: None,
        }
    }
}

/// A diagnostic's place in the sort: span, then before (0), the games
/// (1: game by game, check by check, rank in the check), after (2).
type Place = (Key, u8, u32, usize, u64);

/// Where the next diagnostic of a merge comes from.
enum From {
    Before,
    Check(usize),
    After,
}

/// Calls `f` on a part's diagnostics in the order a report shows them:
/// those of the games of `doc`, made again ([`Counted`]), merged with
/// those held `before` them (the reader's: first on equal spans) and
/// `after` them (the rules about the file: last), both in order already.
/// The games' warnings are errors with `warnings_as_errors`.
pub(super) fn merge_counted(
    doc: &Document,
    counted: &Counted,
    shown: Shown<'_>,
    warnings_as_errors: bool,
    held: (&[Diagnostic], &[Diagnostic]),
    f: &mut dyn FnMut(&Diagnostic),
) {
    // No threads in WebAssembly: each check's are made at once there.
    let threads = !cfg!(target_family = "wasm");
    merge_with(doc, counted, shown, warnings_as_errors, held, threads, f);
}

/// [`merge_counted`], its checks on threads of their own or not.
fn merge_with(
    doc: &Document,
    counted: &Counted,
    shown: Shown<'_>,
    warnings_as_errors: bool,
    (before, after): (&[Diagnostic], &[Diagnostic]),
    threads: bool,
    f: &mut dyn FnMut(&Diagnostic),
) {
    std::thread::scope(|s| {
        // Each check's diagnostics, or each of its runs, with the check.
        let mut pulls: Vec<(usize, Pull)> = Vec::new();
        for (c, (run, order)) in GAME_CHECKS.into_iter().zip(&counted.order).enumerate() {
            let one = [(0, 0, 0)];
            let runs = match order {
                Order::Runs(runs) => &runs[..],
                _ => &one[..],
            };
            let mut mine = Vec::new();
            for &r in runs {
                if !threads {
                    break;
                }
                // Two batches ahead: the checks wait for the writer.
                let (tx, rx) = mpsc::sync_channel(2);
                let out = Out {
                    tx,
                    batch: Vec::with_capacity(BATCH),
                    gone: false,
                };
                let window = counted.window;
                let spawned = std::thread::Builder::new().spawn_scoped(s, move || match order {
                    Order::Runs(_) => produce_run(doc, run, r, shown, out),
                    _ => produce(doc, run, order, window, shown, out),
                });
                if spawned.is_err() {
                    break;
                }
                mine.push(Pull {
                    rx: Some(rx),
                    batch: Vec::new().into_iter(),
                    head: None,
                });
            }
            if mine.len() < runs.len() {
                // A thread that could not be started: held, not lost.
                mine = vec![Pull::held(doc, run, shown)];
            }
            pulls.extend(mine.into_iter().map(|p| (c, p)));
        }
        let (mut before, mut after) = (before.iter().peekable(), after.iter().peekable());
        loop {
            // The sort's order: span, then before, the games (game by
            // game, check by check), after.
            let mut next: Option<(Place, From)> = None;
            let mut consider = |k, from| {
                if next.as_ref().is_none_or(|(n, _)| k < *n) {
                    next = Some((k, from));
                }
            };
            if let Some(d) = before.peek() {
                consider((key(d), 0, 0, 0, 0), From::Before);
            }
            for (i, (c, p)) in pulls.iter_mut().enumerate() {
                if let Some(Ranked((_, _, gi, rank), d)) = p.peek() {
                    consider((key(d), 1, *gi, *c, *rank), From::Check(i));
                }
            }
            if let Some(d) = after.peek() {
                consider((key(d), 2, 0, 0, 0), From::After);
            }
            match next.map(|(_, from)| from) {
                None => break,
                Some(From::Before) => before.next().into_iter().for_each(&mut *f),
                Some(From::After) => after.next().into_iter().for_each(&mut *f),
                Some(From::Check(i)) => {
                    if let Some(Ranked(_, mut d)) = pulls[i].1.head.take() {
                        if warnings_as_errors && d.severity == Severity::Warning {
                            d.severity = Severity::Error;
                        }
                        f(&d);
                    }
                }
            }
        }
    });
}

impl Counted {
    /// How each check found them: sorted, nearly (with how many late), or
    /// not (for the tests to see every way is taken).
    #[cfg(test)]
    pub(super) fn orders(&self) -> Vec<(char, usize)> {
        self.order
            .iter()
            .map(|o| match o {
                Order::Sorted => ('s', 0),
                Order::Nearly(late, false) => ('l', late.len()),
                Order::Nearly(late, true) => ('n', late.len()),
                Order::Runs(runs) => ('r', runs.len().min(3)),
                Order::Not => ('x', 0),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_threads_the_diagnostics_come_the_same() {
        // Moves on a stone, a root's problem found after them (late), a
        // value checked before the moves: each way of ordering (runs at
        // one held, a buffer with late ones at three, sorted at fifty).
        let mut text = String::from("(;GM[1]FF[4]SZ[9]HA[2]");
        for i in 0..400 {
            let p = (b'a' + (i * 7 % 9) as u8) as char;
            let q = (b'a' + (i * 5 % 9) as u8) as char;
            text.push_str(&format!(
                ";{}[{p}{q}]PL[x]",
                if i % 2 == 0 { 'B' } else { 'W' }
            ));
        }
        text.push(')');
        // Two games: two late ones, more than a buffer of one takes (runs).
        let text = format!("{text}{text}");
        let doc = sgf_core::parse(text.as_bytes()).document;
        let shown = |_| true;
        for limit in [1, 3, 50] {
            let Games::Counted(c) = check_games(&doc, &shown, limit) else {
                panic!("held at {limit}");
            };
            let made = |threads| {
                let mut out = Vec::new();
                merge_with(&doc, &c, &shown, false, (&[], &[]), threads, &mut |d| {
                    out.push((d.span, d.code, d.message.clone()));
                });
                out
            };
            let with = made(true);
            assert!(with.len() > 800, "{}", with.len());
            assert!(with.is_sorted_by_key(|(s, _, _)| (s.start, s.end)));
            assert_eq!(made(false), with, "{limit}");
        }
    }
}
