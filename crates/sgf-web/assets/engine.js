// @ts-check
// The engine: play against it, its analysis on the board and the graph,
// counting the score.

import { api, withQuery } from "./api.js";
import { callOn, discardOk, edit, flushTyping, nav } from "./actions.js";
import { boardPoint, boardSvg, svgAt } from "./board.js";
import { $, click, message } from "./dom.js";
import { onLanguage, serverText, tr } from "./i18n.js";
import { sgfPoint } from "./letters.js";
import { ui } from "./state.js";

/** The engines of engines.toml in the drop-down, and "Other command…". */
async function loadEngines() {
  const r = await api("/api/engines").catch(() => null);
  const pick = $("enginepick");
  const keep = pick.value;
  pick.replaceChildren();
  for (const e of (r && r.engines) || []) {
    const o = new Option(e.name, e.name);
    o.title = e.command;
    pick.add(o);
  }
  const other = new Option(tr("Other command…"), "");
  other.id = "enginepick-other";
  pick.add(other);
  if ([...pick.options].some((/** @type {HTMLOptionElement} */ o) => o.value === keep)) pick.value = keep;
  $("enginecmd").hidden = pick.value !== "";
  if (r && r.error) message(serverText(r.error), true);
}

/**
 * A request to the record's engine (`action`: start, stop, analyse…).
 * @param {string} action
 * @param {Record<string, unknown>} [extra]
 */
function engineCall(action, extra = {}) {
  if (!ui.state) return Promise.resolve(null);
  flushTyping();
  return callOn("/api/engine", Object.assign({ action }, extra));
}

/**
 * Starts the engine chosen (`second`: as White's engine). A command line
 * not in engines.toml that the player never confirmed is refused by the
 * server (`confirm_engine`): the page's dialog shows it whole, and it is
 * started again, confirmed, only when the player says so.
 * @param {boolean} second
 */
async function startEngine(second) {
  const engine = $("enginepick").value || $("enginecmd").value.trim();
  const s = await engineCall("start", { engine, second });
  if (!s || typeof s.confirm_engine !== "string") return s;
  if (!(await confirmEngine(s.confirm_engine))) return s;
  return engineCall("start", { engine, second, confirm: true });
}

/**
 * Asks the player whether to run command line `line` (the dialog's
 * "Run it"; anything else is no).
 * @param {string} line
 * @returns {Promise<boolean>}
 */
function confirmEngine(line) {
  const d = /** @type {HTMLDialogElement} */ ($("enginedialog"));
  $("enginedialogcmd").textContent = line;
  d.returnValue = "";
  return new Promise((resolve) => {
    d.onclose = () => resolve(d.returnValue === "run");
    d.showModal();
  });
}

// The engine moves when it is its turn in a game against it (not after an
// undo: the user may want to try another move first).
async function engineMove() {
  if (!ui.state || !ui.state.engine || ui.thinking) return;
  ui.thinking = true;
  showEngine(ui.state);
  const before = ui.state;
  try {
    const s = await engineCall("move");
    // Two passes in a row end the game: time to count.
    if (s && !s.error_kind && s.node.move === "pass" && before.node.move === "pass") {
      message(tr("Both players passed: count the score."));
    }
    return s;
  } finally {
    ui.thinking = false;
    if (ui.state) showEngine(ui.state);
  }
}

/**
 * The engine moves when it is its turn (in a game against it).
 * @param {any} s the state shown
 */
export function maybeEngineMove(s) {
  const e = s && s.engine;
  if (e && e.alive && e.playing && e.playing === s.node.to_play && !s.illegal) return engineMove();
  return s;
}

/** The colour and level the engine plays, as the panel says. */
function playSettings() {
  return { color: $("playcolor").value || null, level: Math.max(1, Math.min(10, +$("playlevel").value || 5)) };
}

/**
 * The engine panel and the count, as state `s` has them.
 * @param {any} s
 */
export function showEngine(s) {
  const e = s.engine;
  const st = $("enginestatus");
  let text;
  if (!e) text = tr("No engine is running.");
  else if (!e.alive) text = tr("{name} has stopped: {error}", { name: e.name, error: serverText(e.error || "") });
  else if (ui.thinking) text = tr("{name} is thinking…", { name: e.name });
  else if (e.error) text = tr("{name}: {error}", { name: e.name, error: serverText(e.error) });
  else if (e.analysing) text = tr("{name} is analysing.", { name: e.name });
  else text = tr("{name} is ready.", { name: e.name });
  if (e && e.alive && e.playing) text += " " + tr("It plays {color}.", { color: tr(e.playing === "B" ? "Black" : "White") });
  st.textContent = text;
  st.classList.toggle("error", !!(e && (e.error || !e.alive)));
  $("analyse").checked = !!(e && e.analysing);
  $("analyse").disabled = !(e && e.alive && e.can_analyse);
  $("enginestop").disabled = !e;
  $("enginemove").disabled = !(e && e.alive) || ui.thinking;
  $("newgame").disabled = !(e && e.alive);
  if (e && document.activeElement !== $("playcolor")) $("playcolor").value = e.playing || "";
  if (e && e.level && document.activeElement !== $("playlevel")) $("playlevel").value = e.level;
  const c = s.count;
  $("countdone").disabled = !c;
  const midGame = !!c && countIsMidGame(c, s);
  $("writeresult").disabled = !c || midGame;
  $("writeresult").title = tr(midGame
    ? "The game is not over (no two passes, no counted result): this count is an estimate, not a result to write"
    : "Write the result into the record (RE); undo takes it back");
  if (c && document.activeElement !== $("countrules")) $("countrules").value = c.rules;
  $("countresult").textContent = c
    ? countText(c) + (midGame ? "\n" + tr("The game is not over: this is an estimate, not a result.") : "")
    : "";
  if (!(e && e.analysing)) ui.analysis = null;
  showBatch(e);
  const w = e && e.second;
  $("engine2status").textContent = w ? tr("White's engine: {name}", { name: w.name }) + (w.alive ? "" : " — " + tr("stopped")) : "";
  $("enginestart2").disabled = !(e && e.alive);
  $("enginestop2").disabled = !w;
  $("enginegame").disabled = !(e && e.alive);
  $("enginegame").textContent = tr(ui.engineGame ? "Stop the engine game" : "Engine vs engine");
  pollEngine();
}

/**
 * Engine against engine: the engine to move (White's second engine for
 * White when there is one) plays, again and again, until the game ends
 * (two passes, a resignation), a move fails, or this is called again.
 */
export async function toggleEngineGame() {
  if (ui.engineGame) {
    ui.engineGame = false;
    return;
  }
  if (!ui.state || !ui.state.engine || !ui.state.engine.alive) return message(tr("Start an engine first (the Engine panel)."), true);
  ui.engineGame = true;
  showEngine(ui.state);
  try {
    while (ui.engineGame) {
      const before = ui.state.node.number;
      const s = await engineMove();
      // A failure, a resignation (no move: the result written), or two passes.
      if (!s || s.error_kind || s.node.number === before || s.node.passes >= 2) break;
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    ui.engineGame = false;
    if (ui.state) showEngine(ui.state);
  }
}

/** Whether the engine's ownership map is drawn (Engine menu; remembered). */
export function ownershipWanted() {
  try { return localStorage.getItem("qipu.ownership") === "on"; } catch (e) { return false; }
}

/** The ownership map on or off. */
export function toggleOwnership() {
  try { localStorage.setItem("qipu.ownership", ownershipWanted() ? "off" : "on"); } catch (e) { /* private mode */ }
  drawOverlay();
}

/** Whether the large graph under the board is wanted (View menu; remembered). */
export function graphWanted() {
  try { return localStorage.getItem("qipu.graph") !== "off"; } catch (e) { return true; }
}

/**
 * The large graph under the board on or off (shown while an engine runs).
 * @param {boolean} on
 */
export function setGraphWanted(on) {
  try { localStorage.setItem("qipu.graph", on ? "on" : "off"); } catch (e) { /* private mode */ }
  if (ui.state) showEngine(ui.state);
  window.dispatchEvent(new Event("resize"));
}

/**
 * The large graph, "Analyse the whole game" and its progress, as the
 * engine `e` has them.
 * @param {any} e
 */
function showBatch(e) {
  const bar = $("graphbar");
  const was = bar.hidden;
  bar.hidden = !(e && graphWanted());
  if (was !== bar.hidden) {
    window.dispatchEvent(new Event("resize"));
    drawGraph();
  }
  const b = e && e.batch;
  $("analysegame").textContent = tr(b ? "Stop analysing the game" : "Analyse the whole game");
  $("analysegame").disabled = !(e && e.alive && e.can_analyse);
  $("batchstatus").textContent = b ? tr("Analysed {done} of {total} positions", { done: b.done, total: b.total }) : "";
}

/** The engine's GTP console: the engine panel open, the command line focused. */
export function openConsole() {
  $("enginepanel").open = true;
  $("gtpcmd").focus();
}

/**
 * Sends the console's command line to the engine; the exchange goes in
 * the console's log (a refusal in red).
 */
async function sendConsole() {
  const command = $("gtpcmd").value.trim();
  if (!command) return;
  const s = await engineCall("command", { command });
  if (!s || !s.gtp) return;
  $("gtpcmd").value = "";
  const log = $("gtplog");
  const entry = document.createElement("div");
  entry.textContent = `> ${s.gtp.command}\n${s.gtp.ok ? "=" : "?"} ${s.gtp.answer}`;
  if (!s.gtp.ok) entry.className = "refused";
  log.appendChild(entry);
  log.scrollTop = log.scrollHeight;
}

/** "Analyse the whole game" (the line shown), or stops it. */
export function analyseGame() {
  const e = ui.state && ui.state.engine;
  if (!e) return message(tr("Start an engine that analyses first (the Engine panel)."), true);
  return engineCall("analyse_game", e.batch ? { on: false } : { on: true });
}

/**
 * Whether count `c` is of a game still being played, where its result is
 * only an estimate and "Set result" is not offered. The server's word
 * when it gives one (`mid_game`); else the game is over when the last two
 * moves were passes, or at the end of a line whose record holds a counted
 * result (`RE[B+3.5]`, not a resignation).
 * @param {any} c
 * @param {any} s
 */
export function countIsMidGame(c, s) {
  // Over when the board is settled (the server's `finished`) or the record
  // says so: two passes, or a counted result at the end of the line.
  if (c.finished === true) return false;
  const n = s.node;
  if (n.passes >= 2) return false;
  const re = (s.info && s.info.RE) || "";
  if (n.children === 0 && /^\s*(?:[BW]\+\d|0\s*$|Draw|Jigo)/i.test(re)) return false;
  return true;
}

/**
 * The count in words.
 * @param {any} c
 */
function countText(c) {
  /** @param {string} name @param {any} x */
  const side = (name, x) => c.scoring === "area"
    ? tr("{who}: {stones} stones + {territory} territory = {score}", { who: tr(name), stones: x.stones, territory: x.territory, score: x.score })
    : tr("{who}: {territory} territory + {captures} captures = {score}", { who: tr(name), territory: x.territory, captures: x.captures, score: x.score });
  /** @type {Record<string, string>} */
  const sources = { engine: "the engine", marks: "the record's marks", estimator: "Qipu's estimate", user: "your choice" };
  const from = sources[c.from];
  return [
    side("Black", c.black),
    side("White", c.white) + " " + tr("(komi {komi})", { komi: c.komi }),
    tr("Result: {result}", { result: c.result }),
    tr("Territory scoring: {t} · area scoring: {a}", { t: c.territory_result, a: c.area_result }),
    tr("Dead stones from {from}; click a group to change.", { from: tr(from) }),
  ].join("\n");
}

// Polls the analysis while the engine analyses or the panel shows the graph.
function pollEngine() {
  const e = ui.state && ui.state.engine;
  const want = ui.state && (e && (e.analysing || e.batch || !$("graphbar").hidden) || $("enginepanel").open);
  if (want && !ui.engineTimer) {
    ui.engineTimer = setInterval(fetchAnalysis, 400);
    fetchAnalysis();
  } else if (!want && ui.engineTimer) {
    clearInterval(ui.engineTimer);
    ui.engineTimer = null;
  }
}

async function fetchAnalysis() {
  if (!ui.state || ui.fetching) return;
  ui.fetching = true;
  try {
    const r = await api(withQuery("/api/engine/analysis", { session: ui.state.session }));
    ui.analysis = r.analysis && ui.state && r.analysis.node === ui.state.node.number ? r.analysis : null;
    ui.graph = r.graph;
    if (ui.hoverPv && ui.analysis) ui.hoverPv = ui.analysis.candidates.find((/** @type {any} */ c) => c.point === ui.hoverPv.point) || null;
    drawOverlay();
    drawGraph();
    if (r.engine && ui.state && ui.state.engine && (r.engine.alive !== ui.state.engine.alive ||
        JSON.stringify(r.engine.batch) !== JSON.stringify(ui.state.engine.batch))) {
      ui.state.engine = r.engine;
      showEngine(ui.state);
    }
  } catch (e) {
    /* the session closed: the next state says so */
  } finally {
    ui.fetching = false;
  }
}

/** @param {number} n */
const shortCount = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e3 ? (n / 1e3).toFixed(1) + "k" : String(n));

// What the board shows over the server's picture: territory and dead
// stones while counting, candidate moves and the hovered variation.
export function drawOverlay() {
  const svg = boardSvg();
  if (!svg || !ui.state) return;
  svg.querySelectorAll("g.qipu-overlay").forEach((g) => g.remove());
  const cell = +(svg.dataset.cell || 0);
  const NS = "http://www.w3.org/2000/svg";
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "qipu-overlay");
  /** @param {string} pt */
  const at = (pt) => svgAt(svg, pt);
  /** @param {string} name @param {Record<string, any>} attrs @param {string} [text] */
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    g.appendChild(e);
    return e;
  };
  const c = ui.state.count;
  if (c) {
    const width = c.cols;
    for (let i = 0; i < c.territory.length; i++) {
      const o = c.territory[i];
      if (o === ".") continue;
      const pt = sgfPoint(i % width, Math.floor(i / width));
      const [x, y] = at(pt);
      el("rect", { class: `terr ${o}`, "data-pt": pt, x: x - cell * 0.16, y: y - cell * 0.16, width: cell * 0.32, height: cell * 0.32,
        fill: o === "B" ? "#111" : "#fff", stroke: "#555", "stroke-width": cell * 0.02 });
    }
    for (const pt of c.dead) {
      const [x, y] = at(pt);
      const r = cell * 0.3;
      el("path", { class: "dead", "data-pt": pt, d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`, stroke: "#d33", "stroke-width": cell * 0.08 });
    }
  }
  const own = ui.analysis && !c && ownershipWanted() ? ui.analysis.ownership : null;
  if (own && ui.state.size) {
    // The ownership map: a square on each point as owned (black or white),
    // its size how sure the engine is; undecided points left bare.
    const cols = ui.state.size[0];
    own.forEach((/** @type {number} */ v, /** @type {number} */ i) => {
      if (Math.abs(v) < 0.2) return;
      const pt = sgfPoint(i % cols, Math.floor(i / cols));
      const [x, y] = at(pt);
      const half = cell * (0.12 + 0.26 * Math.abs(v));
      el("rect", { class: `own ${v > 0 ? "B" : "W"}`, "data-pt": pt, x: x - half, y: y - half, width: 2 * half, height: 2 * half,
        fill: v > 0 ? "#111" : "#fff", opacity: 0.55, stroke: "#777", "stroke-width": cell * 0.02 });
    });
  }
  if (ui.analysis && !c && $("analysisshow").value === "heat") {
    // The heat map: each candidate's share of the visits as the size and
    // warmth of a disc, the best ringed; no numbers over the stones.
    const maxVisits = Math.max(1, ...ui.analysis.candidates.map((/** @type {any} */ k) => k.visits));
    ui.analysis.candidates.forEach((/** @type {any} */ k, /** @type {number} */ i) => {
      if (!k.point) return;
      const [x, y] = at(k.point);
      const share = k.visits / maxVisits;
      el("circle", { class: "heat", "data-pt": k.point, cx: x, cy: y, r: cell * (0.18 + 0.3 * Math.sqrt(share)),
        fill: `hsl(${Math.round(220 - 220 * share)}, 85%, 50%)`, opacity: 0.35 + 0.5 * share,
        stroke: i === 0 ? "#fff" : "none", "stroke-width": cell * 0.06 });
    });
  } else if (ui.analysis && !c) {
    const lead = $("analysisshow").value === "lead";
    const best = ui.analysis.candidates[0];
    const maxVisits = Math.max(1, ...ui.analysis.candidates.map((/** @type {any} */ k) => k.visits));
    for (const k of ui.analysis.candidates) {
      if (!k.point) continue;
      const [x, y] = at(k.point);
      const share = k.visits / maxVisits;
      const fill = k === best ? "#2f80ed" : `hsl(${Math.round(120 * share)}, 60%, 45%)`;
      el("circle", { class: "cand", "data-pt": k.point, cx: x, cy: y, r: cell * 0.46, fill, opacity: 0.85 });
      const value = lead && k.score_lead !== null && k.score_lead !== undefined
        ? (k.score_lead >= 0 ? "+" : "") + k.score_lead.toFixed(1)
        : (k.winrate * 100).toFixed(1);
      el("text", { x, y: y - cell * 0.12, "font-size": cell * 0.3, fill: "#fff" }, value);
      el("text", { x, y: y + cell * 0.2, "font-size": cell * 0.24, fill: "#fff" }, shortCount(k.visits));
    }
    if (ui.hoverPv) {
      let colour = ui.analysis.to_play;
      ui.hoverPv.pv.forEach((/** @type {string | null} */ pt, /** @type {number} */ i) => {
        if (pt) {
          const [x, y] = at(pt);
          el("circle", { class: "pv", "data-pt": pt, cx: x, cy: y, r: cell * 0.47, fill: colour === "B" ? "#111" : "#fafafa", stroke: "#333", opacity: 0.8 });
          el("text", { x, y, "font-size": cell * 0.42, fill: colour === "B" ? "#fff" : "#111" }, String(i + 1));
        }
        colour = colour === "B" ? "W" : "B";
      });
    }
  }
  svg.appendChild(g);
}

// Black's win rate (or lead) along the line shown, in the engine panel
// and large under the board; a click goes there.
function drawGraph() {
  drawGraphOn($("graph"));
  drawGraphOn($("biggraph"));
}

/** @param {HTMLCanvasElement} c */
function drawGraphOn(c) {
  const dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth, h = c.clientHeight;
  if (!w || !h) return;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  const g = c.getContext("2d");
  if (!g) return;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  g.strokeStyle = "#bbb";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, h / 2);
  g.lineTo(w, h / 2);
  g.stroke();
  if (!ui.graph || ui.graph.points.length < 1) return;
  const pts = ui.graph.points;
  const n = Math.max(1, pts.length - 1);
  const lead = $("analysisshow").value === "lead";
  const maxLead = Math.max(5, ...pts.map((/** @type {number[]} */ p) => Math.abs(p[2] || 0)));
  /** @param {(number | null)[]} p */
  const yOf = (p) => {
    if (lead && p[2] !== null && p[2] !== undefined) return h / 2 - (p[2] / maxLead) * (h / 2 - 4);
    if (!lead && p[1] !== null && p[1] !== undefined) return h - 2 - p[1] * (h - 4);
    return null;
  };
  g.strokeStyle = "#a0522d";
  g.lineWidth = 1.5;
  g.beginPath();
  let open = false;
  c.dataset.values = String(pts.filter((/** @type {number[]} */ p) => yOf(p) !== null).length);
  pts.forEach((/** @type {number[]} */ p, /** @type {number} */ i) => {
    const y = yOf(p);
    if (y === null) return;
    const x = (i / n) * (w - 4) + 2;
    if (open) g.lineTo(x, y); else g.moveTo(x, y);
    open = true;
  });
  g.stroke();
  const cx = (ui.graph.current / n) * (w - 4) + 2;
  g.strokeStyle = "#2f80ed";
  g.beginPath();
  g.moveTo(cx, 0);
  g.lineTo(cx, h);
  g.stroke();
}

/**
 * A request about counting (`action`: start, toggle, rules, stop).
 * @param {string} action
 * @param {Record<string, unknown>} [extra]
 */
export function countCall(action, extra = {}) {
  if (!ui.state) return;
  return callOn("/api/count", Object.assign({ action }, extra));
}

/** The engine panel's controls, the graph, and the analysis under the mouse. */
export function setup() {
  $("board").addEventListener("mousemove", (/** @type {MouseEvent} */ ev) => {
    if (!ui.analysis) return;
    const pt = boardPoint(ev);
    const k = pt ? ui.analysis.candidates.find((/** @type {any} */ c) => c.point === pt) || null : null;
    if (k !== ui.hoverPv && (!k || !ui.hoverPv || k.point !== ui.hoverPv.point)) {
      ui.hoverPv = k;
      drawOverlay();
    }
  });
  $("board").addEventListener("mouseleave", () => {
    if (ui.hoverPv) {
      ui.hoverPv = null;
      drawOverlay();
    }
  });
  for (const id of ["graph", "biggraph"]) {
    $(id).addEventListener("click", (/** @type {MouseEvent} */ ev) => {
      if (!ui.graph || !ui.graph.points.length) return;
      const r = $(id).getBoundingClientRect();
      const n = Math.max(1, ui.graph.points.length - 1);
      const i = Math.max(0, Math.min(n, Math.round(((ev.clientX - r.left - 2) / (r.width - 4)) * n)));
      nav("node", { node: ui.graph.points[i][0] });
    });
  }
  click("analysegame", analyseGame);
  $("gtpcmd").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      sendConsole();
    }
  });
  window.addEventListener("resize", drawGraph);

  $("enginepick").addEventListener("change", () => {
    $("enginecmd").hidden = $("enginepick").value !== "";
  });
  click("enginestart", () => startEngine(false));
  click("enginestop", () => { ui.engineGame = false; return engineCall("stop"); });
  click("enginestart2", () => startEngine(true));
  click("enginestop2", () => engineCall("stop", { second: true }));
  click("enginegame", toggleEngineGame);
  $("analyse").addEventListener("change", () => engineCall("analyse", { on: $("analyse").checked }));
  $("analysisshow").addEventListener("change", () => { drawOverlay(); drawGraph(); });
  $("playcolor").addEventListener("change", async () => maybeEngineMove(await engineCall("play", playSettings())));
  $("playlevel").addEventListener("change", () => engineCall("play", playSettings()));
  $("newhandicap").addEventListener("change", () => {
    // Komi follows the handicap, as is usual: none with handicap stones.
    $("newkomi").value = +$("newhandicap").value >= 2 ? "0.5" : "6.5";
  });
  click("newgame", async () => {
    if (!discardOk("A new game")) return;
    const p = playSettings();
    const s = await engineCall("new_game", {
      size: +$("newsize").value, handicap: +$("newhandicap").value || 0, komi: +$("newkomi").value || 0,
      color: p.color, level: p.level,
    });
    if (s) maybeEngineMove(s);
  });
  click("enginemove", engineMove);
  onLanguage(() => {
    const other = document.getElementById("enginepick-other");
    if (other) other.textContent = tr("Other command…");
  });
  $("enginepanel").addEventListener("toggle", () => {
    if ($("enginepanel").open) loadEngines();
    pollEngine();
    drawGraph();
  });
  click("count", async () => {
    await countCall("start", { source: $("countfrom").value });
    // The result (and why Set result may be greyed out) is at the panel's
    // foot, often below the side column's fold: brought into view.
    $("countresult").scrollIntoView({ block: "nearest" });
  });
  click("countdone", () => countCall("stop"));
  $("countrules").addEventListener("change", () => ui.state && ui.state.count && countCall("rules", { rules: $("countrules").value }));
  click("writeresult", () => {
    if (ui.state && ui.state.count) edit("info", { props: { RE: ui.state.count.result } });
  });
}
