// studio_test.js — `smalti studio` in headless Chromium, loopback only: the page opens on a model; a
// rewrite of the model on disk is drawn in its new colours; a broken model shows its file:line
// message with the line marked and keeps the last picture; the fixed model recovers; a rewrite of a
// rule image the model reads (under resources/rules/, a folder made after studio started) re-runs
// it; a parameter's field re-runs the model with its value; requests without the token or with a foreign Host get 403, and `..` and absolute paths 404
// without the file's bytes; the tree's root counts the run's steps, as the page's line does; a user
// scrubbing stays at the same step; the step cap, the time cap and the cap on recorded changes each
// stop a run that only that cap can end, and a save cancels a run that would never end; 200 reloads
// leave the server's RSS flat; closed tabs leave no threads.
// No verdict depends on the machine's speed: every wait is for a condition, under a hang guard
// (browser.js) that only turns a hang into a failure naming what was awaited; how long a reload
// takes is printed, not tested (bench/studio_latency.js measures it).
// Usage: node studio_test.js SMALTI
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const http = require("http");
const { spawn } = require("child_process");
const { HANG_MS, launch, newPage, waitFor, until } = require("./browser.js");

const smalti = path.resolve(process.argv[2] || "");
if (!process.argv[2]) {
  console.error("usage: node studio_test.js SMALTI");
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "smalti-studio-"));
const modelPath = path.join(tmp, "m.xml");
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; console.log("FAIL: " + what); }
}

/* A model whose grid ends all in one colour, rgb (hex); `bad` puts an unknown symbol on line 3. */
function model(rgb, bad) {
  return `<sequence values="BR">
  <smalti size="8"><color symbol="R" value="${rgb}"/></smalti>
  <all in="B" out="${bad ? "Q" : "R"}"/>
</sequence>
`;
}
/* A one-row RGB PNG of the given pixels ([r, g, b] each). */
function crc32(buf) {
  let c = ~0;
  for (const b of buf) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c >>> 0;
}
function png(pixels) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4), crc = Buffer.alloc(4), td = Buffer.concat([Buffer.from(type), data]);
    len.writeUInt32BE(data.length);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(pixels.length, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.from([0, ...pixels.flat()]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr),
    chunk("IDAT", require("zlib").deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}
/* Rule image Pat: its left pixel is the input, its right the output, colours numbered in order of
   first appearance for legend "BR": two colours make B -> R, one makes B -> B. */
const rulePath = path.join(tmp, "resources", "rules", "Pat.png");
const saveRule = (turns) => fs.writeFileSync(rulePath, png([[0, 0, 0], turns ? [255, 255, 255] : [0, 0, 0]]));

/* Written as an editor that saves in place does. */
const save = (text) => fs.writeFileSync(modelPath, text);

/* Endless models, each of which only one cap can stop. */
/* One cell flips at every step: without end, 1 change a step (the step caps below stay far under
   the change cap of 10 million). */
const FLIP = `<markov values="BW">
  <smalti size="4"/>
  <one in="B" out="W"/>
  <one in="W" out="B"/>
</markov>
`;
/* R and G side by side, then a path from R to G at every step: each step searches the whole 64²
   grid and finds G next to R, so it draws nothing. No end, no recorded change (the change cap can
   never stop it), and a step cap of 10^9 is 10^9 grid-wide searches (hours on any machine) away:
   only the time cap ends it. */
const STILL = `<sequence values="BRG">
  <smalti size="64"/>
  <one in="BB" out="RG" steps="1"/>
  <path from="R" to="G" on="B" color="B"/>
</sequence>
`;
/* A 128² grid rewritten at every step: 10 million changes in 611 steps. */
const CHURN = `<all values="BW">
  <smalti size="128"/>
  <rule in="B" out="W"/>
  <rule in="W" out="B"/>
</all>
`;

/* Start studio; resolves with the process, the URL it prints and a promise of its exit code. */
function startStudio(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(smalti, ["studio", modelPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((r) => proc.on("exit", (code, signal) => r(signal || code)));
    let out = "", err = "";
    const timer = setTimeout(() => reject(new Error(`studio printed no URL within ${HANG_MS / 1000} s (hang guard): ${err}`)), HANG_MS);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^(http:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f]{32})\/)\n/);
      if (m) { clearTimeout(timer); resolve({ proc, exited, url: m[1], port: +m[2], token: m[3] }); }
    });
    proc.stderr.on("data", (d) => { err += d; });
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`studio exited (${code}): ${err}`)); });
  });
}

/* A raw GET: the path is sent as written (no normalising of `..`). */
function get(port, rawPath, host) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, headers: { Host: host || `127.0.0.1:${port}` } }, (res) => {
      let body = "";
      res.on("data", (d) => { body += d; });
      res.on("end", () => resolve({ status: res.statusCode, body, csp: res.headers["content-security-policy"] || "" }));
    });
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`GET ${rawPath}: no answer within ${HANG_MS / 1000} s (hang guard)`)));
    req.on("error", reject);
    req.end();
  });
}

async function cellColor(page, x, y) {
  return page.evaluate(([cx, cy]) => {
    const c = window.smaltiViewer.cellCenter(cx, cy);
    const d = document.getElementById("grid").getContext("2d").getImageData(c.x, c.y, 1, 1).data;
    return [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, "0")).join("");
  }, [x, y]);
}

/* Wait until the canvas shows rgb at cell (3, 3): a check that passes when it does (a hang guard
   fails it). Returns the milliseconds it took, to print: how fast is not a verdict here. */
async function expectColor(page, rgb, what) {
  const t0 = Date.now();
  await until(`studio: ${what}`, async () => (await cellColor(page, 3, 3)) === rgb);
  check(true, what);
  return Date.now() - t0;
}

const runsShown = (page) => page.evaluate(() => window.smaltiStudio.runs);

/* Wait for a run after the `seen`-th to be shown; what the page says of it. */
async function nextRun(page, seen, what, ms = HANG_MS) {
  await waitFor(page, `studio: ${what}`, (n) => window.smaltiStudio.runs > n, seen, ms);
  return page.evaluate(() => ({ end: window.smaltiStudio.end, steps: window.smaltiViewer.steps,
    state: document.getElementById("st-state").textContent }));
}

/* Click the page's run button: resolves once the server has taken the request. */
async function clickRun(page) {
  await Promise.all([page.waitForResponse((r) => r.url().includes("/api/run?")), page.click("#st-run")]);
}

const rss = (pid) => +fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1];
const threads = (pid) => +fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/Threads:\s+(\d+)/)[1];
/* CPU time (clock ticks) of studio's main thread, the one that runs the model. */
const runnerTicks = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 1).trim().split(/\s+/); /* from field 3, the state */
  return +f[11] + +f[12]; /* fields 14 and 15: utime + stime */
};

async function main() {
  save(model("ff2020"));
  const studio = await startStudio([]);
  const browser = await launch();
  try {
    const page = await newPage(browser, { viewport: { width: 1200, height: 800 } });
    const errors = [], foreign = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
    page.on("pageerror", (e) => errors.push("page: " + e.message));
    page.on("request", (r) => { if (!r.url().startsWith(studio.url)) foreign.push(r.url()); });

    // 1. The page opens and shows the first run.
    await page.goto(studio.url);
    await waitFor(page, "studio: the first run shown", () => window.smaltiStudio && window.smaltiStudio.runs >= 1);
    await expectColor(page, "ff2020", "the first run is drawn in its palette colour ff2020");

    // 2. A rewrite on disk: the new colour.
    save(model("20ff20"));
    const took = await expectColor(page, "20ff20", "a rewritten model is drawn in its new colour 20ff20");
    console.log(`studio: the new grid was drawn ${took} ms after the save`);

    // 3. A broken model: file:line message, the line marked, the last picture kept.
    save(model("2020ff", true));
    await waitFor(page, "studio: the broken model's error shown", () => window.smaltiStudio.error);
    const err = await page.evaluate(() => ({
      message: window.smaltiStudio.error,
      shown: !document.getElementById("st-error").hidden && document.getElementById("st-error").textContent,
      marked: [...document.querySelectorAll("#source .ln.err")].map((e) => e.dataset.n),
    }));
    check(new RegExp("m\\.xml:3: error: ").test(err.message), `the error names m.xml:3 (got ${err.message})`);
    check(err.shown && err.shown.includes(err.message), "the page shows the error message");
    check(err.marked.length === 1 && err.marked[0] === "3", `source line 3 is marked (got ${err.marked})`);
    check((await cellColor(page, 3, 3)) === "20ff20", "the last good picture stays after a broken save");

    // 4. Fixed: the page recovers.
    save(model("2020ff"));
    await expectColor(page, "2020ff", "the fixed model is drawn");
    const recovered = await page.evaluate(() => ({ error: window.smaltiStudio.error, hidden: document.getElementById("st-error").hidden,
      marked: document.querySelectorAll("#source .ln.err").length }));
    check(recovered.error === null && recovered.hidden && recovered.marked === 0, "the error is gone once the model is fixed");

    // A rule image the model reads, in resources/ beside it (made now, after studio started):
    // rewriting the image re-runs the model. Once the black run is drawn, the folder is watched
    // (studio adds the watch as it reads the event of the folder's making, before the model's
    // save that made this run): each rewrite's close then starts a run that reads the new image.
    fs.mkdirSync(path.dirname(rulePath), { recursive: true });
    saveRule(false);
    save(`<sequence values="BR">
  <smalti size="8"><color symbol="R" value="ffff20"/></smalti>
  <all file="Pat" legend="BR" steps="1"/>
</sequence>
`);
    await expectColor(page, "000000", "a model whose rule image keeps B is drawn black");
    saveRule(true);
    const ruleTook = await expectColor(page, "ffff20", "a rewritten rule image (B -> R) re-runs the model: ffff20");
    console.log(`studio: the new grid was drawn ${ruleTook} ms after the rule image was rewritten`);
    saveRule(false);
    await expectColor(page, "000000", "and rewritten back (B -> B): black again");

    // One step count: the line under the controls (the server's count of the run's steps) and the
    // node tree's root agree, hand-overs included (issue 34: 222 in the header, 212 on the root).
    // The sequence hands back to the markov at every other step: 64 steps of the one, 65 hand-overs.
    let shown = await runsShown(page);
    save(`<markov values="BW">
  <smalti size="8"/>
  <sequence><one in="B" out="W" steps="1"/></sequence>
</markov>
`);
    const ho = await nextRun(page, shown, "the run of the hand-over model");
    const root = await page.evaluate(() => document.querySelector('.node[data-id="0"] .stats').textContent);
    const header = +(ho.state.match(/· (\d+) steps ·/) || [])[1];
    check(ho.steps === 129 && header === 129, `the hand-over model's run has 129 steps (page line: ${ho.state})`);
    check(root.startsWith("129 steps (65 hand-overs)"), `the tree's root counts the run's 129 steps, 65 of them hand-overs (${root})`);

    // A requirement that threw attempts away: the page line says how many, and which failed.
    shown = await runsShown(page);
    save(`<sequence values="BWR">
  <smalti size="5" seed="1"/>
  <one in="B" out="W" steps="3"/>
  <require connected="W"/>
</sequence>
`);
    const at = await nextRun(page, shown, "the run of a model with a requirement");
    check(/ · \d+ attempts \(the requirement at line 4 failed \d+ times\) · /.test(at.state), `the page line says the attempts (${at.state})`);
    // The default step cap is run's (SMALTI_DEFAULT_STEPS), where the model names none.
    check(await page.inputValue("#st-steps") === "50000", `the page's step cap starts at run's 50000 (${await page.inputValue("#st-steps")})`);
    // A wfc that finds no solution: the line under the controls says the warning, with its line and step.
    fs.mkdirSync(path.join(tmp, "resources", "samples"), { recursive: true });
    fs.copyFileSync(path.join(__dirname, "..", "..", "models", "resources", "samples", "Bricks.png"),
      path.join(tmp, "resources", "samples", "Bricks.png"));
    shown = await runsShown(page);
    save(`<sequence values="BW">
  <smalti size="8"/>
  <one in="B" out="W" steps="3"/>
  <wfc sample="Bricks" values="ABCD" n="3" tries="3"/>
</sequence>
`);
    const warned = await nextRun(page, shown, "the run of a wfc without a solution");
    check(/warning: .*m\.xml:4: <wfc> found no solution \(a contradiction in each of its 3 tries\) at step 4; the grid is as it was before the node/.test(warned.state),
      `the page line says the wfc's warning (${warned.state})`);

    // Scrubbing: a new run is shown at the step the user was looking at, not at its end.
    await page.evaluate(() => window.smaltiViewer.seek(0));
    const seen = await runsShown(page);
    save(model("ff2020"));
    await nextRun(page, seen, "the run of a save made while scrubbing");
    check(await page.evaluate(() => window.smaltiViewer.step === 0), "a user scrubbing at step 0 stays at step 0 of the new run");
    check((await cellColor(page, 3, 3)) === "000000", "and the canvas shows that step (the black start grid)");
    await page.evaluate(() => window.smaltiViewer.seek(window.smaltiViewer.steps));

    // Parameters: a field per parameter, showing the run's value; editing it re-runs the model with
    // the new value (here the colour of R, named in the settings); "defaults" puts the defaults back;
    // a model without parameters has no fields.
    save(`<sequence values="BR">
  <smalti size="8"><param name="rgb" value="20ffff"/><color symbol="R" value="{rgb}"/></smalti>
  <all in="B" out="R"/>
</sequence>
`);
    await expectColor(page, "20ffff", "a model with a parameter is drawn with its default, 20ffff");
    await waitFor(page, "studio: the parameter's field", () => document.getElementById("st-param-rgb"));
    const field = await page.evaluate(() => ({ value: document.getElementById("st-param-rgb").value,
      defaults: !document.getElementById("st-defaults").hidden }));
    check(field.value === "20ffff" && field.defaults, `the field rgb shows the default 20ffff (got ${field.value})`);
    await page.fill("#st-param-rgb", "ff20ff");
    await expectColor(page, "ff20ff", "editing the field re-runs the model with rgb=ff20ff");
    check(await page.evaluate(() => window.smaltiStudio.params[0].value === "ff20ff" &&
      document.getElementById("st-param-rgb").classList.contains("changed")), "the run says rgb=ff20ff, and the field is marked changed");
    await page.click("#st-defaults");
    await expectColor(page, "20ffff", "the defaults button runs the model with rgb=20ffff again");
    save(model("ff2020"));
    await expectColor(page, "ff2020", "a model without parameters after one with");
    check(await page.evaluate(() => document.querySelectorAll("#st-params input").length === 0 &&
      document.getElementById("st-defaults").hidden), "a model without parameters has no fields");

    // 5. Without the token, or with a foreign Host: 403.
    const port = studio.port, tok = studio.token;
    check((await get(port, "/")).status === 403, "no token: 403");
    check((await get(port, "/app.js")).status === 403, "a page path without the token: 403");
    check((await get(port, `/${"0".repeat(32)}/`)).status === 403, "a wrong token: 403");
    check((await get(port, `/${tok}/`, `evil.example:${port}`)).status === 403, "a foreign Host: 403");
    check((await get(port, `/${tok}/`, `127.0.0.1.evil.example:${port}`)).status === 403, "a Host that only starts as loopback: 403");
    const ok = await get(port, `/${tok}/`, `localhost:${port}`);
    check(ok.status === 200 && /script-src 'self'/.test(ok.csp) && !/unsafe-inline/.test(ok.csp + ok.body),
      "the page, by localhost, with a strict CSP and no inline-code allowance");

    // 6. `..` and absolute paths: 404, and the file's bytes are not in the answer.
    const secret = path.join(tmp, "secret.txt");
    fs.writeFileSync(secret, "SECRET-BYTES-17\n");
    for (const p of [`/${tok}/../secret.txt`, `/${tok}/api/source/../secret.txt`, `/${tok}/api/../../secret.txt`,
      `/${tok}/%2e%2e/secret.txt`, `/${tok}/${secret}`, `/${tok}/api/source${secret}`, `/${tok}//etc/passwd`,
      `/${tok}/../../../../etc/passwd`]) {
      const r = await get(port, p);
      check(r.status === 404 && !r.body.includes("SECRET-BYTES") && !r.body.includes("root:"), `${p}: 404 and nothing read (got ${r.status})`);
    }
    check(foreign.length === 0, "the page asks nothing of any other origin: " + foreign.join(" "));

    // 7. The caps, set in the page. Each is given a run that only it can end, so that no race
    // between the caps (which a fast or a slow machine would win) decides which one stops it.
    // The step caps: the endless FLIP model under a time cap of 3600 s.
    await page.fill("#st-steps", "100000");
    await page.fill("#st-timeout", "3600");
    let n = await runsShown(page);
    await clickRun(page);
    await nextRun(page, n, "the run asked for with a time cap of 3600 s");
    n = await runsShown(page);
    save(FLIP);
    let r = await nextRun(page, n, "the endless model stopped by the step cap of 100000");
    check(r.end === "stepcap" && r.steps === 100000, `the step cap of 100000 stops the endless model (end ${r.end}, ${r.steps} steps)`);
    await page.fill("#st-steps", "500");
    n = await runsShown(page);
    await clickRun(page);
    r = await nextRun(page, n, "the endless model stopped by the step cap of 500");
    check(r.end === "stepcap" && r.steps === 500, `the step cap set in the page stops the run at 500 steps (end ${r.end}, ${r.steps} steps)`);
    check(/500 steps · .*step cap/.test(r.state), `the page says the step cap stopped the run (${r.state})`);

    // The time cap: the STILL model, which records no change and whose step cap of 10^9 is out of
    // reach, so that only the time cap can end it (first shown under the cap of 500 steps).
    n = await runsShown(page);
    save(STILL);
    r = await nextRun(page, n, "the model without changes stopped by the step cap of 500");
    check(r.end === "stepcap" && r.steps === 500, `the model without changes runs on to the step cap (end ${r.end}, ${r.steps} steps)`);
    await page.fill("#st-steps", "1000000000");
    await page.fill("#st-timeout", "0.5");
    n = await runsShown(page);
    await clickRun(page);
    r = await nextRun(page, n, "the time cap of 0.5 s stopping the endless run");
    check(r.end === "timecap", `the time cap of 0.5 s stops the endless run (end ${r.end})`);
    check(/time cap \(0\.5 s\)/.test(r.state), `the page says the time cap stopped the run (${r.state})`);

    // A save cancels a run going on: the STILL model under a time cap of 3600 s, which nothing
    // else ends. Once studio's runner has spent CPU time on it (it is idle between runs), the run is
    // going; the saved model's picture can then only come if the save cancelled it.
    await page.fill("#st-timeout", "3600");
    const ticks = runnerTicks(studio.proc.pid);
    await clickRun(page);
    await until("studio: the endless run using the runner's CPU", () => runnerTicks(studio.proc.pid) - ticks >= 20);
    save(model("ff2020"));
    await expectColor(page, "ff2020", "a save cancels the endless run going on, and its model is drawn");

    // The cap on recorded changes: CHURN under the step cap of 10^9 and the time cap of 3600 s.
    // Its 10 million changes are a large trace for the page to take: a longer hang guard.
    n = await runsShown(page);
    save(CHURN);
    r = await nextRun(page, n, "the 128² rewrite stopped by the cap on recorded changes", 3 * HANG_MS);
    check(r.end === "changecap", `the cap on recorded changes stops the endless rewrite (end ${r.end})`);
    check(/more than the page holds/.test(r.state), `the page says the run was stopped at the change cap (${r.state})`);

    // 8. 200 reloads: RSS after 200 about as after 20.
    let before = 0;
    for (let i = 1; i <= 200; i++) {
      n = await runsShown(page);
      save(model(i % 2 ? "ff2020" : "20ff20").replace('size="8"', 'size="32"'));
      await nextRun(page, n, `the run of reload ${i} of 200`);
      if (i === 20) before = rss(studio.proc.pid);
    }
    const after = rss(studio.proc.pid);
    console.log(`studio: RSS ${before} kB after 20 reloads, ${after} kB after 200`);
    check(after - before < 2048, `RSS stays flat over 200 reloads (${before} kB -> ${after} kB)`);
    // Tabs opened and closed: their connection threads end (a closed event stream fails at a
    // keep-alive, every 2 s; an idle connection times out after 10 s).
    const base = threads(studio.proc.pid);
    for (let i = 0; i < 8; i++) {
      const tab = await newPage(browser);
      await tab.goto(studio.url);
      await waitFor(tab, `studio: a run shown in new tab ${i + 1} of 8`, () => window.smaltiStudio && window.smaltiStudio.runs >= 1);
      await tab.close();
    }
    let left = threads(studio.proc.pid);
    try {
      await until("studio: the threads of 8 closed tabs ending", () => (left = threads(studio.proc.pid)) <= base);
      check(true, "8 tabs opened and closed leave no threads behind");
    } catch (e) {
      check(false, `8 tabs opened and closed leave no threads behind (${base} before, ${left} after): ${e.message}`);
    }
    check(errors.length === 0, "the page reports no errors: " + errors.join(" | "));
  } finally {
    await browser.close();
    studio.proc.kill("SIGTERM");
  }
  let guard;
  const code = await Promise.race([studio.exited, new Promise((r) => { guard = setTimeout(() => r("hang"), HANG_MS); })]);
  clearTimeout(guard);
  if (code === "hang") studio.proc.kill("SIGKILL");
  check(code === 0, code === "hang" ? `studio did not end within ${HANG_MS / 1000} s of SIGTERM (hang guard)`
    : `studio ends cleanly on SIGTERM (exit ${code})`);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`studio_test: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log("FAIL: " + e.message);
  process.exit(1);
});
