//! The engine command lines the player confirmed. An engine of
//! `engines.toml` runs when asked for; a command line typed in the page
//! runs only once the player has confirmed it, in the page's own dialog
//! showing it whole, and is remembered from then on (in
//! `confirmed-engines.json`, beside `engines.toml`): whoever could send
//! the page's requests — with a token read where it should not have
//! been — cannot run a program as the player unasked.
//!
//! The file is `{"command_lines": ["gnugo --mode gtp", …]}`, each line as
//! [`sgf_gtp::EngineSpec::command_line`] writes it (so that the same
//! words, spaced or quoted otherwise, are the same line).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name, in the folder of `engines.toml`.
pub const FILE_NAME: &str = "confirmed-engines.json";

/// The largest file read (a list of command lines, never near it).
const MAX_BYTES: u64 = 1 << 20;

/// What the file holds.
#[derive(Default, Deserialize, Serialize)]
struct Confirmed {
    #[serde(default)]
    command_lines: Vec<String>,
}

/// Where the confirmed command lines are kept by default: beside
/// `engines.toml` (see [`sgf_gtp::config_path`]).
pub fn default_path() -> Option<PathBuf> {
    sgf_gtp::config_path().and_then(|p| p.parent().map(|d| d.join(FILE_NAME)))
}

/// The command lines of `path`: none when it is missing, unreadable or
/// not such a list (then nothing counts as confirmed).
fn read(path: &Path) -> Confirmed {
    sgf_formats::input::read_file(path, MAX_BYTES)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Whether `line` (as `command_line` writes it) was confirmed.
pub(crate) fn is_confirmed(path: Option<&Path>, line: &str) -> bool {
    path.is_some_and(|p| read(p).command_lines.iter().any(|l| l == line))
}

/// Remembers `line` as confirmed, the file written as every file is
/// ([`sgf_formats::save::replace_file`]: whole or not at all, never
/// through a link).
///
/// # Errors
/// No place to keep it (no configuration folder), or the file cannot be
/// written.
pub(crate) fn remember(path: Option<&Path>, line: &str) -> Result<(), String> {
    let path = path.ok_or("there is no configuration folder to remember it in")?;
    let mut c = read(path);
    if c.command_lines.iter().any(|l| l == line) {
        return Ok(());
    }
    c.command_lines.push(line.to_string());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut bytes = serde_json::to_vec_pretty(&c).map_err(|e| e.to_string())?;
    bytes.push(b'\n');
    let mut opts = sgf_formats::save::SaveOptions::default();
    opts.skip_sync = true;
    sgf_formats::save::replace_file(path, &bytes, &opts)
        .map(drop)
        .map_err(|e| format!("{}: {e}", path.display()))
}
