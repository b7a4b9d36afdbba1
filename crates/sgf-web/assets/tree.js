// @ts-check
// The game tree: a canvas, drawn only where visible, from the part of the
// server's layout around it (`/api/tree`): `[x, y, kind, parent's row,
// flags, number]` per node, the parent in the column before, and the
// connectors of nodes outside that cross it (`[x, y, parent's row]`).

import { nav } from "./actions.js";
import { api, withQuery } from "./api.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";

const NODE_GAP = 22;

/** The most columns and rows one answer holds (the server's `TREE_MAX`). */
const MAX_COLS = 400, MAX_ROWS = 200;

/** The window asked for last and the tree's version then: asked once. */
let asked = "";

/**
 * Whether the page's part of the tree holds columns `x0..x1`, rows `y0..y1`
 * (or all of the tree there is in them).
 * @param {number} x0
 * @param {number} y0
 * @param {number} x1
 * @param {number} y1
 */
function holds(x0, y0, x1, y1) {
  const t = ui.tree;
  if (!t.window) return false;
  const [a, b, c, d] = t.window;
  return a <= Math.max(0, x0) && b <= Math.max(0, y0)
    && (c >= x1 || c >= t.width - 1) && (d >= y1 || d >= t.height - 1);
}

/**
 * Asks for the part of the tree around columns `x0..x1`, rows `y0..y1`
 * (a screen more on each side), and draws it when it comes.
 * @param {number} x0
 * @param {number} y0
 * @param {number} x1
 * @param {number} y1
 */
function fetchWindow(x0, y0, x1, y1) {
  if (!ui.state) return;
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  // A screen more on each side, as far as an answer holds.
  const mx = Math.max(0, Math.min(w, Math.floor((MAX_COLS - w) / 2)));
  const my = Math.max(0, Math.min(h, Math.floor((MAX_ROWS - h) / 2)));
  const q = {
    session: ui.state.session,
    x0: Math.max(0, x0 - mx), y0: Math.max(0, y0 - my),
    x1: x1 + mx, y1: y1 + my,
  };
  // Once per window and tree: a canvas larger than an answer gets what
  // an answer holds, not the same question again.
  const key = JSON.stringify([q, ui.tree.version]);
  if (asked === key) return;
  asked = key;
  api(withQuery("/api/tree", q)).then((t) => {
    // Only the answer to the last question (the page scrolled on since
    // the others); a part of an older tree than the page's is of no use.
    if (asked !== key || !ui.state || ui.state.session !== q.session) return;
    if (t.version < (ui.tree.version ?? 0)) return;
    ui.tree = t;
    drawTree(false);
  }, () => {
    if (asked === key) asked = "";
  });
}

/**
 * Draws the tree; `follow` scrolls to the node shown when it is out of view.
 * @param {boolean} follow
 */
export function drawTree(follow) {
  const c = $("tree");
  const dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth, h = c.clientHeight;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const g = c.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  const nodes = ui.tree.nodes;
  const scroll = ui.treeScroll;
  if (!ui.state || ui.tree.version === null) return;
  // The node shown: its column is its depth.
  const cur = [ui.state.node.depth, ui.state.node.row];
  if (follow) {
    const cx = cur[0] * NODE_GAP + 14 - scroll.x, cy = cur[1] * NODE_GAP + 14 - scroll.y;
    if (cx < 20 || cx > w - 20) scroll.x = Math.max(0, cur[0] * NODE_GAP - w / 2);
    if (cy < 20 || cy > h - 20) scroll.y = Math.max(0, cur[1] * NODE_GAP - h / 2);
  }
  const ox = 14 - scroll.x, oy = 14 - scroll.y;
  const x0 = Math.floor((scroll.x - 30) / NODE_GAP), x1 = Math.ceil((scroll.x + w + 30) / NODE_GAP);
  const y0 = Math.floor((scroll.y - 30) / NODE_GAP), y1 = Math.ceil((scroll.y + h + 30) / NODE_GAP);
  if (!holds(x0, y0, x1, y1)) fetchWindow(Math.max(0, x0), Math.max(0, y0), x1, y1);
  g.lineWidth = 1.5;
  g.strokeStyle = "#999";
  g.beginPath();
  // From the parent (the column before, its row) down, then across.
  /**
   * @param {number} x
   * @param {number} y
   * @param {number} py
   */
  const connect = (x, y, py) => {
    if (x - 1 > x1 || x < x0 || y < y0 || py > y1) return;
    const ax = (x - 1) * NODE_GAP + ox, ay = py * NODE_GAP + oy;
    const bx = x * NODE_GAP + ox, by = y * NODE_GAP + oy;
    g.moveTo(ax, ay);
    if (ay !== by) g.lineTo(bx - NODE_GAP, by);
    g.lineTo(bx, by);
  };
  for (const n of nodes) if (n[3] >= 0) connect(n[0], n[1], n[3]);
  for (const l of ui.tree.links) connect(l[0], l[1], l[2]);
  g.stroke();
  for (const n of nodes) {
    if (n[0] < x0 || n[0] > x1 || n[1] < y0 || n[1] > y1) continue;
    const x = n[0] * NODE_GAP + ox, y = n[1] * NODE_GAP + oy;
    g.beginPath();
    if (n[2] === 3) g.rect(x - 6, y - 6, 12, 12);
    else g.arc(x, y, n[2] === 0 ? 5 : 7, 0, 2 * Math.PI);
    g.fillStyle = n[2] === 1 ? "#222" : n[2] === 2 ? "#fff" : "#bbb";
    g.fill();
    g.strokeStyle = "#555";
    g.lineWidth = 1;
    g.stroke();
    if (n[4] & 1) {
      g.fillStyle = "#c0392b";
      g.beginPath();
      g.arc(x + 6, y - 6, 2.5, 0, 2 * Math.PI);
      g.fill();
    }
  }
  g.strokeStyle = "#a0522d";
  g.lineWidth = 3;
  g.beginPath();
  g.arc(cur[0] * NODE_GAP + ox, cur[1] * NODE_GAP + oy, 10, 0, 2 * Math.PI);
  g.stroke();
}

/** A click on a node goes there; the wheel scrolls. */
export function setup() {
  $("tree").addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const r = $("tree").getBoundingClientRect();
    const x = (ev.clientX - r.left + ui.treeScroll.x - 14) / NODE_GAP;
    const y = (ev.clientY - r.top + ui.treeScroll.y - 14) / NODE_GAP;
    const gx = Math.round(x), gy = Math.round(y);
    const n = ui.tree.nodes.find((n) => n[0] === gx && n[1] === gy);
    if (n && Math.hypot(x - gx, y - gy) < 0.5) nav("node", { node: n[5] });
  });
  $("tree").addEventListener("wheel", (/** @type {WheelEvent} */ ev) => {
    ev.preventDefault();
    ui.treeScroll.x = Math.max(0, ui.treeScroll.x + (ev.shiftKey ? ev.deltaY : ev.deltaX));
    ui.treeScroll.y = Math.max(0, ui.treeScroll.y + (ev.shiftKey ? 0 : ev.deltaY));
    drawTree(false);
  }, { passive: false });
  window.addEventListener("resize", () => drawTree(false));
}
