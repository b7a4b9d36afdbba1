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

// The board's symmetries, as sgf_go::symmetry numbers them: bit 2
// transposes (x ↔ y) first, then bit 0 flips x and bit 1 flips y.

/**
 * Where column `x`, row `y` of a `w`×`h` board goes under symmetry `s`.
 * @param {number} s
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @returns {[number, number]}
 */
export function symApply(s, x, y, w, h) {
  if (s & 4) [x, y, w, h] = [y, x, h, w];
  if (s & 1) x = w - 1 - x;
  if (s & 2) y = h - 1 - y;
  return [x, y];
}

/**
 * The symmetry that undoes `s`.
 * @param {number} s
 */
export function symInverse(s) {
  return s & 4 ? 4 | ((s & 1) << 1) | ((s & 2) >> 1) : s;
}

/**
 * The symmetry `s` followed by `t` (on a square board).
 * @param {number} s
 * @param {number} t
 */
export function symThen(s, t) {
  /** @param {number} u @param {number} x @param {number} y */
  const at = (u, x, y) => symApply(u, x, y, 5, 5).join();
  for (let u = 0; u < 8; u++) {
    const both = (/** @type {number} */ x, /** @type {number} */ y) => { const [a, b] = symApply(s, x, y, 5, 5); return symApply(t, a, b, 5, 5).join(); };
    if (at(u, 1, 0) === both(1, 0) && at(u, 0, 2) === both(0, 2)) return u;
  }
  return s;
}
