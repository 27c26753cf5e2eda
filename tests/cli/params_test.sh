#!/bin/sh
# params_test.sh — a model's parameters (<param> in <smalti>, {name} in attributes): --set on run and
# check, check's listing, mistakes as file:line with "did you mean". Usage: params_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

cat > "$dir/rooms.xml" <<'XML'
<sequence values="BW">
  <smalti length="{side}" width="3" steps="100">
    <param name="side" value="8"/>
    <param name="rooms" value="2"/>
  </smalti>
  <one in="B" out="W" steps="{rooms}"/>
</sequence>
XML

# Defaults: the settings' {side} and the node's {rooms}.
expect 0 '^grid 8 3 1$' "$T" run "$dir/rooms.xml"
whites() { "$T" run "$dir/rooms.xml" -q "$@" | sed '1,/^size/d' | tr -cd W | wc -c; }
n=$(whites)
if [ "$n" -eq 2 ]; then ok; else bad "the default rooms=2 made $n white cells"; fi
# --set: in the settings and in the nodes, on run and check.
expect 0 '^grid 11 3 1$' "$T" run "$dir/rooms.xml" --set side=11
n=$(whites --set rooms=6 --set side=11)
if [ "$n" -eq 6 ]; then ok; else bad "--set rooms=6 made $n white cells"; fi
# check lists the parameters, an overridden one with its default; a model without them lists none.
only 0 "$(printf '%s\n%s' "$dir/rooms.xml: ok (2 nodes, values BW)" "params: side=8, rooms=2")" "$T" check "$dir/rooms.xml"
expect 0 '^params: side=8, rooms=9 (default 2)$' "$T" check "$dir/rooms.xml" --set rooms=9
sed '/param/d; s/{side}/8/; s/{rooms}/2/' "$dir/rooms.xml" > "$dir/plain.xml"
only 0 "$dir/plain.xml: ok (2 nodes, values BW)" "$T" check "$dir/plain.xml"
# ... and the defaults give the grid the plain model gives.
"$T" run "$dir/rooms.xml" -q --seed 4 | sed 1d > "$dir/a.txt"
"$T" run "$dir/plain.xml" -q --seed 4 | sed 1d > "$dir/b.txt"
if cmp -s "$dir/a.txt" "$dir/b.txt"; then ok; else bad "the defaults differ from the values written out"; fi

# Mistakes: an override of an undeclared parameter (usage, exit 2), a reference to one (model, exit 3, file:line).
expect 2 "error: cannot set the parameter 'room': the model declares no such parameter; did you mean 'rooms'?" \
    "$T" run "$dir/rooms.xml" --set room=3
expect 2 "cannot set the parameter 'room'" "$T" check "$dir/rooms.xml" --set room=3
sed 's/{rooms}/{roms}/' "$dir/rooms.xml" > "$dir/typo.xml"
expect 3 "typo.xml:6: error: {roms} in steps=\"{roms}\" of <one>: no parameter 'roms' is declared; did you mean 'rooms'?" \
    "$T" check "$dir/typo.xml"
expect 2 'expected NAME=VALUE' "$T" run "$dir/rooms.xml" --set rooms
expect 2 'expected NAME=VALUE' "$T" run "$dir/rooms.xml" --set =3
expect 2 'set twice' "$T" run "$dir/rooms.xml" --set rooms=3 --set rooms=4
expect 2 '--set needs NAME=VALUE' "$T" run "$dir/rooms.xml" --set
# A value the attribute cannot take is the attribute's error, at the node's line.
expect 3 'rooms.xml:6: ' "$T" run "$dir/rooms.xml" --set rooms=many

finish params
