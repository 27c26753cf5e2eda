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
# check NAME MODEL CHECK...: each CHECK is "one:SYMBOLS" (the cells of SYMBOLS are one region),
# "some:SYMBOL" (there is one), or "reach:FROM:TO:THROUGH" (every FROM cell reaches a TO cell).
check() {
    name=$1 model=$2
    shift 2
    if ! "$T" run "$model" --seeds "$seeds" -j 2 -q -o "$dir/$name/{seed}.txt"; then
        echo "promises: $name: a run failed"; fail=1; return
    fi
    python3 - "$dir/$name" "$@" <<'PY' || fail=1
import os, sys
folder, checks = sys.argv[1], sys.argv[2:]
def region(rows, starts, through):
    seen, todo = set(), list(starts)
    while todo:
        x, y = todo.pop()
        if (x, y) in seen or not (0 <= y < len(rows) and 0 <= x < len(rows[y])) or rows[y][x] not in through: continue
        seen.add((x, y))
        todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    return seen
bad = []
files = sorted(os.listdir(folder))
for f in files:
    lines = open(os.path.join(folder, f)).read().split("\n")
    at = next(i for i, l in enumerate(lines) if l.startswith("size "))
    rows = lines[at + 1:at + 1 + int(lines[at].split()[2])]
    cells = lambda symbols: [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c in symbols]
    for c in checks:
        kind, *args = c.split(":")
        if kind == "some" and not cells(args[0]): bad.append("%s: no %s" % (f, args[0]))
        if kind == "one" and cells(args[0]) and len(region(rows, cells(args[0])[:1], args[0])) != len(cells(args[0])):
            bad.append("%s: the cells of %s are not one region" % (f, args[0]))
        if kind == "reach":
            reached = region(rows, cells(args[1]), args[2] + args[0] + args[1])
            if any(c not in reached for c in cells(args[0])): bad.append("%s: %s does not reach %s through %s" % (f, args[0], args[1], args[2]))
print("promises: %s: %d outputs, %d broken%s" % (os.path.basename(folder), len(files), len(bad), (": " + "; ".join(bad[:5])) if bad else ""))
sys.exit(1 if bad or not files else 0)
PY
}
check overworld docs/examples/07_overworld.xml one:KN some:N
check frontier models/frontier.xml one:KN some:N
check keyed_dungeon models/keyed_dungeon.xml reach:K:E:FR reach:X:E:FRL some:K some:L
exit $fail
