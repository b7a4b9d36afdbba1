// The package's types under strict TypeScript (run by types.test.mjs,
// never executed): what the API takes and gives, and the calls it
// refuses, each marked as an expected error (tsc fails if one compiles).
import { Collection, Game, IllegalMoveError, Node, QipuError, isLoaded, load, newCollection, parse } from '../qipu.js';
import type { Change, CheckReport, Diagnostic, GameInfo, Point, Position, Property } from '../qipu.js';

export async function uses(): Promise<void> {
  await load();
  const loaded: boolean = isLoaded();
  const c: Collection = parse('(;SZ[9];B[ee])', { name: 'x.sgf', format: 'auto' });
  parse(new Uint8Array([40, 59, 41]), { charset: 'GB18030' });
  parse(new ArrayBuffer(0));
  const g: Game = c.games[0];
  const same: Game = c.game(0);
  const n: Node = g.mainLine()[1];
  const root: Node = g.root;
  const parent: Node | null = n.parent;
  const byNumber: Node | null = g.nodeByNumber(1);
  const ids: Uint32Array = g.nodeIds();
  const p: Position = g.positionAt(0);
  const after: Position = n.position();
  const props: Property[] = n.properties();
  const text: string | undefined = n.get('C');
  const info: GameInfo = g.info;
  // The points info.moves gives play back.
  for (const m of info.moves) n.play(m.color, m.point);
  const points: Point[] = ['pd', [3, 3], null, ''];
  for (const point of points) n.play('B', point, { force: true });
  n.set('KM', 6.5).set('C', ['a', 'b']).setRaw('C', 'x\\]');
  n.addChild(0).moveTo(0);
  const changes: Change[] = c.fix({ variationLevel: true });
  const report: CheckReport = c.check({ path: 'x.sgf' });
  const diagnostics: Diagnostic[] = c.diagnostics;
  const svg: string = n.svg({ moveNumbers: 'all', theme: 'dark', idPrefix: 'a-' });
  const bytes: Uint8Array = c.toBytes();
  const sgf: string = c.toSgf({ pointLists: 'compressed' });
  try {
    newCollection().games[0].root.delete();
  } catch (e) {
    if (e instanceof IllegalMoveError) {
      const reason: 'occupied' | 'suicide' | 'ko' = e.reason;
      const also: QipuError = e;
      void [reason, also];
    } else if (e instanceof QipuError) {
      const message: string = e.message;
      void message;
    }
  }
  const err: Error = new QipuError('x', { cause: 1 });
  void [loaded, same, root, parent, byNumber, ids, p, after, props, text, changes, report, diagnostics, svg, bytes, sgf, err];
  c.free();

  // @ts-expect-error: a point is letters, [x, y] or null
  n.play('B', 3);
  // @ts-expect-error: a colour is 'B' or 'W'
  n.play('X', 'pd');
  // @ts-expect-error: [x, y] is two numbers
  n.play('B', [3]);
  // @ts-expect-error: a move number is a number
  g.positionAt('1');
  // @ts-expect-error: an option of another name
  parse('(;)', { charSet: 'GBK' });
  // @ts-expect-error: a theme is light or dark
  n.svg({ theme: 'pink' });
  // @ts-expect-error: handles are taken, not made
  new Node(c, 0);
  // @ts-expect-error: collections are parsed, not made
  new Collection();
  // @ts-expect-error: a value is text or numbers
  n.set('C', { a: 1 });
}
