#!/usr/bin/env python3
"""lattice_svg.py — draws the growgrid lattice of a twisted JSON output (`smalti run M.xml -o X.json`) as an SVG:
the grid's frame and the lattice's rows and columns, so that the shape of its quads shows.

Usage: python3 tools/lattice_svg.py IN.json OUT.svg [PIXELS_PER_CELL]
"""
import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1]) as f:
        d = json.load(f)
    scale = float(sys.argv[3]) if len(sys.argv) == 4 else 4
    nx, ny, pts = d["points_x"], d["points_y"], d["points"]
    w, h = d["width"] * scale, d["height"] * scale

    def line(ks):
        return " ".join("%.2f,%.2f" % (pts[k][0] * scale, pts[k][1] * scale) for k in ks)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g">' % (w, h),
           '<rect width="%g" height="%g" fill="#222222"/>' % (w, h),
           '<g fill="none" stroke="#f0e0d0" stroke-width="1">']
    for j in range(ny):
        out.append('<polyline points="%s"/>' % line(i + j * nx for i in range(nx)))
    for i in range(nx):
        out.append('<polyline points="%s"/>' % line(i + j * nx for j in range(ny)))
    out.append("</g>\n</svg>\n")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
