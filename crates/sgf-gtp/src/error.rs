//! What can go wrong with an engine: every failure of the engine process
//! is an [`Error`], never a panic of the caller.

use std::fmt;

/// An engine failure.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The command line could not be split, or names nothing.
    CommandLine(String),
    /// The engine configuration file is unreadable or invalid.
    Config {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The engine process could not be started.
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine did not answer in time; it has been stopped.
    Timeout {
        /// The engine's name.
        engine: String,
        /// The command that was not answered.
        command: String,
        /// The time limit, in seconds.
        seconds: f64,
        /// The end of what the engine wrote on standard error.
        stderr: String,
    },
    /// The engine process ended (crashed or quit).
    Exited {
        /// The engine's name.
        engine: String,
        /// The command being answered, if any.
        command: String,
        /// The exit status, as the system describes it.
        status: String,
        /// The end of what the engine wrote on standard error.
        stderr: String,
    },
    /// The engine answered a command with a GTP failure (`? message`).
    Refused {
        /// The engine's name.
        engine: String,
        /// The command.
        command: String,
        /// The engine's message.
        message: String,
    },
    /// The engine said something that does not follow its protocol.
    Protocol {
        /// The engine's name.
        engine: String,
        /// What was wrong.
        message: String,
    },
    /// What was asked cannot be done with this engine or record.
    Unsupported(String),
}

impl Error {
    /// Whether the engine process is gone (stopped after a timeout, or exited).
    pub fn engine_is_gone(&self) -> bool {
        matches!(self, Error::Timeout { .. } | Error::Exited { .. })
    }
}

fn stderr_tail(f: &mut fmt::Formatter<'_>, stderr: &str) -> fmt::Result {
    let t = stderr.trim();
    if t.is_empty() {
        return Ok(());
    }
    // The last lines say why an engine died; earlier ones are start-up chatter.
    let lines: Vec<&str> = t.lines().collect();
    let from = lines.len().saturating_sub(8);
    write!(f, "; its last words on stderr:")?;
    for l in &lines[from..] {
        write!(f, "\n  {l}")?;
    }
    Ok(())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::CommandLine(m) => write!(f, "engine command line: {m}"),
            Error::Config { path, message } => write!(f, "engine configuration {path}: {message}"),
            Error::Spawn { program, source } => {
                write!(f, "cannot start the engine `{program}`: {source}")
            }
            Error::Timeout {
                engine,
                command,
                seconds,
                stderr,
            } => {
                write!(
                    f,
                    "engine `{engine}` did not answer `{command}` within {seconds} s and was stopped"
                )?;
                stderr_tail(f, stderr)
            }
            Error::Exited {
                engine,
                command,
                status,
                stderr,
            } => {
                if command.is_empty() {
                    write!(f, "engine `{engine}` exited ({status})")?;
                } else {
                    write!(
                        f,
                        "engine `{engine}` exited ({status}) while answering `{command}`"
                    )?;
                }
                stderr_tail(f, stderr)
            }
            Error::Refused {
                engine,
                command,
                message,
            } => write!(f, "engine `{engine}` refused `{command}`: {message}"),
            Error::Protocol { engine, message } => write!(f, "engine `{engine}`: {message}"),
            Error::Unsupported(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A result with an engine [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
