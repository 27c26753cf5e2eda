#!/usr/bin/env python3
"""check.py MAP.json — the cave modules model's straight grid is 9x9 tiles, each one of the 14 marching-squares
variants drawn by tools/make_cave_tiles.py, neighbours share their corners (touching edges equal), and the
border ring of tiles is solid rock. Prints what is wrong and exits 1."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
from make_cave_tiles import MODULES, SIZE, draw, COLOURS  # noqa: E402
from make_wfc_assets import zrot  # noqa: E402


def main():
    data = json.load(open(sys.argv[1]))
    cells = data["cells"]
    legend = data["legend"]
    # the node numbers tile colours 1.. in order of first appearance, which COLOURS follows
    char_of = {COLOURS[ch] - 1: ch for ch in COLOURS}
    rows = ["".join(char_of[v] for v in row) for row in cells]
    variants = {}
    for name, _, corners in MODULES:
        t = draw(corners)
        for k in range(4):
            variants.setdefault("/".join(t), "z" * k + name)
            t = zrot(t)
    if len(variants) != 14:
        return "the module set has %d variants, not 14" % len(variants)
    tx, ty = data["width"] // SIZE, data["height"] // SIZE
    if (data["points_x"], data["points_y"], data["block"]) != (tx + 1, ty + 1, [SIZE, SIZE]) or legend[:5] != "DNYSF":
        return "unexpected lattice or legend: %r" % ((data["points_x"], data["points_y"], data["block"], legend),)
    used = set()
    for j in range(ty):
        for i in range(tx):
            tile = "/".join(rows[j * SIZE + y][i * SIZE:(i + 1) * SIZE] for y in range(SIZE))
            if tile not in variants:
                return "tile %d,%d is no module:\n%s" % (i, j, tile.replace("/", "\n"))
            used.add(variants[tile])
            if (i in (0, tx - 1) or j in (0, ty - 1)) and variants[tile] != "Solid":
                return "border tile %d,%d is %s, not Solid" % (i, j, variants[tile])
            if i + 1 < tx and any(rows[j * SIZE + y][(i + 1) * SIZE - 1] != rows[j * SIZE + y][(i + 1) * SIZE]
                                  for y in range(SIZE)):
                return "tiles %d,%d and %d,%d do not share their corners" % (i, j, i + 1, j)
            if j + 1 < ty and rows[(j + 1) * SIZE - 1][i * SIZE:(i + 1) * SIZE] != rows[(j + 1) * SIZE][i * SIZE:(i + 1) * SIZE]:
                return "tiles %d,%d and %d,%d do not share their corners" % (i, j, i, j + 1)
    if len(used) < 10:
        return "only %d of the 14 variants appear: %s" % (len(used), sorted(used))
    return None


if __name__ == "__main__":
    error = main()
    if error:
        print("check.py: " + error)
        sys.exit(1)
