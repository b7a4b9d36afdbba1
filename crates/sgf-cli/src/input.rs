//! Reading inputs: files, `-` for stdin, in any format `sgf-formats` reads.

use std::path::Path;
use std::sync::Arc;

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
/// The bytes are shared: a parsed SGF file keeps them as its source
/// instead of a copy.
pub fn read_bytes(path: &str) -> Result<Arc<[u8]>> {
    use sgf_formats::input::{MAX_INPUT_BYTES, read_file_shared, read_stdin_shared};
    if path == "-" {
        read_stdin_shared(MAX_INPUT_BYTES).context("cannot read standard input")
    } else {
        read_file_shared(Path::new(path), MAX_INPUT_BYTES)
            .with_context(|| format!("cannot read {path}"))
    }
}

/// Reads and parses a record from `bytes` (read from `path`), as
/// `format` (`SGF`, `GIB`, … or an extension) or the format they look like
/// (the extension breaks ties).
pub fn load_bytes(
    path: &str,
    bytes: Arc<[u8]>,
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
        .read_shared(&bytes, opts)
        .with_context(|| format!("cannot read {path}"))?;
    let original = loaded
        .converted
        .then(|| (bytes.to_vec(), loaded.encoding()));
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

/// One game of a record: the part of the file that holds it, read alone
/// (the whole file when it is not cut; see [`sgf_formats::parts`]).
pub struct GameAt {
    /// The part read.
    pub loaded: Loaded,
    /// The game's index in `loaded` (from 0).
    pub index: usize,
    /// Where the part stands in the file.
    pub piece: sgf_formats::parts::Piece,
    /// The whole file.
    pub bytes: Arc<[u8]>,
}

/// Reads game `game` (from 0) of the record at `path`, printing the
/// reader's warnings and errors of the part read unless `quiet`. `Ok(Err(n))`
/// when the file has only `n` games.
///
/// # Errors
/// When the file cannot be read or holds no game tree (S002).
pub fn load_game(path: &str, game: usize, quiet: bool) -> Result<Result<GameAt, usize>> {
    let bytes = read_bytes(path)?;
    let hint = (path != "-").then(|| Path::new(path));
    let opts = sgf_formats::parts::PartOptions::default();
    let found = sgf_formats::parts::read_game(&bytes, hint, &opts, game)
        .with_context(|| format!("cannot read {path}"))?;
    Ok(match found {
        sgf_formats::parts::Found::Game(piece, l) => {
            let loaded = wrap(path, &bytes[piece.range.clone()], *l);
            if !quiet {
                crate::print_diagnostics_at(&loaded, &piece);
            }
            Ok(GameAt {
                loaded,
                index: game - piece.first_game,
                piece,
                bytes,
            })
        }
        // No game tree at all: an error, as `require_games` words it.
        sgf_formats::parts::Found::Missing(0) => {
            load_bytes(path, bytes, None, &opts.read)?.require_games()?;
            Err(0)
        }
        sgf_formats::parts::Found::Missing(n) => Err(n),
    })
}

/// [`load_game`] for a game numbered from 1.
///
/// # Errors
/// When the file cannot be read, holds no game tree or not that game.
pub fn load_game_numbered(path: &str, game: usize, quiet: bool) -> Result<GameAt> {
    if game == 0 {
        anyhow::bail!("games are numbered from 1; there is no game 0");
    }
    match load_game(path, game - 1, quiet)? {
        Ok(g) => Ok(g),
        Err(n) => anyhow::bail!(
            "{} has {n} game(s); there is no game {game}",
            display_name(path)
        ),
    }
}

/// Writes a whole file (one of the many a command makes in a folder),
/// replaced safely (see [`sgf_formats::save::Destination`]) but not
/// flushed to disk one by one ([`sgf_formats::save::SaveOptions::skip_sync`]).
///
/// # Errors
/// When it cannot be written; a file replaced is then as it was.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    write_file_with(path, |out| {
        out.write_all(bytes)
            .with_context(|| format!("cannot write {}", path.display()))
    })
}

/// [`write_file`] with the bytes written by `write` as they are made (the
/// destination buffers them), so that a large output is never held whole.
///
/// # Errors
/// When it cannot be written (`write` failed: its error, or the file could
/// not be replaced); a file replaced is then as it was.
pub fn write_file_with(
    path: &Path,
    write: impl FnOnce(&mut Destination) -> Result<()>,
) -> Result<()> {
    let what = || format!("cannot write {}", path.display());
    let mut dest = Destination::open(Some(path)).with_context(what)?;
    // On a failure the destination is dropped uncommitted: the file stays as it was.
    write(&mut dest)?;
    let mut opts = sgf_formats::save::SaveOptions::default();
    opts.skip_sync = true;
    dest.commit_with(&opts).with_context(what)?;
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
        match self.no_game_tree() {
            None => Ok(self),
            Some(e) => Err(anyhow::anyhow!(e)),
        }
    }

    /// Why the record is not a game record (`NAME: no SGF game tree found
    /// [S002]; …`), when it holds no game tree.
    /// The charset game `gi` was read in (see [`sgf_formats::game_charset`]).
    pub fn game_charset(&self, gi: usize) -> &'static str {
        sgf_formats::game_charset(&self.parsed.document, gi, self.converted_from())
    }

    /// For a converted record, its file's charset.
    fn converted_from(&self) -> Option<&'static str> {
        self.original.is_some().then_some(self.charset)
    }

    /// The summary of every game (see [`sgf_formats::summary`]) without its
    /// moves and setup, with the number of its main-line moves: what `info`
    /// shows (a million-move line is counted, not held).
    pub fn summaries_counted(&self) -> Vec<(sgf_formats::summary::GameSummary, usize)> {
        let doc = &self.parsed.document;
        (0..doc.game_count())
            .filter_map(|gi| {
                sgf_formats::summary::GameSummary::counted(doc, gi, self.converted_from())
            })
            .collect()
    }

    pub fn no_game_tree(&self) -> Option<String> {
        if self.parsed.document.games().next().is_some() {
            return None;
        }
        let why = self
            .parsed
            .diagnostics
            .iter()
            .find(|d| d.code == sgf_core::Code::NoGameTree)
            .map_or("no SGF game tree found", |d| d.message.as_str());
        Some(format!(
            "{}: {why} [{}]; it is not a game record",
            self.name,
            sgf_core::Code::NoGameTree.as_str()
        ))
    }
}
