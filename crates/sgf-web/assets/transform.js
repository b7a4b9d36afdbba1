// @ts-check
// The board turned, mirrored or with its colours swapped: a view only
// (the server draws the board so; clicks are mapped back to the record's
// points), written into the record on request (one undo step).

import { edit, refreshState } from "./actions.js";
import { message } from "./dom.js";
import { tr } from "./i18n.js";
import { symThen } from "./letters.js";
import { ui } from "./state.js";

/** The symmetries of each change of the view (see letters.js). */
const OPS = { clockwise: 5, anticlockwise: 6, horizontal: 1, vertical: 2 };

/** The view's symmetry and colours now. */
export function view() {
  const v = ui.state && ui.state.view;
  return { sym: v ? v.sym : 0, invert: !!(v && v.invert) };
}

/**
 * Changes the view: turned a quarter (`clockwise`, `anticlockwise`),
 * mirrored (`horizontal`: left-right, `vertical`: top-bottom), the colours
 * swapped (`invert`) or as recorded (`reset`).
 * @param {"clockwise" | "anticlockwise" | "horizontal" | "vertical" | "invert" | "reset"} op
 */
export function transformView(op) {
  if (!ui.state) return;
  let { sym, invert } = view();
  if (op === "reset") [sym, invert] = [0, false];
  else if (op === "invert") invert = !invert;
  else {
    const [w, h] = ui.state.size;
    if (w !== h && (op === "clockwise" || op === "anticlockwise")) {
      message(tr("A board that is not square can be mirrored, not turned."), true);
      return;
    }
    sym = symThen(sym, OPS[op]);
  }
  return refreshState({ sym, invert });
}

/** Whether the board is shown otherwise than recorded. */
export const transformed = () => view().sym !== 0 || view().invert;

/** The view written into the record (every point of the game). */
export async function applyView() {
  if (!transformed()) return message(tr("The board is shown as recorded: turn, mirror or invert it first."), true);
  if (!confirm(tr("Write the board as shown into the record (every move and mark of the game)? Undo takes it back."))) return;
  const s = await edit("apply_view");
  if (s && !s.error_kind) message(tr("The record is now as shown (Undo reverts it)."));
  return s;
}
