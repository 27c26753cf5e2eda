#!/bin/sh
# replay.sh BINDIR TARGET... — run every file of tests/fuzz/seeds/TARGET and tests/fuzz/regressions/TARGET
# once through BINDIR/replay_TARGET (a fuzz target with replay_main.c), each in its own process so that
# one crash does not hide the next. As under libFuzzer's -rss_limit_mb=2048, an allocation of 2 GiB or
# more fails. Prints each failing file with the sanitizer's summary; fails if any failed. Each run has a
# hang guard (HANG seconds, as run.sh's -timeout): the harnesses bound an input's work, so one runs well
# under a second, and only one that hangs reaches the guard, which says so.
set -u
bindir=$1
shift
failed=0 runs=0
HANG=300
for t in "$@"; do
    for f in tests/fuzz/seeds/"$t"/* tests/fuzz/regressions/"$t"/*; do
        [ -f "$f" ] || continue
        runs=$((runs + 1))
        log=$bindir/replay.log
        ASAN_OPTIONS=detect_leaks=1:max_allocation_size_mb=2047 timeout -k 10 $HANG "$bindir/replay_$t" "$f" > "$log" 2>&1
        rc=$?
        if [ $rc != 0 ]; then
            failed=$((failed + 1))
            why=$(grep -m 1 -E "runtime error|^SUMMARY|ERROR: AddressSanitizer" "$log")
            [ $rc = 124 ] && why="still running after the hang guard of $HANG s, so stopped (a hang: the harness bounds an input's work)"
            [ $rc = 137 ] && why="killed (SIGKILL): by the hang guard, still running $HANG s and 10 more after its TERM, or by the kernel for memory"
            echo "fuzz-replay: $t: $f fails: ${why:-see $log}"
            cp "$log" "$bindir/replay-$t-$(basename "$f").log"
        fi
    done
done
echo "fuzz-replay: $runs inputs, $failed failing (logs: $bindir/replay-*.log)"
[ $failed = 0 ]
