#!/bin/sh
# promises.sh — what the bundled models' requirements promise, checked from their outputs over many
# seeds, independently of the <require> nodes: the tutorial overworld's and frontier's roads join
# every village (villages and roads are one region, and there is a road), and the keyed dungeon's
# key is reached from the entrance without its locked door, and the exit through it.
# Usage: sh tests/promises.sh ./smalti SEEDS   (`make test` runs 1..60; `make promises` 1..1000)
T=${1:-./smalti}
seeds=${2:-1..60}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
# check NAME MODEL CHECK...: the outputs of every seed checked by tests/grid_checks.py (which says
# what each CHECK means).
check() {
    name=$1 model=$2
    shift 2
    if ! "$T" run "$model" --seeds "$seeds" -j 2 -q -o "$dir/$name/{seed}.txt"; then
        echo "promises: $name: a run failed"; fail=1; return
    fi
    printf 'promises: '
    python3 "$(dirname "$0")/grid_checks.py" "$dir/$name" "$@" || fail=1
}
check overworld docs/examples/07_overworld.xml one:KN some:N
check frontier models/frontier.xml one:KN some:N
check keyed_dungeon models/keyed_dungeon.xml reach:K:E:FR reach:X:E:FRL some:K some:L
exit $fail
