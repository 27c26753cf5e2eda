#!/usr/bin/env python3
"""check.py BUILDING.json — models/module_building.xml's straight grid is a coherent building of the modules
drawn by tools/make_building_modules.py: 10x10x5 modules of 6x6x6 voxels, each one of the modules in one of
its turns; the ground's ring is air and its inner 8x8 cells are ground storeys; every column of the plan is a
ground storey, upper storeys, one roof, then air; a facade never overhangs (each facade goes on up to its
roof's parapet), faces air or a lower roof, and inside sides meet inside sides; some ground module has a door.
Prints what is wrong and exits 1."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
from make_building_modules import MODULES, S, VALUES, variants  # noqa: E402

NX, NY, NZ = 10, 10, 5
STEP = {0: (1, 0), 1: (0, 1), 2: (-1, 0), 3: (0, -1)}  # side -> the neighbour's offset


def main():
    data = json.load(open(sys.argv[1]))
    if (data["width"], data["height"], data["depth"]) != (NX * S, NY * S, NZ * S) or data["legend"] != VALUES:
        return "not a solved building: %dx%dx%d, legend %s" % (data["width"], data["height"], data["depth"], data["legend"])
    if (data["points_x"], data["points_y"], data["block"]) != (NX + 1, NY + 1, [S, S]):
        return "the lattice is not a quad for each module: %r" % ((data["points_x"], data["points_y"], data["block"]),)
    cells = data["cells"]
    looks = {}
    for name, kind, sides, _, extra in MODULES:
        for turned, _, turned_sides, vox in variants(name, kind, sides, extra):
            looks.setdefault(tuple(VALUES.index(c or "B") for layer in vox for row in layer for c in row),
                             (turned, kind, set(turned_sides), extra))
    block = {}
    for z in range(NZ):
        for y in range(NY):
            for x in range(NX):
                voxels = tuple(cells[z * S + dz][y * S + dy][x * S + dx] for dz in range(S) for dy in range(S) for dx in range(S))
                if voxels not in looks:
                    return "module %d,%d,%d is none of the modules" % (x, y, z)
                block[x, y, z] = looks[voxels]
    doors = 0
    for (x, y, z), (name, kind, sides, extra) in block.items():
        ring = x in (0, NX - 1) or y in (0, NY - 1)
        if z == 0 and kind != ("E" if ring else "G"):
            return "ground module %d,%d is %s" % (x, y, name)
        doors += extra == "door"
        below = block.get((x, y, z - 1))
        if below:  # G U* R E*, and every facade below goes on up
            allowed = {"G": "UR", "U": "UR", "R": "E", "E": "E"}[below[1]]
            if kind not in allowed or below[1] in "GU" and not below[2] <= sides:
                return "module %d,%d,%d (%s) stands on %s" % (x, y, z, name, below[0])
        if z == NZ - 1 and kind in "GU":
            return "module %d,%d,%d is a storey in the top layer, with no roof" % (x, y, z)
        for side, (dx, dy) in STEP.items():
            other = block.get((x + dx, y + dy, z))
            if kind in "GU" and side in sides and other and other[1] not in "RE":
                return "the facade of %d,%d,%d faces %s" % (x, y, z, other[0])
            if kind in "GU" and side not in sides and (not other or other[1] != kind or (side + 2) % 4 in other[2]):
                return "the inside of %d,%d,%d faces %s" % (x, y, z, other[0] if other else "the edge")
            if kind == "R" and side not in sides and (not other or other[1] != "R" or (side + 2) % 4 in other[2]):
                return "the roof %d,%d,%d runs on into %s" % (x, y, z, other[0] if other else "the edge")
    if not doors:
        return "no door"
    return None


if __name__ == "__main__":
    error = main()
    if error:
        print("check.py: " + error)
        sys.exit(1)
