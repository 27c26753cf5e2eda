#!/bin/sh
# install.sh — `make install` and `make uninstall` (the directories come from install.mk).
# Install writes every file it puts in place, and every folder it had to make, to a manifest,
# DATADIR/install-manifest (lines "f FILE", "l LINK", "d FOLDER"); uninstall removes exactly those (folders only when empty again).
# Usage: install.sh install|uninstall, with DESTDIR, BINDIR, LIBDIR, INCLUDEDIR, DATADIR, MANDIR,
# COMPLETIONDIR, PKGCONFIGDIR, BUILD, SO_VERSION and SO_MAJOR in the environment.
set -eu
: "${DESTDIR=}"
manifest="$DESTDIR$DATADIR/install-manifest"

uninstall() {
    [ -f "$manifest" ] || { echo "uninstall: no $manifest: nothing installed there"; return 0; }
    # Files and links first (the manifest among them), then folders deepest first.
    entries=$(cat "$manifest")
    printf '%s\n' "$entries" | while IFS=' ' read -r kind path; do
        case $kind in f|l) rm -f "$DESTDIR$path" ;; esac
    done
    printf '%s\n' "$entries" | grep '^d ' | sort -r -k2 | while IFS=' ' read -r _ path; do
        rmdir "$DESTDIR$path" 2>/dev/null || echo "uninstall: kept $DESTDIR$path (not empty)"
    done
    echo "uninstalled from $DESTDIR${DATADIR%/share/smalti}"
}

# A folder and the parents it needs, each made one recorded in the list of made folders.
make_dir() {
    [ -d "$DESTDIR$1" ] && return 0
    if [ "$1" = / ] || [ "$1" = . ]; then mkdir -p "$DESTDIR/"; return 0; fi  # DESTDIR itself is the caller's
    make_dir "$(dirname "$1")"
    mkdir "$DESTDIR$1"
    echo "d $1" >>"$dirs"
}
put() { # MODE SOURCE DEST
    make_dir "$(dirname "$3")"
    install -m "$1" "$2" "$DESTDIR$3"
    echo "f $3" >>"$list"
}
link() { # TARGET NAME
    ln -sf "$1" "$DESTDIR$2"
    echo "l $2" >>"$list"
}

install_all() {
    # A second install replaces the first (so that its manifest stays whole).
    [ -f "$manifest" ] && uninstall >/dev/null
    list=$(mktemp) dirs=$(mktemp)
    trap 'rm -f "$list" "$dirs"' EXIT
    put 755 smalti "$BINDIR/smalti"
    put 644 include/smalti.h "$INCLUDEDIR/smalti.h"
    put 644 "$BUILD/libsmalti.a" "$LIBDIR/libsmalti.a"
    put 755 "$BUILD/libsmalti.so.$SO_VERSION" "$LIBDIR/libsmalti.so.$SO_VERSION"
    link "libsmalti.so.$SO_VERSION" "$LIBDIR/libsmalti.so.$SO_MAJOR"
    link "libsmalti.so.$SO_MAJOR" "$LIBDIR/libsmalti.so"
    put 644 "$BUILD/smalti.pc" "$PKGCONFIGDIR/smalti.pc"
    put 644 "$BUILD/smalti.1" "$MANDIR/man1/smalti.1"
    put 644 tools/completion.bash "$COMPLETIONDIR/smalti"
    put 644 rules/palette.xml "$DATADIR/palette.xml"
    put 644 bindings/python/smalti.py "$DATADIR/python/smalti.py"
    find models -type f ! -name '.*' | LC_ALL=C sort | while read -r f; do put 644 "$f" "$DATADIR/$f"; done
    make_dir "$DATADIR"
    echo "f $DATADIR/install-manifest" >>"$list"
    cat "$list" "$dirs" >"$manifest"
    echo "installed $(wc -l <"$manifest") files under $DESTDIR${DATADIR%/share/smalti} (list: $manifest)"
}

case ${1:-} in
install) install_all ;;
uninstall) uninstall ;;
*) echo "usage: install.sh install|uninstall" >&2; exit 2 ;;
esac
