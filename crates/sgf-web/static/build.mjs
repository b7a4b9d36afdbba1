// The static viewer: `qipu view`'s page with the viewer's session compiled
// to WebAssembly, as a folder any static web server serves (or a browser
// opens over http on loopback), offline, nothing to install.
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

run('cargo', ['build', '--locked', '--quiet', '--target', 'wasm32-unknown-unknown', '--release', '-p', 'sgf-web-wasm']);
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'i18n'), { recursive: true });
run('wasm-bindgen', ['--target', 'web', '--remove-name-section', '--no-typescript', '--out-name', 'qipu_viewer',
  '--out-dir', out, join(targetDir, 'wasm32-unknown-unknown/release/sgf_web_wasm.wasm')]);

// The page: the server's, without its token, marked static.
const html = readFileSync(join(assets, 'index.html'), 'utf8')
  .replace('{{IMPORTMAP}}', '{"imports": {}}')
  .replace('<script>window.QIPU_TOKEN = "{{TOKEN}}";</script>', '<script>window.QIPU_STATIC = true;</script>')
  .replaceAll('?t={{TOKEN}}', '')
  .replace('href="/favicon.ico"', 'href="favicon.ico"');
if (html.includes('{{')) {
  console.error('index.html has a placeholder the static page does not fill');
  process.exit(1);
}
writeFileSync(join(out, 'index.html'), html);
for (const f of readdirSync(assets)) {
  if (/\.(js|css|ico)$/.test(f)) copyFileSync(join(assets, f), join(out, f));
}
copyFileSync(join(here, 'static.js'), join(out, 'static.js'));
for (const f of readdirSync(join(assets, 'i18n'))) copyFileSync(join(assets, 'i18n', f), join(out, 'i18n', f));

const wasm = join(out, 'qipu_viewer_bg.wasm');
const size = statSync(wasm).size;
const gz = gzipSync(readFileSync(wasm), { level: 9 }).length;
let total = 0;
for (const f of readdirSync(out)) if (statSync(join(out, f)).isFile()) total += statSync(join(out, f)).size;
console.log(`${out}: qipu_viewer_bg.wasm ${size} bytes (${gz} gzipped); the folder ${total} bytes`);
