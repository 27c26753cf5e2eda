#!/bin/sh
# cave_modules_test.sh — models/cave_modules.xml: every tile is one of the 14 marching-squares variants, neighbours
# share their corners, the border is solid rock (tests/cli/cave_modules/check.py), for several seeds; and the
# twisted outputs come out.
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
check="python3 $(dirname "$0")/cave_modules/check.py"
for seed in 1 2 3 4; do
  expect 0 "" "$T" run models/cave_modules.xml --seed $seed -o "$dir/cave$seed.json"
  expect 0 "" $check "$dir/cave$seed.json"
done
expect 0 "" "$T" run models/cave_modules.xml -o "$dir/cave.png"
expect 0 "" "$T" run models/cave_modules.xml -o "$dir/cave.obj"
expect 0 "" test -s "$dir/cave_texture.png"
finish cave_modules
