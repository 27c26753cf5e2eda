#!/bin/sh
# require.sh — what a <require> that always holds costs, side by side in one alternating hyperfine run:
# models/dungeon.xml (63², seeds 1..20 in one process) with and without `<require connected="WAY"/>`
# at its end (its rooms and corridors are one region by construction), and the worst case, MazeGrowth
# at 511², whose whole run costs about as much per cell as the check's flood.
# Usage: sh bench/require.sh ./smalti
T=${1:-./smalti}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v hyperfine >/dev/null; then echo "require: hyperfine is not installed (sudo apt-get install hyperfine)"; exit 0; fi
cp models/dungeon.xml "$dir/dungeon.xml"
sed 's|</sequence>|  <require connected="WAY" tries="1"/>\n</sequence>|' models/dungeon.xml > "$dir/dungeon_require.xml"
printf '<sequence values="BWA" origin="True">\n  <one in="WBB" out="WAW"/>\n</sequence>\n' > "$dir/maze.xml"
printf '<sequence values="BWA" origin="True">\n  <one in="WBB" out="WAW"/>\n  <require connected="WA" tries="1"/>\n</sequence>\n' > "$dir/maze_require.xml"
row() { # row NAME ARGS: the model with and without its requirement
    name=$1; shift
    hyperfine -N -w 3 -r 30 --export-json "$dir/r.json" -n plain "$T run $dir/$name.xml $* -q" \
        -n require "$T run $dir/${name}_require.xml $* -q" >/dev/null
    python3 - "$dir/r.json" "$name" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
p, q = r["plain"], r["require"]
print("require: %-8s plain %6.1f ± %4.1f ms (user %5.1f), with a <require> that holds %6.1f ± %4.1f ms (user %5.1f): median %.3f×"
      % (sys.argv[2], p["mean"] * 1e3, p["stddev"] * 1e3, p["user"] * 1e3, q["mean"] * 1e3, q["stddev"] * 1e3, q["user"] * 1e3,
         q["median"] / p["median"]))
PY
}
row dungeon --seeds 1..20 -j 1 -o "$dir/out/{seed}.txt"
row maze --size 511 --steps 0 --seed 1 -o /dev/null
