#!/bin/sh
# chisel_test.sh — the `chisel` node from the command line: bad attributes are model errors at their
# line, the bundled chiselled dungeon runs and joins its entrance to its exit, --timeout stops a big
# chisel inside its step. Usage: chisel_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
models="$(dirname "$0")/../../models"

bad_model() { # NAME ATTRIBUTES: a model whose chisel (line 3) has these attributes
    printf '<sequence values="BWK">\n  <one in="B" out="K" steps="2"/>\n  <chisel %s/>\n</sequence>\n' "$2" > "$dir/$1.xml"
}
bad_model noon 'keys="K" close="W"'
expect 3 "noon.xml:3: error: <chisel> needs an on attribute" "$T" run "$dir/noon.xml" --size 8 -o "$dir/x.png"
bad_model nokeys 'on="B" close="W"'
expect 3 "nokeys.xml:3: error: <chisel> needs a keys attribute" "$T" run "$dir/nokeys.xml" --size 8 -o "$dir/x.png"
bad_model noclose 'on="B" keys="K"'
expect 3 "noclose.xml:3: error: <chisel> needs a close attribute" "$T" run "$dir/noclose.xml" --size 8 -o "$dir/x.png"
bad_model closeon 'on="BW" keys="K" close="W"'
expect 3 "closeon.xml:3: error: close=\"W\" of <chisel> is one of the open cells" "$T" run "$dir/closeon.xml" --size 8 -o "$dir/x.png"
bad_model closekey 'on="B" keys="KW" close="W"'
expect 3 "closekey.xml:3: error: close=\"W\" of <chisel> is also a key value" "$T" run "$dir/closekey.xml" --size 8 -o "$dir/x.png"
bad_model badkeep 'on="B" keys="K" close="W" keep="1.5"'
expect 3 "badkeep.xml:3: .*keep" "$T" run "$dir/badkeep.xml" --size 8 -o "$dir/x.png"
bad_model badvalue 'on="B" keys="K" close="Q"'
expect 3 "badvalue.xml:3: error: close=\"Q\" of <chisel> is not a value of the grid" "$T" run "$dir/badvalue.xml" --size 8 -o "$dir/x.png"
bad_model unknown 'on="B" keys="K" close="W" kep="0.5"'
rm -f "$dir/x.png"
expect 0 "unknown.xml:3:.*kep" "$T" run "$dir/unknown.xml" --size 8 -o "$dir/x.png"
[ -e "$dir/x.png" ] && ok || bad "an unknown attribute stopped the run"

# The bundled dungeon runs; in its text grid the entrance E reaches the exit X through open cells.
expect 0 "" "$T" run "$models/chisel_dungeon.xml" -o "$dir/d.png"
for seed in 1 2 3; do
    "$T" run "$models/chisel_dungeon.xml" --seed $seed -o "$dir/d.txt" >/dev/null 2>&1 || bad "dungeon seed $seed failed"
    # Flood from E over non-wall cells (everything but W and D) and look for X.
    if awk 'NR > 7 && !/^size/ { row[n++] = $0 } END {
            w = length(row[0]);
            for (y = 0; y < n; y++) for (x = 1; x <= w; x++) { c = substr(row[y], x, 1); g[x, y] = c; if (c == "E") { qx[0] = x; qy[0] = y } }
            head = 0; tail = 1; seen[qx[0], qy[0]] = 1;
            while (head < tail) { x = qx[head]; y = qy[head]; head++;
                if (g[x, y] == "X") exit 0;
                split("1 0 -1 0 0 1 0 -1", d, " ");
                for (k = 1; k <= 8; k += 2) { nx = x + d[k]; ny = y + d[k + 1];
                    if (nx < 1 || ny < 0 || nx > w || ny >= n || seen[nx, ny]) continue;
                    c = g[nx, ny]; if (c == "W" || c == "D") continue;
                    seen[nx, ny] = 1; qx[tail] = nx; qy[tail] = ny; tail++ } }
            exit 1 }' "$dir/d.txt"; then ok; else bad "dungeon seed $seed: the exit is not reachable from the entrance"; fi
done

# A chisel of 2048x2048 stops at a short timeout inside its step (exit 6). The keys come cheaply
# (the origin, then three more 900 cells away, each step a look around the keys), so the deadline
# meets the chisel's step, which takes some 5 s here, 500 times the deadline: no machine finishes
# it in time. Had the step no check, it would end and the run with it (exit 0, a picture). A
# deadline passed before it, the process held off the CPU, stops the run as well (the case then
# proves less, but nothing false). `guard` only turns a run that ignores its deadline into a
# failure that says so.
B900=$(printf '%0900d' 0 | tr 0 B)
printf '<sequence values="BKW" origin="True">\n  <one in="K%s" out="*%sK" steps="3"/>\n  <chisel on="B" keys="K" close="W"/>\n</sequence>\n' \
    "$B900" "$(printf '%s' "${B900#B}" | tr B '*')" > "$dir/big.xml"
expect 6 "big.xml: error: stopped after [0-3] steps: the run took longer than its timeout of 0.01 s" \
    guard 600 "$T" run "$dir/big.xml" --size 2048 --timeout 0.01 -o "$dir/big.png"
[ -e "$dir/big.png" ] && bad "a chisel stopped by its deadline wrote its output" || ok

finish chisel
