//! Replacing a record file safely: what the viewer's Save and
//! `qipu check --fix --in-place` use.
//!
//! - The new bytes go to a temporary file created exclusively (a random
//!   name, `O_EXCL`) next to the target, are flushed to disk, and then
//!   renamed over the target, so a crash or a full disk leaves the old
//!   file whole, and the temporary file is removed on any failure. A large
//!   file can be written as its bytes come ([`Replacement`]), with the same
//!   checks, flush and rename at its commit.
//! - Nothing is written through a symbolic link: a target that is a link,
//!   or not a regular file, is refused, and backups are renamed into place
//!   (a rename replaces a link named `X.bak`, it does not follow it).
//! - A read-only file is refused, and a replaced file keeps its permissions.
//! - Optionally: the file on disk must still be what was read
//!   ([`Fingerprint`]), the replaced bytes are kept as `X.bak`, and the
//!   file as it was first opened is kept once as `X.orig`.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A cheap summary of a file's content, to tell whether it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    len: u64,
    hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `bytes`.
    pub fn of(bytes: &[u8]) -> Fingerprint {
        // A fixed-key hash: the same bytes give the same value in any process.
        let mut h =
            std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
                .build_hasher();
        h.write(bytes);
        Fingerprint {
            len: bytes.len() as u64,
            hash: h.finish(),
        }
    }
}

/// What to do besides replacing the file.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SaveOptions<'a> {
    /// Keep the bytes being replaced as `PATH.bak` (written atomically).
    pub backup: bool,
    /// Keep these bytes as `PATH.orig` unless that file already exists:
    /// the file as it was first opened survives any number of saves.
    pub original: Option<&'a [u8]>,
    /// Refuse ([`SaveError::ChangedOnDisk`]) when the file on disk is not
    /// these bytes any more (another program wrote it since it was read).
    pub expected: Option<Fingerprint>,
}

/// Why a file was not replaced.
#[derive(Debug)]
#[non_exhaustive]
pub enum SaveError {
    /// The file changed on disk since it was read.
    ChangedOnDisk,
    /// The file is read-only.
    ReadOnly,
    /// The target is a symbolic link, a directory or another special file.
    NotRegular(&'static str),
    /// The operating system refused (the message says what was attempted).
    Io(String, std::io::Error),
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::ChangedOnDisk => {
                write!(
                    f,
                    "the file was changed on disk by another program since it was read"
                )
            }
            SaveError::ReadOnly => write!(f, "the file is read-only"),
            SaveError::NotRegular(what) => write!(f, "the target is {what}, not a regular file"),
            SaveError::Io(what, e) => write!(f, "{what}: {e}"),
        }
    }
}

impl std::error::Error for SaveError {}

/// What a save wrote besides the file.
#[derive(Clone, Debug, Default)]
pub struct Saved {
    /// The backup of the replaced bytes, when written.
    pub backup: Option<PathBuf>,
    /// The original, when written by this save (it is written once).
    pub original: Option<PathBuf>,
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Writes `bytes` to a new, exclusively created temporary file beside
/// `target` and renames it over `target`. The temporary file is removed on
/// any failure.
fn write_atomic(target: &Path, bytes: &[u8], mode: Option<u32>) -> Result<(), SaveError> {
    let mut r = Replacement::create(target, mode);
    r.write(bytes);
    r.finish(mode)
}

/// A file being replaced as its new bytes come: they go to a temporary file
/// created exclusively beside the target, and [`Replacement::commit`] checks
/// the target as [`replace_file`] does, flushes the bytes to disk and
/// renames the temporary file over the target. So a large file is written
/// without holding all of it in memory, with the same promises: on any
/// failure, or when dropped uncommitted, the temporary file is removed and
/// the target is as it was.
///
/// A failure to create or write the temporary file is kept and returned by
/// [`Replacement::commit`], after the checks of the target, as
/// [`replace_file`] returns it.
#[derive(Debug)]
pub struct Replacement {
    target: PathBuf,
    /// The temporary file and its name, until renamed or removed.
    tmp: Option<(PathBuf, File)>,
    /// The file once renamed over the target (or its temporary file once
    /// removed), still open to read back what was written.
    kept: Option<File>,
    /// The first failure to create or write the temporary file.
    failed: Option<SaveError>,
    len: u64,
}

impl Replacement {
    /// Starts replacing (or creating) the regular file `path`.
    pub fn begin(path: &Path) -> Replacement {
        // The temporary file is created with the target's permissions, as
        // the commit leaves them.
        #[cfg(unix)]
        let mode = fs::symlink_metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.permissions().mode() & 0o7777
            });
        #[cfg(not(unix))]
        let mode = None;
        Replacement::create(path, mode)
    }

    fn create(target: &Path, mode: Option<u32>) -> Replacement {
        let mut r = Replacement {
            target: target.to_path_buf(),
            tmp: None,
            kept: None,
            failed: None,
            len: 0,
        };
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut attempt = 0u32;
        loop {
            let tmp = dir.join(format!(".{name}.qipu-tmp-{:016x}", random_u64(attempt)));
            let mut opts = OpenOptions::new();
            // Readable too: what was written can be read back (see `read_at`).
            opts.read(true).write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                opts.mode(mode.unwrap_or(0o666));
            }
            match opts.open(&tmp) {
                Ok(f) => {
                    r.tmp = Some((tmp, f));
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => {
                    attempt += 1;
                }
                Err(e) => {
                    r.failed = Some(r.io("write a temporary file for", e));
                    break;
                }
            }
        }
        r
    }

    fn io(&self, what: &str, e: std::io::Error) -> SaveError {
        SaveError::Io(format!("cannot {what} {}", self.target.display()), e)
    }

    /// Appends `bytes`; returns whether everything so far was written (the
    /// first failure is kept for [`Replacement::commit`], and later bytes
    /// are dropped).
    pub fn write(&mut self, bytes: &[u8]) -> bool {
        if self.failed.is_some() {
            return false;
        }
        if let Some((_, f)) = &mut self.tmp {
            match f.write_all(bytes) {
                Ok(()) => self.len += bytes.len() as u64,
                Err(e) => {
                    self.failed = Some(self.io("write", e));
                    // A full disk gets its space back at once.
                    self.remove_tmp();
                }
            }
        }
        self.failed.is_none()
    }

    /// Whether creating or writing the temporary file failed.
    pub fn failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Drops what was written, to write the file again from its start.
    pub fn restart(&mut self) -> bool {
        if self.failed.is_some() {
            return false;
        }
        if let Some((_, f)) = &mut self.tmp {
            use std::io::Seek;
            if let Err(e) = f.set_len(0).and_then(|()| f.rewind()) {
                self.failed = Some(self.io("write", e));
                self.remove_tmp();
                return false;
            }
        }
        self.len = 0;
        true
    }

    /// Reads `len` bytes written at `offset` back: before the commit, and
    /// after it from the file renamed (still open: what this replacement
    /// wrote, even when another file is put at the path since).
    ///
    /// # Errors
    /// When nothing is open (the temporary file could not be written) or
    /// the read fails.
    pub fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = match (&self.tmp, &self.kept) {
            (Some((_, f)), _) | (None, Some(f)) => f,
            (None, None) => return Err(std::io::ErrorKind::NotFound.into()),
        };
        f.seek(SeekFrom::Start(offset))?;
        let mut buf = vec![0; len];
        f.read_exact(&mut buf)?;
        Ok(buf)
    }

    /// Removes the temporary file, keeping it open to be read back.
    fn remove_tmp(&mut self) {
        if let Some((p, f)) = self.tmp.take() {
            let _ = fs::remove_file(&p);
            self.kept = Some(f);
        }
    }

    /// Checks the target (see [`replace_file`]), keeps the original and the
    /// backup that `opts` asks for, and puts the bytes written in place.
    ///
    /// # Errors
    /// See [`SaveError`]; on any error the file at the target is as it
    /// was, and the temporary file is removed.
    pub fn commit(&mut self, opts: &SaveOptions<'_>) -> Result<Saved, SaveError> {
        let r = self.commit_checked(opts);
        if r.is_err() {
            self.remove_tmp();
        }
        r
    }

    fn commit_checked(&mut self, opts: &SaveOptions<'_>) -> Result<Saved, SaveError> {
        if self.failed.is_some() {
            // What was written is not wanted: its space is given back
            // before a backup is written.
            self.kept = None;
        }
        let path = self.target.clone();
        let path = path.as_path();
        let mut saved = Saved::default();
        let meta = match fs::symlink_metadata(path) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(SaveError::Io(format!("cannot read {}", path.display()), e)),
        };
        let mut mode = None;
        let mut current = None;
        if let Some(meta) = &meta {
            if meta.file_type().is_symlink() {
                return Err(SaveError::NotRegular("a symbolic link"));
            }
            if !meta.is_file() {
                return Err(SaveError::NotRegular(if meta.is_dir() {
                    "a directory"
                } else {
                    "a special file"
                }));
            }
            if meta.permissions().readonly() {
                return Err(SaveError::ReadOnly);
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                mode = Some(meta.permissions().mode() & 0o7777);
            }
            if opts.expected.is_some() || opts.backup {
                let bytes = fs::read(path)
                    .map_err(|e| SaveError::Io(format!("cannot read {}", path.display()), e))?;
                current = Some(bytes);
            }
        }
        if let Some(expected) = opts.expected {
            // A file that vanished counts as changed too.
            if current.as_deref().map(Fingerprint::of) != Some(expected) {
                return Err(SaveError::ChangedOnDisk);
            }
        }
        if let Some(orig) = &opts.original {
            let p = sibling(path, ".orig");
            // Created exclusively: an existing `.orig` (or a link of that name)
            // is never touched.
            if let Ok(mut f) = OpenOptions::new().write(true).create_new(true).open(&p) {
                let ok = f.write_all(orig).and_then(|()| f.sync_all());
                drop(f);
                match ok {
                    Ok(()) => saved.original = Some(p),
                    Err(e) => {
                        let _ = fs::remove_file(&p);
                        return Err(SaveError::Io(
                            format!("cannot keep the original as {}", p.display()),
                            e,
                        ));
                    }
                }
            }
        }
        if opts.backup
            && let Some(cur) = &current
        {
            let p = sibling(path, ".bak");
            write_atomic(&p, cur, mode)?;
            saved.backup = Some(p);
        }
        self.finish(mode)?;
        Ok(saved)
    }

    /// Flushes the temporary file to disk, sets its permissions to `mode`
    /// and renames it over the target; removes it on any failure.
    fn finish(&mut self, mode: Option<u32>) -> Result<(), SaveError> {
        if let Some(e) = self.failed.take() {
            self.remove_tmp();
            return Err(e);
        }
        let Some((tmp, file)) = self.tmp.take() else {
            return Err(self.io("write", std::io::ErrorKind::NotFound.into()));
        };
        let written = file
            .sync_all()
            .map_err(|e| self.io("write", e))
            .and_then(|()| {
                #[cfg(unix)]
                if let Some(m) = mode {
                    // The umask narrowed the mode at creation: set it exactly.
                    use std::os::unix::fs::PermissionsExt;
                    fs::set_permissions(&tmp, fs::Permissions::from_mode(m))
                        .map_err(|e| self.io("set the permissions of", e))?;
                }
                #[cfg(not(unix))]
                let _ = mode;
                Ok(())
            });
        let done = written
            .and_then(|()| fs::rename(&tmp, &self.target).map_err(|e| self.io("replace", e)));
        if done.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        self.kept = Some(file);
        done
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some((p, _)) = self.tmp.take() {
            let _ = fs::remove_file(&p);
        }
    }
}

fn random_u64(salt: u32) -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(salt);
    h.write_u32(std::process::id());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Replaces (or creates) the regular file `path` with `bytes` (see the
/// module docs).
///
/// # Errors
/// See [`SaveError`]; on any error the file at `path` is as it was.
pub fn replace_file(path: &Path, bytes: &[u8], opts: &SaveOptions<'_>) -> Result<Saved, SaveError> {
    let mut r = Replacement::begin(path);
    r.write(bytes);
    r.commit(opts)
}

/// Reads a file that will later be saved with [`replace_file`]: its bytes
/// and their fingerprint.
///
/// # Errors
/// When the file cannot be read.
pub fn read_for_edit(path: &Path) -> std::io::Result<(Vec<u8>, Fingerprint)> {
    let mut f = File::open(path)?;
    let mut v = Vec::new();
    std::io::Read::read_to_end(&mut f, &mut v)?;
    let fp = Fingerprint::of(&v);
    Ok((v, fp))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qipu-save-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(d: &Path) -> Vec<String> {
        fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("qipu-tmp"))
            .collect()
    }

    #[test]
    fn links_named_like_backups_are_replaced_not_followed() {
        let d = tmp("links");
        let outside = d.join("outside.txt");
        fs::write(&outside, "precious").unwrap();
        let x = d.join("x.sgf");
        fs::write(&x, "(;C[old])").unwrap();
        symlink(&outside, d.join("x.sgf.bak")).unwrap();
        symlink(&outside, d.join("x.sgf.orig")).unwrap();
        symlink(&outside, d.join("x.sgf.qipu-tmp")).unwrap();
        let opts = SaveOptions {
            backup: true,
            original: Some(b"(;C[old])"),
            expected: Some(Fingerprint::of(b"(;C[old])")),
        };
        let saved = replace_file(&x, b"(;C[new])", &opts).unwrap();
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
        assert_eq!(fs::read_to_string(&x).unwrap(), "(;C[new])");
        assert!(!fs::symlink_metadata(&x).unwrap().file_type().is_symlink());
        assert_eq!(
            fs::read_to_string(d.join("x.sgf.bak")).unwrap(),
            "(;C[old])"
        );
        assert!(saved.original.is_none(), "an existing .orig is left alone");
        assert!(leftovers(&d).iter().all(|n| n == "x.sgf.qipu-tmp"));
        // The target itself a link: refused.
        let l = d.join("l.sgf");
        symlink(&outside, &l).unwrap();
        assert!(matches!(
            replace_file(&l, b"x", &SaveOptions::default()),
            Err(SaveError::NotRegular(_))
        ));
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
    }

    #[test]
    fn the_original_is_kept_once_and_backups_follow_saves() {
        let d = tmp("orig");
        let x = d.join("g.sgf");
        fs::write(&x, "v0").unwrap();
        for (i, v) in ["v1", "v2", "v3"].iter().enumerate() {
            let prev = fs::read(&x).unwrap();
            let opts = SaveOptions {
                backup: true,
                original: Some(b"v0"),
                expected: Some(Fingerprint::of(&prev)),
            };
            let s = replace_file(&x, v.as_bytes(), &opts).unwrap();
            assert_eq!(s.original.is_some(), i == 0);
            assert_eq!(fs::read(d.join("g.sgf.bak")).unwrap(), prev);
        }
        assert_eq!(fs::read_to_string(d.join("g.sgf.orig")).unwrap(), "v0");
        assert_eq!(fs::read_to_string(&x).unwrap(), "v3");
    }

    #[test]
    fn changes_on_disk_and_read_only_files_are_refused() {
        let d = tmp("guard");
        let x = d.join("g.sgf");
        fs::write(&x, "mine").unwrap();
        let fp = Fingerprint::of(b"mine");
        fs::write(&x, "theirs").unwrap();
        let opts = SaveOptions {
            expected: Some(fp),
            ..SaveOptions::default()
        };
        assert!(matches!(
            replace_file(&x, b"new", &opts),
            Err(SaveError::ChangedOnDisk)
        ));
        assert_eq!(fs::read_to_string(&x).unwrap(), "theirs");
        fs::set_permissions(&x, fs::Permissions::from_mode(0o444)).unwrap();
        assert!(matches!(
            replace_file(&x, b"new", &SaveOptions::default()),
            Err(SaveError::ReadOnly)
        ));
        // A writable file keeps its mode.
        fs::set_permissions(&x, fs::Permissions::from_mode(0o640)).unwrap();
        replace_file(&x, b"new", &SaveOptions::default()).unwrap();
        assert_eq!(
            fs::metadata(&x).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert!(leftovers(&d).is_empty());
    }

    #[test]
    fn a_replacement_written_in_pieces_is_read_back_and_committed() {
        let d = tmp("pieces");
        let x = d.join("g.sgf");
        fs::write(&x, "old").unwrap();
        fs::set_permissions(&x, fs::Permissions::from_mode(0o640)).unwrap();
        let mut r = Replacement::begin(&x);
        assert!(r.write(b"(;C[a])") && r.write(b"\n(;C[b])"));
        // Nothing is in place before the commit; a start again drops it all.
        assert_eq!(fs::read_to_string(&x).unwrap(), "old");
        assert!(r.restart() && r.is_empty());
        assert!(r.write(b"(;C[x])") && r.write(b"\n(;C[y])"));
        assert_eq!(r.len(), 15);
        assert_eq!(r.read_at(8, 7).unwrap(), b"(;C[y])");
        let opts = SaveOptions {
            backup: true,
            expected: Some(Fingerprint::of(b"old")),
            ..SaveOptions::default()
        };
        r.commit(&opts).unwrap();
        assert_eq!(fs::read_to_string(&x).unwrap(), "(;C[x])\n(;C[y])");
        assert_eq!(fs::read_to_string(d.join("g.sgf.bak")).unwrap(), "old");
        assert_eq!(
            fs::metadata(&x).unwrap().permissions().mode() & 0o777,
            0o640
        );
        // Still readable once in place, from the file this replacement
        // wrote, even when another file is put at its path since.
        fs::write(d.join("other"), "someone else's").unwrap();
        fs::rename(d.join("other"), &x).unwrap();
        assert_eq!(r.read_at(0, 7).unwrap(), b"(;C[x])");
        assert!(leftovers(&d).is_empty());
        // Dropped uncommitted: the target stays, nothing is left behind.
        let mut r = Replacement::begin(&x);
        r.write(b"never");
        drop(r);
        assert_eq!(fs::read_to_string(&x).unwrap(), "someone else's");
        assert!(leftovers(&d).is_empty());
    }

    #[test]
    fn a_replacement_checks_the_target_when_committed() {
        let d = tmp("late");
        let outside = d.join("outside.txt");
        fs::write(&outside, "precious").unwrap();
        // The target became a link while the bytes were written.
        let l = d.join("l.sgf");
        let mut r = Replacement::begin(&l);
        r.write(b"(;C[new])");
        symlink(&outside, &l).unwrap();
        assert!(matches!(
            r.commit(&SaveOptions::default()),
            Err(SaveError::NotRegular(_))
        ));
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
        assert!(leftovers(&d).is_empty());
        // Changed on disk while the bytes were written.
        let x = d.join("g.sgf");
        fs::write(&x, "mine").unwrap();
        let mut r = Replacement::begin(&x);
        r.write(b"new");
        fs::write(&x, "theirs").unwrap();
        let opts = SaveOptions {
            expected: Some(Fingerprint::of(b"mine")),
            ..SaveOptions::default()
        };
        assert!(matches!(r.commit(&opts), Err(SaveError::ChangedOnDisk)));
        assert_eq!(fs::read_to_string(&x).unwrap(), "theirs");
        assert!(leftovers(&d).is_empty());
        // A folder where nothing can be created: the failure comes with
        // the commit, after the checks of the target.
        let target = d.join("missing-dir").join("g.sgf");
        let mut r = Replacement::begin(&target);
        assert!(r.failed() && !r.write(b"x"));
        let e = r.commit(&SaveOptions::default()).unwrap_err();
        assert!(e.to_string().contains("temporary file"), "{e}");
    }

    #[test]
    fn targets_that_cannot_be_replaced_leave_nothing_behind() {
        let d = tmp("fail");
        let x = d.join("g.sgf");
        fs::create_dir(&x).unwrap();
        assert!(matches!(
            replace_file(&x, b"new", &SaveOptions::default()),
            Err(SaveError::NotRegular("a directory"))
        ));
        let target = d.join("missing-dir").join("g.sgf");
        assert!(replace_file(&target, b"new", &SaveOptions::default()).is_err());
        assert!(leftovers(&d).is_empty());
    }
}
