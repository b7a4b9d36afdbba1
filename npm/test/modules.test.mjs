// The two WebAssembly modules: what the core one does alone, and a
// collection moving to the full one with its edits and node ids. The tests
// of this file run in order in one process: the full module is not loaded
// until the third.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { isLoaded, load, newCollection, parse } from '../qipu.js';
import { npmDir } from './support.mjs';

const text = (bytes) => new TextDecoder().decode(bytes);
const sgf = '(;GM[1]FF[4]SZ[9]PB[黑]C[root]\n;B[ee];W[ce](;B[gc])(;B[cg]))';

/** The same edits on a collection: returns the handles they made. */
function edit(c) {
  const [root, b1, w2] = c.games[0].mainLine();
  b1.set('C', ['a comment [with brackets]']);
  root.remove('C');
  const extra = w2.addChild(0);
  extra.setRaw('B', 'dd');
  w2.children[2].moveTo(0);
  w2.children[2].delete();
  const game2 = newCollection();
  game2.games[0].root.set('GN', 'built');
  return { extra, b1, w2, game2 };
}

test('the core module reads, walks, edits and writes without the full one', () => {
  const c = parse(sgf);
  assert.equal(c.gameCount, 1);
  assert.equal(c.games[0].root.get('PB'), '黑');
  assert.equal(c.games[0].charset, 'UTF-8');
  assert.deepEqual(c.games[0].mainLine()[1].move, { color: 'B', point: 'ee' });
  const { extra, game2 } = edit(c);
  assert.deepEqual(extra.properties(), [{ ident: 'B', values: ['dd'] }]);
  assert.equal(text(c.toBytes()), '(;GM[1]FF[4]SZ[9]PB[黑]\n;B[ee]C[a comment [with brackets\\]];W[ce](;B[cg])(;B[dd]))');
  assert.equal(text(game2.toBytes()), '(;GN[built])');
  assert.equal(isLoaded(), false);
});

test('the core module is at most 300 KB gzipped', () => {
  const wasm = readFileSync(join(npmDir, 'pkg', 'qipu_core_bg.wasm'));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gz <= 300_000, `${gz} bytes gzipped`);
});

test('a collection moves to the full module with its edits, and its handles stay valid', () => {
  const c = parse(sgf);
  const { extra, b1, w2, game2 } = edit(c);
  const before = text(c.toBytes());
  const ids = c.games[0].nodes().map((n) => n.id);
  // A full-only call: Node loads the full module by itself.
  const report = c.check();
  assert.equal(isLoaded(), true);
  assert.ok(Array.isArray(report.diagnostics));
  assert.equal(text(c.toBytes()), before);
  assert.deepEqual(c.games[0].nodes().map((n) => n.id), ids);
  assert.deepEqual(extra.properties(), [{ ident: 'B', values: ['dd'] }]);
  assert.equal(b1.get('C'), 'a comment [with brackets]');
  assert.equal(extra.parent.id, w2.id);
  assert.equal(w2.position().moveNumber, 2);
  // Edits go on in the full module.
  extra.play('W', 'ef');
  assert.match(text(c.toBytes()), /;B\[dd\]\s*;W\[ef\]\)\)$/);
  // A new collection moves with its game.
  assert.equal(game2.toSgf(), '(;FF[4]\nCA[UTF-8]\nGN[built])\n');
  // Read once the full module is loaded: read there at once.
  const gib = '\\HS\n\\[GAMEBLACKNAME=kim (2D)\\]\n\\HE\n\\GS\nINI 0 1 0 &4\nSTO 0 2 1 15 3\n\\GE\n';
  assert.equal(parse(gib).format, 'GIB');
});

test('load() resolves once the full module is loaded', async () => {
  await load();
  await load();
  assert.equal(isLoaded(), true);
});
