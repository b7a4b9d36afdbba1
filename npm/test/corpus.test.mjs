// The package reads, writes and checks as the Rust library does: compared
// with the `qipu` command on the sample corpus and the repository's
// fixtures.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';

import { parse } from '../qipu.js';
import { corpus, filesUnder, repo, runQipu } from './support.mjs';

/** The games of a collection as `qipu dump --json` writes them, read through the handles. */
function dumped(c) {
  return c.games.map((g) => {
    const ids = g.nodeIds();
    const index = new Map();
    const nodes = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      index.set(id, i);
      const p = c.raw.parent(id);
      nodes.push({
        parent: p < 0 ? null : index.get(p),
        props: c._props(id).map((q) => [q.ident, q.values]),
      });
    }
    return nodes;
  });
}

/** Whether `bytes` start as an archive does (zip, gzip, 7z): `qipu` reads its members, the package refuses it as not a game record. */
function isArchive(bytes) {
  const starts = (...b) => b.every((x, i) => bytes[i] === x);
  return starts(0x50, 0x4b) || starts(0x1f, 0x8b) || starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c);
}

/** Reads `file` as the package does (its name breaks ties between formats, as the path does for qipu). */
function read(file) {
  return parse(readFileSync(file), { name: basename(file) });
}

for (const sub of ['charsets', 'formats']) {
  test(`every file of corpus/${sub} decodes as \`qipu dump --json\` and \`qipu info --json\` say`, (t) => {
    const dir = corpus(t, sub);
    if (!dir) return;
    const files = filesUnder(dir);
    assert.ok(files.length > 10, `${dir}: only ${files.length} files`);
    let compared = 0;
    for (const file of files) {
      const dump = runQipu(['dump', '--json', '--quiet', file]);
      let c;
      try {
        c = read(file);
      } catch (e) {
        if (isArchive(readFileSync(file))) {
          // qipu reads an archive's members; the package reads records.
          assert.match(e.message, /is not a game record: it is an? .*(archive|compressed)/, file);
          continue;
        }
        assert.notEqual(dump.status, 0, `${file}: the package cannot read it (${e.message}), qipu can`);
        continue;
      }
      if (dump.status !== 0) {
        // Not a record (an archive, a JSON file of expectations).
        assert.equal(c.gameCount, 0, `${file}: qipu dump refuses it, the package reads ${c.gameCount} game(s)`);
        continue;
      }
      const want = JSON.parse(dump.stdout).games.map((g) => g.nodes);
      assert.deepEqual(dumped(c), want, `${file}: decoded text differs from qipu dump --json`);
      const info = JSON.parse(runQipu(['info', '--json', '--quiet', file]).stdout);
      assert.deepEqual(c.games.map((g) => g.charset), info.games.map((g) => g.charset), `${file}: charsets`);
      compared++;
    }
    console.log(`${sub}: ${compared} of ${files.length} files compared with qipu dump --json`);
    assert.ok(compared > 10);
  });
}

test('lossless round trip: every SGF file of the corpus written back byte for byte', (t) => {
  const dirs = ['charsets', 'formats', 'real', 'malformed', 'variations'].map((s) => corpus(t, s));
  if (dirs.includes(null)) return;
  let n = 0;
  for (const dir of dirs) {
    for (const file of filesUnder(dir)) {
      if (file.endsWith('.gz') || file.endsWith('.tsv') || file.endsWith('.json')) continue;
      const bytes = readFileSync(file);
      let c;
      try {
        c = read(file);
      } catch (e) {
        // What is not a game record (a zeroed file) is refused, as qipu refuses it.
        assert.match(e.message, /is not a game record/, file);
        assert.equal(runQipu(['info', '--quiet', file]).status, 2, `${file}: qipu reads it`);
        continue;
      }
      if (c.format !== 'SGF' || c.gameCount === 0) continue;
      const out = c.toBytes();
      assert.ok(Buffer.from(out).equals(bytes), `${file}: toBytes() differs from the input`);
      c.free();
      n++;
    }
  }
  console.log(`${n} SGF files written back byte for byte`);
  assert.ok(n > 50);
});

/** The fixtures the check tests compare on: the repository's check fixtures and some corpus files. */
function checkFixtures(t) {
  const dir = join(repo, 'testdata', 'check');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sgf')).sort().map((f) => join(dir, f));
  const formats = corpus(t, 'formats');
  const charsets = corpus(t, 'charsets');
  if (!formats || !charsets) return null;
  for (const f of ['gib/sabaki-gb2312.gib', 'ngf/sabaki-even.ngf', 'ugf/sabaki-amateur.ugf', 'wgs/wgs2sgf-demo.wgs']) {
    files.push(join(formats, f));
  }
  for (const f of ['sabaki-japanese_bad.sgf', 'libsgfcpp-encoding-utf16-nobom.sgf', 'fox-no-ca/neither-Pro-1p-1378817797019999354.sgf']) {
    files.push(join(charsets, f));
  }
  return files;
}

test('check() gives what `qipu check --json` prints', (t) => {
  const files = checkFixtures(t);
  if (!files) return;
  for (const file of files) {
    const want = JSON.parse(runQipu(['check', '--json', file]).stdout);
    const got = read(file).check({ path: file });
    assert.deepEqual(got, want, file);
  }
  console.log(`${files.length} files checked as qipu check --json does`);
});

test("check() of a record with a problem on every move is `qipu check --json`'s", () => {
  // 3,000 moves from a fixed seed, most on a stone, and `HA[2]` without
  // its stones (found once every move is played): more diagnostics than a
  // check holds, so they are made again as the report is written, without
  // threads in WebAssembly; the same list, in the same order.
  let x = 11n;
  let sgf = '(;GM[1]FF[4]SZ[19]HA[2]\n';
  for (let i = 0; i < 3000; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    const c = Number((x >> 33n) % 19n);
    const r = Number((x >> 45n) % 19n);
    sgf += `;${i % 2 ? 'W' : 'B'}[${String.fromCharCode(97 + c, 97 + r)}]\n`;
  }
  sgf += ')\n';
  const tmp = mkdtempSync(join(tmpdir(), 'qipu-npm-'));
  try {
    const file = join(tmp, 'flood.sgf');
    writeFileSync(file, sgf);
    const want = JSON.parse(runQipu(['check', '--json', file]).stdout);
    assert.ok(want.diagnostics.length > 1000, `${want.diagnostics.length}`);
    assert.deepEqual(parse(sgf).check({ path: file }), want);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('fix() repairs as `qipu check --fix` does: the same changes and the same file', (t) => {
  const files = checkFixtures(t);
  if (!files) return;
  const tmp = mkdtempSync(join(tmpdir(), 'qipu-npm-'));
  try {
    let fixed = 0;
    for (const file of files) {
      const out = join(tmp, 'fixed.sgf');
      const r = runQipu(['check', '--fix', '--json', file, '-o', out]);
      if (r.status === 2) continue; // refused (nothing the repair can write)
      const want = JSON.parse(r.stdout);
      const c = read(file);
      const changes = c.fix();
      assert.deepEqual(changes, want.changes ?? [], `${file}: changes`);
      assert.equal(c.toSgf(), readFileSync(out, 'utf8'), `${file}: repaired file`);
      assert.deepEqual(c.fix(), [], `${file}: a second repair changes nothing`);
      fixed++;
    }
    console.log(`${fixed} files repaired as qipu check --fix does`);
    assert.ok(fixed > 20);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('toSgf() writes what `qipu fmt` writes', (t) => {
  const files = checkFixtures(t);
  if (!files) return;
  let n = 0;
  for (const file of files) {
    const r = runQipu(['fmt', '--quiet', file]);
    let got;
    try {
      got = read(file).toSgf();
    } catch (e) {
      assert.notEqual(r.status, 0, `${file}: toSgf() refuses (${e.message}), qipu fmt writes it`);
      continue;
    }
    assert.equal(r.status, 0, `${file}: qipu fmt refuses, toSgf() writes it`);
    assert.equal(got, r.stdout, file);
    n++;
  }
  assert.ok(n > 20);
});
