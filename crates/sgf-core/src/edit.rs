//! Editing: properties, nodes and variations. Edits keep the tree valid
//! and the lossless writer changes only what was edited.
//!
//! New text is stored in the game's charset, so a lossless write of a
//! GBK file stays GBK; text the charset cannot hold is refused with
//! [`EditError::Unrepresentable`] (the canonical writer, which is UTF-8,
//! always works).

use std::fmt;

use encoding_rs::{Encoding, UTF_8};

use crate::charset::Dbcs;
use crate::doc::{
    Document, F_DETACHED, F_SYN_PAREN, F_SYNTHETIC, GameData, Key, NONE, NodeData, NodeId,
    PropData, ValueData,
};
use crate::props::ValueType;
use crate::text;

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The text has characters the game's charset cannot encode.
    Unrepresentable {
        /// The charset.
        charset: &'static str,
    },
    /// Not a valid property identifier (one or more upper-case letters).
    BadIdentifier(String),
    /// The node is not part of the tree (removed), or the operation needs another node.
    BadNode,
    /// An index out of range.
    BadIndex,
    /// A raw value that would not stay one value when written: an
    /// unescaped `]`, or a `\` escaping the closing bracket.
    BadRaw(String),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Unrepresentable { charset } => write!(
                f,
                "the text has characters {charset} cannot encode; save in the canonical UTF-8 form instead"
            ),
            EditError::BadIdentifier(s) => write!(f, "`{s}` is not a property identifier"),
            EditError::BadNode => f.write_str("no such node in the tree"),
            EditError::BadIndex => f.write_str("index out of range"),
            EditError::BadRaw(r) => write!(
                f,
                "`{r}` is not a raw SGF value: `]` and `\\` must be escaped with `\\`"
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// Removes the occurrences of `key` after the one at `i`, in one pass (one
/// removal at a time was quadratic in a node that repeats it).
fn drop_later(ps: &mut Vec<PropData>, i: usize, key: Key) {
    let mut k = 0;
    ps.retain(|p| {
        let stays = k <= i || p.key != key;
        k += 1;
        stays
    });
}

fn valid_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase())
}

pub use crate::journal::Change;

impl Document {
    /// Starts recording a change: the edits until [`Document::end_change`]
    /// become one [`Change`] that [`Document::revert`] undoes. Nested calls
    /// continue the change already being recorded.
    pub fn begin_change(&mut self) {
        if self.journal.is_none() {
            self.journal = Some(Box::new(Change {
                uniform: self.uniform,
                edited: self.edited,
                node_len: self.node_len() as u32,
                ..Change::default()
            }));
        }
    }

    /// Ends the change being recorded (an empty one when none was).
    pub fn end_change(&mut self) -> Change {
        let Some(mut c) = self.journal.take().map(|b| *b) else {
            return Change::default();
        };
        // Nodes the edit added did not exist before: undoing detaches them.
        let gone = NodeData {
            flags: F_DETACHED | F_SYNTHETIC,
            ..NodeData::new(NONE)
        };
        for (i, d) in &mut c.nodes {
            if *i >= c.node_len {
                *d = gone;
            }
        }
        for i in c.node_len..self.node_len() as u32 {
            if c.seen.insert(i) {
                c.nodes.push((i, gone));
            }
        }
        c
    }

    /// Undoes a change; returns the change that redoes it.
    pub fn revert(&mut self, mut change: Change) -> Change {
        self.journal = None;
        for (i, d) in &mut change.nodes {
            if (*i as usize) < self.node_len() {
                std::mem::swap(self.nd_mut(*i), d);
            }
        }
        if let Some(g) = &mut change.games {
            std::mem::swap(&mut self.games, g);
        }
        std::mem::swap(&mut self.uniform, &mut change.uniform);
        std::mem::swap(&mut self.edited, &mut change.edited);
        change.node_len = self.node_len() as u32;
        change
    }

    /// Records node `i` before it changes.
    pub(crate) fn touch(&mut self, i: u32) {
        if let Some(j) = &mut self.journal
            && (i as usize) < self.slots.len()
            && j.seen.insert(i)
        {
            let nd = self.nd(i);
            if let Some(j) = &mut self.journal {
                j.nodes.push((i, nd));
            }
        }
    }

    /// Records the games before they change.
    pub(crate) fn touch_games(&mut self) {
        if let Some(j) = &mut self.journal
            && j.games.is_none()
        {
            j.games = Some(self.games.clone());
        }
    }

    fn key_or_err(&mut self, ident: &str) -> Result<Key, EditError> {
        self.key_for(ident).ok_or_else(|| {
            EditError::BadIdentifier(format!("{ident} (too many distinct unknown identifiers)"))
        })
    }

    fn check_node(&self, n: NodeId) -> Result<(), EditError> {
        if (n.0 as usize) < self.node_len() && self.nd(n.0).flags & F_DETACHED == 0 {
            Ok(())
        } else {
            Err(EditError::BadNode)
        }
    }

    /// Encodes raw (already escaped) UTF-8 value content for `node`'s game.
    fn encode_raw(&self, node: NodeId, raw: &str) -> Result<Box<[u8]>, EditError> {
        let enc: &'static Encoding = if self.transcoded_from.is_some() {
            UTF_8
        } else {
            self.encoding_of(node)
        };
        if enc == UTF_8 || raw.is_ascii() {
            return Ok(raw.as_bytes().into());
        }
        let (bytes, _, had_errors) = enc.encode(raw);
        if had_errors {
            return Err(EditError::Unrepresentable {
                charset: enc.name(),
            });
        }
        let mut out = bytes.into_owned();
        // A file that escapes double-byte trail bytes needs the new text escaped the same way.
        if let Some(d) = Dbcs::of(enc)
            && self.dbcs_of(node).is_none()
        {
            out = escape_trail_bytes(&out, d);
        }
        Ok(out.into_boxed_slice())
    }

    /// A game without `CA` whose text is all ASCII is read as ISO-8859-1; text
    /// that charset cannot hold switches it to UTF-8 (with `CA[UTF-8]`),
    /// which changes no existing byte.
    fn upgrade_ascii_game(&mut self, node: NodeId, raws: &[String]) {
        let Some(gi) = self.game_of(node) else { return };
        let g = &self.games[gi];
        if g.source != crate::charset::CharsetSource::Default
            || g.encoding == UTF_8
            || self.transcoded_from.is_some()
        {
            return;
        }
        let enc = g.encoding;
        if raws.iter().all(|r| !enc.encode(r).2) {
            return;
        }
        let root = NodeId(self.games[gi].root);
        self.touch_games();
        let g = &mut self.games[gi];
        g.encoding = UTF_8;
        g.display = UTF_8;
        g.source = crate::charset::CharsetSource::Declared;
        self.refresh_uniform();
        let _ = self.set_raw(root, "CA", &["UTF-8".to_string()]);
    }

    /// Re-encodes game `game` as UTF-8 and declares `CA[UTF-8]`, for text
    /// its charset cannot hold (Big5 reads HKSCS characters it cannot
    /// write back). Text is written as the canonical writer writes it, so
    /// the canonical form of the document does not change.
    ///
    /// Returns `false`, changing nothing, when the game is UTF-8 already or
    /// the file was transcoded (UTF-16). Bytes the charset cannot decode
    /// become U+FFFD, as in the canonical form, when `lossy`; otherwise a
    /// game that holds such bytes is left as it is (`false`).
    ///
    /// ```
    /// let mut doc = sgf_core::parse(b"(;CA[GBK]C[\xba\xda];B[pd])").document;
    /// assert!(doc.transcode_game_to_utf8(0, false));
    /// let root = doc.game(0).unwrap().root();
    /// assert_eq!(root.text("CA").unwrap(), "UTF-8");
    /// assert_eq!(root.text("C").unwrap(), "黑");
    /// assert!(sgf_core::to_lossless_bytes(&doc).ends_with("C[黑];B[pd])".as_bytes()));
    /// ```
    pub fn transcode_game_to_utf8(&mut self, game: usize, lossy: bool) -> bool {
        let Some(g) = self.games.get(game) else {
            return false;
        };
        let root = NodeId(g.root);
        let enc = self.encoding_of(root);
        if enc == UTF_8 || self.transcoded_from.is_some() {
            return false;
        }
        let dbcs = self.dbcs_of(root);
        let Some(ids) = self
            .game(game)
            .map(|g| g.nodes().map(|n| n.id()).collect::<Vec<_>>())
        else {
            return false;
        };
        // Every new value first: nothing changes when one cannot be decoded.
        // Per node: (property index, its values re-encoded).
        type NewValues = Vec<(usize, Vec<Box<[u8]>>)>;
        let mut rewrites: Vec<(NodeId, NewValues)> = Vec::new();
        for id in ids {
            let nd = self.nd(id.0);
            let mut props = Vec::new();
            for (j, p) in self.props_of(&nd).iter().enumerate() {
                let vals = self.values_of(p);
                // ASCII reads the same in UTF-8 — but not in a charset that
                // is no ASCII superset: ISO-2022-JP's 7-bit escapes
                // (`\x1b$B$O`) are text to decode.
                if enc.is_ascii_compatible() && vals.iter().all(|v| self.raw_value(v).is_ascii()) {
                    continue;
                }
                let vt = Document::value_type_of(self.key_ident(p.key));
                let mut new = Vec::with_capacity(vals.len());
                for v in vals.iter() {
                    let raw = self.raw_value(v);
                    if !lossy
                        && enc
                            .decode_without_bom_handling_and_without_replacement(&text::unescape(
                                raw, dbcs,
                            ))
                            .is_none()
                    {
                        return false;
                    }
                    let mut out = Vec::with_capacity(raw.len() + raw.len() / 2);
                    crate::text::encode_value(&mut out, vt, raw, enc, dbcs);
                    new.push(out.into_boxed_slice());
                }
                props.push((j, new));
            }
            if !props.is_empty() {
                rewrites.push((id, props));
            }
        }
        for (id, props) in rewrites {
            let mut starts = Vec::with_capacity(props.len());
            for (j, new) in props {
                let vstart = self.values.len() as u32;
                let n = new.len() as u32;
                for b in new {
                    self.owned.push(b);
                    self.values.push(ValueData::owned(self.owned.len() - 1));
                }
                starts.push((j, vstart, n));
            }
            self.rewrite_props(id, |ps| {
                for (j, vstart, n) in starts {
                    ps[j].vstart = vstart;
                    ps[j].vlen = n;
                }
            });
        }
        self.touch_games();
        let g = &mut self.games[game];
        g.encoding = UTF_8;
        g.display = UTF_8;
        g.source = crate::charset::CharsetSource::Declared;
        g.dbcs = None;
        self.refresh_uniform();
        let _ = self.set_raw(root, "CA", &["UTF-8".to_string()]);
        true
    }

    /// What an edit does with text its game's charset cannot hold (Big5
    /// reads HKSCS characters it cannot write; a value may hold U+FFFD for
    /// bytes that were not text): refuse it with
    /// [`EditError::Unrepresentable`] (`None`, the default), or turn the
    /// game to UTF-8 first ([`Document::transcode_game_to_utf8`] with
    /// `Some(lossy)`). Repairs headed for the canonical UTF-8 form
    /// (`qipu fmt`, `check --fix`) set `Some(true)`: that form is UTF-8
    /// anyway.
    ///
    /// ```
    /// let mut doc = sgf_core::parse(b"(;CA[Big5]C[x];B[pd])").document;
    /// let root = doc.game(0).unwrap().root().id();
    /// assert!(doc.set_text(root, "C", "bytes \u{FFFD} lost").is_err());
    /// doc.set_utf8_fallback(Some(true));
    /// doc.set_text(root, "C", "bytes \u{FFFD} lost").unwrap();
    /// assert_eq!(doc.game(0).unwrap().charset(), "UTF-8");
    /// ```
    pub fn set_utf8_fallback(&mut self, fallback: Option<bool>) {
        self.utf8_fallback = fallback;
    }

    /// See [`Document::set_utf8_fallback`].
    pub fn utf8_fallback(&self) -> Option<bool> {
        self.utf8_fallback
    }

    /// Whether every game decodes the same way, after a game's charset changed.
    fn refresh_uniform(&mut self) {
        let first = self.games[0].encoding;
        self.uniform = self
            .games
            .iter()
            .all(|g| g.encoding == first && g.dbcs.is_none())
            .then_some(first);
    }

    fn push_owned_values(
        &mut self,
        node: NodeId,
        raws: &[String],
    ) -> Result<(u32, u32), EditError> {
        if let Some(bad) = raws.iter().find(|r| !raw_is_closed(r.as_bytes())) {
            return Err(EditError::BadRaw(bad.clone()));
        }
        self.upgrade_ascii_game(node, raws);
        let encode = |d: &Document| {
            raws.iter()
                .map(|r| d.encode_raw(node, r))
                .collect::<Result<Vec<Box<[u8]>>, _>>()
        };
        let mut encoded = encode(self);
        if let (Err(EditError::Unrepresentable { .. }), Some(lossy)) =
            (&encoded, self.utf8_fallback)
            && let Some(g) = self.game_of(node)
            && self.transcode_game_to_utf8(g, lossy)
        {
            encoded = encode(self);
        }
        let encoded = encoded?;
        let vstart = self.values.len() as u32;
        for e in encoded {
            self.owned.push(e);
            self.values.push(ValueData::owned(self.owned.len() - 1));
        }
        Ok((vstart, raws.len() as u32))
    }

    /// A copy of a node's property records, the node given its own first.
    fn owned_props(&mut self, node: u32) -> Vec<PropData> {
        let nd = *self.own_props(node);
        self.props[nd.pstart as usize..nd.pstart as usize + nd.plen as usize].to_vec()
    }

    fn rewrite_props(&mut self, node: NodeId, f: impl FnOnce(&mut Vec<PropData>)) {
        let nd = self.nd(node.0);
        let _ = nd;
        let mut ps: Vec<PropData> = self.owned_props(node.0);
        f(&mut ps);
        let start = self.props.len() as u32;
        let len = ps.len().min(crate::doc::MAX_PROPS_PER_NODE as usize) as u16;
        self.props.extend(ps);
        self.touch(node.0);
        let nd = self.nd_mut(node.0);
        nd.pstart = start;
        nd.plen = len;
        self.edited = true;
    }

    /// Sets property `ident` of `node` to the given raw values (SGF value
    /// content, escapes included), replacing every occurrence. The property
    /// keeps the position of its first occurrence; a new one goes last.
    ///
    /// # Errors
    /// A bad identifier or node, or text the charset cannot hold.
    pub fn set_raw(&mut self, node: NodeId, ident: &str, raws: &[String]) -> Result<(), EditError> {
        self.check_node(node)?;
        if !valid_ident(ident) {
            return Err(EditError::BadIdentifier(ident.into()));
        }
        let key = self.key_or_err(ident)?;
        let (vstart, vlen) = self.push_owned_values(node, raws)?;
        self.rewrite_props(node, |ps| {
            let new = PropData {
                key,
                ident: NONE,
                ident_len: 0,
                vstart,
                vlen,
            };
            match ps.iter().position(|p| p.key == key) {
                Some(i) => {
                    // Keep the source identifier (and its leading white space).
                    let keep = ps[i];
                    ps[i] = PropData {
                        ident: keep.ident,
                        ident_len: keep.ident_len,
                        ..new
                    };
                    drop_later(ps, i, key);
                }
                None => ps.push(new),
            }
        });
        Ok(())
    }

    /// Replaces property `from` of `node` by `to` with the given raw values,
    /// where `from` first stood (a dialect's `KO[黒6目半]` becomes `KM[6.5]`
    /// in its place). Other occurrences of `from` and `to` are removed.
    /// When `node` has no `from`, this is [`Document::set_raw`].
    ///
    /// # Errors
    /// See [`Document::set_raw`].
    pub fn replace_property(
        &mut self,
        node: NodeId,
        from: &str,
        to: &str,
        raws: &[String],
    ) -> Result<(), EditError> {
        let Some(old) = self.property_to_replace(node, from, to)? else {
            return self.set_raw(node, to, raws);
        };
        let key = self.key_or_err(to)?;
        let (vstart, vlen) = self.push_owned_values(node, raws)?;
        self.put_in_place_of(node, old, key, Some((vstart, vlen)));
        Ok(())
    }

    /// The key of `from` in `node`, when it has one, checking `to` and the node.
    fn property_to_replace(
        &self,
        node: NodeId,
        from: &str,
        to: &str,
    ) -> Result<Option<Key>, EditError> {
        self.check_node(node)?;
        if !valid_ident(to) {
            return Err(EditError::BadIdentifier(to.into()));
        }
        let has = |k: Key| self.node(node).props().any(|p| self.pd(p.id().0).key == k);
        Ok(self.find_key(from).filter(|&k| has(k)))
    }

    /// Puts property `key` where `old` first stands in `node`, with new
    /// values (`Some((start, len))`) or those of `old`; every other
    /// occurrence of `old` and `key` goes.
    fn put_in_place_of(&mut self, node: NodeId, old: Key, key: Key, values: Option<(u32, u32)>) {
        self.rewrite_props(node, |ps| {
            let at = ps.iter().position(|p| p.key == old).expect("present");
            let mut out = Vec::with_capacity(ps.len());
            for (i, p) in ps.drain(..).enumerate() {
                if i == at {
                    let (vstart, vlen) = values.unwrap_or((p.vstart, p.vlen));
                    out.push(PropData {
                        key,
                        ident: NONE,
                        ident_len: 0,
                        vstart,
                        vlen,
                    });
                } else if p.key != old && p.key != key {
                    out.push(p);
                }
            }
            *ps = out;
        });
    }

    /// Renames property `from` of `node` to `to` where `from` first stood,
    /// its values kept byte for byte (no re-encoding, so text that the
    /// charset could not take back survives); other occurrences of `from`
    /// and `to` are removed. Returns false when `node` has no `from`.
    ///
    /// # Errors
    /// A bad identifier or node.
    pub fn rename_property(
        &mut self,
        node: NodeId,
        from: &str,
        to: &str,
    ) -> Result<bool, EditError> {
        let Some(old) = self.property_to_replace(node, from, to)? else {
            return Ok(false);
        };
        let key = self.key_or_err(to)?;
        if key == old {
            return Ok(true);
        }
        self.put_in_place_of(node, old, key, None);
        Ok(true)
    }

    /// Sets a property to one text value (escaped for you). For composed
    /// types (`LB`, `AP`, `FG`) pass the parts to [`Document::set_composed`].
    ///
    /// # Errors
    /// See [`Document::set_raw`].
    pub fn set_text(&mut self, node: NodeId, ident: &str, text: &str) -> Result<(), EditError> {
        self.set_raw(node, ident, &[text::escape(text, false)])
    }

    /// Sets a property to the given simple values (escaped for you).
    ///
    /// # Errors
    /// See [`Document::set_raw`].
    pub fn set_values(
        &mut self,
        node: NodeId,
        ident: &str,
        values: &[&str],
    ) -> Result<(), EditError> {
        let raws: Vec<String> = values.iter().map(|v| text::escape(v, false)).collect();
        self.set_raw(node, ident, &raws)
    }

    /// Sets a property to composed values `a:b` (each part escaped for you).
    ///
    /// # Errors
    /// See [`Document::set_raw`].
    pub fn set_composed(
        &mut self,
        node: NodeId,
        ident: &str,
        values: &[(&str, &str)],
    ) -> Result<(), EditError> {
        let raws: Vec<String> = values
            .iter()
            .map(|(a, b)| format!("{}:{}", text::escape(a, true), text::escape(b, false)))
            .collect();
        self.set_raw(node, ident, &raws)
    }

    /// Appends raw values to a property (creating it if needed); existing
    /// values keep their bytes.
    ///
    /// # Errors
    /// See [`Document::set_raw`].
    pub fn add_raw(&mut self, node: NodeId, ident: &str, raws: &[String]) -> Result<(), EditError> {
        self.check_node(node)?;
        if !valid_ident(ident) {
            return Err(EditError::BadIdentifier(ident.into()));
        }
        let key = self.key_or_err(ident)?;
        let (vstart, vlen) = self.push_owned_values(node, raws)?;
        let nd = self.nd(node.0);
        let mut vals: Vec<ValueData> = Vec::new();
        let mut exists = false;
        for p in self.props_of(&nd).iter() {
            if p.key == key {
                exists = true;
                vals.extend_from_slice(&self.values_of(p));
            }
        }
        vals.extend_from_slice(&self.values[vstart as usize..(vstart + vlen) as usize]);
        let ms = self.values.len() as u32;
        let ml = vals.len() as u32;
        self.values.extend(vals);
        self.rewrite_props(node, |ps| {
            if !exists {
                ps.push(PropData {
                    key,
                    ident: NONE,
                    ident_len: 0,
                    vstart: ms,
                    vlen: ml,
                });
                return;
            }
            let i = ps.iter().position(|p| p.key == key).expect("present");
            ps[i].vstart = ms;
            ps[i].vlen = ml;
            drop_later(ps, i, key);
        });
        Ok(())
    }

    /// Removes the values of `ident` in `node` for which `keep` is false
    /// (given the raw bytes); removes the property when none are left.
    pub fn retain_values(
        &mut self,
        node: NodeId,
        ident: &str,
        mut keep: impl FnMut(&[u8]) -> bool,
    ) {
        let Some(key) = self.find_key(ident) else {
            return;
        };
        let nd = *self.own_props(node.0);
        let mut changed = false;
        let mut newprops = Vec::new();
        for pi in nd.pstart..nd.pstart + nd.plen as u32 {
            let p = self.props[pi as usize];
            if p.key != key {
                newprops.push(p);
                continue;
            }
            let vals: Vec<ValueData> = self.values[p.vstart as usize..(p.vstart + p.vlen) as usize]
                .iter()
                .filter(|v| keep(self.raw_value(v)))
                .cloned()
                .collect();
            if vals.len() as u32 != p.vlen {
                changed = true;
            }
            if !vals.is_empty() {
                let vstart = self.values.len() as u32;
                let vlen = vals.len() as u32;
                self.values.extend(vals);
                newprops.push(PropData { vstart, vlen, ..p });
            }
        }
        if changed {
            self.rewrite_props(node, |ps| *ps = newprops);
        }
    }

    /// Removes every occurrence of `ident` from `node`. Returns whether anything was removed.
    pub fn remove_property(&mut self, node: NodeId, ident: &str) -> bool {
        let Some(key) = self.find_key(ident) else {
            return false;
        };
        if !self.node(node).props().any(|p| p.ident() == ident) {
            return false;
        }
        self.rewrite_props(node, |ps| ps.retain(|p| p.key != key));
        true
    }

    /// Moves the property occurrences of `ident` from `from` to the end of `to`,
    /// keeping their bytes (used to split nodes).
    pub fn move_property(&mut self, from: NodeId, to: NodeId, ident: &str) -> bool {
        let Some(key) = self.find_key(ident) else {
            return false;
        };
        // Moved records must be the arena's own (not read back from `from`'s place).
        self.own_props(from.0);
        let moved: Vec<PropData> = self
            .node(from)
            .props()
            .map(|p| self.pd(p.id().0))
            .filter(|p| p.key == key)
            .collect();
        if moved.is_empty() {
            return false;
        }
        self.rewrite_props(from, |ps| ps.retain(|p| p.key != key));
        self.rewrite_props(to, |ps| ps.extend(moved));
        true
    }

    /// [`Document::move_property`] for each of `idents` in turn, in one
    /// rewrite of each node's list: `to` gets the occurrences of the first
    /// identifier, then those of the second… Returns how many moved.
    pub fn move_properties(&mut self, from: NodeId, to: NodeId, idents: &[&str]) -> usize {
        // The place of each key in `idents` (its first).
        let mut order: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
        for (i, ident) in idents.iter().enumerate() {
            if let Some(key) = self.find_key(ident) {
                order.entry(key).or_insert(i);
            }
        }
        let mut moved: Vec<Vec<PropData>> = vec![Vec::new(); idents.len()];
        let mut count = 0;
        self.own_props(from.0);
        for p in self.node(from).props() {
            let data = self.pd(p.id().0);
            if let Some(&i) = order.get(&data.key) {
                moved[i].push(data);
                count += 1;
            }
        }
        if count == 0 {
            return 0;
        }
        self.rewrite_props(from, |ps| ps.retain(|p| !order.contains_key(&p.key)));
        self.rewrite_props(to, |ps| ps.extend(moved.into_iter().flatten()));
        count
    }

    /// Re-encodes raw bytes of `node`'s game as UTF-8 (escapes kept).
    pub(crate) fn transcode_raw(&self, raw: &[u8], node: NodeId) -> Vec<u8> {
        let enc = self.encoding_of(node);
        if enc == UTF_8 {
            return raw.to_vec();
        }
        crate::charset::decode_bytes(raw, enc)
            .into_owned()
            .into_bytes()
    }

    /// Adds an empty child to `parent` at `index` (`None`: last). Returns it.
    ///
    /// # Errors
    /// A removed node or an index out of range.
    pub fn insert_child(
        &mut self,
        parent: NodeId,
        index: Option<usize>,
    ) -> Result<NodeId, EditError> {
        self.check_node(parent)?;
        let mut nd = NodeData::new(parent.0);
        nd.flags = F_SYNTHETIC;
        nd.pstart = self.props.len() as u32;
        self.freeze_last();
        let id = self.push_node(nd);
        self.link_child(parent.0, id, index)?;
        self.edited = true;
        Ok(NodeId(id))
    }

    /// Inserts an empty node between `node` and its children: the new node
    /// becomes the only child of `node` and takes over its children (used to
    /// split a node in two). Returns the new node.
    ///
    /// # Errors
    /// A removed node.
    pub fn split_below(&mut self, node: NodeId) -> Result<NodeId, EditError> {
        self.check_node(node)?;
        let kids = self.children_vec(node.0);
        let mut nd = NodeData::new(node.0);
        nd.flags = F_SYNTHETIC;
        nd.pstart = self.props.len() as u32;
        self.freeze_last();
        let id = self.push_node(nd);
        self.set_children(id, &kids);
        self.set_children(node.0, &[id]);
        self.edited = true;
        Ok(NodeId(id))
    }

    /// Adds an empty node as the last child of `parent`.
    ///
    /// # Errors
    /// A removed node.
    pub fn add_child(&mut self, parent: NodeId) -> Result<NodeId, EditError> {
        self.insert_child(parent, None)
    }

    fn children_vec(&self, parent: u32) -> Vec<u32> {
        let mut v = Vec::new();
        let mut c = self.nd(parent).first_child;
        while c != NONE {
            v.push(c);
            c = self.nd(c).next_sibling;
        }
        v
    }

    fn set_children(&mut self, parent: u32, kids: &[u32]) {
        self.touch(parent);
        for &k in kids {
            self.touch(k);
        }
        let p = self.nd_mut(parent);
        p.first_child = kids.first().copied().unwrap_or(NONE);
        for (i, &k) in kids.iter().enumerate() {
            let n = self.nd_mut(k);
            n.parent = parent;
            n.next_sibling = kids.get(i + 1).copied().unwrap_or(NONE);
        }
        if kids.len() > 1 {
            // Siblings must each stand in their own parentheses.
            for &k in kids {
                if self.parens_of(k).0 == NONE {
                    self.nd_mut(k).flags |= F_SYN_PAREN;
                }
            }
        } else if let [only] = kids
            && self.nd(*only).flags & F_SYN_PAREN != 0
        {
            // An only child needs none: the ones an edit added go again, so
            // that deleting an added variation writes the file as it was.
            self.nd_mut(*only).flags &= !F_SYN_PAREN;
        }
        self.edited = true;
    }

    fn link_child(
        &mut self,
        parent: u32,
        child: u32,
        index: Option<usize>,
    ) -> Result<(), EditError> {
        let mut kids = self.children_vec(parent);
        let at = index.unwrap_or(kids.len());
        if at > kids.len() {
            return Err(EditError::BadIndex);
        }
        kids.insert(at, child);
        self.set_children(parent, &kids);
        Ok(())
    }

    /// Removes `node` and its subtree from the tree. Removing a root removes the game.
    ///
    /// # Errors
    /// A removed node.
    pub fn remove_node(&mut self, node: NodeId) -> Result<(), EditError> {
        self.check_node(node)?;
        let parent = self.parent_of(node.0);
        if parent == NONE {
            self.touch_games();
            self.games.retain(|g| g.root != node.0);
        } else {
            let kids: Vec<u32> = self
                .children_vec(parent)
                .into_iter()
                .filter(|&k| k != node.0)
                .collect();
            self.set_children(parent, &kids);
        }
        self.touch(node.0);
        let n = self.nd_mut(node.0);
        n.flags |= F_DETACHED;
        n.parent = NONE;
        n.next_sibling = NONE;
        self.edited = true;
        Ok(())
    }

    /// Moves `node` to position `index` among its siblings (0 = main line).
    ///
    /// # Errors
    /// A root or removed node, or an index out of range.
    pub fn move_variation(&mut self, node: NodeId, index: usize) -> Result<(), EditError> {
        self.check_node(node)?;
        let parent = self.parent_of(node.0);
        if parent == NONE {
            return Err(EditError::BadNode);
        }
        let mut kids = self.children_vec(parent);
        if index >= kids.len() {
            return Err(EditError::BadIndex);
        }
        kids.retain(|&k| k != node.0);
        kids.insert(index, node.0);
        self.set_children(parent, &kids);
        Ok(())
    }

    /// Makes `node` part of the main line: it and each ancestor become first children.
    ///
    /// # Errors
    /// A removed node.
    pub fn promote_to_main_line(&mut self, node: NodeId) -> Result<(), EditError> {
        self.check_node(node)?;
        let mut n = node.0;
        while self.parent_of(n) != NONE {
            let p = self.parent_of(n);
            if self.nd(p).first_child != n {
                self.move_variation(NodeId(n), 0)?;
            }
            n = p;
        }
        Ok(())
    }

    /// Detaches `node`'s subtree and attaches it under `new_parent` at `index`
    /// (cut and paste within a document).
    ///
    /// # Errors
    /// Removed nodes, an index out of range, or a cycle (pasting under its own descendant).
    pub fn move_subtree(
        &mut self,
        node: NodeId,
        new_parent: NodeId,
        index: Option<usize>,
    ) -> Result<(), EditError> {
        self.check_node(node)?;
        self.check_node(new_parent)?;
        let mut a = new_parent.0;
        loop {
            if a == node.0 {
                return Err(EditError::BadNode);
            }
            a = self.parent_of(a);
            if a == NONE {
                break;
            }
        }
        let parent = self.parent_of(node.0);
        if parent == NONE {
            self.touch_games();
            self.games.retain(|g| g.root != node.0);
        } else {
            let kids: Vec<u32> = self
                .children_vec(parent)
                .into_iter()
                .filter(|&k| k != node.0)
                .collect();
            self.set_children(parent, &kids);
        }
        self.link_child(new_parent.0, node.0, index)
    }

    /// Copies the subtree at `src_node` of `src` under `parent` of this
    /// document (`None`: as a new game). Values are re-encoded to this
    /// document's charset. Returns the copy's root.
    ///
    /// # Errors
    /// A removed parent, or text the charset cannot hold.
    pub fn paste_subtree(
        &mut self,
        parent: Option<NodeId>,
        src: &Document,
        src_node: NodeId,
    ) -> Result<NodeId, EditError> {
        if let Some(p) = parent {
            self.check_node(p)?;
        }
        // (source node, new parent) pairs, iteratively.
        let mut first = None;
        let mut stack: Vec<(u32, Option<u32>)> = vec![(src_node.0, parent.map(|p| p.0))];
        while let Some((s, np)) = stack.pop() {
            let mut nd = NodeData::new(np.unwrap_or(NONE));
            nd.flags = F_SYNTHETIC;
            nd.pstart = self.props.len() as u32;
            self.freeze_last();
            let id = self.push_node(nd);
            match np {
                Some(p) => self.link_child(p, id, None)?,
                None => {
                    self.touch_games();
                    self.games.push(GameData {
                        root: id,
                        encoding: UTF_8,
                        display: UTF_8,
                        source: crate::charset::CharsetSource::Default,
                        start: 0,
                        dbcs: None,
                        undecodable: false,
                    });
                    self.uniform = match self.uniform {
                        Some(e) if e == UTF_8 => Some(UTF_8),
                        _ => None,
                    };
                }
            }
            first.get_or_insert(id);
            let sn = src.node(NodeId(s));
            let props: Vec<(String, Vec<String>)> = sn
                .props()
                .map(|p| {
                    let raws = p
                        .values()
                        .map(|v| {
                            String::from_utf8_lossy(&src.transcode_raw(v.raw(), NodeId(s)))
                                .into_owned()
                        })
                        .collect();
                    (p.ident().to_string(), raws)
                })
                .collect();
            for (ident, raws) in props {
                let key = self.key_or_err(&ident)?;
                let (vstart, vlen) = self.push_owned_values(NodeId(id), &raws)?;
                let start = self.props.len() as u32;
                self.props.push(PropData {
                    key,
                    ident: NONE,
                    ident_len: 0,
                    vstart,
                    vlen,
                });
                let nd = self.nd_mut(id);
                if nd.plen == 0 {
                    nd.pstart = start;
                }
                nd.plen += 1;
            }
            let kids = src.children_vec(s);
            for &k in kids.iter().rev() {
                stack.push((k, Some(id)));
            }
        }
        self.edited = true;
        Ok(NodeId(first.expect("at least one node")))
    }

    /// Appends every game of `other` to this collection.
    ///
    /// # Errors
    /// Text the charset cannot hold (only for non-UTF-8 documents).
    pub fn merge(&mut self, other: &Document) -> Result<(), EditError> {
        for g in other.games() {
            self.paste_subtree(None, other, g.root().id())?;
        }
        Ok(())
    }

    /// The value type of a property identifier (Unknown when not in the registry).
    pub fn value_type_of(ident: &str) -> ValueType {
        crate::props::info_of(ident).map_or(ValueType::Unknown, |i| i.value)
    }
}

fn escape_trail_bytes(b: &[u8], d: Dbcs) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() + 4);
    let mut i = 0;
    while i < b.len() {
        if d.is_lead(b[i]) {
            let n = d.char_len(&b[i..]);
            out.push(b[i]);
            for &t in &b[i + 1..i + n] {
                if t == b'\\' || t == b']' {
                    out.push(b'\\');
                }
                out.push(t);
            }
            i += n;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Whether raw value content stays one value between `[` and `]`: every
/// `]` escaped, and no `\` left escaping the closing bracket.
fn raw_is_closed(raw: &[u8]) -> bool {
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\\' if i + 1 == raw.len() => return false,
            b'\\' => i += 2,
            b']' => return false,
            _ => i += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {

    #[test]
    fn raw_values_must_stay_one_value() {
        let mut doc = crate::parse(b"(;C[x])").document;
        let root = doc.game(0).unwrap().root().id();
        for bad in ["a]b", "end\\", "\\\\]"] {
            assert!(
                matches!(
                    doc.set_raw(root, "C", &[bad.into()]),
                    Err(super::EditError::BadRaw(_))
                ),
                "{bad}"
            );
            assert!(doc.add_raw(root, "XX", &[bad.into()]).is_err(), "{bad}");
        }
        for good in ["a\\]b", "\\\\", "", "c\\d"] {
            doc.set_raw(root, "C", &[good.into()]).unwrap();
        }
        assert_eq!(crate::to_lossless_bytes(&doc), b"(;C[c\\d])");
    }
    use crate::{parse, to_lossless_bytes};

    #[test]
    fn one_comment_edit_is_a_one_line_diff() {
        let src = "(;GM[1]FF[4]\n;B[pd]C[old]\n;W[dd]\n;B[pp])\n";
        let mut doc = parse(src.as_bytes()).document;
        let n = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        doc.set_text(n, "C", "new ]").unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;GM[1]FF[4]\n;B[pd]C[new \\]]\n;W[dd]\n;B[pp])\n");
    }

    #[test]
    fn an_added_variation_deleted_leaves_the_bytes() {
        let src = b"(;GM[1]\n;B[pd] ;W[dd]\n;B[pp])\n";
        let mut doc = parse(src).document;
        let b = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        let v = doc.add_child(b).unwrap();
        doc.set_values(v, "W", &["qq"]).unwrap();
        doc.remove_node(v).unwrap();
        assert_eq!(to_lossless_bytes(&doc), src);
    }

    #[test]
    fn changes_undo_and_redo() {
        let src = b"(;GM[1]C[root]\n;B[pd] ;W[dd]\n;B[pp])\n(;GM[1];B[aa])";
        let mut doc = parse(src).document;
        let b = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        doc.begin_change();
        let v = doc.add_child(b).unwrap();
        doc.set_values(v, "W", &["qq"]).unwrap();
        let c1 = doc.end_change();
        assert!(!c1.is_empty());
        let after1 = to_lossless_bytes(&doc);
        doc.begin_change();
        let root = doc.game(0).unwrap().root().id();
        doc.set_text(root, "C", "new").unwrap();
        let r1 = doc.game(1).unwrap().root().id();
        doc.remove_node(r1).unwrap();
        let c2 = doc.end_change();
        let after2 = to_lossless_bytes(&doc);
        assert_eq!(doc.game_count(), 1);
        let r2 = doc.revert(c2);
        assert_eq!(to_lossless_bytes(&doc), after1);
        let r1c = doc.revert(c1);
        assert_eq!(to_lossless_bytes(&doc), src);
        assert!(!doc.is_edited());
        assert_eq!(doc.game(0).unwrap().nodes().count(), 4);
        let c1 = doc.revert(r1c);
        assert_eq!(to_lossless_bytes(&doc), after1);
        doc.revert(r2);
        assert_eq!(to_lossless_bytes(&doc), after2);
        // Undo again after redo.
        let _ = doc.revert(c1.clone());
        // (c1 was for the state before c2; reverting it alone is not used, only checked not to panic.)
        let mut d2 = parse(src).document;
        d2.begin_change();
        d2.begin_change();
        let root = d2.game(0).unwrap().root().id();
        d2.set_text(root, "C", "a").unwrap();
        let a = d2.end_change();
        d2.begin_change();
        d2.set_text(root, "C", "ab").unwrap();
        let ab = d2.end_change();
        d2.revert(a.then(ab));
        assert_eq!(to_lossless_bytes(&d2), src);
        assert!(d2.end_change().is_empty());
    }

    #[test]
    fn add_variation_adds_parentheses() {
        let mut doc = parse(b"(;GM[1];B[pd];W[dd])").document;
        let b = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        let v = doc.add_child(b).unwrap();
        doc.set_values(v, "W", &["pp"]).unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;GM[1];B[pd](;W[dd])(;W[pp]))");
        let again = parse(out.as_bytes());
        assert!(again.diagnostics.is_empty());
        // promote and remove
        doc.promote_to_main_line(v).unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;GM[1];B[pd](;W[pp])(;W[dd]))");
        let w = doc.game(0).unwrap().main_line().nth(2).unwrap().id();
        doc.remove_node(w).unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        // The parentheses the variation needed go with it.
        assert_eq!(out, "(;GM[1];B[pd];W[dd])");
    }

    #[test]
    fn gbk_edit_stays_gbk() {
        let src = b"(;CA[GB2312]PB[\xba\xda]C[x])";
        let mut doc = parse(src).document;
        let root = doc.game(0).unwrap().root().id();
        doc.set_text(root, "C", "白").unwrap();
        let out = to_lossless_bytes(&doc);
        assert_eq!(out, b"(;CA[GB2312]PB[\xba\xda]C[\xb0\xd7])");
        assert!(doc.set_text(root, "C", "😀").is_err());
    }

    #[test]
    fn ascii_file_becomes_utf8_for_new_text() {
        let mut doc = parse(b"(;GM[1];B[aa])").document;
        let n = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        doc.set_text(n, "C", "黑棋好").unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;GM[1]CA[UTF-8];B[aa]C[黑棋好])");
    }

    #[test]
    fn split_below_keeps_the_tree() {
        let mut doc = parse(b"(;GM[1];AB[aa]B[bb](;W[cc])(;W[dd]))").document;
        let n = doc.game(0).unwrap().main_line().nth(1).unwrap().id();
        let below = doc.split_below(n).unwrap();
        doc.move_property(n, below, "B");
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        let re = parse(out.as_bytes());
        assert!(re.diagnostics.is_empty(), "{out}");
        let g = re.document.game(0).unwrap();
        assert_eq!(g.nodes().count(), 5, "{out}");
        assert!(g.main_line().nth(2).unwrap().has("B"));
    }

    #[test]
    fn replace_property_keeps_the_place() {
        let mut doc = parse("(;PB[a]KO[黒6目半]PW[b]KM[0])".as_bytes()).document;
        let root = doc.game(0).unwrap().root().id();
        doc.replace_property(root, "KO", "KM", &["6.5".into()])
            .unwrap();
        let out = String::from_utf8(to_lossless_bytes(&doc)).unwrap();
        assert_eq!(out, "(;PB[a]KM[6.5]PW[b])");
        // Without the old property it sets the new one.
        doc.replace_property(root, "KO", "RE", &["B+R".into()])
            .unwrap();
        assert_eq!(doc.node(root).text("RE").unwrap(), "B+R");
    }

    #[test]
    fn merge_collections() {
        let mut a = parse(b"(;GM[1];B[aa])").document;
        let b = parse(b"(;CA[GB2312]PB[\xba\xda];W[bb])").document;
        a.merge(&b).unwrap();
        assert_eq!(a.game_count(), 2);
        assert_eq!(a.game(1).unwrap().root().text("PB").unwrap(), "黑");
        let out = String::from_utf8(to_lossless_bytes(&a)).unwrap();
        let re = parse(out.as_bytes());
        assert_eq!(re.document.game_count(), 2, "{out}");
    }
}
