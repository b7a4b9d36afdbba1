// The viewer's database search panel (search.js) in headless Chromium:
// `qipu db index` on our fixtures, then `qipu view --db`, a position and a
// region searched, continuations drawn on the board, a hit opened.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, copyFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo, qipu, shots, startViewer, launchBrowser, openViewer, stop, clickPoint as clickAt } from "./support.mjs";

let dir, server, browser, page;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-search-"));
  const games = join(dir, "games");
  mkdirSync(games);
  for (const f of ["variations.sgf", "dup-a.sgf", "dup-b.sgf"]) {
    copyFileSync(join(repo, "testdata", "db", f), join(games, f));
  }
  const db = join(dir, "games.qdb");
  execFileSync(qipu, ["db", "index", "-q", db, games]);
  mkdirSync(shots, { recursive: true });
  let url;
  ({ server, url } = await startViewer(["--db", db, join(games, "dup-a.sgf")]));
  browser = await launchBrowser();
  page = await openViewer(browser, url, { width: 1280, height: 900 });
  await page.evaluate(() => (document.querySelector("#searchpanel").open = true));
  await page.waitForFunction(() => /7 games/.test(document.querySelector("#dbinfo").textContent));
});

after(() => stop({ browser, server }));

const clickPoint = (pt) => clickAt(page, pt);

test("the position after move 30 is found in both games, continuations on the board", async () => {
  await page.fill("#jump", "30");
  await page.press("#jump", "Enter");
  await page.waitForFunction(() => /^Move 30\b/.test(document.querySelector("#status").textContent));
  await page.click("#dbposition");
  await page.waitForFunction(() => /hits? in/.test(document.querySelector("#dbsummary").textContent));
  assert.match(await page.textContent("#dbsummary"), /^2 hits in 2 games/);
  const hits = await page.$$eval("#dbhits li", (l) => l.map((x) => x.textContent));
  assert.equal(hits.length, 2);
  assert.ok(hits.some((h) => h.startsWith("Ivan – Judy")) && hits.some((h) => h.startsWith("ivan2 – judy2")));
  // Move 31 of both games is the same point in this orientation: count 2.
  const conts = await page.$$eval("#dbconts li", (l) => l.map((x) => x.textContent));
  assert.equal(conts.length, 1);
  assert.match(conts[0], /^A B \w\w — 2×/);
  const onBoard = await page.$$eval("#board svg .dbcont", (l) => l.map((x) => x.dataset.pt));
  assert.equal(onBoard.length, 1);
  assert.equal(conts[0].split(" ")[2], onBoard[0]);
  await page.screenshot({ path: join(shots, "search-position.png") });
});

test("a region marked on the board is searched anywhere", async () => {
  await page.click("#dbmark");
  await clickPoint("ac");
  await clickPoint("cd");
  assert.equal(await page.$$eval("#board svg .dbregion", (l) => l.length), 1);
  await page.check("#dbanywhere");
  await page.click("#dbregion");
  await page.waitForFunction(() => /hits? in/.test(document.querySelector("#dbsummary").textContent) &&
    !/^2 hits in 2 games/.test(document.querySelector("#dbsummary").textContent));
  const m = (await page.textContent("#dbsummary")).match(/^(\d+) hits? in (\d+) games?/);
  assert.ok(m, await page.textContent("#dbsummary"));
  assert.ok(+m[2] >= 2, "both duplicates at least");
  await page.screenshot({ path: join(shots, "search-region.png") });
});

test("a click on a hit opens its game at the matching move", async () => {
  await page.uncheck("#dbanywhere");
  await page.click("#dbclear");
  await page.click("#dbposition");
  await page.waitForFunction(() => /^\d+ hits? in/.test(document.querySelector("#dbsummary").textContent));
  const other = page.locator("#dbhits li", { hasText: "ivan2" });
  await other.click();
  await page.waitForFunction(() => /dup-b\.sgf/.test(document.querySelector("#title").textContent));
  assert.match(await page.textContent("#status"), /^Move 30\b/);
});
