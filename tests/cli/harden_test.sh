#!/bin/sh
# harden_test.sh — the hardening checks: deadlines inside long steps, the memory budget of image
# decoding, sample names that climb out of their folder, temporary files, list file parse errors.
# Usage: harden_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

# A deadline stops a long step from inside. Each case's first step (the second for convchain) is
# built to be far longer than its deadline on any machine: as much work as the node allows in one
# step with a modest grid (a grid has at most 2^28 cells), from some seconds to minutes here, against
# a deadline of 0.01 s, so a machine would have to be hundreds to thousands of times faster than
# this one to finish the step in time (the margin, step time here / deadline, is given per case).
# A run stopped between steps would say "after 1 steps" (or end and write its output). A small
# deadline cannot make a case fail either: passed before the first step began (the process held off
# the CPU), it stops the run after 0 steps as well (the case then proves less, but nothing false).
# No wall time is asserted; `guard` only turns a run that ignores its deadline into a failure that
# says so.
deadline=0.01
inside_step() { # NAME 'GRID OPTIONS' STEPS_DONE XML [options...]
    name=$1 grid=$2 done_steps=$3 xml=$4; shift 4
    printf '%s\n' "$xml" > "$dir/$name.xml"
    # shellcheck disable=SC2086 # grid is a list of options
    expect 6 "$name.xml: error: stopped after $done_steps steps: the run took longer than its timeout of $deadline s" \
        guard 600 "$T" run "$dir/$name.xml" $grid --timeout "$deadline" -q -o "$dir/$name.png" "$@"
    if [ -e "$dir/$name.png" ]; then bad "$name: an output was written after the timeout"; else ok; fi
}
repeat() { # N TEXT: TEXT N times
    i=0; while [ "$i" -lt "$1" ]; do printf '%s' "$2"; i=$((i + 1)); done
}
# 8192^2 cells of 16 octaves: 12 s here (1200x).
inside_step noise "--size 8192" 0 '<noise values="BW" octaves="16" frequency="0.0001" lacunarity="1.5"><band value="B" to="0"/><band value="W" to="1"/></noise>'
# 4096^2 cells among a million sites: 8 s here (800x).
inside_step voronoi "--size 4096" 0 '<sequence values="BWR"><voronoi sites="1000000" values="WR" border="B"/></sequence>'
# 262144 runners, each stamping a brush of some 50,000 cells: over 20 s here (2000x).
inside_step runner "--size 2048" 0 '<sequence values="BW"><runner value="W" count="262144" strength="256" life="1000" turnChance="0"/></sequence>'
# 2000 squares with sides of 1024 cells, drawn with the widest pen: one generation (the axiom), over
# 30 s here (3000x).
inside_step lsystem "--size 2048" 0 "<lsystem values=\"BW\" axiom=\"$(repeat 2000 'F+F+F+F+')\" iterations=\"0\" step=\"1024\" angle=\"90\" width=\"64\" pen=\"W\"/>"
# convchain's sample: black and white pixels (the palette's B and W). Its first step only colours
# the grid (some 50 ms here), so its deadline is 0.2 s, for the second step, the sampling at n=4 of
# 2048^2 cells: 50 s here (250x). On a loaded machine the colouring may outlast the deadline: then
# the run stops inside the first step, which is as right.
mkdir -p "$dir/res/samples"
printf '<one values="BW" in="B" out="W" steps="20"/>\n' > "$dir/tiny.xml"
"$T" run "$dir/tiny.xml" --size 8 --pixel-size 1 -q -o "$dir/res/samples/Tiny.png"
deadline=0.2
inside_step convchain "--size 2048" '[01]' '<sequence values="BWR"><convchain sample="Tiny" on="B" black="B" white="W" n="4"/></sequence>' \
    --resources "$dir/res"
deadline=0.01
# One `all` step over 4096^2 cells: the scan, the shuffle and the writes each ask; 6 s here (600x).
inside_step all "--size 4096" 0 '<all values="BW" in="B" out="W"/>'
# `one` spends its first step on the scan of the grid by bitplanes: here of a 63x64 rule that fits
# nowhere, as its last cell wants W or R and the grid is all B, so that each row of the scan goes
# through all 4032 cells of the rule before the last one rules a fit out: 30 s here over 128x524288
# cells (3000x). (The second node is there so that a rule makes W: the lint would warn otherwise.)
row=$(repeat 63 B)
fits_nowhere=$(repeat 63 "$row/")$(repeat 62 B)?
inside_step one "--length 128 --width 524288" 0 "<sequence values=\"BWR\"><union symbol=\"?\" values=\"WR\"/><one in=\"$fits_nowhere\" out=\"$(printf '%s' "$fits_nowhere" | tr 'B?' '*R')\" symmetry=\"()\"/><one in=\"B\" out=\"W\"/></sequence>"
# `prl`'s first step: 32 one-cell rules, each matching all 8192^2 cells (a draw each): 9 s here (900x).
inside_step prl "--size 8192" 0 "<prl values=\"BW\">$(repeat 32 '<rule in="B" out="B"/>')</prl>"
# A convolution step sums each rule's neighbours over every row: 256 rules that never fire, then one
# that does, over 64x1048576 cells: over a minute here (6000x).
inside_step convolution "--length 64 --width 1048576" 0 "<convolution values=\"DA\" neighborhood=\"Moore\">$(repeat 256 '<rule in="D" out="A" sum="1..8" values="A"/>')<rule in=\"D\" out=\"A\" sum=\"0..8\" values=\"A\" p=\"0.5\"/></convolution>"
# A path's first step searches breadth-first from every target: here all 4096^2 cells, as every B is
# one: 1-2 s here (100x; a run checked only between steps said "after 64 steps", 130 s).
inside_step path "--size 4096" 0 '<sequence values="BRW" origin="True"><path from="R" to="B" on="B" color="W"/></sequence>'
# A map's step passes each of its 12 rules (each 3x3, in 8 symmetries) over every cell: 50 s here (5000x).
inside_step map "--size 4096" 0 '<sequence values="BW"><map scale="1 1 1" values="BW"><rule in="BBW/WBB/BWB" out="***/*W*/***"/><rule in="WBB/BWW/BBW" out="***/*B*/***"/><rule in="BWW/WWB/BBB" out="***/*W*/***"/><rule in="WWB/BBW/WBW" out="***/*B*/***"/><rule in="BBB/WBW/WWB" out="***/*W*/***"/><rule in="WBW/BWB/BBW" out="***/*B*/***"/><rule in="BWB/BBW/WBB" out="***/*W*/***"/><rule in="WWW/BWB/BWB" out="***/*B*/***"/><rule in="BBW/BBW/WWB" out="***/*W*/***"/><rule in="WBB/WWB/BWB" out="***/*B*/***"/><rule in="BWB/WBW/BWW" out="***/*W*/***"/><rule in="WWB/WBB/WBB" out="***/*B*/***"/></map></sequence>'
# The deadline covers loading: 30,000 rules (each a B and 14 cells of B or W) take about 1 s to read
# and compile here (100x); 0 steps are made. (The rules' warnings are not the point: -q.)
many_rules=$(awk 'BEGIN { printf "<one values=\"BW\">"; for (k = 0; k < 30000; k++) { p = ""; for (b = 13; b >= 0; b--) p = p (int(k / 2 ^ b) % 2 ? "W" : "B"); printf "<rule in=\"B%s\" out=\"W%s\"/>", p, p } print "<rule in=\"B\" out=\"W\"/></one>" }')
inside_step load "--size 16" 0 "$many_rules"

# The memory budget holds while a model loads and decodes its images: a 15 KB PNG that declares
# 4000x4000 pixels (64 MiB as RGBA, before stb's own buffers) fails as out of memory under 64M.
mkdir -p "$dir/res/rules"
printf '<one values="BW" in="B" out="W" steps="1"/>\n' > "$dir/onecell.xml"
"$T" run "$dir/onecell.xml" --size 1000 --pixel-size 4 -q -o "$dir/res/rules/big.png"
printf '<all values="BW" file="big" legend="BW"/>\n' > "$dir/bigrule.xml"
only 7 "$dir/bigrule.xml:1: error: $dir/res/rules/big.png: out of memory decoding the PNG image (4000x4000): loading the model needed more than its memory budget of 64.0 MiB" \
    "$T" run "$dir/bigrule.xml" --resources "$dir/res" --max-memory 64M -o "$dir/bigrule.png"
[ -e "$dir/bigrule.png" ] && bad "bigrule: an output was written" || ok
# Without the budget it decodes, and is refused for its size as a rule image.
expect 3 "a 4000x4000x1 rule image is absurd" "$T" run "$dir/bigrule.xml" --resources "$dir/res" -o "$dir/bigrule.png"

# smalti wfc keeps to its samples folder: a name with ".." is refused (this held already), and so
# is a sample, density picture, tileset or tile that is a symbolic link out of the folder.
W="$dir/wfcs"
mkdir -p "$W/samples" "$W/tilesets/Good" "$W/tilesets/Inside" "$dir/outside"
"$T" run "$dir/onecell.xml" --size 4 --pixel-size 1 -q -o "$dir/outside/secret.png"
cp "$dir/outside/secret.png" "$W/samples/Plain.png"
cp "$dir/outside/secret.png" "$W/tilesets/Good/a.png"
printf '<samples>\n  <overlapping name="../../outside/secret" N="2" size="4"/>\n</samples>\n' > "$dir/climb.xml"
expect 3 "climb.xml:2: error: name=\"../../outside/secret\" is not a plain sample name" \
    "$T" wfc "$dir/climb.xml" --samples "$W" -o "$dir/wfc_out"
# A subset's name is part of the output's file name (NAME SUBSET 0.png), so it is checked as the sample's
# is (issue 33): with subset="x/../../escaped" and a folder "out/Good x/" it wrote two levels up.
mkdir -p "$dir/wfc_sub/Good x"
printf '<samples>\n  <simpletiled name="Good" subset="x/../../escaped" size="4"/>\n</samples>\n' > "$dir/subset.xml"
expect 3 'subset.xml:2: error: subset="x/../../escaped" has a '"'"'/'"'"' or' "$T" wfc "$dir/subset.xml" --samples "$W" -o "$dir/wfc_sub"
[ ! -e "$dir/escaped 0.png" ] && [ -z "$(find "$dir" -name 'escaped*')" ] && ok || bad "a subset name climbed out of the output folder"
printf '<samples>\n  <simpletiled name="Good" subset=".." size="4"/>\n</samples>\n' > "$dir/subset2.xml"
expect 3 'subset2.xml:2: error: subset=".." names a folder' "$T" wfc "$dir/subset2.xml" --samples "$W" -o "$dir/wfc_sub"
ln -s "$dir/outside/secret.png" "$W/samples/Leak.png"
printf '<samples>\n\n  <overlapping name="Leak" N="2" size="4"/>\n</samples>\n' > "$dir/leak.xml"
expect 3 "leak.xml:3: error: $W/samples/Leak.png leaves the samples folder $W through a symbolic link (it leads to .*outside/secret.png)" \
    "$T" wfc "$dir/leak.xml" --samples "$W" -o "$dir/wfc_out"
set_xml='<set size="1">\n  <tiles>\n    <tile name="a" symmetry="X"/>\n  </tiles>\n  <neighbors>\n    <neighbor left="a" right="a"/>\n  </neighbors>\n</set>\n'
printf "$set_xml" > "$W/tilesets/Good.xml"
printf '<samples>\n  <simpletiled name="Good" size="4"/>\n</samples>\n' > "$dir/good.xml"
expect 0 "Good 0.png .* done" "$T" wfc "$dir/good.xml" --samples "$W" -o "$dir/wfc_out"
printf '<samples>\n  <simpletiled name="Good" size="4" density="Leak"/>\n</samples>\n' > "$dir/leak_density.xml"
expect 3 "leak_density.xml:2: error: .*samples/Leak.png leaves the samples folder" "$T" wfc "$dir/leak_density.xml" --samples "$W" -o "$dir/wfc_out"
printf "$set_xml" > "$dir/outside/set.xml"
ln -s "$dir/outside/set.xml" "$W/tilesets/Linked.xml"
printf '<samples>\n  <simpletiled name="Linked" size="4"/>\n</samples>\n' > "$dir/leak_set.xml"
expect 3 "leak_set.xml:2: error: .*tilesets/Linked.xml leaves the samples folder" "$T" wfc "$dir/leak_set.xml" --samples "$W" -o "$dir/wfc_out"
printf "$set_xml" > "$W/tilesets/Inside.xml"
ln -s "$dir/outside/secret.png" "$W/tilesets/Inside/a.png"
printf '<samples>\n  <simpletiled name="Inside" size="4"/>\n</samples>\n' > "$dir/leak_tile.xml"
expect 3 "Inside.xml:3: error: .*tilesets/Inside/a.png leaves the samples folder" "$T" wfc "$dir/leak_tile.xml" --samples "$W" -o "$dir/wfc_out"
# A link that stays inside the folder is fine.
ln -s Plain.png "$W/samples/Alias.png"
printf '<samples>\n  <overlapping name="Alias" N="2" size="4"/>\n</samples>\n' > "$dir/alias.xml"
expect 0 "Alias N2 0.png" "$T" wfc "$dir/alias.xml" --samples "$W" -o "$dir/wfc_out"

# A list file broken at line 3 of 10 is reported at line 3 with libxml2's first error, not its
# last ("Extra content at the end of the document", line 4), and the same for a tileset.
list_broken_at_3() { # LINE3
    { echo '<models>'; echo '  <model name="A" size="8"/>'; echo "$1"
      for c in C D E F G H; do echo "  <model name=\"$c\" size=\"8\"/>"; done; echo '</models>'; } > "$dir/list3.xml"
}
list_broken_at_3 '  <model name="B" size="8"/></extra>'
only 3 "$dir/list3.xml:3: error: cannot read the model list: malformed XML: Opening and ending tag mismatch: models line 1 and extra" \
    "$T" batch "$dir/list3.xml" -o "$dir/batch_out"
only 3 "$dir/list3.xml:3: error: cannot read the sample list: malformed XML: Opening and ending tag mismatch: models line 1 and extra" \
    "$T" wfc "$dir/list3.xml" -o "$dir/wfc_out"
list_broken_at_3 '  <model name="<B" size="8"/>'
only 3 "$dir/list3.xml:3: error: cannot read the model list: malformed XML: Unescaped '<' not allowed in attributes values" \
    "$T" batch "$dir/list3.xml" -o "$dir/batch_out"
printf '<set size="1">\n  <tiles>\n    <tile name="a" symmetry="X"/></oops>\n  </tiles>\n  <neighbors>\n    <neighbor left="a" right="a"/>\n  </neighbors>\n</set>\n' > "$W/tilesets/Broken.xml"
mkdir -p "$W/tilesets/Broken"
printf '<samples>\n  <simpletiled name="Broken" size="4"/>\n</samples>\n' > "$dir/broken_set.xml"
expect 3 "tilesets/Broken.xml:3: error: malformed XML: Opening and ending tag mismatch: tiles line 2 and oops" \
    "$T" wfc "$dir/broken_set.xml" --samples "$W" -o "$dir/wfc_out"

# A tile wfc node's overlap is checked from both sides (issue 33): a large negative one made the new grid's
# size wrap past the cell cap, and runs on grids of 17 and 31 wrote outside the cells (a segfault). Every
# size from 2 to 64 must now be a load error with the node's line; on 1 cell the tiles do not overlap at all.
crashes=0
for size in $(seq 2 64); do
    out=$("$T" run tests/badinput/wfc_tile_negative_overlap.xml --resources tests/badinput --size $size -q -o "$dir/overlap.png" 2>&1)
    rc=$?
    case $rc:$out in
    3:*"wfc_tile_negative_overlap.xml:2: error: overlap=\"-2147483600\" overlapz=\"0\": the tiles make a "*"absurdly large"*) ;;
    *) crashes=$((crashes + 1)); echo "size $size: exit $rc: $out" ;;
    esac
done
[ "$crashes" = 0 ] && [ ! -e "$dir/overlap.png" ] && ok || bad "a negative overlap: $crashes of 63 sizes not refused at load"

finish harden
