// studio_screenshot.js — docs/studio.png (make screenshot): smalti studio on models/dungeon.xml
// (63², seed 1) right after a save that broke the model: the error bar with its file:line
// message, the marked line, and the last good run still on the canvas.
// Usage: node studio_screenshot.js SMALTI OUT.png
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const { HANG_MS, launch, newPage, waitFor } = require("./browser.js");

const [smalti, out] = process.argv.slice(2);
if (!smalti || !out) {
  console.error("usage: node studio_screenshot.js SMALTI OUT.png");
  process.exit(2);
}

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-studio-shot-"));
  const model = path.join(tmp, "dungeon.xml");
  const text = fs.readFileSync(path.resolve(__dirname, "../../models/dungeon.xml"), "utf8");
  fs.writeFileSync(model, text);
  const proc = spawn(path.resolve(smalti), ["studio", model, "--size", "63", "--seed", "1"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let got = "";
    const timer = setTimeout(() => { proc.kill("SIGTERM"); reject(new Error(`studio printed no URL within ${HANG_MS / 1000} s (hang guard)`)); }, HANG_MS);
    proc.stdout.on("data", (d) => { got += d; const m = got.match(/^(http:\/\/\S+)\n/); if (m) { clearTimeout(timer); resolve(m[1]); } });
    proc.on("exit", (c) => { clearTimeout(timer); reject(new Error("studio exited " + c)); });
  });
  const browser = await launch();
  try {
    const page = await newPage(browser, { viewport: { width: 1600, height: 1000 } });
    await page.goto(url);
    await waitFor(page, "studio: the first run shown", () => window.smaltiStudio && window.smaltiStudio.runs >= 1);
    /* A typo in a rule: a symbol the model does not have. */
    const broken = text.replace(/ out="([^"]*)"/, (m, o) => ` out="${o.slice(0, -1)}Z"`);
    fs.writeFileSync(model, broken);
    await waitFor(page, "studio: the broken model's error shown", () => window.smaltiStudio.error);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    proc.kill("SIGTERM");
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
