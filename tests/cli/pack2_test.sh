#!/bin/sh
# pack2_test.sh — making packs: `pack new` (a skeleton that loads and runs), `pack build` (a
# reproducible zip: sorted entries, fixed times and modes, SHA256SUMS; junk left out; unsafe
# folders refused; nothing written on failure) and `pack gallery` (a self-contained page).
# Usage: pack2_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
case $T in /*) ;; *) T=$(pwd)/$T ;; esac

# files_in DIR: the files and folders under DIR, one a line, sorted (to see what a failure left).
files_in() { (cd "$1" && find . | LC_ALL=C sort); }
# zip_names ZIP: the entry names, in the zip's order.
zip_names() { python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1"; }

# --- pack new ---
P=$dir/castles
expect 0 'a new pack "castles"' "$T" pack new "$P"
[ "$(files_in "$P" | tr '\n' ' ')" = ". ./README.md ./models ./models/islands.xml ./pack.xml " ] && ok || bad "pack new wrote: $(files_in "$P")"
expect 0 'name="castles" version="0.1.0"' cat "$P/pack.xml"
# Its model runs, at the manifest's size, and its picture has the manifest's size and pixel size.
expect 0 '^grid 48 48 1$' "$T" run "$P/models/islands.xml" --size 48
# pack check passes on the skeleton, and run PACK MODEL runs its model.
expect 0 '' "$T" pack check "$P"
expect 0 '^grid 48 48 1$' "$T" run "$P" islands
# An existing non-empty folder is refused and left as it was; a file too; an empty folder is used.
before=$(files_in "$P"; cat "$P/pack.xml")
expect 5 'castles: error: the folder is not empty' "$T" pack new "$P"
[ "$(files_in "$P"; cat "$P/pack.xml")" = "$before" ] && ok || bad "pack new changed a non-empty folder"
touch "$dir/afile"
expect 5 'afile: error: exists and is not a folder' "$T" pack new "$dir/afile"
mkdir "$dir/empty"
expect 0 'a new pack "empty"' "$T" pack new "$dir/empty/"
[ -f "$dir/empty/pack.xml" ] && ok || bad "pack new did not fill an empty folder"
# The name: from the folder (made fit for a pack name), or --name, which is checked.
expect 0 'a new pack "My-Pack-"' "$T" pack new "$dir/My Pack!"
expect 0 'a new pack "tiles"' "$T" pack new "$dir/other" --name tiles
expect 2 '--name bad/name: a pack name has letters' "$T" pack new "$dir/other2" --name bad/name
[ ! -e "$dir/other2" ] && ok || bad "pack new --name bad/name made the folder"
# A parent that does not exist: refused, and no temporary folder is left behind.
expect 5 'cannot make the folder' "$T" pack new "$dir/no/such/place"
[ -z "$(ls -A "$dir/no" 2>/dev/null)" ] && ok || bad "pack new left files in $dir/no"
expect 2 'missing DIR' "$T" pack new

# --- pack build: reproducible ---
mkdir "$dir/out"
expect 0 'a.zip: 3 files and SHA256SUMS' "$T" pack build "$P" -o "$dir/out/a.zip"
# Other times on disk change nothing (set, not waited for: the zip's own times are checked below).
touch -t 200102030405.06 "$P/pack.xml" "$P/models/islands.xml"
expect 0 '' "$T" pack build "$P" -o "$dir/out/b.zip"
cmp -s "$dir/out/a.zip" "$dir/out/b.zip" && ok || bad "two builds of the same folder differ"
# The default name comes from pack.xml, in the current folder.
(cd "$dir/out" && "$T" pack build "$P" -q) && cmp -s "$dir/out/a.zip" "$dir/out/castles-0.1.0.zip" && ok ||
    bad "pack build without -o did not write castles-0.1.0.zip"
# Sorted names, SHA256SUMS among them, 1980-01-01 times, mode 0644, deflate; the sums are right.
[ "$(zip_names "$dir/out/a.zip" | tr '\n' ' ')" = "README.md SHA256SUMS models/islands.xml pack.xml " ] && ok ||
    bad "zip entries: $(zip_names "$dir/out/a.zip" | tr '\n' ' ')"
expect 0 '^fixed$' python3 -c '
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = [i.filename for i in z.infolist() if i.date_time != (1980, 1, 1, 0, 0, 0) or i.external_attr >> 16 != 0o100644
       or i.compress_type != zipfile.ZIP_DEFLATED or i.extra or i.comment]
print("fixed" if not bad and not z.comment else "not fixed: %s" % bad)' "$dir/out/a.zip"
mkdir "$dir/unz" && (cd "$dir/unz" && unzip -q "$dir/out/a.zip") && (cd "$dir/unz" && sha256sum -c --quiet SHA256SUMS) && ok ||
    bad "the SHA256SUMS inside do not match the files"
[ "$(wc -l < "$dir/unz/SHA256SUMS")" = 3 ] && ok || bad "SHA256SUMS should list the 3 files"
# The zip runs as the folder does (run PACK MODEL reads it in memory), and checks clean.
"$T" run "$P" islands -q -o "$dir/from_dir.txt" && "$T" run "$dir/out/a.zip" islands -q -o "$dir/from_zip.txt" &&
    cmp -s "$dir/from_dir.txt" "$dir/from_zip.txt" && ok || bad "the model runs differently from the zip"
expect 0 '' "$T" pack check "$dir/out/a.zip"
# SOURCE_DATE_EPOCH sets the times (in UTC whatever the time zone); a bad one is a usage error.
SOURCE_DATE_EPOCH=1700000000 TZ=Asia/Tokyo "$T" pack build "$P" -q -o "$dir/out/e1.zip"
SOURCE_DATE_EPOCH=1700000000 TZ=UTC "$T" pack build "$P" -q -o "$dir/out/e2.zip"
cmp -s "$dir/out/e1.zip" "$dir/out/e2.zip" && ok || bad "the time zone changed the zip"
expect 0 '^(2023, 11, 14, 22, 13, 20)$' python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).infolist()[0].date_time)' "$dir/out/e1.zip"
SOURCE_DATE_EPOCH=soon expect 2 'SOURCE_DATE_EPOCH=soon: expected a whole number' "$T" pack build "$P" -o "$dir/out/e3.zip"

# The project's pack: built twice the same, and every model's output from the zip is the folder's.
root=$(cd "$(dirname "$0")/../.." && pwd)
"$T" pack build "$root/models" -q -o "$dir/out/m1.zip" && "$T" pack build "$root/models" -q -o "$dir/out/m2.zip" &&
    cmp -s "$dir/out/m1.zip" "$dir/out/m2.zip" && ok || bad "two builds of models/ differ"
"$T" batch "$root/models" -q -o "$dir/bm_dir" && "$T" batch "$dir/out/m1.zip" -q -o "$dir/bm_zip" &&
    [ "$(ls "$dir/bm_dir" | wc -l)" -ge 20 ] && diff -r "$dir/bm_dir" "$dir/bm_zip" >/dev/null && ok ||
    bad "batch of the models/ zip differs from batch of the folder"

# --- pack build: what is left out ---
cp -r "$P" "$dir/junk"
mkdir "$dir/junk/.git"
for f in .git/HEAD .hidden models/.islands.xml.swp models/islands.xml~ '#notes#' old.bak pack.xml.orig x.rej Thumbs.db SHA256SUMS; do
    echo junk > "$dir/junk/$f"
done
"$T" pack build "$dir/junk" -q -o "$dir/junk/junk-0.1.0.zip" # into the folder itself, twice
expect 0 '' "$T" pack build "$dir/junk" -o "$dir/junk/junk-0.1.0.zip"
[ "$(zip_names "$dir/junk/junk-0.1.0.zip" | tr '\n' ' ')" = "README.md SHA256SUMS models/islands.xml pack.xml " ] && ok ||
    bad "junk went into the zip: $(zip_names "$dir/junk/junk-0.1.0.zip" | tr '\n' ' ')"
cmp -s "$dir/junk/junk-0.1.0.zip" "$dir/out/a.zip" && ok || bad "left-out files changed the zip"
expect 0 '  models/islands.xml' "$T" pack build "$dir/junk" -v -o "$dir/out/v.zip"

# --- pack build: refused, and nothing written ---
# refused NAME CODE PATTERN: build $dir/NAME to $dir/out/NAME.zip, expect the refusal, and check
# that no zip and no temporary file appeared, and that an older output stays as it was.
refused() {
    echo old > "$dir/out/$1.zip"
    expect "$2" "$3" "$T" pack build "$dir/$1" -o "$dir/out/$1.zip"
    [ "$(cat "$dir/out/$1.zip")" = old ] && ok || bad "a refused build of $1 changed its output"
    rm -f "$dir/out/$1.zip"
    [ -z "$(ls "$dir/out" | grep "^$1")" ] && ok || bad "a refused build of $1 left $(ls "$dir/out" | grep "^$1")"
}
cp -r "$P" "$dir/link_in" && ln -s islands.xml "$dir/link_in/models/alias.xml"
refused link_in 3 'link_in/models/alias.xml: error: a symbolic link; a pack holds only plain files'
cp -r "$P" "$dir/link_out" && ln -s /etc/passwd "$dir/link_out/passwd"
refused link_out 3 'link_out/passwd: error: a symbolic link'
cp -r "$P" "$dir/link_dir" && ln -s /etc "$dir/link_dir/etc"
refused link_dir 3 'link_dir/etc: error: a symbolic link'
cp -r "$P" "$dir/fifo" && mkfifo "$dir/fifo/pipe"
refused fifo 3 'fifo/pipe: error: not a plain file'
# (issue 33, item 2) a link to /dev/zero is refused, not read without end; files are opened beneath
# the folder with no link followed (pack3_test.sh has the rest).
cp -r "$P" "$dir/zero" && ln -s /dev/zero "$dir/zero/zero.png"
refused zero 3 'zero/zero.png: error: a symbolic link'
# Reading a folder pack follows no link either, even one that stays inside it: the model is refused
# by name, and a link to a FIFO does not leave the run waiting for a writer.
cp -r "$P" "$dir/run_link" && mv "$dir/run_link/models/islands.xml" "$dir/run_link/real.xml" &&
    ln -s ../real.xml "$dir/run_link/models/islands.xml"
expect 3 'run_link/models/islands.xml: error: a symbolic link; a pack folder is read without following links' \
    "$T" run "$dir/run_link" islands -q
cp -r "$P" "$dir/run_fifo" && rm "$dir/run_fifo/models/islands.xml" && mkfifo "$dir/run_fifo/models/islands.xml"
expect 5 'run_fifo/models/islands.xml: error: cannot read: not a regular file' guard 300 "$T" run "$dir/run_fifo" islands -q
cp -r "$P" "$dir/backslash" && echo x > "$dir/backslash/a\\b.xml"
refused backslash 3 'backslash/a\\b.xml: error: the name has a backslash'
cp -r "$P" "$dir/badxml" && echo '<pack name="x"' > "$dir/badxml/pack.xml"
refused badxml 3 'badxml/pack.xml:[0-9]*: error: malformed XML'
cp -r "$P" "$dir/noversion" && sed -i 's/ version="0.1.0"//' "$dir/noversion/pack.xml"
refused noversion 3 'noversion/pack.xml:[0-9]*: error: .*version'
cp -r "$P" "$dir/newer" && sed -i 's/smalti="[^"]*"/smalti="99.0.0"/' "$dir/newer/pack.xml"
refused newer 3 'newer/pack.xml.*99.0.0'
cp -r "$P" "$dir/missing" && rm "$dir/missing/models/islands.xml"
refused missing 3 'missing/pack.xml:8: error: models/islands.xml is not in the pack'
cp -r "$P" "$dir/hidden" && mv "$dir/hidden/models/islands.xml" "$dir/hidden/models/.islands.xml" &&
    sed -i 's|models/islands.xml|models/.islands.xml|' "$dir/hidden/pack.xml"
refused hidden 3 'hidden/pack.xml:8: error: models/.islands.xml is not in the pack, or is a file pack build leaves out'
cp -r "$P" "$dir/brokenmodel" && printf '<sequence values="BW">\n  <one in="B" out="Q"/>\n</sequence>\n' > "$dir/brokenmodel/models/islands.xml"
refused brokenmodel 3 'brokenmodel/models/islands.xml:2: error'
# A model's resource must be inside the pack's resource folder: one that only --resources would find is refused.
cp -r "$P" "$dir/nores" && printf '<sequence values="BW">\n  <rule file="Nowhere"/>\n</sequence>\n' > "$dir/nores/models/islands.xml"
refused nores 3 'nores/models/islands.xml:2: error'
cp -r "$P" "$dir/big" && head -c 2200000 /dev/zero > "$dir/big/blob.bin"
echo old > "$dir/out/big.zip"
expect 3 'big/blob.bin: error: with this file the pack holds more than --max-unpacked' "$T" pack build "$dir/big" --max-unpacked 2M -o "$dir/out/big.zip"
[ "$(cat "$dir/out/big.zip")" = old ] && ok || bad "a refused build changed its output"
expect 0 '' "$T" pack build "$dir/big" -q --max-unpacked 3M -o "$dir/out/big.zip"
expect 2 '--max-unpacked takes a size' "$T" pack build "$P" --max-unpacked lots
expect 5 'no such folder' "$T" pack build "$dir/nothing"
expect 5 'not a folder' "$T" pack build "$dir/out/a.zip"
expect 5 'cannot write' "$T" pack build "$P" -o "$dir/no/such/dir/p.zip"
expect 2 "unknown option '--max-unpakced'; did you mean '--max-unpacked'" "$T" pack build "$P" --max-unpakced 2M
expect 2 'missing DIR' "$T" pack build
[ "$(files_in "$P" | tr '\n' ' ')" = ". ./README.md ./models ./models/islands.xml ./pack.xml " ] && ok || bad "pack build wrote into the pack: $(files_in "$P")"

# --- pack gallery ---
cat > "$dir/castles/models/tower.xml" <<'XML'
<sequence values="BWR">
  <one in="B" out="W" steps="30"/>
  <one in="W" out="R" steps="5"/>
</sequence>
XML
sed -i 's|</pack>|  <model file="models/tower.xml" title="Tower \&amp; \&lt;keep\&gt;" tags="3d stone" size="6" d="3"/>\n</pack>|' "$P/pack.xml"
expect 0 'g.html: 2 models' "$T" pack gallery "$P" -o "$dir/g.html"
G=$dir/g.html
[ "$(grep -o '<img [^>]*src="data:image/png;base64,[A-Za-z0-9+/=]*"' "$G" | wc -l)" = 2 ] && ok || bad "the page should have 2 embedded PNGs"
[ "$(grep -c '<figure class="card"' "$G")" = 2 ] && ok || bad "the page should have 2 cards"
lacks 'src="http\|href="http\|url(http\|src="//\|<script\|<link\|@import' cat "$G"
expect 0 "Content-Security-Policy\" content=\"default-src 'none'" cat "$G"
expect 0 'Tower &amp; &lt;keep&gt;' cat "$G"
expect 0 '<code>smalti run [^ ]*castles islands --seed 1 -o islands.png</code>' cat "$G"
expect 0 '<li>stone</li>' cat "$G"
expect 0 '6×6×6 · seed 1' cat "$G"
# The first picture is the PNG `smalti run` writes for the model at the manifest's settings.
grep -o 'base64,[A-Za-z0-9+/=]*' "$G" | head -1 | cut -c8- | base64 -d > "$dir/g1.png"
printf '<colors><color symbol="U" value="1D4E89"/><color symbol="G" value="3FA34D"/><color symbol="Y" value="E8D38A"/></colors>\n' > "$dir/pal.xml"
"$T" run "$P/models/islands.xml" --size 48 --seed 1 --steps 2000 --pixel-size 6 --palette "$dir/pal.xml" -q -o "$dir/r1.png"
cmp -s "$dir/g1.png" "$dir/r1.png" && ok || bad "the gallery's picture differs from smalti run's"
# From the built zip: the same pictures (the models read from the zip).
"$T" pack build "$P" -q -o "$dir/out/c.zip"
expect 0 '' "$T" pack gallery "$dir/out/c.zip" -q -o "$dir/gz.html"
[ "$(grep -o 'base64,[A-Za-z0-9+/=]*' "$G")" = "$(grep -o 'base64,[A-Za-z0-9+/=]*' "$dir/gz.html")" ] && ok ||
    bad "the gallery of the zip differs from the folder's"
# A model that fails: file:line, exit 3, and the page still shows the others, the failure in words.
cp -r "$P" "$dir/gfail" && printf '<sequence values="BW">\n  <one in="B" out="Q"/>\n</sequence>\n' > "$dir/gfail/models/tower.xml"
expect 3 'gfail/models/tower.xml:2: error' "$T" pack gallery "$dir/gfail" -o "$dir/gf.html"
[ "$(grep -c 'src="data:image/png' "$dir/gf.html")" = 1 ] && grep -q 'class="failed">[^<]*tower.xml:2:' "$dir/gf.html" && ok ||
    bad "the page of a pack with a failed model"
# A run without end is stopped by --timeout (exit 6), and its card says so: no step limit
# (steps="0") and a markov that turns a cell W and back for ever. `guard` only turns a run that
# ignores its deadline into a failure that says so.
cp -r "$P" "$dir/gslow" && sed -i 's/steps="2000"/steps="0"/' "$dir/gslow/pack.xml" &&
    printf '<sequence values="BW">\n  <one in="B" out="W" steps="1"/>\n  <markov><one in="W" out="B"/><one in="B" out="W"/></markov>\n</sequence>\n' > "$dir/gslow/models/islands.xml"
grep -q 'steps="0"' "$dir/gslow/pack.xml" && ok || bad "the endless pack still has a step limit"
expect 6 'timeout of 0.5 s' guard 300 "$T" pack gallery "$dir/gslow" --timeout 0.5 -o "$dir/gs.html"
grep -q 'class="failed">[^<]*timeout of 0.5 s' "$dir/gs.html" && ok || bad "the card of a run stopped by --timeout"
expect 3 'error' "$T" pack gallery "$dir/badxml" -o "$dir/gb.html"
[ ! -e "$dir/gb.html" ] && ok || bad "a pack that does not open still got a page"
expect 2 "unknown option '--timout'; did you mean '--timeout'" "$T" pack gallery "$P" --timout 3
expect 2 'missing PACK' "$T" pack gallery
expect 2 "unknown pack command 'biuld'" "$T" pack biuld "$P"
# A model with a NUL byte (after its root, where libxml2 reading the file stopped silently) is refused
# alike from the command line and in a pack, with the NUL's line (issue 33, item 13).
"$T" pack new "$dir/nul" > /dev/null
printf '\0\n' >> "$dir/nul/models/islands.xml"
nul_line=$(wc -l < "$dir/nul/models/islands.xml")
expect 3 "^$dir/nul/models/islands.xml:$nul_line: error: the model holds a NUL byte: not an XML file" \
    "$T" run "$dir/nul/models/islands.xml" -q -o "$dir/nul.png"
expect 3 "failed    islands: $dir/nul/models/islands.xml:$nul_line: the model holds a NUL byte" "$T" pack check "$dir/nul"
expect 3 "^$dir/nul/models/islands.xml:$nul_line: error: the model holds a NUL byte" "$T" pack build "$dir/nul" -q -o "$dir/nul.zip"
[ ! -e "$dir/nul.png" ] && [ ! -e "$dir/nul.zip" ] && ok || bad "a model with a NUL byte left an output"

finish pack2
