// qipu.d.ts, the package's types, under strict TypeScript: types.ts uses
// the API as a TypeScript user would, and the calls it refuses must stay
// refused. TypeScript is the package's one dev dependency (`npm ci`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { missing, npmDir } from './support.mjs';

test('qipu.d.ts under tsc --strict: what the API takes and gives, and the calls it refuses', (t) => {
  const tsc = join(npmDir, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) return missing(t, 'TypeScript is not installed (npm ci in npm/)');
  const args = [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--lib', 'es2022,esnext.disposable,dom', join('test', 'types.ts')];
  let out = '';
  try {
    execFileSync(process.execPath, args, { cwd: npmDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    out = `${e.stdout ?? ''}${e.stderr ?? ''}` || String(e);
  }
  assert.equal(out, '', 'tsc reports no error');
});
