//! Reading the record files inside archives: zip, tar, tar.gz (`.tgz`) and
//! 7z, the forms the big public game collections ship in.
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

use std::fs::File;
use std::io::{BufReader, Read};
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
    /// Why.
    pub message: String,
}

impl std::fmt::Display for MemberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

/// The kinds of archive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// PKZIP (stored and deflated members).
    Zip,
    /// An uncompressed tar.
    Tar,
    /// A gzip-compressed tar.
    TarGz,
    /// 7-Zip (LZMA/LZMA2 members).
    SevenZ,
}

/// The kind of an archive, by its file name (see
/// [`crate::walk::is_archive_path`]).
pub fn kind_of(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        Some(Kind::TarGz)
    } else if name.ends_with(".tar") {
        Some(Kind::Tar)
    } else if name.ends_with(".zip") {
        Some(Kind::Zip)
    } else if name.ends_with(".7z") {
        Some(Kind::SevenZ)
    } else {
        None
    }
}

/// Reads every record file of the archive at `path`, calling `each` with
/// each member or with the reason a member could not be read.
///
/// # Errors
/// When the file is not an archive of a known kind or cannot be opened or
/// read as one; members read before the failure have been passed to `each`.
pub fn read_members(
    path: &Path,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let kind = kind_of(path).ok_or_else(|| format!("{}: not a known archive", path.display()))?;
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let r = match kind {
        Kind::Zip => read_zip(file, opts, each),
        Kind::Tar => read_tar(BufReader::new(file), opts, each),
        Kind::TarGz => read_tar(
            flate2::read::MultiGzDecoder::new(BufReader::new(file)),
            opts,
            each,
        ),
        Kind::SevenZ => read_7z(file, opts, each),
    };
    r.map_err(|e| format!("{}: {e}", path.display()))
}

/// A member's bytes (none when only names are listed), at most
/// [`ArchiveOptions::max_member_bytes`].
fn member_bytes(
    r: &mut dyn Read,
    size_hint: u64,
    opts: &ArchiveOptions,
) -> Result<Vec<u8>, String> {
    if opts.names_only {
        return Ok(Vec::new());
    }
    read_bounded(r, size_hint, opts.max_member_bytes)
}

/// Reads at most `max` bytes of a member; `Err` when it is longer.
fn read_bounded(r: &mut dyn Read, size_hint: u64, max: u64) -> Result<Vec<u8>, String> {
    if size_hint > max {
        return Err(format!("larger than {max} bytes, skipped"));
    }
    let mut buf = Vec::with_capacity(size_hint.min(max) as usize);
    r.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| e.to_string())?;
    if buf.len() as u64 > max {
        return Err(format!("larger than {max} bytes, skipped"));
    }
    Ok(buf)
}

fn read_zip(
    file: File,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| e.to_string())?;
    for i in 0..zip.len().min(opts.max_members) {
        let mut f = match zip.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {i}"),
                    message: e.to_string(),
                }));
                continue;
            }
        };
        let name = match f.name() {
            Ok(n) => n.into_owned(),
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {i}"),
                    message: e.to_string(),
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
                .map_err(|message| MemberError { name, message }),
        );
    }
    Ok(())
}

fn read_tar<R: Read>(
    r: R,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    let mut ar = tar::Archive::new(r);
    let entries = ar.entries().map_err(|e| e.to_string())?;
    for (n, entry) in entries.enumerate() {
        if n >= opts.max_members {
            break;
        }
        // A broken header ends a tar stream: nothing after it can be found.
        let mut entry = entry.map_err(|e| e.to_string())?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = match entry.path() {
            Ok(p) => p.to_string_lossy().into_owned(),
            Err(e) => {
                each(Err(MemberError {
                    name: format!("member {n}"),
                    message: e.to_string(),
                }));
                continue;
            }
        };
        if !is_record_path(Path::new(&name)) {
            continue;
        }
        let size = entry.size();
        each(
            member_bytes(&mut entry, size, opts)
                .map(|bytes| Member {
                    name: name.clone(),
                    bytes,
                })
                .map_err(|message| MemberError { name, message }),
        );
    }
    Ok(())
}

fn read_7z(
    file: File,
    opts: &ArchiveOptions,
    each: &mut dyn FnMut(Result<Member, MemberError>),
) -> Result<(), String> {
    // 64 MiB for headers and dictionaries: enough for every LZMA2 preset,
    // and a forged header cannot make the reader allocate gigabytes.
    let mut ar = sevenz_rust2::ArchiveReader::new_with_memory_limit(
        BufReader::new(file),
        sevenz_rust2::Password::empty(),
        64 << 10,
    )
    .map_err(|e| e.to_string())?;
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
        each(
            member_bytes(r, entry.size(), opts)
                .map(|bytes| Member {
                    name: name.clone(),
                    bytes,
                })
                .map_err(|message| MemberError { name, message }),
        );
        Ok(true)
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name() {
        assert_eq!(kind_of(Path::new("a/B.TGZ")), Some(Kind::TarGz));
        assert_eq!(kind_of(Path::new("a.tar.gz")), Some(Kind::TarGz));
        assert_eq!(kind_of(Path::new("a.tar")), Some(Kind::Tar));
        assert_eq!(kind_of(Path::new("a.zip")), Some(Kind::Zip));
        assert_eq!(kind_of(Path::new("a.7z")), Some(Kind::SevenZ));
        assert_eq!(kind_of(Path::new("a.sgf")), None);
    }
}
