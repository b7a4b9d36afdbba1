// @ts-check
// The game tree: a canvas, drawn only where visible, from the server's
// layout (`[x, y, kind, parent, flags]` per node).

import { nav } from "./actions.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";

const NODE_GAP = 22;

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
  if (!nodes.length || !ui.state) return;
  const cur = nodes[ui.state.node.number];
  if (follow && cur) {
    const cx = cur[0] * NODE_GAP + 14 - scroll.x, cy = cur[1] * NODE_GAP + 14 - scroll.y;
    if (cx < 20 || cx > w - 20) scroll.x = Math.max(0, cur[0] * NODE_GAP - w / 2);
    if (cy < 20 || cy > h - 20) scroll.y = Math.max(0, cur[1] * NODE_GAP - h / 2);
  }
  const ox = 14 - scroll.x, oy = 14 - scroll.y;
  const x0 = Math.floor((scroll.x - 30) / NODE_GAP), x1 = Math.ceil((scroll.x + w + 30) / NODE_GAP);
  const y0 = Math.floor((scroll.y - 30) / NODE_GAP), y1 = Math.ceil((scroll.y + h + 30) / NODE_GAP);
  g.lineWidth = 1.5;
  g.strokeStyle = "#999";
  g.beginPath();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const p = n[3] >= 0 ? nodes[n[3]] : null;
    if (!p) continue;
    if (Math.max(n[0], p[0]) < x0 || Math.min(n[0], p[0]) > x1 || n[1] < y0 || p[1] > y1) continue;
    const ax = p[0] * NODE_GAP + ox, ay = p[1] * NODE_GAP + oy;
    const bx = n[0] * NODE_GAP + ox, by = n[1] * NODE_GAP + oy;
    g.moveTo(ax, ay);
    if (ay !== by) g.lineTo(bx - NODE_GAP, by);
    g.lineTo(bx, by);
  }
  g.stroke();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
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
  if (cur) {
    g.strokeStyle = "#a0522d";
    g.lineWidth = 3;
    g.beginPath();
    g.arc(cur[0] * NODE_GAP + ox, cur[1] * NODE_GAP + oy, 10, 0, 2 * Math.PI);
    g.stroke();
  }
}

/** A click on a node goes there; the wheel scrolls. */
export function setup() {
  $("tree").addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const r = $("tree").getBoundingClientRect();
    const x = (ev.clientX - r.left + ui.treeScroll.x - 14) / NODE_GAP;
    const y = (ev.clientY - r.top + ui.treeScroll.y - 14) / NODE_GAP;
    const gx = Math.round(x), gy = Math.round(y);
    const i = ui.tree.nodes.findIndex((n) => n[0] === gx && n[1] === gy);
    if (i >= 0 && Math.hypot(x - gx, y - gy) < 0.5) nav("node", { node: i });
  });
  $("tree").addEventListener("wheel", (/** @type {WheelEvent} */ ev) => {
    ev.preventDefault();
    ui.treeScroll.x = Math.max(0, ui.treeScroll.x + (ev.shiftKey ? ev.deltaY : ev.deltaX));
    ui.treeScroll.y = Math.max(0, ui.treeScroll.y + (ev.shiftKey ? 0 : ev.deltaY));
    drawTree(false);
  }, { passive: false });
  window.addEventListener("resize", () => drawTree(false));
}
