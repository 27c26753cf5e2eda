#!/bin/sh
# gen.sh — `make bench`, generator nodes: per project model in bench/gen.tsv, interpreter load and
# run times (best of 3), steps, peak memory, and ns per sample where a line asks for it.
set -e
BENCH=${BENCH:-build/bench}
printf '%-28s %-14s %9s %9s %9s %9s %9s  %s\n' model size load_ms run_ms steps rss_MB ns/sample note
grep -v '^#' bench/gen.tsv | while IFS='	' read -r model mx my mz seed limit samples note; do
    [ -n "$model" ] || continue
    set -- $("$BENCH" "$model" "$mx" "$my" "$mz" "$seed" "$limit" 3)
    awk -v m="$model" -v s="${mx}x${my}x${mz}" -v l="$1" -v r="$2" -v n="$3" -v k="$4" -v c="$mx*$my*$mz" -v spc="$samples" -v note="$note" \
        'BEGIN { split(c, f, "*"); cells = f[1] * f[2] * f[3]; ns = (spc > 0 ? r * 1e6 / (cells * spc) : 0);
                 printf "%-28s %-14s %9.3f %9.3f %9d %9.1f %9s  %s\n", m, s, l, r, n, k / 1024, (spc > 0 ? sprintf("%.1f", ns) : "-"), note }'
done
