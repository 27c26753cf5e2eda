#!/bin/sh
# lint_test.sh — each model in tests/lint/ gives exactly the warning (or error) in its .expect file,
# at its file:line; --strict makes a warning exit 3; `run -q` hides the warnings. Usage: lint_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
fixtures=$(dirname "$0")/../lint
count=0
for model in "$fixtures"/*.xml; do
    name=${model%.xml}
    expected="$model:$(cat "$name.expect")"
    args=$(cat "$name.args" 2>/dev/null)
    count=$((count + 1))
    # check: stderr is exactly the one expected line; a warning exits 0, an error 3.
    err=$("$T" check "$model" $args 2>&1 >/dev/null); rc=$?
    case $expected in *": warning: "*) want=0 ;; *) want=3 ;; esac
    if [ "$rc" = "$want" ] && [ "$err" = "$expected" ]; then ok; else bad "check $model exited $rc (expected $want) and said: $err (expected: $expected)"; fi
    [ "$want" = 0 ] || continue
    # --strict: the warning, then the verdict, and exit 3 (also under -q, which does not hide errors).
    only 3 "$expected
$model: error: 1 warning, and --strict makes warnings errors" "$T" check "$model" $args --strict -q
    # run shows the warning on stderr, and -q hides it.
    err=$("$T" run "$model" --size 12 --steps 200 $args -o "$dir/out.txt" 2>&1 >/dev/null); rc=$?
    if [ "$rc" = 0 ] && printf '%s\n' "$err" | grep -qxF -- "$expected"; then ok; else bad "run $model exited $rc and said: $err"; fi
    err=$("$T" run "$model" --size 12 --steps 200 $args -q -o "$dir/out.txt" 2>&1 >/dev/null); rc=$?
    if [ "$rc" = 0 ] && [ -z "$err" ]; then ok; else bad "run -q $model exited $rc and said: $err"; fi
    # run --strict stops before running: no output file.
    rm -f "$dir/strict.txt"
    expect 3 "--strict makes warnings errors" "$T" run "$model" --size 12 $args --strict -o "$dir/strict.txt"
    if [ -e "$dir/strict.txt" ]; then bad "run --strict $model wrote its output"; else ok; fi
done
[ "$count" -ge 13 ] && ok || bad "only $count lint fixtures in $fixtures"
# The lattice parity trap is said only where the lattice reaches the edge: sides 4k+3 keep the rim,
# on both axes; a lattice grown with a step limit, or with another node before or after it, is not judged.
only 0 "$fixtures/lattice_parity.xml: ok (2 nodes, values BWA)" "$T" check "$fixtures/lattice_parity.xml" --size 11 --strict
only 0 "$fixtures/lattice_parity.xml: ok (2 nodes, values BWA)" "$T" check "$fixtures/lattice_parity.xml" --length 15 --width 19 --strict
expect 0 "warning: the lattice this rule grows from the origin reaches the grid's edge at a y side of 17 (the centre is cell 8)" \
    "$T" check "$fixtures/lattice_parity.xml" --length 15 --width 17
for side in 13 14 16; do
    expect 0 "warning: the lattice this rule grows from the origin reaches the grid's edge at a side of $side " "$T" check "$fixtures/lattice_parity.xml" --size $side
done
sed 's|in="WBB"|steps="30" in="WBB"|' "$fixtures/lattice_parity.xml" > "$dir/lattice_steps.xml"
lacks "warning" "$T" check "$dir/lattice_steps.xml"
printf '<sequence values="BWA" origin="True">\n  <one in="B" out="B" steps="1"/>\n  <one in="WBB" out="WAW"/>\n</sequence>\n' > "$dir/lattice_second.xml"
lacks "warning" "$T" check "$dir/lattice_second.xml" --size 12
printf '<sequence values="BPW" origin="True">\n  <all in="PBB" out="**P"/>\n</sequence>\n' > "$dir/lattice_all.xml"
expect 0 "lattice_all.xml:2: warning: the lattice this rule grows from the origin reaches the grid's edge at a side of 41 " "$T" check "$dir/lattice_all.xml" --size 41
lacks "warning" "$T" check "$dir/lattice_all.xml" --size 43
printf '<sequence values="BPW" origin="True">\n  <all in="PBB" out="**P"/>\n  <all in="B" out="W"/>\n</sequence>\n' > "$dir/lattice_then.xml"
lacks "warning" "$T" check "$dir/lattice_then.xml" --size 41
# A correct model: no warning, and --strict passes.
only 0 "models/maze.xml: ok (18 nodes, values BIPCWRYAU)" "$T" check models/maze.xml --strict
# Any node may be the root, and then the grid's attributes are its own (no "unknown attribute values").
printf '<poisson values="BW" value="W" radius="2" origin="True"/>\n' > "$dir/root_poisson.xml"
only 0 "$dir/root_poisson.xml: ok (2 nodes, values BW)" "$T" check "$dir/root_poisson.xml" --strict
# A palette that gives the missing colour silences that warning.
printf '<colors><color symbol="1" value="ff0000"/></colors>\n' > "$dir/palette.xml"
lacks "warning" "$T" check "$fixtures/value_without_colour.xml" --palette "$dir/palette.xml"
finish lint
