// Qipu viewer: a thin view over the JSON API of `qipu view`. The Rust side
// parses, replays, draws the board (SVG) and writes files; this page only
// shows what it sends and forwards clicks and keys.
"use strict";

const TOKEN = window.QIPU_TOKEN;
const $ = (id) => document.getElementById(id);
let state = null; // the last state from the server
let tree = { version: -1, nodes: [] }; // [x, y, kind, parent, flags] per node, by number
// Requests run one after another, in the order of the clicks and keys.
let queue = Promise.resolve();

// ---- languages: English is the key; translations in assets/i18n/*.json ----

const LANGUAGES = { en: "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", ja: "日本語", ko: "한국어" };
let dict = {}; // English → the chosen language

// `text` in the chosen language, `{name}` replaced from `vars`.
function tr(text, vars) {
  let t = dict[text] || text;
  if (vars) t = t.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return t;
}

// The browser's language, or the one chosen before.
function pickLanguage() {
  try {
    const saved = localStorage.getItem("qipu.lang");
    if (saved && LANGUAGES[saved]) return saved;
  } catch (e) { /* private mode */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const x = l.toLowerCase();
    if (x === "zh-tw" || x === "zh-hk" || x === "zh-mo" || x.startsWith("zh-hant")) return "zh-Hant";
    if (x.startsWith("zh")) return "zh-Hans";
    if (x.startsWith("ja")) return "ja";
    if (x.startsWith("ko")) return "ko";
    if (x.startsWith("en")) return "en";
  }
  return "en";
}

// Parts of the page filled by the code, translated where they are made.
const DYNAMIC = ["board", "players", "status", "message", "title", "nodename", "games", "gamescount",
  "filelist", "diagnostics", "diagtoggle", "variations", "annotations", "info", "tree", "gamestable",
  "repairlist", "repairsummary", "conflicttext", "diagramtext", "diagramnote", "pastetext", "comment", "jump", "name",
  "dbinfo", "dbsummary", "dbconts", "dbhits", "enginepick", "enginestatus", "countresult"];
const originals = new WeakMap(); // text node or element → its English text, attribute by attribute

function translatePage() {
  const skip = (el) => DYNAMIC.some((id) => { const d = document.getElementById(id); return d && d.contains(el) && !(id === "gamestable" && el.closest("thead")); });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.nodeValue.trim() || n.parentElement.closest("script") || skip(n.parentElement)) continue;
    if (!originals.has(n)) originals.set(n, n.nodeValue);
    const en = originals.get(n);
    const core = en.trim();
    n.nodeValue = en.replace(core, tr(core));
  }
  for (const el of document.body.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (skip(el) && !el.matches("#games, #comment, #jump, #name, #gamesfilter, #enginepick")) continue;
    if (!originals.has(el)) {
      originals.set(el, { title: el.getAttribute("title"), placeholder: el.getAttribute("placeholder"), label: el.getAttribute("aria-label") });
    }
    const o = originals.get(el);
    if (o.title) el.title = tr(o.title);
    if (o.placeholder) el.placeholder = tr(o.placeholder);
    if (o.label) el.setAttribute("aria-label", tr(o.label));
  }
}

async function setLanguage(lang) {
  dict = lang === "en" ? {} : (await api(`/i18n/${lang}.json`).catch(() => ({ strings: {} }))).strings;
  document.documentElement.lang = lang;
  $("lang").value = lang;
  try { localStorage.setItem("qipu.lang", lang); } catch (e) { /* private mode */ }
  translatePage();
  if (state) show(state);
  if (typeof showInfo === "function" && state && state.info) { $("info").dataset.owner = ""; showInfo(state.info); }
}

async function api(path, body) {
  const opts = { headers: { "x-qipu-token": TOKEN } };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok || data.error) {
    const err = new Error(data.error || res.statusText);
    err.kind = data.error_kind; // e.g. "changed_on_disk", "read_only"
    throw err;
  }
  return data;
}

function message(text, error = false) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("error", !!error);
}

function call(path, body) {
  const run = async () => {
    try {
      // The body is built when the request runs, so it sees the latest tree version.
      const b = typeof body === "function" ? body() : body;
      const s = await api(path, b);
      if (s.session !== undefined) show(s);
      return s;
    } catch (e) {
      if (e.kind === "no_session") return reopenClosed();
      message(e.message, true);
      return null;
    }
  };
  queue = queue.then(run, run);
  return queue;
}

// The server no longer has the record shown (it was closed: the page was
// put in the browser's back-forward cache, or closed in another way).
// Records the server only put aside to free memory never come here: it
// reads them back itself. A record with a file is read again from it;
// one without says so.
async function reopenClosed() {
  const was = state;
  if (!was) return null;
  if (!was.path) {
    message(tr("{name} is no longer open in the viewer: open it again.", { name: was.name }), true);
    return null;
  }
  try {
    const s = await api("/api/open", { path: was.path });
    show(s);
    message(was.dirty
      ? tr("{name} was no longer open in the viewer, and its unsaved changes are gone: it was read again from its file.", { name: was.name })
      : tr("{name} was no longer open in the viewer: it was read again from its file.", { name: was.name }), was.dirty);
    return s;
  } catch (e) {
    message(e.message, true);
    return null;
  }
}

function nav(action, extra = {}) {
  if (!state) return;
  flushTyping();
  return call("/api/nav", () => Object.assign({ session: state.session, action, tree_version: tree.version, dark: isDark() }, extra));
}

function edit(op, extra = {}) {
  if (!state) return;
  if (!extra.merge_key) flushTyping();
  return call("/api/edit", () => Object.assign({ session: state.session, op, tree_version: tree.version, numbers: $("numbers").checked, dark: isDark() }, extra));
}

// ---- typing: comments and game information are applied as they are typed ----

// Each field, from focus to blur, is one undo step on the server (merge_key).
let focusSerial = 0;
let typing = null; // {timer, send} of the field typed in last, not yet sent

function flushTyping() {
  if (!typing) return;
  clearTimeout(typing.timer);
  const t = typing;
  typing = null;
  t.send();
}

function typed(key, send) {
  if (typing && typing.key !== key) flushTyping();
  if (typing) clearTimeout(typing.timer);
  typing = { key, send, timer: setTimeout(flushTyping, 250) };
}

function watchField(el, make) {
  el.addEventListener("focus", () => (el.dataset.serial = ++focusSerial));
  el.addEventListener("input", () => {
    if (!state) return;
    const node = state.node.number, session = state.session;
    const key = `${el.id}:${session}:${node}:${el.dataset.serial || ++focusSerial}`;
    typed(key, () => {
      // Sent for the node it was typed at; skipped if the page moved on
      // without it (it never does: navigation sends it first).
      if (!state || state.session !== session) return;
      const [op, extra] = make(el);
      edit(op, Object.assign(extra, { merge_key: key }));
    });
  });
  el.addEventListener("blur", flushTyping);
}

// Asks before anything discards unsaved changes; true when it may go on.
function discardOk(what = "Opening another file") {
  flushTyping();
  if (!state || !state.dirty) return true;
  return confirm(tr("{name} has unsaved changes. {what} discards them. Continue?", { name: state.name, what: tr(what) }));
}

window.addEventListener("beforeunload", (e) => {
  if (typing || (state && state.dirty)) {
    flushTyping();
    e.preventDefault();
    e.returnValue = "";
  }
});
// The tab closed (or reloaded): the server frees the record. Not when the
// page only goes into the back-forward cache: it may come back as it was.
window.addEventListener("pagehide", (e) => {
  if (state && navigator.sendBeacon && !e.persisted) {
    navigator.sendBeacon(`/api/close?t=${TOKEN}`, JSON.stringify({ session: state.session }));
  }
});
// Back from that cache: the record as the server has it now.
window.addEventListener("pageshow", (e) => {
  if (e.persisted && state) call("/api/state?session=" + state.session + "&tree_version=" + tree.version);
});

// Opens another record in place of this one (the server frees this one).
function openRecord(body, what) {
  if (!discardOk(what)) return;
  if (state) body.replace = state.session;
  return call("/api/open", body);
}

// ---- showing a state ----

// The board's variation marker for the `i`-th variation (as sgf-render draws it).
const markLetter = (i) => (i < 26 ? String.fromCharCode(65 + i) : String(i + 1));

const esc = (s) => (s === null || s === undefined ? "" : String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`));

// Seconds as h:mm:ss or m:ss.
function clockText(c) {
  const t = Math.max(0, Math.round(c.left));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, "0");
  const text = h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  return c.periods !== null && c.periods !== undefined ? `${text} (${c.periods})` : text;
}

// The player bar: names, ranks, captures, time left, komi, handicap, result.
function showPlayers(s) {
  const info = s.info || {};
  const n = s.node;
  const clock = n.clock || {};
  const side = (c, name, rank, team) =>
    `<span class="player${c === n.to_play ? " toplay" : ""}" data-color="${c}">` +
    `<span class="stone ${c}" aria-label="${c === "B" ? "Black" : "White"}"></span>` +
    `<b class="name">${esc(name || tr(c === "B" ? "Black" : "White"))}</b>` +
    (rank ? ` <span class="rank">${esc(rank)}</span>` : "") +
    (team ? ` <span class="rank">(${esc(team)})</span>` : "") +
    ` <span class="caps" title="${esc(tr("Stones captured"))}">${esc(tr("{n} captured", { n: n.captures[c] }))}</span>` +
    (clock[c] ? ` <span class="clock" title="${esc(tr("Time left"))}">${clockText(clock[c])}</span>` : "") +
    `</span>`;
  const facts = [];
  if (info.KM) facts.push(`${esc(tr("Komi"))} ${esc(info.KM)}`);
  if (info.HA) facts.push(`${esc(tr("Handicap"))} ${esc(info.HA)}`);
  if (info.RE) facts.push(`<span class="result">${esc(info.RE)}</span>`);
  $("players").innerHTML = side("B", info.PB, info.BR, info.BT) + side("W", info.PW, info.WR, info.WT) +
    `<span class="facts">${facts.join(" · ")}</span>`;
}

function show(s) {
  const before = state;
  state = s;
  if (s.dark !== undefined && s.dark !== isDark()) {
    // A record opened since the theme was chosen: drawn again in it.
    setTimeout(refreshBoard, 0);
  }
  if ($("sound").checked && before && before.session === s.session && s.node.move &&
      s.node.number !== before.node.number && s.node.move_number === before.node.move_number + 1) {
    stoneSound();
  }
  document.title = (s.dirty ? "• " : "") + (s.name || "Qipu") + " — Qipu";
  $("title").textContent = (s.dirty ? "• " : "") + (s.name || "");
  const gb = $("games");
  gb.hidden = s.games <= 1;
  gb.textContent = tr("Game {i} / {n}", { i: s.game + 1, n: s.games }) + " ▾";
  $("board").innerHTML = s.board;
  showPlayers(s);
  const n = s.node;
  const colour = (c) => tr(c === "B" ? "Black" : "White");
  let status = tr("Move {n}", { n: n.move_number });
  if (n.move) status += ` (${colour(n.color)} ${n.move === "pass" ? tr("pass") : n.move})`;
  status += " · " + tr("{who} to play", { who: colour(n.to_play) });
  status += " · " + tr("captures Black {b}, White {w}", { b: n.captures.B, w: n.captures.W });
  status += " · " + tr("node {n}", { n: n.number });
  $("status").textContent = status;
  if (document.activeElement !== $("comment")) $("comment").value = n.comment || "";
  showCommentRefs(n.comment_parts || []);
  if (document.activeElement !== $("name")) $("name").value = n.name || "";
  $("nodename").textContent = n.name ? `— ${n.name}` : "";
  const ann = $("annotations");
  ann.innerHTML = "";
  for (const a of n.annotations) {
    const b = document.createElement("span");
    b.className = "badge " + (a.tone || "");
    // The server's English names, translated here (`(very)` kept apart).
    const very = a.text.endsWith(" (very)");
    const base = very ? a.text.slice(0, -7) : a.text;
    b.textContent = (base.startsWith("Value ") ? tr("Value") + base.slice(5) : tr(base)) + (very ? " " + tr("(very)") : "");
    b.title = a.code;
    ann.appendChild(b);
  }
  const vars = $("variations");
  vars.innerHTML = "";
  if (n.variations > 1) {
    if (n.variations > n.alternatives.length) {
      const b = document.createElement("span");
      b.className = "badge";
      b.textContent = tr("variation {i} of {n}", { i: n.variation + 1, n: n.variations });
      vars.appendChild(b);
    }
    // Letters mean what they mean on the board (`ST`): the alternatives to
    // this move get them only when the board marks the alternatives.
    n.alternatives.forEach((alt) => {
      const b = document.createElement("span");
      b.className = "badge var" + (alt.current ? " current" : "");
      b.textContent = `${s.marks === "siblings" ? markLetter(alt.index) : `${alt.index + 1}.`} ${alt.label}`;
      b.title = tr("Go to this variation");
      b.onclick = () => nav("node", { node: alt.number });
      vars.appendChild(b);
    });
  }
  // The next moves, lettered as on the board when the board marks them.
  if (s.marks === "children" && n.next_moves.length > 1) {
    const h = document.createElement("span");
    h.className = "varhead";
    h.textContent = tr("Next:");
    vars.appendChild(h);
    n.next_moves.forEach((m, i) => {
      const b = document.createElement("span");
      b.className = "badge var next";
      b.textContent = `${markLetter(i)} ${m.label}`;
      b.title = tr("Go to this move");
      b.onclick = () => nav("node", { node: m.number });
      vars.appendChild(b);
    });
  }
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  if (s.info) showInfo(s.info);
  if (s.tree) {
    tree = s.tree;
  }
  drawTree(true);
  if (s.diagnostics) showDiagnostics(s.diagnostics);
  if (s.files) showFiles(s.files);
  message(s.message || "", s.error_kind === "refused");
  if (before && (before.session !== s.session || before.node.number !== s.node.number)) {
    analysis = null;
    hoverPv = null;
  }
  showEngine(s);
  drawOverlay();
}

const INFO_FIELDS = [
  ["PB", "Black"], ["BR", "Black rank"], ["PW", "White"], ["WR", "White rank"],
  ["EV", "Event"], ["RO", "Round"], ["DT", "Date"], ["PC", "Place"],
  ["KM", "Komi"], ["HA", "Handicap"], ["RU", "Rules"], ["TM", "Time"], ["OT", "Overtime"],
  ["RE", "Result"], ["GN", "Game name"], ["SO", "Source"], ["AN", "Annotator"], ["GC", "Game comment"],
];

function showInfo(info) {
  const form = $("info");
  // Typing in a field of this record: leave it be. Another record: refresh.
  const owner = `${state.session}`;
  if (form.contains(document.activeElement) && form.dataset.owner === owner) return;
  form.dataset.owner = owner;
  form.innerHTML = "";
  for (const [id, label] of INFO_FIELDS) {
    const l = document.createElement("label");
    l.textContent = tr(label);
    l.htmlFor = "info-" + id;
    const input = id === "GC" ? document.createElement("textarea") : document.createElement("input");
    input.id = "info-" + id;
    input.name = id;
    input.value = info[id] || "";
    watchField(input, (el) => ["info", { props: { [el.name]: el.value } }]);
    form.append(l, input);
  }
}

function showDiagnostics(diags) {
  const t = $("diagtoggle");
  const list = $("diagnostics");
  const shown = diags.filter((d) => d.severity !== "info");
  t.hidden = shown.length === 0;
  const e = shown.filter((d) => d.severity === "error").length;
  t.textContent = tr("{e} error(s), {w} warning(s) in the file", { e, w: shown.length - e });
  list.innerHTML = "";
  for (const d of shown) {
    const li = document.createElement("li");
    li.textContent = `${d.line}:${d.column} ${d.severity} [${d.code}] ${d.message}`;
    list.appendChild(li);
  }
}

function showFiles(files) {
  const aside = $("files");
  aside.hidden = files.length === 0;
  const ul = $("filelist");
  ul.innerHTML = "";
  for (const f of files) {
    const li = document.createElement("li");
    li.textContent = f;
    if (state && state.path === f) li.className = "current";
    li.onclick = () => openRecord({ path: f });
    ul.appendChild(li);
  }
}

// ---- the board ----

function boardPoint(ev) {
  const svg = $("board").querySelector("svg");
  if (!svg) return null;
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  const d = svg.dataset;
  const cell = +d.cell;
  const x = Math.round((p.x - +d.originX) / cell) + +d.x0;
  const y = Math.round((p.y - +d.originY) / cell) + +d.y0;
  if (x < +d.x0 || x > +d.x1 || y < +d.y0 || y > +d.y1) return null;
  return sgfPoint(x, y);
}

// The comment with its points (Q16) and web addresses clickable: the
// server finds them (sgf_go::coords::text_pieces); shown above the text
// field only when there are some.
function showCommentRefs(parts) {
  const v = $("commentview");
  v.textContent = "";
  v.hidden = !parts.some((p) => p.point || p.url);
  if (v.hidden) return;
  for (const p of parts) {
    if (p.url) {
      const a = document.createElement("a");
      a.href = p.url;
      a.textContent = p.text;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      v.appendChild(a);
    } else if (p.point) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pointref";
      b.textContent = p.text;
      b.dataset.point = p.point;
      b.title = tr("Show {p} on the board", { p: p.text });
      b.onmouseenter = b.onfocus = b.onclick = () => flashPoint(p.point);
      b.onmouseleave = b.onblur = () => flashPoint(null);
      v.appendChild(b);
    } else {
      v.appendChild(document.createTextNode(p.text));
    }
  }
}

// Rings a point of the board (a point named in the comment); null clears it.
function flashPoint(pt) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelector(".pointflash")?.remove();
  if (!pt) return;
  const d = svg.dataset;
  const [x, y] = sgfXY(pt);
  const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  ring.setAttribute("class", "pointflash");
  ring.setAttribute("cx", +d.originX + (x - +d.x0) * +d.cell);
  ring.setAttribute("cy", +d.originY + (y - +d.y0) * +d.cell);
  ring.setAttribute("r", +d.cell * 0.5);
  svg.appendChild(ring);
}

// SGF letters <-> coordinates: a-z are 0-25, A-Z 26-51 (boards up to
// 52x52). The one pair the page (and search.js) uses.
function sgfPoint(x, y) {
  const c = (v) => (v < 26 ? String.fromCharCode(97 + v) : String.fromCharCode(65 + v - 26));
  return c(x) + c(y);
}

function sgfXY(pt) {
  const c = (ch) => (ch >= "a" ? ch.charCodeAt(0) - 97 : ch.charCodeAt(0) - 65 + 26);
  return [c(pt[0]), c(pt[1])];
}

$("board").addEventListener("click", (ev) => {
  const pt = boardPoint(ev);
  if (!pt || !state) return;
  // Counting: a click marks a group dead or alive.
  if (state.count) return countCall("toggle", { point: pt });
  const tool = $("tool").value;
  if (tool === "play") return play(pt);
  if (tool === "guess") return guess(pt);
  if (tool.startsWith("setup")) return edit("setup", { point: pt, stone: tool.slice(5) });
  if (tool === "label") {
    const text = prompt(tr("Label text (empty to remove):"), "");
    if (text === null) return;
    return edit("label", { point: pt, text });
  }
  if (tool === "labelA" || tool === "label1") return edit("label", { point: pt, auto: tool === "labelA" ? "letter" : "number" });
  if (tool === "AR" || tool === "LN") {
    // The first click chooses where the line starts; the second draws it.
    if (!lineFrom) {
      lineFrom = pt;
      return message(tr(tool === "AR" ? "Arrow: now click where it ends." : "Line: now click where it ends."));
    }
    const from = lineFrom;
    lineFrom = null;
    if (from === pt) return message("");
    return edit("line", { kind: tool, from, to: pt });
  }
  return edit("markup", { point: pt, kind: tool });
});
let lineFrom = null;
$("tool").addEventListener("change", () => { lineFrom = null; });

// A move the rules forbid (ko, suicide, occupied point) is refused with a
// warning, as in Sabaki; the user may insist.
async function play(point) {
  let s = await edit("play", { point });
  if (s && s.illegal && confirm(s.message)) s = await edit("play", { point, force: true });
  // In a game against the engine, it answers.
  if (s && !s.illegal && s.node.move) return maybeEngineMove(s);
  return s;
}

$("board").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  nav(ev.deltaY > 0 ? "next" : "prev");
}, { passive: false });

// ---- the game tree: a canvas, drawn only where visible ----

const NODE_GAP = 22;
let treeScroll = { x: 0, y: 0 };

function drawTree(follow) {
  const c = $("tree");
  const dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth, h = c.clientHeight;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const g = c.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  const nodes = tree.nodes;
  if (!nodes.length || !state) return;
  const cur = nodes[state.node.number];
  if (follow && cur) {
    const cx = cur[0] * NODE_GAP + 14 - treeScroll.x, cy = cur[1] * NODE_GAP + 14 - treeScroll.y;
    if (cx < 20 || cx > w - 20) treeScroll.x = Math.max(0, cur[0] * NODE_GAP - w / 2);
    if (cy < 20 || cy > h - 20) treeScroll.y = Math.max(0, cur[1] * NODE_GAP - h / 2);
  }
  const ox = 14 - treeScroll.x, oy = 14 - treeScroll.y;
  const x0 = Math.floor((treeScroll.x - 30) / NODE_GAP), x1 = Math.ceil((treeScroll.x + w + 30) / NODE_GAP);
  const y0 = Math.floor((treeScroll.y - 30) / NODE_GAP), y1 = Math.ceil((treeScroll.y + h + 30) / NODE_GAP);
  g.lineWidth = 1.5;
  g.strokeStyle = "#999";
  g.beginPath();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const p = n[3] >= 0 ? nodes[n[3]] : null;
    if (!p) continue;
    if (Math.max(n[0], p[0]) < x0 || Math.min(n[0], p[0]) > x1 || n[1] < y0 || p[1] > y1) continue;
    const ax = p[0] * NODE_GAP + ox, ay = p[1] * NODE_GAP + oy;
    const bx = n[0] * NODE_GAP + ox, by = n[1] * NODE_GAP + oy;
    g.moveTo(ax, ay);
    if (ay !== by) g.lineTo(bx - NODE_GAP, by);
    g.lineTo(bx, by);
  }
  g.stroke();
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n[0] < x0 || n[0] > x1 || n[1] < y0 || n[1] > y1) continue;
    const x = n[0] * NODE_GAP + ox, y = n[1] * NODE_GAP + oy;
    g.beginPath();
    if (n[2] === 3) g.rect(x - 6, y - 6, 12, 12);
    else g.arc(x, y, n[2] === 0 ? 5 : 7, 0, 2 * Math.PI);
    g.fillStyle = n[2] === 1 ? "#222" : n[2] === 2 ? "#fff" : "#bbb";
    g.fill();
    g.strokeStyle = "#555";
    g.lineWidth = 1;
    g.stroke();
    if (n[4] & 1) {
      g.fillStyle = "#c0392b";
      g.beginPath();
      g.arc(x + 6, y - 6, 2.5, 0, 2 * Math.PI);
      g.fill();
    }
  }
  if (cur) {
    g.strokeStyle = "#a0522d";
    g.lineWidth = 3;
    g.beginPath();
    g.arc(cur[0] * NODE_GAP + ox, cur[1] * NODE_GAP + oy, 10, 0, 2 * Math.PI);
    g.stroke();
  }
}

$("tree").addEventListener("click", (ev) => {
  const r = $("tree").getBoundingClientRect();
  const x = (ev.clientX - r.left + treeScroll.x - 14) / NODE_GAP;
  const y = (ev.clientY - r.top + treeScroll.y - 14) / NODE_GAP;
  const gx = Math.round(x), gy = Math.round(y);
  const i = tree.nodes.findIndex((n) => n[0] === gx && n[1] === gy);
  if (i >= 0 && Math.hypot(x - gx, y - gy) < 0.5) nav("node", { node: i });
});

$("tree").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  treeScroll.x = Math.max(0, treeScroll.x + (ev.shiftKey ? ev.deltaY : ev.deltaX));
  treeScroll.y = Math.max(0, treeScroll.y + (ev.shiftKey ? 0 : ev.deltaY));
  drawTree(false);
}, { passive: false });

window.addEventListener("resize", () => drawTree(false));

// ---- buttons and keys ----

const click = (id, f) => $(id).addEventListener("click", f);
click("first", () => nav("first"));
click("last", () => nav("last"));
click("prev", () => nav("prev"));
click("next", () => nav("next"));
click("back10", () => nav("back10"));
click("fwd10", () => nav("forward10"));
click("prevvar", () => nav("prev_variation"));
click("nextvar", () => nav("next_variation"));
click("undo", () => edit("undo"));
click("redo", () => edit("redo"));
click("pass", async () => maybeEngineMove(await edit("play", { point: null })));
click("promote", () => edit("promote"));
click("delete", () => {
  if (confirm(tr("Delete this node and everything after it?"))) edit("delete");
});
click("savecomment", () => edit("comment", { text: $("comment").value, name: $("name").value }));
click("saveinfo", () => {
  const props = {};
  for (const el of $("info").elements) props[el.name] = el.value;
  edit("info", { props });
});
watchField($("comment"), (el) => ["comment", { text: el.value }]);
watchField($("name"), (el) => ["comment", { name: el.value }]);
// Save: the server refuses to overwrite a file another program changed
// since it was opened; the user then chooses what happens.
async function save(force = false) {
  let r = null;
  try {
    r = await api("/api/save", { session: state.session, mode: "lossless", force });
  } catch (e) {
    if (e.kind === "changed_on_disk") return conflict(e.message);
    if (e.kind === "no_session") return reopenClosed();
    message(e.message, true);
    return;
  }
  await call("/api/state?session=" + state.session + "&tree_version=" + tree.version);
  let text = `Saved ${r.saved}`;
  if (r.backup) text += ` (the previous version kept as ${r.backup}`;
  if (r.original) text += `, the original as ${r.original}`;
  if (r.backup) text += ")";
  message(text);
}
function conflict(text) {
  $("conflicttext").textContent = text;
  const d = $("conflictdialog");
  d.returnValue = "";
  d.onclose = async () => {
    const choice = d.returnValue;
    if (choice === "overwrite") save(true);
    else if (choice === "saveas") $("saveas").click();
    else if (choice === "reload") {
      if (state.dirty && !confirm(tr("Reloading discards your unsaved changes. Reload anyway?"))) return;
      call("/api/open", { path: state.path, replace: state.session });
    }
  };
  d.showModal();
}
click("save", () => save(false));

// Repair: the library's pipeline (as `qipu check --fix`), shown before it is applied.
async function repairPreview() {
  const r = await api("/api/repair", { session: state.session, variation_level: $("repairlevel").checked })
    .catch((e) => message(e.message, true));
  if (!r) return;
  const list = $("repairlist");
  list.replaceChildren();
  for (const c of r.changes) {
    const li = document.createElement("li");
    const where = document.createElement("code");
    where.textContent = `${c.line}:${c.column} ${c.code}`;
    li.append(where, " ", c.message);
    if (c.before || c.after) {
      const detail = document.createElement("div");
      detail.className = "repairdetail";
      detail.textContent = `${c.before || "—"} → ${c.after || tr("deleted")}`;
      li.append(detail);
    }
    list.append(li);
  }
  $("repairsummary").textContent = r.changes.length
    ? `${r.changes.length} change(s):`
    : "Nothing to repair.";
  $("repairapply").disabled = r.changes.length === 0;
}
click("repair", async () => {
  await repairPreview();
  const d = $("repairdialog");
  d.returnValue = "";
  d.onclose = async () => {
    if (d.returnValue !== "apply") return;
    await edit("repair", { variation_level: $("repairlevel").checked });
    await call("/api/state?session=" + state.session + "&tree_version=" + tree.version);
    message(tr("Repaired (Undo reverts it)."));
  };
  d.showModal();
});
$("repairlevel").addEventListener("change", repairPreview);
click("saveas", async () => {
  const suggestion = (state.path || state.name || "game.sgf").replace(/\.[^.\/]*$/, "") + "-fmt.sgf";
  const path = prompt(tr("Save the canonical FF[4] UTF-8 form as:"), suggestion);
  if (!path) return;
  let r = null;
  try {
    r = await api("/api/save", { session: state.session, mode: "canonical", path });
  } catch (e) {
    if (e.kind === "no_session") return reopenClosed();
    message(e.message, true);
  }
  if (r) {
    await call("/api/state?session=" + state.session + "&tree_version=" + tree.version);
    message(tr("Saved {path}", { path: r.saved }) + (r.backup ? " " + tr("(the file it replaced kept as {path})", { path: r.backup }) : ""));
  }
});
function exportAs(format) {
  const a = document.createElement("a");
  a.href = `/api/export?session=${state.session}&format=${format}&numbers=${$("numbers").checked}&t=${TOKEN}`;
  a.download = (state.name || "position").replace(/\.[^.]*$/, "") + `-${state.node.number}.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
click("png", () => exportAs("png"));
click("svg", () => exportAs("svg"));
click("jpg", () => exportAs("jpg"));
click("bmp", () => exportAs("bmp"));
// The game as book figures (as `qipu figures` makes them), one HTML page.
click("figures", () => {
  const every = prompt(tr("Moves per figure (empty: only where the record has FG):"), "50");
  if (every === null) return;
  const a = document.createElement("a");
  a.href = `/api/figures?session=${state.session}&every=${encodeURIComponent(every.trim())}&t=${TOKEN}`;
  a.download = (state.name || "game").replace(/\.[^.]*$/, "") + "-figures.html";
  document.body.appendChild(a);
  a.click();
  a.remove();
});

// The position as a Sensei's Library diagram: copied, and shown to copy by hand.
click("copydiagram", async () => {
  const res = await fetch(`/api/export?session=${state.session}&format=sensei&numbers=${$("numbers").checked}&t=${TOKEN}`);
  if (!res.ok) return message(await res.text(), true);
  const text = await res.text();
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch (e) { /* no clipboard here: the dialog shows it */ }
  $("diagramtext").value = text;
  $("diagramnote").textContent = tr(copied ? "Copied to the clipboard." : "Select and copy it:");
  $("diagramdialog").showModal();
  $("diagramtext").select();
});
function refreshBoard() {
  return call("/api/state?session=" + state.session + "&numbers=" + $("numbers").checked + "&dark=" + isDark() + "&tree_version=" + tree.version);
}
$("numbers").addEventListener("change", refreshBoard);

// ---- theme and sound, remembered by the browser ----

function isDark() {
  return $("theme").value === "dark";
}
function applyTheme() {
  const t = $("theme").value;
  document.body.classList.remove("theme-light", "theme-dark", "theme-wood");
  document.body.classList.add("theme-" + t);
  try { localStorage.setItem("qipu.theme", t); } catch (e) { /* private mode */ }
}
$("theme").addEventListener("change", () => {
  applyTheme();
  if (state) refreshBoard();
});
$("sound").addEventListener("change", () => {
  try { localStorage.setItem("qipu.sound", $("sound").checked ? "1" : ""); } catch (e) { /* private mode */ }
});
try {
  $("theme").value = localStorage.getItem("qipu.theme") || "light";
  $("sound").checked = !!localStorage.getItem("qipu.sound");
} catch (e) { /* private mode */ }
applyTheme();

// A short wooden click, made by the browser (no sound file).
let audio = null;
let soundsPlayed = 0;
function stoneSound() {
  try {
    audio = audio || new AudioContext();
    const t = audio.currentTime;
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.type = "triangle";
    o.frequency.setValueAtTime(1100, t);
    o.frequency.exponentialRampToValueAtTime(260, t + 0.05);
    g.gain.setValueAtTime(0.35, t);
    g.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
    o.connect(g).connect(audio.destination);
    o.start(t);
    o.stop(t + 0.1);
    soundsPlayed++;
  } catch (e) { /* no audio here */ }
}
// ---- autoplay and guessing the next move ----

let autoTimer = null;
function stopAutoplay() {
  if (autoTimer) clearInterval(autoTimer);
  autoTimer = null;
  $("autoplay").classList.remove("on");
  $("autoplay").textContent = "▷";
}
function toggleAutoplay() {
  if (autoTimer) return stopAutoplay();
  $("autoplay").classList.add("on");
  $("autoplay").textContent = "■";
  autoTimer = setInterval(async () => {
    if (!state || state.node.children === 0) return stopAutoplay();
    await call("/api/nav", () => ({ session: state.session, action: "next", tree_version: tree.version }));
  }, +$("autospeed").value);
}
click("autoplay", toggleAutoplay);
$("autospeed").addEventListener("change", () => {
  if (autoTimer) { stopAutoplay(); toggleAutoplay(); }
});

let misses = 0;
async function guess(pt) {
  const next = state.node.next;
  if (!next) return message(tr("No next move here."));
  if (next.point === pt) {
    const tries = misses;
    misses = 0;
    await nav("next");
    message(tries === 0 ? tr("Right!") : tries === 1 ? tr("Right, after 1 miss.") : tr("Right, after {n} misses.", { n: tries }));
  } else {
    misses++;
    message(next.point === null
      ? tr("Not that one: the next move is a pass.")
      : misses === 1 ? tr("Not that one (1 miss); → shows it.") : tr("Not that one ({n} misses); → shows it.", { n: misses }), true);
  }
}

click("help", () => $("helpdialog").showModal());

// ---- the game list: sortable, filtered as typed, searched in comments ----

const ROW_HEIGHT = 24; // px, as in app.css: only the rows in view are drawn
const games = { rows: [], view: [], key: "game", dir: 1, matches: null, query: "" };

async function openGames() {
  if (!state || state.games <= 1) return;
  const r = await call("/api/games", { session: state.session });
  if (!r) return;
  games.rows = r.games;
  games.matches = null;
  $("gamesfilter").value = "";
  filterGames();
  $("gamesdialog").showModal();
  const i = games.view.findIndex((g) => g.game === state.game);
  $("gameswrap").scrollTop = Math.max(0, (i - 5) * ROW_HEIGHT);
  drawGames();
  $("gamesfilter").focus();
}

const rowText = (g) =>
  [g.game + 1, g.black, g.black_rank, g.white, g.white_rank, g.result, g.date, g.event, g.name]
    .filter((x) => x !== null && x !== undefined).join(" ").toLowerCase();

const isEmpty = (x) => x === null || x === undefined || x === "";
const compare = (a, b) => (typeof a === "number" ? a - b : String(a).localeCompare(String(b)));

function filterGames() {
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
  const who = (name, rank) => esc(name) + (rank ? ` <span class="nodename">${esc(rank)}</span>` : "");
  let html = `<tr style="height:${first * ROW_HEIGHT}px"></tr>`;
  for (let i = first; i < last; i++) {
    const g = games.view[i];
    html += `<tr class="game${g.game === state.game ? " current" : ""}" data-game="${g.game}">` +
      `<td class="num">${g.game + 1}</td><td>${who(g.black, g.black_rank)}</td><td>${who(g.white, g.white_rank)}</td>` +
      `<td>${esc(g.result)}</td><td>${esc(g.date)}</td><td title="${esc(g.name)}">${esc(g.event)}</td><td class="num">${g.moves}</td></tr>`;
  }
  html += `<tr style="height:${(games.view.length - last) * ROW_HEIGHT}px"></tr>`;
  body.innerHTML = html;
}

function pickGame(g) {
  $("gamesdialog").close();
  nav("game", { game: g });
}

click("games", openGames);
$("gameswrap").addEventListener("scroll", drawGames);
$("gamestable").tHead.addEventListener("click", (e) => {
  const k = e.target.dataset && e.target.dataset.key;
  if (!k) return;
  games.dir = games.key === k ? -games.dir : 1;
  games.key = k;
  filterGames();
});
$("gamestable").tBodies[0].addEventListener("click", (e) => {
  const tr = e.target.closest("tr.game");
  if (tr) pickGame(+tr.dataset.game);
});
$("gamesfilter").addEventListener("input", () => {
  games.matches = null;
  $("gameswrap").scrollTop = 0;
  filterGames();
});
$("gamesfilter").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    if (games.view.length) pickGame(games.view[0].game);
  }
});
click("gamessearch", async () => {
  const q = $("gamesfilter").value.trim();
  if (!q) return;
  const r = await call("/api/games/search", { session: state.session, q });
  if (!r) return;
  games.matches = new Set(r.matches);
  games.query = q;
  $("gameswrap").scrollTop = 0;
  filterGames();
});
$("jump").addEventListener("change", (e) => {
  if (e.target.value !== "") nav("move", { move: +e.target.value });
  e.target.value = "";
});
$("diagtoggle").addEventListener("click", () => ($("diagnostics").hidden = !$("diagnostics").hidden));

// Board keys work whatever control has the focus (a drop-down, a button,
// a checkbox), except where text is typed.
const NOT_TEXT = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);
function isTextField(t) {
  return t.isContentEditable || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !NOT_TEXT.has(t.type));
}
document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (isTextField(t) || document.querySelector("dialog[open]")) return;
  if (ev.altKey) return;
  const keys = {
    ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
    PageUp: "back10", PageDown: "forward10", ArrowUp: "prev_variation", ArrowDown: "next_variation",
  };
  if (ev.key === "g" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); openGames(); return; }
  if (ev.key === "a" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); toggleAutoplay(); return; }
  if (ev.key === "?") { ev.preventDefault(); $("helpdialog").showModal(); return; }
  if ((ev.ctrlKey || ev.metaKey) && ev.key === "z") { ev.preventDefault(); edit("undo"); return; }
  if ((ev.ctrlKey || ev.metaKey) && (ev.key === "y" || (ev.shiftKey && ev.key === "Z"))) { ev.preventDefault(); edit("redo"); return; }
  if (keys[ev.key] && !ev.ctrlKey && !ev.metaKey) {
    // Not the drop-down's own meaning (changing the tool or the game).
    ev.preventDefault();
    ev.stopPropagation();
    if (t.tagName === "SELECT") t.blur();
    stopAutoplay();
    misses = 0;
    nav(keys[ev.key]);
  }
}, true);

// ---- opening files: list, drop, paste ----

click("open", () => $("opendialog").showModal());
click("pasteopen", (ev) => {
  const text = $("pastetext").value;
  if (text.trim()) openRecord({ text, name: "pasted.sgf" });
});
$("filepick").addEventListener("change", (e) => {
  const f = e.target.files[0];
  if (f) openFile(f);
  $("opendialog").close();
});

function openFile(f) {
  const reader = new FileReader();
  reader.onload = () => {
    const bytes = new Uint8Array(reader.result);
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    openRecord({ data_b64: btoa(bin), name: f.name });
  };
  reader.readAsArrayBuffer(f);
}

document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dragging");
  const f = e.dataTransfer.files[0];
  if (f) openFile(f);
});
document.addEventListener("paste", (e) => {
  const t = e.target;
  if (t.tagName === "TEXTAREA" || t.tagName === "INPUT") return;
  const text = e.clipboardData.getData("text");
  if (text && text.includes("(;")) openRecord({ text, name: "pasted.sgf" });
});

// ---- the engine: play against it, analysis on the board and the graph, counting ----

// The latest analysis of the position shown, the graph of the line shown,
// and the candidate whose variation the mouse shows.
let analysis = null;
let graph = null;
let hoverPv = null;
let engineTimer = null;
let thinking = false;

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
  pick.add(new Option(tr("Other command…"), ""));
  if ([...pick.options].some((o) => o.value === keep)) pick.value = keep;
  $("enginecmd").hidden = pick.value !== "";
  if (r && r.error) message(r.error, true);
}

function engineCall(action, extra = {}) {
  if (!state) return;
  flushTyping();
  return call("/api/engine", () => Object.assign({ session: state.session, action, tree_version: tree.version, dark: isDark() }, extra));
}

// The engine moves when it is its turn in a game against it (not after an
// undo: the user may want to try another move first).
async function engineMove() {
  if (!state || !state.engine || thinking) return;
  thinking = true;
  showEngine(state);
  const before = state;
  try {
    const s = await engineCall("move");
    // Two passes in a row end the game: time to count.
    if (s && !s.error_kind && s.node.move === "pass" && before.node.move === "pass") {
      message(tr("Both players passed: count the score."));
    }
    return s;
  } finally {
    thinking = false;
    if (state) showEngine(state);
  }
}

function maybeEngineMove(s) {
  const e = s && s.engine;
  if (e && e.alive && e.playing && e.playing === s.node.to_play && !s.illegal) return engineMove();
  return s;
}

function playSettings() {
  return { color: $("playcolor").value || null, level: Math.max(1, Math.min(10, +$("playlevel").value || 5)) };
}

function showEngine(s) {
  const e = s.engine;
  const st = $("enginestatus");
  let text;
  if (!e) text = tr("No engine is running.");
  else if (!e.alive) text = tr("{name} has stopped: {error}", { name: e.name, error: e.error || "" });
  else if (thinking) text = tr("{name} is thinking…", { name: e.name });
  else if (e.error) text = tr("{name}: {error}", { name: e.name, error: e.error });
  else if (e.analysing) text = tr("{name} is analysing.", { name: e.name });
  else text = tr("{name} is ready.", { name: e.name });
  if (e && e.alive && e.playing) text += " " + tr("It plays {color}.", { color: tr(e.playing === "B" ? "Black" : "White") });
  st.textContent = text;
  st.classList.toggle("error", !!(e && (e.error || !e.alive)));
  $("analyse").checked = !!(e && e.analysing);
  $("analyse").disabled = !(e && e.alive && e.can_analyse);
  $("enginestop").disabled = !e;
  $("enginemove").disabled = !(e && e.alive) || thinking;
  $("newgame").disabled = !(e && e.alive);
  if (e && document.activeElement !== $("playcolor")) $("playcolor").value = e.playing || "";
  if (e && e.level && document.activeElement !== $("playlevel")) $("playlevel").value = e.level;
  const c = s.count;
  $("countdone").disabled = !c;
  $("writeresult").disabled = !c;
  if (c && document.activeElement !== $("countrules")) $("countrules").value = c.rules;
  $("countresult").textContent = c ? countText(c) : "";
  if (!(e && e.analysing)) analysis = null;
  pollEngine();
}

function countText(c) {
  const side = (name, x, komi) => c.scoring === "area"
    ? tr("{who}: {stones} stones + {territory} territory = {score}", { who: tr(name), stones: x.stones, territory: x.territory, score: x.score })
    : tr("{who}: {territory} territory + {captures} captures = {score}", { who: tr(name), territory: x.territory, captures: x.captures, score: x.score });
  const from = { engine: "the engine", marks: "the record's marks", estimator: "Qipu's estimate", user: "your choice" }[c.from];
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
  const want = state && (state.engine && state.engine.analysing || $("enginepanel").open);
  if (want && !engineTimer) {
    engineTimer = setInterval(fetchAnalysis, 400);
    fetchAnalysis();
  } else if (!want && engineTimer) {
    clearInterval(engineTimer);
    engineTimer = null;
  }
}

let fetching = false;
async function fetchAnalysis() {
  if (!state || fetching) return;
  fetching = true;
  try {
    const r = await api(`/api/engine/analysis?session=${state.session}`);
    analysis = r.analysis && state && r.analysis.node === state.node.number ? r.analysis : null;
    graph = r.graph;
    if (hoverPv && analysis) hoverPv = analysis.candidates.find((c) => c.point === hoverPv.point) || null;
    drawOverlay();
    drawGraph();
    if (r.engine && state && state.engine && r.engine.alive !== state.engine.alive) {
      state.engine = r.engine;
      showEngine(state);
    }
  } catch (e) {
    /* the session closed: the next state says so */
  } finally {
    fetching = false;
  }
}

const shortCount = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e3 ? (n / 1e3).toFixed(1) + "k" : String(n));

// What the board shows over the server's picture: territory and dead
// stones while counting, candidate moves and the hovered variation.
function drawOverlay() {
  const svg = $("board").querySelector("svg");
  if (!svg || !state) return;
  svg.querySelectorAll("g.qipu-overlay").forEach((g) => g.remove());
  const d = svg.dataset;
  const cell = +d.cell;
  const NS = "http://www.w3.org/2000/svg";
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "qipu-overlay");
  const at = (pt) => {
    const [x, y] = sgfXY(pt);
    return [+d.originX + (x - +d.x0) * cell, +d.originY + (y - +d.y0) * cell];
  };
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    g.appendChild(e);
    return e;
  };
  const c = state.count;
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
  if (analysis && !c) {
    const lead = $("analysisshow").value === "lead";
    const best = analysis.candidates[0];
    const maxVisits = Math.max(1, ...analysis.candidates.map((k) => k.visits));
    for (const k of analysis.candidates) {
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
    if (hoverPv) {
      let colour = analysis.to_play;
      hoverPv.pv.forEach((pt, i) => {
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

$("board").addEventListener("mousemove", (ev) => {
  if (!analysis) return;
  const pt = boardPoint(ev);
  const k = pt ? analysis.candidates.find((c) => c.point === pt) || null : null;
  if (k !== hoverPv && (!k || !hoverPv || k.point !== hoverPv.point)) {
    hoverPv = k;
    drawOverlay();
  }
});
$("board").addEventListener("mouseleave", () => {
  if (hoverPv) {
    hoverPv = null;
    drawOverlay();
  }
});

// Black's win rate (or lead) along the line shown; a click goes there.
function drawGraph() {
  const c = $("graph");
  const dpr = window.devicePixelRatio || 1;
  const w = c.clientWidth, h = c.clientHeight;
  if (!w || !h) return;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  const g = c.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  g.strokeStyle = "#bbb";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, h / 2);
  g.lineTo(w, h / 2);
  g.stroke();
  if (!graph || graph.points.length < 1) return;
  const pts = graph.points;
  const n = Math.max(1, pts.length - 1);
  const lead = $("analysisshow").value === "lead";
  const maxLead = Math.max(5, ...pts.map((p) => Math.abs(p[2] || 0)));
  const yOf = (p) => {
    if (lead && p[2] !== null && p[2] !== undefined) return h / 2 - (p[2] / maxLead) * (h / 2 - 4);
    if (!lead && p[1] !== null && p[1] !== undefined) return h - 2 - p[1] * (h - 4);
    return null;
  };
  g.strokeStyle = "#a0522d";
  g.lineWidth = 1.5;
  g.beginPath();
  let open = false;
  c.dataset.values = String(pts.filter((p) => yOf(p) !== null).length);
  pts.forEach((p, i) => {
    const y = yOf(p);
    if (y === null) return;
    const x = (i / n) * (w - 4) + 2;
    if (open) g.lineTo(x, y); else g.moveTo(x, y);
    open = true;
  });
  g.stroke();
  const cx = (graph.current / n) * (w - 4) + 2;
  g.strokeStyle = "#2f80ed";
  g.beginPath();
  g.moveTo(cx, 0);
  g.lineTo(cx, h);
  g.stroke();
}

$("graph").addEventListener("click", (ev) => {
  if (!graph || !graph.points.length) return;
  const r = $("graph").getBoundingClientRect();
  const n = Math.max(1, graph.points.length - 1);
  const i = Math.max(0, Math.min(n, Math.round(((ev.clientX - r.left - 2) / (r.width - 4)) * n)));
  nav("node", { node: graph.points[i][0] });
});

$("enginepick").addEventListener("change", () => {
  $("enginecmd").hidden = $("enginepick").value !== "";
});
click("enginestart", () => engineCall("start", { engine: $("enginepick").value || $("enginecmd").value.trim() }));
click("enginestop", () => engineCall("stop"));
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
$("enginepanel").addEventListener("toggle", () => {
  if ($("enginepanel").open) loadEngines();
  pollEngine();
  drawGraph();
});

function countCall(action, extra = {}) {
  if (!state) return;
  return call("/api/count", () => Object.assign({ session: state.session, action, tree_version: tree.version, dark: isDark() }, extra));
}
click("count", () => countCall("start", { source: $("countfrom").value }));
click("countdone", () => countCall("stop"));
$("countrules").addEventListener("change", () => state && state.count && countCall("rules", { rules: $("countrules").value }));
click("writeresult", () => {
  if (state && state.count) edit("info", { props: { RE: state.count.result } });
});

// The small interface other panels (search.js) use.
window.qipuPage = {
  state: () => state, boardPoint, show, message, discardOk,
  soundsPlayed: () => soundsPlayed,
  tr,
  // After another record was opened in place of session `id`.
  closed: (id) => api("/api/close", { session: id }).catch(() => {}),
};

// ---- start ----

(async () => {
  for (const [code, name] of Object.entries(LANGUAGES)) $("lang").add(new Option(name, code));
  $("lang").addEventListener("change", () => setLanguage($("lang").value));
  await setLanguage(pickLanguage());
  const s = await call("/api/start", {});
  if (!s) message(tr("Could not start: reload the page with its token."), true);
})();
