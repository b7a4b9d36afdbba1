//! The format registry: which formats Qipu reads, how a file's format is
//! recognised (by content first, by extension second), and the one entry
//! point [`read_any`].
//!
//! # Adding a format (BDX, GOS, the China Game Center `.GO`, …)
//!
//! These three are listed in [`UNSUPPORTED`] until someone has a sample:
//! a file with their extension whose content no reader recognises fails
//! with "format not supported", naming the format.
//!
//! 1. Write a type implementing [`Format`] in its own module: `sniff` looks
//!    at the first bytes and says how sure it is (0–100); `read` builds an
//!    [`SgfBuilder`](crate::builder::SgfBuilder) (root game info with
//!    `CA[UTF-8]`, moves as nodes), keeps fields without an SGF equivalent
//!    in a `<FORMAT>HEADER[KEY=VALUE]` property, reports unreadable lines
//!    as `R002` with the line's span, and calls
//!    [`SgfBuilder::into_parsed`](crate::builder::SgfBuilder::into_parsed).
//! 2. Add it to [`Registry::builtin`] (or call [`Registry::register`] on
//!    your own registry).
//! 3. Add a fixture under `testdata/formats/` and a test.

use std::path::Path;
use std::sync::OnceLock;

use crate::format::{Format, Loaded, ReadError, ReadOptions};
pub use crate::input::Bytes;

/// Content scores at or above this decide the format without the extension.
const SURE: u8 = 50;

/// A set of formats.
pub struct Registry {
    formats: Vec<Box<dyn Format>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.formats.iter().map(|x| x.name()))
            .finish()
    }
}

impl Registry {
    /// A registry with no formats (SGF is still the fallback of [`Registry::detect`]).
    pub fn empty() -> Registry {
        Registry {
            formats: Vec::new(),
        }
    }

    /// SGF, GIB, NGF, UGF/UGI, WGS (without the feature `other-formats`,
    /// the last four are recognised but not read: see [`NotBuiltIn`]).
    pub fn builtin() -> Registry {
        let mut r = Registry::empty();
        r.register(Box::new(crate::sgf::Sgf));
        r.register(other(crate::gib::Gib));
        r.register(other(crate::ngf::Ngf));
        r.register(other(crate::ugf::Ugf));
        r.register(other(crate::wgs::Wgs));
        r
    }

    /// Adds a format (a later one wins ties in sniffing).
    pub fn register(&mut self, format: Box<dyn Format>) {
        self.formats.push(format);
    }

    /// The formats, in registration order.
    pub fn formats(&self) -> impl Iterator<Item = &dyn Format> {
        self.formats.iter().map(|f| &**f)
    }

    /// A format by name or extension, case-insensitive (`gib`, `UGI`). A
    /// format Qipu knows of but cannot read ([`UNSUPPORTED`], `bdx`) is
    /// found too: reading with it gives the "not supported" error.
    pub fn by_name(&self, name: &str) -> Option<&dyn Format> {
        let n = name.trim_start_matches('.');
        self.formats()
            .find(|f| f.name().eq_ignore_ascii_case(n))
            .or_else(|| {
                self.formats()
                    .find(|f| f.extensions().iter().any(|e| e.eq_ignore_ascii_case(n)))
            })
            .or_else(|| {
                UNSUPPORTED
                    .iter()
                    .find(|u| {
                        u.name.eq_ignore_ascii_case(n)
                            || u.extensions.iter().any(|e| e.eq_ignore_ascii_case(n))
                    })
                    .map(|u| u as &dyn Format)
            })
    }

    /// The format of `bytes`: the best content score when it is sure
    /// (≥ 50), else the format of the file's extension, else the best
    /// content score above 0, else a format of [`UNSUPPORTED`] when the
    /// extension names one (its `read` says it is not supported), else SGF
    /// (whose parser reads anything).
    pub fn detect(&self, bytes: &[u8], path: Option<&Path>) -> &dyn Format {
        let mut best: Option<(&dyn Format, u8)> = None;
        for f in self.formats() {
            let s = f.sniff(bytes);
            if s > 0 && best.is_none_or(|(_, b)| s >= b) {
                best = Some((f, s));
            }
        }
        if let Some((f, s)) = best
            && s >= SURE
        {
            return f;
        }
        let ext = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .and_then(|e| {
                self.formats()
                    .find(|f| f.extensions().iter().any(|x| x.eq_ignore_ascii_case(e)))
            });
        if let Some(f) = ext {
            return f;
        }
        if let Some((f, _)) = best {
            return f;
        }
        if let Some(u) = path.and_then(Unsupported::of_path) {
            return u;
        }
        self.by_name("SGF").unwrap_or(&crate::sgf::Sgf)
    }

    /// The reader of `bytes` when they may be a game record (see
    /// [`crate::judge::sniff`]): the format asked for (a name or an
    /// extension, see [`Registry::by_name`]), or the one they look like
    /// ([`Registry::detect`]). What every front end reads a file with.
    ///
    /// # Errors
    /// When the bytes are not a game record (an archive, a binary file,
    /// nothing: [`ReadError::not_record`]), or the format asked for is not
    /// known.
    pub fn reader_for(
        &self,
        bytes: &[u8],
        path: Option<&Path>,
        format: Option<&str>,
    ) -> Result<&dyn Format, ReadError> {
        let reader = match format {
            Some(f) => self.by_name(f).ok_or_else(|| {
                let names: Vec<&str> = self.formats().map(|f| f.name()).collect();
                ReadError::new(
                    "?",
                    format!("unknown format `{f}` (known: {})", names.join(", ")),
                )
            })?,
            None => self.detect(bytes, path),
        };
        match crate::judge::before_reading(bytes, reader) {
            Some(why) => Err(ReadError::not_record(why)),
            None => Ok(reader),
        }
    }

    /// Reads the record in the format it looks like, when the bytes may be
    /// one (see [`Registry::reader_for`]).
    ///
    /// # Errors
    /// When they are not a game record, or see [`Format::read`].
    pub fn read<'b>(
        &self,
        bytes: impl Into<Bytes<'b>>,
        path: Option<&Path>,
        opts: &ReadOptions,
    ) -> Result<Loaded, ReadError> {
        let bytes = bytes.into();
        self.reader_for(&bytes, path, None)?.read_bytes(bytes, opts)
    }
}

/// A record format that MultiGo reads and Qipu cannot: no description,
/// reader or sample of it is public. Recognised by its extension only, so
/// that reading such a file says so instead of failing as SGF; not part of
/// any registry's [`Registry::formats`] (a directory walk does not pick up
/// `.go` source files).
#[derive(Debug)]
pub struct Unsupported {
    /// Short name (`BDX`).
    pub name: &'static str,
    /// Whose format it is.
    pub description: &'static str,
    /// File name extensions, lower case, without the dot.
    pub extensions: &'static [&'static str],
}

/// The formats MultiGo reads that Qipu cannot (see `docs/formats.md`).
pub const UNSUPPORTED: &[Unsupported] = &[
    Unsupported {
        name: "BDX",
        description: "the Qingfeng (清风) server's record",
        extensions: &["bdx"],
    },
    Unsupported {
        name: "GOS",
        description: "the Ourgame / Lianzhong (联众) record",
        extensions: &["gos"],
    },
    Unsupported {
        name: "GO",
        description: "the China Game Center (中国游戏中心) record",
        extensions: &["go"],
    },
];

impl Unsupported {
    /// The unsupported format a path's extension names.
    pub fn of_path(path: &Path) -> Option<&'static Unsupported> {
        let ext = path.extension()?.to_str()?;
        UNSUPPORTED
            .iter()
            .find(|u| u.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
    }
}

impl Format for Unsupported {
    fn name(&self) -> &'static str {
        self.name
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }
    fn sniff(&self, _bytes: &[u8]) -> u8 {
        0
    }
    fn read(&self, _bytes: &[u8], _opts: &ReadOptions) -> Result<Loaded, ReadError> {
        Err(ReadError {
            format: self.name,
            message: format!(
                "format not supported: Qipu cannot read {}, {}: no description, reader or sample of it is public (MultiGo can convert it to SGF)",
                self.name, self.description
            ),
            diagnostics: Vec::new(),
            not_record: None,
        })
    }
}

/// A format other than SGF, read when the feature `other-formats` is on.
fn other<F: Format + 'static>(f: F) -> Box<dyn Format> {
    if cfg!(feature = "other-formats") {
        Box::new(f)
    } else {
        Box::new(NotBuiltIn(f))
    }
}

/// A format recognised (same name, extensions and sniffing, so that a file
/// is told apart as in a full build) but whose reader is left out of this
/// build: reading says so. Only without the feature `other-formats`.
#[derive(Debug)]
pub struct NotBuiltIn<F>(pub F);

impl<F: Format> Format for NotBuiltIn<F> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn description(&self) -> &'static str {
        self.0.description()
    }
    fn extensions(&self) -> &'static [&'static str] {
        self.0.extensions()
    }
    fn is_binary(&self) -> bool {
        self.0.is_binary()
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        self.0.sniff(bytes)
    }
    fn read(&self, _bytes: &[u8], _opts: &ReadOptions) -> Result<Loaded, ReadError> {
        Err(ReadError {
            format: self.0.name(),
            message: "this build does not read this format (sgf-formats' feature `other-formats`)"
                .into(),
            diagnostics: Vec::new(),
            not_record: None,
        })
    }
}

/// The built-in registry.
pub fn builtin() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(Registry::builtin)
}

/// Reads a record in any built-in format, sniffed from the content (the
/// path's extension breaks ties), with default options.
///
/// ```
/// let gib = b"\\HS\n\\[GAMEBLACKNAME=kim (2D)\\]\n\\HE\n\\GS\nINI 0 1 0 &4\nSTO 0 2 1 15 3\n\\GE\n";
/// let loaded = sgf_formats::read_any(gib, None).unwrap();
/// assert_eq!(loaded.format, "GIB");
/// let game = loaded.parsed.document.game(0).unwrap();
/// assert_eq!(game.root().text("PB").unwrap(), "kim");
/// assert_eq!(game.root().text("BR").unwrap(), "2d");
/// assert_eq!(game.main_line().nth(1).unwrap().text("B").unwrap(), "pd");
/// ```
///
/// # Errors
/// When the sniffed format cannot read the file at all.
pub fn read_any<'b>(
    bytes: impl Into<Bytes<'b>>,
    path_hint: Option<&Path>,
) -> Result<Loaded, ReadError> {
    builtin().read(bytes, path_hint, &ReadOptions::default())
}
