#!/bin/sh
# module_building_test.sh — models/module_building.xml: the bundled BuildingModules tileset solved by a 3-D
# tile wfc over the plan is a coherent building of its modules on several seeds (tests/cli/module_building/
# check.py: ground storeys on the plan, storeys that never overhang, a roof on every column, facades facing air
# or lower roofs); its OBJ is the straight grid's faces, module by module, bent onto the lattice of a 2-D run
# with the same growgrid and seed (tests/cli/twisted/check3d.py), and its VOX is the straight grid; the tileset
# is what tools/make_building_modules.py makes.
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
check="python3 $(dirname "$0")/module_building/check.py"
check3d="python3 $(dirname "$0")/twisted/check3d.py"
for seed in 1 2 3 4 5 6; do
    expect 0 "" "$T" run models/module_building.xml --seed $seed -o "$dir/building$seed.json"
    expect 0 "" $check "$dir/building$seed.json"
done

# growgrid comes first, so a 2-D run of it alone with the same seed has the same lattice: 11x11 points, a quad for
# each module, and the OBJ's vertices lie in their quads, at the heights of their voxels' layers.
printf '<sequence values="BW">\n  <smalti size="10"/>\n  <growgrid shape="LPlan"/>\n</sequence>\n' > "$dir/plan.xml"
expect 0 "" "$T" run "$dir/plan.xml" --resources models/resources --seed 2 -o "$dir/plan.json"
for kind in obj txt vox png; do expect 0 "" "$T" run models/module_building.xml --seed 2 -o "$dir/building.$kind"; done
expect 0 "^size 60 60 30" cat "$dir/building.txt"
expect 0 "" $check3d obj "$dir/building.txt" "$dir/plan.json" "$dir/building.obj"
expect 0 "" $check3d vox "$dir/building.txt" "$dir/building.vox"
# the PNG: the bent mesh drawn isometrically
if [ "$(head -c 4 "$dir/building.png" | tail -c 3)" = PNG ]; then ok; else bad "building.png is no PNG"; fi
# The bundled tileset and its picture are what tools/make_building_modules.py makes, byte for byte.
repo=$(pwd)
mkdir -p "$dir/made" && (cd "$dir/made" && python3 "$repo/tools/make_building_modules.py")
expect 0 "" diff -r models/resources/tilesets/BuildingModules "$dir/made/models/resources/tilesets/BuildingModules"
expect 0 "" cmp models/resources/tilesets/BuildingModules.xml "$dir/made/models/resources/tilesets/BuildingModules.xml"
expect 0 "" cmp docs/images/growgrid/building_modules_tiles.png "$dir/made/docs/images/growgrid/building_modules_tiles.png"
finish module_building
