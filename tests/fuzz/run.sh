#!/bin/sh
# run.sh SECONDS TARGET... — run each fuzz target (build/fuzz/fuzz_TARGET) for SECONDS, one after the other,
# on its corpus build/fuzz/corpus/TARGET (new inputs go there), its committed seeds and regressions; what a target finds
# goes to build/fuzz/findings/TARGET/ (crash-*, leak-*, timeout-*, oom-*). Fails when any target found something.
# No finding depends on the machine's speed: each harness bounds an input's work (fuzz_common.h), and
# libFuzzer's per-input timeout is only a hang guard (HANG seconds), whose hits are timeout-* and say so.
# A target stops at its first finding; FUZZ_KEEP_GOING=1 runs it in libFuzzer's fork mode instead, which
# records every finding and goes on.
set -u
time=$1
shift
# The hang guard of one input (libFuzzer's -timeout). Every harness bounds an input's work by counts
# (FUZZ_WORK_LIMIT cell-steps, FUZZ_SEARCH_LIMIT states, FUZZ_WFC_TRIES), so that one runs well under
# a second; 300 s is far past what any machine, however loaded, takes for it, so only an input that
# hangs (or escapes the bounds, a defect of the harness) reaches it.
HANG=300
status=0
for t in "$@"; do
    bin=build/fuzz/fuzz_$t corpus=build/fuzz/corpus/$t findings=build/fuzz/findings/$t log=build/fuzz/$t.log
    mkdir -p "$corpus" "$findings"
    dict=
    [ -f "tests/fuzz/$t.dict" ] && dict=-dict=tests/fuzz/$t.dict
    seeds=
    [ -d "tests/fuzz/seeds/$t" ] && seeds=tests/fuzz/seeds/$t
    # The committed regressions run first too: under clang's UBSan here, which catches more than the
    # gcc build of `make fuzz-replay` (NULL + 0, for one).
    [ -d "tests/fuzz/regressions/$t" ] && seeds="$seeds tests/fuzz/regressions/$t"
    case $t in
    model | wfc | pack) limits="-max_len=131072" ;;
    *) limits="-max_len=65536" ;;
    esac
    keep=
    [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
    # Only crashes, leaks, hang-guard hits (timeout-*) and OOMs are findings; libFuzzer's slow-unit-*
    # notes (a unit over 60 s) are not: a loaded machine can make them of any input.
    count_findings() { ls "$findings" | grep -c -E '^(crash|leak|timeout|oom)-'; }
    before=$(count_findings) earlier=$(ls "$findings")
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$time" -rss_limit_mb=2048 -report_slow_units=60 -timeout=$HANG $limits $keep -print_final_stats=1 \
        -artifact_prefix="$findings/" $dict "$corpus" $seeds > "$log" 2>&1
    rc=$?
    [ "$(count_findings)" -gt "$before" ] && [ $rc = 0 ] && rc=1
    # Runs and rate: the final stats, or in fork mode the last status line.
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    if [ -z "$execs" ]; then
        execs=$(sed -n 's/^#\([0-9]*\): cov.*/\1/p' "$log" | tail -n 1)
        [ -n "$execs" ] && rate=$((execs / time))
    fi
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ $rc -ne 0 ]; then
        status=1
        echo "fuzz $t: FOUND SOMETHING (exit $rc) after ${execs:-?} runs; $log ends:"
        tail -n 40 "$log"
        echo "fuzz $t: reproducer(s) in $findings/: $(ls "$findings" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')"
        if ls "$findings" | grep -vxF "$earlier" | grep -q '^timeout-'; then
            echo "fuzz $t: a timeout-* input ran past the hang guard of $HANG s: the harness bounds each input's work, so it hangs or escapes a bound (not a slow machine)"
        fi
    else
        echo "fuzz $t: ${time}s, ${execs:-?} runs, ${rate:-?} runs/s, $cov, nothing found"
    fi
done
exit $status
