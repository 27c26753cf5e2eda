// studio_latency.js — `smalti studio`'s save-to-picture time, in headless Chromium: the model file
// is saved again (same text) and the time until the page has drawn the new run is taken, 20 times
// per size; prints the median. The model is MazeGrowth from the corpus (../shared/mj), copied to
// a temporary folder.
// Usage: node bench/studio_latency.js SMALTI
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const { launch } = require("../tests/browser/browser.js");

const smalti = path.resolve(process.argv[2] || "./smalti");
const corpus = path.resolve(__dirname, "../../shared/mj/models/MazeGrowth.xml");

function startStudio(model, size) {
  return new Promise((resolve, reject) => {
    const proc = spawn(smalti, ["studio", model, "--size", String(size), "--seed", "1"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^(http:\/\/\S+)\n/);
      if (m) resolve({ proc, url: m[1] });
    });
    proc.on("exit", (c) => reject(new Error("studio exited " + c)));
  });
}

async function main() {
  if (!fs.existsSync(corpus)) {
    console.log("studio latency: no corpus at " + corpus + "; skipped");
    return;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-studio-bench-"));
  const model = path.join(tmp, "MazeGrowth.xml");
  const text = fs.readFileSync(corpus, "utf8");
  fs.writeFileSync(model, text);
  const browser = await launch();
  try {
    for (const size of [64, 255]) {
      const studio = await startStudio(model, size);
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(studio.url);
      await page.waitForFunction(() => window.smaltiStudio && window.smaltiStudio.runs >= 1, null, { timeout: 60000 });
      const times = [];
      for (let i = 0; i < 20; i++) {
        const runs = await page.evaluate(() => window.smaltiStudio.runs);
        const saved = Date.now();
        fs.writeFileSync(model, text);
        await page.waitForFunction((n) => window.smaltiStudio.runs > n, runs, { timeout: 60000 });
        times.push((await page.evaluate(() => window.smaltiStudio.shownAt)) - saved);
      }
      times.sort((a, b) => a - b);
      const steps = await page.evaluate(() => window.smaltiViewer.steps);
      console.log(`studio latency: MazeGrowth ${size}² (${steps} steps), save to picture: median ${times[10]} ms ` +
        `(min ${times[0]}, max ${times[19]}, 20 saves)`);
      await page.close();
      studio.proc.kill("SIGTERM");
      await new Promise((r) => studio.proc.on("exit", r));
    }
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => { console.log("studio latency: FAILED: " + e.message); process.exit(1); });
