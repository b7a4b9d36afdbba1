//! One open record: the document, the cursor, undo/redo, and the JSON the
//! page shows. All Go and SGF logic is the library's; this only wires it.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};
use sgf_core::{
    Color, Diagnostic, Document, NodeId, Point, PropKind, Severity, to_canonical_bytes,
};
use sgf_go::coords::{self, BoardSize};
use sgf_go::edit::{self, node_move};
use sgf_go::{Cursor, Move, Stone};
use sgf_render::{MoveNumbers, RenderOptions};

/// The most undo steps kept.
const UNDO_LIMIT: usize = 200;

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
    order: Vec<NodeId>,
    index: HashMap<NodeId, usize>,
    tree_version: u64,
    undo: Vec<(Document, usize, NodeId)>,
    redo: Vec<(Document, usize, NodeId)>,
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
}

/// Why an operation was refused (shown to the user).
pub type OpError = String;

fn to_point(s: &str, size: BoardSize) -> Result<Point, OpError> {
    coords::parse_point(s.as_bytes(), size)
        .map(|(p, _)| p)
        .map_err(|_| format!("`{s}` is not a point of this board"))
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
        let mut diagnostics = diagnostics;
        diagnostics.extend(sgf_go::check::check(&doc));
        diagnostics.sort_by_key(|d| d.span.start);
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
            order: Vec::new(),
            index: HashMap::new(),
            tree_version: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            dirty: false,
            on_disk: None,
            input: None,
            diagnostics,
            numbers: false,
        };
        s.reindex();
        s
    }

    /// The document.
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

    /// Node numbers in file order for the current game.
    fn reindex(&mut self) {
        self.order = self
            .doc
            .game(self.game)
            .map(|g| g.nodes().map(|n| n.id()).collect())
            .unwrap_or_default();
        self.index = self
            .order
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i))
            .collect();
        self.tree_version += 1;
    }

    fn number(&self, n: NodeId) -> usize {
        self.index.get(&n).copied().unwrap_or(0)
    }

    fn goto(&mut self, n: NodeId) {
        if !self.cursor.goto(&self.doc, n) {
            self.cursor = Cursor::new(&self.doc, self.game);
            self.cursor.goto(&self.doc, n);
        }
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
    pub fn nav(&mut self, action: &str, req: &Value) -> Result<(), OpError> {
        let doc = &self.doc;
        match action {
            "next" => {
                self.cursor.next(doc);
            }
            "prev" => {
                self.cursor.up();
            }
            "first" => while self.cursor.up() {},
            "last" => self.cursor.to_end(doc),
            "forward10" => {
                for _ in 0..10 {
                    if !self.cursor.next(doc) {
                        break;
                    }
                }
            }
            "back10" => {
                for _ in 0..10 {
                    if !self.cursor.up() {
                        break;
                    }
                }
            }
            "next_variation" | "prev_variation" => {
                let node = doc.node(self.cursor.node());
                let sibs = node.siblings();
                let i = node.variation_index();
                let j = if action == "next_variation" {
                    i + 1
                } else {
                    i.wrapping_sub(1)
                };
                if let Some(s) = sibs.get(j) {
                    let id = s.id();
                    self.goto(id);
                }
            }
            "node" => {
                let k = req["node"].as_u64().ok_or("node number expected")? as usize;
                let id = *self.order.get(k).ok_or("no such node")?;
                self.goto(id);
            }
            "move" => {
                let want = req["move"].as_u64().ok_or("move number expected")? as u32;
                while self.cursor.up() {}
                while self.cursor.position().move_number < want && self.cursor.next(&self.doc) {}
            }
            "game" => {
                let g = req["game"].as_u64().ok_or("game number expected")? as usize;
                if g >= self.doc.game_count() {
                    return Err("no such game".into());
                }
                self.game = g;
                self.cursor = Cursor::new(&self.doc, g);
                self.reindex();
            }
            "stone" => {
                let p = to_point(req["point"].as_str().unwrap_or(""), self.size())?;
                self.go_to_stone(p)?;
            }
            _ => return Err(format!("unknown navigation `{action}`")),
        }
        Ok(())
    }

    /// Goes to the move that placed the stone at `p` (on the path to here).
    fn go_to_stone(&mut self, p: Point) -> Result<(), OpError> {
        let size = self.size();
        let target = self
            .cursor
            .path()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
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

    fn snapshot(&mut self) {
        self.undo
            .push((self.doc.clone(), self.game, self.cursor.node()));
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    fn restore(&mut self, doc: Document, game: usize, node: NodeId) {
        self.doc = doc;
        self.game = game.min(self.doc.game_count().saturating_sub(1));
        self.cursor = Cursor::new(&self.doc, self.game);
        self.reindex();
        let n = if self.index.contains_key(&node) {
            node
        } else {
            self.order[0]
        };
        self.goto(n);
        self.dirty = true;
    }

    /// Edits the record at the current node.
    pub fn edit(&mut self, op: &str, req: &Value) -> Result<(), OpError> {
        match op {
            "undo" => {
                let (d, g, n) = self.undo.pop().ok_or("nothing to undo")?;
                self.redo.push((
                    std::mem::replace(&mut self.doc, Document::new()),
                    self.game,
                    self.cursor.node(),
                ));
                self.restore(d, g, n);
                return Ok(());
            }
            "redo" => {
                let (d, g, n) = self.redo.pop().ok_or("nothing to redo")?;
                self.undo.push((
                    std::mem::replace(&mut self.doc, Document::new()),
                    self.game,
                    self.cursor.node(),
                ));
                self.restore(d, g, n);
                return Ok(());
            }
            _ => {}
        }
        let size = self.size();
        let here = self.cursor.node();
        let point = |req: &Value| -> Result<Point, OpError> {
            to_point(req["point"].as_str().unwrap_or(""), size)
        };
        // Navigation disguised as play: a click on a stone goes to its move.
        if op == "play"
            && let Some(s) = req["point"].as_str()
        {
            let p = to_point(s, size)?;
            if self.cursor.position().board.get(p) != Stone::Empty {
                return self.go_to_stone(p);
            }
        }
        self.snapshot();
        let result: Result<(), OpError> = (|| {
            match op {
                "play" => {
                    let mv = match req["point"].as_str() {
                        None => Move::Pass,
                        Some(s) => Move::Play(to_point(s, size)?),
                    };
                    let color = self.cursor.next_player(&self.doc);
                    edit::play(&mut self.doc, &mut self.cursor, color, mv)
                        .map_err(|e| e.to_string())?;
                }
                "setup" => {
                    let p = point(req)?;
                    let stone = match req["stone"].as_str() {
                        Some("B") => Stone::Black,
                        Some("W") => Stone::White,
                        _ => Stone::Empty,
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
                    let new = if already { None } else { Some(stone) };
                    edit::set_setup(&mut self.doc, target, size, p, new)
                        .map_err(|e| e.to_string())?;
                }
                "markup" => {
                    let kind = req["kind"].as_str().unwrap_or("");
                    if !edit::SHAPES.contains(&kind) {
                        return Err(format!("unknown markup `{kind}`"));
                    }
                    edit::toggle_markup(&mut self.doc, here, size, kind, point(req)?)
                        .map_err(|e| e.to_string())?;
                }
                "label" => {
                    let text = req["text"].as_str().filter(|t| !t.is_empty());
                    edit::set_label(&mut self.doc, here, size, point(req)?, text)
                        .map_err(|e| e.to_string())?;
                }
                "comment" => {
                    for (field, ident) in [("text", "C"), ("name", "N")] {
                        if let Some(t) = req[field].as_str() {
                            set_text_field(&mut self.doc, here, ident, t)?;
                        }
                    }
                }
                "info" => {
                    let game = self.doc.game(self.game).ok_or("no game")?;
                    let target =
                        sgf_go::info::game_info_node(&game).map_or(game.root().id(), |n| n.id());
                    let props = req["props"].as_object().ok_or("properties expected")?;
                    for (ident, v) in props {
                        let is_info = sgf_core::props::info_of(ident)
                            .is_some_and(|i| i.kind == PropKind::GameInfo);
                        if !is_info {
                            return Err(format!("`{ident}` is not a game-info property"));
                        }
                        set_text_field(&mut self.doc, target, ident, v.as_str().unwrap_or(""))?;
                    }
                }
                "delete" => {
                    let parent = self
                        .doc
                        .node(here)
                        .parent()
                        .ok_or("the root cannot be deleted")?
                        .id();
                    self.cursor.up();
                    self.doc.remove_node(here).map_err(|e| e.to_string())?;
                    self.goto(parent);
                }
                "promote" => {
                    self.doc
                        .promote_to_main_line(here)
                        .map_err(|e| e.to_string())?;
                }
                "repair" => {
                    let mut opts = sgf_formats::repair::RepairOptions::default();
                    opts.variation_level = req["variation_level"].as_bool().unwrap_or(false);
                    let changes = sgf_formats::repair::repair(&mut self.doc, &opts);
                    if changes.is_empty() {
                        return Err("nothing to repair".into());
                    }
                    self.recheck();
                }
                _ => return Err(format!("unknown edit `{op}`")),
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                self.dirty = true;
                let node = self.cursor.node();
                self.reindex();
                // The position at the node may have changed (setup, deleted stones): replay.
                self.cursor = Cursor::new(&self.doc, self.game);
                self.goto(node);
                Ok(())
            }
            Err(e) => {
                // Refused edits change nothing.
                if let Some((d, g, n)) = self.undo.pop() {
                    self.doc = d;
                    self.game = g;
                    self.cursor = Cursor::new(&self.doc, self.game);
                    self.reindex();
                    self.goto(n);
                }
                Err(e)
            }
        }
    }

    /// What the repair would change (the library's pipeline, run on a
    /// copy): `[{code, message, line, column, before, after}]`, lines and
    /// columns in the file as opened.
    pub fn repair_preview(&self, variation_level: bool) -> Value {
        let mut copy = self.doc.clone();
        let mut opts = sgf_formats::repair::RepairOptions::default();
        opts.variation_level = variation_level;
        let changes = sgf_formats::repair::repair(&mut copy, &opts);
        Value::Array(
            changes
                .iter()
                .map(|c| {
                    let (line, column) = self.doc.line_col(c.span.start);
                    json!({
                        "code": c.code.as_str(),
                        "message": c.message,
                        "line": line,
                        "column": column,
                        "before": c.before,
                        "after": c.after,
                    })
                })
                .collect(),
        )
    }

    /// The diagnostics of the record as Save would write it now.
    fn recheck(&mut self) {
        let p = sgf_core::parse(&sgf_core::to_lossless_bytes(&self.doc));
        let mut d = p.diagnostics;
        d.extend(sgf_go::check::check(&p.document));
        d.sort_by_key(|x| x.span.start);
        self.diagnostics = d;
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
        // Verified: next to damage in the file an edit could make it read
        // differently; then the user is asked to save the canonical form.
        sgf_core::to_lossless_bytes_checked(&self.doc).map_err(|e| format!("{e} (\"Save as\")"))
    }

    /// The canonical FF\[4\] UTF-8 form.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        to_canonical_bytes(&self.doc, &Default::default())
    }

    /// After "save as": the session continues on the canonical file.
    pub fn reopen_as(&mut self, bytes: &[u8], path: PathBuf, rel: String) {
        let node_number = self.number(self.cursor.node());
        let p = sgf_core::parse(bytes);
        self.diagnostics = p.diagnostics;
        self.diagnostics.extend(sgf_go::check::check(&p.document));
        self.diagnostics.sort_by_key(|d| d.span.start);
        self.doc = p.document;
        self.format = "SGF".into();
        self.charset = "UTF-8".into();
        self.name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.path = Some(path);
        self.rel = Some(rel);
        self.cursor = Cursor::new(
            &self.doc,
            self.game.min(self.doc.game_count().saturating_sub(1)),
        );
        self.reindex();
        if let Some(&n) = self.order.get(node_number) {
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
            ..RenderOptions::default()
        }
    }

    /// The whole state as the page wants it; the tree only when the page's
    /// copy (`tree_version`) is stale.
    pub fn state(&self, tree_version: Option<u64>) -> Value {
        let doc = &self.doc;
        let size = self.size();
        let here = self.cursor.node();
        let node = doc.node(here);
        let pos = self.cursor.position();
        let mv = node_move(doc, here, size);
        let opts = self.render_options(self.numbers);
        let board = sgf_render::render_svg(doc, here, &opts).unwrap_or_default();
        let mut annotations = Vec::new();
        for (id, text, tone) in [
            ("GB", "Good for Black", "good"),
            ("GW", "Good for White", "good"),
            ("DM", "Even position", ""),
            ("UC", "Unclear position", ""),
            ("HO", "Hotspot", ""),
            ("TE", "Good move (tesuji)", "good"),
            ("BM", "Bad move", "bad"),
            ("DO", "Doubtful move", "bad"),
            ("IT", "Interesting move", ""),
        ] {
            if let Some(v) = node.value(id) {
                let emph = if v.double() == Some(2) { " (very)" } else { "" };
                annotations
                    .push(json!({"code": id, "text": format!("{text}{emph}"), "tone": tone}));
            }
        }
        if let Some(v) = node.value("V") {
            annotations.push(
                json!({"code": "V", "text": format!("Value {}", v.as_simple_text()), "tone": ""}),
            );
        }
        // The alternatives at this point: the siblings, as the variation list
        // shows them; at most 40 around the current one (a node may have thousands).
        let siblings = node.siblings();
        let at = node.variation_index();
        let from = at.saturating_sub(20).min(siblings.len().saturating_sub(40));
        let alternatives: Vec<Value> = siblings
            .iter()
            .enumerate()
            .skip(from)
            .take(40)
            .map(|(i, s)| {
                let label = match node_move(doc, s.id(), size) {
                    Some((c, Move::Play(p))) => format!("{} {}", c.as_str(), coords::human(p, size)),
                    Some((c, Move::Pass)) => format!("{} pass", c.as_str()),
                    None => s.text("N").map(|t| t.into_owned()).unwrap_or_else(|| "(no move)".into()),
                };
                json!({"number": self.number(s.id()), "label": label, "current": s.id() == here, "index": i})
            })
            .collect();
        let info = doc.game(self.game).map(|g| {
            let mut m = serde_json::Map::new();
            if let Some(n) = sgf_go::info::game_info_node(&g) {
                for p in n.props() {
                    if p.info().is_some_and(|i| i.kind == PropKind::GameInfo) {
                        m.insert(
                            p.ident().to_string(),
                            json!(p.first().map(|v| v.text().into_owned()).unwrap_or_default()),
                        );
                    }
                }
            }
            Value::Object(m)
        });
        let mut s = json!({
            "session": self.id,
            "name": self.name,
            "path": self.rel,
            "format": self.format,
            "charset": self.charset,
            "dirty": self.dirty,
            "can_undo": !self.undo.is_empty(),
            "can_redo": !self.redo.is_empty(),
            "game": self.game,
            "games": doc.game_count(),
            "info": info,
            "board": board,
            "node": {
                "number": self.number(here),
                "move_number": pos.move_number,
                "color": mv.map(|(c, _)| c.as_str()),
                "move": mv.map(|(_, m)| match m { Move::Pass => "pass".to_string(), Move::Play(p) => coords::human(p, size) }),
                "to_play": self.cursor.next_player(doc).as_str(),
                "captures": {"B": pos.captures[0], "W": pos.captures[1]},
                "comment": node.text("C").map(|t| t.into_owned()),
                "name": node.text("N").map(|t| t.into_owned()),
                "annotations": annotations,
                "alternatives": alternatives,
                "variation": at,
                "variations": siblings.len(),
                "depth": self.cursor.depth(),
                "children": node.child_count(),
            },
        });
        if tree_version != Some(self.tree_version) {
            s["tree"] = self.tree_json();
        }
        s
    }

    /// The tree layout: each node `[column, row, kind, parent number, flags]`.
    /// The main line is row 0; every other variation takes the next free row.
    fn tree_json(&self) -> Value {
        let doc = &self.doc;
        let size = self.size();
        let mut rows: Vec<(usize, usize)> = vec![(0, 0); self.order.len()];
        let mut next_row = 0usize;
        // Pre-order already: the first child continues its parent's row.
        for (i, &n) in self.order.iter().enumerate() {
            let node = doc.node(n);
            let (col, row) = match node.parent() {
                None => (0, 0),
                Some(p) => {
                    let (pc, pr) = rows[self.number(p.id())];
                    if node.variation_index() == 0 {
                        (pc + 1, pr)
                    } else {
                        next_row += 1;
                        (pc + 1, next_row)
                    }
                }
            };
            rows[i] = (col, row);
        }
        let nodes: Vec<Value> = self
            .order
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let node = doc.node(n);
                let kind = match node_move(doc, n, size) {
                    Some((Color::Black, _)) => 1,
                    Some((Color::White, _)) => 2,
                    None if node.has("AB") || node.has("AW") || node.has("AE") => 3,
                    None => 0,
                };
                let parent = node.parent().map_or(-1, |p| self.number(p.id()) as i64);
                let flags = i32::from(node.has("C")) | (i32::from(node.has("N")) << 1);
                json!([rows[i].0, rows[i].1, kind, parent, flags])
            })
            .collect();
        json!({"version": self.tree_version, "nodes": nodes})
    }

    /// The diagnostics of the file, for the page.
    pub fn diagnostics_json(&self) -> Value {
        let sources = sgf_report::Sources::new(&self.doc, self.input.as_ref());
        let list: Vec<Value> = self
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .take(500)
            .map(|d| sgf_report::to_json(&sources, d))
            .collect();
        Value::Array(list)
    }
}
