#!/bin/sh
# tiled_test.sh — tile map outputs: -o .csv, .json, .tmx and .tmj for a known grid (2-D and 3-D), their generated
# tileset beside them (both written or neither), --tiles TILES.xml with its errors at file:line (exit 3), a PNG
# drawn with a tile sheet, and a sheet's objects (markers: object layers, the ground's tile under them). The
# round trip through Tiled itself is tests/tiled_roundtrip.sh. Usage: tiled_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
# A grid known in advance: the origin W in the middle, and R to its right (no symmetry: only rightwards).
M="$dir/m.xml"
printf '<one values="BWR" origin="True" in="WB" out="WR" symmetry="()" steps="1"/>\n' > "$M"
same() { # same NAME EXPECTED-FILE ACTUAL-FILE
    if cmp -s "$2" "$3"; then ok; else bad "$1: expected $(cat "$2"), got $(cat "$3" 2>&1)"; fi
}

# CSV: one row of tile ids (legend index + 1) a line.
expect 0 "" "$T" run "$M" --length 4 --width 2 -o "$dir/a.csv"
printf '1,1,1,1\n1,1,2,3\n' > "$dir/want.csv"
same "2-D csv" "$dir/want.csv" "$dir/a.csv"
[ -f "$dir/a.tiles.png" ] && ok || bad "no generated tileset a.tiles.png beside a.csv"
# 3-D: a layer per z, a blank line between.
expect 0 "" "$T" run "$M" -q --length 3 --width 2 --height 2 -o "$dir/c.csv"
printf '1,1,1\n1,1,1\n\n1,1,1\n1,2,3\n' > "$dir/want3.csv"
same "3-D csv" "$dir/want3.csv" "$dir/c.csv"

# JSON: size, legend, colours, cells as rows of symbols, tile ids.
expect 0 "" "$T" run "$M" --length 4 --width 2 -o "$dir/a.json"
expect 0 "json ok" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["width"], d["height"], d["depth"], d["legend"]) == (4, 2, 1, "BWR"), d
assert d["cells"] == [["BBBB", "BBWR"]], d["cells"]
assert d["tiles"] == [[[1, 1, 1, 1], [1, 1, 2, 3]]], d["tiles"]
assert d["colors"]["B"] == "#000000" and d["colors"]["W"] == "#FFF1E8", d["colors"]
assert d["tileset"]["image"] == "a.tiles.png" and d["tileset"]["tilecount"] == 3, d["tileset"]
print("json ok")' "$dir/a.json"

# .tmx and .tmj: Tiled maps naming the generated tileset, a layer per z.
expect 0 "" "$T" run "$M" -q --length 3 --width 2 --height 2 -o "$dir/b.tmx"
expect 0 "" grep -q '<image source="b.tiles.png" width="48" height="16"/>' "$dir/b.tmx"
expect 0 "" grep -q '<layer id="2" name="z1" width="3" height="2">' "$dir/b.tmx"
"$T" run "$M" -q --length 3 --width 2 --height 2 -o "$dir/b.tmj"
expect 0 "tmj ok" python3 -c '
import json, sys, struct
d = json.load(open(sys.argv[1]))
assert d["type"] == "map" and (d["width"], d["height"]) == (3, 2), d
assert [l["data"] for l in d["layers"]] == [[1] * 6, [1, 1, 1, 1, 2, 3]], d["layers"]
ts = d["tilesets"][0]
assert (ts["firstgid"], ts["image"], ts["tilecount"], ts["imagewidth"]) == (1, "b.tiles.png", 3, 48), ts
png = open(sys.argv[2], "rb").read(24)
assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (48, 16)
print("tmj ok")' "$dir/b.tmj" "$dir/b.tiles.png"

# All or nothing: when the tileset cannot be written the map is not either, and the other way round.
mkdir -p "$dir/x" "$dir/x/d.tiles.png" "$dir/x/e.tmx"
expect 5 "d.tiles.png: error: is a directory" "$T" run "$M" --size 4 -o "$dir/x/d.tmx"
[ ! -e "$dir/x/d.tmx" ] && ok || bad "d.tmx written though its tileset was refused"
expect 5 "e.tmx: error: is a directory" "$T" run "$M" --size 4 -o "$dir/x/e.tmx"
[ ! -e "$dir/x/e.tiles.png" ] && ok || bad "e.tiles.png written though its map was refused"
[ -z "$(ls "$dir/x" | grep tmp)" ] && ok || bad "temporary files left: $(ls "$dir/x")"
expect 2 "use .png, .txt, .vox, .tmx, .tmj, .csv, .json, .svg or .obj" "$T" run "$M" --size 4 -o "$dir/a.tsx"

# --tiles: a sheet of 4x2 tiles of 2x2 pixels, tile i all of red 16 i.
tile_sheet "$dir/sheet.png"
printf '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="7"/>\n  <tile symbol="W" index="1"/>\n  <tile symbol="R" index="2"/>\n</tiles>\n' > "$dir/t.xml"
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/t.xml" -o "$dir/s.csv"
printf '8,8,8,8\n8,8,2,3\n' > "$dir/want_s.csv"
same "csv with --tiles" "$dir/want_s.csv" "$dir/s.csv"
[ ! -e "$dir/s.tiles.png" ] && ok || bad "a tileset was generated though --tiles gave one"
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/t.xml" -o "$dir/s.tmx"
expect 0 "" grep -q '<image source="sheet.png" width="8" height="4"/>' "$dir/s.tmx"
mkdir -p "$dir/maps"
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/t.xml" -o "$dir/maps/s.tmj"
expect 0 "" grep -q '"image":"../sheet.png"' "$dir/maps/s.tmj"
# The PNG is drawn with the sheet's tiles: tile i has red 16 i (B: 7, W: 1, R: 2).
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/t.xml" -o "$dir/s.png"
expect 0 "png ok" python3 -c '
import sys, zlib, struct
b = open(sys.argv[1], "rb").read()
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (8, 4), (w, h)
i, data = 8, b""
while i < len(b):
    n = struct.unpack(">I", b[i:i+4])[0]
    if b[i+4:i+8] == b"IDAT": data += b[i+8:i+8+n]
    i += 12 + n
raw, bpp = zlib.decompress(data), {2: 3, 6: 4}[b[25]]
stride = 1 + bpp * w
assert all(raw[y * stride] == 0 for y in range(h)), "filtered rows: decode them"
red = lambda x, y: raw[y * stride + 1 + bpp * x]
assert red(0, 0) == 16 * 7 and red(6, 2) == 16 * 2 and red(4, 3) == 16 * 1, [red(x, y) for y in range(h) for x in range(w)]
print("png ok")' "$dir/s.png"
# A symbol with no tile is left empty, with a warning.
printf '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="0"/>\n</tiles>\n' > "$dir/partial.xml"
expect 0 'no tile for symbols "WR"' "$T" run "$M" --length 4 --width 2 --tiles "$dir/partial.xml" -o "$dir/p.csv"
printf '1,1,1,1\n1,1,0,0\n' > "$dir/want_p.csv"
same "csv with untiled symbols" "$dir/want_p.csv" "$dir/p.csv"

# Objects (markers): B and R cells become objects of the map, drawn as their ground W (tile 1); the
# ground's <tile> may come after the objects'.
cat > "$dir/o.xml" <<'EOF'
<tiles image="sheet.png" size="2">
  <tile symbol="B" object="spawn" ground="W"/>
  <tile symbol="R" object="key &amp; &lt;lock&gt;" type="item" ground="W"/>
  <tile symbol="W" index="1"/>
</tiles>
EOF
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/o.xml" -o "$dir/o.tmx"
cat > "$dir/want_o.tmx" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="2" tileheight="2" infinite="0" nextlayerid="3" nextobjectid="8">
 <tileset firstgid="1" name="tiles" tilewidth="2" tileheight="2" tilecount="8" columns="4">
  <image source="sheet.png" width="8" height="4"/>
 </tileset>
 <layer id="1" name="z0" width="4" height="2">
  <data encoding="csv">
2,2,2,2,
2,2,2,2
</data>
 </layer>
 <objectgroup id="2" name="objects z0">
  <object id="1" name="spawn" type="" x="0" y="0" width="2" height="2"/>
  <object id="2" name="spawn" type="" x="2" y="0" width="2" height="2"/>
  <object id="3" name="spawn" type="" x="4" y="0" width="2" height="2"/>
  <object id="4" name="spawn" type="" x="6" y="0" width="2" height="2"/>
  <object id="5" name="spawn" type="" x="0" y="2" width="2" height="2"/>
  <object id="6" name="spawn" type="" x="2" y="2" width="2" height="2"/>
  <object id="7" name="key &amp; &lt;lock&gt;" type="item" x="6" y="2" width="2" height="2"/>
 </objectgroup>
</map>
EOF
same "tmx with objects" "$dir/want_o.tmx" "$dir/o.tmx"
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/o.xml" -o "$dir/o.json"
cat > "$dir/want_o.json" <<'EOF'
{
  "width": 4,
  "height": 2,
  "depth": 1,
  "legend": "BWR",
  "colors": {"B": "#000000", "W": "#FFF1E8", "R": "#FF004D"},
  "tileset": {"image": "sheet.png", "tilewidth": 2, "tileheight": 2, "columns": 4, "tilecount": 8},
  "cells": [
    ["BBBB", "BBWR"]
  ],
  "tiles": [
    [[2,2,2,2], [2,2,2,2]]
  ],
  "objects": [
    {"symbol": "B", "name": "spawn", "type": "", "x": 0, "y": 0, "z": 0},
    {"symbol": "B", "name": "spawn", "type": "", "x": 1, "y": 0, "z": 0},
    {"symbol": "B", "name": "spawn", "type": "", "x": 2, "y": 0, "z": 0},
    {"symbol": "B", "name": "spawn", "type": "", "x": 3, "y": 0, "z": 0},
    {"symbol": "B", "name": "spawn", "type": "", "x": 0, "y": 1, "z": 0},
    {"symbol": "B", "name": "spawn", "type": "", "x": 1, "y": 1, "z": 0},
    {"symbol": "R", "name": "key \u0026 \u003clock\u003e", "type": "item", "x": 3, "y": 1, "z": 0}
  ]
}
EOF
same "json with objects" "$dir/want_o.json" "$dir/o.json"
# CSV holds the ground tiles only; the PNG draws the ground (tile 1, red 16) under every object.
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/o.xml" -o "$dir/o.csv"
printf '2,2,2,2\n2,2,2,2\n' > "$dir/want_o.csv"
same "csv with objects" "$dir/want_o.csv" "$dir/o.csv"
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/o.xml" -o "$dir/o.png"
expect 0 "png ground ok" python3 -c '
import sys, zlib, struct
b = open(sys.argv[1], "rb").read()
i, data = 8, b""
while i < len(b):
    n = struct.unpack(">I", b[i:i+4])[0]
    if b[i+4:i+8] == b"IDAT": data += b[i+8:i+8+n]
    i += 12 + n
raw, bpp = zlib.decompress(data), {2: 3, 6: 4}[b[25]]
stride = 1 + bpp * 8
assert all(raw[y * stride] == 0 for y in range(4)), "filtered rows: decode them"
reds = {raw[y * stride + 1 + bpp * x] for y in range(4) for x in range(8)}
assert reds == {16}, reds
print("png ground ok")' "$dir/o.png"
# 3-D, as .tmj: an object layer after each tile layer (ids 3 and 4 after 1 and 2), object ids going on
# from layer to layer in row-major order.
expect 0 "" "$T" run "$M" -q --length 3 --width 2 --height 2 --tiles "$dir/o.xml" -o "$dir/o3.tmj"
expect 0 "tmj objects ok" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["nextlayerid"], d["nextobjectid"]) == (5, 12), d
assert [(l["type"], l["id"], l["name"]) for l in d["layers"]] == [("tilelayer", 1, "z0"), ("objectgroup", 3, "objects z0"),
    ("tilelayer", 2, "z1"), ("objectgroup", 4, "objects z1")], d["layers"]
assert [l["data"] for l in d["layers"] if l["type"] == "tilelayer"] == [[2] * 6, [2] * 6]
objs = [[(o["id"], o["name"], o["type"], o["x"], o["y"], o["width"], o["height"]) for o in l["objects"]]
        for l in d["layers"] if l["type"] == "objectgroup"]
spawn = lambda i, x, y: (i, "spawn", "", x, y, 2, 2)
assert objs[0] == [spawn(1, 0, 0), spawn(2, 2, 0), spawn(3, 4, 0), spawn(4, 0, 2), spawn(5, 2, 2), spawn(6, 4, 2)], objs[0]
assert objs[1] == [spawn(7, 0, 0), spawn(8, 2, 0), spawn(9, 4, 0), spawn(10, 0, 2), (11, "key & <lock>", "item", 4, 2, 2, 2)], objs[1]
print("tmj objects ok")' "$dir/o3.tmj"
# A sheet without objects writes no object layer.
expect 0 "" grep -q 'nextlayerid="2" nextobjectid="1"' "$dir/s.tmx"
[ -z "$(grep objectgroup "$dir/s.tmx")" ] && ok || bad "s.tmx has an object layer though t.xml names no object"
# An object on an autotiled ground counts as that ground for the autotile's joins (the bundled sheet's
# wall edge set, first 16, outside open): W (2,1) joins R on its east (mask 2), and R's cell is the
# wall piece joined on its west (mask 8).
cat > "$dir/wall.xml" <<EOF
<tiles image="$PWD/models/resources/tiles/ruins.png" size="16">
  <tile symbol="B" index="0"/>
  <tile symbol="W" autotile="edge16" first="16" border="open"/>
  <tile symbol="R" object="torch" type="light" ground="W"/>
</tiles>
EOF
expect 0 "" "$T" run "$M" --length 4 --width 2 --tiles "$dir/wall.xml" -o "$dir/w.csv"
printf '1,1,1,1\n1,1,19,25\n' > "$dir/want_w.csv"
same "autotile joins an object on its ground" "$dir/want_w.csv" "$dir/w.csv"

# --tiles errors: file:line and exit 3; a missing file exit 5; only with a tile map or PNG.
bad_tiles() { # bad_tiles NAME CONTENT PATTERN
    printf "$2" > "$dir/$1.xml"
    expect 3 "^$dir/$1.xml:$3" "$T" run "$M" --size 4 --tiles "$dir/$1.xml" -o "$dir/bad.tmx"
}
bad_tiles unclosed '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="0">\n</tiles>\n' \
    "3: error: malformed XML: Opening and ending tag mismatch: tile line 2 and tiles"
bad_tiles range '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="8"/>\n</tiles>\n' \
    '2: error: index="8": expected a whole number from 0 to 7'
bad_tiles attr '<tiles image="sheet.png" size="2">\n\n  <tile symbol="B" idx="0"/>\n</tiles>\n' \
    '3: error: <tile> has no attribute "idx"'
bad_tiles kind '<tiles image="sheet.png" size="2">\n  <tile symbol="B" autotile="wang"/>\n</tiles>\n' \
    '2: error: autotile="wang": expected edge16 or blob47'
bad_tiles small '<tiles image="sheet.png" size="2">\n  <tile symbol="B" autotile="edge16" first="0"/>\n</tiles>\n' \
    '2: error: autotile="edge16" needs 16 tiles; the sheet has 8'
bad_tiles twice '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="0"/>\n  <tile symbol="B" index="1"/>\n</tiles>\n' \
    '3: error: symbol "B" has a tile already'
bad_tiles noimage '<tiles image="gone.png" size="2">\n</tiles>\n' '1: error: .*gone.png: cannot open the PNG image'
bad_tiles noground '<tiles image="sheet.png" size="2">\n  <tile symbol="R" object="key"/>\n</tiles>\n' \
    '2: error: <tile object=...> needs ground="X", one symbol whose tile is drawn under it'
bad_tiles untiledground '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="0"/>\n  <tile symbol="R" object="key" ground="W"/>\n</tiles>\n' \
    '3: error: ground="W" has no <tile>; the ground is a symbol with a tile'
bad_tiles objectground '<tiles image="sheet.png" size="2">\n  <tile symbol="W" index="0"/>\n  <tile symbol="B" object="a" ground="R"/>\n  <tile symbol="R" object="b" ground="W"/>\n</tiles>\n' \
    '3: error: ground="R" is an object itself; the ground is a symbol with a tile'
bad_tiles objectindex '<tiles image="sheet.png" size="2">\n  <tile symbol="W" index="0"/>\n  <tile symbol="R" object="key" ground="W" index="3"/>\n</tiles>\n' \
    '3: error: an object takes object, type and ground; its cell is drawn as the ground.s tile'
bad_tiles noname '<tiles image="sheet.png" size="2">\n  <tile symbol="W" index="0"/>\n  <tile symbol="R" object="" ground="W"/>\n</tiles>\n' \
    '3: error: <tile object=...> needs object="...", not empty'
bad_tiles typealone '<tiles image="sheet.png" size="2">\n  <tile symbol="W" index="0" type="floor"/>\n</tiles>\n' \
    '2: error: type and ground go with object="NAME"'
long=$(printf '%064d' 0)
bad_tiles longname "<tiles image=\"sheet.png\" size=\"2\">\n  <tile symbol=\"W\" index=\"0\"/>\n  <tile symbol=\"R\" object=\"$long\" ground=\"W\"/>\n</tiles>\n" \
    '3: error: object="00000000000000000000..." is longer than 63 bytes'
bad_tiles root '<colors/>\n' '1: error: the root element is <colors>; a tile sheet file is <tiles image="...">'
[ ! -e "$dir/bad.tmx" ] && ok || bad "a bad --tiles file still wrote the map"
expect 5 "nope.xml: error: cannot open the tile sheet file" "$T" run "$M" --size 4 --tiles "$dir/nope.xml" -o "$dir/n.tmx"
expect 2 "give -o FILE.png, .tmx, .tmj, .csv or .json" "$T" run "$M" --size 4 --tiles "$dir/t.xml" -o "$dir/n.txt"
finish tiled
