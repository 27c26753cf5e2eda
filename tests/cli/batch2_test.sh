#!/bin/sh
# batch2_test.sh — batch: --seed as a master seed, the warning when amount cuts seeds short,
# gif="True" as an animated GIF, the step-limit note, grammatical counts. Usage: batch2_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
mkdir -p "$dir/models"
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/models/m.xml"
cat > "$dir/list.xml" <<'XML'
<models>
  <model name="m" size="6" amount="3"/>
</models>
XML

# --seed S: the same outputs for the same S; the seeds are System.Random(S)'s first numbers.
"$T" batch "$dir/list.xml" --seed 7 -o "$dir/a" -q
"$T" batch "$dir/list.xml" --seed 7 -o "$dir/b" -q
"$T" batch "$dir/list.xml" --seed 8 -o "$dir/c" -q
la=$(ls "$dir/a" | tr '\n' ' ') lb=$(ls "$dir/b" | tr '\n' ' ') lc=$(ls "$dir/c" | tr '\n' ' ')
if [ "$la" = "$lb" ] && [ "$(echo "$la" | wc -w)" = 3 ]; then ok; else bad "--seed 7 twice: '$la' and '$lb'"; fi
if [ "$la" != "$lc" ]; then ok; else bad "--seed 7 and 8 gave the same names: $la"; fi
# System.Random(42)'s first numbers (as .NET draws them; tests/unit/test_rng.c), in list order.
expect 0 "m_1434747710: " "$T" batch "$dir/list.xml" --seed 42 -o "$dir/d"
expect 0 "m_269548474: " "$T" batch "$dir/list.xml" --seed 42 -o "$dir/d"
for f in $la; do cmp -s "$dir/a/$f" "$dir/b/$f" || bad "--seed 7 output $f differs"; done; ok
expect 2 "--seed takes an integer" "$T" batch "$dir/list.xml" --seed x

# amount cuts a seeds list short: the reference's behaviour, with a warning that says the fix.
cat > "$dir/seeds.xml" <<'XML'
<models>
  <model name="m" size="6" seeds="1 2 3"/>
  <model name="m" size="6" seeds="4 5 6" amount="3"/>
  <model name="m" size="6" seeds="7 8" gif="True"/>
</models>
XML
expect 0 'seeds.xml:2: warning: <model name="m"> lists 3 seeds but amount is 2 (the default), so only the first 2 are run; add amount="3" to run them all' \
    "$T" batch "$dir/seeds.xml" -o "$dir/s"
lacks 'seeds.xml:3: warning' "$T" batch "$dir/seeds.xml" -o "$dir/s"
expect 0 'seeds.xml:4: warning: .*gif="True" makes one output' "$T" batch "$dir/seeds.xml" -o "$dir/s"
if [ "$(ls "$dir/s" | tr '\n' ' ')" = "m_1.png m_2.png m_4.png m_5.png m_6.png m_7.gif m_7.png " ]; then ok; else bad "seeds outputs: $(ls "$dir/s")"; fi
only 0 "" "$T" batch "$dir/seeds.xml" -o "$dir/s" -q

# gif="True": an animated GIF of the run (6x6 cells of the entry's default pixel size 4).
if [ "$(head -c 6 "$dir/s/m_7.gif")" = "GIF89a" ] && [ "$(od -An -tu2 -j6 -N4 "$dir/s/m_7.gif" | tr -s ' ')" = " 24 24" ]; then ok
else bad "gif=True GIF header"; fi
expect 0 "m_7: animation of every step -> $dir/s/m_7.gif" "$T" batch "$dir/seeds.xml" -o "$dir/s"

# The step limit in an entry: said with the entry's line.
cat > "$dir/short.xml" <<'XML'
<models>
  <model name="m" size="6" steps="3" seeds="1" amount="1"/>
</models>
XML
expect 0 'short.xml:2: m_1 stopped at the step limit (3 steps) before the model finished' "$T" batch "$dir/short.xml" -o "$dir/t"
expect 0 "batch: 1 entry, 0 failed" "$T" batch "$dir/short.xml" -o "$dir/t"
expect 0 "batch: 3 entries, 0 failed" "$T" batch "$dir/seeds.xml" -o "$dir/s"
expect 0 "m_1: 3 steps ->" "$T" batch "$dir/short.xml" -o "$dir/t"
finish batch2
