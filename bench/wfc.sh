#!/bin/sh
# wfc.sh — `make bench`, classic WFC part: standard cases of the standalone WaveFunctionCollapse samples on the
# engine of the `wfc` node, median time over 10 seeds (one attempt each) and how many contradicted, beside
# figures published for other implementations.
set -e
SAMPLES=${TESSERA_WFC_SAMPLES:-../shared/wfc}
BENCH=${WFC_BENCH:-build/wfc_bench}
if [ ! -f "$SAMPLES/samples.xml" ]; then echo "bench wfc: skipped: classic samples not found at $SAMPLES"; exit 0; fi
printf '\n%-44s %10s %9s %8s  %s\n' "classic wfc case" median_ms failed load_ms "peers (median, failures)"
while IFS='|' read -r label entry peer; do
    set -- $("$BENCH" "$SAMPLES" "$entry" 10)
    printf '%-44s %10.1f %6d/%-2d %8.1f  %s\n' "$label" "$1" "$2" "$3" "$4" "$peer"
done <<'CASES'
RedMaze N=2 128x128|<overlapping name="RedMaze" N="2" size="128"/>|krychu/wfc 132 ms 4/10, fast-wfc 273 ms 1/10
Flowers N=3 sym 2 ground periodic 128x128|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="128"/>|krychu/wfc 239 ms 6/10
Knots Standard periodic 128x128 (tiled)|<simpletiled name="Knots" subset="Standard" periodic="True" size="128"/>|fast-wfc ~800 ms 0/10
Summer 48x48 (tiled)|<simpletiled name="Summer" size="48"/>|fast-wfc fails 9-10 of 10
Summer 128x128 (tiled)|<simpletiled name="Summer" size="128"/>|fast-wfc fails 9-10 of 10
CASES
