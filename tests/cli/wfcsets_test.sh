#!/bin/sh
# wfcsets_test.sh — `smalti wfc` with propagation="sets" / --propagation sets: bad values and the combinations
# it does not take (backtracking, blocks, more than 256 patterns) refused at the entry's line or as a usage error;
# outputs written, the same for the attribute and the option and for -j 2 and one thread; propagation="counts"
# and --propagation counts write what no option writes.
# Usage: wfcsets_test.sh ./smalti   (the classic samples: SMALTI_WFC_SAMPLES, default ../shared/wfc)
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
W=${SMALTI_WFC_SAMPLES:-../shared/wfc}
if [ ! -f "$W/samples/Flowers.png" ]; then
    echo "cli wfcsets: skipped: $W (the classic WaveFunctionCollapse samples) not found"
    exit 0
fi

printf '<samples>\n\n  <simpletiled name="Summer" size="16" propagation="bits"/>\n</samples>\n' > "$dir/bits.xml"
expect 3 "bits.xml:3: error: propagation=\"bits\": use counts or sets" "$T" wfc "$dir/bits.xml" --samples "$W" -o "$dir/out"
printf '<samples>\n  <simpletiled name="Summer" size="16"/>\n</samples>\n' > "$dir/summer.xml"
expect 2 "--propagation bits: expected counts or sets" "$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/out" --propagation bits
expect 2 "--propagation : expected counts or sets" "$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/out" --propagation
printf '<samples>\n  <simpletiled name="Summer" size="16" propagation="sets" backtrack="2"/>\n</samples>\n' > "$dir/back.xml"
expect 3 "back.xml:2: error: propagation=\"sets\" cannot backtrack (backtrack=\"2\")" "$T" wfc "$dir/back.xml" --samples "$W" -o "$dir/out"
expect 3 "summer.xml:2: error: propagation=\"sets\" cannot backtrack (backtrack=\"3\")" \
    "$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/out" --propagation sets --backtrack 3
expect 3 "summer.xml:2: error: propagation=\"sets\" cannot solve in blocks (blocks=\"8\")" \
    "$T" wfc "$dir/summer.xml" --samples "$W" -o "$dir/out" --propagation sets --blocks 8
# Flowers with all 8 symmetries has 258 patterns: more than sets of 4 words hold.
printf '<samples>\n  <overlapping name="Flowers" N="3" size="24" propagation="sets"/>\n</samples>\n' > "$dir/many.xml"
expect 3 "many.xml:2: error: propagation=\"sets\" takes at most 256 patterns, this entry has 258" "$T" wfc "$dir/many.xml" --samples "$W" -o "$dir/out"

# Outputs: the attribute and the option agree, and so do -j 2 and one thread.
cat > "$dir/sets.xml" <<'XML'
<samples>
  <overlapping name="Flowers" N="3" symmetry="2" ground="True" periodic="True" size="40" screenshots="3" propagation="sets"/>
  <simpletiled name="Knots" subset="Standard" periodic="True" size="16" screenshots="2" textOutput="True" propagation="sets"/>
</samples>
XML
sed 's/ propagation="sets"//' "$dir/sets.xml" > "$dir/plain.xml"
expect 0 "Knots Standard 1.png .* done" "$T" wfc "$dir/sets.xml" --samples "$W" -o "$dir/attr"
[ "$(ls "$dir/attr" | grep -c '\.png$')" = 5 ] && ok || bad "sets wrote: $(ls "$dir/attr")"
"$T" wfc "$dir/plain.xml" --samples "$W" -o "$dir/option" -q --propagation sets
diff -r "$dir/attr" "$dir/option" >/dev/null && ok || bad "propagation=\"sets\" and --propagation sets wrote different files"
"$T" wfc "$dir/sets.xml" --samples "$W" -o "$dir/j2" -q -j 2
diff -r "$dir/attr" "$dir/j2" >/dev/null && ok || bad "sets with -j 2 wrote other files than one thread"
# Counts, by name or by default, are today's outputs; --propagation overrides an entry's attribute.
"$T" wfc "$dir/plain.xml" --samples "$W" -o "$dir/plain" -q
"$T" wfc "$dir/plain.xml" --samples "$W" -o "$dir/counts" -q --propagation counts
"$T" wfc "$dir/sets.xml" --samples "$W" -o "$dir/back_to_counts" -q --propagation counts
diff -r "$dir/plain" "$dir/counts" >/dev/null && diff -r "$dir/plain" "$dir/back_to_counts" >/dev/null && ok ||
    bad "--propagation counts changed the default outputs"
finish wfcsets
