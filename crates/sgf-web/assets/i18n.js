// @ts-check
// Languages: English is the key; the translations are in assets/i18n/*.json.

import { api, setErrorText } from "./api.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";

/** @type {Record<string, string>} */
export const LANGUAGES = { en: "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", ja: "日本語", ko: "한국어" };

/**
 * `text` in the chosen language, `{name}` replaced from `vars`.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
export function tr(text, vars) {
  let t = ui.dict[text] || text;
  if (vars) t = t.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return t;
}

/**
 * The server's messages (crates/sgf-web/src), sent in English, as the page
 * shows them: each template's `{name}`s read back from the message, and
 * translated themselves when they are one of these. A message that is
 * none of them (an error of the system, an engine's words) stays as sent.
 * `tests/i18n.rs` holds this list to the messages the server writes.
 */
const SERVER = [
  "Illegal move: {why} ({point}). Play it anyway?",
  "Illegal move: {why}. Play it anyway?",
  "there is already a stone on this point",
  "this move is a suicide (its group would have no liberty)",
  "this move retakes a ko immediately",
  "`{ident}` is not a game-info property",
  "`{point}` is not a point of this board",
  "a line needs two different points",
  "no comment of this game holds “{q}”",
  "no hotspot (HO) in this game",
  "no move at {point} in this game",
  "no such game",
  "no game",
  "no such node",
  "no such part",
  "no variation here to shift",
  "no comment before this node",
  "no fork before this node",
  "no comment further on this line",
  "no fork further on this line",
  "nothing copied: copy or cut a variation first",
  "nothing copied",
  "nothing to redo",
  "nothing to repair",
  "nothing to undo",
  "the board is shown as recorded: turn, mirror or invert it first",
  "the root cannot be cut: copy it",
  "the root cannot be deleted",
  "the stone on {point} was placed by setup, not by a move",
  "this is the start of the game already",
  "this line has no other variations",
  "this part of the file could not be read",
  "this record was read from a {format} file: use \"Save as\" to write SGF",
  "this variation is the leftmost already",
  "this variation is the rightmost already",
  "type the text to find",
  "a board has 2 to 52 lines",
  "a handicap of {handicap} stones cannot be placed on {size}×{size}",
  "komi must be a number",
  "click a stone to mark its group dead or alive",
  "engines play boards of 2 to 25 lines",
  "no engine is running: start one, or count with Qipu's estimator",
  "no engine is running",
  "not counting: press Count first",
  "the position changed while {engine} was thinking: its move was not played",
  "{engine} (Black) passes",
  "{engine} (White) passes",
  "{engine} (Black) plays {point}",
  "{engine} (White) plays {point}",
  "{engine} (Black) resigns",
  "{engine} (White) resigns",
  "{engine} cannot analyse (it has neither lz-analyze nor kata-analyze)",
  "analysing {total} positions",
  "name an engine of engines.toml or give its command line",
  "no position",
  "start the first engine first",
  "start an engine first",
  "this record has no file: use \"Save as\"",
  "{name} is ready",
  "{rel} is read-only: use \"Save as\"",
  "{rel} not saved: {e}",
  "{rel} was changed on disk by another program since it was opened: reload it, overwrite it, or save as another file",
  "`{s}` is not a number of moves",
  "`{s}` is not a point: two letters a-z or A-Z expected",
  "this record is no longer open in the viewer (it was closed)",
  "this record is no longer open in the viewer",
  "unknown rules `{s}`",
  "`{rel}` is not a path under the served directory",
  "`{rel}` is not a record file",
  "`{rel}` is outside the served directory",
  "`{rel}`: no folder is served (qipu view was started without a path): start it with a folder or a file to open and save files",
  "larger than {max}, the most the viewer opens; nothing was read",
  "{path}: no such file or directory",
  "{what}: available with `qipu view`, which runs on your computer",
  "saving to a folder",
  "searching a database",
  "`{p}`: files of a folder",
  "counting with an engine's dead stones is available with `qipu view`, which runs on your computer",
  "engines are available with `qipu view`, which runs on your computer",
  "it is back with its unsaved changes (not its undo history)",
  "it was changed on disk since: this is the file as it is now",
  "its engine was stopped",
  "{name} was put aside to free memory and cannot be read again: {e}",
  "{name} was put aside to free memory; {why}",
  "the unsaved changes of {name} were kept in {path} but cannot be read back: {e}",
  "no database: start the viewer with --db GAMES.qdb",
  "no game {id} in the database: {e}",
];

/** @type {[RegExp, string, string[]][] | null} */
let serverPatterns = null;

/**
 * A message of the server in the chosen language.
 * @param {string} text
 * @returns {string}
 */
export function serverText(text) {
  if (!text || !Object.keys(ui.dict).length) return text;
  serverPatterns ||= SERVER.map((t) => {
    /** @type {string[]} */
    const names = [];
    const src = t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{(\w+)\\\}/g, (_, n) => { names.push(n); return "(.+?)"; });
    return [new RegExp(`^${src}$`, "s"), t, names];
  });
  // A message can fit several templates (`Illegal move: {why} ({point})…`
  // fits a reason that holds parentheses): the reading whose parts are
  // messages themselves wins, then the one of fewer parts.
  let best = null, bestScore = -Infinity;
  for (const [re, t, names] of serverPatterns) {
    const m = re.exec(text);
    if (!m) continue;
    /** @type {Record<string, string>} */
    const vars = {};
    let known = 0;
    names.forEach((n, i) => {
      vars[n] = serverText(m[i + 1]);
      if (vars[n] !== m[i + 1]) known += 1;
    });
    const score = known * 100 - names.length;
    if (score > bestScore) [best, bestScore] = [tr(t, vars), score];
  }
  return best ?? text;
}

/** The browser's language, or the one chosen before. */
export function pickLanguage() {
  try {
    const saved = localStorage.getItem("qipu.lang");
    if (saved && LANGUAGES[saved]) return saved;
  } catch (e) { /* private mode */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const x = l.toLowerCase();
    if (x === "zh-tw" || x === "zh-hk" || x === "zh-mo" || x.startsWith("zh-hant")) return "zh-Hant";
    if (x.startsWith("zh")) return "zh-Hans";
    if (x.startsWith("ja")) return "ja";
    if (x.startsWith("ko")) return "ko";
    if (x.startsWith("en")) return "en";
  }
  return "en";
}

// Parts of the page filled by the code, translated where they are made.
const DYNAMIC = ["board", "players", "status", "message", "title", "nodename", "games", "gamescount",
  "filelist", "diagnostics", "diagtoggle", "variations", "annotations", "info", "tree", "gamestable",
  "repairlist", "repairsummary", "conflicttext", "diagramtext", "diagramnote", "pastetext", "comment", "jump", "name",
  "dbinfo", "dbsummary", "dbconts", "dbhits", "enginepick", "enginestatus", "countresult",
  "menus", "tabs", "keysmoves", "keysvars", "prev", "next", "prevvar", "nextvar", "gtplog", "batchstatus", "engine2status"];
/** @type {WeakMap<Node, any>} text node or element → its English text, attribute by attribute */
const originals = new WeakMap();

/** The page's fixed words in the chosen language. */
export function translatePage() {
  /** @param {Element} el */
  const skip = (el) => DYNAMIC.some((id) => { const d = document.getElementById(id); return d && d.contains(el) && !(id === "gamestable" && el.closest("thead")); });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = /** @type {Element} */ (n.parentElement);
    if (!(n.nodeValue || "").trim() || parent.closest("script") || skip(parent)) continue;
    if (!originals.has(n)) originals.set(n, n.nodeValue);
    const en = originals.get(n);
    const core = en.trim();
    n.nodeValue = en.replace(core, tr(core));
  }
  for (const el of document.body.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (skip(el) && !el.matches("#games, #comment, #jump, #name, #gamesfilter, #enginepick, #tree, #tabs, #players")) continue;
    if (!originals.has(el)) {
      originals.set(el, { title: el.getAttribute("title"), placeholder: el.getAttribute("placeholder"), label: el.getAttribute("aria-label") });
    }
    const o = originals.get(el);
    const e = /** @type {HTMLInputElement} */ (el);
    if (o.title) e.title = tr(o.title);
    if (o.placeholder) e.placeholder = tr(o.placeholder);
    if (o.label) el.setAttribute("aria-label", tr(o.label));
  }
}

/** @type {(() => void)[]} what the modules show again in a new language */
const relabels = [];

/**
 * `fn` runs whenever the page changes language: for words a module made
 * with `tr` (not the page's fixed words, which `translatePage` does).
 * @param {() => void} fn
 */
export function onLanguage(fn) {
  relabels.push(fn);
}

/**
 * Loads language `lang` and shows the page in it; `redraw` shows the
 * record again in it.
 * @param {string} lang
 * @param {() => void} redraw
 */
export async function setLanguage(lang, redraw) {
  ui.dict = lang === "en" ? {} : (await api(`/i18n/${lang}.json`).catch(() => ({ strings: {} }))).strings;
  document.documentElement.lang = lang;
  $("lang").value = lang;
  try { localStorage.setItem("qipu.lang", lang); } catch (e) { /* private mode */ }
  translatePage();
  for (const fn of relabels) fn();
  redraw();
}

// A refusal of the server reaches the page in its language.
setErrorText(serverText);
