//! Repairs: what `qipu check --fix` does to a document before writing it in
//! the canonical FF\[4\] UTF-8 form, in three families, in this order:
//! the structure (the tree), the values (each value against its type, game
//! information) and Go (moves and stones on the board). The SGF
//! dialects are normalised before them by `sgf_formats::repair`, which is
//! the pipeline every front end calls.
//!
//! Nothing is lost: every change is reported with its span and the text
//! before and after it, and when a game-info value or a text is rewritten
//! (other than in case or width) or deleted, its original wording is kept
//! in the game comment `GC`, one line per value: `DT as written:
//! 2018.04.27` ([`keep_as_written`]). `GC` is where the specification
//! keeps game information that cannot be corrected, every viewer shows it,
//! and every tool keeps it.

use sgf_core::validate::{ff_version, game_type};
use sgf_core::{Code, Document, EditError, NodeId, Point, PropKind, Span, ValueType, text};

use crate::Stone;
use crate::check;
use crate::coords::{self, BoardSize, CoordIssue};
use crate::info;
use crate::replay::{Cursor, Event, pl_color};
use crate::values::{self, fmt_real};

mod gc;
mod go;
mod structure;
mod values_fix;

/// One change made by [`repair`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The diagnostic code of the problem repaired.
    pub code: Code,
    /// What was done, in words.
    pub message: String,
    /// Where, in the input (empty when the place was created by an earlier change).
    pub span: Span,
    /// The text changed, decoded (`DT[2018.04.27]`); empty when the change
    /// is to the tree, not to a value.
    pub before: String,
    /// What it became (`DT[2018-04-27]`); empty when it was deleted.
    pub after: String,
}

struct Fixer<'a> {
    doc: &'a mut Document,
    changes: Vec<Change>,
    /// The last value set could not be written: its note is not made.
    unmade: bool,
    /// While the structure rules run, the `GC` of each node that wordings
    /// are kept in, written when they are done (see `gc`); `None` when
    /// wordings are written as they are kept.
    gc: Option<std::collections::HashMap<NodeId, gc::GcDraft>>,
    /// Nodes that could not take a `GC` (full to `MAX_PROPS_PER_NODE`): not
    /// given one again for each wording.
    no_gc: std::collections::HashSet<NodeId>,
}

impl Fixer<'_> {
    fn note(&mut self, code: Code, span: Span, message: impl Into<String>) {
        if std::mem::take(&mut self.unmade) {
            return;
        }
        self.changes.push(Change {
            code,
            message: message.into(),
            span,
            before: String::new(),
            after: String::new(),
        });
    }

    /// A change of a value: `before` and `after` are shown as written.
    fn note_value(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        before: String,
        after: String,
    ) {
        if std::mem::take(&mut self.unmade) {
            return;
        }
        self.changes.push(Change {
            code,
            message: message.into(),
            span,
            before,
            after,
        });
    }

    /// Values of a property as (raw content with escapes, decoded text, span).
    fn values(&self, n: NodeId, ident: &str) -> Vec<(String, String, Span)> {
        let node = self.doc.node(n);
        // A value set by an earlier step has no place in the source: its
        // changes point at the node.
        let mut node_span = None;
        node.values(ident)
            .map(|v| {
                let raw = v.raw_text().into_owned();
                let mut span = v.span();
                if span == Span::default() {
                    span = *node_span.get_or_insert_with(|| node.span());
                }
                (raw, v.decoded().into_owned(), span)
            })
            .collect()
    }

    /// Sets a property from decoded texts (escaped here); removes it when empty.
    fn set_texts(&mut self, n: NodeId, ident: &str, texts: &[String]) {
        if texts.is_empty() {
            self.doc.remove_property(n, ident);
        } else {
            let raws: Vec<String> = texts.iter().map(|t| text::escape(t, false)).collect();
            self.set_raws(n, ident, &raws);
        }
    }

    fn set_raws(&mut self, n: NodeId, ident: &str, raws: &[String]) {
        if raws.is_empty() {
            self.doc.remove_property(n, ident);
            return;
        }
        self.unmade = false;
        let done = match self.doc.set_raw(n, ident, raws) {
            // Text the game's charset cannot hold, the game kept in it (see
            // `RepairOptions::utf8_output`): U+FFFD stands for bytes that
            // were not text in that charset, and is written `?` (the bytes
            // are not text either way), so that repairing the repaired file
            // changes nothing.
            Err(sgf_core::EditError::Unrepresentable { .. }) => {
                let raws: Vec<String> = raws.iter().map(|r| r.replace('\u{FFFD}', "?")).collect();
                self.doc.set_raw(n, ident, &raws)
            }
            // A value read past an unescaped `]` holds it as written: the
            // repaired value escapes it, as the canonical writer does.
            Err(sgf_core::EditError::BadRaw(_)) => {
                let raws: Vec<String> = raws.iter().map(|r| escape_stray(r)).collect();
                self.doc.set_raw(n, ident, &raws)
            }
            r => r,
        };
        // The change is not reported as made (see `note`): the value stays
        // as it was and the check of the output still shows the problem.
        self.unmade = done.is_err();
    }

    /// Keeps the wording of a value about to be rewritten or deleted (see
    /// [`keep_as_written`]), when it says more than what replaces it.
    fn keep(&mut self, n: NodeId, ident: &str, old: &str, new: Option<&str>) {
        if new.is_some_and(|new| same_wording(old, new)) || old.trim().is_empty() {
            return;
        }
        let _ = keep_as_written(self.doc, n, ident, old);
    }

    /// [`Fixer::keep`] in the `GC` of `target`, which the caller found.
    fn keep_in(&mut self, target: NodeId, ident: &str, old: &str) {
        if old.trim().is_empty() {
            return;
        }
        self.keep_line(target, as_written(ident, old));
    }

    /// Keeps a line in the `GC` of `target`: in its draft while the
    /// structure rules run, else at once. A `GC` made by the line is made
    /// at once (it takes its place among the properties then).
    fn keep_line(&mut self, target: NodeId, line: String) {
        match &mut self.gc {
            Some(drafts) => {
                if let Some(d) = drafts.get_mut(&target) {
                    d.keep(line);
                } else if self.no_gc.contains(&target) {
                } else if self.doc.node(target).has("GC") {
                    let mut d = gc::GcDraft::new(gc_of(self.doc, target));
                    d.keep(line);
                    drafts.insert(target, d);
                } else {
                    let _ = append_line(self.doc, target, &line);
                    if !self.doc.node(target).has("GC") {
                        self.no_gc.insert(target);
                    }
                }
            }
            None => {
                let _ = append_line(self.doc, target, &line);
            }
        }
    }

    /// Whether `target` has a `GC` (a draft is made only of one it has:
    /// then it is not looked for among the properties).
    fn has_gc(&self, target: NodeId) -> bool {
        self.gc.as_ref().is_some_and(|d| d.contains_key(&target)) || self.doc.node(target).has("GC")
    }

    /// Writes the draft of `target`'s `GC` now (before its `GC` is read).
    fn write_gc(&mut self, target: NodeId) {
        if let Some(d) = self.gc.as_mut().and_then(|d| d.remove(&target)) {
            d.write(self.doc, target);
        }
    }

    /// Writes every draft, in node order, and keeps wordings at once again.
    fn write_all_gc(&mut self) {
        let Some(drafts) = self.gc.take() else { return };
        let mut drafts: Vec<_> = drafts.into_iter().collect();
        drafts.sort_by_key(|(n, _)| *n);
        for (n, d) in drafts {
            d.write(self.doc, n);
        }
    }

    /// Keeps the wording of a value of a type that holds no text (a
    /// number, a Double, an annotation) about to be rewritten or deleted,
    /// when it holds words: `BM[very bad]`, `MN[ten]`, `KO[6.5 komi]` say
    /// more than the value the repair leaves.
    fn keep_words(&mut self, n: NodeId, ident: &str, old: &str, new: Option<&str>) {
        if worded(old) {
            self.keep(n, ident, old, new);
        }
    }
}

/// Whether a value holds words (a letter of any script), not only digits,
/// signs and punctuation.
pub(crate) fn worded(s: &str) -> bool {
    s.chars().any(char::is_alphabetic)
}

/// The wording of every value of property `ident` of node `n`, in order,
/// for `GC` (see [`keep_as_written`]): the values that are not blank,
/// decoded and trimmed, joined with a line break (Text) or `, ` (other
/// types, as the repair joins SimpleText values).
pub fn wording(doc: &Document, n: NodeId, ident: &str) -> String {
    let node = doc.node(n);
    let sep = if node
        .get(ident)
        .is_some_and(|p| p.value_type() == ValueType::Text)
    {
        "\n"
    } else {
        ", "
    };
    node.values(ident)
        .map(|v| v.decoded().trim().to_string())
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Whether two texts say the same, but for case, full-width forms and
/// white space at their ends (`w+4.5` and `W+4.5`): rewriting one as the
/// other loses nothing.
pub fn same_wording(a: &str, b: &str) -> bool {
    // Only what Unicode's compatibility folding (NFKC) also equates:
    // full-width forms and the ideographic space, not `。` for `.`.
    let f = |s: &str| {
        s.trim()
            .chars()
            .map(|c| match c {
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                '\u{3000}' => ' ',
                c => c,
            })
            .collect::<String>()
            .to_lowercase()
    };
    f(a) == f(b)
}

/// Keeps the original wording of property `ident` of node `n` — about to
/// be rewritten or deleted — in the game comment `GC` of the game-info node
/// above it (or the root): a line `IDENT as written: text`, once.
///
/// # Errors
/// When `GC` cannot be set (the node is not in the tree).
pub fn keep_as_written(
    doc: &mut Document,
    n: NodeId,
    ident: &str,
    text: &str,
) -> Result<(), EditError> {
    let text = text.trim();
    if text.is_empty() {
        // Nothing to keep (and an empty line would say nothing).
        return Ok(());
    }
    keep_line(doc, n, &format!("{ident} as written: {text}"))
}

/// Adds `line` to the game comment `GC` of the game-info node at or above
/// `n` (or the root), after what is there, once: the place of every
/// wording a repair keeps ([`keep_as_written`]).
///
/// # Errors
/// When `GC` cannot be set (the node is not in the tree).
pub fn keep_line(doc: &mut Document, n: NodeId, line: &str) -> Result<(), EditError> {
    let target = info_node_above(doc, n);
    append_line(doc, target, line)
}

/// The line that keeps the wording `text` of `ident`.
fn as_written(ident: &str, text: &str) -> String {
    format!("{ident} as written: {}", text.trim())
}

/// The decoded `GC` of node `n`: every value of every `GC` of the node
/// that is not blank (`GC[a]GC[b]`, `GC[][b]`), joined with a line break,
/// since a `GC` written anew replaces them all; empty when it has none.
fn gc_of(doc: &Document, n: NodeId) -> String {
    let node = doc.node(n);
    let mut values = node.values("GC");
    match (values.next(), values.next()) {
        (None, _) => String::new(),
        (Some(v), None) => v.decoded().into_owned(),
        _ => node
            .values("GC")
            .map(|v| v.decoded().into_owned())
            .filter(|t| !t.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Adds `line` to the `GC` of `target` (once; after a blank line unless it
/// follows another such line). `gc::GcDraft` does the same to a text held
/// aside: the two must agree. A `GC` of several values is made one even
/// when it has the line already.
fn append_line(doc: &mut Document, target: NodeId, line: &str) -> Result<(), EditError> {
    let old = gc_of(doc, target);
    match with_line(&old, line) {
        Some(new) => doc.set_raw(target, "GC", &[text::escape(&new, false)]),
        None if doc.node(target).values("GC").nth(1).is_some() => {
            doc.set_raw(target, "GC", &[text::escape(&old, false)])
        }
        None => Ok(()),
    }
}

/// The text `old` with `line` kept in it, `None` when it has that line
/// already (see [`append_line`]).
fn with_line(old: &str, line: &str) -> Option<String> {
    if old.lines().any(|l| l == line) {
        return None;
    }
    Some(if old.trim().is_empty() {
        line.to_string()
    } else if old
        .lines()
        .last()
        .is_some_and(|l| l.contains(" as written: "))
    {
        format!("{}\n{line}", old.trim_end())
    } else {
        format!("{}\n\n{line}", old.trim_end())
    })
}

/// The nearest node at or above `n` holding game information, or the root.
fn info_node_above(doc: &Document, n: NodeId) -> NodeId {
    let mut cur = Some(doc.node(n));
    let mut last = n;
    while let Some(node) = cur {
        if node
            .props()
            .any(|p| p.info().is_some_and(|i| i.kind == PropKind::GameInfo))
        {
            return node.id();
        }
        last = node.id();
        cur = node.parent();
    }
    last
}

/// Repairs beyond the default ones, which guess at the author's intent (as
/// SGFC's options do).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct RepairOptions {
    /// Move variations written one level too deep up (`G008`, SGFC's `-v`).
    pub variation_level: bool,
    /// The repaired document will be written in the canonical UTF-8 form
    /// (as `check --fix` writes it): a game whose charset cannot hold a
    /// repaired text then becomes UTF-8 even when bytes its charset cannot
    /// decode turn into U+FFFD, as they do in that form anyway. Without it
    /// such a game keeps its bytes and the repair is not made.
    pub utf8_output: bool,
}

/// Repairs `doc` in place and returns every change made.
pub fn repair(doc: &mut Document) -> Vec<Change> {
    repair_with(doc, &RepairOptions::default())
}

/// Repairs `doc` in place with the optional repairs of `opts`: the tree,
/// then the values, then Go.
pub fn repair_with(doc: &mut Document, opts: &RepairOptions) -> Vec<Change> {
    let before = doc.utf8_fallback();
    if opts.utf8_output {
        doc.set_utf8_fallback(Some(true));
    }
    let mut f = Fixer {
        doc,
        changes: Vec::new(),
        unmade: false,
        gc: None,
        no_gc: std::collections::HashSet::new(),
    };
    for gi in 0..f.doc.game_count() {
        let go = is_go(f.doc, gi);
        let ff = ff_version(f.doc, gi);
        let Some(root) = f.doc.game(gi).map(|g| g.root().id()) else {
            continue;
        };
        // The tree.
        structure::move_in_root(&mut f, root);
        if opts.variation_level && go {
            structure::variation_levels(&mut f, gi);
        }
        let size_of = |doc: &Document| {
            doc.game(gi)
                .map(|g| coords::board_size(&g.root()).0)
                .unwrap_or_default()
        };
        // One walk finds the nodes the structure rules look at (all but
        // plain moves) and those the value repairs look at (all but plain
        // moves on the board).
        let (size, arena) = (size_of(f.doc), f.doc.node_capacity());
        let (rules, mut nodes) = not_plain(f.doc, gi, size);
        let mut above = gc::InfoAbove::new(root);
        f.gc = Some(std::collections::HashMap::new());
        for n in rules {
            structure::node_rules(&mut f, n, &mut above);
            above.settle(f.doc, n);
        }
        f.write_all_gc();
        // The rules only move properties between nodes that are not plain
        // moves, or split a node (a new node): walk again in that case.
        if (size_of(f.doc), f.doc.node_capacity()) != (size, arena) {
            nodes = not_plain(f.doc, gi, size_of(f.doc)).1;
        }
        // The values.
        values_fix::root_values(&mut f, root);
        // A size read from its wording (`SZ[１３]`) is the game's size:
        // the moves off that board are looked at too.
        let size = if size_of(f.doc) == size {
            size
        } else {
            let size = size_of(f.doc);
            nodes = not_plain(f.doc, gi, size).1;
            size
        };
        // One cursor for the game, made when a node needs the board: nodes
        // come in pre-order, so each step from the last one is short.
        let mut cursor = None;
        for &n in &nodes {
            values_fix::node_values(&mut f, n, go, ff);
            values_fix::legacy(&mut f, gi, n, size, ff, &mut cursor);
        }
        values_fix::game_info(&mut f, &nodes);
        // Go.
        if go {
            for &n in &nodes {
                go::points(&mut f, n, size);
            }
            go::handicap(&mut f, root);
            // Only setup stones can be without effect: no replay without them.
            use sgf_core::props::id as pid;
            let setup = 1u128 << pid::AB | 1u128 << pid::AW | 1u128 << pid::AE;
            let with_setup: Vec<NodeId> = nodes
                .iter()
                .copied()
                .filter(|&n| f.doc.node(n).known_set() & setup != 0)
                .collect();
            if !with_setup.is_empty() {
                // Setup in the root alone (handicap stones) is checked
                // against the empty board, without replaying the game.
                let root_only = with_setup == [root];
                go::setup_without_effect(&mut f, gi, root_only);
            }
        }
        // A move deleted above may have left its annotations alone.
        for &n in &nodes {
            structure::annotations_without_move(&mut f, n);
        }
    }
    f.doc.set_utf8_fallback(before);
    f.changes
}

/// Whether game `gi` is a game of Go: its `GM` is 1 (`GM[１]` too, as
/// the repair reads it), or absent, or not a number at all (as the check
/// takes it).
fn is_go(doc: &Document, gi: usize) -> bool {
    let gm = doc
        .game(gi)
        .and_then(|g| g.root().value("GM").map(|v| v.decoded().into_owned()));
    match gm {
        Some(t) => values::read_number(&t).is_none_or(|n| n == 1),
        None => game_type(doc, gi) == 1,
    }
}

/// Whether a node is one plain move (`;B[pd]`, not the root): `None`
/// when not, else whether it is on a `size` board.
fn plain_move(node: &sgf_core::Node<'_>, size: BoardSize) -> Option<bool> {
    match node.simple_move() {
        Some((_, [a, b])) if node.parent().is_some() => {
            Some((a - b'a') < size.cols && (b - b'a') < size.rows && [a, b] != *b"tt")
        }
        _ => None,
    }
}

/// The nodes of game `gi` in file order but the plain moves (see
/// [`plain_move`]), and but the plain moves on a `size` board: most nodes
/// of a game are plain moves, which are never collected.
fn not_plain(doc: &Document, gi: usize, size: BoardSize) -> (Vec<NodeId>, Vec<NodeId>) {
    let (mut any, mut on_board) = (Vec::new(), Vec::new());
    let Some(game) = doc.game(gi) else {
        return (any, on_board);
    };
    for node in game.nodes() {
        let plain = plain_move(&node, size);
        if plain.is_none() {
            any.push(node.id());
        }
        if plain != Some(true) {
            on_board.push(node.id());
        }
    }
    (any, on_board)
}

/// A raw value with its unescaped `]` (and a lone `\` at its end) escaped.
fn escape_stray(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 2);
    let mut escaped = false;
    for c in raw.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    if escaped {
        out.push('\\');
    }
    out
}
