#!/bin/sh
# layers.sh — no file reaches up a layer. Each folder of src/ may include headers (and its compiled
# objects may call functions) of the folders listed for it below, and of no others.
# docs/architecture.md draws the same picture. And src/core and src/engine name no node kind (the kinds' facts
# are fields of their tables).
# Usage: sh tests/layers.sh [OBJ_DIR]   (given the build's object folder, also check what each object calls)
set -u
allowed() {
    case $1 in
    core)   echo "core" ;;                              # grids, rules, symbols, resources and their readers
    io)     echo "core io" ;;                           # writing results
    wfc)    echo "core io wfc" ;;                       # the WFC solver
    engine) echo "core engine" ;;                       # the run state, the node interface, the step loop
    nodes)  echo "core io wfc engine nodes" ;;          # node kinds and model loading
    trace)  echo "core io engine nodes trace" ;;        # recording runs (traces, animations) through the API
    pack)   echo "core io engine nodes pack" ;;         # model packs: manifests, folders and zips
    cli)    echo "core io wfc engine nodes trace pack cli" ;; # the smalti command
    esac
}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
checked=0
for file in src/*/*.c src/*/*.h; do
    layer=$(echo "$file" | cut -d/ -f2)
    ok=$(allowed "$layer")
    if [ -z "$ok" ]; then echo "$file: src/$layer has no entry in tests/layers.sh" >> "$out"; continue; fi
    checked=$((checked + 1))
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
    while read -r line target; do
        case $target in
        smalti.h | *.inc) continue ;;
        ../*/*) to=$(echo "$target" | cut -d/ -f2) ;;
        */*) echo "$file:$line: \"$target\": name another layer's header as \"../LAYER/name.h\"" >> "$out"; continue ;;
        *) [ -f "src/$layer/$target" ] || echo "$file:$line: \"$target\" is not in src/$layer" >> "$out"; continue ;;
        esac
        case " $ok " in
        *" $to "*) ;;
        *) echo "$file:$line: src/$layer includes \"$target\" from src/$to, a layer above it (it may use: $ok)" >> "$out" ;;
        esac
    done
done
# The objects: a function that a layer's object calls must be defined in a layer it may use
# (a declaration written by hand, not included, cannot hide a call upward).
objects=0
if [ $# -ge 1 ] && [ -d "$1" ]; then
    defs=$(mktemp) || exit 1
    trap 'rm -f "$out" "$defs"' EXIT
    for o in "$1"/*/*.o; do
        layer=$(basename "$(dirname "$o")")
        [ -f "src/$layer/$(basename "$o" .o).c" ] || continue # left over from a file since moved
        nm --defined-only "$o" | awk -v l="$layer" '$2 ~ /^[TDBRC]$/ {print $3, l}'
    done | sort -u > "$defs"
    for o in "$1"/*/*.o; do
        layer=$(basename "$(dirname "$o")")
        ok=$(allowed "$layer")
        [ -n "$ok" ] && [ -f "src/$layer/$(basename "$o" .o).c" ] || continue
        objects=$((objects + 1))
        nm --undefined-only "$o" | awk '{print $2}' | sort -u | join - "$defs" | while read -r sym to; do
            case " $ok " in
            *" $to "*) ;;
            *) echo "$o: src/$layer calls $sym of src/$to, a layer above it (it may use: $ok)" >> "$out" ;;
            esac
        done
    done
fi
# Node kinds are named in their tables (src/engine/node.h's node_kind, set in each kind's file in src/nodes),
# not below: so that a new kind is one file in src/nodes and its line in src/nodes/registry.c.
kinds=$(sed -n 's/^[[:space:]]*\.name = "\([a-z]*\)",.*/\1/p' $(grep -l '^const node_kind node_kind_' src/nodes/*.c))
[ -n "$kinds" ] || echo "src/nodes: no node_kind table with a .name found (tests/layers.sh reads them)" >> "$out"
for kind in $kinds; do
    grep -n "\"$kind\"" src/core/*.[ch] src/engine/*.[ch] | sed "s|\$| <- names the node kind \"$kind\": make it a field of node_kind|" >> "$out"
done
if [ -s "$out" ]; then
    sort -u "$out"
    echo "layers: $(sort -u "$out" | wc -l) calls or includes reach up a layer, or lines below src/nodes name a node kind (see tests/layers.sh)"
    exit 1
fi
echo "layers: $checked files and $objects objects use only the layers below them; src/core and src/engine name none of the $(echo $kinds | wc -w) node kinds"
