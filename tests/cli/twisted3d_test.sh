#!/bin/sh
# twisted3d_test.sh — growgrid in a 3-D run: the lattice is the 2-D run's, shared by every layer; the OBJ is the
# straight grid's box faces bent onto it (tests/cli/twisted/check3d.py), the PNG draws each column's top where
# the mesh puts it, the VOX is the straight grid, the JSON has the layers, and the SVG refuses a 3-D grid.
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
check="python3 $(dirname "$0")/twisted/check3d.py"
res=models/resources

# A 12x12x5 block of random values (the ring of top cells empty, so some faces are inside the block's
# outline) on blocks of 2x2 cells, and the same lattice in 2-D for its points.
cat > "$dir/block.xml" <<'XML'
<sequence values="BWRG" symmetry="(xy)">
  <smalti length="12" width="12" height="5" d="3" pixelsize="6">
    <color symbol="B" value="102030"/><color symbol="W" value="F0E0D0"/><color symbol="R" value="C02020"/><color symbol="G" value="20A040"/>
  </smalti>
  <growgrid shape="LPlan" block="2"/>
  <noise type="white"><band to="-0.6" value="B"/><band to="0" value="W"/><band to="0.5" value="R"/><band value="G"/></noise>
</sequence>
XML
sed -e 's/length="12" width="12" height="5" d="3"/size="12"/' -e 's/ symmetry="(xy)"//' "$dir/block.xml" > "$dir/plan.xml"
expect 0 "" "$T" run "$dir/plan.xml" --resources $res --seed 5 -o "$dir/plan.json"
for kind in obj txt vox png; do expect 0 "" "$T" run "$dir/block.xml" --resources $res --seed 5 -o "$dir/block.$kind"; done
expect 0 "" $check obj "$dir/block.txt" "$dir/plan.json" "$dir/block.obj"
expect 0 "^mtllib block.mtl" cat "$dir/block.obj"
# a material per value that shows, none for the empty B
expect 0 "" grep -q "^newmtl value_R" "$dir/block.mtl"
expect 1 "" grep -q "^newmtl value_B" "$dir/block.mtl"
if [ "$(grep -c '^Kd' "$dir/block.mtl")" = 3 ]; then ok; else bad "block.mtl has $(grep -c '^Kd' "$dir/block.mtl") materials, not 3"; fi
# the VOX is the straight grid, cell for cell, and the same bytes as the straight run's of a model that
# draws nothing after growgrid (its draws come first, so a random model's grid would differ)
expect 0 "" $check vox "$dir/block.txt" "$dir/block.vox"
cat > "$dir/rings.xml" <<'XML'
<sequence values="BWR" symmetry="(xy)">
  <smalti length="8" width="8" height="4" d="3"/>
  <growgrid shape="Disc"/>
  <all in="B *" out="W *"/>
  <all in="WWW/WWW/WWW" out="***/*R*/***"/>
</sequence>
XML
sed 's/<growgrid[^>]*>//' "$dir/rings.xml" > "$dir/straight.xml"
expect 0 "" "$T" run "$dir/rings.xml" --resources $res --seed 1 -o "$dir/rings.vox"
expect 0 "" "$T" run "$dir/straight.xml" --seed 1 -o "$dir/straight.vox"
expect 0 "" cmp "$dir/rings.vox" "$dir/straight.vox"

# A full block (every cell a value, so the top layer is whole) drawn as the bent isometric picture.
cat > "$dir/full.xml" <<'XML'
<sequence values="WRG" symmetry="(xy)">
  <smalti length="8" width="8" height="3" d="3" pixelsize="12">
    <color symbol="W" value="F0E0D0"/><color symbol="R" value="C02020"/><color symbol="G" value="20A040"/>
  </smalti>
  <growgrid shape="Disc"/>
  <noise type="white"><band to="0" value="R"/><band value="G"/></noise>
</sequence>
XML
for kind in obj txt png; do expect 0 "" "$T" run "$dir/full.xml" --resources $res --seed 2 -o "$dir/full.$kind"; done
expect 0 "" $check png "$dir/full.txt" "$dir/full.obj" "$dir/full.png" 12 f0e0d0,c02020,20a040

# Modules: a 3-D tile wfc after growgrid makes each cell a 5x5x5 module of the MarkovJunior corpus's Knots3D
# tiles (SMALTI_MJ_CORPUS, default ../shared/mj; skipped without it): each quad holds a module, bent voxel by
# voxel on the 8x8 plan's lattice, the modules' floors stacked.
corpus=${SMALTI_MJ_CORPUS:-../shared/mj}
if [ -d "$corpus/resources/tilesets/Knots3D" ]; then
    cat > "$dir/knots.xml" <<'XML'
<sequence values="BW">
  <smalti length="8" width="8" height="3" d="3"/>
  <growgrid shape="Disc"/>
  <all in="B" out="W"/>
  <all in="***/***/*** ***/*W*/*** ***/***/***" out="***/***/*** ***/*B*/*** ***/***/***"/>
  <wfc values="BFE" tileset="Knots3D" tiles="Knots3D/Tubes"><rule in="W" out="Empty"/></wfc>
</sequence>
XML
    printf '<sequence values="BW">\n  <smalti size="8"/>\n  <growgrid shape="Disc"/>\n</sequence>\n' > "$dir/plan8.xml"
    expect 0 "" "$T" run "$dir/plan8.xml" --resources $res --seed 2 -o "$dir/plan8.json"
    for kind in obj txt; do
        expect 0 "" "$T" run "$dir/knots.xml" --resources "$corpus/resources" --resources $res --seed 2 -o "$dir/knots.$kind"
    done
    expect 0 "^size 40 40 15" cat "$dir/knots.txt"
    expect 0 "" $check obj "$dir/knots.txt" "$dir/plan8.json" "$dir/knots.obj"
fi

# The JSON: the 2-D run's points, the depth, and cells[z][y][x] as the text grid has them.
expect 0 "" "$T" run "$dir/block.xml" --resources $res --seed 5 -o "$dir/block.json"
expect 0 "" $check json "$dir/block.txt" "$dir/plan.json" "$dir/block.json"

# A flat kind cannot hold a 3-D grid: path: error, exit 2, nothing written; a lattice's block must still divide.
expect 2 "full.svg: error: a .svg twisted map is flat, and this grid is 8x8x3: a 3-D grid on a lattice is written as .obj, .png or .json" \
    "$T" run "$dir/full.xml" --resources $res --seed 2 -o "$dir/full.svg"
expect 1 "" test -e "$dir/full.svg"
printf '<sequence values="BW">\n  <growgrid shape="Disc" block="3"/>\n</sequence>\n' > "$dir/block3.xml"
only 3 "$dir/block3.xml:2: error: block=\"3\" of <growgrid> must divide the grid's sides, 8x8, so that blocks tile it" \
    "$T" run "$dir/block3.xml" --resources $res --dim 3 --size 8
finish twisted3d
