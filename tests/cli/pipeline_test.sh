#!/bin/sh
# pipeline_test.sh — every command that writes final grids runs one pipeline (src/cli/job): `run`,
# `run --seeds`, `batch LIST` (-o DIR and -o TEMPLATE) and `batch PACK` write the same files for the
# same model and seed, with --palette, with --tiles (a sheet naming objects too) and in every output
# kind; the tile maps of a batch share one tileset image. Usage: pipeline_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

# A model whose grid depends on the seed, sized by its own settings; a pack and a models.xml of it.
P=$dir/p
mkdir -p "$P/models"
printf '<sequence values="BWR">\n  <smalti size="6"/>\n  <one in="B" out="W" steps="5"/>\n  <one in="B" out="R" steps="3"/>\n</sequence>\n' > "$P/models/m.xml"
printf '<pack name="p" version="1.0.0" description="one model">\n  <model file="models/m.xml" name="m" seeds="3 4"/>\n</pack>\n' > "$P/pack.xml"
printf '<models>\n  <model name="m" size="6" amount="2" seeds="3 4"/>\n</models>\n' > "$P/models.xml"
printf '<colors><color symbol="W" value="123456"/><color symbol="R" value="abcdef"/></colors>\n' > "$dir/pal.xml"
# A tile sheet of 4x2 tiles of 2x2 pixels, tile i all of red 16 i.
tile_sheet "$dir/sheet.png"
printf '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="7"/>\n  <tile symbol="W" index="1"/>\n  <tile symbol="R" index="2"/>\n</tiles>\n' > "$dir/t.xml"

# same WHAT EXPECTED ACTUAL: the files are equal, a map's own tileset name (m_3.tiles.png, beside one
# run's map) read as the shared one (m.tiles.png, beside many runs' maps).
same() {
    if [ -f "$3" ] && sed 's/m_3\.tiles\.png/m.tiles.png/g' "$2" | cmp -s - "$3"; then ok; else bad "$1: $3 differs from $2"; fi
}
# through OPTIONS: each command writes m_3.KIND with OPTIONS into its own folder, all compared with `run`'s.
through() {
    kind=$1 tag=$2; shift 2
    ref=$dir/$tag/ref seeds=$dir/$tag/seeds list=$dir/$tag/list pk=$dir/$tag/pack
    mkdir -p "$ref"
    expect 0 "" "$T" run "$P/models/m.xml" --seed 3 -q "$@" -o "$ref/m_3.$kind"
    expect 0 "" "$T" run "$P/models/m.xml" --seeds 3,4 -q "$@" -o "$seeds/{model}_{seed}.$kind"
    expect 0 "" "$T" batch "$P/models.xml" -q "$@" -o "$list/{model}_{seed}.$kind"
    expect 0 "" "$T" batch "$P" -q "$@" -o "$pk/{model}_{seed}.$kind"
    for out in "$seeds" "$list" "$pk"; do same "$tag .$kind ($out)" "$ref/m_3.$kind" "$out/m_3.$kind"; done
    if [ -f "$ref/m_3.tiles.png" ]; then
        for out in "$seeds" "$list" "$pk"; do
            cmp -s "$ref/m_3.tiles.png" "$out/m.tiles.png" && ok || bad "$tag .$kind: $out/m.tiles.png is not run's tileset"
            [ ! -e "$out/m_3.tiles.png" ] && [ ! -e "$out/m_4.tiles.png" ] && ok || bad "$tag .$kind: a map wrote its own tileset in $out"
        done
    fi
}

# Every output kind, with the model's colours and with a --palette.
for kind in $("$T" help outputs | awk '/^  \./ {print substr($1, 2)}'); do
    case $kind in svg | obj) continue ;; esac # a growgrid lattice's alone: twisted_test.sh
    through "$kind" plain
    through "$kind" palette --palette "$dir/pal.xml"
done
# The palette reached every command: its colour is in the picture, which the model's own colours differ from.
cmp -s "$dir/plain/list/m_3.png" "$dir/palette/list/m_3.png" && bad "--palette changed nothing in batch's picture" || ok
# Every kind --tiles draws, with the user's sheet: the maps name it, no tileset is generated.
for kind in $("$T" help run | sed -n '/--tiles TILES.xml/,/^  --palette/p' | grep -o '\.[a-z]*' | sed 's/^\.//' | grep -v xml); do
    through "$kind" tiles --tiles "$dir/t.xml"
done
grep -q 'source="../../sheet.png"' "$dir/tiles/list/m_3.tmx" && ok || bad "batch's map does not name the sheet: $(grep image "$dir/tiles/list/m_3.tmx")"
[ -z "$(find "$dir/tiles" -name '*.tiles.png')" ] && ok || bad "--tiles maps generated a tileset: $(find "$dir/tiles" -name '*.tiles.png')"
# A sheet naming objects (R: a key on W's tile): every command writes the same object layers.
printf '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="7"/>\n  <tile symbol="W" index="1"/>\n  <tile symbol="R" object="key" type="item" ground="W"/>\n</tiles>\n' > "$dir/o.xml"
for kind in tmx tmj json; do through "$kind" objects --tiles "$dir/o.xml"; done
grep -q '<object id="3" name="key" type="item"' "$dir/objects/ref/m_3.tmx" && ok || bad "run's map has not its 3 keys: $(grep object "$dir/objects/ref/m_3.tmx")"
# The warning of symbols without a tile names only those the final grid holds (Q is a value the run never makes).
printf '<one values="BWRQ" in="B" out="W" steps="1"/>\n' > "$dir/q.xml"
only 0 "" "$T" run "$dir/q.xml" --size 4 --tiles "$dir/t.xml" -o "$dir/q.tmx"
printf '<tiles image="sheet.png" size="2">\n  <tile symbol="B" index="7"/>\n</tiles>\n' > "$dir/b_only.xml"
only 0 "$dir/b_only.xml: warning: no tile for symbols \"W\"; left empty" "$T" run "$dir/q.xml" --size 4 --tiles "$dir/b_only.xml" -o "$dir/q2.tmx"
# --tiles without a kind it draws is refused by every command, before anything runs.
expect 2 "--tiles draws with a tile sheet" "$T" run "$P/models/m.xml" --tiles "$dir/t.xml" -o "$dir/no.txt"
expect 2 "--tiles draws with a tile sheet" "$T" run "$P/models/m.xml" --seeds 1,2 --tiles "$dir/t.xml" -o "$dir/no_{seed}.vox"
expect 2 "--tiles draws with a tile sheet" "$T" batch "$P/models.xml" --tiles "$dir/t.xml" -o "$dir/no"
expect 2 "--tiles draws with a tile sheet" "$T" batch "$P" --tiles "$dir/t.xml" -o "$dir/no/{model}_{seed}.txt"
[ ! -e "$dir/no" ] && [ -z "$(find "$dir" -maxdepth 1 -name 'no*')" ] && ok || bad "a refused --tiles wrote something"

# batch -o DIR (no template) writes the reference's names and kinds, the same pictures as run.
expect 0 "" "$T" batch "$P/models.xml" -q --palette "$dir/pal.xml" -o "$dir/dir_list"
expect 0 "" "$T" batch "$P" -q --palette "$dir/pal.xml" -o "$dir/dir_pack"
same "batch -o DIR" "$dir/palette/ref/m_3.png" "$dir/dir_list/m_3.png"
same "batch PACK -o DIR" "$dir/palette/ref/m_3.png" "$dir/dir_pack/m_3.png"

# A batch of 100 tile maps writes one tileset image, which every map names.
printf '<models>\n  <model name="m" size="6" amount="100"/>\n</models>\n' > "$P/hundred.xml"
expect 0 "" "$T" batch "$P/hundred.xml" --models "$P/models" --seed 1 -q -j 2 -o "$dir/hundred/{model}_{i}.tmx"
[ "$(find "$dir/hundred" -name '*.tmx' | wc -l)" = 100 ] && ok || bad "the batch wrote $(find "$dir/hundred" -name '*.tmx' | wc -l) maps, not 100"
[ "$(find "$dir/hundred" -name '*.png' | wc -l)" = 1 ] && [ -f "$dir/hundred/m.tiles.png" ] && ok || bad "tilesets: $(find "$dir/hundred" -name '*.png' | wc -l)"
[ "$(grep -l '<image source="m.tiles.png"' "$dir/hundred"/*.tmx | wc -l)" = 100 ] && ok || bad "not every map names m.tiles.png"

# The step-limit note and the default step limit are one wording and one number in every command.
expect 0 "m.xml: stopped at the step limit (2 steps) before the model finished; raise it with --steps N" \
    "$T" run "$P/models/m.xml" --steps 2 -o "$dir/limit.png"
printf '<models>\n  <model name="m" size="6" amount="1" seeds="3" steps="2"/>\n</models>\n' > "$P/limit.xml"
expect 0 "limit.xml:2: m_3 stopped at the step limit (2 steps) before the model finished; raise the entry's steps" \
    "$T" batch "$P/limit.xml" --models "$P/models" -o "$dir/limit_out"
finish pipeline
