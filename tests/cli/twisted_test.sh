#!/bin/sh
# twisted_test.sh — growgrid's lattice in the outputs: the twisted PNG, OBJ (+MTL, texture), SVG and JSON of one run
# agree (tests/cli/twisted/check.py), runs without a lattice refuse them, and bad growgrid models fail with file:line
# (3-D runs: twisted3d_test.sh).
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
check="python3 $(dirname "$0")/twisted/check.py"
res=models/resources

cat > "$dir/map.xml" <<'XML'
<sequence values="BWRG">
  <smalti size="16" pixelsize="12">
    <color symbol="B" value="102030"/><color symbol="W" value="F0E0D0"/><color symbol="R" value="C02020"/><color symbol="G" value="20A040"/>
  </smalti>
  <growgrid shape="Disc"/>
  <noise type="white"><band to="-0.5" value="B"/><band to="0" value="W"/><band to="0.5" value="R"/><band value="G"/></noise>
</sequence>
XML
for kind in png svg obj json; do expect 0 "" "$T" run "$dir/map.xml" --resources $res --seed 3 -o "$dir/map.$kind"; done
expect 0 "" $check png "$dir/map.json" "$dir/map.png" 12 102030,f0e0d0,c02020,20a040
expect 0 "" $check obj "$dir/map.json" "$dir/map.obj"
expect 0 "" grep -q "map_Kd map_texture.png" "$dir/map.mtl"
expect 0 "" test -s "$dir/map_texture.png"
expect 0 "" grep -q "^mtllib map.mtl" "$dir/map.obj"
# 16x16 cells, each one polygon
if [ "$(grep -c '<polygon' "$dir/map.svg")" = 256 ]; then ok; else bad "map.svg has $(grep -c '<polygon' "$dir/map.svg") polygons, not 256"; fi
# the same seed writes the same files
expect 0 "" "$T" run "$dir/map.xml" --resources $res --seed 3 -o "$dir/again.json"
expect 0 "" cmp "$dir/map.json" "$dir/again.json"

# free growth (points): at most that many points, quads that tile the grid in whole blocks, outputs that agree
printf '<sequence values="BW">\n  <growgrid shape="Disc" points="150"/>\n  <noise type="white"><band to="0" value="B"/><band value="W"/></noise>\n</sequence>\n' > "$dir/free.xml"
for kind in json obj; do expect 0 "" "$T" run "$dir/free.xml" --resources $res --length 120 --width 60 --seed 2 -o "$dir/free.$kind"; done
expect 0 "" $check obj "$dir/free.json" "$dir/free.obj"
expect 0 "" python3 -c "import json, sys
d = json.load(open(sys.argv[1])); nx, ny = d['points_x'], d['points_y']
assert 16 <= nx * ny <= 150 and 120 % (nx - 1) == 0 and 60 % (ny - 1) == 0 and d['block'] == [120 // (nx - 1), 60 // (ny - 1)], d['block']" "$dir/free.json"

# without a lattice: no twisted map, and nothing written
cat > "$dir/plain.xml" <<'XML'
<one values="BW" in="B" out="W"/>
XML
expect 2 "no lattice: add a <growgrid> node" "$T" run "$dir/plain.xml" -o "$dir/plain.svg"
expect 1 "" test -e "$dir/plain.svg"

# bad models: file:line
printf '<sequence values="BW">\n  <growgrid shape="NoSuchShape"/>\n</sequence>\n' > "$dir/missing.xml"
expect 3 "missing.xml:2:.*NoSuchShape" "$T" run "$dir/missing.xml" --resources $res --size 8
printf '<sequence values="BW">\n  <growgrid shape="Disc" block="3"/>\n</sequence>\n' > "$dir/block.xml"
only 3 "$dir/block.xml:2: error: block=\"3\" of <growgrid> must divide the grid's sides, 8x8, so that blocks tile it" "$T" run "$dir/block.xml" --resources $res --size 8
printf '<sequence values="BW">\n  <growgrid/>\n</sequence>\n' > "$dir/noshape.xml"
expect 3 "noshape.xml:2: error: <growgrid> needs a shape attribute" "$T" run "$dir/noshape.xml" --resources $res --size 8
printf '<sequence values="BW">\n  <growgrid shape="Disc" block="2" points="50"/>\n</sequence>\n' > "$dir/both.xml"
only 3 "$dir/both.xml:2: error: <growgrid> takes block or points, not both: points lets the lattice choose its rows and columns" "$T" run "$dir/both.xml" --resources $res --size 8
printf '<sequence values="BW">\n  <growgrid shape="Disc" points="3"/>\n</sequence>\n' > "$dir/few.xml"
expect 3 "few.xml:2: error: .*points" "$T" run "$dir/few.xml" --resources $res --size 8
finish twisted
