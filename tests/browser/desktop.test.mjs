// Issue 28, the rest of the frame: side panels resized (dragged or with
// the keys, kept, with minimums), the menu bar from the keyboard as
// desktop menus are, exports that look as the board is shown (turned,
// mirrored, inverted), "Set result" greyed out with its reason for a
// mid-game estimate, every layout's screenshot, and no English left in
// a translated page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, copyFileSync, writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  repo, shots, startViewer, launchBrowser, openViewer, stop, menu, openRecord, onStaticViewer, englishLeft,
  LANGUAGES, chooseLanguage,
} from "./support.mjs";

let dir, server, url, browser, page;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-desktop-"));
  copyFileSync(join(repo, "examples", "qipu-example.sgf"), join(dir, "example.sgf"));
  writeFileSync(join(dir, "games.sgf"),
    "(;GM[1]FF[4]SZ[19]PB[Ke Jie]PW[AlphaGo]RE[W+R];B[pd];W[dd]C[the machine];B[pq])\n" +
    "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]PW[Ke Jie]RE[B+2.5];B[pd];W[dd];B[pq]C[a long ladder];W[dp])\n");
  mkdirSync(shots, { recursive: true });
  ({ server, url } = await startViewer([dir]));
  browser = await launchBrowser();
  page = await openViewer(browser, url, { width: 1400, height: 900 });
});

after(() => stop({ browser, server }));

/**
 * Opens `name` of the folder in `p`: by path on the server, dropped on the
 * static viewer (agreeing to replace unsaved work, as the page asks there).
 */
async function openInPage(p, name) {
  if (await p.evaluate(() => !!window.QIPU_STATIC && document.title.startsWith("•"))) p.once("dialog", (d) => d.accept());
  await openRecord(p, dir, name);
}

/** The scenarios run on the static viewer too (the describe at the end). */
const SHARED = [];
function shared(name, fn) {
  test(name, fn);
  SHARED.push([name, fn]);
}

const at = (p, text) => p.waitForFunction((t) => document.querySelector("#status").textContent.startsWith(t), text);
const height = (p, sel) => p.$eval(sel, (e) => e.getBoundingClientRect().height);
const width = (p, sel) => p.$eval(sel, (e) => e.getBoundingClientRect().width);
const focused = (p) => p.evaluate(() => document.activeElement && document.activeElement.id);

/** Drags the middle of `sel` by (dx, dy) with the mouse. */
async function drag(p, sel, dx, dy) {
  const b = await p.locator(sel).boundingBox();
  const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
  await p.mouse.move(x, y);
  await p.mouse.down();
  await p.mouse.move(x + dx, y + dy, { steps: 5 });
  await p.mouse.up();
}

shared("side panels: a grip under each sets its height (mouse or keys), the splitter the column's width; sizes kept, minimums held", async () => {
  await openInPage(page, "example.sgf");
  await page.evaluate(() => {
    for (const d of document.querySelectorAll("#side details")) d.open = true;
    document.querySelector("#board").focus();
  });
  // A grip under every side panel, a separator the keyboard reaches.
  const grips = await page.$$eval("#side .panelgrip", (g) => g.map((x) => [x.dataset.panel, x.getAttribute("role"),
    x.getAttribute("aria-orientation"), x.tabIndex, x.getAttribute("aria-label"), x.getAttribute("aria-valuemin")]));
  assert.deepEqual(grips.map((g) => g[0]), ["comment", "engine", "tree", "info", "search"]);
  for (const [name, role, orient, tab, label, min] of grips) {
    assert.deepEqual([role, orient, tab, min], ["separator", "horizontal", 0, "120"], name);
    assert.ok(label && label.startsWith("Height of the panel"), `${name}: ${label}`);
  }
  // Dragged, the comment panel grows with the pointer…
  const h0 = await height(page, "#commentpanel");
  await drag(page, "#grip-comment", 0, 100);
  const h1 = await height(page, "#commentpanel");
  assert.ok(Math.abs(h1 - (h0 + 100)) <= 2, `${h0} + 100 → ${h1}`);
  // …and no lower than its minimum.
  await drag(page, "#grip-comment", 0, -1000);
  assert.equal(await height(page, "#commentpanel"), 120);
  // The keys: ↓ and ↑ by 20 px (Shift: 80), and the board does not move.
  await page.focus("#grip-comment");
  for (const k of ["ArrowDown", "ArrowDown", "ArrowDown", "Shift+ArrowDown", "ArrowUp"]) await page.keyboard.press(k);
  assert.equal(await height(page, "#commentpanel"), 120 + 60 + 80 - 20);
  assert.equal(await page.getAttribute("#grip-comment", "aria-valuenow"), "240");
  await at(page, "Move 0");
  // The tree panel: End to the largest, Delete back to its own size.
  await page.focus("#grip-tree");
  await page.keyboard.press("Home");
  assert.equal(await height(page, "#treepanel"), 120, "Home: the minimum");
  // The side column: ← widens it, Home narrows it to its minimum, End to 60 % of the window.
  await page.evaluate(() => { document.documentElement.style.removeProperty("--side-width"); localStorage.removeItem("qipu.sidewidth"); });
  assert.deepEqual(await page.$eval("#splitter", (s) => [s.tabIndex, s.getAttribute("role"), s.getAttribute("aria-orientation"), s.getAttribute("aria-label")]),
    [0, "separator", "vertical", "Width of the side panels"]);
  const w0 = await width(page, "#side");
  await page.focus("#splitter");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await width(page, "#side"), Math.round(w0) + 40);
  await page.keyboard.press("Home");
  assert.equal(await width(page, "#side"), 220);
  // End: as wide as allowed — 60 % of the window, the board's column keeping 360 px.
  await page.keyboard.press("End");
  const files = await width(page, "#files");
  assert.equal(await width(page, "#side"), Math.round(Math.min(1400 * 0.6, 1400 - files - 360)));
  assert.ok((await width(page, "#boardwrap")) >= 350, "the board keeps its room");
  await page.keyboard.press("Home");
  await drag(page, "#splitter", -200, 0);
  assert.ok(Math.abs((await width(page, "#side")) - 420) <= 2, "dragged 200 px left from 220");
  // Kept by the browser: the same sizes after a reload.
  await page.reload();
  await page.waitForSelector("#board svg");
  assert.ok(Math.abs((await width(page, "#side")) - 420) <= 2, "the column's width kept");
  assert.equal(await height(page, "#commentpanel"), 240, "the comment panel's height kept");
  assert.equal(await height(page, "#treepanel"), 120, "the tree panel's height kept");
  await page.screenshot({ path: join(shots, "panels-resized-1400x900.png") });
  // The board took the room the column gave back, and still fits.
  const svg = await page.$eval("#board svg", (s) => s.getBoundingClientRect().right);
  assert.ok(svg <= 1400 - 420, `the board ends at ${svg}`);
  // A hidden panel's grip goes with it; a folded panel has none either.
  await menu(page, "panel-comment");
  await page.waitForFunction(() => !document.querySelector("#commentpanel").offsetParent);
  assert.ok(await page.isHidden("#grip-comment"));
  await menu(page, "panel-comment");
  await page.waitForFunction(() => !!document.querySelector("#commentpanel").offsetParent);
  assert.ok(await page.isVisible("#grip-comment"));
  await page.evaluate(() => (document.querySelector("#infopanel").open = false));
  assert.ok(await page.isHidden("#grip-info"));
  // Delete (or a double click) gives a panel and the column their own size back.
  await page.focus("#grip-comment");
  await page.keyboard.press("Delete");
  assert.ok(!(await page.$eval("#commentpanel", (e) => e.classList.contains("sized"))));
  await page.dblclick("#grip-tree");
  await page.focus("#splitter");
  await page.keyboard.press("Delete");
  assert.deepEqual(await page.evaluate(() => [localStorage.getItem("qipu.sidewidth"), JSON.parse(localStorage.getItem("qipu.panelheights"))]),
    [null, {}]);
  // A phone has tabs, not splitters; a size kept from the desktop is not applied there.
  await page.focus("#grip-comment");
  await page.keyboard.press("ArrowDown");
  const phone = await openViewer(browser, url, { width: 390, height: 844 });
  assert.equal(await phone.$$eval(".panelgrip, #splitter", (x) => x.filter((e) => e.offsetParent).length), 0);
  assert.ok((await height(phone, "#commentpanel")) >= 120);
  await phone.close();
  await page.keyboard.press("Delete");
});

shared("the menu bar from the keyboard: F10 or Alt, ← → between menus, ↑ ↓ in one, Enter runs, Escape closes; ARIA roles", async () => {
  await openInPage(page, "example.sgf");
  await page.click("#first");
  await at(page, "Move 0");
  // The roles of a desktop menu bar.
  const roles = await page.evaluate(() => ({
    bar: document.getElementById("menus").getAttribute("role"),
    titles: [...document.querySelectorAll("#menus .menutitle")].map((t) => [t.getAttribute("role"), t.getAttribute("aria-haspopup"), t.tabIndex]),
    pops: [...document.querySelectorAll("#menus .menupop")].map((p) => p.getAttribute("role") + " " + document.getElementById(p.getAttribute("aria-labelledby")).textContent),
    items: [...new Set([...document.querySelectorAll("#menus .menuitem")].map((i) => i.getAttribute("role")))],
    seps: [...new Set([...document.querySelectorAll("#menus hr")].map((i) => i.getAttribute("role")))],
  }));
  assert.equal(roles.bar, "menubar");
  assert.deepEqual(roles.titles.map((t) => t.slice(0, 2)), Array(7).fill(["menuitem", "menu"]));
  assert.equal(roles.titles.filter((t) => t[2] === 0).length, 1, "one Tab stop for the bar");
  assert.deepEqual(roles.pops, ["menu File", "menu Edit", "menu Navigate", "menu Annotate", "menu Engine", "menu View", "menu Help"]);
  assert.deepEqual([...roles.items].sort(), ["menuitem", "menuitemcheckbox"]);
  assert.deepEqual([...roles.seps], ["separator"]);
  await page.focus("#board");
  // F10 enters the bar on File, no menu open yet; → moves along the titles (the board stays).
  await page.keyboard.press("F10");
  assert.equal(await focused(page), "menu-file");
  assert.equal(await page.$$eval(".menupop:not([hidden])", (x) => x.length), 0);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(page), "menu-navigate");
  // ↓ opens Navigate on its first item; ↓ ↓ ↓ to Next; Enter runs it and closes the menu.
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.getAttribute("#menu-navigate", "aria-expanded"), "true");
  assert.equal(await focused(page), "m-first");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await focused(page), "m-next");
  await at(page, "Move 0");
  await page.keyboard.press("Enter");
  await at(page, "Move 1");
  assert.equal(await page.$$eval(".menupop:not([hidden])", (x) => x.length), 0, "the menu closed");
  assert.equal(await focused(page), "board", "the keys back to the board");
  // Alt alone also enters the bar; ← goes round to Help; Enter opens it.
  await page.keyboard.press("Alt");
  assert.equal(await focused(page), "menu-file");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await focused(page), "menu-help");
  await page.keyboard.press("Enter");
  assert.equal(await focused(page), "m-keys");
  // With a menu open, → opens the next menu (round to File); ↑ from the first item goes to the last.
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.getAttribute("#menu-file", "aria-expanded"), "true");
  assert.equal(await page.getAttribute("#menu-help", "aria-expanded"), "false");
  assert.equal(await focused(page), "m-new");
  await page.keyboard.press("ArrowUp");
  assert.equal(await focused(page), "m-copydiagram");
  await page.keyboard.press("Home");
  assert.equal(await focused(page), "m-new");
  // A letter goes to the next item starting with it.
  await page.keyboard.press("s");
  assert.equal(await focused(page), "m-save");
  await page.keyboard.press("s");
  assert.equal(await focused(page), "m-saveas");
  await page.screenshot({ path: join(shots, "menu-keyboard-1400x900.png") });
  // Escape closes the menu (its title keeps the focus), Escape again leaves the bar.
  await page.keyboard.press("Escape");
  assert.equal(await page.$$eval(".menupop:not([hidden])", (x) => x.length), 0);
  assert.equal(await focused(page), "menu-file");
  await page.keyboard.press("Escape");
  assert.equal(await focused(page), "board");
  await page.keyboard.press("ArrowRight");
  await at(page, "Move 2");
  // Space opens too; an item that opens a dialog gets it; F10 from a text field comes back to it.
  await page.focus("#comment");
  await page.keyboard.press("F10");
  assert.equal(await focused(page), "menu-file");
  await page.keyboard.press("End");
  assert.equal(await focused(page), "menu-help");
  await page.keyboard.press(" ");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#helpdialog[open]");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#helpdialog:not([open])", { state: "attached" });
  await page.focus("#comment");
  await page.keyboard.press("F10");
  await page.keyboard.press("F10");
  assert.equal(await focused(page), "comment", "F10 again: back where the keys were");
  // Tab leaves the bar and closes its menu.
  await page.keyboard.press("F10");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  assert.equal(await page.$$eval(".menupop:not([hidden])", (x) => x.length), 0);
});

shared("game information comes into view (I, or Edit → Edit the game information), not below the side column's fold", async () => {
  const p = await openViewer(browser, url, { width: 1024, height: 768 });
  await openInPage(p, "example.sgf");
  // The engine panel open above it pushes game information far down.
  await p.evaluate(() => { document.querySelector("#enginepanel").open = true; document.querySelector("#infopanel").open = false; });
  const inView = (id) => p.evaluate((id) => {
    const side = document.getElementById("side").getBoundingClientRect();
    const r = document.getElementById(id).getBoundingClientRect();
    return r.height > 0 && r.top >= side.top - 1 && r.bottom <= side.bottom + 1;
  }, id);
  assert.ok(!(await inView("info-PB")), "below the fold to begin with");
  await p.focus("#board");
  await p.keyboard.press("i");
  await p.waitForFunction(() => document.activeElement && document.activeElement.id === "info-PB");
  assert.ok(await inView("info-PB"), "the Black field is in view");
  assert.equal(await p.inputValue("#info-PB"), "李明 (Li Ming)");
  await p.evaluate(() => { document.getElementById("side").scrollTop = 0; document.querySelector("#board").focus(); });
  assert.ok(!(await inView("info-PB")));
  await menu(p, "info");
  await p.waitForFunction(() => document.activeElement && document.activeElement.id === "info-PB");
  assert.ok(await inView("info-PB"), "from the menu too");
  await p.screenshot({ path: join(shots, "info-in-view-1024x768.png") });
  await p.close();
});

/** What menu item `id` downloads (a picture, figures), as bytes. */
async function download(p, id) {
  const [d] = await Promise.all([p.waitForEvent("download"), menu(p, id)]);
  return readFileSync(await d.path());
}

/** The position as a text diagram, as Copy diagram gives it. */
async function diagram(p) {
  await menu(p, "copydiagram");
  await p.waitForSelector("#diagramdialog[open]");
  const text = await p.inputValue("#diagramtext");
  await p.click("#diagramdialog button[value=cancel]");
  await p.waitForSelector("#diagramdialog:not([open])", { state: "attached" });
  return text;
}

/** The record as SGF, as Copy SGF (and the SGF export) gives it. */
function recordSgf(p) {
  return p.evaluate(async () => {
    const { apiText } = await import("/api.js");
    return apiText(`/api/export?session=${window.qipuPage.state().session}&format=sgf`);
  });
}

shared("exports look as the board is shown: turned, mirrored or inverted, the picture, diagram and figures are those of the record written so", async () => {
  await openInPage(page, "example.sgf");
  await page.fill("#jump", "12");
  await page.press("#jump", "Enter");
  await at(page, "Move 12");
  page.on("dialog", (d) => d.accept(d.type() === "prompt" ? "8" : undefined));
  const asRecorded = { png: await download(page, "png"), svg: await download(page, "svg"), text: await diagram(page) };
  const sgf = await recordSgf(page);
  // Turned a quarter and colours swapped: the exports change…
  await menu(page, "rotcw");
  await page.waitForFunction(() => window.qipuPage.state().view.sym !== 0);
  await menu(page, "invert");
  await page.waitForFunction(() => window.qipuPage.state().view.invert);
  const screen = await page.$eval("#board svg", (s) => s.outerHTML);
  const shown = {
    png: await download(page, "png"), svg: await download(page, "svg"), text: await diagram(page),
    figures: (await download(page, "figures")).toString(),
  };
  assert.notDeepEqual(shown.png, asRecorded.png, "the PNG follows the view");
  assert.notEqual(shown.svg.toString(), asRecorded.svg.toString(), "the SVG follows the view");
  assert.notEqual(shown.text, asRecorded.text, "the diagram follows the view");
  // …the record does not (Copy SGF is the record, as saved).
  assert.equal(await recordSgf(page), sgf);
  // Written into the record, the board looks the same, and so do the exports.
  await menu(page, "applyview");
  await page.waitForFunction(() => window.qipuPage.state().view.sym === 0 && !window.qipuPage.state().view.invert);
  await at(page, "Move 12");
  assert.equal(await page.$eval("#board svg", (s) => s.outerHTML), screen, "the board as shown before");
  assert.deepEqual(await download(page, "png"), shown.png, "the PNG is what was shown");
  assert.equal((await download(page, "svg")).toString(), shown.svg.toString());
  assert.equal(await diagram(page), shown.text);
  assert.equal((await download(page, "figures")).toString(), shown.figures);
  assert.notEqual(await recordSgf(page), sgf);
  writeFileSync(join(shots, "export-turned-inverted.png"), shown.png);
  await page.click("#undo");
  await page.waitForFunction(() => !window.qipuPage.state().can_undo);
  assert.equal(await recordSgf(page), sgf);
  page.removeAllListeners("dialog");
});

shared("Set result is greyed out, with its reason, while the count is a mid-game estimate (finished: false)", async () => {
  await openInPage(page, "games.sgf");
  await page.click("#last");
  await at(page, "Move 3");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
  await page.selectOption("#countfrom", "estimator");
  await page.click("#count");
  await page.waitForFunction(() => window.qipuPage.state().count);
  assert.equal(await page.evaluate(() => window.qipuPage.state().count.finished), false);
  assert.ok(await page.isDisabled("#writeresult"));
  assert.match(await page.getAttribute("#writeresult", "title"), /The game is not over .*estimate, not a result to write/);
  assert.match(await page.textContent("#countresult"), /The game is not over: this is an estimate, not a result\./);
  // The result and its reason are in view, not below the side column's fold.
  await page.waitForFunction(() => {
    const side = document.getElementById("side").getBoundingClientRect();
    const r = document.getElementById("countresult").getBoundingClientRect();
    const b = document.getElementById("writeresult").getBoundingClientRect();
    return r.height > 0 && r.top >= side.top - 1 && r.bottom <= side.bottom + 1 && b.top >= side.top - 1 && b.bottom <= side.bottom + 1;
  }, null, { timeout: 5000 });
  // Greyed out as a disabled button is.
  assert.ok(Number(await page.$eval("#writeresult", (b) => getComputedStyle(b).opacity)) < 0.6);
  // The reason in the page's language.
  await page.selectOption("#lang", "ja");
  await page.waitForFunction(() => document.querySelector("#open").textContent === "開く…");
  assert.doesNotMatch(await page.getAttribute("#writeresult", "title"), /[a-z]{4}/);
  assert.doesNotMatch(await page.textContent("#countresult"), /not over/);
  await page.selectOption("#lang", "en");
  await page.waitForFunction(() => document.querySelector("#open").textContent === "Open…");
  await page.screenshot({ path: join(shots, "count-mid-game.png") });
  await page.click("#countdone");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = false));
});

shared("File → New game…: board size, komi, handicap, rules and players without pasting text; Copy the game as SGF gives it", async () => {
  const ctx = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  const p = await ctx.newPage();
  p.on("pageerror", (e) => console.error("page error:", e));
  await p.goto(url);
  await p.waitForSelector("#board svg");
  const name = await p.textContent("#title");
  // Cancel leaves the record shown.
  await menu(p, "new");
  await p.waitForSelector("#newdialog[open]");
  await p.click("#newdialog button[value=cancel]");
  assert.equal(await p.textContent("#title"), name);
  await menu(p, "new");
  await p.selectOption("#ng-size", "13");
  await p.fill("#ng-handicap", "3");
  await p.press("#ng-handicap", "Tab");
  assert.equal(await p.inputValue("#ng-komi"), "0.5", "komi follows the handicap");
  await p.selectOption("#ng-rules", "Chinese");
  await p.fill("#ng-black", "Ke Jie");
  await p.fill("#ng-white", "Gu Li [9p]");
  // Enter in a field creates it (Cancel is no default button).
  await p.press("#ng-white", "Enter");
  await p.waitForFunction(() => document.querySelector("#title").textContent.includes("new-game.sgf"));
  const s = await p.evaluate(() => window.qipuPage.state());
  assert.deepEqual(s.size, [13, 13]);
  assert.deepEqual([s.info.PB, s.info.PW, s.info.RU, s.info.HA, s.komi], ["Ke Jie", "Gu Li [9p]", "Chinese", "3", 0.5]);
  assert.equal(s.node.to_play, "W", "White moves first after handicap stones");
  assert.equal(await p.$$eval("#board svg circle.stone.black", (x) => x.length), 3, "three handicap stones");
  // Copy the game as SGF: the record, on the clipboard.
  await menu(p, "copysgf");
  await p.waitForFunction(() => /Copied to the clipboard/.test(document.querySelector("#message").textContent));
  const sgf = await p.evaluate(() => navigator.clipboard.readText());
  assert.match(sgf.replace(/\n/g, ""), /SZ\[13\]KM\[0\.5\]RU\[Chinese\]HA\[3\]AB(\[[a-m]{2}\]){3}PB\[Ke Jie\]PW\[Gu Li \[9p\\\]\]/);
  // Escape after a Create before: nothing is made.
  await menu(p, "new");
  await p.waitForSelector("#newdialog[open]");
  await p.keyboard.press("Escape");
  await p.waitForSelector("#newdialog:not([open])", { state: "attached" });
  assert.deepEqual((await p.evaluate(() => window.qipuPage.state())).size, [13, 13]);
  assert.equal(await p.evaluate(() => window.qipuPage.state().session), s.session);
  // Another size: any from 2 to 52 lines.
  await menu(p, "new");
  await p.selectOption("#ng-size", "other");
  assert.ok(await p.isVisible("#ng-lines"));
  await p.fill("#ng-lines", "37");
  await p.fill("#ng-handicap", "0");
  await p.click("#ng-create");
  await p.waitForFunction(() => window.qipuPage.state().size[0] === 37);
  // A longer title keeps the toolbar in one row at 1024 px (it wrapped before).
  const rows = await p.evaluate(() => new Set([...document.querySelectorAll("#toolbar > *, #toolbar .group > *")]
    .filter((e) => e.offsetParent && !e.classList.contains("group")).map((e) => Math.round(e.getBoundingClientRect().top / 8))).size);
  assert.equal(rows, 1, "the toolbar is one row");
  await p.screenshot({ path: join(shots, "new-game-37.png") });
  await ctx.close();
});

const NO_ENGLISH = "no English left in a translated page: every panel, every menu, the dialogs (hard-coded strings found)";
test(NO_ENGLISH, () => noEnglishLeft(url));

/**
 * Every panel, menu and dialog of the page at `pageUrl` (either transport)
 * in each language: the English words left, none expected.
 * @param {string} pageUrl
 */
async function noEnglishLeft(pageUrl) {
  const p = await openViewer(browser, pageUrl, { width: 1400, height: 900 });
  const isStatic = await p.evaluate(() => !!window.QIPU_STATIC);
  await openInPage(p, "example.sgf");
  await p.evaluate(() => { for (const d of document.querySelectorAll("#side details")) d.open = true; });
  const found = [];
  // Every language of the page, as the files list them.
  assert.deepEqual(await p.$$eval("#lang option", (o) => o.map((x) => x.value).filter((v) => v !== "en").sort()), LANGUAGES);
  for (const lang of LANGUAGES) {
    await chooseLanguage(p, lang);
    await p.click("#next");
    await p.waitForFunction(() => window.qipuPage.state().node.move_number === 1);
    for (const m of ["file", "edit", "navigate", "annotate", "engine", "view", "help"]) {
      await p.click(`#menu-${m}`);
      for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
      await p.keyboard.press("Escape");
    }
    // Repair: its summary is made by the code (this record needs none).
    await menu(p, "repair");
    await p.waitForFunction(() => document.getElementById("repairdialog").open && document.getElementById("repairsummary").textContent);
    for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
    await p.click("#repairdialog button[value=cancel]");
    // The closed dialog keeps this language's summary until Repair makes
    // it again: not a word the next language leaves.
    await p.evaluate(() => { document.getElementById("repairsummary").textContent = ""; });
    for (const d of ["helpdialog", "aboutdialog", "opendialog", "newdialog"]) {
      await p.evaluate((d) => document.getElementById(d).showModal(), d);
      for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
      await p.evaluate((d) => document.getElementById(d).close(), d);
    }
    await p.click("#first");
    await p.waitForFunction(() => window.qipuPage.state().node.move_number === 0);
    await p.screenshot({ path: join(shots, `lang-${lang}-1400x900.png`) });
    // The find bar, and a collection's game list.
    await p.focus("#board");
    await p.keyboard.press("Control+f");
    await p.waitForSelector("#findbar:not([hidden])");
    for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
    await p.keyboard.press("Escape");
    await openInPage(p, "games.sgf");
    await p.click("#games");
    await p.waitForSelector("#gamesdialog[open] tr.game");
    for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
    await p.click("#gamesdialog button[value=cancel]");
    await openInPage(p, "example.sgf");
    if (isStatic) {
      // The static viewer's own words: Save's download, and the unsaved
      // work a reload brings back.
      await p.click("#next");
      await p.waitForFunction(() => window.qipuPage.state().node.move_number === 1);
      await p.fill("#comment", "kept");
      await p.click("#savecomment");
      await p.waitForFunction(() => document.title.startsWith("•"));
      await Promise.all([p.waitForEvent("download"), p.click("#save")]);
      await p.waitForFunction(() => !document.title.startsWith("•"));
      for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
      await p.fill("#comment", "kept again");
      await p.click("#savecomment");
      await p.waitForFunction(() => document.title.startsWith("•"));
      // Kept in IndexedDB (written after the state is shown), then reloaded.
      for (let i = 0; !(await keptHas(p, "kept again")); i++) {
        assert.ok(i < 200, "the unsaved comment is kept in IndexedDB");
        await p.waitForTimeout(50);
      }
      await p.reload();
      await p.waitForFunction(() => document.querySelector("#message").textContent.includes("example.sgf"));
      for (const w of await englishLeft(p)) found.push(`${lang}: ${w}`);
      await Promise.all([p.waitForEvent("download"), p.click("#save")]);
      await p.waitForFunction(() => !document.title.startsWith("•"));
      await openInPage(p, "example.sgf");
    }
  }
  await p.selectOption("#lang", "en");
  await p.close();
  assert.deepEqual([...new Set(found)], []);
}

/** Whether the static viewer's record kept in IndexedDB holds `text`. */
function keptHas(p, text) {
  return p.evaluate((text) => new Promise((resolve) => {
    const req = indexedDB.open("qipu-static", 1);
    req.onerror = () => resolve(false);
    req.onsuccess = () => {
      const get = req.result.transaction("kept").objectStore("kept").get("record");
      get.onsuccess = () => resolve(!!get.result && new TextDecoder().decode(get.result.bytes).includes(text));
      get.onerror = () => resolve(false);
    };
  }), text);
}

// The static viewer's page, in the 4 languages: its own words (the note
// on engines, Save's download, the work kept across a reload) too.
// And the scenarios marked `shared` above, on a page of its own.
shared("a screenshot of each layout, with the panels open: nothing overflows, no panel under 120 px", async () => {
  for (const [w, h] of [[1400, 900], [1024, 768], [390, 844]]) {
    const p = await openViewer(browser, url, { width: w, height: h });
    await openInPage(p, "example.sgf");
    await p.fill("#jump", "20");
    await p.press("#jump", "Enter");
    await at(p, "Move 20");
    await p.evaluate(() => { document.querySelector("#enginepanel").open = true; document.querySelector("#infopanel").open = true; });
    const m = await p.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      panels: [...document.querySelectorAll(".tabpanel")].filter((e) => e.offsetParent)
        .map((e) => [e.dataset.panel, e.getBoundingClientRect().height, e.getBoundingClientRect().right]),
      board: document.querySelector("#board svg").getBoundingClientRect(),
      comment: document.querySelector("#comment").getBoundingClientRect(),
    }));
    assert.ok(m.scroll <= w, `${w}: ${m.scroll} px wide`);
    for (const [name, ph, right] of m.panels) {
      if (name === "files") continue;
      assert.ok(right <= w, `${w}: ${name} ends at ${right}`);
      // A folded panel (its summary) is short by choice; an open one has room.
      const open = await p.$eval(`.tabpanel[data-panel="${name}"]`, (e) => !(e instanceof HTMLDetailsElement) || e.open);
      if (open && w < 800) assert.ok(ph >= 120, `${w}: ${name} is ${ph} px high`);
    }
    assert.ok(m.board.right <= w && m.board.left >= 0, `${w}: the board is inside the window`);
    assert.ok(m.comment.right <= w && m.comment.width > 100, `${w}: the comment is inside the window`);
    const kind = (await p.evaluate(() => !!window.QIPU_STATIC)) ? "-static" : "";
    await p.screenshot({ path: join(shots, `layout-${w}x${h}${kind}.png`) });
    if (w < 800) {
      for (const tab of ["tree", "info", "engine"]) {
        await p.click(`#tab-${tab}`);
        await p.screenshot({ path: join(shots, `layout-${w}x${h}-${tab}${kind}.png`) });
      }
    }
    await p.close();
  }
});

onStaticViewer("the static viewer", SHARED, {
  current: () => ({ page, url, browser }),
  swap: (to) => ({ page, url } = to),
  viewport: { width: 1400, height: 900 },
  more: (staticUrl) => test(`[static] ${NO_ENGLISH}`, async () => noEnglishLeft(staticUrl())),
});
