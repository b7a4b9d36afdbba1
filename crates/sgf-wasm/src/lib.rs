//! # sgf-wasm: Qipu for JavaScript
//!
//! The library compiled to WebAssembly with wasm-bindgen, for the npm
//! package in `npm/` (whose wrapper, `npm/qipu.js`, is the public API:
//! games, nodes and properties as light handles over this crate's
//! [`Collection`]). A parsed collection stays here, in WebAssembly
//! memory; JavaScript holds node indices ([`sgf_core::NodeId::index`]) and
//! asks for what it reads, decoded on access, so that the tree is never
//! copied out whole.
//!
//! Nothing is done here that the libraries do not do: reading is
//! [`sgf_formats`]' (every format and charset), writing sgf-core's,
//! checking and repairing [`sgf_report::check`]'s and
//! [`sgf_formats::repair`]'s, game information
//! [`sgf_formats::summary::GameSummary`], positions and checked play
//! [`sgf_go`]'s, diagrams [`sgf_render`]'s. This crate only wires them to
//! JavaScript's types.
//!
//! Two modules are built from it (`npm/build.mjs`): the core one (without
//! the feature `full`: reading SGF in every charset and the tree, read
//! only), loaded by every page, and the full one (everything: other
//! formats, editing, checking, repairing, game information, positions,
//! diagrams), loaded when first needed. A collection read by the core
//! module moves to the full one when it needs it: `npm/qipu.js` reads its
//! input there again ([`Collection::input_bytes`]), which gives every node
//! the same id.

use std::path::Path;

use sgf_core::{Diagnostic, Document, NodeId, ParseOptions, Parsed};
use wasm_bindgen::prelude::*;

#[cfg(feature = "full")]
mod edit;
mod go;
mod nodes;
#[cfg(feature = "full")]
mod report;

#[cfg(feature = "full")]
pub use go::Position;

/// Entries of the scratch buffer, where [`Collection::node_props`] writes
/// the lengths of what it returns (see there).
const SCRATCH_LEN: usize = 4096;

thread_local! {
    /// The scratch buffer: allocated once, never moved, read by JavaScript
    /// in place (see [`scratch_ptr`]).
    static SCRATCH: std::cell::RefCell<Box<[u32]>> =
        std::cell::RefCell::new(vec![0; SCRATCH_LEN].into_boxed_slice());
}

/// Where the scratch buffer of [`Collection::node_props`] lies in
/// WebAssembly memory: a byte offset, the same for the life of the module;
/// it holds 4096 `u32`s.
#[wasm_bindgen(js_name = scratchPtr)]
pub fn scratch_ptr() -> u32 {
    SCRATCH.with(|s| s.borrow().as_ptr() as usize as u32)
}

/// A parsed collection: the document and what reading it said. Handles
/// (games, nodes) are indices into it.
#[wasm_bindgen]
pub struct Collection {
    doc: Document,
    /// The diagnostics of reading.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    diagnostics: Vec<Diagnostic>,
    /// The format read (`SGF`, `GIB`, `NGF`, `UGF`, `WGS`).
    format: &'static str,
    /// For a record converted from another format: its input and charset,
    /// which the reading's diagnostics point into.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    original: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
    /// For a converted record: its file's charset (see
    /// [`sgf_formats::game_charset`]).
    converted_from: Option<&'static str>,
    /// The name it was read under (its extension breaks ties between
    /// formats, as a path's does for `qipu check`).
    name: String,
    /// The lengths of the last [`Collection::game_props`].
    lengths: Vec<u32>,
    /// A repair changed it ([`Collection::fix_json`]): the document is the
    /// repaired file read again, itself unedited, but the collection is
    /// not what was read.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    repaired: bool,
}

/// An error for JavaScript: a `TypeError`-like message.
fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

/// Reads `bytes` as every front end reads a file: the format sniffed from
/// the content (the name's extension breaks ties) or forced, the charset
/// from `CA` or detected, or forced (SGF only).
///
/// Undefined from the core module when the format is not SGF: the full
/// module reads it.
///
/// # Errors
/// An unknown format or charset name, bytes that are not a game record
/// (empty, an archive, a binary file: see `sgf_formats::judge`), or a file
/// the format cannot read at all.
#[wasm_bindgen(js_name = parseBytes)]
pub fn parse_bytes(
    bytes: &[u8],
    charset: Option<String>,
    format: Option<String>,
    name: Option<String>,
) -> Result<Option<Collection>, JsError> {
    // A file's bytes: what is not a game record (an archive, a binary
    // file) is refused, as every front end refuses it.
    let why = sgf_formats::builtin()
        .reader_for(
            bytes,
            name.as_deref().map(Path::new),
            format
                .as_deref()
                .filter(|f| !f.eq_ignore_ascii_case("auto")),
        )
        .err()
        .and_then(|e| e.not_record);
    if let Some(why) = why {
        return Err(err(why.sentence(name.as_deref().unwrap_or("the bytes"))));
    }
    Collection::read(bytes, charset.as_deref(), format.as_deref(), name)
}

/// Reads text already decoded (a JavaScript string): its UTF-8 bytes, with
/// `CA` ignored for SGF; another format is sniffed as for bytes.
///
/// # Errors
/// See [`parse_bytes`].
#[wasm_bindgen(js_name = parseText)]
pub fn parse_text(
    text: &str,
    format: Option<String>,
    name: Option<String>,
) -> Result<Option<Collection>, JsError> {
    let bytes = text.as_bytes();
    let reader = reader(bytes, format.as_deref(), name.as_deref())?;
    if reader.name() == "SGF" {
        // The text is Unicode already: whatever `CA` says, read it as UTF-8.
        return Collection::read(bytes, Some("UTF-8"), Some("SGF"), name);
    }
    Collection::read(bytes, None, format.as_deref(), name)
}

/// A new collection of one empty game (`(;)`), to build a record from scratch.
#[wasm_bindgen(js_name = newCollection)]
pub fn new_collection() -> Collection {
    Collection::new(
        Parsed {
            document: Document::new(),
            diagnostics: Vec::new(),
        },
        "SGF",
        None,
        None,
    )
}

/// The format that reads `bytes`: `format` by name, or sniffed.
fn reader(
    bytes: &[u8],
    format: Option<&str>,
    name: Option<&str>,
) -> Result<&'static dyn sgf_formats::Format, JsError> {
    let registry = sgf_formats::builtin();
    match format {
        None => Ok(registry.detect(bytes, name.map(Path::new))),
        Some(f) if f.eq_ignore_ascii_case("auto") => {
            Ok(registry.detect(bytes, name.map(Path::new)))
        }
        Some(f) => registry.by_name(f).ok_or_else(|| {
            let names: Vec<&str> = registry.formats().map(|f| f.name()).collect();
            err(format!(
                "unknown format `{f}` (known: {}, or \"auto\")",
                names.join(", ")
            ))
        }),
    }
}

impl Collection {
    fn new(
        parsed: Parsed,
        format: &'static str,
        original: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
        name: Option<String>,
    ) -> Collection {
        let name = name.unwrap_or_else(|| match format {
            "SGF" => "collection.sgf".to_string(),
            f => format!("collection.{}", f.to_ascii_lowercase()),
        });
        Collection {
            doc: parsed.document,
            diagnostics: parsed.diagnostics,
            format,
            original,
            converted_from: None,
            name,
            lengths: Vec::new(),
            repaired: false,
        }
    }

    /// Reads `bytes` (see [`parse_bytes`]): `None` when this build does not
    /// read its format.
    fn read(
        bytes: &[u8],
        charset: Option<&str>,
        format: Option<&str>,
        name: Option<String>,
    ) -> Result<Option<Collection>, JsError> {
        let reader = reader(bytes, format, name.as_deref())?;
        if let Some(label) = charset {
            if reader.name() != "SGF" {
                return Err(err(format!(
                    "a charset can be forced for SGF only, not {}",
                    reader.name()
                )));
            }
            let mut o = ParseOptions::default();
            o.charset = Some(
                sgf_core::charset::encoding_for_label(label.as_bytes())
                    .ok_or_else(|| err(format!("unknown charset `{label}`")))?,
            );
            let parsed = sgf_core::parse_with(bytes, &o);
            return Ok(Some(Collection::new(parsed, "SGF", None, name)));
        }
        if reader.name() == "SGF" {
            // What the SGF reader does without its dialect report (see
            // `read_options`), which would bring the dialect code into the
            // core module.
            return Ok(Some(Collection::new(
                sgf_core::parse(bytes),
                "SGF",
                None,
                name,
            )));
        }
        if !cfg!(feature = "full") {
            return Ok(None);
        }
        let loaded = reader
            .read(bytes, &read_options())
            .map_err(|e| err(format!("cannot read as {}: {}", e.format, e.message)))?;
        let original = loaded
            .converted
            .then(|| (bytes.to_vec(), loaded.encoding()));
        let mut c = Collection::new(loaded.parsed, loaded.format, original, name);
        if loaded.converted {
            c.converted_from = Some(loaded.charset);
        }
        Ok(Some(c))
    }

    /// The node of index `id`, when the arena has it.
    fn id(&self, id: u32) -> Result<NodeId, JsError> {
        self.doc
            .node_id(id as usize)
            .ok_or_else(|| err(format!("no node {id} in this collection")))
    }

    /// The node of index `id`, when it is still in a game's tree (for edits).
    #[cfg(feature = "full")]
    fn attached(&self, id: u32) -> Result<NodeId, JsError> {
        let n = self.id(id)?;
        let root = self.doc.root_of(n);
        if self.doc.games().any(|g| g.root().id() == root) {
            Ok(n)
        } else {
            Err(err("this node was deleted"))
        }
    }

    /// The index of the game whose root is `root`.
    #[cfg(feature = "full")]
    fn game_of_root(&self, root: NodeId) -> Result<usize, JsError> {
        self.doc
            .games()
            .position(|g| g.root().id() == root)
            .ok_or_else(|| err("this node was deleted"))
    }

    fn game(&self, gi: u32) -> Result<sgf_core::Game<'_>, JsError> {
        self.doc.game(gi as usize).ok_or_else(|| {
            err(format!(
                "no game {gi}: the collection has {} (numbered from 0)",
                self.doc.game_count()
            ))
        })
    }
}

#[wasm_bindgen]
impl Collection {
    /// The bytes read (text: its UTF-8), as the parser holds them: the
    /// full module reads them again when the collection moves there, and
    /// they are the lossless bytes of a collection the core module read
    /// (it cannot edit).
    #[wasm_bindgen(js_name = inputBytes)]
    pub fn input_bytes(&self) -> Vec<u8> {
        self.doc.original().to_vec()
    }

    /// The number of games.
    #[wasm_bindgen(js_name = gameCount)]
    pub fn game_count(&self) -> u32 {
        self.doc.game_count() as u32
    }

    /// The root node of game `gi`.
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = gameRoot)]
    pub fn game_root(&self, gi: u32) -> Result<u32, JsError> {
        Ok(self.game(gi)?.root().id().index() as u32)
    }

    /// The index of the game that holds node `id` (-1: removed).
    ///
    /// # Errors
    /// No such node.
    #[wasm_bindgen(js_name = gameOf)]
    pub fn game_of(&self, id: u32) -> Result<i32, JsError> {
        let n = self.id(id)?;
        let root = self.doc.root_of(n);
        Ok(self
            .doc
            .games()
            .position(|g| g.root().id() == root)
            .map_or(-1, |i| i as i32))
    }

    /// The format read: `SGF`, or `GIB`, `NGF`, `UGF`, `WGS` for a record
    /// converted to SGF.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.format.to_string()
    }

    /// The name it was read under (`collection.sgf` when none was given).
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// Whether it was edited (or changed by a repair) since reading.
    #[wasm_bindgen(getter, js_name = isEdited)]
    pub fn is_edited(&self) -> bool {
        self.doc.is_edited() || self.repaired
    }

    /// The charset game `gi` was read in, as every face names it
    /// ([`sgf_formats::game_charset`]).
    ///
    /// # Errors
    /// No such game.
    #[wasm_bindgen(js_name = gameCharset)]
    pub fn game_charset(&self, gi: u32) -> Result<String, JsError> {
        self.game(gi)?;
        Ok(sgf_formats::game_charset(&self.doc, gi as usize, self.converted_from).to_string())
    }

    /// The summary of game `gi` as JSON ([`sgf_formats::summary::GameSummary`]:
    /// size, charset, players, ranks, dates, result, komi, handicap, setup,
    /// moves…).
    ///
    /// # Errors
    /// No such game.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = summaryJson)]
    pub fn summary_json(&self, gi: u32) -> Result<String, JsError> {
        self.game(gi)?;
        let s = sgf_formats::summary::GameSummary::of(&self.doc, gi as usize, self.converted_from)
            .ok_or_else(|| err(format!("no game {gi}")))?;
        serde_json::to_string(&s).map_err(err)
    }

    /// The lossless bytes: the input byte for byte, only the edits changed
    /// (in the file's charset; a converted record: its SGF).
    ///
    /// # Errors
    /// When an edit cannot be written without loss next to damage
    /// (`toSgf()` then writes the canonical form).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Result<Vec<u8>, JsError> {
        sgf_core::to_lossless_bytes_checked(&self.doc)
            .map_err(|e| err(format!("{e}: use toSgf() for the canonical form")))
    }

    /// The canonical FF\[4\] UTF-8 text that `qipu fmt` writes: SGF
    /// dialects normalised, then sgf-core's canonical writer.
    /// `point_lists`: `as-written` (default), `compressed` or `expanded`.
    ///
    /// # Errors
    /// A bad `point_lists`, or a collection that cannot be written without
    /// loss (no game, an undecodable charset).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = toSgf)]
    pub fn to_sgf(&self, point_lists: Option<String>) -> Result<String, JsError> {
        let mut opts = sgf_core::WriteOptions::default();
        opts.point_lists = match point_lists.as_deref() {
            None | Some("as-written") => sgf_core::PointLists::AsWritten,
            Some("compressed") => sgf_core::PointLists::Compressed,
            Some("expanded") => sgf_core::PointLists::Expanded,
            Some(o) => {
                return Err(err(format!(
                    "pointLists must be \"as-written\", \"compressed\" or \"expanded\", not {o:?}"
                )));
            }
        };
        let doc = if self.original.is_none() {
            // As `qipu fmt`: the dialects normalised on a copy (a converted
            // record is in FF[4] form already).
            let mut parsed = Parsed {
                document: self.doc.clone(),
                diagnostics: Vec::new(),
            };
            sgf_formats::repair::fmt(&mut parsed);
            std::borrow::Cow::Owned(parsed.document)
        } else {
            std::borrow::Cow::Borrowed(&self.doc)
        };
        sgf_formats::repair::writable(&doc).map_err(err)?;
        let bytes = sgf_core::to_canonical_bytes(&doc, &opts);
        String::from_utf8(bytes).map_err(err)
    }
}

/// How `parse` reads: the library's defaults, without the report of the
/// SGF dialects used (information, `R003`), which reads every game once
/// more; `check()` reports them, as `qipu check` does.
fn read_options() -> sgf_formats::ReadOptions {
    let mut o = sgf_formats::ReadOptions::default();
    o.dialect_report = false;
    o
}
