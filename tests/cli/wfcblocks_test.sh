#!/bin/sh
# wfcblocks_test.sh — `smalti wfc` in blocks (blocks="B", --blocks B): bad sides refused at their line or as a
# usage error; a tileset that contradicts whole on every seed writes every output in blocks; -j and one thread
# write the same files; an entry without blocks writes what it wrote before (--blocks 0 changes nothing).
# Usage: wfcblocks_test.sh ./smalti   (the classic samples: SMALTI_WFC_SAMPLES, default ../shared/wfc)
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
W=${SMALTI_WFC_SAMPLES:-../shared/wfc}
if [ ! -f "$W/tilesets/Summer.xml" ]; then
    echo "cli wfcblocks: skipped: $W (the classic WaveFunctionCollapse samples) not found"
    exit 0
fi

printf '<samples>\n\n  <simpletiled name="Summer" size="32" blocks="2"/>\n</samples>\n' > "$dir/small.xml"
expect 3 "small.xml:3: error: blocks=\"2\" must be 0 (none) or from 4 to 4096" "$T" wfc "$dir/small.xml" --samples "$W" -o "$dir/out"
printf '<samples>\n  <simpletiled name="Summer" size="32" blocks="-5"/>\n</samples>\n' > "$dir/negative.xml"
expect 3 "negative.xml:2: error: blocks=\"-5\" must be 0 (none)" "$T" wfc "$dir/negative.xml" --samples "$W" -o "$dir/out"
printf '<samples>\n  <simpletiled name="Summer" size="32" blocks="many"/>\n</samples>\n' > "$dir/word.xml"
expect 3 "word.xml:2: error: attribute blocks=\"many\"" "$T" wfc "$dir/word.xml" --samples "$W" -o "$dir/out"
expect 2 "--blocks 3: expected 0 (none) or an integer from 4 to 4096" "$T" wfc "$dir/small.xml" --samples "$W" -o "$dir/out" --blocks 3
expect 2 "--blocks 5000: expected an integer from 0 to 4096" "$T" wfc "$dir/small.xml" --samples "$W" -o "$dir/out" --blocks 5000

# Summer 32x32 contradicts on each of seeds 1-4 solved whole (one try each); in blocks of 16 all four are written.
printf '<samples>\n  <simpletiled name="Summer" size="32" screenshots="4" textOutput="True"/>\n</samples>\n' > "$dir/summer.xml"
out=$("$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/whole" --tries 1 2>&1)
[ "$(printf '%s\n' "$out" | grep -c 'contradiction, nothing written')" = 4 ] && ok || bad "Summer 32 whole: expected 4 contradictions: $out"
expect 0 "Summer 3.png .* done" "$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/blocks" --tries 1 --blocks 16
[ "$(ls "$dir/blocks" | grep -c '\.png$')" = 4 ] && [ "$(grep -c . "$dir/blocks/Summer 0.txt")" = 32 ] && ok || bad "blocks: $(ls "$dir/blocks")"
"$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/blocks_j2" --tries 1 --blocks 16 -j 2 -q
diff -r "$dir/blocks" "$dir/blocks_j2" >/dev/null && ok || bad "blocks -j 2 wrote other files than one thread"
# --blocks 0 is the whole wave: the same outputs as no option.
printf '<samples>\n  <overlapping name="Flowers" N="3" symmetry="2" size="40" screenshots="2"/>\n</samples>\n' > "$dir/flowers.xml"
"$T" wfc "$dir/flowers.xml" --samples "$W" -o "$dir/plain" -q
"$T" wfc "$dir/flowers.xml" --samples "$W" -o "$dir/zero" -q --blocks 0
diff -r "$dir/plain" "$dir/zero" >/dev/null && [ "$(ls "$dir/plain" | wc -l)" = 2 ] && ok || bad "--blocks 0 changed the outputs"
"$T" wfc "$dir/flowers.xml" --samples "$W" -o "$dir/blocked" -q --blocks 8
cmp -s "$dir/plain/Flowers N3 0.png" "$dir/blocked/Flowers N3 0.png" && bad "--blocks 8 drew the whole wave's picture" || ok
finish wfcblocks
