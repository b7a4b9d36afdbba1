//! Reading the bytes of a record: the one reader of files and standard
//! input behind every front end (the `qipu` commands, the viewer, Python,
//! the database).
//!
//! - Only regular files are read. A FIFO, a socket or a device named like a
//!   record (`/dev/zero`, a `mkfifo x.sgf`) is refused before anything is
//!   read: a FIFO would block the reader for ever and a device would fill
//!   memory. On Unix the file is opened without blocking and checked on the
//!   open handle, so a file swapped for a FIFO after it was listed cannot
//!   block either.
//! - Input is bounded: more than [`MAX_INPUT_BYTES`] (the parser's own
//!   limit) is refused with [`InputError::TooLarge`] instead of being cut,
//!   so that nothing downstream (a repair, a conversion) can write a
//!   truncated record over a whole one.

use std::io::{Read, Seek};
use std::path::Path;
use std::sync::Arc;

/// The largest input read, in bytes: 1 GiB, what the parser reads whole
/// (`sgf_core::ParseOptions::max_bytes`). Larger files would be cut.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why an input could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum InputError {
    /// Not a regular file: a directory, a FIFO, a socket or a device.
    NotRegular(&'static str),
    /// Larger than the limit (the limit, in bytes).
    TooLarge(u64),
    /// The operating system refused.
    Io(std::io::Error),
    /// A member named `ARCHIVE!MEMBER` could not be read: the archive is
    /// damaged, or holds no such record file.
    #[cfg(feature = "archive")]
    Archive(Box<crate::archive::ArchiveError>),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::NotRegular(what) => {
                write!(f, "it is {what}, not a regular file; only files are read")
            }
            InputError::TooLarge(limit) => write!(
                f,
                "larger than {}, the most a record file may hold; nothing was read",
                human_bytes(*limit)
            ),
            InputError::Io(e) => write!(f, "{e}"),
            #[cfg(feature = "archive")]
            InputError::Archive(e) => write!(f, "{}", e.why()),
        }
    }
}

// No `source`: the message of an I/O error is the OS's, shown once.
impl std::error::Error for InputError {}

/// Reads a record file as the faces name it: a path, `-` for standard
/// input, or (with the `archive` feature) `ARCHIVE!MEMBER` for a record
/// file inside an archive ([`crate::archive::split_member_path`]: a file
/// of that whole name wins). Only regular files, at most `limit` bytes.
///
/// # Errors
/// As [`read_file_shared`]; for a member, when the archive cannot be read
/// or holds no such record file ([`InputError::Archive`]).
pub fn read_named(name: &str, limit: u64) -> Result<Arc<[u8]>, InputError> {
    if name == "-" {
        return read_stdin_shared(limit);
    }
    #[cfg(feature = "archive")]
    if let Some((archive, member)) = crate::archive::split_member_path(name) {
        check_regular(archive)?;
        let opts = crate::archive::ArchiveOptions {
            max_member_bytes: limit,
            ..Default::default()
        };
        return crate::archive::read_member(archive, member, &opts)
            .map(Arc::from)
            .map_err(|e| InputError::Archive(Box::new(e)));
    }
    read_file_shared(Path::new(name), limit)
}

impl From<std::io::Error> for InputError {
    fn from(e: std::io::Error) -> Self {
        InputError::Io(e)
    }
}

/// `1 GiB`, `512 MiB`, `300 bytes`.
pub fn human_bytes(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// What a file type is, in words, for a message.
fn kind_of(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// Whether `path` is a regular file (links followed), without opening it:
/// what a listing checks before offering a file.
///
/// # Errors
/// When it cannot be examined, or is not a regular file.
pub fn check_regular(path: &Path) -> Result<std::fs::Metadata, InputError> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        Ok(meta)
    } else {
        Err(InputError::NotRegular(kind_of(meta.file_type())))
    }
}

/// Reads the regular file at `path` (links followed), at most `limit` bytes
/// (see the module docs).
///
/// # Errors
/// When it cannot be opened or read, is not a regular file, or is larger
/// than `limit`.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let (mut file, len) = open_regular(path, limit)?;
    // The file may grow while it is read: the limit holds whatever it says.
    read_bounded(&mut file, limit, len)
}

/// [`read_file`] into bytes held shared, read in place: a record that keeps
/// its input (see [`Format::read_shared`](crate::Format::read_shared))
/// then holds the file once, not a copy of it beside the bytes read.
///
/// # Errors
/// As [`read_file`].
pub fn read_file_shared(path: &Path, limit: u64) -> Result<Arc<[u8]>, InputError> {
    let (mut file, len) = open_regular(path, limit)?;
    read_in_place(&mut file, limit, len)
}

/// Reads the `len` bytes left in `file` into bytes held shared, in place
/// (again as they are now, when the file changed size meanwhile).
fn read_in_place(file: &mut std::fs::File, limit: u64, len: u64) -> Result<Arc<[u8]>, InputError> {
    let start = file.stream_position()?;
    // One allocation of the size the file has (filled, then read over).
    let mut buf: Arc<[u8]> = std::iter::repeat_n(0u8, len as usize).collect();
    let whole = {
        let b = Arc::get_mut(&mut buf).expect("not shared yet");
        let mut probe = [0u8; 1];
        file.read_exact(b).is_ok() && matches!(file.read(&mut probe), Ok(0))
    };
    if whole {
        return Ok(buf);
    }
    // The file changed size while it was read: read again, as it is now.
    drop(buf);
    file.seek(std::io::SeekFrom::Start(start))?;
    read_bounded(file, limit, len).map(Arc::from)
}

/// Opens the regular file at `path` for reading: its handle and size.
pub(crate) fn open_regular(path: &Path, limit: u64) -> Result<(std::fs::File, u64), InputError> {
    // Refused before opening: opening a FIFO for reading blocks until a
    // writer comes (the non-blocking open below is the guard for a file
    // swapped in between).
    check_regular(path)?;
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(InputError::NotRegular(kind_of(meta.file_type())));
    }
    if meta.len() > limit {
        return Err(InputError::TooLarge(limit));
    }
    Ok((file, meta.len()))
}

/// Bytes to read: borrowed, or shared with the caller, so that a reader
/// whose record keeps its input takes them without a copy (see
/// [`Format::read_shared`](crate::Format::read_shared)). Made from a
/// slice, a `Vec` or an `Arc<[u8]>`.
#[derive(Clone, Copy, Debug)]
pub enum Bytes<'a> {
    /// Bytes the reader copies if it keeps them.
    Borrowed(&'a [u8]),
    /// Bytes the reader may keep as they are.
    Shared(&'a Arc<[u8]>),
}

impl std::ops::Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Shared(a) => a,
        }
    }
}

impl<'a> From<&'a [u8]> for Bytes<'a> {
    fn from(b: &'a [u8]) -> Self {
        Bytes::Borrowed(b)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Bytes<'a> {
    fn from(b: &'a [u8; N]) -> Self {
        Bytes::Borrowed(b)
    }
}

impl<'a> From<&'a Vec<u8>> for Bytes<'a> {
    fn from(b: &'a Vec<u8>) -> Self {
        Bytes::Borrowed(b)
    }
}

impl<'a> From<&'a Arc<[u8]>> for Bytes<'a> {
    fn from(b: &'a Arc<[u8]>) -> Self {
        Bytes::Shared(b)
    }
}

/// Reads standard input to its end, at most `limit` bytes, into bytes held
/// shared: read in place when it is a regular file (`qipu check - < x.sgf`),
/// as [`read_file_shared`] reads a file, else gathered as it comes.
///
/// # Errors
/// When the read fails or the input holds more than `limit` bytes.
pub fn read_stdin_shared(limit: u64) -> Result<Arc<[u8]>, InputError> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        if let Ok(fd) = stdin.as_fd().try_clone_to_owned() {
            let mut file = std::fs::File::from(fd);
            if let Ok(meta) = file.metadata()
                && meta.is_file()
            {
                // From where standard input stands, to the end.
                let at = file.stream_position().unwrap_or(0);
                let len = meta.len().saturating_sub(at);
                if len > limit {
                    return Err(InputError::TooLarge(limit));
                }
                return read_in_place(&mut file, limit, len);
            }
        }
    }
    read_stream(&mut std::io::stdin().lock(), limit).map(Arc::from)
}

/// Reads a stream (standard input) to its end, at most `limit` bytes.
///
/// # Errors
/// When the read fails or the stream holds more than `limit` bytes.
pub fn read_stream(r: &mut dyn Read, limit: u64) -> Result<Vec<u8>, InputError> {
    read_bounded(r, limit, 0)
}

fn read_bounded(r: &mut dyn Read, limit: u64, hint: u64) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::with_capacity(hint.min(limit) as usize);
    r.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(InputError::TooLarge(limit));
    }
    Ok(buf)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("qipu-input-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn regular_files_are_read_and_bounded() {
        let d = tmp("bounded");
        let p = d.join("g.sgf");
        std::fs::write(&p, "(;GM[1])").unwrap();
        assert_eq!(read_file(&p, 100).unwrap(), b"(;GM[1])");
        assert_eq!(read_file(&p, 8).unwrap(), b"(;GM[1])");
        let e = read_file(&p, 7).unwrap_err();
        assert!(matches!(e, InputError::TooLarge(7)), "{e}");
        assert!(e.to_string().contains("7 bytes"), "{e}");
        let e = read_file(&d, 100).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let e = read_file(&d.join("missing.sgf"), 100).unwrap_err();
        assert!(matches!(e, InputError::Io(_)), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn devices_and_fifos_are_refused_at_once() {
        let e = read_file(Path::new("/dev/zero"), MAX_INPUT_BYTES).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        let d = tmp("fifo");
        let fifo = d.join("pipe.sgf");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            // No writer ever comes: a blocking read would never return.
            let e = read_file(&fifo, MAX_INPUT_BYTES).unwrap_err();
            assert!(e.to_string().contains("FIFO"), "{e}");
            assert!(check_regular(&fifo).is_err());
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn streams_are_bounded() {
        let mut zeros = std::io::repeat(0);
        let e = read_stream(&mut zeros, 1 << 20).unwrap_err();
        assert!(e.to_string().contains("1 MiB"), "{e}");
        let mut s: &[u8] = b"(;)";
        assert_eq!(read_stream(&mut s, 3).unwrap(), b"(;)");
        assert_eq!(human_bytes(MAX_INPUT_BYTES), "1 GiB");
    }
}
