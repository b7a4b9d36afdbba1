// @ts-check
// The game list of a collection: sortable, filtered as typed, searched
// in comments.

import { call, nav } from "./actions.js";
import { $, click, esc } from "./dom.js";
import { tr } from "./i18n.js";
import { ui } from "./state.js";

const ROW_HEIGHT = 24; // px, as in app.css: only the rows in view are drawn
/**
 * The game list: the rows, those shown, the sort and the comment search.
 * @type {{rows: any[], view: any[], key: string, dir: number, matches: Set<number> | null, query: string}}
 */
const games = { rows: [], view: [], key: "game", dir: 1, matches: null, query: "" };
/** @type {Map<number, number>} game → the node whose comment holds the text searched */
let hitNodes = new Map();

/** Shows the game list of a collection. */
export async function openGames() {
  if (!ui.state || ui.state.games <= 1) return;
  const r = await call("/api/games", { session: ui.state.session });
  if (!r) return;
  games.rows = r.games;
  games.matches = null;
  $("gamesfilter").value = "";
  filterGames();
  $("gamesdialog").showModal();
  const i = games.view.findIndex((g) => g.game === ui.state.game);
  $("gameswrap").scrollTop = Math.max(0, (i - 5) * ROW_HEIGHT);
  drawGames();
  $("gamesfilter").focus();
}

/** @param {any} g */
const rowText = (g) =>
  [g.game + 1, g.black, g.black_rank, g.white, g.white_rank, g.result, g.date, g.event, g.name]
    .filter((x) => x !== null && x !== undefined).join(" ").toLowerCase();

/** @param {unknown} x */
const isEmpty = (x) => x === null || x === undefined || x === "";
/** @param {any} a @param {any} b */
const compare = (a, b) => (typeof a === "number" ? a - b : String(a).localeCompare(String(b)));

function filterGames() {
  /** @type {string[]} */
  const words = $("gamesfilter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const view = games.rows.filter((g) =>
    games.matches ? games.matches.has(g.game) : words.every((w) => rowText(g).includes(w)));
  const k = games.key;
  const d = games.dir;
  // Games without the value last, whichever the direction.
  view.sort((a, b) => {
    const ea = isEmpty(a[k]);
    const eb = isEmpty(b[k]);
    if (ea !== eb) return ea ? 1 : -1;
    return (ea ? 0 : compare(a[k], b[k]) * d) || a.game - b.game;
  });
  games.view = view;
  const n = games.rows.length;
  $("gamescount").textContent = games.matches
    ? tr("{a} of {n} hold “{q}”", { a: view.length, n, q: games.query })
    : view.length === n ? `${n}` : tr("{a} of {n}", { a: view.length, n });
  for (const th of document.querySelectorAll("#gamestable th")) {
    if (!(th instanceof HTMLElement)) continue;
    th.classList.toggle("sorted", th.dataset.key === games.key);
    th.classList.toggle("desc", th.dataset.key === games.key && games.dir < 0);
  }
  drawGames();
}

function drawGames() {
  const wrap = $("gameswrap");
  const body = $("gamestable").tBodies[0];
  const first = Math.max(0, Math.floor(wrap.scrollTop / ROW_HEIGHT) - 10);
  const last = Math.min(games.view.length, first + Math.ceil(wrap.clientHeight / ROW_HEIGHT) + 20);
  /** @param {string} name @param {string} rank */
  const who = (name, rank) => esc(name) + (rank ? ` <span class="nodename">${esc(rank)}</span>` : "");
  // The rows above and below the ones drawn: spacers, their heights set
  // after (the page's policy allows no inline style).
  let html = `<tr class="spacer"></tr>`;
  for (let i = first; i < last; i++) {
    const g = games.view[i];
    html += `<tr class="game${g.game === ui.state.game ? " current" : ""}" data-game="${g.game}">` +
      `<td class="num">${g.game + 1}</td><td>${who(g.black, g.black_rank)}</td><td>${who(g.white, g.white_rank)}</td>` +
      `<td>${esc(g.result)}</td><td>${esc(g.date)}</td><td class="event" title="${esc(g.name)}">${esc(g.event)}</td><td class="num">${g.moves}</td></tr>`;
  }
  html += `<tr class="spacer"></tr>`;
  body.innerHTML = html;
  const spacers = body.querySelectorAll("tr.spacer");
  /** @type {HTMLElement} */ (spacers[0]).style.height = `${first * ROW_HEIGHT}px`;
  /** @type {HTMLElement} */ (spacers[1]).style.height = `${(games.view.length - last) * ROW_HEIGHT}px`;
}

/**
 * Opens game `g`: after a comment search, at the node whose comment holds the text.
 * @param {number} g
 */
function pickGame(g) {
  $("gamesdialog").close();
  const node = games.matches ? hitNodes.get(g) : undefined;
  nav("game", node === undefined ? { game: g } : { game: g, node });
}

/** The list's dialog, its filter, sorting and search. */
export function setup() {
  click("games", openGames);
  $("gameswrap").addEventListener("scroll", drawGames);
  $("gamestable").tHead.addEventListener("click", (/** @type {any} */ e) => {
    const k = e.target.dataset && e.target.dataset.key;
    if (!k) return;
    games.dir = games.key === k ? -games.dir : 1;
    games.key = k;
    filterGames();
  });
  $("gamestable").tBodies[0].addEventListener("click", (/** @type {any} */ e) => {
    const row = e.target.closest("tr.game");
    if (row) pickGame(+row.dataset.game);
  });
  $("gamesfilter").addEventListener("input", () => {
    games.matches = null;
    $("gameswrap").scrollTop = 0;
    filterGames();
  });
  $("gamesfilter").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      if (games.view.length) pickGame(games.view[0].game);
    }
  });
  click("gamessearch", async () => {
    const q = $("gamesfilter").value.trim();
    if (!q) return;
    const r = await call("/api/games/search", { session: ui.state.session, q });
    if (!r) return;
    games.matches = new Set(r.matches);
    hitNodes = new Map(r.matches.map((/** @type {number} */ g, /** @type {number} */ i) => [g, r.nodes[i]]));
    games.query = q;
    $("gameswrap").scrollTop = 0;
    filterGames();
  });
}
