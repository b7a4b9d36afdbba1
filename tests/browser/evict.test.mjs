// `qipu view` with no memory budget at all: every record not in use is put
// aside as soon as another opens. The page must not notice (the server
// reads its record back, unsaved changes and all), and when its record is
// really gone (closed) it reads the file again or says so: never an error
// the user cannot get out of. Run by tests/browser/run.sh.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, copyFileSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo, startViewer, launchBrowser, openViewer, stop, apiCall } from "./support.mjs";

let dir, viewer, url, browser, page;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-evict-"));
  copyFileSync(join(repo, "examples", "qipu-example.sgf"), join(dir, "a.sgf"));
  copyFileSync(join(repo, "examples", "qipu-example.sgf"), join(dir, "b.sgf"));
  viewer = await startViewer(["--memory-budget", "0", dir], { quiet: true });
  url = viewer.url;
  browser = await launchBrowser();
  page = await openViewer(browser, url);
});

after(() => stop({ browser, server: viewer && viewer.server }));

// The API as another tab (or script) uses it: same token, its own records.
const api = (path, body) => apiCall(url, path, body);

const status = () => page.textContent("#status");
const shown = (text) => page.waitForFunction((t) => document.querySelector("#status").textContent.startsWith(t), text);

test("a record put aside comes back with its unsaved changes, and saves", async () => {
  assert.match(await page.textContent("#title"), /a\.sgf/);
  await page.click("#boardwrap", { position: { x: 5, y: 5 } });
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await shown("Move 3");
  await page.fill("#comment", "written before it was put aside");
  await page.click("#savecomment");
  await page.waitForFunction(() => document.title.startsWith("•"));
  const id = await page.evaluate(() => window.qipuPage.state().session);
  // Another tab opens a record: with no budget, the page's goes aside.
  const other = await api("/api/open", { path: "b.sgf" });
  assert.notEqual(other.session, id);
  const m = await api("/api/memory");
  assert.equal(m.parked_unsaved, 1, JSON.stringify(m));
  assert.ok(readdirSync(m.recovery_dir).some((f) => f.startsWith(`${id}-`)));
  // The page goes on as if nothing happened, and is told.
  await page.click("#boardwrap", { position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await shown("Move 4");
  assert.match(await page.textContent("#message"), /put aside to free memory.*unsaved changes/);
  assert.equal(await page.evaluate(() => window.qipuPage.state().session), id);
  assert.ok((await page.title()).startsWith("•"), "still unsaved");
  await page.keyboard.press("ArrowLeft");
  await shown("Move 3");
  assert.equal(await page.inputValue("#comment"), "written before it was put aside");
  // Saved as usual; the file holds the comment.
  await page.click("#save");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Saved"));
  assert.match(readFileSync(join(dir, "a.sgf"), "utf8"), /C\[written before it was put aside\]/);
  assert.ok(!(await page.title()).startsWith("•"));
  assert.ok(!/kept in memory over the budget/.test(viewer.stderr()), viewer.stderr());
});

test("a record closed behind the page's back is read again from its file", async () => {
  const id = await page.evaluate(() => window.qipuPage.state().session);
  await api("/api/close", { session: id });
  await page.click("#boardwrap", { position: { x: 5, y: 5 } });
  await page.keyboard.press("End");
  await page.waitForFunction(() => /no longer open in the viewer: it was read again/.test(document.querySelector("#message").textContent));
  assert.match(await page.textContent("#title"), /a\.sgf/);
  // Usable again: the keys move on the record read again.
  await page.keyboard.press("End");
  await shown("Move 28");
  assert.notEqual(await page.evaluate(() => window.qipuPage.state().session), id);
  assert.match(await status(), /Move 28/);
});

test("a pasted record closed behind the page's back: the page says so", async () => {
  await page.click("#open");
  await page.fill("#pastetext", "(;GM[1]SZ[9]PB[Pasted];B[ee];W[cc])");
  await page.click("#pasteopen");
  await page.waitForFunction(() => document.querySelector("#title").textContent.includes("pasted.sgf"));
  // Put aside (no file: its text is kept) and brought back.
  await api("/api/open", { path: "b.sgf" });
  await page.click("#boardwrap", { position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await shown("Move 1");
  // Closed: nothing to read again, and the page says what to do.
  const id = await page.evaluate(() => window.qipuPage.state().session);
  await api("/api/close", { session: id });
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => /no longer open in the viewer: open it again/.test(document.querySelector("#message").textContent));
  // Another file opens from the list as usual.
  await page.click("#filelist li:text-is('b.sgf')");
  await page.waitForFunction(() => document.querySelector("#title").textContent.includes("b.sgf"));
});
