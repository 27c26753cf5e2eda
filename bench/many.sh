#!/bin/sh
# many.sh — throughput of many runs: MazeGrowth 127x127, 2000 seeds to PNG, with -j 1 and -j 2 in
# one process, and as 2000 separate `smalti run` processes. Skipped without the MarkovJunior corpus.
# Usage: sh bench/many.sh [./smalti]   (SEEDS=N for another count)
S=${1:-./smalti}
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
MODEL=$CORPUS/models/MazeGrowth.xml
N=${SEEDS:-2000}
[ -f "$MODEL" ] || { echo "many runs: skipped (no $MODEL)"; exit 0; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
t0=$(now)
"$S" run "$MODEL" --size 127 --seeds 1..$N -j 1 -q -o "$W/j1/{seed}.png" --manifest "$W/j1.jsonl" || exit 1
t1=$(now)
"$S" run "$MODEL" --size 127 --seeds 1..$N -j 2 -q -o "$W/j2/{seed}.png" --manifest "$W/j2.jsonl" || exit 1
t2=$(now)
mkdir -p "$W/p"
i=1
while [ $i -le $N ]; do "$S" run "$MODEL" --size 127 --seed $i -q -o "$W/p/$i.png" || exit 1; i=$((i + 1)); done
t3=$(now)
diff -r "$W/j1" "$W/j2" >/dev/null && diff -r "$W/j1" "$W/p" >/dev/null || { echo "many runs: the outputs differ"; exit 1; }
awk -v n=$N -v a=$t0 -v b=$t1 -v c=$t2 -v d=$t3 -v cores="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    j1 = b - a; j2 = c - b; p = d - c;
    printf "many runs: MazeGrowth 127x127, %d seeds to PNG (%d cores, load %s at the end)\n", n, cores, load;
    printf "  -j 1                %7.2f s  %7.1f runs/s\n", j1, n / j1;
    printf "  -j 2                %7.2f s  %7.1f runs/s  (%.2fx -j 1)\n", j2, n / j2, j1 / j2;
    printf "  %d processes      %7.2f s  %7.1f runs/s  (-j 1 is %.2fx faster)\n", n, p, n / p, p / j1;
}'
