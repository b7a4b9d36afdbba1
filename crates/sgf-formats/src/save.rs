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
//! - Temporary files are named `.X.qipu-tmp-` and 16 hex digits, and their
//!   writer holds a lock on them while it lives. A process killed while
//!   writing leaves one behind: the next replacement in that directory
//!   removes those whose lock is free ([`sweep_stale`]), and a program can
//!   remove its own at a signal ([`remove_live_temporaries`]).
//! - [`Destination`] is the one writer of every output a program makes: a
//!   file replaced as above, standard output, or a pipe or device named as
//!   the output (written directly: there is nothing there to lose).

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// A cheap summary of a file's content, to tell whether it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    len: u64,
    hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `bytes`.
    pub fn of(bytes: &[u8]) -> Fingerprint {
        let mut h = Fingerprint::hasher();
        h.write(bytes);
        Fingerprint {
            len: bytes.len() as u64,
            hash: h.finish(),
        }
    }

    /// The fingerprint of what `r` reads to its end, read a piece at a
    /// time (the same as [`Fingerprint::of`] its bytes): a file is
    /// compared without being held.
    ///
    /// # Errors
    /// The errors of `r`.
    pub fn of_reader(r: &mut dyn std::io::Read) -> std::io::Result<Fingerprint> {
        let mut h = Fingerprint::hasher();
        let mut buf = vec![0u8; 1 << 16];
        let mut len = 0u64;
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                // The hash is fed as a stream: pieces give what the whole gives.
                Ok(n) => {
                    h.write(&buf[..n]);
                    len += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Fingerprint {
            len,
            hash: h.finish(),
        })
    }

    /// A fixed-key hash: the same bytes give the same value in any process.
    fn hasher() -> std::collections::hash_map::DefaultHasher {
        std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
            .build_hasher()
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
    /// Do not flush the bytes to disk before the rename: for many files
    /// written in a row (one per game of a collection), where a flush each
    /// would take most of the time. A crash of the program, a signal or a
    /// full disk still leaves the old file or the new one, whole; a power
    /// failure may not.
    pub skip_sync: bool,
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
    r.finish(mode, true)
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
        // Permissions are Unix modes; elsewhere the system's defaults hold.
        #[cfg(not(unix))]
        let _ = mode;
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
        sweep_once(dir);
        let mut attempt = 0u32;
        loop {
            let tmp = dir.join(format!(".{name}{TMP_MARK}{:016x}", random_u64(attempt)));
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
                    // Held while this process lives: a later sweep tells a
                    // file being written from one left by a killed writer.
                    let _ = f.try_lock();
                    register_live(&tmp);
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

    /// Reads back all that was written, into bytes held shared (one
    /// allocation of their size, no copy beside it): what a writer reads
    /// again to check what it wrote, before or after the commit.
    ///
    /// # Errors
    /// As [`Replacement::read_at`].
    pub fn read_all_shared(&self) -> std::io::Result<std::sync::Arc<[u8]>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = match (&self.tmp, &self.kept) {
            (Some((_, f)), _) | (None, Some(f)) => f,
            (None, None) => return Err(std::io::ErrorKind::NotFound.into()),
        };
        let len = usize::try_from(self.len).map_err(|_| std::io::ErrorKind::OutOfMemory)?;
        let mut buf: std::sync::Arc<[u8]> = std::iter::repeat_n(0u8, len).collect();
        f.seek(SeekFrom::Start(0))?;
        f.read_exact(std::sync::Arc::get_mut(&mut buf).expect("not shared yet"))?;
        // Appends go on at the end.
        f.seek(SeekFrom::End(0))?;
        Ok(buf)
    }

    /// Removes the temporary file, keeping it open to be read back.
    fn remove_tmp(&mut self) {
        if let Some((p, f)) = self.tmp.take() {
            let _ = fs::remove_file(&p);
            unregister_live(&p);
            self.kept = Some(f);
        }
    }

    /// The path being replaced.
    pub fn target(&self) -> &Path {
        &self.target
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
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut mode = None;
        let mut current = None;
        let mut on_disk = None;
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
            let unread = |e| SaveError::Io(format!("cannot read {}", path.display()), e);
            if opts.backup {
                current = Some(fs::read(path).map_err(unread)?);
            } else if opts.expected.is_some() {
                // Compared as it is read, not held beside what replaces it.
                let mut f = File::open(path).map_err(unread)?;
                on_disk = Some(Fingerprint::of_reader(&mut f).map_err(unread)?);
            }
        }
        if let Some(expected) = opts.expected {
            // A file that vanished counts as changed too.
            if on_disk.or_else(|| current.as_deref().map(Fingerprint::of)) != Some(expected) {
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
        self.finish(mode, !opts.skip_sync)?;
        Ok(saved)
    }

    /// Flushes the temporary file to disk, sets its permissions to `mode`
    /// and renames it over the target; removes it on any failure.
    fn finish(&mut self, mode: Option<u32>, sync: bool) -> Result<(), SaveError> {
        if let Some(e) = self.failed.take() {
            self.remove_tmp();
            return Err(e);
        }
        let Some((tmp, file)) = self.tmp.take() else {
            return Err(self.io("write", std::io::ErrorKind::NotFound.into()));
        };
        let synced = if sync { file.sync_all() } else { Ok(()) };
        let written = synced.map_err(|e| self.io("write", e)).and_then(|()| {
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
        unregister_live(&tmp);
        self.kept = Some(file);
        done
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some((p, _)) = self.tmp.take() {
            let _ = fs::remove_file(&p);
            unregister_live(&p);
        }
    }
}

/// What every temporary file's name holds between the target's name and
/// its 16 hex digits.
const TMP_MARK: &str = ".qipu-tmp-";

/// A temporary file whose writer is gone but that is younger than this is
/// left alone: its writer may have created it and not locked it yet.
const STALE_AFTER: Duration = Duration::from_secs(2);

/// Where locks cannot be taken (some network file systems), a temporary
/// file is taken as stale only after this long.
const STALE_UNLOCKABLE_AFTER: Duration = Duration::from_secs(24 * 3600);

/// The temporary files this process is writing, for [`remove_live_temporaries`].
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The directories swept by this process (each once).
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn register_live(p: &Path) {
    if let Ok(mut l) = LIVE.lock() {
        l.push(p.to_path_buf());
    }
}

fn unregister_live(p: &Path) {
    if let Ok(mut l) = LIVE.lock()
        && let Some(i) = l.iter().position(|x| x == p)
    {
        // In order: a file is removed before the folder made for it.
        l.remove(i);
    }
}

/// Has [`remove_live_temporaries`] remove `p` too, a file or an empty
/// folder this process made for its own use while it runs (`qipu view`'s
/// launch page and its folder): an interrupted process leaves nothing
/// behind. Things registered later are removed first (a file before its
/// folder).
pub fn remove_on_signal(p: &Path) {
    register_live(p);
}

/// Takes back [`remove_on_signal`], once `p` was removed otherwise.
pub fn forget_on_signal(p: &Path) {
    unregister_live(p);
}

/// Removes the temporary files this process is writing (and what
/// [`remove_on_signal`] named), and returns how many: for a signal
/// handler (SIGINT, SIGTERM) before the process exits, so that an
/// interrupted save leaves the target as it was and nothing beside it.
pub fn remove_live_temporaries() -> usize {
    let Ok(mut l) = LIVE.lock() else {
        return 0;
    };
    let n = l.len();
    for p in l.drain(..).rev() {
        if fs::remove_file(&p).is_err() {
            let _ = fs::remove_dir(&p);
        }
    }
    n
}

/// Whether `name` is a temporary file's name (`.X.qipu-tmp-` + 16 hex digits).
pub fn is_temporary_name(name: &str) -> bool {
    let Some(i) = name.rfind(TMP_MARK) else {
        return false;
    };
    let hex = &name[i + TMP_MARK.len()..];
    name.starts_with('.')
        && i > 1
        && hex.len() == 16
        && hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn sweep_once(dir: &Path) {
    let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let first = SWEPT
        .lock()
        .map(|mut s| s.get_or_insert_with(HashSet::new).insert(key))
        .unwrap_or(false);
    if first {
        sweep_stale(dir);
    }
}

/// Removes the temporary files that interrupted replacements left in `dir`
/// (a process killed while writing), and returns how many: only regular
/// files named as this module names them ([`is_temporary_name`]) whose
/// lock no living writer holds, and that are older than two seconds (or
/// a day, where the file system takes no locks). A replacement sweeps its
/// directory the first time a process writes there.
pub fn sweep_stale(dir: &Path) -> usize {
    let Ok(rd) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for e in rd.flatten() {
        let name = e.file_name();
        if !name.to_str().is_some_and(is_temporary_name) {
            continue;
        }
        let path = e.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        if !meta.is_file() || age < STALE_AFTER {
            continue;
        }
        let Ok(f) = File::open(&path) else {
            continue;
        };
        let stale = match f.try_lock() {
            Ok(()) => true,
            Err(fs::TryLockError::WouldBlock) => false,
            Err(fs::TryLockError::Error(_)) => age >= STALE_UNLOCKABLE_AFTER,
        };
        if stale && fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Where an output goes: see [`Destination::open`].
#[derive(Debug)]
enum Sink {
    Stdout,
    File(Replacement),
    /// A FIFO or a character device named as the output (`/dev/null`).
    #[cfg_attr(not(unix), allow(dead_code))]
    Special(File),
}

/// The one writer of a program's outputs (`-o FILE`, or standard output):
/// a regular file is replaced safely ([`Replacement`]: a temporary file
/// renamed over it at [`Destination::commit`], never written through a
/// symbolic link, left as it was on any failure or when the destination
/// is dropped uncommitted); standard output and a FIFO or device named as
/// the output are written as the bytes come. Writes are buffered.
///
/// ```
/// use std::io::Write;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = std::env::temp_dir().join(format!("qipu-dest-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.sgf");
/// let mut out = sgf_formats::save::Destination::open(Some(&path))?;
/// out.write_all(b"(;GM[1])")?;
/// out.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"(;GM[1])");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Destination {
    sink: Sink,
    buf: Vec<u8>,
    /// The first failure to write (kept for the commit).
    failed: Option<std::io::Error>,
}

const DEST_BUF: usize = 64 << 10;

impl Destination {
    /// Standard output.
    pub fn stdout() -> Destination {
        Destination::of(Sink::Stdout)
    }

    fn of(sink: Sink) -> Destination {
        Destination {
            sink,
            buf: Vec::with_capacity(DEST_BUF),
            failed: None,
        }
    }

    /// Standard output for `None` or `-`, else the file at `path` (see
    /// the type's docs). What cannot be replaced is refused now, before
    /// anything is made: a symbolic link, a directory, a read-only file.
    ///
    /// # Errors
    /// See [`SaveError`].
    pub fn open(path: Option<&Path>) -> Result<Destination, SaveError> {
        let Some(path) = path.filter(|p| *p != Path::new("-")) else {
            return Ok(Destination::stdout());
        };
        match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(SaveError::NotRegular("a symbolic link"));
            }
            Ok(m) if m.is_dir() => return Err(SaveError::NotRegular("a directory")),
            Ok(m) if !m.is_file() => return Destination::special(path, &m),
            Ok(m) if m.permissions().readonly() => return Err(SaveError::ReadOnly),
            _ => {}
        }
        let mut r = Replacement::begin(path);
        if let Some(e) = r.failed.take() {
            return Err(e);
        }
        Ok(Destination::of(Sink::File(r)))
    }

    #[cfg(unix)]
    fn special(path: &Path, m: &fs::Metadata) -> Result<Destination, SaveError> {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let t = m.file_type();
        if !(t.is_fifo() || t.is_char_device()) {
            return Err(SaveError::NotRegular("a special file"));
        }
        // Non-blocking: a FIFO nobody reads is refused at once (ENXIO), not waited on.
        let f = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .map_err(|e| SaveError::Io(format!("cannot write {}", path.display()), e))?;
        Ok(Destination::of(Sink::Special(f)))
    }

    #[cfg(not(unix))]
    fn special(_: &Path, _: &fs::Metadata) -> Result<Destination, SaveError> {
        Err(SaveError::NotRegular("a special file"))
    }

    /// Whether this writes to standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.sink, Sink::Stdout)
    }

    /// Whether what was written so far can be dropped ([`Destination::restart`]):
    /// a file being replaced, not standard output or a pipe.
    pub fn can_restart(&self) -> bool {
        matches!(self.sink, Sink::File(_))
    }

    /// Drops what was written so far, to write the output again from its
    /// start; `false` when that cannot be done ([`Destination::can_restart`])
    /// or failed (then the commit fails too).
    pub fn restart(&mut self) -> bool {
        self.buf.clear();
        match &mut self.sink {
            Sink::File(r) => r.restart(),
            _ => false,
        }
    }

    /// The file being replaced, if this is one.
    pub fn replacement(&mut self) -> Option<&mut Replacement> {
        match &mut self.sink {
            Sink::File(r) => Some(r),
            _ => None,
        }
    }

    fn flush_buf(&mut self) -> std::io::Result<()> {
        let buf = std::mem::take(&mut self.buf);
        let r = self.write_through(&buf);
        self.buf = buf;
        self.buf.clear();
        r
    }

    /// Writes `bytes` to the sink (the first failure is kept and given
    /// again).
    fn write_through(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let Some(e) = &self.failed {
            return Err(std::io::Error::new(e.kind(), e.to_string()));
        }
        if bytes.is_empty() {
            return Ok(());
        }
        let r = match &mut self.sink {
            Sink::Stdout => std::io::stdout().lock().write_all(bytes),
            Sink::Special(f) => write_blocking(f, bytes),
            Sink::File(r) => {
                if r.write(bytes) {
                    Ok(())
                } else {
                    Err(std::io::Error::other(r.failed.as_ref().map_or_else(
                        || "write failed".to_string(),
                        |e| e.to_string(),
                    )))
                }
            }
        };
        if let Err(e) = &r {
            self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        r
    }

    /// Writes what is left and puts it in place: for a file, the checks and
    /// the rename of [`Replacement::commit`] with `opts`.
    ///
    /// # Errors
    /// The first failure to write, or why the file could not be replaced;
    /// a file replaced is then as it was.
    pub fn commit_with(mut self, opts: &SaveOptions<'_>) -> Result<Saved, SaveError> {
        let flushed = self.flush_buf();
        match &mut self.sink {
            Sink::File(r) => r.commit(opts),
            Sink::Stdout => {
                flushed
                    .and_then(|()| std::io::stdout().lock().flush())
                    .map_err(|e| SaveError::Io("cannot write to standard output".into(), e))?;
                Ok(Saved::default())
            }
            Sink::Special(f) => {
                flushed
                    .and_then(|()| f.flush())
                    .map_err(|e| SaveError::Io("cannot write the output".into(), e))?;
                Ok(Saved::default())
            }
        }
    }

    /// [`Destination::commit_with`] with the default options.
    ///
    /// # Errors
    /// See [`Destination::commit_with`].
    pub fn commit(self) -> Result<Saved, SaveError> {
        self.commit_with(&SaveOptions::default())
    }
}

/// Writes all of `buf` to a file opened without blocking (a pipe whose
/// reader is slow answers "would block": wait and go on).
fn write_blocking(f: &mut File, mut buf: &[u8]) -> std::io::Result<()> {
    while !buf.is_empty() {
        match f.write(buf) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

impl Write for Destination {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.buf.len() + bytes.len() > DEST_BUF {
            self.flush_buf()?;
        }
        if bytes.len() >= DEST_BUF {
            // Large enough to go as it is, not copied into the buffer.
            self.write_through(bytes)?;
        } else {
            self.buf.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.flush_buf()?;
        match &mut self.sink {
            Sink::Stdout => std::io::stdout().lock().flush(),
            _ => Ok(()),
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

    #[test]
    fn a_fingerprint_read_in_pieces_is_that_of_the_whole() {
        // Pieces of every size, across the reader's own buffer.
        struct Pieces<'a>(&'a [u8], usize);
        impl std::io::Read for Pieces<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.1 = self.1 % 9973 + 1;
                let n = self.1.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = Fingerprint::of(&bytes);
        assert_eq!(
            Fingerprint::of_reader(&mut Pieces(&bytes, 0)).unwrap(),
            whole
        );
        assert_eq!(Fingerprint::of_reader(&mut &bytes[..]).unwrap(), whole);
        assert_ne!(Fingerprint::of_reader(&mut &bytes[1..]).unwrap(), whole);
    }

    #[test]
    fn what_was_written_reads_back_whole_before_and_after_the_commit() {
        let d = tmp("readback");
        let p = d.join("x.sgf");
        let mut r = Replacement::begin(&p);
        r.write(b"(;C[a]");
        r.write(b")");
        assert_eq!(&*r.read_all_shared().unwrap(), b"(;C[a])");
        // Writing goes on at the end.
        r.write(b"\n");
        r.commit(&SaveOptions::default()).unwrap();
        assert_eq!(&*r.read_all_shared().unwrap(), b"(;C[a])\n");
        assert_eq!(fs::read(&p).unwrap(), b"(;C[a])\n");
        let _ = fs::remove_dir_all(&d);
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
            skip_sync: false,
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
                skip_sync: i == 1,
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

    fn backdate(p: &Path) {
        let f = File::options().write(true).open(p).unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(60))
            .unwrap();
    }

    #[test]
    fn temporary_files_of_killed_writers_are_swept_and_live_ones_kept() {
        let d = tmp("sweep");
        assert!(is_temporary_name(".g.sgf.qipu-tmp-0123456789abcdef"));
        assert!(!is_temporary_name("g.sgf.qipu-tmp-0123456789abcdef"));
        assert!(!is_temporary_name(".g.sgf.qipu-tmp-0123456789ABCDEF"));
        assert!(!is_temporary_name(".g.sgf.qipu-tmp-0123"));
        assert!(!is_temporary_name("..qipu-tmp-0123456789abcdef"));
        // Left by a killed writer: no lock, old.
        let dead = d.join(".g.sgf.qipu-tmp-00000000000000aa");
        fs::write(&dead, "half a file").unwrap();
        backdate(&dead);
        // Being written: locked by its writer.
        let live = d.join(".h.sgf.qipu-tmp-00000000000000bb");
        fs::write(&live, "being written").unwrap();
        backdate(&live);
        let held = File::open(&live).unwrap();
        held.try_lock().unwrap();
        // Just made: its writer may not have locked it yet.
        let young = d.join(".i.sgf.qipu-tmp-00000000000000cc");
        fs::write(&young, "new").unwrap();
        // Not ours: a user's file, a link with our name.
        let mine = d.join("notes.qipu-tmp-00000000000000dd");
        fs::write(&mine, "keep").unwrap();
        backdate(&mine);
        let outside = d.join("outside.txt");
        fs::write(&outside, "precious").unwrap();
        symlink(&outside, d.join(".j.sgf.qipu-tmp-00000000000000ee")).unwrap();
        assert_eq!(sweep_stale(&d), 1);
        assert!(!dead.exists());
        assert!(live.exists() && young.exists() && mine.exists());
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
        drop(held);
        assert_eq!(sweep_stale(&d), 1);
        assert!(!live.exists());
    }

    #[test]
    fn a_replacement_sweeps_its_directory_and_locks_its_own_file() {
        let d = tmp("sweep-begin");
        let dead = d.join(".g.sgf.qipu-tmp-00000000000000aa");
        fs::write(&dead, "half a file").unwrap();
        backdate(&dead);
        let x = d.join("g.sgf");
        let mut r = Replacement::begin(&x);
        assert!(!dead.exists(), "swept when the directory is first written");
        r.write(b"(;)");
        // Its own temporary file is locked, so another sweep keeps it.
        let own = d.join(&leftovers(&d)[0]);
        backdate(&own);
        assert_eq!(sweep_stale(&d), 0);
        // Listed for a signal handler ([`remove_live_temporaries`]; not
        // called here: it would remove other tests' files too), and no
        // longer once committed.
        assert!(LIVE.lock().unwrap().contains(&own));
        r.commit(&SaveOptions::default()).unwrap();
        assert!(!LIVE.lock().unwrap().contains(&own));
        assert!(leftovers(&d).is_empty());
        assert_eq!(fs::read(&x).unwrap(), b"(;)");
    }

    #[test]
    fn destinations_refuse_links_early_and_write_devices_directly() {
        use std::io::Write;
        let d = tmp("dest");
        let outside = d.join("outside.txt");
        fs::write(&outside, "precious").unwrap();
        let link = d.join("out.sgf");
        symlink(&outside, &link).unwrap();
        assert!(matches!(
            Destination::open(Some(&link)),
            Err(SaveError::NotRegular("a symbolic link"))
        ));
        assert!(matches!(
            Destination::open(Some(&d)),
            Err(SaveError::NotRegular("a directory"))
        ));
        let ro = d.join("ro.sgf");
        fs::write(&ro, "old").unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
        assert!(matches!(
            Destination::open(Some(&ro)),
            Err(SaveError::ReadOnly)
        ));
        assert!(Destination::open(Some(&d.join("no-dir/x.sgf"))).is_err());
        // Written in pieces larger and smaller than the buffer.
        let x = d.join("x.sgf");
        fs::write(&x, "old").unwrap();
        let mut out = Destination::open(Some(&x)).unwrap();
        let big = vec![b'a'; 3 * DEST_BUF + 5];
        out.write_all(b"(;C[").unwrap();
        out.write_all(&big).unwrap();
        out.write_all(b"])").unwrap();
        assert_eq!(
            fs::read_to_string(&x).unwrap(),
            "old",
            "in place only at the commit"
        );
        out.commit().unwrap();
        assert_eq!(fs::read(&x).unwrap().len(), big.len() + 6);
        // Dropped uncommitted: as it was, nothing left behind.
        let mut out = Destination::open(Some(&x)).unwrap();
        out.write_all(&big).unwrap();
        drop(out);
        assert_eq!(fs::read(&x).unwrap().len(), big.len() + 6);
        assert!(leftovers(&d).is_empty());
        // A device is written directly.
        let mut null = Destination::open(Some(Path::new("/dev/null"))).unwrap();
        null.write_all(&big).unwrap();
        null.commit().unwrap();
        // A FIFO nobody reads is refused at once, not waited on.
        let fifo = d.join("pipe.sgf");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert!(Destination::open(Some(&fifo)).is_err());
        }
        assert!(Destination::open(None).unwrap().is_stdout());
        assert!(Destination::open(Some(Path::new("-"))).unwrap().is_stdout());
    }
}
