#!/usr/bin/env python3
"""check3d.py — checks the bent OBJ of a 3-D run on a growgrid lattice against the straight grid and the lattice.

  check3d.py obj GRID.txt LATTICE.json BENT.obj   the mesh is the straight grid's box faces bent onto the lattice
  check3d.py json GRID.txt LATTICE.json BENT.json  the 3-D JSON: the lattice's points, cells[z][y][x]
  check3d.py vox GRID.txt BENT.vox                the VOX is the straight grid, cell for cell
  check3d.py png GRID.txt BENT.obj BENT.png PIXELSIZE COLOURS   each column's top shows its colour where the mesh puts it

GRID.txt: the run's text grid (-o X.txt); LATTICE.json: the twisted JSON of a 2-D run with the same
growgrid, seed and plan (its points; every layer of the 3-D run shares that lattice). The OBJ must have
one vertex per box corner that a face between a full and an empty cell uses (value 0 is empty), at the
height of its layer, x and -y its bent corner: a lattice point where the corner is one, else inside the
hull of its quad's four points; and exactly those faces, turned outward. COLOURS: the legend's colours
as hex, comma-separated, in legend order. Exits 1 with a message on a mismatch."""
import json
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from check import read_png_rgb  # noqa: E402

FACES = [((0, 0, 1), [(0, 1, 1), (1, 1, 1), (1, 0, 1), (0, 0, 1)]), ((0, 0, -1), [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]),
         ((1, 0, 0), [(1, 1, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1)]), ((-1, 0, 0), [(0, 1, 1), (0, 0, 1), (0, 0, 0), (0, 1, 0)]),
         ((0, 1, 0), [(0, 1, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1)]), ((0, -1, 0), [(0, 0, 1), (1, 0, 1), (1, 0, 0), (0, 0, 0)])]


def read_grid(path):
    lines = open(path).read().split("\n")
    head = {}
    i = 0
    while not lines[i].startswith("size"):
        t = lines[i].split()
        head[t[0]] = t[1:]
        i += 1
    mx, my, mz = map(int, lines[i].split()[1:4])
    legend = head["legend"][0]
    rows = [r for r in lines[i + 1:] if r]
    assert len(rows) == my * mz, f"{len(rows)} rows, not {my}*{mz}"
    return mx, my, mz, [[[legend.index(rows[z * my + y][x]) for x in range(mx)] for y in range(my)] for z in range(mz)]


def faces_of(mx, my, mz, cells):
    def full(x, y, z):
        return 0 <= x < mx and 0 <= y < my and 0 <= z < mz and cells[z][y][x] != 0
    out = []
    for z in range(mz):
        for y in range(my):
            for x in range(mx):
                if not full(x, y, z):
                    continue
                for (dx, dy, dz), corners in FACES:
                    if not full(x + dx, y + dy, z + dz):
                        out.append([(x + a, y + b, z + c) for a, b, c in corners])
    return out


def read_obj(path):
    v, f = [], []
    for line in open(path):
        t = line.split()
        if t and t[0] == "v":
            v.append(tuple(float(s) for s in t[1:4]))
        elif t and t[0] == "f":
            f.append([int(s) - 1 for s in t[1:]])
    return v, f


def inside(p, quad):
    """p within the convex hull of the quad's corners (a small tolerance for the 6 decimals written)."""
    from itertools import combinations
    pts = quad
    # p is in the hull when no line through two corners has p strictly on the side with no corner
    for a, b in combinations(pts, 2):
        side = [(b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]) for q in pts]
        sp = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if all(s >= -1e-9 for s in side) and sp < -1e-4:
            return False
        if all(s <= 1e-9 for s in side) and sp > 1e-4:
            return False
    return True


def check_obj(grid, lattice, obj):
    mx, my, mz, cells = read_grid(grid)
    m = json.load(open(lattice))
    nx, ny, pts = m["points_x"], m["points_y"], m["points"]
    bx, by = mx // (nx - 1), my // (ny - 1)
    sx, sy = m["block"]  # the JSON's points are in its own grid's cells
    faces = faces_of(mx, my, mz, cells)
    used = sorted({c for f in faces for c in f}, key=lambda c: (c[2], c[1], c[0]))
    v, f = read_obj(obj)
    bad = 0
    if len(v) != len(used):
        print(f"{len(v)} vertices, {len(used)} corners used by the faces")
        return 1
    if len(f) != len(faces):
        print(f"{len(f)} faces, {len(faces)} between full and empty cells")
        return 1
    for (x, y, z), (cx, cy, cz) in zip(v, used):
        if z != cz:
            bad += 1
            print(f"corner {(cx, cy, cz)}: its vertex is at height {z}")
        px, py = x, -y
        i, j = min(cx // bx, nx - 2), min(cy // by, ny - 2)
        a = i + j * nx
        quad = [(p[0] / sx * bx, p[1] / sy * by) for p in (pts[a], pts[a + 1], pts[a + 1 + nx], pts[a + nx])]
        if cx % bx == 0 and cy % by == 0:
            lx, ly = pts[cx // bx + cy // by * nx]
            if abs(px - lx / sx * bx) > 1e-4 or abs(py - ly / sy * by) > 1e-4:
                bad += 1
                print(f"corner {(cx, cy, cz)}: vertex ({px}, {py}) is not its lattice point")
        elif not inside((px, py), quad):
            bad += 1
            print(f"corner {(cx, cy, cz)}: vertex ({px}, {py}) is outside its quad {quad}")
    index = {c: k for k, c in enumerate(used)}
    want = {tuple(index[c] for c in face) for face in faces}
    got = {tuple(face) for face in f}
    if want != got:
        print(f"{len(want - got)} faces missing, {len(got - want)} others (or turned the wrong way)")
        bad += 1
    return bad


def check_png(grid, obj, png, pixel_size, colours):
    """On a grid full of cells, the top face of each column of the top layer shows, at the projection of
    its bent centre, its cell's colour lit as the straight isometric picture lights tops (215/256)."""
    mx, my, mz, cells = read_grid(grid)
    v, _ = read_obj(obj)
    w, h, rows = read_png_rgb(png)
    pos = {}
    for x, y, z in v:
        pos[len(pos)] = (x, -y, z)
    ground = [p for p in pos.values() if p[2] == 0]
    assert len(ground) == (mx + 1) * (my + 1), "this check wants a grid full of cells"
    left = min(x - y for x, y, z in ground) - 1
    top = min((x + y) / 2 for x, y, z in ground) - mz - 1
    # the used corners in the OBJ's order: on a full grid, every corner of the outer surface, layer by layer
    faces = faces_of(mx, my, mz, cells)
    used = sorted({c for f in faces for c in f}, key=lambda c: (c[2], c[1], c[0]))
    corner = {c: pos[k] for k, c in enumerate(used)}
    bad = 0
    for y in range(my):
        for x in range(mx):
            ps = [corner[(x + a, y + b, mz)] for a, b in ((0, 0), (1, 0), (1, 1), (0, 1))]
            cx, cy = sum(p[0] for p in ps) / 4, sum(p[1] for p in ps) / 4
            px, py = int(((cx - cy) - left) * pixel_size), int(((cx + cy) / 2 - mz - top) * pixel_size)
            c = int(colours[cells[mz - 1][y][x]], 16)
            want = "".join(f"{((c >> s) & 255) * 215 >> 8:02x}" for s in (16, 8, 0))
            got = rows[py][3 * px:3 * px + 3].hex()
            if got != want:
                bad += 1
                print(f"column ({x},{y}): pixel ({px},{py}) is {got}, its top's colour is {want}")
    return bad


def check_vox(grid, vox):
    """The VOX holds the straight grid: a voxel of colour index value+1 at (x, y, z) for each non-empty cell."""
    import struct
    mx, my, mz, cells = read_grid(grid)
    data = open(vox, "rb").read()
    assert data[:4] == b"VOX ", "not a VOX"
    pos, size, got = 20, None, {}
    while pos < len(data):
        kind, n, _ = struct.unpack("<4sII", data[pos:pos + 12])
        body = data[pos + 12:pos + 12 + n]
        if kind == b"SIZE":
            size = struct.unpack("<III", body)
        elif kind == b"XYZI":
            count = struct.unpack("<I", body[:4])[0]
            for k in range(count):
                x, y, z, c = body[4 + 4 * k:8 + 4 * k]
                got[(x, y, z)] = c - 1
        pos += 12 + n
    want = {(x, y, z): cells[z][y][x] for z in range(mz) for y in range(my) for x in range(mx) if cells[z][y][x]}
    if size != (mx, my, mz) or got != want:
        print(f"the VOX ({size}, {len(got)} voxels) is not the straight grid ({mx}x{my}x{mz}, {len(want)} cells)")
        return 1
    return 0


def check_json(grid, lattice, bent):
    """The 3-D JSON: the 2-D run's points and block, its depth, and cells[z][y][x] as the text grid has them."""
    mx, my, mz, cells = read_grid(grid)
    m, flat = json.load(open(bent)), json.load(open(lattice))
    bad = 0
    for key in ("points_x", "points_y", "points", "block"):
        if m[key] != flat[key]:
            bad += 1
            print(f"{key}: not the 2-D run's")
    if (m["width"], m["height"], m["depth"]) != (mx, my, mz) or m["cells"] != cells:
        bad += 1
        print("the cells are not the text grid's")
    return bad


def main():
    kind = sys.argv[1]
    if kind == "obj":
        bad = check_obj(*sys.argv[2:5])
    elif kind == "json":
        bad = check_json(*sys.argv[2:5])
    elif kind == "vox":
        bad = check_vox(*sys.argv[2:4])
    else:
        bad = check_png(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6].split(","))
    if bad:
        print(f"{bad} mismatches")
        sys.exit(1)


if __name__ == "__main__":
    main()
