// @ts-check
// The board: the server's SVG, its points under the mouse, and what a
// click does with the tool chosen.

import { edit, nav } from "./actions.js";
import { $, message } from "./dom.js";
import { countCall, maybeEngineMove } from "./engine.js";
import { serverText, tr } from "./i18n.js";
import { sgfPoint, sgfXY, symApply, symInverse } from "./letters.js";
import { ui } from "./state.js";

/** The board's SVG, when one is shown. */
export const boardSvg = () => /** @type {SVGSVGElement | null} */ (document.querySelector("#board svg"));

/**
 * Where column `x`, row `y` of the record is shown: the view may turn,
 * mirror the board (`state.view.sym`, the server draws it so).
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
function shownAt(x, y) {
  const s = ui.state;
  if (!s || !s.view || !s.view.sym) return [x, y];
  return symApply(s.view.sym, x, y, s.size[0], s.size[1]);
}

/**
 * The point of the record shown at column `x`, row `y` of the board drawn.
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
function recordAt(x, y) {
  const s = ui.state;
  if (!s || !s.view || !s.view.sym) return [x, y];
  const sym = s.view.sym;
  const [w, h] = sym & 4 ? [s.size[1], s.size[0]] : [s.size[0], s.size[1]];
  return symApply(symInverse(sym), x, y, w, h);
}

/**
 * Where point `pt` ("dd") of the record is in the board's SVG (its
 * `data-*` geometry), the view's turn or mirror included.
 * @param {SVGSVGElement} svg
 * @param {string} pt
 * @returns {[number, number]}
 */
export function svgAt(svg, pt) {
  const d = svg.dataset;
  const [x, y] = shownAt(...sgfXY(pt));
  return [+(d.originX || 0) + (x - +(d.x0 || 0)) * +(d.cell || 0), +(d.originY || 0) + (y - +(d.y0 || 0)) * +(d.cell || 0)];
}

/**
 * The SGF point ("dd") of the record under a mouse event, or null.
 * @param {MouseEvent} ev
 */
export function boardPoint(ev) {
  const svg = boardSvg();
  if (!svg) return null;
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  const d = svg.dataset;
  const cell = +(d.cell || 0);
  const x = Math.round((p.x - +(d.originX || 0)) / cell) + +(d.x0 || 0);
  const y = Math.round((p.y - +(d.originY || 0)) / cell) + +(d.y0 || 0);
  if (x < +(d.x0 || 0) || x > +(d.x1 || 0) || y < +(d.y0 || 0) || y > +(d.y1 || 0)) return null;
  return sgfPoint(...recordAt(x, y));
}

/**
 * Rings a point of the board (a point named in the comment); null clears it.
 * @param {string | null} pt
 */
export function flashPoint(pt) {
  const svg = boardSvg();
  if (!svg) return;
  svg.querySelector(".pointflash")?.remove();
  if (!pt) return;
  const [cx, cy] = svgAt(svg, pt);
  const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  ring.setAttribute("class", "pointflash");
  ring.setAttribute("cx", String(cx));
  ring.setAttribute("cy", String(cy));
  ring.setAttribute("r", String(+(svg.dataset.cell || 0) * 0.5));
  svg.appendChild(ring);
}

/**
 * A move the rules forbid (ko, suicide, occupied point) is refused with a
 * warning, as in Sabaki; the user may insist.
 * @param {string} point
 */
async function play(point) {
  let s = await edit("play", { point });
  if (s && s.illegal && confirm(serverText(s.message))) s = await edit("play", { point, force: true });
  // In a game against the engine, it answers.
  if (s && !s.illegal && s.node.move) return maybeEngineMove(s);
  return s;
}

/**
 * "Guess the next move": right or not, and how many misses.
 * @param {string} pt
 */
async function guess(pt) {
  const next = ui.state.node.next;
  if (!next) return message(tr("No next move here."));
  if (next.point === pt) {
    const tries = ui.misses;
    ui.misses = 0;
    await nav("next");
    message(tries === 0 ? tr("Right!") : tries === 1 ? tr("Right, after 1 miss.") : tr("Right, after {n} misses.", { n: tries }));
  } else {
    ui.misses++;
    message(next.point === null
      ? tr("Not that one: the next move is a pass.")
      : ui.misses === 1 ? tr("Not that one (1 miss); → shows it.") : tr("Not that one ({n} misses); → shows it.", { n: ui.misses }), true);
  }
}

/**
 * Find a move: who played at point `pt`, and when (the next such move of
 * the game in tree order; `backward`: the one before).
 * @param {string} pt
 * @param {boolean} [backward]
 */
export async function findMove(pt, backward = false) {
  const s = await nav("find_move", { point: pt, backward });
  if (!s || s.error_kind) return s;
  const n = s.node;
  message(tr("{who} played {point} at move {n}.", { who: tr(n.color === "B" ? "Black" : "White"), point: n.move, n: n.move_number }));
  return s;
}

/** A click on the board does what the tool says; the wheel steps. */
export function setup() {
  $("board").addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const pt = boardPoint(ev);
    if (!pt || !ui.state) return;
    // Counting: a click marks a group dead or alive.
    if (ui.state.count) return countCall("toggle", { point: pt });
    const tool = $("tool").value;
    if (tool === "play") return play(pt);
    if (tool === "guess") return guess(pt);
    if (tool === "find") return findMove(pt);
    if (tool.startsWith("setup")) return edit("setup", { point: pt, stone: tool.slice(5) });
    if (tool === "label") {
      const text = prompt(tr("Label text (empty to remove):"), "");
      if (text === null) return;
      return edit("label", { point: pt, text });
    }
    if (tool === "labelA" || tool === "label1") return edit("label", { point: pt, auto: tool === "labelA" ? "letter" : "number" });
    if (tool === "AR" || tool === "LN") {
      // The first click chooses where the line starts; the second draws it.
      if (!ui.lineFrom) {
        ui.lineFrom = pt;
        return message(tr(tool === "AR" ? "Arrow: now click where it ends." : "Line: now click where it ends."));
      }
      const from = ui.lineFrom;
      ui.lineFrom = null;
      if (from === pt) return message("");
      return edit("line", { kind: tool, from, to: pt });
    }
    return edit("markup", { point: pt, kind: tool });
  });
  $("tool").addEventListener("change", () => { ui.lineFrom = null; });
  $("board").addEventListener("wheel", (/** @type {WheelEvent} */ ev) => {
    ev.preventDefault();
    nav(ev.deltaY > 0 ? "next" : "prev");
  }, { passive: false });
}
