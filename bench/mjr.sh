#!/bin/sh
# mjr.sh — `make bench` (and `make bench-mjr`): the rule-node rows against MJr (kaya3/MJr, MarkovJunior
# models compiled ahead of time to JavaScript), side by side on this machine. No peer figure is quoted:
# with MJR_RUN set to a command that runs one MJr model as docs/performance.md describes ("Rule nodes
# against MJr": `$MJR_RUN MODEL.mjr WIDTH HEIGHT` prints its run's median wall and CPU milliseconds) and
# MJR_MODELS to MJr's own models/ folder, each row alternates MJr, smalti's run through the library
# (build/bench, median of 7) and the whole `smalti run` process (build/runtime, median of 7), MJR_ROUNDS
# rounds, and prints the median over rounds of each, in CPU time (a loaded machine stretches it less
# than the wall clock), with the ratios MJr / smalti (above 1: smalti is faster); then the same from
# each side's best round (its least CPU time), which a machine that runs at two speeds by turns
# (docs/performance.md) disturbs least. Growth, MazeGrowth and
# MazeBacktracker are bench/mjr/*.mjr; MJr's models/ has the rest. The two sides' grids differ (MJr
# draws with its own random generator), so the rows compare work of one kind, not one output.
set -e
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
BENCH=${BENCH:-build/bench}
RUNTIME=${RUNTIME:-build/runtime}
ROUNDS=${MJR_ROUNDS:-3}
OUT=build/mjr
if [ -z "${MJR_RUN:-}" ]; then
    printf '\nrule nodes against MJr: skipped (set MJR_RUN and MJR_MODELS, see docs/performance.md)\n'
    exit 0
fi
if [ ! -d "$CORPUS/models" ]; then echo "bench mjr: skipped: corpus not found at $CORPUS"; exit 0; fi
if [ ! -d "${MJR_MODELS:-}" ]; then echo "bench mjr: MJR_MODELS must name MJr's models/ folder" >&2; exit 2; fi
case "$ROUNDS" in '' | *[!0-9]* | 0*) echo "bench mjr: MJR_ROUNDS must be a count from 1" >&2; exit 2 ;; esac
rm -rf "$OUT"; mkdir -p "$OUT"

median() { sort -n | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
least() { sort -n | head -n 1; }

printf '\n%-34s %9s %9s %7s %9s %7s  %s\n' "rule nodes against MJr, CPU ms" mjr run ratio whole ratio "(wall: mjr run whole)"
: >"$OUT/best"
while IFS='|' read -r label model size limit source; do
    case "$source" in ours) mjr=bench/mjr/$model.mjr ;; *) mjr=$MJR_MODELS/$model.mjr ;; esac
    [ -f "$mjr" ] || { echo "bench mjr: $mjr not found" >&2; exit 2; }
    : >"$OUT/mjr" && : >"$OUT/run" && : >"$OUT/whole" && : >"$OUT/mjr.wall" && : >"$OUT/run.wall" && : >"$OUT/whole.wall"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        set -- $($MJR_RUN "$mjr" "$size" "$size" </dev/null)
        echo "$1" >>"$OUT/mjr.wall" && echo "$2" >>"$OUT/mjr"
        set -- $("$BENCH" "$CORPUS/models/$model.xml" "$size" "$size" 1 1 "$limit" 7 </dev/null)
        echo "$5" >>"$OUT/run.wall" && echo "$6" >>"$OUT/run"
        rm -f "$OUT/times"
        k=0
        while [ "$k" -lt 7 ]; do
            "$RUNTIME" "$OUT/times" ./smalti run "$CORPUS/models/$model.xml" --length "$size" --width "$size" --height 1 \
                --seed 1 --steps "$limit" -q -o "$OUT/grid.txt" || { echo "bench mjr: smalti failed on $model" >&2; exit 4; }
            k=$((k + 1))
        done
        awk '{print $3 / 1000}' "$OUT/times" | median >>"$OUT/whole"
        awk '{print $1 / 1000}' "$OUT/times" | median >>"$OUT/whole.wall"
        r=$((r + 1))
    done
    m=$(median <"$OUT/mjr") n=$(median <"$OUT/run") w=$(median <"$OUT/whole")
    awk -v l="$label" -v m="$m" -v n="$n" -v w="$w" -v mw="$(median <"$OUT/mjr.wall")" -v nw="$(median <"$OUT/run.wall")" \
        -v ww="$(median <"$OUT/whole.wall")" 'BEGIN { printf "%-34s %9.1f %9.2f %6.1fx %9.2f %6.1fx  (%.1f %.2f %.2f)\n", l, m, n, m / n, w, m / w, mw, nw, ww }'
    awk -v l="$label" -v m="$(least <"$OUT/mjr")" -v n="$(least <"$OUT/run")" -v w="$(least <"$OUT/whole")" \
        'BEGIN { printf "%-34s %9.1f %9.2f %6.1fx %9.2f %6.1fx\n", l, m, n, m / n, w, m / w }' >>"$OUT/best"
done <<'ROWS'
Growth 511^2|Growth|511|0|ours
MazeGrowth 511^2|MazeGrowth|511|0|ours
MazeBacktracker 511^2, 50k steps|MazeBacktracker|511|50000|ours
River 256^2|River|256|0|mjr
NystromDungeon 255^2|NystromDungeon|255|0|mjr
BasicBrickWall 255^2|BasicBrickWall|255|0|mjr
BasicPartitioning 255^2|BasicPartitioning|255|0|mjr
BasicDungeonGrowth 127^2|BasicDungeonGrowth|127|0|mjr
Basic 511^2|Basic|511|0|mjr
ROWS
printf '\n%-34s %9s %9s %7s %9s %7s\n' "the same, each side's best round" mjr run ratio whole ratio
cat "$OUT/best"
