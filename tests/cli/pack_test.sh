#!/bin/sh
# pack_test.sh — model packs: pack check and pack list on folders and zips, run and batch straight from a zip
# (outputs byte-identical to the folder's), every unsafe pack refused with its entry named and nothing written
# outside the target, the bundled models/ pack clean, and the MarkovJunior corpus (SMALTI_MJ_CORPUS, default
# ../shared/mj; skipped when absent) checked entry by entry. Fixtures: tests/packs/make_packs.py.
# Usage: pack_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
case $T in /*) ;; *) T=$(pwd)/$T ;; esac # the refusals run in another folder
P=$dir/packs
python3 "$(dirname "$0")/../packs/make_packs.py" "$P" || { echo "FAIL: make_packs.py"; exit 1; }

# A good pack, as a folder and as a zip.
expect 0 '^ok        dots: 12x12, seed 3, ' "$T" pack check "$P/good"
expect 0 '2 models: 2 ok, 0 with warnings, 0 failed, 0 capped' "$T" pack check "$P/good.zip"
expect 0 '^  dots  *12x12  *seeds 3 4, 50000 steps  Dots' "$T" pack list "$P/good.zip"
expect 0 '^license: CC0-1.0' "$T" pack list "$P/good"
expect 0 '' "$T" run "$P/good.zip" image -q -o "$dir/image_zip.txt"
expect 0 '' "$T" run "$P/good" models/image.xml -q -o "$dir/image_dir.txt"
if cmp -s "$dir/image_zip.txt" "$dir/image_dir.txt"; then ok; else bad "run image from the zip and the folder differ"; fi
expect 2 'the pack has no model "nothing"' "$T" run "$P/good.zip" nothing
expect 2 'is a pack: name one of its models' "$T" run "$P/good.zip"
expect 2 'its models take resources from it alone' "$T" run "$P/good.zip" image --resources /etc
expect 2 "unknown option '--timout'; did you mean '--timeout'" "$T" pack check "$P/good" --timout 3
expect 2 "unknown pack command 'chekc'" "$T" pack chekc "$P/good"
expect 0 'Usage: smalti pack check PACK' "$T" help pack check

# Unsafe packs: each refused, naming the entry, exit 3, and nothing written anywhere. Commands run in a
# work folder inside the fixtures, writing to a target folder there.
mkdir -p "$P/work/target"
find "$dir" ! -name before ! -name after | sort > "$dir/before"
refused() { # refused FIXTURE PATTERN [options]: pack check, pack list, run and batch all refuse it
    fixture=$1 pattern=$2; shift 2
    expect 3 "$pattern" sh -c 'cd "$1/work" && shift && exec "$@"' - "$P" "$T" pack check "$P/$fixture" "$@"
    expect 3 "$pattern" sh -c 'cd "$1/work" && shift && exec "$@"' - "$P" "$T" pack list "$P/$fixture" "$@"
    expect 3 "$pattern" sh -c 'cd "$1/work" && shift && exec "$@"' - "$P" "$T" run "$P/$fixture" dots -q -o target/x.png "$@"
    expect 3 "$pattern" sh -c 'cd "$1/work" && shift && exec "$@"' - "$P" "$T" batch "$P/$fixture" -q -o target/b "$@"
}
refused slip_dotdot.zip 'slip_dotdot.zip:\.\./evil.xml: error: unsafe entry name: it has a "\.\." part'
refused slip_absolute.zip 'slip_absolute.zip:/tmp/smalti-evil.xml: error: unsafe entry name: it is an absolute path'
refused slip_backslash.zip 'slip_backslash.zip:models\\evil.xml: error: unsafe entry name: it has a backslash'
refused slip_drive.zip 'slip_drive.zip:C:/evil.xml: error: unsafe entry name: it starts with a drive letter'
refused symlink.zip 'symlink.zip:models/link.xml: error: the entry is a symbolic link'
refused duplicate.zip 'duplicate.zip:pack.xml: error: the zip holds two entries of this name'
refused file_and_folder.zip 'file_and_folder.zip:resources/a: error: the zip holds both a file resources/a and an entry resources/a/b under it'
refused bomb.zip 'bomb.zip:resources/zeros.bin: error: the entry inflates to more than 1000 times its compressed size'
refused big.zip 'big.zip:resources/big.bin: error: the pack unpacks to more than 1048576 bytes' --max-unpacked 1M
refused escape_root 'escape_root/resources: error: the resource folder leads out of the pack'
refused huge_grid.zip 'huge_grid.zip:pack.xml:4: error: <model> asks for a grid of 100000x100000x100000 cells'
refused bad_manifest.zip 'bad_manifest.zip:pack.xml:4: error: malformed XML'
refused newer.zip 'newer.zip:pack.xml:1: error: the pack needs smalti 99.0.0 or newer'
expect 0 '' "$T" pack check "$P/big.zip" --max-unpacked 2M
# Packs that open, with one bad model: that model fails with its file:line, the others run.
expect 3 '^failed    image: .*bad_model.zip:models/image.xml:5: malformed XML' "$T" pack check "$P/bad_model.zip"
expect 3 'escape_zip.zip:models/image.xml:1: rule image "rules/../../outside/Dot" climbs out' "$T" pack check "$P/escape_zip.zip"
expect 3 '^failed    .*escape/resources/rules/Dot.png: a symbolic link that leads out of the pack' "$T" pack check "$P/escape"
expect 3 'escape/models/image.xml:1: error: rule image "Dot" leaves the resource folder' "$T" run "$P/escape" image -q -o "$P/work/target/e.txt"
find "$dir" ! -name before ! -name after | sort > "$dir/after"
if cmp -s "$dir/before" "$dir/after" && [ ! -e /tmp/smalti-evil.xml ]; then ok; else bad "files appeared: $(comm -13 "$dir/before" "$dir/after")"; fi

# The bundled models: a clean pack; zipped (here with Python's zipfile), every model run from the zip gives
# the bytes it gives from the folder, as text (run) and as pictures (batch).
expect 0 ' 0 with warnings, 0 failed, 0 capped' "$T" pack check models/ -j 2
python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(sys.argv[1]):
        for f in sorted(files):
            path = os.path.join(root, f)
            z.write(path, os.path.relpath(path, sys.argv[1]))' models "$dir/models.zip"
names=$(sed -n 's/.*<model file="\([^"]*\)\.xml".*/\1/p' models/pack.xml)
count=0
for name in $names; do
    "$T" run models/ "$name" -q -o "$dir/f_$name.txt" && "$T" run "$dir/models.zip" "$name" -q -o "$dir/z_$name.txt" &&
        cmp -s "$dir/f_$name.txt" "$dir/z_$name.txt" && count=$((count + 1)) || bad "run $name: the zip's output differs"
done
[ "$count" -gt 20 ] && [ "$count" = "$(echo $names | wc -w)" ] && ok || bad "round trip: $count models identical"
expect 0 '' "$T" batch models/ -q -o "$dir/bf"
expect 0 '' "$T" batch "$dir/models.zip" -q -o "$dir/bz"
if [ "$(ls "$dir/bf" | wc -l)" = "$(echo $names | wc -w)" ] && diff -r "$dir/bf" "$dir/bz" > /dev/null; then ok; else bad "batch from the zip differs from the folder's"; fi

# The MarkovJunior corpus as a pack: every entry reported; none fails. Two never finish on their own and
# the reference stops them at its 50000-step default, as smalti does: they pass with a warning (exit 0),
# never "capped". The work budget is counted, not timed, so which models it caps is the same on every
# machine, loaded or not: at the default (10G) none; under the sanitizer build, which is slower, a
# smaller budget (100M) caps exactly the seven models (eight entries) whose work is above it (FireNoise
# 1.4 G, CarmaTower 0.34 G (two entries), Island 0.32 G, CompleteSAWSmart 0.26 G, BiasedVoronoi 0.25 G,
# ForestFire 0.23 G, CompleteSAW 0.15 G; fields and searches are charged for the cells they visit).
corpus=${SMALTI_MJ_CORPUS:-../shared/mj}
if [ -f "$corpus/models.xml" ]; then
    case $T in *asan*) budget=100M want_rc=6 ;; *) budget=10G want_rc=0 ;; esac
    "$T" pack check "$corpus" -j 2 -q --max-work $budget > "$dir/corpus.txt" 2>&1; rc=$?
    entries=$(grep -c '^ *<model ' "$corpus/models.xml") # not those in comments
    lines=$(grep -c '^\(ok\|warnings\|failed\|capped\)  ' "$dir/corpus.txt")
    if [ "$rc" = "$want_rc" ] && [ "$lines" = "$entries" ] && ! grep -q '^failed' "$dir/corpus.txt"; then ok
    else bad "pack check $corpus exited $rc, $lines lines for $entries entries: $(grep -v '^ok' "$dir/corpus.txt")"; fi
    for m in 'SmartSAW: 19x19' 'SubmergedKnots: 12x12x12'; do
        grep -q "^warnings  $m, seed 1, 50000 steps (stopped at the default step limit)" "$dir/corpus.txt" && ok || bad "$m: not stopped at the step limit"
    done
    capped=$(grep '^capped' "$dir/corpus.txt" | sed 's/^capped *\([^:]*\):.*/\1/' | sort | tr '\n' ' ')
    if [ "$budget" = 10G ]; then want_capped=''; else want_capped='BiasedVoronoi CarmaTower CarmaTower CompleteSAW CompleteSAWSmart FireNoise ForestFire Island '; fi
    [ "$capped" = "$want_capped" ] && ok || bad "with --max-work $budget the capped models are '$capped', not '$want_capped'"
    for m in $want_capped; do
        grep -q "^capped    $m: .*stopped by the work budget of 100M at step" "$dir/corpus.txt" && ok || bad "$m: no work-budget line"
    done
    tail -n 1 "$dir/corpus.txt"
else
    echo "pack: no corpus at $corpus, its check skipped"
fi
finish pack
