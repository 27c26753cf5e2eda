#!/bin/sh
# startup_test.sh — libzip, libcrypto and libmicrohttpd are loaded only by the commands that need
# them (the dynamic loader's LD_DEBUG=libs names each library it initialises), and a command whose
# library is missing fails with exit 4 and says which package to install.
# Usage: startup_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
M=$(dirname "$0")/../../models/growth.xml
HOME=$dir/home XDG_DATA_HOME=$dir/xdg
export HOME XDG_DATA_HOME

# loaded CODE LIBS -- command...: exits CODE and the loader initialises each of LIBS (e.g. "zip crypto")
loaded() {
    code=$1 libs=$2; shift 2
    out=$(LD_DEBUG=libs "$@" 2>&1); rc=$?
    if [ "$rc" != "$code" ]; then bad "$* exited $rc, expected $code: $(printf '%s\n' "$out" | grep -v '^ *[0-9]*:')"; return; fi
    for l in $libs; do
        printf '%s\n' "$out" | grep -q "calling init: .*/lib$l\.so" || { bad "$*: lib$l not loaded"; return; }
    done
    ok
}
# not_loaded CODE LIBS -- command...: exits CODE and the loader maps none of LIBS
not_loaded() {
    code=$1 libs=$2; shift 2
    out=$(LD_DEBUG=libs "$@" 2>&1); rc=$?
    if [ "$rc" != "$code" ]; then bad "$* exited $rc, expected $code: $(printf '%s\n' "$out" | grep -v '^ *[0-9]*:')"; return; fi
    for l in $libs; do
        printf '%s\n' "$out" | grep -q "/lib$l\.so" && { bad "$*: lib$l was loaded"; return; }
    done
    ok
}
# The loader does report here: else every not_loaded below would pass for nothing.
loaded 0 "c" "$T" --version

# --- libxml2 and what it brings (ICU, libstdc++, liblzma) are in the binary (STATIC_CLI=1 from
# `make cli-test` when the Makefile linked their archives): the loader maps none of them ---
if [ "${STATIC_CLI:-0}" = 1 ]; then
    not_loaded 0 "xml2 icuuc icudata stdc++ lzma gif z" "$T" --version
    not_loaded 0 "xml2 icuuc icudata stdc++ lzma gif z" "$T" run "$M" --size 3 -q -o "$dir/s.txt"
fi
# Either way a model in a legacy encoding (converted by ICU, inside the binary or not) reads as
# its UTF-8 twin: the same grid.
printf '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Wüste, Вода -->\n<one values="BW" in="B" out="W" steps="5"/>\n' > "$dir/utf8.xml"
printf '<?xml version="1.0" encoding="KOI8-R"?>\n<!-- \327\317\304\301 -->\n<one values="BW" in="B" out="W" steps="5"/>\n' > "$dir/koi8.xml"
printf '<?xml version="1.0" encoding="windows-1250"?>\n<!-- W\374ste -->\n<one values="BW" in="B" out="W" steps="5"/>\n' > "$dir/cp1250.xml"
expect 0 '' "$T" run "$dir/utf8.xml" --size 6 --seed 3 -q -o "$dir/utf8.txt"
expect 0 '' "$T" run "$dir/koi8.xml" --size 6 --seed 3 -q -o "$dir/koi8.txt"
expect 0 '' "$T" run "$dir/cp1250.xml" --size 6 --seed 3 -q -o "$dir/cp1250.txt"
# (the first line of a text grid names the model: the file's name)
for f in utf8 koi8 cp1250; do sed 1d "$dir/$f.txt" > "$dir/$f.grid"; done
grep -q W "$dir/utf8.grid" && cmp -s "$dir/utf8.grid" "$dir/koi8.grid" && cmp -s "$dir/utf8.grid" "$dir/cp1250.grid" && ok || bad "a KOI8-R or windows-1250 model gave another grid than its UTF-8 twin"

# --- a plain start and a plain run map none of them, nor what they pull in (gnutls, bz2, ...) ---
NONE="zip crypto microhttpd gnutls bz2 nettle"
not_loaded 0 "$NONE" "$T" --version
not_loaded 0 "$NONE" "$T" run "$M" --size 3 -q -o "$dir/x.txt"
not_loaded 0 "$NONE" "$T" batch "$M" -q -o "$dir/batch"
not_loaded 5 "$NONE" "$T" run "$dir/missing.xml" -q -o "$dir/y.txt"

# --- packs: a folder pack needs neither; building a zip and reading it need both ---
C=$dir/castles
"$T" pack new "$C" -q
not_loaded 0 "zip crypto" "$T" run "$C" islands -q -o "$dir/folder.txt"
loaded 0 "zip crypto" "$T" pack build "$C" -q -o "$dir/castles.zip"
loaded 0 "zip crypto" "$T" run "$dir/castles.zip" islands -q -o "$dir/zip.txt"
loaded 0 "zip crypto" "$T" pack list "$dir/castles.zip"
# A manifest line carries the grid's SHA-256: libcrypto, but no libzip.
loaded 0 "crypto" "$T" run "$M" --size 3 --seeds 1..2 -q -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl"
not_loaded 0 "zip microhttpd" "$T" run "$M" --size 3 --seeds 3..4 -q -o "$dir/n/{seed}.txt" --manifest "$dir/n.jsonl"
# --- studio loads libmicrohttpd first (then finds no model here), and nothing of packs ---
loaded 5 "microhttpd" "$T" studio "$dir/missing.xml"
not_loaded 5 "zip crypto" "$T" studio "$dir/missing.xml"

# --- a missing library: hidden in a private mount namespace (needs root or user namespaces) ---
# without_lib SONAME -- command...: the command with /dev/null in place of that library.
without_lib() {
    so=$1; shift
    unshare -rm sh -c 'mount --bind /dev/null "$(realpath "$(ldconfig -p | sed -n "s|.*$0 .*=> ||p" | head -1)")" && exec "$@"' "$so" "$@"
}
if command -v unshare > /dev/null && without_lib libzip.so.4 true 2> /dev/null; then
    expect 4 '^smalti: error: packs need libzip (libzip4): .*libzip\.so\.4' without_lib libzip.so.4 "$T" run "$dir/castles.zip" islands -q -o "$dir/z.txt"
    expect 4 '^smalti: error: packs need libzip (libzip4): ' without_lib libzip.so.4 "$T" pack build "$C" -q -o "$dir/again.zip"
    [ ! -e "$dir/again.zip" ] && ok || bad "pack build without libzip wrote a zip"
    expect 0 '' without_lib libzip.so.4 "$T" run "$C" islands -q -o "$dir/folder2.txt"
    cmp -s "$dir/folder.txt" "$dir/folder2.txt" && ok || bad "a folder pack without libzip gave another grid"
    expect 4 'm2.jsonl: error: SHA-256 checksums need libcrypto (libssl3): .*libcrypto\.so\.3' \
        without_lib libcrypto.so.3 "$T" run "$M" --size 3 --seeds 1..2 -q -o "$dir/m2/{seed}.txt" --manifest "$dir/m2.jsonl"
    [ ! -e "$dir/m2.jsonl" ] && [ ! -e "$dir/m2" ] && ok || bad "a manifest run without libcrypto wrote files"
    expect 4 '^smalti: error: studio needs libmicrohttpd (libmicrohttpd12): .*libmicrohttpd\.so\.12' \
        without_lib libmicrohttpd.so.12 "$T" studio "$M"
    expect 0 '' without_lib libmicrohttpd.so.12 "$T" run "$M" --size 3 -q -o "$dir/x2.txt"
else
    echo "startup: no private mount namespace here (unshare -rm): the missing-library checks are skipped"
fi
finish startup
