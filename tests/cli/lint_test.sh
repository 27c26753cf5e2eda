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
# A correct model: no warning, and --strict passes.
only 0 "models/maze.xml: ok (18 nodes, values BIPCWRYAU)" "$T" check models/maze.xml --strict
# Any node may be the root, and then the grid's attributes are its own (no "unknown attribute values").
printf '<poisson values="BW" value="W" radius="2" origin="True"/>\n' > "$dir/root_poisson.xml"
only 0 "$dir/root_poisson.xml: ok (2 nodes, values BW)" "$T" check "$dir/root_poisson.xml" --strict
# A palette that gives the missing colour silences that warning.
printf '<colors><color symbol="1" value="ff0000"/></colors>\n' > "$dir/palette.xml"
lacks "warning" "$T" check "$fixtures/value_without_colour.xml" --palette "$dir/palette.xml"
finish lint
