// @ts-check
// Showing a state: the board the server drew, the players, the status
// line, comments, annotations, variations, game information, diagnostics
// and the file list.

import { isDark, nav, openRecord, refreshBoard, watchField } from "./actions.js";
import { flashPoint } from "./board.js";
import { $, esc, message, withCode } from "./dom.js";
import { drawOverlay, showEngine } from "./engine.js";
import { diagnosticText, onLanguage, serverText, tr } from "./i18n.js";
import { markLetter } from "./letters.js";
import { hasMarkup, renderComment } from "./markdown.js";
import { ui } from "./state.js";
import { drawTree } from "./tree.js";

/**
 * Seconds as h:mm:ss or m:ss.
 * @param {{left: number, periods: number | null}} c
 */
function clockText(c) {
  const t = Math.max(0, Math.round(c.left));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, "0");
  const text = h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  return c.periods !== null && c.periods !== undefined ? `${text} (${c.periods})` : text;
}

/**
 * The player bar: names, ranks, captures, time left, komi, handicap, result.
 * @param {any} s
 */
function showPlayers(s) {
  const info = s.info || {};
  const n = s.node;
  const clock = n.clock || {};
  /** @param {string} c @param {string} name @param {string} rank @param {string} team */
  const side = (c, name, rank, team) =>
    `<span class="player${c === n.to_play ? " toplay" : ""}" data-color="${c}">` +
    `<span class="stone ${c}" aria-label="${esc(tr(c === "B" ? "Black" : "White"))}"></span>` +
    `<b class="name">${esc(name || tr(c === "B" ? "Black" : "White"))}</b>` +
    (rank ? ` <span class="rank">${esc(rank)}</span>` : "") +
    (team ? ` <span class="rank">(${esc(team)})</span>` : "") +
    ` <span class="caps" title="${esc(tr("Stones captured"))}">${esc(tr("{n} captured", { n: n.captures[c] }))}</span>` +
    (clock[c] ? ` <span class="clock" title="${esc(tr("Time left"))}">${clockText(clock[c])}</span>` : "") +
    `</span>`;
  const facts = [];
  // Komi as the library reads it (Fox's KM[375] is 7.5), else as written.
  const komi = typeof s.komi === "number" ? String(s.komi) : info.KM;
  if (komi) facts.push(`${esc(tr("Komi"))} ${esc(komi)}`);
  if (info.HA) facts.push(`${esc(tr("Handicap"))} ${esc(info.HA)}`);
  if (info.RE) facts.push(`<span class="result">${esc(info.RE)}</span>`);
  $("players").innerHTML = side("B", info.PB, info.BR, info.BT) + side("W", info.PW, info.WR, info.WT) +
    `<span class="facts">${facts.join(" · ")}</span>`;
}

/** The words of each annotation the server sends (`kind`), in English. */
const ANNOTATIONS = {
  good_for_black: "Good for Black",
  good_for_white: "Good for White",
  even: "Even position",
  unclear: "Unclear position",
  hotspot: "Hotspot",
  good_move: "Good move (tesuji)",
  bad_move: "Bad move",
  doubtful_move: "Doubtful move",
  interesting_move: "Interesting move",
};

/**
 * An annotation in the page's language: `{kind, strength}` (2: "very"),
 * or `{kind: "value", value}`.
 * @param {{code: string, kind: string, strength?: number | null, value?: string}} a
 */
export function annotationText(a) {
  if (a.kind === "value") return `${tr("Value")} ${a.value}`;
  const words = /** @type {Record<string, string>} */ (ANNOTATIONS)[a.kind] || a.code;
  return tr(words) + (a.strength === 2 ? " " + tr("(very)") : "");
}

/**
 * A move in the page's language: its colour's letter (B/W, 黑/白…) and
 * its point, or the server's label when it is no move.
 * @param {{label: string, color?: string | null, point?: string | null}} m
 */
export function moveLabel(m) {
  if (!m.color) return m.label === "(no move)" ? tr("(no move)") : m.label;
  // The letters of the colours: the English ones are the i18n keys.
  const c = tr(m.color === "B" ? "B" : "W");
  return `${c} ${m.point === "pass" ? tr("pass") : m.point}`;
}

/**
 * Shows a state the server sent.
 * @param {any} s
 */
export function show(s) {
  const before = ui.state;
  if (ui.notRecord) leaveNotRecord();
  ui.state = s;
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
  /** @param {string} c */
  const colour = (c) => tr(c === "B" ? "Black" : "White");
  let status = tr("Move {n}", { n: n.move_number });
  if (n.move) status += ` (${colour(n.color)} ${n.move === "pass" ? tr("pass") : n.move})`;
  status += " · " + tr("{who} to play", { who: colour(n.to_play) });
  status += " · " + tr("captures Black {b}, White {w}", { b: n.captures.B, w: n.captures.W });
  status += " · " + tr("node {n}", { n: n.number });
  if (s.view && (s.view.sym || s.view.invert)) status += " · " + tr("the board is shown turned, mirrored or inverted (the record is not)");
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
    b.textContent = annotationText(a);
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
    n.alternatives.forEach((/** @type {any} */ alt) => {
      const b = document.createElement("span");
      b.className = "badge var" + (alt.current ? " current" : "");
      b.textContent = `${s.marks === "siblings" ? markLetter(alt.index) : `${alt.index + 1}.`} ${moveLabel(alt)}`;
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
    n.next_moves.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
      const b = document.createElement("span");
      b.className = "badge var next";
      b.textContent = `${markLetter(i)} ${moveLabel(m)}`;
      b.title = tr("Go to this move");
      b.onclick = () => nav("node", { node: m.number });
      vars.appendChild(b);
    });
  }
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  if (s.info) showInfo(s.info);
  if (s.tree) {
    ui.tree = s.tree;
  }
  drawTree(true);
  if (s.diagnostics) showDiagnostics(s.diagnostics);
  if (typeof s.folder === "boolean") ui.folder = s.folder;
  if (s.files) showFiles(s.files);
  else if (!before || before.path !== s.path) markCurrentFile();
  message(serverText(s.message || ""), s.error_kind === "refused");
  if (before && (before.session !== s.session || before.node.number !== s.node.number)) {
    ui.analysis = null;
    ui.hoverPv = null;
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

/**
 * The game information form (`force`: made again even while typed in).
 * @param {Record<string, string>} info
 * @param {boolean} [force]
 */
export function showInfo(info, force = false) {
  const form = $("info");
  if (force) form.dataset.owner = "";
  // Typing in a field of this record: leave it be. Another record: refresh.
  const owner = `${ui.state.session}`;
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

/** @type {any[]} the diagnostics shown, shown again in a new language */
let diagnosticsShown = [];
onLanguage(() => showDiagnostics(diagnosticsShown));

/**
 * The record's diagnostics, each in the page's language (see
 * `diagnosticText`) with the library's words as its title.
 * @param {any[]} diags
 */
function showDiagnostics(diags) {
  diagnosticsShown = diags;
  const t = $("diagtoggle");
  const list = $("diagnostics");
  const shown = diags.filter((d) => d.severity !== "info");
  t.hidden = shown.length === 0;
  const e = shown.filter((d) => d.severity === "error").length;
  t.textContent = tr("{e} error(s), {w} warning(s) in the file", { e, w: shown.length - e });
  list.innerHTML = "";
  for (const d of shown) {
    const li = document.createElement("li");
    const { text, title } = diagnosticText(d);
    li.className = "diag";
    li.append(`${d.line}:${d.column} ${tr(d.severity)} [${d.code}] `, ...withCode(text));
    if (title) li.title = title;
    list.appendChild(li);
  }
}

/** The file shown, in the served folder: the record's, or the one that is no record. */
function currentPath() {
  return ui.state ? ui.state.path : ui.notRecord && ui.notRecord.path;
}

/** The file shown marked in the list (none for a record without a file). */
function markCurrentFile() {
  const path = currentPath();
  for (const li of $("filelist").children) li.classList.toggle("current", li.dataset.path === path);
}

/** @param {string[]} files */
export function showFiles(files) {
  ui.files = files;
  const aside = $("files");
  aside.hidden = files.length === 0;
  const ul = $("filelist");
  ul.innerHTML = "";
  const path = currentPath();
  for (const f of files) {
    const li = document.createElement("li");
    li.textContent = f;
    li.dataset.path = f;
    if (path === f) li.className = "current";
    li.onclick = () => openRecord({ path: f });
    ul.appendChild(li);
  }
  if (ui.notRecord) showNotRecordText();
}

/**
 * The tools of a record (navigation, tools, edits, Save) usable or not:
 * not while a file that is no record is shown.
 * @param {boolean} on
 */
function recordTools(on) {
  for (const g of document.querySelectorAll("#toolbar .group")) {
    if (g.getAttribute("aria-label") !== "File") /** @type {HTMLElement} */ (g).inert = !on;
  }
  $("save").disabled = !on;
}

/**
 * A file that is not a game record, shown as such where the board would
 * be: why (the library's judgement, in the page's language), and the way
 * on, to the next file of the list or back to the list. No record is
 * shown meanwhile (`ui.state` is null): nothing can be saved over it.
 * @param {{path?: string, sent: string}} e the server's refusal (`not_record`)
 */
export function showNotRecord(e) {
  ui.state = null;
  ui.notRecord = { path: e.path || null, sent: e.sent };
  ui.tree = { version: null, width: 0, height: 0, window: null, nodes: [], links: [] };
  ui.analysis = null;
  ui.hoverPv = null;
  document.body.classList.add("norecord");
  recordTools(false);
  const name = e.path ? e.path.slice(e.path.lastIndexOf("/") + 1) : "";
  document.title = name ? `${name} — Qipu` : "Qipu";
  $("title").textContent = name;
  $("board").innerHTML = "";
  $("games").hidden = true;
  showDiagnostics([]);
  message("");
  $("notrecord").hidden = false;
  showNotRecordText();
  markCurrentFile();
}

/** The panel's words, in the page's language, and its ways on. */
function showNotRecordText() {
  if (!ui.notRecord) return;
  $("notrecordtext").textContent = serverText(ui.notRecord.sent);
  $("notrecordnext").hidden = !nextFile();
  $("notrecordlist").hidden = ui.files.length === 0;
}
onLanguage(showNotRecordText);

/** The record shown again after a file that was none: the board and its tools back. */
function leaveNotRecord() {
  ui.notRecord = null;
  $("notrecord").hidden = true;
  document.body.classList.remove("norecord");
  recordTools(true);
}

/**
 * The file after the one that is not a record, in the file list.
 * @returns {string | null}
 */
export function nextFile() {
  const n = ui.notRecord;
  const i = n && n.path ? ui.files.indexOf(n.path) : -1;
  return i >= 0 && i + 1 < ui.files.length ? ui.files[i + 1] : null;
}

/**
 * The comment shown as Markdown (links, emphasis, lists: see
 * markdown.js) with its points (Q16) and web addresses clickable (the
 * server finds them: sgf_go::coords::text_pieces); shown above the text
 * field only when it shows something the text field does not.
 * @param {{text: string, point?: string, url?: string}[]} parts
 */
function showCommentRefs(parts) {
  const v = $("commentview");
  v.textContent = "";
  v.hidden = !hasMarkup(parts);
  if (v.hidden) return;
  v.appendChild(renderComment(parts, (pt, text) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pointref";
    b.textContent = text;
    b.dataset.point = pt;
    b.title = tr("Show {p} on the board", { p: text });
    b.onmouseenter = b.onfocus = b.onclick = () => flashPoint(pt);
    b.onmouseleave = b.onblur = () => flashPoint(null);
    return b;
  }));
}

/** A short wooden click, made by the browser (no sound file). */
function stoneSound() {
  try {
    ui.audio = ui.audio || new AudioContext();
    const audio = ui.audio;
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
    ui.soundsPlayed++;
  } catch (e) { /* no audio here */ }
}
