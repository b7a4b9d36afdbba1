// @ts-check
// Finding, as Sabaki has it: text in the comments of the game shown (a
// bar under the board: Enter or F3 the next hit, Shift+F3 the previous),
// a move at a point (the tool "Find a move", or F), and stepping to the
// previous or next comment, fork and hotspot.

import { nav } from "./actions.js";
import { $, click, message } from "./dom.js";
import { tr } from "./i18n.js";

/** Opens the find bar, its text selected. */
export function openFind() {
  $("findbar").hidden = false;
  $("findtext").focus();
  $("findtext").select();
}

/** Closes the find bar; the board gets the keys again. */
function closeFind() {
  $("findbar").hidden = true;
  $("board").focus({ preventScroll: true });
}

/**
 * The next (or previous) node of the game whose comment holds the text
 * of the find bar (the bar opens when it is empty).
 * @param {boolean} [backward]
 */
export async function findText(backward = false) {
  const q = $("findtext").value.trim();
  if (!q) return openFind();
  const s = await nav("find_text", { q, backward });
  if (s && !s.error_kind) message(tr("Found in the comment of move {n}.", { n: s.node.move_number }));
  return s;
}

/**
 * Steps to the previous or next node of a kind: `comment`, `fork` (along
 * the line) or `hotspot` (in the game).
 * @param {"comment" | "fork" | "hotspot"} what
 * @param {boolean} next
 */
export function stepTo(what, next) {
  return nav(`${next ? "next" : "prev"}_${what}`);
}

/** The tool "Find a move" on (or off again). */
export function findMoveMode() {
  const on = $("tool").value !== "find";
  $("tool").value = on ? "find" : "play";
  $("tool").dispatchEvent(new Event("change"));
  message(on ? tr("Find a move: click a point of the board.") : "");
}

export function setup() {
  $("findtext").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter" || e.key === "F3") {
      e.preventDefault();
      findText(e.shiftKey);
    } else if (e.key === "Escape") {
      e.preventDefault();
      closeFind();
    }
  });
  click("findnext", () => findText(false));
  click("findprev", () => findText(true));
  click("findclose", closeFind);
}
