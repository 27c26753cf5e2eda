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
inside_step() { # NAME 'GRID OPTIONS' STEPS_DONE XML [options...] (text output: a PNG of the widest grids is refused before the run)
    name=$1 grid=$2 done_steps=$3 xml=$4; shift 4
    printf '%s\n' "$xml" > "$dir/$name.xml"
    # shellcheck disable=SC2086 # grid is a list of options
    expect 6 "$name.xml: error: stopped after $done_steps steps: the run took longer than its timeout of $deadline s" \
        guard 600 "$T" run "$dir/$name.xml" $grid --timeout "$deadline" -q -o "$dir/$name.txt" "$@"
    if [ -e "$dir/$name.txt" ]; then bad "$name: an output was written after the timeout"; else ok; fi
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

# `batch` gives each entry of a list the budgets (issue 33, follow-up item 2): an entry past them
# fails with the code and message of `run`, and the other entries still run and are written.
# Memory: a 8192^2 grid (64 MiB) under 16M is refused before its first step, on any machine.
mkdir -p "$dir/bl/models"
printf '<one values="BW" in="B" out="W" steps="1"/>\n' > "$dir/bl/models/Small.xml"
cp "$dir/bl/models/Small.xml" "$dir/bl/models/Huge.xml"
printf '<models>\n  <model name="Small" size="4" amount="1" seeds="1"/>\n  <model name="Huge" size="8192" amount="1" seeds="1"/>\n  <model name="Small" size="4" amount="1" seeds="2"/>\n</models>\n' > "$dir/bl/mem.xml"
only 7 "$dir/bl/models/Huge.xml: error: a run of this model needs more than its memory budget of 16.0 MiB to start
batch: 3 entries, 1 failed" "$T" batch "$dir/bl/mem.xml" --max-memory 16M -q -o "$dir/bl/out"
[ -e "$dir/bl/out/Small_1.png" ] && [ -e "$dir/bl/out/Small_2.png" ] && [ ! -e "$dir/bl/out/Huge_1.png" ] && ok ||
    bad "batch --max-memory: the small entries should be written and the huge one not: $(ls "$dir/bl/out")"
# Time: the convolution step above (over a minute here) under --timeout 0.2 (300x), then an entry of
# one step on 4x4 cells (a millisecond here: 200x within the same deadline).
printf '%s\n' "<convolution values=\"DA\" neighborhood=\"Moore\">$(repeat 256 '<rule in="D" out="A" sum="1..8" values="A"/>')<rule in=\"D\" out=\"A\" sum=\"0..8\" values=\"A\" p=\"0.5\"/></convolution>" > "$dir/bl/models/Slow.xml"
printf '<models>\n  <model name="Slow" length="64" width="1048576" amount="1" seeds="1"/>\n  <model name="Small" size="4" amount="1" seeds="3"/>\n</models>\n' > "$dir/bl/time.xml"
only 6 "$dir/bl/models/Slow.xml: error: stopped after 0 steps: the run took longer than its timeout of 0.2 s
batch: 2 entries, 1 failed" guard 600 "$T" batch "$dir/bl/time.xml" --timeout 0.2 -q -o "$dir/bl/out"
[ -e "$dir/bl/out/Small_3.png" ] && [ ! -e "$dir/bl/out/Slow_1.png" ] && ok || bad "batch --timeout: Small_3 should be written and Slow_1 not"
expect 2 "--timeout takes a number of seconds above 0, not -1" "$T" batch "$dir/bl/time.xml" --timeout -1 -o "$dir/bl/out"
expect 2 "--max-memory takes a size such as 500M" "$T" batch "$dir/bl/time.xml" --max-memory 10 -o "$dir/bl/out"

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

# XML inputs (models, lists, tilesets) are read as bytes from a regular file, bounded, before libxml2 sees
# them (issue 33, item 2): a FIFO with no writer or /dev/zero is refused at once, neither waited on nor
# read without end. (`guard` is a hang guard only: before, the FIFO cases hung and /dev/zero grew.)
mkfifo "$dir/fifo.xml" "$W/tilesets/Fifo.xml"
only 5 "$dir/fifo.xml: error: cannot read the model: not a regular file (a device, FIFO or socket)" guard 60 "$T" run "$dir/fifo.xml"
only 5 "/dev/zero: error: cannot read the model: not a regular file (a device, FIFO or socket)" guard 60 "$T" check /dev/zero
only 5 "$dir/fifo.xml: error: cannot read the sample list: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" wfc "$dir/fifo.xml" -o "$dir/wfc_out"
only 5 "/dev/zero: error: cannot read the model list: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" batch /dev/zero -o "$dir/batch_out"
# A tile sheet file (--tiles) and its sheet image alike: refused before the run, nothing written.
printf '<sequence values="BW"><one in="B" out="W" steps="1"/></sequence>\n' > "$dir/one_step.xml"
only 5 "$dir/fifo.xml: error: cannot read the tile sheet file: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" run "$dir/one_step.xml" --size 4 --tiles "$dir/fifo.xml" -o "$dir/tiled.png"
only 5 "/dev/zero: error: cannot read the tile sheet file: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" run "$dir/one_step.xml" --size 4 --tiles /dev/zero -o "$dir/tiled.tmx"
mkfifo "$dir/fifo.png"
printf '<tiles image="fifo.png" size="2"/>\n' > "$dir/fifo_sheet.xml"
printf '<tiles image="/dev/zero" size="2"/>\n' > "$dir/zero_sheet.xml"
only 3 "$dir/fifo_sheet.xml:1: error: $dir/fifo.png: cannot read the PNG image: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" run "$dir/one_step.xml" --size 4 --tiles "$dir/fifo_sheet.xml" -o "$dir/tiled.png"
only 3 "$dir/zero_sheet.xml:1: error: /dev/zero: cannot read the PNG image: not a regular file (a device, FIFO or socket)" \
    guard 60 "$T" run "$dir/one_step.xml" --size 4 --tiles "$dir/zero_sheet.xml" -o "$dir/tiled.tmj"
if [ -e "$dir/tiled.png" ] || [ -e "$dir/tiled.tmx" ] || [ -e "$dir/tiled.tmj" ]; then bad "a map was written with a refused sheet"; else ok; fi
printf '<samples>\n  <simpletiled name="Fifo" size="4"/>\n</samples>\n' > "$dir/fifo_set.xml"
expect 3 "fifo_set.xml:2: error: $W/tilesets/Fifo.xml: cannot read the tileset: not a regular file" \
    guard 60 "$T" wfc "$dir/fifo_set.xml" --samples "$W" -o "$dir/wfc_out"
ln -s /dev/zero "$W/tilesets/Zero.xml"
printf '<samples>\n  <simpletiled name="Zero" size="4"/>\n</samples>\n' > "$dir/zero_set.xml"
expect 3 "zero_set.xml:2: error: .*tilesets/Zero.xml leaves the samples folder" \
    guard 60 "$T" wfc "$dir/zero_set.xml" --samples "$W" -o "$dir/wfc_out"
# A model's tileset: a link out of the resource root is refused with the node's line, one that stays
# inside is read (and its own errors keep its name and line); a FIFO is not a tileset.
R="$dir/model_res"
mkdir -p "$R/tilesets"
printf "$set_xml" > "$R/tilesets/Real.xml"
ln -s "$dir/outside/set.xml" "$R/tilesets/Out.xml"
ln -s Real.xml "$R/tilesets/In.xml"
mkfifo "$R/tilesets/Pipe.xml"
tile_model() { printf '<sequence values="BW">\n  <one in="B" out="W"/>\n  <wfc values="BW" tileset="%s">\n    <rule in="B" out="a"/>\n  </wfc>\n</sequence>\n' "$1" > "$dir/tile_$1.xml"; }
tile_model Out
expect 3 "tile_Out.xml:3: error: tileset \"Out\" leaves the resource folder .*--allow-any-path" \
    guard 60 "$T" check "$dir/tile_Out.xml" --resources "$R"
tile_model Pipe
expect 3 "tile_Pipe.xml:3: error: tileset \"Pipe\" not found" guard 60 "$T" check "$dir/tile_Pipe.xml" --resources "$R"
printf '<set size="1">\n  <tiles>\n    <tile name="a" symmetry="X"/></oops>\n  </tiles>\n</set>\n' > "$R/tilesets/Real.xml"
tile_model In
expect 3 "tile_In.xml:3: error: tileset .*tilesets/In.xml line 3: malformed XML: Opening and ending tag mismatch" \
    guard 60 "$T" check "$dir/tile_In.xml" --resources "$R"

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
# size wrap past the cell cap, and runs on grids of 17 and 31 wrote outside the cells (a segfault). A gap
# wider than the cell cap is now refused as it is read, on every grid, with the node's line.
crashes=0
for size in $(seq 2 64); do
    out=$("$T" run tests/badinput/wfc_tile_negative_overlap.xml --resources tests/badinput --size $size -q -o "$dir/overlap.png" 2>&1)
    rc=$?
    case $rc:$out in
    3:*"wfc_tile_negative_overlap.xml:2: error: overlap=\"-2147483600\" of <wfc> must lie between -268435456 and 268435456"*) ;;
    *) crashes=$((crashes + 1)); echo "size $size: exit $rc: $out" ;;
    esac
done
[ "$crashes" = 0 ] && [ ! -e "$dir/overlap.png" ] && ok || bad "a negative overlap: $crashes of 63 sizes not refused at load"

# view reads the header of its file before the rest, from the descriptor that opened it, and only a regular
# file (issue 33, item 15: `view /dev/zero` grew to 2 GB): a device, a FIFO with no writer and a big file that
# is not a trace are refused at once, and no page is written.
expect 5 "/dev/zero: error: not a trace: not a regular file" guard 300 "$T" view /dev/zero -o "$dir/zero.html"
mkfifo "$dir/pipe.trace"
expect 5 "pipe.trace: error: not a trace: not a regular file" guard 300 "$T" view "$dir/pipe.trace" -o "$dir/pipe.html"
truncate -s 300M "$dir/big.trace"   # sparse: no disk used
expect 5 "big.trace: error: not a valid trace: no trace header" "$T" view "$dir/big.trace" -o "$dir/big.html"
rm -f "$dir/big.trace"
[ ! -e "$dir/zero.html" ] && [ ! -e "$dir/pipe.html" ] && [ ! -e "$dir/big.html" ] && ok || bad "a refused view wrote a page"

# Two outputs given one file are refused before the run (issue 33, item 11: both were written, one replacing
# the other, exit 0): the same name, the same name after "./" and doubled slashes, and two names of one existing
# file (a hard link); nothing is written. Two recordings into /dev/null stay allowed.
M=models/maze.xml
expect 2 "smalti: --gif $dir/f.gif and --trace $dir/f.gif name one file" "$T" run "$M" --size 9 -q --gif "$dir/f.gif" --trace "$dir/f.gif"
expect 2 "smalti: -o $dir/x.png and --trace $dir/./x.png name one file" "$T" run "$M" --size 9 -q -o "$dir/x.png" --trace "$dir/./x.png"
expect 2 "smalti: -o $dir//y.png and --trace $dir/y.png name one file" "$T" run "$M" --size 9 -q -o "$dir//y.png" --trace "$dir/y.png"
[ ! -e "$dir/f.gif" ] && [ ! -e "$dir/x.png" ] && [ ! -e "$dir/y.png" ] && ok || bad "refused outputs were written"
echo old > "$dir/h1.txt" && ln "$dir/h1.txt" "$dir/h2.txt"
expect 2 "smalti: -o $dir/h1.txt and --trace $dir/h2.txt name one file" "$T" run "$M" --size 9 -q -o "$dir/h1.txt" --trace "$dir/h2.txt"
[ "$(cat "$dir/h1.txt")" = old ] && ok || bad "a refused run wrote its hard-linked outputs"
expect 0 "" "$T" run "$M" --size 9 -q -o /dev/null --gif /dev/null --trace /dev/null

# --max-memory bounds the whole command (issue 33, items 8 and 9): the pictures drawn, a pack's
# unpacking, the model's XML tree and `wfc`. Each case is refused (exit 7, the budget named, nothing
# written) with a peak far below what it took before (in the comments, measured here); the peak is
# the process's resident high-water mark, which does not depend on the machine's speed. `ulimit -v`
# keeps a case from taking gigabytes should the budget fail to hold. Under AddressSanitizer, which maps
# terabytes of shadow memory and keeps freed blocks in quarantine, neither the limit nor the peak means
# anything: there the exit code, the message and the missing output are checked, and the peak is not.
case $T in *asan*) vlimit=unlimited peak_checked=no ;; *) vlimit=3000000 peak_checked=yes ;; esac
if [ -x /usr/bin/time ]; then
within() { # BOUND_MIB CODE PATTERN OUTPUT command...: exit code, message, no OUTPUT, peak under BOUND
    bound=$1 code=$2 pattern=$3 output=$4; shift 4
    expect "$code" "$pattern" sh -c 'ulimit -v "$1"; shift; exec /usr/bin/time -f "%M" -o "$0" "$@"' "$dir/peak" "$vlimit" "$@"
    [ ! -e "$output" ] && ok || bad "$*: wrote $output"
    [ "$peak_checked" = no ] && return
    peak=$(tail -n 1 "$dir/peak")
    [ "$peak" -lt $((bound * 1024)) ] 2>/dev/null && ok || bad "$*: peak $peak KiB, above $bound MiB"
}
budget_said='needed more than the memory budget of 10.0 MiB (--max-memory)'
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/cube.xml"
# The isometric picture of a 100^3 grid in cubes of 28 pixels: 262 MB as a GIF, 136 MB as a PNG.
within 60 7 "$budget_said" "$dir/cube.gif" \
    "$T" run "$dir/cube.xml" --size 100 --dim 3 --steps 3 --pixel-size 28 --max-memory 10M --gif "$dir/cube.gif" -q
within 60 7 "$budget_said" "$dir/cube.png" \
    "$T" run "$dir/cube.xml" --size 100 --dim 3 --steps 3 --pixel-size 28 --max-memory 10M -o "$dir/cube.png" -q
# Many runs on threads: each thread's run and the picture it draws (267 MB before).
within 60 7 'seed 2: out of memory drawing the isometric image' "$dir/many/2.png" \
    "$T" run "$dir/cube.xml" --size 100 --dim 3 --steps 3 --pixel-size 28 --max-memory 10M --seeds 1..4 -j 2 -o "$dir/many/{seed}.png" -q
# 1000 entries of 1 MiB (zeros after 1200 random bytes: under the ratio check) in a zip of 2.5 MB:
# 1 GB and exit 0 before, for run and pack check alike.
python3 -c 'import random, sys, zipfile
r = random.Random(1)
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("pack.xml", "<pack name=\"bomb\" version=\"1.0.0\" description=\"d\" license=\"CC0-1.0\" smalti=\"0.1.0\">"
               "<author name=\"T\"/><model file=\"models/dots.xml\" title=\"Dots\" size=\"12\"/></pack>")
    z.writestr("models/dots.xml", "<one values=\"BW\" in=\"B\" out=\"W\"/>\n")
    for i in range(1000):
        z.writestr("resources/z%04d.bin" % i, bytes(r.getrandbits(8) for _ in range(1200)) + bytes(1048576 - 1200))' "$dir/wide.zip"
within 60 7 "wide.zip: error: $budget_said" "$dir/wide.txt" \
    "$T" run "$dir/wide.zip" dots --max-memory 10M -q -o "$dir/wide.txt"
within 60 7 "wide.zip: error: $budget_said" "$dir/nothing" "$T" pack check "$dir/wide.zip" --max-memory 10M
within 60 7 "wide.zip: error: $budget_said" "$dir/wide.html" \
    "$T" pack gallery "$dir/wide.zip" --max-memory 10M -o "$dir/wide.html"
# A model of 6 MB (260,000 rules): 215 MB under --max-memory 20M before, its XML tree uncounted.
awk 'BEGIN { print "<one values=\"BW\">"; for (i = 0; i < 260000; i++) print "<rule in=\"B\" out=\"W\"/>"; print "</one>" }' \
    > "$dir/rules6.xml"
within 60 7 'rules6.xml:[0-9]*: error: loading the model needed more than its memory budget of 20.0 MiB$' "$dir/rules6.png" \
    "$T" run "$dir/rules6.xml" --max-memory 20M -q -o "$dir/rules6.png"
lacks 'parser error' "$T" check "$dir/rules6.xml" --max-memory 20M
# wfc: an 800^2 output of Flowers (N=3, 103 patterns) wants some 390 MB and minutes of tries.
W2=$dir/wfc_big
mkdir -p "$W2/samples" && cp "${SMALTI_MJ_CORPUS:-../shared/mj}/../wfc/samples/Flowers.png" "$W2/samples/" 2>/dev/null ||
    printf '' > "$W2/missing"
if [ ! -e "$W2/missing" ]; then
    printf '<samples><overlapping name="Flowers" N="3" symmetry="2" size="800" periodic="True"/></samples>\n' > "$dir/big_wfc.xml"
    within 100 7 "big_wfc.xml: error: needed more than the memory budget of 50.0 MiB (--max-memory)" "$dir/wfc_mem/Flowers N3 0.png" \
        "$T" wfc "$dir/big_wfc.xml" --samples "$W2" --runs 1 --max-memory 50M -q -o "$dir/wfc_mem"
    # Each try takes some 20 s here, and ten are allowed: a machine would have to be 400 times faster
    # than this one to finish before the deadline of 0.5 s. The guard only catches a deadline ignored.
    # (Loading takes some 0.3 s of it here: a slower machine may stop there, which is as good.)
    expect 6 'big_wfc.xml:1: error: stopped \(loading\|solving\) Flowers N3: the command took longer than its timeout of 0.5 s' \
        guard 600 "$T" wfc "$dir/big_wfc.xml" --samples "$W2" --runs 1 --timeout 0.5 -q -o "$dir/wfc_time"
    [ -z "$(ls "$dir/wfc_time" 2>/dev/null)" ] && ok || bad "wfc wrote an output after its timeout"
    # On two threads, at 400^2 (a try of some 3.4 s here, ten allowed per output: 68 times the deadline),
    # no thread draws the output it was stopped in.
    printf '<samples><overlapping name="Flowers" N="3" symmetry="2" size="400" periodic="True"/></samples>\n' > "$dir/mid_wfc.xml"
    expect 6 'mid_wfc.xml:1: error: stopped \(loading\|solving\) Flowers N3: the command took longer than its timeout of 0.5 s' \
        guard 600 "$T" wfc "$dir/mid_wfc.xml" --samples "$W2" --runs 2 -j 2 --timeout 0.5 -q -o "$dir/wfc_time2"
    [ -z "$(ls "$dir/wfc_time2" 2>/dev/null)" ] && ok || bad "wfc -j 2 wrote an output after its timeout"
    # The load is checked too (issue 33): with ground, the start wave of 800^2 (the ground's bans on
    # every cell and their propagation, in one go) takes some 1.4 s here, 280 times the deadline.
    printf '<samples><overlapping name="Flowers" N="3" symmetry="2" ground="True" size="800" periodic="True"/></samples>\n' \
        > "$dir/ground_wfc.xml"
    for jobs in 1 2; do
        expect 6 'ground_wfc.xml:1: error: stopped loading Flowers N3: the command took longer than its timeout of 0.005 s' \
            guard 600 "$T" wfc "$dir/ground_wfc.xml" --samples "$W2" --runs 2 -j $jobs --timeout 0.005 -q -o "$dir/wfc_time3"
        [ -z "$(ls "$dir/wfc_time3" 2>/dev/null)" ] && ok || bad "wfc -j $jobs wrote an output after a timeout while loading"
    done
    # -j 2 under a budget that holds one solver of 64^2 but not two: one thread, said once (not with -q).
    printf '<samples><overlapping name="Flowers" N="3" symmetry="2" size="64" periodic="True"/></samples>\n' > "$dir/small_wfc.xml"
    expect 0 'small_wfc.xml:1: note: Flowers N3 on 1 thread instead of 2: another solver would pass the memory budget of 12.0 MiB' \
        "$T" wfc "$dir/small_wfc.xml" --samples "$W2" --runs 2 -j 2 --max-memory 12M -o "$dir/wfc_notes"
    [ -e "$dir/wfc_notes/Flowers N3 0.png" ] && [ -e "$dir/wfc_notes/Flowers N3 1.png" ] && ok || bad "wfc -j 2 under a budget: outputs missing"
    [ "$("$T" wfc "$dir/small_wfc.xml" --samples "$W2" --runs 2 -j 2 --max-memory 12M -o "$dir/wfc_notes" 2>&1 | grep -c note:)" = 1 ] &&
        ok || bad "wfc -j 2 under a budget: not one note"
    lacks 'note:' "$T" wfc "$dir/small_wfc.xml" --samples "$W2" --runs 2 -j 2 --max-memory 12M -q -o "$dir/wfc_notes"
else
    echo "harden: no ../shared/wfc/samples/Flowers.png, the big wfc cases skipped"
fi
expect 2 '--max-memory takes a size such as 500M or 2G (at least 1M), not 10' "$T" wfc "$dir/big_wfc.xml" --max-memory 10
expect 2 '--timeout takes a number of seconds above 0, not 0' "$T" wfc "$dir/big_wfc.xml" --timeout 0
expect 0 'default 2G' "$T" help pack check
expect 0 'default 2G' "$T" help pack gallery
else
    echo "harden: no /usr/bin/time, the memory budget cases skipped"
fi

# Every integer attribute of every node kind, at the edges of int (issue 33, item 1's siblings): each
# value either loads and runs within the step limit, or is refused at load with file:line, exit 3 (or, for a
# requirement that cannot hold, stops with exit 9 at its line).
# Never a crash, a hang or exit 2. The grid is small and the steps few, so each run is bounded.
int_edges="-2147483648 -2147483600 -268435456 -1 0 1 2147483647"
int_sweep() { # LABEL MODEL-WITH-@V@ [run options...]: the model tried with each edge value (resources: tests/badinput)
    label=$1 model=$2; shift 2
    for v in $int_edges; do
        printf '%s\n' "$model" | sed "s/@V@/$v/g" > "$dir/edge.xml"
        rm -f "$dir/edge.png"
        out=$(guard 300 "$T" run "$dir/edge.xml" --steps 50 -q -o "$dir/edge.png" "$@" 2>&1)
        rc=$?
        case $rc:$out in
        0:) [ -s "$dir/edge.png" ] || { echo "$label=$v: exit 0 but no picture"; edge_bad=$((edge_bad + 1)); } ;;
        3:"$dir/edge.xml:"[1-9]*": error: "* | 9:"$dir/edge.xml:"[1-9]*": error: "*) # refused, or a requirement that cannot hold
            [ ! -e "$dir/edge.png" ] || { echo "$label=$v: refused, yet a picture"; edge_bad=$((edge_bad + 1)); } ;;
        *) echo "$label=$v: exit $rc: $out"; edge_bad=$((edge_bad + 1)) ;;
        esac
        edge_runs=$((edge_runs + 1))
    done
}
edge_bad=0 edge_runs=0
for a in size length width height d steps seed pixelsize; do
    int_sweep "smalti $a" "<sequence values=\"BW\"><smalti $a=\"@V@\"/><one in=\"B\" out=\"W\"/></sequence>" --resources tests/badinput
done
for k in one all prl; do int_sweep "$k steps" "<$k values=\"BW\" in=\"B\" out=\"W\" steps=\"@V@\"/>" --size 8 --resources tests/badinput; done
int_sweep "search limit" '<sequence values="BWI"><one in="B" out="W" steps="2"/><one in="B" out="I" steps="2"/><one in="WB" out="BW" search="True" limit="@V@"><observe value="I" from="B" to="W"/><observe value="B" to="BW"/><observe value="W" to="BW"/></one></sequence>' --size 3 --resources tests/badinput
for a in n steps; do
    int_sweep "convchain $a" "<sequence values=\"BDA\"><convchain sample=\"Tiny\" on=\"B\" black=\"D\" white=\"A\" $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput
done
int_sweep "convolution steps" '<sequence values="DA"><one in="D" out="A" steps="9"/><convolution neighborhood="Moore" steps="@V@"><rule in="D" out="A" values="A" sum="3"/></convolution></sequence>' --size 8 --resources tests/badinput
int_sweep "voronoi sites" '<sequence values="BWR"><voronoi sites="@V@" values="WR"/></sequence>' --size 8 --resources tests/badinput
int_sweep "voronoi steps" '<sequence values="BWR"><voronoi sites="3" steps="@V@" values="WR"/></sequence>' --size 8 --resources tests/badinput
for a in k steps; do int_sweep "poisson $a" "<sequence values=\"BT\"><poisson value=\"T\" radius=\"2\" $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput; done
for a in octaves steps; do int_sweep "noise $a" "<sequence values=\"BW\"><noise $a=\"@V@\"><band value=\"W\"/></noise></sequence>" --size 8 --resources tests/badinput; done
for a in width maxLength axiomLength steps; do
    int_sweep "lsystem $a" "<sequence values=\"BW\"><lsystem axiom=\"F+F\" iterations=\"1\" $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput
done
int_sweep "lsystem iterations" '<sequence values="BW"><lsystem axiom="F+F" iterations="@V@"/></sequence>' --size 8 --resources tests/badinput
for a in maxRunners steps x y count life; do
    int_sweep "runner $a" "<sequence values=\"DB\"><runner value=\"B\" $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput
done
for a in block intervals points; do
    int_sweep "growgrid $a" "<sequence values=\"BW\"><growgrid shape=\"Disc\" $a=\"@V@\"/></sequence>" --size 8 --resources models/resources
done
for a in n tries backtrack densityPower; do
    int_sweep "wfc (overlap) $a" "<sequence values=\"BW\"><wfc values=\"AB\" sample=\"Tiny\" $a=\"@V@\"/></sequence>" --size 4 --resources tests/badinput
done
for a in overlap overlapz tries; do
    int_sweep "wfc (tiles) $a" "<sequence values=\"BW\"><wfc values=\"ABC\" tileset=\"Fine\" tiles=\"Bad\" $a=\"@V@\"/></sequence>" --size 2 --resources tests/badinput
done
int_sweep "map scale" '<sequence values="BW"><one in="B" out="W" steps="1"/><map scale="@V@ 1 1" values="BW"/></sequence>' --size 4 --resources tests/badinput
int_sweep "map scale's divisor" '<sequence values="BW"><one in="B" out="W" steps="1"/><map scale="1/@V@ 1 1" values="BW"/></sequence>' --size 4 --resources tests/badinput
# Issue 35 and 36's integers: a requirement's tries and bounds, path costs, poisson radii, the new
# runner options, and a parameter's value substituted into an integer attribute.
for a in tries min max; do
    extra='count="W"'; [ "$a" = tries ] && extra='connected="W"'
    int_sweep "require $a" "<sequence values=\"BW\"><one in=\"B\" out=\"W\" steps=\"2\"/><require $extra $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput
done
int_sweep "path costs" '<sequence values="BWRG"><one in="B" out="W" steps="1"/><one in="B" out="R" steps="1"/><path from="W" to="R" on="B" color="G" costs="B@V@"/></sequence>' --size 8 --resources tests/badinput
int_sweep "poisson radii" '<sequence values="BT"><poisson value="T" radius="2" radii="B@V@"/></sequence>' --size 8 --resources tests/badinput
for a in margin children generations heading; do
    extra=; [ "$a" = margin ] && extra='offgrid="wander"'
    int_sweep "runner $a" "<sequence values=\"DB\"><runner value=\"B\" life=\"5\" $extra $a=\"@V@\"/></sequence>" --size 8 --resources tests/badinput
done
int_sweep "param into steps" '<sequence values="BW"><smalti><param name="n" value="@V@"/></smalti><one in="B" out="W" steps="{n}"/></sequence>' --size 8 --resources tests/badinput
int_sweep "runner x and y" '<sequence values="DB"><runner value="B" x="@V@" y="@V@"/></sequence>' --size 8 --resources tests/badinput
# The same for the lists: models.xml entries (smalti batch) and samples.xml entries (smalti wfc). Exit 0
# must leave outputs (amount="0" and screenshots="0" ask for none), a refusal (3, file:line) none.
list_sweep() { # LABEL LIST-WITH-@V@ OUTDIR command...: the list tried with each edge value
    label=$1 list=$2 out_dir=$3; shift 3
    for v in $int_edges; do
        printf '%s\n' "$list" | sed "s/@V@/$v/g" > "$dir/edge_list.xml"
        rm -rf "$out_dir"
        out=$(guard 300 "$@" 2>&1)
        rc=$?
        made=$(find "$out_dir" -type f 2>/dev/null | wc -l)
        case $rc:$out in
        0:*) case "$label=$v" in "models.xml amount=0" | "samples.xml screenshots=0") made=1 ;; esac
             [ "$made" -gt 0 ] || { echo "$label=$v: exit 0 but no output"; edge_bad=$((edge_bad + 1)); } ;;
        3:"$dir/edge_list.xml:"[1-9]*": error: "*) [ "$made" = 0 ] || { echo "$label=$v: refused, yet outputs"; edge_bad=$((edge_bad + 1)); } ;;
        *) echo "$label=$v: exit $rc: $out"; edge_bad=$((edge_bad + 1)) ;;
        esac
        edge_runs=$((edge_runs + 1))
    done
}
mkdir -p "$dir/edge_models"
printf '<sequence values="BW"><one in="B" out="W"/></sequence>\n' > "$dir/edge_models/Fill.xml"
for a in size length width height d amount pixelsize steps seeds; do
    extra='size="4"'; [ "$a" = size ] && extra=
    list_sweep "models.xml $a" "<models><model name=\"Fill\" $extra $a=\"@V@\"/></models>" "$dir/edge_batch" \
        "$T" batch "$dir/edge_list.xml" --models "$dir/edge_models" -q -o "$dir/edge_batch"
done
for a in size width height N symmetry screenshots seed limit backtrack densityPower; do
    extra='size="4"'; [ "$a" = size ] && extra=; [ "$a" = N ] || extra="$extra N=\"2\""; [ "$a" = screenshots ] || extra="$extra screenshots=\"1\""
    list_sweep "samples.xml $a" "<samples><overlapping name=\"Tiny\" $extra $a=\"@V@\"/></samples>" "$dir/edge_wfc" \
        "$T" wfc "$dir/edge_list.xml" --samples tests/badinput -q -o "$dir/edge_wfc"
done
[ "$edge_bad" = 0 ] && ok || bad "integer attributes at the edges of int: $edge_bad of $edge_runs runs crashed, hung or exited wrongly"

# A picture too large for PNG is refused before the run, as a model error, not after the whole run with
# exit 2 (issue 33, item 13): one line, no step-limit note. So is a grid too large for a node's rules.
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/fill.xml"
only 3 "$dir/big.png: error: image of 80000x80000 pixels is too large; lower --pixel-size" \
    "$T" run "$dir/fill.xml" --size 16000 --pixel-size 5 --steps 10 -o "$dir/big.png"
{ printf '<one values="BW">\n'; for i in $(seq 17); do printf '  <rule in="B" out="W"/>\n'; done; printf '</one>\n'; } > "$dir/rules17.xml"
only 3 "$dir/rules17.xml:1: error: the grid is too large for a node with 17 rules" "$T" check "$dir/rules17.xml" --size 16384

# libxml2's message on a model that is not UTF-8 goes on to a second line ("Bytes: ..."): it is one
# file:line: message line (issue 33, item 13).
printf '<one values="BW" in="B" out="W" comment="\351\377"/>\n' > "$dir/latin1.xml"
only 3 "$dir/latin1.xml:1: error: malformed XML: Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0xFF 0x22 0x2F" \
    "$T" run "$dir/latin1.xml" --size 4 -q

finish harden
