#!/bin/sh
# trace.sh — `make bench`, traces: what recording costs a run (best of 15 runs without and
# with the recorder, the trace written to a file), the trace's size per cell change, and how
# fast `smalti view`'s page opens and seeks in headless Chromium (load: navigation to the
# first drawn grid, best of 3; seeks: median and worst of 40 seeks to random steps).
# Wall times on a shared machine wander; where valgrind is installed the script also counts
# the instructions of a plain and a recorded MazeGrowth 511² run, which do not.
# Goals (issue 6): recording at most 2x on MazeGrowth 511², under 8 MB per million changes,
# load under 2 s, seeks under 100 ms.
set -e
CORPUS=${SMALTI_MJ_CORPUS:-../shared/mj}
BENCH=${TRACE_BENCH:-build/trace_bench}
if [ ! -d "$CORPUS/models" ]; then echo "trace bench: skipped: corpus not found at $CORPUS"; exit 0; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-12s %-10s %8s %9s %10s %7s %9s %9s %9s %8s %8s %8s\n' model size steps changes plain_ms trace_ms slowdown trace_KB B/change load_ms seek_med seek_max
for spec in "MazeGrowth 511" "Growth 511" "Growth 1023"; do
    set -- $spec
    model=$1 size=$2
    set -- $("$BENCH" "$CORPUS/models/$model.xml" "$size" "$size" 1 1 0 "$out/run.trace" 15)
    plain=$1 traced=$2 steps=$3 changes=$4 bytes=$5
    ./smalti view "$out/run.trace" -o "$out/run.html"
    set -- $(node tests/browser/viewer_bench.js "$out/run.html" 40)
    awk -v m="$model" -v s="${size}x$size" -v p="$plain" -v t="$traced" -v n="$steps" -v c="$changes" -v b="$bytes" \
        -v l="$1" -v sm="$2" -v sx="$3" \
        'BEGIN { printf "%-12s %-10s %8d %9d %10.2f %7.2f %8.2fx %9.0f %9.2f %8s %8s %8s\n", m, s, n, c, p, t, t / p, b / 1024, b / c, l, sm, sx }'
done
if command -v valgrind >/dev/null; then
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$1" \
            "$BENCH" "$CORPUS/models/MazeGrowth.xml" 511 511 1 1 0 "$out/run.trace" 1 2>&1 | awk '/refs:/ { gsub(",", "", $4); print $4 }'
    }
    plain=$(count run_plain) traced=$(count run_traced)
    awk -v p="$plain" -v t="$traced" 'BEGIN { printf "MazeGrowth 511x511 instructions: plain %.1f M, recorded %.1f M: %.2fx\n", p / 1e6, t / 1e6, t / p }'
fi
