//! Reading the record files inside archives: zip, tar, tar.gz (`.tgz`) and
//! 7z, the forms the big public game collections ship in, and a single
//! gzip-compressed record (`games.sgf.gz`, an archive of one member).
//!
//! An archive is known by its first bytes ([`crate::judge::ArchiveKind`]),
//! whatever it is called; an old tar without magic bytes by its name. A
//! member is named `ARCHIVE!MEMBER` ([`split_member`]) and can be read
//! alone ([`read_member`]). What goes wrong is said in words
//! ([`ArchiveError`]), never as a decompressor's internal form.
//!
//! Members are handed to a callback one at a time, in archive order, as
//! bytes (nothing is extracted to disk), so memory stays bounded by the
//! largest member. Only members whose name is a record file
//! ([`crate::walk::is_record_path`]) are read. A member that cannot be read
//! is reported to the callback and the rest of the archive is still read; an
//! archive that cannot be opened at all is an error. Members larger than
//! [`ArchiveOptions::max_member_bytes`] are skipped with a message, and the
//! number of members read is bounded, so a hostile archive (a zip bomb, a
//! huge member count) answers quickly.
//!
//! This module sits beside the directory walker ([`crate::walk`]) behind the
//! `archive` cargo feature: every command that walks record files can read
//! archives through it, and programs that never do compile none of the
//! decompressors.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use sgf_formats::archive::{self, ArchiveOptions};
//! let dir = std::env::temp_dir().join(format!("qipu-archive-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("games.tar");
//! let mut tar = tar::Builder::new(Vec::new());
//! let body = b"(;GM[1]SZ[19];B[pd])";
//! let mut header = tar::Header::new_gnu();
//! header.set_size(body.len() as u64);
//! header.set_mode(0o644);
//! header.set_cksum();
//! tar.append_data(&mut header, "pro/game1.sgf", &body[..])?;
//! std::fs::write(&path, tar.into_inner()?)?;
//! let mut names = Vec::new();
//! archive::read_members(&path, &ArchiveOptions::default(), &mut |m| {
//!     names.push(m.map(|m| m.name).unwrap_or_default());
//! })?;
//! assert_eq!(names, ["pro/game1.sgf"]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

use std::io::{BufReader, Read, Seek};
use std::path::Path;

use crate::walk::is_record_path;

/// Limits of an archive read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ArchiveOptions {
    /// Members larger than this (uncompressed) are skipped.
    pub max_member_bytes: u64,
    /// Stop after this many members of any kind.
    pub max_members: usize,
    /// List the record files without reading them: each [`Member`] comes
    /// with no bytes (a listing of the archive's records).
    pub names_only: bool,
}

impl Default for ArchiveOptions {
    fn default() -> Self {
        ArchiveOptions {
            max_member_bytes: 256 << 20,
            max_members: 10_000_000,
            names_only: false,
        }
    }
}

/// A record file read from an archive.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its path inside the archive, as stored (`/`-separated).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A member that could not be read.
#[derive(Clone, Debug)]
pub struct MemberError {
    /// Its path inside the archive.
    pub name: String,
    /// Why, in words.
    pub message: String,
}

impl std::fmt::Display for MemberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

/// Why an archive could not be read, or a member of it found.
#[derive(Debug)]
pub struct ArchiveError {
    /// The archive as named to the reader.
    pub path: String,
    /// What went wrong.
    pub kind: ArchiveErrorKind,
}

/// What went wrong with an archive (see [`ArchiveError`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum ArchiveErrorKind {
    /// The file is not an archive Qipu reads.
    NotArchive,
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The archive is damaged, cut short or of a form not read: why, in
    /// words (`it ends too soon: the archive is cut short`).
    Damaged(String),
    /// The member asked for is not among its record files.
    NoSuchMember {
        /// The member asked for.
        member: String,
        /// How many record files the archive holds.
        records: usize,
        /// The first of their names (a few, to show).
        some: Vec<String>,
    },
}

impl ArchiveError {
    /// Why, without the archive's name (for a caller that names it).
    pub fn why(&self) -> String {
        match &self.kind {
            ArchiveErrorKind::NotArchive => {
                "it is not an archive Qipu reads (zip, tar, tar.gz, 7z)".into()
            }
            ArchiveErrorKind::Io(e) => e.to_string(),
            ArchiveErrorKind::Damaged(why) => why.clone(),
            ArchiveErrorKind::NoSuchMember {
                member,
                records,
                some,
            } => match records {
                0 => format!("it has no record file `{member}`; it holds no record files"),
                n => format!(
                    "it has no record file `{member}`; it holds {n} record file(s): {}{}",
                    some.join(", "),
                    if *n > some.len() { ", …" } else { "" }
                ),
            },
        }
    }
}

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.path, self.why())
    }
}

impl std::error::Error for ArchiveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ArchiveErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// The kinds of archive (see [`crate::judge::ArchiveKind`]).
pub use crate::judge::ArchiveKind as Kind;

/// Splits `ARCHIVE!MEMBER` (as [`crate::collection`] names the members of
/// an archive) at the first `!` whose left side `is_archive` accepts;
/// `None` when there is none (a `!` in a plain file's name, `wow!.sgf`).
///
/// ```
/// use sgf_formats::archive::split_member;
/// let is_zip = |p: &str| p.ends_with(".zip");
/// assert_eq!(split_member("g.zip!a/b.sgf", is_zip), Some(("g.zip", "a/b.sgf")));
/// assert_eq!(split_member("wow!.sgf", is_zip), None);
/// ```
pub fn split_member(name: &str, is_archive: impl Fn(&str) -> bool) -> Option<(&str, &str)> {
    name.match_indices('!')
        .map(|(i, _)| (&name[..i], &name[i + 1..]))
        .find(|(archive, member)| !archive.is_empty() && !member.is_empty() && is_archive(archive))
}

/// [`split_member`] for a path on disk: `ARCHIVE` must be a regular file
/// that is an archive by its first bytes or its name
/// ([`Kind::of_file`]), and the whole of `name` must not be a file
/// (a file named `x.zip!a.sgf` is that file).
pub fn split_member_path(name: &str) -> Option<(&Path, &str)> {
    if !name.contains('!') || std::fs::symlink_metadata(name).is_ok() {
        return None;
    }
    split_member(name, |a| Kind::of_file(Path::new(a)).is_some()).map(|(a, m)| (Path::new(a), m))
}

/// Reads every record file of the archive at `path` (its kind by its first
/// bytes, else by its name: [`Kind::of_file`]), calling `each` with
/// each member or with the reason a member could not be read.
///
/// # Errors
/// When the file is not an archive of a known kind or cannot be opened or
/// read as one; members read before the failure have been passed to `each`.
pub fn read_members(
    path: &Path,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), ArchiveError> {
    let shown = path.display().to_string();
    let err = |kind| ArchiveError {
        path: shown.clone(),
        kind,
    };
    // Regular files only, opened without blocking (a FIFO named `x.zip`).
    let (file, _) = crate::input::open_regular(path, u64::MAX).map_err(|e| {
        err(match e {
            crate::input::InputError::Io(e) => ArchiveErrorKind::Io(e),
            other => ArchiveErrorKind::Io(std::io::Error::other(other.to_string())),
        })
    })?;
    let kind = Kind::of_file(path).ok_or_else(|| err(ArchiveErrorKind::NotArchive))?;
    read_kind(BufReader::new(file), kind, &single_name(&shown), opts, each)
        .map_err(|why| err(ArchiveErrorKind::Damaged(why)))
}

/// [`read_members`] of an archive held in memory (read from standard
/// input, say), named `name` in messages; its kind by its first bytes.
///
/// # Errors
/// As [`read_members`].
pub fn read_members_in(
    bytes: &[u8],
    name: &str,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), ArchiveError> {
    let err = |kind| ArchiveError {
        path: name.to_string(),
        kind,
    };
    let kind = Kind::of_bytes(bytes).ok_or_else(|| err(ArchiveErrorKind::NotArchive))?;
    read_kind(
        std::io::Cursor::new(bytes),
        kind,
        &single_name(name),
        opts,
        each,
    )
    .map_err(|why| err(ArchiveErrorKind::Damaged(why)))
}

/// The record files of the archive at `path`, by name, in archive order
/// (nothing is decompressed but what the archive's form needs).
///
/// # Errors
/// As [`read_members`].
pub fn member_names(path: &Path) -> Result<Vec<String>, ArchiveError> {
    let opts = ArchiveOptions {
        names_only: true,
        ..Default::default()
    };
    let mut names = Vec::new();
    read_members(path, &opts, &mut |m| {
        names.push(match m {
            Ok(m) => m.name,
            Err(e) => e.name,
        })
    })?;
    Ok(names)
}

/// The bytes of the record file `member` of the archive at `path`.
///
/// # Errors
/// When the archive cannot be read, holds no such record file
/// ([`ArchiveErrorKind::NoSuchMember`], naming a few it holds), or the
/// member cannot be read (larger than `opts.max_member_bytes`, damaged).
pub fn read_member(
    path: &Path,
    member: &str,
    opts: &ArchiveOptions,
) -> Result<Vec<u8>, ArchiveError> {
    let mut found: Option<Result<Vec<u8>, String>> = None;
    let mut names: Vec<String> = Vec::new();
    let mut records = 0usize;
    let mut opts = opts.clone();
    opts.names_only = false;
    // Members are read in order: each one's bytes are dropped unless it is
    // the one asked for (a solid 7z block must be read through anyway).
    read_members(path, &opts, &mut |m| {
        if found.is_some() {
            return;
        }
        let name = match &m {
            Ok(m) => &m.name,
            Err(e) => &e.name,
        };
        records += 1;
        if names.len() < 5 {
            names.push(name.clone());
        }
        if name == member {
            found = Some(m.map(|m| m.bytes).map_err(|e| e.message));
        }
    })?;
    match found {
        Some(Ok(b)) => Ok(b),
        Some(Err(why)) => Err(ArchiveError {
            path: format!("{}!{member}", path.display()),
            kind: ArchiveErrorKind::Damaged(why),
        }),
        None => Err(ArchiveError {
            path: path.display().to_string(),
            kind: ArchiveErrorKind::NoSuchMember {
                member: member.to_string(),
                records,
                some: names,
            },
        }),
    }
}

/// The name of the one file of a gzip-compressed file that is not a tar
/// (`games.sgf.gz` holds `games.sgf`).
fn single_name(path: &str) -> String {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = base.to_ascii_lowercase();
    if lower.ends_with(".gz") && base.len() > 3 {
        base[..base.len() - 3].to_string()
    } else {
        base.to_string()
    }
}

/// Reads an archive of `kind` from `r`.
fn read_kind<R: Read + Seek>(
    r: R,
    kind: Kind,
    single: &str,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    match kind {
        Kind::Zip => read_zip(r, opts, each),
        Kind::Tar => read_tar(r, opts, each),
        Kind::TarGz => read_gz(r, single, opts, each),
        Kind::SevenZ => read_7z(r, opts, each),
    }
}

/// Why a member's bytes could not be had.
enum Unread {
    /// Larger than the limit: skipped, the archive read on.
    TooLarge(String),
    /// The decompression failed: in a stream (tar.gz, a solid 7z block)
    /// nothing after it can be read either.
    Broken(String),
}

impl Unread {
    fn words(self) -> String {
        match self {
            Unread::TooLarge(w) | Unread::Broken(w) => w,
        }
    }
}

/// A member's bytes (none when only names are listed), at most
/// [`ArchiveOptions::max_member_bytes`].
fn member_bytes(
    r: &mut dyn Read,
    size_hint: u64,
    opts: &ArchiveOptions,
) -> Result<Vec<u8>, Unread> {
    if opts.names_only {
        return Ok(Vec::new());
    }
    read_bounded(r, size_hint, opts.max_member_bytes)
}

/// Reads at most `max` bytes of a member; `Err` when it is longer.
fn read_bounded(r: &mut dyn Read, size_hint: u64, max: u64) -> Result<Vec<u8>, Unread> {
    let too_large = || {
        Unread::TooLarge(format!(
            "larger than {}, the most a member may hold; skipped",
            crate::input::human_bytes(max)
        ))
    };
    if size_hint > max {
        return Err(too_large());
    }
    let mut buf = Vec::with_capacity(size_hint.min(max) as usize);
    r.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Unread::Broken(io_words(&e)))?;
    if buf.len() as u64 > max {
        return Err(too_large());
    }
    Ok(buf)
}

/// Hands a member of a stream (tar, tar.gz, 7z) to `each`; `Err` when its
/// decompression broke, which ends the stream: said once, for the archive.
fn hand_streamed(
    name: String,
    bytes: Result<Vec<u8>, Unread>,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    match bytes {
        Ok(bytes) => each(Ok(Member { name, bytes })),
        Err(Unread::Broken(why)) => return Err(format!("{why} (in {name})")),
        Err(Unread::TooLarge(message)) => each(Err(MemberError { name, message })),
    }
    Ok(())
}

/// An I/O error of decompression, in words.
fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "it ends too soon: the archive is cut short".into(),
        std::io::ErrorKind::InvalidData | std::io::ErrorKind::InvalidInput => {
            format!("its compressed data is damaged ({e})")
        }
        _ => e.to_string(),
    }
}

fn zip_words(e: &zip::result::ZipError) -> String {
    use zip::result::ZipError;
    match e {
        ZipError::Io(e) => io_words(e),
        ZipError::InvalidArchive(why) if why.contains("EOCD") => {
            "the table of contents at the end of a zip archive is missing: it is cut short or damaged"
                .into()
        }
        ZipError::InvalidArchive(why) => {
            format!("the zip archive is damaged or cut short ({why})")
        }
        ZipError::UnsupportedArchive(why) => {
            format!("it uses a form of zip Qipu does not read ({why})")
        }
        ZipError::CompressionMethodNotSupported(m) => {
            format!("it uses a compression method Qipu does not read (zip method {m})")
        }
        ZipError::InvalidPassword => "it is encrypted".into(),
        other => other.to_string(),
    }
}

fn sevenz_words(e: &sevenz_rust2::Error) -> String {
    use sevenz_rust2::Error as E;
    match e {
        E::BadSignature(_) => "it does not start as a 7z archive does".into(),
        E::UnsupportedVersion { major, minor } => {
            format!("it is a 7z archive of version {major}.{minor}, which Qipu does not read")
        }
        E::ChecksumVerificationFailed | E::NextHeaderCrcMismatch => {
            "a checksum does not match: the archive is damaged".into()
        }
        E::Io(e, _) | E::FileOpen(e, _) => io_words(e),
        E::Other(why) => format!("the 7z archive is damaged or cut short ({why})"),
        E::BadTerminatedStreamsInfo(_)
        | E::BadTerminatedUnpackInfo
        | E::BadTerminatedPackInfo(_)
        | E::BadTerminatedSubStreamsInfo
        | E::BadTerminatedHeader(_) => "the 7z archive's header is damaged".into(),
        E::ExternalUnsupported => "its header is stored in a form Qipu does not read".into(),
        E::UnsupportedCompressionMethod(m) => {
            format!("it uses a compression method Qipu does not read ({m})")
        }
        E::MaxMemLimited { max_kb, .. } => format!(
            "unpacking it needs more memory than the {} Qipu allows",
            crate::input::human_bytes(*max_kb as u64 * 1024)
        ),
        E::PasswordRequired | E::MaybeBadPassword(_) => "it is encrypted".into(),
        E::Unsupported(why) => format!("it uses a 7z feature Qipu does not read ({why})"),
        E::FileNotFound => "a member it lists is missing".into(),
        // The crate's enum may grow: its own words, never its Debug form.
        #[allow(unreachable_patterns)]
        _ => "the 7z archive is damaged".into(),
    }
}

fn read_zip<R: Read + Seek>(
    r: R,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let mut zip = zip::ZipArchive::new(r).map_err(|e| zip_words(&e))?;
    for i in 0..zip.len().min(opts.max_members) {
        let mut f = match zip.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {i}"),
                    message: zip_words(&e),
                }));
                continue;
            }
        };
        let name = match f.name() {
            Ok(n) => n.into_owned(),
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {i}"),
                    message: zip_words(&e),
                }));
                continue;
            }
        };
        if f.is_dir() || !is_record_path(Path::new(&name)) {
            continue;
        }
        let size = f.size();
        each(
            member_bytes(&mut f, size, opts)
                .map(|bytes| Member {
                    name: name.clone(),
                    bytes,
                })
                .map_err(|e| MemberError {
                    name,
                    message: e.words(),
                }),
        );
    }
    Ok(())
}

/// A gzip stream: a tar inside, or one compressed file.
fn read_gz<R: Read>(
    r: R,
    single: &str,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let mut gz = flate2::read::MultiGzDecoder::new(BufReader::new(r));
    let mut head = Vec::with_capacity(512);
    (&mut gz)
        .take(512)
        .read_to_end(&mut head)
        .map_err(|e| io_words(&e))?;
    if head.len() == 512 && is_tar_header(&head) {
        return read_tar(std::io::Cursor::new(head).chain(gz), opts, each);
    }
    // One compressed file: a member of its own (named by the file).
    let bytes = member_bytes(&mut std::io::Cursor::new(head).chain(gz), 0, opts);
    hand_streamed(single.to_string(), bytes, each)
}

/// Whether a 512-byte block is a tar header: the `ustar` magic, or (an
/// old tar) a checksum that holds.
fn is_tar_header(b: &[u8]) -> bool {
    if b.get(257..262) == Some(b"ustar") {
        return true;
    }
    let field = &b[148..156];
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .skip_while(|c| *c == b' ')
        .take_while(|c| (b'0'..=b'7').contains(c))
        .collect();
    let Ok(text) = std::str::from_utf8(&digits) else {
        return false;
    };
    let Ok(stored) = u32::from_str_radix(text, 8) else {
        return false;
    };
    let sum: u32 = b
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if (148..156).contains(&i) {
                32
            } else {
                u32::from(c)
            }
        })
        .sum();
    !digits.is_empty() && stored == sum
}

fn read_tar<R: Read>(
    r: R,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let mut ar = tar::Archive::new(r);
    let entries = ar.entries().map_err(|e| io_words(&e))?;
    for (n, entry) in entries.enumerate() {
        if n >= opts.max_members {
            break;
        }
        // A broken header ends a tar stream: nothing after it can be found.
        let mut entry = entry.map_err(|e| io_words(&e))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = match entry.path() {
            Ok(p) => p.to_string_lossy().into_owned(),
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {n}"),
                    message: io_words(&e),
                }));
                continue;
            }
        };
        if !is_record_path(Path::new(&name)) {
            continue;
        }
        let size = entry.size();
        hand_streamed(name, member_bytes(&mut entry, size, opts), each)?;
    }
    Ok(())
}

fn read_7z<R: Read + Seek>(
    r: R,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    // 64 MiB for headers and dictionaries: enough for every LZMA2 preset,
    // and a forged header cannot make the reader allocate gigabytes.
    let mut ar = sevenz_rust2::ArchiveReader::new_with_memory_limit(
        r,
        sevenz_rust2::Password::empty(),
        64 << 10,
    )
    .map_err(|e| sevenz_words(&e))?;
    let mut seen = 0usize;
    ar.for_each_entries(|entry, r| {
        seen += 1;
        if seen > opts.max_members {
            return Ok(false);
        }
        let name = entry.name().to_string();
        if entry.is_directory() || !is_record_path(Path::new(&name)) {
            return Ok(true);
        }
        if opts.names_only {
            // A solid block is one stream: its member read through, not held.
            std::io::copy(&mut r.take(entry.size()), &mut std::io::sink())?;
        }
        match hand_streamed(name, member_bytes(r, entry.size(), opts), each) {
            Ok(()) => Ok(true),
            // Said for the archive, once.
            Err(why) => Err(sevenz_rust2::Error::Other(why.into())),
        }
    })
    .map_err(|e| match e {
        sevenz_rust2::Error::Other(why) if why.contains(" (in ") => why.into_owned(),
        e => sevenz_words(&e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_names() {
        assert_eq!(single_name("a/games.sgf.gz"), "games.sgf");
        assert_eq!(single_name("X.GZ"), "X");
        assert_eq!(single_name("plain"), "plain");
    }

    #[test]
    fn damaged_7z_is_said_in_words() {
        let e = sevenz_words(&sevenz_rust2::Error::Other(
            "next header offset out of range".into(),
        ));
        assert!(
            e.starts_with("the 7z archive is damaged or cut short"),
            "{e}"
        );
        let e = sevenz_words(&sevenz_rust2::Error::Io(
            std::io::ErrorKind::UnexpectedEof.into(),
            "".into(),
        ));
        assert_eq!(e, "it ends too soon: the archive is cut short");
    }
}
