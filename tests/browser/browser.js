// browser.js — what the viewer's browser scripts share: start Debian's Chromium headless
// through playwright-core, open pages with generous hang guards, open a viewer page from disk,
// and watch for network requests and errors. A browser that cannot start is an error, never a skip.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/* The hang guard of every wait in a page (Playwright's own default is 30 s): far beyond what any
   wait takes on a loaded machine, so that it never decides a result and only turns a hang into a
   failure that names what was awaited. */
const HANG_MS = 120000;

/* A new page of `browser` whose actions (goto, click, fill, ...) wait at most HANG_MS. */
async function newPage(browser, options) {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(HANG_MS);
  page.setDefaultNavigationTimeout(HANG_MS);
  return page;
}

/* Wait until fn(arg) is true in the page; past `ms` (a hang guard), fail saying what was awaited. */
async function waitFor(page, what, fn, arg, ms = HANG_MS) {
  try {
    return await page.waitForFunction(fn, arg, { timeout: ms });
  } catch (e) {
    if (e && e.name === "TimeoutError") throw new Error(`${what}: not within ${ms / 1000} s (hang guard)`);
    throw e;
  }
}

/* Poll `check` (async; truthy when done) every 20 ms; past `ms` (a hang guard), fail saying what
   was awaited. Returns check's value. */
async function until(what, check, ms = HANG_MS) {
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 20))) {
    const got = await check();
    if (got) return got;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms / 1000} s (hang guard)`);
  }
}

async function launch() {
  try {
    // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  } catch (e) {
    throw new Error(`cannot start Chromium (${CHROMIUM}): ${e.message.split("\n")[0]} — install the Debian package chromium (make deps)`);
  }
}

/* Open file `html` in a new page of `browser`; returns the page and the lists of
   requests that left the file and of errors the page reported. */
async function openViewer(browser, html, viewport = { width: 1400, height: 900 }) {
  const page = await newPage(browser, { viewport });
  const network = [], errors = [];
  page.on("request", (r) => {
    const url = r.url();
    if (!/^(file|data|blob|about):/.test(url)) network.push(url);
  });
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  const url = "file://" + path.resolve(html);
  await page.goto(url);
  await waitFor(page, `the viewer page ${html} ready`, () => window.smaltiViewer && window.smaltiViewer.ready);
  const failed = await page.evaluate(() => window.smaltiViewer.error);
  if (failed) throw new Error(`the viewer could not load ${html}: ${failed}`);
  return { page, network, errors };
}

module.exports = { HANG_MS, launch, newPage, waitFor, until, openViewer };
