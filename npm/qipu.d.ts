// Types of qipu.js, the package's API. The WebAssembly side it wraps
// (`Collection.raw`) is typed by wasm-bindgen in pkg/qipu_full.d.ts (the
// core module's is a part of it).
import type * as raw from './pkg/qipu_full.js';

/** Options of `parse`. */
export interface ParseOptions {
  /** Forces the charset of SGF bytes (`'GB18030'`, `'Shift_JIS'`, …); bytes only. */
  charset?: string;
  /** Forces the format: `'SGF'`, `'GIB'`, `'NGF'`, `'UGF'`, `'WGS'` (default: sniffed, `'auto'`). */
  format?: string;
  /** The file's name: its extension breaks ties between formats (default `collection.sgf`). */
  name?: string;
}

/**
 * Reads a record (SGF, GIB, NGF, UGF/UGI, WGS) from bytes or text. Never
 * throws on bad content; throws a QipuError for a bad argument or an
 * unknown charset or format.
 */
export function parse(data: Uint8Array | ArrayBuffer | string, options?: ParseOptions): Collection;

/** A new collection of one empty game. */
export function newCollection(): Collection;

/**
 * Loads the full WebAssembly module: other formats, `check`, `fix`,
 * `info`, `toSgf`, positions, checked play and diagrams. Needed before
 * those in browsers; Node loads it by itself when first needed.
 */
export function load(): Promise<void>;

/** Whether the full module is loaded. */
export function isLoaded(): boolean;

/**
 * Every error the package throws: a bad argument (the message names the
 * call and the argument: `play(): point must be …`), a handle of a node
 * that was deleted or of a collection that was freed, or what the library
 * refuses (an unknown charset, a value the charset cannot hold, …).
 */
export class QipuError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
}

/** A move the rules forbid, refused by `Node.play` without `force`. */
export class IllegalMoveError extends QipuError {
  private constructor();
  readonly reason: 'occupied' | 'suicide' | 'ko';
}

/** A diagnostic, as `qipu check --json` prints it. */
export interface Diagnostic {
  code: string;
  name: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
  /** 1-based line. */
  line: number;
  /** 1-based byte column. */
  column: number;
  /** Byte offset of the first byte in the file. */
  start: number;
  /** Byte offset past the last byte. */
  end: number;
  /** What `fix()` does about it, if anything. */
  fix?: string;
}

/** What `qipu check --json` prints for a file. */
export interface CheckReport {
  path: string;
  diagnostics: Diagnostic[];
  changes?: Change[];
  omitted?: Record<string, number>;
  error?: string;
}

/** A repair made by `fix()`, as `qipu check --fix --json` prints it. */
export interface Change {
  code: string;
  message: string;
  line: number;
  column: number;
  start: number;
  end: number;
  /** The text before (`''` for a change to the tree). */
  before: string;
  /** The text after. */
  after: string;
}

/** A property of a node: its FF[4] identifier and its values, decoded. */
export interface Property {
  ident: string;
  values: string[];
}

/** A move: its colour and point (SGF letters, `''` for a pass). */
export interface Move {
  color: 'B' | 'W';
  point: string;
}

/** A board position. */
export interface Position {
  cols: number;
  rows: number;
  /** Row by row from the top: 0 empty, 1 black, 2 white. */
  board: Uint8Array;
  toPlay: 'B' | 'W';
  /** Stones captured by each colour. */
  captures: { B: number; W: number };
  /** The point that may not be retaken at once, if any. */
  ko: string | null;
  moveNumber: number;
  lastMove: Move | null;
  /** The node it is the position after. */
  node: Node;
}

/** The game information, typed: the library's game summary (as `qipu export` writes it). */
export interface GameInfo {
  size: [number, number];
  charset: string;
  nodes: number;
  /** Every game-information property as written: `[ident, text]`. */
  info: [string, string][];
  black: string | null;
  white: string | null;
  black_rank: string | null;
  white_rank: string | null;
  event: string | null;
  round: string | null;
  place: string | null;
  rules: string | null;
  name: string | null;
  time_control: string | null;
  /** `DT` as written. */
  date: string | null;
  /** `DT` read as ISO dates. */
  dates: string[] | null;
  /** `RE` as written. */
  result: string | null;
  /** `RE` read, in FF[4] form (`'B+R'`, `'W+6.5'`, …). */
  outcome: string | null;
  komi: number | null;
  komi_text: string | null;
  handicap: number | null;
  time_limit: number | null;
  setup_black: [number, number][];
  setup_white: [number, number][];
  moves: { color: 'B' | 'W'; point: [number, number] | null; unplayable?: string }[];
  errors: number;
  warnings: number;
}

/**
 * A parsed collection: one or more games, kept inside WebAssembly. Made
 * by `parse()` and `newCollection()`; once freed, it and its handles throw.
 */
export class Collection {
  private constructor();
  /** The WebAssembly side. */
  readonly raw: raw.Collection;
  readonly gameCount: number;
  readonly games: Game[];
  game(index: number): Game;
  /** `'SGF'`, or `'GIB'`, `'NGF'`, `'UGF'`, `'WGS'` for a converted record. */
  readonly format: string;
  readonly name: string;
  readonly isEdited: boolean;
  /** The diagnostics of reading. */
  readonly diagnostics: Diagnostic[];
  /** Every FF[4] and Go rule checked, as `qipu check --json` reports the file. */
  check(options?: { path?: string }): CheckReport;
  /**
   * Repairs in place as `qipu check --fix` does; the changes. With
   * changes, the collection becomes the repaired file (`isEdited`; the
   * handles taken before throw: take them again); without, it is left as
   * it was, byte for byte.
   */
  fix(options?: { variationLevel?: boolean }): Change[];
  /** The lossless bytes: the input byte for byte, only the edits changed. */
  toBytes(): Uint8Array;
  /** The canonical FF[4] UTF-8 text `qipu fmt` writes. */
  toSgf(options?: { pointLists?: 'as-written' | 'compressed' | 'expanded' }): string;
  /** Frees the WebAssembly memory now; the collection and its handles throw from then on. */
  free(): void;
  [Symbol.dispose](): void;
}

/** A game tree of a collection: a handle, taken from `Collection.games` or `game()`. */
export class Game {
  private constructor();
  readonly collection: Collection;
  readonly rootId: number;
  readonly index: number;
  readonly root: Node;
  readonly charset: string;
  readonly info: GameInfo;
  nodes(): Node[];
  /** The node ids in file order (the fast walk). */
  nodeIds(): Uint32Array;
  mainLine(): Node[];
  /** The node whose number (index in file order, root 0) is `k`, or null when the game has fewer. */
  nodeByNumber(k: number): Node | null;
  readonly moveCount: number;
  /** The position after move `n` of the main line (0: the root with its setup). */
  positionAt(n: number): Position;
  boards(): { count: number; cols: number; rows: number; data: Uint8Array };
}

/** Options of `Node.svg`. */
export interface SvgOptions {
  coordinates?: boolean;
  /** `'all'`, or the number of last moves numbered (0: none). */
  moveNumbers?: number | 'all';
  theme?: 'light' | 'dark';
  /** A status line under the board. */
  status?: boolean;
  /** Prefix of the SVG's ids (several diagrams in one page). */
  idPrefix?: string;
}

/**
 * A point for `Node.play`: SGF letters (`'pd'`), `[x, y]` counted from 0
 * from the top left (as `GameInfo.moves` gives a point), or `''` or
 * `null` to pass.
 */
export type Point = string | [number, number] | null;

/**
 * A node of a game tree: a handle (collection, id), taken from a game or
 * another node. A handle of a deleted node throws (`this node was
 * deleted`), as does one taken before `fix()` rewrote the collection.
 */
export class Node {
  private constructor();
  readonly collection: Collection;
  readonly id: number;
  equals(other: unknown): boolean;
  readonly game: Game;
  readonly parent: Node | null;
  readonly children: Node[];
  readonly next: Node | null;
  readonly nextSibling: Node | null;
  readonly isRoot: boolean;
  readonly number: number;
  readonly depth: number;
  properties(): Property[];
  keys(): string[];
  has(ident: string): boolean;
  get(ident: string): string | undefined;
  values(ident: string): string[];
  raw(ident: string): string[];
  readonly move: Move | null;
  set(ident: string, value: string | number | (string | number)[]): this;
  setRaw(ident: string, raws: string | string[]): this;
  remove(ident: string): boolean;
  addChild(index?: number): Node;
  delete(): void;
  promote(): void;
  moveTo(index: number): void;
  play(color: 'B' | 'W', point: Point, options?: { force?: boolean }): Node;
  position(): Position;
  svg(options?: SvgOptions): string;
}
