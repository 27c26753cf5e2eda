// gallery_test.js — `smalti pack gallery` pages in headless Chromium: every model of the pack has a
// card whose picture is an embedded PNG that loads (naturalWidth > 0), the page asks for nothing
// but data: and file: URLs (every request is intercepted; any other one fails the test) and logs
// no error (a Content-Security-Policy violation is one). Packs: a small one made here with
// `pack new` (plus a 3-D model and one with its own thumbnail), and the project's models/.
// Usage: node gallery_test.js SMALTI
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { launch, newPage } = require("./browser.js");

const smalti = process.argv[2] && path.resolve(process.argv[2]);
if (!smalti) {
  console.error("usage: node gallery_test.js SMALTI");
  process.exit(2);
}
const root = path.resolve(__dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-gallery-"));
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; console.log("FAIL: " + what); }
}

/* A pack from `pack new`, with a 3-D model (an isometric picture) and a model whose entry names a
   thumbnail PNG of the pack, so that all three ways to a picture are on the page. */
function makeTestPack() {
  const dir = path.join(tmp, "testpack");
  execFileSync(smalti, ["pack", "new", dir, "-q"]);
  fs.writeFileSync(path.join(dir, "models", "blocks.xml"),
    '<sequence values="BWR">\n  <one in="B" out="W" steps="40"/>\n  <one in="W" out="R" steps="10"/>\n</sequence>\n');
  fs.copyFileSync(path.join(dir, "models", "islands.xml"), path.join(dir, "models", "thumbed.xml"));
  fs.mkdirSync(path.join(dir, "thumbs"));
  execFileSync(smalti, ["run", path.join(dir, "models", "islands.xml"), "--size", "16", "-q", "-o", path.join(dir, "thumbs", "small.png")]);
  const manifest = path.join(dir, "pack.xml");
  fs.writeFileSync(manifest, fs.readFileSync(manifest, "utf8").replace("</pack>",
    '  <model file="models/blocks.xml" name="blocks" title="Blocks &amp; &lt;3-D&gt;" tags="3d" size="8" d="3" pixelsize="4"/>\n' +
    '  <model file="models/thumbed.xml" title="With a thumbnail" thumbnail="thumbs/small.png"/>\n</pack>'));
  return dir;
}

async function checkGallery(browser, pack, label) {
  const html = path.join(tmp, label + ".html");
  execFileSync(smalti, ["pack", "gallery", pack, "-q", "-o", html]);
  const models = (fs.readFileSync(path.join(pack, "pack.xml"), "utf8").match(/<model\b/g) || []).length;
  const page = await newPage(browser);
  const offsite = [], errors = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(file|data):/.test(url)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  page.on("request", (r) => { if (!/^(file|data|about):/.test(r.url())) offsite.push(r.url()); });
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  await page.goto("file://" + html, { waitUntil: "load" });
  const cards = await page.evaluate(() => [...document.querySelectorAll("figure.card")].map((f) => {
    const img = f.querySelector("img");
    return { id: f.id, loaded: !!img && img.complete && img.naturalWidth > 0,
             embedded: !!img && img.getAttribute("src").startsWith("data:image/png;base64,"),
             command: (f.querySelector("code") || {}).textContent || "" };
  }));
  check(models > 0 && cards.length === models, `${label}: ${cards.length} cards for ${models} models`);
  for (const c of cards) {
    check(c.loaded, `${label}: the picture of ${c.id} did not load`);
    check(c.embedded, `${label}: the picture of ${c.id} is not an embedded PNG`);
    check(c.command.startsWith("smalti run "), `${label}: ${c.id} shows no command (${c.command})`);
  }
  check(offsite.length === 0, `${label}: the page asked the network for ${offsite.join(" ")}`);
  check(errors.length === 0, `${label}: page errors: ${errors.join("; ")}`);
  await page.close();
  return cards;
}

/* The watch on requests must see one: a page with an image on the web. */
async function checkTheWatch(browser) {
  const html = path.join(tmp, "offsite.html");
  fs.writeFileSync(html, '<!DOCTYPE html><img src="http://example.invalid/x.png">');
  const page = await newPage(browser);
  const offsite = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(file|data):/.test(url)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  await page.goto("file://" + html, { waitUntil: "load" });
  check(offsite.length === 1, `the request watch missed an offsite image (${offsite.length} seen)`);
  await page.close();
}

(async () => {
  let browser;
  try {
    browser = await launch();
    await checkTheWatch(browser);
    const cards = await checkGallery(browser, makeTestPack(), "testpack");
    check(cards.some((c) => c.id === "model-blocks") && cards.some((c) => c.id === "model-thumbed"),
      "testpack: the 3-D and thumbnail models have no cards");
    await checkGallery(browser, path.join(root, "models"), "models");
  } catch (e) {
    failed++;
    console.log("FAIL: " + (e && e.stack ? e.stack : e));
  } finally {
    if (browser) await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`pack gallery in headless Chromium: ${passed} checks passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
