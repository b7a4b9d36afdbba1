// Qipu for JavaScript: the wrapper over the WebAssembly modules built from
// crates/sgf-wasm (see README.md). A parsed collection stays inside
// WebAssembly; games, nodes and properties are light handles that ask it
// for what they read, decoded on access.
//
// Every argument is checked here, at the JavaScript boundary, before it
// reaches WebAssembly (whose own conversions would wrap a -1 to 4294967295
// or fail on a number where text is expected), and every error thrown is a
// QipuError naming the call and the argument.
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

/** A loaded module: its wasm-bindgen functions. */
class Module {
  constructor(api) {
    this.api = api;
  }
}

function wasmUrl(name) { return new URL(`./pkg/qipu_${name}_bg.wasm`, import.meta.url); }

async function instantiate(name, glue) {
  if (isNode) {
    glue.initSync({ module: nodeFs.readFileSync(wasmUrl(name)) });
  } else {
    // Browsers (and Deno, workers): fetched beside this file.
    await glue.default({ module_or_path: wasmUrl(name) });
  }
  return new Module(glue);
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
  if (full === null && isNode) {
    fullGlue.initSync({ module: nodeFs.readFileSync(wasmUrl('full')) });
    full = new Module(fullGlue);
  }
  if (full === null) throw new QipuError(`${what} needs Qipu's full module: call \`await load()\` first`);
  return full;
}

// ------------------------------------------------------------------ errors

/**
 * Every error the package throws: a bad argument (the message names the
 * call and the argument: `play(): point must be …`), a handle of a node
 * that was deleted or of a collection that was freed, or what the library
 * refuses (an unknown charset, a value the charset cannot hold, …).
 */
export class QipuError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'QipuError';
  }
}

/** A move the rules forbid, refused by `Node.play` without `force`. */
export class IllegalMoveError extends QipuError {
  constructor(reason, message) {
    super(message);
    this.name = 'IllegalMoveError';
    /** `occupied`, `suicide` or `ko`. */
    this.reason = reason;
  }
}

/** What `v` is, for a message: `number 3`, `string "x"`, `null`, `an array of 2`, `Map`… */
function describe(v) {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
    case 'number': case 'boolean': case 'bigint': return `${typeof v} ${String(v)}`;
    case 'object':
      if (Array.isArray(v)) return `an array of ${v.length}`;
      return v.constructor?.name ?? 'object';
    default: return typeof v;
  }
}

/** A bad argument of `call`: what it must be, and what it was. */
function badArgument(call, must, v) {
  return new QipuError(`${call}: ${must}; got ${describe(v)}`);
}

/**
 * An error of a call into WebAssembly, for `call`: the library's refusals
 * (plain `Error`s made by wasm-bindgen from its messages) as QipuError
 * named after the call, a trap (a bug) as a QipuError that says so; an
 * error of this file's own code as it is.
 */
function fromWasm(call, e) {
  if (e instanceof QipuError) return e;
  if (e instanceof Error && e.constructor === Error) return new QipuError(`${call}: ${e.message}`);
  if (e instanceof WebAssembly.RuntimeError) {
    return new QipuError(`${call}: internal error in Qipu's WebAssembly (${e.message}); please report it`, { cause: e });
  }
  return e;
}

/** Runs `f`, a call into WebAssembly for `call`: its errors as `fromWasm` gives them. */
function wasm(call, f) {
  try {
    return f();
  } catch (e) {
    throw fromWasm(call, e);
  }
}

/** `v`, which must be a property identifier's text (`ident` of `call`). */
function identArg(call, v) {
  if (typeof v !== 'string') throw badArgument(call, 'ident must be a string, a property identifier such as "C" or "AB"', v);
  return v;
}

/** Whether `v` is a whole number that WebAssembly takes as an index (0 to 2³²−1). */
function isIndex(v) { return Number.isInteger(v) && v >= 0 && v <= 0xffffffff; }

/** `v`, which must be an index (`name` of `call`, `what` it counts). */
function index(call, name, v, what) {
  if (!isIndex(v)) throw badArgument(call, `${name} must be a whole number 0 or more (${what})`, v);
  return v;
}

const aString = (what) => ({ ok: (v) => typeof v === 'string', what: `a string (${what})` });
const aBoolean = { ok: (v) => typeof v === 'boolean', what: 'true or false' };

/**
 * The options object of `call`, checked against `spec` (each known
 * option's test and what it must be): left out or an object; an unknown
 * option or a bad value is an error (an option set to `undefined` is left
 * out).
 */
function options(call, o, spec) {
  if (o === undefined) return {};
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw badArgument(call, 'options must be an object', o);
  for (const k of Object.keys(o)) {
    const want = spec[k];
    if (want === undefined) {
      throw new QipuError(`${call}: unknown option \`${k}\` (known: ${Object.keys(spec).join(', ')})`);
    }
    if (o[k] !== undefined && !want.ok(o[k])) throw badArgument(call, `option ${k} must be ${want.what}`, o[k]);
  }
  return o;
}

// ------------------------------------------------------------------ reading

/**
 * Reads a record: SGF (every FF version, dialect and charset), GIB, NGF,
 * UGF/UGI or WGS, sniffed from the content. `data` is bytes (`Uint8Array`,
 * `Buffer`, `ArrayBuffer`; the charset from `CA` or detected) or a string
 * (already text: `CA` is ignored). Never throws on bad content: problems
 * are in `collection.diagnostics`.
 * @param {Uint8Array | ArrayBuffer | string} data
 * @param {{charset?: string, format?: string, name?: string}} [opts]
 */
export function parse(data, opts) {
  const { charset, format, name } = options('parse()', opts, {
    charset: aString('a charset such as "GB18030"'),
    format: aString('"SGF", "GIB", "NGF", "UGF", "WGS" or "auto"'),
    name: aString('a file name such as "game.sgf"'),
  });
  if (typeof data === 'string') {
    if (charset !== undefined) throw new QipuError('parse(): option charset applies to bytes only: a string is text already');
    return read((m) => m.api.parseText(data, format, name), 'UTF-8', name);
  }
  let bytes;
  if (data instanceof Uint8Array) {
    bytes = data;
  } else if (data instanceof ArrayBuffer) {
    bytes = new Uint8Array(data);
  } else {
    throw badArgument('parse()', 'data must be a Uint8Array, ArrayBuffer or string to parse', data);
  }
  return read((m) => m.api.parseBytes(bytes, charset, format, name), charset, name);
}

/**
 * Reads with `f(module)`: in the full module when it is loaded, else in
 * the core one, unless the format is one only the full module reads.
 */
function read(f, charset, name) {
  if (full !== null) return new Collection(full, wasm('parse()', () => f(full)), null);
  const c = wasm('parse()', () => f(core));
  if (c !== undefined) return new Collection(core, c, { charset, name });
  const m = needFull('reading this format');
  return new Collection(m, wasm('parse()', () => f(m)), null);
}

/** A new collection of one empty game, to build a record from scratch (the full module). */
export function newCollection() {
  const m = needFull('newCollection()');
  return new Collection(m, m.api.newCollection(), null);
}

// ------------------------------------------------------------------ collections

/** A parsed collection: one or more games. */
export class Collection {
  /**
   * Made by `parse()` and `newCollection()` only.
   * @param {Module} m the module it lives in
   * @param c its WebAssembly side
   * @param read in the core module: how it was read (`{charset, name}`),
   *   to read it again in the full module (`_full`); null in the full one
   */
  constructor(m, c, read) {
    if (!(m instanceof Module)) throw new QipuError('a Collection is made by parse() or newCollection(), not by new Collection()');
    this._module = m;
    /** The WebAssembly side, null once freed. */
    this._raw = c;
    this._read = read;
    this._decoded = null;
    /**
     * The handles' generation: a repair that changes the collection reads
     * it again (new node ids), and handles of before are refused.
     */
    this._gen = 0;
    /** The ids of the nodes deleted (handles refused), or null. */
    this._deleted = null;
  }

  /** The WebAssembly side (see pkg/qipu_full.d.ts). */
  get raw() {
    if (this._raw === null) throw new QipuError('this collection was freed');
    return this._raw;
  }

  /**
   * The WebAssembly side in the full module, for what only it does
   * (`what`, named in the error when it is not loaded). A collection of
   * the core module, never edited there, moves: the full module reads its
   * input again, the same code on the same bytes, so that every node
   * keeps its id (handles stay valid).
   */
  _full(what) {
    const raw = this.raw;
    if (this._read === null) return raw;
    const m = needFull(what);
    const c = wasm(what, () => m.api.parseBytes(raw.inputBytes(), this._read.charset, 'SGF', this._read.name));
    raw.free();
    this._module = m;
    this._raw = c;
    this._read = null;
    this._decoded = null;
    return c;
  }

  /** The number of games. */
  get gameCount() { return this.raw.gameCount(); }

  /** The games, in file order. */
  get games() {
    const raw = this.raw;
    const n = raw.gameCount();
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = new Game(this, raw.gameRoot(i), made);
    return out;
  }

  /** Game `i` (from 0). */
  game(i) {
    const raw = this.raw;
    index('game()', 'index', i, 'a game, from 0');
    return new Game(this, wasm('game()', () => raw.gameRoot(i)), made);
  }

  /** The format read: `SGF`, or `GIB`, `NGF`, `UGF`, `WGS` for a converted record. */
  get format() { return this.raw.format; }

  /** The name it was read under (its extension breaks ties between formats). */
  get name() { return this.raw.name; }

  /** Whether it was edited (or changed by `fix()`) since reading. */
  get isEdited() { return this.raw.isEdited; }

  /** The diagnostics of reading, shaped as `qipu check --json` prints them. */
  get diagnostics() { return JSON.parse(this._full('diagnostics').diagnosticsJson()); }

  /**
   * Every FF[4] and Go rule checked: the object `qipu check --json` prints
   * for the file (`{path, diagnostics, …}`), or once edited for what
   * `toBytes()` writes.
   * @param {{path?: string}} [opts]
   */
  check(opts) {
    const { path } = options('check()', opts, { path: aString('the file name the report shows') });
    return JSON.parse(this._full('check()').checkJson(path));
  }

  /**
   * Repairs in place as `qipu check --fix` does; returns the changes
   * (`{code, message, line, column, before, after, …}`). With changes, the
   * collection becomes the repaired file (edited; handles taken before
   * are refused: take them again); without, it is left as it was, byte
   * for byte.
   * @param {{variationLevel?: boolean}} [opts]
   */
  fix(opts) {
    const { variationLevel } = options('fix()', opts, { variationLevel: aBoolean });
    const c = this._full('fix()');
    const changes = JSON.parse(wasm('fix()', () => c.fixJson(variationLevel)));
    if (changes.length > 0) {
      // Read again: new node ids.
      this._gen++;
      this._deleted = null;
      this._decoded = null;
    }
    return changes;
  }

  /** The lossless bytes: the input byte for byte, only the edits changed. */
  toBytes() {
    const raw = this.raw;
    // Read by the core module, it is not edited: its lossless bytes are its input.
    return this._read === null ? wasm('toBytes()', () => raw.toBytes()) : raw.inputBytes();
  }

  /**
   * The canonical FF[4] UTF-8 text `qipu fmt` writes.
   * @param {{pointLists?: 'as-written' | 'compressed' | 'expanded'}} [opts]
   */
  toSgf(opts) {
    const { pointLists } = options('toSgf()', opts, { pointLists: aString('"as-written", "compressed" or "expanded"') });
    const c = this._full('toSgf()');
    return wasm('toSgf()', () => c.toSgf(pointLists));
  }

  /** Frees the WebAssembly memory now (otherwise when garbage collected); its handles are refused from then on. */
  free() {
    if (this._raw === null) return;
    this._decoded = null;
    this._raw.free();
    this._raw = null;
  }

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
      // Handles of deleted nodes are refused before: this is the library's word.
      if (gi < 0) throw new QipuError('this node was deleted');
      g = this._decoded = decodeGame(this.raw, gi);
    }
    const i = id - g.min;
    return readProps(g.text, g.lens, g.at[i], g.textAt[i]);
  }

  /** Forgets the decoded game (after an edit). */
  _edited() { this._decoded = null; }

  /** Refuses the handles of `ids` from now on (deleted nodes). */
  _forget(ids) {
    this._deleted ??= new Set();
    for (const id of ids) this._deleted.add(id);
  }

  _node(id) { return id < 0 ? null : new Node(this, id, made); }
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

/**
 * The WebAssembly side of `collection` for a handle of node `id` made in
 * generation `gen` (`what`: `node`, `game`), or the error that says why
 * the handle is no longer good.
 */
function live(collection, id, gen, what) {
  const raw = collection._raw;
  if (raw === null) throw new QipuError(`this ${what}'s collection was freed`);
  if (gen !== collection._gen) {
    throw new QipuError(`this ${what} was replaced when fix() rewrote its collection: take it again from the collection`);
  }
  if (collection._deleted !== null && collection._deleted.has(id)) throw new QipuError(`this ${what} was deleted`);
  return raw;
}

/**
 * What the package passes its handles' constructors: a handle is taken
 * from a collection, a game or a node (whose ids WebAssembly gave), never
 * made from a number.
 */
const made = Symbol('made by qipu.js');

// ------------------------------------------------------------------ games

/** A game tree of a collection. */
export class Game {
  constructor(collection, root, token) {
    if (token !== made) throw new QipuError('a Game is taken from a collection (games, game()), not made by new Game()');
    this.collection = collection;
    /** The root node's id. */
    this.rootId = root;
    this._gen = collection._gen;
  }

  /** The WebAssembly side and this game's index, when the handle is still good. */
  _at() {
    const raw = live(this.collection, this.rootId, this._gen, 'game');
    const i = raw.gameOf(this.rootId);
    if (i < 0) throw new QipuError('this game was deleted');
    return [raw, i];
  }

  /** The full module's side and this game's index, for `what`. */
  _fullAt(what) {
    this._at();
    this.collection._full(what);
    return this._at();
  }

  /** Its index in the collection. */
  get index() { return this._at()[1]; }

  /** The root node. */
  get root() {
    this._at();
    return new Node(this.collection, this.rootId, made);
  }

  /** The charset it was read in (`UTF-8`, `GB18030`, `Shift_JIS`, `ASCII`, …). */
  get charset() {
    const [raw, i] = this._at();
    return raw.gameCharset(i);
  }

  /**
   * The game information, typed (the library's game summary, as
   * `qipu export` and Python give it): `size`, `black`, `white`,
   * `black_rank`, `white_rank`, `komi`, `handicap`, `result`, `outcome`,
   * `date`, `dates`, `rules`, `event`, …, `setup_black`, `moves`.
   */
  get info() {
    const [raw, i] = this._fullAt('info');
    return JSON.parse(raw.summaryJson(i));
  }

  /** The nodes in file order (pre-order, main line first). */
  nodes() {
    const [raw, i] = this._at();
    return Array.from(raw.gameNodes(i), (id) => new Node(this.collection, id, made));
  }

  /** The node ids in file order, as one typed array (the fast walk). */
  nodeIds() {
    const [raw, i] = this._at();
    return raw.gameNodes(i);
  }

  /** The main line: the root and every first child. */
  mainLine() {
    const [raw, i] = this._at();
    return Array.from(raw.mainLine(i), (id) => new Node(this.collection, id, made));
  }

  /** The node whose number (index in file order, root 0) is `k`, or null when the game has fewer. */
  nodeByNumber(k) {
    const [raw, i] = this._at();
    index('nodeByNumber()', 'k', k, 'a node number, root 0');
    return this.collection._node(raw.nodeByNumber(i, k));
  }

  /** The number of moves of the main line (every `B` and `W`). */
  get moveCount() {
    const [raw, i] = this._fullAt('moveCount');
    return raw.moveCount(i);
  }

  /** The position after move `n` of the main line (0: the root with its setup). */
  positionAt(n) {
    const [raw, i] = this._fullAt('positionAt()');
    index('positionAt()', 'n', n, 'a move number, 0 for the start');
    return position(this.collection, wasm('positionAt()', () => raw.positionAt(i, n)));
  }

  /**
   * The boards after every node of the main line: `{count, cols, rows,
   * data}`, `data` a Uint8Array of `count × rows × cols` (0 empty, 1
   * black, 2 white).
   */
  boards() {
    const [raw, i] = this._fullAt('boards()');
    const data = raw.boards(i);
    const p = this.positionAt(0);
    return { count: data.length / (p.cols * p.rows), cols: p.cols, rows: p.rows, data };
  }
}

// ------------------------------------------------------------------ nodes

/**
 * A point for `play()`: SGF letters (`'pd'`), `[x, y]` from 0 from the
 * top left, or `''`/`null` to pass. Returns what the WebAssembly side
 * takes: the letters, and the pair or undefined.
 */
function pointOf(call, point) {
  if (point === null) return ['', undefined];
  if (typeof point === 'string') return [point, undefined];
  if (Array.isArray(point) && point.length === 2 && isIndex(point[0]) && isIndex(point[1])) return ['', [point[0], point[1]]];
  throw badArgument(call, 'point must be SGF letters such as "pd", [x, y] (whole numbers from 0, from the top left) or "" (or null) to pass', point);
}

/** A node of a game tree: a handle (collection, id). */
export class Node {
  constructor(collection, id, token) {
    if (token !== made) throw new QipuError('a Node is taken from a game or a node, not made by new Node()');
    this.collection = collection;
    /** Its id in the collection (stable across edits). */
    this.id = id;
    this._gen = collection._gen;
  }

  /** The WebAssembly side, when the handle is still good. */
  _raw() { return live(this.collection, this.id, this._gen, 'node'); }

  /**
   * Edits with `f(raw, id)` in the full module (`call` names the edit in
   * errors); the decoded game is forgotten.
   */
  _edit(call, f) {
    this._raw();
    const c = this.collection;
    const raw = c._full(call);
    c._edited();
    return wasm(call, () => f(raw, this.id));
  }

  /** Whether `other` is a handle of the same node. */
  equals(other) {
    return other instanceof Node && other.collection === this.collection && other.id === this.id && other._gen === this._gen;
  }

  /** The game it belongs to. */
  get game() {
    const raw = this._raw();
    const i = raw.gameOf(this.id);
    if (i < 0) throw new QipuError('this node was deleted');
    return new Game(this.collection, raw.gameRoot(i), made);
  }

  /** The parent, null for the root. */
  get parent() { return this.collection._node(this._raw().parent(this.id)); }

  /** The children, main line first. */
  get children() { return Array.from(this._raw().children(this.id), (id) => new Node(this.collection, id, made)); }

  /** The first child (the main-line continuation), null at the end. */
  get next() { return this.collection._node(this._raw().firstChild(this.id)); }

  /** The next sibling (the next variation), null for the last. */
  get nextSibling() { return this.collection._node(this._raw().nextSibling(this.id)); }

  /** Whether it is the root of its game. */
  get isRoot() { return this._raw().parent(this.id) < 0; }

  /** Its number: its index in file order within the game (root 0). */
  get number() { return this._raw().nodeNumber(this.id); }

  /** Its distance from the root. */
  get depth() { return this._raw().depth(this.id); }

  /** Every property, in file order: `[{ident, values}]`, values decoded (escapes resolved). */
  properties() {
    this._raw();
    return this.collection._props(this.id);
  }

  /** The identifiers, in file order. */
  keys() { return [...new Set(this._raw().idents(this.id))]; }

  /** Whether it has property `ident`. */
  has(ident) { return this._raw().has(this.id, identArg('has()', ident)); }

  /** The first value of `ident` as text (Text keeps line breaks; other types one line), or undefined. */
  get(ident) { return this._raw().text(this.id, identArg('get()', ident)); }

  /** Every value of `ident`, decoded (escapes resolved); `[]` when absent. */
  values(ident) { return this._raw().values(this.id, identArg('values()', ident)); }

  /** Every value of `ident` as written between the brackets (escapes kept). */
  raw(ident) { return this._raw().rawValues(this.id, identArg('raw()', ident)); }

  /** Its move: `{color: 'B' | 'W', point: 'pd'}` (`point` `''` for a pass), or null. */
  get move() {
    const m = this._raw().moveOf(this.id);
    return m === undefined ? null : { color: m[0], point: m.slice(2) };
  }

  /** Sets `ident` to one text value (a number is written as text) or an array of them (escaped for you). */
  set(ident, value) {
    identArg('set()', ident);
    const one = (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    if (!(one(value) || (Array.isArray(value) && value.every(one)))) {
      throw badArgument('set()', 'value must be a string, a finite number or an array of them', value);
    }
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    this._edit('set()', (raw, id) => raw.setValues(id, ident, values));
    return this;
  }

  /** Sets `ident` to raw values, as SGF writes them between brackets (escapes included). */
  setRaw(ident, raws) {
    identArg('setRaw()', ident);
    if (!(typeof raws === 'string' || (Array.isArray(raws) && raws.every((v) => typeof v === 'string')))) {
      throw badArgument('setRaw()', 'raws must be a string or an array of strings', raws);
    }
    const values = Array.isArray(raws) ? [...raws] : [raws];
    this._edit('setRaw()', (raw, id) => raw.setRaw(id, ident, values));
    return this;
  }

  /** Removes `ident`; whether it was there. */
  remove(ident) {
    identArg('remove()', ident);
    return this._edit('remove()', (raw, id) => raw.remove(id, ident));
  }

  /** Adds an empty child, last or at `index` (0: the main line). */
  addChild(at) {
    if (at !== undefined) index('addChild()', 'index', at, 'a place among the children, 0 for the main line');
    return new Node(this.collection, this._edit('addChild()', (raw, id) => raw.addChild(id, at)), made);
  }

  /** Removes this node and its subtree (a root: its game); their handles are refused from then on. */
  delete() {
    const gone = this._edit('delete()', (raw, id) => raw.deleteNode(id));
    this.collection._forget(gone);
  }

  /** Makes this node part of the main line. */
  promote() { this._edit('promote()', (raw, id) => raw.promote(id)); }

  /** Moves this node to `index` among its siblings (0: the main line). */
  moveTo(at) {
    index('moveTo()', 'index', at, 'a place among the siblings, 0 for the main line');
    this._edit('moveTo()', (raw, id) => raw.moveTo(id, at));
  }

  /**
   * Plays `color` (`'B'`/`'W'`) at `point` (SGF letters such as `'pd'`,
   * `[x, y]` from 0 from the top left as `info.moves` gives them, `''` or
   * `null` to pass) below this node: the child that already plays it, or
   * a new child (a variation when there are children). A new move the
   * rules forbid (occupied, suicide, ko) throws IllegalMoveError unless
   * `force` (SGF records such moves all the same).
   */
  play(color, point, opts) {
    this._raw();
    if (typeof color !== 'string') throw badArgument('play()', 'color must be "B" or "W"', color);
    const [letters, at] = pointOf('play()', point);
    const { force } = options('play()', opts, { force: aBoolean });
    const raw = this.collection._full('play()');
    if (!force) {
      const why = wasm('play()', () => raw.illegalMove(this.id, color, letters, at));
      if (why !== undefined) {
        const colon = why.indexOf(':');
        throw new IllegalMoveError(why.slice(0, colon), why.slice(colon + 1));
      }
    }
    this.collection._edited();
    return new Node(this.collection, wasm('play()', () => raw.play(this.id, color, letters, at)), made);
  }

  /** The position after this node. */
  position() {
    this._raw();
    const raw = this.collection._full('position()');
    return position(this.collection, wasm('position()', () => raw.positionOf(this.id)));
  }

  /**
   * The board diagram at this node as an SVG document.
   * @param {{coordinates?: boolean, moveNumbers?: number | 'all', theme?: 'light' | 'dark', status?: boolean, idPrefix?: string}} [opts]
   */
  svg(opts) {
    this._raw();
    const o = options('svg()', opts, {
      coordinates: aBoolean,
      moveNumbers: {
        ok: (v) => v === 'all' || (Number.isInteger(v) && v >= 0 && v <= 0x7fffffff),
        what: '"all" or a whole number 0 or more (the last moves numbered)',
      },
      theme: aString('"light" or "dark"'),
      status: aBoolean,
      idPrefix: aString('the prefix of the SVG\'s ids'),
    });
    const n = o.moveNumbers === 'all' ? -1 : o.moveNumbers;
    const raw = this.collection._full('svg()');
    return wasm('svg()', () => raw.svg(this.id, o.coordinates, n, o.theme, o.status, o.idPrefix));
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
      node: new Node(collection, p.node, made),
    };
  } finally {
    p.free();
  }
}
