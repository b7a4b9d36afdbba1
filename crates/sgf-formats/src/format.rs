//! What a record format is to Qipu: the [`Format`] trait every reader
//! implements, what reading gives ([`Loaded`]) or why it failed
//! ([`ReadError`]), and the options ([`ReadOptions`]). The readers and the
//! registry (`registry.rs`) both depend on this module, not on each
//! other.

use crate::input::Bytes;
use crate::judge::NotRecord;
use sgf_core::{Diagnostic, Parsed};

/// Options for reading.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Copy contact addresses into the SGF record: the e-mail addresses of
    /// UGF `PlayerB`/`PlayerW` and the players' QQ numbers of WGS. Off by
    /// default: a converted file is often shared.
    pub keep_email: bool,
    /// Report the SGF dialects a file uses (information, `R003`). On by
    /// default; callers that count or repair turn it off: it reads every
    /// game once more and changes nothing in the document.
    pub dialect_report: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            keep_email: false,
            dialect_report: true,
        }
    }
}

/// A record read by [`read_any`](crate::read_any) or a [`Format`].
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The format it was read as (`SGF`, `GIB`, `NGF`, `UGF`, `WGS`).
    pub format: &'static str,
    /// The charset of the input (`UTF-8`, `GBK`, `Shift_JIS`, `ASCII`, …;
    /// for SGF the first game's).
    pub charset: &'static str,
    /// Whether the record was converted from another format. Then
    /// `parsed.document` is the converted SGF and the spans of
    /// `parsed.diagnostics` are offsets in the *input* bytes; for SGF they are
    /// offsets in `parsed.document.source()` (the same bytes, except for
    /// transcoded UTF-16).
    pub converted: bool,
    /// The document and the diagnostics.
    pub parsed: Parsed,
}

/// The charset game `gi` of `doc` was read in, as every face names it (the
/// one rule of `qipu info`, `stats`, `export`, Python, the viewer and the
/// database): for a record converted from another format
/// (`converted_from`: its file's charset), the charset of the file read;
/// else the game's own ([`sgf_core::Game::charset`]), but `ASCII` for a
/// game without `CA` whose text is all ASCII, as for the other formats
/// (the decoder sgf-core uses for it, FF\[4\]'s default ISO-8859-1 read
/// as `windows-1252`, says nothing about such a file).
pub fn game_charset(
    doc: &sgf_core::Document,
    gi: usize,
    converted_from: Option<&'static str>,
) -> &'static str {
    match converted_from {
        Some(c) => c,
        None => doc.game(gi).map_or("UTF-8", |g| {
            // A new document's game is UTF-8 from the start (it is
            // written so): only the default for ASCII is renamed.
            if g.charset_source() == sgf_core::charset::CharsetSource::Default
                && g.encoding() == encoding_rs::WINDOWS_1252
            {
                ASCII
            } else {
                g.charset()
            }
        }),
    }
}

/// The name of the charset of text that is all ASCII, declared nowhere.
pub const ASCII: &str = "ASCII";

impl Loaded {
    /// The charset game `gi` was read in (see [`game_charset`]).
    pub fn game_charset(&self, gi: usize) -> &'static str {
        game_charset(
            &self.parsed.document,
            gi,
            self.converted.then_some(self.charset),
        )
    }

    /// The encoding of the input named by [`Loaded::charset`] (UTF-8 for a
    /// name encoding_rs does not know, such as `ASCII`, which UTF-8 covers).
    pub fn encoding(&self) -> &'static encoding_rs::Encoding {
        encoding_rs::Encoding::for_label(self.charset.as_bytes()).unwrap_or(encoding_rs::UTF_8)
    }
}

/// A file that could not be read at all (an encrypted UGF, a file with
/// nothing the sniffed format can use).
#[derive(Clone, Debug)]
pub struct ReadError {
    /// The format that was tried.
    pub format: &'static str,
    /// What went wrong.
    pub message: String,
    /// Diagnostics gathered before giving up (spans into the input).
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the bytes are not a game record at all (an archive, a
    /// binary file: see [`crate::judge`]); `format` is then `"?"`.
    pub not_record: Option<NotRecord>,
}

impl ReadError {
    /// The error of bytes that are not a game record (see [`crate::judge`]).
    pub fn not_record(why: NotRecord) -> ReadError {
        ReadError {
            format: "?",
            message: why.reason(),
            diagnostics: Vec::new(),
            not_record: Some(why),
        }
    }

    /// An error of the reader of `format`.
    pub fn new(format: &'static str, message: impl Into<String>) -> ReadError {
        ReadError {
            format,
            message: message.into(),
            diagnostics: Vec::new(),
            not_record: None,
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.not_record {
            Some(why) => write!(f, "{why}"),
            None => write!(f, "not a readable {} record: {}", self.format, self.message),
        }
    }
}

impl std::error::Error for ReadError {}

/// A record format Qipu can read into SGF.
pub trait Format: Send + Sync {
    /// Short name, upper case (`GIB`).
    fn name(&self) -> &'static str;
    /// One line for `--help` and docs.
    fn description(&self) -> &'static str;
    /// File name extensions, lower case, without the dot.
    fn extensions(&self) -> &'static [&'static str];
    /// Whether its records are binary, not text (QQ Go's WGS): bytes that
    /// are not text are then no sign that a file is not a record (see
    /// [`crate::judge::before_reading`]).
    fn is_binary(&self) -> bool {
        false
    }
    /// How sure the content looks like this format: 0 = not at all, 100 =
    /// certain. Must be cheap (look at the first few KB) and never panic.
    fn sniff(&self, bytes: &[u8]) -> u8;
    /// Reads the record. Bad lines become diagnostics; an error means
    /// nothing usable was found.
    ///
    /// # Errors
    /// When the file cannot be read as this format at all.
    fn read(&self, bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError>;

    /// [`Format::read`] of bytes held shared: a reader whose record keeps
    /// its input (an SGF document keeps the bytes it is read from) takes
    /// them without a copy.
    ///
    /// # Errors
    /// As [`Format::read`].
    fn read_shared(
        &self,
        bytes: &std::sync::Arc<[u8]>,
        opts: &ReadOptions,
    ) -> Result<Loaded, ReadError> {
        self.read(bytes, opts)
    }

    /// [`Format::read`] or [`Format::read_shared`], as the bytes are held.
    ///
    /// # Errors
    /// As [`Format::read`].
    fn read_bytes(&self, bytes: Bytes<'_>, opts: &ReadOptions) -> Result<Loaded, ReadError> {
        match bytes {
            Bytes::Shared(a) => self.read_shared(a, opts),
            Bytes::Borrowed(b) => self.read(b, opts),
        }
    }
}
