// @ts-check
// Qipu viewer: the database search panel (`qipu view --db GAMES.qdb`).
// Searches run on the server (crate sgf-db); this panel sends the current
// session and an optional region, lists the hits, and draws the
// continuations on the board with their counts and win rates.

import { api } from "./api.js";
import { discardOk } from "./actions.js";
import { boardPoint, boardSvg, svgAt } from "./board.js";
import { $, message } from "./dom.js";
import { onLanguage, tr } from "./i18n.js";
import { markLetter, sgfPoint, sgfXY } from "./letters.js";
import { show } from "./panels.js";
import { ui } from "./state.js";

/** Adds the panel to the page. */
export function setup() {
  const side = $("side");
  const panel = document.createElement("details");
  panel.className = "panel tabpanel";
  panel.id = "searchpanel";
  panel.dataset.panel = "search";
  panel.innerHTML = `
    <summary>Search the database</summary>
    <div id="dbinfo" class="dbinfo">…</div>
    <div class="dbopts">
      <label><input id="dbanywhere" type="checkbox"> anywhere</label>
      <label><input id="dbswap" type="checkbox"> colours swapped too</label>
      <label><input id="dbvariations" type="checkbox"> variations</label>
      <input id="dbplayer" placeholder="player (optional)">
    </div>
    <div class="dbbuttons">
      <button id="dbposition" title="Games that pass through this whole-board position (8 symmetries)">Search position</button>
      <button id="dbmark" title="Click two corners on the board">Mark region</button>
      <button id="dbregion" disabled>Search region</button>
      <button id="dbclear">Clear</button>
    </div>
    <div id="dbsummary" class="dbsummary"></div>
    <ol id="dbconts" class="dbconts"></ol>
    <ol id="dbhits" class="dbhits"></ol>`;
  side.appendChild(panel);
  /** @type {number[] | null} null, or the first corner [x, y] once clicked ([] before) */
  let marking = null;
  /** @type {number[] | null} [x0, y0, x1, y1] */
  let region = null;
  /** @type {any} the last search's answer */
  let result = null;

  // ---- the board overlay: region and continuations ----

  function overlay() {
    const svg = boardSvg();
    if (!svg) return;
    svg.querySelectorAll(".dbover").forEach((e) => e.remove());
    const cell = +(svg.dataset.cell || 0);
    const ns = "http://www.w3.org/2000/svg";
    const g = document.createElementNS(ns, "g");
    g.setAttribute("class", "dbover");
    if (region) {
      const r = document.createElementNS(ns, "rect");
      r.setAttribute("class", "dbregion");
      const [x, y] = svgAt(svg, sgfPoint(region[0], region[1]));
      r.setAttribute("x", String(x - cell / 2));
      r.setAttribute("y", String(y - cell / 2));
      r.setAttribute("width", String((region[2] - region[0] + 1) * cell));
      r.setAttribute("height", String((region[3] - region[1] + 1) * cell));
      g.appendChild(r);
    }
    if (result) {
      result.continuations.slice(0, 12).forEach((/** @type {any} */ c, /** @type {number} */ i) => {
        const [x, y] = svgAt(svg, c.move);
        const t = document.createElementNS(ns, "g");
        t.setAttribute("class", "dbcont " + (c.color === "B" ? "black" : "white"));
        t.setAttribute("data-pt", c.move);
        const circ = document.createElementNS(ns, "circle");
        circ.setAttribute("cx", String(x));
        circ.setAttribute("cy", String(y));
        circ.setAttribute("r", String(cell * 0.42));
        const text = document.createElementNS(ns, "text");
        text.setAttribute("x", String(x));
        text.setAttribute("y", String(y + cell * 0.15));
        text.setAttribute("text-anchor", "middle");
        text.setAttribute("font-size", String(cell * 0.4));
        text.textContent = i < 26 ? markLetter(i) : "";
        const title = document.createElementNS(ns, "title");
        title.textContent = `${tr(c.color === "B" ? "B" : "W")} ${c.move}: ${c.count}× — ${winRate(c)}`;
        t.append(circ, text, title);
        g.appendChild(t);
      });
    }
    svg.appendChild(g);
  }

  /** @param {any} c */
  function winRate(c) {
    const n = c.black_wins + c.white_wins;
    if (!n) return "no results";
    return tr("Black wins {p}%", { p: Math.round((100 * c.black_wins) / n) });
  }

  // The page redraws the board on every state: put the overlay back.
  new MutationObserver(() => {
    const svg = boardSvg();
    if (svg && !svg.querySelector(".dbover")) overlay();
  }).observe($("board"), { childList: true, subtree: true });

  // ---- marking a region: two clicks, before the page's own click handler ----

  $("board").addEventListener(
    "click",
    (/** @type {MouseEvent} */ ev) => {
      if (marking === null) return;
      const pt = boardPoint(ev);
      ev.stopImmediatePropagation();
      ev.preventDefault();
      if (!pt) return;
      const p = sgfXY(pt);
      if (marking.length === 0) {
        marking = p;
        region = [p[0], p[1], p[0], p[1]];
        message(tr("Now click the opposite corner of the region"));
      } else {
        region = [Math.min(marking[0], p[0]), Math.min(marking[1], p[1]), Math.max(marking[0], p[0]), Math.max(marking[1], p[1])];
        marking = null;
        $("dbmark").classList.remove("active");
        $("dbregion").disabled = false;
        message("");
      }
      overlay();
    },
    true,
  );

  $("dbmark").addEventListener("click", () => {
    marking = [];
    region = null;
    $("dbmark").classList.add("active");
    message(tr("Click one corner of the region on the board"));
    overlay();
  });

  $("dbclear").addEventListener("click", () => {
    marking = null;
    region = null;
    result = null;
    $("dbregion").disabled = true;
    $("dbsummary").textContent = "";
    $("dbhits").innerHTML = "";
    $("dbconts").innerHTML = "";
    overlay();
  });

  // ---- searching and showing the answer ----

  /** @param {boolean} withRegion */
  async function search(withRegion) {
    const st = ui.state;
    if (!st) return;
    $("dbsummary").textContent = tr("Searching…");
    try {
      result = await api("/api/db/search", {
        session: st.session,
        region: withRegion ? region : null,
        anywhere: $("dbanywhere").checked,
        swap_colors: $("dbswap").checked,
        variations: $("dbvariations").checked,
        player: $("dbplayer").value,
        limit: 200,
      });
    } catch (e) {
      result = null;
      $("dbsummary").textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    showResult();
  }

  function showResult() {
    const r = result;
    $("dbsummary").textContent = tr(r.total === 1 ? "1 hit" : "{n} hits", { n: r.total }) + " " +
      tr(r.games === 1 ? "in 1 game" : "in {n} games", { n: r.games }) +
      (r.hits.length < r.total ? " " + tr("(first {n} listed)", { n: r.hits.length }) : "");
    const conts = $("dbconts");
    conts.innerHTML = "";
    r.continuations.slice(0, 12).forEach((/** @type {any} */ c, /** @type {number} */ i) => {
      const li = document.createElement("li");
      li.className = "dbcont";
      li.dataset.move = c.move;
      li.textContent = `${i < 26 ? markLetter(i) : ""} ${tr(c.color === "B" ? "B" : "W")} ${c.move} — ${c.count}× (${winRate(c)})`;
      conts.appendChild(li);
    });
    const hits = $("dbhits");
    hits.innerHTML = "";
    for (const h of r.hits) {
      const li = document.createElement("li");
      li.className = "dbhit";
      const where = h.member ? `${h.path}:${h.member}` : h.path;
      li.textContent = `${h.black || "?"} – ${h.white || "?"}  ${h.date || ""}  ${h.result || ""}  ` +
        tr("move {n}", { n: h.move }) + (h.variation ? " " + tr("(variation)") : "");
      li.title = `${where}, ` + tr("game {n}", { n: h.game + 1 });
      li.addEventListener("click", () => openHit(h));
      hits.appendChild(li);
    }
    overlay();
  }

  /** @param {any} h */
  async function openHit(h) {
    if (!discardOk()) return;
    const old = ui.state && ui.state.session;
    try {
      const st = await api("/api/db/open", { id: h.id, node: h.node });
      if (typeof old === "number" && old !== st.session) api("/api/close", { session: old }).catch(() => {});
      result = null; // the continuations belong to the searched position
      region = null;
      show(st);
    } catch (e) {
      message(e instanceof Error ? e.message : String(e), true);
    }
  }

  $("dbposition").addEventListener("click", () => search(false));
  $("dbregion").addEventListener("click", () => search(true));

  /** @type {any} what the server said of its database */
  let info = null;
  const showInfo = () => {
    if (!info) return;
    $("dbinfo").textContent = info.database
      ? `${info.database}: ` + tr("{n} games", { n: info.games })
      : tr("No database: start with qipu view --db GAMES.qdb");
  };
  onLanguage(showInfo);
  api("/api/db/info")
    .then((i) => {
      info = i;
      showInfo();
      for (const id of ["dbposition", "dbmark"]) $(id).disabled = !i.database;
    })
    .catch((e) => { $("dbinfo").textContent = e.message; });
}
