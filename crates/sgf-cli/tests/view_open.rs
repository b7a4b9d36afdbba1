//! `qipu view` opens the browser through a private launch page, never
//! with the token on a command line (every local account reads command
//! lines with `ps`). The opener is replaced by a script (`$BROWSER`) that
//! records its arguments and, while it runs, looks for the token in
//! every process's command line; the launch page is the user's alone
//! (0600, in `$XDG_RUNTIME_DIR` or a new 0700 folder of the temporary
//! folder), holds the URL, and is gone once the viewer is stopped.
#![cfg(target_os = "linux")]

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scratch;

/// The opener: its arguments one a line into `args`, then, with the
/// token read from the page it was given, the command lines of every
/// process that hold it into `seen` (empty: none), then `done`.
const OPENER: &str = r#"#!/bin/sh
dir=$(dirname "$0")
printf '%s\n' "$@" > "$dir/args"
file=$(printf '%s' "$1" | sed 's|^file://||')
token=$(grep -o '?t=[0-9a-f]*' "$file" | head -n 1 | cut -c4-)
: > "$dir/seen"
if [ -z "$token" ]; then echo "no token in the page" > "$dir/seen"; fi
for c in /proc/[0-9]*/cmdline; do
  if [ -n "$token" ] && tr '\0' ' ' < "$c" 2>/dev/null | grep -q "$token"; then
    echo "$c: $(tr '\0' ' ' < "$c")" >> "$dir/seen"
  fi
done
touch "$dir/done"
"#;

/// Every process's command line that holds `token`.
fn command_lines_with(token: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if !e
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let Ok(c) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let line = String::from_utf8_lossy(&c).replace('\0', " ");
        if line.contains(token) {
            out.push(line);
        }
    }
    out
}

/// A viewer, killed when dropped (a test that fails leaves none running).
struct Viewer(Child);

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `qipu view` on a record, `$BROWSER` the script in `dir`, with `env`;
/// the URL it printed.
fn start(dir: &Path, env: &[(&str, &Path)]) -> (Viewer, String) {
    let opener = dir.join("opener.sh");
    std::fs::write(&opener, OPENER).unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let record = dir.join("g.sgf");
    std::fs::write(&record, "(;GM[1]FF[4]SZ[9];B[ee])").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qipu"));
    cmd.args(["view", "--port", "0"])
        .arg(&record)
        .env("BROWSER", &opener)
        .env_remove("XDG_RUNTIME_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .strip_prefix("Qipu viewer at ")
        .unwrap_or_else(|| panic!("no URL: {first}"))
        .to_string();
    // The rest of its output is read, so that it never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (Viewer(child), url)
}

/// Waits for the opener to have run (at most a minute).
fn wait_for(done: &Path) {
    let t = Instant::now();
    while !done.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the opener never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops the viewer as Ctrl+C does, and waits for it.
fn interrupt(child: &mut Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill -INT");
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("qipu view did not stop on SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What the opener was given and saw, checked; the launch page's path.
fn check_opened(dir: &Path, url: &str) -> PathBuf {
    wait_for(&dir.join("done"));
    let token = url.rsplit_once("t=").unwrap().1;
    assert_eq!(token.len(), 32, "{url}");
    let seen = std::fs::read_to_string(dir.join("seen")).unwrap();
    assert_eq!(seen, "", "the token on a command line, as the opener saw");
    assert_eq!(command_lines_with(token), Vec::<String>::new());
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args.len(), 1, "one argument: {args:?}");
    let page = PathBuf::from(
        args[0]
            .strip_prefix("file://")
            .unwrap_or_else(|| panic!("not a file address: {}", args[0])),
    );
    assert!(!args[0].contains(token));
    let meta = std::fs::symlink_metadata(&page).unwrap();
    assert!(meta.is_file());
    assert_eq!(
        meta.permissions().mode() & 0o777,
        0o600,
        "{}",
        page.display()
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(&format!("content=\"0;url={url}\"")),
        "the page sends the browser on: {html}"
    );
    page
}

#[test]
fn the_browser_opens_a_private_page_in_the_runtime_folder() {
    let dir = scratch("view-open-runtime");
    let runtime = dir.join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let (mut child, url) = start(&dir, &[("XDG_RUNTIME_DIR", &runtime)]);
    let page = check_opened(&dir, &url);
    assert_eq!(page.parent(), Some(runtime.as_path()));
    interrupt(&mut child.0);
    assert!(
        !page.exists(),
        "the launch page is removed when the viewer stops"
    );
    assert_eq!(std::fs::read_dir(&runtime).unwrap().count(), 0);
}

#[test]
fn without_a_runtime_folder_the_page_is_in_a_private_folder() {
    let dir = scratch("view-open-tmp");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let (mut child, url) = start(&dir, &[("TMPDIR", &tmp)]);
    let page = check_opened(&dir, &url);
    let folder = page.parent().unwrap().to_path_buf();
    assert_eq!(folder.parent(), Some(tmp.as_path()));
    let mode = std::fs::symlink_metadata(&folder)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700, "{}", folder.display());
    interrupt(&mut child.0);
    assert!(
        !page.exists() && !folder.exists(),
        "removed with its folder"
    );
}

/// With `--no-open` nothing is written and no opener runs.
#[test]
fn no_open_writes_no_page() {
    let dir = scratch("view-open-none");
    let runtime = dir.join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    let opener = dir.join("opener.sh");
    std::fs::write(&opener, OPENER).unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut child = Viewer(
        Command::new(env!("CARGO_BIN_EXE_qipu"))
            .args(["view", "--no-open", "--port", "0"])
            .env("BROWSER", &opener)
            .env("XDG_RUNTIME_DIR", &runtime)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    assert!(
        lines
            .next()
            .unwrap()
            .unwrap()
            .starts_with("Qipu viewer at ")
    );
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&mut child.0);
    assert!(!dir.join("args").exists(), "no opener ran");
    assert_eq!(std::fs::read_dir(&runtime).unwrap().count(), 0);
}
