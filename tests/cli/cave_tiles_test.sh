#!/bin/sh
# cave_tiles_test.sh — models/cave_tiles.xml, the CA thesis's tile map: 5 x 5 tiles of 50 x 50 cells, each
# ring in its own pair of values, and more generations smooth more: ring by ring outward (2, 5, 11 generations)
# each ring's tiles have more than twice as many cells that a majority vote would still flip as the next ring's,
# for several seeds (tests/grid_checks.py rougher). The same map with 5 generations everywhere fails both.
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
checks="$(dirname "$0")/../grid_checks.py"
mkdir -p "$dir/maps" "$dir/even"
for seed in 1 2 3 4; do
  expect 0 "" "$T" run models/cave_tiles.xml --seed $seed -q -o "$dir/maps/tiles$seed.txt"
done
grep -qx 'size 250 250 1' "$dir/maps/tiles1.txt" && ok || bad "the map is not 250 x 250 cells"
# Each tile holds only its ring's pair: F/R in the centre, G/S in ring 1, H/T in ring 2.
python3 - "$dir/maps/tiles1.txt" <<'PY' && ok || bad "a tile holds another ring's values"
import sys
lines = open(sys.argv[1]).read().split("\n")
at = next(i for i, l in enumerate(lines) if l.startswith("size "))
rows = lines[at + 1:at + 251]
pairs = {0: "FR", 1: "GS", 2: "HT"}
sys.exit(any(rows[y][x] not in pairs[max(abs(x // 50 - 2), abs(y // 50 - 2))] for y in range(250) for x in range(250)))
PY
out=$(python3 "$checks" "$dir/maps" rougher:RST:50:0:1 rougher:RST:50:1:2) && ok || bad "a ring is not rougher than the next: $out"
# Without the rings' own generation counts (5 everywhere) no ring is rougher than the next.
sed -e 's/steps="2" comment="n = 2/steps="5" comment="n = 5/' -e '/comment="n = 5: the two outer/,/<\/convolution>/d' \
    -e '/comment="n = 11/,/<\/convolution>/d' models/cave_tiles.xml > "$dir/even.xml"
[ "$(grep -c '<convolution' "$dir/even.xml")" = 2 ] && ok || bad "the even map was not made"
expect 0 "" "$T" run "$dir/even.xml" --seed 1 -q -o "$dir/even/even1.txt"
expect 1 "1 broken" python3 "$checks" "$dir/even" rougher:RST:50:0:1
expect 1 "1 broken" python3 "$checks" "$dir/even" rougher:RST:50:1:2
finish cave_tiles
