//! Helpers shared by the integration tests of the `qipu` command.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `qipu` with `args`.
pub fn qipu(args: &[&str]) -> Output {
    qipu_in(args, None)
}

/// Runs `qipu` with `args`, `stdin` on its standard input.
pub fn qipu_in(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qipu"));
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("qipu runs");
    if let Some(input) = stdin {
        // The command may exit before reading (bad usage): a broken pipe is fine.
        let _ = child.stdin.take().unwrap().write_all(input);
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of `testdata/formats/`.
pub fn fixture(rel: &str) -> String {
    repo()
        .join("testdata/formats")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// A fresh, empty scratch directory for one test (one per process and name).
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
