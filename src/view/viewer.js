/* viewer.js — the smalti trace viewer: decodes the trace embedded in the page
   (docs/trace-format.md), replays it to any step from its keyframes, and draws the
   grid, the node tree, the legend and the model source. No network, no library. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const t0 = performance.now();

  /* ---------------------------------------------------------------- trace */

  function fail(msg) { throw new Error("not a valid trace: " + msg); }

  function base64Bytes(text) {
    const bin = atob(text.replace(/\s+/g, ""));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /* A cursor over [pos, end) of the trace bytes. */
  class Cursor {
    constructor(bytes, pos, end) { this.b = bytes; this.pos = pos; this.end = end; }
    varint() {
      let v = 0, mul = 1;
      for (let i = 0; i < 8; i++) {
        if (this.pos >= this.end) fail("a number runs past its chunk");
        const byte = this.b[this.pos++];
        v += (byte & 127) * mul;
        if (byte < 128) return v;
        mul *= 128;
      }
      fail("a number is too large");
    }
    svarint() { const v = this.varint(); return v % 2 ? -(v + 1) / 2 : v / 2; }
    string() {
      const n = this.varint();
      if (this.pos + n > this.end) fail("a string runs past its chunk");
      const s = new TextDecoder().decode(this.b.subarray(this.pos, this.pos + n));
      this.pos += n;
      return s;
    }
  }

  function u32(b, at) { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0; }

  /* Parse the whole trace: header, chunks, index, and every step record into flat arrays. */
  function loadTrace(bytes) {
    const magic = [83, 77, 84, 82, 65, 67, 69, 26]; /* "SMTRACE\x1a" */
    if (bytes.length < 24 || magic.some((m, i) => bytes[i] !== m)) fail("no trace header");
    const version = u32(bytes, 8);
    if (version !== 1) throw new Error("trace format version " + version + "; this viewer reads version 1");
    const limit = bytes.length - 12;
    if (String.fromCharCode(...bytes.subarray(limit + 8)) !== "TEND") fail("the file is cut short");
    const indexAt = u32(bytes, limit) + u32(bytes, limit + 4) * 4294967296;
    const chunks = new Map();
    const T = { source: "", nodes: [], grids: [], keys: [], restarts: new Map(), warnings: [] };
    let indexChunk = null;
    /* The chunks about the whole run come at most once (as the C reader checks). */
    const ONCE = ["INFO", "SRC ", "TREE", "ENDS", "INDX", "LATT", "ATMP", "WARN"], seen = new Set();
    for (let at = 12; at < limit; ) {
      const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
      const start = at + 8, end = start + u32(bytes, at + 4);
      if (end > limit) fail("a chunk runs past the end");
      const c = { tag, at, start, end };
      chunks.set(at, c);
      if (ONCE.includes(tag)) {
        if (seen.has(tag)) fail("a second " + tag.trim() + " chunk");
        seen.add(tag);
      }
      if (tag === "INFO") {
        const r = new Cursor(bytes, start, end);
        T.version = r.string(); T.modelPath = r.string(); T.seed = r.svarint(); T.stepLimit = r.svarint();
      } else if (tag === "SRC ") {
        T.source = new TextDecoder().decode(bytes.subarray(start, end));
      } else if (tag === "TREE") {
        const r = new Cursor(bytes, start, end);
        const n = r.varint();
        for (let i = 0; i < n; i++)
          T.nodes.push({ id: i, kind: r.string(), parent: r.varint() - 1, depth: r.varint(), line: r.varint(), attrs: r.string() });
      } else if (tag === "ENDS") {
        const r = new Cursor(bytes, start, end);
        T.steps = r.varint(); T.changes = r.varint(); T.end = r.varint(); T.endMessage = r.string();
      } else if (tag === "LATT") {
        /* The run's final growgrid lattice: points_x, points_y, then x, y of each point as little-endian doubles. */
        const r = new Cursor(bytes, start, end);
        const nx = r.varint(), ny = r.varint();
        if (nx < 2 || ny < 2 || nx > 257 || ny > 257 || end - r.pos !== nx * ny * 16) fail("a bad LATT chunk");
        const view = new DataView(bytes.buffer, bytes.byteOffset + r.pos, nx * ny * 16);
        const pts = new Float64Array(2 * nx * ny);
        for (let i = 0; i < pts.length; i++) pts[i] = view.getFloat64(8 * i, true);
        T.lattice = { nx, ny, pts };
      } else if (tag === "ATMP") {
        /* The steps at which a requirement failed and the run started again: step, the attempt it
           begins, that attempt's seed, the requirement, what failed. */
        const r = new Cursor(bytes, start, end);
        for (let i = 0, n = r.varint(); i < n; i++) {
          const step = r.varint(), attempt = r.varint(), seed = r.svarint(), node = r.varint() - 1, what = r.string();
          T.restarts.set(step, { attempt, seed, node, what });
        }
      } else if (tag === "WARN") {
        /* The run's run-time warnings (a wfc that found no solution): count, then step, line, message each. */
        const r = new Cursor(bytes, start, end);
        const n = r.varint();
        if (n < 1 || n > 64) fail("a bad WARN chunk");
        for (let i = 0; i < n; i++) T.warnings.push({ step: r.varint(), line: r.varint(), message: r.string() });
        if (r.pos !== end) fail("a bad WARN chunk");
      } else if (tag === "INDX" && at === indexAt) indexChunk = c;
      at = end;
    }
    if (!indexChunk || T.steps === undefined || T.version === undefined) fail("a required chunk is missing");

    const N = T.steps, M = T.nodes.length;
    T.stepNode = new Int32Array(N + 1).fill(-1);
    T.stepStart = new Uint32Array(N + 2);
    T.newGrid = new Uint8Array(N + 1);
    T.changeCell = new Int32Array(T.changes);
    T.changeVal = new Uint8Array(T.changes);
    T.changeOld = new Uint8Array(T.changes);
    /* A step in which no node acted (node -1) is a hand-over: the run's current branch found nothing
       to do and ended, giving control back to its parent (a map or wfc, and the root, end the run).
       The branch is known from the steps before it (docs/trace-format.md): after a step of node n the
       current branch is n if n is a branch (a map or wfc making its grid), else n's parent; after a
       hand-over it is the ended branch's parent. T.handOver[s] is the branch that ended at step s (-1
       for other steps), so that every step of the run is counted on the root, as the header's total. */
    const root = Math.max(0, T.nodes.findIndex((n) => n.parent < 0));
    const isBranch = Uint8Array.from(T.nodes, (n) => ["markov", "sequence", "map", "wfc"].includes(n.kind));
    const returnsTo = Int32Array.from(T.nodes, (n) => (n.kind === "markov" || n.kind === "sequence" ? n.parent : -1));
    T.handOver = new Int32Array(N + 1).fill(-1);
    let current = M > 0 ? root : -1;
    /* Per-node steps, changed cells and hand-overs, summed at every CK-th step. */
    const CK = 1024;
    T.CK = CK;
    T.ckSteps = new Float64Array((Math.floor(N / CK) + 1) * M);
    T.ckCells = new Float64Array((Math.floor(N / CK) + 1) * M);
    T.ckEnds = new Float64Array((Math.floor(N / CK) + 1) * M);
    const runSteps = new Float64Array(M), runCells = new Float64Array(M), runEnds = new Float64Array(M);
    let step = 0, k = 0, cur = null, grid = null;
    const account = (node, cells) => {
      if (node >= 0) {
        runSteps[node]++;
        runCells[node] += cells;
        /* A failed requirement starts the run again at its root. */
        current = T.restarts.has(step) ? root : isBranch[node] ? node : T.nodes[node].parent;
      } else if (M > 0) {
        const ended = current >= 0 && current < M ? current : root;
        T.handOver[step] = ended;
        runEnds[ended]++;
        current = returnsTo[ended];
      }
      if (step % CK === 0) {
        T.ckSteps.set(runSteps, (step / CK) * M);
        T.ckCells.set(runCells, (step / CK) * M);
        T.ckEnds.set(runEnds, (step / CK) * M);
      }
    };

    const r = new Cursor(bytes, indexChunk.start, indexChunk.end);
    const count = r.varint();
    let offset = 0;
    for (let e = 0; e < count; e++) {
      const kind = r.varint(), estep = r.varint();
      offset += r.varint();
      const c = chunks.get(offset);
      if (!c || c.tag !== ["GRID", "KEYF", "STEP"][kind]) fail("an index entry does not point at its chunk");
      const q = new Cursor(bytes, c.start, c.end);
      if (kind === 0) { /* GRID: a new grid, as it is after step estep */
        const g = { index: T.grids.length, step: q.varint(), node: q.varint() - 1, mx: q.varint(), my: q.varint(), mz: q.varint() };
        g.legend = q.string();
        g.values = g.legend.length;
        g.count = g.mx * g.my * g.mz;
        g.colors = [];
        for (let v = 0; v < g.values; v++, q.pos += 3) g.colors.push([bytes[q.pos], bytes[q.pos + 1], bytes[q.pos + 2]]);
        if (g.step !== estep || (g.step !== step + 1 && !(g.step === 0 && step === 0))) fail("a grid out of sequence");
        T.grids.push(g);
        T.keys.push({ step: g.step, grid: g.index, content: new Cursor(bytes, q.pos, q.end) });
        grid = g;
        cur = decodeCells(q, g);
        if (g.step > 0) {
          step = g.step;
          T.stepStart[step] = k;
          T.stepNode[step] = g.node;
          T.newGrid[step] = 1;
          account(g.node, g.count);
        }
      } else if (kind === 1) { /* KEYF */
        if (q.varint() !== estep || estep !== step) fail("a keyframe out of sequence");
        T.keys.push({ step: estep, grid: grid.index, content: q });
      } else { /* STEP: a block of step records */
        const first = q.varint(), n = q.varint();
        q.varint();
        if (first !== step + 1 || first !== estep) fail("a step block out of sequence");
        const b = bytes, values = grid.values, cells = grid.count;
        let p = q.pos, node = -1, prev = 0;
        for (let s = 0; s < n; s++) {
          let h = 0, mul = 1, x;
          do { x = b[p++]; h += (x & 127) * mul; mul *= 128; } while (x > 127);
          if (h % 2) {
            let v = 0; mul = 1;
            do { x = b[p++]; v += (x & 127) * mul; mul *= 128; } while (x > 127);
            node = v - 1;
            if (node >= M) fail("a step names a node the tree lacks");
          }
          const changes = Math.floor(h / 2);
          step++;
          T.stepStart[step] = k;
          T.stepNode[step] = node;
          if (k + changes > T.changes) fail("more changes than the trace says");
          for (let i = 0; i < changes; i++) {
            let e = 0; mul = 1;
            do { x = b[p++]; e += (x & 127) * mul; mul *= 128; } while (x > 127);
            const v = e % values, zz = (e - v) / values;
            const cell = prev + (zz % 2 ? -(zz + 1) / 2 : zz / 2);
            if (cell < 0 || cell >= cells) fail("a change outside the grid");
            T.changeCell[k] = cell;
            T.changeVal[k] = v;
            T.changeOld[k] = cur[cell];
            cur[cell] = v;
            prev = cell;
            k++;
          }
          account(node, changes);
        }
        if (p !== c.end) fail("a step block does not end where its chunk does");
      }
    }
    if (step !== N) fail("steps are missing");
    T.stepStart[N + 1] = k;
    T.keySteps = T.keys.map((key) => key.step);
    T.gridSteps = T.grids.map((g) => g.step);
    return T;
  }

  function decodeCells(q, g) {
    const enc = q.varint();
    const data = q.b.subarray(q.pos, q.end);
    let cells;
    if (enc === 0) {
      if (data.length !== g.count) fail("a raw grid of the wrong size");
      cells = data.slice();
    } else if (enc === 1) cells = smaltiInflate(data, g.count);
    else fail("unknown cell encoding " + enc);
    for (let i = 0; i < cells.length; i++) if (cells[i] >= g.values) fail("a cell value outside the legend");
    return cells;
  }

  /* The last index in sorted `arr` whose value is <= x. */
  function lastAtOrBefore(arr, x) {
    let lo = 0, hi = arr.length - 1, best = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (arr[mid] <= x) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  }

  /* ---------------------------------------------------------------- state */

  let T = null;
  const S = {
    pos: 0, grid: null, cells: null, counts: null,
    dirtyAll: true, dirty: [],
    mode: "slice", z: 0,
    scale: 1, ox: 0, oy: 0, fitted: false,
    playing: false, speed: 60, acc: 0, last: 0,
    keyCache: new Map(),
    acting: -2, statsStep: -1, hover: null,
  };

  function keyCells(ki) {
    const key = T.keys[ki];
    let cells = S.keyCache.get(ki);
    if (!cells) {
      const q = key.content, save = q.pos;
      cells = decodeCells(q, T.grids[key.grid]);
      q.pos = save;
      if (S.keyCache.size >= 6) S.keyCache.delete(S.keyCache.keys().next().value);
      S.keyCache.set(ki, cells);
    }
    return cells;
  }

  function setGrid(g) {
    const old = S.grid || S.lastGrid; /* studio: a new run of a grid of the same size keeps the zoom */
    const same = old && old.mx === g.mx && old.my === g.my && old.mz === g.mz;
    S.grid = g;
    if (!S.cells || S.cells.length !== g.count) S.cells = new Uint8Array(g.count);
    S.palette = new Uint32Array(g.values);
    for (let v = 0; v < g.values; v++) {
      const [cr, cg, cb] = g.colors[v];
      S.palette[v] = (255 << 24 | cb << 16 | cg << 8 | cr) >>> 0; /* RGBA bytes in a little-endian word */
    }
    S.slice = document.createElement("canvas");
    S.slice.width = g.mx;
    S.slice.height = g.my;
    S.sliceCtx = S.slice.getContext("2d");
    S.image = S.sliceCtx.createImageData(g.mx, g.my);
    S.pixels = new Uint32Array(S.image.data.buffer);
    S.iso = null;
    if (!same) {
      S.z = g.mz > 1 ? g.mz - 1 : 0;
      S.fitted = false;
    }
    buildGridUi();
    S.dirtyAll = true;
  }

  function recount() {
    S.counts = new Float64Array(S.grid.values);
    for (let i = 0; i < S.cells.length; i++) S.counts[S.cells[i]]++;
  }

  function markDirty(cell) {
    if (S.dirtyAll) return;
    S.dirty.push(cell);
    if (S.dirty.length > (S.grid.count >> 3)) S.dirtyAll = true;
  }

  function forward(to) {
    const cells = S.cells, counts = S.counts, cc = T.changeCell, cv = T.changeVal, co = T.changeOld;
    for (let c = T.stepStart[S.pos + 1], end = T.stepStart[to + 1]; c < end; c++) {
      const i = cc[c];
      counts[co[c]]--;
      counts[cv[c]]++;
      cells[i] = cv[c];
      markDirty(i);
    }
    S.pos = to;
  }

  function backward(to) {
    const cells = S.cells, counts = S.counts, cc = T.changeCell, cv = T.changeVal, co = T.changeOld;
    for (let c = T.stepStart[S.pos + 1] - 1, end = T.stepStart[to + 1]; c >= end; c--) {
      const i = cc[c];
      counts[cv[c]]--;
      counts[co[c]]++;
      cells[i] = co[c];
      markDirty(i);
    }
    S.pos = to;
  }

  /* Put the grid at step t: replay from here when that is short and on the same
     grid, otherwise start from the nearest keyframe at or before t. */
  function seek(t) {
    t = Math.max(0, Math.min(T.steps, Math.round(t)));
    if (t === S.pos && S.cells) return;
    const g = lastAtOrBefore(T.gridSteps, t);
    const span = Math.abs(T.stepStart[t + 1] - T.stepStart[S.pos + 1]);
    if (S.cells && g === S.grid.index && span <= 2 * S.grid.count + 16384) {
      if (t > S.pos) forward(t);
      else backward(t);
      return;
    }
    const ki = lastAtOrBefore(T.keySteps, t);
    const key = T.keys[ki];
    if (!S.grid || key.grid !== S.grid.index) setGrid(T.grids[key.grid]);
    S.cells.set(keyCells(ki));
    S.pos = key.step;
    recount();
    S.dirtyAll = true;
    forward(t);
  }

  /* ---------------------------------------------------------------- drawing */

  const canvas = $("grid"), ctx = canvas.getContext("2d");
  let dpr = 1;

  function resize() {
    dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  function contentSize() {
    if (S.mode === "iso" && S.grid.mz > 1) { ensureIso(); return [S.iso.width / ISO_RES, S.iso.height / ISO_RES]; }
    return [S.grid.mx, S.grid.my];
  }

  function fit() {
    const [w, h] = contentSize();
    const cw = canvas.clientWidth, ch = canvas.clientHeight;
    let s = Math.min((cw - 24) / w, (ch - 24) / h);
    if (s >= 2) s = Math.floor(s);
    S.scale = Math.max(s, 0.05);
    S.ox = Math.round((cw - w * S.scale) / 2);
    S.oy = Math.round((ch - h * S.scale) / 2);
    S.fitted = true;
  }

  function zoomAt(factor, px, py) {
    const s = Math.min(400, Math.max(0.05, S.scale * factor));
    S.ox = px - (px - S.ox) * (s / S.scale);
    S.oy = py - (py - S.oy) * (s / S.scale);
    S.scale = s;
    draw();
  }

  function paintSlice() {
    const g = S.grid, px = S.pixels, pal = S.palette, cells = S.cells, layer = g.mx * g.my, base = S.z * layer;
    if (S.dirtyAll) {
      for (let i = 0; i < layer; i++) px[i] = pal[cells[base + i]];
    } else {
      for (const c of S.dirty) if (c >= base && c < base + layer) px[c - base] = pal[cells[c]];
    }
    S.sliceCtx.putImageData(S.image, 0, 0);
  }

  /* Isometric picture, as smalti's PNGs draw it: shaded cubes, value 0 empty,
     layers above z left out so that the inside can be seen. */
  const ISO_RES = 8; /* picture pixels per cube half-width; the view scales it */
  function ensureIso() {
    if (S.iso && !S.isoDirty) return;
    const g = S.grid, s = ISO_RES, mx = g.mx, my = g.my, mz = g.mz;
    const w = (mx + my + 2) * s, h = Math.ceil(((mx + my) / 2 + mz + 2) * s);
    if (!S.iso) {
      S.iso = document.createElement("canvas");
      S.iso.width = w;
      S.iso.height = h;
      S.isoCtx = S.iso.getContext("2d");
      S.sprites = g.colors.map((c) => cubeSprite(c, s));
    }
    const ictx = S.isoCtx, cells = S.cells, top = Math.min(S.z, mz - 1);
    ictx.clearRect(0, 0, w, h);
    /* Back to front: the diagonal layers x+y+z = k in increasing k. */
    for (let k = 0; k <= mx + my + top - 3 + 1; k++)
      for (let z = 0; z <= top; z++)
        for (let y = 0; y < my; y++) {
          const x = k - y - z;
          if (x < 0 || x >= mx) continue;
          const i = x + y * mx + z * mx * my, v = cells[i];
          if (!v) continue;
          /* Hidden when the three faces we see are covered. */
          if (x + 1 < mx && y + 1 < my && z + 1 <= top && cells[i + 1] && cells[i + mx] && cells[i + mx * my]) continue;
          ictx.drawImage(S.sprites[v], (x - y + my) * s, ((x + y) * s) / 2 + (mz - z) * s);
        }
    S.isoDirty = false;
  }

  function cubeSprite([r, g, b], s) {
    const c = document.createElement("canvas");
    c.width = 2 * s;
    c.height = 2 * s;
    const x = c.getContext("2d");
    const shade = (k) => `rgb(${(r * k) >> 8},${(g * k) >> 8},${(b * k) >> 8})`;
    const face = (pts, color) => {
      x.beginPath();
      x.moveTo(pts[0], pts[1]);
      for (let i = 2; i < pts.length; i += 2) x.lineTo(pts[i], pts[i + 1]);
      x.closePath();
      x.fillStyle = color;
      x.fill();
    };
    face([s, 0, 2 * s, s / 2, s, s, 0, s / 2], shade(215));          /* top */
    face([0, s / 2, s, s, s, 2 * s, 0, 1.5 * s], shade(143));        /* left */
    face([s, s, 2 * s, s / 2, 2 * s, 1.5 * s, s, 2 * s], shade(71)); /* right */
    x.strokeStyle = "rgba(0,0,0,0.55)";
    x.lineWidth = 0.6;
    x.beginPath();
    x.moveTo(s, 0); x.lineTo(2 * s, s / 2); x.lineTo(2 * s, 1.5 * s); x.lineTo(s, 2 * s); x.lineTo(0, 1.5 * s); x.lineTo(0, s / 2);
    x.closePath();
    x.moveTo(0, s / 2); x.lineTo(s, s); x.lineTo(2 * s, s / 2); x.moveTo(s, s); x.lineTo(s, 2 * s);
    x.stroke();
    return c;
  }

  function draw() {
    if (!T) return;
    resize();
    const iso = S.mode === "iso" && S.grid.mz > 1;
    if (!S.fitted) fit();
    if (iso) {
      if (S.dirtyAll || S.dirty.length) S.isoDirty = true;
      ensureIso();
      if (S.dirtyAll || S.dirty.length) S.sliceStale = true;
    } else {
      if (S.sliceStale) { S.dirtyAll = true; S.sliceStale = false; }
      if (S.dirtyAll || S.dirty.length) paintSlice();
    }
    if (T.lattice && (S.dirtyAll || S.dirty.length || S.twistedStale !== false)) { drawTwisted(); S.twistedStale = false; }
    S.dirtyAll = false;
    S.dirty.length = 0;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#0e0f12";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.imageSmoothingEnabled = false;
    if (iso) {
      ctx.imageSmoothingEnabled = S.scale < 1;
      ctx.drawImage(S.iso, S.ox, S.oy, (S.iso.width / ISO_RES) * S.scale, (S.iso.height / ISO_RES) * S.scale);
    } else {
      const g = S.grid;
      ctx.drawImage(S.slice, S.ox, S.oy, g.mx * S.scale, g.my * S.scale);
      ctx.strokeStyle = "#3a404d";
      ctx.lineWidth = 1;
      ctx.strokeRect(S.ox - 0.5, S.oy - 0.5, g.mx * S.scale + 1, g.my * S.scale + 1);
      outlineChanges();
      if (S.hover) {
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = "#ffffff";
        const size = Math.max(S.scale, 4), off = (size - S.scale) / 2;
        ctx.strokeRect(S.ox + S.hover[0] * S.scale - off, S.oy + S.hover[1] * S.scale - off, size, size);
      }
    }
    updateUi();
  }

  /* The twisted view, beside the straight one when the trace holds a lattice: each cell of a 2-D grid whose
     sides are whole multiples of the lattice's quads is drawn as its own quad, its corners placed bilinearly
     in its block's quad (as smalti's twisted outputs do). Other grids leave it empty. */
  const twisted = $("twisted"), tctx = twisted.getContext("2d");
  function drawTwisted() {
    const w = Math.max(1, Math.round(twisted.clientWidth * dpr)), h = Math.max(1, Math.round(twisted.clientHeight * dpr));
    if (twisted.width !== w || twisted.height !== h) { twisted.width = w; twisted.height = h; }
    tctx.setTransform(1, 0, 0, 1, 0, 0);
    tctx.fillStyle = "#0e0f12";
    tctx.fillRect(0, 0, w, h);
    const L = T.lattice, g = S.grid, qx = L.nx - 1, qy = L.ny - 1;
    S.twistedShown = g.mz === 1 && g.mx % qx === 0 && g.my % qy === 0;
    if (!S.twistedShown) return;
    const bx = g.mx / qx, by = g.my / qy, P = L.pts;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < P.length; i += 2) {
      x0 = Math.min(x0, P[i]); x1 = Math.max(x1, P[i]); y0 = Math.min(y0, P[i + 1]); y1 = Math.max(y1, P[i + 1]);
    }
    const s = Math.min((w - 24 * dpr) / (x1 - x0 || 1), (h - 24 * dpr) / (y1 - y0 || 1));
    const ox = (w - (x1 - x0) * s) / 2 - x0 * s, oy = (h - (y1 - y0) * s) / 2 - y0 * s;
    S.twistedMap = { s, ox, oy, bx, by };
    /* A point at lattice coordinates (u, v), u in 0..qx, from the bilinear blend of its quad's corners. */
    const at = (u, v) => {
      const i = Math.min(Math.floor(u), qx - 1), j = Math.min(Math.floor(v), qy - 1), fu = u - i, fv = v - j;
      const a = 2 * (i + j * L.nx), b = a + 2, c = a + 2 * L.nx, d = c + 2;
      const px = (1 - fv) * ((1 - fu) * P[a] + fu * P[b]) + fv * ((1 - fu) * P[c] + fu * P[d]);
      const py = (1 - fv) * ((1 - fu) * P[a + 1] + fu * P[b + 1]) + fv * ((1 - fu) * P[c + 1] + fu * P[d + 1]);
      return [ox + px * s, oy + py * s];
    };
    const corners = new Float64Array((g.mx + 1) * (g.my + 1) * 2);
    for (let y = 0; y <= g.my; y++)
      for (let x = 0; x <= g.mx; x++) {
        const [px, py] = at(x / bx, y / by), k = 2 * (x + y * (g.mx + 1));
        corners[k] = px; corners[k + 1] = py;
      }
    const colors = g.colors.map(([r, gg, b]) => `rgb(${r},${gg},${b})`), base = S.z * g.mx * g.my;
    tctx.lineWidth = 0.6;
    for (let y = 0; y < g.my; y++)
      for (let x = 0; x < g.mx; x++) {
        const k = 2 * (x + y * (g.mx + 1)), r = k + 2 * (g.mx + 1);
        tctx.beginPath();
        tctx.moveTo(corners[k], corners[k + 1]);
        tctx.lineTo(corners[k + 2], corners[k + 3]);
        tctx.lineTo(corners[r + 2], corners[r + 3]);
        tctx.lineTo(corners[r], corners[r + 1]);
        tctx.closePath();
        tctx.fillStyle = tctx.strokeStyle = colors[S.cells[base + x + y * g.mx]];
        tctx.fill();
        tctx.stroke(); /* closes the hairline seams between neighbouring quads */
      }
  }

  /* The cells the current step changed, outlined (at least 5 pixels wide so that small cells show). */
  function outlineChanges() {
    if (S.pos === 0 || T.newGrid[S.pos]) return;
    const g = S.grid, layer = g.mx * g.my, base = S.z * layer;
    const from = T.stepStart[S.pos], to = Math.min(T.stepStart[S.pos + 1], from + 20000);
    const size = Math.max(S.scale, 5), off = (size - S.scale) / 2;
    ctx.beginPath();
    for (let c = from; c < to; c++) {
      const i = T.changeCell[c] - base;
      if (i < 0 || i >= layer) continue;
      const x = i % g.mx, y = (i - x) / g.mx;
      ctx.rect(S.ox + x * S.scale - off, S.oy + y * S.scale - off, size, size);
    }
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(0,0,0,0.85)";
    ctx.stroke();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#ffe14d";
    ctx.stroke();
  }

  /* ---------------------------------------------------------------- panels */

  const fmt = (n) => n.toLocaleString("en-US");
  let nodeEls = [], lineEls = [];

  function buildTree() {
    const tree = $("tree");
    tree.textContent = "";
    const kids = T.nodes.map(() => []);
    const roots = [];
    for (const n of T.nodes) (n.parent >= 0 && n.parent < T.nodes.length ? kids[n.parent] : roots).push(n.id);
    T.order = [];
    const walk = (id, depth) => {
      T.order.push(id);
      T.nodes[id].level = depth;
      for (const k of kids[id]) walk(k, depth + 1);
    };
    for (const r of roots) walk(r, 0);
    T.kids = kids;
    nodeEls = new Array(T.nodes.length);
    const srcLines = T.source.split("\n");
    for (const id of T.order) {
      const n = T.nodes[id];
      const el = document.createElement("div");
      el.className = "node idle";
      el.dataset.id = id;
      el.style.paddingLeft = 10 + n.level * 16 + "px";
      const head = document.createElement("div");
      head.className = "head";
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = n.kind;
      const nid = document.createElement("span");
      nid.className = "id";
      nid.textContent = "#" + id;
      head.append(kind, nid);
      if (n.attrs) {
        const a = document.createElement("span");
        a.className = "attrs";
        a.textContent = n.attrs;
        head.append(a);
      }
      const text = n.line ? (srcLines[n.line - 1] || "").trim() : "";
      head.title = text ? `line ${n.line}: ${text}` : n.kind + (n.attrs ? " " + n.attrs : "");
      const where = document.createElement("div");
      where.className = "where";
      where.textContent = n.line ? "line " + n.line : "implicit";
      const stats = document.createElement("div");
      stats.className = "stats";
      el.append(head, where, stats);
      el.addEventListener("click", () => jumpToNextStepOf(id));
      tree.append(el);
      nodeEls[id] = { el, stats, text: "" };
    }
  }

  function buildSource() {
    const pre = $("source");
    pre.textContent = "";
    lineEls = [null];
    const lines = T.source.replace(/\r\n?/g, "\n").split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    lines.forEach((text, i) => {
      const el = document.createElement("span");
      el.className = "ln";
      el.dataset.n = i + 1;
      el.textContent = text + "\n";
      pre.append(el);
      lineEls.push(el);
    });
    if (!lines.length) pre.textContent = "(the trace holds no model source)";
  }

  function buildGridUi() {
    const g = S.grid;
    const three = g.mz > 1;
    $("mode-group").hidden = !three;
    $("z-group").hidden = !three;
    const z = $("z-slider");
    z.max = Math.max(0, g.mz - 1);
    z.value = S.z;
    if (!three) S.mode = "slice";
    const legend = $("legend");
    legend.textContent = "";
    S.legendCounts = [];
    for (let v = 0; v < g.values; v++) {
      const item = document.createElement("div");
      item.className = "item";
      const sw = document.createElement("span");
      sw.className = "sw";
      sw.style.background = `rgb(${g.colors[v].join(",")})`;
      const sym = document.createElement("span");
      sym.textContent = g.legend[v];
      const count = document.createElement("span");
      count.className = "count";
      item.append(sw, sym, count);
      item.title = `value ${v}: '${g.legend[v]}' #${g.colors[v].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
      legend.append(item);
      S.legendCounts.push(count);
    }
    $("run-meta").textContent = `seed ${T.seed} · ${g.mx}×${g.my}${three ? "×" + g.mz : ""} · ${fmt(T.steps)} steps · ${fmt(T.changes)} changes`;
    updateModeButtons();
  }

  function statsAt(t) {
    const M = T.nodes.length, CK = T.CK, ck = Math.floor(t / CK);
    const steps = T.ckSteps.slice(ck * M, ck * M + M), cells = T.ckCells.slice(ck * M, ck * M + M);
    const ends = T.ckEnds.slice(ck * M, ck * M + M);
    for (let s = ck * CK + 1; s <= t; s++) {
      const n = T.stepNode[s];
      if (n < 0) {
        if (T.handOver[s] >= 0) ends[T.handOver[s]]++;
        continue;
      }
      steps[n]++;
      cells[n] += T.newGrid[s] ? T.grids[lastAtOrBefore(T.gridSteps, s)].count : T.stepStart[s + 1] - T.stepStart[s];
    }
    /* A node's steps: those it made and its hand-overs; a branch's also all of its descendants'. */
    for (let i = 0; i < M; i++) steps[i] += ends[i];
    for (let i = T.order.length - 1; i >= 0; i--) {
      const id = T.order[i], p = T.nodes[id].parent;
      if (p >= 0 && p < M) { steps[p] += steps[id]; cells[p] += cells[id]; ends[p] += ends[id]; }
    }
    return [steps, cells, ends];
  }

  function updateUi() {
    const t = S.pos, N = T.steps;
    $("scrubber").value = t;
    if (document.activeElement !== $("step-input")) $("step-input").value = t;
    const acting = t > 0 ? T.stepNode[t] : -1;
    if (acting !== S.acting) {
      if (S.acting >= 0 && nodeEls[S.acting]) nodeEls[S.acting].el.classList.remove("acting");
      for (const e of document.querySelectorAll(".node.path")) e.classList.remove("path");
      for (const e of document.querySelectorAll(".ln.hl")) e.classList.remove("hl");
      if (acting >= 0 && nodeEls[acting]) {
        nodeEls[acting].el.classList.add("acting");
        for (let p = T.nodes[acting].parent; p >= 0 && nodeEls[p]; p = T.nodes[p].parent) nodeEls[p].el.classList.add("path");
        scrollInto($("tree"), nodeEls[acting].el);
        const line = lineEls[T.nodes[acting].line];
        if (line) {
          line.classList.add("hl");
          scrollInto($("source"), line);
        }
      }
      S.acting = acting;
    }
    if (S.statsStep !== t) {
      const [steps, cells, ends] = statsAt(t);
      for (const id of T.order) {
        const ne = nodeEls[id];
        const text = `${steps[id]}|${cells[id]}|${ends[id]}`;
        if (text === ne.text) continue;
        ne.text = text;
        /* The steps count the hand-overs under the node (steps in which a branch ended), so the root's is the run's. */
        const over = ends[id] ? ` (${fmt(ends[id])} hand-over${ends[id] === 1 ? "" : "s"})` : "";
        ne.stats.innerHTML = `<b>${fmt(steps[id])}</b> step${steps[id] === 1 ? "" : "s"}${over} · <b>${fmt(cells[id])}</b> cell${cells[id] === 1 ? "" : "s"} changed`;
        ne.stats.title = ends[id]
          ? `${fmt(steps[id] - ends[id])} step${steps[id] - ends[id] === 1 ? "" : "s"} in which a node here acted, and ${fmt(ends[id])} in which a branch here found nothing left to do and handed control back to its parent: no node acted${T.nodes[id].parent < 0 ? " (the run's last step is the root's own)" : ""}`
          : "";
        ne.el.classList.toggle("idle", steps[id] === 0);
      }
      for (let v = 0; v < S.legendCounts.length; v++) S.legendCounts[v].textContent = fmt(S.counts[v]);
      S.statsStep = t;
    }
    const status = $("status");
    if (t === 0) status.innerHTML = "step 0 · the start grid";
    else {
      const n = T.nodes[acting];
      const what = T.newGrid[t] ? "made a new grid" : `changed ${fmt(T.stepStart[t + 1] - T.stepStart[t])} cell${T.stepStart[t + 1] - T.stepStart[t] === 1 ? "" : "s"}`;
      status.innerHTML = "";
      status.append(`step ${fmt(t)} · `);
      const k = document.createElement("span");
      k.className = "k";
      const ended = n ? -1 : T.handOver[t], b = T.nodes[ended];
      k.textContent = n ? `${n.kind} #${acting}` : b ? `${b.kind} #${ended}` : "no node";
      const restart = T.restarts.get(t);
      if (n && restart)
        status.append(k, `${n.line ? ` (line ${n.line})` : ""} failed: ${restart.what}; the run starts again (attempt ${restart.attempt}, seed ${restart.seed}) and ${what}`);
      else if (n) status.append(k, n.line ? ` (line ${n.line}) ${what}` : ` ${what}`);
      else if (b) {
        /* A markov or sequence hands back to its parent; a map, a wfc or the root ends the run. */
        const to = (b.kind === "markov" || b.kind === "sequence") && T.nodes[b.parent];
        status.append(k, `${b.line ? ` (line ${b.line})` : ""} ended: nothing left to do, no node acted${to ? `; back to ${to.kind} #${b.parent}` : ""}`);
      }
      else status.append(k, ` ${what}`);
      for (const w of T.warnings) if (w.step === t) status.append(` · warning${w.line ? ` (line ${w.line})` : ""}: ${w.message}`);
      if (t === N) status.append(" · " + endText());
    }
    $("btn-play").setAttribute("aria-label", S.playing ? "pause" : "play");
    $("play-icon").setAttribute("d", S.playing ? "M4 3h3v10H4zM9 3h3v10H9z" : "M4 2.5v11l10-5.5z");
  }

  function endText() {
    const end = T.end === 0 ? "the model finished" : T.end === 1 ? "stopped at the step limit" : "error: " + T.endMessage;
    const n = T.warnings.length;
    return n ? `${end} · ${n} warning${n === 1 ? "" : "s"} (at step ${T.warnings.map((w) => fmt(w.step)).join(", ")})` : end;
  }

  function scrollInto(box, el) {
    const top = el.offsetTop - box.offsetTop, bottom = top + el.offsetHeight;
    if (top < box.scrollTop + 4) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    else if (bottom > box.scrollTop + box.clientHeight - 4) box.scrollTop = top - box.clientHeight / 3;
  }

  function updateModeButtons() {
    $("mode-slice").classList.toggle("on", S.mode === "slice");
    $("mode-iso").classList.toggle("on", S.mode === "iso");
    $("z-label").textContent = S.mode === "iso" ? "up to z" : "z";
    $("z-value").textContent = S.z;
  }

  /* ---------------------------------------------------------------- actions */

  function goTo(t) {
    seek(t);
    draw();
  }

  function jumpToNextStepOf(id) {
    const inside = (n) => { for (; n >= 0; n = T.nodes[n].parent) if (n === id) return true; return false; };
    for (let s = S.pos + 1; s <= T.steps; s++) if (T.stepNode[s] >= 0 && inside(T.stepNode[s])) return goTo(s);
    for (let s = 1; s <= S.pos; s++) if (T.stepNode[s] >= 0 && inside(T.stepNode[s])) return goTo(s);
  }

  function setPlaying(on) {
    S.playing = on && S.pos < T.steps;
    if (on && S.pos >= T.steps) { goTo(0); S.playing = true; }
    S.acc = 0;
    S.last = performance.now();
    if (S.playing) requestAnimationFrame(tick);
    updateUi();
  }

  function tick(now) {
    if (!S.playing) return;
    S.acc += (S.speed * Math.min(now - S.last, 250)) / 1000;
    S.last = now;
    const n = Math.floor(S.acc);
    if (n > 0) {
      S.acc -= n;
      goTo(S.pos + n);
    }
    if (S.pos >= T.steps) { S.playing = false; updateUi(); return; }
    requestAnimationFrame(tick);
  }

  function setMode(mode) {
    if (S.grid.mz <= 1) mode = "slice";
    if (mode === S.mode) return;
    S.mode = mode;
    S.fitted = false;
    if (mode === "slice") S.dirtyAll = true; else S.isoDirty = true;
    updateModeButtons();
    draw();
  }

  function setZ(z) {
    S.z = Math.max(0, Math.min(S.grid.mz - 1, z | 0));
    $("z-slider").value = S.z;
    S.dirtyAll = true;
    S.isoDirty = true;
    updateModeButtons();
    draw();
  }

  function cellAt(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const x = Math.floor((clientX - rect.left - S.ox) / S.scale), y = Math.floor((clientY - rect.top - S.oy) / S.scale);
    return x >= 0 && y >= 0 && x < S.grid.mx && y < S.grid.my ? [x, y] : null;
  }

  function bindUi() {
    const speeds = [1, 2, 5, 10, 30, 60, 120, 300, 1000, 3000, 10000, 30000, 100000];
    const sel = $("speed");
    for (const v of speeds) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = fmt(v) + " steps/s";
      sel.append(o);
    }
    sel.addEventListener("change", () => { S.speed = +sel.value; sel.blur(); });
    const click = (id, fn) => $(id).addEventListener("click", (e) => { fn(); e.currentTarget.blur(); });
    click("btn-first", () => { setPlaying(false); goTo(0); });
    click("btn-back", () => { setPlaying(false); goTo(S.pos - 1); });
    click("btn-play", () => setPlaying(!S.playing));
    click("btn-fwd", () => { setPlaying(false); goTo(S.pos + 1); });
    click("btn-last", () => { setPlaying(false); goTo(T.steps); });
    click("zoom-in", () => zoomAt(1.25, canvas.clientWidth / 2, canvas.clientHeight / 2));
    click("zoom-out", () => zoomAt(0.8, canvas.clientWidth / 2, canvas.clientHeight / 2));
    click("zoom-fit", () => { fit(); draw(); });
    click("mode-slice", () => setMode("slice"));
    click("mode-iso", () => setMode("iso"));
    $("z-slider").addEventListener("input", (e) => setZ(+e.target.value));
    const scrub = $("scrubber");
    scrub.addEventListener("input", () => { const t = +scrub.value; setPlaying(false); goTo(t); });
    const input = $("step-input");
    const jump = () => { const t = +input.value || 0; setPlaying(false); goTo(t); };
    input.addEventListener("change", jump);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { jump(); input.blur(); } });

    window.addEventListener("keydown", (e) => {
      const tag = e.target && e.target.tagName;
      if ((tag === "INPUT" && e.target.type !== "range") || tag === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
      const big = e.shiftKey ? 10 : 1;
      let handled = true;
      if (e.key === " ") setPlaying(!S.playing);
      else if (e.key === "ArrowRight") { setPlaying(false); goTo(S.pos + big); }
      else if (e.key === "ArrowLeft") { setPlaying(false); goTo(S.pos - big); }
      else if (e.key === "Home") { setPlaying(false); goTo(0); }
      else if (e.key === "End") { setPlaying(false); goTo(T.steps); }
      else if (e.key === "+" || e.key === "=") zoomAt(1.25, canvas.clientWidth / 2, canvas.clientHeight / 2);
      else if (e.key === "-") zoomAt(0.8, canvas.clientWidth / 2, canvas.clientHeight / 2);
      else if (e.key === "f" || e.key === "F") { fit(); draw(); }
      else if (e.key === "PageUp" && S.grid.mz > 1) setZ(S.z + 1);
      else if (e.key === "PageDown" && S.grid.mz > 1) setZ(S.z - 1);
      else handled = false;
      if (handled) e.preventDefault();
    }, true);

    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
    let drag = null;
    canvas.addEventListener("mousedown", (e) => { drag = [e.clientX, e.clientY, S.ox, S.oy]; canvas.classList.add("panning"); });
    window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("panning"); });
    window.addEventListener("mousemove", (e) => {
      if (drag) {
        S.ox = drag[2] + e.clientX - drag[0];
        S.oy = drag[3] + e.clientY - drag[1];
        draw();
      }
      if (e.target !== canvas) return;
      showHover(e.clientX, e.clientY);
    });
    canvas.addEventListener("mouseleave", () => { $("hover").hidden = true; S.hover = null; draw(); });
    window.addEventListener("resize", () => { S.fitted = false; S.twistedStale = true; draw(); });
  }

  function showHover(clientX, clientY) {
    const h = $("hover");
    h.hidden = false;
    if (S.mode === "iso" && S.grid.mz > 1) { h.textContent = "isometric view of layers 0.." + S.z + " (drag to pan, wheel to zoom)"; return; }
    const cell = cellAt(clientX, clientY);
    const moved = String(cell) !== String(S.hover);
    S.hover = cell;
    if (moved) draw();
    if (!cell) { h.hidden = true; return; }
    const [x, y] = cell, g = S.grid, i = x + y * g.mx + S.z * g.mx * g.my, v = S.cells[i];
    h.textContent = `x ${x}  y ${y}${g.mz > 1 ? "  z " + S.z : ""}  `;
    const sw = document.createElement("span");
    sw.className = "sw";
    sw.style.background = `rgb(${g.colors[v].join(",")})`;
    h.append(sw, `${g.legend[v]}  (value ${v})`);
  }

  /* ---------------------------------------------------------------- start */

  function start() {
    try {
      begin();
    } catch (e) {
      const box = $("error");
      box.hidden = false;
      box.textContent = String(e.message || e);
      console.error(e);
      window.smaltiViewer = { ready: true, error: String(e.message || e) };
    }
  }

  /* The controls that depend on the run's length. */
  function setRunUi() {
    const speeds = [...$("speed").options].map((o) => +o.value);
    /* A whole run plays in about 15 seconds by default. */
    S.speed = speeds.find((v) => v * 15 >= T.steps) || speeds[speeds.length - 1];
    $("speed").value = S.speed;
    $("scrubber").max = T.steps;
    $("step-input").max = T.steps;
    $("step-total").textContent = fmt(T.steps);
  }

  /* Show a trace; `at` is the step to show (clamped), the first one by default. */
  let bound = false;
  function show(bytes, at) {
    const next = loadTrace(bytes);
    S.playing = false;
    S.lastGrid = S.grid;
    S.grid = null;
    S.cells = null;
    S.pos = 0;
    S.keyCache.clear();
    S.acting = -2;
    S.statsStep = -1;
    S.iso = null;
    T = next;
    const file = T.modelPath.split("/").pop();
    $("run-title").textContent = file || "(model)";
    $("source-name").textContent = T.modelPath;
    buildTree();
    buildSource();
    if (!bound) { bindUi(); bound = true; }
    setRunUi();
    /* A trace with a lattice shows its twisted view beside the straight one (studio may show one without next). */
    $("stage").classList.toggle("twin", !!T.lattice);
    twisted.hidden = !T.lattice;
    seek(at === undefined ? 0 : Math.min(T.steps, at));
    if (S.grid.mz > 1 && !S.lastGrid) S.mode = "iso";
    updateModeButtons();
    draw();
  }

  function begin() {
    const el = $("trace-data");
    const studio = document.body.dataset.studio !== undefined;
    if (!el && !studio) throw new Error("this page holds no trace");
    if (el) show(base64Bytes(el.textContent));
    window.smaltiViewer = {
      ready: true,
      loadMs: performance.now(),
      parseMs: performance.now() - t0,
      get steps() { return T ? T.steps : 0; },
      get step() { return S.pos; },
      get mode() { return S.mode; },
      get gridSize() { return [S.grid.mx, S.grid.my, S.grid.mz]; },
      actingNode: () => (S.pos > 0 ? T.stepNode[S.pos] : -1),
      seek: goTo,
      setMode,
      setZ,
      /* The centre of cell (x, y) of the shown layer in canvas pixels. */
      hasTwisted: () => !!T.lattice && S.twistedShown,
      /* The centre of cell (x, y)'s quad in the twisted canvas's pixels (its corners' mean), or null. */
      twistedCenter: (x, y) => {
        if (!T.lattice || !S.twistedShown) return null;
        const L = T.lattice, m = S.twistedMap, P = L.pts;
        let sx = 0, sy = 0;
        for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
          const u = (x + dx) / m.bx, v = (y + dy) / m.by;
          const i = Math.min(Math.floor(u), L.nx - 2), j = Math.min(Math.floor(v), L.ny - 2), fu = u - i, fv = v - j;
          const a = 2 * (i + j * L.nx), b = a + 2, c = a + 2 * L.nx, d = c + 2;
          sx += (1 - fv) * ((1 - fu) * P[a] + fu * P[b]) + fv * ((1 - fu) * P[c] + fu * P[d]);
          sy += (1 - fv) * ((1 - fu) * P[a + 1] + fu * P[b + 1]) + fv * ((1 - fu) * P[c + 1] + fu * P[d + 1]);
        }
        return { x: Math.floor(m.ox + (sx / 4) * m.s), y: Math.floor(m.oy + (sy / 4) * m.s) };
      },
      cellCenter: (x, y) => ({ x: Math.floor((S.ox + (x + 0.5) * S.scale) * dpr), y: Math.floor((S.oy + (y + 0.5) * S.scale) * dpr) }),
      /* For smalti studio: show another run's trace (bytes), at step `at`. */
      show,
      base64Bytes,
      get endText() { return T ? endText() : ""; },
      get warnings() { return T ? T.warnings.slice() : []; },
    };
  }

  start();
})();
