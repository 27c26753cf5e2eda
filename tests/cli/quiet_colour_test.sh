#!/bin/sh
# quiet_colour_test.sh — values without a colour are warned about once (by the lint), and -q hides
# that warning in run and batch; a map that ends on other values still warns. Usage: quiet_colour_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

printf '<one values="B1" in="B" out="1" steps="3"/>\n' > "$dir/m.xml"
only 0 "$dir/m.xml:1: warning: values \"1\" have no colour in the palette, so pictures draw them grey; give them one with <color symbol=\"X\" value=\"RRGGBB\"/> in a --palette file" \
    "$T" run "$dir/m.xml" -o "$dir/m.png"
only 0 "" "$T" run "$dir/m.xml" -q -o "$dir/m.png"
mkdir -p "$dir/b/models"
cp "$dir/m.xml" "$dir/b/models/m.xml"
printf '<models><model name="m" size="4" amount="1" seeds="1"/></models>\n' > "$dir/b/list.xml"
only 0 "" "$T" batch "$dir/b/list.xml" -q -o "$dir/b/out"
expect 0 'values "1" have no colour in the palette' "$T" batch "$dir/b/list.xml" -o "$dir/b/out"
# A map's new values are not the model's: the picture's own warning, hidden by -q.
printf '<sequence values="BW"><one in="B" out="W" steps="2"/><map scale="2 2 1" values="1W"><rule in="W" out="1"/><rule in="B" out="W"/></map></sequence>\n' > "$dir/map.xml"
only 0 'smalti: warning: no colour for symbols "1" in the palette; drawn grey' "$T" run "$dir/map.xml" -o "$dir/map.png"
only 0 "" "$T" run "$dir/map.xml" -q -o "$dir/map.png"
finish quiet-colour
