// What every browser test of `qipu view` shares: where things are, the
// rule for what a test needs and lacks, `qipu view` started (its URL
// read from its output), headless Chromium (Debian's, driven by
// playwright-core) on the viewer's page, and helpers over the page.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, extname, basename, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, "..", "..");
export const qipu = process.env.QIPU_BIN || join(repo, "target", "debug", "qipu");
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
export const shots = process.env.QIPU_SCREENSHOTS || join(tmpdir(), "qipu-screenshots");
// The sample corpus: QIPU_CORPUS, else ../shared/corpus beside the repository.
export const corpus = process.env.QIPU_CORPUS || join(repo, "..", "shared", "corpus");

// The one rule for something a test needs and lacks (as testsupport/require.rs):
// go on without it, saying so, or fail when QIPU_REQUIRE_ALL=1 (CI).
export function missing(what) {
  if (process.env.QIPU_REQUIRE_ALL === "1") throw new Error(`${what}; QIPU_REQUIRE_ALL=1 requires it`);
  console.log(`SKIPPED: ${what}`);
}

/**
 * Starts `qipu view --no-open --port 0 ARGS…` and waits for the URL it
 * prints. `env`: added to the environment; `quiet`: its standard error is
 * kept (in `stderr()`) rather than shown.
 */
export async function startViewer(args, { env = {}, quiet = false } = {}) {
  const server = spawn(qipu, ["view", "--no-open", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", quiet ? "pipe" : "inherit"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  if (quiet) server.stderr.on("data", (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+/);
      if (m) resolve(m[0]);
    });
    server.on("exit", (c) => reject(new Error("qipu view exited " + c)));
    setTimeout(() => reject(new Error("qipu view printed no URL")), 20000);
  });
  return { server, url, stderr: () => stderr };
}

/**
 * What the pages broke of their Content Security Policy (Chromium says
 * so on the console): `stop` fails the file's tests when anything did.
 * @type {string[]}
 */
export const cspViolations = [];

/** Watches `page`'s console for violations of its policy. */
function watchPolicy(page) {
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
  });
}

/**
 * Headless Chromium, as the tests run it. Every page of it, in whatever
 * context, is watched for violations of its policy.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...a) => {
    const ctx = await newContext(...a);
    ctx.on("page", watchPolicy);
    return ctx;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...a) => {
    const page = await newPage(...a);
    watchPolicy(page);
    return page;
  };
  return browser;
}

/** A new page of `browser` on the viewer at `url`, once its board is drawn. */
export async function openViewer(browser, url, viewport = { width: 1280, height: 860 }) {
  const page = await browser.newPage({ viewport });
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.goto(url);
  await page.waitForSelector("#board svg");
  return page;
}

/** The viewer and the browser, stopped (what `after` does). */
export async function stop({ browser, server }) {
  if (browser) await browser.close();
  if (server) server.kill();
  if (cspViolations.length) throw new Error(`the pages broke their Content Security Policy:\n${cspViolations.join("\n")}`);
}

/**
 * Where SGF point `pt` ("dd") is on the screen, through the board SVG's
 * geometry and the page's own letters module.
 */
export function screenPoint(page, pt) {
  return page.evaluate(async (pt) => {
    const { sgfXY } = await import("/letters.js");
    const svg = document.querySelector("#board svg");
    const d = svg.dataset;
    const [x, y] = sgfXY(pt);
    const p = new DOMPoint(+d.originX + (x - +d.x0) * +d.cell, +d.originY + (y - +d.y0) * +d.cell)
      .matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, pt);
}

/** Clicks SGF point `pt` of the board. */
export async function clickPoint(page, pt) {
  const [x, y] = await screenPoint(page, pt);
  await page.mouse.click(x, y);
}

/**
 * The viewer's API as another tab (or a script) uses it, from the page's
 * URL: same token, GET without `body`, else POST as JSON.
 */
export async function apiCall(url, path, body) {
  const token = new URL(url).searchParams.get("t");
  const res = await fetch(new URL(path, url), {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-qipu-token": token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/**
 * Runs an action of the menu bar, as a user does: opens the menu that
 * holds item `m-ID` (ID: "png", "promote"…), then clicks the item.
 */
export async function menu(page, id) {
  const title = await page.evaluate((id) => document.getElementById(id).closest(".menu").querySelector(".menutitle").id, `m-${id}`);
  await page.click(`#${title}`);
  await page.click(`#m-${id}`);
}

/**
 * Opens record `name` of the served directory in place of the one shown,
 * as the file list does, and waits for it.
 */
export async function openInPage(page, name) {
  await page.evaluate(async (name) => {
    const { api } = await import("/api.js");
    window.qipuPage.show(await api("/api/open", { path: name, replace: window.qipuPage.state().session }));
  }, name);
  await page.waitForFunction((n) => document.querySelector("#title").textContent.includes(n), name);
}

// ---- the static viewer (crates/sgf-web/static/build.mjs's folder) ----

/** The static viewer's folder, built by run.sh. */
export const staticDir = process.env.QIPU_STATIC_DIR || join(repo, "target", "static-viewer");
/** Why the static viewer's scenarios are skipped, or false when it is built. */
export const staticSkip = existsSync(join(staticDir, "qipu_viewer_bg.wasm")) ? false : "the static viewer is not built";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".wasm": "application/wasm", ".ico": "image/x-icon",
};

/** A plain static file server of `dir` on 127.0.0.1 (what any web host does). */
export function serveStatic(dir = staticDir) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(dir, path.endsWith("/") ? path + "index.html" : path);
    if (req.method !== "GET" || !file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

/**
 * Bytes dropped on the page as the file `name`, as a user of either
 * transport opens a record (the static viewer has no folder to open from).
 * @param {import("playwright-core").Page} page
 * @param {Uint8Array | string} bytes
 * @param {string} name
 */
export async function dropRecord(page, bytes, name) {
  const data = typeof bytes === "string" ? [...Buffer.from(bytes)] : [...bytes];
  // A new session, not the record shown (which may have the same name).
  const before = await page.evaluate(() => window.qipuPage.state().session);
  await page.evaluate(([data, name]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], name));
    document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [data, name]);
  await page.waitForFunction(([n, b]) => window.qipuPage.state().session !== b &&
    document.querySelector("#title").textContent.includes(n), [name, before]);
}

/**
 * The record `name` of the served folder `dir` opened in `page`, on
 * either transport: by its path on `qipu view`'s server, dropped (its
 * bytes read from `dir`) on the static viewer.
 * @param {import("playwright-core").Page} page
 * @param {string} dir
 * @param {string} name
 */
export async function openRecord(page, dir, name) {
  const isStatic = await page.evaluate(() => !!(/** @type {any} */ (window).QIPU_STATIC));
  if (isStatic) await dropRecord(page, readFileSync(join(dir, name)), basename(name));
  else await openInPage(page, name);
}

/**
 * Runs a test file's `shared` scenarios (`[name, fn]`) again on the static
 * viewer, under `title`: `swap({ page, url })` points the file's page and
 * URL at the static viewer's (and back after), `current()` gives them and
 * the file's browser; `setup(page)` readies the new page; `more` adds
 * tests of its own, given the static viewer's URL.
 * @param {string} title
 * @param {[string, () => Promise<void>][]} shared
 * @param {{
 *   current: () => { page: any, url: string, browser: any },
 *   swap: (to: { page: any, url: string }) => void,
 *   viewport?: { width: number, height: number },
 *   setup?: (page: any) => Promise<void>,
 *   more?: (url: () => string) => void,
 * }} how
 */
export function onStaticViewer(title, shared, { current, swap, viewport, setup, more }) {
  describe(title, { skip: staticSkip }, () => {
    let web, saved;
    before(async () => {
      web = await serveStatic();
      saved = current();
      const page = await openViewer(saved.browser, web.url, viewport);
      swap({ page, url: web.url });
      if (setup) await setup(page);
    });
    after(async () => {
      await current().page.close();
      swap({ page: saved.page, url: saved.url });
      web.server.close();
    });
    if (more) more(() => web.url);
    for (const [name, fn] of shared) test(`[static] ${name}`, fn);
  });
}

/**
 * The English words left in the page (text, titles, placeholders, labels)
 * that are shown in another language: what the i18n files miss, or what
 * the code writes without them. `within`: only in that part of the page.
 * @param {import("playwright-core").Page} p
 * @param {string} [within]
 */
export async function englishLeft(p, within = "body") {
  // A language written in Latin letters has words that look English: the
  // words of its own translations are its own (Komi, Variante, Position).
  const lang = await p.evaluate(() => document.documentElement.lang);
  const own = lang && lang !== "en" ? [...ownWords(lang)] : [];
  return p.evaluate(([within, own]) => {
    const mine = new Set(own);
    // Words that are the same in every language: names, formats, keys.
    const SAME = /^(Qipu|SGF|GTP|KataGo|Kata|Leela|Sabaki|PNG|SVG|JPEG|JPG|BMP|FF|UTF|Ctrl|Shift|Alt|Del|Delete|PgUp|PgDn|Home|End|Esc|Enter|Tab|HTML|FG|RE|KM|HA|TE|BM|DO|IT|GB|GW|DM|UC|HO|TM|OT|AR|LN|DD|TB|TW|AB|AW|AE|qdb|gnugo|mode|gtp|showboard|sgf|Sensei|Library|ownership|Goban|KGS|Tromp|Taylor|Ing|AGA|Li|Ming|Tanaka|Hanako|Ke|Jie|AlphaGo|Shin|Jinseo|Qipu's|Sensei's|the|machine|long|ladder|pd|dd)$/;
    const WORD = /[A-Za-z][a-z]{2,}(?:'[a-z]+)?/g;
    // Code and file names are not words to translate (qipu check --fix, engines.toml, .bak).
    const english = (s) => (s.replace(/qipu [a-z]+(?: --[a-z]+)*|[\w-]*\.(?:toml|bak|qdb|sgf)\b/g, "").match(WORD) || []).filter((w) => !SAME.test(w) && !mine.has(w));
    const out = new Set();
    // What the record or the user wrote (names, comments), what is written into a record as it is (code), and
    // the languages' own names.
    const skip = (el) => el.closest("script, style, code, #board, #filelist, #title, #nodename, #comment, #diagramtext, #pastetext, #info, #players .name, #gamestable tbody, #gtplog, #lang, .label[lang], .commentview");
    const root = document.querySelector(within);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (skip(n.parentElement)) continue;
      const w = english(n.nodeValue || "");
      if (w.length) out.add(`text "${n.nodeValue.trim()}" in #${n.parentElement.closest("[id]")?.id}`);
    }
    for (const el of root.querySelectorAll("[title], [placeholder], [aria-label]")) {
      if (skip(el)) continue;
      for (const a of ["title", "placeholder", "aria-label"]) {
        // A diagnostic's title is the library's message as written, on purpose.
        if (a === "title" && el.matches(".diag")) continue;
        const v = el.getAttribute(a);
        if (v && english(v).length) out.add(`${a} "${v}" of #${el.id || el.closest("[id]")?.id}`);
      }
    }
    return [...out];
  }, [within, own]);
}

/** The page's languages but English: the codes of `assets/i18n/*.json`. */
export const LANGUAGES = readdirSync(join(repo, "crates/sgf-web/assets/i18n"))
  .filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -".json".length)).sort();

/** @type {Map<string, Set<string>>} */
const ownCache = new Map();

/**
 * The words (as `englishLeft` cuts them) of language `lang`'s
 * translations: its strings, its codes' summaries and its name.
 * @param {string} lang
 */
function ownWords(lang) {
  if (!ownCache.has(lang)) {
    const t = JSON.parse(readFileSync(join(repo, "crates/sgf-web/assets/i18n", `${lang}.json`), "utf8"));
    const text = [t.language, ...Object.values(t.strings), ...Object.values(t.codes)].join("\n");
    ownCache.set(lang, new Set(text.match(/[A-Za-z][a-z]{2,}(?:'[a-z]+)?/g) || []));
  }
  return /** @type {Set<string>} */ (ownCache.get(lang));
}

/**
 * Chooses language `lang` in page `p` and waits until the page is shown
 * in it (`setLanguage` sets the page's `lang` once its words are loaded,
 * then shows everything again at once).
 * @param {import("playwright-core").Page} p
 * @param {string} lang
 */
export async function chooseLanguage(p, lang) {
  await p.selectOption("#lang", lang);
  await p.waitForFunction((l) => document.documentElement.lang === l, lang);
}
