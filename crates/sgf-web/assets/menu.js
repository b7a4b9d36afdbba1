// @ts-check
// The frame of the page, as a desktop application has it: the menu bar
// (every action with its shortcut), the arrow keys' layout, the side
// panels shown or hidden (and the side column's width), and on a phone
// the panels as tabs under the board.

import { edit, nav, openRecord } from "./actions.js";
import { $, message } from "./dom.js";
import { analyseGame, graphWanted, openConsole, ownershipWanted, setGraphWanted, toggleEngineGame, toggleOwnership } from "./engine.js";
import { findMoveMode, findText, openFind, stepTo } from "./find.js";
import { LANGUAGES, tr } from "./i18n.js";
import { ui } from "./state.js";
import { applyView, transformView, transformed, view } from "./transform.js";

/**
 * An entry of a menu: an action (`run`), a choice (`checked` says
 * whether it is the one on), or a separator (null).
 * @typedef {{id: string, label: string, keys?: string, run: () => unknown, checked?: () => boolean, enabled?: () => boolean, lang?: string} | null} Item
 */

/** The side panels, by name: what View shows and hides, and the phone's tabs. */
export const PANELS = [
  ["comment", "Comment", "Comment"], ["tree", "Game tree", "Tree"], ["info", "Game information", "Info"],
  ["engine", "Engine", "Engine"], ["search", "Search", "Search"], ["files", "Files", "Files"],
];

/** @param {string} id */
const press = (id) => () => $(id).click();

/** Whether a record with several games is shown. */
const collection = () => !!(ui.state && ui.state.games > 1);

/** The arrow keys, in the layout chosen: "lr" ←/→ move (Qipu, CGoban, KGS), "ud" ↑/↓ move (Sabaki). */
export function keyLayout() {
  return ui.keys === "ud" ? "ud" : "lr";
}

/** The keys of moving and of switching variations, as shown. */
export function arrowKeys() {
  return keyLayout() === "ud"
    ? { prev: "↑", next: "↓", prevVar: "←", nextVar: "→" }
    : { prev: "←", next: "→", prevVar: "↑", nextVar: "↓" };
}

/**
 * Chooses the arrow keys' layout (remembered by the browser).
 * @param {string} layout "lr" or "ud"
 */
export function setKeyLayout(layout) {
  ui.keys = layout === "ud" ? "ud" : "lr";
  try { localStorage.setItem("qipu.keys", ui.keys); } catch (e) { /* private mode */ }
  showKeys();
}

/** The buttons' titles and the key list, in the layout chosen. */
export function showKeys() {
  const k = arrowKeys();
  const ud = keyLayout() === "ud";
  // The English texts are the i18n keys: one per layout.
  $("prev").title = tr(ud ? "Previous (↑)" : "Previous (←)");
  $("next").title = tr(ud ? "Next (↓)" : "Next (→)");
  $("prevvar").title = tr(ud ? "Previous variation (←)" : "Previous variation (↑)");
  $("nextvar").title = tr(ud ? "Next variation (→)" : "Next variation (↓)");
  const moves = $("keysmoves");
  const vars = $("keysvars");
  if (moves) moves.textContent = `${k.prev} ${k.next}`;
  if (vars) vars.textContent = `${k.prevVar} ${k.nextVar}`;
  buildMenus();
}

/** @returns {Record<string, Item[]>} the menus, in the page's language */
function menus() {
  const k = arrowKeys();
  /** @param {string} tool */
  const tool = (tool) => () => {
    $("tool").value = tool;
    $("tool").dispatchEvent(new Event("change"));
  };
  /** @param {string} kind @param {number} [strength] */
  const annotate = (kind, strength) => () => edit("annotate", { kind, strength });
  /** @param {string} kind @param {number} [strength] */
  const has = (kind, strength = 1) => () => !!(ui.state && ui.state.node.annotations.some(
    (/** @type {any} */ a) => a.code === kind && (kind === "IT" || (a.strength || 1) === strength)));
  /** @param {string} panel @param {string} id */
  const engine = (panel, id) => () => {
    showPanel(panel, true);
    $(id).click();
  };
  return {
    File: [
      { id: "m-new", label: "New game…", run: newGame },
      { id: "m-open", label: "Open…", keys: "Ctrl+O", run: press("open") },
      { id: "m-refresh", label: "Refresh the file list", run: press("refreshfiles"), enabled: () => !$("files").hidden },
      { id: "m-save", label: "Save", keys: "Ctrl+S", run: press("save") },
      { id: "m-saveas", label: "Save as…", keys: "Ctrl+Shift+S", run: press("saveas") },
      { id: "m-copysgf", label: "Copy the game as SGF", run: press("copysgf") },
      null,
      { id: "m-games", label: "Games of the collection…", keys: "G", run: press("games"), enabled: collection },
      { id: "m-repair", label: "Repair…", run: press("repair") },
      null,
      { id: "m-png", label: "Export the position as PNG", run: press("png") },
      { id: "m-svg", label: "Export the position as SVG", run: press("svg") },
      { id: "m-jpg", label: "Export the position as JPEG", run: press("jpg") },
      { id: "m-bmp", label: "Export the position as BMP", run: press("bmp") },
      { id: "m-figures", label: "The game as book figures…", run: press("figures") },
      { id: "m-copydiagram", label: "Copy the position as a text diagram for Sensei's Library (and forums)", run: press("copydiagram") },
    ],
    Edit: [
      { id: "m-undo", label: "Undo", keys: "Ctrl+Z", run: () => edit("undo"), enabled: () => !!(ui.state && ui.state.can_undo) },
      { id: "m-redo", label: "Redo", keys: "Ctrl+Y", run: () => edit("redo"), enabled: () => !!(ui.state && ui.state.can_redo) },
      null,
      { id: "m-pass", label: "Pass", run: press("pass") },
      { id: "m-promote", label: "Make this variation the main line", run: press("promote") },
      { id: "m-delete", label: "Delete this node and what follows", keys: "Del", run: press("delete") },
      null,
      { id: "m-copyvar", label: "Copy the variation", keys: "Ctrl+C", run: copyVariation },
      { id: "m-cutvar", label: "Cut the variation", keys: "Ctrl+X", run: cutVariation, enabled: notRoot },
      { id: "m-pastevar", label: "Paste the variation here", keys: "Ctrl+V", run: pasteVariation, enabled: () => !!(ui.state && ui.state.clipboard) },
      { id: "m-shiftleft", label: "Shift the variation left", keys: "Ctrl+←", run: () => edit("shift_variation", { left: true }) },
      { id: "m-shiftright", label: "Shift the variation right", keys: "Ctrl+→", run: () => edit("shift_variation", { left: false }) },
      { id: "m-removeothers", label: "Remove the other variations", keys: "Shift+Del", run: removeOthers },
      { id: "m-flatten", label: "Flatten: this position becomes the start", keys: "Shift+F", run: flatten, enabled: notRoot },
      null,
      { id: "m-comment", label: "Edit the comment", keys: "C", run: () => revealPanel("comment", "comment") },
      { id: "m-info", label: "Edit the game information", keys: "I", run: () => revealPanel("info", "info-PB") },
    ],
    Navigate: [
      { id: "m-first", label: "First", keys: "Home", run: () => nav("first") },
      { id: "m-back10", label: "Back 10", keys: "PgUp", run: () => nav("back10") },
      { id: "m-prev", label: "Previous", keys: k.prev, run: () => nav("prev") },
      { id: "m-next", label: "Next", keys: k.next, run: () => nav("next") },
      { id: "m-fwd10", label: "Forward 10", keys: "PgDn", run: () => nav("forward10") },
      { id: "m-last", label: "Last", keys: "End", run: () => nav("last") },
      null,
      { id: "m-prevvar", label: "Previous variation", keys: k.prevVar, run: () => nav("prev_variation") },
      { id: "m-nextvar", label: "Next variation", keys: k.nextVar, run: () => nav("next_variation") },
      { id: "m-jump", label: "Go to move…", keys: "M", run: () => $("jump").focus() },
      { id: "m-prevcomment", label: "Previous comment", keys: "Ctrl+Shift+↑", run: () => stepTo("comment", false) },
      { id: "m-nextcomment", label: "Next comment", keys: "Ctrl+Shift+↓", run: () => stepTo("comment", true) },
      { id: "m-prevfork", label: "Previous fork", keys: "Ctrl+↑", run: () => stepTo("fork", false) },
      { id: "m-nextfork", label: "Next fork", keys: "Ctrl+↓", run: () => stepTo("fork", true) },
      { id: "m-prevhotspot", label: "Previous hotspot", keys: "Shift+F2", run: () => stepTo("hotspot", false) },
      { id: "m-nexthotspot", label: "Next hotspot", keys: "F2", run: () => stepTo("hotspot", true) },
      null,
      { id: "m-find", label: "Find in the comments…", keys: "Ctrl+F", run: openFind },
      { id: "m-findnext", label: "Find the next hit", keys: "F3", run: () => findText(false) },
      { id: "m-findprev", label: "Find the previous hit", keys: "Shift+F3", run: () => findText(true) },
      { id: "m-findmove", label: "Find a move (click a point)", keys: "F", run: findMoveMode, checked: () => $("tool").value === "find" },
      { id: "m-autoplay", label: "Autoplay", keys: "A", run: press("autoplay") },
      null,
      { id: "m-prevgame", label: "Previous game", keys: "[", run: () => otherGame(-1), enabled: collection },
      { id: "m-nextgame", label: "Next game", keys: "]", run: () => otherGame(1), enabled: collection },
    ],
    Annotate: [
      { id: "m-TE", label: "Good move (tesuji)", run: annotate("TE"), checked: has("TE") },
      { id: "m-BM", label: "Bad move", run: annotate("BM"), checked: has("BM") },
      { id: "m-DO", label: "Doubtful move", run: annotate("DO"), checked: has("DO") },
      { id: "m-IT", label: "Interesting move", run: annotate("IT"), checked: has("IT") },
      null,
      { id: "m-GB", label: "Good for Black", run: annotate("GB"), checked: has("GB") },
      { id: "m-GW", label: "Good for White", run: annotate("GW"), checked: has("GW") },
      { id: "m-DM", label: "Even position", run: annotate("DM"), checked: has("DM") },
      { id: "m-UC", label: "Unclear position", run: annotate("UC"), checked: has("UC") },
      { id: "m-HO", label: "Hotspot", keys: "Ctrl+B", run: annotate("HO"), checked: has("HO") },
      null,
      { id: "m-tool-play", label: "Play / go to move", run: tool("play"), checked: () => $("tool").value === "play" },
      { id: "m-tool-TR", label: "Triangle", run: tool("TR"), checked: () => $("tool").value === "TR" },
      { id: "m-tool-CR", label: "Circle", run: tool("CR"), checked: () => $("tool").value === "CR" },
      { id: "m-tool-SQ", label: "Square", run: tool("SQ"), checked: () => $("tool").value === "SQ" },
      { id: "m-tool-MA", label: "Mark (X)", run: tool("MA"), checked: () => $("tool").value === "MA" },
      { id: "m-tool-labelA", label: "Label A, B, C…", run: tool("labelA"), checked: () => $("tool").value === "labelA" },
      { id: "m-tool-label1", label: "Label 1, 2, 3…", run: tool("label1"), checked: () => $("tool").value === "label1" },
      { id: "m-tool-AR", label: "Arrow (two clicks)", run: tool("AR"), checked: () => $("tool").value === "AR" },
      { id: "m-tool-setupB", label: "Add black stone", run: tool("setupB"), checked: () => $("tool").value === "setupB" },
      { id: "m-tool-setupW", label: "Add white stone", run: tool("setupW"), checked: () => $("tool").value === "setupW" },
    ],
    Engine: [
      { id: "m-engine", label: "Engine: play, analyse, count", run: () => revealPanel("engine") },
      { id: "m-enginemove", label: "Engine move", run: engine("engine", "enginemove") },
      { id: "m-count", label: "Count", run: engine("engine", "count") },
      { id: "m-analyse", label: "Analyse the position shown", run: () => toggle("analyse"), checked: () => $("analyse").checked, enabled: () => !$("analyse").disabled },
      { id: "m-analysegame", label: "Analyse the whole game", keys: "Shift+A", run: analyseGame, checked: () => !!(ui.state && ui.state.engine && ui.state.engine.batch) },
      { id: "m-show-winrate", label: "Show win rates", run: () => choose("analysisshow", "winrate"), checked: () => $("analysisshow").value === "winrate" },
      { id: "m-show-lead", label: "Show score leads", run: () => choose("analysisshow", "lead"), checked: () => $("analysisshow").value === "lead" },
      { id: "m-show-heat", label: "Show a heat map", run: () => choose("analysisshow", "heat"), checked: () => $("analysisshow").value === "heat" },
      { id: "m-ownership", label: "Show who owns each point (KataGo's ownership)", run: toggleOwnership, checked: ownershipWanted },
      { id: "m-biggraph", label: "The large graph under the board", run: () => setGraphWanted(!graphWanted()), checked: graphWanted },
      { id: "m-console", label: "GTP console…", keys: "Shift+G", run: openConsole },
      { id: "m-engine2", label: "White's engine: a second engine…", run: () => revealPanel("engine", "enginestart2") },
      { id: "m-enginegame", label: "Engine vs engine", keys: "Shift+E", run: toggleEngineGame, checked: () => ui.engineGame },
      null,
      { id: "m-search", label: "Search the database", run: () => revealPanel("search") },
    ],
    View: [
      ...PANELS.map(([name, label]) => /** @type {Item} */ ({
        id: `m-panel-${name}`, label, run: () => showPanel(name, !panelShown(name)), checked: () => panelShown(name),
      })),
      null,
      { id: "m-numbers", label: "Move numbers", run: () => toggle("numbers"), checked: () => $("numbers").checked },
      { id: "m-sound", label: "Stone sounds", run: () => toggle("sound"), checked: () => $("sound").checked },
      { id: "m-theme-light", label: "Light", run: () => choose("theme", "light"), checked: () => $("theme").value === "light" },
      { id: "m-theme-dark", label: "Dark", run: () => choose("theme", "dark"), checked: () => $("theme").value === "dark" },
      { id: "m-theme-wood", label: "Wood board", run: () => choose("theme", "wood"), checked: () => $("theme").value === "wood" },
      null,
      // The page's language, each in its own words: a phone has no room
      // for the select beside the menu bar.
      ...Object.entries(LANGUAGES).map(([code, name]) => /** @type {Item} */ ({
        id: `m-lang-${code}`, label: name, lang: code, run: () => choose("lang", code), checked: () => $("lang").value === code,
      })),
      null,
      { id: "m-rotcw", label: "Turn the board clockwise", keys: "R", run: () => transformView("clockwise") },
      { id: "m-rotccw", label: "Turn the board anticlockwise", keys: "Shift+R", run: () => transformView("anticlockwise") },
      { id: "m-fliph", label: "Mirror the board left-right", keys: "V", run: () => transformView("horizontal") },
      { id: "m-flipv", label: "Mirror the board top-bottom", keys: "Shift+V", run: () => transformView("vertical") },
      { id: "m-invert", label: "Swap the colours", keys: "Shift+I", run: () => transformView("invert"), checked: () => view().invert },
      { id: "m-resetview", label: "The board as recorded", keys: "Shift+0", run: () => transformView("reset"), enabled: transformed },
      { id: "m-applyview", label: "Write the board as shown into the record…", keys: "Shift+T", run: applyView, enabled: transformed },
      null,
      { id: "m-keys-lr", label: "Arrow keys: ←/→ moves, ↑/↓ variations (Qipu, CGoban, KGS)", run: () => setKeyLayout("lr"), checked: () => keyLayout() === "lr" },
      { id: "m-keys-ud", label: "Arrow keys: ↑/↓ moves, ←/→ variations (Sabaki)", run: () => setKeyLayout("ud"), checked: () => keyLayout() === "ud" },
    ],
    Help: [
      { id: "m-keys", label: "Keys", keys: "?", run: () => $("helpdialog").showModal() },
      { id: "m-about", label: "About Qipu", run: () => $("aboutdialog").showModal() },
    ],
  };
}

/** Whether the node shown is not the root. */
const notRoot = () => !!(ui.state && ui.state.node.number !== 0);

/** The board's view: turned, mirrored, its colours swapped (View's items that need a record). */
const BOARD_VIEW = new Set(["m-rotcw", "m-rotccw", "m-fliph", "m-flipv", "m-invert", "m-resetview", "m-applyview"]);

/**
 * Whether item `id` of menu `menu` works with no record shown (a file
 * that is none): opening another, the file list, the page's view, help.
 * @param {string} menu
 * @param {string} id
 */
function withoutRecord(menu, id) {
  if (menu === "Help") return true;
  if (menu === "View") return !BOARD_VIEW.has(id);
  return id === "m-new" || id === "m-open" || id === "m-refresh";
}

/** The variation from the node shown on, kept to paste. */
export async function copyVariation() {
  const s = await edit("copy_variation");
  if (s && !s.error_kind) message(tr("The variation is copied: Paste puts it after another move."));
}

/** The variation copied, then deleted. */
export async function cutVariation() {
  const s = await edit("cut_variation");
  if (s && !s.error_kind) message(tr("The variation is cut: Paste puts it after another move (Undo brings it back)."));
}

/** The variation copied, pasted after the node shown. */
export function pasteVariation() {
  return edit("paste_variation");
}

/** Every variation but the line shown deleted, once the user agrees. */
export function removeOthers() {
  if (confirm(tr("Delete every variation but this line? Undo brings them back."))) return edit("remove_other_variations");
}

/** Sabaki's flatten, once the user agrees. */
export function flatten() {
  if (confirm(tr("Make this position the start of the game (the moves before it become setup stones)? Undo takes it back."))) return edit("flatten");
}

/**
 * Ticks a checkbox of the page, as a click would.
 * @param {string} id
 */
function toggle(id) {
  $(id).checked = !$(id).checked;
  $(id).dispatchEvent(new Event("change"));
}

/**
 * Chooses in a drop-down of the page, as the user would.
 * @param {string} id
 * @param {string} value
 */
function choose(id, value) {
  $(id).value = value;
  $(id).dispatchEvent(new Event("change"));
}

/** @param {number} d the game before (-1) or after (1) the one shown */
export function otherGame(d) {
  if (!collection()) return;
  const g = ui.state.game + d;
  if (g >= 0 && g < ui.state.games) nav("game", { game: g });
}

/** A new record, as the New game dialog sets it: board, komi, handicap, rules, players. */
export function newGame() {
  // Escape leaves the last returnValue: cleared, so it never creates.
  $("newdialog").returnValue = "";
  $("newdialog").showModal();
  $("ng-size").focus();
}

/** The New game dialog's fields, and what its Create button does. */
function setupNewGame() {
  const lines = () => ($("ng-size").value === "other" ? +$("ng-lines").value : +$("ng-size").value);
  $("ng-size").addEventListener("change", () => {
    $("ng-lines").hidden = $("ng-size").value !== "other";
    if (!$("ng-lines").hidden) $("ng-lines").focus();
  });
  // Komi follows the handicap, as is usual: half a point with handicap stones.
  $("ng-handicap").addEventListener("change", () => {
    $("ng-komi").value = +$("ng-handicap").value >= 2 ? "0.5" : "6.5";
  });
  // Cancel is no submit button: Enter in a field creates the game.
  $("ng-cancel").addEventListener("click", () => $("newdialog").close("cancel"));
  $("newdialog").addEventListener("close", () => {
    if ($("newdialog").returnValue !== "ok") return;
    const n = lines();
    openRecord({
      new_game: {
        size: n, komi: +$("ng-komi").value || 0, handicap: +$("ng-handicap").value || 0,
        rules: $("ng-rules").value, black: $("ng-black").value, white: $("ng-white").value,
      },
      name: "new-game.sgf",
    }, "A new game");
  });
}

/** @type {string | null} the menu open */
let openMenu = null;
/** the menu whose title takes the focus when the menu bar is entered (Tab, F10, Alt) */
let barMenu = "File";
/** @type {HTMLElement | null} where the focus was before F10 or Alt took it to the menu bar */
let returnFocus = null;

/** The menu bar, made again (in the page's language, with its ticks). */
export function buildMenus() {
  const bar = $("menus");
  const all = menus();
  // What had the focus in the bar has it again once made anew.
  const focused = bar.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).id : null;
  bar.replaceChildren();
  for (const [name, items] of Object.entries(all)) {
    const wrap = document.createElement("span");
    wrap.className = "menu";
    wrap.setAttribute("role", "none");
    const title = document.createElement("button");
    title.type = "button";
    title.className = "menutitle";
    title.id = `menu-${name.toLowerCase()}`;
    title.dataset.menu = name;
    title.textContent = tr(name);
    title.setAttribute("role", "menuitem");
    title.setAttribute("aria-haspopup", "menu");
    title.setAttribute("aria-expanded", String(openMenu === name));
    title.setAttribute("aria-controls", `${title.id}-items`);
    // One stop of Tab for the whole bar; the arrows move inside it.
    title.tabIndex = name === (openMenu || barMenu) ? 0 : -1;
    const pop = document.createElement("div");
    pop.className = "menupop";
    pop.id = `${title.id}-items`;
    pop.setAttribute("role", "menu");
    pop.setAttribute("aria-labelledby", title.id);
    pop.hidden = openMenu !== name;
    for (const it of items) {
      if (!it) {
        const hr = document.createElement("hr");
        hr.setAttribute("role", "separator");
        pop.append(hr);
        continue;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = "menuitem";
      b.id = it.id;
      b.tabIndex = -1;
      b.dataset.action = it.id.slice(2);
      b.setAttribute("role", it.checked ? "menuitemcheckbox" : "menuitem");
      const on = it.checked ? it.checked() : false;
      if (it.checked) b.setAttribute("aria-checked", String(on));
      const tick = document.createElement("span");
      tick.className = "tick";
      tick.textContent = on ? "✓" : "";
      const label = document.createElement("span");
      label.className = "label";
      // A language's name is written in that language, never translated.
      label.textContent = it.lang ? it.label : tr(it.label);
      if (it.lang) label.lang = it.lang;
      const keys = document.createElement("kbd");
      keys.textContent = it.keys || "";
      keys.hidden = !it.keys;
      if (it.keys) b.setAttribute("aria-keyshortcuts", it.keys);
      b.append(tick, label, keys);
      b.disabled = (it.enabled ? !it.enabled() : false) || (!ui.state && !withoutRecord(name, it.id));
      const run = it.run;
      b.addEventListener("pointermove", () => { if (!b.disabled && document.activeElement !== b) b.focus({ preventScroll: true }); });
      b.addEventListener("click", () => {
        closeMenus();
        leaveBar();
        run();
      });
      pop.append(b);
    }
    title.addEventListener("click", () => (openMenu === name ? closeMenus() : showMenu(name)));
    title.addEventListener("focus", () => { barMenu = name; });
    // Once a menu is open, the mouse going over another title opens it.
    title.addEventListener("mouseenter", () => { if (openMenu && openMenu !== name) showMenu(name); });
    wrap.append(title, pop);
    bar.append(wrap);
  }
  if (openMenu) place(openMenu);
  if (focused) document.getElementById(focused)?.focus();
}

/**
 * Opens menu `name`, its first (or last) item focused.
 * @param {string} name
 * @param {"first" | "last"} [which]
 */
function showMenu(name, which = "first") {
  openMenu = name;
  barMenu = name;
  buildMenus();
  const list = menuItems(name);
  const it = which === "first" ? list[0] : list[list.length - 1];
  (it || $(`menu-${name.toLowerCase()}`)).focus();
}

/** The menus' titles, in order. */
const titles = () => /** @type {HTMLElement[]} */ ([...document.querySelectorAll("#menus .menutitle")]);

/**
 * The items of menu `name` that can be chosen now.
 * @param {string} name
 */
const menuItems = (name) => /** @type {HTMLElement[]} */ (
  [...document.querySelectorAll(`#menu-${name.toLowerCase()}-items .menuitem:not(:disabled)`)]);

/**
 * The menu `d` places after (before, when negative) menu `name`, round the bar.
 * @param {string} name
 * @param {number} d
 */
function neighbour(name, d) {
  const t = titles();
  const i = t.findIndex((x) => x.dataset.menu === name);
  return /** @type {string} */ (t[(i + d + t.length) % t.length].dataset.menu);
}

/** The menu bar takes the keys (F10, Alt): its first menu's title focused. */
function enterBar() {
  const a = /** @type {HTMLElement | null} */ (document.activeElement);
  returnFocus = a && a !== document.body && !$("menus").contains(a) ? a : null;
  barMenu = "File";
  buildMenus();
  $("menu-file").focus();
}

/** The keys go back where they were before the menu bar (else to the board). */
function leaveBar() {
  const back = returnFocus && returnFocus.isConnected ? returnFocus : $("board");
  returnFocus = null;
  if ($("menus").contains(document.activeElement) || document.activeElement === document.body || !document.activeElement) {
    back.focus({ preventScroll: true });
  }
}

/**
 * The keys of the menu bar, as desktop menus have them: ← → from menu
 * to menu, ↓ (Enter, Space) opens one, ↑ ↓ Home End move in it, Enter
 * (Space) runs an item, a letter goes to the next item starting with
 * it, Escape closes the menu then leaves the bar, Tab leaves it.
 * @param {KeyboardEvent} ev
 */
function barKey(ev) {
  const t = /** @type {HTMLElement} */ (ev.target);
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
  const onTitle = t.classList.contains("menutitle");
  const item = t.classList.contains("menuitem");
  if (!onTitle && !item) return;
  const name = /** @type {string} */ (/** @type {HTMLElement} */ (t.closest(".menu")?.querySelector(".menutitle")).dataset.menu);
  const list = menuItems(name);
  const i = list.indexOf(t);
  /** @param {string} other */
  const go = (other) => {
    if (openMenu) showMenu(other);
    else {
      barMenu = other;
      buildMenus();
      $(`menu-${other.toLowerCase()}`).focus();
    }
  };
  /** @type {Record<string, () => void>} */
  const keys = onTitle ? {
    ArrowRight: () => go(neighbour(name, 1)),
    ArrowLeft: () => go(neighbour(name, -1)),
    ArrowDown: () => showMenu(name),
    ArrowUp: () => showMenu(name, "last"),
    Enter: () => showMenu(name),
    " ": () => showMenu(name),
    Home: () => go(titles()[0].dataset.menu || "File"),
    End: () => go(titles()[titles().length - 1].dataset.menu || "Help"),
    Escape: () => { if (openMenu) closeMenus(); else leaveBar(); },
  } : {
    ArrowDown: () => list[(i + 1) % list.length].focus(),
    ArrowUp: () => list[(i - 1 + list.length) % list.length].focus(),
    Home: () => list[0].focus(),
    End: () => list[list.length - 1].focus(),
    ArrowRight: () => showMenu(neighbour(name, 1)),
    ArrowLeft: () => showMenu(neighbour(name, -1)),
    Enter: () => t.click(),
    " ": () => t.click(),
    Escape: () => { closeMenus(); $(`menu-${name.toLowerCase()}`).focus(); },
  };
  if (ev.key === "Tab") {
    // Tab leaves the bar: the open menu closes, the focus moves on as usual.
    closeMenus();
    return;
  }
  let act = keys[ev.key];
  if (!act && item && ev.key.length === 1 && ev.key.trim()) {
    // A letter: the next item whose words start with it.
    const k = ev.key.toLowerCase();
    const starts = (/** @type {HTMLElement} */ b) => (b.querySelector(".label")?.textContent || "").trim().toLowerCase().startsWith(k);
    const next = [...list.slice(i + 1), ...list.slice(0, i + 1)].find(starts);
    act = () => next?.focus();
  }
  // Inside the bar, the board's keys (the arrows, letters) are the menu's.
  ev.stopPropagation();
  if (act) {
    ev.preventDefault();
    act();
  }
}

/**
 * Puts the menu under its title, inside the window.
 * @param {string} name
 */
function place(name) {
  const title = $(`menu-${name.toLowerCase()}`);
  const pop = /** @type {HTMLElement} */ (title.nextElementSibling);
  const r = title.getBoundingClientRect();
  pop.style.top = `${r.bottom}px`;
  pop.style.left = "0px";
  const w = pop.offsetWidth;
  pop.style.left = `${Math.max(0, Math.min(r.left, window.innerWidth - w))}px`;
}

export function closeMenus() {
  if (!openMenu) return;
  openMenu = null;
  buildMenus();
}

/** F10 and Alt: into the menu bar, or out of it when there. */
function toggleBar() {
  if ($("menus").contains(document.activeElement)) {
    closeMenus();
    leaveBar();
  } else enterBar();
}

/** @param {string} name */
function panelEl(name) {
  return /** @type {HTMLElement | null} */ (document.querySelector(`.tabpanel[data-panel="${name}"]`));
}

/** @type {Record<string, boolean>} panels hidden by the user */
let hiddenPanels = {};

/** @param {string} name */
export function panelShown(name) {
  return !hiddenPanels[name];
}

/** Whether the page is laid out for a phone (panels as tabs). */
export const phone = () => window.matchMedia("(max-width: 800px)").matches;

/**
 * Shows (or hides) side panel `name`; on a phone, its tab.
 * @param {string} name
 * @param {boolean} on
 */
export function showPanel(name, on) {
  if (phone()) {
    if (on) selectTab(name);
    return;
  }
  hiddenPanels[name] = !on;
  try { localStorage.setItem("qipu.panels", JSON.stringify(hiddenPanels)); } catch (e) { /* private mode */ }
  applyPanels();
}

function applyPanels() {
  for (const [name] of PANELS) {
    const el = panelEl(name);
    if (el) el.classList.toggle("off", !!hiddenPanels[name]);
  }
  const side = $("side");
  const empty = PANELS.every(([n]) => n === "files" || hiddenPanels[n] || !panelEl(n));
  side.classList.toggle("empty", empty);
  $("splitter").hidden = empty;
  buildMenus();
  window.dispatchEvent(new Event("resize"));
}

/**
 * Side panel `name` shown, unfolded and scrolled into view (the side
 * column scrolls: game information or the count may be below its fold),
 * and the element `focus` (an id) given the keys.
 * @param {string} name
 * @param {string} [focus]
 */
export function revealPanel(name, focus) {
  showPanel(name, true);
  const el = panelEl(name);
  if (!el) return;
  if (el instanceof HTMLDetailsElement) el.open = true;
  const f = focus ? document.getElementById(focus) : null;
  el.scrollIntoView({ block: "nearest" });
  if (f) {
    f.focus({ preventScroll: true });
    f.scrollIntoView({ block: "nearest" });
  }
}

/**
 * The phone's tab `name` shown, the others' panels not.
 * @param {string} name
 */
export function selectTab(name) {
  document.body.dataset.tab = name;
  for (const b of $("tabs").children) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  const el = panelEl(name);
  // A panel that folds (engine, game information, search) is unfolded in its tab.
  if (el instanceof HTMLDetailsElement) el.open = true;
  window.dispatchEvent(new Event("resize"));
}

/** The phone's tabs, in the page's language. */
export function buildTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  tabs.setAttribute("aria-label", tr("Panels"));
  for (const [name, , label] of PANELS) {
    const el = panelEl(name);
    if (!el || (name === "files" && el.hidden)) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.role = "tab";
    b.dataset.tab = name;
    b.id = `tab-${name}`;
    b.textContent = tr(label);
    b.setAttribute("aria-selected", String(document.body.dataset.tab === name));
    b.addEventListener("click", () => selectTab(name));
    tabs.append(b);
  }
}

/** The menu bar, the panels and the tabs. */
export function setup() {
  try {
    ui.keys = localStorage.getItem("qipu.keys") || "lr";
    hiddenPanels = JSON.parse(localStorage.getItem("qipu.panels") || "{}") || {};
  } catch (e) { /* private mode */ }
  document.body.dataset.tab = "comment";
  setupNewGame();
  buildMenus();
  buildTabs();
  applyPanels();
  showKeys();
  document.addEventListener("pointerdown", (ev) => {
    if (openMenu && !(/** @type {Element} */ (ev.target)).closest(".menu")) closeMenus();
  });
  document.addEventListener("keydown", (ev) => {
    if (openMenu && ev.key === "Escape") {
      ev.preventDefault();
      closeMenus();
    }
  });
  $("menus").addEventListener("keydown", barKey);
  // F10, or Alt pressed and let go alone: into the menu bar (and out again).
  let altAlone = false;
  document.addEventListener("keydown", (ev) => {
    altAlone = ev.key === "Alt" && !ev.ctrlKey && !ev.shiftKey && !ev.metaKey;
    if (ev.key === "F10" && !ev.ctrlKey && !ev.altKey && !ev.metaKey && !ev.shiftKey && !document.querySelector("dialog[open]")) {
      ev.preventDefault();
      ev.stopPropagation();
      toggleBar();
    }
  }, true);
  document.addEventListener("keyup", (ev) => {
    if (ev.key !== "Alt" || !altAlone) return;
    altAlone = false;
    if (document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    toggleBar();
  }, true);
  document.addEventListener("pointerdown", () => { altAlone = false; }, true);
  // Alt+Tab to another window: its Alt let go here is no call for the menus.
  window.addEventListener("blur", () => { altAlone = false; });
  // The focus leaving the bar (Tab, a click elsewhere) closes its menu.
  $("menus").addEventListener("focusout", (/** @type {FocusEvent} */ ev) => {
    const to = /** @type {Node | null} */ (ev.relatedTarget);
    if (openMenu && to && !$("menus").contains(to)) closeMenus();
  });
  window.addEventListener("resize", () => { if (openMenu) place(openMenu); });
  // The file list appears or goes: its tab too.
  new MutationObserver(buildTabs).observe($("files"), { attributes: true, attributeFilter: ["hidden"] });
}
