#!/usr/bin/env python3
"""make_shapes.py — writes the shape pictures of smalti's growgrid examples into models/resources/shapes/.

  Disc.png      512x512: a white disc (radius 0.45 of the side) on black, its edge anti-aliased
  LPlan.png     512x512: a white L, the floor plan of models/bent_building.xml: two arms 0.34 of the side
                wide, 0.84 long, from the top left corner (0.08 in), edges anti-aliased
  TwoBlobs.png  512x512: two white discs (radius 0.2) side by side, centred at 0.27 and 0.73 across:
                a wide shape on a square picture, for growgrid's free growth (points)

A shape picture is grey levels: black is outside, brighter is denser. Run from the repository root:
python3 tools/make_shapes.py
"""
import os
import struct
import zlib


def grey_png(levels):
    """An 8-bit greyscale PNG from rows of 0..255."""
    h, w = len(levels), len(levels[0])
    raw = b"".join(b"\x00" + bytes(row) for row in levels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def discs(centres, size=512, radius=0.45):
    """White discs at centres (fractions of the side); 4x4 samples a pixel decide how much of it they cover."""
    r2 = (radius * size) ** 2
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            inside = sum(1 for sy in range(4) for sx in range(4)
                         if any((x + (sx + 0.5) / 4 - cx * size) ** 2 + (y + (sy + 0.5) / 4 - cy * size) ** 2 <= r2
                                for cx, cy in centres))
            row.append(round(255 * inside / 16))
        rows.append(row)
    return rows


def l_plan(size=512, lo=0.08, arm=0.42, hi=0.92):
    """4x4 samples a pixel decide how much of it the L covers."""
    def inside(u, v):
        return lo <= u <= hi and lo <= v <= hi and (u <= arm or v <= arm)
    return [[round(255 * sum(1 for sy in range(4) for sx in range(4)
                             if inside((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size)) / 16)
             for x in range(size)] for y in range(size)]


def main():
    os.makedirs("models/resources/shapes", exist_ok=True)
    with open("models/resources/shapes/Disc.png", "wb") as f:
        f.write(grey_png(discs([(0.5, 0.5)])))
    with open("models/resources/shapes/LPlan.png", "wb") as f:
        f.write(grey_png(l_plan()))
    with open("models/resources/shapes/TwoBlobs.png", "wb") as f:
        f.write(grey_png(discs([(0.27, 0.5), (0.73, 0.5)], radius=0.2)))


if __name__ == "__main__":
    main()
