#!/bin/sh
# cli_test.sh — the tessera command line: outputs, exit codes and messages. Usage: cli_test.sh ./tessera
T=${1:-./tessera}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect CODE PATTERN -- command...: exit code and a line of stderr+stdout matching PATTERN
expect() {
    code=$1 pattern=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" != "$code" ]; then bad "$* exited $rc, expected $code: $out"; return; fi
    if [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -q -- "$pattern"; then bad "$*: no '$pattern' in: $out"; return; fi
    ok
}
M="$dir/m.xml"
printf '<markov values="BWA" origin="True">\n  <one in="WBB" out="WAW"/>\n  <one in="AW" out="WW"/>\n</markov>\n' > "$M"

expect 0 "Usage" "$T" --help
expect 2 "Usage" "$T"
expect 2 "unknown command" "$T" frobnicate
expect 2 "unknown option" "$T" run "$M" --sise 10
expect 2 "expected an integer" "$T" run "$M" --size ten
expect 2 "absurd" "$T" run "$M" --size 100000
expect 5 "cannot open" "$T" run "$dir/missing.xml"
expect 3 "broken_xml.xml:3: error: malformed XML" "$T" run tests/badinput/broken_xml.xml
expect 3 "unknown_node.xml:3: error: unknown node type <grow>" "$T" check tests/badinput/unknown_node.xml
expect 0 "typo_attribute.xml:3: warning: unknown attribute \"symetry\"" "$T" check tests/badinput/typo_attribute.xml
expect 0 "ok" "$T" check "$M"

# Text output: header, then MY lines of MX symbols.
"$T" run "$M" --size 9 --seed 3 > "$dir/a.txt" 2>&1
if head -1 "$dir/a.txt" | grep -q "^model m$" && grep -q "^grid 9 9 1$" "$dir/a.txt" && [ "$(tail -n 9 "$dir/a.txt" | grep -c '^[BWA]\{9\}$')" = 9 ]
then ok; else bad "text output"; fi
"$T" run "$M" --size 9 --seed 3 -o "$dir/b.txt"
if cmp -s "$dir/a.txt" "$dir/b.txt"; then ok; else bad "-o file.txt differs from stdout"; fi
"$T" run "$M" --size 9 --seed 4 -o "$dir/c.txt"
if ! cmp -s "$dir/a.txt" "$dir/c.txt"; then ok; else bad "another seed gave the same grid"; fi

# PNG: 9 cells at pixel size 5 give a 45x45 image.
"$T" run "$M" --size 9 --pixel-size 5 -o "$dir/m.png"
if [ "$(od -An -tx1 -j16 -N8 "$dir/m.png" | tr -d ' \n')" = "0000002d0000002d" ]; then ok; else bad "PNG size"; fi
# VOX: magic and version 150.
"$T" run "$M" --size 5 --dim 3 -o "$dir/m.vox"
if [ "$(head -c 4 "$dir/m.vox")" = "VOX " ]; then ok; else bad "VOX magic"; fi
expect 2 "unknown output kind" "$T" run "$M" --size 5 -o "$dir/m.bmp"
# A failed write leaves nothing behind, not even a temporary file.
expect 5 "cannot write" "$T" run "$M" --size 5 -o "$dir/no/such/dir/x.png"
if [ -z "$(ls "$dir" | grep tmp)" ]; then ok; else bad "temporary file left"; fi

# Batch: one PNG per seed, named model_seed.
mkdir -p "$dir/models"
cp "$M" "$dir/models/m.xml"
printf '<models>\n  <model name="m" size="11" seeds="5 6" pixelsize="2"/>\n  <model name="nope" size="5"/>\n</models>\n' > "$dir/models.xml"
expect 5 "1 failed" "$T" batch "$dir/models.xml" --models "$dir/models" -o "$dir/out"
if [ -f "$dir/out/m_5.png" ] && [ -f "$dir/out/m_6.png" ]; then ok; else bad "batch outputs"; fi

# Rule images: a name climbing out of the resource root needs --allow-any-path.
mkdir -p "$dir/res/rules"
printf '<one values="BW" origin="True" in="B" out="B"/>\n' > "$dir/pair.xml"
"$T" run "$dir/pair.xml" --length 2 --width 1 --pixel-size 1 -q -o "$dir/pair.png"
printf '<one values="BW" file="../../pair" legend="BW"/>\n' > "$dir/glued.xml"
expect 3 "glued.xml:1: error: .*--allow-any-path" "$T" run "$dir/glued.xml" --resources "$dir/res" --size 5
"$T" run "$dir/glued.xml" --resources "$dir/res" --allow-any-path --size 5 -q -o "$dir/glued.txt"
if [ "$(tail -n 5 "$dir/glued.txt" | grep -c '^WWWWW$')" = 5 ]; then ok; else bad "--allow-any-path rule image run"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
