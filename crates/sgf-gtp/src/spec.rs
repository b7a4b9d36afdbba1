//! Which engine to run: a command line given ad hoc (`"gnugo --mode gtp"`,
//! split as a shell would split it, but never run through a shell), or an
//! engine listed by name in the user's `engines.toml`.
//!
//! The file is `$XDG_CONFIG_HOME/qipu/engines.toml` (else
//! `~/.config/qipu/engines.toml`; `%APPDATA%\qipu\engines.toml` on
//! Windows):
//!
//! ```toml
//! [[engine]]
//! name = "gnugo"
//! command = "gnugo"
//! args = ["--mode", "gtp", "--level", "10"]
//!
//! [[engine]]
//! name = "katago"
//! command = "katago"
//! args = ["analysis", "-config", "analysis.cfg", "-model", "model.bin.gz"]
//! protocol = "katago-analysis"   # default "gtp"
//! timeout = 300                  # seconds one answer may take (default 120)
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::error::{Error, Result};

/// How Qipu talks to an engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Protocol {
    /// The Go Text Protocol, version 2 (GNU Go, Leela Zero, KataGo's `gtp`).
    Gtp,
    /// KataGo's JSON analysis engine (`katago analysis`).
    KatagoAnalysis,
}

/// An engine: how to start it and talk to it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// A short name for messages (the configured name, or the program's file name).
    pub name: String,
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The protocol.
    pub protocol: Protocol,
    /// How long one answer may take before the engine is stopped.
    pub timeout: Duration,
}

/// The default time limit of one answer.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

impl EngineSpec {
    /// An engine from a command line such as `gnugo --mode gtp`, split as a
    /// POSIX shell splits words (quotes and backslashes), with no expansion.
    ///
    /// # Errors
    /// Unbalanced quotes, or an empty command line.
    pub fn from_command_line(line: &str) -> Result<EngineSpec> {
        let words = shlex::split(line)
            .ok_or_else(|| Error::CommandLine(format!("unbalanced quotes in `{line}`")))?;
        let Some((command, args)) = words.split_first() else {
            return Err(Error::CommandLine("the command line is empty".into()));
        };
        let name = Path::new(command)
            .file_name()
            .map_or_else(|| command.clone(), |n| n.to_string_lossy().into_owned());
        // `katago analysis …` speaks JSON, not GTP.
        let protocol =
            if name.starts_with("katago") && args.first().is_some_and(|a| a == "analysis") {
                Protocol::KatagoAnalysis
            } else {
                Protocol::Gtp
            };
        Ok(EngineSpec {
            name,
            command: command.clone(),
            args: args.to_vec(),
            protocol,
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// The engine the user means by `text`: the engine of that name in the
    /// configuration file when there is one, else `text` as a command line.
    ///
    /// # Errors
    /// An unreadable or invalid configuration file, or a bad command line.
    pub fn resolve(text: &str) -> Result<EngineSpec> {
        match EngineSpec::listed(text)? {
            Some(e) => Ok(e),
            None => EngineSpec::from_command_line(text),
        }
    }

    /// The engine named `text` in the configuration file, if it lists
    /// one by that name (`None`: `text` is to be read as a command line).
    ///
    /// # Errors
    /// An unreadable or invalid configuration file.
    pub fn listed(text: &str) -> Result<Option<EngineSpec>> {
        if let Some(path) = config_path()
            && path.is_file()
        {
            let engines = load_config(&path)?;
            return Ok(engines.into_iter().find(|e| e.name == text.trim()));
        }
        Ok(None)
    }

    /// The command line, quoted so that [`EngineSpec::from_command_line`] gives it back.
    pub fn command_line(&self) -> String {
        std::iter::once(&self.command)
            .chain(&self.args)
            .map(|w| shlex::try_quote(w).map_or_else(|_| w.clone(), |q| q.into_owned()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    engine: Vec<ConfigEngine>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigEngine {
    name: String,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    protocol: Option<Protocol>,
    timeout: Option<f64>,
}

/// Where the engine list lives: `$XDG_CONFIG_HOME/qipu/engines.toml`, else
/// `$HOME/.config/qipu/engines.toml` (`%APPDATA%\qipu\engines.toml` on
/// Windows). `None` when none of these variables is set.
pub fn config_path() -> Option<PathBuf> {
    let non_empty = |v: &str| std::env::var_os(v).filter(|s| !s.is_empty());
    let dir = if let Some(x) = non_empty("XDG_CONFIG_HOME") {
        PathBuf::from(x)
    } else if cfg!(windows) {
        PathBuf::from(non_empty("APPDATA")?)
    } else {
        PathBuf::from(non_empty("HOME")?).join(".config")
    };
    Some(dir.join("qipu").join("engines.toml"))
}

/// The engines listed in a configuration file.
///
/// # Errors
/// The file cannot be read, is not TOML, or an entry lacks `name` or
/// `command`, has an unknown key, protocol or a bad timeout, or a name
/// is listed twice.
pub fn load_config(path: &Path) -> Result<Vec<EngineSpec>> {
    let err = |message: String| Error::Config {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    let file: ConfigFile = toml::from_str(&text).map_err(|e| err(e.to_string().trim().into()))?;
    let mut out: Vec<EngineSpec> = Vec::new();
    for e in file.engine {
        if e.name.trim().is_empty() || e.command.trim().is_empty() {
            return Err(err("an engine needs a `name` and a `command`".into()));
        }
        if out.iter().any(|o| o.name == e.name) {
            return Err(err(format!("the engine `{}` is listed twice", e.name)));
        }
        let timeout = match e.timeout {
            None => DEFAULT_TIMEOUT,
            Some(t) if t.is_finite() && t > 0.0 && t < 1e7 => Duration::from_secs_f64(t),
            Some(t) => return Err(err(format!("`timeout = {t}` is not a number of seconds"))),
        };
        out.push(EngineSpec {
            name: e.name,
            command: e.command,
            args: e.args,
            protocol: e.protocol.unwrap_or(Protocol::Gtp),
            timeout,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let s = EngineSpec::from_command_line("gnugo --mode gtp").unwrap();
        assert_eq!((s.name.as_str(), s.command.as_str()), ("gnugo", "gnugo"));
        assert_eq!(s.args, ["--mode", "gtp"]);
        assert_eq!(s.protocol, Protocol::Gtp);
        let s =
            EngineSpec::from_command_line(r#"/opt/lz/leelaz -w "my weights.gz" --gtp"#).unwrap();
        assert_eq!(s.name, "leelaz");
        assert_eq!(s.args, ["-w", "my weights.gz", "--gtp"]);
        assert_eq!(EngineSpec::from_command_line(&s.command_line()).unwrap(), s);
        // No shell: `$HOME` and `;` are plain text.
        let s = EngineSpec::from_command_line("echo $HOME; rm").unwrap();
        assert_eq!(s.args, ["$HOME;", "rm"]);
        let s = EngineSpec::from_command_line("katago analysis -config a.cfg").unwrap();
        assert_eq!(s.protocol, Protocol::KatagoAnalysis);
        assert!(matches!(
            EngineSpec::from_command_line("gnugo \"--mode"),
            Err(Error::CommandLine(_))
        ));
        assert!(matches!(
            EngineSpec::from_command_line("   "),
            Err(Error::CommandLine(_))
        ));
    }

    #[test]
    fn config_files() {
        let dir = std::env::temp_dir().join(format!("qipu-gtp-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.toml");
        std::fs::write(
            &good,
            "[[engine]]\nname = \"gnugo\"\ncommand = \"gnugo\"\nargs = [\"--mode\", \"gtp\"]\n\n\
             [[engine]]\nname = \"kata\"\ncommand = \"katago\"\nprotocol = \"katago-analysis\"\ntimeout = 2.5\n",
        )
        .unwrap();
        let engines = load_config(&good).unwrap();
        assert_eq!(engines.len(), 2);
        assert_eq!(engines[0].args, ["--mode", "gtp"]);
        assert_eq!(engines[0].timeout, DEFAULT_TIMEOUT);
        assert_eq!(engines[1].protocol, Protocol::KatagoAnalysis);
        assert_eq!(engines[1].timeout, Duration::from_millis(2500));
        for (text, needle) in [
            ("[[engine]]\nname = \"x\"\n", "command"),
            (
                "[[engine]]\nname = \"x\"\ncommand = \"y\"\ncolour = 1\n",
                "colour",
            ),
            (
                "[[engine]]\nname = \"x\"\ncommand = \"y\"\nprotocol = \"smoke\"\n",
                "smoke",
            ),
            (
                "[[engine]]\nname = \"x\"\ncommand = \"y\"\ntimeout = -1\n",
                "timeout",
            ),
            (
                "[[engine]]\nname = \"x\"\ncommand = \"y\"\n[[engine]]\nname = \"x\"\ncommand = \"z\"\n",
                "twice",
            ),
            ("engine = [", ""),
        ] {
            let bad = dir.join("bad.toml");
            std::fs::write(&bad, text).unwrap();
            let e = load_config(&bad).unwrap_err().to_string();
            assert!(e.contains("bad.toml") && e.contains(needle), "{e}");
        }
        assert!(load_config(&dir.join("missing.toml")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
