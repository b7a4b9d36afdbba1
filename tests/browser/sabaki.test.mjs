// Issue 28's rows against Sabaki, in the page: finding (text in the
// comments, a move at a point, comments, forks, hotspots, the games of a
// collection), variations (copy, cut, paste, shift, remove the others,
// flatten) as undoable edits saved losslessly, the board turned, mirrored
// and inverted (view only, then into the record), and comments shown as
// Markdown without letting HTML in; the engine's large graph under the
// board, "analyse the whole game" with its progress, and a heat map of
// the candidates. Each from the menu bar and its key. All but the engine
// run on the static viewer too (the describe at the end): records dropped
// on its page, saved by download.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  repo, missing, shots, startViewer, launchBrowser, openViewer, stop, menu, openRecord, onStaticViewer,
} from "./support.mjs";

let dir, server, url, browser, page;

const python = (() => { try { execFileSync("python3", ["--version"]); return true; } catch (e) { return false; } })();
const noEngine = python ? false : "python3 not found: the stand-in engine cannot run";
if (!python) missing(noEngine);

const GAME = "(;GM[1]FF[4]SZ[9]C[start];B[ee];W[cc]C[a Comment]" +
  "(;B[gg]HO[1];W[gc];B[cg]C[the end])" +
  "(;B[cg]C[other COMMENT];W[gg]HO[1]))";
const COLLECTION = "(;GM[1]FF[4]SZ[9]GN[one];B[ee])\n(;GM[1]FF[4]SZ[9]GN[two];B[cc])\n";

/** The records of the folder, as the scenarios start from them. */
function writeRecords() {
  writeFileSync(join(dir, "a-game.sgf"), GAME);
  writeFileSync(join(dir, "b-view.sgf"), "(;GM[1]FF[4]SZ[9]PB[Lee]PW[Cho];B[ca];W[ee])");
  writeFileSync(join(dir, "c-games.sgf"), COLLECTION);
  writeFileSync(join(dir, "d-engine.sgf"), "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg];W[cc];B[gg])");
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-sabaki-"));
  writeRecords();
  mkdirSync(shots, { recursive: true });
  // The scripted stand-in engine of tests/engines, as engines.toml names it.
  const config = mkdtempSync(join(tmpdir(), "qipu-config-"));
  mkdirSync(join(config, "qipu"));
  const standin = join(repo, "tests", "engines", "gtp-standin.py");
  writeFileSync(join(config, "qipu", "engines.toml"),
    `[[engine]]\nname = "standin"\ncommand = "python3"\nargs = ${JSON.stringify([standin, "--flavor", "kata"])}\ntimeout = 20\n\n` +
    `[[engine]]\nname = "standin-white"\ncommand = "python3"\nargs = ${JSON.stringify([standin, "--moves", "J1,H1,G1"])}\ntimeout = 20\n`);
  ({ server, url } = await startViewer([join(dir, "a-game.sgf")], { env: { XDG_CONFIG_HOME: config } }));
  browser = await launchBrowser();
  page = await openViewer(browser, url, { width: 1400, height: 900 });
  page.on("dialog", (d) => d.accept());
});

after(() => stop({ browser, server }));

const state = () => page.evaluate(() => window.qipuPage.state());
/** Waits until the page's state satisfies `f` (polled: the page's policy allows no eval). */
async function until(f, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state();
    if (s && f(s)) return s;
    if (Date.now() > end) throw new Error(`the state never satisfied ${f}: node ${s && s.node.number}, message "${await page.textContent("#message")}"`);
    await new Promise((r) => setTimeout(r, 40));
  }
}
const nodeIs = (n) => until((s) => s.node.number === n);
const messageHas = (text) => page.waitForFunction((t) => document.querySelector("#message").textContent.includes(t), text);

/** Opens `name` of the folder: by path on the server, dropped on the static viewer. */
async function openInPage(name) {
  await openRecord(page, dir, name);
  await until((s) => s.name === name);
}
const isStatic = () => page.evaluate(() => !!window.QIPU_STATIC);

/** The scenarios run on the static viewer too (the describe at the end). */
const SHARED = [];
function shared(name, fn) {
  test(name, fn);
  SHARED.push([name, fn]);
}

/** Where the page shows SGF point `pt` of the record (the view's turn included). */
async function shownPoint(pt) {
  return page.evaluate(async (pt) => {
    const { svgAt, boardSvg } = await import("/board.js");
    const svg = boardSvg();
    const [x, y] = svgAt(svg, pt);
    const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  }, pt);
}

/** Saves the record (Ctrl+S) and gives what was written: the file of the
 * folder on the server, the download on the static viewer. */
async function save(name = "a-game.sgf") {
  if (await isStatic()) {
    const [d] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Control+s")]);
    assert.equal(d.suggestedFilename(), name);
    return readFileSync(await d.path(), "utf8");
  }
  await page.keyboard.press("Control+s");
  await messageHas("Saved");
  return readFileSync(join(dir, name), "utf8");
}

shared("finding: text in comments (Ctrl+F, F3, Shift+F3), a move at a point, comments, forks, hotspots", async () => {
  // Nodes in file order: 0 root, 1 B ee, 2 W cc, 3 B gg, 4 W gc, 5 B cg, 6 B cg, 7 W gg.
  await page.focus("#board");
  await page.keyboard.press("Control+f");
  assert.equal(await page.isVisible("#findtext"), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), "findtext");
  await page.fill("#findtext", "comment");
  await page.press("#findtext", "Enter");
  await nodeIs(2);
  await messageHas("Found in the comment of move 2");
  await page.press("#findtext", "F3");
  await nodeIs(6);
  await page.press("#findtext", "Shift+F3");
  await nodeIs(2);
  await page.press("#findtext", "Escape");
  assert.equal(await page.isVisible("#findbar"), false);
  // From the menu: the next hit.
  await menu(page, "findnext");
  await nodeIs(6);
  await page.keyboard.press("F3");
  await nodeIs(2);

  // A move at a point: F, then a click on G3 (gg): who played there, when.
  await page.keyboard.press("f");
  assert.equal(await page.inputValue("#tool"), "find");
  const [x, y] = await shownPoint("gg");
  await page.mouse.click(x, y);
  await nodeIs(3);
  await messageHas("Black played G3 at move 3.");
  await page.mouse.click(x, y);
  await nodeIs(7);
  await messageHas("White played G3 at move 4.");
  await menu(page, "findmove");
  assert.equal(await page.inputValue("#tool"), "play");

  // Comments along the line (the one visited last, through node 7).
  await page.keyboard.press("Home");
  await nodeIs(0);
  await page.keyboard.press("Shift+PageDown");
  await nodeIs(2);
  await menu(page, "nextcomment");
  await nodeIs(6);
  await page.keyboard.press("Shift+PageDown");
  await messageHas("no comment further on this line");
  await page.keyboard.press("Shift+PageUp");
  await nodeIs(2);
  // Sabaki's keys for the same: Ctrl+Shift+↓/↑.
  await page.keyboard.press("Control+Shift+ArrowDown");
  await nodeIs(6);
  await page.keyboard.press("Control+Shift+ArrowUp");
  await nodeIs(2);
  // Forks.
  await page.keyboard.press("End");
  await nodeIs(7);
  await page.keyboard.press("Control+ArrowUp");
  await nodeIs(2);
  await page.keyboard.press("Home");
  await menu(page, "nextfork");
  await nodeIs(2);
  // Hotspots, in the order of the tree, round again.
  await page.keyboard.press("h");
  await nodeIs(3);
  await menu(page, "nexthotspot");
  await nodeIs(7);
  await page.keyboard.press("h");
  await nodeIs(3);
  await page.keyboard.press("Shift+H");
  await nodeIs(7);
  await menu(page, "prevhotspot");
  await nodeIs(3);
  await page.keyboard.press("F2");
  await nodeIs(7);
  await page.keyboard.press("Shift+F2");
  await nodeIs(3);
  // Ctrl+B: the hotspot of the node off, and on again (Sabaki's key).
  await page.keyboard.press("Control+b");
  await until((s) => !s.node.annotations.some((a) => a.code === "HO"));
  await page.keyboard.press("Control+b");
  await until((s) => s.node.annotations.some((a) => a.code === "HO"));
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await until((s) => !s.can_undo);
});

shared("the games of a collection from the keyboard: ] and [, and the Navigate menu", async () => {
  await openInPage("c-games.sgf");
  await until((s) => s.game === 0 && s.games === 2);
  await page.focus("#board");
  await page.keyboard.press("]");
  await until((s) => s.game === 1);
  await page.keyboard.press("[");
  await until((s) => s.game === 0);
  await menu(page, "nextgame");
  await until((s) => s.game === 1);
  await menu(page, "prevgame");
  await until((s) => s.game === 0);
  await openInPage("a-game.sgf");
});

shared("variations: copy (Ctrl+C), paste (Ctrl+V), cut, shift (Ctrl+←/→), remove the others, flatten — each undone, saved losslessly", async () => {
  await page.evaluate(() => window.qipuPage.state().session); // the record of the first test
  await page.focus("#board");
  // Copy the second variation (node 6 on) and paste it after W gc (node 4).
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 0 }));
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 6 }));
  await nodeIs(6);
  await page.keyboard.press("Control+c");
  await until((s) => s.clipboard === true);
  await messageHas("The variation is copied");
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 4 }));
  await nodeIs(4);
  await page.keyboard.press("Control+v");
  await until((s) => s.node.comment === 'other COMMENT' && s.node.variations === 2);
  let saved = await save();
  assert.ok(saved.startsWith("(;GM[1]FF[4]SZ[9]C[start];B[ee];W[cc]C[a Comment](;B[gg]HO[1];W[gc](;B[cg]C[the end])(;B[cg]C[other COMMENT]"), saved);
  await page.keyboard.press("Control+z");
  await until((s) => s.node.move === 'G7');
  assert.equal(await save(), GAME);
  // Cut from the menu, paste from the menu elsewhere; undone twice.
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 6 }));
  await nodeIs(6);
  await menu(page, "cutvar");
  await until((s) => s.node.number === 2 && s.node.children === 1);
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 1 }));
  await nodeIs(1);
  await menu(page, "pastevar");
  await until((s) => s.node.comment === 'other COMMENT');
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await until((s) => !s.can_undo);
  assert.equal(await save(), GAME);
  // Shift right (Ctrl+→) and left again from the menu.
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 3 }));
  await nodeIs(3);
  await page.keyboard.press("Control+ArrowRight");
  await until((s) => s.node.variation === 1);
  assert.ok((await save()).includes("C[a Comment](;B[cg]C[other COMMENT];W[gg]HO[1])(;B[gg]"));
  await menu(page, "shiftleft");
  await until((s) => s.node.variation === 0);
  assert.equal(await save(), GAME);
  // Remove the other variations (Shift+Delete, confirmed), undone.
  await page.keyboard.press("Shift+Delete");
  await until((s) => s.node.variations === 1);
  assert.ok(!(await save()).includes("other COMMENT"));
  await menu(page, "undo");
  await until((s) => s.node.variations === 2);
  // Flatten (Shift+F): the position at B gg is the start.
  await page.keyboard.press("Shift+F");
  await until((s) => s.node.number === 0 && s.node.to_play === 'W');
  saved = await save();
  assert.ok(saved.startsWith("(;GM[1]FF[4]SZ[9]AB[ee][gg]AW[cc]PL[W]HO[1];W[gc];B[cg]C[the end])"), saved);
  await page.keyboard.press("Control+z");
  await until((s) => s.node.move === 'G3');
  assert.equal(await save(), GAME);
});

shared("the board turned, mirrored and inverted (view only; clicks land where shown), then written into the record", async () => {
  await openInPage("b-view.sgf");
  await page.focus("#board");
  await page.keyboard.press("ArrowRight");
  await until((s) => s.node.move === 'C9');
  const plain = await page.innerHTML("#board");
  // R: a quarter turn clockwise. C9 (ca) is shown where J7 (ic) was.
  await page.keyboard.press("r");
  await until((s) => s.view.sym === 5);
  assert.notEqual(await page.innerHTML("#board"), plain);
  const shown = await shownPoint("ca");
  const [ix, iy] = await page.evaluate(async () => {
    const svg = (await import("/board.js")).boardSvg();
    const d = svg.dataset;
    const p = new DOMPoint(+d.originX + 8 * +d.cell, +d.originY + 2 * +d.cell).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  });
  assert.ok(Math.abs(shown[0] - ix) < 1 && Math.abs(shown[1] - iy) < 1, `${shown} vs ${ix},${iy}`);
  await page.screenshot({ path: join(shots, "sabaki-turned.png") });
  // A click where D7 (dc) of the record is shown plays there.
  const [px, py] = await shownPoint("dc");
  await page.mouse.click(px, py);
  await until((s) => s.node.move === 'D7' && s.node.color === 'W');
  await page.keyboard.press("Control+z");
  await until((s) => s.node.move === 'C9');
  // Shift+R turns it back; V and Shift+V mirror; Shift+I swaps the colours.
  await page.keyboard.press("Shift+R");
  await until((s) => s.view.sym === 0);
  assert.equal(await page.innerHTML("#board"), plain);
  await menu(page, "fliph");
  await until((s) => s.view.sym === 1);
  await page.keyboard.press("Shift+V");
  await until((s) => s.view.sym === 3);
  await page.keyboard.press("v");
  await until((s) => s.view.sym === 2);
  await page.keyboard.press("Shift+V");
  await until((s) => s.view.sym === 0);
  await page.keyboard.press("Shift+I");
  await until((s) => s.view.invert === true);
  // The stone drawn is white now; the record still says Black played.
  assert.equal((await state()).node.color, "B");
  await page.keyboard.press("Shift+0");
  await until((s) => s.view.sym === 0 && !s.view.invert);
  assert.equal(await page.innerHTML("#board"), plain);
  // Mirrored and inverted, written into the record (confirmed), undone.
  await page.keyboard.press("v");
  await menu(page, "invert");
  await until((s) => s.view.sym === 1 && s.view.invert);
  await menu(page, "applyview");
  await until((s) => s.view.sym === 0 && !s.view.invert && s.dirty);
  assert.equal((await state()).node.move, "G9");
  assert.equal((await state()).node.color, "W");
  assert.equal(await save("b-view.sgf"), "(;GM[1]FF[4]SZ[9]PB[Cho]PW[Lee];W[ga];B[ee])");
  await page.keyboard.press("Control+z");
  await until((s) => s.node.move === 'C9' && s.node.color === 'B');
  await openInPage("a-game.sgf");
});

shared("comments as Markdown: links, emphasis, lists, points — and no HTML let in", async () => {
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 1 }));
  await nodeIs(1);
  const text = "**Strong** and *em* and _also em_, `code`\n" +
    "- first at D5\n- [Sensei](https://senseis.xmp.net/?Aji)\n" +
    "1. one\n2. two\n\n" +
    "<img src=x onerror=\"window.pwned=1\"> <script>window.pwned=2</script> " +
    "[bad](javascript:window.pwned=3) [data](data:text/html,hi) https://example.org/x.";
  await page.evaluate(async (text) => (await import("/actions.js")).edit("comment", { text }), text);
  await until((s) => s.node.comment && s.node.comment.startsWith('**Strong**'));
  const v = await page.evaluate(() => {
    const el = document.querySelector("#commentview");
    return {
      hidden: el.hidden,
      strong: [...el.querySelectorAll("strong")].map((x) => x.textContent),
      em: [...el.querySelectorAll("em")].map((x) => x.textContent),
      code: [...el.querySelectorAll("code")].map((x) => x.textContent),
      ul: [...el.querySelectorAll("ul > li")].map((x) => x.textContent),
      ol: [...el.querySelectorAll("ol > li")].map((x) => x.textContent),
      links: [...el.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href"), a.rel]),
      points: [...el.querySelectorAll(".pointref")].map((b) => b.dataset.point),
      tags: [...new Set([...el.querySelectorAll("*")].map((x) => x.tagName))].sort(),
      text: el.textContent,
      pwned: window.pwned,
    };
  });
  assert.equal(v.hidden, false);
  assert.deepEqual(v.strong, ["Strong"]);
  assert.deepEqual(v.em, ["em", "also em"]);
  assert.deepEqual(v.code, ["code"]);
  assert.deepEqual(v.ul, ["first at D5", "Sensei"]);
  assert.deepEqual(v.ol, ["one", "two"]);
  assert.deepEqual(v.points, ["de"]);
  assert.deepEqual(v.links, [
    ["Sensei", "https://senseis.xmp.net/?Aji", "noopener noreferrer"],
    ["https://example.org/x", "https://example.org/x", "noopener noreferrer"],
  ]);
  // Only the whitelist's elements; the HTML and the other links as text.
  for (const t of v.tags) assert.ok(["A", "BR", "BUTTON", "CODE", "EM", "LI", "OL", "P", "STRONG", "UL"].includes(t), t);
  assert.ok(v.text.includes("<img src=x onerror=\"window.pwned=1\">"), v.text);
  assert.ok(v.text.includes("[bad](javascript:window.pwned=3)"), v.text);
  assert.ok(v.text.includes("[data](data:text/html,hi)"), v.text);
  assert.equal(v.pwned, undefined);
  // The text field keeps the text as written.
  assert.equal(await page.inputValue("#comment"), text);
  await page.keyboard.press("Control+z");
});

shared("comments as Markdown: work linear in the comment, a huge one shown at once", async () => {
  // The renderer's steps (every character it looks at) on hostile runs,
  // at n and 4n characters: at most a few a character, growing as n does.
  const counts = await page.evaluate(async () => {
    const { renderComment, hasMarkup, takeSteps } = await import("/markdown.js");
    const point = (p, text) => document.createTextNode(text);
    const units = { brackets: "[", links: "](", opened: "[a](", nested: "[[x](", stars: "*", strong: "**a",
      ticks: "`", unders: "_", words: "_a ", mixed: "[*_`](" };
    const out = {};
    for (const [name, unit] of Object.entries(units)) {
      out[name] = [10000, 40000].map((n) => {
        const text = unit.repeat(n);
        takeSteps();
        renderComment([{ text }], point);
        hasMarkup([{ text }]);
        return [takeSteps(), text.length];
      });
    }
    return out;
  });
  for (const [name, [[small, n], [large, n4]]] of Object.entries(counts)) {
    assert.ok(small > 0, `${name}: steps are counted`);
    assert.ok(large <= 5 * small + 1000, `${name}: ${small} steps for ${n} characters, ${large} for ${n4}: not linear`);
    assert.ok(large <= 8 * n4, `${name}: ${large} steps for ${n4} characters`);
  }
  // A 1.6 MB comment of `[` (and a little Markdown) is shown at once,
  // and the node after it and back again.
  await page.evaluate(async () => (await import("/actions.js")).nav("node", { node: 1 }));
  await nodeIs(1);
  const huge = "[".repeat(1600000) + " **end**";
  await page.evaluate(async (text) => (await import("/actions.js")).edit("comment", { text }), huge);
  await page.waitForFunction(() => document.querySelector("#commentview strong")?.textContent === "end", null, { timeout: 15000 });
  await page.evaluate(async () => (await import("/actions.js")).nav("next"));
  await nodeIs(2);
  await page.evaluate(async () => (await import("/actions.js")).nav("prev"));
  await page.waitForFunction(() => document.querySelector("#commentview strong")?.textContent === "end", null, { timeout: 15000 });
  assert.equal((await page.textContent("#commentview")).length, huge.length - 4);
  await page.keyboard.press("Control+z");
  await until((s) => s.node.comment !== huge);
});

test("engine: the large graph under the board, the whole game analysed (Shift+A), heat map, ownership, GTP console, engine vs engine", { skip: noEngine }, async () => {
  await openInPage("d-engine.sgf");
  assert.equal(await page.isVisible("#graphbar"), false, "no engine: no graph under the board");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
  await page.waitForFunction(() => [...document.querySelectorAll("#enginepick option")].some((o) => o.value === "standin"));
  await page.selectOption("#enginepick", "standin");
  await page.click("#enginestart");
  await page.waitForFunction(() => document.querySelector("#enginestatus").textContent.startsWith("standin is ready"));
  // The engine panel folded: the large graph stays under the board.
  await page.evaluate(() => (document.querySelector("#enginepanel").open = false));
  await page.waitForSelector("#graphbar", { state: "visible" });
  const box = await page.locator("#biggraph").boundingBox();
  const board = await page.locator("#board svg").boundingBox();
  assert.ok(box.width > 400 && box.height >= 100, JSON.stringify(box));
  assert.ok(box.y >= board.y + board.height - 1, "under the board");
  // Its height: the grip above it, dragged or with ↑ ↓ (at least 60 px, at most a third of the window).
  const bar = () => page.$eval("#graphbar", (e) => e.getBoundingClientRect().height);
  const h0 = await bar();
  await page.focus("#grip-graph");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  assert.equal(await bar(), Math.round(h0) + 40);
  await page.keyboard.press("Home");
  assert.equal(await bar(), 60);
  const gb = await page.locator("#grip-graph").boundingBox();
  await page.mouse.move(gb.x + gb.width / 2, gb.y + 4);
  await page.mouse.down();
  await page.mouse.move(gb.x + gb.width / 2, gb.y - 1000, { steps: 4 });
  await page.mouse.up();
  assert.equal(await bar(), Math.round(page.viewportSize().height / 3));
  await page.focus("#grip-graph");
  await page.keyboard.press("Delete");
  assert.equal(await bar(), h0);
  // Shift+A: every position of the line, the progress said, the graph filled.
  await page.focus("#board");
  await page.keyboard.press("Shift+A");
  await page.waitForFunction(() => /Analysed \d+ of 6 positions/.test(document.querySelector("#batchstatus").textContent));
  assert.equal(await page.textContent("#analysegame"), "Stop analysing the game");
  await page.waitForFunction(() => document.querySelector("#batchstatus").textContent === "", null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector("#biggraph").dataset.values === "6");
  assert.equal(await page.textContent("#analysegame"), "Analyse the whole game");
  await page.screenshot({ path: join(shots, "sabaki-graph.png") });
  // A click on the graph goes to that move.
  const g = await page.locator("#biggraph").boundingBox();
  await page.mouse.click(g.x + g.width - 3, g.y + g.height / 2);
  await until((s) => s.node.number === 5);
  // From the menu: started, and stopped again.
  await menu(page, "analysegame");
  await page.waitForFunction(() => /Analysed/.test(document.querySelector("#batchstatus").textContent));
  await menu(page, "analysegame");
  await page.waitForFunction(() => document.querySelector("#batchstatus").textContent === "");
  // The heat map of the candidates (Engine menu), on the analysis shown.
  await menu(page, "analyse");
  await until((s) => s.engine.analysing);
  await menu(page, "show-heat");
  await page.waitForFunction(() => document.querySelectorAll("#board svg .qipu-overlay circle.heat").length > 0);
  const heat = await page.evaluate(() => [...document.querySelectorAll("#board svg .qipu-overlay circle.heat")].map((c) => +c.getAttribute("r")));
  assert.ok(heat.length >= 2 && heat[0] > heat[heat.length - 1], JSON.stringify(heat));
  assert.equal(await page.locator("#board svg .qipu-overlay text").count(), 0, "no numbers on a heat map");
  await page.screenshot({ path: join(shots, "sabaki-heat.png") });
  // Who owns each point (KataGo's ownership), on and off again.
  await menu(page, "ownership");
  await page.waitForFunction(() => document.querySelectorAll("#board svg .qipu-overlay rect.own").length > 0);
  await page.screenshot({ path: join(shots, "sabaki-ownership.png") });
  await menu(page, "ownership");
  await page.waitForFunction(() => document.querySelectorAll("#board svg .qipu-overlay rect.own").length === 0);
  await menu(page, "show-winrate");
  await page.waitForFunction(() => document.querySelectorAll("#board svg .qipu-overlay circle.cand").length > 0);
  // The graph under the board hidden from the View menu… of the Engine menu.
  await menu(page, "biggraph");
  await page.waitForSelector("#graphbar", { state: "hidden" });
  await menu(page, "biggraph");
  await page.waitForSelector("#graphbar", { state: "visible" });
  await menu(page, "analyse");
  await until((s) => !s.engine.analysing);
  // The GTP console (Shift+G): a command, its answer; a refusal in red.
  await page.focus("#board");
  await page.keyboard.press("Shift+G");
  assert.equal(await page.evaluate(() => document.activeElement.id), "gtpcmd");
  await page.keyboard.type("name");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#gtplog").textContent.includes("> name\n= standin"));
  await page.fill("#gtpcmd", "no_such_command");
  await page.press("#gtpcmd", "Enter");
  await page.waitForFunction(() => document.querySelector("#gtplog .refused"));
  // Engine against engine: White's engine beside the first, then Shift+E.
  await page.selectOption("#enginepick", "standin-white");
  await page.click("#enginestart2");
  await page.waitForFunction(() => document.querySelector("#engine2status").textContent === "White's engine: standin-white");
  await page.evaluate(() => (document.querySelector("#enginepanel").open = false));
  await until((s) => s.node.number === 5 && s.node.to_play === "W");
  await page.focus("#board");
  await page.keyboard.press("Shift+E");
  await until((s) => s.node.move_number >= 8);
  await menu(page, "enginegame");
  await page.waitForFunction(() => document.querySelector("#enginegame").textContent === "Engine vs engine");
  const played = await page.evaluate(async () => {
    const { nav } = await import("/actions.js");
    const out = [];
    for (let i = 0; i < 3; i++) {
      const s = window.qipuPage.state();
      out.unshift(`${s.node.color} ${s.node.move}`);
      await nav("prev");
    }
    return out;
  });
  // White's moves are the second engine's (J1, H1, G1…), Black's the first's.
  assert.ok(played.some((m) => m === "W J1" || m === "W H1" || m === "W G1"), played.join());
  assert.ok(played.every((m) => !m.startsWith("B") || !["B J1", "B H1", "B G1"].includes(m)), played.join());
  await page.evaluate(() => document.querySelector("#enginestop").click());
  await page.waitForSelector("#graphbar", { state: "hidden" });
});

onStaticViewer("the static viewer", SHARED, {
  current: () => ({ page, url, browser }),
  swap: (to) => ({ page, url } = to),
  viewport: { width: 1400, height: 900 },
  setup: async (p) => {
    // The server's scenarios saved into them.
    writeRecords();
    p.on("dialog", (d) => d.accept());
    // As the server's page starts: on the game of the first scenario.
    await openInPage("a-game.sgf");
  },
});
