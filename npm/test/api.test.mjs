// The package's API: handles, reading options, errors, edits, positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Collection, Game, IllegalMoveError, Node, QipuError, newCollection, parse } from '../qipu.js';

const text = (bytes) => new TextDecoder().decode(bytes);

test('parse takes bytes, an ArrayBuffer or a string, and nothing else', () => {
  const sgf = '(;GM[1]PB[黑])(;GM[1])';
  const bytes = new TextEncoder().encode(sgf);
  for (const data of [sgf, bytes, bytes.buffer, Buffer.from(sgf)]) {
    const c = parse(data);
    assert.ok(c instanceof Collection);
    assert.equal(c.gameCount, 2);
    assert.equal(c.games.length, 2);
    assert.ok(c.games[0] instanceof Game);
    assert.equal(c.games[0].root.get('PB'), '黑');
  }
  assert.throws(() => parse(42), /^QipuError: parse\(\): data must be a Uint8Array, ArrayBuffer or string to parse; got number 42$/);
  assert.throws(() => parse(null), QipuError);
  assert.throws(() => parse('(;)', { charset: 'GBK' }), /charset applies to bytes only/);
});

test('bad content never throws: it is in the diagnostics', () => {
  const c = parse('(;GM[1]C[unterminated');
  assert.equal(c.gameCount, 1);
  assert.ok(c.diagnostics.some((d) => d.severity === 'error'));
  const d = c.diagnostics[0];
  for (const k of ['code', 'name', 'severity', 'message', 'line', 'column', 'start', 'end']) {
    assert.ok(k in d, k);
  }
  const none = parse('just some text');
  assert.equal(none.gameCount, 0);
  assert.ok(none.diagnostics.some((x) => x.code === 'S002'));
  assert.deepEqual(none.games, []);
});

test('charset and format options; unknown names are errors', () => {
  const gbk = new Uint8Array([0x28, 0x3b, 0x43, 0x5b, 0xba, 0xda, 0x5d, 0x29]); // (;C[黑])
  assert.equal(parse(gbk, { charset: 'GBK' }).games[0].root.get('C'), '黑');
  assert.equal(parse(gbk, { charset: 'windows-1252' }).games[0].root.get('C'), 'ºÚ');
  assert.throws(() => parse(gbk, { charset: 'no-such-charset' }), /unknown charset `no-such-charset`/);
  assert.throws(() => parse(gbk, { format: 'XYZ' }), /unknown format `XYZ` \(known: .*GIB/);
  assert.equal(parse(gbk, { format: 'auto' }).format, 'SGF');
  assert.equal(parse(gbk, { name: 'x.sgf' }).name, 'x.sgf');
  assert.equal(parse(gbk).name, 'collection.sgf');
});

test('navigation: parent, children, siblings, numbers, depth, game', () => {
  const c = parse('(;C[r];B[aa](;W[bb];B[cc])(;W[dd]))(;C[second])');
  const g = c.games[0];
  const [root, b] = g.mainLine();
  assert.equal(root.isRoot, true);
  assert.equal(root.parent, null);
  assert.equal(b.parent.id, root.id);
  const [w1, w2] = b.children;
  assert.ok(w1.nextSibling.equals(w2));
  assert.equal(w2.nextSibling, null);
  assert.ok(b.next.equals(w1));
  assert.equal(w2.number, 4);
  assert.equal(w1.next.depth, 3);
  assert.equal(g.nodes().length, 5);
  assert.deepEqual(g.nodes().map((n) => n.number), [0, 1, 2, 3, 4]);
  assert.ok(g.nodeByNumber(4).equals(w2));
  assert.equal(g.nodeByNumber(99), null);
  assert.equal(w2.game.index, 0);
  assert.equal(c.games[1].index, 1);
  assert.equal(c.games[1].root.get('C'), 'second');
  assert.ok(w2 instanceof Node);
});

test('properties: decoded, raw, typed text, keys', () => {
  const c = parse('(;C[line one\\\nstill one\nline two]AB[aa][bb]LB[cc:x\\:y]GN[a\tb]XX[private])');
  const r = c.games[0].root;
  assert.deepEqual(r.values('C'), ['line onestill one\nline two']);
  assert.deepEqual(r.raw('LB'), ['cc:x\\:y']);
  assert.deepEqual(r.values('AB'), ['aa', 'bb']);
  assert.equal(r.get('GN'), 'a b'); // SimpleText: every white space a space
  assert.equal(r.get('XY'), undefined);
  assert.deepEqual(r.values('XY'), []);
  assert.ok(r.has('XX') && !r.has('B'));
  assert.deepEqual(r.keys(), ['C', 'AB', 'LB', 'GN', 'XX']);
  assert.equal(r.properties().length, 5);
});

test('properties read after an edit or a repair are the new ones', () => {
  const c = parse('(;GM[1]DT[2024/1/5];B[aa];W[bb])(;C[other])');
  const [root, b] = c.games[0].mainLine();
  assert.deepEqual(b.properties(), [{ ident: 'B', values: ['aa'] }]);
  b.set('C', 'new');
  assert.deepEqual(b.properties(), [{ ident: 'B', values: ['aa'] }, { ident: 'C', values: ['new'] }]);
  assert.deepEqual(c.games[1].root.properties(), [{ ident: 'C', values: ['other'] }]);
  assert.deepEqual(root.properties()[1], { ident: 'DT', values: ['2024/1/5'] });
  c.fix();
  const dt = c.games[0].root.properties().find((p) => p.ident === 'DT');
  assert.deepEqual(dt.values, ['2024-01-05']);
  const gone = c.games[0].mainLine()[1].addChild();
  gone.set('C', 'soon gone');
  assert.deepEqual(gone.properties(), [{ ident: 'C', values: ['soon gone'] }]);
  gone.delete();
  assert.throws(() => gone.properties(), /^QipuError: this node was deleted$/);
});

test('fix() leaves a clean record byte for byte as it was; a repair changes it and marks it edited', () => {
  // Clean, but not in the canonical form the repair writes: spaces, CRLF, GB2312.
  const clean = '(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[黑]\r\n  ;B[ee]   ;W[ce]\r\n)';
  const gb = new Uint8Array([...new TextEncoder().encode('(;GM[1]FF[4]CA[GB2312]PB['), 0xba, 0xda,
    ...new TextEncoder().encode(']\n;B[pd]  )')]);
  for (const data of [clean, new TextEncoder().encode(clean), gb]) {
    const c = parse(data);
    const input = c.toBytes();
    assert.notDeepEqual(new TextEncoder().encode(c.toSgf()), input, 'the repair\'s file differs from the input');
    const b = c.games[0].mainLine()[1];
    assert.deepEqual(c.fix(), []);
    assert.deepEqual(c.toBytes(), input);
    assert.equal(c.isEdited, false);
    assert.equal(b.get('B'), b.move.point, 'handles stay good');
  }
  // A converted record: its SGF as it was.
  const gib = parse('\\HS\n\\[GAMEBLACKNAME=kim (2D)\\]\n\\HE\n\\GS\nINI 0 1 0 &4\nSTO 0 2 1 15 3\n\\GE\n');
  const sgf = gib.toBytes();
  assert.deepEqual(gib.fix(), []);
  assert.deepEqual(gib.toBytes(), sgf);
  // A repair: the repaired file, edited, and a second fix() leaves it so.
  const input = '(;GM[1]FF[4]SZ[9]DT[2024/1/5]\n  ;B[ee])';
  const d = parse(input);
  const changes = d.fix();
  assert.deepEqual(changes.map((ch) => ch.after), ['DT[2024-01-05]']);
  assert.equal(d.isEdited, true);
  const fixed = text(d.toBytes());
  assert.notEqual(fixed, input);
  assert.ok(fixed.includes('DT[2024-01-05]'), fixed);
  assert.deepEqual(d.fix(), []);
  assert.equal(text(d.toBytes()), fixed);
  assert.equal(d.isEdited, true);
});

test('a node of thousands of values reads the same, read or made by edits', () => {
  const pts = [];
  for (let x = 0; x < 19; x++) for (let y = 0; y < 19; y++) pts.push(`[${String.fromCharCode(97 + x, 97 + y)}]`);
  const many = Array.from({ length: 12 }, (_, i) => `X${String.fromCharCode(65 + i)}${pts.join('')}`).join('');
  const c = parse(`(;SZ[19]${many})`);
  const props = c.games[0].root.properties();
  const made = c.games[0].root.addChild();
  for (const p of props.slice(1)) made.setRaw(p.ident, p.values);
  assert.deepEqual(made.properties(), props.slice(1));
  assert.equal(props.length, 13);
  assert.equal(props[12].values.length, 361);
  assert.equal(props[12].values[360], 'ss');
});

test('edits: set, setRaw, remove, addChild at an index, delete, promote, moveTo', () => {
  const c = parse('(;GM[1];B[aa](;W[bb])(;W[cc]))');
  const [, b] = c.games[0].mainLine();
  const [wb, wc] = b.children;
  wc.promote();
  assert.ok(b.next.equals(wc));
  wc.moveTo(1);
  assert.ok(b.next.equals(wb));
  const first = b.addChild(0).set('C', ['x']);
  assert.ok(b.next.equals(first));
  wb.delete();
  assert.throws(() => wb.set('C', 'gone'), /^QipuError: this node was deleted$/);
  b.setRaw('C', 'a\\]b');
  assert.equal(b.get('C'), 'a]b');
  assert.equal(b.remove('C'), true);
  assert.equal(b.remove('C'), false);
  assert.throws(() => b.set('c', 'x'), /expected a property identifier/);
  assert.throws(() => b.set('C', []), /at least one value/);
  assert.throws(() => b.addChild(9), /expected a child index from 0 to 2/);
  assert.equal(c.isEdited, true);
  assert.equal(text(c.toBytes()), '(;GM[1];B[aa](;C[x])(;W[cc]))');
});

test('play: an existing child is reused; illegal moves throw unless forced', () => {
  const c = parse('(;SZ[9];B[aa];W[ba])');
  const [root, b] = c.games[0].mainLine();
  assert.ok(root.play('B', 'aa').equals(b));
  const pass = b.play('W', '');
  assert.deepEqual(pass.move, { color: 'W', point: '' });
  const w = c.games[0].mainLine()[2];
  let err;
  try { w.play('W', 'aa'); } catch (e) { err = e; }
  assert.ok(err instanceof IllegalMoveError);
  assert.equal(err.reason, 'occupied');
  const forced = w.play('W', 'aa', { force: true });
  assert.deepEqual(forced.move, { color: 'W', point: 'aa' });
  assert.throws(() => w.play('X', 'aa'), /expected a colour/);
  assert.throws(() => w.play('B', 'zz'), /9x9 board/);
});

test('positions: after a node, at a move, and out of range', () => {
  const g = parse('(;SZ[5]AB[aa];B[bb];W[];B[cc])').games[0];
  const p0 = g.positionAt(0);
  assert.equal(p0.cols, 5);
  assert.equal(p0.board.length, 25);
  assert.equal(p0.board[0], 1);
  assert.equal(p0.lastMove, null);
  const p2 = g.positionAt(2);
  assert.deepEqual(p2.lastMove, { color: 'W', point: '' });
  assert.equal(p2.moveNumber, 2);
  assert.ok(p2.node.equals(g.mainLine()[2]));
  assert.throws(() => g.positionAt(4), /from 0 to 3/);
  const b = g.boards();
  assert.equal(b.count, 4);
  assert.deepEqual([...b.data.subarray(3 * 25, 4 * 25)], [...g.mainLine()[3].position().board]);
});

test('a new collection is built from scratch and written canonically', () => {
  const c = newCollection();
  const root = c.games[0].root.set('SZ', '9').set('PB', 'Kim');
  root.play('B', 'ee').play('W', 'cc');
  assert.equal(c.toSgf(), '(;FF[4]\nCA[UTF-8]\nSZ[9]\nPB[Kim]\n;B[ee]\n;W[cc])\n');
  assert.equal(c.games[0].info.black, 'Kim');
});

test('toSgf point lists, and refusals', () => {
  const c = parse('(;AB[aa][ab][ba][bb])');
  assert.match(c.toSgf({ pointLists: 'compressed' }), /AB\[aa:bb\]/);
  assert.throws(() => c.toSgf({ pointLists: 'zip' }), /pointLists must be/);
  assert.throws(() => parse('no game').toSgf(), /game tree/i);
});

test('svg options', () => {
  const n = parse('(;SZ[9];B[ee])').games[0].mainLine()[1];
  const light = n.svg();
  const dark = n.svg({ theme: 'dark', coordinates: false, status: false });
  assert.notEqual(light, dark);
  assert.ok(light.includes('qipu-') && !light.includes('z-'));
  assert.ok(n.svg({ idPrefix: 'z-' }).includes('z-'));
  assert.throws(() => n.svg({ theme: 'pink' }), /theme must be/);
});

test('free() releases the collection', () => {
  const c = parse('(;)');
  c.free();
  assert.throws(() => c.gameCount);
});
