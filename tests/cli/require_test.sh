#!/bin/sh
# require_test.sh — <require> through the command: the attempts said (and -q quiet), the same output
# for the same seed, exit 9 naming the requirement's line when no attempt holds, the manifest's
# attempts, and --strict untouched by a requirement that holds. Usage: require_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
# Three W in a 5x5 grid are rarely one region.
printf '<sequence values="BWR">\n  <one in="B" out="W" steps="3"/>\n  <require connected="W" tries="200"/>\n</sequence>\n' > "$dir/r.xml"
expect 0 "r.xml: seed 1: [0-9]* attempts (the requirement at line 3 failed [0-9]* times)" "$T" run "$dir/r.xml" --size 5 --seed 1 -o "$dir/a.txt"
only 0 "" "$T" run "$dir/r.xml" --size 5 --seed 1 -q -o "$dir/b.txt"
cmp -s "$dir/a.txt" "$dir/b.txt" && ok || bad "the same seed gave two grids"
[ "$(grep -c W "$dir/a.txt")" -ge 1 ] && ok || bad "no W in the output"
# The kept attempt's three W are one region (checked from the text grid by tests/grid_checks.py).
mkdir -p "$dir/kept" && cp "$dir/a.txt" "$dir/kept/"
python3 "$(dirname "$0")/../grid_checks.py" "$dir/kept" one:W count:W:3 >/dev/null && ok || bad "the output's W cells are not one region"
# No attempt can hold: exit 9 after `tries`, with the line, and no output.
printf '<sequence values="BW">\n  <all in="B" out="W"/>\n  <require count="W" max="3" tries="4"/>\n</sequence>\n' > "$dir/never.xml"
only 9 "$dir/never.xml:3: error: the requirement failed on all 4 attempts (tries=\"4\"); the last time: 25 cells of \"W\", not at most 3" \
    "$T" run "$dir/never.xml" --size 5 -q -o "$dir/never.png"
[ ! -e "$dir/never.png" ] && ok || bad "a run whose requirement never held wrote its output"
# Many runs: the manifest line has the attempts; the outputs are those of single runs.
expect 0 "" "$T" run "$dir/r.xml" --size 5 --seeds 1..4 -q -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl"
cmp -s "$dir/a.txt" "$dir/m/1.txt" && ok || bad "many runs' seed 1 differs from run's"
n=$("$T" run "$dir/r.xml" --size 5 --seed 1 -o "$dir/c.txt" 2>&1 | sed -n 's/.*: \([0-9]*\) attempts.*/\1/p')
grep -q "\"seed\":1,.*\"attempts\":$n}" "$dir/m.jsonl" && ok || bad "manifest of seed 1 lacks attempts $n: $(head -1 "$dir/m.jsonl")"
# A requirement that holds says nothing, and --strict has nothing against it.
printf '<sequence values="BW">\n  <all in="B" out="W"/>\n  <require count="W" min="1"/>\n</sequence>\n' > "$dir/holds.xml"
only 0 "" "$T" run "$dir/holds.xml" --size 5 --strict -o "$dir/holds.png"
finish require
