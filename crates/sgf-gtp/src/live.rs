//! An engine on a thread of its own, for front ends that must never wait
//! on it: a viewer asks it to analyse a position and reads the latest
//! evaluation whenever it likes ([`LiveEngine::snapshot`]), asks it for a
//! move or for dead stones, and every request stops the analysis running.
//! The engine dying is a [`Snapshot::error`] and an error of the requests
//! that follow, never a panic; dropping the [`LiveEngine`] ends the
//! engine (`quit`, then a kill if it does not go).

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use sgf_go::Position;

use crate::analysis::{Analysis, EngineMove};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::line::GameLine;
use crate::spec::EngineSpec;

/// How often a streaming engine is asked to report.
const INTERVAL: Duration = Duration::from_millis(200);
/// How long the thread waits for analysis output before looking for requests.
const POLL: Duration = Duration::from_millis(40);

/// What the engine is doing and has found, as a front end reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The tag of the position being analysed (as given to
    /// [`LiveEngine::analyse`]); `None` when no analysis was asked for
    /// since the last other request.
    pub tag: Option<u64>,
    /// The latest evaluation of that position.
    pub analysis: Option<Analysis>,
    /// How many evaluations of that position arrived.
    pub updates: u64,
    /// The last failure, as a sentence (an engine that crashed, refused a
    /// move or cannot analyse).
    pub error: Option<String>,
    /// Whether the engine process is still running.
    pub alive: bool,
}

pub use crate::engine::DeadAndDame;

enum Job {
    Analyse(GameLine, u64),
    Stop,
    Genmove(GameLine, Sender<Result<EngineMove>>),
    Dead(GameLine, Box<Position>, Sender<Result<DeadAndDame>>),
    Level(u32, Sender<Result<bool>>),
    Command(String, Sender<Result<String>>),
    Quit,
}

/// A GTP engine driven from a thread of its own.
pub struct LiveEngine {
    spec: EngineSpec,
    can_analyse: bool,
    jobs: Sender<Job>,
    shared: Arc<Mutex<Snapshot>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for LiveEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveEngine")
            .field("spec", &self.spec)
            .finish()
    }
}

fn gone() -> Error {
    Error::Unsupported("the engine has stopped".into())
}

impl LiveEngine {
    /// Starts the engine of `spec` (waiting until it answers) and the
    /// thread that drives it.
    ///
    /// # Errors
    /// See [`Engine::start`].
    pub fn start(spec: &EngineSpec) -> Result<LiveEngine> {
        let engine = Engine::start(spec)?;
        let can_analyse = engine.analysis_format().is_some();
        let shared = Arc::new(Mutex::new(Snapshot {
            alive: true,
            ..Snapshot::default()
        }));
        let (tx, rx) = channel();
        let sh = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(format!("{}-live", spec.name))
            .spawn(move || run(engine, rx, sh))
            .map_err(|source| Error::Spawn {
                program: spec.command.clone(),
                source,
            })?;
        Ok(LiveEngine {
            spec: spec.clone(),
            can_analyse,
            jobs: tx,
            shared,
            thread: Some(thread),
        })
    }

    /// How the engine was started.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether the engine streams analysis (`lz-analyze` or `kata-analyze`).
    pub fn can_analyse(&self) -> bool {
        self.can_analyse
    }

    /// What the engine is doing and has found.
    pub fn snapshot(&self) -> Snapshot {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Starts analysing the end of `line` (stopping what runs), returning
    /// at once; the evaluations appear in [`LiveEngine::snapshot`] under `tag`.
    pub fn analyse(&self, line: GameLine, tag: u64) {
        {
            let mut s = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            s.tag = Some(tag);
            s.analysis = None;
            s.updates = 0;
        }
        let _ = self.jobs.send(Job::Analyse(line, tag));
    }

    /// Stops the analysis, returning at once.
    pub fn stop_analysis(&self) {
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).tag = None;
        let _ = self.jobs.send(Job::Stop);
    }

    fn ask<T>(&self, job: impl FnOnce(Sender<Result<T>>) -> Job) -> Result<T> {
        let (tx, rx) = channel();
        self.jobs.send(job(tx)).map_err(|_| gone())?;
        // The engine's own time limit bounds the wait; a gone thread closes the channel.
        rx.recv().map_err(|_| gone())?
    }

    /// The engine's move for the player to move at the end of `line`
    /// (waits for it).
    ///
    /// # Errors
    /// The engine refuses the line, fails, or has stopped.
    pub fn genmove(&self, line: GameLine) -> Result<EngineMove> {
        self.ask(|tx| Job::Genmove(line, tx))
    }

    /// The dead stones at the end of `line` (whose position is `pos`) and
    /// the empty points the engine counts for nobody (waits for them).
    ///
    /// # Errors
    /// The engine lacks `final_status_list`, fails, or has stopped.
    pub fn dead_stones(&self, line: GameLine, pos: Position) -> Result<DeadAndDame> {
        self.ask(|tx| Job::Dead(line, Box::new(pos), tx))
    }

    /// Sets the engine's strength (see [`Engine::set_level`]).
    ///
    /// # Errors
    /// The engine refuses, fails, or has stopped.
    pub fn set_level(&self, level: u32) -> Result<bool> {
        self.ask(|tx| Job::Level(level, tx))
    }

    /// Sends a GTP command as typed (a console) and waits for the
    /// engine's answer (the text after `=`); the analysis running is taken
    /// up again after it (see [`Engine::command`]).
    ///
    /// # Errors
    /// The engine refuses (`?`), fails, or has stopped; a command with a
    /// line break is refused unsent.
    pub fn command(&self, command: &str) -> Result<String> {
        self.ask(|tx| Job::Command(command.to_string(), tx))
    }

    /// Ends the engine and waits until it has gone (`quit`, then a kill
    /// after two seconds).
    pub fn shutdown(mut self) {
        let _ = self.jobs.send(Job::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for LiveEngine {
    fn drop(&mut self) {
        // The thread ends the engine; nobody waits for it here.
        if self.thread.is_some() {
            let _ = self.jobs.send(Job::Quit);
        }
    }
}

/// The thread: requests one after another; between them, the analysis stream.
fn run(mut engine: Engine, jobs: Receiver<Job>, shared: Arc<Mutex<Snapshot>>) {
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    let fail = |engine: &mut Engine, e: &Error| failed(&shared, engine, e);
    // The analysis to take up again after a request that does not move the game on.
    let mut resume: Option<(GameLine, u64)> = None;
    loop {
        let job = if engine.is_analysing() {
            match jobs.try_recv() {
                Ok(j) => Some(j),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Job::Quit),
            }
        } else {
            Some(jobs.recv().unwrap_or(Job::Quit))
        };
        let Some(job) = job else {
            match engine.next_analysis(POLL) {
                Ok(Some(a)) => {
                    let mut s = lock();
                    s.analysis = Some(a);
                    s.updates += 1;
                }
                Ok(None) => {}
                Err(e) => fail(&mut engine, &e),
            }
            continue;
        };
        if !engine.is_alive() && !matches!(job, Job::Quit) {
            // Requests to a dead engine fail at once (their senders see the error).
            match job {
                Job::Genmove(_, tx) => drop(tx.send(Err(gone()))),
                Job::Dead(_, _, tx) => drop(tx.send(Err(gone()))),
                Job::Level(_, tx) => drop(tx.send(Err(gone()))),
                Job::Command(_, tx) => drop(tx.send(Err(gone()))),
                _ => {}
            }
            continue;
        }
        match job {
            Job::Quit => {
                engine.quit();
                let mut s = lock();
                s.alive = false;
                s.tag = None;
                return;
            }
            Job::Stop => {
                resume = None;
                if let Err(e) = engine.stop_analysis() {
                    fail(&mut engine, &e);
                }
            }
            Job::Analyse(line, tag) => {
                resume = Some((line.clone(), tag));
                start(&mut engine, &line, &shared);
            }
            Job::Genmove(line, tx) => {
                resume = None;
                let r = engine
                    .replay_line(&line)
                    .and_then(|_| engine.genmove(line.to_play, line.size));
                if let Err(e) = &r {
                    fail(&mut engine, e);
                }
                let _ = tx.send(r);
            }
            Job::Dead(line, pos, tx) => {
                let r = engine
                    .replay_line(&line)
                    .and_then(|_| engine.dead_and_dame(line.size, &pos));
                if let Err(e) = &r {
                    fail(&mut engine, e);
                }
                let _ = tx.send(r);
                if let Some((l, _)) = &resume {
                    start(&mut engine, l, &shared);
                }
            }
            Job::Command(command, tx) => {
                let r = engine.command(&command);
                // A refusal (`?`) is the engine's answer, not a failure of it.
                if let Err(e) = &r
                    && !matches!(e, Error::Refused { .. })
                {
                    fail(&mut engine, e);
                }
                let _ = tx.send(r);
                if let Some((l, _)) = &resume {
                    start(&mut engine, l, &shared);
                }
            }
            Job::Level(level, tx) => {
                let r = engine.set_level(level);
                if let Err(e) = &r {
                    fail(&mut engine, e);
                }
                let _ = tx.send(r);
                if let Some((l, _)) = &resume {
                    start(&mut engine, l, &shared);
                }
            }
        }
    }
}

/// Records a failure in the snapshot.
fn failed(shared: &Mutex<Snapshot>, engine: &mut Engine, e: &Error) {
    let alive = engine.is_alive();
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    s.error = Some(e.to_string());
    s.alive = alive;
}

/// Replays `line` and starts streaming its analysis (nothing to analyse
/// once both players passed).
fn start(engine: &mut Engine, line: &GameLine, shared: &Mutex<Snapshot>) {
    let r = engine.replay_line(line).and_then(|_| {
        if line.ends_with_two_passes() {
            return Ok(());
        }
        engine.start_analysis(line.to_play, line.size, INTERVAL)
    });
    match r {
        Ok(()) => shared.lock().unwrap_or_else(|e| e.into_inner()).error = None,
        Err(e) => failed(shared, engine, &e),
    }
}
