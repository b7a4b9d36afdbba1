//! The engine process: started from a program and arguments (never through
//! a shell), its standard output read line by line on a thread of its own
//! so every read can time out, its standard error kept (the last part) for
//! diagnostics, and a clean shutdown.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::spec::EngineSpec;

/// Longest line kept from an engine: a runaway engine cannot exhaust memory.
const MAX_LINE: usize = 1 << 20;
/// How much of standard error is kept.
const STDERR_KEEP: usize = 16 * 1024;

/// What reading a line gave.
pub(crate) enum Read1 {
    Line(String),
    Timeout,
    Closed,
}

/// A running engine process.
pub(crate) struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Closed when the engine's standard error is read to its end.
    stderr_done: std::sync::mpsc::Receiver<()>,
    gone: bool,
}

/// Finds a program: as given when it contains a path separator, else on
/// `PATH`, else in `/usr/games` and `/usr/local/games`, where Debian puts
/// GNU Go and Leela Zero but not every `PATH` looks.
pub(crate) fn resolve_program(program: &str) -> PathBuf {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.to_path_buf();
    }
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
        .unwrap_or(false);
    if !on_path {
        for dir in ["/usr/games", "/usr/local/games"] {
            let c = Path::new(dir).join(program);
            if c.is_file() {
                return c;
            }
        }
    }
    p.to_path_buf()
}

impl Process {
    /// Starts the engine of `spec`.
    pub(crate) fn start(spec: &EngineSpec) -> Result<Process> {
        let program = resolve_program(&spec.command);
        let mut child = Command::new(&program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| Error::Spawn {
                program: spec.command.clone(),
                source,
            })?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match (&mut r).take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                        // Drop the rest of an overlong line.
                        let mut rest = Vec::new();
                        if r.read_until(b'\n', &mut rest).is_err() {
                            break;
                        }
                    }
                    if tx.send(clean_line(&buf)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|source| Error::Spawn {
                program: spec.command.clone(),
                source,
            })?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&stderr);
        let (done_tx, stderr_done) = std::sync::mpsc::channel::<()>();
        std::thread::Builder::new()
            .name(format!("{}-stderr", spec.name))
            .spawn(move || {
                let _done = done_tx;
                // Draining stderr matters: a full pipe would block the engine.
                let mut pipe = stderr_pipe;
                let mut chunk = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    let mut k = keep.lock().unwrap_or_else(|e| e.into_inner());
                    k.extend(&chunk[..n]);
                    let excess = k.len().saturating_sub(STDERR_KEEP);
                    k.drain(..excess);
                }
            })
            .map_err(|source| Error::Spawn {
                program: spec.command.clone(),
                source,
            })?;
        Ok(Process {
            name: spec.name.clone(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            stderr_done,
            gone: false,
        })
    }

    /// The last part of what the engine wrote on standard error.
    pub(crate) fn stderr(&self) -> String {
        let k = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = k.as_slices();
        let mut v = a.to_vec();
        v.extend_from_slice(b);
        String::from_utf8_lossy(&v).into_owned()
    }

    /// Whether the process is still running.
    pub(crate) fn is_alive(&mut self) -> bool {
        !self.gone && matches!(self.child.try_wait(), Ok(None))
    }

    /// Writes one line (a newline is added).
    pub(crate) fn write_line(&mut self, line: &str, command: &str) -> Result<()> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited(command));
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        if ok.is_err() {
            return Err(self.exited(command));
        }
        Ok(())
    }

    /// Reads the next line, waiting until `deadline`.
    pub(crate) fn read_line(&mut self, deadline: Instant) -> Read1 {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Read1::Line(l),
            Err(RecvTimeoutError::Timeout) => Read1::Timeout,
            Err(RecvTimeoutError::Disconnected) => Read1::Closed,
        }
    }

    /// The error for an engine that has gone away, with its exit status.
    pub(crate) fn exited(&mut self, command: &str) -> Error {
        self.gone = true;
        self.stdin = None;
        // The pipe closes a moment before the process is reaped.
        let until = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s.to_string(),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break "closed its output".to_string();
                }
                Err(e) => break e.to_string(),
            }
        };
        // Its last words (why it stopped) may still be in the pipe: read
        // until the pipe closes, a moment at most (a child of the engine
        // may hold it open).
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        Error::Exited {
            engine: self.name.clone(),
            command: command.to_string(),
            status,
            stderr: self.stderr(),
        }
    }

    /// Stops the process after a timeout and describes it.
    pub(crate) fn timed_out(&mut self, command: &str, limit: Duration) -> Error {
        self.kill();
        Error::Timeout {
            engine: self.name.clone(),
            command: command.to_string(),
            seconds: limit.as_secs_f64(),
            stderr: self.stderr(),
        }
    }

    /// Kills the process at once.
    pub(crate) fn kill(&mut self) {
        self.gone = true;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the process to end with `goodbye` (e.g. `quit`), waits a
    /// moment, then kills it.
    pub(crate) fn shutdown(&mut self, goodbye: Option<&str>) {
        if self.gone {
            return;
        }
        if let Some(g) = goodbye {
            let _ = self.write_line(g, g);
        }
        // Closing stdin ends engines that ignore `quit` (and KataGo's analysis engine).
        self.stdin = None;
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if !matches!(self.child.try_wait(), Ok(None)) {
                self.gone = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.gone {
            self.kill();
        }
    }
}

/// GTP's preprocessing of what the engine wrote: no CR, no control
/// characters but tab (made a space).
fn clean_line(raw: &[u8]) -> String {
    let s = String::from_utf8_lossy(raw);
    s.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            '\n' | '\r' => None,
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned() {
        assert_eq!(clean_line(b"= D4\r\n"), "= D4");
        assert_eq!(clean_line(b"a\tb\x07c\n"), "a bc");
        assert_eq!(clean_line(b"\xff ok"), "\u{fffd} ok");
    }
}
