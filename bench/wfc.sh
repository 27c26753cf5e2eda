#!/bin/sh
# wfc.sh — `make bench`, classic WFC part: standard cases of the standalone WaveFunctionCollapse samples on the
# engine of the `wfc` node, median time over 10 seeds (one attempt each) and how many contradicted, beside
# figures measured for other implementations (whole process). The first row of each case uses the peers'
# settings (krychu/wfc has no ground and no periodic output); rows with backtrack take back decisions instead
# of failing. run+load is the median run plus the one-off loading, the part of a whole process that counts.
set -e
SAMPLES=${SMALTI_WFC_SAMPLES:-../shared/wfc}
BENCH=${WFC_BENCH:-build/wfc_bench}
if [ ! -f "$SAMPLES/samples.xml" ]; then echo "bench wfc: skipped: classic samples not found at $SAMPLES"; exit 0; fi
printf '\n%-46s %9s %8s %8s %9s  %s\n' "classic wfc case" median_ms failed load_ms run+load "peers (whole process, failures)"
while IFS='|' read -r label entry peer; do
    set -- $("$BENCH" "$SAMPLES" "$entry" 10)
    printf '%-46s %9.1f %5d/%-2d %8.1f %9.1f  %s\n' "$label" "$1" "$2" "$3" "$4" "$(echo "$1 $4" | awk '{print $1 + $2}')" "$peer"
done <<'CASES'
RedMaze N=2 128x128|<overlapping name="RedMaze" N="2" size="128"/>|krychu/wfc 132 ms 4/10, fast-wfc 273 ms 1/10
RedMaze N=2 128x128 backtrack=2|<overlapping name="RedMaze" N="2" size="128" backtrack="2"/>|
Flowers N=3 sym 2 128x128|<overlapping name="Flowers" N="3" symmetry="2" size="128"/>|krychu/wfc 239 ms 6/10
Flowers N=3 sym 2 128x128 backtrack=2|<overlapping name="Flowers" N="3" symmetry="2" size="128" backtrack="2"/>|
Flowers as samples.xml (ground, periodic) 128|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="128"/>|
Flowers as samples.xml 128 backtrack=2|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="128" backtrack="2"/>|
Knots Standard periodic 128x128 (tiled)|<simpletiled name="Knots" subset="Standard" periodic="True" size="128"/>|fast-wfc ~800 ms 0/10
Summer 48x48 (tiled)|<simpletiled name="Summer" size="48"/>|fast-wfc fails 9-10 of 10
Summer 48x48 (tiled) backtrack=2|<simpletiled name="Summer" size="48" backtrack="2"/>|
Summer 128x128 (tiled)|<simpletiled name="Summer" size="128"/>|fast-wfc fails 9-10 of 10
Summer 128x128 (tiled) backtrack=2|<simpletiled name="Summer" size="128" backtrack="2"/>|
Flowers N=3 sym 2 1024x1024 blocks=64|<overlapping name="Flowers" N="3" symmetry="2" size="1024" blocks="64"/>|peers: 1024² not re-measured (128²: krychu/wfc fails 6/10)
Flowers as samples.xml 1024 blocks=64|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="1024" blocks="64"/>|
Circuit Turnless periodic 512x512 blocks=64 (tiled)|<simpletiled name="Circuit" subset="Turnless" periodic="True" size="512" blocks="64"/>|peers: not re-measured
CASES
