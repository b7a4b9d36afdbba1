// What the package's tests share: where the repository and the sample
// corpus are, the `qipu` command to compare with, and the repository's one
// rule for a test that lacks something (testsupport/require.rs): skip with
// a message, or fail under QIPU_REQUIRE_ALL=1 (CI).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const npmDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repo = resolve(npmDir, '..');

/** Whether every test must run (`QIPU_REQUIRE_ALL=1`). */
export const requireAll = process.env.QIPU_REQUIRE_ALL === '1';

/**
 * `what` is missing: fails under QIPU_REQUIRE_ALL=1, else skips test `t`
 * with the message. Returns true (the caller returns).
 */
export function missing(t, what) {
  if (requireAll) throw new Error(`${what}; QIPU_REQUIRE_ALL=1 requires it`);
  console.log(`SKIPPED: ${what}`);
  t.skip(what);
  return true;
}

/** The sample corpus: QIPU_CORPUS, else ../shared/corpus beside the repository. */
export function corpusDir() {
  return process.env.QIPU_CORPUS ?? resolve(repo, '..', 'shared', 'corpus');
}

/** The corpus folder `sub`, or null (after `missing`) when it is absent. */
export function corpus(t, sub) {
  const d = join(corpusDir(), sub);
  if (!existsSync(d)) {
    missing(t, `the sample corpus is not at ${d} (set QIPU_CORPUS to run this test)`);
    return null;
  }
  return d;
}

/** Every file under `dir`, sorted. */
export function filesUnder(dir) {
  const out = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

let qipuBin;
/**
 * The `qipu` command: QIPU_BIN, else the workspace's debug build (built
 * here if needed: `cargo build --bin qipu`, as the browser tests do).
 */
export function qipu() {
  if (qipuBin === undefined) {
    qipuBin = process.env.QIPU_BIN;
    if (!qipuBin) {
      execFileSync('cargo', ['build', '--quiet', '--bin', 'qipu'], { cwd: repo, stdio: 'inherit' });
      qipuBin = join(repo, 'target', 'debug', 'qipu');
    }
  }
  return qipuBin;
}

/** Runs `qipu args…`: `{status, stdout}` (stdout as text). */
export function runQipu(args) {
  try {
    const stdout = execFileSync(qipu(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
    return { status: 0, stdout };
  } catch (e) {
    if (typeof e.status !== 'number') throw e;
    return { status: e.status, stdout: e.stdout ?? '' };
  }
}
