// @ts-check
// What the page asks of the record: requests queued in the order of the
// clicks and keys, each answering the state shown; navigation, edits
// (typing in a field is one undo step), opening records.

import { ApiError, TOKEN, api, withQuery } from "./api.js";
import { $, message } from "./dom.js";
import { tr } from "./i18n.js";
import { show, showFiles, showNotRecord } from "./panels.js";
import { ui } from "./state.js";

/** The requests that open a record: a file that is not one is shown as such. */
const OPENS = /^\/api\/(start|open|upload)\b/;

/** Whether the board is drawn dark (the page's dark theme). */
export function isDark() {
  return $("theme").value === "dark";
}

/**
 * Sends a request after those before it; shows the state it answers.
 * `body` may be a function, called when the request runs (so it sees the
 * latest tree version).
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer, or null when it failed (the message says why)
 */
export function call(path, body) {
  const run = async () => {
    try {
      const b = typeof body === "function" ? body() : body;
      // About a record no longer shown (a file that is none came since).
      if (b === null) return null;
      const s = await api(path, b);
      if (s.session !== undefined) show(s);
      return s;
    } catch (e) {
      if (e instanceof ApiError && e.kind === "no_session") return reopenClosed();
      if (e instanceof ApiError && e.kind === "not_record" && OPENS.test(path)) return notRecord(e);
      message(e instanceof Error ? e.message : String(e), true);
      return null;
    }
  };
  ui.queue = ui.queue.then(run, run);
  return ui.queue;
}

/**
 * A request about the record shown: its session, the page's tree version
 * and theme, and `extra`.
 * @param {string} path
 * @param {Record<string, unknown>} extra
 */
export function callOn(path, extra) {
  return call(path, () => ui.state && Object.assign({ session: ui.state.session, tree_version: ui.tree.version, dark: isDark() }, extra));
}

/**
 * The state of the record shown, asked again (after a save, a repair, a
 * change of theme).
 * @param {Record<string, string | number | boolean | null>} [extra]
 */
export function refreshState(extra = {}) {
  if (!ui.state) return Promise.resolve(null);
  return call(withQuery("/api/state", Object.assign({ session: ui.state.session, tree_version: ui.tree.version }, extra)));
}

/**
 * A file opened that is not a game record: shown as such where the board
 * would be (`showNotRecord`); the record shown before is closed (the user
 * agreed to leave it), and the served folder's list read when the page
 * has none yet (`qipu view DIR` whose files are none).
 * @param {ApiError} e
 * @returns {Promise<null>}
 */
export async function notRecord(e) {
  const was = ui.state;
  showNotRecord(e);
  if (was) api("/api/close", { session: was.session }).catch(() => {});
  if (!ui.files.length && ui.folder !== false) {
    try {
      showFiles((await api("/api/files")).files);
    } catch (err) { /* no list: the panel offers Open */ }
  }
  return null;
}

// The server no longer has the record shown (it was closed: the page was
// put in the browser's back-forward cache, or closed in another way).
// Records the server only put aside to free memory never come here: it
// reads them back itself. A record with a file is read again from it;
// one without says so.
export async function reopenClosed() {
  const was = ui.state;
  if (!was) return null;
  if (!was.path) {
    message(tr("{name} is no longer open in the viewer: open it again.", { name: was.name }), true);
    return null;
  }
  try {
    const s = await api("/api/open", { path: was.path });
    show(s);
    message(was.dirty
      ? tr("{name} was no longer open in the viewer, and its unsaved changes are gone: it was read again from its file.", { name: was.name })
      : tr("{name} was no longer open in the viewer: it was read again from its file.", { name: was.name }), was.dirty);
    return s;
  } catch (e) {
    if (e instanceof ApiError && e.kind === "not_record") return notRecord(e);
    message(e instanceof Error ? e.message : String(e), true);
    return null;
  }
}

/**
 * Moves through the tree (`action`: next, prev, node…).
 * @param {string} action
 * @param {Record<string, unknown>} [extra]
 */
export function nav(action, extra = {}) {
  if (!ui.state) return;
  flushTyping();
  return callOn("/api/nav", Object.assign({ action }, extra));
}

/**
 * Edits the record (`op`: play, setup, markup…).
 * @param {string} op
 * @param {Record<string, unknown>} [extra]
 */
export function edit(op, extra = {}) {
  if (!ui.state) return;
  if (!extra.merge_key) flushTyping();
  return callOn("/api/edit", Object.assign({ op, numbers: $("numbers").checked }, extra));
}

// ---- typing: comments and game information are applied as they are typed ----

/** Sends what was typed and not sent yet. */
export function flushTyping() {
  if (!ui.typing) return;
  clearTimeout(ui.typing.timer);
  const t = ui.typing;
  ui.typing = null;
  t.send();
}

/**
 * @param {string} key
 * @param {() => void} send
 */
function typed(key, send) {
  if (ui.typing && ui.typing.key !== key) flushTyping();
  if (ui.typing) clearTimeout(ui.typing.timer);
  ui.typing = { key, send, timer: setTimeout(flushTyping, 250) };
}

/**
 * Applies what is typed in `el` as it is typed: each field, from focus
 * to blur, is one undo step on the server (merge_key).
 * @param {HTMLInputElement | HTMLTextAreaElement} el
 * @param {(el: any) => [string, Record<string, unknown>]} make the edit
 */
export function watchField(el, make) {
  el.addEventListener("focus", () => (el.dataset.serial = String(++ui.focusSerial)));
  el.addEventListener("input", () => {
    if (!ui.state) return;
    const node = ui.state.node.number, session = ui.state.session;
    const key = `${el.id}:${session}:${node}:${el.dataset.serial || ++ui.focusSerial}`;
    typed(key, () => {
      // Sent for the node it was typed at; skipped if the page moved on
      // without it (it never does: navigation sends it first).
      if (!ui.state || ui.state.session !== session) return;
      const [op, extra] = make(el);
      edit(op, Object.assign(extra, { merge_key: key }));
    });
  });
  el.addEventListener("blur", flushTyping);
}

/**
 * Asks before anything discards unsaved changes; true when it may go on.
 * @param {string} [what]
 */
export function discardOk(what = "Opening another file") {
  flushTyping();
  if (!ui.state || !ui.state.dirty) return true;
  return confirm(tr("{name} has unsaved changes. {what} discards them. Continue?", { name: ui.state.name, what: tr(what) }));
}

/**
 * Opens another record in place of this one (the server frees this one):
 * `{path}` of the served directory, `{text, name}` or `{new_game}`.
 * @param {{path?: string, text?: string, new_game?: Record<string, unknown>, name?: string, replace?: number}} body
 * @param {string} [what]
 */
export function openRecord(body, what) {
  if (!discardOk(what)) return;
  if (ui.state) body.replace = ui.state.session;
  return call("/api/open", body);
}

/**
 * Opens a file of the user's disk (dropped or chosen): sent as it is.
 * @param {File} f
 */
export function openFile(f) {
  if (!discardOk()) return;
  return call(withQuery("/api/upload", { name: f.name, replace: ui.state ? ui.state.session : null }), f);
}

/** Unsaved work is asked about, and the server told when the page goes. */
export function setup() {
  window.addEventListener("beforeunload", (e) => {
    if (ui.typing || (ui.state && ui.state.dirty)) {
      flushTyping();
      e.preventDefault();
      e.returnValue = "";
    }
  });
  // The tab closed (or reloaded): the server frees the record. Not when the
  // page only goes into the back-forward cache: it may come back as it was.
  window.addEventListener("pagehide", (e) => {
    if (ui.state && navigator.sendBeacon && !e.persisted) {
      navigator.sendBeacon(`/api/close?t=${TOKEN}`, JSON.stringify({ session: ui.state.session }));
    }
  });
  // Back from that cache: the record as the server has it now.
  window.addEventListener("pageshow", (e) => {
    if (e.persisted && ui.state) refreshState();
  });
}

/** The board drawn again with the page's move numbers and theme. */
export function refreshBoard() {
  return refreshState({ numbers: $("numbers").checked, dark: isDark() });
}
