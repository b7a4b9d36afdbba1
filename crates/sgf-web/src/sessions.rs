//! The records a viewer has open, and what keeps their memory bounded.
//!
//! Each record the page opens is a session. A page that goes away without
//! saying so (a killed tab, a script calling the API) leaves its sessions
//! behind, so the table puts sessions aside:
//!
//! - after a time without use ([`crate::ViewOptions::idle_timeout`],
//!   30 minutes by default), and
//! - beyond a memory budget ([`crate::ViewOptions::memory_budget`], 128 MiB
//!   by default, counted as [`Session::held_bytes`]), least recently used
//!   first.
//!
//! A session in use (a request holds it) or just opened is never put
//! aside. Putting one aside keeps what it takes to make it again, and
//! never loses unsaved work:
//!
//! - a record read from a file and not changed is dropped, and read again
//!   from its file when the page asks for it;
//! - a record with unsaved changes, or one that has no file (pasted,
//!   dropped, a database hit, a game against an engine), is written to the
//!   recovery folder ([`crate::ViewOptions::recovery_dir`]; by default a
//!   private folder in the system's temporary folder, made when first
//!   needed) in its lossless form (through [`sgf_formats::save`]). When
//!   its first save still has to keep the file as first read (`X.orig`)
//!   and the file on disk is no longer those bytes, they are kept there
//!   too (otherwise only their fingerprint). It is read back, with its
//!   unsaved changes, when the page asks for it again. Its undo history
//!   and a running engine are not kept.
//!   When it cannot be written, it stays in memory (over the budget) and
//!   the server says so on standard error.
//!
//! The page keeps its session's id throughout: any request on a session
//! put aside brings it back first, at the game and move the page showed,
//! with a note for the user (see [`Session::state`]'s `message`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use sgf_formats::save::{Fingerprint, SaveOptions, replace_file};

use crate::responses::Memory;
use crate::session::Session;

pub(crate) use crate::kept::{KeptFile, Original};

/// The start of the error of a request on a session that is not open (the
/// page closed it): the page reads its file again, or says so.
pub(crate) use crate::api::NO_SESSION;

/// The default memory budget of the open records: 128 MiB (about seven
/// 17 MB collections of 2,000 games, each kept as its bytes with a part
/// parsed; a record in use is never put aside, however large).
pub const DEFAULT_MEMORY_BUDGET: usize = 128 << 20;

/// The default time after which a record not used is put aside: 30 minutes.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Records put aside without unsaved work (a file to read again, a few
/// hundred bytes each) are remembered up to this many; the oldest are then
/// forgotten (the page reads the file again itself). Those with unsaved
/// work are never forgotten.
const MAX_REMEMBERED: usize = 1000;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The folder where records with unsaved work are kept while put aside.
struct Recovery {
    /// The folder chosen (`ViewOptions::recovery_dir`), or `None`: a
    /// private one in the temporary folder.
    chosen: Option<PathBuf>,
    /// The folder, once made.
    dir: Mutex<Option<PathBuf>>,
    serial: AtomicU64,
}

impl Recovery {
    /// The folder, made if needed (`d`: the lock on `self.dir`).
    fn dir(&self, d: &mut Option<PathBuf>) -> Result<PathBuf, String> {
        if let Some(p) = &*d {
            return Ok(p.clone());
        }
        let p = match &self.chosen {
            Some(c) => {
                std::fs::create_dir_all(c).map_err(|e| format!("{}: {e}", c.display()))?;
                c.clone()
            }
            None => {
                // A new folder of a random name, only for this user.
                let p = std::env::temp_dir().join(format!(
                    "qipu-view-unsaved-{}",
                    &crate::random_token()[..16]
                ));
                let mut b = std::fs::DirBuilder::new();
                #[cfg(unix)]
                {
                    use std::os::unix::fs::DirBuilderExt;
                    b.mode(0o700);
                }
                b.create(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                p
            }
        };
        *d = Some(p.clone());
        Ok(p)
    }

    /// Writes `bytes` as a new file of the folder, named after the record.
    fn write(&self, id: u64, name: &str, what: &str, bytes: &[u8]) -> Result<KeptFile, String> {
        // Locked while written: `tidy` does not take the folder away.
        let mut d = lock(&self.dir);
        let dir = self.dir(&mut d)?;
        let stem: String = name
            .rsplit_once('.')
            .map_or(name, |x| x.0)
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(60)
            .collect();
        let n = self.serial.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{id}-{n}-{stem}{what}.sgf"));
        replace_file(&path, bytes, &SaveOptions::default())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(KeptFile(path))
    }
}

impl Recovery {
    /// Removes the folder made for this server once it is empty (its
    /// records were all read back or closed): nothing is left behind when
    /// the server is stopped; it is made again when needed.
    fn tidy(&self) {
        let mut d = lock(&self.dir);
        if self.chosen.is_none()
            && let Some(p) = &*d
            && std::fs::remove_dir(p).is_ok()
        {
            *d = None;
        }
    }
}

impl Drop for Recovery {
    fn drop(&mut self) {
        self.tidy();
    }
}

/// A session in memory.
struct Live {
    session: Arc<Mutex<Session>>,
    last_used: Instant,
    /// [`Session::held_bytes`] when last measured.
    held: usize,
}

/// Where the bytes of a record put aside are.
enum Source {
    /// Its file, unchanged by the page: read again.
    File,
    /// The bundled example.
    Example,
    /// A file of the recovery folder; `canonical` when written in the
    /// canonical form (the lossless one would not read back the same).
    Kept { file: KeptFile, canonical: bool },
}

/// A record put aside: what it takes to make its session again.
struct Parked {
    name: String,
    path: Option<PathBuf>,
    rel: Option<String>,
    format: String,
    charset: String,
    on_disk: Option<Fingerprint>,
    from_text: bool,
    dirty: bool,
    game: usize,
    number: usize,
    tree_version: u64,
    numbers: bool,
    dark: bool,
    /// An engine ran on it (stopped when it was put aside).
    engine: bool,
    source: Source,
    /// The file's bytes as first read, for its first save's `X.orig`
    /// (moved to the session read back).
    original: Mutex<Option<Original>>,
    since: Instant,
}

impl Parked {
    /// What it takes to make `s` again, its work written to `recovery`.
    /// Where `s` itself has its original (`original_aside`) is moved
    /// over when the session is really put aside.
    fn of(s: &Session, recovery: &Recovery) -> Result<Parked, String> {
        let (game, number) = s.place();
        let example = s.path.is_none()
            && !s.dirty
            && !s.from_text
            && s.name == "qipu-example.sgf"
            && s.original() == crate::EXAMPLE;
        let source = if !s.dirty && s.path.is_some() {
            Source::File
        } else if example {
            Source::Example
        } else {
            let (bytes, canonical) = s.parking_bytes();
            Source::Kept {
                file: recovery.write(s.id, &s.name, "", &bytes)?,
                canonical,
            }
        };
        // Its first save keeps the file as first read (`X.orig`): kept too,
        // unless that is done already. Usually the file on disk is still
        // those bytes: then only their fingerprint is kept.
        let original = match &s.path {
            Some(p)
                if s.dirty
                    && s.original_aside.is_none()
                    && std::fs::symlink_metadata(crate::sibling(p, ".orig")).is_err() =>
            {
                let fp = Fingerprint::of(s.original());
                let on_disk = crate::read_file(p, sgf_formats::input::MAX_INPUT_BYTES)
                    .is_ok_and(|b| Fingerprint::of(&b) == fp);
                Some(if on_disk {
                    Original::OnDisk(fp)
                } else {
                    Original::Kept(recovery.write(s.id, &s.name, ".orig", s.original())?)
                })
            }
            _ => None,
        };
        Ok(Parked {
            name: s.name.clone(),
            path: s.path.clone(),
            rel: s.rel.clone(),
            format: s.format.clone(),
            charset: s.charset.clone(),
            on_disk: s.on_disk,
            from_text: s.from_text,
            dirty: s.dirty,
            game,
            number,
            tree_version: s.tree_version(),
            numbers: s.numbers,
            dark: s.dark,
            engine: s.engine().is_some(),
            source,
            original: Mutex::new(original),
            since: Instant::now(),
        })
    }

    /// Whether it holds work found nowhere else.
    fn holds_work(&self) -> bool {
        matches!(self.source, Source::Kept { .. })
    }

    /// The session again, as `id`.
    fn restore(&self, id: u64) -> Result<Session, String> {
        let aside = |e: String| {
            format!(
                "{} was put aside to free memory and cannot be read again: {e}",
                self.name
            )
        };
        let mut on_disk = self.on_disk;
        let mut changed = false;
        let mut s = match &self.source {
            Source::File => {
                let path = self.path.as_deref().unwrap_or(Path::new(""));
                let bytes = crate::read_file(path, crate::MAX_FILE_BYTES)
                    .map_err(|e| aside(crate::input_error(&e)))?;
                let fp = Fingerprint::of(&bytes);
                changed = on_disk != Some(fp);
                on_disk = Some(fp);
                crate::build_session(id, self.name.clone(), bytes, false, path)
                    .map_err(|e| aside(e.error))?
            }
            Source::Example => crate::build_session(
                id,
                self.name.clone(),
                crate::EXAMPLE.to_vec(),
                false,
                Path::new(&self.name),
            )
            .map_err(|e| aside(e.error))?,
            Source::Kept { file, canonical } => {
                let bytes = crate::read_file(file.path(), sgf_formats::input::MAX_INPUT_BYTES)
                    .map_err(|e| {
                        format!(
                            "the unsaved changes of {} were kept in {} but cannot be read back: {}",
                            self.name,
                            file.path().display(),
                            crate::input_error(&e)
                        )
                    })?;
                let mut s =
                    crate::build_session(id, self.name.clone(), bytes, self.from_text, file.path())
                        .map_err(|e| aside(e.error))?;
                // A record converted from another format stays one: a plain
                // save does not write SGF over it.
                s.format = self.format.clone();
                s.charset = if *canonical {
                    "UTF-8".into()
                } else {
                    self.charset.clone()
                };
                s
            }
        };
        s.path = self.path.clone();
        s.rel = self.rel.clone();
        s.on_disk = on_disk;
        s.from_text = self.from_text;
        s.dirty = self.dirty;
        s.numbers = self.numbers;
        s.dark = self.dark;
        s.restore_place(self.game, self.number, self.tree_version);
        let mut note = Vec::new();
        if self.dirty {
            note.push("it is back with its unsaved changes (not its undo history)");
        } else if changed {
            note.push("it was changed on disk since: this is the file as it is now");
        }
        if self.engine {
            note.push("its engine was stopped");
        }
        if !note.is_empty() {
            s.set_notice(format!(
                "{} was put aside to free memory; {}",
                self.name,
                note.join("; ")
            ));
        }
        Ok(s)
    }
}

enum Slot {
    Live(Live),
    Parked(Arc<Parked>),
}

fn no_session() -> String {
    format!("{NO_SESSION} (it was closed)")
}

/// What [`Table::stats`] counts.
pub(crate) struct Stats {
    /// Sessions in memory.
    pub live: usize,
    /// Sessions put aside.
    pub parked: usize,
    /// Of those, the ones whose work is in the recovery folder.
    pub parked_work: usize,
}

/// The viewer's sessions: in memory, or put aside (see the module docs).
pub(crate) struct Table {
    slots: Mutex<HashMap<u64, Slot>>,
    next_id: AtomicU64,
    /// Records are read back one at a time (one that several requests ask
    /// for at once is read once).
    restoring: Mutex<()>,
    budget: usize,
    idle: Option<Duration>,
    /// Whether the last sweep had to keep records with unsaved work in
    /// memory over the budget (said once on standard error).
    over: Mutex<bool>,
    /// Last: dropped after the records put aside (their files removed).
    recovery: Recovery,
}

impl Table {
    pub(crate) fn new(budget: usize, idle: Option<Duration>, recovery: Option<PathBuf>) -> Table {
        Table {
            slots: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            restoring: Mutex::new(()),
            budget,
            idle,
            over: Mutex::new(false),
            recovery: Recovery {
                chosen: recovery,
                dir: Mutex::new(None),
                serial: AtomicU64::new(0),
            },
        }
    }

    /// The id of a new session.
    pub(crate) fn new_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Adds a session (the caller then runs [`Table::sweep`], sparing it).
    pub(crate) fn insert(&self, s: Session) {
        let id = s.id;
        let held = s.held_bytes();
        lock(&self.slots).insert(
            id,
            Slot::Live(Live {
                session: Arc::new(Mutex::new(s)),
                last_used: Instant::now(),
                held,
            }),
        );
    }

    /// Session `id`, read back first if it was put aside.
    ///
    /// # Errors
    /// When there is no such session ([`NO_SESSION`]) or it cannot be read back.
    pub(crate) fn get(&self, id: u64) -> Result<Arc<Mutex<Session>>, String> {
        if let Some(s) = self.live(id)? {
            return Ok(s);
        }
        let restoring = lock(&self.restoring);
        let restored = self.read_back(id)?;
        drop(restoring);
        // Something else may go to make room; not this one (held here).
        self.sweep(Some(id));
        Ok(restored)
    }

    /// The session in memory, its use noted; `None` when put aside.
    fn live(&self, id: u64) -> Result<Option<Arc<Mutex<Session>>>, String> {
        let mut slots = lock(&self.slots);
        match slots.get_mut(&id) {
            Some(Slot::Live(l)) => {
                l.last_used = Instant::now();
                Ok(Some(l.session.clone()))
            }
            Some(Slot::Parked(_)) => Ok(None),
            None => Err(no_session()),
        }
    }

    /// Makes the session put aside as `id` again and puts it in memory
    /// (the caller holds `restoring`: nothing else reads it back or
    /// closes it meanwhile).
    fn read_back(&self, id: u64) -> Result<Arc<Mutex<Session>>, String> {
        // Read without the table's lock (other records go on), the slot
        // left as it is: a failure leaves it put aside.
        let parked = match lock(&self.slots).get_mut(&id) {
            Some(Slot::Parked(p)) => p.clone(),
            // Read back by the request this one waited for.
            Some(Slot::Live(l)) => {
                l.last_used = Instant::now();
                return Ok(l.session.clone());
            }
            None => return Err(no_session()),
        };
        let mut s = parked.restore(id)?;
        s.original_aside = lock(&parked.original).take();
        let held = s.held_bytes();
        let arc = Arc::new(Mutex::new(s));
        let old = lock(&self.slots).insert(
            id,
            Slot::Live(Live {
                session: arc.clone(),
                last_used: Instant::now(),
                held,
            }),
        );
        // Its recovery file goes now.
        drop(old);
        drop(parked);
        self.recovery.tidy();
        Ok(arc)
    }

    /// Forgets session `id` (the page closed it or opened another in its
    /// place): its memory, or its files in the recovery folder.
    pub(crate) fn close(&self, id: u64) {
        let _restoring = lock(&self.restoring);
        let gone = lock(&self.slots).remove(&id);
        if let Some(Slot::Parked(_)) = &gone {
            drop(gone);
            self.recovery.tidy();
        }
    }

    /// The sessions in memory.
    pub(crate) fn live_sessions(&self) -> Vec<Arc<Mutex<Session>>> {
        lock(&self.slots)
            .values()
            .filter_map(|s| match s {
                Slot::Live(l) => Some(l.session.clone()),
                Slot::Parked(_) => None,
            })
            .collect()
    }

    /// How many sessions are in memory and put aside.
    pub(crate) fn stats(&self) -> Stats {
        let slots = lock(&self.slots);
        let mut st = Stats {
            live: 0,
            parked: 0,
            parked_work: 0,
        };
        for s in slots.values() {
            match s {
                Slot::Live(_) => st.live += 1,
                Slot::Parked(p) => {
                    st.parked += 1;
                    st.parked_work += usize::from(p.holds_work());
                }
            }
        }
        st
    }

    /// Puts aside the sessions not used for the idle time, then the least
    /// recently used ones while those in memory hold more than the budget;
    /// never `spare` (just opened) nor a session a request holds.
    pub(crate) fn sweep(&self, spare: Option<u64>) {
        let now = Instant::now();
        let mut live: Vec<(u64, Instant, usize)> = {
            let mut slots = lock(&self.slots);
            slots
                .iter_mut()
                .filter_map(|(id, slot)| match slot {
                    Slot::Live(l) => {
                        // Measured again unless a request is at work on it.
                        if let Ok(s) = l.session.try_lock() {
                            l.held = s.held_bytes();
                        }
                        Some((*id, l.last_used, l.held))
                    }
                    Slot::Parked(_) => None,
                })
                .collect()
        };
        live.sort_by_key(|x| x.1);
        let mut total: usize = live.iter().map(|x| x.2).sum();
        let mut kept_work = false;
        for (id, used, held) in live {
            if Some(id) == spare {
                continue;
            }
            let idle = self.idle.is_some_and(|d| now.duration_since(used) >= d);
            if !(idle || total > self.budget) {
                continue;
            }
            match self.put_aside(id) {
                Ok(true) => total = total.saturating_sub(held),
                Ok(false) => {}
                Err(e) => {
                    kept_work = true;
                    let mut over = lock(&self.over);
                    if !*over {
                        eprintln!(
                            "qipu view: a record with unsaved changes is kept in memory over the budget: {e}"
                        );
                    }
                    *over = true;
                }
            }
        }
        if !kept_work {
            *lock(&self.over) = false;
        }
        self.forget_oldest();
    }

    /// Puts session `id` aside: `Ok(false)` when it is in use (or gone),
    /// an error when its work could not be written (it stays in memory).
    fn put_aside(&self, id: u64) -> Result<bool, String> {
        let arc = match lock(&self.slots).get(&id) {
            // Only the table holds it: no request is at work on it, and
            // none can take it while the table is locked.
            Some(Slot::Live(l)) if Arc::strong_count(&l.session) == 1 => l.session.clone(),
            _ => return Ok(false),
        };
        let mut guard = match arc.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => return Ok(false),
        };
        let parked = Parked::of(&guard, &self.recovery).inspect_err(|_| self.recovery.tidy())?;
        let mut slots = lock(&self.slots);
        // A request that took it meanwhile holds it too: then it stays
        // (and what was just written is removed with `parked`).
        let unchanged = matches!(slots.get(&id), Some(Slot::Live(l)) if Arc::ptr_eq(&l.session, &arc))
            && Arc::strong_count(&arc) == 2;
        if !unchanged {
            drop(slots);
            drop(parked);
            self.recovery.tidy();
            return Ok(false);
        }
        if let Some(o) = guard.original_aside.take() {
            *lock(&parked.original) = Some(o);
        }
        if parked.holds_work() && parked.dirty {
            eprintln!(
                "qipu view: {} (unsaved changes) put aside to free memory, in {}; it comes back when its page is used",
                parked.name,
                match &parked.source {
                    Source::Kept { file, .. } => file.path().display().to_string(),
                    _ => String::new(),
                }
            );
        }
        slots.insert(id, Slot::Parked(Arc::new(parked)));
        drop(slots);
        // The session (and its engine, if one runs) goes here.
        drop(guard);
        drop(arc);
        Ok(true)
    }

    /// Forgets the oldest records put aside without work of their own
    /// beyond [`MAX_REMEMBERED`].
    fn forget_oldest(&self) {
        let mut slots = lock(&self.slots);
        let mut clean: Vec<(Instant, u64)> = slots
            .iter()
            .filter_map(|(id, s)| match s {
                Slot::Parked(p) if !p.holds_work() => Some((p.since, *id)),
                _ => None,
            })
            .collect();
        if clean.len() <= MAX_REMEMBERED {
            return;
        }
        clean.sort();
        for (_, id) in &clean[..clean.len() - MAX_REMEMBERED] {
            slots.remove(id);
        }
    }

    /// The memory figures of [`crate`]'s `/api/memory`, with the bytes
    /// the live sessions hold (`held_bytes`).
    pub(crate) fn memory_json(&self, held_bytes: usize) -> Memory {
        let st = self.stats();
        Memory {
            sessions: st.live,
            parked: st.parked,
            parked_unsaved: st.parked_work,
            budget_bytes: self.budget,
            idle_seconds: self.idle.map(|d| d.as_secs()),
            recovery_dir: lock(&self.recovery.dir)
                .as_ref()
                .map(|d| d.display().to_string()),
            held_bytes,
            rss_bytes: crate::rss_bytes(),
        }
    }
}
