#!/bin/sh
# newuser_test.sh — what a new user stumbled on: a misplaced <field>/<rule>, -o /dev/null, help examples. Usage: newuser_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

# A <field> or <rule> where a node is expected says where it belongs, at its line.
printf '<markov values="BW">\n  <field for="W" to="B"/>\n  <one in="B" out="W"/>\n</markov>\n' > "$dir/field.xml"
only 3 "$dir/field.xml:2: error: <field> is not a node: it belongs inside a rule node (<one>, <all> or <prl>)" "$T" check "$dir/field.xml"
printf '<sequence values="BW">\n  <rule in="B" out="W"/>\n</sequence>\n' > "$dir/rule.xml"
expect 3 "rule.xml:2: error: <rule> is not a node: it belongs inside a rule node (<one>, <all> or <prl>) or a <map>" "$T" check "$dir/rule.xml"

# -o on a device writes the text form there (whatever its name), and leaves the device a device.
expect 0 "" "$T" run models/maze.xml -q -o /dev/null
if [ -c /dev/null ]; then ok; else bad "/dev/null is no longer a character device"; fi
# (The guards: a run that replaced the FIFO leaves its reader waiting for a writer; a reader gone
# would leave the run waiting for one.)
mkfifo "$dir/fifo"
guard 300 cat "$dir/fifo" > "$dir/from_fifo" & reader=$!
expect 0 "" guard 300 "$T" run models/maze.xml -q --size 9 -o "$dir/fifo"
await $reader 300 "the reader of the FIFO" || bad "the FIFO was not written"
if head -1 "$dir/from_fifo" | grep -q "maze"; then ok; else bad "the FIFO did not get the text form: $(head -c 200 "$dir/from_fifo")"; fi
# ... while a regular file without a known extension is still refused before the run.
expect 2 'unknown output kind ""' "$T" run models/maze.xml -q -o "$dir/noext"
[ ! -e "$dir/noext" ] && ok || bad "a refused -o left a file"

# The help examples name only paths a user has: models/ here, or a clone of MarkovJunior/WaveFunctionCollapse.
for c in run check batch wfc view; do lacks "shared/" "$T" help $c; done

finish newuser
