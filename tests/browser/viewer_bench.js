// viewer_bench.js — how fast a viewer page opens and seeks in headless Chromium.
// Prints: load_ms (navigation start to the first drawn grid), then the median and the
// worst of SEEKS seeks to random steps (each: replay from a keyframe and redraw).
// Usage: node viewer_bench.js PAGE.html [SEEKS]
"use strict";
const { launch, openViewer } = require("./browser.js");

(async () => {
  const [html, seeksArg = "40"] = process.argv.slice(2);
  if (!html) {
    console.error("usage: node viewer_bench.js PAGE.html [SEEKS]");
    process.exit(2);
  }
  const browser = await launch();
  try {
    const loads = [];
    let seeks = [];
    for (let round = 0; round < 3; round++) {
      const { page, errors } = await openViewer(browser, html);
      loads.push(await page.evaluate(() => window.smaltiViewer.loadMs));
      if (round === 0) {
        seeks = await page.evaluate((n) => {
          const v = window.smaltiViewer, times = [];
          let x = 987654321;
          for (let i = 0; i < n; i++) {
            x = (x * 1103515245 + 12345) % 2147483648;
            const step = i === 0 ? v.steps : x % (v.steps + 1);
            const t0 = performance.now();
            v.seek(step);
            times.push(performance.now() - t0);
          }
          return times;
        }, +seeksArg);
      }
      if (errors.length) throw new Error("page errors: " + errors.join("; "));
      await page.close();
    }
    seeks.sort((a, b) => a - b);
    const load = Math.min(...loads);
    console.log(`${load.toFixed(0)} ${seeks[seeks.length >> 1].toFixed(1)} ${seeks[seeks.length - 1].toFixed(1)}`);
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error("viewer_bench: " + e.message);
  process.exit(1);
});
