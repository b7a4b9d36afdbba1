// The two WebAssembly modules: what the core one does alone, and a
// collection moving to the full one with its node ids. The tests of this
// file run in order in one process: the full module is not loaded until
// the third.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { isLoaded, load, newCollection, parse } from '../qipu.js';
import { npmDir } from './support.mjs';

const text = (bytes) => new TextDecoder().decode(bytes);
const sgf = '(;GM[1]FF[4]SZ[9]PB[黑]C[root]\n;B[ee];W[ce](;B[gc])(;B[cg]))';
// (;PB[黑];B[pd]) in GB2312, without CA.
const gb = new Uint8Array([0x28, 0x3b, 0x50, 0x42, 0x5b, 0xba, 0xda, 0x5d, 0x3b, 0x42, 0x5b, 0x70, 0x64, 0x5d, 0x29]);

test('the core module reads every charset and walks the tree without the full one', () => {
  const c = parse(sgf);
  assert.equal(c.gameCount, 1);
  const [root, b1, w2] = c.games[0].mainLine();
  assert.equal(root.get('PB'), '黑');
  assert.equal(c.games[0].charset, 'UTF-8');
  assert.deepEqual(b1.move, { color: 'B', point: 'ee' });
  assert.deepEqual(w2.children.map((n) => n.get('B')), ['gc', 'cg']);
  assert.deepEqual(root.properties().map((p) => p.ident), ['GM', 'FF', 'SZ', 'PB', 'C']);
  assert.equal(text(c.toBytes()), sgf);
  const g = parse(gb);
  assert.equal(g.games[0].root.get('PB'), '黑');
  assert.equal(g.games[0].charset, 'gb18030');
  assert.deepEqual([...g.toBytes()], [...gb]);
  assert.equal(isLoaded(), false);
});

test('the core module is at most 300 KB gzipped', () => {
  const wasm = readFileSync(join(npmDir, 'pkg', 'qipu_core_bg.wasm'));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gz <= 300_000, `${gz} bytes gzipped`);
});

test('a collection moves to the full module when it needs it, and its handles stay valid', () => {
  const c = parse(sgf);
  const [root, b1, w2] = c.games[0].mainLine();
  const ids = c.games[0].nodes().map((n) => n.id);
  // Another format is the full module's: Node loads it by itself.
  const gib = '\\HS\n\\[GAMEBLACKNAME=kim (2D)\\]\n\\HE\n\\GS\nINI 0 1 0 &4\nSTO 0 2 1 15 3\n\\GE\n';
  const g1 = parse(gib);
  assert.equal(isLoaded(), true);
  assert.equal(g1.format, 'GIB');
  assert.equal(g1.games[0].root.get('PB'), 'kim');
  // So is editing: the collection read by the core module moves.
  b1.set('C', ['a comment [with brackets]']);
  assert.deepEqual(c.games[0].nodes().map((n) => n.id), ids);
  assert.equal(root.get('C'), 'root');
  assert.equal(b1.get('C'), 'a comment [with brackets]');
  assert.equal(w2.children[1].get('B'), 'cg');
  assert.equal(w2.position().moveNumber, 2);
  assert.equal(text(c.toBytes()), sgf.replace(';B[ee]', ';B[ee]C[a comment [with brackets\\]]'));
  // A collection read once the full module is loaded is read there, and
  // can be edited at once.
  const g = parse(gb);
  g.games[0].root.set('PW', '白');
  assert.equal(g.games[0].root.get('PW'), '白');
  assert.equal(newCollection().gameCount, 1);
});

test('load() resolves once the full module is loaded', async () => {
  await load();
  await load();
  assert.equal(isLoaded(), true);
});
