#!/bin/sh
# tiled_roundtrip.sh — Tiled itself reads our maps: for a 2-D map, a 3-D map and an autotiled map (the bundled
# ruins model and tile sheet), Tiled's command line (headless) exports our .tmx and .tmj to JSON and CSV, and the
# tile ids it read must equal ours (the ids of our .json output). Needs `tiled` (Debian's package, a TEST_DEPS
# of the Makefile). Usage: tiled_roundtrip.sh ./smalti
T=${1:-./smalti}
command -v tiled >/dev/null || { echo "tiled-roundtrip: the tiled command is missing (make test installs it)"; exit 1; }
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
# roundtrip NAME smalti-run-arguments...: our .json ids against what Tiled read from our .tmx and .tmj.
roundtrip() {
    name=$1; shift
    "$T" run "$@" -q -o "$dir/$name.tmx" && "$T" run "$@" -q -o "$dir/$name.tmj" && "$T" run "$@" -q -o "$dir/$name.json" ||
        { echo "FAIL: $name: smalti run $*"; fail=1; return; }
    for src in tmx tmj; do
        tiled --export-map json "$dir/$name.$src" "$dir/$name.$src.out.json" 2>/dev/null &&
            tiled --export-map csv "$dir/$name.$src" "$dir/${name}_$src.csv" 2>/dev/null ||
            { echo "FAIL: $name: tiled could not export $name.$src"; fail=1; return; }
    done
    python3 - "$dir" "$name" <<'PY' || fail=1
import csv, json, os, sys
d, name = sys.argv[1], sys.argv[2]
ours = json.load(open(os.path.join(d, name + ".json")))
layers = ours["tiles"]  # [z][y][x]
flat = [[i for row in layer for i in row] for layer in layers]
problems = []
for src in ("tmx", "tmj"):
    theirs = json.load(open(os.path.join(d, "%s.%s.out.json" % (name, src))))
    if (theirs["width"], theirs["height"]) != (ours["width"], ours["height"]):
        problems.append("%s: Tiled read %dx%d" % (src, theirs["width"], theirs["height"]))
    got = [l["data"] for l in theirs["layers"] if l["type"] == "tilelayer"]
    if got != flat:
        problems.append("%s: Tiled's JSON export has other ids" % src)
    # Tiled's CSV export: one file per layer when there are several (NAME_LAYER.csv); ids are tile ids - 1, -1 empty.
    files = [os.path.join(d, "%s_%s.csv" % (name, src))] if len(layers) == 1 else \
            [os.path.join(d, "%s_%s_z%d.csv" % (name, src, z)) for z in range(len(layers))]
    for z, path in enumerate(files):
        rows = [[int(v) + 1 for v in r] for r in csv.reader(open(path)) if r]
        if rows != layers[z]:
            problems.append("%s: Tiled's CSV export of layer z%d has other ids" % (src, z))
    if src == "tmx" and name == "autotiled":
        used = {i for layer in flat for i in layer}
        if not any(17 <= i <= 32 for i in used) or not any(33 <= i <= 79 for i in used):
            problems.append("the autotiled map uses no wall or no water autotile: %s" % sorted(used))
for p in problems:
    print("FAIL: %s: %s" % (name, p))
print("tiled-roundtrip %s: %d layer(s) of %dx%d, %s" % (name, len(layers), ours["width"], ours["height"],
                                                         "FAILED" if problems else "Tiled read the same ids"))
sys.exit(1 if problems else 0)
PY
}
roundtrip flat models/maze.xml --size 15
roundtrip cube models/tower3d.xml --size 8
roundtrip autotiled models/ruins.xml --tiles models/resources/tiles/ruins.xml
exit $fail
