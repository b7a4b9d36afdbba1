//! Finding record files: the one directory walker of every front end (the
//! `qipu` commands, the viewer's file list, Python's `expand_paths`).
//!
//! A directory is walked in name order, files before subdirectories, and
//! only files whose extension belongs to a readable format are kept
//! ([`is_record_path`]). Symbolic links are followed only while they stay
//! inside the directory being walked, each directory is entered once (a
//! link loop `l → .` cannot trap the walk), each file is listed once, only
//! regular files are listed (a FIFO named `x.sgf` would block a reader),
//! and the walk is bounded in files, depth and entries examined, so a
//! hostile tree answers quickly.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Limits of a walk.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WalkOptions {
    /// Stop after this many record files (a warning says so).
    pub max_files: usize,
    /// Directories deeper than this below the root are not entered.
    pub max_depth: usize,
    /// Stop after examining this many directory entries of any kind.
    pub max_entries: usize,
    /// Also list archives (`.zip`, `.tar`, `.tar.gz`, `.tgz`, `.7z`; see
    /// [`is_archive_path`]) for a reader of their members (`archive.rs`).
    pub archives: bool,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_files: 10_000_000,
            max_depth: 256,
            max_entries: 50_000_000,
            archives: false,
        }
    }
}

impl WalkOptions {
    /// Options with a bound on the number of files.
    pub fn with_max_files(mut self, n: usize) -> Self {
        self.max_files = n;
        self
    }

    /// Options that also list archives.
    pub fn with_archives(mut self, yes: bool) -> Self {
        self.archives = yes;
        self
    }
}

/// What a walk found.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// The record files, in walk order. Paths start with the root as given
    /// (not canonicalised), so they read as the user wrote them.
    pub files: Vec<PathBuf>,
    /// Things skipped, one line each (an unreadable subdirectory, a link
    /// leaving the root, a limit reached).
    pub warnings: Vec<String>,
    /// Whether a limit cut the walk short.
    pub truncated: bool,
}

/// Extensions of the record files of every built-in format, lower case.
pub fn record_extensions() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = crate::builtin()
        .formats()
        .flat_map(|f| f.extensions().iter().copied())
        .collect();
    v.dedup();
    v
}

/// Whether a path names a record file of a built-in format, by its
/// extension in any case.
pub fn is_record_path(path: &Path) -> bool {
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return false;
    };
    crate::builtin()
        .formats()
        .any(|f| f.extensions().iter().any(|x| x.eq_ignore_ascii_case(ext)))
}

/// Extensions of the archives whose members can be read, lower case
/// (`.tar.gz` is matched on the whole name).
pub const ARCHIVE_EXTENSIONS: [&str; 5] = ["zip", "tar", "tar.gz", "tgz", "7z"];

/// Whether a path names an archive of record files, by its extension in any
/// case (see [`ARCHIVE_EXTENSIONS`]).
pub fn is_archive_path(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let name = name.to_ascii_lowercase();
    ARCHIVE_EXTENSIONS.iter().any(|e| {
        name.len() > e.len() + 1
            && name.ends_with(e)
            && name.as_bytes()[name.len() - e.len() - 1] == b'.'
    })
}

/// Walks a directory for record files (see the module docs).
///
/// # Errors
/// When `root` itself cannot be read as a directory.
pub fn walk_dir(root: &Path, opts: &WalkOptions) -> std::io::Result<Walk> {
    let canon_root = root.canonicalize()?;
    // Fails early, with the OS's reason, when the root is not a readable directory.
    std::fs::read_dir(root)?;
    let mut walk = Walk::default();
    let mut seen_dirs: HashSet<PathBuf> = HashSet::new();
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    let mut examined = 0usize;
    seen_dirs.insert(canon_root.clone());
    // (path as shown, its canonical path, depth below the root)
    let mut stack: Vec<(PathBuf, PathBuf, usize)> =
        vec![(root.to_path_buf(), canon_root.clone(), 0)];
    'dirs: while let Some((dir, canon_dir, depth)) = stack.pop() {
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) => {
                walk.warnings
                    .push(format!("skipped directory {}: {e}", dir.display()));
                continue;
            }
        };
        let mut entries: Vec<(std::ffi::OsString, std::fs::FileType)> = Vec::new();
        for e in rd {
            examined += 1;
            if examined > opts.max_entries {
                walk.truncated = true;
                walk.warnings.push(format!(
                    "stopped after examining {} directory entries",
                    opts.max_entries
                ));
                break 'dirs;
            }
            match e {
                Ok(e) => {
                    if let Ok(t) = e.file_type() {
                        entries.push((e.file_name(), t));
                    }
                }
                Err(e) => walk
                    .warnings
                    .push(format!("skipped an entry of {}: {e}", dir.display())),
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut subdirs = Vec::new();
        for (name, ftype) in entries {
            let path = dir.join(&name);
            // Where the entry really is: a plain entry is its directory's
            // canonical path plus its name; a link is resolved, and counts
            // only when it stays inside the root.
            let (is_dir, is_file, canon) = if ftype.is_symlink() {
                let Ok(target) = path.canonicalize() else {
                    continue; // dangling
                };
                let Ok(meta) = std::fs::metadata(&target) else {
                    continue;
                };
                if !target.starts_with(&canon_root) {
                    if meta.is_dir()
                        || is_record_path(&path)
                        || (opts.archives && is_archive_path(&path))
                    {
                        walk.warnings.push(format!(
                            "skipped {}: a link to outside {}",
                            path.display(),
                            root.display()
                        ));
                    }
                    continue;
                }
                (meta.is_dir(), meta.is_file(), target)
            } else {
                (ftype.is_dir(), ftype.is_file(), canon_dir.join(&name))
            };
            if is_dir {
                if depth + 1 > opts.max_depth {
                    walk.truncated = true;
                    walk.warnings.push(format!(
                        "skipped {}: deeper than {} levels",
                        path.display(),
                        opts.max_depth
                    ));
                    continue;
                }
                if seen_dirs.insert(canon.clone()) {
                    subdirs.push((path, canon, depth + 1));
                }
            } else if is_file
                && (is_record_path(&path) || (opts.archives && is_archive_path(&path)))
                && seen_files.insert(canon)
            {
                if walk.files.len() >= opts.max_files {
                    walk.truncated = true;
                    walk.warnings
                        .push(format!("stopped after {} record files", opts.max_files));
                    break 'dirs;
                }
                walk.files.push(path);
            }
        }
        // Subdirectories in name order, after the files of this one.
        stack.extend(subdirs.into_iter().rev());
    }
    Ok(walk)
}

/// The record files named by `paths`: a file is taken as given (whatever
/// its extension), a directory is walked with [`walk_dir`], and `-`
/// (standard input) and (with the `archive` feature) a member named
/// `ARCHIVE!MEMBER` are passed through.
///
/// # Errors
/// When a path given does not exist or a directory given cannot be read;
/// the message names the path.
pub fn collect(paths: &[impl AsRef<Path>], opts: &WalkOptions) -> Result<Walk, String> {
    let mut out = Walk::default();
    for p in paths {
        let p = p.as_ref();
        if p == Path::new("-") {
            out.files.push(p.to_path_buf());
            continue;
        }
        // `ARCHIVE!MEMBER`: a record file inside an archive, read by its
        // reader (see `crate::input::read_named`).
        #[cfg(feature = "archive")]
        if let Some(name) = p.to_str()
            && crate::archive::split_member_path(name).is_some()
        {
            out.files.push(p.to_path_buf());
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        if !meta.is_dir() {
            out.files.push(p.to_path_buf());
            continue;
        }
        let w = walk_dir(p, opts).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        out.files.extend(w.files);
        out.warnings.extend(w.warnings);
        out.truncated |= w.truncated;
    }
    Ok(out)
}

/// The sentence of a walk of `paths` that found no record file: what was
/// looked for, and where.
pub fn none_found(paths: &[impl AsRef<Path>]) -> String {
    let shown: Vec<String> = paths
        .iter()
        .take(3)
        .map(|p| p.as_ref().display().to_string())
        .collect();
    let mut exts: Vec<String> = record_extensions()
        .iter()
        .map(|e| format!(".{e}"))
        .collect();
    if cfg!(feature = "archive") {
        exts.extend(ARCHIVE_EXTENSIONS.iter().map(|e| format!(".{e}")));
    }
    format!(
        "no record files found in {}{} (files ending in {})",
        shown.join(", "),
        if paths.len() > 3 { ", …" } else { "" },
        exts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_come_from_the_registry() {
        let ext = record_extensions();
        for e in ["sgf", "sgfs", "mgt", "gib", "ngf", "ugf", "ugi", "wgs"] {
            assert!(ext.contains(&e), "{e} missing from {ext:?}");
        }
        assert!(is_record_path(Path::new("a/B.SGF")));
        assert!(is_record_path(Path::new("x.Ugi")));
        assert!(!is_record_path(Path::new("README.md")));
        assert!(!is_record_path(Path::new("sgf")));
        assert!(is_archive_path(Path::new("a/games.TAR.GZ")));
        assert!(is_archive_path(Path::new("x.7z")));
        assert!(!is_archive_path(Path::new("zip")));
        assert!(!is_archive_path(Path::new("a.sgf")));
    }
}

#[cfg(all(test, unix))]
mod unix_tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qipu-walk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn link_loops_end_and_files_are_listed_once() {
        let d = tmp("loops");
        symlink(".", d.join("l1")).unwrap();
        symlink(".", d.join("l2")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        symlink("..", d.join("sub/up")).unwrap();
        std::fs::write(d.join("sub/a.sgf"), "(;)").unwrap();
        symlink("sub/a.sgf", d.join("alias.sgf")).unwrap();
        let w = walk_dir(&d, &WalkOptions::default()).unwrap();
        assert_eq!(w.files, vec![d.join("alias.sgf")]);
        assert!(!w.truncated);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn links_out_of_the_root_are_not_followed() {
        let d = tmp("out");
        let outside = tmp("outside");
        std::fs::write(outside.join("secret.sgf"), "(;)").unwrap();
        std::fs::create_dir(d.join("root")).unwrap();
        symlink(&outside, d.join("root/dir")).unwrap();
        symlink(outside.join("secret.sgf"), d.join("root/file.sgf")).unwrap();
        std::fs::write(d.join("root/own.SGF"), "(;)").unwrap();
        let w = walk_dir(&d.join("root"), &WalkOptions::default()).unwrap();
        assert_eq!(w.files, vec![d.join("root/own.SGF")]);
        assert_eq!(w.warnings.len(), 2, "{:?}", w.warnings);
        std::fs::remove_dir_all(&d).unwrap();
        std::fs::remove_dir_all(&outside).unwrap();
    }

    #[test]
    fn only_regular_files_and_bounded() {
        let d = tmp("bounded");
        // A FIFO named like a record would block whoever reads it.
        let fifo = d.join("pipe.sgf");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        for i in 0..5 {
            std::fs::write(d.join(format!("g{i}.gib")), "x").unwrap();
        }
        let w = walk_dir(&d, &WalkOptions::default().with_max_files(3)).unwrap();
        assert_eq!(w.files.len(), 3);
        assert!(w.truncated);
        if ok {
            let w = walk_dir(&d, &WalkOptions::default()).unwrap();
            assert!(!w.files.contains(&fifo));
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
