// @ts-check
// Board coordinates: SGF letters <-> columns and rows, and the letters of
// variations. The one place the page (board, overlays, search panel)
// turns points into letters and back, as sgf-core does: a-z are 0-25,
// A-Z 26-51 (boards up to 52x52).

/**
 * The SGF point of column `x`, row `y` ("dd").
 * @param {number} x
 * @param {number} y
 */
export function sgfPoint(x, y) {
  /** @param {number} v */
  const c = (v) => (v < 26 ? String.fromCharCode(97 + v) : String.fromCharCode(65 + v - 26));
  return c(x) + c(y);
}

/**
 * Column and row of an SGF point.
 * @param {string} pt
 * @returns {[number, number]}
 */
export function sgfXY(pt) {
  /** @param {string} ch */
  const c = (ch) => (ch >= "a" ? ch.charCodeAt(0) - 97 : ch.charCodeAt(0) - 65 + 26);
  return [c(pt[0]), c(pt[1])];
}

/**
 * The board's variation marker for the `i`-th variation (as sgf-render
 * draws it): A-Z, then numbers.
 * @param {number} i
 */
export const markLetter = (i) => (i < 26 ? String.fromCharCode(65 + i) : String(i + 1));
