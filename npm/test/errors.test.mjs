// The package's errors: every one a QipuError that names the call and the
// argument; handles of deleted nodes, of collections freed and of a
// collection fix() rewrote refused; and no message of WebAssembly's own
// (wasm-bindgen's "null pointer passed to rust", a number where text was
// expected, an index wrapped to 4294967295, a trap) ever reaching a user.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as qipu from '../qipu.js';

const { Collection, Game, IllegalMoveError, Node, QipuError, parse } = qipu;

/** Words that only WebAssembly's glue or a trap would say. */
const INTERNAL = /null pointer|charCodeAt|4294967295|unreachable|undefined is not|is not a function|Cannot read|RuntimeError/;

/** The error `f` throws (it must throw). */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail(`did not throw: ${f}`);
}

/** `f` throws a QipuError whose text matches `re` and says nothing internal. */
function refuses(f, re) {
  const e = thrown(f);
  assert.ok(e instanceof QipuError, `${f}: ${e?.stack ?? e}`);
  assert.match(String(e), re);
  assert.doesNotMatch(String(e), INTERNAL);
  return e;
}

test('the package exports QipuError, and IllegalMoveError is one', () => {
  assert.deepEqual(Object.keys(qipu).sort(),
    ['Collection', 'Game', 'IllegalMoveError', 'Node', 'QipuError', 'isLoaded', 'load', 'newCollection', 'parse']);
  const e = new QipuError('x');
  assert.ok(e instanceof Error);
  assert.equal(String(e), 'QipuError: x');
  const c = parse('(;SZ[9];B[aa])');
  const err = refuses(() => c.games[0].root.play('B', 'aa').play('W', 'aa'), /^IllegalMoveError: /);
  assert.ok(err instanceof IllegalMoveError && err instanceof QipuError);
  assert.equal(err.reason, 'occupied');
});

test('the examples of the report: a node deleted, a collection freed, play with an array, positionAt(-1)', () => {
  const c = parse('(;SZ[19];B[pd];W[dp])');
  const [, b] = c.games[0].mainLine();
  const w = b.next;
  b.delete();
  refuses(() => b.get('B'), /^QipuError: this node was deleted$/);
  // Below the node deleted too.
  refuses(() => w.move, /^QipuError: this node was deleted$/);
  const d = parse('(;SZ[19])');
  const root = d.games[0].root;
  // [x, y] from 0 from the top left: pd is [15, 3].
  const pd = root.play('B', [15, 3]);
  assert.deepEqual(pd.move, { color: 'B', point: 'pd' });
  assert.ok(root.play('B', 'pd').equals(pd), 'the same move, as letters');
  refuses(() => root.play('B', [19, 3]), /^QipuError: play\(\): expected a point of the 19x19 board, \[x, y\] from \[0, 0\] to \[18, 18\], got \[19, 3\]$/);
  refuses(() => root.play('B', [3]), /^QipuError: play\(\): point must be SGF letters such as "pd", \[x, y\]/);
  refuses(() => root.play('B', 3), /play\(\): point must be .*; got number 3$/);
  refuses(() => d.games[0].positionAt(-1), /^QipuError: positionAt\(\): n must be a whole number 0 or more .*; got number -1$/);
  d.free();
  refuses(() => d.gameCount, /^QipuError: this collection was freed$/);
  refuses(() => root.get('SZ'), /^QipuError: this node's collection was freed$/);
});

test('a pass is "" or null, and info.moves points play back', () => {
  const c = parse('(;SZ[9];B[ee];W[];B[cc])');
  const info = c.games[0].info;
  const d = parse('(;SZ[9])');
  let n = d.games[0].root;
  for (const m of info.moves) n = n.play(m.color, m.point);
  assert.deepEqual(d.games[0].mainLine().slice(1).map((x) => x.move),
    [{ color: 'B', point: 'ee' }, { color: 'W', point: '' }, { color: 'B', point: 'cc' }]);
});

/** Values of every type, none of them a good index. */
const JUNK = [undefined, null, true, 0.5, -1, 2 ** 32, NaN, Infinity, '', 'x', Symbol('s'), 10n, {}, [], [1, 2, 3], () => 0, new Map()];

const isText = (v) => typeof v === 'string';
const isOptions = (v) => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v));
const orUndefined = (ok) => (v) => v === undefined || ok(v);
const isBool = (v) => typeof v === 'boolean';
const never = () => false;

/**
 * Every method that takes arguments, each argument with what it accepts
 * (by type: a value of an accepted type may still be refused, by the
 * library) and the call with `v` in its place.
 */
function cases() {
  const bytes = new TextEncoder().encode('(;)');
  const fresh = () => parse('(;SZ[9]C[x];B[ee](;W[cc])(;W[gg]))');
  const node = () => fresh().games[0].mainLine()[1];
  const game = () => fresh().games[0];
  // The options object, then each option.
  const opts = (call, keys, f) => [
    { call, name: 'options', ok: isOptions, f },
    ...keys.map(([k, ok]) => ({ call, name: k, ok: orUndefined(ok), f: (v) => f({ [k]: v }) })),
  ];
  return {
    'parse': [
      { call: 'parse()', name: 'data', ok: (v) => isText(v) || v instanceof Uint8Array || v instanceof ArrayBuffer, f: (v) => parse(v) },
      ...opts('parse()', [['charset', isText], ['format', isText], ['name', isText]], (o) => parse(bytes, o)),
    ],
    'Collection.game': [{ call: 'game()', name: 'index', ok: never, f: (v) => fresh().game(v) }],
    'Collection.check': opts('check()', [['path', isText]], (o) => fresh().check(o)),
    'Collection.fix': opts('fix()', [['variationLevel', isBool]], (o) => fresh().fix(o)),
    'Collection.toSgf': opts('toSgf()', [['pointLists', isText]], (o) => fresh().toSgf(o)),
    'Game.nodeByNumber': [{ call: 'nodeByNumber()', name: 'k', ok: never, f: (v) => game().nodeByNumber(v) }],
    'Game.positionAt': [{ call: 'positionAt()', name: 'n', ok: never, f: (v) => game().positionAt(v) }],
    'Node.has': [{ call: 'has()', name: 'ident', ok: isText, f: (v) => node().has(v) }],
    'Node.get': [{ call: 'get()', name: 'ident', ok: isText, f: (v) => node().get(v) }],
    'Node.values': [{ call: 'values()', name: 'ident', ok: isText, f: (v) => node().values(v) }],
    'Node.raw': [{ call: 'raw()', name: 'ident', ok: isText, f: (v) => node().raw(v) }],
    'Node.remove': [{ call: 'remove()', name: 'ident', ok: isText, f: (v) => node().remove(v) }],
    'Node.set': [
      { call: 'set()', name: 'ident', ok: isText, f: (v) => node().set(v, 'x') },
      {
        call: 'set()', name: 'value',
        ok: (v) => isText(v) || Number.isFinite(v) || (Array.isArray(v) && v.every((x) => isText(x) || Number.isFinite(x))),
        f: (v) => node().set('C', v),
      },
    ],
    'Node.setRaw': [
      { call: 'setRaw()', name: 'ident', ok: isText, f: (v) => node().setRaw(v, 'x') },
      { call: 'setRaw()', name: 'raws', ok: (v) => isText(v) || (Array.isArray(v) && v.every(isText)), f: (v) => node().setRaw('C', v) },
    ],
    'Node.addChild': [{ call: 'addChild()', name: 'index', ok: (v) => v === undefined, f: (v) => node().addChild(v) }],
    'Node.moveTo': [{ call: 'moveTo()', name: 'index', ok: never, f: (v) => node().next.moveTo(v) }],
    'Node.play': [
      { call: 'play()', name: 'color', ok: isText, f: (v) => node().play(v, 'aa') },
      { call: 'play()', name: 'point', ok: (v) => v === null || isText(v), f: (v) => node().play('W', v) },
      ...opts('play()', [['force', isBool]], (o) => node().play('W', 'aa', o)),
    ],
    'Node.svg': opts('svg()', [
      ['coordinates', isBool], ['moveNumbers', never], ['theme', isText], ['status', isBool], ['idPrefix', isText],
    ], (o) => node().svg(o)),
  };
}

/** Methods that take no argument (extra ones are ignored), or any value (`equals`). */
const NO_ARGUMENTS = new Set([
  'Collection.toBytes', 'Collection.free', 'Game.nodes', 'Game.nodeIds', 'Game.mainLine', 'Game.boards',
  'Node.equals', 'Node.properties', 'Node.keys', 'Node.delete', 'Node.promote', 'Node.position',
]);

/** The public methods of the exported classes (not getters, not `_` ones). */
function publicMethods() {
  const out = [];
  for (const cls of [Collection, Game, Node]) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(cls.prototype))) {
      if (k !== 'constructor' && !k.startsWith('_') && typeof d.value === 'function') out.push(`${cls.name}.${k}`);
    }
  }
  return out;
}

test('every method that takes arguments is walked below', () => {
  const walked = new Set(Object.keys(cases()));
  for (const m of publicMethods()) assert.ok(walked.has(m) || NO_ARGUMENTS.has(m), `${m} is not walked`);
  for (const m of walked) if (m !== 'parse') assert.ok(publicMethods().includes(m), `${m} is no method`);
});

test('every argument of every method, of every wrong type: a QipuError that names the call and the argument', () => {
  let refused = 0;
  for (const [method, args] of Object.entries(cases())) {
    for (const a of args) {
      for (const v of JUNK) {
        let e;
        try {
          a.f(v);
        } catch (err) {
          e = err;
        }
        const what = `${method} with ${a.name} = ${typeof v === 'symbol' ? 'a symbol' : typeof v === 'bigint' ? `${v}n` : JSON.stringify(v) ?? String(v)}`;
        if (e !== undefined) {
          assert.ok(e instanceof QipuError, `${what}: ${e?.stack ?? e}`);
          assert.doesNotMatch(e.message, INTERNAL, what);
        }
        if (!a.ok(v)) {
          assert.ok(e !== undefined, `${what}: not refused`);
          assert.ok(e.message.startsWith(`${a.call}: `), `${what}: ${e.message}`);
          assert.ok(e.message.includes(a.name), `${what}: ${e.message}`);
          refused++;
        }
      }
    }
  }
  assert.ok(refused > 300, `${refused}`);
});

test('handles are not made from numbers', () => {
  const c = parse('(;)');
  refuses(() => new Node(c, 0), /^QipuError: a Node is taken from a game or a node/);
  refuses(() => new Game(c, 0), /^QipuError: a Game is taken from a collection/);
  refuses(() => new Collection(c.raw, null, null), /^QipuError: a Collection is made by parse\(\) or newCollection\(\)/);
});

/** Every getter and method of a node, a game and a collection, called well. */
const NODE_USES = {
  game: (n) => n.game, parent: (n) => n.parent, children: (n) => n.children, next: (n) => n.next,
  nextSibling: (n) => n.nextSibling, isRoot: (n) => n.isRoot, number: (n) => n.number, depth: (n) => n.depth,
  move: (n) => n.move, properties: (n) => n.properties(), keys: (n) => n.keys(), has: (n) => n.has('C'),
  get: (n) => n.get('C'), values: (n) => n.values('C'), raw: (n) => n.raw('C'), set: (n) => n.set('C', 'x'),
  setRaw: (n) => n.setRaw('C', 'x'), remove: (n) => n.remove('C'), addChild: (n) => n.addChild(),
  delete: (n) => n.delete(), promote: (n) => n.promote(), moveTo: (n) => n.moveTo(0),
  play: (n) => n.play('B', 'aa'), position: (n) => n.position(), svg: (n) => n.svg(),
};
const GAME_USES = {
  index: (g) => g.index, root: (g) => g.root, charset: (g) => g.charset, info: (g) => g.info,
  nodes: (g) => g.nodes(), nodeIds: (g) => g.nodeIds(), mainLine: (g) => g.mainLine(),
  nodeByNumber: (g) => g.nodeByNumber(0), moveCount: (g) => g.moveCount, positionAt: (g) => g.positionAt(0),
  boards: (g) => g.boards(),
};
const COLLECTION_USES = {
  raw: (c) => c.raw, gameCount: (c) => c.gameCount, games: (c) => c.games, game: (c) => c.game(0),
  format: (c) => c.format, name: (c) => c.name, isEdited: (c) => c.isEdited, diagnostics: (c) => c.diagnostics,
  check: (c) => c.check(), fix: (c) => c.fix(), toBytes: (c) => c.toBytes(), toSgf: (c) => c.toSgf(),
};

/** Every public member of `cls` (getters and methods) but those named. */
function members(cls, but) {
  return Object.keys(Object.getOwnPropertyDescriptors(cls.prototype))
    .filter((k) => k !== 'constructor' && !k.startsWith('_') && !but.includes(k));
}

test('the walks below use every member', () => {
  assert.deepEqual(members(Node, ['equals']).sort(), Object.keys(NODE_USES).sort());
  assert.deepEqual(members(Game, []).sort(), Object.keys(GAME_USES).sort());
  assert.deepEqual(members(Collection, ['free']).sort(), Object.keys(COLLECTION_USES).sort());
});

test('a deleted node and everything below it refuse every use; other handles are good', () => {
  for (const [name, use] of Object.entries(NODE_USES)) {
    const c = parse('(;SZ[9];B[ee];W[cc](;B[dd])(;B[gg]))');
    const [root, b, w] = c.games[0].mainLine();
    const below = w.children[1];
    w.delete();
    refuses(() => use(w), /^QipuError: this node was deleted$/);
    refuses(() => use(below), /^QipuError: this node was deleted$/);
    use(b); // the parent is still good
    assert.equal(root.number, 0, name);
  }
  // A game whose root is deleted: its handles, the game's too.
  for (const [name, use] of Object.entries(GAME_USES)) {
    const c = parse('(;C[one];B[ee])(;C[two])');
    const [one, two] = c.games;
    const b = one.mainLine()[1];
    one.root.delete();
    refuses(() => use(one), /^QipuError: this game was deleted$/);
    refuses(() => b.get('B'), /^QipuError: this node was deleted$/);
    use(two);
    assert.equal(two.index, 0, name);
  }
});

test('a freed collection and its handles refuse every use; free() again does nothing', () => {
  for (const [name, use] of Object.entries({ ...COLLECTION_USES })) {
    const c = parse('(;SZ[9];B[ee])');
    c.free();
    refuses(() => use(c), /^QipuError: this collection was freed$/);
    c.free();
    c[Symbol.dispose]();
    assert.ok(name);
  }
  const c = parse('(;SZ[9];B[ee])');
  const g = c.games[0];
  const n = g.mainLine()[1];
  c.free();
  for (const use of Object.values(NODE_USES)) refuses(() => use(n), /^QipuError: this node's collection was freed$/);
  for (const use of Object.values(GAME_USES)) refuses(() => use(g), /^QipuError: this game's collection was freed$/);
});

test('handles taken before fix() rewrote the collection are refused; after a fix that changed nothing they are good', () => {
  const c = parse('(;GM[1]FF[4]SZ[9]DT[2024/1/5];B[ee])');
  const g = c.games[0];
  const b = g.mainLine()[1];
  assert.ok(c.fix().length > 0);
  refuses(() => b.get('B'), /^QipuError: this node was replaced when fix\(\) rewrote its collection: take it again/);
  refuses(() => g.root, /^QipuError: this game was replaced when fix\(\) rewrote its collection/);
  const again = c.games[0].mainLine()[1];
  assert.equal(again.get('B'), 'ee');
  assert.ok(!again.equals(b));
  assert.deepEqual(c.fix(), []);
  assert.equal(again.get('B'), 'ee');
});

test('the library\'s refusals are QipuErrors named after the call', () => {
  const c = parse('(;SZ[9];B[ee](;W[cc])(;W[gg]))');
  const b = c.games[0].mainLine()[1];
  refuses(() => parse(new Uint8Array([40, 59, 41]), { charset: 'no-such' }), /^QipuError: parse\(\): unknown charset `no-such`$/);
  refuses(() => parse('(;)', { charSet: 'GBK' }), /^QipuError: parse\(\): unknown option `charSet` \(known: charset, format, name\)$/);
  refuses(() => c.game(3), /^QipuError: game\(\): no game 3: the collection has 1/);
  refuses(() => b.set('c', 'x'), /^QipuError: set\(\): expected a property identifier/);
  refuses(() => b.addChild(3), /^QipuError: addChild\(\): expected a child index from 0 to 2, got 3$/);
  refuses(() => b.next.moveTo(2), /^QipuError: moveTo\(\): expected a sibling index from 0 to 1, got 2$/);
  refuses(() => b.play('X', 'aa'), /^QipuError: play\(\): expected a colour/);
  refuses(() => b.svg({ theme: 'pink' }), /^QipuError: svg\(\): theme must be/);
  refuses(() => c.toSgf({ pointLists: 'zip' }), /^QipuError: toSgf\(\): pointLists must be/);
  refuses(() => b.svg({ moveNumbers: -1 }), /^QipuError: svg\(\): option moveNumbers must be "all" or a whole number 0 or more/);
  assert.equal(c.games[0].nodeByNumber(99), null);
});
