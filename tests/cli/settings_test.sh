#!/bin/sh
# settings_test.sh — models that carry their own settings (<smalti> first in the root): used with
# no flags, overridden by flags and by models.xml entries, bad values as file:line. Usage: settings_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

cat > "$dir/own.xml" <<'XML'
<sequence values="BWR">
  <smalti size="12" seed="3" steps="5" pixelsize="6"><color symbol="R" value="D04030"/></smalti>
  <one in="B" out="W"/>
  <one in="B" out="R"/>
</sequence>
XML
sed '/<smalti/d' "$dir/own.xml" > "$dir/plain.xml"

# No flags: the file's size, seed and step limit.
expect 0 '^grid 12 12 1$' "$T" run "$dir/own.xml"
expect 0 '^seed 3$' "$T" run "$dir/own.xml"
expect 0 '^steps-limit 5$' "$T" run "$dir/own.xml"
expect 0 '^steps 5$' "$T" run "$dir/own.xml"
# ... the same grid as the plain model given those flags.
"$T" run "$dir/own.xml" -q | sed 1d > "$dir/a.txt"
"$T" run "$dir/plain.xml" -q --size 12 --seed 3 --steps 5 | sed 1d > "$dir/b.txt"
if cmp -s "$dir/a.txt" "$dir/b.txt"; then ok; else bad "own settings differ from the same flags"; fi
expect 0 'ok' "$T" check "$dir/own.xml"

# Flags win over the file.
expect 0 '^grid 5 7 1$' "$T" run "$dir/own.xml" --length 5 --width 7
expect 0 '^grid 9 9 1$' "$T" run "$dir/own.xml" --size 9
expect 0 '^seed 8$' "$T" run "$dir/own.xml" --seed 8
expect 0 '^steps 2$' "$T" run "$dir/own.xml" --steps 2
expect 0 '^grid 4 4 4$' "$T" run "$dir/own.xml" --size 4 --dim 3

# Pixel size and colours: the PNG is that of the plain model with --pixel-size 6 and a palette
# holding the file's colour; --pixel-size and --palette win over the file.
cat > "$dir/pal.xml" <<'XML'
<colors><color symbol="R" value="D04030"/></colors>
XML
cat > "$dir/pal2.xml" <<'XML'
<colors><color symbol="R" value="00FF00"/></colors>
XML
"$T" run "$dir/own.xml" -q -o "$dir/own.png"
"$T" run "$dir/plain.xml" -q --size 12 --seed 3 --steps 5 --pixel-size 6 --palette "$dir/pal.xml" -o "$dir/plain.png"
"$T" run "$dir/plain.xml" -q --size 12 --seed 3 --steps 5 --pixel-size 6 -o "$dir/default.png"
if cmp -s "$dir/own.png" "$dir/plain.png"; then ok; else bad "own pixel size and colours differ from the flags"; fi
if cmp -s "$dir/own.png" "$dir/default.png"; then bad "the file's colour was not used"; else ok; fi
"$T" run "$dir/own.xml" -q --palette "$dir/pal2.xml" --pixel-size 2 -o "$dir/own2.png"
"$T" run "$dir/plain.xml" -q --size 12 --seed 3 --steps 5 --pixel-size 2 --palette "$dir/pal2.xml" -o "$dir/plain2.png"
if cmp -s "$dir/own2.png" "$dir/plain2.png"; then ok; else bad "--palette/--pixel-size did not win over the file"; fi

# 3-D settings.
cat > "$dir/cube.xml" <<'XML'
<one values="BW" in="B" out="W"><smalti d="3" size="3" length="5"/></one>
XML
expect 0 '^grid 5 3 3$' "$T" run "$dir/cube.xml"

# A models.xml entry wins over the file, and takes from it what it leaves out.
mkdir -p "$dir/b/models"
cp "$dir/own.xml" "$dir/b/models/own.xml"
cat > "$dir/b/list.xml" <<'XML'
<models>
  <model name="own" seeds="3" amount="1"/>
  <model name="own" size="7" steps="2" pixelsize="1" seeds="4" amount="1"/>
</models>
XML
expect 0 'own_3: 5 steps' "$T" batch "$dir/b/list.xml" -o "$dir/b/out"
expect 0 'own_4: 2 steps' "$T" batch "$dir/b/list.xml" -o "$dir/b/out"
"$T" run "$dir/own.xml" -q --seed 3 -o "$dir/own3.png"
if cmp -s "$dir/own3.png" "$dir/b/out/own_3.png"; then ok; else bad "batch entry without size differs from run"; fi
"$T" run "$dir/own.xml" -q --seed 4 --size 7 --steps 2 --pixel-size 1 -o "$dir/own4.png"
if cmp -s "$dir/own4.png" "$dir/b/out/own_4.png"; then ok; else bad "batch entry attributes did not win over the file"; fi

# Bad settings: file:line, exit 3.
printf '<markov values="BW">\n  <smalti size="0"/>\n  <one in="B" out="W"/>\n</markov>\n' > "$dir/bad1.xml"
only 3 "$dir/bad1.xml:2: error: <smalti> size=\"0\": expected a whole number from 1 to 16777216" "$T" run "$dir/bad1.xml"
printf '<markov values="BW">\n  <smalti d="5"/>\n  <one in="B" out="W"/>\n</markov>\n' > "$dir/bad2.xml"
expect 3 "bad2.xml:2: error: .*dimension must be 2 or 3" "$T" run "$dir/bad2.xml"
expect 3 "bad2.xml:2: error" "$T" check "$dir/bad2.xml"
printf '<markov values="BW">\n  <smalti>\n    <color symbol="W" value="white"/>\n  </smalti>\n  <one in="B" out="W"/>\n</markov>\n' > "$dir/bad3.xml"
expect 3 "bad3.xml:3: error: expected <color" "$T" run "$dir/bad3.xml"
printf '<markov values="BW">\n  <one in="B" out="W"/>\n  <smalti size="5"/>\n</markov>\n' > "$dir/bad4.xml"
expect 3 "bad4.xml:3: error: <smalti> .*first child of the root" "$T" run "$dir/bad4.xml"
cp "$dir/bad2.xml" "$dir/b/models/bad2.xml"
printf '<models>\n  <model name="bad2" size="4"/>\n</models>\n' > "$dir/b/badlist.xml"
expect 3 "bad2.xml:2: error" "$T" batch "$dir/b/badlist.xml" -o "$dir/b/out"
printf '<markov values="BW">\n  <smalti sise="5"/>\n  <one in="B" out="W"/>\n</markov>\n' > "$dir/warn.xml"
expect 0 "warn.xml:2: warning: .*sise" "$T" run "$dir/warn.xml"
finish settings
