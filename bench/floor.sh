#!/bin/sh
# floor.sh — bench/floor.c, the hand-written Growth, MazeGrowth and MazeBacktracker, beside smalti.
#   sh bench/floor.sh check SMALTI FLOOR      the floor program's grids are smalti's (seeds 1-3, with
#                                             and without a step limit); part of `make test`
#   sh bench/floor.sh time SMALTI FLOOR [OLD] whole processes in alternation (bench/runtime.c),
#                                             median of RUNS (5); `make bench-floor [BASELINE=OLD]`;
#                                             then the time per step of each run alone (smalti's
#                                             through the library, by BENCH: build/bench)
# With OLD, each row also says how much faster than OLD smalti is and the floor program is: a
# target above the floor's ratio cannot be met by keeping the reference's match list.
set -e
MODE=$1 SMALTI=$2 FLOOR=$3 OLD=$4
RUNS=${RUNS:-5}
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
RUNTIME=${RUNTIME:-build/runtime}
BENCH=${BENCH:-build/bench}
OUT=build/floor_out
if [ ! -d "$CORPUS/models" ]; then echo "floor: skipped: corpus not found at $CORPUS"; exit 0; fi
rm -rf "$OUT"; mkdir -p "$OUT"

# same MODEL SIDE SEED STEPS: both programs end on the same grid
same() {
    "$SMALTI" run "$CORPUS/models/$1.xml" --length "$2" --width "$2" --height 1 --seed "$3" --steps "$4" -q -o "$OUT/smalti.txt"
    "$FLOOR" "$1" "$2" "$3" "$OUT/floor.txt" "$4" 2>/dev/null
    if tail -n "$2" "$OUT/smalti.txt" | cmp -s - "$OUT/floor.txt"; then return 0; fi
    echo "floor: $1 ${2}x$2 seed $3 steps $4: the floor program's grid is not smalti's" >&2
    exit 1
}

if [ "$MODE" = check ]; then
    for seed in 1 2 3; do
        same Growth 64 "$seed" 1500    # a limit: an unlimited Growth fills the whole grid
        same Growth 101 "$seed" 4000
        same MazeGrowth 63 "$seed" 0
        same MazeGrowth 64 "$seed" 300
        same MazeBacktracker 63 "$seed" 3000
        same MazeBacktracker 40 "$seed" 0
    done
    echo "floor: the hand-written Growth, MazeGrowth and MazeBacktracker end on smalti's grids (36 runs)"
    exit 0
fi
[ "$MODE" = time ] || { echo "usage: floor.sh check|time SMALTI FLOOR [OLD]" >&2; exit 2; }

median() { awk '{ print $1 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
if [ -n "$OLD" ]; then
    printf 'the floor: %s alternating whole processes each, median ms (ratios: %s / that program)\n' "$RUNS" "$OLD"
    printf '%-28s %9s %9s %9s %12s %12s\n' row old smalti floor smalti_ratio floor_ratio
else
    printf 'the floor: %s alternating whole processes each, median ms\n' "$RUNS"
    printf '%-28s %9s %9s\n' row smalti floor
fi
# row MODEL SIDE STEPS
row() {
    same "$1" "$2" 1 "$3"
    rm -f "$OUT"/*.times
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        [ -z "$OLD" ] || "$RUNTIME" "$OUT/old.times" "$OLD" run "$CORPUS/models/$1.xml" --length "$2" --width "$2" --height 1 --seed 1 --steps "$3" -q -o "$OUT/old.txt"
        "$RUNTIME" "$OUT/smalti.times" "$SMALTI" run "$CORPUS/models/$1.xml" --length "$2" --width "$2" --height 1 --seed 1 --steps "$3" -q -o "$OUT/smalti.txt"
        "$RUNTIME" "$OUT/floor.times" "$FLOOR" "$1" "$2" 1 "$OUT/floor.txt" "$3"
        k=$((k + 1))
    done
    s=$(median "$OUT/smalti.times") f=$(median "$OUT/floor.times")
    if [ -n "$OLD" ]; then
        o=$(median "$OUT/old.times")
        awk -v l="$1 $2^2${4:+, $4}" -v o="$o" -v s="$s" -v f="$f" 'BEGIN { printf "%-28s %9.1f %9.1f %9.1f %11.2fx %11.2fx\n", l, o / 1000, s / 1000, f / 1000, o / s, o / f }'
    else
        awk -v l="$1 $2^2${4:+, $4}" -v s="$s" -v f="$f" 'BEGIN { printf "%-28s %9.1f %9.1f\n", l, s / 1000, f / 1000 }'
    fi
}
row Growth 1023 0
row Growth 511 0
row MazeGrowth 1023 0
row MazeGrowth 511 0
row MazeBacktracker 967 200000 200k
row MazeBacktracker 511 50000 50k

# The run alone, per step: smalti's run through the library (bench/bench.c: the run made and its
# steps, without start-up, loading or output) and the floor program's own clock around its grid
# and steps, each divided by that side's steps. Alternating, median of RUNS.
printf '\nper step: the run alone, %s alternating runs each, median ns per step (ratio: smalti / floor)\n' "$RUNS"
printf '%-28s %9s %11s %11s %9s\n' row steps smalti_ns floor_ns ratio
# per_step MODEL SIDE STEPS [LABEL]
per_step() {
    rm -f "$OUT"/*.ns
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        "$BENCH" "$CORPUS/models/$1.xml" "$2" "$2" 1 1 "$3" 1 | awk '{ printf "%.3f %d\n", $2 * 1e6 / $3, $3 }' >>"$OUT/smalti.ns"
        "$FLOOR" "$1" "$2" 1 "$OUT/floor.txt" "$3" 2>&1 >/dev/null | awk '{ printf "%.3f\n", $4 * 1e6 / $2 }' >>"$OUT/floor.ns"
        k=$((k + 1))
    done
    s=$(median "$OUT/smalti.ns") f=$(median "$OUT/floor.ns") n=$(awk 'NR == 1 { print $2 }' "$OUT/smalti.ns")
    awk -v l="$1 $2^2${4:+, $4}" -v n="$n" -v s="$s" -v f="$f" 'BEGIN { printf "%-28s %9d %11.1f %11.1f %8.2fx\n", l, n, s, f, s / f }'
}
per_step Growth 1023 0
per_step Growth 511 0
per_step MazeGrowth 1023 0
per_step MazeGrowth 511 0
per_step MazeBacktracker 967 200000 200k
per_step MazeBacktracker 511 50000 50k
