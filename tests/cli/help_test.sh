#!/bin/sh
# help_test.sh — help for each command, did-you-mean for unknown options and commands, -o FILE.gif,
# view's printed path, the step-limit and --height notes, grammatical counts. Usage: help_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
M="$dir/m.xml"
printf '<one values="BW" in="B" out="W"/>\n' > "$M"

# The overview lists the commands; each command has its own usage with examples.
expect 0 '^  run MODEL.xml' "$T" help
expect 0 '^  view RUN.trace' "$T" --help
expect 2 "smalti help COMMAND" "$T"
for c in run check batch wfc view help; do
    expect 0 "^Usage: smalti $c" "$T" help "$c"
    expect 0 "^Examples:" "$T" help "$c"
done
for c in run check batch wfc view; do
    expect 0 "^Usage: smalti $c" "$T" "$c" --help
    expect 0 "^Usage: smalti $c" "$T" "$c" -h
    # The same text either way.
    if [ "$("$T" help "$c")" = "$("$T" "$c" --help)" ]; then ok; else bad "help $c differs from $c --help"; fi
done
expect 0 "^Usage: smalti run" "$T" run "$M" --size 4 --help
expect 0 '^  --seed S' "$T" help batch
lacks '--watch' "$T" help batch
expect 2 "unknown command 'frob'" "$T" help frob
expect 2 "did you mean 'batch'" "$T" help bach

# Unknown options and commands: the nearest one.
only 2 "smalti: unknown option '--sise'; did you mean '--size'?
Run 'smalti help run' for its options." "$T" run "$M" --sise 10
expect 2 "did you mean '--pixel-size'" "$T" run "$M" --pixelsize 2
expect 2 "did you mean '--palette'" "$T" check "$M" --pallete p.xml
expect 2 "did you mean '--models'" "$T" batch list.xml --model dir
expect 2 "did you mean '--samples'" "$T" wfc samples.xml --sample dir
expect 2 "did you mean '--output'" "$T" view x.trace --ouptut x.html
expect 2 "did you mean '--version'" "$T" --verison
only 2 "smalti: unknown command 'rnu'; did you mean 'run'?
Run 'smalti help' for the commands." "$T" rnu "$M"
only 2 "smalti: unknown option '--zzzzzz'
Run 'smalti help run' for its options." "$T" run "$M" --zzzzzz

# -o FILE.gif is not a final-grid kind: it points to --gif, before running.
only 2 "smalti: -o $dir/a.gif: -o writes the final grid as .png, .txt, .vox, .tmx, .tmj, .csv, .json, .svg or .obj; for an animated GIF of the run use --gif $dir/a.gif" \
    "$T" run "$M" --size 4 -o "$dir/a.gif"
expect 2 'unknown output kind ".jpg"' "$T" run "$M" --size 4 -o "$dir/a.jpg"
[ ! -e "$dir/a.gif" ] && [ ! -e "$dir/a.jpg" ] && ok || bad "-o with a wrong kind wrote a file"

# view prints the path it wrote, unless -q.
"$T" run "$M" --size 4 --trace "$dir/m.trace" -o "$dir/m.png"
only 0 "$dir/m.html" "$T" view "$dir/m.trace"
only 0 "$dir/page.html" "$T" view "$dir/m.trace" -o "$dir/page.html"
only 0 "" "$T" view "$dir/m.trace" -o "$dir/q.html" -q
[ -s "$dir/q.html" ] && ok || bad "view -q wrote no page"

# The step limit reached before the model finished: said on stderr, exit 0; -q hides it.
expect 0 "m.xml: stopped at the step limit (5 steps) before the model finished; raise it with --steps N, or 0 for none" \
    "$T" run "$M" --size 4 --steps 5 -o "$dir/s.txt"
expect 0 "(1 step)" "$T" run "$M" --size 4 --steps 1 -o "$dir/s.txt"
only 0 "" "$T" run "$M" --size 4 --steps 5 -o "$dir/s.txt" -q
only 0 "" "$T" run "$M" --size 4 -o "$dir/s.txt"
only 0 "" "$T" run "$M" --size 4 --steps 0 -o "$dir/s.txt"

# --height without --dim 3: a note that says the grid is 3-D and how to get a 2-D one.
expect 0 "note: --height 10 makes a 3-D grid of 64x16x10 cells .*--length X --width Y" "$T" run "$M" --width 16 --height 10 -o "$dir/h.txt"
lacks "note: --height" "$T" run "$M" --width 16 --height 10 --dim 3 -o "$dir/h.txt"
lacks "note: --height" "$T" run "$M" --length 16 --width 10 -o "$dir/h.txt"
only 0 "" "$T" run "$M" --width 16 --height 10 -q -o "$dir/h.txt"
expect 2 "a 2-D grid has no height" "$T" run "$M" --dim 2 --height 10

# Counts.
expect 0 "ok (2 nodes, values BW)" "$T" check "$M"
printf '<markov values="BW"/>\n' > "$dir/empty.xml"
expect 0 "ok (1 node, values BW)" "$T" check "$dir/empty.xml"
finish help
