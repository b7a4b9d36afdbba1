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

// The steps the scanner takes, for tests: every character looked at
// once, whatever the text (no regular expression that backtracks over a
// run of `[`, `*`, `_` or `` ` ``).
let steps = 0;

/** The steps counted since the last call (tests), and the count starts again. */
export function takeSteps() {
  const n = steps;
  steps = 0;
  return n;
}

const WORD = /\w/;
const SPACE = /\s/;

/**
 * The first index at or after `from` of a character `stop` accepts (or
 * `s.length`). Asked with `from` never going back, as the scanner asks,
 * it looks at each character once in all.
 * @param {string} s
 * @param {(c: string) => boolean} stop
 */
function seeker(s, stop) {
  let from = 0;
  let at = -1;
  return (/** @type {number} */ i) => {
    if (i < from || i > at) {
      from = at = i;
      while (at < s.length && !stop(s[at])) {
        at++;
        steps++;
      }
    }
    return at;
  };
}

/**
 * @typedef {{at: number, end: number, kind: "link" | "strong" | "em" | "code",
 *   inner: string, href?: string}} Match
 */

/**
 * A scanner of `s` for inline Markdown, each match the first at or after
 * where it is asked from, as this regular expression finds it (the first
 * alternative that matches at the first place one does):
 * `\[([^\]\n]+)\]\(([^)\s]+)\)` a link, `\*\*([^*\n]+)\*\*` and
 * `__([^_\n]+)__` strong, `\*([^*\s][^*\n]*)\*` and
 * `(?<!\w)_([^_\s][^_\n]*)_(?!\w)` emphasis, `` `([^`\n]+)` `` code. It
 * looks at each character a bounded number of times: what each form
 * needs after its opening is the next `]`, `)`, `*`, `_` or `` ` `` (or
 * line end), which it finds once for every opening.
 * @param {string} s
 */
function scanner(s) {
  const line = (/** @type {string} */ c) => c === "\n";
  const bracket = seeker(s, (c) => c === "]" || line(c));
  const paren = seeker(s, (c) => c === ")" || SPACE.test(c));
  const star = seeker(s, (c) => c === "*" || line(c));
  const under = seeker(s, (c) => c === "_" || line(c));
  const tick = seeker(s, (c) => c === "`" || line(c));
  /**
   * The match at `i`, if one starts there.
   * @param {number} i
   * @param {number} from where the text scanned starts (`_` looks behind no further)
   * @returns {Match | null}
   */
  const at = (i, from) => {
    const c = s[i];
    if (c === "[") {
      const j = bracket(i + 1);
      if (j > i + 1 && s[j] === "]" && s[j + 1] === "(") {
        const k = paren(j + 2);
        if (k > j + 2 && s[k] === ")") return { at: i, end: k + 1, kind: "link", inner: s.slice(i + 1, j), href: s.slice(j + 2, k) };
      }
    } else if (c === "*" || c === "_") {
      const next = c === "*" ? star : under;
      if (s[i + 1] === c) {
        const j = next(i + 2);
        if (j > i + 2 && s[j] === c && s[j + 1] === c) return { at: i, end: j + 2, kind: "strong", inner: s.slice(i + 2, j) };
      }
      const behind = c === "*" || i === from || !WORD.test(s[i - 1]);
      if (behind && i + 1 < s.length && s[i + 1] !== c && !SPACE.test(s[i + 1])) {
        const j = next(i + 2);
        const ahead = c === "*" || j + 1 >= s.length || !WORD.test(s[j + 1]);
        if (s[j] === c && ahead) return { at: i, end: j + 1, kind: "em", inner: s.slice(i + 1, j) };
      }
    } else if (c === "`") {
      const j = tick(i + 1);
      if (j > i + 1 && s[j] === "`") return { at: i, end: j + 1, kind: "code", inner: s.slice(i + 1, j) };
    }
    return null;
  };
  /**
   * The first match at or after `from`.
   * @param {number} from
   */
  return (from) => {
    for (let i = from; i < s.length; i++) {
      steps++;
      const m = at(i, from);
      if (m) return m;
    }
    return null;
  };
}

/**
 * Inline Markdown of one text piece, appended to `out` as text and
 * whitelisted elements.
 * @param {string} text
 * @param {Node} out
 */
function inline(text, out) {
  const next = scanner(text);
  let done = 0;
  for (let m = next(0); m; m = next(done)) {
    if (m.at > done) out.appendChild(document.createTextNode(text.slice(done, m.at)));
    if (m.kind === "link") {
      const href = safeUrl(m.href ?? "");
      out.appendChild(href ? link(href, m.inner) : document.createTextNode(text.slice(m.at, m.end)));
    } else if (m.kind === "code") {
      const c = document.createElement("code");
      c.textContent = m.inner;
      out.appendChild(c);
    } else {
      const e = document.createElement(m.kind);
      inline(m.inner, e);
      out.appendChild(e);
    }
    done = m.end;
  }
  if (done < text.length) out.appendChild(document.createTextNode(text.slice(done)));
}

/**
 * Whether `text` ends in an unclosed link's `](…`: its last `](` with no
 * `)` or space after it.
 * @param {string} text
 */
function openLink(text) {
  const k = text.lastIndexOf("](");
  steps += text.length - Math.max(k, 0);
  if (k < 0) return false;
  for (let i = k + 2; i < text.length; i++) {
    steps++;
    if (text[i] === ")" || SPACE.test(text[i])) return false;
  }
  return true;
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
    if (before && !before.point && !before.url && openLink(before.text)) {
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
  return parts.some((p) => p.point || p.url || scanner(p.text)(0) !== null || p.text.split("\n").some((l) => BULLET.test(l)));
}
