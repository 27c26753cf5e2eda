#!/bin/sh
# promises.sh — what the bundled models' requirements promise, checked from their outputs over many
# seeds, independently of the <require> nodes: the tutorial overworld's and frontier's roads join
# every village (their villages and roads are one region) and there is a road.
# Usage: sh tests/promises.sh ./smalti SEEDS   (`make test` runs 1..60; `make promises` 1..1000)
T=${1:-./smalti}
seeds=${2:-1..60}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() { # check NAME MODEL SYMBOLS-OF-THE-NETWORK ROAD
    name=$1 model=$2 network=$3 road=$4
    if ! "$T" run "$model" --seeds "$seeds" -j 2 -q -o "$dir/$name/{seed}.txt" --manifest "$dir/$name.jsonl"; then
        echo "promises: $name: a run failed"; fail=1; return
    fi
    python3 - "$dir/$name" "$network" "$road" <<'PY' || fail=1
import os, sys
folder, network, road = sys.argv[1], sys.argv[2], sys.argv[3]
bad = []
files = sorted(os.listdir(folder))
for f in files:
    lines = open(os.path.join(folder, f)).read().split("\n")
    size = next(l for l in lines if l.startswith("size ")).split()
    mx, my = int(size[1]), int(size[2])
    start = next(i for i, l in enumerate(lines) if l.startswith("size ")) + 1
    rows = lines[start:start + my]
    cells = {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c in network}
    if not any(c == road for r in rows for c in r):
        bad.append(f + ": no road"); continue
    seen, todo = set(), [next(iter(cells))]
    while todo:
        c = todo.pop()
        if c in seen or c not in cells: continue
        seen.add(c)
        x, y = c
        todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    if seen != cells: bad.append(f + ": %d of %d village and road cells cut off" % (len(cells) - len(seen), len(cells)))
print("promises: %s: %d outputs, %d broken%s" % (os.path.basename(folder), len(files), len(bad), (": " + "; ".join(bad[:5])) if bad else ""))
sys.exit(1 if bad or not files else 0)
PY
}
check overworld docs/examples/07_overworld.xml KN N
check frontier models/frontier.xml KN N
exit $fail
