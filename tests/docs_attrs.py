#!/usr/bin/env python3
"""docs_attrs.py — every attribute a node kind accepts (its `*_attrs` table in src/nodes) is named in
docs/language.md's element index, in the row of its element. One fact, one place: the code's table is
the fact, and this check keeps the index from falling behind it.
Usage: python3 tests/docs_attrs.py [ROOT]   (exit 1 and a line per missing attribute)"""
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
# (source file, table name or macro, the elements whose index rows must name its attributes)
TABLES = [
    ("chisel.c", "chisel_attrs", ["chisel"]),
    ("convchain.c", "convchain_attrs", ["convchain"]),
    ("convolution.c", "conv_attrs", ["convolution"]),
    ("field.c", "field_attrs", ["field"]),
    ("growgrid.c", "growgrid_attrs", ["growgrid"]),
    ("lsystem.c", "lsys_attrs", ["lsystem"]),
    ("map.c", "map_attrs", ["map"]),
    ("noise.c", "NOISE_ATTRS", ["noise"]),
    ("observe.c", "observe_attrs", ["observe"]),
    ("path.c", "path_attrs", ["path"]),
    ("poisson.c", "poisson_attrs", ["poisson"]),
    ("require.c", "require_attrs", ["require"]),
    ("runner.c", "runner_attrs", ["runner"]),
    ("voronoi.c", "voronoi_attrs", ["voronoi"]),
]


def table(path, name):
    text = open(f"{ROOT}/src/nodes/{path}").read()
    m = re.search(r"(?:" + re.escape(name) + r"\[\]\s*=\s*\{|#define\s+" + re.escape(name) + r"\b)(.*?)(?:\};|\n\s*\n|(?<!\\)\n(?!\s))",
                  text, re.S)
    if not m:
        sys.exit(f"docs_attrs: no table {name} in src/nodes/{path}")
    return [a for a in re.findall(r'"([^"]+)"', m.group(1))]


def index_rows():
    text = open(f"{ROOT}/docs/language.md").read()
    index = text[text.index("## Element index"):]
    rows = {}
    for line in index.splitlines():
        m = re.match(r"\|\s*((?:`<[a-z]+>`(?:,\s*)?)+)", line)
        if m:
            for el in re.findall(r"`<([a-z]+)>`", m.group(1)):
                rows[el] = line
    return rows


rows = index_rows()
missing = 0
for path, name, elements in TABLES:
    for el in elements:
        row = rows.get(el)
        if row is None:
            print(f"docs/language.md: the element index has no row for <{el}>")
            missing += 1
            continue
        for attr in table(path, name):
            if f"`{attr}`" not in row:
                print(f"docs/language.md: the element index's <{el}> row does not name `{attr}` (src/nodes/{path} accepts it)")
                missing += 1
sys.exit(1 if missing else 0)
