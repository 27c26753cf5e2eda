#!/bin/sh
# stepnote_test.sh — a run stopped at the step limit names the node that made its last steps (run and
# batch), says when no node acted, and says nothing of the kind when the model finishes or with -q.
# Usage: stepnote_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
rules="$(dirname "$0")/../../models/resources"

# The new user's road loop: a path with edges="True" whose first cell touches K only at a corner,
# so the 4-neighbour "reached" rule never fires and the path succeeds for ever without painting.
cat > "$dir/loop.xml" <<'XML'
<sequence values="BKVN">
  <one in="BBBBBB/BBBBBB/BBBBBB/BBBBBB/BBBBBB/BBBBBB" out="BBBBBB/BKBBBB/BBBBBB/BBBBBB/BBBBVB/BBBBBB" symmetry="()" steps="1"/>
  <markov>
    <all in="KN" out="VN"/>
    <path from="K" to="VN" on="B" color="N" edges="True"/>
  </markov>
</sequence>
XML
only 0 "$dir/loop.xml: stopped at the step limit (100 steps) before the model finished; raise it with --steps N, or 0 for none; the last 99 steps were all made by <path> at line 5" \
    "$T" run "$dir/loop.xml" --size 6 --steps 100 -o "$dir/loop.png"
expect 0 "; the last step was made by <path> at line 5\$" "$T" run "$dir/loop.xml" --size 6 --steps 2 -o "$dir/loop.png"
expect 0 "; the last step was made by <one> at line 2\$" "$T" run "$dir/loop.xml" --size 6 --steps 1 -o "$dir/loop.png"
only 0 "" "$T" run "$dir/loop.xml" --size 6 --steps 100 -q -o "$dir/loop.png"

# The fix from language.md: a reached rule that also looks across the corners; the model finishes.
sed 's|<all in="KN" out="VN"/>|<all in="KN" out="VN"/><all in="K*/*N" out="V*/**"/>|' "$dir/loop.xml" > "$dir/fixed.xml"
only 0 "" "$T" run "$dir/fixed.xml" --size 6 --steps 100 -o "$dir/fixed.png"

# A wfc that cannot solve stays the current node and fails on every step: no node acts.
cat > "$dir/stall.xml" <<'XML'
<sequence values="BW">
  <wfc sample="Bricks" values="ABCD" n="3">
    <rule in="B" out="A"/>
  </wfc>
  <one in="B" out="W"/>
</sequence>
XML
expect 0 "stopped at the step limit (30 steps) before the model finished; raise it with --steps N, or 0 for none; no node acted in the last 29 steps\$" \
    "$T" run "$dir/stall.xml" --size 8 --steps 30 --resources "$rules" -o "$dir/stall.png"

# batch: the node's line is in the model file, which the note names (for every seed of the entry).
mkdir -p "$dir/b/models"
cp "$dir/loop.xml" "$dir/b/models/loop.xml"
printf '<models>\n<model name="loop" size="6" steps="50" amount="2" seeds="1 2"/>\n</models>\n' > "$dir/b/list.xml"
expect 0 "list.xml:2: loop_2 stopped at the step limit (50 steps) before the model finished; raise the entry's steps, or set steps=\"0\" for none; the last 49 steps were all made by <path> at line 5 of $dir/b/models/loop.xml\$" \
    "$T" batch "$dir/b/list.xml" --models "$dir/b/models" -o "$dir/b/out"
expect 0 "loop_2: 50 steps -> $dir/b/out/loop_2.png" "$T" batch "$dir/b/list.xml" --models "$dir/b/models" -o "$dir/b/out"
finish stepnote
