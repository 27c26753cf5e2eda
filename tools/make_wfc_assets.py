#!/usr/bin/env python3
"""make_wfc_assets.py — writes smalti's own wfc example resources into models/resources/ deterministically.

  models/resources/tilesets/DungeonRooms.xml + models/resources/tilesets/DungeonRooms/*.vox   rooms, walls, doors, corridors
  models/resources/tilesets/Pipes.xml        + models/resources/tilesets/Pipes/*.vox          pipes: straight, turn, T, cross, bridge, cap
  models/resources/samples/Bricks.png                                              a periodic 16x12 brick wall
  models/resources/samples/PipeRing.png                                            a density picture: a soft grey ring

Tiles are drawn below as text (one character a voxel, x to the right, y down) and written as one-layer
MagicaVoxel files. The neighbor lists are not written by hand: two tiles may touch when the pixels along
their shared edge are equal, so the script tries every pair of tiles in every quarter turn ("z" prefixes,
the same rotation as the wfc node's), and keeps one pair for each class of pairs that the wfc node
derives from a <neighbor> by its own reflections. Run from the repository root: python3 tools/make_wfc_assets.py
"""
import math
import os
import struct
import zlib

# ---------------------------------------------------------------------------------------------------------
# Tiles. A tile's colours appear in the tileset in order of first appearance (scanning tiles in order, each
# row by row), and the wfc node numbers its values in that order, so the first tiles fix the value order.

# DungeonRooms, 5x5: '#' rock, 'w' wall, '.' floor, 'd' door, 'o' pillar.
DUNGEON = [
    ("Rock", 4.0, ["#####",
                   "#####",
                   "#####",
                   "#####",
                   "#####"]),
    ("Corner", 1.0, ["#####",   # the outside corner of a room: the room lies to the lower right
                     "#####",
                     "##www",
                     "##w..",
                     "##w.."]),
    ("Wall", 2.0, ["#####",
                   "#####",
                   "wwwww",
                   ".....",
                   "....."]),
    ("Door", 0.7, ["#w.w#",   # a corridor from above meets the wall of a room below
                    "#w.w#",
                    "wwdww",
                    ".....",
                    "....."]),
    ("Floor", 3.0, [".....",
                    ".....",
                    ".....",
                    ".....",
                    "....."]),
    ("Pillar", 0.12, [".....",
                      ".....",
                      "..o..",
                      ".....",
                      "....."]),
    ("Line", 1.0, ["#w.w#",
                   "#w.w#",
                   "#w.w#",
                   "#w.w#",
                   "#w.w#"]),
    ("Turn", 0.35, ["#w.w#",
                   "#w.ww",
                   "#w...",
                   "#wwww",
                   "#####"]),
    ("T", 0.12, ["#w.w#",
                 "ww.ww",
                 ".....",
                 "wwwww",
                 "#####"]),
    ("Cross", 0.04, ["#w.w#",
                    "ww.ww",
                    ".....",
                    "ww.ww",
                    "#w.w#"]),
]
DUNGEON_COLOURS = {"#": 1, "w": 2, ".": 3, "d": 4, "o": 5}

# Pipes, 7x7: '-' ground, 'p' pipe wall, '=' water, 'r' rivet (a cap at a dead end). Every pipe end sits in
# the middle of a side, so tiles fit when their pipe ends meet.
PIPES = [
    ("Empty", 2.5, ["-------",
                    "-------",
                    "-------",
                    "-------",
                    "-------",
                    "-------",
                    "-------"]),
    ("Line", 2.0, ["--p=p--",
                   "--p=p--",
                   "--p=p--",
                   "--p=p--",
                   "--p=p--",
                   "--p=p--",
                   "--p=p--"]),
    ("Turn", 2.0, ["--p=p--",
                   "--p=p--",
                   "--p=ppp",
                   "--p====",
                   "--ppppp",
                   "-------",
                   "-------"]),
    ("T", 0.3, ["--p=p--",
                "--p=p--",
                "ppp=ppp",
                "=======",
                "ppppppp",
                "-------",
                "-------"]),
    ("Cross", 0.15, ["--p=p--",
                    "--p=p--",
                    "ppp=ppp",
                    "=======",
                    "ppp=ppp",
                    "--p=p--",
                    "--p=p--"]),
    ("Bridge", 1.2, ["--p=p--",   # one pipe passes over the other, as in a knot
                     "--p=p--",
                     "ppppppp",
                     "=======",
                     "ppppppp",
                     "--p=p--",
                     "--p=p--"]),
    ("Cap", 0.03, ["--p=p--",
                   "--p=p--",
                   "--p=p--",
                   "--prp--",
                   "--ppp--",
                   "-------",
                   "-------"]),
]
PIPE_COLOURS = {"-": 1, "p": 2, "=": 3, "r": 4}

# Bricks: 16x12, periodic; '+' mortar, 'R' brick, 'r' dark brick, 'o' light brick.
BRICKS = ["++++++++++++++++",
          "RRRR+rrrrr+RRRR+",
          "RRRR+rrrrr+RRRR+",
          "++++++++++++++++",
          "RR+oooooo+RRRRR+",
          "RR+oooooo+RRRRR+",
          "++++++++++++++++",
          "rrrrrr+RRRR+RRR+",
          "rrrrrr+RRRR+RRR+",
          "++++++++++++++++",
          "RRR+RRRRR+rrrr+R",
          "RRR+RRRRR+rrrr+R"]
BRICK_RGB = {"+": (0x5F, 0x57, 0x4F), "R": (0xAB, 0x52, 0x36), "r": (0x74, 0x2F, 0x29), "o": (0xA2, 0x88, 0x79)}


# ---------------------------------------------------------------------------------------------------------
def zrot(tile):
    """The wfc node's z rotation: the result at (x, y) reads the source at (y, S-1-x)."""
    s = len(tile)
    return ["".join(tile[s - 1 - x][y] for x in range(s)) for y in range(s)]


def yref(tile):
    return list(reversed(tile))


def xref(tile):
    return [row[::-1] for row in tile]


def key(tile):
    return "/".join(tile)


def fits_right(a, b):
    """b may stand to the right of a: a's right column equals b's left column."""
    return all(ra[-1] == rb[0] for ra, rb in zip(a, b))


def neighbors(tiles):
    """One <neighbor left right> for each class of edge-compatible horizontal pairs under the images that the
    wfc node adds itself: (l, r), (yref l, yref r), (xref r, xref l), (yref xref r, yref xref l)."""
    covered = set()
    out = []
    variants = []
    for name, _, art in tiles:
        t = art
        for k in range(4):
            variants.append((("z" * k + " " if k else "") + name, t))
            t = zrot(t)
    for lname, l in variants:
        for rname, r in variants:
            if not fits_right(l, r) or (key(l), key(r)) in covered:
                continue
            out.append((lname, rname))
            for a, b in ((l, r), (yref(l), yref(r)), (xref(r), xref(l)), (yref(xref(r)), yref(xref(l)))):
                covered.add((key(a), key(b)))
    return out


def vox_bytes(art, colours):
    s = len(art)
    voxels = b"".join(struct.pack("<4B", x, y, 0, colours[art[y][x]]) for y in range(s) for x in range(s))
    size = b"SIZE" + struct.pack("<II", 12, 0) + struct.pack("<III", s, s, 1)
    xyzi = b"XYZI" + struct.pack("<II", 4 + len(voxels), 0) + struct.pack("<I", s * s) + voxels
    return b"VOX " + struct.pack("<I", 150) + b"MAIN" + struct.pack("<II", 0, len(size) + len(xyzi)) + size + xyzi


def png_bytes(rows, rgb):
    width, height = len(rows[0]), len(rows)
    raw = b"".join(b"\x00" + bytes(c for ch in row for c in rgb[ch]) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def grey_png_bytes(levels):
    """An 8-bit greyscale PNG of rows of grey levels (0 black .. 255 white)."""
    width, height = len(levels[0]), len(levels)
    raw = b"".join(b"\x00" + bytes(row) for row in levels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ring_levels(size=64, radius=0.3, width=0.11):
    """A density picture for models/pipering.xml: white along a ring around the centre, fading to black
    (a Gaussian profile across the ring), rounded to whole grey levels so every platform reads the same."""
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            dx, dy = (x + 0.5) / size - 0.5, (y + 0.5) / size - 0.5
            off = (math.hypot(dx, dy) - radius) / width
            row.append(int(round(255 * math.exp(-off * off))))
        rows.append(row)
    return rows


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)


def write_tileset(root, name, tiles, colours, comment):
    for tname, _, art in tiles:
        assert len(art) == len(art[0]) and all(len(row) == len(art) for row in art), tname
        write(os.path.join(root, "tilesets", name, tname + ".vox"), vox_bytes(art, colours))
    lines = ["<!-- %s: %s" % (name, comment),
             "     Generated by tools/make_wfc_assets.py (neighbors: tiles whose touching edges have equal voxels). -->",
             "<tileset>", "  <tiles>"]
    lines += ['    <tile name="%s" weight="%g"/>' % (tname, weight) for tname, weight, _ in tiles]
    lines += ["  </tiles>", "  <neighbors>"]
    lines += ['    <neighbor left="%s" right="%s"/>' % pair for pair in neighbors(tiles)]
    lines += ["  </neighbors>", "</tileset>", ""]
    write(os.path.join(root, "tilesets", name + ".xml"), "\n".join(lines))


def main():
    root = os.path.join("models", "resources")
    write_tileset(root, "DungeonRooms", DUNGEON, DUNGEON_COLOURS,
                  "rooms walled in by rock, doors, corridors with walls (values: rock, wall, floor, door, pillar)")
    write_tileset(root, "Pipes", PIPES, PIPE_COLOURS,
                  "pipes that meet end to end, with crossings, bridges and caps (values: ground, pipe, water, rivet)")
    write(os.path.join(root, "samples", "Bricks.png"), png_bytes(BRICKS, BRICK_RGB))
    write(os.path.join(root, "samples", "PipeRing.png"), grey_png_bytes(ring_levels()))


if __name__ == "__main__":
    main()
