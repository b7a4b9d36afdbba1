// @ts-check
// The page's mutable state, all of it: every module reads and writes it
// here, so what the page remembers between events is in one place.

/**
 * @typedef {object} Tree
 * @property {number | null} version the server's tree version (null: none yet)
 * @property {number} width the columns of the whole tree
 * @property {number} height its rows
 * @property {number[] | null} window the part of it held: [x0, y0, x1, y1]
 * @property {number[][]} nodes [x, y, kind, parent's row, flags, number] per node held
 * @property {number[][]} links [x, y, parent's row]: connectors crossing the part held
 */

/**
 * @typedef {object} Typing
 * @property {string} key the field typed in (one undo step: its merge key)
 * @property {() => void} send sends what was typed
 * @property {ReturnType<typeof setTimeout>} timer
 */

export const ui = {
  /** @type {any} the last state from the server (see `Session::state`) */
  state: null,
  /** @type {Tree} */
  tree: { version: null, width: 0, height: 0, window: null, nodes: [], links: [] },
  /** @type {Promise<any>} requests run one after another, in the order of the clicks and keys */
  queue: Promise.resolve(),
  /** @type {Record<string, string>} English → the chosen language */
  dict: {},
  /** @type {Record<string, string>} a diagnostic's code → its summary in the chosen language */
  codes: {},
  /** @type {Typing | null} the field typed in last, not yet sent */
  typing: null,
  /** counts the focus given to text fields (each focus: one undo step) */
  focusSerial: 0,
  /** @type {string | null} the first point of an arrow or line being drawn */
  lineFrom: null,
  /** the tree canvas's scroll */
  treeScroll: { x: 0, y: 0 },
  /** @type {AudioContext | null} */
  audio: null,
  soundsPlayed: 0,
  /** @type {ReturnType<typeof setInterval> | null} */
  autoTimer: null,
  /** wrong guesses of the next move */
  misses: 0,
  /** @type {any} the latest analysis of the position shown */
  analysis: null,
  /** @type {any} the win-rate graph of the line shown */
  graph: null,
  /** @type {any} the candidate whose variation the mouse shows */
  hoverPv: null,
  /** @type {ReturnType<typeof setInterval> | null} */
  engineTimer: null,
  /** the engine is choosing a move */
  thinking: false,
  /** the engines play each other (engine against engine) */
  engineGame: false,
  /** an analysis request is under way */
  fetching: false,
  /** the arrow keys: "lr" ←/→ move (the default), "ud" ↑/↓ move (Sabaki's) */
  keys: "lr",
  /** @type {boolean | null} whether a folder is served (Open and Save as by path); null: not told yet */
  folder: null,
  /** @type {string[]} the served folder's record files, as the file list shows them */
  files: [],
  /** @type {{path: string | null, sent: string} | null} the file shown that is not a game record (no record is shown then): its path in the folder, and why, as the server said it */
  notRecord: null,
};
