//! Reading inputs: files, `-` for stdin, in any format `sgf-formats` reads.

use std::path::Path;

use anyhow::{Context, Result};
use sgf_core::Parsed;
use sgf_formats::save::Destination;

/// A file read and parsed.
pub struct Loaded {
    /// The name to show (the path, or `<stdin>`).
    pub name: String,
    /// The parse result (a converted record for GIB, NGF, UGF…).
    pub parsed: Parsed,
    /// The format it was read as (`SGF`, `GIB`, …).
    pub format: &'static str,
    /// The charset of the input (for a converted record, of the file, not
    /// of the UTF-8 document made from it).
    pub charset: &'static str,
    /// For a converted record, the input bytes and their charset: the
    /// diagnostics' spans point into them, not into the converted document.
    pub original: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
}

/// Reads a path, `-` meaning standard input: only regular files, at most
/// [`sgf_formats::input::MAX_INPUT_BYTES`] (see [`sgf_formats::input`]).
pub fn read_bytes(path: &str) -> Result<Vec<u8>> {
    use sgf_formats::input::{MAX_INPUT_BYTES, read_file, read_stream};
    if path == "-" {
        read_stream(&mut std::io::stdin().lock(), MAX_INPUT_BYTES)
            .context("cannot read standard input")
    } else {
        read_file(Path::new(path), MAX_INPUT_BYTES).with_context(|| format!("cannot read {path}"))
    }
}

/// Reads and parses a record; the format is sniffed from the content (the
/// extension breaks ties).
pub fn load(path: &str) -> Result<Loaded> {
    load_with(path, None, &sgf_formats::ReadOptions::default())
}

/// [`load`] with a forced format (`SGF`, `GIB`, … or an extension) and options.
pub fn load_with(
    path: &str,
    format: Option<&str>,
    opts: &sgf_formats::ReadOptions,
) -> Result<Loaded> {
    let bytes = read_bytes(path)?;
    load_bytes(path, bytes, format, opts)
}

/// [`load_with`] on bytes already read from `path`.
pub fn load_bytes(
    path: &str,
    bytes: Vec<u8>,
    format: Option<&str>,
    opts: &sgf_formats::ReadOptions,
) -> Result<Loaded> {
    let registry = sgf_formats::builtin();
    let hint = (path != "-").then(|| Path::new(path));
    let reader = match format {
        Some(f) => registry.by_name(f).with_context(|| {
            let names: Vec<&str> = registry.formats().map(|f| f.name()).collect();
            format!("unknown format `{f}` (known: {})", names.join(", "))
        })?,
        None => registry.detect(&bytes, hint),
    };
    let loaded = reader
        .read(&bytes, opts)
        .with_context(|| format!("cannot read {path}"))?;
    let original = loaded.converted.then(|| (bytes, loaded.encoding()));
    Ok(Loaded {
        name: display_name(path),
        parsed: loaded.parsed,
        format: loaded.format,
        charset: loaded.charset,
        original,
    })
}

/// A record read by the library from `bytes` (a part of them, or all),
/// as the commands hold it: a converted record keeps its input, where its
/// diagnostics point.
pub fn wrap(path: &str, bytes: &[u8], loaded: sgf_formats::Loaded) -> Loaded {
    let original = loaded
        .converted
        .then(|| (bytes.to_vec(), loaded.encoding()));
    Loaded {
        name: display_name(path),
        parsed: loaded.parsed,
        format: loaded.format,
        charset: loaded.charset,
        original,
    }
}

/// The name a path is shown by (`<stdin>` for `-`).
pub fn display_name(path: &str) -> String {
    if path == "-" {
        "<stdin>".into()
    } else {
        path.into()
    }
}

/// Where an output goes: the file `out` (replaced safely: see
/// [`sgf_formats::save::Destination`]), or standard output for `None` or
/// `-`. Nothing is in place until [`commit`] is called.
///
/// # Errors
/// When `out` cannot be written (a symbolic link, a directory, a read-only
/// file, a folder that does not exist).
pub fn create_output(out: Option<&str>) -> Result<Destination> {
    Destination::open(out.map(Path::new))
        .with_context(|| format!("cannot write {}", out.unwrap_or("-")))
}

/// Puts an output in place (see [`create_output`]).
///
/// # Errors
/// When writing failed or the file could not be replaced; a file replaced
/// is then as it was.
pub fn commit(out: Destination, name: Option<&str>) -> Result<()> {
    out.commit().with_context(|| match name {
        Some(n) if n != "-" => format!("cannot write {n}"),
        _ => "cannot write to standard output".to_string(),
    })?;
    Ok(())
}

/// Writes bytes to `out` (a path) or standard output (see [`create_output`]).
///
/// # Errors
/// When they cannot be written; a file replaced is then as it was.
pub fn write_output(out: Option<&str>, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut dest = create_output(out)?;
    // A failure is kept by the destination and returned by the commit.
    let _ = dest.write_all(bytes);
    commit(dest, out)
}

/// Writes a whole file (one of several a command makes in a folder),
/// replaced safely (see [`sgf_formats::save::replace_file`]).
///
/// # Errors
/// When it cannot be written; a file replaced is then as it was.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    sgf_formats::save::replace_file(path, bytes, &sgf_formats::save::SaveOptions::default())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Rewrites the SGF dialects of a loaded record in FF[4] form (what `fmt`
/// and `convert` write; see `sgf_formats::repair::fmt`). Converted
/// records are already in FF[4] form.
pub fn normalize(loaded: &mut Loaded) {
    if loaded.original.is_none() {
        sgf_formats::repair::fmt(&mut loaded.parsed);
    }
}

impl Loaded {
    /// The record, or an error when it holds no game tree (S002): the
    /// commands that show or convert games have nothing to work on.
    ///
    /// # Errors
    /// When the document has no game.
    pub fn require_games(self) -> Result<Loaded> {
        if self.parsed.document.games().next().is_some() {
            return Ok(self);
        }
        let why = self
            .parsed
            .diagnostics
            .iter()
            .find(|d| d.code == sgf_core::Code::NoGameTree)
            .map_or("no SGF game tree found", |d| d.message.as_str());
        anyhow::bail!(
            "{}: {why} [{}]; it is not a game record",
            self.name,
            sgf_core::Code::NoGameTree.as_str()
        )
    }

    /// The 0-based index of game `game` (numbered from 1, as on the command
    /// line).
    ///
    /// # Errors
    /// When there is no such game.
    pub fn game_index(&self, game: usize) -> Result<usize> {
        let n = self.parsed.document.games().count();
        if game == 0 {
            anyhow::bail!("games are numbered from 1; there is no game 0");
        }
        if game > n {
            anyhow::bail!("{} has {n} game(s); there is no game {game}", self.name);
        }
        Ok(game - 1)
    }
}
