#!/usr/bin/env python3
"""make_building_modules.py — writes the 3-D building module set into models/resources/ deterministically.

  models/resources/tilesets/BuildingModules.xml + models/resources/tilesets/BuildingModules/*.vox   the modules
  docs/images/growgrid/building_modules_tiles.png                                                  them, for the docs

The Growing Grid thesis's buildings are made of voxel modules bent into the quads of a lattice grown over a
floor plan. These modules are 6x6x6 voxels, one per cell of a 3-D tile wfc: a storey is a solid block whose
outer sides are facades (so the mesh is only the building's skin, and inner corners close), a roof is a slab
with a parapet along its outer sides, and Empty is air. A storey is on the ground (a plinth, shop windows or
a door; 0..2 facades, as a plan without thin parts needs) or upper (windows, a band under the next floor; 0..4
facades: none, one, two beside each other, two opposite, three, four); roofs likewise, and a flat roof with a vent.

Each module says what its four sides are: a storey's side is a facade or inside, a roof's a parapet or roof,
Empty's air. The neighbour list is derived from that, not written by hand. Side by side: inside meets inside
of the same storey kind, roof meets roof, and a facade or parapet faces air, or a facade faces the parapet of a
lower roof beside it (a setback). Stacked: a storey stands on a storey or on the ground floor only where every
facade below goes on up (so a floor can step back, never overhang), a roof caps a storey only with a parapet
above every facade, and above a roof and above air there is only air. A model gives the ground layer's plan.
Run from the repository root: python3 tools/make_building_modules.py
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_wfc_assets import png_bytes, write  # noqa: E402

S = 6  # voxels a side and a storey's height
# palette indices of the voxels; the wfc node numbers values by first appearance (see VALUES)
COLOURS = {"W": 1, "G": 2, "C": 3, "N": 4, "D": 5, "R": 6, "K": 7}
# sides: 0 +x, 1 +y, 2 -x, 3 -y (a z turn of the wfc node takes side i to side i+1)
# name, kind (G ground storey, U upper storey, R roof, E air), outer sides, weight, extra
MODULES = [
    ("Empty", "E", (), 6.0, None),
    ("GInside", "G", (), 1.0, None),
    ("GWall", "G", (3,), 1.0, None),
    ("GDoor", "G", (3,), 0.25, "door"),
    ("GCorner", "G", (0, 3), 1.0, None),
    ("Inside", "U", (), 3.0, None),
    ("Wall", "U", (3,), 2.0, None),
    ("Corner", "U", (0, 3), 2.0, None),
    ("Wing", "U", (1, 3), 0.1, None),
    ("End", "U", (0, 1, 3), 0.1, None),
    ("Tower", "U", (0, 1, 2, 3), 0.05, None),
    ("Roof", "R", (), 0.6, None),
    ("RoofVent", "R", (), 0.1, "vent"),
    ("RoofEdge", "R", (3,), 0.6, None),
    ("RoofCorner", "R", (0, 3), 0.6, None),
    ("RoofWing", "R", (1, 3), 0.3, None),
    ("RoofEnd", "R", (0, 1, 3), 0.3, None),
    ("RoofTower", "R", (0, 1, 2, 3), 0.3, None),
]
# the wfc values in the tileset's order: air first (Empty's voxels), then the colours as the tiles show them
VALUES = "BNWGCDRK"


def side_cells(side, u, depth):
    """(x, y) of the voxel u along a side, depth layers in from it."""
    last = S - 1
    return [(last - depth, u), (u, last - depth), (depth, u), (u, depth)][side]


def draw(kind, sides, extra):
    """The module as vox[z][y][x], a colour letter or None for air."""
    vox = [[[None] * S for _ in range(S)] for _ in range(S)]

    def put(side, u, depth, z, c):
        x, y = side_cells(side, u, depth)
        vox[z][y][x] = c

    if kind in "GU":
        for z in range(S):
            for y in range(S):
                for x in range(S):
                    vox[z][y][x] = "N" if kind == "G" and z == 0 else "W"  # the ground floor stands on a plinth slab
        for side in sides:
            for u in range(S):
                put(side, u, 0, S - 1, "C")  # the band under the next floor or the parapet
            # (first u, last u, bottom z, top z) of the opening: a door, a shop window, an upper window
            lo, hi, bottom, top = (2, 3, 1, 4) if extra == "door" else (1, 4, 2, 4) if kind == "G" else (2, 3, 1, 3)
            for u in range(lo, hi + 1):
                for z in range(bottom, top + 1):
                    put(side, u, 0, z, None)  # the opening; the glass or the door one voxel in
                    put(side, u, 1, z, "D" if extra == "door" else "G")
    elif kind == "R":
        for y in range(S):
            for x in range(S):
                vox[0][y][x] = "R"
        for side in sides:
            for u in range(S):
                put(side, u, 0, 1, "C")
        if extra == "vent":
            for z in (1, 2):
                for y in (2, 3):
                    for x in (2, 3):
                        vox[z][y][x] = "K"
    return vox


def vox_bytes(vox):
    voxels = b"".join(struct.pack("<4B", x, y, z, COLOURS[vox[z][y][x]])
                      for z in range(S) for y in range(S) for x in range(S) if vox[z][y][x])
    size = b"SIZE" + struct.pack("<II", 12, 0) + struct.pack("<III", S, S, S)
    xyzi = b"XYZI" + struct.pack("<II", 4 + len(voxels), 0) + struct.pack("<I", len(voxels) // 4) + voxels
    return b"VOX " + struct.pack("<I", 150) + b"MAIN" + struct.pack("<II", 0, len(size) + len(xyzi)) + size + xyzi


# The wfc node's maps on vox[z][y][x] (src/nodes/wfc_tile.c): the result at (x, y, z) reads the source at ...
def zrot(v):
    return [[[v[z][S - 1 - x][y] for x in range(S)] for y in range(S)] for z in range(S)]  # (y, S-1-x, z)


def xref(v):
    return [[[v[z][y][S - 1 - x] for x in range(S)] for y in range(S)] for z in range(S)]


def yref(v):
    return [[[v[z][S - 1 - y][x] for x in range(S)] for y in range(S)] for z in range(S)]


def key(v):
    return "".join(c or "." for layer in v for row in layer for c in row)


def label(kind, sides, side):
    if kind == "E":
        return "a"
    if kind == "R":
        return "p" if side in sides else "r"
    return "f" if side in sides else "i" + kind


def fits_beside(a, b):
    """b may stand at +x of a: a's side 0 against b's side 2."""
    pair = {label(a[1], a[2], 0), label(b[1], b[2], 2)}
    # inside meets the same inside, roof meets roof, air meets air; a facade or a parapet faces air or the other
    return pair in ({"iG"}, {"iU"}, {"r"}, {"a"}, {"f", "a"}, {"p", "a"}, {"f", "p"})


def fits_on(bottom, top):
    """top may stand on bottom."""
    if bottom[1] in "RE":
        return top[1] == "E"
    return top[1] in "UR" and set(bottom[2]) <= set(top[2])


def variants(name, kind, sides, extra):
    """The tile turned k times (k = 0..3) as the tileset names it ("zz Name"), with its sides and voxels."""
    out, vox = [], draw(kind, sides, extra)
    for k in range(4):
        out.append((("z" * k + " " if k else "") + name, kind, tuple(sorted((s + k) % 4 for s in sides)), vox))
        vox = zrot(vox)
    return out


def neighbors(tiles):
    """One <neighbor left right> for each class of horizontal pairs the wfc node makes from one (its images
    (l, r), (yref l, yref r), (xref r, xref l), (yref xref r, yref xref l)), and one <neighbor top bottom> for
    each stacked pair of a tile as drawn under a turned tile (the node adds the turns and reflections)."""
    every = [v for t in tiles for v in variants(t[0], t[1], t[2], t[4])]
    covered, beside = set(), []
    for l in every:
        for r in every:
            if not fits_beside(l, r) or (key(l[3]), key(r[3])) in covered:
                continue
            beside.append((l[0], r[0]))
            lv, rv = l[3], r[3]
            for a, b in ((lv, rv), (yref(lv), yref(rv)), (xref(rv), xref(lv)), (yref(xref(rv)), yref(xref(lv)))):
                covered.add((key(a), key(b)))
    stacked = []
    for b in every[::4]:  # each tile as drawn: the node adds the turns of the pair
        tops = set()
        for t in every:
            if fits_on(b, t) and key(t[3]) not in tops:
                tops.add(key(t[3]))
                stacked.append((t[0], b[0]))
    return beside, stacked


# the preview's colours: module_building.xml's palette, shaded as smalti's isometric pictures shade cube faces
PALETTE = {"W": 0xE2CFA8, "N": 0x6E6A66, "G": 0x3F78B0, "C": 0x8F7E6C, "D": 0x5C3A20, "R": 0x4C5160, "K": 0x9A6A3E}
SHADES = (215, 143, 71)  # top, the +y face (left), the +x face (right)


def preview(rows_of_names, a=4, gap=8):
    """The modules turned once (their facades towards the viewer), drawn isometrically, a voxel a 2a x 2a cube
    sprite, nearer voxels over farther ones; one row of modules for each list of names."""
    tiles = {t[0]: t for t in MODULES}
    side = 2 * S * a
    width = max(len(r) for r in rows_of_names) * (side + gap) + gap
    height = len(rows_of_names) * (side + gap) + gap
    canvas = [[" "] * width for _ in range(height)]
    rgb = {" ": (0x22, 0x22, 0x22)}
    for c, value in PALETTE.items():
        for k, shade in enumerate(SHADES):
            rgb[c + str(k)] = tuple(((value >> bits) & 255) * shade >> 8 for bits in (16, 8, 0))

    def face(px, py):
        """0 top, 1 left, 2 right, or None outside the cube's hexagon."""
        dx = abs(px - a + 0.5) / 2
        if dx + abs(py - a / 2 + 0.5) <= a / 2:
            return 0
        if a / 2 <= py < 3 * a / 2 or dx + abs(py - 3 * a / 2 + 0.5) <= a / 2:
            return 1 if px < a else 2
        return None

    for j, names in enumerate(rows_of_names):
        for i, name in enumerate(names):
            t = tiles[name]
            vox = variants(t[0], t[1], t[2], t[4])[1][3]
            ox, oy = gap + i * (side + gap) + (S - 1) * a, gap + j * (side + gap) + (S - 1) * a
            for x, y, z in sorted(((x, y, z) for z in range(S) for y in range(S) for x in range(S) if vox[z][y][x]),
                                  key=lambda p: (p[0] + p[1], p[2])):
                sx, sy = ox + (x - y) * a, oy + (x + y) * a // 2 - z * a
                for py in range(2 * a):
                    for px in range(2 * a):
                        f = face(px, py)
                        if f is not None:
                            canvas[sy + py][sx + px] = vox[z][y][x] + str(f)
    keys = {k: chr(65 + n) for n, k in enumerate(rgb)}
    return ["".join(keys[c] for c in row) for row in canvas], {keys[k]: v for k, v in rgb.items()}


def main():
    root = os.path.join("models", "resources", "tilesets")
    order = []
    for name, kind, sides, _, extra in MODULES:
        vox = draw(kind, sides, extra)
        for layer in vox:
            for row in layer:
                for c in row:
                    if c and c not in order:
                        order.append(c)
        write(os.path.join(root, "BuildingModules", name + ".vox"), vox_bytes(vox))
    assert "B" + "".join(order) == VALUES, "".join(order)
    # the wfc node finds a named variant by its voxels, so two tiles must never look the same
    looks = {}
    for name, kind, sides, _, extra in MODULES:
        for v in variants(name, kind, sides, extra):
            assert looks.setdefault(key(v[3]), name) == name, (name, looks[key(v[3])])
    beside, stacked = neighbors(MODULES)
    lines = ["<!-- BuildingModules: a building's 6x6x6 voxel modules for a 3-D tile wfc: ground-floor storeys (plinth,",
             "     shop windows, doors), upper storeys (windows, a band under each floor), flat roofs in a parapet, air;",
             "     each with 0..4 outer sides (values: air, plinth, wall, glass, band, door, roof, vent).",
             "     Generated by tools/make_building_modules.py (neighbors from the modules' sides). -->",
             "<tileset>", "  <tiles>"]
    lines += ['    <tile name="%s" weight="%g"/>' % (name, weight) for name, _, _, weight, _ in MODULES]
    lines += ["  </tiles>", "  <neighbors>"]
    lines += ['    <neighbor left="%s" right="%s"/>' % pair for pair in beside]
    lines += ['    <neighbor top="%s" bottom="%s"/>' % pair for pair in stacked]
    lines += ["  </neighbors>", "</tileset>", ""]
    write(os.path.join(root, "BuildingModules.xml"), "\n".join(lines))
    ground = [t[0] for t in MODULES if t[1] == "G"]
    upper = [t[0] for t in MODULES if t[1] == "U"]
    roofs = [t[0] for t in MODULES if t[1] == "R"]
    rows, rgb = preview([ground + upper, roofs])
    write(os.path.join("docs", "images", "growgrid", "building_modules_tiles.png"), png_bytes(rows, rgb))


if __name__ == "__main__":
    main()
