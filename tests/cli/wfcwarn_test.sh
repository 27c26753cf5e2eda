#!/bin/sh
# wfcwarn_test.sh — a <wfc> that finds no solution is said (file:line, step, the grid kept), -q hides
# it, --strict makes it an error with nothing written, the manifest of many runs and the trace keep it.
# Usage: wfcwarn_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
rules="$(dirname "$0")/../../models/resources"

# Three steps of <one>, then an overlap wfc whose three tries all end in a contradiction on an 8x8 grid.
cat > "$dir/nosol.xml" <<'XML'
<sequence values="BW">
  <one in="B" out="W" steps="3"/>
  <wfc sample="Bricks" values="ABCD" n="3" tries="3"/>
</sequence>
XML
said="$dir/nosol.xml:3: warning: <wfc> found no solution (a contradiction in each of its 3 tries) at step 4; the grid is as it was before the node"
only 0 "$said" "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" -o "$dir/nosol.txt"
# The grid written is the one from before the node: 8x8, three W.
if grep -q '^size 8 8 1$' "$dir/nosol.txt" && [ "$(grep -E '^[BW]{8}$' "$dir/nosol.txt" | grep -o W | wc -l)" = 3 ]; then ok; else bad "nosol.txt: $(cat "$dir/nosol.txt")"; fi
only 0 "" "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" -q -o "$dir/quiet.txt"
[ -s "$dir/quiet.txt" ] && ok || bad "-q: no output"

# --strict: the warning (even with -q), an error, exit 3, and no output file.
expect 3 "nosol.xml: error: the run had 1 warning, and --strict makes warnings errors: nothing written" \
    "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --strict -q -o "$dir/strict.png"
expect 3 "^$said\$" "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --strict -q -o "$dir/strict.png"
[ -e "$dir/strict.png" ] && bad "--strict wrote strict.png" || ok
# The rules contradicting the grid before any try: said once, though the sequence tries it at every step.
cat > "$dir/stall.xml" <<'XML'
<sequence values="BW">
  <wfc sample="Bricks" values="ABCD" n="3">
    <rule in="B" out="A"/>
  </wfc>
  <one in="B" out="W"/>
</sequence>
XML
out=$("$T" run "$dir/stall.xml" --size 8 --steps 30 --resources "$rules" -o "$dir/stall.png" 2>&1)
n=$(printf '%s\n' "$out" | grep -c "warning: <wfc> found no solution (the grid's cells contradict its rules before any try) at step 1; the grid is as it was before the node")
[ "$n" = 1 ] && ok || bad "stall said the warning $n times: $out"

# A wfc that solves says nothing.
cat > "$dir/solves.xml" <<'XML'
<sequence values="BW">
  <wfc sample="Bricks" values="DNna" n="3" periodic="True"/>
</sequence>
XML
only 0 "" "$T" run "$dir/solves.xml" --size 24 --resources "$rules" -o "$dir/solves.png"

# Many runs: each seed's warning names it, the manifest line counts it; a run without has no field.
expect 0 "nosol.xml:3: warning: seed 2: <wfc> found no solution" \
    "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --seeds 1..2 -j 1 -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl"
[ "$(grep -c '"sha256":"[0-9a-f]*","attempts":1,"warnings":1}$' "$dir/m.jsonl")" = 2 ] && ok || bad "manifest: $(cat "$dir/m.jsonl")"
# --resume reads the lines with the field: both seeds are done.
expect 0 "0 runs made, 2 done before (--resume)" "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --seeds 1..2 -j 1 -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl" --resume
"$T" run "$dir/solves.xml" --size 24 --resources "$rules" --seeds 1 -q -o "$dir/s/{seed}.png" --manifest "$dir/s.jsonl"
grep -q '"warnings"' "$dir/s.jsonl" && bad "a run without warnings: $(cat "$dir/s.jsonl")" || ok
expect 3 "error: seed 1: the run had 1 warning" \
    "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --seeds 1..2 -j 1 -q --strict -o "$dir/ms/{seed}.txt"
[ -e "$dir/ms/1.txt" ] || [ -e "$dir/ms/2.txt" ] && bad "--strict --seeds wrote an output" || ok

# The trace keeps the warning (its WARN chunk), and the viewer page carries it.
only 0 "$said" "$T" run "$dir/nosol.xml" --size 8 --resources "$rules" --trace "$dir/nosol.trace" -o "$dir/t.png"
grep -q "WARN" "$dir/nosol.trace" && ok || bad "no WARN chunk in the trace"
grep -aq "found no solution (a contradiction in each of its 3 tries) at step 4" "$dir/nosol.trace" && ok || bad "the trace lacks the message"
expect 0 "" "$T" view "$dir/nosol.trace" -q -o "$dir/nosol.html"
# pack check: a run's warning is a warning of the model (and --strict fails it).
mkdir -p "$dir/pack/models" "$dir/pack/resources/samples"
cp "$rules/samples/Bricks.png" "$dir/pack/resources/samples/"
cp "$dir/nosol.xml" "$dir/pack/models/nosol.xml"
printf '<models>\n  <model name="nosol" size="8"/>\n</models>\n' > "$dir/pack/models.xml"
expect 0 "1 model: 0 ok, 1 with warnings, 0 failed" "$T" pack check "$dir/pack"
expect 0 "nosol.xml:3: warning: <wfc> found no solution" "$T" pack check "$dir/pack"
expect 3 "1 model: 0 ok, 0 with warnings, 1 failed" "$T" pack check "$dir/pack" --strict
# A run reused after its wfc found no solution solves as a fresh one: seeds 1..16 on one thread
# (each run reset from the last) give the files of 16 single runs (seed 12's wfc fails).
printf '<sequence values="BW"><wfc sample="Bricks" values="ABCD" n="3" tries="1"/></sequence>\n' > "$dir/reuse.xml"
R=$(cd "$(dirname "$0")/../.." && pwd)/models/resources
for s in $(seq 1 16); do "$T" run "$dir/reuse.xml" --size 24 --seed "$s" --resources "$R" -q -o "$dir/single_$s.txt"; done
"$T" run "$dir/reuse.xml" --size 24 --seeds 1..16 -j 1 --resources "$R" -q -o "$dir/many_{seed}.txt"
differ=""
for s in $(seq 1 16); do cmp -s "$dir/single_$s.txt" "$dir/many_$s.txt" || differ="$differ $s"; done
[ -z "$differ" ] && ok || bad "a reused run differs from a fresh one on seeds$differ"
finish wfcwarn
