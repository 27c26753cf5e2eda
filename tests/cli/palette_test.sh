#!/bin/sh
# palette_test.sh — a --palette file that is not well-formed is a format error with its line (exit 3);
# a file that cannot be opened stays an I/O error (exit 5). Usage: palette_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
M="$dir/m.xml"
printf '<one values="BW" in="B" out="W"/>\n' > "$M"
printf '<colors>\n  <color symbol="B" value="ff0000">\n</colors>\n' > "$dir/unclosed.xml"
only 3 "$dir/unclosed.xml:3: error: malformed palette XML: Opening and ending tag mismatch: color line 2 and colors" \
    "$T" run "$M" --size 4 --palette "$dir/unclosed.xml"
printf 'B ff0000\n' > "$dir/text.xml"
expect 3 "text.xml:1: error: malformed palette XML" "$T" run "$M" --size 4 --palette "$dir/text.xml"
: > "$dir/empty.xml"
expect 3 "empty.xml:1: error: malformed palette XML: Document is empty" "$T" run "$M" --size 4 --palette "$dir/empty.xml"
printf '<colors>\n  <color symbol="B" value="ff0000"/>\n  <colour symbol="W" value="ffffff"/>\n</colors>\n' > "$dir/badchild.xml"
expect 3 "badchild.xml:3: error: expected <color" "$T" run "$M" --size 4 --palette "$dir/badchild.xml"
expect 5 "nope.xml: error: cannot open the palette" "$T" run "$M" --size 4 --palette "$dir/nope.xml"
expect 3 "unclosed.xml:3: error" "$T" check "$M" --size 4 --palette "$dir/unclosed.xml"
finish palette
