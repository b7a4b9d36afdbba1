// Every ```js example of README.md runs, as a module importing the package.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

import { npmDir } from './support.mjs';

const readme = readFileSync(join(npmDir, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
const entry = pathToFileURL(join(npmDir, 'qipu.js')).href;

test('README.md has examples', () => {
  assert.ok(blocks.length >= 5, `${blocks.length} examples`);
});

const tmp = mkdtempSync(join(npmDir, 'test', '.readme-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
blocks.forEach((code, i) => {
  const title = code.split('\n').find((l) => l.startsWith('//')) ?? `example ${i + 1}`;
  test(`README example ${i + 1} runs: ${title.replace(/^\/\/\s*/, '')}`, async () => {
    const file = join(tmp, `example-${i + 1}.mjs`);
    writeFileSync(file, code.replaceAll("from 'qipu-sgf'", `from '${entry}'`));
    await import(pathToFileURL(file).href);
  });
});
