// @ts-check
// The toolbar and the keys: navigation, edits, files (open, save, save
// as, repair, pictures, figures, diagrams), theme and sound, autoplay.

import { ApiError, STATIC, TOKEN, api, apiText, download as apiDownload, withQuery } from "./api.js";
import { call, callOn, edit, nav, openFile, openRecord, refreshBoard, refreshState, reopenClosed, watchField } from "./actions.js";
import { $, click, message, withCode } from "./dom.js";
import { analyseGame, maybeEngineMove, openConsole, toggleEngineGame } from "./engine.js";
import { openGames } from "./games.js";
import { diagnosticText, tr } from "./i18n.js";
import { copyVariation, cutVariation, flatten, keyLayout, otherGame, pasteVariation, removeOthers, revealPanel } from "./menu.js";
import { findMoveMode, findText, openFind, stepTo } from "./find.js";
import { applyView, transformView } from "./transform.js";
import { nextFile, showFiles } from "./panels.js";
import { ui } from "./state.js";

/**
 * The message of a refusal or another error.
 * @param {unknown} e
 */
const why = (e) => (e instanceof Error ? e.message : String(e));

/**
 * Save: the server refuses to overwrite a file another program changed
 * since it was opened; the user then chooses what happens.
 * @param {boolean} [force]
 */
async function save(force = false) {
  if (!ui.state) return;
  let r = null;
  try {
    r = await api("/api/save", { session: ui.state.session, mode: "lossless", force });
  } catch (e) {
    if (e instanceof ApiError && e.kind === "changed_on_disk") return conflict(e.message);
    if (e instanceof ApiError && e.kind === "no_session") return reopenClosed();
    message(why(e), true);
    return;
  }
  await refreshState();
  let text = tr("Saved {path}", { path: r.saved });
  if (r.backup && r.original) text += " " + tr("(the previous version kept as {backup}, the original as {original})", { backup: r.backup, original: r.original });
  else if (r.backup) text += " " + tr("(the previous version kept as {backup})", { backup: r.backup });
  message(text);
}

/** @type {string | null} the file "Save as" asked about replacing (the user said yes when they press Replace) */
let replacing = null;

/**
 * The step of the Save as dialog: the name asked for (`ask` null), or,
 * when a file `ask` exists already, whether to replace it; `error`, why
 * the last try was refused.
 * @param {string | null} ask
 * @param {string} [error]
 */
function saveAsStep(ask, error = "") {
  replacing = ask;
  $("saveasask").hidden = !ask;
  $("saveasask").textContent = ask
    ? tr("{path} exists already. Replace it? What it holds now is kept as {backup}.", { path: ask, backup: `${ask}.bak` })
    : "";
  $("saveasrename").hidden = !ask;
  $("saveassave").hidden = !!ask;
  $("saveasreplace").hidden = !ask;
  $("saveaserror").hidden = !error;
  $("saveaserror").textContent = error;
  // The question answered by a click, not by the Enter that asked it.
  if (ask) $("saveasrename").focus();
}

/**
 * Save as: the canonical form under the dialog's name. The server refuses
 * to replace a file unless told to (`replace`), which the page only says
 * once the user pressed Replace for that file.
 */
async function saveAs() {
  const path = $("saveasname").value.trim();
  if (!path || !ui.state) return;
  let r = null;
  try {
    r = await api("/api/save", { session: ui.state.session, mode: "canonical", path, replace: replacing !== null });
  } catch (e) {
    if (e instanceof ApiError && e.kind === "exists") return saveAsStep(e.path || path);
    if (e instanceof ApiError && e.kind === "no_session") {
      $("saveasdialog").close();
      return reopenClosed();
    }
    return saveAsStep(null, why(e));
  }
  $("saveasdialog").close();
  await refreshState();
  let text = tr("Saved {path}", { path: r.saved });
  if (r.backup && r.original) text += " " + tr("(the file it replaced kept as {backup} and {original})", { backup: r.backup, original: r.original });
  else if (r.backup) text += " " + tr("(the file it replaced kept as {path})", { path: r.backup });
  message(text);
}

/** @param {string} text */
function conflict(text) {
  $("conflicttext").textContent = text;
  const d = $("conflictdialog");
  d.returnValue = "";
  d.onclose = async () => {
    const choice = d.returnValue;
    if (choice === "overwrite") save(true);
    else if (choice === "saveas") $("saveas").click();
    else if (choice === "reload") {
      if (ui.state.dirty && !confirm(tr("Reloading discards your unsaved changes. Reload anyway?"))) return;
      call("/api/open", { path: ui.state.path, replace: ui.state.session });
    }
  };
  d.showModal();
}

/** Repair: the library's pipeline (as `qipu check --fix`), shown before it is applied. */
async function repairPreview() {
  const r = await api("/api/repair", { session: ui.state.session, variation_level: $("repairlevel").checked })
    .catch((e) => message(why(e), true));
  if (!r) return;
  const list = $("repairlist");
  list.replaceChildren();
  for (const c of r.changes) {
    const li = document.createElement("li");
    const where = document.createElement("code");
    where.textContent = `${c.line}:${c.column} ${c.code}`;
    // The change in the page's language, the library's words as the title.
    const { text, title } = diagnosticText(c);
    li.append(where, " ", ...withCode(text));
    if (title) li.title = title;
    li.classList.add("diag");
    if (c.before || c.after) {
      const detail = document.createElement("div");
      detail.className = "repairdetail";
      detail.textContent = `${c.before || "—"} → ${c.after || tr("deleted")}`;
      li.append(detail);
    }
    list.append(li);
  }
  $("repairsummary").textContent = r.changes.length
    ? tr("{n} change(s):", { n: r.changes.length })
    : tr("Nothing to repair.");
  $("repairapply").disabled = r.changes.length === 0;
}

/**
 * Downloads `href` as `name`.
 * @param {string} href
 * @param {string} name
 */
function download(href, name) {
  apiDownload(href, name).catch((e) => message(why(e), true));
}

/**
 * The position as a picture.
 * @param {string} format
 */
function exportAs(format) {
  download(withQuery("/api/export", { session: ui.state.session, format, numbers: $("numbers").checked, t: TOKEN }),
    (ui.state.name || "position").replace(/\.[^.]*$/, "") + `-${ui.state.node.number}.${format}`);
}

/** Theme and sound, remembered by the browser. */
function applyTheme() {
  const t = $("theme").value;
  document.body.classList.remove("theme-light", "theme-dark", "theme-wood");
  document.body.classList.add("theme-" + t);
  try { localStorage.setItem("qipu.theme", t); } catch (e) { /* private mode */ }
}

function stopAutoplay() {
  if (ui.autoTimer) clearInterval(ui.autoTimer);
  ui.autoTimer = null;
  $("autoplay").classList.remove("on");
  $("autoplay").textContent = "▷";
}

function toggleAutoplay() {
  if (ui.autoTimer) return stopAutoplay();
  $("autoplay").classList.add("on");
  $("autoplay").textContent = "■";
  ui.autoTimer = setInterval(async () => {
    if (!ui.state || ui.state.node.children === 0) return stopAutoplay();
    await callOn("/api/nav", { action: "next" });
  }, +$("autospeed").value);
}

// Board keys work whatever control has the focus (a drop-down, a button,
// a checkbox), except where text is typed.
const NOT_TEXT = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);
/** @param {any} t */
function isTextField(t) {
  return t.isContentEditable || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !NOT_TEXT.has(t.type));
}

/** @type {Record<string, string>} the keys that move, the arrows as Qipu (and CGoban, KGS) have them */
const KEYS = {
  ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
  PageUp: "back10", PageDown: "forward10", ArrowUp: "prev_variation", ArrowDown: "next_variation",
};
/** @type {Record<string, string>} the arrows as Sabaki has them: ↑/↓ move, ←/→ switch variations */
const SABAKI = { ...KEYS, ArrowUp: "prev", ArrowDown: "next", ArrowLeft: "prev_variation", ArrowRight: "next_variation" };

/** The board gets the keys again (after the move box, a menu). */
function focusBoard() {
  $("board").focus({ preventScroll: true });
}

/**
 * The record as SGF text (canonical FF[4] UTF-8), downloaded as its name.
 */
function downloadSgf() {
  download(withQuery("/api/export", { session: ui.state.session, format: "sgf", t: TOKEN }),
    (ui.state.name || "game.sgf").replace(/\.[^.]*$/, "") + ".sgf");
}

/** The served folder read again: files added or removed since appear. */
async function refreshFiles() {
  try {
    const r = await api("/api/files");
    showFiles(r.files);
  } catch (e) {
    message(why(e), true);
  }
}

/**
 * The keys of finding, variations and the board's view (Sabaki's rows of
 * issue 28), as the menus list them: what `ev` runs, or null.
 * @param {KeyboardEvent} ev
 * @param {any} t the element with the focus
 * @returns {(() => unknown) | null}
 */
function sabakiKey(ev, t) {
  const ctrl = ev.ctrlKey || ev.metaKey;
  const k = ev.key;
  // Text selected in the page: Ctrl+C and Ctrl+X are the browser's.
  const selected = () => !!(window.getSelection() || "").toString();
  if (ctrl && !ev.shiftKey) {
    /** @type {Record<string, () => unknown>} */
    const withCtrl = {
      f: openFind,
      ArrowUp: () => stepTo("fork", false),
      ArrowDown: () => stepTo("fork", true),
      ArrowLeft: () => edit("shift_variation", { left: true }),
      ArrowRight: () => edit("shift_variation", { left: false }),
    };
    if (withCtrl[k]) return withCtrl[k];
    // Sabaki's key for the hotspot of the node.
    if (k === "b") return () => edit("annotate", { kind: "HO" });
    if (k === "c" && !selected()) return copyVariation;
    if (k === "x" && !selected()) return cutVariation;
    // Ctrl+V pastes the variation copied; without one, the browser's paste
    // (SGF text opens as a record).
    if (k === "v" && ui.state && ui.state.clipboard && t.tagName !== "SELECT") return pasteVariation;
    return null;
  }
  // Sabaki's keys: Ctrl+Shift+↑/↓ the previous/next comment.
  if (ctrl && (k === "ArrowUp" || k === "ArrowDown")) return () => stepTo("comment", k === "ArrowDown");
  if (ctrl) return null;
  if (k === "F3") return () => findText(ev.shiftKey);
  if (k === "F2") return () => stepTo("hotspot", !ev.shiftKey);
  if (ev.shiftKey) {
    /** @type {Record<string, () => unknown>} */
    const withShift = {
      PageUp: () => stepTo("comment", false),
      PageDown: () => stepTo("comment", true),
      H: () => stepTo("hotspot", false),
      F: flatten,
      R: () => transformView("anticlockwise"),
      V: () => transformView("vertical"),
      I: () => transformView("invert"),
      T: applyView,
      Delete: removeOthers,
      A: analyseGame,
      G: openConsole,
      E: toggleEngineGame,
    };
    if (ev.code === "Digit0") return () => transformView("reset");
    return withShift[k] || null;
  }
  /** @type {Record<string, () => unknown>} */
  const plain = {
    h: () => stepTo("hotspot", true),
    f: findMoveMode,
    r: () => transformView("clockwise"),
    v: () => transformView("horizontal"),
  };
  return plain[k] || null;
}

/** The buttons, fields and keys of the page. */
export function setup() {
  click("first", () => nav("first"));
  click("last", () => nav("last"));
  click("prev", () => nav("prev"));
  click("next", () => nav("next"));
  click("back10", () => nav("back10"));
  click("fwd10", () => nav("forward10"));
  click("prevvar", () => nav("prev_variation"));
  click("nextvar", () => nav("next_variation"));
  click("undo", () => edit("undo"));
  click("redo", () => edit("redo"));
  click("pass", async () => maybeEngineMove(await edit("play", { point: null })));
  click("promote", () => edit("promote"));
  click("delete", () => {
    if (confirm(tr("Delete this node and everything after it?"))) edit("delete");
  });
  click("savecomment", () => edit("comment", { text: $("comment").value, name: $("name").value }));
  click("saveinfo", () => {
    /** @type {Record<string, string>} */
    const props = {};
    for (const el of $("info").elements) props[el.name] = el.value;
    edit("info", { props });
  });
  watchField($("comment"), (el) => ["comment", { text: el.value }]);
  watchField($("name"), (el) => ["comment", { name: el.value }]);
  click("save", () => save(false));
  click("repair", async () => {
    await repairPreview();
    const d = $("repairdialog");
    d.returnValue = "";
    d.onclose = async () => {
      if (d.returnValue !== "apply") return;
      await edit("repair", { variation_level: $("repairlevel").checked });
      await refreshState();
      message(tr("Repaired (Undo reverts it)."));
    };
    d.showModal();
  });
  $("repairlevel").addEventListener("change", repairPreview);
  click("saveas", () => {
    if (!ui.state) return;
    // No folder served (qipu view without a path): the browser saves it.
    if (ui.folder === false) {
      downloadSgf();
      message(tr(STATIC ? "The record is downloaded." : "No folder is served (qipu view was started without one): the record is downloaded instead."));
      return;
    }
    $("saveasname").value = (ui.state.path || ui.state.name || "game.sgf").replace(/\.[^.\/]*$/, "") + "-fmt.sgf";
    saveAsStep(null);
    $("saveasdialog").showModal();
    $("saveasname").select();
  });
  $("saveasform").addEventListener("submit", (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    saveAs();
  });
  // Another name typed: asked again, if it too is taken.
  $("saveasname").addEventListener("input", () => saveAsStep(null));
  click("saveascancel", () => $("saveasdialog").close());
  click("saveasrename", () => {
    saveAsStep(null);
    $("saveasname").focus();
    $("saveasname").select();
  });
  for (const f of ["png", "svg", "jpg", "bmp"]) click(f, () => exportAs(f));
  // The game as book figures (as `qipu figures` makes them), one HTML page.
  click("figures", () => {
    const every = prompt(tr("Moves per figure (empty: only where the record has FG):"), "50");
    if (every === null) return;
    download(withQuery("/api/figures", { session: ui.state.session, every: every.trim(), t: TOKEN }),
      (ui.state.name || "game").replace(/\.[^.]*$/, "") + "-figures.html");
  });
  // The position as a Sensei's Library diagram: copied, and shown to copy by hand.
  click("copydiagram", async () => {
    let text;
    try {
      text = await apiText(withQuery("/api/export", { session: ui.state.session, format: "sensei", numbers: $("numbers").checked }));
    } catch (e) {
      return message(why(e), true);
    }
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (e) { /* no clipboard here: the dialog shows it */ }
    $("diagramtext").value = text;
    $("diagramnote").textContent = tr(copied ? "Copied to the clipboard." : "Select and copy it:");
    $("diagramdialog").showModal();
    $("diagramtext").select();
  });
  click("copysgf", async () => {
    let text;
    try {
      text = await apiText(withQuery("/api/export", { session: ui.state.session, format: "sgf" }));
    } catch (e) {
      return message(why(e), true);
    }
    try {
      await navigator.clipboard.writeText(text);
      message(tr("Copied to the clipboard."));
    } catch (e) {
      // No clipboard here: shown to copy by hand.
      $("diagramtext").value = text;
      $("diagramnote").textContent = tr("Select and copy it:");
      $("diagramdialog").showModal();
      $("diagramtext").select();
    }
  });
  click("refreshfiles", refreshFiles);
  $("numbers").addEventListener("change", refreshBoard);

  $("theme").addEventListener("change", () => {
    applyTheme();
    if (ui.state) refreshBoard();
  });
  $("sound").addEventListener("change", () => {
    try { localStorage.setItem("qipu.sound", $("sound").checked ? "1" : ""); } catch (e) { /* private mode */ }
  });
  try {
    $("theme").value = localStorage.getItem("qipu.theme") || "light";
    $("sound").checked = !!localStorage.getItem("qipu.sound");
  } catch (e) { /* private mode */ }
  applyTheme();

  click("autoplay", toggleAutoplay);
  $("autospeed").addEventListener("change", () => {
    if (ui.autoTimer) { stopAutoplay(); toggleAutoplay(); }
  });
  click("help", () => $("helpdialog").showModal());
  // The move box: Enter goes there and gives the keys back to the board
  // (the arrows then move again); Escape leaves it as it was.
  const jump = () => {
    const v = $("jump").value.trim();
    $("jump").value = "";
    if (/^\d+$/.test(v)) nav("move", { move: +v });
  };
  $("jump").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      jump();
      focusBoard();
    } else if (e.key === "Escape") {
      e.preventDefault();
      $("jump").value = "";
      focusBoard();
    }
  });
  $("jump").addEventListener("change", jump);
  $("diagtoggle").addEventListener("click", () => ($("diagnostics").hidden = !$("diagnostics").hidden));

  document.addEventListener("keydown", (ev) => {
    const t = /** @type {any} */ (ev.target);
    if (isTextField(t) || document.querySelector("dialog[open]")) return;
    if (ev.altKey) return;
    // The menu bar and the splitters have keys of their own (the arrows).
    if (t instanceof Element && t.closest("#menus, [role=separator]")) return;
    const ctrl = ev.ctrlKey || ev.metaKey;
    if (ev.key === "?") { ev.preventDefault(); $("helpdialog").showModal(); return; }
    if (ctrl && ev.key === "o") { ev.preventDefault(); $("open").click(); return; }
    // No record shown (a file that is none): its keys rest.
    if (!ui.state) return;
    if (ev.key === "g" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); openGames(); return; }
    if (ev.key === "a" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); toggleAutoplay(); return; }
    if (ctrl && (ev.key === "s" || ev.key === "S")) { ev.preventDefault(); $(ev.shiftKey ? "saveas" : "save").click(); return; }
    const sabaki = sabakiKey(ev, t);
    if (sabaki) {
      ev.preventDefault();
      ev.stopPropagation();
      if (t.tagName === "SELECT") t.blur();
      sabaki();
      return;
    }
    if (!ctrl && !ev.shiftKey) {
      /** @type {Record<string, () => unknown>} */
      const plain = {
        m: () => $("jump").focus(),
        c: () => revealPanel("comment", "comment"),
        i: () => revealPanel("info", "info-PB"),
        "[": () => otherGame(-1),
        "]": () => otherGame(1),
        Delete: () => $("delete").click(),
      };
      if (plain[ev.key]) { ev.preventDefault(); plain[ev.key](); return; }
    }
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "z") { ev.preventDefault(); edit("undo"); return; }
    if ((ev.ctrlKey || ev.metaKey) && (ev.key === "y" || (ev.shiftKey && ev.key === "Z"))) { ev.preventDefault(); edit("redo"); return; }
    const keys = keyLayout() === "ud" ? SABAKI : KEYS;
    if (keys[ev.key] && !ev.ctrlKey && !ev.metaKey) {
      // Not the drop-down's own meaning (changing the tool or the game).
      ev.preventDefault();
      ev.stopPropagation();
      if (t.tagName === "SELECT") t.blur();
      stopAutoplay();
      ui.misses = 0;
      nav(keys[ev.key]);
    }
  }, true);

  // ---- a file that is not a game record: the way on ----
  click("notrecordnext", () => {
    const next = nextFile();
    if (next) openRecord({ path: next });
  });
  click("notrecordlist", () => {
    revealPanel("files");
    const current = $("filelist").querySelector("li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
  });
  click("notrecordopen", () => $("open").click());

  // ---- opening files: list, drop, paste ----
  click("open", () => $("opendialog").showModal());
  click("pasteopen", () => {
    const text = $("pastetext").value;
    if (text.trim()) openRecord({ text, name: "pasted.sgf" });
  });
  $("filepick").addEventListener("change", (/** @type {any} */ e) => {
    const f = e.target.files[0];
    if (f) openFile(f);
    $("opendialog").close();
  });
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) openFile(f);
  });
  document.addEventListener("paste", (e) => {
    const t = /** @type {any} */ (e.target);
    if (t.tagName === "TEXTAREA" || t.tagName === "INPUT") return;
    const text = e.clipboardData ? e.clipboardData.getData("text") : "";
    if (text && text.includes("(;")) openRecord({ text, name: "pasted.sgf" });
  });
}
