#!/bin/sh
# run_all.sh — every CLI test script (tests/cli_test.sh and each tests/cli/*_test.sh), N at a time (default:
# two per core: the scripts spend much of their time waiting on the processes they start). Each script's output is kept whole and printed when it ends; the exit code is 1 when any
# failed. The scripts keep their files in their own temporary folders, so they may run side by side.
# Usage: run_all.sh [-j N] ./smalti
jobs=$((2 * $(nproc 2>/dev/null || echo 2)))
if [ "$1" = -j ]; then jobs=$2; shift 2; fi
T=${1:-./smalti}
here=$(dirname "$0")
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# The longest first (pack_test checks the whole corpus), so that a long one does not start last.
scripts="$here/pack_test.sh $here/many_test.sh $here/lint_corpus_test.sh $here/../cli_test.sh"
for t in "$here"/*_test.sh; do
    case " $scripts " in *" $t "*) ;; *) scripts="$scripts $t" ;; esac
done
export T logs
printf '%s\n' $scripts | xargs -P "$jobs" -I{} sh -c '
    name=$(basename "$1" .sh) start=$(date +%s)
    sh "$1" "$T" > "$logs/$name.log" 2>&1
    echo $? > "$logs/$name.rc"
    echo "($name: $(($(date +%s) - start)) s)" >> "$logs/$name.log"
    flock "$logs/print.lock" cat "$logs/$name.log"' run_all {}
status=0 ran=0
for t in $scripts; do
    name=$(basename "$t" .sh)
    ran=$((ran + 1))
    rc=$(cat "$logs/$name.rc" 2>/dev/null || echo "no exit code")
    if [ "$rc" != 0 ]; then echo "FAILED: $t (exit $rc)"; status=1; fi
done
echo "cli: $ran scripts, $jobs at a time: $([ $status = 0 ] && echo "all passed" || echo "some FAILED (above)")"
exit $status
