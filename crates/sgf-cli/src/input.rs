//! Reading inputs: files, `-` for stdin, in any format `sgf-formats` reads.

use std::path::{Path, PathBuf};
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

/// A record as a command reads it: a file, standard input, or a member of
/// an archive.
pub struct Source {
    /// The name it is shown by: the path, `<stdin>`, or `ARCHIVE!MEMBER`.
    pub name: String,
    /// The path whose extension breaks ties between formats (a member's
    /// own name; none for standard input).
    pub hint: Option<PathBuf>,
    /// Its bytes, shared: a parsed SGF file keeps them as its source
    /// instead of a copy.
    pub bytes: Arc<[u8]>,
    /// It is a member of an archive: nothing is ever written into it.
    pub in_archive: bool,
}

impl Source {
    /// The path of the extension that breaks ties between formats.
    pub fn hint(&self) -> Option<&Path> {
        self.hint.as_deref()
    }
}

/// What a command-line argument names.
enum Named<'a> {
    Stdin,
    /// A file that is not an archive (or does not exist: reading says so).
    File,
    /// An archive, by its first bytes or its name.
    Archive(&'a Path),
    /// `ARCHIVE!MEMBER`.
    Member(&'a Path, &'a str),
}

fn named(arg: &str) -> Named<'_> {
    use sgf_formats::judge::ArchiveKind;
    if arg == "-" {
        return Named::Stdin;
    }
    if std::fs::symlink_metadata(arg).is_ok() {
        return if ArchiveKind::of_file(Path::new(arg)).is_some() {
            Named::Archive(Path::new(arg))
        } else {
            Named::File
        };
    }
    match sgf_formats::archive::split_member_path(arg) {
        Some((archive, member)) => Named::Member(archive, member),
        None => Named::File,
    }
}

/// Reads the bytes of a path, `-` meaning standard input: only regular
/// files, at most [`sgf_formats::input::MAX_INPUT_BYTES`] (see
/// [`sgf_formats::input`]).
fn read_path(arg: &str) -> Result<Arc<[u8]>> {
    use sgf_formats::input::{MAX_INPUT_BYTES, read_named};
    read_named(arg, MAX_INPUT_BYTES).with_context(|| {
        if arg == "-" {
            "cannot read standard input".to_string()
        } else {
            format!("cannot read {arg}")
        }
    })
}

/// A member of an archive as a [`Source`].
fn member_source(archive: &str, m: sgf_formats::archive::Member) -> Source {
    Source {
        name: format!("{archive}!{}", m.name),
        hint: Some(PathBuf::from(&m.name)),
        bytes: m.bytes.into(),
        in_archive: true,
    }
}

/// The record an argument names, for a command that works on one record:
/// a file, standard input, a member `ARCHIVE!MEMBER`, or an archive that
/// holds one record file (an archive of several says how to name one).
///
/// # Errors
/// When it cannot be read, or is an archive of more or fewer than one
/// record file.
pub fn read_one(arg: &str) -> Result<Source> {
    use sgf_formats::archive::{ArchiveOptions, Member, read_member, read_members_in};
    match named(arg) {
        Named::Archive(path) => {
            let names = sgf_formats::archive::member_names(path)?;
            let [only] = &names[..] else {
                anyhow::bail!(archive_of_many(arg, path, &names));
            };
            let bytes = read_member(path, only, &archive_options())?;
            Ok(member_source(
                arg,
                Member {
                    name: only.clone(),
                    bytes,
                },
            ))
        }
        Named::Member(archive, member) => {
            let bytes = read_member(archive, member, &archive_options())?;
            Ok(Source {
                name: arg.to_string(),
                hint: Some(PathBuf::from(member)),
                bytes: bytes.into(),
                in_archive: true,
            })
        }
        Named::Stdin | Named::File => {
            let bytes = read_path(arg)?;
            let name = display_name(arg);
            if sgf_formats::judge::ArchiveKind::of_bytes(&bytes).is_none() {
                return Ok(Source {
                    name,
                    hint: (arg != "-").then(|| PathBuf::from(arg)),
                    bytes,
                    in_archive: false,
                });
            }
            // An archive on standard input (or swapped in meanwhile): its
            // members from memory.
            let mut members = Vec::new();
            read_members_in(&bytes, &name, &ArchiveOptions::default(), &mut |m| {
                members.push(m)
            })?;
            let names: Vec<String> = members
                .iter()
                .map(|m| match m {
                    Ok(m) => m.name.clone(),
                    Err(e) => e.name.clone(),
                })
                .collect();
            match members.pop() {
                Some(Ok(m)) if names.len() == 1 => Ok(member_source(&name, m)),
                Some(Err(e)) if names.len() == 1 => {
                    anyhow::bail!("cannot read {name}!{}: {}", e.name, e.message)
                }
                _ => anyhow::bail!(archive_of_many(&name, Path::new(arg), &names)),
            }
        }
    }
}

/// Archive options of the commands: a member as large as a file read.
fn archive_options() -> sgf_formats::archive::ArchiveOptions {
    let mut o = sgf_formats::archive::ArchiveOptions::default();
    o.max_member_bytes = sgf_formats::input::MAX_INPUT_BYTES;
    o
}

/// Why an archive of `names` is not one record: how to name one.
fn archive_of_many(shown: &str, path: &Path, names: &[String]) -> String {
    let what = sgf_formats::judge::ArchiveKind::of_file(path)
        .map_or("an archive", sgf_formats::judge::ArchiveKind::describe);
    match names.len() {
        0 => format!("{shown} is {what} that holds no record files"),
        n => {
            let some: Vec<String> = names
                .iter()
                .take(3)
                .map(|m| format!("{shown}!{m}"))
                .collect();
            format!(
                "{shown} is {what} of {n} record files; name one as {shown}!MEMBER ({}{})",
                some.join(", "),
                if n > 3 { ", …" } else { "" }
            )
        }
    }
}

/// Every record an argument names, in turn: the file, standard input, or
/// each member of an archive (named `ARCHIVE!MEMBER`), read one at a time.
/// A member that cannot be read is handed over as its error; `each` may
/// stop the reading with its own error.
///
/// # Errors
/// When the argument cannot be read at all (an archive that cannot be
/// opened: the members read before are handed over), or `each` fails.
pub fn each_record(arg: &str, mut each: impl FnMut(Result<Source>) -> Result<()>) -> Result<()> {
    use sgf_formats::archive::{read_members, read_members_in};
    let mut failed: Option<anyhow::Error> = None;
    let mut hand =
        |shown: &str,
         m: Result<sgf_formats::archive::Member, sgf_formats::archive::MemberError>| {
            if failed.is_some() {
                return;
            }
            let r = match m {
                Ok(m) => each(Ok(member_source(shown, m))),
                Err(e) => each(Err(anyhow::anyhow!(
                    "cannot read {shown}!{}: {}",
                    e.name,
                    e.message
                ))),
            };
            if let Err(e) = r {
                failed = Some(e);
            }
        };
    let read = match named(arg) {
        Named::Archive(path) => read_members(path, &archive_options(), &mut |m| hand(arg, m))
            .map_err(anyhow::Error::from),
        Named::Member(..) => return each(read_one(arg)),
        Named::Stdin | Named::File => {
            let bytes = read_path(arg)?;
            let name = display_name(arg);
            if sgf_formats::judge::ArchiveKind::of_bytes(&bytes).is_none() {
                return each(Ok(Source {
                    name,
                    hint: (arg != "-").then(|| PathBuf::from(arg)),
                    bytes,
                    in_archive: false,
                }));
            }
            read_members_in(&bytes, &name, &archive_options(), &mut |m| hand(&name, m))
                .map_err(anyhow::Error::from)
        }
    };
    if let Some(e) = failed {
        return Err(e);
    }
    read
}

/// [`each_record`] for a command that shows every record an argument
/// names: `show` works on each; a record of an archive that cannot be read
/// or is not a game record is said on standard error and the others are
/// still shown. The status: 0, or 2 when one was said.
///
/// # Errors
/// When the argument cannot be read at all, a file that is not an
/// archive's fails (its error), or none of an archive's records could be
/// shown.
pub fn show_each(arg: &str, mut show: impl FnMut(&Source) -> Result<()>) -> Result<u8> {
    let (mut failed, mut shown) = (0usize, 0usize);
    each_record(arg, |src| {
        let r = match src {
            Ok(src) => show(&src).map_err(|e| (e, src.in_archive)),
            // A member of an archive that could not be read.
            Err(e) => Err((e, true)),
        };
        match r {
            Ok(()) => shown += 1,
            Err((e, false)) => return Err(e),
            Err((e, true)) => {
                eprintln!("qipu: {e:#}");
                failed += 1;
            }
        }
        Ok(())
    })?;
    if shown == 0 && failed > 0 {
        anyhow::bail!("{}: no record file could be read", display_name(arg));
    }
    Ok(if failed > 0 { 2 } else { 0 })
}

/// The error of reading `name` as a record: the judgement's sentence for
/// what is not a game record (see [`sgf_formats::judge`]).
pub fn read_error(name: &str, e: sgf_formats::ReadError) -> anyhow::Error {
    match &e.not_record {
        Some(why) => anyhow::anyhow!(why.sentence(name)),
        None => anyhow::anyhow!("cannot read {name}: {e}"),
    }
}

/// Reads and parses a record from `src`, as `format` (`SGF`, `GIB`, … or
/// an extension) or the format its bytes look like (its name breaks ties).
///
/// # Errors
/// When it is not a game record, or cannot be read as its format.
pub fn load(src: &Source, format: Option<&str>, opts: &sgf_formats::ReadOptions) -> Result<Loaded> {
    let reader = sgf_formats::builtin()
        .reader_for(&src.bytes, src.hint(), format)
        .map_err(|e| read_error(&src.name, e))?;
    let loaded = reader
        .read_shared(&src.bytes, opts)
        .map_err(|e| read_error(&src.name, e))?;
    let original = loaded
        .converted
        .then(|| (src.bytes.to_vec(), loaded.encoding()));
    Ok(Loaded {
        name: src.name.clone(),
        parsed: loaded.parsed,
        format: loaded.format,
        charset: loaded.charset,
        original,
    })
}

/// A record read by the library from `bytes` (a part of them, or all) of
/// the input shown as `name`, as the commands hold it: a converted record
/// keeps its input, where its diagnostics point.
pub fn wrap(name: &str, bytes: &[u8], loaded: sgf_formats::Loaded) -> Loaded {
    let original = loaded
        .converted
        .then(|| (bytes.to_vec(), loaded.encoding()));
    Loaded {
        name: name.to_string(),
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

/// Reads game `game` (from 0) of the record `arg` names (see
/// [`read_one`]), printing the reader's warnings and errors of the part
/// read unless `quiet`. `Ok(Err(n))` when the file has only `n` games.
///
/// # Errors
/// When it cannot be read or is not a game record.
pub fn load_game(arg: &str, game: usize, quiet: bool) -> Result<Result<GameAt, usize>> {
    let src = read_one(arg)?;
    let opts = sgf_formats::parts::PartOptions::default();
    let found = sgf_formats::parts::read_game(&src.bytes, src.hint(), &opts, game)
        .map_err(|e| read_error(&src.name, e))?;
    Ok(match found {
        sgf_formats::parts::Found::Game(piece, l) => {
            let loaded = wrap(&src.name, &src.bytes[piece.range.clone()], *l);
            if !quiet {
                crate::print_diagnostics_at(&loaded, &piece);
            }
            Ok(GameAt {
                loaded,
                index: game - piece.first_game,
                piece,
                bytes: src.bytes,
            })
        }
        // No game tree at all: not a game record.
        sgf_formats::parts::Found::Missing(0) => {
            load(&src, None, &opts.read)?.require_games()?;
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

    /// Why the record is not a game record (`NAME is not a game record: it
    /// holds no SGF game tree [S002]`), when it holds no game tree.
    pub fn no_game_tree(&self) -> Option<String> {
        if self.parsed.document.games().next().is_some() {
            return None;
        }
        Some(sgf_formats::judge::NotRecord::NoGameTree.sentence(&self.name))
    }
}
