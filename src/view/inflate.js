/* inflate.js — a small zlib (RFC 1950) / DEFLATE (RFC 1951) decoder for the trace
   viewer's keyframes, so that the page needs no library and no network. */
"use strict";
const smaltiInflate = (function () {
  const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
    3073, 4097, 6145, 8193, 12289, 16385, 24577];
  const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  /* A canonical Huffman code as one lookup table indexed by the next `bits`
     input bits (low bit first): entry = symbol << 4 | code length. */
  function buildTable(lengths) {
    let max = 0;
    for (const l of lengths) if (l > max) max = l;
    const count = new Int32Array(16), next = new Int32Array(16);
    for (const l of lengths) count[l]++;
    count[0] = 0;
    let code = 0;
    for (let len = 1; len <= 15; len++) {
      code = (code + count[len - 1]) << 1;
      next[len] = code;
    }
    const table = new Int32Array(1 << max);
    for (let sym = 0; sym < lengths.length; sym++) {
      const len = lengths[sym];
      if (!len) continue;
      let c = next[len]++, rev = 0;
      for (let i = 0; i < len; i++) { rev = (rev << 1) | (c & 1); c >>= 1; }
      for (let j = rev; j < table.length; j += 1 << len) table[j] = (sym << 4) | len;
    }
    return { table, bits: max };
  }

  let fixedLit = null, fixedDist = null;
  function fixedTables() {
    if (!fixedLit) {
      const lit = new Array(288);
      for (let i = 0; i < 288; i++) lit[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
      fixedLit = buildTable(lit);
      fixedDist = buildTable(new Array(30).fill(5));
    }
    return [fixedLit, fixedDist];
  }

  /* Inflate the zlib stream `data` into a new Uint8Array of exactly `size` bytes. */
  function inflate(data, size) {
    if (data.length < 6 || (data[0] & 15) !== 8 || ((data[0] << 8) | data[1]) % 31 !== 0 || (data[1] & 32))
      throw new Error("not a zlib stream");
    const out = new Uint8Array(size);
    let pos = 2, buf = 0, cnt = 0, o = 0;
    const end = data.length;
    function need(n) {
      while (cnt < n) {
        if (pos >= end + 4) throw new Error("compressed data cut short");
        buf |= (pos < end ? data[pos] : 0) << cnt;
        pos++;
        cnt += 8;
      }
    }
    function bits(n) {
      need(n);
      const v = buf & ((1 << n) - 1);
      buf >>>= n;
      cnt -= n;
      return v;
    }
    function symbol(h) {
      need(h.bits);
      const e = h.table[buf & ((1 << h.bits) - 1)];
      const len = e & 15;
      if (!len) throw new Error("bad Huffman code");
      buf >>>= len;
      cnt -= len;
      return e >> 4;
    }
    let last = 0;
    while (!last) {
      last = bits(1);
      const type = bits(2);
      if (type === 0) {
        buf = 0;
        pos -= cnt >> 3; /* give back whole bytes already buffered */
        cnt = 0;
        if (pos + 4 > end) throw new Error("compressed data cut short");
        const len = data[pos] | (data[pos + 1] << 8);
        pos += 4;
        if (pos + len > end || o + len > size) throw new Error("stored block too long");
        out.set(data.subarray(pos, pos + len), o);
        pos += len;
        o += len;
        continue;
      }
      let lit, dist;
      if (type === 1) [lit, dist] = fixedTables();
      else if (type === 2) {
        const nlit = bits(5) + 257, ndist = bits(5) + 1, nclen = bits(4) + 4;
        const clen = new Array(19).fill(0);
        for (let i = 0; i < nclen; i++) clen[CLEN_ORDER[i]] = bits(3);
        const ch = buildTable(clen);
        const lengths = [];
        while (lengths.length < nlit + ndist) {
          const s = symbol(ch);
          if (s < 16) lengths.push(s);
          else if (s === 16) {
            if (!lengths.length) throw new Error("repeat with no length");
            const prev = lengths[lengths.length - 1];
            for (let r = 3 + bits(2); r > 0; r--) lengths.push(prev);
          } else for (let r = s === 17 ? 3 + bits(3) : 11 + bits(7); r > 0; r--) lengths.push(0);
        }
        if (lengths.length > nlit + ndist) throw new Error("too many code lengths");
        lit = buildTable(lengths.slice(0, nlit));
        dist = buildTable(lengths.slice(nlit));
      } else throw new Error("bad block type");
      for (;;) {
        const s = symbol(lit);
        if (s < 256) {
          if (o >= size) throw new Error("output too long");
          out[o++] = s;
        } else if (s === 256) break;
        else {
          const li = s - 257;
          if (li >= 29) throw new Error("bad length code");
          const len = LEN_BASE[li] + bits(LEN_EXTRA[li]);
          const di = symbol(dist);
          if (di >= 30) throw new Error("bad distance code");
          const d = DIST_BASE[di] + bits(DIST_EXTRA[di]);
          if (d > o || o + len > size) throw new Error("bad match");
          for (let k = 0; k < len; k++, o++) out[o] = out[o - d];
        }
      }
    }
    if (o !== size) throw new Error("inflated to " + o + " bytes, expected " + size);
    /* The Adler-32 checksum that ends the stream. */
    pos -= cnt >> 3;
    if (pos + 4 <= end) {
      let a = 1, b = 0;
      for (let i = 0; i < size; ) {
        const stop = Math.min(size, i + 3800);
        for (; i < stop; i++) { a += out[i]; b += a; }
        a %= 65521;
        b %= 65521;
      }
      const want = ((data[pos] << 24) | (data[pos + 1] << 16) | (data[pos + 2] << 8) | data[pos + 3]) >>> 0;
      if ((((b << 16) | a) >>> 0) !== want) throw new Error("checksum mismatch");
    }
    return out;
  }
  return inflate;
})();
