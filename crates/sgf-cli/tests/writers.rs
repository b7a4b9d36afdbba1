//! Every command that writes a file keeps what was there unless it can
//! write all of its output: a destination that is a symbolic link is
//! refused (its target untouched), a full disk leaves the old file whole,
//! a process killed while writing leaves the old file or the new one and
//! nothing a later run does not remove; and every command refuses to read
//! a FIFO or a device instead of hanging or filling memory.

#![cfg(unix)]

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A collection large enough that every writer's output is a few hundred
/// kilobytes.
fn collection(dir: &Path, games: usize) -> PathBuf {
    let mut sgf = String::new();
    for i in 0..games {
        sgf.push_str(&format!(
            "(;GM[1]FF[4]SZ[19]PB[Black {i}]PW[White {i}]DT[2024-01-{:02}]C[game {i}: a comment long enough to count]",
            i % 28 + 1
        ));
        for k in 0..40usize {
            let (c, x, y) = (
                if k % 2 == 0 { 'B' } else { 'W' },
                k % 19,
                (k / 19 + i) % 19,
            );
            sgf.push_str(&format!(
                ";{c}[{}{}]",
                (b'a' + x as u8) as char,
                (b'a' + y as u8) as char
            ));
        }
        sgf.push_str(")\n");
    }
    let f = dir.join("games.sgf");
    std::fs::write(&f, sgf).unwrap();
    f
}

/// The writers, each with its arguments: `IN` is the input, `OUT` the
/// destination file.
fn writers() -> Vec<Vec<&'static str>> {
    vec![
        vec!["fmt", "IN", "-o", "OUT"],
        vec!["fmt", "--expand", "IN", "-o", "OUT"],
        vec!["dump", "IN", "-o", "OUT"],
        vec!["dump", "--json", "IN", "-o", "OUT"],
        vec!["convert", "IN", "-o", "OUT"],
        vec!["export", "--format", "jsonl", "IN", "-o", "OUT"],
        vec!["render", "IN", "--format", "svg", "-o", "OUT"],
        vec!["check", "--fix", "-q", "IN", "-o", "OUT"],
    ]
}

fn args_for(w: &[&str], input: &Path, out: &Path) -> Vec<String> {
    w.iter()
        .map(|a| match *a {
            "IN" => input.to_string_lossy().into_owned(),
            "OUT" => out.to_string_lossy().into_owned(),
            a => a.to_string(),
        })
        .collect()
}

fn run(args: &[String]) -> std::process::Output {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    qipu(&a)
}

/// The names in `dir` that are temporary files of a save.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("qipu-tmp"))
        .collect()
}

#[test]
fn no_writer_writes_through_a_symbolic_link() {
    let d = scratch("writers-links");
    let input = collection(&d, 5);
    let outside = d.join("outside.txt");
    for w in writers() {
        std::fs::write(&outside, "precious").unwrap();
        let link = d.join("out.link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let out = run(&args_for(&w, &input, &link));
        let err = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{w:?}: {err}");
        assert!(err.contains("symbolic link"), "{w:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "precious",
            "{w:?}"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(temporaries(&d).is_empty(), "{w:?}");
    }
    // The writers of folders: a file of theirs that is a link is refused.
    for (w, name) in [
        (vec!["figures", "IN", "-o", "OUT"], "index.html"),
        (
            vec!["convert", "IN", "-d", "OUT", "--split"],
            "games-001.sgf",
        ),
        (vec!["convert", "IN", "-d", "OUT"], "games.sgf"),
    ] {
        std::fs::write(&outside, "precious").unwrap();
        let dir = d.join("folder");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join(name)).unwrap();
        let out = run(&args_for(&w, &input, &dir));
        assert_eq!(out.status.code(), Some(2), "{w:?}");
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "precious",
            "{w:?}"
        );
        assert!(temporaries(&dir).is_empty(), "{w:?}");
    }
}

/// A small file system where one can be mounted (as root: a 64 KiB
/// tmpfs), else `None` and the test emulates a full disk with a file size
/// limit.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path) -> Option<SmallDisk> {
        std::fs::create_dir_all(at).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| SmallDisk(at.to_path_buf()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_leaves_the_old_file_whole() {
    let d = scratch("writers-full");
    let input = collection(&d, 400);
    let mnt = d.join("mnt");
    let disk = SmallDisk::mount(&mnt);
    if disk.is_none() {
        eprintln!(
            "no tmpfs can be mounted here (not root): a file size limit stands for the full disk"
        );
        std::fs::create_dir_all(&mnt).unwrap();
    }
    if disk.is_some() {
        // Leave about 8 KiB free: every output is larger.
        std::fs::write(mnt.join("filler"), vec![0u8; 52 << 10]).unwrap();
    }
    for w in writers() {
        let out_file = mnt.join("out.txt");
        std::fs::write(&out_file, "the old content").unwrap();
        let args = args_for(&w, &input, &out_file);
        let out = if disk.is_some() {
            run(&args)
        } else {
            // 4 KiB or 8 KiB (blocks of 512 or 1024 bytes): each output is larger.
            let cmd = format!(
                "trap '' XFSZ; ulimit -f 8; exec {} \"$@\"",
                env!("CARGO_BIN_EXE_qipu")
            );
            Command::new("sh")
                .args(["-c", &cmd, "sh"])
                .args(&args)
                .output()
                .unwrap()
        };
        let err = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{w:?}: {err}");
        assert!(err.contains("cannot write"), "{w:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&out_file).unwrap(),
            "the old content",
            "{w:?}"
        );
        assert!(temporaries(&mnt).is_empty(), "{w:?}");
        assert!(
            std::fs::read(want_of(&w, &input, &d)).unwrap().len() > 8 << 10,
            "{w:?}: the output must not fit"
        );
    }
}

/// The whole output of a writer, in `dir`.
fn want_of(w: &[&str], input: &Path, dir: &Path) -> PathBuf {
    let f = dir.join("want.out");
    // `check` says 1 when it found something to report.
    let code = run(&args_for(w, input, &f)).status.code();
    assert!(matches!(code, Some(0 | 1)), "{w:?}: {code:?}");
    f
}

/// Killed at any moment, a writer leaves the old file or the whole new
/// one; the temporary files of killed writers are removed by the next
/// save in the folder. SIGINT and SIGTERM remove them at once.
#[test]
fn a_killed_writer_leaves_the_old_file_or_the_new_one() {
    let d = scratch("writers-kill");
    let input = collection(&d, 3000);
    for w in writers() {
        // The whole new output, to compare with.
        let want = std::fs::read(want_of(&w, &input, &d)).unwrap();
        let out_file = d.join("out.txt");
        for (i, signal) in ["KILL", "INT", "TERM", "KILL", "KILL"].iter().enumerate() {
            std::fs::write(&out_file, "the old content").unwrap();
            let before = temporaries(&d);
            let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
                .args(args_for(&w, &input, &out_file))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            // At different moments of the run (whatever it is doing then).
            std::thread::sleep(Duration::from_millis(10 + 40 * i as u64));
            let _ = Command::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status();
            let _ = child.wait();
            let now = std::fs::read(&out_file).unwrap();
            assert!(
                now == b"the old content" || now == want,
                "{w:?} killed by SIG{signal}: a partial file ({} bytes)",
                now.len()
            );
            if *signal != "KILL" {
                // Removed at the signal (those of earlier SIGKILLs may stay,
                // or be swept by this run).
                let new: Vec<String> = temporaries(&d)
                    .into_iter()
                    .filter(|t| !before.contains(t))
                    .collect();
                assert!(
                    new.is_empty(),
                    "{w:?} SIG{signal}: {new:?} (before: {before:?})"
                );
            }
        }
    }
    // What SIGKILL left is removed by the next save here, once old enough
    // that no living writer can still be about to lock it.
    for t in temporaries(&d) {
        let f = std::fs::File::options()
            .write(true)
            .open(d.join(&t))
            .unwrap();
        f.set_modified(std::time::SystemTime::now() - Duration::from_secs(60))
            .unwrap();
    }
    let out = run(&args_for(
        &["fmt", "IN", "-o", "OUT"],
        &input,
        &d.join("again.sgf"),
    ));
    assert!(out.status.success());
    assert!(temporaries(&d).is_empty(), "{:?}", temporaries(&d));
}

/// Every reading command refuses a FIFO and a device at once: nothing
/// writes to the FIFO, so a read of it would block for ever (the wait is
/// bounded far above what a refusal takes), and `/dev/zero` would fill
/// memory.
#[test]
fn fifos_and_devices_are_refused_by_every_command() {
    let d = scratch("readers-special");
    let fifo = d.join("pipe.sgf");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let fifo = fifo.to_str().unwrap();
    let out = d.join("out");
    let out = out.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["check"],
        vec!["check", "--fix", "-o", out],
        vec!["fmt"],
        vec!["dump", "--json"],
        vec!["info"],
        vec!["tree"],
        vec!["position"],
        vec!["render", "--format", "ascii"],
        vec!["score"],
        vec!["stats"],
        vec!["export"],
        vec!["convert"],
        vec!["figures", "-o", out],
    ];
    let mut inputs = vec!["/dev/zero"];
    if made {
        inputs.push(fifo);
    }
    for input in inputs {
        for c in &commands {
            let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
                .args(c)
                .arg(input)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut waited = 0;
            let status = loop {
                if let Some(s) = child.try_wait().unwrap() {
                    break Some(s);
                }
                if waited > 120_000 {
                    let _ = child.kill();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(20));
                waited += 20;
            };
            let status = status.unwrap_or_else(|| panic!("{c:?} {input}: still reading"));
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned()
                + &String::from_utf8_lossy(&out.stdout);
            assert_eq!(status.code(), Some(2), "{c:?} {input}: {err}");
            assert!(err.contains("not a regular file"), "{c:?} {input}: {err}");
        }
    }
}

/// Standard input is bounded too: more than the most a record may hold is
/// refused, not read into memory for ever.
#[test]
fn standard_input_is_bounded() {
    let cmd = format!(
        "head -c 1200000000 /dev/zero | {} info -",
        env!("CARGO_BIN_EXE_qipu")
    );
    let out = Command::new("sh").args(["-c", &cmd]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("larger than 1 GiB"), "{err}");
}
