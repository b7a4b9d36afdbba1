//! One open record: the document, the cursor, undo/redo, and the JSON the
//! page shows. All Go and SGF logic is the library's; this only wires it.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use sgf_core::diag::{Capped, Sink};
use sgf_core::{
    Change, Diagnostic, Document, NodeId, Point, PropKind, Severity, to_canonical_bytes,
};
use sgf_go::coords::{self, BoardSize};
use sgf_go::edit::{self, node_move};
use sgf_go::{Cursor, Move, Stone};
use sgf_render::{MoveNumbers, RenderOptions};

use crate::api::{AutoLabel, BoardPoint, Edit, LineKind, Nav, SetupStone};
use sgf_report::{ChangeJson, DiagnosticJson};

use crate::responses::{
    AnnotationState, Captures, Clock, GameInfo, GameListRow, MoveRow, NextMove, NodeState,
    PlayerClock, RecordState, TextPart, TreeLayout, ViewState,
};

mod engine;
mod new_record;
mod tree;
#[cfg(feature = "server")]
pub(crate) use engine::{BATCH_TAGS, BatchItem, new_game_sgf};
pub(crate) use new_record::new_record_sgf;
pub use tree::TreeWindow;

/// The steps of the way back the cursor keeps at least (and at most
/// twice that): stepping back past them replays from the root. A path of
/// a million nodes would otherwise hold a frame (about 32 bytes) for each.
const WAY_BACK: usize = 1 << 14;

/// The most undo steps kept.
const UNDO_LIMIT: usize = 200;

/// Collections at least this large are kept as their bytes, with only the
/// part shown (and the parts edited) parsed.
pub const PARTS_FROM_BYTES: usize = 1 << 20;

/// A large collection cut in parts: their ranges, the number of each one's
/// first game, the charset and the first part.
type CollectionParts = (Vec<Range<usize>>, Vec<usize>, &'static str, Document);

/// The columns and rows of the tree a state sends around the node shown
/// when the tree changed (the page asks for more as it scrolls).
const TREE_AROUND: (usize, usize) = (64, 24);

/// The most columns and rows of the tree one answer sends.
pub const TREE_MAX: (usize, usize) = (400, 200);

/// The most diagnostics a file shows in the page (the first, in file order).
const MAX_DIAGNOSTICS: usize = 500;

/// One undo (or redo) step: the change to revert, in which part, and where
/// the cursor goes after.
struct Step {
    change: Change,
    part: usize,
    game: usize,
    node: NodeId,
    /// Typing in one field (`C` of a node…) continues one step.
    key: Option<String>,
    /// A repair: undone or redone, the diagnostics are made again (other
    /// edits leave them, as when they were made).
    repair: bool,
}

/// A large collection kept as its bytes: each part (whole game trees, cut
/// by `sgf_core::split`) is parsed when shown; edited parts stay parsed.
struct Parts {
    bytes: std::sync::Arc<[u8]>,
    ranges: Vec<Range<usize>>,
    /// The global number of each part's first game (and the total last).
    first_game: Vec<usize>,
    /// Parsed parts other than the shown one, kept because they were edited.
    kept: HashMap<usize, Document>,
    /// The part shown (its document is `Session::doc`).
    current: usize,
    /// The diagnostics of the whole file, for the page.
    diagnostics: Vec<DiagnosticJson>,
    /// The game list, read on its first request (see [`Session::game_list`]).
    rows: std::sync::OnceLock<Vec<Option<GameRow>>>,
}

impl Parts {
    fn part_of(&self, game: usize) -> usize {
        self.first_game
            .partition_point(|&f| f <= game)
            .saturating_sub(1)
            .min(self.ranges.len().saturating_sub(1))
    }

    fn games(&self) -> usize {
        self.first_game.last().copied().unwrap_or(0)
    }
}

/// One row of the game list: players, ranks, result, date, event, name and
/// the number of moves of the main line (kept compact: a large collection
/// holds thousands; [`GameListRow`] is its answer).
struct GameRow {
    /// In the order of [`GameListRow`]'s fields.
    texts: [Option<Box<str>>; 8],
    moves: u32,
}

impl GameRow {
    /// The row of game `local` of `doc`, from the library's one game
    /// summary (what `qipu export` and Python's rows hold).
    fn of(doc: &Document, local: usize) -> GameRow {
        let Some((s, moves)) = sgf_formats::summary::GameSummary::counted(doc, local, None) else {
            return GameRow {
                texts: Default::default(),
                moves: 0,
            };
        };
        let b = |s: Option<String>| s.map(String::into_boxed_str);
        GameRow {
            texts: [
                b(s.black),
                b(s.black_rank),
                b(s.white),
                b(s.white_rank),
                b(s.result),
                b(s.date),
                b(s.event),
                b(s.name),
            ],
            moves: moves as u32,
        }
    }

    fn to_json(&self, number: usize) -> GameListRow {
        let [
            black,
            black_rank,
            white,
            white_rank,
            result,
            date,
            event,
            name,
        ] = self
            .texts
            .each_ref()
            .map(|t| t.as_deref().map(String::from));
        GameListRow {
            game: number,
            black,
            black_rank,
            white,
            white_rank,
            result,
            date,
            event,
            name,
            moves: self.moves,
        }
    }
}

/// The number (in file order) of the first node of game `local` whose
/// comment (`C`) holds `needle` (folded: [`sgf_go::filter::fold`], as the
/// database folds what it searches). Only comments: players and events
/// are the game list's filter.
fn comment_holds(doc: &Document, local: usize, needle: &str) -> Option<usize> {
    let game = doc.game(local)?;
    game.nodes().position(|n| {
        n.text("C")
            .is_some_and(|t| sgf_go::filter::fold(&t).contains(needle))
    })
}

/// The time left of each player at `node` as last recorded on its path
/// (`BL`/`WL` seconds, `OB`/`OW` moves or periods left): `{"B": {"left",
/// "periods"}, "W": …}`, a colour absent when never recorded.
fn clock(doc: &Document, node: NodeId) -> Clock {
    use sgf_core::props::id;
    let mut out = Clock::default();
    for (player, left, periods) in [
        (&mut out.black, id::BL, id::OB),
        (&mut out.white, id::WL, id::OW),
    ] {
        let mut n = Some(doc.node(node));
        while let Some(x) = n {
            if let Some(l) = x
                .get_known(left)
                .and_then(|p| p.first())
                .and_then(|v| v.real())
            {
                let p = x
                    .get_known(periods)
                    .and_then(|p| p.first())
                    .and_then(|v| v.number());
                *player = Some(PlayerClock {
                    left: l,
                    periods: p,
                });
                break;
            }
            n = x.parent();
        }
    }
    out
}

/// The diagnostics the page is shown (the first [`MAX_DIAGNOSTICS`] that
/// are not information, in file order): all a session keeps of them, so
/// a record with a problem at each of a million nodes does not hold a
/// million.
fn shown(reader: Vec<Diagnostic>, doc: &Document) -> Vec<Diagnostic> {
    // Gathered with the bound: a record with a problem on every move has
    // hundreds of thousands.
    let mut c = Capped::new(0, MAX_DIAGNOSTICS).without_infos();
    for d in reader {
        c.push(d);
    }
    sgf_go::check::check_into(doc, &mut c);
    c.finish().0
}

/// Reads one part of a collection as the whole file would be read.
fn read_part(bytes: &[u8], hint: &std::path::Path) -> Option<sgf_formats::Loaded> {
    sgf_formats::read_any(bytes, Some(hint)).ok()
}

/// An open record.
pub struct Session {
    /// Its id in URLs.
    pub id: u64,
    /// Name shown (file name or "pasted.sgf").
    pub name: String,
    /// The file on disk, when it came from one under the served root.
    pub path: Option<PathBuf>,
    /// The path relative to the root, for the page.
    pub rel: Option<String>,
    /// The format it was read from ("SGF", "GIB", …).
    pub format: String,
    /// The charset it was read in.
    pub charset: String,
    doc: Document,
    game: usize,
    cursor: Cursor,
    /// The shown game's nodes by number (file order) and back.
    numbering: tree::Numbering,
    /// The shown game's tree as the page draws it.
    layout: tree::Layout,
    tree_version: u64,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// A large collection: the bytes, and which part `doc` is.
    parts: Option<Parts>,
    /// Changed since it was opened or saved.
    pub dirty: bool,
    /// The fingerprint of the file on disk as last read or written: Save
    /// refuses to overwrite a file another program changed since.
    pub on_disk: Option<sgf_formats::save::Fingerprint>,
    /// For a record converted from another format (GIB, NGF…): the input
    /// and its encoding, into which the reader's diagnostics point.
    pub input: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
    diagnostics: Vec<Diagnostic>,
    /// Move numbers on the board.
    pub numbers: bool,
    /// The board drawn in the renderer's dark theme (the page's dark theme).
    pub dark: bool,
    /// Why the last play was refused as illegal (`ko`, `suicide`, `occupied`).
    illegal: Option<&'static str>,
    /// The child of each node visited last, where it is not the first
    /// (the first is the default): → and End follow it, as in Sabaki, so
    /// stepping back and forth stays in the variation. Only the turns
    /// are kept: going down a main line of a million moves adds nothing.
    last_child: HashMap<NodeId, NodeId>,
    /// The node whose path `last_child` holds, its depth, and the tree's
    /// version then: the next path is recorded up to where the two meet.
    remembered: Option<(NodeId, usize, u64)>,
    /// The engine: analysis, play against it, counting.
    engine: engine::EngineState,
    /// Read from text the page pasted (decoded already: read as UTF-8
    /// whatever its `CA` says).
    pub(crate) from_text: bool,
    /// A record read back after it was put aside with unsaved changes:
    /// where the bytes it was first read from are (what its first save
    /// keeps as `X.orig`); `None`: [`Session::original`].
    #[cfg(feature = "server")]
    pub(crate) original_aside: Option<crate::kept::Original>,
    /// A note for the page with the next state (the record came back).
    notice: std::cell::Cell<Option<String>>,
    /// The variation copied or cut last, as SGF (one game whose root is
    /// the variation's first node), to paste.
    clipboard: Option<String>,
    /// The board shown turned or mirrored (a symmetry of
    /// `sgf_go::symmetry`; 0: as recorded) and with the colours swapped:
    /// the view only, the record unchanged until `ApplyView`.
    pub view_sym: u8,
    /// See [`Session::view_sym`].
    pub view_invert: bool,
    /// The game as shown under the view (a copy rewritten by
    /// `sgf_go::symmetry::transform_game`), made again when the tree or
    /// the view changes: the board is drawn from it, node for node.
    view_doc: std::cell::RefCell<Option<ViewDoc>>,
}

/// The copy of the document the board is drawn from under a view
/// transform, and what it was made for (tree version, symmetry, colours).
struct ViewDoc {
    made_for: (u64, u8, bool),
    doc: Document,
}

/// Why an operation was refused (shown to the user).
pub type OpError = String;

/// The point of the board that `p` names (a point of the request may lie
/// off this board).
fn on_board(p: BoardPoint, size: BoardSize) -> Result<Point, OpError> {
    if size.contains(p.0) {
        Ok(p.0)
    } else {
        Err(format!("`{}` is not a point of this board", p.0))
    }
}

/// The identifiers of the properties of `node` whose kind (as the
/// registry knows it: unknown properties never) `want` takes.
fn idents_of(doc: &Document, node: NodeId, want: impl Fn(PropKind) -> bool) -> Vec<String> {
    doc.node(node)
        .props()
        .filter(|p| p.info().is_some_and(|i| want(i.kind)))
        .map(|p| p.ident().to_string())
        .collect()
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Sets a text property from a form field: empty removes it, and an
/// unchanged value is left alone (so the lossless file does not change).
fn set_text_field(
    doc: &mut Document,
    node: NodeId,
    ident: &str,
    text: &str,
) -> Result<(), OpError> {
    let old = doc
        .node(node)
        .text(ident)
        .map(|s| s.into_owned())
        .unwrap_or_default();
    if text == old {
        return Ok(());
    }
    if text.is_empty() {
        doc.remove_property(node, ident);
        Ok(())
    } else {
        doc.set_text(node, ident, text).map_err(|e| e.to_string())
    }
}

impl Session {
    /// A session on a parsed document; `diagnostics` are the reader's, to
    /// which the checker's (as `qipu check` reports them) are added.
    pub fn new(
        id: u64,
        name: String,
        doc: Document,
        diagnostics: Vec<Diagnostic>,
        format: String,
        charset: String,
    ) -> Session {
        let diagnostics = shown(diagnostics, &doc);
        let mut doc = doc;
        if doc.game_count() == 0 {
            // An empty collection still opens: one empty game to work on.
            doc = sgf_core::parse(b"(;FF[4]GM[1]SZ[19])").document;
        }
        let cursor = Cursor::new(&doc, 0);
        let mut s = Session {
            id,
            name,
            path: None,
            rel: None,
            format,
            charset,
            doc,
            game: 0,
            cursor,
            numbering: tree::Numbering::default(),
            layout: tree::Layout::default(),
            tree_version: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            parts: None,
            dirty: false,
            on_disk: None,
            input: None,
            diagnostics,
            numbers: false,
            dark: false,
            illegal: None,
            last_child: HashMap::new(),
            remembered: None,
            engine: engine::EngineState::default(),
            from_text: false,
            #[cfg(feature = "server")]
            original_aside: None,
            notice: std::cell::Cell::new(None),
            clipboard: None,
            view_sym: 0,
            view_invert: false,
            view_doc: std::cell::RefCell::new(None),
        };
        s.reindex();
        s
    }

    /// A session on a large SGF collection (at least `PARTS_FROM_BYTES`),
    /// kept as its bytes with one part parsed at a time; the bytes back
    /// when the file cannot be cut safely between game trees (then it is
    /// read whole).
    pub fn open_collection(
        id: u64,
        name: String,
        bytes: std::sync::Arc<[u8]>,
        hint: &std::path::Path,
    ) -> Result<Session, std::sync::Arc<[u8]>> {
        if bytes.len() < PARTS_FROM_BYTES {
            return Err(bytes);
        }
        // What `qipu check` reports of the file (the library's one check),
        // the first of them: each code's first are enough for those. The
        // bytes go through the check and come back (no copy of the file).
        let mut opts = sgf_report::check::CheckOptions::default();
        opts.max_per_code = MAX_DIAGNOSTICS;
        let report = sgf_report::check::check_bytes(&hint.to_string_lossy(), bytes, &opts);
        let diagnostics = report.diagnostics(MAX_DIAGNOSTICS, |d| d.severity != Severity::Info);
        let bytes = report.into_input();
        match Session::collection_parts(&bytes, hint) {
            Some((split, first_game, charset, first)) => {
                let mut s = Session::new(
                    id,
                    name,
                    first,
                    Vec::new(),
                    "SGF".into(),
                    charset.to_string(),
                );
                s.diagnostics.clear();
                s.parts = Some(Parts {
                    bytes,
                    ranges: split,
                    first_game,
                    kept: HashMap::new(),
                    current: 0,
                    diagnostics,
                    rows: std::sync::OnceLock::new(),
                });
                s.reindex();
                Ok(s)
            }
            None => Err(bytes),
        }
    }

    /// The parts of a collection: their ranges, the number of each one's
    /// first game, the charset and the first part.
    fn collection_parts(bytes: &[u8], hint: &std::path::Path) -> Option<CollectionParts> {
        let split = sgf_core::split::split_collection(bytes, 1)?;
        let mut first_game = Vec::with_capacity(split.ranges.len() + 1);
        let mut games = 0usize;
        let mut charset = None;
        for r in &split.ranges {
            let l = read_part(&bytes[r.clone()], hint)?;
            if l.format != "SGF" || l.converted || l.parsed.document.game_count() == 0 {
                return None;
            }
            let doc = &l.parsed.document;
            // A part read charset-aware may hold a `]` the cut took for the
            // end of a value: then only the whole file is read right.
            if !split.holds_for(doc) {
                return None;
            }
            charset.get_or_insert(l.charset);
            first_game.push(games);
            games += doc.game_count();
        }
        first_game.push(games);
        let first = read_part(&bytes[split.ranges.first()?.clone()], hint)?;
        Some((
            split.ranges,
            first_game,
            charset.unwrap_or("UTF-8"),
            first.parsed.document,
        ))
    }

    /// The game's index in `doc` (the shown part, or the whole file).
    fn lg(&self) -> usize {
        match &self.parts {
            Some(p) => self
                .game
                .saturating_sub(p.first_game.get(p.current).copied().unwrap_or(0)),
            None => self.game,
        }
    }

    /// The game shown, as an index in [`Session::document`] (the shown part
    /// of a large collection, or the whole file).
    pub fn local_game(&self) -> usize {
        self.lg()
    }

    /// The number of the part shown (0 for a file read whole).
    fn part(&self) -> usize {
        self.parts.as_ref().map_or(0, |p| p.current)
    }

    /// Shows part `i` of a collection: the shown one is kept when it was
    /// edited (or undo steps refer to it), dropped otherwise.
    fn show_part(&mut self, i: usize) -> Result<(), OpError> {
        let hint = PathBuf::from(&self.name);
        let in_use = |steps: &[Step], k: usize| steps.iter().any(|s| s.part == k);
        let Some(p) = &mut self.parts else {
            return Ok(());
        };
        if i == p.current {
            return Ok(());
        }
        let doc = match p.kept.remove(&i) {
            Some(d) => d,
            None => {
                let r = p.ranges.get(i).ok_or("no such part")?.clone();
                read_part(&p.bytes[r], &hint)
                    .ok_or("this part of the file could not be read")?
                    .parsed
                    .document
            }
        };
        let old = std::mem::replace(&mut self.doc, doc);
        let cur = p.current;
        if old.is_edited() || in_use(&self.undo, cur) || in_use(&self.redo, cur) {
            p.kept.insert(cur, old);
        }
        p.current = i;
        Ok(())
    }

    /// Shows global game `g` (switching parts as needed).
    fn show_game(&mut self, g: usize) -> Result<(), OpError> {
        if let Some(p) = &self.parts {
            let i = p.part_of(g);
            self.show_part(i)?;
        }
        self.game = g;
        self.cursor = Cursor::new(&self.doc, self.lg());
        self.last_child.clear();
        self.reindex();
        Ok(())
    }

    /// Every part of a large collection as `f(part, document)`: the one
    /// shown, the edited ones kept, and the others read for the call and
    /// dropped (a part that cannot be read is left out). A record read
    /// whole is its one part.
    fn each_part(&self, mut f: impl FnMut(usize, &Document)) {
        let Some(p) = &self.parts else {
            f(0, &self.doc);
            return;
        };
        let hint = PathBuf::from(&self.name);
        for (i, r) in p.ranges.iter().enumerate() {
            if i == p.current {
                f(i, &self.doc);
            } else if let Some(d) = p.kept.get(&i) {
                f(i, d);
            } else if let Some(l) = read_part(&p.bytes[r.clone()], &hint) {
                f(i, &l.parsed.document);
            }
        }
    }

    /// Every game of the record, with its global number, as `f(number,
    /// document, index in it)` (see [`Session::each_part`]).
    fn each_game(&self, mut f: impl FnMut(usize, &Document, usize)) {
        let first = |i: usize| self.parts.as_ref().map_or(0, |p| p.first_game[i]);
        self.each_part(|i, doc| {
            for k in 0..doc.game_count() {
                f(first(i) + k, doc, k);
            }
        });
    }

    /// The game list: one row per game (`game`, `black`, `black_rank`,
    /// `white`, `white_rank`, `result`, `date`, `event`, `name`, `moves`).
    /// A large collection's rows are read from all its parts on the first
    /// request and kept; the parts parsed now (shown or edited) are read
    /// again each time.
    pub fn game_list(&self) -> Vec<GameListRow> {
        let Some(p) = &self.parts else {
            return (0..self.doc.game_count())
                .map(|k| GameRow::of(&self.doc, k).to_json(k))
                .collect();
        };
        let rows = p.rows.get_or_init(|| {
            let mut rows: Vec<Option<GameRow>> = (0..p.games()).map(|_| None).collect();
            self.each_game(|g, doc, k| {
                if let Some(r) = rows.get_mut(g) {
                    *r = Some(GameRow::of(doc, k));
                }
            });
            rows
        });
        let live = |i: usize| i == p.current || p.kept.contains_key(&i);
        let mut out = Vec::with_capacity(rows.len());
        for (i, _) in p.ranges.iter().enumerate() {
            let (a, b) = (p.first_game[i], p.first_game[i + 1]);
            if live(i) {
                let doc = if i == p.current {
                    &self.doc
                } else {
                    &p.kept[&i]
                };
                out.extend((0..doc.game_count()).map(|k| GameRow::of(doc, k).to_json(a + k)));
            } else {
                out.extend((a..b).filter_map(|g| rows.get(g)?.as_ref().map(|r| r.to_json(g))));
            }
        }
        out
    }

    /// The games whose comments (`C`) hold `q`, but for case, width and
    /// compatibility forms (as the database searches: `ＬＥＥ` finds
    /// `Lee`): each game's number and the number of its first node whose
    /// comment holds it.
    pub fn search_games(&self, q: &str) -> Vec<(usize, usize)> {
        let needle = sgf_go::filter::fold(q);
        let mut out = Vec::new();
        if needle.is_empty() {
            return out;
        }
        self.each_game(|g, doc, k| {
            if let Some(node) = comment_holds(doc, k, &needle) {
                out.push((g, node));
            }
        });
        out
    }

    /// The number of games in the record.
    pub fn game_count(&self) -> usize {
        self.parts
            .as_ref()
            .map_or(self.doc.game_count(), Parts::games)
    }

    /// The bytes the record was read from (the whole file).
    pub fn original(&self) -> &[u8] {
        match &self.parts {
            Some(p) => &p.bytes,
            None => self.doc.original(),
        }
    }

    /// Heap bytes held by undo and redo (their recorded changes).
    pub fn undo_bytes(&self) -> usize {
        self.undo
            .iter()
            .chain(&self.redo)
            .map(|s| s.change.heap_bytes() + std::mem::size_of::<Step>())
            .sum()
    }

    /// Heap bytes the record holds: the file's bytes (a large collection),
    /// the documents parsed (the view's turned copy too), undo and redo,
    /// the variation copied.
    pub fn held_bytes(&self) -> usize {
        let parts = self.parts.as_ref().map_or(0, |p| {
            p.bytes.len()
                + p.ranges.capacity() * std::mem::size_of::<Range<usize>>()
                + p.first_game.capacity() * std::mem::size_of::<usize>()
                + p.kept.values().map(Document::heap_bytes).sum::<usize>()
        });
        self.doc.heap_bytes()
            + parts
            + self.undo_bytes()
            + self.numbering.heap_bytes()
            + self.layout.heap_bytes()
            + self.clipboard.as_ref().map_or(0, String::capacity)
            + self
                .view_doc
                .borrow()
                .as_ref()
                .map_or(0, |v| v.doc.heap_bytes())
    }

    /// The document shown (for a large collection, the part that holds the game).
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The current node.
    pub fn node(&self) -> NodeId {
        self.cursor.node()
    }

    /// The game being shown.
    pub fn game(&self) -> usize {
        self.game
    }

    fn size(&self) -> BoardSize {
        self.cursor.size()
    }

    /// Node numbers in file order, and the tree's layout, for the current game.
    fn reindex(&mut self) {
        (self.numbering, self.layout) = match self.doc.game(self.lg()) {
            Some(g) => tree::index(&self.doc, g.root().id()),
            None => Default::default(),
        };
        self.tree_version += 1;
    }

    fn number(&self, n: NodeId) -> usize {
        self.numbering.number(n).unwrap_or(0)
    }

    /// The node numbered `k` in the current game.
    fn by_number(&self, k: usize) -> Option<NodeId> {
        self.numbering.id(&self.doc, k)
    }

    /// The cursor to node `n`: back and down from where it is, or, when
    /// `n` is above the way back it keeps or far below, replayed from the
    /// root (the way back kept bounded on the way, see [`WAY_BACK`]).
    fn goto(&mut self, n: NodeId) {
        let far = self.doc.node(n).depth() > self.cursor.depth() + WAY_BACK;
        if far || !self.cursor.goto(&self.doc, n) {
            let mut c = Cursor::new(&self.doc, self.lg());
            for x in self.doc.node(n).descent().skip(1) {
                if !c.down(&self.doc, x.id()) {
                    break;
                }
                c.bound_way_back(WAY_BACK);
            }
            self.cursor = c;
        }
        self.cursor.bound_way_back(WAY_BACK);
    }

    /// One step up: back along the cursor's way, or, above what it keeps,
    /// by [`Session::goto`]. False at the root.
    fn up(&mut self) -> bool {
        if self.cursor.up() {
            return true;
        }
        match self.doc.node(self.cursor.node()).parent() {
            Some(p) => {
                self.goto(p.id());
                true
            }
            None => false,
        }
    }

    /// The nodes from the root to the current node (the cursor keeps the
    /// way back for the last steps only).
    fn path_here(&self) -> Vec<NodeId> {
        let mut path = Vec::with_capacity(self.cursor.depth() + 1);
        let mut n = Some(self.doc.node(self.cursor.node()));
        while let Some(x) = n {
            path.push(x.id());
            n = x.parent();
        }
        path.reverse();
        path
    }

    /// The board at the current node: cells (0 empty, 1 black, 2 white),
    /// columns, rows.
    pub fn board(&self) -> (Vec<u8>, u8, u8) {
        let size = self.cursor.size();
        (
            self.cursor.position().board.cells().to_vec(),
            size.cols,
            size.rows,
        )
    }

    /// Moves through the tree.
    pub fn nav(&mut self, nav: &Nav) -> Result<(), OpError> {
        self.illegal = None;
        let r = self.nav_inner(nav);
        self.remember_path();
        r
    }

    /// The child → goes to from `node`: the one visited last, else the main line.
    fn next_child(&self, node: NodeId) -> Option<NodeId> {
        let n = self.doc.node(node);
        self.last_child
            .get(&node)
            .copied()
            .filter(|c| n.children().any(|k| k.id() == *c))
            .or_else(|| n.first_child().map(|c| c.id()))
    }

    /// One step down the remembered line; false at its end.
    fn step(&mut self) -> bool {
        match self.next_child(self.cursor.node()) {
            Some(c) => {
                let moved = self.cursor.down(&self.doc, c);
                self.cursor.bound_way_back(WAY_BACK);
                moved
            }
            None => false,
        }
    }

    /// Records the path to the current node as the line last visited,
    /// up to where it meets the path recorded last (in the same tree): one
    /// step back or forth records one node, not the path from the root.
    fn remember_path(&mut self) {
        let doc = &self.doc;
        let (here, depth) = (self.cursor.node(), self.cursor.depth());
        let mut last = self
            .remembered
            .filter(|r| r.2 == self.tree_version)
            .map(|(n, d, _)| (n, d));
        let (mut n, mut d) = (here, depth);
        loop {
            if let Some((x, dx)) = &mut last {
                while *dx > d
                    && let Some(p) = doc.node(*x).parent()
                {
                    (*x, *dx) = (p.id(), *dx - 1);
                }
                if *x == n {
                    break;
                }
            }
            let Some(p) = doc.node(n).parent() else {
                break;
            };
            if p.first_child().is_some_and(|f| f.id() == n) {
                self.last_child.remove(&p.id());
            } else {
                self.last_child.insert(p.id(), n);
            }
            (n, d) = (p.id(), d.saturating_sub(1));
        }
        self.remembered = Some((here, depth, self.tree_version));
    }

    fn nav_inner(&mut self, nav: &Nav) -> Result<(), OpError> {
        let doc = &self.doc;
        match *nav {
            Nav::Next => {
                self.step();
            }
            Nav::Prev => {
                self.up();
            }
            Nav::First => {
                let root = doc.game(self.lg()).ok_or("no game")?.root().id();
                self.goto(root);
            }
            Nav::Last => while self.step() {},
            Nav::Forward10 => {
                for _ in 0..10 {
                    if !self.step() {
                        break;
                    }
                }
            }
            Nav::Back10 => {
                for _ in 0..10 {
                    if !self.up() {
                        break;
                    }
                }
            }
            Nav::NextVariation | Nav::PrevVariation => {
                // From the nearest fork at or above the current node, as in
                // Sabaki: the next (previous) variation there, followed down
                // to the same depth where it goes that deep.
                let depth = self.cursor.depth();
                let mut node = doc.node(self.cursor.node());
                while node.parent().is_some_and(|p| p.child_count() < 2) {
                    node = node.parent().expect("checked");
                }
                let sibs = node.siblings();
                let i = node.variation_index();
                let j = if matches!(nav, Nav::NextVariation) {
                    i + 1
                } else {
                    i.wrapping_sub(1)
                };
                if let Some(s) = sibs.get(j) {
                    let id = s.id();
                    self.goto(id);
                    while self.cursor.depth() < depth && self.step() {}
                }
            }
            Nav::Node { node } => {
                let id = self.by_number(node).ok_or("no such node")?;
                self.goto(id);
            }
            Nav::Move { number: want } => {
                // Within the current variation: back along the path, or on
                // down the line last visited.
                while self.cursor.position().move_number > want {
                    if !self.cursor.up() {
                        // Above the way back kept: from the root down the
                        // path here (the line last visited), to the last
                        // node numbered `want` or less.
                        let root = self.doc.game(self.lg()).ok_or("no game")?.root().id();
                        self.goto(root);
                        while self.step() {
                            if self.cursor.position().move_number > want {
                                self.up();
                                break;
                            }
                        }
                        break;
                    }
                }
                while self.cursor.position().move_number < want && self.step() {}
            }
            Nav::Game { game, node } => {
                if game >= self.game_count() {
                    return Err("no such game".into());
                }
                self.show_game(game)?;
                if let Some(node) = node {
                    let id = self.by_number(node).ok_or("no such node")?;
                    self.goto(id);
                }
            }
            Nav::Stone { point } => {
                let p = on_board(point, self.size())?;
                self.go_to_stone(p)?;
            }
            Nav::NextComment | Nav::PrevComment | Nav::NextFork | Nav::PrevFork => {
                let next = matches!(nav, Nav::NextComment | Nav::NextFork);
                let (what, hit): (&str, fn(&sgf_core::Node<'_>) -> bool) =
                    if matches!(nav, Nav::NextComment | Nav::PrevComment) {
                        ("comment", |n| n.has("C"))
                    } else {
                        ("fork", |n| n.child_count() > 1)
                    };
                self.along_line(next, hit).ok_or_else(|| {
                    if next {
                        format!("no {what} further on this line")
                    } else {
                        format!("no {what} before this node")
                    }
                })?;
            }
            Nav::NextHotspot | Nav::PrevHotspot => {
                let back = matches!(nav, Nav::PrevHotspot);
                self.find_in_game(back, |_, n| n.has("HO"))
                    .ok_or("no hotspot (HO) in this game")?;
            }
            Nav::FindMove { point, backward } => {
                let size = self.size();
                let p = on_board(point, size)?;
                self.find_in_game(backward, |doc, n| {
                    node_move(doc, n.id(), size).is_some_and(|(_, m)| m == Move::Play(p))
                })
                .ok_or_else(|| format!("no move at {} in this game", coords::human(p, size)))?;
            }
            Nav::FindText { ref q, backward } => {
                let needle = sgf_go::filter::fold(q);
                if needle.is_empty() {
                    return Err("type the text to find".into());
                }
                self.find_in_game(backward, |_, n| {
                    n.text("C")
                        .is_some_and(|t| sgf_go::filter::fold(&t).contains(&needle))
                })
                .ok_or_else(|| format!("no comment of this game holds “{q}”"))?;
            }
        }
        Ok(())
    }

    /// Goes along the line (`next`: down the line visited last; else up
    /// the path) to the first node after this one where `hit` holds;
    /// `None`, staying, when there is none.
    fn along_line(&mut self, next: bool, hit: impl Fn(&sgf_core::Node<'_>) -> bool) -> Option<()> {
        let mut n = self.cursor.node();
        loop {
            n = if next {
                self.next_child(n)?
            } else {
                self.doc.node(n).parent()?.id()
            };
            if hit(&self.doc.node(n)) {
                self.goto(n);
                return Some(());
            }
        }
    }

    /// Goes to the next node of the game in tree order (`back`: the
    /// previous), round again past the end, where `hit` holds; `None`,
    /// staying, when no node but this one holds it.
    fn find_in_game(
        &mut self,
        back: bool,
        hit: impl Fn(&Document, &sgf_core::Node<'_>) -> bool,
    ) -> Option<()> {
        let len = self.numbering.len();
        let at = self.number(self.cursor.node());
        let found = (1..=len)
            .filter_map(|k| {
                self.by_number(if back {
                    (at + len - k) % len
                } else {
                    (at + k) % len
                })
            })
            .find(|&n| hit(&self.doc, &self.doc.node(n)))?;
        self.goto(found);
        Some(())
    }

    /// Goes to the move that placed the stone at `p` (on the path to here).
    fn go_to_stone(&mut self, p: Point) -> Result<(), OpError> {
        let size = self.size();
        let mut up = Some(self.doc.node(self.cursor.node()));
        let target = std::iter::from_fn(|| {
            let n = up?;
            up = n.parent();
            Some(n.id())
        })
        .find(|&n| node_move(&self.doc, n, size).is_some_and(|(_, m)| m == Move::Play(p)));
        match target {
            Some(n) => {
                self.goto(n);
                Ok(())
            }
            None => Err(format!(
                "the stone on {} was placed by setup, not by a move",
                coords::human(p, size)
            )),
        }
    }

    /// Records a finished edit as an undo step (merged into the last one
    /// when both continue typing in the same field).
    fn push_step(
        &mut self,
        change: Change,
        game: usize,
        node: NodeId,
        key: Option<String>,
        repair: bool,
    ) {
        let part = self.part();
        if let (Some(k), Some(last)) = (&key, self.undo.last_mut())
            && last.key.as_ref() == Some(k)
            && last.part == part
            && self.redo.is_empty()
        {
            last.change = std::mem::take(&mut last.change).then(change);
            return;
        }
        self.undo.push(Step {
            change,
            part,
            game,
            node,
            key,
            repair,
        });
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes (`redo` false) or redoes the last step.
    fn step_back(&mut self, redo: bool) -> Result<(), OpError> {
        let from = if redo { &mut self.redo } else { &mut self.undo };
        let step = from.pop().ok_or(if redo {
            "nothing to redo"
        } else {
            "nothing to undo"
        })?;
        if let Some(p) = &self.parts
            && step.part != p.current
        {
            let g = p.first_game.get(step.part).copied().unwrap_or(0);
            self.show_game(g)?;
        }
        let (game, node) = (self.game, self.cursor.node());
        self.doc.end_change();
        let back = self.doc.revert(step.change);
        let to = if redo { &mut self.undo } else { &mut self.redo };
        to.push(Step {
            change: back,
            part: step.part,
            game,
            node,
            key: None,
            repair: step.repair,
        });
        self.game = step.game.min(self.game_count().saturating_sub(1));
        self.cursor = Cursor::new(&self.doc, self.lg());
        self.reindex();
        let n = match self.numbering.number(step.node) {
            Some(_) => step.node,
            None => self.cursor.node(),
        };
        self.goto(n);
        self.dirty = true;
        if step.repair {
            self.recheck_if_whole();
        }
        Ok(())
    }

    /// Edits the record at the current node; edits with the same
    /// `merge_key` (typing in one field) make one undo step.
    pub fn edit(&mut self, op: &Edit, merge_key: Option<&str>) -> Result<(), OpError> {
        let r = self.edit_inner(op, merge_key);
        // A move just played is the line → comes back to.
        self.remember_path();
        r
    }

    fn edit_inner(&mut self, op: &Edit, merge_key: Option<&str>) -> Result<(), OpError> {
        self.illegal = None;
        match op {
            Edit::Undo => return self.step_back(false),
            Edit::Redo => return self.step_back(true),
            _ => {}
        }
        let size = self.size();
        let here = self.cursor.node();
        if let Edit::Play { point, force } = *op {
            let mv = match point {
                None => Move::Pass,
                Some(p) => Move::Play(on_board(p, size)?),
            };
            // Navigation disguised as play: a click on a stone goes to its move.
            if let Move::Play(p) = mv
                && self.cursor.position().board.get(p) != Stone::Empty
                && !force
            {
                return self.go_to_stone(p).map_err(|_| {
                    self.illegal = Some(sgf_go::Illegal::Occupied.code());
                    format!(
                        "Illegal move: {} ({}). Play it anyway?",
                        sgf_go::Illegal::Occupied,
                        coords::human(p, size)
                    )
                });
            }
            // Ko retakes and suicides are warned of, as Sabaki does; `force` insists.
            if !force {
                let color = self.cursor.next_player(&self.doc);
                if let Some(why) = edit::illegal_new_move(&self.doc, &self.cursor, color, mv) {
                    self.illegal = Some(why.code());
                    return Err(format!("Illegal move: {why}. Play it anyway?"));
                }
            }
        }
        let (game_before, node_before) = (self.game, here);
        self.doc.end_change();
        self.doc.begin_change();
        let result: Result<(), OpError> = (|| {
            match op {
                Edit::Undo | Edit::Redo => {}
                Edit::Play { point, .. } => {
                    let mv = match *point {
                        None => Move::Pass,
                        Some(p) => Move::Play(on_board(p, size)?),
                    };
                    let color = self.cursor.next_player(&self.doc);
                    edit::play(&mut self.doc, &mut self.cursor, color, mv)
                        .map_err(|e| e.to_string())?;
                }
                Edit::Setup { point, stone } => {
                    let p = on_board(*point, size)?;
                    let stone = match stone {
                        SetupStone::B => Stone::Black,
                        SetupStone::W => Stone::White,
                        SetupStone::E => Stone::Empty,
                    };
                    // Setup may not share a node with a move: a new node follows the move.
                    let target = if node_move(&self.doc, here, size).is_some() {
                        let c = self.doc.add_child(here).map_err(|e| e.to_string())?;
                        self.cursor.down(&self.doc, c);
                        c
                    } else {
                        here
                    };
                    let ident = match stone {
                        Stone::Black => "AB",
                        Stone::White => "AW",
                        Stone::Empty => "AE",
                    };
                    let already =
                        coords::points_of(&self.doc.node(target), ident, size).contains(&p);
                    // What the point holds before the node: a setup value
                    // that leaves it so changes nothing (G004) and is not
                    // written (a stone added, then erased: no `AE` left).
                    let before = match self.doc.node(target).parent().map(|q| q.id()) {
                        Some(parent) => {
                            let mut c = Cursor::new(&self.doc, self.lg());
                            c.seek(&self.doc, parent);
                            c.position().board.get(p)
                        }
                        None => Stone::Empty,
                    };
                    let new = match (already, stone) {
                        (true, _) => None,
                        (false, s) if s == before => None,
                        (false, s) => Some(s),
                    };
                    edit::set_setup(&mut self.doc, target, size, p, new)
                        .map_err(|e| e.to_string())?;
                }
                Edit::Markup { point, kind } => {
                    let p = on_board(*point, size)?;
                    let kind = kind.ident();
                    if edit::SHAPES.contains(&kind) {
                        edit::toggle_markup(&mut self.doc, here, size, kind, p)
                    } else {
                        edit::toggle_point(&mut self.doc, here, size, kind, p)
                    }
                    .map_err(|e| e.to_string())?;
                }
                Edit::Line { kind, from, to } => {
                    let kind = match kind {
                        LineKind::AR => "AR",
                        LineKind::LN => "LN",
                    };
                    let from = on_board(*from, size)?;
                    let to = on_board(*to, size)?;
                    if from == to {
                        return Err("a line needs two different points".into());
                    }
                    edit::toggle_line(&mut self.doc, here, kind, from, to)
                        .map_err(|e| e.to_string())?;
                }
                Edit::Label { point, text, auto } => {
                    // `auto`: the next free letter (`A`…) or number (`1`…).
                    let auto =
                        auto.map(|a| edit::next_label(&self.doc, here, a == AutoLabel::Number));
                    let p = on_board(*point, size)?;
                    let has = self.doc.node(here).values("LB").any(|v| {
                        v.composed().is_some_and(|(a, _)| {
                            coords::parse_point(a.as_bytes(), size).map(|x| x.0) == Ok(p)
                        })
                    });
                    // An automatic label on a labelled point removes it.
                    let text = match auto {
                        Some(_) if has => None,
                        Some(a) => Some(a),
                        None => text.clone().filter(|t| !t.is_empty()),
                    };
                    edit::set_label(&mut self.doc, here, size, p, text.as_deref())
                        .map_err(|e| e.to_string())?;
                }
                Edit::Comment { text, name } => {
                    for (t, ident) in [(text, "C"), (name, "N")] {
                        if let Some(t) = t {
                            set_text_field(&mut self.doc, here, ident, t)?;
                        }
                    }
                }
                Edit::Info { props } => {
                    let game = self.doc.game(self.lg()).ok_or("no game")?;
                    let target =
                        sgf_go::info::game_info_node(&game).map_or(game.root().id(), |n| n.id());
                    for (ident, v) in props {
                        let is_info = sgf_core::props::info_of(ident)
                            .is_some_and(|i| i.kind == PropKind::GameInfo);
                        if !is_info {
                            return Err(format!("`{ident}` is not a game-info property"));
                        }
                        set_text_field(&mut self.doc, target, ident, v)?;
                    }
                }
                Edit::Delete => {
                    let parent = self
                        .doc
                        .node(here)
                        .parent()
                        .ok_or("the root cannot be deleted")?
                        .id();
                    self.up();
                    self.doc.remove_node(here).map_err(|e| e.to_string())?;
                    self.goto(parent);
                }
                Edit::Promote => {
                    self.doc
                        .promote_to_main_line(here)
                        .map_err(|e| e.to_string())?;
                }
                Edit::Annotate { kind, strength } => {
                    let ident = kind.ident();
                    // `IT` has no value; the others 1 or 2 ("very").
                    let value = match (kind, strength.unwrap_or(1)) {
                        (crate::api::Annotation::IT, _) => String::new(),
                        (_, 2) => "2".to_string(),
                        _ => "1".to_string(),
                    };
                    let same = self
                        .doc
                        .node(here)
                        .value(ident)
                        .is_some_and(|v| v.raw_text() == value);
                    for other in kind.group() {
                        self.doc.remove_property(here, other);
                    }
                    if !same {
                        self.doc
                            .set_raw(here, ident, &[value])
                            .map_err(|e| e.to_string())?;
                    }
                }
                Edit::CopyVariation => {
                    self.clipboard = Some(self.variation_sgf(here)?);
                }
                Edit::CutVariation => {
                    let parent = self
                        .doc
                        .node(here)
                        .parent()
                        .ok_or("the root cannot be cut: copy it")?
                        .id();
                    self.clipboard = Some(self.variation_sgf(here)?);
                    self.up();
                    self.doc.remove_node(here).map_err(|e| e.to_string())?;
                    self.goto(parent);
                }
                Edit::PasteVariation => {
                    let text = self
                        .clipboard
                        .as_ref()
                        .ok_or("nothing copied: copy or cut a variation first")?;
                    let clip = sgf_core::parse(text.as_bytes()).document;
                    let root = clip.game(0).ok_or("nothing copied")?.root().id();
                    let new = self
                        .doc
                        .paste_subtree(Some(here), &clip, root)
                        .map_err(|e| e.to_string())?;
                    self.goto(new);
                }
                Edit::Flatten => self.flatten(here)?,
                Edit::RemoveOtherVariations => {
                    // The line: the path here, and on down the line visited last.
                    let mut line: Vec<NodeId> = self.path_here();
                    while let Some(c) = line.last().and_then(|&n| self.next_child(n)) {
                        line.push(c);
                    }
                    let mut removed = 0;
                    for w in line.windows(2) {
                        let others: Vec<NodeId> = self
                            .doc
                            .node(w[0])
                            .children()
                            .map(|c| c.id())
                            .filter(|&c| c != w[1])
                            .collect();
                        for c in others {
                            self.doc.remove_node(c).map_err(|e| e.to_string())?;
                            removed += 1;
                        }
                    }
                    if removed == 0 {
                        return Err("this line has no other variations".into());
                    }
                }
                Edit::ShiftVariation { left } => {
                    let mut node = self.doc.node(here);
                    while node.parent().is_some_and(|p| p.child_count() < 2) {
                        node = node.parent().expect("checked");
                    }
                    if node.parent().is_none() {
                        return Err("no variation here to shift".into());
                    }
                    let i = node.variation_index();
                    let j = if *left { i.checked_sub(1) } else { Some(i + 1) }
                        .filter(|&j| j < node.siblings().len())
                        .ok_or(if *left {
                            "this variation is the leftmost already"
                        } else {
                            "this variation is the rightmost already"
                        })?;
                    let id = node.id();
                    self.doc.move_variation(id, j).map_err(|e| e.to_string())?;
                }
                Edit::ApplyView => {
                    let (sym, invert) = (self.shown_sym(), self.view_invert);
                    if sym == 0 && !invert {
                        return Err(
                            "the board is shown as recorded: turn, mirror or invert it first"
                                .into(),
                        );
                    }
                    let game = self.lg();
                    sgf_go::symmetry::transform_game(&mut self.doc, game, sym, invert)
                        .map_err(|e| e.to_string())?;
                    self.view_sym = 0;
                    self.view_invert = false;
                }
                Edit::Repair { variation_level } => {
                    let mut opts = sgf_formats::repair::RepairOptions::default();
                    opts.variation_level = *variation_level;
                    let changes = sgf_formats::repair::repair(&mut self.doc, &opts);
                    if changes.is_empty() {
                        return Err("nothing to repair".into());
                    }
                }
            }
            Ok(())
        })();
        let change = self.doc.end_change();
        match result {
            Ok(()) => {
                let node = self.cursor.node();
                if !change.is_empty() {
                    self.dirty = true;
                    let key = merge_key.map(|k| format!("{}:{k}", op.name()));
                    let repair = matches!(op, Edit::Repair { .. });
                    self.push_step(change, game_before, node_before, key, repair);
                }
                self.reindex();
                // The position at the node may have changed (setup, deleted stones): replay.
                self.cursor = Cursor::new(&self.doc, self.lg());
                self.goto(node);
                if matches!(op, Edit::Repair { .. }) {
                    self.recheck();
                }
                Ok(())
            }
            Err(e) => {
                // Refused edits change nothing.
                self.doc.revert(change);
                self.cursor = Cursor::new(&self.doc, self.lg());
                self.reindex();
                self.goto(node_before);
                Err(e)
            }
        }
    }

    /// The variation from `node` on as SGF: one game whose root is `node`
    /// (its text in UTF-8), what Copy keeps.
    fn variation_sgf(&self, node: NodeId) -> Result<String, OpError> {
        let mut d = sgf_core::parse(b"").document;
        d.paste_subtree(None, &self.doc, node)
            .map_err(|e| e.to_string())?;
        String::from_utf8(sgf_core::to_lossless_bytes(&d)).map_err(|e| e.to_string())
    }

    /// Sabaki's "flatten": the position at `here` becomes the root's
    /// setup (its stones as `AB`/`AW`, whose turn as `PL`), with the game
    /// information and the node's comment, markup and judgements; the
    /// moves before it go, what follows it stays.
    fn flatten(&mut self, here: NodeId) -> Result<(), OpError> {
        let game = self.doc.game(self.lg()).ok_or("no game")?;
        let root = game.root().id();
        if here == root {
            return Err("this is the start of the game already".into());
        }
        // The game information first, where it is not in the root.
        if let Some(info) = sgf_go::info::game_info_node(&game).map(|n| n.id())
            && info != root
        {
            let idents = idents_of(&self.doc, info, |k| k == PropKind::GameInfo);
            self.doc.move_properties(info, root, &as_strs(&idents));
        }
        let pos = self.cursor.position().clone();
        let to_play = self.cursor.next_player(&self.doc);
        let size = self.size();
        // What only the start of a game holds stays in the root.
        let drop = idents_of(&self.doc, root, |k| {
            !matches!(k, PropKind::GameInfo | PropKind::Root)
        });
        for ident in &drop {
            self.doc.remove_property(root, ident);
        }
        for (ident, stone) in [("AB", Stone::Black), ("AW", Stone::White)] {
            let pts: Vec<String> = (0..size.rows)
                .flat_map(|y| (0..size.cols).map(move |x| Point::new(x, y)))
                .filter(|&p| pos.board.get(p) == stone)
                .map(|p| p.to_string())
                .collect();
            if !pts.is_empty() {
                self.doc
                    .set_raw(root, ident, &pts)
                    .map_err(|e| e.to_string())?;
            }
        }
        self.doc
            .set_raw(root, "PL", &[to_play.as_str().to_string()])
            .map_err(|e| e.to_string())?;
        // The node becomes the start, as in Sabaki: its comment, name,
        // markup and judgement of the position go with it.
        let keep = idents_of(&self.doc, here, |k| k == PropKind::None);
        self.doc.move_properties(here, root, &as_strs(&keep));
        let old: Vec<NodeId> = self.doc.node(root).children().map(|c| c.id()).collect();
        let kids: Vec<NodeId> = self.doc.node(here).children().map(|c| c.id()).collect();
        for k in kids {
            self.doc
                .move_subtree(k, root, None)
                .map_err(|e| e.to_string())?;
        }
        for o in old {
            self.doc.remove_node(o).map_err(|e| e.to_string())?;
        }
        self.cursor = Cursor::new(&self.doc, self.lg());
        Ok(())
    }

    /// What the repair would change (the library's pipeline, run on a
    /// copy): `[{code, message, line, column, start, end, before, after}]`
    /// ([`sgf_report::ChangeJson`]), lines and columns in the file as
    /// opened.
    pub fn repair_preview(&self, variation_level: bool) -> Vec<ChangeJson> {
        let mut copy = self.doc.clone();
        let mut opts = sgf_formats::repair::RepairOptions::default();
        opts.variation_level = variation_level;
        let changes = sgf_formats::repair::repair(&mut copy, &opts);
        changes
            .iter()
            .map(|c| {
                let (line, column) = self.doc.line_col(c.span.start);
                ChangeJson::of(c, line, column)
            })
            .collect()
    }

    /// After a repair was undone or redone: the diagnostics again.
    fn recheck_if_whole(&mut self) {
        if self.parts.is_none() && self.input.is_none() && self.doc.game_count() < 100 {
            self.recheck();
        }
    }

    /// The diagnostics of the record as Save would write it now (for a
    /// large collection, of the part shown).
    fn recheck(&mut self) {
        if self.parts.is_some() {
            return;
        }
        let p = sgf_core::parse(&sgf_core::to_lossless_bytes(&self.doc));
        self.diagnostics = shown(p.diagnostics, &p.document);
    }

    /// The bytes a plain save writes: the lossless form for SGF files,
    /// refused for other formats (they are never overwritten with SGF).
    pub fn lossless_bytes(&self) -> Result<Vec<u8>, OpError> {
        if self.format != "SGF" {
            return Err(format!(
                "this record was read from a {} file: use \"Save as\" to write SGF",
                self.format
            ));
        }
        self.lossless_any_format()
    }

    /// The lossless form, whatever the format read.
    fn lossless_any_format(&self) -> Result<Vec<u8>, OpError> {
        // Verified: next to damage in the file an edit could make it read
        // differently; then the user is asked to save the canonical form.
        let lossless = |d: &Document| {
            sgf_core::to_lossless_bytes_checked(d).map_err(|e| format!("{e} (\"Save as\")"))
        };
        let Some(p) = &self.parts else {
            return lossless(&self.doc);
        };
        // Unedited parts are their bytes; edited ones are written losslessly.
        let mut out = Vec::with_capacity(p.bytes.len() + 1024);
        for (i, r) in p.ranges.iter().enumerate() {
            let doc = if i == p.current {
                Some(&self.doc)
            } else {
                p.kept.get(&i)
            };
            match doc {
                Some(d) if d.is_edited() => out.extend(lossless(d)?),
                _ => out.extend_from_slice(&p.bytes[r.clone()]),
            }
        }
        Ok(out)
    }

    #[cfg(feature = "server")]
    /// The record as bytes that read back to it, to put it aside: its
    /// lossless form, or its canonical form (`true`) when the lossless one
    /// would not read back the same.
    pub(crate) fn parking_bytes(&self) -> (Vec<u8>, bool) {
        match self.lossless_any_format() {
            Ok(b) => (b, false),
            Err(_) => (self.canonical_bytes(), true),
        }
    }

    #[cfg(feature = "server")]
    /// Where the page is: the game, and the node's number in it.
    pub(crate) fn place(&self) -> (usize, usize) {
        (self.game, self.number(self.cursor.node()))
    }

    #[cfg(feature = "server")]
    /// The version of the tree the page was last sent.
    pub(crate) fn tree_version(&self) -> u64 {
        self.tree_version
    }

    #[cfg(feature = "server")]
    /// Back where the page was, in a record read again: game `game`, node
    /// number `number`; the tree is sent again (its version is past
    /// `tree_version`, the page's).
    pub(crate) fn restore_place(&mut self, game: usize, number: usize, tree_version: u64) {
        let g = game.min(self.game_count().saturating_sub(1));
        if g != self.game && self.show_game(g).is_err() {
            let _ = self.show_game(0);
        }
        if let Some(n) = self.by_number(number) {
            self.goto(n);
        }
        self.tree_version = self.tree_version.max(tree_version.saturating_add(1));
    }

    #[cfg(feature = "server")]
    /// A note the next state carries as its `message`.
    pub(crate) fn set_notice(&self, text: String) {
        self.notice.set(Some(text));
    }

    /// Whether the canonical form ([`Session::canonical_bytes`]) leaves
    /// out text the record holds outside its game trees (text that would
    /// read as SGF where it stands: [`sgf_core::OutsideText::in_place`]);
    /// the lossless form keeps all of it.
    pub fn canonical_drops_text(&self) -> bool {
        let mut drops = false;
        self.each_part(|_, doc| drops |= doc.outside_texts().iter().any(|o| !o.in_place));
        drops
    }

    /// The canonical FF\[4\] UTF-8 form.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        if self.parts.is_none() {
            return to_canonical_bytes(&self.doc, &Default::default());
        }
        let mut out = Vec::new();
        self.each_part(|_, doc| {
            if doc.game_count() == 0 {
                return;
            }
            if !out.is_empty() {
                out.extend_from_slice(sgf_core::write::GAME_SEPARATOR);
            }
            let mut bytes = to_canonical_bytes(doc, &Default::default());
            while bytes.last() == Some(&b'\n') {
                bytes.pop();
            }
            out.extend(bytes);
        });
        out.push(b'\n');
        out
    }

    /// After "save as": the session continues on the canonical file.
    pub fn reopen_as(&mut self, bytes: &[u8], path: PathBuf, rel: String) {
        let node_number = self.number(self.cursor.node());
        if self.parts.is_some() {
            // The canonical file, read as the large collection it is.
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Ok(mut s) =
                Session::open_collection(self.id, name, std::sync::Arc::from(bytes), &path)
            {
                s.path = Some(path);
                s.rel = Some(rel);
                s.format = "SGF".into();
                s.charset = "UTF-8".into();
                s.numbers = self.numbers;
                s.dark = self.dark;
                let g = self.game.min(s.game_count().saturating_sub(1));
                let _ = s.show_game(g);
                if let Some(n) = s.by_number(node_number) {
                    s.goto(n);
                }
                s.engine = std::mem::take(&mut self.engine);
                *self = s;
                return;
            }
            self.parts = None;
        }
        self.undo.clear();
        self.redo.clear();
        // The file it continues on is the one first read now.
        #[cfg(feature = "server")]
        {
            self.original_aside = None;
        }
        self.from_text = false;
        let p = sgf_core::parse(bytes);
        self.diagnostics = shown(p.diagnostics, &p.document);
        self.doc = p.document;
        self.format = "SGF".into();
        self.charset = "UTF-8".into();
        self.name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.path = Some(path);
        self.rel = Some(rel);
        self.game = self.game.min(self.doc.game_count().saturating_sub(1));
        self.cursor = Cursor::new(&self.doc, self.game);
        self.reindex();
        if let Some(n) = self.by_number(node_number) {
            self.goto(n);
        }
        self.dirty = false;
    }

    /// Render options of the board.
    pub fn render_options(&self, numbers: bool) -> RenderOptions {
        RenderOptions {
            move_numbers: if numbers {
                MoveNumbers::All
            } else {
                MoveNumbers::None
            },
            status: false,
            theme: if self.dark {
                sgf_render::Theme::Dark
            } else {
                sgf_render::Theme::Light
            },
            ..RenderOptions::default()
        }
    }

    /// The whole state as the page wants it; the tree only when the page's
    /// copy (`tree_version`) is stale. Its `message`, once, says when the
    /// record came back after it was put aside to free memory.
    pub fn state(&self, tree_version: Option<u64>) -> RecordState {
        let doc = &self.doc;
        let size = self.size();
        let here = self.cursor.node();
        let node = doc.node(here);
        let pos = self.cursor.position();
        let mv = node_move(doc, here, size);
        let opts = self.render_options(self.numbers);
        let board = self.view_svg(&opts);
        // Annotations as data (`kind`, `strength` 2 for "very"; `value`
        // of `V`): the page says them in its language.
        let mut annotations = Vec::new();
        for (id, kind, tone) in [
            ("GB", "good_for_black", "good"),
            ("GW", "good_for_white", "good"),
            ("DM", "even", ""),
            ("UC", "unclear", ""),
            ("HO", "hotspot", ""),
            ("TE", "good_move", "good"),
            ("BM", "bad_move", "bad"),
            ("DO", "doubtful_move", "bad"),
            ("IT", "interesting_move", ""),
        ] {
            if let Some(v) = node.value(id) {
                annotations.push(AnnotationState::Judgement {
                    code: id,
                    kind,
                    strength: v.double(),
                    tone,
                });
            }
        }
        if let Some(v) = node.value("V") {
            annotations.push(AnnotationState::Value {
                code: "V",
                kind: "value",
                value: v.as_simple_text().into_owned(),
                tone: "",
            });
        }
        // What the board's letters mark (`ST`, as the renderer reads it):
        // the list beside the board gives letters only to those.
        let st = doc
            .game(self.lg())
            .and_then(|g| g.root().value("ST").and_then(|v| v.number()))
            .unwrap_or(0);
        let marks = if st & 2 != 0 {
            "none"
        } else if st & 1 != 0 {
            "siblings"
        } else {
            "children"
        };
        let label_of = |s: &sgf_core::Node<'_>| match node_move(doc, s.id(), size) {
            Some((c, Move::Play(p))) => format!("{} {}", c.as_str(), coords::human(p, size)),
            Some((c, Move::Pass)) => format!("{} pass", c.as_str()),
            None => s
                .text("N")
                .map(|t| t.into_owned())
                .unwrap_or_else(|| "(no move)".into()),
        };
        // The colour and the point apart too: the page says them in its language.
        let parts_of = |s: &sgf_core::Node<'_>| match node_move(doc, s.id(), size) {
            Some((c, Move::Play(p))) => (Some(c.as_str()), Some(coords::human(p, size))),
            Some((c, Move::Pass)) => (Some(c.as_str()), Some("pass".to_string())),
            None => (None, None),
        };
        let next_moves: Vec<MoveRow> = node
            .children()
            .take(40)
            .map(|c| {
                let (color, point) = parts_of(&c);
                MoveRow {
                    number: self.number(c.id()),
                    label: label_of(&c),
                    color,
                    point,
                    current: None,
                    index: None,
                }
            })
            .collect();
        // The alternatives at this point: the siblings, as the variation list
        // shows them; at most 40 around the current one (a node may have thousands).
        let siblings = node.siblings();
        let at = node.variation_index();
        let from = at.saturating_sub(20).min(siblings.len().saturating_sub(40));
        let alternatives: Vec<MoveRow> = siblings
            .iter()
            .enumerate()
            .skip(from)
            .take(40)
            .map(|(i, s)| {
                let (color, point) = parts_of(s);
                MoveRow {
                    number: self.number(s.id()),
                    label: label_of(s),
                    color,
                    point,
                    current: Some(s.id() == here),
                    index: Some(i),
                }
            })
            .collect();
        let info = doc.game(self.lg()).map(|g| {
            let mut m = GameInfo::new();
            if let Some(n) = sgf_go::info::game_info_node(&g) {
                for p in n.props() {
                    if p.info().is_some_and(|i| i.kind == PropKind::GameInfo) {
                        m.insert(
                            p.ident().to_string(),
                            p.first().map(|v| v.text().into_owned()).unwrap_or_default(),
                        );
                    }
                }
            }
            m
        });
        // Komi as the library reads it (Fox's `KM[375]` is 7.5), for the
        // player bar; the form shows the text as written.
        let komi = sgf_go::GameInfo::of(doc, self.lg())
            .komi
            .and_then(|k| k.value);
        // Passes in a row ending here (two: the game is over, a count is a result).
        let mut passes = 0;
        let mut up = Some(node);
        while passes < 2
            && let Some(n) = up
            && matches!(node_move(doc, n.id(), size), Some((_, Move::Pass)))
        {
            passes += 1;
            up = n.parent();
        }
        let text_part = |p: coords::TextPiece<'_>| match p {
            coords::TextPiece::Text(t) => TextPart {
                text: t.to_string(),
                point: None,
                url: None,
            },
            coords::TextPiece::Point(t, p) => TextPart {
                text: t.to_string(),
                point: Some(p.to_string()),
                url: None,
            },
            coords::TextPiece::Link(u) => TextPart {
                text: u.to_string(),
                point: None,
                url: Some(u.to_string()),
            },
        };
        let comment = node.text("C").map(|t| t.into_owned());
        RecordState {
            session: self.id,
            name: self.name.clone(),
            size: [size.cols, size.rows],
            view: ViewState {
                sym: self.shown_sym(),
                invert: self.view_invert,
            },
            clipboard: self.clipboard.is_some(),
            path: self.rel.clone(),
            format: self.format.clone(),
            charset: self.charset.clone(),
            dirty: self.dirty,
            can_undo: !self.undo.is_empty(),
            can_redo: !self.redo.is_empty(),
            game: self.game,
            games: self.game_count(),
            undo_bytes: self.undo_bytes(),
            dark: self.dark,
            info,
            komi,
            board,
            marks,
            node: NodeState {
                number: self.number(here),
                move_number: pos.move_number,
                color: mv.map(|(c, _)| c.as_str()),
                mv: mv.map(|(_, m)| match m {
                    Move::Pass => "pass".to_string(),
                    Move::Play(p) => coords::human(p, size),
                }),
                to_play: self.cursor.next_player(doc).as_str(),
                captures: Captures {
                    black: pos.captures[0],
                    white: pos.captures[1],
                },
                clock: clock(doc, here),
                // What → plays next (for guessing it): colour and point, or "pass".
                next: self
                    .next_child(here)
                    .and_then(|c| node_move(doc, c, size))
                    .map(|(c, m)| NextMove {
                        color: c.as_str(),
                        point: match m {
                            Move::Pass => None,
                            Move::Play(p) => Some(p.to_string()),
                        },
                    }),
                // The comment with its points and web addresses marked, for
                // the page to make them clickable.
                comment_parts: comment.as_deref().map(|t| {
                    coords::text_pieces(t, size)
                        .into_iter()
                        .map(text_part)
                        .collect()
                }),
                comment,
                name: node.text("N").map(|t| t.into_owned()),
                annotations,
                alternatives,
                next_moves,
                variation: at,
                variations: siblings.len(),
                depth: self.cursor.depth(),
                row: self.layout.row(self.number(here)),
                children: node.child_count(),
                passes,
            },
            tree: (tree_version != Some(self.tree_version)).then(|| {
                let (x, y) = (self.cursor.depth(), self.layout.row(self.number(here)));
                self.tree_window(TreeWindow::around(x, y, TREE_AROUND.0, TREE_AROUND.1))
            }),
            illegal: self.illegal,
            engine: self.engine_json(),
            count: self.count_json(),
            message: self.notice.take(),
            error_kind: None,
            diagnostics: None,
            folder: None,
            files: None,
            gtp: None,
            confirm_engine: None,
        }
    }

    /// The view's symmetry where this board has it (a quarter turn of a
    /// rectangular board does not fit it: shown as recorded).
    fn shown_sym(&self) -> u8 {
        let size = self.size();
        let s = self.view_sym;
        if sgf_go::symmetry::of_board(size.cols, size.rows).contains(&s) {
            s
        } else {
            0
        }
    }

    /// The board as an SVG, under the view's transform when there is one.
    fn view_svg(&self, opts: &RenderOptions) -> String {
        let here = self.cursor.node();
        self.with_shown_document(|doc| sgf_render::render_svg(doc, here, opts).unwrap_or_default())
    }

    /// Calls `f` with the document as the board shows it: the record, or
    /// under a view transform (turned, mirrored, colours swapped) a
    /// rewritten copy, kept until the tree or the view changes. Node ids
    /// are the record's, so [`Session::node`] and [`Session::local_game`]
    /// hold in it. Everything drawn of the position (the board, exported
    /// pictures, diagrams, figures) goes through here, so it looks as shown.
    pub fn with_shown_document<R>(&self, f: impl FnOnce(&Document) -> R) -> R {
        let (sym, invert) = (self.shown_sym(), self.view_invert);
        if sym == 0 && !invert {
            self.view_doc.replace(None);
            return f(&self.doc);
        }
        let want = (self.tree_version, sym, invert);
        let mut cache = self.view_doc.borrow_mut();
        if cache.as_ref().is_none_or(|v| v.made_for != want) {
            let mut doc = self.doc.clone();
            if sgf_go::symmetry::transform_game(&mut doc, self.lg(), sym, invert).is_err() {
                drop(cache);
                return f(&self.doc);
            }
            *cache = Some(ViewDoc {
                made_for: want,
                doc,
            });
        }
        f(&cache.as_ref().expect("made").doc)
    }

    /// The part of the tree's layout in window `w` (at most
    /// [`TREE_MAX`] columns and rows of it): its nodes, the connectors that
    /// cross it, and the size of the whole. The main line is row 0; a
    /// variation goes, as in Sabaki, in the first row below its parent's
    /// where its line (the node and its main continuation) finds the
    /// columns free, so short variations at different moves share a row
    /// instead of one row each.
    pub fn tree_window(&self, w: TreeWindow) -> TreeLayout {
        let w = TreeWindow {
            x1: w.x1.min(w.x0.saturating_add(TREE_MAX.0 - 1)),
            y1: w.y1.min(w.y0.saturating_add(TREE_MAX.1 - 1)),
            ..w
        };
        self.layout.window(
            &self.doc,
            &self.numbering,
            self.size(),
            self.tree_version,
            w,
        )
    }

    /// The diagnostics of the file, for the page.
    pub fn diagnostics_json(&self) -> Vec<DiagnosticJson> {
        if let Some(p) = &self.parts {
            return p.diagnostics.clone();
        }
        let sources = sgf_report::Sources::new(&self.doc, self.input.as_ref());
        self.diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .take(MAX_DIAGNOSTICS)
            .map(|d| DiagnosticJson::of(&sources, d))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stepping back past the way back the cursor keeps replays from the
    /// root and goes on: every step lands on the parent, its position
    /// the one a cursor from the root has there.
    #[test]
    fn stepping_back_past_the_way_back_kept() {
        let mut sgf = String::from("(;GM[1]FF[4]SZ[19];B[dd];W[pp];B[dp]");
        for i in 3..(3 * WAY_BACK) {
            sgf.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
        }
        sgf.push(')');
        let p = sgf_core::parse(sgf.as_bytes());
        let mut s = Session::new(
            1,
            "t.sgf".into(),
            p.document,
            p.diagnostics,
            "SGF".into(),
            "UTF-8".into(),
        );
        // The last node: number and depth `end`.
        let end = 3 * WAY_BACK;
        let deep = s.by_number(end).unwrap();
        s.goto(deep);
        assert_eq!(s.cursor.depth(), end);
        // The way back kept is bounded.
        assert!(s.cursor.path().count() <= 2 * WAY_BACK + 1);
        for d in (0..end).rev() {
            assert!(s.up());
            assert_eq!(s.cursor.depth(), d);
            assert_eq!(s.number(s.cursor.node()), d);
            assert_eq!(s.cursor.position().move_number as usize, d);
            if d % 5000 == 0 {
                assert_eq!(s.path_here().len(), d + 1);
                let mut c = Cursor::new(&s.doc, 0);
                c.goto(&s.doc, s.cursor.node());
                assert_eq!(c.position(), s.cursor.position());
            }
        }
        assert!(!s.up(), "the root");
        // Down the whole line: the way back stays bounded.
        while s.step() {}
        assert_eq!(s.cursor.depth(), end);
        assert!(s.cursor.path().count() <= 2 * WAY_BACK + 1);
    }
}
