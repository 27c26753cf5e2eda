// browser.js — what the viewer's browser scripts share: start Debian's Chromium headless
// through playwright-core, open a viewer page from disk, and watch for network requests
// and errors. A browser that cannot start is an error, never a skip.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

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
  const page = await browser.newPage({ viewport });
  const network = [], errors = [];
  page.on("request", (r) => {
    const url = r.url();
    if (!/^(file|data|blob|about):/.test(url)) network.push(url);
  });
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  const url = "file://" + path.resolve(html);
  await page.goto(url);
  await page.waitForFunction(() => window.smaltiViewer && window.smaltiViewer.ready, null, { timeout: 30000 });
  const failed = await page.evaluate(() => window.smaltiViewer.error);
  if (failed) throw new Error(`the viewer could not load ${html}: ${failed}`);
  return { page, network, errors };
}

module.exports = { launch, openViewer };
