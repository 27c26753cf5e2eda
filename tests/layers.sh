#!/bin/sh
# layers.sh — no file reaches up a layer. Each folder of src/ may include headers (and its compiled
# objects may call functions) of the folders listed for it below, and of no others.
# docs/architecture.md draws the same picture. And src/core and src/engine name no node kind (the kinds' facts
# are fields of their tables).
# Usage: sh tests/layers.sh [OBJ_DIR]   (given the build's object folder, also check what each object calls)
set -u
lib="core io wfc engine nodes trace pack"
allowed() {
    case $1 in
    core)   echo "core" ;;                              # grids, rules, symbols, resources and their readers
    io)     echo "core io" ;;                           # writing results
    wfc)    echo "core io wfc" ;;                       # the WFC solver
    engine) echo "core engine" ;;                       # the run state, the node interface, the step loop
    nodes)  echo "core io wfc engine nodes" ;;          # node kinds and model loading
    trace)  echo "core io engine nodes trace" ;;        # recording runs (traces, animations) through the API
    pack)   echo "core io engine nodes pack" ;;         # model packs: manifests, folders and zips
    # the smalti command, in layers of its own (docs/architecture.md, "The command")
    cli/common)   echo "$lib cli/common" ;;                              # what every command shares
    cli/job)      echo "$lib cli/common cli/job" ;;                      # one job, from a model to its written outputs
    cli/many)     echo "$lib cli/common cli/job cli/many" ;;             # many jobs: seed lists, templates, threads, manifests
    cli/studio)   echo "$lib cli/common cli/job cli/studio" ;;           # studio: re-runs and the web server
    cli/pack)     echo "$lib cli/common cli/job cli/many cli/pack" ;;    # the pack commands
    cli/commands) echo "$lib cli/common cli/job cli/many cli/studio cli/pack cli/commands" ;; # the commands and main
    esac
}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
checked=0
# A file's layer: its folder under src/, or under src/cli (cli/job).
layer_of() {
    case $1 in
    src/cli/*) echo "$1" | cut -d/ -f2-3 ;;
    *) echo "$1" | cut -d/ -f2 ;;
    esac
}
for file in src/[!c]*/*.c src/[!c]*/*.h src/core/*.c src/core/*.h src/cli/*/*.c src/cli/*/*.h src/cli/*.c src/cli/*.h; do
    [ -f "$file" ] || continue
    layer=$(layer_of "$file")
    ok=$(allowed "$layer")
    if [ -z "$ok" ]; then echo "$file: src/$layer has no entry in tests/layers.sh" >> "$out"; continue; fi
    checked=$((checked + 1))
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
    while read -r line target; do
        case $target in
        smalti.h | *.inc) continue ;;
        ../../*/*) case $layer in cli/*) to=$(echo "$target" | cut -d/ -f3) ;; *) to=?; esac ;; # a library layer, from src/cli/X
        ../*/*) to=$(echo "$target" | cut -d/ -f2); case $layer in cli/*) to=cli/$to ;; esac ;;
        */*) echo "$file:$line: \"$target\": name another layer's header as \"../LAYER/name.h\"" >> "$out"; continue ;;
        *) [ -f "$(dirname "$file")/$target" ] || echo "$file:$line: \"$target\" is not in src/$layer" >> "$out"; continue ;;
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
    objs=$(ls "$1"/*/*.o "$1"/cli/*/*.o 2>/dev/null)
    for o in $objs; do
        layer=$(layer_of "src/${o#"$1"/}")
        [ -f "src/$layer/$(basename "$o" .o).c" ] || continue # left over from a file since moved
        nm --defined-only "$o" | awk -v l="$layer" '$2 ~ /^[TDBRC]$/ {print $3, l}'
    done | sort -u > "$defs"
    for o in $objs; do
        layer=$(layer_of "src/${o#"$1"/}")
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
