// Issue 40 in the browser: the viewer never destroys a file it could not
// read as a record. A file that is not one (random bytes, a text file
// named .sgf) is shown as such where the board would be, with the way on;
// `qipu view DIR` opens the first file that is a record; nothing is ever
// saved over such a file; Save as asks, in the page's own dialog, before
// it replaces a file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  shots, startViewer, launchBrowser, openViewer, stop, clickPoint, menu, serveStatic, staticSkip,
} from "./support.mjs";

/** `n` bytes from a fixed generator (xorshift): a damaged download, say. */
function noise(n) {
  const out = Buffer.alloc(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A text file with no game tree in it: the system's /etc/services when there is one (as the user found it). */
function services() {
  if (existsSync("/etc/services")) {
    const t = readFileSync("/etc/services");
    if (t.length > 1000 && !t.includes("(;")) return t;
  }
  let s = "# Network services, Internet style\n";
  for (let i = 0; i < 400; i++) s += `service${i}\t\t${1000 + i}/tcp\t\t\t# port ${i}\n`;
  return Buffer.from(s);
}

const GAME = "(;GM[1]FF[4]SZ[9]PB[Black]PW[White];B[ee];W[cc])\n";
const OTHER = "(;GM[1]FF[4]SZ[9]PB[Other]PW[Record];B[gg])\n";

let dir, server, url, browser, page;
const text = services();
const bytes = noise(200_000);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "qipu-notrecord-"));
  writeFileSync(join(dir, "a-noise.sgf"), bytes);
  writeFileSync(join(dir, "b-game.sgf"), GAME);
  writeFileSync(join(dir, "c-services.sgf"), text);
  writeFileSync(join(dir, "d-game.sgf"), GAME);
  writeFileSync(join(dir, "e-other.sgf"), OTHER);
  ({ server, url } = await startViewer([dir]));
  browser = await launchBrowser();
  page = await openViewer(browser, url);
});

after(() => stop({ browser, server }));

/** What the page shows: the board or the panel, its words, the title. */
function shown(p = page) {
  return p.evaluate(() => ({
    panel: !document.getElementById("notrecord").hidden,
    board: !!document.querySelector("#board svg") && getComputedStyle(document.getElementById("board")).display !== "none",
    text: document.getElementById("notrecordtext").textContent,
    title: document.getElementById("title").textContent,
    next: !document.getElementById("notrecordnext").hidden,
    list: !document.getElementById("notrecordlist").hidden,
    current: document.querySelector("#filelist li.current")?.dataset.path || null,
    save: document.getElementById("save").disabled,
    state: !!window.qipuPage.state(),
  }));
}

/** Opens `path` from the file list, as the user clicks it. */
async function clickFile(path) {
  await page.click(`#filelist li[data-path="${path}"]`);
}

test("qipu view DIR opens the first file that is a record, not the random bytes before it", async () => {
  const s = await shown();
  assert.equal(s.title, "b-game.sgf");
  assert.ok(s.board && !s.panel, JSON.stringify(s));
  const files = await page.$$eval("#filelist li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(files, ["a-noise.sgf", "b-game.sgf", "c-services.sgf", "d-game.sgf", "e-other.sgf"]);
  assert.equal(s.current, "b-game.sgf");
});

test("a file that is not a record shows why where the board would be, and the next file opens", async () => {
  await clickFile("c-services.sgf");
  await page.waitForSelector("#notrecord:not([hidden])");
  let s = await shown();
  assert.equal(s.text, "c-services.sgf is not a game record: it holds no SGF game tree [S002]");
  assert.ok(!s.board && !s.state, "no record is shown");
  assert.ok(s.next && s.list, JSON.stringify(s));
  assert.equal(s.current, "c-services.sgf");
  assert.equal(s.title, "c-services.sgf");
  assert.ok(s.save, "Save rests");
  await page.screenshot({ path: join(shots, "not-a-record.png") });
  // In another language, the library's words too.
  await page.selectOption("#lang", "fr");
  await page.waitForFunction(() => document.getElementById("notrecordtext").textContent.includes("n’est pas un fichier de partie"));
  s = await shown();
  assert.equal(s.text, "c-services.sgf n’est pas un fichier de partie : il ne contient aucun arbre de jeu SGF [S002]");
  assert.equal(await page.textContent("#notrecord h2"), "Pas un fichier de partie");
  await page.selectOption("#lang", "en");
  await page.waitForFunction(() => document.getElementById("notrecordtext").textContent.includes("is not a game record"));
  // The next file of the list: a record, shown on the board again.
  await page.click("#notrecordnext");
  await page.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "d-game.sgf");
  s = await shown();
  assert.ok(s.board && !s.panel && !s.save, JSON.stringify(s));
  assert.equal(s.current, "d-game.sgf");
  // Random bytes: said so too; back to the list.
  await clickFile("a-noise.sgf");
  await page.waitForSelector("#notrecord:not([hidden])");
  s = await shown();
  assert.match(s.text, /^a-noise\.sgf is not a game record: it is not text in any charset \(\d+% of its bytes are control bytes no text holds\)$/);
  await page.click("#notrecordlist");
  assert.ok(await page.isVisible('#filelist li.current[data-path="a-noise.sgf"]'));
  // Its keys and menus rest: nothing to play, nothing to save.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Control+s");
  await page.click("#menu-file");
  assert.ok(await page.isDisabled("#m-save"));
  assert.ok(await page.isDisabled("#m-saveas"));
  assert.ok(!(await page.isDisabled("#m-open")));
  await page.keyboard.press("Escape");
  assert.deepEqual(readFileSync(join(dir, "a-noise.sgf")), bytes);
  await clickFile("b-game.sgf");
  await page.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "b-game.sgf");
});

test("a text file named .sgf: a move played and two saves never change its bytes", async () => {
  // The user's story: a text file named .sgf, opened. It is no record:
  // there is no board to play on, and Save does nothing.
  await clickFile("c-services.sgf");
  await page.waitForSelector("#notrecord:not([hidden])");
  await page.keyboard.press("Control+s");
  await page.keyboard.press("Control+s");
  await page.click("#save", { force: true }).catch(() => {});
  assert.deepEqual(readFileSync(join(dir, "c-services.sgf")), text);
  assert.ok(!existsSync(join(dir, "c-services.sgf.bak")) && !existsSync(join(dir, "c-services.sgf.orig")));
  // A record whose file another program turned into that text: a move
  // played, then saved twice (overwriting, as the user chooses when told
  // the file changed): refused each time, the text left as it is.
  await clickFile("d-game.sgf");
  await page.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "d-game.sgf");
  writeFileSync(join(dir, "d-game.sgf"), text);
  await page.click("#last");
  await page.waitForFunction(() => window.qipuPage.state().node.move_number === 2);
  await clickPoint(page, "gg");
  await page.waitForFunction(() => window.qipuPage.state().dirty);
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press("Control+s");
    await page.waitForSelector("#conflictdialog[open]");
    await page.click('#conflictdialog button[value="overwrite"]');
    await page.waitForFunction(() => document.getElementById("message").textContent.includes("never saves over"));
    const m = await page.textContent("#message");
    assert.equal(m, "d-game.sgf is not a game record: it holds no SGF game tree [S002]. Qipu never saves over a file that is not a game record: use \"Save as\"");
    assert.ok(await page.evaluate(() => document.getElementById("message").classList.contains("error")));
    await page.evaluate(() => window.qipuPage.message(""));
  }
  assert.deepEqual(readFileSync(join(dir, "d-game.sgf")), text);
  assert.ok(!existsSync(join(dir, "d-game.sgf.bak")) && !existsSync(join(dir, "d-game.sgf.orig")));
  // The move is still there, unsaved.
  assert.equal(await page.evaluate(() => window.qipuPage.state().dirty), true);
  writeFileSync(join(dir, "d-game.sgf"), GAME);
});

test("qipu view FILE of text: the panel at once, with Open", async () => {
  const d = mkdtempSync(join(tmpdir(), "qipu-notrecord-file-"));
  writeFileSync(join(d, "x.sgf"), text);
  const v = await startViewer([join(d, "x.sgf")]);
  const p = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  p.on("pageerror", (e) => console.error("page error:", e));
  try {
    await p.goto(v.url);
    await p.waitForSelector("#notrecord:not([hidden])");
    const s = await shown(p);
    assert.equal(s.text, "x.sgf is not a game record: it holds no SGF game tree [S002]");
    assert.ok(!s.next && !s.list && !s.state, JSON.stringify(s));
    assert.equal(await p.textContent("#message"), "", "no other message");
    await p.click("#notrecordopen");
    await p.waitForSelector("#opendialog[open]");
    await p.fill("#pastetext", GAME);
    await p.click("#pasteopen");
    await p.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "pasted.sgf");
    assert.ok((await shown(p)).board);
  } finally {
    await p.close();
    v.server.kill();
  }
  assert.deepEqual(readFileSync(join(d, "x.sgf")), text);
});

test("Save as asks, in the page's own dialog, before it replaces a file", async () => {
  // (The record before has unsaved changes: leaving it is asked.)
  page.once("dialog", (d) => d.accept());
  await clickFile("b-game.sgf");
  await page.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "b-game.sgf");
  // Save as: never the browser's prompt() or confirm().
  const browserDialogs = [];
  page.on("dialog", (d) => { browserDialogs.push(d.message()); d.dismiss(); });
  await page.click("#last");
  await page.waitForFunction(() => window.qipuPage.state().node.move_number === 2);
  await clickPoint(page, "gg");
  await page.waitForFunction(() => window.qipuPage.state().dirty);
  await page.keyboard.press("Control+Shift+S");
  await page.waitForSelector("#saveasdialog[open]");
  assert.equal(await page.inputValue("#saveasname"), "b-game-fmt.sgf");
  // An existing file: the question, and nothing written yet.
  await page.fill("#saveasname", "e-other.sgf");
  await page.press("#saveasname", "Enter");
  await page.waitForSelector("#saveasask:not([hidden])");
  assert.equal(await page.textContent("#saveasask"),
    "e-other.sgf exists already. Replace it? What it holds now is kept as e-other.sgf.bak.");
  assert.ok(await page.isVisible("#saveasreplace") && !(await page.isVisible("#saveassave")));
  assert.equal(readFileSync(join(dir, "e-other.sgf"), "utf8"), OTHER);
  await page.screenshot({ path: join(shots, "save-as-replace.png") });
  // Enter does not answer it (the focus is on "Choose another name").
  await page.keyboard.press("Enter");
  await page.waitForSelector("#saveasask", { state: "hidden" });
  assert.ok(await page.isVisible("#saveasdialog"));
  assert.equal(readFileSync(join(dir, "e-other.sgf"), "utf8"), OTHER);
  // A file that is not a record is never replaced, even when the user says so.
  await page.fill("#saveasname", "c-services.sgf");
  await page.click("#saveasok");
  await page.waitForSelector("#saveasask:not([hidden])");
  await page.click("#saveasok");
  await page.waitForSelector("#saveaserror:not([hidden])");
  assert.equal(await page.textContent("#saveaserror"),
    "c-services.sgf is not a game record: it holds no SGF game tree [S002]. Qipu never saves over a file that is not a game record: choose another name");
  assert.deepEqual(readFileSync(join(dir, "c-services.sgf")), text);
  // The record: replaced once the user pressed Replace.
  await page.fill("#saveasname", "e-other");
  await page.click("#saveasok");
  await page.waitForSelector("#saveasask:not([hidden])");
  await page.click("#saveasok");
  await page.waitForSelector("#saveasdialog:not([open])", { state: "attached" });
  await page.waitForFunction(() => document.getElementById("message").textContent.startsWith("Saved e-other.sgf"));
  assert.equal(await page.textContent("#message"),
    "Saved e-other.sgf (the file it replaced kept as e-other.sgf.bak and e-other.sgf.orig)");
  assert.equal(readFileSync(join(dir, "e-other.sgf.bak"), "utf8"), OTHER);
  assert.equal(readFileSync(join(dir, "e-other.sgf.orig"), "utf8"), OTHER);
  assert.match(readFileSync(join(dir, "e-other.sgf"), "utf8"), /B\[gg\]/);
  const st = await page.evaluate(() => window.qipuPage.state());
  assert.equal(st.path, "e-other.sgf");
  assert.equal(st.dirty, false);
  // A new name: no question.
  await page.keyboard.press("Control+Shift+S");
  await page.waitForSelector("#saveasdialog[open]");
  await page.fill("#saveasname", "f-new.sgf");
  await page.press("#saveasname", "Enter");
  await page.waitForSelector("#saveasdialog:not([open])", { state: "attached" });
  assert.ok(existsSync(join(dir, "f-new.sgf")));
  // Cancel leaves everything as it is.
  await menu(page, "saveas");
  await page.waitForSelector("#saveasdialog[open]");
  await page.click("#saveascancel");
  await page.waitForSelector("#saveasdialog:not([open])", { state: "attached" });
  page.removeAllListeners("dialog");
  assert.deepEqual(browserDialogs, []);
});

test("the static viewer: a file dropped that is not a record shows the same panel", { skip: staticSkip }, async () => {
  const web = await serveStatic();
  const p = await openViewer(browser, web.url);
  p.on("pageerror", (e) => console.error("page error:", e));
  try {
    await p.evaluate(([data, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [[...text], "services.sgf"]);
    await p.waitForSelector("#notrecord:not([hidden])");
    const s = await shown(p);
    assert.equal(s.text, "services.sgf is not a game record: it holds no SGF game tree [S002]");
    assert.ok(!s.next && !s.list && !s.state && !s.board, JSON.stringify(s));
    // A record dropped next: on the board again.
    await p.evaluate(([data, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [[...Buffer.from(GAME)], "game.sgf"]);
    await p.waitForFunction(() => window.qipuPage.state() && window.qipuPage.state().name === "game.sgf");
    assert.ok((await shown(p)).board);
  } finally {
    await p.close();
    web.server.close();
  }
});
