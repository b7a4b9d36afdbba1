// @ts-check
// Qipu viewer: a thin view over the JSON API of `qipu view`. The Rust side
// parses, replays, draws the board (SVG) and writes files; this page only
// shows what it sends and forwards clicks and keys. This module starts
// the page; the others:
//   api.js      the HTTP API           state.js    the page's mutable state
//   actions.js  requests on the record letters.js  board coordinates
//   panels.js   showing a state        board.js    the board and its tools
//   tree.js     the game tree          engine.js   engine, analysis, counting
//   games.js    a collection's games   commands.js toolbar, keys, files
//   i18n.js     languages              dom.js      element helpers
//   search.js   the database search panel
//   menu.js     menu bar, panels, tabs
//   find.js     finding text, moves, comments, forks, hotspots
//   transform.js the board turned, mirrored, inverted
//   markdown.js comments as Markdown
//   resize.js   the side column's width, the panels' heights

import { api } from "./api.js";
import * as actions from "./actions.js";
import * as board from "./board.js";
import * as commands from "./commands.js";
import { $, message } from "./dom.js";
import * as engine from "./engine.js";
import * as find from "./find.js";
import * as games from "./games.js";
import * as menu from "./menu.js";
import * as resize from "./resize.js";
import { LANGUAGES, pickLanguage, setLanguage, tr } from "./i18n.js";
import { show, showInfo } from "./panels.js";
import * as search from "./search.js";
import { ui } from "./state.js";
import * as tree from "./tree.js";

/** The record shown again, in the language just chosen. */
function redraw() {
  menu.showKeys();
  menu.buildTabs();
  resize.labelGrips();
  if (!ui.state) return;
  show(ui.state);
  if (ui.state.info) showInfo(ui.state.info, true);
}

// What tests (and a user's console) may reach of the page.
/** @type {any} */ (window).qipuPage = {
  state: () => ui.state,
  boardPoint: board.boardPoint,
  show,
  message,
  discardOk: actions.discardOk,
  soundsPlayed: () => ui.soundsPlayed,
  tr,
  /** After another record was opened in place of session `id`. @param {number} id */
  closed: (id) => api("/api/close", { session: id }).catch(() => {}),
};

actions.setup();
board.setup();
tree.setup();
commands.setup();
engine.setup();
games.setup();
search.setup();
find.setup();
menu.setup();
resize.setup();

for (const [code, name] of Object.entries(LANGUAGES)) $("lang").add(new Option(name, code));
$("lang").addEventListener("change", () => setLanguage($("lang").value, redraw));
await setLanguage(pickLanguage(), redraw);
const s = await actions.call("/api/start", {});
// (A file that is not a record says so where the board would be.)
if (!s && !ui.notRecord) message(tr("Could not start: reload the page with its token."), true);
