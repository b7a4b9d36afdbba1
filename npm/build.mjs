// `npm run build`: the package's WebAssembly module from the Rust sources.
// cargo builds crates/sgf-wasm for wasm32-unknown-unknown (release: at
// opt-level "s" the module is 13% smaller gzipped but parses 30% slower),
// and wasm-bindgen
// (the CLI of the version in Cargo.lock: `cargo install wasm-bindgen-cli
// --version X`) writes pkg/ (--target web: ES modules that load in
// browsers; qipu.js hands Node the bytes). No wasm-opt: Debian's binaryen
// 108 made the module larger once gzipped.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const pkg = join(here, 'pkg');

function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
}

function has(cmd) {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// The wasm-bindgen version the lock file pins: the CLI must be the same.
const lock = readFileSync(join(root, 'Cargo.lock'), 'utf8');
const pinned = /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock)?.[1];
if (!has('wasm-bindgen')) {
  console.error(`wasm-bindgen is not installed: cargo install wasm-bindgen-cli --version ${pinned}`);
  process.exit(1);
}
const cli = execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1];
if (cli !== pinned) {
  console.error(`wasm-bindgen ${cli} is installed, Cargo.lock has ${pinned}: cargo install wasm-bindgen-cli --version ${pinned}`);
  process.exit(1);
}

run('cargo', ['build', '--locked', '--quiet', '--target', 'wasm32-unknown-unknown', '--release', '-p', 'sgf-wasm']);
rmSync(pkg, { recursive: true, force: true });
run('wasm-bindgen', ['--target', 'web', '--remove-name-section', '--out-dir', pkg,
  join(root, 'target/wasm32-unknown-unknown/release/sgf_wasm.wasm')]);

const wasm = join(pkg, 'sgf_wasm_bg.wasm');
const bytes = readFileSync(wasm);
console.log(`pkg/sgf_wasm_bg.wasm: ${statSync(wasm).size} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
