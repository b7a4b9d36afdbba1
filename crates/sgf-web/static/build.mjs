// The static viewer: `qipu view`'s page with the viewer's session compiled
// to WebAssembly, as a folder any static web server serves, offline,
// nothing to install; and the same page as one file, qipu-viewer.html,
// that a browser opens from the disk (file://).
//
//   node crates/sgf-web/static/build.mjs [OUT]     (default target/static-viewer)
//
// cargo builds crates/sgf-web-wasm (sgf-web without its server: no HTTP,
// tokio, database or engines) for wasm32-unknown-unknown, wasm-bindgen
// (the CLI of the version Cargo.lock pins: `cargo install
// wasm-bindgen-cli --version X`) writes the module and its glue, and the
// page's files are copied beside them: the same HTML, style sheet,
// scripts and translations as the server's, the HTML marked static
// (api.js then talks to static.js instead of the server). Nothing is
// downloaded.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const assets = resolve(here, '../assets');
const out = resolve(process.argv[2] || join(root, 'target/static-viewer'));
const targetDir = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(root, 'target');

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root });
}

// The wasm-bindgen version the lock file pins: the CLI must be the same.
const lock = readFileSync(join(root, 'Cargo.lock'), 'utf8');
const pinned = /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock)?.[1];
let cli = null;
try {
  cli = execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1];
} catch {
  console.error(`wasm-bindgen is not installed: cargo install wasm-bindgen-cli --version ${pinned}`);
  process.exit(1);
}
if (cli !== pinned) {
  console.error(`wasm-bindgen ${cli} is installed, Cargo.lock has ${pinned}: cargo install wasm-bindgen-cli --version ${pinned}`);
  process.exit(1);
}

run('cargo', ['build', '--locked', '--quiet', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm-viewer', '-p', 'sgf-web-wasm']);
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'i18n'), { recursive: true });
run('wasm-bindgen', ['--target', 'web', '--remove-name-section', '--no-typescript', '--out-name', 'qipu_viewer',
  '--out-dir', out, join(targetDir, 'wasm32-unknown-unknown/wasm-viewer/sgf_web_wasm.wasm')]);

// The page: the server's, without its token (or the nonce of its import
// map: the static pages' policies allow their inline scripts by hash),
// marked static.
const page = readFileSync(join(assets, 'index.html'), 'utf8')
  .replace('{{IMPORTMAP}}', '{"imports": {}}')
  .replace(' nonce="{{NONCE}}"', '')
  .replace('<meta name="qipu-token" content="{{TOKEN}}">', '<script>window.QIPU_STATIC = true;</script>')
  .replaceAll('?t={{TOKEN}}', '')
  .replace('href="/favicon.ico"', 'href="favicon.ico"');
if (page.includes('{{')) {
  console.error('index.html has a placeholder the static page does not fill');
  process.exit(1);
}
/**
 * `html` with its Content-Security-Policy in a `<meta>` (a static server
 * or the disk sends no header): `policy` with, added to `script-src` and
 * `style-src`, the hashes of the page's inline scripts and styles, the
 * only inline code it runs. WebAssembly needs 'wasm-unsafe-eval'.
 * @param {string} html
 * @param {string} policy
 */
function withPolicy(html, policy) {
  const hashes = (re) => [...html.matchAll(re)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`).join(' ');
  const scripts = hashes(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g);
  const styles = hashes(/<style>([\s\S]*?)<\/style>/g);
  const full = policy.replace('script-src', `script-src ${scripts}`).replace('style-src', `style-src ${styles}`)
    .replace(/ +;/g, ';').replace(/ {2,}/g, ' ');
  return html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${full}">`);
}

// The folder's page: its files from its own server.
const html = withPolicy(page, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'");
writeFileSync(join(out, 'index.html'), html);
for (const f of readdirSync(assets)) {
  if (/\.(js|css|ico)$/.test(f)) copyFileSync(join(assets, f), join(out, f));
}
copyFileSync(join(here, 'static.js'), join(out, 'static.js'));
for (const f of readdirSync(join(assets, 'i18n'))) copyFileSync(join(assets, 'i18n', f), join(out, 'i18n', f));

// The same page as one file, for file:// (a browser loads no module, no
// WebAssembly and no translation from a file:// folder): every module as
// a data: URL named in the import map (their `./x.js` imports renamed to
// `qipu/x.js`), the module, the style sheet and the translations inline.
const modules = {};
for (const f of readdirSync(out)) {
  if (!f.endsWith('.js')) continue;
  const js = readFileSync(join(out, f), 'utf8')
    .replace(/(from\s*|import\s*\(?\s*)(["'])\.\/([\w.-]+\.js)\2/g, '$1$2qipu/$3$2')
    .replace('const STATIC_MODULE = "./static.js";', 'const STATIC_MODULE = "qipu/static.js";')
    .replace('const I18N = "./i18n.js";', 'const I18N = "qipu/i18n.js";');
  // A module named by a constant (imported later) must be renamed too: a
  // data: URL has no folder to find `./x.js` in.
  const left = /=\s*"\.\/[\w.-]+\.js"/.exec(js);
  if (left) {
    console.error(`qipu-viewer.html: ${f} still imports ${left[0]}`);
    process.exit(1);
  }
  modules[`qipu/${f}`] = `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;
}
const i18n = {};
for (const f of readdirSync(join(out, 'i18n'))) i18n[f] = JSON.parse(readFileSync(join(out, 'i18n', f), 'utf8'));
const wasmB64 = readFileSync(join(out, 'qipu_viewer_bg.wasm')).toString('base64');
const css = readFileSync(join(out, 'app.css'), 'utf8');
const single = page
  .replace('{"imports": {}}', JSON.stringify({ imports: modules }))
  .replace('<link rel="stylesheet" href="app.css">', () => `<style>${css}</style>`)
  .replace('<link rel="icon" href="favicon.ico">', () => `<link rel="icon" href="data:image/x-icon;base64,${readFileSync(join(out, 'favicon.ico')).toString('base64')}">`)
  .replace('<script>window.QIPU_STATIC = true;</script>', () =>
    `<script>window.QIPU_STATIC = true; window.QIPU_I18N = ${JSON.stringify(i18n).replaceAll('<', '\\u003c')}; window.QIPU_WASM = "${wasmB64}";</script>`)
  .replace('<script type="module" src="app.js"></script>', '<script type="module">import "qipu/app.js";</script>');
for (const must of ['<style>', 'QIPU_WASM', 'import "qipu/app.js"']) {
  if (!single.includes(must)) {
    console.error(`qipu-viewer.html: index.html changed, ${must} not written`);
    process.exit(1);
  }
}
// The one file: its modules are data: URLs, everything else inline.
writeFileSync(join(out, 'qipu-viewer.html'), withPolicy(single,
  "default-src 'none'; script-src data: 'wasm-unsafe-eval'; style-src; img-src data: blob:; connect-src data: blob:; object-src 'none'; base-uri 'none'"));

const wasm = join(out, 'qipu_viewer_bg.wasm');
const size = statSync(wasm).size;
const gz = gzipSync(readFileSync(wasm), { level: 9 }).length;
let total = 0;
for (const f of readdirSync(out)) if (f !== 'qipu-viewer.html' && statSync(join(out, f)).isFile()) total += statSync(join(out, f)).size;
const one = statSync(join(out, 'qipu-viewer.html')).size;
console.log(`${out}: qipu_viewer_bg.wasm ${size} bytes (${gz} gzipped); the folder ${total} bytes; qipu-viewer.html ${one} bytes`);
