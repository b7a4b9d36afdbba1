// @ts-check
// The static viewer's transport: the viewer's session (crates/sgf-web's
// `local` module, compiled to WebAssembly by crates/sgf-web-wasm) in the
// page, answering the requests `qipu view`'s server answers. Loaded by
// api.js only when the page is the static one (`window.QIPU_STATIC`); the
// server never serves it.
//
// What the server does with the disk, the page does with the browser:
// files are opened by the picker or dropped (with the File System Access
// API, where the browser has it, Save writes back to the file; elsewhere
// Save downloads), and a record's unsaved work is kept in IndexedDB, so
// that a reload (or a closed tab) brings it back. Engines and database
// search need `qipu view`: the page says so.

import init, { Viewer } from "./qipu_viewer.js";

const w = /** @type {any} */ (window);
// The one-file page (qipu-viewer.html, for file://) carries the module
// and the translations in itself; the folder's page reads them beside it.
const inline = typeof w.QIPU_WASM === "string" ? Uint8Array.from(atob(w.QIPU_WASM), (c) => c.charCodeAt(0)) : null;
await init({ module_or_path: inline || new URL("./qipu_viewer_bg.wasm", import.meta.url) });
const viewer = new Viewer();

/**
 * `text` in the page's language (i18n.js's `tr`). Imported when first
 * needed: i18n.js imports api.js, which is still loading this module.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
async function tr(text, vars) {
  /** @type {typeof import("../assets/i18n.js")} */
  const i18n = await import(I18N);
  return i18n.tr(text, vars);
}
/** The page's i18n.js: beside this module in the built folder. */
const I18N = "./i18n.js";

/**
 * The files opened through the File System Access API, by session: Save
 * writes back to them.
 * @type {Map<number, any>}
 */
const handles = new Map();
/** @type {Promise<any> | null} the handle of the file being opened */
let pendingHandle = null;

/**
 * A request's body as bytes.
 * @param {unknown} body
 * @returns {Promise<Uint8Array>}
 */
async function bytesOf(body) {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === "string") return new TextEncoder().encode(body);
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new TextEncoder().encode(String(body));
}

/**
 * Asks the session in the page.
 * @param {string} url
 * @param {unknown} [body]
 */
async function ask(url, body) {
  const a = viewer.request(url, await bytesOf(body));
  const r = { status: a.status, type: a.contentType, filename: a.filename, body: a.body };
  a.free();
  return r;
}

/**
 * An answer as a `Response`, as fetch gives the server's.
 * @param {{status: number, type: string, filename?: string, body: Uint8Array}} r
 */
function response(r) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": r.type };
  if (r.filename) headers["content-disposition"] = `attachment; filename*=UTF-8''${encodeURIComponent(r.filename)}`;
  return new Response(/** @type {BodyInit} */ (r.body), { status: r.status, headers });
}

/** @param {unknown} v */
const json = (v) => response({ status: 200, type: "application/json", body: new TextEncoder().encode(JSON.stringify(v)) });

/** @param {{body: Uint8Array}} r */
const parse = (r) => JSON.parse(new TextDecoder().decode(r.body));

// ---- unsaved work kept across a reload (IndexedDB) ----

const DB = "qipu-static";
const STORE = "kept";

/** @returns {Promise<IDBDatabase | null>} */
function openDb() {
  return new Promise((resolve) => {
    try {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
    } catch (e) {
      resolve(null); // no IndexedDB (some private modes): nothing is kept
    }
  });
}
const dbReady = openDb();

/**
 * Reads, writes or deletes the record kept.
 * @param {"get" | "put" | "delete"} op
 * @param {any} [value]
 * @returns {Promise<any>}
 */
async function kept(op, value) {
  const db = await dbReady;
  if (!db) return null;
  return new Promise((resolve) => {
    const tx = db.transaction(STORE, op === "get" ? "readonly" : "readwrite");
    const store = tx.objectStore(STORE);
    const req = op === "get" ? store.get("record") : op === "put" ? store.put(value, "record") : store.delete("record");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
  });
}

/** Writes of the record kept, one after another. */
let keeping = Promise.resolve();

/**
 * After a state: a record with unsaved changes is kept (its bytes as Save
 * would write them, or its canonical SGF for another format), where the
 * page is in it; one without is forgotten.
 * @param {any} st
 */
function keep(st) {
  if (!st || typeof st.session !== "number" || typeof st.dirty !== "boolean") return;
  keeping = keeping.then(async () => {
    if (!st.dirty) return kept("delete");
    let r = await ask(`/api/record?session=${st.session}`);
    let name = st.name || "untitled.sgf";
    if (r.status !== 200) {
      r = await ask(`/api/export?session=${st.session}&format=sgf`);
      name = name.replace(/\.[^.]*$/, "") + ".sgf";
    }
    if (r.status !== 200) return;
    await kept("put", { name, bytes: r.body, game: st.game, node: st.node ? st.node.number : 0 });
  });
}

/** The page starts: the record kept, with its unsaved work, or the example. */
async function start() {
  const k = await kept("get").catch(() => null);
  if (k && k.bytes) {
    const r = await ask(`/api/restore?name=${encodeURIComponent(k.name)}`, k.bytes);
    if (r.status === 200) {
      const id = parse(r).session;
      await ask("/api/nav", JSON.stringify({ session: id, action: "game", game: k.game || 0, node: k.node || 0 }));
      const st = parse(await ask(`/api/state?session=${id}`));
      st.message = await tr("{name}: your unsaved changes were kept in this browser", { name: k.name });
      return json(st);
    }
  }
  return response(await ask("/api/start"));
}

// ---- saving: back to the file where the browser lets it, else a download ----

/**
 * Downloads bytes as `name`.
 * @param {Uint8Array} bytes
 * @param {string} name
 * @param {string} type
 */
function downloadBytes(bytes, name, type) {
  const url = URL.createObjectURL(new Blob([/** @type {BlobPart} */ (bytes)], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Save: the record's bytes (only what was edited changed) written to its
 * file when it was opened by the browser's file access, else downloaded.
 * @param {{session: number}} req
 */
async function save(req) {
  const r = await ask(`/api/record?session=${req.session}`);
  if (r.status !== 200) return response(r);
  const name = r.filename || "game.sgf";
  let where = await tr("{name} (downloaded)", { name });
  const handle = handles.get(req.session);
  let written = false;
  if (handle && handle.createWritable) {
    try {
      const out = await handle.createWritable();
      await out.write(r.body);
      await out.close();
      written = true;
      where = name;
    } catch (e) {
      // Refused (permission, a file gone): downloaded instead.
    }
  }
  if (!written) downloadBytes(r.body, name, "application/x-go-sgf");
  const saved = parse(await ask("/api/saved", JSON.stringify({ session: req.session })));
  saved.saved = where;
  keep({ session: req.session, dirty: false });
  return json(saved);
}

/**
 * The transport: a request as `fetch` takes it, answered by the session
 * in the page (the page's own files, such as translations, fetched).
 * @param {string} path
 * @param {RequestInit} [opts]
 * @returns {Promise<Response>}
 */
export async function send(path, opts = {}) {
  if (!path.startsWith("/api/")) {
    const lang = /^\/i18n\/([\w-]+\.json)$/.exec(path);
    if (lang && w.QIPU_I18N) return w.QIPU_I18N[lang[1]] ? json(w.QIPU_I18N[lang[1]]) : response({ status: 404, type: "text/plain", body: new Uint8Array() });
    return fetch(new URL("." + path, document.baseURI));
  }
  const url = path.replace(/([?&])t=[^&]*&?/, "$1").replace(/[?&]$/, "");
  const route = url.split("?")[0];
  if (route === "/api/start") return start();
  if (route === "/api/save" && typeof opts.body === "string") {
    const req = JSON.parse(opts.body);
    if (req.mode === "lossless") return save(req);
  }
  const handle = route === "/api/upload" ? pendingHandle : null;
  if (route === "/api/upload") pendingHandle = null;
  const r = await ask(url, opts.body);
  if (r.type === "application/json" && r.status === 200) {
    const st = parse(r);
    if (route === "/api/close") handles.delete(st.closed);
    if (typeof st.session === "number") {
      const h = handle && (await handle.catch(() => null));
      if (h) handles.set(st.session, h);
      keep(st);
    }
  }
  return response(r);
}

// The page tells the server when it goes (a beacon to /api/close): here
// the records go with the page, and the host is told nothing.
const beacon = navigator.sendBeacon ? navigator.sendBeacon.bind(navigator) : null;
if (beacon) {
  navigator.sendBeacon = (url, data) => (String(url).startsWith("/api/") ? true : beacon(url, data));
}

// ---- the page's controls, as the static viewer has them ----

// The file picker with the File System Access API, where the browser has
// it: the file can then be saved in place. The page's own input is used
// otherwise (and the file chosen goes through it either way).
const pick = /** @type {HTMLInputElement | null} */ (document.getElementById("filepick"));
if (pick && w.showOpenFilePicker) {
  pick.addEventListener("click", async (e) => {
    e.preventDefault();
    const description = await tr("Go records");
    let handle;
    try {
      [handle] = await w.showOpenFilePicker({
        types: [{ description, accept: { "application/x-go-sgf": [".sgf", ".gib", ".ngf", ".ugf", ".ugi"] } }],
      });
    } catch (err) {
      return; // the user cancelled
    }
    const file = await handle.getFile();
    pendingHandle = Promise.resolve(handle);
    const dt = new DataTransfer();
    dt.items.add(file);
    pick.files = dt.files;
    pick.dispatchEvent(new Event("change"));
  });
}
// A file dropped: its handle too, where the browser gives one.
document.addEventListener("drop", (e) => {
  const item = e.dataTransfer && e.dataTransfer.items[0];
  const h = item && /** @type {any} */ (item).getAsFileSystemHandle ? /** @type {any} */ (item).getAsFileSystemHandle() : null;
  pendingHandle = h ? h.then((/** @type {any} */ x) => (x && x.kind === "file" ? x : null)) : null;
}, true);

// Engines and the database need `qipu view`: said where the page offers
// them, their controls off (counting with Qipu's estimate stays). The
// note's words are the page's: i18n.js translates them with the rest.
const engineNote = document.createElement("p");
engineNote.className = "staticnote";
engineNote.style.cssText = "border-left: 3px solid currentColor; padding-left: 8px; opacity: 0.85";
const cmd = document.createElement("code");
cmd.textContent = "qipu view";
engineNote.append("Engines (analysis, playing against one, the GTP console) are available with ", cmd,
  ", which runs on your computer. Counting with Qipu's estimate works here.");
const enginePanel = document.getElementById("enginepanel");
if (enginePanel) enginePanel.querySelector("summary")?.after(engineNote);
for (const id of ["enginepick", "enginecmd", "enginestart", "enginestop", "analyse", "enginestart2", "enginestop2",
  "enginegame", "playcolor", "playlevel", "newsize", "newhandicap", "newkomi", "newgame", "enginemove", "gtpcmd"]) {
  const el = /** @type {HTMLInputElement | null} */ (document.getElementById(id));
  if (el) el.disabled = true;
}
const countFrom = /** @type {HTMLSelectElement | null} */ (document.getElementById("countfrom"));
countFrom?.querySelector('option[value="engine"]')?.remove();
document.body.classList.add("static-viewer");
