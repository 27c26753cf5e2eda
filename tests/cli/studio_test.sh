#!/bin/sh
# studio_test.sh — `smalti studio`'s command line: usage errors (exit 2, did-you-mean), a model that
# cannot be read (exit 5, before any server), a port already taken (exit 5), and SIGTERM ending it
# cleanly, at once even during an endless run. The page itself is tested in tests/browser/studio_test.js.
# Usage: studio_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/m.xml"
expect 2 "missing MODEL.xml" "$T" studio
expect 2 "did you mean '--seed'" "$T" studio "$dir/m.xml" --seeed 3
expect 2 "port: 1 to 65535" "$T" studio "$dir/m.xml" --port 70000
expect 2 "timeout: seconds" "$T" studio "$dir/m.xml" --timeout 0
expect 2 "steps: 1 to" "$T" studio "$dir/m.xml" --steps x
expect 2 "unexpected argument" "$T" studio "$dir/m.xml" "$dir/m.xml"
only 5 "$dir/none.xml: error: cannot read: No such file or directory" "$T" studio "$dir/none.xml"
only 5 "$dir: error: cannot read: Is a directory" "$T" studio "$dir"
expect 0 "studio MODEL.xml" "$T" help studio
# One studio on a free port; a second on its port cannot listen.
"$T" studio "$dir/m.xml" > "$dir/url" 2> "$dir/err" &
pid=$!
i=0
while [ ! -s "$dir/url" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
port=$(sed -n 's|^http://127\.0\.0\.1:\([0-9]*\)/[0-9a-f]\{32\}/$|\1|p' "$dir/url")
if [ -n "$port" ]; then ok; else bad "studio printed no URL: $(cat "$dir/url" "$dir/err")"; fi
[ -n "$port" ] && expect 5 "cannot listen on 127.0.0.1:$port" "$T" studio "$dir/m.xml" --port "$port"
kill -TERM $pid
wait $pid
rc=$?
if [ $rc = 0 ]; then ok; else bad "studio exited $rc on SIGTERM: $(cat "$dir/err")"; fi
# SIGTERM during an endless run (time cap 60 s) ends studio at once.
printf '<markov values="BW">\n  <one in="B" out="W"/>\n  <one in="W" out="B"/>\n</markov>\n' > "$dir/endless.xml"
"$T" studio "$dir/endless.xml" --size 4 --steps 1000000000 --timeout 60 > "$dir/url2" 2> "$dir/err2" &
pid=$!
sleep 0.5
start=$(date +%s)
kill -TERM $pid
wait $pid
rc=$? took=$(($(date +%s) - start))
if [ $rc = 0 ] && [ $took -le 2 ]; then ok; else bad "studio on an endless run: exit $rc after $took s on SIGTERM: $(cat "$dir/err2")"; fi
finish studio
