#!/bin/sh
# seeds.sh PACK SMALTI OUT — seed corpora for the fuzz targets in OUT/<target>/, from the project's models,
# rules/ and tests/badinput/ and, when present, the shared corpus (SMALTI_SHARED, default ../shared).
# Nothing is copied into the project; OUT is under build/.
set -eu
pack=$1 smalti=$2 out=$3
shared=${SMALTI_SHARED:-../shared}
for t in model image trace wfc palette pack; do mkdir -p "$out/$t"; done

# The names a models.xml lists as 3-D (d="3", or a height).
three_d_names() { [ -f "$1" ] && sed -n 's/.*<model name="\([^"]*\)"[^>]*\( d="3"\| height="\).*/\1/p' "$1" | sort -u; }
is_in() { printf '%s\n' "$2" | grep -qx "$1"; }

# model: each model with the files its loading reads.
pack_dir() { # DIR ROOT PREFIX MODELS.xml
    names3=$(three_d_names "$4" || true)
    for f in "$1"/*.xml; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .xml)
        [ "$n" = models ] && continue
        flag=; is_in "$n" "$names3" && flag=--3d
        "$pack" model $flag --root "$2" "$f" "$out/model/$3-$n" || echo "seeds: could not pack $f" >&2
    done
}
pack_dir models rules proj models/models.xml
pack_dir tests/badinput tests/badinput bad /dev/null
[ -d "$shared/mj/models" ] && pack_dir "$shared/mj/models" "$shared/mj/resources" mj "$shared/mj/models.xml"

# image: every PNG and VOX file.
for dir in rules models/resources tests/badinput "$shared/mj/resources" "$shared/wfc"; do
    [ -d "$dir" ] || continue
    find "$dir" -type f \( -name '*.png' -o -name '*.vox' \) | while read -r f; do
        cp "$f" "$out/image/$(echo "$f" | sed 's|^\.*/*||; s|[/ ]|_|g')"
    done
done

# trace: runs of the project's models (and some of the shared corpus) on small grids, a few hundred steps.
trace() { # MODEL ROOT NAME DIM
    if [ "$4" = 3 ]; then size="--dim 3 --size 6"; else size="--size 12"; fi
    "$smalti" run "$1" $size --steps 300 --seed 1 -q --resources "$2" --trace "$out/trace/$3.trace" > /dev/null 2>&1 || true
}
names3=$(three_d_names models/models.xml)
for f in models/*.xml; do
    n=$(basename "$f" .xml)
    [ "$n" = models ] && continue
    dim=2; is_in "$n" "$names3" && dim=3
    trace "$f" rules "proj-$n" $dim
done
if [ -d "$shared/mj/models" ]; then
    names3=$(three_d_names "$shared/mj/models.xml")
    i=0
    for f in "$shared"/mj/models/*.xml; do
        i=$((i + 1))
        [ $((i % 8)) = 0 ] || continue
        n=$(basename "$f" .xml)
        dim=2; is_in "$n" "$names3" && dim=3
        trace "$f" "$shared/mj/resources" "mj-$n" $dim
    done
fi

# wfc: each samples.xml entry with its sample or tileset.
[ -f "$shared/wfc/samples.xml" ] && "$pack" wfc "$shared/wfc" "$shared/wfc/samples.xml" "$out/wfc"

# palette: palette files and model lists with <color>s.
for f in rules/palette.xml models/models.xml "$shared/mj/resources/palette.xml" "$shared/mj/models.xml"; do
    [ -f "$f" ] && cp "$f" "$out/palette/$(echo "$f" | sed 's|^\.*/*||; s|/|_|g')"
done
# pack: each model seed above as a pack of one model (pack.xml, models/NAME.xml, its files under
# resources/), which the target zips; and zips: the pack fixtures of tests/packs (the good one, each
# unsafe case; not the 1.5 MiB one) and the good one as `pack build` makes it.
for f in "$out"/model/proj-* "$out"/model/bad-* "$out"/model/mj-*; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    "$pack" pack "$n" "$f" "$out/pack/$n" || echo "seeds: could not make a pack of $f" >&2
done
if command -v python3 > /dev/null; then
    fixtures=$out/pack-fixtures
    rm -rf "$fixtures"
    python3 tests/packs/make_packs.py "$fixtures" > /dev/null
    for z in "$fixtures"/*.zip; do
        [ "$(basename "$z")" = big.zip ] || cp "$z" "$out/pack/zip-$(basename "$z")"
    done
    "$smalti" pack build "$fixtures/good" -o "$out/pack/zip-built-good.zip" > /dev/null 2>&1 ||
        echo "seeds: could not build $fixtures/good" >&2
    rm -rf "$fixtures"
fi
for t in model image trace wfc palette pack; do echo "seeds: $t: $(ls "$out/$t" | wc -l) files"; done
