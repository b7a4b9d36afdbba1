//! Whether bytes are a game record at all: the one judgement every face
//! makes (the `qipu` commands, the viewer, Python, npm, the database, the
//! dataset) before it reads a file as a record, and after.
//!
//! The parsers read anything: SGF's recovers from every error, so a zip
//! archive or 200 KB of random bytes parse into trees of empty nodes. A
//! front end that showed, converted or saved such a tree would pass
//! garbage off as a record, or write it over the file. So before a file is
//! read, [`sniff`] looks at its bytes:
//!
//! - **archives** (zip, tar, gzip, 7z) are recognised by their magic bytes,
//!   whatever the file is called, so that they are read as archives
//!   ([`crate::archive`]) and never decoded as text;
//! - **other compressed files and known binary formats** (bzip2, xz, RAR,
//!   Zstandard; PNG, JPEG, GIF, PDF, SQLite, executables) by theirs;
//! - **bytes that are not text in any charset**: text in every charset a
//!   record is written in (ASCII, UTF-8, GBK, Big5, Shift_JIS, EUC-KR, the
//!   ISO-8859 and Windows code pages) holds almost no C0 control bytes
//!   other than tab and line ends, while compressed or random bytes hold
//!   about one in ten. UTF-16 and UTF-32 (a byte-order mark, or the NUL
//!   pattern of mostly-ASCII text) are text. NUL bytes at the end of a file
//!   (a file cut short by a crash is often padded so) are not counted.
//!
//! After reading, a record with no game tree ([`of_loaded`]) is not a game
//! record either.
//!
//! ```
//! use sgf_formats::judge::{self, ArchiveKind, NotRecord};
//! assert_eq!(judge::sniff(b"(;GM[1]SZ[19];B[pd])"), None);
//! assert_eq!(judge::sniff(b"PK\x03\x04\x14\x00"), Some(NotRecord::Archive(ArchiveKind::Zip)));
//! assert_eq!(judge::sniff(b""), Some(NotRecord::Empty));
//! let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
//! assert!(matches!(judge::sniff(&noise), Some(NotRecord::NotText { .. })));
//! ```

use std::path::Path;

/// The archives whose members Qipu reads (with the `archive` feature).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArchiveKind {
    /// PKZIP (stored and deflated members).
    Zip,
    /// An uncompressed tar.
    Tar,
    /// A gzip-compressed tar, or one gzip-compressed file (`x.sgf.gz`),
    /// read as an archive of one member.
    TarGz,
    /// 7-Zip (LZMA/LZMA2 members).
    SevenZ,
}

impl ArchiveKind {
    /// What it is, in words: `a zip archive`.
    pub fn describe(self) -> &'static str {
        match self {
            ArchiveKind::Zip => "a zip archive",
            ArchiveKind::Tar => "a tar archive",
            ArchiveKind::TarGz => "a gzip-compressed file (tar.gz)",
            ArchiveKind::SevenZ => "a 7z archive",
        }
    }

    /// The kind of an archive by its magic bytes (the first 512 bytes are
    /// enough).
    pub fn of_bytes(bytes: &[u8]) -> Option<ArchiveKind> {
        if bytes.starts_with(b"PK\x03\x04")
            || bytes.starts_with(b"PK\x05\x06")
            || bytes.starts_with(b"PK\x07\x08")
        {
            Some(ArchiveKind::Zip)
        } else if bytes.starts_with(&[0x1F, 0x8B]) {
            Some(ArchiveKind::TarGz)
        } else if bytes.starts_with(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C]) {
            Some(ArchiveKind::SevenZ)
        } else if bytes.get(257..262) == Some(b"ustar") {
            // POSIX (`ustar\0`) and GNU (`ustar  \0`) headers both.
            Some(ArchiveKind::Tar)
        } else {
            None
        }
    }

    /// The kind of an archive by its file name (`.zip`, `.tar`, `.tar.gz`,
    /// `.tgz`, `.7z`, in any case): what a walk lists without opening
    /// files (see [`crate::walk::is_archive_path`]).
    pub fn of_path(path: &Path) -> Option<ArchiveKind> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let ends = |e: &str| {
            name.len() > e.len() + 1
                && name.ends_with(e)
                && name.as_bytes()[name.len() - e.len() - 1] == b'.'
        };
        if ends("tar.gz") || ends("tgz") {
            Some(ArchiveKind::TarGz)
        } else if ends("tar") {
            Some(ArchiveKind::Tar)
        } else if ends("zip") {
            Some(ArchiveKind::Zip)
        } else if ends("7z") {
            Some(ArchiveKind::SevenZ)
        } else {
            None
        }
    }

    /// The kind of the archive at `path`: by its first bytes, else by its
    /// name (an old tar has no magic bytes). `None` for a file that is not
    /// an archive or cannot be read (its reader then says why).
    pub fn of_file(path: &Path) -> Option<ArchiveKind> {
        use std::io::Read;
        let head = (|| {
            // Regular files only, opened without blocking (a FIFO).
            let (file, _) = crate::input::open_regular(path, u64::MAX).ok()?;
            let mut head = Vec::with_capacity(512);
            file.take(512).read_to_end(&mut head).ok()?;
            Some(head)
        })();
        match head {
            Some(h) => ArchiveKind::of_bytes(&h).or_else(|| {
                // A file named `.tar` with text in it is a record with a
                // strange name, not an archive.
                let k = ArchiveKind::of_path(path)?;
                (k == ArchiveKind::Tar && h.len() >= 512 && sniff_text(&h).is_some()).then_some(k)
            }),
            None => None,
        }
    }
}

/// Why bytes are not a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotRecord {
    /// No bytes at all.
    Empty,
    /// An archive: its members are the records (see [`crate::archive`]).
    Archive(ArchiveKind),
    /// A compressed file or an archive of a kind Qipu does not read (`a
    /// bzip2-compressed file`).
    Compressed(&'static str),
    /// A binary file of a known kind (`a PNG image`).
    Binary(&'static str),
    /// Bytes that are not text in any charset: this many in a thousand of
    /// those looked at are control bytes no text holds.
    NotText {
        /// Control bytes per thousand.
        per_mille: u16,
    },
    /// Text that holds no SGF game tree (nor a record of another format).
    NoGameTree,
}

impl NotRecord {
    /// A stable name for scripts (`archive`, `not-text`, `no-game-tree`, …).
    pub fn code(&self) -> &'static str {
        match self {
            NotRecord::Empty => "empty",
            NotRecord::Archive(_) => "archive",
            NotRecord::Compressed(_) => "compressed",
            NotRecord::Binary(_) => "binary",
            NotRecord::NotText { .. } => "not-text",
            NotRecord::NoGameTree => "no-game-tree",
        }
    }

    /// Why, as the end of a sentence: `it is a zip archive`.
    pub fn reason(&self) -> String {
        match self {
            NotRecord::Empty => "it is empty".into(),
            NotRecord::Archive(k) => format!("it is {}", k.describe()),
            NotRecord::Compressed(what) => {
                format!("it is {what}, which Qipu does not read; unpack it first")
            }
            NotRecord::Binary(what) => format!("it is {what}"),
            NotRecord::NotText { per_mille } => format!(
                "it is not text in any charset ({}% of its bytes are control bytes no text holds)",
                (u32::from(*per_mille) + 5) / 10
            ),
            NotRecord::NoGameTree => format!(
                "it holds no SGF game tree [{}]",
                sgf_core::Code::NoGameTree.as_str()
            ),
        }
    }

    /// The sentence a front end shows for the file `name`: `NAME is not a
    /// game record: it is a zip archive`.
    pub fn sentence(&self, name: &str) -> String {
        format!("{name} is not a game record: {}", self.reason())
    }
}

impl std::fmt::Display for NotRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a game record: {}", self.reason())
    }
}

/// Why `bytes` cannot be a game record, judged before any text decoding
/// (see the module docs); `None` when they may be one (reading tells: see
/// [`of_loaded`]). The format is the one the bytes look like; a reader
/// that picks its format otherwise judges with [`before_reading`] (what
/// [`crate::Registry::reader_for`] does).
pub fn sniff(bytes: &[u8]) -> Option<NotRecord> {
    crate::builtin()
        .reader_for(bytes, None, None)
        .err()
        .and_then(|e| e.not_record)
}

/// Why `bytes` cannot be a game record, judged by their magic bytes
/// alone: empty, an archive, a compressed or a binary file.
pub fn by_magic(bytes: &[u8]) -> Option<NotRecord> {
    if bytes.is_empty() {
        return Some(NotRecord::Empty);
    }
    if let Some(k) = ArchiveKind::of_bytes(bytes) {
        return Some(NotRecord::Archive(k));
    }
    if let Some(what) = compressed(bytes) {
        return Some(NotRecord::Compressed(what));
    }
    binary(bytes).map(NotRecord::Binary)
}

/// Why `bytes` cannot be a record of the format `reader` is to read them
/// as: [`by_magic`], then, for a text format (all but QQ Go's binary WGS),
/// bytes that are not text in any charset.
pub fn before_reading(bytes: &[u8], reader: &dyn crate::Format) -> Option<NotRecord> {
    by_magic(bytes).or_else(|| {
        if reader.is_binary() {
            None
        } else {
            sniff_text(bytes)
        }
    })
}

/// Why a record read holds nothing of a game record: no game tree.
pub fn of_loaded(loaded: &crate::Loaded) -> Option<NotRecord> {
    (loaded.parsed.document.game_count() == 0).then_some(NotRecord::NoGameTree)
}

/// Compressed files and archives Qipu does not read, by magic bytes.
fn compressed(b: &[u8]) -> Option<&'static str> {
    const KINDS: [(&[u8], &str); 6] = [
        (b"BZh", "a bzip2-compressed file"),
        (b"\xFD7zXZ\x00", "an xz-compressed file"),
        (b"\x5D\x00\x00", "an LZMA-compressed file"),
        (b"Rar!\x1A\x07", "a RAR archive"),
        (b"\x28\xB5\x2F\xFD", "a Zstandard-compressed file"),
        (b"MSCF\x00\x00\x00\x00", "a Windows cabinet archive"),
    ];
    // `BZh` is followed by the block size digit and the block magic.
    if b.starts_with(b"BZh") && !(b.len() >= 10 && (b'1'..=b'9').contains(&b[3])) {
        return None;
    }
    KINDS
        .iter()
        .find(|(magic, _)| b.starts_with(magic))
        .map(|&(_, what)| what)
}

/// Binary formats people keep beside their records, by magic bytes.
fn binary(b: &[u8]) -> Option<&'static str> {
    const KINDS: [(&[u8], &str); 9] = [
        (b"\x89PNG\r\n\x1A\n", "a PNG image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"%PDF-", "a PDF document"),
        (b"SQLite format 3\x00", "an SQLite database"),
        (b"\x7FELF", "an executable (ELF)"),
        (
            b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1",
            "an old Microsoft Office document",
        ),
        (b"\x00asm", "a WebAssembly module"),
    ];
    if b.len() >= 12 && b.starts_with(b"RIFF") && &b[8..12] == b"WEBP" {
        return Some("a WebP image");
    }
    KINDS
        .iter()
        .find(|(magic, _)| b.starts_with(magic))
        .map(|&(_, what)| what)
}

/// Bytes looked at by the text test: enough for a sure answer, and a
/// collection with a damaged stretch further on is still read.
const TEXT_SAMPLE: usize = 256 << 10;

/// Control bytes per thousand from which bytes are not text: about half
/// of them random. Text holds none or a few (a DOS end-of-file mark);
/// uniformly random or compressed bytes hold about 100 (26 of the 256
/// values).
const NOT_TEXT_PER_MILLE: usize = 50;

/// Fewer control bytes than this never make a file "not text" (a short
/// note with a stray byte or two).
const NOT_TEXT_MIN: usize = 8;

/// Whether `b` is a C0 control byte no text holds: not NUL (UTF-16 text
/// inside an 8-bit file has many, counted apart), tab, line feed, vertical
/// tab, form feed, carriage return, nor escape (ISO-2022-JP's shifts) nor
/// SUB (an old end-of-file mark).
const fn is_control(b: u8) -> bool {
    matches!(b, 0x01..=0x08 | 0x0E..=0x19 | 0x1C..=0x1F | 0x7F)
}

/// What each byte adds to the text test's sum: 1 for a control byte
/// ([`is_control`]), 1 << 32 for a NUL. One look-up a byte counts both in
/// a single pass (a sample is far below 2^32 bytes).
const WEIGHT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b == 0 {
            1 << 32
        } else if is_control(b as u8) {
            1
        } else {
            0
        };
        b += 1;
    }
    t
};

/// `Some(NotText)` when the bytes are not text in any charset.
fn sniff_text(bytes: &[u8]) -> Option<NotRecord> {
    // Padding of NULs at the end is not the record's content.
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let sample = &bytes[..end.min(TEXT_SAMPLE)];
    if sample.is_empty() {
        return Some(NotRecord::NotText { per_mille: 1000 });
    }
    let sum: u64 = sample.iter().map(|&b| WEIGHT[usize::from(b)]).sum();
    let (control, nul) = ((sum & 0xFFFF_FFFF) as usize, (sum >> 32) as usize);
    let per_mille = control * 1000 / sample.len();
    let why = if per_mille >= NOT_TEXT_PER_MILLE && control >= NOT_TEXT_MIN {
        NotRecord::NotText {
            per_mille: per_mille as u16,
        }
    } else if nul * 2 > sample.len() {
        // Mostly NULs: a zeroed block, unless in UTF-16's pattern.
        NotRecord::NotText {
            per_mille: ((control + nul) * 1000 / sample.len()) as u16,
        }
    } else {
        return None;
    };
    // UTF-16 and UTF-32 hold such bytes too: looked at only now, as
    // most files are 8-bit text.
    let wide = sgf_core::charset::sniff_utf16(bytes).is_some()
        || sgf_core::charset::sniff_utf32(bytes).is_some()
        || utf16_like(sample);
    (!wide).then_some(why)
}

/// UTF-16 without a byte-order mark whose text is not mostly ASCII (which
/// [`sgf_core::charset::sniff_utf16`] finds): the NULs of its ASCII
/// characters (SGF's brackets and letters) all fall on one side of the
/// pairs.
fn utf16_like(sample: &[u8]) -> bool {
    let pairs = sample.len() / 2;
    if pairs < 16 {
        return false;
    }
    let (mut even0, mut odd0) = (0usize, 0usize);
    for p in sample.chunks_exact(2) {
        even0 += usize::from(p[0] == 0);
        odd0 += usize::from(p[1] == 0);
    }
    let one_sided = |many: usize, few: usize| many * 4 >= pairs && few * 50 <= pairs;
    one_sided(odd0, even0) || one_sided(even0, odd0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes from a fixed generator (xorshift), for noise.
    fn noise(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn records_in_every_charset_are_text() {
        assert_eq!(sniff(b"(;GM[1]SZ[19]PB[\xBA\xDA]PW[\xB0\xD7];B[pd])"), None);
        assert_eq!(sniff("(;C[黒の中押し勝ち])".as_bytes()), None);
        // ISO-2022-JP: escapes are text.
        assert_eq!(sniff(b"(;C[\x1B$B9u\x1B(B])"), None);
        let utf16: Vec<u8> = "(;GM[1]C[黑胜])"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(sniff(&utf16), None);
        // UTF-16 of CJK text without a BOM: the NULs of its ASCII are one-sided.
        let cjk: String =
            "(;GM[1]FF[4]SZ[19]PB[黑]PW[白]RE[B+R]".to_string() + &";B[pd]C[黑胜]".repeat(20) + ")";
        let be: Vec<u8> = cjk.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(sniff(&be), None);
        // A stray NUL or two, and NUL padding at the end, are not enough.
        let mut padded = b"(;GM[1]\x00SZ[19];B[pd])".to_vec();
        padded.extend(std::iter::repeat_n(0u8, 8192));
        assert_eq!(sniff(&padded), None);
        assert_eq!(sniff(b"just some notes\r\n\x0c\x1a"), None);
    }

    #[test]
    fn archives_and_binaries_by_magic_bytes() {
        assert_eq!(
            sniff(b"\x1F\x8B\x08\x00"),
            Some(NotRecord::Archive(ArchiveKind::TarGz))
        );
        assert_eq!(
            sniff(b"7z\xBC\xAF\x27\x1C\x00\x04"),
            Some(NotRecord::Archive(ArchiveKind::SevenZ))
        );
        let mut tar = vec![b'a'; 512];
        tar[257..263].copy_from_slice(b"ustar\0");
        assert_eq!(sniff(&tar), Some(NotRecord::Archive(ArchiveKind::Tar)));
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1A\n\0\0"),
            Some(NotRecord::Binary("a PNG image"))
        );
        assert_eq!(
            sniff(b"BZh91AY&SY"),
            Some(NotRecord::Compressed("a bzip2-compressed file"))
        );
        // Text that starts like a magic number is still text.
        assert_eq!(sniff(b"BZh? (;GM[1])"), None);
        assert_eq!(sniff(b"PK (;GM[1])"), None);
    }

    #[test]
    fn noise_is_not_text() {
        for seed in 1..20 {
            for n in [200, 4096, 200_000] {
                let r = sniff(&noise(n, seed));
                assert!(
                    matches!(r, Some(NotRecord::NotText { .. })),
                    "{n} bytes, seed {seed}: {r:?}"
                );
            }
        }
        assert_eq!(
            sniff(&[0u8; 100]),
            Some(NotRecord::NotText { per_mille: 1000 })
        );
        let mut zeroed = vec![0u8; 300];
        zeroed[..7].copy_from_slice(b"(;GM[1]");
        zeroed[299] = b')';
        assert!(matches!(sniff(&zeroed), Some(NotRecord::NotText { .. })));
        // UTF-16 text inside an 8-bit file (SGFC's mixed-encoding test).
        let mut mixed = b"(;CA[UTF-16LE]C[".to_vec();
        mixed.extend(
            "hallo Welt, wie geht es"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        mixed.extend_from_slice(b"])(;CA[ISO-8859-15]C[hall\xf6])");
        assert_eq!(sniff(&mixed), None);
        let r = sniff(&noise(10_000, 3)).unwrap();
        assert!(
            r.reason().starts_with("it is not text in any charset ("),
            "{r}"
        );
    }

    #[test]
    fn kinds_by_name() {
        assert_eq!(
            ArchiveKind::of_path(Path::new("a/B.TGZ")),
            Some(ArchiveKind::TarGz)
        );
        assert_eq!(
            ArchiveKind::of_path(Path::new("a.tar.gz")),
            Some(ArchiveKind::TarGz)
        );
        assert_eq!(
            ArchiveKind::of_path(Path::new("a.tar")),
            Some(ArchiveKind::Tar)
        );
        assert_eq!(
            ArchiveKind::of_path(Path::new("a.zip")),
            Some(ArchiveKind::Zip)
        );
        assert_eq!(
            ArchiveKind::of_path(Path::new("a.7z")),
            Some(ArchiveKind::SevenZ)
        );
        assert_eq!(ArchiveKind::of_path(Path::new("a.sgf")), None);
        assert_eq!(ArchiveKind::of_path(Path::new("zip")), None);
    }

    #[test]
    fn sentences() {
        assert_eq!(
            NotRecord::Archive(ArchiveKind::Zip).sentence("g.zip"),
            "g.zip is not a game record: it is a zip archive"
        );
        assert_eq!(
            NotRecord::NoGameTree.to_string(),
            "not a game record: it holds no SGF game tree [S002]"
        );
    }
}
