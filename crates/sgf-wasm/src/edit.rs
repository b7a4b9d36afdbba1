//! Editing the tree: sgf-core's document edits, written back losslessly.

use wasm_bindgen::prelude::*;

use crate::{Collection, err};

/// A property identifier: upper-case letters.
fn check_ident(ident: &str) -> Result<(), JsError> {
    if ident.is_empty() || !ident.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(err(format!(
            "expected a property identifier (upper-case letters, e.g. \"C\" or \"AB\"), got {ident:?}"
        )));
    }
    Ok(())
}

impl Collection {
    /// The node whose property `ident` is set to `values`, all checked.
    fn to_set(&self, id: u32, ident: &str, values: &[String]) -> Result<sgf_core::NodeId, JsError> {
        check_ident(ident)?;
        if values.is_empty() {
            return Err(err(
                "expected at least one value (use remove() to delete the property)",
            ));
        }
        self.attached(id)
    }
}

#[wasm_bindgen]
impl Collection {
    /// Sets property `ident` of node `id` (replacing every occurrence) to
    /// text values, escaped for you ([`sgf_core::Document::set_values`]).
    ///
    /// # Errors
    /// A bad identifier, a removed node, no value (use `remove`), or text
    /// the game's charset cannot hold.
    #[wasm_bindgen(js_name = setValues)]
    pub fn set_values(&mut self, id: u32, ident: &str, values: Vec<String>) -> Result<(), JsError> {
        let n = self.to_set(id, ident, &values)?;
        let vs: Vec<&str> = values.iter().map(String::as_str).collect();
        self.doc.set_values(n, ident, &vs).map_err(err)
    }

    /// Sets property `ident` of node `id` to raw values: the text between
    /// the brackets as SGF writes it, escapes included
    /// ([`sgf_core::Document::set_raw`]).
    ///
    /// # Errors
    /// As [`Collection::set_values`], or a value that would not stay one
    /// value (an unescaped `]`).
    #[wasm_bindgen(js_name = setRaw)]
    pub fn set_raw(&mut self, id: u32, ident: &str, raws: Vec<String>) -> Result<(), JsError> {
        let n = self.to_set(id, ident, &raws)?;
        self.doc.set_raw(n, ident, &raws).map_err(err)
    }

    /// Removes property `ident` of node `id`; whether it was there.
    ///
    /// # Errors
    /// A removed node.
    pub fn remove(&mut self, id: u32, ident: &str) -> Result<bool, JsError> {
        let n = self.attached(id)?;
        Ok(self.doc.remove_property(n, ident))
    }

    /// Adds an empty child to node `id`, last or at `index` (0 makes it
    /// the main line); returns it.
    ///
    /// # Errors
    /// A removed node or an index past the children.
    #[wasm_bindgen(js_name = addChild)]
    pub fn add_child(&mut self, id: u32, index: Option<u32>) -> Result<u32, JsError> {
        let n = self.attached(id)?;
        let count = self.doc.node(n).child_count();
        if let Some(i) = index
            && i as usize > count
        {
            return Err(err(format!(
                "expected a child index from 0 to {count}, got {i}"
            )));
        }
        let c = self
            .doc
            .insert_child(n, index.map(|i| i as usize))
            .map_err(err)?;
        Ok(c.index() as u32)
    }

    /// Removes node `id` and its subtree (a root: its game); returns the
    /// nodes removed, `id` and every node below it, so that JavaScript
    /// refuses their handles from then on.
    ///
    /// # Errors
    /// A removed node.
    #[wasm_bindgen(js_name = deleteNode)]
    pub fn delete_node(&mut self, id: u32) -> Result<Vec<u32>, JsError> {
        let n = self.attached(id)?;
        let mut gone = Vec::new();
        let mut stack = vec![self.doc.node(n)];
        while let Some(node) = stack.pop() {
            gone.push(node.id().index() as u32);
            stack.extend(node.children());
        }
        self.doc.remove_node(n).map_err(err)?;
        Ok(gone)
    }

    /// Makes node `id` part of the main line (it and each ancestor become
    /// first children).
    ///
    /// # Errors
    /// A removed node.
    pub fn promote(&mut self, id: u32) -> Result<(), JsError> {
        let n = self.attached(id)?;
        self.doc.promote_to_main_line(n).map_err(err)
    }

    /// Moves node `id` to `index` among its siblings (0: the main line).
    ///
    /// # Errors
    /// A removed node, a root, or an index out of range.
    #[wasm_bindgen(js_name = moveTo)]
    pub fn move_to(&mut self, id: u32, index: u32) -> Result<(), JsError> {
        let n = self.attached(id)?;
        let count = self.doc.node(n).siblings().len();
        if index as usize >= count {
            return Err(err(format!(
                "expected a sibling index from 0 to {}, got {index}",
                count.saturating_sub(1)
            )));
        }
        self.doc.move_variation(n, index as usize).map_err(err)
    }
}
