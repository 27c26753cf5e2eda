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

# Many runs: every combination of the --set lists for every seed, {NAME} in the template, the
# values on each manifest line, and --resume telling the combinations apart.
# (-j 1: one thread writes the manifest's lines in the work list's order.)
expect 0 '' "$T" run "$dir/rooms.xml" -q -j 1 --seeds 1..2 --set side=6,9 --set rooms=1,3 -o "$dir/m/{seed}_{side}_{rooms}.txt" \
    --manifest "$dir/m.jsonl"
n=$(ls "$dir/m" | wc -l)
if [ "$n" -eq 8 ]; then ok; else bad "2 seeds x 2 sides x 2 rooms made $n files"; fi
if grep -q '^size 9 3 1$' "$dir/m/2_9_3.txt" && [ "$(sed '1,/^size/d' "$dir/m/2_9_3.txt" | tr -cd W | wc -c)" -eq 3 ]; then ok
else bad "2_9_3.txt is not a 9-wide grid with 3 rooms"; fi
# ... each the single run of that seed and those values.
"$T" run "$dir/rooms.xml" -q --seed 2 --set side=6 --set rooms=3 -o "$dir/single.txt"
if cmp -s "$dir/single.txt" "$dir/m/2_6_3.txt"; then ok; else bad "a combination differs from its single run"; fi
if [ "$(grep -c '"params":{"side":"9","rooms":"1"}}$' "$dir/m.jsonl")" -eq 2 ]; then ok; else bad "manifest params: $(cat "$dir/m.jsonl")"; fi
# The order: the first list slowest, then the seeds.
order=$(sed 's/.*"seed":\([0-9]*\),.*"side":"\([0-9]*\)","rooms":"\([0-9]*\)".*/\2.\3.\1/' "$dir/m.jsonl" | tr '\n' ' ')
if [ "$order" = "6.1.1 6.1.2 6.3.1 6.3.2 9.1.1 9.1.2 9.3.1 9.3.2 " ]; then ok; else bad "the work list's order (side.rooms.seed): $order"; fi
expect 0 '4 runs made, 8 done before (--resume)' "$T" run "$dir/rooms.xml" --seeds 1..3 --set side=6,9 --set rooms=1,3 \
    -o "$dir/m/{seed}_{side}_{rooms}.txt" --manifest "$dir/m.jsonl" --resume
# A single value names a file too; the defaults are fields as well.
expect 0 '' "$T" run "$dir/rooms.xml" -q --seeds 1..2 -o "$dir/d/{seed}_{side}_{rooms}.txt"
if [ -f "$dir/d/2_8_2.txt" ]; then ok; else bad "{side}_{rooms} of the defaults: $(ls "$dir/d")"; fi
# The template must tell the combinations apart, and name only fields and parameters.
expect 2 'the values of --set side=6,9 would write the same files; put {side} in the name' \
    "$T" run "$dir/rooms.xml" --set side=6,9 -o "$dir/x/{seed}.txt"
expect 2 "unknown field {sid}: .*did you mean 'side'?" "$T" run "$dir/rooms.xml" --seeds 1..2 -o "$dir/x/{seed}_{sid}.txt"
expect 2 'a value given twice' "$T" run "$dir/rooms.xml" --set side=6,6 -o "$dir/x/{side}.txt"
expect 2 'an empty value' "$T" run "$dir/rooms.xml" --set side=6,,7 -o "$dir/x/{side}.txt"
expect 2 'many runs need -o with a file name template' "$T" run "$dir/rooms.xml" --set side=6,7
expect 2 'check takes one' "$T" check "$dir/rooms.xml" --set side=6,7
expect 2 "cannot set the parameter 'room'" "$T" run "$dir/rooms.xml" --set room=1,2 -o "$dir/x/{room}.txt"

# batch: --set goes to every entry; an entry whose model does not declare it fails, the others run.
mkdir -p "$dir/b/models"
cp "$dir/rooms.xml" "$dir/b/models/rooms.xml"
cp "$dir/plain.xml" "$dir/b/models/plain.xml"
printf '<models>\n  <model name="rooms" amount="1" seeds="5"/>\n</models>\n' > "$dir/b/one.xml"
expect 0 '' "$T" batch "$dir/b/one.xml" -q --set rooms=4 -o "$dir/b/out/{model}_{seed}_{rooms}.txt" --manifest "$dir/b/m.jsonl"
if [ "$(sed '1,/^size/d' "$dir/b/out/rooms_5_4.txt" | tr -cd W | wc -c)" -eq 4 ] && grep -q '"params":{"side":"8","rooms":"4"}' "$dir/b/m.jsonl"
then ok; else bad "batch --set rooms=4: $(ls "$dir/b/out")"; fi
printf '<models>\n  <model name="plain" amount="1"/>\n  <model name="rooms" amount="1"/>\n</models>\n' > "$dir/b/two.xml"
expect 2 "plain.xml: error: cannot set the parameter 'rooms': the model declares no parameters" \
    "$T" batch "$dir/b/two.xml" --set rooms=4 -o "$dir/b/out2"
if ls "$dir/b/out2" | grep -q '^rooms_'; then ok; else bad "batch: the entry that declares rooms did not run"; fi
expect 2 'batch takes one value' "$T" batch "$dir/b/one.xml" --set rooms=4,5 -o "$dir/b/out3"

# A pack's model entry: its <param>s are the model's values there (a command's --set still wins);
# a name listed again gives pack gallery one picture per combination; pack check loads with them.
mkdir -p "$dir/pk/models"
cp "$dir/rooms.xml" "$dir/pk/models/rooms.xml"
cp "$dir/plain.xml" "$dir/pk/models/plain.xml"
cat > "$dir/pk/pack.xml" <<'XML'
<pack name="rooms" version="1.0.0" description="Rooms">
  <model file="models/rooms.xml">
    <param name="rooms" value="3"/>
    <param name="side" value="6"/>
    <param name="side" value="10"/>
    <color symbol="W" value="FF0000"/>
  </model>
  <model file="models/plain.xml"/>
</pack>
XML
expect 0 '^grid 6 3 1$' "$T" run "$dir/pk" rooms
expect 0 '^grid 12 3 1$' "$T" run "$dir/pk" rooms --set side=12
expect 0 '^params: side=6 (default 8), rooms=3 (default 2)$' "$T" check "$dir/pk" rooms
expect 0 '2 ok, 0 with warnings, 0 failed' "$T" pack check "$dir/pk"
expect 0 'g.html: 2 models' "$T" pack gallery "$dir/pk" -o "$dir/g.html"
cards=$(grep -c '<figure class="card"' "$dir/g.html")
if [ "$cards" -eq 3 ]; then ok; else bad "pack gallery made $cards cards, not 2 for rooms (side 6 and 10) and 1 for plain"; fi
if grep -q 'id="model-rooms-1"' "$dir/g.html" && grep -q -- '--set side=10 -o rooms_1.png' "$dir/g.html" &&
    grep -q '<p class="settings">10×3 · seed 1 · 100 steps · rooms=3, side=10</p>' "$dir/g.html"; then ok
else bad "the second card of rooms: $(grep -o '<p class="settings">[^<]*' "$dir/g.html")"; fi
# ... the card's command makes the card's grid.
expect 0 '^grid 10 3 1$' "$T" run "$dir/pk" rooms --set rooms=3 --set side=10
# Mistakes: a parameter the model does not declare (named when the model loads), a bad <param>.
sed 's|<model file="models/plain.xml"/>|<model file="models/plain.xml"><param name="rooms" value="1"/></model>|' \
    "$dir/pk/pack.xml" > "$dir/pk/p2.xml" && mv "$dir/pk/p2.xml" "$dir/pk/pack.xml"
expect 2 "cannot set the parameter 'rooms': the model declares no parameters" "$T" run "$dir/pk" plain
expect 3 "failed    plain: .*cannot set the parameter 'rooms'" "$T" pack check "$dir/pk"
sed 's|<param name="rooms" value="1"/>|<param name="ro oms" value="1"/>|' "$dir/pk/pack.xml" > "$dir/pk/p2.xml" && mv "$dir/pk/p2.xml" "$dir/pk/pack.xml"
expect 3 'pack.xml:8: error: expected <param name="NAME" value="..."/>' "$T" pack check "$dir/pk"

finish params
