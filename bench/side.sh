#!/bin/sh
# side.sh — `make bench BASELINE=OLD`: the heavy rows timed with an older binary and this one in
# alternation (whole processes timed by bench/runtime.c, median of 5, peak memory), with the ratio, after checking that both
# write identical outputs (text grids, the header's
# grid and steps-limit lines aside; for the growgrid row the twisted JSON, lattice and cells). Usage: sh bench/side.sh OLD [NEW]; RUNS=N for the count.
# INSTR=1 also counts each row's instructions, one process per binary under callgrind (which
# does not move with load as times do; about 15 minutes more on the 2-core machine).
set -e
OLD=$1
NEW=${2:-./smalti}
RUNS=${RUNS:-5}
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
SAMPLES=${SMALTI_WFC_SAMPLES:-../shared/wfc}
OUT=build/side
RUNTIME=${RUNTIME:-build/runtime}
INSTR=${INSTR:-0}
if [ -z "$OLD" ] || [ ! -x "$OLD" ]; then echo "bench side: BASELINE must name an executable binary" >&2; exit 2; fi
if [ ! -x "$RUNTIME" ]; then echo "bench side: $RUNTIME not built (make bench builds it)" >&2; exit 2; fi
if [ ! -d "$CORPUS/models" ]; then echo "bench side: skipped: corpus not found at $CORPUS"; exit 0; fi
if [ "$INSTR" = 1 ] && ! command -v valgrind >/dev/null; then echo "bench side: INSTR=1 needs valgrind (apt-get install valgrind)" >&2; exit 2; fi
rm -rf "$OUT"; mkdir -p "$OUT"

# time_one SIDE CMD... : one whole process, timed from fork to exit by bench/runtime.c (as
# hyperfine -N does: no shell or /usr/bin/time inside the span), with its peak memory from wait4;
# appends "us kib" to $OUT/SIDE.times
time_one() {
    side=$1; shift
    "$RUNTIME" "$OUT/$side.times" "$@" || { echo "bench side: failed: $*" >&2; cat "$OUT/$side.times.err" >&2; exit 4; }
}

# instructions CMD... : the instructions one process of CMD runs, in millions, under callgrind
# (empty without INSTR=1)
instructions() {
    [ "$INSTR" = 1 ] || return 0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ printf "%.1f", $1 / 1e6 }'
}

# median FILE COLUMN : the median of a column of numbers
median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf 'side by side: old %s, new %s, %s alternating whole processes each, median\n' "$OLD" "$NEW" "$RUNS"
if [ "$INSTR" = 1 ]; then
    printf '%-34s %10s %10s %7s %9s %9s %10s %10s %7s  %s\n' row old_ms new_ms ratio old_MiB new_MiB old_Minstr new_Minstr ratio output
else
    printf '%-34s %10s %10s %7s %9s %9s  %s\n' row old_ms new_ms ratio old_MiB new_MiB output
fi
bad=0
old_instr='' new_instr=''
# row LABEL MODEL X Y Z STEPS : one corpus model, text output
row() {
    label=$1 model=$2 x=$3 y=$4 z=$5 steps=$6
    set -- run "$CORPUS/models/$model.xml" --length "$x" --width "$y" --height "$z" --seed 1 --steps "$steps" -q
    rm -f "$OUT/old.times" "$OUT/new.times"
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        time_one old "$OLD" "$@" -o "$OUT/old.txt"
        time_one new "$NEW" "$@" -o "$OUT/new.txt"
        k=$((k + 1))
    done
    # The header's grid and steps-limit lines echo the options (older binaries wrote -1 for no
    # limit, and the last grid's sides for a model whose wfc node scales the grid); all else counts.
    if grep -Ev '^(steps-limit|grid) ' "$OUT/old.txt" >"$OUT/old.cmp" && grep -Ev '^(steps-limit|grid) ' "$OUT/new.txt" >"$OUT/new.cmp" &&
        cmp -s "$OUT/old.cmp" "$OUT/new.cmp"; then same=identical; else same=DIFFERENT; bad=1; fi
    old_instr=$(instructions "$OLD" "$@" -o "$OUT/old.txt") new_instr=$(instructions "$NEW" "$@" -o "$OUT/new.txt")
    report "$label" "$same"
}
report() {
    awk -v l="$1" -v o="$(median "$OUT/old.times" 1)" -v n="$(median "$OUT/new.times" 1)" \
        -v om="$(median "$OUT/old.times" 2)" -v nm="$(median "$OUT/new.times" 2)" -v s="$2" \
        -v oi="$old_instr" -v ni="$new_instr" \
        'BEGIN { printf "%-34s %10.1f %10.1f %6.2fx %9.1f %9.1f", l, o / 1000, n / 1000, (n > 0 ? o / n : 0), om / 1024, nm / 1024
                 if (oi != "") printf " %10.1f %10.1f %6.2fx", oi, ni, (ni > 0 ? oi / ni : 0)
                 printf "  %s\n", s }'
}
row "Growth 1023^2"                  Growth 1023 1023 1 0
row "Growth 511^2"                   Growth 511 511 1 0
row "MazeGrowth 1023^2"              MazeGrowth 1023 1023 1 0
row "MazeGrowth 511^2"               MazeGrowth 511 511 1 0
row "MazeBacktracker 967^2, 200k"    MazeBacktracker 967 967 1 200000
row "MazeBacktracker 511^2, 50k"     MazeBacktracker 511 511 1 50000
row "River 256^2"                    River 256 256 1 50000
row "NystromDungeon 79^2"            NystromDungeon 79 79 1 50000
row "BasicDungeonGrowth 79^2"        BasicDungeonGrowth 79 79 1 50000
row "FireNoise 300^2"                FireNoise 300 300 1 50000
row "ForestFire 600^2, 80 steps"     ForestFire 600 600 1 80
row "DungeonGrowth 79^2"             DungeonGrowth 79 79 1 50000
row "PeriodicEscher 8^3"             PeriodicEscher 8 8 8 50000
row "OpenCave3D 40^3"                OpenCave3D 40 40 40 50000
row "CompleteSAWSmart 23^2"          CompleteSAWSmart 23 23 1 50000
row "BiasedVoronoi 80^2"             BiasedVoronoi 80 80 1 50000
row "Island 800^2"                   Island 800 800 1 0

# gen_row LABEL MODEL SIZE : one of smalti's own models (models/), whose lattice the twisted JSON output
# holds with the cells: both binaries must write the same bytes
gen_row() {
    label=$1 model=$2 size=$3
    set -- run "$model" --size "$size" --seed 1 -q
    rm -f "$OUT/old.times" "$OUT/new.times"
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        time_one old "$OLD" "$@" -o "$OUT/old.json"
        time_one new "$NEW" "$@" -o "$OUT/new.json"
        k=$((k + 1))
    done
    if cmp -s "$OUT/old.json" "$OUT/new.json"; then same=identical; else same=DIFFERENT; bad=1; fi
    old_instr=$(instructions "$OLD" "$@" -o "$OUT/old.json") new_instr=$(instructions "$NEW" "$@" -o "$OUT/new.json")
    report "$label" "$same"
}
gen_row "growgrid 129^2 points, 512^2 Disc" models/bench_growgrid129.xml 128

# The classic WFC command, the issue's peer cases (RedMaze and Flowers with krychu/wfc's settings,
# Knots with fast-wfc's): seeds 1..10, one attempt each; the outputs written (one per seed that did
# not contradict) must be the same files with the same bytes. A binary with `wfc -j` solves the
# seeds on as many threads as there are cores by default; the "one thread" rows give it -j 1, so
# they compare the solvers alone. wfc_row LABEL ENTRY [NEW_ARGS...]
wfc_row() {
    label=$1 entry=$2
    shift 2
    printf '<samples>\n  %s\n</samples>\n' "$entry" >"$OUT/case.xml"
    rm -f "$OUT/old.times" "$OUT/new.times"
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        rm -rf "$OUT/old.wfc" "$OUT/new.wfc"
        time_one old "$OLD" wfc "$OUT/case.xml" --samples "$SAMPLES" --runs 10 --tries 1 -q -o "$OUT/old.wfc"
        time_one new "$NEW" wfc "$OUT/case.xml" --samples "$SAMPLES" --runs 10 --tries 1 -q -o "$OUT/new.wfc" "$@"
        k=$((k + 1))
    done
    written=$(ls "$OUT/new.wfc" | wc -l)
    rm -rf "$OUT/old.i" "$OUT/new.i"
    old_instr=$(instructions "$OLD" wfc "$OUT/case.xml" --samples "$SAMPLES" --runs 10 --tries 1 -q -o "$OUT/old.i")
    new_instr=$(instructions "$NEW" wfc "$OUT/case.xml" --samples "$SAMPLES" --runs 10 --tries 1 -q -o "$OUT/new.i" "$@")
    if diff -r "$OUT/old.wfc" "$OUT/new.wfc" >/dev/null; then same="identical ($written/10 written)"; else same=DIFFERENT; bad=1; fi
    report "$label" "$same"
}
if [ -f "$SAMPLES/samples.xml" ] && "$OLD" wfc 2>&1 | grep -qv 'unknown command'; then
    wfc_row "wfc RedMaze N=2 128^2, 10"        '<overlapping name="RedMaze" N="2" size="128"/>'
    wfc_row "wfc Flowers N=3 sym 2 128^2, 10"  '<overlapping name="Flowers" N="3" symmetry="2" size="128"/>'
    wfc_row "wfc Knots periodic 128^2, 10"     '<simpletiled name="Knots" subset="Standard" periodic="True" size="128"/>'
    if "$NEW" wfc --help 2>&1 | grep -q -- '--jobs'; then
        wfc_row "  the same, one thread: RedMaze"  '<overlapping name="RedMaze" N="2" size="128"/>' -j 1
        wfc_row "  Flowers"                        '<overlapping name="Flowers" N="3" symmetry="2" size="128"/>' -j 1
        wfc_row "  Knots"                          '<simpletiled name="Knots" subset="Standard" periodic="True" size="128"/>' -j 1
    fi
fi
if [ "$bad" = 0 ]; then echo "bench side: every row's output identical in both binaries"; else echo "bench side: some outputs DIFFER" >&2; exit 1; fi
