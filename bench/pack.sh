#!/bin/sh
# pack.sh — `make bench`, packs: the whole `smalti pack check` process on the MarkovJunior corpus
# (every models.xml entry loaded, linted and run at its defaults), with 1 and 2 threads: wall time,
# peak memory, and the summary line. SMALTI_MJ_CORPUS names the corpus (default ../shared/mj).
corpus=${SMALTI_MJ_CORPUS:-../shared/mj}
if [ ! -f "$corpus/models.xml" ]; then echo "pack check: no corpus at $corpus, skipped"; exit 0; fi
printf '%-34s %9s %9s  %s\n' command wall_s rss_MB summary
for jobs in 1 2; do
    out=$(mktemp)
    start=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$out.rss" ./smalti pack check "$corpus" -q -j "$jobs" > "$out" 2>&1
    end=$(date +%s.%N)
    summary=$(tail -n 1 "$out" | sed 's/^[^:]*: //')
    awk -v c="pack check $corpus -j $jobs" -v s="$start" -v e="$end" -v k="$(tail -n 1 "$out.rss")" -v sum="$summary" \
        'BEGIN { printf "%-34s %9.2f %9.1f  %s\n", c, e - s, k / 1024, sum }'
    rm -f "$out" "$out.rss"
done
