#!/bin/sh
# values_test.sh — how many values a model may have, from the command: the bundled voronoi town's 42
# (its grid holds values past 31), 64 with smalti's nodes, 65 refused; a MarkovJunior model's 31.
# Usage: values_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

S='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#+'
# The town: every one of its 40 sites a different tile type, so the grid holds values 32 to 41 too.
if "$T" run models/voronoi_town.xml -q -o "$dir/town.txt"; then ok; else bad "models/voronoi_town.xml did not run"; fi
legend=$(sed -n 's/^legend //p' "$dir/town.txt")
[ "${#legend}" = 42 ] && ok || bad "the town's legend is '$legend', not 42 symbols"
high=$(printf '%s' "$legend" | cut -c33-)   # values 32 to 41
rows=$(sed -n '/^size /,$p' "$dir/town.txt" | tail -n +2)
n=$(printf '%s\n' "$rows" | tr -cd "$high" | wc -c)
[ "$n" -gt 0 ] && ok || bad "no cell of the town holds a value past 31 ($high)"

printf '<sequence values="%s">\n  <voronoi sites="64" values="%s" distinct="True"/>\n</sequence>\n' "$S" "$S" > "$dir/v64.xml"
expect 0 "" "$T" run "$dir/v64.xml" -q --size 16 -o "$dir/v64.txt"
printf '<sequence values="%s!">\n  <voronoi sites="3" values="AB"/>\n</sequence>\n' "$S" > "$dir/v65.xml"
only 3 "$dir/v65.xml:1: error: too many values (at most 64)" "$T" check "$dir/v65.xml"
# A model of MarkovJunior's nodes only: the reference's int waves hold 31 values.
printf '<one values="%s" in="A" out="B"/>\n' "$(printf '%s' "$S" | cut -c1-32)" > "$dir/mj32.xml"
only 3 "$dir/mj32.xml:1: error: too many values (at most 31, as in MarkovJunior; 64 in a model that uses one of smalti's own nodes)" \
    "$T" check "$dir/mj32.xml"
printf '<one values="%s" in="A" out="B"/>\n' "$(printf '%s' "$S" | cut -c1-31)" > "$dir/mj31.xml"
expect 0 "" "$T" run "$dir/mj31.xml" -q --size 8 -o "$dir/mj31.txt"
finish values
