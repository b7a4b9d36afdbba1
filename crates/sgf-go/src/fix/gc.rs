//! What the structure rules need to stay linear on a hostile tree: where
//! game information goes without a walk up the tree for each node, and the
//! wordings kept in `GC` written once per node instead of once per wording
//! (each write copied the whole `GC`: a game of a million misplaced values
//! was quadratic in time and in memory).

use std::collections::HashMap;

use super::*;

/// Whether node `n` holds game information.
fn holds_game_info(doc: &Document, n: NodeId) -> bool {
    doc.node(n)
        .props()
        .any(|p| p.info().is_some_and(|i| i.kind == PropKind::GameInfo))
}

/// The game-info nodes above the nodes of one game, as the structure rules
/// leave them: for each node met, (the nearest, the topmost) node at or
/// above it that holds game information.
///
/// The rules visit nodes in pre-order, so a node's ancestors are settled
/// when it comes: a node loses its game information only to a game-info
/// node above it (which stays the topmost), and only the root can gain
/// some (a wording kept in its `GC`), which [`InfoAbove::root_gained`]
/// records.
pub(super) struct InfoAbove {
    memo: HashMap<NodeId, (Option<NodeId>, Option<NodeId>)>,
    root: NodeId,
    root_gi: bool,
    /// Identifiers known to be in a game-info node that others move theirs
    /// to (it loses none while the rules run).
    present: std::collections::HashSet<(NodeId, String)>,
    /// The wording of each root property asked for (see `wording`): read
    /// once, not for each node below that repeats it.
    root_words: HashMap<String, String>,
}

impl InfoAbove {
    pub(super) fn new(root: NodeId) -> InfoAbove {
        InfoAbove {
            memo: HashMap::new(),
            root,
            root_gi: false,
            present: std::collections::HashSet::new(),
            root_words: HashMap::new(),
        }
    }

    /// (nearest, topmost) game-info node at or above `n`, whose rules ran
    /// (or that has none to run: plain moves, nodes made since). Each node
    /// is looked at once.
    ///
    /// Only `n`, the root, game-info nodes and nodes of several children
    /// are remembered: the others, the run of moves between them, hold no
    /// game information and are passed on the way up from the one node
    /// below them, remembered once passed. The memory is then that of the
    /// nodes the rules look at, not of every move of a long game (a
    /// million-move main line held 66 MB of it).
    fn at_or_above(&mut self, doc: &Document, n: NodeId) -> (Option<NodeId>, Option<NodeId>) {
        // The nodes passed that are remembered, with whether they hold
        // game information: every one that does, so the others change
        // nothing of what is found.
        let mut kept = Vec::new();
        let mut cur = Some(n);
        let mut below: Option<NodeId> = None;
        let mut base = (None, None);
        while let Some(c) = cur {
            sgf_core::work::add(1);
            if let Some(&m) = self.memo.get(&c) {
                base = m;
                break;
            }
            let node = doc.node(c);
            let parent = node.parent();
            let gi = holds_game_info(doc, c);
            let chain = below.is_some_and(|b| doc.node(b).is_only_child());
            if gi || !chain || parent.is_none() {
                kept.push((c, gi));
            }
            below = Some(c);
            cur = parent.map(|p| p.id());
        }
        for (c, gi) in kept.into_iter().rev() {
            base = (
                if gi { Some(c) } else { base.0 },
                base.1.or(gi.then_some(c)),
            );
            self.memo.insert(c, base);
        }
        base
    }

    /// The topmost game-info node strictly above `n`.
    pub(super) fn topmost_above(&mut self, doc: &Document, n: NodeId) -> Option<NodeId> {
        if self.root_gi {
            return Some(self.root);
        }
        let parent = doc.node(n).parent()?.id();
        self.at_or_above(doc, parent).1
    }

    /// Where a wording kept from node `n` goes (see `info_node_above`):
    /// the nearest game-info node at or above it, or the root.
    pub(super) fn target(&mut self, doc: &Document, n: NodeId) -> NodeId {
        if holds_game_info(doc, n) {
            return n;
        }
        let above = match doc.node(n).parent() {
            Some(p) => self.at_or_above(doc, p.id()).0,
            None => None,
        };
        above.unwrap_or(self.root)
    }

    /// Whether game-info node `target` has property `id` (looked for in
    /// it once, not for each node below it that has `id` too).
    pub(super) fn target_has(&mut self, doc: &Document, target: NodeId, id: &str) -> bool {
        let key = (target, id.to_string());
        if self.present.contains(&key) {
            return true;
        }
        let has = doc.node(target).has(id);
        if has {
            self.present.insert(key);
        }
        has
    }

    /// `target` has `id` now (moved there; or, in a node full to
    /// `MAX_PROPS_PER_NODE`, gone as the move left it: not moved again for
    /// each node below).
    pub(super) fn now_present(&mut self, target: NodeId, id: &str) {
        self.present.insert((target, id.to_string()));
    }

    /// The wording of root property `id` in the root (the rules never
    /// change a root property of the root).
    pub(super) fn root_wording(&mut self, doc: &Document, id: &str) -> &str {
        let root = self.root;
        self.root_words
            .entry(id.to_string())
            .or_insert_with(|| wording(doc, root, id))
    }

    /// The root of the game.
    pub(super) fn root(&self) -> NodeId {
        self.root
    }

    /// Whether the root is known to hold game information from a wording
    /// kept in its `GC`.
    pub(super) fn root_has_info(&self) -> bool {
        self.root_gi
    }

    /// The root holds game information now (a wording kept in its `GC`).
    pub(super) fn root_gained(&mut self) {
        self.root_gi = true;
    }

    /// The rules of `n` ran: what it holds now is settled.
    pub(super) fn settle(&mut self, doc: &Document, n: NodeId) {
        self.memo.remove(&n);
        self.at_or_above(doc, n);
    }
}

/// The `GC` of one node with the wordings kept so far, as
/// [`keep_as_written`] would have written them one by one: the same text,
/// the same lines left out as already there.
pub(super) struct GcDraft {
    text: String,
    /// The lines of `text` (as `str::lines` cuts them), counted.
    lines: HashMap<String, usize>,
    /// `text` has more than white space.
    nonblank: bool,
    /// The lines kept, in order (to keep them one at a time after all when
    /// the whole text cannot be written).
    added: Vec<String>,
}

impl GcDraft {
    pub(super) fn new(old: String) -> GcDraft {
        let mut d = GcDraft {
            nonblank: !old.trim().is_empty(),
            text: old,
            lines: HashMap::new(),
            added: Vec::new(),
        };
        let text = std::mem::take(&mut d.text);
        d.count(&text, 1);
        d.text = text;
        d
    }

    fn count(&mut self, s: &str, by: isize) {
        for l in s.lines() {
            let c = self.lines.entry(l.to_string()).or_insert(0);
            *c = c.saturating_add_signed(by);
            if *c == 0 {
                self.lines.remove(l);
            }
        }
    }

    /// The last line of `text`, as `text.lines().last()` has it, without
    /// a walk over the text.
    fn last_line(&self) -> Option<&str> {
        let t = &self.text;
        let (body, ended) = match t.strip_suffix('\n') {
            Some(b) => (b, true),
            None => (t.as_str(), false),
        };
        if body.is_empty() && !ended {
            return None;
        }
        let line = &body[body.rfind('\n').map_or(0, |i| i + 1)..];
        Some(if ended {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line
        })
    }

    /// Adds a line as `keep_as_written` does; false when it is there already.
    pub(super) fn keep(&mut self, line: String) -> bool {
        if self.lines.contains_key(&line) {
            return false;
        }
        if !self.nonblank {
            self.text = line.clone();
            self.lines.clear();
            self.count(&line, 1);
            self.nonblank = !line.trim().is_empty();
        } else {
            let sep = if self
                .last_line()
                .is_some_and(|l| l.contains(" as written: "))
            {
                "\n"
            } else {
                "\n\n"
            };
            // `trim_end`: the lines from the one it cuts into change.
            let t = self.text.trim_end().len();
            if t < self.text.len() {
                let start = self.text[..t].rfind('\n').map_or(0, |i| i + 1);
                let tail = self.text[start..].to_string();
                self.count(&tail, -1);
                self.text.truncate(t);
                let tail = self.text[start..].to_string();
                self.count(&tail, 1);
            }
            self.text.push_str(sep);
            if sep == "\n\n" {
                self.count("\n", 1);
            }
            self.text.push_str(&line);
            self.count(&line, 1);
        }
        self.added.push(line);
        true
    }

    /// Writes the `GC` of `target`: at once, or, when the whole text cannot
    /// be written, one kept line at a time as before (each that fails is
    /// left out alone).
    pub(super) fn write(self, doc: &mut Document, target: NodeId) {
        if self.added.is_empty() {
            return;
        }
        if doc
            .set_raw(target, "GC", &[text::escape(&self.text, false)])
            .is_ok()
        {
            return;
        }
        for line in self.added {
            let _ = append_line(doc, target, &line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (nearest, topmost) game-info node at or above `n`, walked up.
    fn walked(doc: &Document, n: NodeId) -> (Option<NodeId>, Option<NodeId>) {
        let path = doc.node(n).path();
        let gi: Vec<NodeId> = path
            .iter()
            .filter(|p| holds_game_info(doc, p.id()))
            .map(|p| p.id())
            .collect();
        (gi.last().copied(), gi.first().copied())
    }

    /// Asked in pre-order as the rules ask (the parent, then the node
    /// settled), the answers are those of a walk up the tree; what is
    /// remembered is about the nodes asked about, not every move passed.
    #[test]
    fn game_info_above_remembers_the_nodes_asked_about() {
        let mut sgf = String::from("(;GM[1]SZ[19]");
        for i in 0..3000 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let x = (b'a' + (i % 19) as u8) as char;
            let y = (b'a' + (i / 19 % 19) as u8) as char;
            // A game-info node, a pass, a variation now and then.
            match i % 500 {
                100 => sgf.push_str(&format!(";{c}[{x}{y}]PB[p{i}]")),
                250 => sgf.push_str(&format!(";{c}[]")),
                400 => sgf.push_str(&format!("(;{c}[]EV[e{i}])(;{c}[{x}{y}]")),
                _ => sgf.push_str(&format!(";{c}[{x}{y}]")),
            }
        }
        sgf.push_str(&")".repeat(1 + 3000 / 500));
        let doc = sgf_core::parse(sgf.as_bytes()).document;
        let game = doc.game(0).unwrap();
        let root = game.root().id();
        let asked: Vec<NodeId> = game
            .nodes()
            .filter(|n| n.simple_move().is_none() || n.parent().is_none())
            .map(|n| n.id())
            .collect();
        assert!(asked.len() < 30, "{} nodes asked about", asked.len());
        let mut above = InfoAbove::new(root);
        for &n in &asked {
            if let Some(p) = doc.node(n).parent() {
                assert_eq!(above.at_or_above(&doc, p.id()), walked(&doc, p.id()));
            }
            above.settle(&doc, n);
            assert_eq!(above.memo[&n], walked(&doc, n));
        }
        assert!(
            above.memo.len() <= 3 * asked.len(),
            "{} nodes remembered for {} asked about",
            above.memo.len(),
            asked.len()
        );
    }

    /// The draft makes the text that keeping the lines one by one makes,
    /// whatever the text it starts from.
    #[test]
    fn a_draft_keeps_what_keeping_one_by_one_keeps() {
        let starts = [
            "",
            "  \n ",
            "Good game",
            "Good game  \n\n",
            "line\r\n",
            "a\r\nb\r",
            "DT as written: x",
            "DT as written: x \n \t",
            "KM as written: 375\nfirst\n",
            "\nRE as written: B wins\n\n",
        ];
        let lines = [
            "DT as written: x",
            "RE as written: ",
            "RE as written: ",
            "KM as written: 6目半",
            "C as written: two\nlines",
            "C as written: two",
            "DT as written: x",
            "first",
            "EV as written: end\r",
            "",
        ];
        for start in starts {
            // Every order of a window of the lines.
            for from in 0..lines.len() {
                let mut expected = start.to_string();
                let mut draft = GcDraft::new(start.to_string());
                for k in 0..lines.len() {
                    let line = lines[(from + k) % lines.len()];
                    let one = with_line(&expected, line);
                    assert_eq!(
                        draft.keep(line.to_string()),
                        one.is_some(),
                        "{start:?} + {line:?}"
                    );
                    if let Some(t) = one {
                        expected = t;
                    }
                    assert_eq!(draft.text, expected, "{start:?} + {line:?}");
                }
            }
        }
    }
}
