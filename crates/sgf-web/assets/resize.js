// @ts-check
// Sizes the user gives the page's parts: the side column's width (the
// splitter beside the board), each side panel's height (the grip under
// it) and the graph's under the board (the grip above it), dragged with the mouse or a finger, or moved with the arrow
// keys once focused; kept by the browser. Not on a phone, where the
// panels are tabs.

import { $ } from "./dom.js";
import { tr } from "./i18n.js";

/** The side column's narrowest width, and a panel's lowest height (px). */
export const MIN_SIDE = 220;
export const MIN_PANEL = 120;
/** A key press moves a splitter this far (Shift: four times). */
const STEP = 20;

/** @type {Record<string, number>} panel name → height chosen */
let heights = {};

/** @param {string} key @param {string} value */
function remember(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* private mode */ }
}

/** The board and the panels drawn again at their new sizes. */
const relayout = () => window.dispatchEvent(new Event("resize"));

/** The narrowest the board's column may be made by widening the side column. */
const MIN_BOARD = 360;

/** The widest the side column may be: 60 % of the window, and the board keeps 360 px beside the file list. */
function maxSide() {
  const files = $("files").getBoundingClientRect().width;
  return Math.max(MIN_SIDE, Math.round(Math.min(window.innerWidth * 0.6, window.innerWidth - files - MIN_BOARD)));
}

/**
 * The side column's width set (within its bounds), shown on the splitter.
 * @param {number} w
 */
function setSideWidth(w) {
  const px = Math.round(Math.max(MIN_SIDE, Math.min(maxSide(), w)));
  document.documentElement.style.setProperty("--side-width", `${px}px`);
  const sp = $("splitter");
  sp.setAttribute("aria-valuenow", String(px));
  sp.setAttribute("aria-valuemin", String(MIN_SIDE));
  sp.setAttribute("aria-valuemax", String(maxSide()));
  return px;
}

/**
 * A splitter dragged: `onMove(delta)` with the pointer's travel since it
 * went down (along x or y), `onEnd` once it is let go.
 * @param {HTMLElement} el
 * @param {"x" | "y"} axis
 * @param {() => void} onStart
 * @param {(delta: number) => void} onMove
 * @param {() => void} onEnd
 */
function draggable(el, axis, onStart, onMove, onEnd) {
  el.addEventListener("pointerdown", (/** @type {PointerEvent} */ ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    el.setPointerCapture(ev.pointerId);
    const from = axis === "x" ? ev.clientX : ev.clientY;
    onStart();
    el.classList.add("dragging");
    const move = (/** @type {PointerEvent} */ e) => onMove((axis === "x" ? e.clientX : e.clientY) - from);
    const up = () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      el.classList.remove("dragging");
      onEnd();
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  });
}

/**
 * The keys of a focused splitter: the arrows along its axis move it by
 * `STEP` (Shift: four steps), Home and End to its ends; `set` gets the
 * size wanted and answers the size set; `reset` (Delete, Backspace,
 * Enter) gives the part its own size back.
 * @param {HTMLElement} el
 * @param {{less: string, more: string}} arrows the keys that make the part smaller and larger
 * @param {() => number} size
 * @param {(px: number) => number} set
 * @param {() => void} reset
 */
function keyboard(el, arrows, size, set, reset) {
  el.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => {
    const step = ev.shiftKey ? STEP * 4 : STEP;
    /** @type {Record<string, () => unknown>} */
    const keys = {
      [arrows.less]: () => set(size() - step),
      [arrows.more]: () => set(size() + step),
      Home: () => set(0),
      End: () => set(Infinity),
      Delete: reset,
      Backspace: reset,
      Enter: reset,
    };
    const act = keys[ev.key];
    if (!act || ev.ctrlKey || ev.altKey || ev.metaKey) return;
    // The board's keys (the arrows, Home, End) are not for the board here.
    ev.preventDefault();
    ev.stopPropagation();
    act();
    relayout();
  });
}

/** The splitter between the board and the side column: its width. */
function setupSplitter() {
  const sp = $("splitter");
  sp.tabIndex = 0;
  try {
    const saved = +(localStorage.getItem("qipu.sidewidth") || 0);
    if (saved) setSideWidth(saved);
  } catch (e) { /* private mode */ }
  const width = () => $("side").getBoundingClientRect().width;
  /** @param {number} px */
  const set = (px) => {
    const w = setSideWidth(px);
    remember("qipu.sidewidth", String(w));
    return w;
  };
  let start = 0;
  draggable(sp, "x", () => (start = width()), (d) => {
    // The column is right of the splitter: dragging left widens it.
    set(start - d);
    relayout();
  }, () => {});
  keyboard(sp, { less: "ArrowRight", more: "ArrowLeft" }, width, set, () => {
    document.documentElement.style.removeProperty("--side-width");
    try { localStorage.removeItem("qipu.sidewidth"); } catch (e) { /* private mode */ }
  });
  sp.addEventListener("dblclick", () => {
    document.documentElement.style.removeProperty("--side-width");
    try { localStorage.removeItem("qipu.sidewidth"); } catch (e) { /* private mode */ }
    relayout();
  });
  // A narrower window: the column's width stays inside its new bounds.
  window.addEventListener("resize", () => {
    const w = document.documentElement.style.getPropertyValue("--side-width");
    if (w && parseFloat(w) > maxSide()) setSideWidth(maxSide());
  });
}

/**
 * Panel `panel`'s height set (within its bounds), or its own height
 * given back (`px` null).
 * @param {HTMLElement} panel
 * @param {number | null} px
 */
function setPanelHeight(panel, px) {
  const name = panel.dataset.panel || "";
  const grip = $(`grip-${name}`);
  if (px === null) {
    delete heights[name];
    panel.classList.remove("sized");
    panel.style.removeProperty("--panel-h");
    grip.removeAttribute("aria-valuenow");
  } else {
    const min = +(grip.getAttribute("aria-valuemin") || MIN_PANEL);
    // The graph under the board leaves the board half the window at least.
    const max = Math.max(min, grip.dataset.above ? Math.round(window.innerHeight / 3) : window.innerHeight - 80);
    px = Math.round(Math.max(min, Math.min(max, px)));
    heights[name] = px;
    panel.classList.add("sized");
    panel.style.setProperty("--panel-h", `${px}px`);
    grip.setAttribute("aria-valuenow", String(px));
    grip.setAttribute("aria-valuemax", String(max));
  }
  remember("qipu.panelheights", JSON.stringify(heights));
  return px === null ? panel.getBoundingClientRect().height : px;
}

/**
 * The grip under side panel `panel` (or above it: the graph under the
 * board): dragged, or moved with ↑ ↓, it sets the panel's height.
 * @param {HTMLElement} panel
 * @param {{above?: boolean, min?: number}} [how]
 */
function addGrip(panel, { above = false, min = MIN_PANEL } = {}) {
  const grip = document.createElement("div");
  grip.className = "panelgrip";
  grip.id = `grip-${panel.dataset.panel}`;
  grip.tabIndex = 0;
  grip.setAttribute("role", "separator");
  grip.setAttribute("aria-orientation", "horizontal");
  grip.setAttribute("aria-valuemin", String(min));
  grip.dataset.panel = panel.dataset.panel;
  if (above) {
    grip.dataset.above = "1";
    panel.before(grip);
  } else panel.after(grip);
  const height = () => panel.getBoundingClientRect().height;
  // Above the panel, dragging up makes it higher.
  const sign = above ? -1 : 1;
  let start = 0;
  draggable(grip, "y", () => (start = height()), (d) => {
    setPanelHeight(panel, start + sign * d);
    relayout();
  }, () => {});
  keyboard(grip, above ? { less: "ArrowDown", more: "ArrowUp" } : { less: "ArrowUp", more: "ArrowDown" },
    height, (px) => setPanelHeight(panel, px), () => setPanelHeight(panel, null));
  grip.addEventListener("dblclick", () => {
    setPanelHeight(panel, null);
    relayout();
  });
  const saved = heights[panel.dataset.panel || ""];
  if (saved) setPanelHeight(panel, saved);
}

/** The words of the splitters, in the page's language. */
export function labelGrips() {
  const sp = $("splitter");
  const hint = tr("Drag, or use the arrow keys; a double click (or Delete) gives the usual size back");
  sp.setAttribute("aria-label", tr("Width of the side panels"));
  sp.title = hint;
  for (const g of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".panelgrip"))) {
    const panel = /** @type {HTMLElement} */ (g.dataset.above ? g.nextElementSibling : g.previousElementSibling);
    const h = panel.querySelector("h2, summary");
    const name = h ? (h.firstChild && h.firstChild.nodeType === Node.TEXT_NODE ? h.firstChild.nodeValue : h.textContent)
      : panel.getAttribute("aria-label") || "";
    g.setAttribute("aria-label", tr("Height of the panel {name}", { name: (name || "").trim() }));
    g.title = hint;
  }
}

/** The splitter and a grip under every side panel, at the sizes kept. */
export function setup() {
  try {
    heights = JSON.parse(localStorage.getItem("qipu.panelheights") || "{}") || {};
  } catch (e) { /* private mode, or not JSON */ }
  setupSplitter();
  for (const p of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#side > .tabpanel"))) addGrip(p);
  addGrip($("graphbar"), { above: true, min: 60 });
  labelGrips();
}
