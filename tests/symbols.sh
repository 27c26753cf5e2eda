#!/bin/sh
# symbols.sh — the libraries define exactly the API: the shared library (and the static archive, when
# given) define as global every smalti_* function that smalti.h marks SMALTI_API, and no other global;
# the shared library carries its SONAME (libsmalti.so.MAJOR).
# Usage: sh tests/symbols.sh build/libsmalti.so include/smalti.h [build/libsmalti.a]
set -u
lib=$1 header=$2 archive=${3:-}
fail=0
declared=$(sed -n 's/^SMALTI_API .*[ *]\(smalti_[a-z_]*\)(.*/\1/p' "$header" | sort -u)
[ -n "$declared" ] || { echo "symbols: no SMALTI_API function found in $header"; exit 1; }

# check WHAT NAMES: NAMES (one a line) are the globals WHAT defines; none may lack the smalti_
# prefix, and every SMALTI_API function must be among them.
check() {
    what=$1 names=$2
    [ -n "$names" ] || { echo "symbols: $what defines no global symbol"; fail=1; return; }
    stray=$(printf '%s\n' "$names" | grep -v '^smalti_')
    if [ -n "$stray" ]; then
        echo "symbols: $what defines $(printf '%s\n' "$stray" | wc -l) global symbols outside the API, such as:"
        printf '%s\n' "$stray" | head -10 | sed 's/^/  /'
        fail=1
    fi
    missing=$(printf '%s\n' "$declared" | while read -r f; do printf '%s\n' "$names" | grep -qx "$f" || echo "$f"; done)
    if [ -n "$missing" ]; then
        echo "symbols: declared SMALTI_API but not defined by $what:"; printf '  %s\n' $missing; fail=1
    fi
}

# The dynamic table (what a loader binds) and the full symbol table's globals (what nm shows).
# nm's defined globals: the lines "VALUE TYPE NAME" (archive member headers and blank lines aside).
globals() { nm "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[A-Z]$/ && $2 != "U" { print $3 }' | sort -u; }
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u)
check "$lib (dynamic symbols)" "$exported"
check "$lib" "$(globals -g --defined-only "$lib")"
major=$(sed -n 's/^#define SMALTI_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "libsmalti.so.$major" ]; then echo "symbols: SONAME is '$soname', want libsmalti.so.$major"; fail=1; fi
if [ -n "$archive" ]; then
    static=$(globals -g --defined-only "$archive")
    check "$archive" "$static"
fi
[ $fail = 0 ] && echo "symbols: $lib exports $(printf '%s\n' "$exported" | wc -l)${archive:+, $archive defines $(printf '%s\n' "$static" | wc -l)}," \
    "all declared SMALTI_API in $header; SONAME $soname"
exit $fail
