#!/bin/sh
# run.sh — `make bench`: per model, load and run times (best of 3), steps, steps/s,
# peak memory, and the whole `smalti run` process (best of 5, text output).
set -e
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
BENCH=${BENCH:-build/bench}
if [ ! -d "$CORPUS/models" ]; then echo "bench: skipped: corpus not found at $CORPUS"; exit 0; fi
printf '%-20s %-14s %9s %9s %9s %12s %9s %9s  %s\n' model size load_ms run_ms steps steps/s rss_MB whole_ms note
grep -v '^#' bench/models.tsv | while IFS='	' read -r model mx my mz seed limit note; do
    set -- $("$BENCH" "$CORPUS/models/$model.xml" "$mx" "$my" "$mz" "$seed" "$limit" 3)
    load=$1 run=$2 steps=$3 rss=$4
    best=""
    for k in 1 2 3 4 5; do
        t0=$(date +%s%N)
        ./smalti run "$CORPUS/models/$model.xml" --length "$mx" --width "$my" --height "$mz" --seed "$seed" --steps "$limit" -q -o build/bench_out.txt
        t1=$(date +%s%N)
        ms=$(( (t1 - t0) / 1000 ))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    awk -v m="$model" -v s="${mx}x${my}x${mz}" -v l="$load" -v r="$run" -v n="$steps" -v k="$rss" -v w="$best" -v note="$note" \
        'BEGIN { printf "%-20s %-14s %9.2f %9.2f %9d %12.0f %9.1f %9.1f  %s\n", m, s, l, r, n, (r > 0 ? n / r * 1000 : 0), k / 1024, w / 1000, note }'
done
rm -f build/bench_out.txt
