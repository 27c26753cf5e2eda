#!/bin/sh
# datadir_test.sh — `smalti run NAME` runs a bundled model of the data folder ($SMALTI_DATADIR/models,
# here the repository's own models/) when NAME is no file here and has no '/'. Usage: datadir_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
case $T in /*) ;; *) T=$PWD/$T ;; esac
root=$PWD

"$T" run models/maze.xml --size 21 --seed 4 -q -o "$dir/want.txt"
# By name and by name.xml, from another folder: the same grid as the file itself.
(cd "$dir" && SMALTI_DATADIR=$root "$T" run maze --size 21 --seed 4 -q -o "$dir/a.txt") && cmp -s "$dir/want.txt" "$dir/a.txt" \
    && ok || bad "run maze with SMALTI_DATADIR=$root differs from run models/maze.xml"
(cd "$dir" && SMALTI_DATADIR=$root "$T" run maze.xml --size 21 --seed 4 -q -o "$dir/b.txt") && cmp -s "$dir/want.txt" "$dir/b.txt" \
    && ok || bad "run maze.xml with SMALTI_DATADIR=$root differs from run models/maze.xml"
expect 0 'ok (' env SMALTI_DATADIR="$root" sh -c "cd '$dir' && '$T' check cave"
# A file of that name in the working folder wins over the bundled model.
printf '<one values="BR" in="B" out="R"/>\n' >"$dir/maze"
(cd "$dir" && SMALTI_DATADIR=$root "$T" run maze --size 3 -q -o "$dir/c.txt") && grep -q '^RRR$' "$dir/c.txt" \
    && ok || bad "run maze did not take ./maze first"
rm "$dir/maze"
# Not bundled, or a path: the usual error about the file, exit 5.
expect 5 'nosuchmodel: error: cannot open' env SMALTI_DATADIR="$root" sh -c "cd '$dir' && '$T' run nosuchmodel -q"
expect 5 'sub/maze: error: cannot open' env SMALTI_DATADIR="$root" sh -c "cd '$dir' && '$T' run sub/maze -q"
# A data folder without models/pack.xml is none.
expect 5 'maze: error: cannot open' env SMALTI_DATADIR="$dir" sh -c "cd '$dir' && '$T' run maze -q"
finish datadir
