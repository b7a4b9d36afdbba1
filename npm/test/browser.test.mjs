// The package in a browser: served by a plain static file server on
// loopback (no bundler), imported as an ES module by a page in headless
// Chromium (Debian's /usr/bin/chromium, or CHROMIUM), which fetches the
// core .wasm beside qipu.js, and the full one on `load()`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { test } from 'node:test';

import { missing, npmDir } from './support.mjs';

const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html; charset=utf-8' };

const page = `<!doctype html><meta charset="utf-8"><body>running<script type="module">
import { parse, load, isLoaded } from '/qipu.js';
try {
  const gb = new Uint8Array([0x28, 0x3b, 0x50, 0x42, 0x5b, 0xba, 0xda, 0x5d, 0x3b, 0x42, 0x5b, 0x70, 0x64, 0x5d, 0x29]);
  const c = parse(gb);
  const node = c.games[0].mainLine()[1];
  let before;
  try {
    node.set('C', 'edited');
    before = 'edited';
  } catch (e) {
    before = String(e);
  }
  const core = { loaded: isLoaded(), black: c.games[0].root.get('PB'), bytes: c.toBytes().length, before };
  await load();
  node.set('C', 'edited in the full module');
  const out = {
    core,
    games: c.gameCount,
    black: c.games[0].root.get('PB'),
    move: node.move,
    svg: node.svg().startsWith('<svg'),
    check: c.check().diagnostics.length >= 0,
    comment: c.games[0].mainLine()[1].get('C'),
    bytes: c.toBytes().length,
  };
  document.body.textContent = 'RESULT' + JSON.stringify(out) + 'END';
} catch (e) {
  document.body.textContent = 'RESULT' + JSON.stringify({ error: String(e) }) + 'END';
}
</script>`;

test('the package runs in a browser from a static server', async (t) => {
  if (!existsSync(chromium)) {
    missing(t, `Chromium is not at ${chromium} (apt-get install chromium, or set CHROMIUM)`);
    return;
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/page.html') {
      res.writeHead(200, { 'content-type': types['.html'] });
      res.end(page);
      return;
    }
    const file = join(npmDir, normalize(path));
    if (!file.startsWith(npmDir) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const url = `http://127.0.0.1:${server.address().port}/page.html`;
    const dom = await new Promise((ok, fail) => {
      execFile(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
        '--virtual-time-budget=20000', '--dump-dom', url], { timeout: 60000 }, (err, stdout) => (err ? fail(err) : ok(stdout)));
    });
    const m = /RESULT(.*)END/.exec(dom);
    assert.ok(m, `no result in the page: ${dom.slice(0, 500)}`);
    assert.deepEqual(JSON.parse(m[1]), {
      core: { loaded: false, black: '黑', bytes: 15, before: "QipuError: set() needs Qipu's full module: call `await load()` first" },
      games: 1, black: '黑', move: { color: 'B', point: 'pd' }, svg: true, check: true,
      comment: 'edited in the full module', bytes: 43,
    });
  } finally {
    server.close();
  }
});
