// screenshot.js — a PNG of the trace viewer at a step, for the README (make screenshot).
// Usage: node screenshot.js PAGE.html OUT.png [STEP|FRACTION] [WIDTHxHEIGHT]
"use strict";
const { launch, openViewer } = require("./browser.js");

(async () => {
  const [html, out, at = "0.5", size = "1600x1000"] = process.argv.slice(2);
  if (!html || !out) {
    console.error("usage: node screenshot.js PAGE.html OUT.png [STEP|FRACTION] [WIDTHxHEIGHT]");
    process.exit(2);
  }
  const [width, height] = size.split("x").map(Number);
  const browser = await launch();
  try {
    const { page, errors } = await openViewer(browser, html, { width, height });
    await page.evaluate((a) => {
      const v = window.smaltiViewer;
      v.seek(a.includes(".") ? Math.round(parseFloat(a) * v.steps) : parseInt(a, 10));
    }, at);
    /* The mouse over a cell a third of the way in, so that the hover readout shows. */
    const spot = await page.evaluate(() => {
      const v = window.smaltiViewer, r = document.getElementById("grid").getBoundingClientRect();
      const c = v.cellCenter(Math.floor(v.gridSize[0] / 3), Math.floor(v.gridSize[1] / 3));
      return { x: r.left + c.x / devicePixelRatio, y: r.top + c.y / devicePixelRatio };
    });
    await page.mouse.move(spot.x, spot.y);
    await page.screenshot({ path: out });
    if (errors.length) throw new Error("page errors: " + errors.join("; "));
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error("screenshot: " + e.message);
  process.exit(1);
});
