// The viewer's database search panel (search.js) in headless Chromium:
// `qipu db index` on our fixtures, then `qipu view --db`, a position and a
// region searched, continuations drawn on the board, a hit opened.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, copyFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const qipu = process.env.QIPU_BIN || join(repo, "target", "debug", "qipu");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = process.env.QIPU_SCREENSHOTS || join(tmpdir(), "qipu-screenshots");

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
  server = spawn(qipu, ["view", "--no-open", "--port", "0", "--db", db, join(games, "dup-a.sgf")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+/);
      if (m) resolve(m[0]);
    });
    server.on("exit", (c) => reject(new Error("qipu view exited " + c)));
    setTimeout(() => reject(new Error("qipu view printed no URL")), 20000);
  });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.goto(url);
  await page.waitForSelector("#board svg");
  await page.evaluate(() => (document.querySelector("#searchpanel").open = true));
  await page.waitForFunction(() => /7 games/.test(document.querySelector("#dbinfo").textContent));
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

async function clickPoint(pt) {
  const xy = await page.evaluate((pt) => {
    const svg = document.querySelector("#board svg");
    const d = svg.dataset;
    const c = (ch) => ch.charCodeAt(0) - 97;
    const x = +d.originX + (c(pt[0]) - +d.x0) * +d.cell;
    const y = +d.originY + (c(pt[1]) - +d.y0) * +d.cell;
    const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, pt);
  await page.mouse.click(xy[0], xy[1]);
}

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
