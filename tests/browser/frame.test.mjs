// Issue 28: the page's frame (menu bar, one-row toolbar, side panels
// shown or hidden, tabs on a phone) and the bugs a Go player found, each
// with its test, at 1400×900, 1024×768 and 390×844 where layout matters.
// What does not need the server (a served folder, its process) runs on
// the static viewer too (the describe at the end).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, copyFileSync, writeFileSync, mkdirSync, readFileSync, readdirSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  repo, qipu, shots, startViewer, launchBrowser, openViewer, stop, screenPoint, menu, openRecord, onStaticViewer,
  LANGUAGES, englishLeft,
} from "./support.mjs";

let dir, server, url, browser, page;

const LAYOUTS = [[1400, 900], [1024, 768], [390, 844]];

// A collection: players named like the words searched in comments.
const COLLECTION =
  "(;GM[1]FF[4]SZ[19]PB[Ladder King]PW[Gu Li]RE[B+R];B[pd];W[dd];B[pq])\n" +
  "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[AlphaGo]RE[W+R]EV[Future of Go];B[pd];W[dd]C[the machine];B[pq])\n" +
  "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]RE[B+2.5]DT[2020-11-03]EV[Samsung Cup];B[pd];W[dd];B[pq]C[a long ladder];W[dp])\n";

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-frame-"));
  copyFileSync(join(repo, "examples", "qipu-example.sgf"), join(dir, "example.sgf"));
  writeFileSync(join(dir, "games.sgf"), COLLECTION);
  writeFileSync(join(dir, "fox.sgf"), "(;GM[1]FF[4]SZ[19]RU[Chinese]KM[375]PB[黑棋]PW[白棋];B[pd](;W[dd])(;W[dp]))");
  writeFileSync(join(dir, "ended.sgf"), "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[];W[])");
  mkdirSync(shots, { recursive: true });
  ({ server, url } = await startViewer([dir]));
  browser = await launchBrowser();
  page = await openViewer(browser, url, { width: 1400, height: 900 });
});

after(() => stop({ browser, server }));

/**
 * Opens `name` of the folder in `p`: by path on the server, dropped on the
 * static viewer; waits for it.
 */
async function openInPage(p, name) {
  await openRecord(p, dir, name);
  await p.waitForFunction((n) => window.qipuPage.state() && window.qipuPage.state().name === n, name);
}

/** The scenarios run on the static viewer too (the describe at the end). */
const SHARED = [];
function shared(name, fn) {
  test(name, fn);
  SHARED.push([name, fn]);
}

const at = (p, text) => p.waitForFunction((t) => document.querySelector("#status").textContent.startsWith(t), text);

/** Boxes of the page's parts, by id. */
const boxes = (p, ids) => p.evaluate((ids) => Object.fromEntries(ids.map((id) => {
  const el = document.getElementById(id);
  const r = el.getBoundingClientRect();
  return [id, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, shown: !!el.offsetParent || el === document.body }];
})), ids);

shared("the frame at 1400×900, 1024×768 and 390×844: menus, one-row toolbar, the board as large as fits (screenshots)", async () => {
  for (const [w, h] of LAYOUTS) {
    const p = await openViewer(browser, url, { width: w, height: h });
    await openInPage(p, "example.sgf");
    await p.evaluate(() => document.querySelector("#board").focus());
    await p.keyboard.press("End");
    await at(p, "Move 28");
    const titles = await p.$$eval("#menus .menutitle", (b) => b.map((x) => x.textContent));
    assert.deepEqual(titles, ["File", "Edit", "Navigate", "Annotate", "Engine", "View", "Help"]);
    const m = await p.evaluate(() => {
      const shown = [...document.querySelectorAll("#toolbar > *, #toolbar .group > *")].filter((e) => e.offsetParent && !e.classList.contains("group"));
      const tops = new Set(shown.map((e) => Math.round(e.getBoundingClientRect().top / 8)));
      const svg = document.querySelector("#board svg").getBoundingClientRect();
      const main = document.querySelector("#boardwrap").getBoundingClientRect();
      return { rows: tops.size, toolbar: document.getElementById("toolbar").getBoundingClientRect().height,
        board: Math.min(svg.width, svg.height), boardBottom: svg.bottom, main, scroll: document.documentElement.scrollWidth };
    });
    assert.ok(m.scroll <= w, `${w}: the page is ${m.scroll} px wide`);
    if (w >= 1024) {
      assert.equal(m.rows, 1, `${w}: the toolbar is one row`);
      assert.ok(m.toolbar < 48, `${w}: the toolbar is ${m.toolbar} px high`);
      // The board takes its column, less the player bar and the status line.
      const room = Math.min(m.main.width - 20, m.main.height - 110);
      assert.ok(m.board >= room, `${w}: the board is ${m.board} px in ${m.main.width}×${m.main.height} px`);
    } else {
      assert.ok(m.board >= w - 20, `${w}: the board is ${m.board} px wide`);
    }
    assert.ok(m.boardBottom <= h, `${w}: the board ends at ${m.boardBottom}`);
    await p.screenshot({ path: join(shots, `frame-${w}x${h}.png`) });
    // A menu shows its actions with their shortcuts.
    await p.click("#menu-navigate");
    await p.waitForSelector("#m-next");
    const item = await p.textContent("#m-next");
    assert.match(item, /Next.*→/);
    const pop = await p.$eval("#m-next", (b) => b.closest(".menupop").getBoundingClientRect().right);
    assert.ok(pop <= w, `${w}: the menu ends at ${pop}`);
    await p.screenshot({ path: join(shots, `frame-${w}x${h}-menu.png`) });
    await p.click("#m-first");
    await at(p, "Move 0");
    assert.equal(await p.$$eval(".menupop:not([hidden])", (x) => x.length), 0, "the menu closes");
    await p.close();
  }
});

shared("every language at 1400×900, 1024×768 and 390×844: the menu bar and the toolbar one row each, every menu inside the window (screenshots)", async () => {
  // Every problem of every language, listed at the end.
  const bad = [];
  const check = (ok, what) => { if (!ok) bad.push(what); };
  for (const lang of LANGUAGES) {
    for (const [w, h] of LAYOUTS) {
      // The browser's language chooses the page's.
      const ctx = await browser.newContext({ locale: lang, viewport: { width: w, height: h } });
      const p = await ctx.newPage();
      p.on("pageerror", (e) => console.error("page error:", e));
      await p.goto(url);
      await p.waitForSelector("#board svg");
      await p.waitForFunction((l) => document.documentElement.lang === l, lang);
      await openInPage(p, "example.sgf");
      await p.evaluate(() => document.querySelector("#board").focus());
      await p.keyboard.press("End");
      await p.waitForFunction(() => window.qipuPage.state().node.move_number === 28);
      const m = await p.evaluate(() => {
        const shown = [...document.querySelectorAll("#toolbar > *, #toolbar .group > *")].filter((e) => e.offsetParent && !e.classList.contains("group"));
        const titles = [...document.querySelectorAll("#menus .menutitle")].map((t) => t.getBoundingClientRect());
        return {
          rows: new Set(shown.map((e) => Math.round(e.getBoundingClientRect().top / 8))).size,
          toolbar: document.getElementById("toolbar").getBoundingClientRect().height,
          titleRows: new Set(titles.map((r) => Math.round(r.top))).size,
          // (Titles longer than a phone is wide scroll in their bar.)
          bar: document.getElementById("menus").getBoundingClientRect().right,
          scroll: document.documentElement.scrollWidth,
        };
      });
      const at = `${lang} ${w}×${h}`;
      check(m.scroll <= w, `${at}: the page is ${m.scroll} px wide`);
      check(m.titleRows === 1, `${at}: the menu bar is one row`);
      check(m.bar <= w, `${at}: the menu bar ends at ${m.bar}`);
      if (w >= 1024) {
        check(m.rows === 1, `${at}: the toolbar is one row`);
        check(m.toolbar < 48, `${at}: the toolbar is ${m.toolbar} px high`);
      }
      await p.screenshot({ path: join(shots, `frame-${lang}-${w}x${h}.png`) });
      // Each menu: inside the window, its items not cut (they wrap).
      for (const id of await p.$$eval("#menus .menutitle", (b) => b.map((x) => x.id))) {
        await p.click(`#${id}`);
        await p.waitForSelector(`#${id}-items:not([hidden])`);
        const r = await p.$eval(`#${id}-items`, (pop) => {
          const b = pop.getBoundingClientRect();
          const cut = [...pop.querySelectorAll(".menuitem")].filter((i) => i.scrollWidth > i.clientWidth + 1).map((i) => i.textContent);
          return { left: b.left, right: b.right, bottom: b.bottom, wide: pop.scrollWidth - pop.clientWidth, cut };
        });
        check(r.left >= 0 && r.right <= w && r.bottom <= h, `${at}: ${id} at ${r.left}–${r.right}, down to ${r.bottom}`);
        check(r.wide <= 0, `${at}: ${id} scrolls sideways by ${r.wide} px`);
        check(r.cut.length === 0, `${at}: ${id} cuts ${r.cut.join(" | ")}`);
        if (id === "menu-navigate") await p.screenshot({ path: join(shots, `frame-${lang}-${w}x${h}-menu.png`) });
        await p.keyboard.press("Escape");
        await p.waitForSelector(`#${id}-items`, { state: "hidden" });
      }
      await ctx.close();
    }
  }
  assert.deepEqual(bad, []);
});

shared("on a phone the View menu changes the page's language (the select beside the menus is hidden there)", async () => {
  const p = await openViewer(browser, url, { width: 390, height: 844 });
  assert.equal(await p.isVisible("#lang"), false, "no select on a phone");
  await menu(p, "lang-de");
  await p.waitForFunction(() => document.documentElement.lang === "de");
  // The menus are made again in German; each language keeps its own name.
  assert.equal((await p.textContent("#m-lang-ru .label")).trim(), "Русский");
  assert.equal(await p.getAttribute("#m-lang-ru .label", "lang"), "ru");
  assert.equal(await p.getAttribute("#m-lang-de", "aria-checked"), "true");
  assert.equal(await p.getAttribute("#m-lang-en", "aria-checked"), "false");
  assert.deepEqual(await englishLeft(p, "#menus"), []);
  // Remembered across a reload, and back to English the same way.
  await p.reload();
  await p.waitForFunction(() => document.documentElement.lang === "de");
  await menu(p, "lang-en");
  await p.waitForFunction(() => document.documentElement.lang === "en");
  await p.close();
});

shared("bug 1: on a phone the board comes first at full width, panels are tabs of at least 120 px, the footer never covers the board", async () => {
  const p = await openViewer(browser, url, { width: 390, height: 844 });
  await openInPage(p, "games.sgf");
  const b = await boxes(p, ["board", "footer", "tabs", "comment", "menubar", "toolbar"]);
  assert.ok(b.board.top < 160, `the board starts at ${b.board.top}`);
  assert.ok(b.board.width >= 370, `the board is ${b.board.width} px wide`);
  assert.ok(b.board.bottom <= b.footer.top, `the footer (${b.footer.top}) is below the board (${b.board.bottom})`);
  assert.ok(b.comment.right <= 390 && b.comment.shown, "the comment is visible");
  const tabs = await p.$$eval("#tabs button", (x) => x.map((t) => t.dataset.tab));
  // The files of a folder: only where one is served.
  const folder = await p.evaluate(() => !window.QIPU_STATIC);
  assert.deepEqual(tabs, ["comment", "tree", "info", "engine", "search", ...(folder ? ["files"] : [])]);
  for (const tab of tabs) {
    await p.click(`#tab-${tab}`);
    const r = await p.evaluate((tab) => {
      const el = document.querySelector(`.tabpanel[data-panel="${tab}"]`);
      const box = el.getBoundingClientRect();
      const board = document.getElementById("board").getBoundingClientRect();
      const others = [...document.querySelectorAll(".tabpanel")].filter((x) => x !== el && x.offsetParent).length;
      return { height: box.height, top: box.top, right: box.right, board: board.bottom, others, scroll: document.documentElement.scrollWidth };
    }, tab);
    assert.ok(r.height >= 120, `${tab}: ${r.height} px high`);
    assert.ok(r.top >= r.board, `${tab} is below the board`);
    assert.equal(r.others, 0, `${tab}: only its panel`);
    assert.ok(r.scroll <= 390, `${tab}: the page is ${r.scroll} px wide`);
  }
  await p.click("#tab-comment");
  // Board row 6 stays the board's even with the panels scrolled: no footer over it.
  await p.evaluate(() => { document.querySelector("main").scrollTop = 1e6; window.scrollTo(0, 1e6); });
  const [x, y] = await screenPoint(p, "cn");
  const hit = await p.evaluate(([x, y]) => {
    const e = document.elementFromPoint(x, y);
    return e ? (e.closest("#board") ? "board" : e.closest("footer") ? "footer" : e.tagName) : null;
  }, [x, y]);
  assert.notEqual(hit, "footer");
  await p.evaluate(() => { document.querySelector("main").scrollTop = 0; });
  await p.screenshot({ path: join(shots, "phone-tabs.png") });
  // The game list: every column and the search button inside the window.
  await p.click("#games");
  await p.waitForSelector("#gamesdialog[open] tr.game");
  const g = await p.evaluate(() => ({
    ths: [...document.querySelectorAll("#gamestable th")].filter((t) => t.offsetParent).map((t) => [t.dataset.key, t.getBoundingClientRect().right]),
    search: document.getElementById("gamessearch").getBoundingClientRect().right,
    dialog: document.getElementById("gamesdialog").getBoundingClientRect().right,
  }));
  for (const [k, right] of g.ths) assert.ok(right <= 390, `column ${k} ends at ${right}`);
  assert.deepEqual(g.ths.map((t) => t[0]), ["game", "black", "white", "result", "date", "moves"]);
  assert.ok(g.search <= 390 && g.dialog <= 390, `search button ${g.search}, dialog ${g.dialog}`);
  await p.screenshot({ path: join(shots, "phone-games.png") });
  await p.keyboard.press("Escape");
  await p.close();
});

shared("bug 2: Enter in the move box goes there and gives the keys back to the board", async () => {
  await openInPage(page, "example.sgf");
  await page.fill("#jump", "12");
  await page.press("#jump", "Enter");
  await at(page, "Move 12");
  assert.equal(await page.evaluate(() => document.activeElement.id), "board");
  assert.equal(await page.inputValue("#jump"), "");
  await page.keyboard.press("ArrowRight");
  await at(page, "Move 13");
  // ↑ is a board key again (the variation above, if any), never "move 1".
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowLeft");
  await at(page, "Move 12");
  // Escape leaves the box too.
  await page.fill("#jump", "3");
  await page.press("#jump", "Escape");
  assert.equal(await page.evaluate(() => document.activeElement.id), "board");
  await page.keyboard.press("ArrowRight");
  await at(page, "Move 13");
});

shared("bug 3: a mid-game estimate never offers Set result; after two passes it does", async () => {
  await openInPage(page, "example.sgf");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
  await page.fill("#jump", "10");
  await page.press("#jump", "Enter");
  await at(page, "Move 10");
  await page.selectOption("#countfrom", "estimator");
  await page.click("#count");
  await page.waitForFunction(() => /Result:/.test(document.querySelector("#countresult").textContent));
  assert.ok(await page.isDisabled("#writeresult"), "Set result is not offered mid-game");
  assert.match(await page.textContent("#countresult"), /not over: this is an estimate/);
  await page.click("#countdone");
  await openInPage(page, "ended.sgf");
  await page.click("#last");
  await at(page, "Move 4");
  await page.click("#count");
  await page.waitForFunction(() => /Result:/.test(document.querySelector("#countresult").textContent));
  assert.ok(!(await page.isDisabled("#writeresult")), "after two passes the count is a result");
  await page.click("#countdone");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = false));
});

test("bug 4: the file list is read again (reload, ⟳) and a new game is not marked as the old file", async () => {
  await openInPage(page, "example.sgf");
  const files = () => page.$$eval("#filelist li", (l) => l.map((x) => x.textContent));
  assert.equal(await page.textContent("#filelist li.current"), "example.sgf");
  writeFileSync(join(dir, "copied.sgf"), "(;GM[1]FF[4]SZ[9];B[ee])");
  await page.reload();
  await page.waitForSelector("#board svg");
  await page.waitForFunction(() => [...document.querySelectorAll("#filelist li")].some((l) => l.textContent === "copied.sgf"));
  writeFileSync(join(dir, "later.sgf"), "(;GM[1]FF[4]SZ[9];B[cc])");
  await page.click("#refreshfiles");
  await page.waitForFunction(() => [...document.querySelectorAll("#filelist li")].some((l) => l.textContent === "later.sgf"));
  assert.ok((await files()).includes("later.sgf"));
  await openInPage(page, "example.sgf");
  assert.equal(await page.textContent("#filelist li.current"), "example.sgf");
  await menu(page, "new");
  await page.click("#ng-create");
  await page.waitForFunction(() => document.querySelector("#title").textContent.includes("new-game.sgf"));
  assert.equal(await page.$$eval("#filelist li.current", (l) => l.length), 0);
});

shared("bug 5: comment search finds comments only and opens the game at the comment", async () => {
  await openInPage(page, "games.sgf");
  await page.click("#games");
  await page.waitForSelector("#gamesdialog[open] tr.game");
  await page.fill("#gamesfilter", "ladder");
  // The filter finds the player; the comment search does not.
  assert.deepEqual(await page.$$eval("#gamestable tr.game td.num:first-child", (t) => t.map((x) => x.textContent)), ["1"]);
  await page.click("#gamessearch");
  await page.waitForFunction(() => document.querySelector("#gamescount").textContent.includes("hold"));
  assert.deepEqual(await page.$$eval("#gamestable tr.game td.num:first-child", (t) => t.map((x) => x.textContent)), ["3"]);
  await page.click("#gamestable tr.game");
  await page.waitForFunction(() => document.querySelector("#games").textContent.startsWith("Game 3 /"));
  await at(page, "Move 3");
  assert.equal(await page.inputValue("#comment"), "a long ladder");
});

shared("bug 6: Fox komi as the library reads it, the dark black stone, 黑/白 in Chinese, the icon", async () => {
  const failed = [];
  const p = await openViewer(browser, url, { width: 1400, height: 900 });
  p.on("response", (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  await p.reload();
  await p.waitForSelector("#board svg");
  await openInPage(p, "fox.sgf");
  assert.match(await p.textContent("#players .facts"), /^Komi 7\.5/);
  await p.evaluate(() => (document.querySelector("#infopanel").open = true));
  assert.equal(await p.inputValue("#info-KM"), "375", "the form keeps the text as written");
  // The favicon: served (with the token, as every file of the server),
  // and nothing the page asked for failed.
  const href = await p.getAttribute("link[rel=icon]", "href");
  const icon = await p.evaluate(async (href) => {
    const r = await fetch(href);
    return [r.status, r.headers.get("content-type")];
  }, href);
  assert.deepEqual(icon, [200, "image/x-icon"]);
  // Relative in the static viewer, which also opens from the disk (file://).
  const isStatic = await p.evaluate(() => !!window.QIPU_STATIC);
  assert.equal(href, isStatic ? "favicon.ico" : `/favicon.ico?t=${new URL(url).searchParams.get("t")}`);
  // Dark theme: the black stone of the player bar stands out of the bar.
  await p.selectOption("#theme", "dark");
  const contrast = await p.evaluate(() => {
    const lum = (c) => {
      const [r, g, b] = c.match(/\d+/g).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const stone = getComputedStyle(document.querySelector("#players .stone.B")).borderTopColor;
    const bg = getComputedStyle(document.body).backgroundColor;
    const [a, b] = [lum(stone), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
  assert.ok(contrast >= 3, `the black stone's ring has a contrast of ${contrast.toFixed(2)}`);
  await p.screenshot({ path: join(shots, "dark-players.png"), clip: { x: 0, y: 60, width: 1400, height: 80 } });
  await p.selectOption("#theme", "light");
  // Chinese: the variations say 黑/白, never B/W.
  await p.selectOption("#lang", "zh-Hans");
  await p.waitForFunction(() => document.querySelector("#open").textContent === "打开…");
  await p.click("#next");
  await p.waitForFunction(() => document.querySelectorAll("#variations .badge").length >= 2);
  const badges = await p.$$eval("#variations .badge", (b) => b.map((x) => x.textContent));
  // The badges: a variation letter, then the colour and the point.
  assert.ok(badges.every((t) => !/\b[BW] [A-T]\d/.test(t)), badges.join(" | "));
  assert.ok(badges.some((t) => t.includes("白 D16")), badges.join(" | "));
  await p.selectOption("#lang", "en");
  await p.waitForFunction(() => document.querySelector("#open").textContent === "Open…");
  assert.deepEqual(failed, []);
  if (!isStatic) {
    // Asked for without its token (the page never does): refused.
    const bare = await p.evaluate(async () => (await fetch("/favicon.ico")).status);
    assert.equal(bare, 403, "without the token the icon is refused");
  }
  await p.close();
});

shared("bug 7: the arrow keys as Qipu (default) or as Sabaki, remembered", async () => {
  await openInPage(page, "fox.sgf");
  await page.evaluate(() => document.querySelector("#board").focus());
  await page.keyboard.press("Home");
  await at(page, "Move 0");
  // The default: ←/→ move, ↑/↓ variations.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await at(page, "Move 2 (White D16)");
  await page.keyboard.press("ArrowDown");
  await at(page, "Move 2 (White D4)");
  // Sabaki's: ↑/↓ move, ←/→ variations.
  await menu(page, "keys-ud");
  assert.equal(await page.getAttribute("#next", "title"), "Next (↓)");
  await page.keyboard.press("ArrowUp");
  await at(page, "Move 1");
  await page.keyboard.press("ArrowDown");
  await at(page, "Move 2");
  await page.keyboard.press("ArrowLeft");
  await at(page, "Move 2 (White D16)");
  await page.keyboard.press("ArrowRight");
  await at(page, "Move 2 (White D4)");
  await page.reload();
  await page.waitForSelector("#board svg");
  assert.equal(await page.evaluate(() => localStorage.getItem("qipu.keys")), "ud");
  assert.equal(await page.getAttribute("#prevvar", "title"), "Previous variation (←)");
  await page.keyboard.press("?");
  assert.match(await page.textContent("#keysmoves"), /↑ ↓/);
  await page.keyboard.press("Escape");
  await menu(page, "keys-lr");
  assert.equal(await page.getAttribute("#next", "title"), "Next (→)");
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  assert.match(readme, /default[^.]*←\/→/i, "README.md says which layout is the default");
});

test("bug 8: qipu view without a path shows the example and serves no folder", async () => {
  const v = await startViewer([]);
  try {
    const p = await openViewer(browser, v.url, { width: 1024, height: 768 });
    assert.match(await p.textContent("#title"), /qipu-example\.sgf/);
    assert.ok(await p.isHidden("#files"));
    const [download] = await Promise.all([p.waitForEvent("download"), menu(p, "saveas")]);
    assert.equal(download.suggestedFilename(), "qipu-example.sgf");
    assert.match(readFileSync(await download.path(), "utf8"), /^\(;/);
    assert.match(await p.textContent("#message"), /No folder is served/);
    const r = await p.evaluate(async () => {
      const { api } = await import("/api.js");
      return api("/api/open", { path: "package.json" }).then(() => "opened", (e) => e.message);
    });
    assert.match(r, /no folder is served/);
    await p.close();
  } finally {
    v.server.kill();
  }
});

/** The processes whose parent is `pid`, with their states (Linux). */
function children(pid) {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (+rest[1] === pid) out.push({ pid: +d, state: rest[0] });
    } catch (e) { /* gone */ }
  }
  return out;
}

/** `qipu view` as a user starts it (it opens the browser), with `opener` as xdg-open. */
async function withOpener(script) {
  const bin = mkdtempSync(join(tmpdir(), "qipu-opener-"));
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  const proc = spawn(qipu, ["view", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` },
    cwd: bin,
  });
  let out = "";
  proc.stdout.on("data", (d) => { out += d; });
  await new Promise((resolve, reject) => {
    const t = setInterval(() => { if (out.includes("http://")) { clearInterval(t); resolve(); } }, 20);
    setTimeout(() => { clearInterval(t); reject(new Error("no URL")); }, 20000);
  });
  return { proc, output: () => out };
}

test("bug 9: the browser opener is waited for (no zombie), and a failure prints the URL", async () => {
  if (process.platform !== "linux") return;
  const ok = await withOpener("sleep 0.2; exit 0");
  try {
    await new Promise((r) => setTimeout(r, 1200));
    const kids = children(ok.proc.pid);
    assert.deepEqual(kids.filter((k) => k.state === "Z"), [], "no zombie opener");
    assert.ok(!ok.output().includes("No browser"), ok.output());
  } finally {
    ok.proc.kill();
  }
  const bad = await withOpener("exit 3");
  try {
    await new Promise((r) => setTimeout(r, 800));
    const out = bad.output();
    const url = out.match(/http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+/)[0];
    assert.match(out, /No browser could be opened/);
    assert.ok(out.includes(`\n    ${url}\n`), out);
    assert.deepEqual(children(bad.proc.pid).filter((k) => k.state === "Z"), []);
  } finally {
    bad.proc.kill();
  }
});

shared("panels shown and hidden from the View menu, remembered; the side column resized", async () => {
  await openInPage(page, "example.sgf");
  assert.ok(await page.isVisible("#treepanel"));
  await menu(page, "panel-tree");
  await page.waitForFunction(() => !document.querySelector("#treepanel").offsetParent);
  await page.reload();
  await page.waitForSelector("#board svg");
  assert.ok(await page.isHidden("#treepanel"), "still hidden after a reload");
  await page.click("#menu-view");
  assert.equal(await page.getAttribute("#m-panel-tree", "aria-checked"), "false");
  await page.click("#m-panel-tree");
  await page.waitForFunction(() => !!document.querySelector("#treepanel").offsetParent);
  // The splitter: dragged left, the side column widens and the board gives way.
  const sp = await page.locator("#splitter").boundingBox();
  const before = (await boxes(page, ["side"])).side.width;
  await page.mouse.move(sp.x + 2, sp.y + 200);
  await page.mouse.down();
  await page.mouse.move(sp.x - 100, sp.y + 200, { steps: 4 });
  await page.mouse.up();
  const after = (await boxes(page, ["side"])).side.width;
  assert.ok(after > before + 60, `the side column went from ${before} to ${after} px`);
  await page.evaluate(() => { localStorage.removeItem("qipu.sidewidth"); document.documentElement.style.removeProperty("--side-width"); });
});

shared("the Annotate menu sets good and bad moves and positions (TE BM DO IT GB GW DM UC HO)", async () => {
  await openInPage(page, "fox.sgf");
  await page.click("#next");
  await at(page, "Move 1");
  await menu(page, "TE");
  await page.waitForFunction(() => document.querySelector("#annotations").textContent.includes("Good move (tesuji)"));
  await menu(page, "BM");
  await page.waitForFunction(() => document.querySelector("#annotations").textContent === "Bad move");
  await menu(page, "GW");
  await page.waitForFunction(() => document.querySelector("#annotations").textContent.includes("Good for White"));
  await page.click("#menu-annotate");
  assert.equal(await page.getAttribute("#m-BM", "aria-checked"), "true");
  await page.click("#m-BM");
  await page.waitForFunction(() => document.querySelector("#annotations").textContent === "Good for White");
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#annotations").textContent.includes("Bad move"));
});

onStaticViewer("the static viewer", SHARED, {
  current: () => ({ page, url, browser }),
  swap: (to) => ({ page, url } = to),
  viewport: { width: 1400, height: 900 },
  setup: async (p) => p.on("dialog", (d) => d.accept()),
});
