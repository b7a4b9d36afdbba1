// Qipu for JavaScript: the wrapper over the WebAssembly modules built from
// crates/sgf-wasm (see README.md). A parsed collection stays inside
// WebAssembly; games, nodes and properties are light handles that ask it
// for what they read, decoded on access.
import * as coreGlue from './pkg/qipu_core.js';

// Two WebAssembly modules: the core one (reading SGF in every charset and
// walking the tree, read only), loaded with this file, and the full one
// (other formats, editing, check, fix, game information, positions,
// diagrams), loaded by `load()` or, in Node, when first needed. A
// collection read by the core module moves to the full one when it needs
// it (see `Collection._full`).
const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
// Node reads the modules from the package's folder, the full one at once
// when it is first needed (so the API stays synchronous there).
const nodeFs = isNode ? await import('node:fs') : null;
const fullGlue = isNode ? await import('./pkg/qipu_full.js') : null;

/** A loaded module: its wasm-bindgen functions and its memory's scratch buffer. */
class Module {
  constructor(api, exports) {
    this.api = api;
    this.exports = exports;
    this.scratch = null;
  }

  /** The lengths `nodeProps` wrote: a view of the memory, made again when the memory grows. */
  lengths() {
    if (this.scratch === null || this.scratch.buffer !== this.exports.memory.buffer) {
      this.scratch = new Uint32Array(this.exports.memory.buffer, this.api.scratchPtr(), 4096);
    }
    return this.scratch;
  }
}

function wasmUrl(name) { return new URL(`./pkg/qipu_${name}_bg.wasm`, import.meta.url); }

async function instantiate(name, glue) {
  if (isNode) return new Module(glue, glue.initSync({ module: nodeFs.readFileSync(wasmUrl(name)) }));
  // Browsers (and Deno, workers): fetched beside this file.
  return new Module(glue, await glue.default({ module_or_path: wasmUrl(name) }));
}

const core = await instantiate('core', coreGlue);
/** The full module once loaded. */
let full = null;
let loading = null;

/**
 * Loads the full module (about 590 KB gzipped): other formats, `check`,
 * `fix`, `info`, positions, checked play and diagrams. Needed before those
 * in browsers; Node loads it by itself when first needed. Resolves at once
 * when it is loaded.
 * @returns {Promise<void>}
 */
export function load() {
  if (full !== null) return Promise.resolve();
  loading ??= (async () => {
    const glue = fullGlue ?? await import('./pkg/qipu_full.js');
    const m = await instantiate('full', glue);
    full ??= m;
  })();
  return loading;
}

/** Whether the full module is loaded. */
export function isLoaded() { return full !== null; }

/** The full module: loaded now in Node, else it must have been by `load()`. */
function needFull(what) {
  if (full === null && isNode) full = new Module(fullGlue, fullGlue.initSync({ module: nodeFs.readFileSync(wasmUrl('full')) }));
  if (full === null) throw new Error(`${what} needs Qipu's full module: call \`await load()\` first`);
  return full;
}

/** A move the rules forbid, refused by `Node.play` without `force`. */
export class IllegalMoveError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = 'IllegalMoveError';
    /** `occupied`, `suicide` or `ko`. */
    this.reason = reason;
  }
}

/**
 * Reads a record: SGF (every FF version, dialect and charset), GIB, NGF,
 * UGF/UGI or WGS, sniffed from the content. `data` is bytes (`Uint8Array`,
 * `Buffer`, `ArrayBuffer`; the charset from `CA` or detected) or a string
 * (already text: `CA` is ignored). Never throws on bad content: problems
 * are in `collection.diagnostics`.
 * @param {Uint8Array | ArrayBuffer | string} data
 * @param {{charset?: string, format?: string, name?: string}} [options]
 */
export function parse(data, options = {}) {
  const { charset, format, name } = options;
  if (typeof data === 'string') {
    if (charset !== undefined) throw new TypeError('charset applies to bytes only: a string is text already');
    return read((m) => m.api.parseText(data, format, name), 'UTF-8', name);
  }
  let bytes;
  if (data instanceof Uint8Array) {
    bytes = data;
  } else if (data instanceof ArrayBuffer) {
    bytes = new Uint8Array(data);
  } else {
    throw new TypeError(`expected a Uint8Array, ArrayBuffer or string to parse, got ${describe(data)}`);
  }
  return read((m) => m.api.parseBytes(bytes, charset, format, name), charset, name);
}

/**
 * Reads with `f(module)`: in the full module when it is loaded, else in
 * the core one, unless the format is one only the full module reads.
 */
function read(f, charset, name) {
  if (full !== null) return new Collection(full, f(full), null);
  const c = f(core);
  if (c !== undefined) return new Collection(core, c, { charset, name });
  const m = needFull('reading this format');
  return new Collection(m, f(m), null);
}

/** A new collection of one empty game, to build a record from scratch (the full module). */
export function newCollection() {
  const m = needFull('newCollection()');
  return new Collection(m, m.api.newCollection(), null);
}

function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor?.name ?? 'object';
  return typeof v;
}

/** A parsed collection: one or more games. */
export class Collection {
  /**
   * @param {Module} m the module it lives in
   * @param c its WebAssembly side
   * @param read in the core module: how it was read (`{charset, name}`),
   *   to read it again in the full module (`_full`); null in the full one
   */
  constructor(m, c, read) {
    this._module = m;
    /** The WebAssembly side (see pkg/qipu_full.d.ts). */
    this.raw = c;
    this._read = read;
    this._decoded = null;
  }

  /**
   * The WebAssembly side in the full module, for what only it does
   * (`what`, named in the error when it is not loaded). A collection of
   * the core module, never edited there, moves: the full module reads its
   * input again, the same code on the same bytes, so that every node
   * keeps its id (handles stay valid).
   */
  _full(what) {
    if (this._read === null) return this.raw;
    const m = needFull(what);
    const c = m.api.parseBytes(this.raw.inputBytes(), this._read.charset, 'SGF', this._read.name);
    this.raw.free();
    this._module = m;
    this.raw = c;
    this._read = null;
    this._decoded = null;
    return c;
  }

  /** Edits with `op(...args)` (in the full module). */
  _edit(op, ...args) {
    const c = this._full('editing');
    this._decoded = null;
    return c[op](...args);
  }

  /** The number of games. */
  get gameCount() { return this.raw.gameCount(); }

  /** The games, in file order. */
  get games() {
    const n = this.raw.gameCount();
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = new Game(this, this.raw.gameRoot(i));
    return out;
  }

  /** Game `i` (from 0). */
  game(i) { return new Game(this, this.raw.gameRoot(i)); }

  /** The format read: `SGF`, or `GIB`, `NGF`, `UGF`, `WGS` for a converted record. */
  get format() { return this.raw.format; }

  /** The name it was read under (its extension breaks ties between formats). */
  get name() { return this.raw.name; }

  /** Whether it was edited since reading. */
  get isEdited() { return this.raw.isEdited; }

  /** The diagnostics of reading, shaped as `qipu check --json` prints them. */
  get diagnostics() { return JSON.parse(this._full('diagnostics').diagnosticsJson()); }

  /**
   * Every FF[4] and Go rule checked: the object `qipu check --json` prints
   * for the file (`{path, diagnostics, …}`), or once edited for what
   * `toBytes()` writes.
   * @param {{path?: string}} [options]
   */
  check(options = {}) { return JSON.parse(this._full('check()').checkJson(options.path)); }

  /**
   * Repairs in place as `qipu check --fix` does; returns the changes
   * (`{code, message, line, column, before, after, …}`).
   * @param {{variationLevel?: boolean}} [options]
   */
  fix(options = {}) {
    const c = this._full('fix()');
    this._edited();
    return JSON.parse(c.fixJson(options.variationLevel));
  }

  /** The lossless bytes: the input byte for byte, only the edits changed. */
  toBytes() {
    // Read by the core module, it is not edited: its lossless bytes are its input.
    return this._read === null ? this.raw.toBytes() : this.raw.inputBytes();
  }

  /**
   * The canonical FF[4] UTF-8 text `qipu fmt` writes.
   * @param {{pointLists?: 'as-written' | 'compressed' | 'expanded'}} [options]
   */
  toSgf(options = {}) { return this._full('toSgf()').toSgf(options.pointLists); }

  /** Frees the WebAssembly memory now (otherwise when garbage collected). */
  free() { this._decoded = null; this.raw.free(); }

  [Symbol.dispose]() { this.free(); }

  /**
   * The properties of node `id`: `[{ident, values}]`, decoded. The first
   * node read in a game decodes the whole game's text at once (one call
   * into WebAssembly, not one a node), kept until another game is read
   * or the collection is edited.
   */
  _props(id) {
    let g = this._decoded;
    if (g === null || id < g.min || id > g.max || g.at[id - g.min] < 0) {
      const gi = this.raw.gameOf(id);
      if (gi < 0) return readProps(this.raw.nodeProps(id), lengthsOf(this._module, this.raw, id), 0, 0);
      g = this._decoded = decodeGame(this.raw, gi);
    }
    const i = id - g.min;
    return readProps(g.text, g.lens, g.at[i], g.textAt[i]);
  }

  /** Forgets the decoded game (after an edit). */
  _edited() { this._decoded = null; }

  _node(id) { return id < 0 ? null : new Node(this, id); }
}

/** The lengths `nodeProps` wrote for node `id` (module `m`). */
function lengthsOf(m, c, id) {
  const lens = m.lengths();
  return lens[0] === 0xffffffff ? c.propsLengths(id) : lens;
}

/** Game `gi`'s text and lengths, with where each node's start (see `Collection.gameProps` in Rust). */
function decodeGame(c, gi) {
  const ids = c.gameNodes(gi);
  const text = c.gameProps(gi);
  const lens = c.gamePropsLengths();
  let min = Infinity;
  let max = -1;
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  const at = new Int32Array(max - min + 1).fill(-1);
  const textAt = new Int32Array(max - min + 1);
  let k = 0;
  let t = 0;
  for (const id of ids) {
    at[id - min] = k;
    textAt[id - min] = t;
    const n = lens[k++];
    for (let p = 0; p < n; p++) {
      t += lens[k++];
      const nv = lens[k++];
      for (let v = 0; v < nv; v++) t += lens[k++];
    }
  }
  return { min, max, at, textAt, text, lens };
}

/** The properties written in `text` from `at`, their lengths in `lens` from `k`. */
function readProps(text, lens, k, at) {
  const n = lens[k++];
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const il = lens[k++];
    const ident = text.slice(at, at += il);
    const nv = lens[k++];
    const values = new Array(nv);
    for (let j = 0; j < nv; j++) {
      const vl = lens[k++];
      values[j] = text.slice(at, at += vl);
    }
    out[i] = { ident, values };
  }
  return out;
}

/** A game tree of a collection. */
export class Game {
  constructor(collection, root) {
    this.collection = collection;
    /** The root node's id. */
    this.rootId = root;
  }

  /** Its index in the collection. */
  get index() {
    const i = this.collection.raw.gameOf(this.rootId);
    if (i < 0) throw new Error('the game was removed from the collection');
    return i;
  }

  /** The root node. */
  get root() { return new Node(this.collection, this.rootId); }

  /** The charset it was read in (`UTF-8`, `GB18030`, `Shift_JIS`, `ASCII`, …). */
  get charset() { return this.collection.raw.gameCharset(this.index); }

  /**
   * The game information, typed (the library's game summary, as
   * `qipu export` and Python give it): `size`, `black`, `white`,
   * `black_rank`, `white_rank`, `komi`, `handicap`, `result`, `outcome`,
   * `date`, `dates`, `rules`, `event`, …, `setup_black`, `moves`.
   */
  get info() { return JSON.parse(this.collection._full('info').summaryJson(this.index)); }

  /** The nodes in file order (pre-order, main line first). */
  nodes() { return Array.from(this.collection.raw.gameNodes(this.index), (id) => new Node(this.collection, id)); }

  /** The node ids in file order, as one typed array (the fast walk). */
  nodeIds() { return this.collection.raw.gameNodes(this.index); }

  /** The main line: the root and every first child. */
  mainLine() { return Array.from(this.collection.raw.mainLine(this.index), (id) => new Node(this.collection, id)); }

  /** The node whose number (index in file order) is `k`, or null. */
  nodeByNumber(k) { return this.collection._node(this.collection.raw.nodeByNumber(this.index, k)); }

  /** The number of moves of the main line (every `B` and `W`). */
  get moveCount() { return this.collection._full('moveCount').moveCount(this.index); }

  /** The position after move `n` of the main line (0: the root with its setup). */
  positionAt(n) { return position(this.collection, this.collection._full('positionAt()').positionAt(this.index, n)); }

  /**
   * The boards after every node of the main line: `{count, cols, rows,
   * data}`, `data` a Uint8Array of `count × rows × cols` (0 empty, 1
   * black, 2 white).
   */
  boards() {
    const data = this.collection._full('boards()').boards(this.index);
    const p = this.positionAt(0);
    return { count: data.length / (p.cols * p.rows), cols: p.cols, rows: p.rows, data };
  }
}

/** A node of a game tree: a handle (collection, id). */
export class Node {
  constructor(collection, id) {
    this.collection = collection;
    /** Its id in the collection (stable across edits). */
    this.id = id;
  }

  /** Whether `other` is a handle of the same node. */
  equals(other) { return other instanceof Node && other.collection === this.collection && other.id === this.id; }

  /** The game it belongs to. */
  get game() {
    const c = this.collection;
    const i = c.raw.gameOf(this.id);
    if (i < 0) throw new Error('the node was removed from the tree');
    return new Game(c, c.raw.gameRoot(i));
  }

  /** The parent, null for the root. */
  get parent() { return this.collection._node(this.collection.raw.parent(this.id)); }

  /** The children, main line first. */
  get children() { return Array.from(this.collection.raw.children(this.id), (id) => new Node(this.collection, id)); }

  /** The first child (the main-line continuation), null at the end. */
  get next() { return this.collection._node(this.collection.raw.firstChild(this.id)); }

  /** The next sibling (the next variation), null for the last. */
  get nextSibling() { return this.collection._node(this.collection.raw.nextSibling(this.id)); }

  /** Whether it is the root of its game. */
  get isRoot() { return this.collection.raw.parent(this.id) < 0; }

  /** Its number: its index in file order within the game (root 0). */
  get number() { return this.collection.raw.nodeNumber(this.id); }

  /** Its distance from the root. */
  get depth() { return this.collection.raw.depth(this.id); }

  /** Every property, in file order: `[{ident, values}]`, values decoded (escapes resolved). */
  properties() { return this.collection._props(this.id); }

  /** The identifiers, in file order. */
  keys() { return [...new Set(this.collection.raw.idents(this.id))]; }

  /** Whether it has property `ident`. */
  has(ident) { return this.collection.raw.has(this.id, ident); }

  /** The first value of `ident` as text (Text keeps line breaks; other types one line), or undefined. */
  get(ident) { return this.collection.raw.text(this.id, ident); }

  /** Every value of `ident`, decoded (escapes resolved); `[]` when absent. */
  values(ident) { return this.collection.raw.values(this.id, ident); }

  /** Every value of `ident` as written between the brackets (escapes kept). */
  raw(ident) { return this.collection.raw.rawValues(this.id, ident); }

  /** Its move: `{color: 'B' | 'W', point: 'pd'}` (`point` `''` for a pass), or null. */
  get move() {
    const m = this.collection.raw.moveOf(this.id);
    return m === undefined ? null : { color: m[0], point: m.slice(2) };
  }

  /** Sets `ident` to one text value or an array of them (escaped for you). */
  set(ident, value) {
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    this.collection._edit('setValues', this.id, ident, values);
    return this;
  }

  /** Sets `ident` to raw values, as SGF writes them between brackets (escapes included). */
  setRaw(ident, raws) {
    this.collection._edit('setRaw', this.id, ident, Array.isArray(raws) ? [...raws] : [raws]);
    return this;
  }

  /** Removes `ident`; whether it was there. */
  remove(ident) { return this.collection._edit('remove', this.id, ident); }

  /** Adds an empty child, last or at `index` (0: the main line). */
  addChild(index) { return new Node(this.collection, this.collection._edit('addChild', this.id, index)); }

  /** Removes this node and its subtree (a root: its game). */
  delete() { this.collection._edit('deleteNode', this.id); }

  /** Makes this node part of the main line. */
  promote() { this.collection._edit('promote', this.id); }

  /** Moves this node to `index` among its siblings (0: the main line). */
  moveTo(index) { this.collection._edit('moveTo', this.id, index); }

  /**
   * Plays `color` (`'B'`/`'W'`) at `point` (SGF letters such as `'pd'`,
   * `''` to pass) below this node: the child that already plays it, or a
   * new child (a variation when there are children). A new move the rules
   * forbid (occupied, suicide, ko) throws IllegalMoveError unless
   * `force` (SGF records such moves all the same).
   */
  play(color, point, options = {}) {
    const raw = this.collection._full('play()');
    if (!options.force) {
      const why = raw.illegalMove(this.id, color, point);
      if (why !== undefined) {
        const at = why.indexOf(':');
        throw new IllegalMoveError(why.slice(0, at), why.slice(at + 1));
      }
    }
    this.collection._edited();
    return new Node(this.collection, raw.play(this.id, color, point));
  }

  /** The position after this node. */
  position() { return position(this.collection, this.collection._full('position()').positionOf(this.id)); }

  /**
   * The board diagram at this node as an SVG document.
   * @param {{coordinates?: boolean, moveNumbers?: number | 'all', theme?: 'light' | 'dark', status?: boolean, idPrefix?: string}} [options]
   */
  svg(options = {}) {
    const n = options.moveNumbers === 'all' ? -1 : options.moveNumbers;
    return this.collection._full('svg()').svg(this.id, options.coordinates, n, options.theme, options.status, options.idPrefix);
  }
}

/** A plain position object from the WebAssembly one (freed at once). */
function position(collection, p) {
  try {
    const lastColor = p.lastColor;
    return {
      cols: p.cols,
      rows: p.rows,
      board: p.board,
      toPlay: p.toPlay,
      captures: { B: p.capturesBlack, W: p.capturesWhite },
      ko: p.ko ?? null,
      moveNumber: p.moveNumber,
      lastMove: lastColor === undefined ? null : { color: lastColor, point: p.lastPoint },
      node: new Node(collection, p.node),
    };
  } finally {
    p.free();
  }
}
