#!/usr/bin/env python3
"""check.py — checks smalti's twisted outputs of one run against its JSON (points and cells).

  check.py png MAP.json MAP.png PIXELSIZE COLOURS   the pixel at each quad's centroid has its cell's colour
  check.py obj MAP.json MAP.obj                      the OBJ's vertices and faces are the JSON's quads
COLOURS: the legend's colours as hex, comma-separated, in legend order. Exits 1 with a message on a mismatch."""
import json
import struct
import sys
import zlib


def read_png_rgb(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 2, "expected 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 3 * w + 1
    rows = []
    for y in range(h):
        line = raw[y * stride:(y + 1) * stride]
        assert line[0] == 0, "smalti writes filter 0"
        rows.append(line[1:])
    return w, h, rows


def quads(m):
    nx, ny, pts = m["points_x"], m["points_y"], m["points"]
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = i + j * nx
            yield i, j, [pts[a], pts[a + 1], pts[a + 1 + nx], pts[a + nx]]


def check_png(m, png, pixel_size, colours):
    w, h, rows = read_png_rgb(png)
    assert (w, h) == (m["width"] * pixel_size, m["height"] * pixel_size), "picture size"
    bx, by = m["block"]
    assert (bx, by) == (1, 1), "this check wants one cell a quad"
    bad = 0
    for i, j, q in quads(m):
        cx = sum(p[0] for p in q) / 4 * pixel_size
        cy = sum(p[1] for p in q) / 4 * pixel_size
        px, py = int(cx), int(cy)
        got = rows[py][3 * px:3 * px + 3].hex()
        want = colours[m["cells"][j][i]]
        if got != want:
            bad += 1
            print(f"quad ({i},{j}): pixel ({px},{py}) is {got}, its cell's colour is {want}")
    return bad


def check_obj(m, obj):
    v, f = [], []
    for line in open(obj):
        t = line.split()
        if t and t[0] == "v":
            v.append((float(t[1]), float(t[2])))
        elif t and t[0] == "f":
            f.append([int(x.split("/")[0]) - 1 for x in t[1:]])
    want = list(quads(m))
    if len(f) != len(want):
        print(f"{len(f)} faces, {len(want)} quads")
        return 1
    bad = 0
    for face, (i, j, q) in zip(f, want):
        corners = [v[k] for k in face]
        for (x, y), (qx, qy) in zip(corners, q):
            if abs(x - qx) > 1e-4 or abs(-y - qy) > 1e-4:
                bad += 1
                print(f"quad ({i},{j}): face corner ({x},{y}) is not point ({qx},{-qy})")
    return bad


def main():
    kind, m = sys.argv[1], json.load(open(sys.argv[2]))
    if kind == "png":
        bad = check_png(m, sys.argv[3], int(sys.argv[4]), sys.argv[5].lower().split(","))
    else:
        bad = check_obj(m, sys.argv[3])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
