#!/bin/sh
# color_value_test.sh — a <color> value written with a CSS '#' says to drop the '#', in a model's
# <smalti> settings and in a --palette file; other malformed colours keep the general message.
# Usage: color_value_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

printf '<sequence values="BW">\n<smalti size="4">\n<color symbol="W" value="#FF0000"/>\n</smalti>\n<one in="B" out="W"/>\n</sequence>\n' > "$dir/hash.xml"
only 3 "$dir/hash.xml:3: error: value=\"#FF0000\" of <color>: write the colour without '#', as value=\"FF0000\"" "$T" check "$dir/hash.xml"
printf '<colors>\n<color symbol="W" value="#00ff00"/>\n</colors>\n' > "$dir/pal.xml"
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/m.xml"
expect 3 "pal.xml:2: error: value=\"#00ff00\" of <color>: write the colour without '#', as value=\"00ff00\"" \
    "$T" run "$dir/m.xml" --size 4 --palette "$dir/pal.xml" -o "$dir/m.png"
[ ! -e "$dir/m.png" ] && ok || bad "a bad palette still wrote m.png"
# Not a colour after the '#' either: the general message.
sed 's/#FF0000/#FF00/' "$dir/hash.xml" > "$dir/short.xml"
only 3 "$dir/short.xml:3: error: expected <color symbol=\"X\" value=\"RRGGBB\"/>" "$T" check "$dir/short.xml"
finish color-value
