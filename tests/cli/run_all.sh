#!/bin/sh
# run_all.sh — every CLI test script: tests/cli_test.sh, then each tests/cli/*_test.sh. Usage: run_all.sh ./smalti
T=${1:-./smalti}
here=$(dirname "$0")
status=0
sh "$here/../cli_test.sh" "$T" || status=1
for t in "$here"/*_test.sh; do
    [ -e "$t" ] || continue
    sh "$t" "$T" || status=1
done
exit $status
