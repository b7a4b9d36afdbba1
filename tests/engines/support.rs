//! What the engine tests of several crates share (each includes this file
//! with `#[path]`): where an engine or a stand-in is. A missing one follows
//! the rule of `testsupport/require.rs`: the test skips with a message, or
//! fails when `QIPU_REQUIRE_ALL=1` (as CI runs, with every engine installed).
#![allow(dead_code)]

#[path = "../../testsupport/require.rs"]
mod require;

use std::path::PathBuf;

/// The repository's root (every crate is `crates/NAME`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A program on `PATH` or in the games directories Debian uses, or `None`
/// (the test skips) when it is not installed.
pub fn installed(program: &str, package: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .chain(["/usr/games".into(), "/usr/local/games".into()])
        .map(|d| d.join(program))
        .find(|p| p.is_file());
    if found.is_none() {
        require::missing(&format!("{program} not found (apt-get install {package})"));
    }
    found
}

/// The command line of a scripted stand-in engine of `tests/engines`
/// (`gtp-standin.py`, `katago-analysis-standin.py`) with `args`, or `None`
/// (the test skips) without python3.
pub fn standin_command(script: &str, args: &str) -> Option<String> {
    let python = installed("python3", "python3")?;
    let script = repo_root().join("tests/engines").join(script);
    Some(format!("{} {} {args}", python.display(), script.display()))
}
