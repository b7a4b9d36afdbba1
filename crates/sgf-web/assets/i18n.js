// @ts-check
// Languages: English is the key; the translations are in assets/i18n/*.json.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";

/** @type {Record<string, string>} */
export const LANGUAGES = { en: "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", ja: "日本語", ko: "한국어" };

/**
 * `text` in the chosen language, `{name}` replaced from `vars`.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
export function tr(text, vars) {
  let t = ui.dict[text] || text;
  if (vars) t = t.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return t;
}

/** The browser's language, or the one chosen before. */
export function pickLanguage() {
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
  "dbinfo", "dbsummary", "dbconts", "dbhits", "enginepick", "enginestatus", "countresult",
  "menus", "tabs", "keysmoves", "keysvars", "prev", "next", "prevvar", "nextvar", "gtplog", "batchstatus", "engine2status"];
/** @type {WeakMap<Node, any>} text node or element → its English text, attribute by attribute */
const originals = new WeakMap();

/** The page's fixed words in the chosen language. */
export function translatePage() {
  /** @param {Element} el */
  const skip = (el) => DYNAMIC.some((id) => { const d = document.getElementById(id); return d && d.contains(el) && !(id === "gamestable" && el.closest("thead")); });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = /** @type {Element} */ (n.parentElement);
    if (!(n.nodeValue || "").trim() || parent.closest("script") || skip(parent)) continue;
    if (!originals.has(n)) originals.set(n, n.nodeValue);
    const en = originals.get(n);
    const core = en.trim();
    n.nodeValue = en.replace(core, tr(core));
  }
  for (const el of document.body.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (skip(el) && !el.matches("#games, #comment, #jump, #name, #gamesfilter, #enginepick, #tree, #tabs, #players")) continue;
    if (!originals.has(el)) {
      originals.set(el, { title: el.getAttribute("title"), placeholder: el.getAttribute("placeholder"), label: el.getAttribute("aria-label") });
    }
    const o = originals.get(el);
    const e = /** @type {HTMLInputElement} */ (el);
    if (o.title) e.title = tr(o.title);
    if (o.placeholder) e.placeholder = tr(o.placeholder);
    if (o.label) el.setAttribute("aria-label", tr(o.label));
  }
}

/** @type {(() => void)[]} what the modules show again in a new language */
const relabels = [];

/**
 * `fn` runs whenever the page changes language: for words a module made
 * with `tr` (not the page's fixed words, which `translatePage` does).
 * @param {() => void} fn
 */
export function onLanguage(fn) {
  relabels.push(fn);
}

/**
 * Loads language `lang` and shows the page in it; `redraw` shows the
 * record again in it.
 * @param {string} lang
 * @param {() => void} redraw
 */
export async function setLanguage(lang, redraw) {
  ui.dict = lang === "en" ? {} : (await api(`/i18n/${lang}.json`).catch(() => ({ strings: {} }))).strings;
  document.documentElement.lang = lang;
  $("lang").value = lang;
  try { localStorage.setItem("qipu.lang", lang); } catch (e) { /* private mode */ }
  translatePage();
  for (const fn of relabels) fn();
  redraw();
}
