// twisted_svg_test.js — a twisted map's SVG (-o map.svg of a run with a growgrid lattice) in headless
// Chromium: it opens as an SVG document without errors, has one polygon per cell, and its
// polygons' total bounding box lies inside the picture.
// Usage: node twisted_svg_test.js SMALTI
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { launch, newPage } = require("./browser.js");

const smalti = process.argv[2] && path.resolve(process.argv[2]);
if (!smalti) {
  console.error("usage: node twisted_svg_test.js SMALTI");
  process.exit(2);
}
const root = path.resolve(__dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-twisted-"));
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; console.log("FAIL: " + what); }
}

(async () => {
  const model = path.join(tmp, "map.xml"), svg = path.join(tmp, "map.svg");
  fs.writeFileSync(model, '<sequence values="BWR">\n  <smalti size="12" pixelsize="10"/>\n  <growgrid shape="Disc" block="2"/>\n' +
    '  <noise type="white"><band to="-0.3" value="B"/><band to="0.3" value="W"/><band value="R"/></noise>\n</sequence>\n');
  execFileSync(smalti, ["run", model, "--resources", path.join(root, "models/resources"), "-q", "-o", svg]);
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const errors = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
    page.on("pageerror", (e) => errors.push("page: " + e.message));
    await page.goto("file://" + svg);
    const seen = await page.evaluate(() => {
      const root = document.documentElement;
      const parseError = document.getElementsByTagName("parsererror").length;
      const polys = document.querySelectorAll("polygon");
      const box = root.querySelector("g").getBBox();
      return { name: root.localName, ns: root.namespaceURI, parseError, polygons: polys.length, box: [box.x, box.y, box.width, box.height] };
    });
    check(seen.name === "svg" && seen.ns === "http://www.w3.org/2000/svg", `root element ${seen.name} in ${seen.ns}`);
    check(seen.parseError === 0, "the SVG parses");
    check(seen.polygons === 144, `${seen.polygons} polygons, want 144 (12x12 cells)`);
    const [x, y, w, h] = seen.box;
    check(x >= -0.1 && y >= -0.1 && x + w <= 12.1 && y + h <= 12.1 && w > 1 && h > 1, `cells' bounding box ${seen.box} within 0..12`);
    check(errors.length === 0, "errors: " + errors.join("; "));
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`browser twisted svg: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
