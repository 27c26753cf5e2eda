#!/bin/sh
# check_tutorial.sh — every example shown in docs/tutorial.md is its file, word for word.
# A fenced ```xml block whose line before is a caption naming `docs/examples/NAME.xml` must
# equal that file; each docs/examples/NN_*.xml (the tutorial's steps) must be shown so.
# Usage: tools/check_tutorial.sh [docs/tutorial.md]   (run from the repository root)
doc=${1:-docs/tutorial.md}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Split the captioned blocks into $tmp/NAME.xml.
awk -v dir="$tmp" '
  inblock && /^```/ { inblock = 0; close(out); next }
  inblock { print > out; next }
  /^```xml/ && prev ~ /docs\/examples\/[A-Za-z0-9_]+\.xml/ {
    name = prev; sub(/.*docs\/examples\//, "", name); sub(/\.xml.*/, "", name)
    out = dir "/" name ".xml"; printf "" > out; inblock = 1; next }
  { prev = $0 }
' "$doc"
status=0
for shown in "$tmp"/*.xml; do
    [ -e "$shown" ] || break
    file=docs/examples/$(basename "$shown")
    if [ ! -f "$file" ]; then
        echo "$doc: shows $file, which does not exist"; status=1
    elif ! cmp -s "$shown" "$file"; then
        echo "$doc: the block captioned $file differs from the file:"; diff "$file" "$shown" | head -20; status=1
    fi
done
for file in docs/examples/[0-9][0-9]_*.xml; do
    [ -e "$file" ] || break
    [ -f "$tmp/$(basename "$file")" ] || { echo "$doc: $file is not shown (a \`\`\`xml block captioned with its path)"; status=1; }
done
[ $status = 0 ] && echo "tutorial: every example shown matches its file"
exit $status
