// @ts-check
// The viewer's HTTP API (see crates/sgf-web/src/api.rs): one function
// for every request the page and its panels make.

/** The session's token, which every request carries. */
export const TOKEN = /** @type {string} */ (/** @type {any} */ (window).QIPU_TOKEN);

/** A request the server refused: its message and `error_kind`. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {string | undefined} kind e.g. "changed_on_disk", "read_only", "no_session", "bad_request"
   */
  constructor(message, kind) {
    super(message);
    this.kind = kind;
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
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok || data.error) throw new ApiError(data.error || res.statusText, data.error_kind);
  return data;
}

/**
 * Text the server answers (a diagram), or its refusal's message.
 * @param {string} path
 * @returns {Promise<string>}
 */
export async function apiText(path) {
  const res = await fetch(path, { headers: { "x-qipu-token": TOKEN } });
  const text = await res.text();
  if (res.ok) return text;
  let why = text;
  try { why = JSON.parse(text).error || text; } catch (e) { /* plain text */ }
  throw new ApiError(why, undefined);
}
