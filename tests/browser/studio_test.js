// studio_test.js — `smalti studio` in headless Chromium, loopback only, each step bounded in
// time: the page opens on a model; a rewrite of the model on disk shows its new colours
// within 2 s; a broken model shows its file:line message with the line marked and keeps the
// last picture; the fixed model recovers; a rewrite of a rule image the model reads (under
// resources/rules/, a folder made after studio started) re-runs it within 2 s; requests without the token or with a foreign Host
// get 403, and `..` and absolute paths 404 without the file's bytes; a user scrubbing stays at
// the same step; a model that never ends is stopped by the step cap, the time cap and the cap on
// recorded changes, and a save cancels it; 200 reloads leave the server's RSS flat; closed tabs leave no threads.
// Usage: node studio_test.js SMALTI
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const http = require("http");
const { spawn } = require("child_process");
const { launch } = require("./browser.js");

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

/* Start studio; resolves with the process and the URL it prints. */
function startStudio(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(smalti, ["studio", modelPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    const timer = setTimeout(() => reject(new Error("studio printed no URL in 5 s: " + err)), 5000);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^(http:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f]{32})\/)\n/);
      if (m) { clearTimeout(timer); resolve({ proc, url: m[1], port: +m[2], token: m[3] }); }
    });
    proc.stderr.on("data", (d) => { err += d; });
    proc.on("exit", (code) => reject(new Error(`studio exited (${code}): ${err}`)));
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
    req.setTimeout(3000, () => req.destroy(new Error("no answer in 3 s")));
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

/* Wait (at most ms) until the canvas shows rgb at cell (3, 3); the time taken, or -1. */
async function waitColor(page, rgb, ms) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if ((await cellColor(page, 3, 3)) === rgb) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 20));
  }
  return -1;
}

const rss = (pid) => +fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1];

async function main() {
  save(model("ff2020"));
  const studio = await startStudio([]);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors = [], foreign = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
    page.on("pageerror", (e) => errors.push("page: " + e.message));
    page.on("request", (r) => { if (!r.url().startsWith(studio.url)) foreign.push(r.url()); });

    // 1. The page opens and shows the first run.
    await page.goto(studio.url, { timeout: 10000 });
    await page.waitForFunction(() => window.smaltiStudio && window.smaltiStudio.runs >= 1, null, { timeout: 10000 });
    check((await waitColor(page, "ff2020", 2000)) >= 0, "the first run is drawn in its palette colour ff2020");

    // 2. A rewrite on disk: the new colour within 2 s.
    save(model("20ff20"));
    const took = await waitColor(page, "20ff20", 2000);
    check(took >= 0, "a rewritten model shows its new colour 20ff20 within 2 s");
    console.log(`studio: the new grid was drawn ${took} ms after the save`);

    // 3. A broken model: file:line message, the line marked, the last picture kept.
    save(model("2020ff", true));
    await page.waitForFunction(() => window.smaltiStudio.error, null, { timeout: 3000 });
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
    check((await waitColor(page, "2020ff", 2000)) >= 0, "the fixed model is drawn within 2 s");
    const recovered = await page.evaluate(() => ({ error: window.smaltiStudio.error, hidden: document.getElementById("st-error").hidden,
      marked: document.querySelectorAll("#source .ln.err").length }));
    check(recovered.error === null && recovered.hidden && recovered.marked === 0, "the error is gone once the model is fixed");

    // A rule image the model reads, in resources/ beside it (made now, after studio started):
    // rewriting the image re-runs the model.
    fs.mkdirSync(path.dirname(rulePath), { recursive: true });
    saveRule(false);
    save(`<sequence values="BR">
  <smalti size="8"><color symbol="R" value="ffff20"/></smalti>
  <all file="Pat" legend="BR" steps="1"/>
</sequence>
`);
    check((await waitColor(page, "000000", 3000)) >= 0, "a model whose rule image keeps B is drawn black");
    await new Promise((r) => setTimeout(r, 300));
    saveRule(true);
    const ruleTook = await waitColor(page, "ffff20", 2000);
    check(ruleTook >= 0, "a rewritten rule image (B -> R) re-runs the model: ffff20 within 2 s");
    console.log(`studio: the new grid was drawn ${ruleTook} ms after the rule image was rewritten`);
    saveRule(false);
    check((await waitColor(page, "000000", 2000)) >= 0, "and rewritten back (B -> B): black again within 2 s");

    // Scrubbing: a new run is shown at the step the user was looking at, not at its end.
    await page.evaluate(() => window.smaltiViewer.seek(0));
    const seen = await page.evaluate(() => window.smaltiStudio.runs);
    save(model("ff2020"));
    await page.waitForFunction((n) => window.smaltiStudio.runs > n, seen, { timeout: 3000 });
    check(await page.evaluate(() => window.smaltiViewer.step === 0), "a user scrubbing at step 0 stays at step 0 of the new run");
    check((await cellColor(page, 3, 3)) === "000000", "and the canvas shows that step (the black start grid)");
    await page.evaluate(() => window.smaltiViewer.seek(window.smaltiViewer.steps));

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

    // 7. A model that never ends: the step cap, then the time cap, both set in the page.
    save(`<markov values="BW">
  <smalti size="4"/>
  <one in="B" out="W"/>
  <one in="W" out="B"/>
</markov>
`);
    await page.waitForFunction(() => window.smaltiStudio.end === "stepcap", null, { timeout: 15000 });
    await page.fill("#st-steps", "500");
    await page.click("#st-run");
    await page.waitForFunction(() => /500 steps · .*step cap/.test(document.getElementById("st-state").textContent), null, { timeout: 5000 });
    check(await page.evaluate(() => window.smaltiViewer.steps === 500), "the step cap set in the page stops the run at 500 steps");
    await page.fill("#st-steps", "1000000000");
    await page.fill("#st-timeout", "0.5");
    const t0 = Date.now();
    await page.click("#st-run");
    await page.waitForFunction(() => window.smaltiStudio.end === "timecap", null, { timeout: 5000 });
    const capped = Date.now() - t0;
    check(capped < 4000, `the time cap of 0.5 s stops the run (shown after ${capped} ms)`);
    check(/time cap/.test(await page.textContent("#st-state")), "the page says the time cap stopped the run");

    // An endless model that rewrites a 128² grid at every step: stopped by the cap on recorded changes.
    // Under a time cap of 30 s: on a loaded machine its 10 million changes can take more than 0.5 s.
    await page.fill("#st-timeout", "30");
    save(`<all values="BW">
  <smalti size="128"/>
  <rule in="B" out="W"/>
  <rule in="W" out="B"/>
</all>
`);
    await page.click("#st-run");
    await page.waitForFunction(() => window.smaltiStudio.end === "changecap", null, { timeout: 20000 });
    check(/more than the page holds/.test(await page.textContent("#st-state")), "the page says the run was stopped at the change cap");
    save(`<markov values="BW">
  <smalti size="4"/>
  <one in="B" out="W"/>
  <one in="W" out="B"/>
</markov>
`);
    await page.fill("#st-timeout", "0.5");
    await page.click("#st-run");
    await page.waitForFunction(() => window.smaltiStudio.end === "timecap", null, { timeout: 5000 });

    // A new edit cancels a run still going (capped at 30 s here).
    await page.fill("#st-timeout", "30");
    await page.click("#st-run");
    await new Promise((r) => setTimeout(r, 400));
    save(model("ff2020"));
    check((await waitColor(page, "ff2020", 2000)) >= 0, "a save cancels the endless run going on, and its model is drawn within 2 s");

    // 8. 200 reloads: RSS after 200 about as after 20.
    await page.fill("#st-steps", "100000");
    await page.fill("#st-timeout", "10");
    await page.click("#st-run");
    let before = 0;
    for (let i = 1; i <= 200; i++) {
      const runs = await page.evaluate(() => window.smaltiStudio.runs);
      save(model(i % 2 ? "ff2020" : "20ff20").replace('size="8"', 'size="32"'));
      await page.waitForFunction((n) => window.smaltiStudio.runs > n, runs, { timeout: 5000 });
      if (i === 20) before = rss(studio.proc.pid);
    }
    const after = rss(studio.proc.pid);
    console.log(`studio: RSS ${before} kB after 20 reloads, ${after} kB after 200`);
    check(after - before < 2048, `RSS stays flat over 200 reloads (${before} kB -> ${after} kB)`);
    // Tabs opened and closed: their connection threads end (a closed event stream fails at a
    // keep-alive, every 2 s; an idle connection times out after 10 s).
    const threads = (pid) => +fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/Threads:\s+(\d+)/)[1];
    const base = threads(studio.proc.pid);
    for (let i = 0; i < 8; i++) {
      const tab = await browser.newPage();
      await tab.goto(studio.url);
      await tab.waitForFunction(() => window.smaltiStudio && window.smaltiStudio.runs >= 1, null, { timeout: 5000 });
      await tab.close();
    }
    let left = threads(studio.proc.pid);
    for (let t0 = Date.now(); left > base && Date.now() - t0 < 15000; left = threads(studio.proc.pid)) await new Promise((r) => setTimeout(r, 200));
    check(left <= base, `8 tabs opened and closed leave no threads behind (${base} before, ${left} after)`);
    check(errors.length === 0, "the page reports no errors: " + errors.join(" | "));
  } finally {
    await browser.close();
    studio.proc.kill("SIGTERM");
  }
  const code = await new Promise((r) => studio.proc.on("exit", (c) => r(c)));
  check(code === 0, `studio ends cleanly on SIGTERM (exit ${code})`);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`studio_test: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log("FAIL: " + e.message);
  process.exit(1);
});
