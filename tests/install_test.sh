#!/bin/sh
# install_test.sh — `make install` into a temporary DESTDIR, then: the files and links are there; the
# docs/api.md program builds with `pkg-config --cflags --libs smalti` (shared, and static with
# --static) against that copy and runs; the installed CLI runs installed models by name; the man
# page renders and names every command and option of the help texts; the bash completion
# completes; the installed Python module finds the installed library; the library exports only
# smalti_*; and `make uninstall` leaves exactly what was there before.
# Usage: sh tests/install_test.sh   (from the repository root, after make)
set -u
MAKE=${MAKE:-make}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root prefix=/usr/local
p=$root$prefix
fail=0 checks=0
ok() { checks=$((checks + 1)); }
bad() { fail=$((fail + 1)); echo "install-test: $*"; }

# Something of the user's already in the tree: uninstall must leave it, and its folders.
mkdir -p "$p/lib" && echo keep >"$p/lib/other.txt"

if ! out=$($MAKE --no-print-directory install DESTDIR="$root" PREFIX=$prefix 2>&1); then
    echo "install-test: make install failed:"; printf '%s\n' "$out"; exit 1
fi

# 1. The files.
for f in bin/smalti include/smalti.h lib/libsmalti.a lib/libsmalti.so.0.1.0 lib/pkgconfig/smalti.pc \
    share/man/man1/smalti.1 share/bash-completion/completions/smalti share/smalti/palette.xml \
    share/smalti/models/pack.xml share/smalti/models/maze.xml share/smalti/models/resources/tilesets/Pipes.xml \
    share/smalti/python/smalti.py; do
    if [ -f "$p/$f" ]; then ok; else bad "no $prefix/$f"; fi
done
[ "$(readlink "$p/lib/libsmalti.so.0")" = libsmalti.so.0.1.0 ] && ok || bad "libsmalti.so.0 does not link to libsmalti.so.0.1.0"
[ "$(readlink "$p/lib/libsmalti.so")" = libsmalti.so.0 ] && ok || bad "libsmalti.so does not link to libsmalti.so.0"
[ -x "$p/bin/smalti" ] && ok || bad "bin/smalti is not executable"

# nm on the installed libraries (shared and static): only smalti_* globals; the SONAME libsmalti.so.0.
if out=$(sh tests/symbols.sh "$p/lib/libsmalti.so" "$p/include/smalti.h" "$p/lib/libsmalti.a" 2>&1); then ok; else bad "$out"; fi

# 2. The docs/api.md program (its first ```c block with main), built with pkg-config against the copy.
awk '/^```c/ { inside = 1; text = ""; next }
     inside && /^```/ { inside = 0; if (text ~ /main *\(/) { printf "%s", text; exit } next }
     inside { text = text $0 "\n" }' docs/api.md >"$tmp/demo.c"
want=$(sed -n 's/^<!-- expect: \(.*\) -->$/\1/p' docs/api.md | head -1)
[ -s "$tmp/demo.c" ] && [ -n "$want" ] || bad "no C program with an expect line in docs/api.md"
pc() { PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --define-variable=prefix="$p" "$@" smalti; }
flags=$(pc --cflags --libs) || bad "pkg-config --cflags --libs smalti failed"
case $flags in *"-I$p/include"*"-L$p/lib"*|*"-L$p/lib"*"-I$p/include"*) ok ;; *) bad "pkg-config flags not in the copy: $flags" ;; esac
mkdir -p "$tmp/work" && ln -s "$p/share/smalti/models" "$tmp/work/models"   # the program opens models/maze.xml
# shellcheck disable=SC2086 # flags is a list
if out=$($CC -std=c11 -Wall -Wextra -Werror -o "$tmp/work/demo" "$tmp/demo.c" $flags 2>&1); then
    if ! ldd "$tmp/work/demo" | grep -q "libsmalti.so.0 => $p/lib/libsmalti.so.0" 2>/dev/null; then
        out=$(cd "$tmp/work" && LD_LIBRARY_PATH="$p/lib" ldd ./demo | grep libsmalti)
        case $out in *"$p/lib/libsmalti.so.0"*) ok ;; *) bad "the program does not load the installed library: $out" ;; esac
    fi
    if out=$(cd "$tmp/work" && LD_LIBRARY_PATH="$p/lib" ./demo 2>&1) && printf '%s\n' "$out" | grep -Eq -- "$want"; then ok
    else bad "the api.md program (shared) failed or printed no /$want/:"; printf '%s\n' "$out" | head -5; fi
else
    bad "the api.md program does not compile with pkg-config's flags:"; printf '%s\n' "$out" | head -10
fi
# The static library through --static (Requires.private and Libs.private must be complete).
sflags=$(pc --static --libs)
cflags=$(pc --cflags)
# shellcheck disable=SC2086
if out=$($CC -std=c11 $cflags -o "$tmp/work/demo-static" "$tmp/demo.c" "$p/lib/libsmalti.a" $(printf '%s\n' $sflags | grep -v '^-lsmalti$') 2>&1); then
    if ldd "$tmp/work/demo-static" | grep -q libsmalti; then bad "the static program still loads libsmalti.so"
    elif out=$(cd "$tmp/work" && ./demo-static 2>&1) && printf '%s\n' "$out" | grep -Eq -- "$want"; then ok
    else bad "the api.md program (static) failed: $out"; fi
else
    bad "the api.md program does not link statically with pkg-config --static: $out"
fi

# 3. The installed CLI on installed models, by name, from elsewhere (it finds ../share/smalti).
./smalti run models/maze.xml --size 21 --seed 3 -q -o "$tmp/want.txt"
if (cd / && "$p/bin/smalti" run maze --size 21 --seed 3 -q -o "$tmp/got.txt") && cmp -s "$tmp/want.txt" "$tmp/got.txt"; then ok
else bad "the installed smalti run maze differs from ./smalti run models/maze.xml"; fi
if (cd / && "$p/bin/smalti" run pipes.xml --size 12 -q -o "$tmp/pipes.png") && [ -s "$tmp/pipes.png" ]; then ok
else bad "the installed smalti does not run pipes (a model with installed resources)"; fi
if out=$("$p/bin/smalti" pack list "$p/share/smalti/models" 2>&1) && printf '%s\n' "$out" | grep -q '^  *maze '; then ok
else bad "smalti pack list of the installed models: $out"; fi
if out=$(cd "$tmp" && SMALTI_DATADIR="$tmp/none" "$p/bin/smalti" run maze -q 2>&1); then bad "SMALTI_DATADIR pointing nowhere still found maze"
else case $out in *"maze: error: cannot open"*) ok ;; *) bad "a missing bundled model: $out" ;; esac; fi

# 4. The man page renders, and names every command and every option of the help texts.
page=$p/share/man/man1/smalti.1
if text=$(MANWIDTH=100 man -l "$page" 2>"$tmp/man.err" | col -b) && [ -n "$text" ] && [ ! -s "$tmp/man.err" ]; then ok
else bad "man -l $page failed: $(cat "$tmp/man.err")"; fi
if command -v groff >/dev/null && out=$(groff -man -ww -z "$page" 2>&1) && [ -n "$out" ]; then bad "groff warns about the page: $out"; fi
printf '%s\n' "$text" >"$tmp/man.txt"
for cmd in run check batch wfc view pack "pack check" "pack list" "pack new" "pack build" "pack gallery" help; do
    title=$(printf 'SMALTI %s' "$cmd" | tr a-z A-Z)
    grep -q "^$title\$" "$tmp/man.txt" || bad "the man page has no section $title"
    # shellcheck disable=SC2086
    for opt in $(./smalti help $cmd | sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/   .*//' | grep -o -- '\(^\|[ ,]\)--*[a-z0-9][-a-z0-9]*' | tr -d ' ,' | sort -u); do
        # in its own command's section
        awk -v t="$title" -v o="$opt" '$0 == t { on = 1; next } /^[A-Z][A-Z ]+$/ { on = 0 } on && index($0, o) { found = 1 } END { exit !found }' "$tmp/man.txt" \
            && ok || bad "the man page's $title names no $opt"
    done
done
grep -q "$prefix/share/smalti/models" "$tmp/man.txt" && ok || bad "the man page does not say where the models are"

# 5. The bash completion: commands, a command's options, pack commands, model files.
if command -v bash >/dev/null; then
    # shellcheck disable=SC2016
    out=$(cd "$p/share/smalti" && bash -c '. "$1"
        t() { COMP_WORDS=("$2" "${@:3}"); COMP_CWORD=$(($# - 2)); COMPREPLY=(); _smalti; echo "${COMPREPLY[*]}"; }
        t _ "$2" ru; t _ "$2" run --pix; t _ "$2" pack l; t _ "$2" run models/ma; t _ "$2" view --o; t _ "$2" help pa' \
        _ "$p/share/bash-completion/completions/smalti" "$p/bin/smalti" 2>&1)
    exp=$(printf '%s\n' run --pixel-size list models/maze.xml --output pack)
    [ "$out" = "$exp" ] && ok || bad "completion gave:
$out
wanted:
$exp"
fi

# 6. The installed Python module finds the installed library (no SMALTI_LIB) and runs an installed model.
if command -v python3 >/dev/null; then
    if out=$(cd / && env -u SMALTI_LIB python3 -c '
import sys; sys.path.insert(0, sys.argv[1]); import smalti
print(smalti.load_library()._name)
print(smalti.run(sys.argv[2], seed=3, size=21, quiet=True).text(), end="")' "$p/share/smalti/python" "$p/share/smalti/models/maze.xml" 2>&1) \
        && [ "$(printf '%s\n' "$out" | head -1)" = "$p/share/smalti/python/../../../lib/libsmalti.so.0" ] \
        && [ "$(printf '%s\n' "$out" | tail -n +2)" = "$(sed '1,/^size /d' "$tmp/want.txt")" ]; then ok
    else bad "the installed Python module: $out"; fi
fi

# 7. Uninstall leaves what was there before, and nothing else.
if ! out=$($MAKE --no-print-directory uninstall DESTDIR="$root" PREFIX=$prefix 2>&1); then bad "make uninstall failed: $out"; fi
left=$(cd "$root" && find . | LC_ALL=C sort | tr '\n' ' ')
if [ "$left" = ". ./usr ./usr/local ./usr/local/lib ./usr/local/lib/other.txt " ]; then ok
else bad "after uninstall, left: $left"; fi

if [ $fail = 0 ]; then echo "install-test: $checks checks ok (install, pkg-config, CLI, man, completion, Python, uninstall)"; fi
exit $((fail > 0))
