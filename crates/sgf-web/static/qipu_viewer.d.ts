// The types of the glue wasm-bindgen writes for crates/sgf-web-wasm
// (build.mjs writes qipu_viewer.js beside static.js), for the type check.

/** An answer of the session in the page. */
export class Answer {
  free(): void;
  readonly status: number;
  readonly contentType: string;
  readonly filename: string | undefined;
  readonly body: Uint8Array;
}

/** The records the page has open. */
export class Viewer {
  constructor();
  free(): void;
  request(url: string, body: Uint8Array): Answer;
}

/** Loads the module. */
export default function init(opts?: { module_or_path?: URL | string | Request | Response | BufferSource }): Promise<unknown>;
