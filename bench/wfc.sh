#!/bin/sh
# wfc.sh — `make bench`, classic WFC part: standard cases of the standalone WaveFunctionCollapse samples on the
# engine of the `wfc` node, median time over 10 seeds (one attempt each) and how many contradicted. The first
# row of each case uses the peer's settings (krychu/wfc has no ground and no periodic output); rows with
# backtrack take back decisions instead of failing; rows with propagation=sets use pattern sets (other outputs).
# run+load is the median run plus the one-off loading.
# No peer figure is quoted: with WFC_PEER_DRIVER set to a krychu/wfc driver built as docs/performance.md
# describes ("krychu/wfc, side by side"), the peer's rows run it and ours in alternation, WFC_PEER_ROUNDS
# rounds of seeds 1..10 each, and print both medians (the median over rounds of each round's median attempt),
# the peer's failures and the ratio peer / smalti (above 1: smalti is faster).
set -e
SAMPLES=${SMALTI_WFC_SAMPLES:-../shared/wfc}
BENCH=${WFC_BENCH:-build/wfc_bench}
PEER=${WFC_PEER_DRIVER:-}
ROUNDS=${WFC_PEER_ROUNDS:-3}
if [ ! -f "$SAMPLES/samples.xml" ]; then echo "bench wfc: skipped: classic samples not found at $SAMPLES"; exit 0; fi
case "$ROUNDS" in '' | *[!0-9]* | 0*) echo "bench wfc: WFC_PEER_ROUNDS must be a count from 1" >&2; exit 2 ;; esac

# The median of the numbers on standard input.
median() { sort -n | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# The peer's seeds 1..10 on one case ($@: the driver's arguments): its median attempt and its failures.
peer_round() {
    "$PEER" "$SAMPLES/samples/$1" "$2" "$3" "$4" "$5" "$6" "$7" 10 2>&1 >/dev/null </dev/null |
        awk '/^seed/ {print $4, ($3 == "fail")}' | sort -n |
        awk '{v[NR] = $1; f += $2} END {printf "%s %d\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, f}'
}

if [ -n "$PEER" ]; then peers="krychu/wfc side by side: median_ms failed, ratio"
else peers="peer (set WFC_PEER_DRIVER, see docs/performance.md)"; fi
printf '\n%-46s %9s %8s %8s %9s  %s\n' "classic wfc case" median_ms failed load_ms run+load "$peers"
while IFS='|' read -r label entry peer_args; do
    if [ -n "$PEER" ] && [ -n "$peer_args" ]; then
        ours="" theirs="" fails=""
        r=0
        while [ "$r" -lt "$ROUNDS" ]; do
            set -- $peer_args
            set -- $(peer_round "$@")
            theirs="$theirs $1" fails="$2"
            set -- $("$BENCH" "$SAMPLES" "$entry" 10 </dev/null)
            ours="$ours $1"
            r=$((r + 1))
        done
        peer_ms=$(echo "$theirs" | tr ' ' '\n' | grep . | median)
        ours_ms=$(echo "$ours" | tr ' ' '\n' | grep . | median)
        set -- $("$BENCH" "$SAMPLES" "$entry" 10 </dev/null)
        printf '%-46s %9.1f %5d/%-2d %8.1f %9.1f  krychu %.1f ms %d/10, %.2fx (ours side by side %.1f ms)\n' "$label" "$1" "$2" "$3" "$4" \
            "$(echo "$1 $4" | awk '{print $1 + $2}')" "$peer_ms" "$fails" "$(echo "$peer_ms $ours_ms" | awk '{print $1 / $2}')" "$ours_ms"
    else
        set -- $("$BENCH" "$SAMPLES" "$entry" 10 </dev/null)
        printf '%-46s %9.1f %5d/%-2d %8.1f %9.1f\n' "$label" "$1" "$2" "$3" "$4" "$(echo "$1 $4" | awk '{print $1 + $2}')"
    fi
done <<'CASES'
RedMaze N=2 128x128|<overlapping name="RedMaze" N="2" size="128"/>|RedMaze.png 2 128 1 0 0 0
RedMaze N=2 128x128 propagation=sets|<overlapping name="RedMaze" N="2" size="128" propagation="sets"/>|RedMaze.png 2 128 1 0 0 0
RedMaze N=2 128x128 backtrack=2|<overlapping name="RedMaze" N="2" size="128" backtrack="2"/>|
Flowers N=3 sym 2 128x128|<overlapping name="Flowers" N="3" symmetry="2" size="128"/>|Flowers.png 3 128 1 1 0 0
Flowers N=3 sym 2 128x128 propagation=sets|<overlapping name="Flowers" N="3" symmetry="2" size="128" propagation="sets"/>|Flowers.png 3 128 1 1 0 0
Flowers N=3 sym 2 128x128 backtrack=2|<overlapping name="Flowers" N="3" symmetry="2" size="128" backtrack="2"/>|
Flowers as samples.xml (ground, periodic) 128|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="128"/>|
Flowers as samples.xml 128 backtrack=2|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="128" backtrack="2"/>|
Knot N=3 128x128 (non-periodic)|<overlapping name="Knot" N="3" size="128"/>|Knot.png 3 128 1 1 1 1
Knot N=3 128x128 propagation=sets|<overlapping name="Knot" N="3" size="128" propagation="sets"/>|Knot.png 3 128 1 1 1 1
Knots Standard periodic 128x128 (tiled)|<simpletiled name="Knots" subset="Standard" periodic="True" size="128"/>|
Summer 48x48 (tiled)|<simpletiled name="Summer" size="48"/>|
Summer 48x48 (tiled) backtrack=2|<simpletiled name="Summer" size="48" backtrack="2"/>|
Summer 128x128 (tiled)|<simpletiled name="Summer" size="128"/>|
Summer 128x128 (tiled) backtrack=2|<simpletiled name="Summer" size="128" backtrack="2"/>|
Flowers N=3 sym 2 1024x1024 blocks=64|<overlapping name="Flowers" N="3" symmetry="2" size="1024" blocks="64"/>|peers: 1024² not re-measured (128²: krychu/wfc fails 6/10)
Flowers as samples.xml 1024 blocks=64|<overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="1024" blocks="64"/>|
Circuit Turnless periodic 512x512 blocks=64 (tiled)|<simpletiled name="Circuit" subset="Turnless" periodic="True" size="512" blocks="64"/>|peers: not re-measured
CASES
