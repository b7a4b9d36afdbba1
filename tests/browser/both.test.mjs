// The shared scenarios, run against both transports of the one page:
// `qipu view` (the server; started without a path, so that, as in the
// static viewer, no folder is served) and the static viewer (the folder
// crates/sgf-web/static/build.mjs writes, served by a plain static file
// server on loopback, the session in the page as WebAssembly). Each
// scenario opens its records as a user of either would: the file picker,
// a drop, pasted text. What only one of them has is tested on that one,
// the other skipped with the reason. Not shared: the served folder (its
// file list, Save into it, records put aside) and engines and databases,
// which need the server: view.test.mjs, evict.test.mjs, sabaki.test.mjs and
// search.test.mjs test them on the server.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  chooseLanguage, dropRecord, englishLeft, LANGUAGES, launchBrowser, menu, missing, screenPoint, serveStatic, shots, startViewer, staticDir, staticSkip, stop,
} from "./support.mjs";

if (staticSkip) missing(`the static viewer (${staticDir}): node crates/sgf-web/static/build.mjs`);

// "黑" and "白" in GBK, in a record that says so: decoded by the library.
const GBK = Buffer.concat([
  Buffer.from("(;GM[1]FF[4]CA[GB2312]SZ[9]PB["), Buffer.from([0xba, 0xda]), Buffer.from("]PW["),
  Buffer.from([0xb0, 0xd7]), Buffer.from("]C["), Buffer.from([0xba, 0xda]), Buffer.from("];B[ee];W[cc])"),
]);

// Problems of several kinds: values (KM, DT, HA), an FF[1] property (L),
// syntax (`--`), the FF[4] rules (B and W, TE with BM, a move with setup),
// the Go rules (a stone on a stone), a point outside the board.
const PROBLEMS = "(;GM[1]FF[4]SZ[9]KM[abc]DT[2018.04.27]HA[1]L[aa] -- ;B[ee]W[cc];B[ee];W[zz];B[dd];B[cc]TE[1]BM[1];W[ff]AB[gg];W[])";

const TRANSPORTS = [
  { name: "server", skip: false },
  { name: "static", skip: staticSkip },
];

for (const t of TRANSPORTS) {
  describe(`the page over ${t.name === "server" ? "qipu view's server" : "the static viewer's WebAssembly session"}`, { skip: t.skip }, () => {
    let browser, viewer, web, url;
    const isStatic = t.name === "static";

    before(async () => {
      if (isStatic) {
        web = await serveStatic(staticDir);
        url = web.url;
      } else {
        viewer = await startViewer([]);
        url = viewer.url;
      }
      browser = await launchBrowser();
      mkdirSync(shots, { recursive: true });
    });
    after(async () => {
      if (web) web.server.close();
      await stop({ browser, server: viewer && viewer.server });
    });

    /** A fresh page (its own storage) on the viewer, the board drawn. */
    async function open(viewport = { width: 1280, height: 860 }) {
      const ctx = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await ctx.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(url);
      await page.waitForSelector("#board svg");
      page.errors = errors;
      return page;
    }
    const status = (page) => page.textContent("#status");
    const titled = (page, name) => page.waitForFunction((n) => document.querySelector("#title").textContent.includes(n), name);
    const drop = dropRecord;
    async function clickPoint(page, pt) {
      const [x, y] = await screenPoint(page, pt);
      await page.mouse.click(x, y);
    }

    test(`[${t.name}] the example opens; keys, buttons and the tree move through it`, async () => {
      const page = await open();
      await titled(page, "qipu-example.sgf");
      assert.match(await status(page), /^Move 0/);
      // The board has the keys (a click on it would play a move).
      await page.focus("#board");
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 1"));
      await page.click("#last");
      await page.waitForFunction(() => !document.querySelector("#status").textContent.startsWith("Move 1 "));
      await page.keyboard.press("Home");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 0"));
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    test(`[${t.name}] a file chosen with the picker opens, its GBK decoded`, async () => {
      const page = await open();
      await page.click("#open");
      await page.setInputFiles("#filepick", { name: "gbk.sgf", mimeType: "application/x-go-sgf", buffer: GBK });
      await titled(page, "gbk.sgf");
      await page.waitForFunction(() => document.querySelector("#info-PB").value === "黑");
      assert.equal(await page.inputValue("#info-PW"), "白");
      assert.equal(await page.inputValue("#comment"), "黑");
      await page.context().close();
    });

    test(`[${t.name}] a move played makes a variation; a comment; undo and redo`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9];B[ee];W[cc])", "moves.sgf");
      await page.click("#next");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 1"));
      await page.selectOption("#tool", "play");
      await clickPoint(page, "gg");
      await page.waitForFunction(() => window.qipuPage.state().node.variations === 2);
      assert.equal(await page.evaluate(() => window.qipuPage.state().dirty), true);
      await page.fill("#comment", "a new try");
      await page.click("#savecomment");
      await page.waitForFunction(() => window.qipuPage.state().node.comment === "a new try");
      await page.click("#undo");
      await page.waitForFunction(() => window.qipuPage.state().node.comment === null);
      await page.click("#redo");
      await page.waitForFunction(() => window.qipuPage.state().node.comment === "a new try");
      await page.context().close();
    });

    test(`[${t.name}] a dropped file opens and its diagnostics are shown`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9]PB[Dropped];B[ee]W[cc])", "dropped.sgf");
      assert.equal(await page.inputValue("#info-PB"), "Dropped");
      await page.waitForSelector("#diagtoggle:not([hidden])");
      assert.match(await page.textContent("#diagtoggle"), /1 error/);
      await page.click("#diagtoggle");
      assert.match(await page.textContent("#diagnostics"), /\[F004\]/);
      await page.context().close();
    });

    test(`[${t.name}] the diagnostics in the page's language: the library's messages read back, else their code's summary`, async () => {
      const page = await open();
      await page.selectOption("#lang", "ja");
      await page.waitForFunction(() => document.querySelector("#open").textContent !== "Open…");
      await drop(page, PROBLEMS, "problems.sgf");
      await page.waitForSelector("#diagtoggle:not([hidden])");
      await page.click("#diagtoggle");
      const items = () => page.$$eval("#diagnostics li", (lis) => lis.map((l) => ({ text: l.textContent, title: l.title })));
      const ja = await items();
      const codes = new Set(ja.map((i) => /\[(\w\d+)\]/.exec(i.text)?.[1]));
      assert.ok(codes.size >= 8, [...codes].join(" "));
      assert.deepEqual(await englishLeft(page, "#diagnostics"), []);
      for (const i of ja) {
        assert.match(i.text, /^\d+:\d+ (エラー|警告) \[[A-Z]\d{3}\] /, i.text);
        // The library's own words stay as the title.
        assert.match(i.title, /[a-z]{3,} [a-z]{2,}/, i.text);
      }
      assert.ok(ja.some((i) => i.text.endsWith("[F011] L（文字）は FF[1] のプロパティです。FF[4] では LB に当たります")), ja.map((i) => i.text).join("\n"));
      const f004 = ja.find((i) => i.text.includes("[F004]"));
      assert.equal(f004.text.replace(/^\d+:\d+ /, ""), "エラー [F004] 1つのノードに B と W があります");
      assert.equal(f004.title, "`B` and `W` in one node");
      assert.ok(ja.some((i) => i.text.endsWith("[G001] B がすでに石のある ee に打っています")), ja.map((i) => i.text).join("\n"));
      // Another language: the list shown again in it.
      await page.selectOption("#lang", "zh-Hans");
      await page.waitForFunction(() => /错误|警告/.test(document.querySelector("#diagnostics li").textContent));
      assert.deepEqual(await englishLeft(page, "#diagnostics"), []);
      const zh = await items();
      assert.equal(zh.length, ja.length);
      assert.ok(zh.some((i) => i.text.endsWith("[V028] HA[1]：让子至少两子")), zh.map((i) => i.text).join("\n"));
      // Every other language of the page: no English left either.
      for (const lang of LANGUAGES.filter((l) => l !== "ja" && l !== "zh-Hans")) {
        await chooseLanguage(page, lang);
        assert.deepEqual(await englishLeft(page, "#diagnostics"), [], lang);
        assert.equal((await items()).length, ja.length, lang);
      }
      await chooseLanguage(page, "zh-Hans");
      // A message no template fits (a library newer than the page): its
      // code's summary, the message as the title; never a blank.
      await page.evaluate(() => {
        const s = window.qipuPage.state();
        window.qipuPage.show({ ...s, diagnostics: [{ line: 3, column: 7, severity: "warning", code: "G001", message: "a message no template fits" }] });
      });
      await page.waitForFunction(() => document.querySelectorAll("#diagnostics li").length === 1);
      assert.deepEqual(await items(), [{ text: "3:7 警告 [G001] 落在已有棋子的点上。", title: "a message no template fits" }]);
      /** A file dropped on the page, as the user drops it. @param {string} text @param {string} name */
      const dropText = (text, name) => page.evaluate(([text, name]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name));
        document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, [text, name]);
      // A record the library's reader refuses: its words, in a refusal.
      await dropText("[Header]\nCrypt=1\n[Data]\nAA,1\n", "broken.ugf");
      await page.waitForFunction(() => document.querySelector("#message").textContent.includes("broken.ugf"));
      assert.equal(await page.textContent("#message"), "broken.ugf：无法读取已混淆的 UGF（Crypt=1）");
      // In English, the library's words as they are.
      await page.selectOption("#lang", "en");
      await page.waitForFunction(() => document.querySelector("#diagnostics li").textContent.includes("warning"));
      assert.deepEqual(await items(), [{ text: "3:7 warning [G001] a message no template fits", title: "" }]);
      // A file with nothing of a record in it: the judgement, where the
      // board would be, in the page's language (issue 40).
      await chooseLanguage(page, "zh-Hans");
      await dropText("[Data]\nAA,1\n", "empty.ugf");
      await page.waitForSelector("#notrecord:not([hidden])");
      assert.equal(await page.textContent("#notrecordtext"), "empty.ugf 不是棋谱文件：其中没有 SGF 棋谱树 [S002]");
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    test(`[${t.name}] the repair's changes in the page's language`, async () => {
      const page = await open();
      await page.selectOption("#lang", "ko");
      await page.waitForFunction(() => document.querySelector("#open").textContent !== "Open…");
      await drop(page, "(;GM[1]FF[4]SZ[19]DT[2018.04.27]KM[5。5];B[pd]W[dd];AB[aa]B[cc]TE[1]BM[1])", "damaged.sgf");
      await menu(page, "repair");
      await page.waitForSelector("#repairdialog[open] #repairlist li");
      const items = await page.$$eval("#repairlist li", (lis) => lis.map((l) => ({ text: l.textContent, title: l.title })));
      assert.ok(items.length >= 4, items.map((i) => i.text).join("\n"));
      assert.deepEqual(await englishLeft(page, "#repairdialog"), []);
      const split = items.find((i) => i.title === "B and W in one node: W moved to a new node after it");
      assert.match(split?.text ?? "", /F004 한 노드에 B와 W: W를 뒤의 새 노드로 옮겼습니다$/, items.map((i) => i.text).join("\n"));
      await page.click("#repairdialog button[value=cancel]");
      // Every other language of the page: no English left either.
      for (const lang of LANGUAGES.filter((l) => l !== "ko")) {
        await chooseLanguage(page, lang);
        await page.evaluate(() => document.getElementById("repairlist").replaceChildren());
        await menu(page, "repair");
        await page.waitForSelector("#repairdialog[open] #repairlist li");
        assert.deepEqual(await englishLeft(page, "#repairdialog"), [], lang);
        await page.click("#repairdialog button[value=cancel]");
      }
      await page.context().close();
    });

    test(`[${t.name}] pasted SGF text opens`, async () => {
      const page = await open();
      await page.click("#open");
      await page.fill("#pastetext", "(;GM[1]SZ[9]PB[Pasted 貼り付け];B[ee];W[cc])");
      await page.click("#pasteopen");
      await titled(page, "pasted.sgf");
      await page.waitForFunction(() => document.querySelector("#info-PB").value === "Pasted 貼り付け");
      await page.context().close();
    });

    test(`[${t.name}] exports: PNG, SVG, the record, figures, a Sensei's Library diagram`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9]PB[Ex];B[ee];W[cc];B[gg])", "export.sgf");
      await page.click("#next");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 1"));
      for (const [item, magic, name] of [["png", "\x89PNG", /^export-1\.png$/], ["svg", "<svg", /^export-1\.svg$/]]) {
        const [download] = await Promise.all([page.waitForEvent("download"), menu(page, item)]);
        const head = readFileSync(await download.path()).subarray(0, 200).toString("latin1");
        assert.ok(head.includes(magic), `${item} gives ${magic}`);
        assert.match(download.suggestedFilename(), name);
      }
      page.once("dialog", (d) => d.accept("1"));
      const [fig] = await Promise.all([page.waitForEvent("download"), menu(page, "figures")]);
      assert.equal(fig.suggestedFilename(), "export-figures.html");
      const html = readFileSync(await fig.path(), "utf8");
      assert.ok((html.match(/<section class="figure"/g) || []).length >= 3, html.slice(0, 300));
      // Save as, with no folder served: the canonical record downloaded.
      const [sgf] = await Promise.all([page.waitForEvent("download"), menu(page, "saveas")]);
      assert.equal(sgf.suggestedFilename(), "export.sgf");
      const record = readFileSync(await sgf.path(), "utf8");
      assert.ok(record.startsWith("(;") && record.includes("CA[UTF-8]") && record.includes("PB[Ex]"), record);
      await menu(page, "copydiagram");
      await page.waitForSelector("#diagramdialog[open]");
      const diagram = await page.inputValue("#diagramtext");
      assert.match(diagram, /^\$\$Wc\n/);
      assert.equal((diagram.match(/X/g) || []).length, 1, diagram);
      await page.keyboard.press("Escape");
      await page.context().close();
    });

    test(`[${t.name}] the games of a collection: the list, a game opened`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]SZ[9]PB[Ann]PW[Bob]RE[B+R];B[ee])(;GM[1]SZ[9]PB[Cy]PW[Di]RE[W+2.5];B[cc];W[gg])", "two.sgf");
      await page.waitForFunction(() => !document.querySelector("#games").hidden);
      await page.click("#games");
      await page.waitForSelector("#gamesdialog[open] tr.game");
      const rows = await page.$$eval("#gamestable tr.game", (trs) => trs.map((t) => t.cells[1].textContent));
      assert.deepEqual(rows, ["Ann", "Cy"]);
      await page.locator("#gamestable tr.game").nth(1).click();
      await page.waitForFunction(() => window.qipuPage.state().game === 1);
      assert.equal(await page.inputValue("#info-PB"), "Cy");
      await page.context().close();
    });

    test(`[${t.name}] repair lists its changes before applying them, undo reverts it`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[19]DT[2018.04.27]KM[5。5];B[pd]W[dd])", "damaged.sgf");
      await menu(page, "repair");
      await page.waitForSelector("#repairdialog[open] #repairlist li");
      const items = await page.$$eval("#repairlist li", (lis) => lis.map((l) => l.textContent));
      assert.ok(items.some((x) => x.includes("DT[2018-04-27]")), items.join("\n"));
      await page.click("#repairapply");
      await page.waitForFunction(() => document.querySelector("#info-DT").value === "2018-04-27");
      await page.click("#undo");
      await page.waitForFunction(() => document.querySelector("#info-DT").value === "2018.04.27");
      await page.context().close();
    });

    test(`[${t.name}] counting with Qipu's estimate, a group toggled, the result set and undone`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9]KM[0.5]RU[Japanese]" +
        "AB[da][db][dc][dd][de][df][dg][dh][di]AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][be];B[];W[])", "count.sgf");
      await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
      await page.click("#last");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 2"));
      await page.selectOption("#countfrom", "estimator");
      await page.click("#count");
      await page.waitForSelector("#board svg g.qipu-overlay path.dead");
      assert.match(await page.textContent("#countresult"), /Result: B\+0\.5/);
      await clickPoint(page, "be");
      await page.waitForFunction(() => document.querySelector("#board svg g.qipu-overlay path.dead") === null);
      await clickPoint(page, "be");
      await page.waitForSelector("#board svg g.qipu-overlay path.dead");
      await page.click("#writeresult");
      await page.waitForFunction(() => window.qipuPage.state().info.RE === "B+0.5");
      await page.click("#undo");
      await page.waitForFunction(() => window.qipuPage.state().info.RE === undefined);
      await page.context().close();
    });

    test(`[${t.name}] the page in 日本語, its translations loaded`, async () => {
      const page = await open();
      await page.selectOption("#lang", "ja");
      await page.waitForFunction(() => document.querySelector("#open").textContent === "開く…");
      assert.match(await status(page), /^0手目 · 黒の番/);
      await page.context().close();
    });

    test(`[${t.name}] the server's messages in 日本語: a refusal, and a question built of two`, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9]AW[ba][ab])", "suicide.sgf");
      await titled(page, "suicide.sgf");
      await page.selectOption("#lang", "ja");
      await page.waitForFunction(() => document.querySelector("#open").textContent === "開く…");
      // Black at a1 has no liberty: the server asks in English, with its
      // reason inside; the page asks in Japanese.
      const asked = new Promise((resolve) => page.once("dialog", (d) => { resolve(d.message()); d.dismiss(); }));
      await clickPoint(page, "aa");
      assert.equal(await asked, "反則手です：この手は自殺手です（その石の気がなくなります）。それでも打ちますか？");
      // On a stone set up (no move to go to): the reason, then the point.
      const again = new Promise((resolve) => page.once("dialog", (d) => { resolve(d.message()); d.dismiss(); }));
      await clickPoint(page, "ba");
      assert.equal(await again, "反則手です：この点にはすでに石があります（B9）。それでも打ちますか？");
      // A refusal (no comment before the first node) in the message line.
      await page.keyboard.press("Control+Shift+ArrowUp");
      await page.waitForFunction(() => document.querySelector("#message").textContent === "このノードより前にコメントはありません");
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    test(`[${t.name}] Save writes the record: in place, or downloaded`, { skip: isStatic ? false : "the server saves into the served folder: view.test.mjs and evict.test.mjs test it" }, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9]  ;B[ee]  )", "keep.sgf");
      await page.fill("#comment", "saved");
      await page.click("#savecomment");
      await page.waitForFunction(() => window.qipuPage.state().dirty);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save")]);
      assert.equal(download.suggestedFilename(), "keep.sgf");
      // Only what was edited changed (lossless): the spaces stay.
      assert.equal(readFileSync(await download.path(), "utf8"), "(;GM[1]FF[4]SZ[9]C[saved]  ;B[ee]  )");
      await page.waitForFunction(() => !window.qipuPage.state().dirty);
      assert.match(await page.textContent("#message"), /Saved keep\.sgf \(downloaded\)/);
      await page.context().close();
    });

    test(`[${t.name}] a file opened by the browser's file access is saved in place`, { skip: isStatic ? false : "the server saves into the served folder: view.test.mjs tests it" }, async () => {
      const page = await open();
      // The browser's picker stood in for (a native dialog): the file it
      // gives, and what is written back to it.
      await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.written = [];
        w.showOpenFilePicker = async () => [{
          kind: "file",
          name: "inplace.sgf",
          getFile: async () => new File(["(;GM[1]FF[4]SZ[9] ;B[ee])"], "inplace.sgf"),
          createWritable: async () => ({ write: async (b) => w.written.push(new TextDecoder().decode(b)), close: async () => {} }),
        }];
      });
      await page.click("#open");
      await page.click("#filepick");
      await titled(page, "inplace.sgf");
      await page.fill("#comment", "in place");
      await page.click("#savecomment");
      await page.waitForFunction(() => window.qipuPage.state().dirty);
      await page.click("#save");
      await page.waitForFunction(() => !window.qipuPage.state().dirty);
      assert.deepEqual(await page.evaluate(() => window.written), ["(;GM[1]FF[4]SZ[9]C[in place] ;B[ee])"]);
      assert.match(await page.textContent("#message"), /^Saved inplace\.sgf$/);
      await page.context().close();
    });

    test(`[${t.name}] the one-file page opens from the disk (file://)`, { skip: isStatic ? false : "the server's page is served, never a file" }, async () => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
      const page = await ctx.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`file://${join(staticDir, "qipu-viewer.html")}`);
      await page.waitForSelector("#board svg");
      await titled(page, "qipu-example.sgf");
      await page.click("#next");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 1"));
      await drop(page, "(;GM[1]FF[4]SZ[9]PB[Disk];B[ee])", "disk.sgf");
      assert.equal(await page.inputValue("#info-PB"), "Disk");
      const [svg] = await Promise.all([page.waitForEvent("download"), menu(page, "svg")]);
      assert.match(readFileSync(await svg.path(), "utf8"), /^<svg/);
      await page.selectOption("#lang", "ja");
      await page.waitForFunction(() => document.querySelector("#open").textContent === "開く…");
      assert.deepEqual(errors, []);
      await ctx.close();
    });

    test(`[${t.name}] unsaved work comes back after a reload`, { skip: isStatic ? false : "the server keeps records while it runs (evict.test.mjs)" }, async () => {
      const page = await open();
      await drop(page, "(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gg])", "kept.sgf");
      await page.click("#next");
      await page.click("#next");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 2"));
      await page.fill("#comment", "not saved yet");
      await page.click("#savecomment");
      await page.waitForFunction(() => window.qipuPage.state().dirty);
      page.on("dialog", (d) => d.accept());
      // What the page keeps is written after each change: wait for it.
      await page.waitForFunction(() => new Promise((resolve) => {
        const req = indexedDB.open("qipu-static");
        req.onsuccess = () => {
          const get = req.result.transaction("kept").objectStore("kept").get("record");
          get.onsuccess = () => resolve(!!get.result && get.result.node === 2);
          get.onerror = () => resolve(false);
        };
        req.onerror = () => resolve(false);
      }));
      await page.reload();
      await page.waitForSelector("#board svg");
      await titled(page, "kept.sgf");
      await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Move 2"));
      assert.equal(await page.inputValue("#comment"), "not saved yet");
      assert.equal(await page.evaluate(() => window.qipuPage.state().dirty), true);
      assert.match(await page.textContent("#message"), /unsaved changes were kept/);
      await page.context().close();
    });

    test(`[${t.name}] engines and database search say they need qipu view`, { skip: isStatic ? false : "the server runs engines and searches databases (view.test.mjs, sabaki.test.mjs, search.test.mjs)" }, async () => {
      const page = await open();
      await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
      assert.match(await page.textContent("#enginepanel"), /Engines .* are available with qipu view/);
      assert.equal(await page.isDisabled("#enginestart"), true);
      assert.match(await page.textContent("#dbinfo"), /qipu view --db/);
      // Asked anyway (the API as a script uses it): refused, saying where.
      const st = await page.evaluate(async () => {
        const { api } = await import("/api.js");
        return api("/api/engine", { session: window.qipuPage.state().session, action: "start", engine: "gnugo" });
      });
      assert.match(st.message, /available with `qipu view`/);
      await page.context().close();
    });

    test(`[${t.name}] screenshots at 1400×900 and 390×844`, async () => {
      for (const [w, h] of [[1400, 900], [390, 844]]) {
        const page = await open({ width: w, height: h });
        await page.click("#last");
        await page.waitForFunction(() => !document.querySelector("#status").textContent.startsWith("Move 0"));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${w}×${h}: ${overflow} px wider than the window`);
        await page.screenshot({ path: join(shots, `${t.name}-${w}x${h}.png`) });
        if (w > 1000) {
          // The engine panel: what the static page says of engines.
          await page.evaluate(() => (document.querySelector("#enginepanel").open = true));
          await page.screenshot({ path: join(shots, `${t.name}-${w}x${h}-engine.png`) });
        }
        await page.context().close();
      }
    });
  });
}
