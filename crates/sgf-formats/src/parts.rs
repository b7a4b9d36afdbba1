//! Reading a record a part at a time: the one way every front end reads a
//! large collection, so that memory holds a few parts of its tree instead
//! of all of it, and the parts are worked on side by side.
//!
//! An SGF collection is cut between game trees ([`sgf_core::split`]), each
//! part is read on its own as SGF, and what is made of it goes to the
//! caller in file order. Where the cut cannot be trusted for a part (see
//! [`sgf_core::split::Split::holds_for`]), the caller is told to start
//! again ([`Step::Restart`]) and gets the whole file read as one part.
//! Other formats, small files and files that cannot be cut are read whole,
//! as one part. Either way, every game is read exactly as reading the
//! whole file reads it.
//!
//! ```
//! use sgf_formats::parts::{self, PartOptions, Step};
//! let mut file = Vec::new();
//! for i in 0..50 {
//!     file.extend_from_slice(format!("(;GM[1]SZ[19]GN[{i}];B[pd];W[dd])\n").as_bytes());
//! }
//! let opts = PartOptions::default().with_part_bytes(100);
//! let mut names = Vec::new();
//! parts::map_parts(&file, None, &opts, |_, loaded| {
//!     let doc = &loaded.parsed.document;
//!     doc.games().map(|g| g.root().text("GN").unwrap_or_default().into_owned()).collect::<Vec<_>>()
//! }, |step| {
//!     match step {
//!         Step::Part(_, found) => names.extend(found),
//!         Step::Restart => names.clear(),
//!     }
//!     std::ops::ControlFlow::Continue(())
//! }).unwrap();
//! assert_eq!(names.len(), 50);
//! assert_eq!(names[49], "49");
//! ```

use std::ops::{ControlFlow, Range};
use std::path::Path;

use sgf_core::split::{Split, split_collection};

use crate::format::{Format, Loaded, ReadError, ReadOptions};
use crate::input::Bytes;

/// How a record is read in parts.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PartOptions {
    /// About how many bytes a part holds (a part holds whole game trees).
    pub part_bytes: usize,
    /// How each part is read. The dialect report is made per part only
    /// when the file is read whole; for a collection read in parts,
    /// [`crate::dialect_counts`] of each part give the file's.
    pub read: ReadOptions,
    /// Read as this format (a name or an extension) instead of sniffing it.
    pub format: Option<String>,
    /// Where a restart could come (the cut is in doubt), read every part
    /// once first to see that the cut holds, so that none comes: for a
    /// caller that cannot drop what it has written (standard output). It
    /// costs a second reading of such files.
    pub verify_first: bool,
}

/// Parts of about 256 KiB: a part's tree is about ten times its bytes,
/// and a few parts are held at a time.
pub const DEFAULT_PART_BYTES: usize = 1 << 18;

impl Default for PartOptions {
    fn default() -> Self {
        PartOptions {
            part_bytes: DEFAULT_PART_BYTES,
            read: ReadOptions::default(),
            format: None,
            verify_first: false,
        }
    }
}

impl PartOptions {
    /// Options with parts of about `n` bytes.
    pub fn with_part_bytes(mut self, n: usize) -> Self {
        self.part_bytes = n.max(1);
        self
    }

    /// Options with these read options.
    pub fn with_read(mut self, read: ReadOptions) -> Self {
        self.read = read;
        self
    }

    /// Options that read every part once before any is handed over, when
    /// a restart could come (see [`PartOptions::verify_first`]).
    pub fn with_verify_first(mut self, yes: bool) -> Self {
        self.verify_first = yes;
        self
    }

    /// Options that read the file as `format` (a name or an extension).
    pub fn with_format(mut self, format: Option<&str>) -> Self {
        self.format = format.map(str::to_string);
        self
    }
}

/// Where a part stands in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its bytes in the file.
    pub range: Range<usize>,
    /// Whether it is the whole file.
    pub whole: bool,
    /// The number of its first game in the file, from 0 (0 in the work of
    /// [`map_parts`], which runs before the parts before it are counted).
    pub first_game: usize,
    /// How many games it holds.
    pub games: usize,
    /// Lines of the file before it.
    pub lines_before: u32,
    /// Whether a [`Step::Restart`] may still come after it: what is made
    /// of it must then be kept where it can be dropped (not yet written to
    /// standard output, say) until the last part.
    pub may_restart: bool,
}

/// What the caller of [`map_parts`] is handed, in file order.
#[derive(Debug)]
pub enum Step<R> {
    /// A part and what the work made of it.
    Part(Piece, R),
    /// Drop what the parts so far gave: the whole file comes next, as one
    /// part (the cut did not hold for a part further on).
    Restart,
}

/// The reader for `bytes`: the format asked for, or the one they look like
/// (see [`crate::Registry::reader_for`]).
///
/// # Errors
/// When the bytes are not a game record, or the format asked for is not
/// known.
pub fn format_of<'a>(
    bytes: &[u8],
    hint: Option<&Path>,
    format: Option<&str>,
) -> Result<&'a dyn Format, ReadError> {
    crate::builtin().reader_for(bytes, hint, format)
}

/// How `bytes` will be read: the cut of an SGF collection large enough to
/// be read in parts, or `None` to read them whole.
///
/// # Errors
/// When the format asked for is not known.
pub fn plan(
    bytes: &[u8],
    hint: Option<&Path>,
    opts: &PartOptions,
) -> Result<(&'static dyn Format, Option<Split>), ReadError> {
    let reader = format_of(bytes, hint, opts.format.as_deref())?;
    let split = if reader.name() == "SGF" {
        split_collection(bytes, opts.part_bytes)
    } else {
        None
    };
    Ok((reader, split))
}

/// Reads `bytes` (from the file at `hint`, which breaks ties between
/// formats) in parts, runs `work` on each part on every core, and hands
/// what it makes to `join` in file order (see the module docs). `join`
/// may stop the reading by returning [`ControlFlow::Break`].
///
/// # Errors
/// When the file cannot be read as its format at all (the error of the
/// whole file's reader).
pub fn map_parts<'b, R: Send>(
    bytes: impl Into<Bytes<'b>>,
    hint: Option<&Path>,
    opts: &PartOptions,
    work: impl Fn(&Piece, Loaded) -> R + Sync,
    join: impl FnMut(Step<R>) -> ControlFlow<()>,
) -> Result<(), ReadError> {
    let input: Bytes<'b> = bytes.into();
    let (reader, split) = plan(&input, hint, opts)?;
    match split {
        Some(split) => map_cut(input, reader, &split, opts, &work, join),
        None => read_whole(input, reader, &opts.read, &work, join),
    }
}

/// [`map_parts`] of bytes handed over in `bytes`: a file read whole into a
/// record that keeps them as its source (an SGF document) takes them
/// (`bytes` is left `None`) before the work runs, so that they are freed
/// with the record, when the work is done with it, not held until the
/// end. A file read in parts leaves them where they are.
///
/// ```
/// use std::sync::Arc;
/// use sgf_formats::parts::{self, PartOptions};
/// let bytes: Arc<[u8]> = Arc::from(&b"(;GM[1]SZ[19];B[pd])"[..]);
/// let weak = Arc::downgrade(&bytes);
/// let mut held = Some(bytes);
/// parts::map_parts_owned(&mut held, None, &PartOptions::default(), |_, l| drop(l), |_| {
///     std::ops::ControlFlow::Continue(())
/// })
/// .unwrap();
/// // Released with the document.
/// assert!(held.is_none() && weak.upgrade().is_none());
/// ```
///
/// # Errors
/// As [`map_parts`]; `bytes` is then left as it was.
pub fn map_parts_owned<R: Send>(
    bytes: &mut Option<std::sync::Arc<[u8]>>,
    hint: Option<&Path>,
    opts: &PartOptions,
    work: impl Fn(&Piece, Loaded) -> R + Sync,
    mut join: impl FnMut(Step<R>) -> ControlFlow<()>,
) -> Result<(), ReadError> {
    let Some(input) = bytes.as_ref() else {
        return map_parts(&[][..], hint, opts, work, join);
    };
    let (reader, split) = plan(input, hint, opts)?;
    if let Some(split) = split {
        return map_cut(Bytes::Shared(input), reader, &split, opts, &work, join);
    }
    let loaded = reader.read_shared(input, &opts.read)?;
    let len = input.len();
    let source = loaded.parsed.document.source();
    if std::ptr::eq(source.as_ptr(), input.as_ptr()) && source.len() == len {
        *bytes = None;
    }
    let piece = whole_piece(len, &loaded);
    let r = work(&piece, loaded);
    let _ = join(Step::Part(piece, r));
    Ok(())
}

/// The parts of the cut `split` of `input` (see [`map_parts`]).
fn map_cut<R: Send>(
    input: Bytes<'_>,
    reader: &'static dyn Format,
    split: &Split,
    opts: &PartOptions,
    work: &(impl Fn(&Piece, Loaded) -> R + Sync),
    mut join: impl FnMut(Step<R>) -> ControlFlow<()>,
) -> Result<(), ReadError> {
    let bytes: &[u8] = &input;
    {
        let part_opts = part_read_options(opts);
        let mut may_restart = split.dbcs_doubt;
        if may_restart && opts.verify_first {
            use rayon::prelude::*;
            let holds = split.ranges.par_iter().all(|r| {
                reader
                    .read(&bytes[r.clone()], &part_opts)
                    .is_ok_and(|l| split.holds_for(&l.parsed.document))
            });
            if !holds {
                return read_whole(input, reader, &opts.read, work, join);
            }
            may_restart = false;
        }
        let threads = rayon::current_num_threads().max(1);
        // Lines before each part, counted once.
        let mut lines = Vec::with_capacity(split.ranges.len());
        let mut counted = (0usize, 0u32);
        for r in &split.ranges {
            counted.1 += memchr::memchr_iter(b'\n', &bytes[counted.0..r.start]).count() as u32;
            counted.0 = r.start;
            lines.push(counted.1);
        }
        let mut first_game = 0usize;
        let mut joined_any = false;
        let mut at = 0usize;
        for batch in split.ranges.chunks(4 * threads) {
            let batch_lines = &lines[at..at + batch.len()];
            at += batch.len();
            let cut = Cut {
                split,
                may_restart,
                reader,
                opts: &part_opts,
            };
            let results = read_batch(bytes, batch, batch_lines, &cut, work);
            if results.iter().any(Option::is_none) {
                // A part the cut does not hold for: the whole file, read whole.
                if joined_any && join(Step::Restart).is_break() {
                    return Ok(());
                }
                return read_whole(input, reader, &opts.read, work, join);
            }
            for ((range, r), &lines_before) in batch.iter().zip(results).zip(batch_lines) {
                let (games, result) = r.expect("checked above");
                let piece = Piece {
                    range: range.clone(),
                    whole: false,
                    first_game,
                    games,
                    lines_before,
                    may_restart,
                };
                first_game += games;
                joined_any = true;
                if join(Step::Part(piece, result)).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// How each part of a cut is read: the dialects are counted for the whole
/// file, not reported per part.
fn part_read_options(opts: &PartOptions) -> ReadOptions {
    let mut read = opts.read.clone();
    read.dialect_report = false;
    read
}

/// Reads a part of a cut again (its bytes, as [`map_parts`] handed them to
/// the work), as it was read then: the same document, for a caller that
/// dropped it and needs it once more.
///
/// # Errors
/// When the bytes cannot be read as SGF (they could the first time).
pub fn read_part(bytes: &[u8], opts: &PartOptions) -> Result<Loaded, ReadError> {
    // Only an SGF collection is cut into parts.
    crate::sgf::Sgf.read(bytes, &part_read_options(opts))
}

/// How the parts of a cut are read.
struct Cut<'a> {
    split: &'a Split,
    may_restart: bool,
    reader: &'a dyn Format,
    opts: &'a ReadOptions,
}

/// Reads the parts of a batch side by side; `None` for a part the cut does
/// not hold for (its work is not done).
fn read_batch<R: Send>(
    bytes: &[u8],
    batch: &[Range<usize>],
    lines: &[u32],
    cut: &Cut<'_>,
    work: &(impl Fn(&Piece, Loaded) -> R + Sync),
) -> Vec<Option<(usize, R)>> {
    use rayon::prelude::*;
    let Cut {
        split,
        may_restart,
        reader,
        opts,
    } = *cut;
    batch
        .par_iter()
        .zip(lines)
        .map(|(range, &lines_before)| {
            let loaded = reader.read(&bytes[range.clone()], opts).ok()?;
            if !split.holds_for(&loaded.parsed.document) {
                return None;
            }
            let games = loaded.parsed.document.game_count();
            // Its first game is known once the parts before it are read.
            let piece = Piece {
                range: range.clone(),
                whole: false,
                first_game: 0,
                games,
                lines_before,
                may_restart,
            };
            Some((games, work(&piece, loaded)))
        })
        .collect()
}

fn read_whole<R>(
    bytes: Bytes<'_>,
    reader: &dyn Format,
    opts: &ReadOptions,
    work: &(impl Fn(&Piece, Loaded) -> R + Sync),
    mut join: impl FnMut(Step<R>) -> ControlFlow<()>,
) -> Result<(), ReadError> {
    let loaded = reader.read_bytes(bytes, opts)?;
    let piece = whole_piece(bytes.len(), &loaded);
    let r = work(&piece, loaded);
    let _ = join(Step::Part(piece, r));
    Ok(())
}

/// The one part of a file of `len` bytes read whole.
fn whole_piece(len: usize, loaded: &Loaded) -> Piece {
    Piece {
        range: 0..len,
        whole: true,
        first_game: 0,
        games: loaded.parsed.document.game_count(),
        lines_before: 0,
        may_restart: false,
    }
}

/// What [`read_game`] found.
#[derive(Debug)]
pub enum Found {
    /// The part that holds the game, and where it stands (its game
    /// `game - piece.first_game`).
    Game(Piece, Box<Loaded>),
    /// The file has only this many games.
    Missing(usize),
}

impl Found {
    /// The part and its record, if the game was found.
    pub fn game(self) -> Option<(Piece, Loaded)> {
        match self {
            Found::Game(p, l) => Some((p, *l)),
            Found::Missing(_) => None,
        }
    }
}

/// Reads game `game` (from 0) of `bytes`: the part that holds it, read as
/// [`map_parts`] reads it (the whole file when it is not cut), with where
/// it stands.
///
/// Only the parts up to the game are read, one at a time.
///
/// # Errors
/// When the file cannot be read as its format at all.
pub fn read_game<'b>(
    bytes: impl Into<Bytes<'b>>,
    hint: Option<&Path>,
    opts: &PartOptions,
    game: usize,
) -> Result<Found, ReadError> {
    let input: Bytes<'b> = bytes.into();
    let bytes: &[u8] = &input;
    let (reader, split) = plan(bytes, hint, opts)?;
    if let Some(split) = &split {
        let mut part_opts = opts.read.clone();
        part_opts.dialect_report = false;
        let mut first_game = 0usize;
        let mut lines_before = 0u32;
        let mut counted_to = 0usize;
        let mut cut_holds = true;
        for range in &split.ranges {
            let Some(loaded) = reader
                .read(&bytes[range.clone()], &part_opts)
                .ok()
                .filter(|l| split.holds_for(&l.parsed.document))
            else {
                cut_holds = false;
                break;
            };
            let games = loaded.parsed.document.game_count();
            lines_before +=
                memchr::memchr_iter(b'\n', &bytes[counted_to..range.start]).count() as u32;
            counted_to = range.start;
            if game < first_game + games {
                let piece = Piece {
                    range: range.clone(),
                    whole: false,
                    first_game,
                    games,
                    lines_before,
                    may_restart: false,
                };
                return Ok(Found::Game(piece, Box::new(loaded)));
            }
            first_game += games;
        }
        if cut_holds {
            return Ok(Found::Missing(first_game));
        }
    }
    let loaded = reader.read_bytes(input, &opts.read)?;
    let games = loaded.parsed.document.game_count();
    let piece = Piece {
        range: 0..bytes.len(),
        whole: true,
        first_game: 0,
        games,
        lines_before: 0,
        may_restart: false,
    };
    Ok(if game < games {
        Found::Game(piece, Box::new(loaded))
    } else {
        Found::Missing(games)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collection(n: usize, charset: &str) -> Vec<u8> {
        let mut file = Vec::new();
        for i in 0..n {
            file.extend_from_slice(
                format!("(;GM[1]FF[4]CA[{charset}]SZ[19]GN[g{i}]C[comment {i}];B[pd];W[dd])\n")
                    .as_bytes(),
            );
        }
        file
    }

    fn names(file: &[u8], opts: &PartOptions) -> (Vec<String>, usize, usize) {
        let (mut names, mut parts, mut restarts) = (Vec::new(), 0, 0);
        map_parts(
            file,
            None,
            opts,
            |_, l| {
                l.parsed
                    .document
                    .games()
                    .map(|g| g.root().text("GN").unwrap_or_default().into_owned())
                    .collect::<Vec<_>>()
            },
            |s| {
                match s {
                    Step::Part(p, n) => {
                        assert_eq!(p.first_game, names.len());
                        assert_eq!(p.games, n.len());
                        parts += 1;
                        names.extend(n);
                    }
                    Step::Restart => {
                        restarts += 1;
                        names.clear();
                    }
                }
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        (names, parts, restarts)
    }

    #[test]
    fn parts_come_in_file_order_with_their_place() {
        let file = collection(40, "UTF-8");
        let opts = PartOptions::default().with_part_bytes(200);
        let (n, parts, restarts) = names(&file, &opts);
        assert_eq!(n, (0..40).map(|i| format!("g{i}")).collect::<Vec<_>>());
        assert!(parts >= 5, "{parts}");
        assert_eq!(restarts, 0);
        // Lines before each part are the file's.
        let mut lines = Vec::new();
        map_parts(
            &file,
            None,
            &opts,
            |_, _| (),
            |s| {
                if let Step::Part(p, ()) = s {
                    lines.push((p.lines_before, p.first_game));
                }
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert!(lines.iter().all(|(l, g)| *l as usize == *g), "{lines:?}");
        // Stopped by the caller.
        let mut seen = 0;
        map_parts(
            &file,
            None,
            &opts,
            |_, _| (),
            |_| {
                seen += 1;
                ControlFlow::Break(())
            },
        )
        .unwrap();
        assert_eq!(seen, 1);
    }

    #[test]
    fn a_cut_that_does_not_hold_restarts_with_the_whole_file() {
        // A GBK game whose last byte before `]` is ≥ 0x80: the cut is in
        // doubt, and a part with a double-byte game is read whole.
        let mut file = collection(30, "UTF-8");
        file.extend_from_slice(b"(;GM[1]CA[GBK]GN[gbk]C[\xba\xda])\n");
        let opts = PartOptions::default().with_part_bytes(200);
        let (n, parts, restarts) = names(&file, &opts);
        assert_eq!(n.len(), 31);
        // Restarted, unless no part was handed over before the failing
        // one (a batch as large as the file, on many cores).
        assert!(restarts <= 1 && parts == restarts + 1, "{parts} {restarts}");
        assert_eq!(n[30], "gbk");
        // Verified first: no restart, and no part is handed over that a
        // restart would drop.
        let verified = opts.clone().with_verify_first(true);
        let (n, parts, restarts) = names(&file, &verified);
        assert_eq!((n.len(), parts, restarts), (31, 1, 0));
        let (piece, loaded) = read_game(&file, None, &opts, 30).unwrap().game().unwrap();
        assert!(piece.whole);
        assert_eq!(
            loaded
                .parsed
                .document
                .game(30)
                .unwrap()
                .root()
                .text("C")
                .unwrap(),
            "黑"
        );
    }

    #[test]
    fn one_game_is_read_from_its_part() {
        let file = collection(40, "UTF-8");
        let opts = PartOptions::default().with_part_bytes(200);
        let (piece, loaded) = read_game(&file, None, &opts, 17).unwrap().game().unwrap();
        assert!(!piece.whole && piece.first_game <= 17 && 17 < piece.first_game + piece.games);
        let g = loaded.parsed.document.game(17 - piece.first_game).unwrap();
        assert_eq!(g.root().text("GN").unwrap(), "g17");
        assert!(matches!(
            read_game(&file, None, &opts, 40).unwrap(),
            Found::Missing(40)
        ));
        // A small file is one part, read whole.
        let (piece, _) = read_game(b"(;GN[a])(;GN[b])", None, &opts, 1)
            .unwrap()
            .game()
            .unwrap();
        assert!(piece.whole);
    }

    #[test]
    fn other_formats_are_read_whole_and_unknown_ones_refused() {
        let ngf = "Rated game\n19\nWhite       3D\nBlack       2D\nsite\n0\n0\n6\n20240101 [10:00]\n5\nBlack wins by resign!\n2\nPMABBREER\nPMACWEEEE\n";
        let opts = PartOptions::default().with_part_bytes(1);
        let mut formats = Vec::new();
        map_parts(
            ngf.as_bytes(),
            None,
            &opts,
            |p, l| (p.whole, l.format),
            |s| {
                if let Step::Part(_, f) = s {
                    formats.push(f);
                }
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(formats, [(true, "NGF")]);
        let bad = PartOptions::default().with_format(Some("nope"));
        assert!(map_parts(b"(;)", None, &bad, |_, _| (), |_| ControlFlow::Continue(())).is_err());
    }
}
