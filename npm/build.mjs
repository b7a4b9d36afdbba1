// `npm run build`: the package's two WebAssembly modules from the Rust
// sources. cargo builds crates/sgf-wasm for wasm32-unknown-unknown twice,
// in the `wasm` profile (release at opt-level "z", 22% smaller gzipped
// than 3, with sgf-core and sgf-wasm at 3: see Cargo.toml): the core
// module without the crate's feature `full` (reading SGF in every charset
// and the tree, read only: what every page loads) and the full one with
// it (everything; loaded when first needed).
// wasm-bindgen (the CLI of the version in Cargo.lock: `cargo install
// wasm-bindgen-cli --version X`) writes pkg/qipu_core.js and
// pkg/qipu_full.js with their .wasm (--target web: ES modules that load in
// browsers; qipu.js hands Node the bytes). No wasm-opt: Debian's binaryen
// 108 made both modules larger once gzipped (-Oz: +2%).
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

rmSync(pkg, { recursive: true, force: true });
const sizes = [];
for (const [name, features] of [['core', ['--no-default-features']], ['full', []]]) {
  run('cargo', ['build', '--locked', '--quiet', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm',
    '-p', 'sgf-wasm', ...features]);
  run('wasm-bindgen', ['--target', 'web', '--remove-name-section', '--out-dir', pkg, '--out-name', `qipu_${name}`,
    join(root, 'target/wasm32-unknown-unknown/wasm/sgf_wasm.wasm')]);
  const wasm = join(pkg, `qipu_${name}_bg.wasm`);
  sizes.push(`pkg/qipu_${name}_bg.wasm: ${statSync(wasm).size} bytes, ${gzipSync(readFileSync(wasm), { level: 9 }).length} gzipped`);
}
console.log(sizes.join('\n'));
