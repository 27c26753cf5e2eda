#!/bin/sh
# tiled_roundtrip.sh — Tiled itself reads our maps: for a 2-D map, a 3-D map, an autotiled map (the bundled
# ruins model and tile sheet) and maps with objects (2-D and 3-D), Tiled's command line (headless) exports our
# .tmx and .tmj to JSON and CSV, and the tile ids it read must equal ours (the ids of our .json output), and
# the objects it read ours (our .json's objects, in pixels, numbered in order, a layer "objects zK" per z). Needs `tiled` (Debian's package, a TEST_DEPS
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
    if "objects" in ours:
        tw, th = ours["tileset"]["tilewidth"], ours["tileset"]["tileheight"]
        want = [[] for _ in layers]
        for i, o in enumerate(ours["objects"]):
            want[o["z"]].append((i + 1, o["name"], o["type"], o["x"] * tw, o["y"] * th, tw, th))
        groups = [l for l in theirs["layers"] if l["type"] == "objectgroup"]
        got_objects = [[(o["id"], o["name"], o["type"], o["x"], o["y"], o["width"], o["height"]) for o in l["objects"]] for l in groups]
        if [l["name"] for l in groups] != ["objects z%d" % z for z in range(len(layers))] or got_objects != want:
            problems.append("%s: Tiled read other objects: %s" % (src, got_objects))
        if theirs["nextobjectid"] != len(ours["objects"]) + 1:
            problems.append("%s: Tiled read nextobjectid %d" % (src, theirs["nextobjectid"]))
        if not ours["objects"]:
            problems.append("the map has no objects to read back")
    if src == "tmx" and name == "autotiled":
        used = {i for layer in flat for i in layer}
        if not any(17 <= i <= 32 for i in used) or not any(33 <= i <= 79 for i in used):
            problems.append("the autotiled map uses no wall or no water autotile: %s" % sorted(used))
for p in problems:
    print("FAIL: %s: %s" % (name, p))
print("tiled-roundtrip %s: %d layer(s) of %dx%d, %d object(s), %s" % (name, len(layers), ours["width"], ours["height"],
      len(ours.get("objects", [])), "FAILED" if problems else "Tiled read the same ids" + (" and objects" if "objects" in ours else "")))
sys.exit(1 if problems else 0)
PY
}
roundtrip flat models/maze.xml --size 15
roundtrip cube models/tower3d.xml --size 8
roundtrip autotiled models/ruins.xml --tiles models/resources/tiles/ruins.xml
# Objects: the ruins' doors as objects on floor (the wall's autotile joins them, as it joined the doors),
# and in 3-D the tower's D and Y cells, on whichever layers they fall.
sheet="$PWD/models/resources/tiles/ruins.png"
{
    echo "<tiles image=\"$sheet\" size=\"16\">"
    echo '  <tile symbol="G" index="0"/>'
    echo '  <tile symbol="F" index="1"/>'
    echo '  <tile symbol="D" object="door" type="exit" ground="F"/>'
    echo '  <tile symbol="W" autotile="edge16" first="16" joins="WD"/>'
    echo '  <tile symbol="U" autotile="blob47" first="32"/>'
    echo '</tiles>'
} > "$dir/doors.xml"
roundtrip objects models/ruins.xml --tiles "$dir/doors.xml"
{
    echo "<tiles image=\"$sheet\" size=\"16\">"
    i=0
    for s in B W a f F i R N h A E g; do echo "  <tile symbol=\"$s\" index=\"$i\"/>"; i=$((i + 1)); done
    echo '  <tile symbol="D" object="door" type="exit" ground="B"/>'
    echo '  <tile symbol="Y" object="lamp" type="light" ground="R"/>'
    echo '</tiles>'
} > "$dir/tower.xml"
roundtrip objects3d models/tower3d.xml --size 8 --tiles "$dir/tower.xml"
exit $fail
