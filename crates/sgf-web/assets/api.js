// @ts-check
// The viewer's HTTP API (see crates/sgf-web/src/api.rs): one function
// for every request the page and its panels make. Two transports, chosen
// at start: `qipu view`'s server (fetch), or, in the static viewer
// (`window.QIPU_STATIC`), the session compiled to WebAssembly in the page
// (crates/sgf-web/static/static.js), which answers the same requests
// with the same answers.

/**
 * The session's token, which every request carries: in a `<meta>` of the
 * page (no inline script: the page's policy allows none but its import
 * map).
 */
export const TOKEN = document.querySelector('meta[name="qipu-token"]')?.getAttribute("content") ?? "";

/** The static viewer: no server, the session in the page. */
export const STATIC = !!(/** @type {any} */ (window).QIPU_STATIC);

/** The module of the static viewer's transport (crates/sgf-web/static/). */
const STATIC_MODULE = "./static.js";

/** The transport: the server's `fetch`, or the page's own session. */
const send = STATIC ? (await import(STATIC_MODULE)).send : fetch;

/** @type {(text: string) => string} a server's message in the page's language (set by i18n.js) */
let errorText = (text) => text;

/**
 * Sets how a refusal's message is shown (i18n.js: in the page's language).
 * @param {(text: string) => string} f
 */
export function setErrorText(f) {
  errorText = f;
}

/** A request the server refused: its message (in the page's language) and `error_kind`. */
export class ApiError extends Error {
  /**
   * @param {string} message as the server sent it
   * @param {string | undefined} kind e.g. "changed_on_disk", "read_only", "no_session", "bad_request", "not_record", "exists"
   * @param {{not_record?: string, path?: string}} [data] the rest of the refusal: a file that is not a game record, and which
   */
  constructor(message, kind, data = {}) {
    super(errorText(message));
    this.kind = kind;
    /** the message as the server sent it (English), to show again in another language */
    this.sent = message;
    /** why the file is not a game record (the library's code: "no-game-tree", "not-text"…) */
    this.notRecord = data.not_record;
    /** the file of the served folder the refusal is about */
    this.path = data.path;
  }
}

/**
 * A URL with its query: values null or undefined are left out.
 * @param {string} path
 * @param {Record<string, string | number | boolean | null | undefined>} params
 */
export function withQuery(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Asks the server: GET without `body`; POST with `body` as JSON, or as
 * it is when it is a file's bytes (a Blob or an ArrayBuffer).
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON
 */
export async function api(path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const opts = { headers: { "x-qipu-token": TOKEN } };
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    opts.method = "POST";
    opts.headers["content-type"] = "application/octet-stream";
    opts.body = body;
  } else if (body !== undefined) {
    opts.method = "POST";
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await send(path, opts);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok || data.error) throw new ApiError(data.error || res.statusText, data.error_kind, data);
  return data;
}

/**
 * Text the server answers (a diagram), or its refusal's message.
 * @param {string} path
 * @returns {Promise<string>}
 */
export async function apiText(path) {
  const res = await send(path, { headers: { "x-qipu-token": TOKEN } });
  const text = await res.text();
  if (res.ok) return text;
  let why = text;
  try { why = JSON.parse(text).error || text; } catch (e) { /* plain text */ }
  throw new ApiError(why, undefined);
}

/**
 * Downloads what `href` (an API URL) answers, as `name`: the server's
 * answer by a link, the page's own session's as the bytes.
 * @param {string} href
 * @param {string} name
 */
export async function download(href, name) {
  const a = document.createElement("a");
  let url = href;
  if (STATIC) {
    const res = await send(href, {});
    if (!res.ok) {
      const data = await res.json().catch(() => ({ error: res.statusText }));
      throw new ApiError(data.error || res.statusText, data.error_kind);
    }
    url = URL.createObjectURL(await res.blob());
  }
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (url !== href) setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
