#!/bin/sh
# symbols.sh — the shared library exports exactly the API: every smalti_* function that smalti.h
# marks SMALTI_API, and nothing else; and it carries its SONAME (libsmalti.so.MAJOR).
# Usage: sh tests/symbols.sh build/libsmalti.so include/smalti.h
set -u
lib=$1 header=$2
fail=0
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u)
[ -n "$exported" ] || { echo "symbols: $lib exports nothing"; exit 1; }
stray=$(printf '%s\n' "$exported" | grep -v '^smalti_')
if [ -n "$stray" ]; then
    echo "symbols: $lib exports $(printf '%s\n' "$stray" | wc -l) symbols outside the API, such as:"
    printf '%s\n' "$stray" | head -10 | sed 's/^/  /'
    fail=1
fi
declared=$(sed -n 's/^SMALTI_API .*[ *]\(smalti_[a-z_]*\)(.*/\1/p' "$header" | sort -u)
missing=$(printf '%s\n' "$declared" | while read -r f; do printf '%s\n' "$exported" | grep -qx "$f" || echo "$f"; done)
if [ -n "$missing" ]; then
    echo "symbols: declared SMALTI_API but not exported:"; printf '  %s\n' $missing; fail=1
fi
major=$(sed -n 's/^#define SMALTI_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "libsmalti.so.$major" ]; then echo "symbols: SONAME is '$soname', want libsmalti.so.$major"; fail=1; fi
[ $fail = 0 ] && echo "symbols: $(printf '%s\n' "$exported" | wc -l) exported, all declared SMALTI_API in $header; SONAME $soname"
exit $fail
