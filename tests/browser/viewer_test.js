// viewer_test.js — the trace viewer in headless Chromium: a 2-D trace is stepped to chosen
// steps through the page's own controls, and the canvas must show the grid the C reader
// replays there, in the palette colours, with the acting node highlighted; a 3-D trace must
// draw its isometric and z-slice views; a trace with a growgrid lattice its twisted view beside the
// straight one; every step of a run is counted on the tree's root, hand-overs included; no page may
// reach the network or log an error.
// Usage: node viewer_test.js SMALTI TRACE_EXPECT
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { launch, openViewer, waitFor } = require("./browser.js");

const [smalti, expectTool] = process.argv.slice(2).map((p) => path.resolve(p));
if (!smalti || !expectTool) {
  console.error("usage: node viewer_test.js SMALTI TRACE_EXPECT");
  process.exit(2);
}
const root = path.resolve(__dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-viewer-"));
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; console.log("FAIL: " + what); }
}

/* Record a model, write its page, and ask the C reader what the chosen steps hold. */
function prepare(name, model, sizeArgs, steps) {
  const trace = path.join(tmp, name + ".trace"), html = path.join(tmp, name + ".html");
  execFileSync(smalti, ["run", path.join(root, model), ...sizeArgs, "--seed", "1", "-q", "--trace", trace, "-o", path.join(tmp, name + ".txt")]);
  execFileSync(smalti, ["view", trace, "-o", html]);
  const total = JSON.parse(execFileSync(expectTool, [trace, "0"]).toString()).steps;
  const chosen = steps(total);
  const expected = JSON.parse(execFileSync(expectTool, [trace, ...chosen.map(String)]).toString());
  return { html, total, expected: expected.at };
}

/* The canvas pixel (r, g, b) at the centre of cell (x, y) of the shown layer. */
async function cellColor(page, x, y) {
  return page.evaluate(([cx, cy]) => {
    const c = window.smaltiViewer.cellCenter(cx, cy);
    const d = document.getElementById("grid").getContext("2d").getImageData(c.x, c.y, 1, 1).data;
    return [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, "0")).join("");
  }, [x, y]);
}

/* Cells to look at: a spread over the layer, and the cells that differ from step 0. */
function sampleCells(at, z, first) {
  const cells = [], layer = at.mx * at.my;
  for (let k = 0; k < 40; k++) cells.push([(k * 7) % at.mx, (k * 11 + Math.floor(k / 3)) % at.my]);
  for (let i = 0; i < layer && cells.length < 80; i++)
    if (first && at.cells[z * layer + i] !== first.cells[z * layer + i]) cells.push([i % at.mx, Math.floor(i / at.mx)]);
  return cells;
}

async function checkGrid(page, at, z, first, label) {
  const layer = at.mx * at.my;
  let bad = 0, shown = "";
  for (const [x, y] of sampleCells(at, z, first)) {
    const want = at.colors[at.cells.charCodeAt(z * layer + x + y * at.mx) - 48];
    const got = await cellColor(page, x, y);
    if (got !== want) { bad++; if (!shown) shown = ` (cell ${x},${y}: ${got}, expected ${want})`; }
  }
  check(bad === 0, `${label}: ${bad} cells show the wrong colour${shown}`);
}

async function checkStep(page, at, label) {
  const state = await page.evaluate(() => ({
    step: window.smaltiViewer.step,
    acting: [...document.querySelectorAll(".node.acting")].map((e) => +e.dataset.id),
    scrubber: +document.getElementById("scrubber").value,
  }));
  check(state.step === at.step, `${label}: the viewer is at step ${state.step}, expected ${at.step}`);
  check(state.scrubber === at.step, `${label}: the scrubber shows ${state.scrubber}`);
  const want = at.node >= 0 ? [at.node] : [];
  check(JSON.stringify(state.acting) === JSON.stringify(want),
    `${label}: highlighted node ${JSON.stringify(state.acting)}, the trace names ${JSON.stringify(want)}`);
}

async function test2d(browser) {
  const t = prepare("maze", "models/maze.xml", ["--size", "21"], (n) => [0, Math.floor(n / 3) + 1, Math.floor((2 * n) / 3), n - 1, n]);
  const [first, a, b, c, last] = t.expected;
  const { page, network, errors } = await openViewer(browser, t.html);

  // Step 1/3 of the way: typed into the step box.
  await page.fill("#step-input", String(a.step));
  await page.press("#step-input", "Enter");
  await checkStep(page, a, `step ${a.step} (typed)`);
  await checkGrid(page, a, 0, first, `step ${a.step}`);

  // Two thirds: one step back from there with the left arrow key.
  await page.fill("#step-input", String(b.step + 1));
  await page.press("#step-input", "Enter");
  await page.keyboard.press("ArrowLeft");
  await checkStep(page, b, `step ${b.step} (arrow left)`);
  await checkGrid(page, b, 0, first, `step ${b.step}`);

  // The last step: End, then back one with the button, forward with the right arrow.
  await page.keyboard.press("End");
  await checkStep(page, last, `step ${last.step} (End)`);
  await checkGrid(page, last, 0, first, `step ${last.step}`);
  await page.click("#btn-back");
  await checkStep(page, c, `step ${c.step} (back button)`);
  await checkGrid(page, c, 0, first, `step ${c.step}`);
  await page.keyboard.press("ArrowRight");
  await checkStep(page, last, `step ${last.step} (arrow right)`);

  // The scrubber goes back to the start grid.
  await page.$eval("#scrubber", (s) => { s.value = "0"; s.dispatchEvent(new Event("input")); });
  await checkStep(page, first, "step 0 (scrubber)");
  await checkGrid(page, first, 0, null, "step 0");

  // Space plays: the step moves on, and space pauses again. At the slowest speed, 1 step/s (and a
  // quarter step at most per frame, however late), the playback needs as many seconds as the run has
  // steps (hundreds) to reach its end, where it would stop by itself and the second press restart it.
  await page.selectOption("#speed", "1");
  await page.keyboard.press("Space");
  await waitFor(page, "space: the playback moving past step 0", () => window.smaltiViewer.step > 0);
  await page.keyboard.press("Space");
  const label = await page.evaluate(() => document.getElementById("btn-play").getAttribute("aria-label"));
  check(label === "play", "space pauses the playback");

  // The hover line names the cell under the mouse.
  await page.evaluate(() => window.smaltiViewer.seek(0));
  const box = await page.evaluate(() => {
    const c = window.smaltiViewer.cellCenter(3, 4), r = document.getElementById("grid").getBoundingClientRect();
    return { x: r.left + c.x / devicePixelRatio, y: r.top + c.y / devicePixelRatio };
  });
  await page.mouse.move(box.x, box.y);
  const hover = await page.textContent("#hover");
  check(/x 3\s+y 4/.test(hover), `hover shows the cell: "${hover}"`);
  check(network.length === 0, "2-D page made network requests: " + network.join(" "));
  check(errors.length === 0, "2-D page errors: " + errors.join("; "));
  await page.close();
}

async function test3d(browser) {
  const t = prepare("tower", "models/tower3d.xml", ["--length", "11", "--width", "11", "--height", "16"], (n) => [0, Math.floor(n / 2), n]);
  const [first, mid, last] = t.expected;
  const { page, network, errors } = await openViewer(browser, t.html);
  const mode = await page.evaluate(() => window.smaltiViewer.mode);
  check(mode === "iso", "a 3-D trace opens in the isometric view");
  await page.keyboard.press("End");
  /* The isometric picture: many pixels that are not the background, in the palette's hues. */
  const drawn = await page.evaluate(() => {
    const c = document.getElementById("grid");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== 0x0e || d[i + 1] !== 0x0f || d[i + 2] !== 0x12) n++;
    return n;
  });
  check(drawn > 5000, `the isometric view draws the tower (${drawn} pixels)`);
  await page.click("#mode-slice");
  const z = Math.floor(last.mz / 4);
  await page.$eval("#z-slider", (s, v) => { s.value = String(v); s.dispatchEvent(new Event("input")); }, z);
  await checkStep(page, last, `3-D step ${last.step}`);
  await checkGrid(page, last, z, first, `3-D step ${last.step}, slice z=${z}`);
  await page.fill("#step-input", String(mid.step));
  await page.press("#step-input", "Enter");
  await checkGrid(page, mid, z, first, `3-D step ${mid.step}, slice z=${z}`);
  await page.click("#mode-iso");
  await page.keyboard.press("Home");
  check(network.length === 0, "3-D page made network requests: " + network.join(" "));
  check(errors.length === 0, "3-D page errors: " + errors.join("; "));
  await page.close();
}

/* A trace with a growgrid lattice shows the twisted view beside the straight one: the colour at each sampled
   cell's quad centre is that cell's colour; a trace without one shows no twisted view. */
async function testTwisted(browser) {
  const t = prepare("cave", "models/cave_modules.xml", ["--size", "8"], (n) => [0, n]);
  const [first, last] = t.expected;
  const { page, network, errors } = await openViewer(browser, t.html);
  await page.keyboard.press("End");
  await checkStep(page, last, `twisted: step ${last.step} (End)`);
  const shown = await page.evaluate(() => {
    const c = document.getElementById("twisted");
    return !c.hidden && c.clientWidth > 100 && window.smaltiViewer.hasTwisted();
  });
  check(shown, "a trace with a lattice shows the twisted canvas");
  /* Quads at least 5 pixels across both ways (the disc's rim squeezes some below that, and antialiasing blends them). */
  let bad = 0, checked = 0, where = "";
  for (let y = 0; y < last.my; y += 3)
    for (let x = (y / 3) % 3; x < last.mx; x += 3) {
      const want = last.colors[last.cells.charCodeAt(x + y * last.mx) - 48];
      const got = await page.evaluate(([cx, cy]) => {
        const v = window.smaltiViewer, c = v.twistedCenter(cx, cy), ex = v.twistedCenter(cx + 1, cy), ey = v.twistedCenter(cx, cy + 1);
        if (Math.min(Math.hypot(ex.x - c.x, ex.y - c.y), Math.hypot(ey.x - c.x, ey.y - c.y)) < 5) return null;
        const d = document.getElementById("twisted").getContext("2d").getImageData(c.x, c.y, 1, 1).data;
        return [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, "0")).join("");
      }, [x, y]);
      if (got === null) continue;
      checked++;
      if (got !== want) { bad++; if (!where) where = ` (cell ${x},${y}: ${got}, expected ${want})`; }
    }
  check(checked > 200, `twisted view: only ${checked} quads were large enough to check`);
  check(bad === 0, `twisted view: ${bad} quads show the wrong colour${where}`);
  check(network.length === 0, "twisted page made network requests: " + network.join(" "));
  check(errors.length === 0, "twisted page errors: " + errors.join("; "));
  await page.close();
  const plain = prepare("plainmaze", "models/maze.xml", ["--size", "11"], (n) => [n]);
  const p2 = await openViewer(browser, plain.html);
  const hidden = await p2.page.evaluate(() => document.getElementById("twisted").hidden && !window.smaltiViewer.hasTwisted());
  check(hidden, "a trace without a lattice shows no twisted canvas");
  await p2.page.close();
}

/* Steps in which no node acted (a branch with nothing left to do handing control back to its parent)
   are counted on the branch that ended: the root's count is the run's step count at every step, as the
   header's total is at the end (issue 34: the studio showed 222 steps in the header, 212 on the root). */
async function testHandOvers(browser) {
  /* Every other step the sequence ends (its `one` has made its one step) and the markov starts it
     again: 24² = 576 steps of the `one`, 577 hand-overs (the last the root's, ending the run); past
     the viewer's per-1024-step sums. */
  const model = path.join(tmp, "handover.xml");
  fs.writeFileSync(model, `<markov values="BW">
  <sequence>
    <one in="B" out="W" steps="1"/>
  </sequence>
</markov>
`);
  const trace = path.join(tmp, "handover.trace"), html = path.join(tmp, "handover.html");
  execFileSync(smalti, ["run", model, "--size", "24", "--seed", "1", "-q", "--trace", trace, "-o", path.join(tmp, "handover.txt")]);
  execFileSync(smalti, ["view", trace, "-o", html]);
  const total = JSON.parse(execFileSync(expectTool, [trace, "0"]).toString()).steps;
  check(total === 2 * 576 + 1, `the hand-over model made ${total} steps, expected ${2 * 576 + 1}`);
  const { page, network, errors } = await openViewer(browser, html);
  const stepsOf = () => page.evaluate(() => {
    const count = (id) => +document.querySelector(`.node[data-id="${id}"] .stats b`).textContent.replace(/,/g, "");
    return { step: window.smaltiViewer.step, root: count(0), seq: count(1), one: count(2),
      meta: document.getElementById("run-meta").textContent, rootText: document.querySelector('.node[data-id="0"] .stats').textContent,
      status: document.getElementById("status").textContent };
  });
  for (const t of [1, 2, 3, 700, 1023, 1024, 1025, 1100, total - 1, total]) {
    await page.evaluate((s) => window.smaltiViewer.seek(s), t);
    const s = await stepsOf();
    const one = Math.ceil(Math.min(t, 2 * 576) / 2);
    check(s.step === t && s.root === t, `step ${t}: the root counts ${s.root} steps, expected ${t}`);
    check(s.one === one && s.seq === Math.min(t, 2 * 576), `step ${t}: the one counts ${s.one} (expected ${one}), the sequence ${s.seq}`);
  }
  const end = await stepsOf();
  const metaSteps = +end.meta.match(/([\d,]+) steps/)[1].replace(/,/g, "");
  check(metaSteps === total && end.root === metaSteps, `at the end the header says ${metaSteps} steps and the root ${end.root}`);
  check(/577 hand-overs/.test(end.rootText), `the root says how many of its steps were hand-overs: "${end.rootText}"`);
  check(/markov #0.*ended/.test(end.status), `the last step's status names the branch that ended: "${end.status}"`);
  await page.evaluate(() => window.smaltiViewer.seek(2));
  const two = await stepsOf();
  check(/sequence #1.*ended.*back to markov #0/.test(two.status), `step 2's status names the sequence handing back: "${two.status}"`);
  check(network.length === 0, "hand-over page made network requests: " + network.join(" "));
  check(errors.length === 0, "hand-over page errors: " + errors.join("; "));
  await page.close();
}

async function testAttempts(browser) {
  /* Three W in a 5x5 grid are rarely one region: the require throws attempts away, each a step of
     its own that puts the start grid back; the viewer says why at that step and counts every step
     on the root. */
  const model = path.join(tmp, "attempts.xml");
  fs.writeFileSync(model, `<sequence values="BWR">
  <one in="B" out="W" steps="3"/>
  <require connected="W"/>
</sequence>
`);
  const trace = path.join(tmp, "attempts.trace"), html = path.join(tmp, "attempts.html");
  execFileSync(smalti, ["run", model, "--size", "5", "--seed", "1", "-q", "--trace", trace, "-o", path.join(tmp, "attempts.txt")]);
  execFileSync(smalti, ["view", trace, "-o", html]);
  const total = JSON.parse(execFileSync(expectTool, [trace, "0"]).toString()).steps;
  const { page, network, errors } = await openViewer(browser, html);
  await page.evaluate(() => window.smaltiViewer.seek(4));
  const at4 = await page.evaluate(() => document.getElementById("status").textContent);
  check(/require #2 \(line 3\) failed: the 3 cells of "W" are not one region.*the run starts again \(attempt 2, seed -?\d+\) and changed 3 cells/.test(at4),
    `step 4's status says the requirement failed and the run starts again: "${at4}"`);
  await page.evaluate(() => window.smaltiViewer.seek(3));
  const at3 = await page.evaluate(() => document.getElementById("status").textContent);
  check(!/failed/.test(at3), `step 3 is an ordinary step: "${at3}"`);
  await page.evaluate((s) => window.smaltiViewer.seek(s), total);
  const end = await page.evaluate(() => ({ root: +document.querySelector('.node[data-id="0"] .stats b').textContent.replace(/,/g, ""),
    meta: document.getElementById("run-meta").textContent }));
  check(end.root === total, `with attempts the root counts ${end.root} steps, the run ${total}`);
  check(network.length === 0 && errors.length === 0, "attempts page: " + network.concat(errors).join("; "));
  await page.close();
}

/* A wfc that found no solution: the trace's WARN chunk is shown at its step and at the end. */
async function testWarnings(browser) {
  const model = path.join(tmp, "nosol.xml");
  fs.writeFileSync(model, `<sequence values="BW">
  <one in="B" out="W" steps="3"/>
  <wfc sample="Bricks" values="ABCD" n="3" tries="3"/>
</sequence>
`);
  const trace = path.join(tmp, "nosol.trace"), html = path.join(tmp, "nosol.html");
  execFileSync(smalti, ["run", model, "--size", "8", "--seed", "1", "-q", "--resources", path.join(root, "models", "resources"),
    "--trace", trace, "-o", path.join(tmp, "nosol.txt")]);
  execFileSync(smalti, ["view", trace, "-q", "-o", html]);
  const { page, network, errors } = await openViewer(browser, html);
  const warnings = await page.evaluate(() => window.smaltiViewer.warnings);
  check(warnings.length === 1 && warnings[0].step === 4 && warnings[0].line === 3 &&
    /found no solution \(a contradiction in each of its 3 tries\) at step 4/.test(warnings[0].message),
    "the page read the trace's warning: " + JSON.stringify(warnings));
  const statusAt = (s) => page.evaluate((t) => { window.smaltiViewer.seek(t); return document.getElementById("status").textContent; }, s);
  const at4 = await statusAt(4), at3 = await statusAt(3);
  check(/warning \(line 3\): <wfc> found no solution/.test(at4), `step 4's status says the warning: "${at4}"`);
  check(!/warning/.test(at3), `step 3's status says no warning: "${at3}"`);
  const end = await page.evaluate(() => window.smaltiViewer.endText);
  check(/1 warning \(at step 4\)/.test(end), `the end says the warning: "${end}"`);
  check(network.length === 0, "warning page made network requests: " + network.join(" "));
  check(errors.length === 0, "warning page errors: " + errors.join("; "));
  await page.close();
}

(async () => {
  let browser;
  try {
    browser = await launch();
    await test2d(browser);
    await test3d(browser);
    await testTwisted(browser);
    await testHandOvers(browser);
    await testAttempts(browser);
    await testWarnings(browser);
  } catch (e) {
    failed++;
    console.log("FAIL: " + (e && e.stack ? e.stack : e));
  } finally {
    if (browser) await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`viewer in headless Chromium: ${passed} checks passed, ${failed} failed`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
