// @ts-check
// Comments with basic Markdown, as Sabaki shows them: paragraphs, lists
// (`-`, `*`, `1.`), **strong**, *emphasis* and _emphasis_, `code`, and
// links [text](https://…). Safe by construction: the text is only ever
// put into the page as text nodes (never as HTML), the few elements made
// are from this whitelist, and a link's address must be http or https.
// The server's pieces (points like Q16, web addresses) stay clickable.

/**
 * @typedef {{text: string, point?: string, url?: string}} Piece
 * @typedef {(p: string, text: string) => Node} PointMaker
 */

/** Only web addresses become links. */
export function safeUrl(/** @type {string} */ u) {
  try {
    const url = new URL(u);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch (e) {
    return null;
  }
}

/**
 * A link to a web page (a new tab, no referrer).
 * @param {string} href
 * @param {string} text
 */
function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}

// Inline Markdown: link, strong, emphasis, code (the first that matches).
const INLINE = /\[([^\]\n]+)\]\(([^)\s]+)\)|\*\*([^*\n]+)\*\*|__([^_\n]+)__|\*([^*\s][^*\n]*)\*|(?<![\w])_([^_\s][^_\n]*)_(?![\w])|`([^`\n]+)`/;

/**
 * Inline Markdown of one text piece, appended to `out` as text and
 * whitelisted elements.
 * @param {string} text
 * @param {Node} out
 */
function inline(text, out) {
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index) out.appendChild(document.createTextNode(rest.slice(0, m.index)));
    if (m[1] !== undefined) {
      const href = safeUrl(m[2]);
      out.appendChild(href ? link(href, m[1]) : document.createTextNode(m[0]));
    } else if (m[3] !== undefined || m[4] !== undefined) {
      const b = document.createElement("strong");
      inline(m[3] ?? m[4], b);
      out.appendChild(b);
    } else if (m[5] !== undefined || m[6] !== undefined) {
      const e = document.createElement("em");
      inline(m[5] ?? m[6], e);
      out.appendChild(e);
    } else {
      const c = document.createElement("code");
      c.textContent = m[7];
      out.appendChild(c);
    }
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.appendChild(document.createTextNode(rest));
}

/**
 * The pieces of a comment cut into lines (a piece never spans two).
 * @param {Piece[]} parts
 * @returns {Piece[][]}
 */
function lines(parts) {
  /** @type {Piece[][]} */
  const out = [[]];
  for (const p of parts) {
    const line = out[out.length - 1];
    const before = line[line.length - 1];
    // An address the server found inside a Markdown link is the link's.
    if (p.url && before && !before.point && !before.url && before.text.endsWith("](")) {
      before.text += p.text;
      continue;
    }
    if (p.point || p.url) {
      line.push(p);
      continue;
    }
    if (before && !before.point && !before.url && /\]\([^)\s]*$/.test(before.text)) {
      // The rest of such a link: its closing parenthesis, and after.
      const [head, ...more] = p.text.split("\n");
      before.text += head;
      more.forEach((t) => out.push(t ? [{ text: t }] : []));
      continue;
    }
    p.text.split("\n").forEach((t, i) => {
      if (i) out.push([]);
      if (t) out[out.length - 1].push({ text: t });
    });
  }
  return out;
}

/**
 * One line's pieces into `out`: text with inline Markdown, points and
 * addresses as the page makes them.
 * @param {Piece[]} line
 * @param {Node} out
 * @param {PointMaker} point
 */
function fill(line, out, point) {
  for (const p of line) {
    if (p.url) {
      const href = safeUrl(p.url);
      out.appendChild(href ? link(href, p.text) : document.createTextNode(p.text));
    } else if (p.point) out.appendChild(point(p.point, p.text));
    else inline(p.text, out);
  }
}

const BULLET = /^\s*([-*+]|\d+[.)])\s+/;

/**
 * A comment's pieces (see `sgf_go::coords::text_pieces`) as Markdown.
 * @param {Piece[]} parts
 * @param {PointMaker} point makes a point's button
 * @returns {DocumentFragment}
 */
export function renderComment(parts, point) {
  const frag = document.createDocumentFragment();
  /** @type {HTMLElement | null} */
  let block = null;
  /** @type {HTMLElement | null} */
  let list = null;
  for (const line of lines(parts)) {
    const first = line[0];
    const m = first && !first.point && !first.url ? BULLET.exec(first.text) : null;
    if (!line.length || line.every((p) => !p.point && !p.url && !p.text.trim())) {
      block = list = null;
      continue;
    }
    if (m) {
      const ordered = /\d/.test(m[1]);
      if (!list || (list.tagName === "OL") !== ordered) {
        list = document.createElement(ordered ? "ol" : "ul");
        frag.appendChild(list);
      }
      const li = document.createElement("li");
      fill([{ text: first.text.slice(m[0].length) }, ...line.slice(1)], li, point);
      list.appendChild(li);
      block = null;
      continue;
    }
    list = null;
    if (!block) {
      block = document.createElement("p");
      frag.appendChild(block);
    } else block.appendChild(document.createElement("br"));
    fill(line, block, point);
  }
  return frag;
}

/**
 * Whether a comment has anything Markdown would show otherwise than as
 * its text (or a point, or an address).
 * @param {Piece[]} parts
 */
export function hasMarkup(parts) {
  return parts.some((p) => p.point || p.url || INLINE.test(p.text) || p.text.split("\n").some((l) => BULLET.test(l)));
}
