// @ts-check
// Small helpers over the page's elements.

/**
 * The element with this id (every id the code names is in index.html or
 * made by a panel; `any`: each is used as what it is, input or canvas).
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * Runs `f` on each click of element `id`.
 * @param {string} id
 * @param {(ev: MouseEvent) => unknown} f
 */
export const click = (id, f) => $(id).addEventListener("click", f);

/**
 * Text made safe for HTML (null and undefined: empty).
 * @param {unknown} s
 */
export const esc = (s) => (s === null || s === undefined ? "" : String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`));

/**
 * The message line at the foot of the page.
 * @param {string | null | undefined} text
 * @param {boolean} [error]
 */
export function message(text, error = false) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("error", !!error);
}

/**
 * `text` with its `quoted` parts (identifiers, values as the record
 * writes them) as code.
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function withCode(text) {
  return text.split("`").map((part, i) => {
    if (i % 2 === 0) return part;
    const c = document.createElement("code");
    c.textContent = part;
    return c;
  });
}
