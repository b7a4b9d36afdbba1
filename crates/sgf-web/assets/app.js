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
  "dbinfo", "dbsummary", "dbconts", "dbhits"];
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
    if (skip(el) && !el.matches("#games, #comment, #jump, #name, #gamesfilter")) continue;
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
      message(e.message, true);
      return null;
    }
  };
  queue = queue.then(run, run);
  return queue;
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
// The tab closed (or reloaded): the server frees the record.
window.addEventListener("pagehide", () => {
  if (state && navigator.sendBeacon) {
    navigator.sendBeacon(`/api/close?t=${TOKEN}`, JSON.stringify({ session: state.session }));
  }
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

function sgfPoint(x, y) {
  const c = (v) => (v < 26 ? String.fromCharCode(97 + v) : String.fromCharCode(65 + v - 26));
  return c(x) + c(y);
}

$("board").addEventListener("click", (ev) => {
  const pt = boardPoint(ev);
  if (!pt || !state) return;
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
  const s = await edit("play", { point });
  if (s && s.illegal && confirm(s.message)) return edit("play", { point, force: true });
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
click("pass", () => edit("play", { point: null }));
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
  const r = await api("/api/save", { session: state.session, mode: "canonical", path }).catch((e) => message(e.message, true));
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
