// qipu-sgf against @sabaki/sgf, in one Node process, on the real
// collections of the sample corpus (../shared/corpus/real, or QIPU_CORPUS):
//
//   node --expose-gc bench.mjs            (npm run bench, from npm/)
//
// Each collection is split into its original files with its index
// (`.index.tsv`: offset and length of each), and both libraries parse each
// file from its bytes with one call (charsets decoded by each): the way a
// web page reads the records it is given. Measured: parse throughput;
// parse plus visiting every node, property and value from JavaScript;
// Qipu parsing the collections whole; peak memory of parsing one large
// collection whole (each library in a child process of its own, its peak
// RSS); and the size of the WebAssembly modules, raw and gzipped.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import sabaki from '@sabaki/sgf';
import { isLoaded, parse } from '../qipu.js';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.QIPU_CORPUS ?? resolve(here, '../../../shared/corpus');
const gc = globalThis.gc ?? (() => {});

// ---------------------------------------------------------------- visiting

/** Parses `buf` with Qipu; returns the number of games. */
function qipuParse(buf) {
  const c = parse(buf);
  const n = c.gameCount;
  c.free();
  return n;
}

/** Parses `buf` with Qipu and visits every node, property and value; returns the number of values. */
function qipuVisit(buf) {
  const c = parse(buf);
  let n = 0;
  for (const game of c.games) {
    for (const node of game.nodes()) {
      for (const p of node.properties()) {
        n += p.ident.length > 0 ? 1 : 0;
        for (const v of p.values) n += v.length >= 0 ? 1 : 0;
      }
    }
  }
  c.free();
  return n;
}

/** Files @sabaki/sgf's parseBuffer threw on (its charset detection found none). */
let sabakiThrew = 0;

/** @sabaki/sgf's parseBuffer, or when it throws its parse of the bytes read as UTF-8. */
function sabakiRead(buf) {
  try {
    return sabaki.parseBuffer(buf);
  } catch {
    sabakiThrew++;
    return sabaki.parse(buf.toString('utf8'));
  }
}

function sabakiParse(buf) {
  return sabakiRead(buf).length;
}

function sabakiVisit(buf) {
  let n = 0;
  const stack = sabakiRead(buf);
  while (stack.length > 0) {
    const node = stack.pop();
    for (const ident in node.data) {
      n += ident.length > 0 ? 1 : 0;
      for (const v of node.data[ident]) n += v.length >= 0 ? 1 : 0;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return n;
}

// ---------------------------------------------------------------- memory (child)

if (process.argv[2] === '--memory') {
  const [, , , lib, file] = process.argv;
  const buf = readFileSync(file);
  gc();
  const before = process.memoryUsage().rss;
  const t0 = process.hrtime.bigint();
  let kept;
  if (lib === 'qipu') kept = parse(buf);
  else kept = sabakiRead(buf);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ before, peak, mbs: buf.length / 1e6 / s, games: kept.gameCount ?? kept.length }));
  process.exit(0);
}

// ---------------------------------------------------------------- corpus

function collections() {
  const real = join(corpus, 'real');
  const out = [];
  for (const d of readdirSync(real).sort()) {
    for (const f of readdirSync(join(real, d)).sort()) {
      if (f.endsWith('.sgf')) out.push(join(real, d, f));
    }
  }
  return out;
}

/** The original files of a collection, from its index: `[Buffer]` (views). */
function originals(path, bytes) {
  const out = [];
  for (const line of readFileSync(`${path}.index.tsv`, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [offset, length] = line.split('\t').map(Number);
    out.push(bytes.subarray(offset, offset + length));
  }
  return out;
}

function timed(label, bufs, f) {
  gc();
  const bytes = bufs.reduce((s, b) => s + b.length, 0);
  const t0 = process.hrtime.bigint();
  let n = 0;
  for (const b of bufs) n += f(b);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const mbs = bytes / 1e6 / s;
  console.error(`${label}: ${(bytes / 1e6).toFixed(1)} MB in ${s.toFixed(2)} s, ${mbs.toFixed(1)} MB/s (${n})`);
  return { mbs, s, n };
}

function memory(lib, file) {
  const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', fileURLToPath(import.meta.url), '--memory', lib, file], { encoding: 'utf8' });
  return JSON.parse(out);
}

const files = collections();
const whole = files.map((f) => readFileSync(f));
const games = files.flatMap((f, i) => originals(f, whole[i]));
const total = whole.reduce((s, b) => s + b.length, 0);
console.error(`${files.length} collections, ${(total / 1e6).toFixed(1)} MB, ${games.length} original files`);

// Warm both up on a few games.
for (const b of games.slice(0, 200)) { qipuVisit(b); sabakiVisit(b); }
sabakiThrew = 0;

const q = timed('qipu parse, one call per file', games, qipuParse);
const qv = timed('qipu parse + visit, one call per file', games, qipuVisit);
const qw = timed('qipu parse, collections whole', whole, qipuParse);
const qwv = timed('qipu parse + visit, collections whole', whole, qipuVisit);
const s = timed('@sabaki/sgf parseBuffer, one call per file', games, sabakiParse);
const sv = timed('@sabaki/sgf parseBuffer + visit, one call per file', games, sabakiVisit);

// Peak memory: one collection read whole by each library, in a child of its own.
const memFile = files.find((f) => f.endsWith('kgs-6d-2017h1.sgf')) ?? files[0];
const memMB = statSync(memFile).size / 1e6;
const mq = memory('qipu', memFile);
const ms = memory('sabaki', memFile);

const modules = ['core', 'full'].map((name) => {
  const wasm = readFileSync(join(here, '..', 'pkg', `qipu_${name}_bg.wasm`));
  const gz = gzipSync(wasm, { level: 9 }).length;
  return `pkg/qipu_${name}_bg.wasm: ${wasm.length} bytes, ${gz} gzipped (${(gz / 1024).toFixed(1)} KiB)`;
});

const f1 = (x) => x.toFixed(1);
const mb = (x) => `${(x / 1e6).toFixed(0)} MB`;
console.log(`
Node ${process.versions.node}, ${files.length} collections of ${corpus}/real (${f1(total / 1e6)} MB, ${games.length} original files)

| | qipu-sgf | @sabaki/sgf 3.4.7 | ratio |
| --- | --- | --- | --- |
| parse, one call per file | ${f1(q.mbs)} MB/s | ${f1(s.mbs)} MB/s | ${f1(q.mbs / s.mbs)}× |
| parse + visit every node, property and value | ${f1(qv.mbs)} MB/s | ${f1(sv.mbs)} MB/s | ${f1(qv.mbs / sv.mbs)}× |
| parse, collections whole | ${f1(qw.mbs)} MB/s | | |
| parse + visit, collections whole | ${f1(qwv.mbs)} MB/s | | |
| parse ${memFile.split('/').pop()} whole, in a fresh process | ${f1(mq.mbs)} MB/s | ${f1(ms.mbs)} MB/s | ${f1(mq.mbs / ms.mbs)}× |
| peak RSS reading ${memFile.split('/').pop()} (${f1(memMB)} MB) whole | ${mb(mq.peak)} (${mb(mq.peak - mq.before)} over the start) | ${mb(ms.peak)} (${mb(ms.peak - ms.before)} over the start) | ${f1((ms.peak - ms.before) / (mq.peak - mq.before))}× less |

@sabaki/sgf's parseBuffer threw on ${sabakiThrew / 2} of the ${games.length} files (read as UTF-8 instead, counted in its time).

WebAssembly modules (the parsing above is the core one's; the full one was ${isLoaded() ? '' : 'not '}loaded):
${modules.join('\n')}
`);
