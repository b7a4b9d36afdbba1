//! Walking the tree and reading properties: node indices in, node indices
//! and decoded text out.

use wasm_bindgen::prelude::*;

use crate::Collection;

/// A node index for JavaScript, -1 for none.
fn opt(n: Option<sgf_core::Node<'_>>) -> i32 {
    n.map_or(-1, |n| n.id().index() as i32)
}

/// The length of `s` in UTF-16 code units (JavaScript's string length).
fn js_len(s: &str) -> u32 {
    if s.is_ascii() {
        s.len() as u32
    } else {
        s.encode_utf16().count() as u32
    }
}

#[wasm_bindgen]
impl Collection {
    /// The nodes of game `gi` in file order (pre-order, main line first).
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = gameNodes)]
    pub fn game_nodes(&self, gi: u32) -> Result<Vec<u32>, JsError> {
        Ok(self
            .game(gi)?
            .nodes()
            .map(|n| n.id().index() as u32)
            .collect())
    }

    /// The main line of game `gi`: the root and every first child.
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = mainLine)]
    pub fn main_line(&self, gi: u32) -> Result<Vec<u32>, JsError> {
        Ok(self
            .game(gi)?
            .main_line()
            .map(|n| n.id().index() as u32)
            .collect())
    }

    /// The parent of node `id` (-1 for a root).
    ///
    /// # Errors
    /// No such node.
    pub fn parent(&self, id: u32) -> Result<i32, JsError> {
        Ok(opt(self.doc.node(self.id(id)?).parent()))
    }

    /// The first child of node `id` (-1 at the end of a line).
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = firstChild)]
    pub fn first_child(&self, id: u32) -> Result<i32, JsError> {
        Ok(opt(self.doc.node(self.id(id)?).first_child()))
    }

    /// The next sibling of node `id` (-1 for the last).
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = nextSibling)]
    pub fn next_sibling(&self, id: u32) -> Result<i32, JsError> {
        Ok(opt(self.doc.node(self.id(id)?).next_sibling()))
    }

    /// The children of node `id`, main line first.
    ///
    /// # Errors
    /// No such node.
    pub fn children(&self, id: u32) -> Result<Vec<u32>, JsError> {
        Ok(self
            .doc
            .node(self.id(id)?)
            .children()
            .map(|n| n.id().index() as u32)
            .collect())
    }

    /// The node's number: its index in file order within its game (root 0).
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = nodeNumber)]
    pub fn node_number(&self, id: u32) -> Result<u32, JsError> {
        Ok(self.doc.node(self.id(id)?).number() as u32)
    }

    /// The node's distance from its root.
    ///
    /// # Errors
    /// No such node.
    pub fn depth(&self, id: u32) -> Result<u32, JsError> {
        Ok(self.doc.node(self.id(id)?).depth() as u32)
    }

    /// The node of game `gi` whose number is `k` (-1: none).
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = nodeByNumber)]
    pub fn node_by_number(&self, gi: u32, k: u32) -> Result<i32, JsError> {
        Ok(opt(self.game(gi)?.node_by_number(k as usize)))
    }

    /// Every property of node `id`, decoded (escapes resolved, soft line
    /// breaks removed: the text `qipu dump` shows), in one string: each
    /// property's FF\[4\] identifier then its values, end to end. Their
    /// lengths (in UTF-16 code units) are written to the scratch buffer
    /// ([`crate::scratch_ptr`]): the number of properties, then for
    /// each its identifier's length, its number of values and each value's
    /// length. A node too large for the buffer writes `u32::MAX` first:
    /// [`Collection::props_lengths`] then gives the lengths.
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = nodeProps)]
    pub fn node_props(&self, id: u32) -> Result<String, JsError> {
        let (text, lens) = self.props_of(id)?;
        crate::SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            if lens.len() <= s.len() {
                s[..lens.len()].copy_from_slice(&lens);
            } else {
                s[0] = u32::MAX;
            }
        });
        Ok(text)
    }

    /// Every property of every node of game `gi`, in file order, as
    /// [`Collection::node_props`] gives a node's: one string, the node
    /// after the other. Their lengths, each node's as `node_props` writes
    /// them, come as one array from [`Collection::game_props_lengths`]
    /// (JavaScript decodes a game at once, and reads its nodes from it).
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = gameProps)]
    pub fn game_props(&mut self, gi: u32) -> Result<String, JsError> {
        let mut text = String::new();
        let mut lens = Vec::new();
        for node in self.game(gi)?.nodes() {
            props_into(&node, &mut text, &mut lens);
        }
        self.lengths = lens;
        Ok(text)
    }

    /// The lengths of the last [`Collection::game_props`].
    #[wasm_bindgen(js_name = gamePropsLengths)]
    pub fn game_props_lengths(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.lengths)
    }

    /// The lengths of [`Collection::node_props`] for node `id`, as an array.
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = propsLengths)]
    pub fn props_lengths(&self, id: u32) -> Result<Vec<u32>, JsError> {
        Ok(self.props_of(id)?.1)
    }

    /// The identifiers of node `id`, in file order (FF\[4\] form; a
    /// property repeated is listed each time).
    ///
    /// # Errors
    /// No such node.
    pub fn idents(&self, id: u32) -> Result<Vec<String>, JsError> {
        Ok(self
            .doc
            .node(self.id(id)?)
            .props()
            .map(|p| p.ident().to_string())
            .collect())
    }

    /// Whether node `id` has property `ident`.
    ///
    /// # Errors
    /// No such node.
    pub fn has(&self, id: u32, ident: &str) -> Result<bool, JsError> {
        Ok(self.doc.node(self.id(id)?).has(ident))
    }

    /// The decoded values of `ident` at node `id` (repeated properties
    /// merged); empty when absent.
    ///
    /// # Errors
    /// No such node.
    pub fn values(&self, id: u32, ident: &str) -> Result<Vec<String>, JsError> {
        self.each_value(id, ident, |v| v.decoded().into_owned())
    }

    /// The first value of `ident` at node `id` as text following its
    /// property's type (Text keeps line breaks, SimpleText makes every white
    /// space a space); `undefined` when absent.
    ///
    /// # Errors
    /// No such node.
    pub fn text(&self, id: u32, ident: &str) -> Result<Option<String>, JsError> {
        Ok(self
            .doc
            .node(self.id(id)?)
            .text(ident)
            .map(|t| t.into_owned()))
    }

    /// The values of `ident` at node `id` as written between the brackets
    /// (escapes kept, decoded to text).
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = rawValues)]
    pub fn raw_values(&self, id: u32, ident: &str) -> Result<Vec<String>, JsError> {
        self.each_value(id, ident, |v| v.raw_text().into_owned())
    }
}

impl Collection {
    /// `f` of each value of `ident` at node `id`.
    fn each_value(
        &self,
        id: u32,
        ident: &str,
        f: impl Fn(sgf_core::Value<'_>) -> String,
    ) -> Result<Vec<String>, JsError> {
        Ok(self.doc.node(self.id(id)?).values(ident).map(f).collect())
    }

    /// The text and lengths of [`Collection::node_props`].
    fn props_of(&self, id: u32) -> Result<(String, Vec<u32>), JsError> {
        let node = self.doc.node(self.id(id)?);
        let mut text = String::new();
        let mut lens = Vec::with_capacity(1 + node.props().len() * 3);
        props_into(&node, &mut text, &mut lens);
        Ok((text, lens))
    }
}

/// Appends the properties of `node` to `text` and their lengths to `lens`
/// (see [`Collection::node_props`]).
fn props_into(node: &sgf_core::Node<'_>, text: &mut String, lens: &mut Vec<u32>) {
    lens.push(node.props().len() as u32);
    for p in node.props() {
        let ident = p.ident();
        text.push_str(ident);
        lens.push(ident.len() as u32);
        lens.push(p.value_count() as u32);
        for v in p.values() {
            let d = v.decoded();
            lens.push(js_len(&d));
            text.push_str(&d);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn props_come_with_their_lengths_in_utf16_units() {
        let c = crate::Collection::read(
            "(;CA[UTF-8]C[黑\\]𝄞]AB[aa][bb])".as_bytes(),
            None,
            None,
            None,
        )
        .map_err(|_| "read")
        .unwrap()
        .expect("SGF is read by every build");
        let root = c.doc.game(0).unwrap().root().id().index() as u32;
        let (text, lens) = c.props_of(root).map_err(|_| "props").unwrap();
        assert_eq!(text, "CAUTF-8C黑]𝄞ABaabb");
        assert_eq!(lens, [3, 2, 1, 5, 1, 1, 4, 2, 2, 2, 2]);
        assert!(c.node_props(root).is_ok());
        crate::SCRATCH.with(|s| assert_eq!(&s.borrow()[..lens.len()], &lens[..]));
    }
}
