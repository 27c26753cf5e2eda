#!/usr/bin/env python3
"""make_tile_sheet.py — draws smalti's bundled tile sheet, models/resources/tiles/ruins.png, deterministically.

16x16 tiles, 16 to a row (the layout models/resources/tiles/ruins.xml names, format in docs/formats.md):
  0  grass     1  floor     2  door     3  sand
  16..31  wall, the 16-tile edge set: tile 16 + mask, mask = N 1 | E 2 | S 4 | W 8 for the joined neighbours
  32..78  water, the 47-tile blob set: tile 32 + the rank of the reduced 8-bit mask (N 1, NE 2, E 4, SE 8,
          S 16, SW 32, W 64, NW 128; a corner kept only when both edges beside it are joined) among the 47
          such masks in increasing order.
Run from the repository root: python3 tools/make_tile_sheet.py
"""
import struct
import zlib

T = 16
COLUMNS, ROWS = 16, 5

GRASS, GRASS_DARK = (90, 154, 60), (74, 132, 48)
FLOOR, FLOOR_LINE = (200, 168, 120), (168, 136, 92)
DOOR, DOOR_DARK = (122, 74, 32), (84, 48, 18)
SAND, SAND_DARK = (226, 206, 150), (204, 184, 128)
STONE, STONE_DARK, STONE_LIGHT = (138, 128, 120), (88, 80, 74), (176, 168, 160)
WATER, WATER_LIGHT = (47, 111, 192), (96, 156, 224)


def speckle(x, y, seed):
    """A fixed pseudo-random bit per pixel, for texture."""
    h = (x * 374761393 + y * 668265263 + seed * 2246822519) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return (h >> 16) & 7 == 0


def grass(x, y):
    return GRASS_DARK if speckle(x, y, 1) else GRASS


def floor_tile(x, y):
    return FLOOR_LINE if y % 8 == 7 or (x + (4 if y >= 8 else 0)) % 8 == 7 else FLOOR


def door_tile(x, y):
    if x < 2 or x > 13 or y < 1:
        return STONE_DARK
    return DOOR_DARK if x % 4 == 1 or y == 8 else DOOR


def sand(x, y):
    return SAND_DARK if speckle(x, y, 2) else SAND


def wall_tile(mask):
    """A wall 8 pixels thick through the middle, reaching each joined side."""
    def px(x, y):
        inside = 4 <= x <= 11 and 4 <= y <= 11
        inside |= bool(mask & 1) and 4 <= x <= 11 and y < 4
        inside |= bool(mask & 4) and 4 <= x <= 11 and y > 11
        inside |= bool(mask & 8) and x < 4 and 4 <= y <= 11
        inside |= bool(mask & 2) and x > 11 and 4 <= y <= 11
        if not inside:
            return grass(x, y)
        # A dark outline where the wall meets grass, a light top edge, and brick joints.
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < T and 0 <= ny < T:
                n_in = 4 <= nx <= 11 and 4 <= ny <= 11
                n_in |= bool(mask & 1) and 4 <= nx <= 11 and ny < 4
                n_in |= bool(mask & 4) and 4 <= nx <= 11 and ny > 11
                n_in |= bool(mask & 8) and nx < 4 and 4 <= ny <= 11
                n_in |= bool(mask & 2) and nx > 11 and 4 <= ny <= 11
                if not n_in:
                    return STONE_DARK
        if y % 4 == 0 or (x + (2 if (y // 4) % 2 else 0)) % 4 == 0:
            return STONE_LIGHT if y % 4 == 0 else STONE_DARK
        return STONE
    return px


def reduce_blob(m):
    if m & 5 != 5: m &= ~2
    if m & 20 != 20: m &= ~8
    if m & 80 != 80: m &= ~32
    if m & 65 != 65: m &= ~128
    return m


BLOB_MASKS = [m for m in range(256) if reduce_blob(m) == m]
assert len(BLOB_MASKS) == 47


def water_tile(mask):
    """Water with a shore (grass, then sand) along each side and corner that is not joined."""
    def px(x, y):
        # the distance to the nearest open side (N 1, E 4, S 16, W 64 in the blob mask) or corner
        d = 99
        if not mask & 1: d = min(d, y)
        if not mask & 4: d = min(d, T - 1 - x)
        if not mask & 16: d = min(d, T - 1 - y)
        if not mask & 64: d = min(d, x)
        # corners open while both edges are joined: a rounded notch
        for bit, cx, cy in ((2, T - 1, 0), (8, T - 1, T - 1), (32, 0, T - 1), (128, 0, 0)):
            if not mask & bit:
                d = min(d, max(abs(x - cx), abs(y - cy)))
        if d < 2:
            return grass(x, y)
        if d < 5:
            return sand(x, y)
        return WATER_LIGHT if y % 6 == 2 and (x + y) % 8 < 3 else WATER
    return px


def main():
    tiles = [grass, floor_tile, door_tile, sand] + [None] * 12
    tiles += [wall_tile(m) for m in range(16)]
    tiles += [water_tile(m) for m in BLOB_MASKS]
    w, h = COLUMNS * T, ROWS * T
    rows = []
    for y in range(h):
        row = bytearray([0])
        for x in range(w):
            i = (y // T) * COLUMNS + x // T
            if i < len(tiles) and tiles[i]:
                row += bytes(tiles[i](x % T, y % T)) + b"\xff"
            else:
                row += b"\0\0\0\0"  # unused: transparent
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    with open("models/resources/tiles/ruins.png", "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
