#!/bin/sh
# many_test.sh — many runs: --seeds, -o templates, -j, --manifest, --resume (after kill -9),
# --shard, and batch with a template. Usage: many_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
M=models/maze.xml

# Usage errors name the fault and touch nothing.
expect 2 "put {seed} or {i} in the name" "$T" run $M --seeds 1..3 -o "$dir/u/x.png"
expect 2 "seed 2 is listed twice" "$T" run $M --seeds 1..3,2 -o "$dir/u/{seed}.png"
expect 2 "a range goes up: 9..1" "$T" run $M --seeds 9..1 -o "$dir/u/{seed}.png"
expect 2 "unknown field {sed}: .*did you mean 'seed'?" "$T" run $M --seeds 1..3 -o "$dir/u/{sed}.png"
expect 2 "--shard takes K/N" "$T" run $M --seeds 1..3 --shard 5/4 -o "$dir/u/{seed}.png"
expect 2 "--resume needs --manifest" "$T" run $M --seeds 1..3 --resume -o "$dir/u/{seed}.png"
expect 2 "no --gif" "$T" run $M --seeds 1..3 --gif "$dir/u/a.gif" -o "$dir/u/{seed}.png"
expect 2 "need -o with a file name template" "$T" run $M --seeds 1..3
expect 2 "expected a number of threads" "$T" run $M --seeds 1..3 -j 0 -o "$dir/u/{seed}.png"
expect 2 "did you mean '--resume'" "$T" run $M --resum
[ -e "$dir/u" ] && bad "a usage error made $dir/u" || ok

# A run of the list gives the same grid as `run --seed S` of each seed.
"$T" run $M --size 16 --seeds 3,8..9 -o "$dir/one/{model}_{seed}_{i}_{w}x{h}.txt" -q || bad "seeds 3,8..9 failed"
for s in 3:0 8:1 9:2; do
    "$T" run $M --size 16 --seed ${s%:*} -o "$dir/single.txt" -q
    cmp -s "$dir/single.txt" "$dir/one/maze_${s%:*}_${s#*:}_16x16.txt" && ok || bad "seed ${s%:*} differs from run --seed"
done

# An existing manifest is not appended to without --resume.
"$T" run $M --size 16 --seeds 1..2 -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl" -q
expect 2 "add --resume" "$T" run $M --size 16 --seeds 1..2 -o "$dir/m/{seed}.txt" --manifest "$dir/m.jsonl"
grep -q '"model":"maze","seed":1,"i":0,"size":\[16,16,1\],"steps":[0-9]*,"finished":true,"ms":[0-9.]*,"outputs":\["[^"]*/m/1.txt"\],"sha256":"[0-9a-f]\{64\}","attempts":1}$' "$dir/m.jsonl" \
    && ok || bad "manifest line: $(head -1 "$dir/m.jsonl")"

# A model name with '<', '"', '&', a tab and a carriage return is one JSON string (an escaper writes '<' and '&' as \u003c and
# \u0026, so that a line may sit in a <script>), and --resume reads it back: only the new seed runs.
odd="$dir/od/m<\"&$(printf '\t\r')x.xml"
mkdir -p "$dir/od" && cp $M "$odd"
"$T" run "$odd" --size 8 --seeds 1..2 -o "$dir/od/{seed}.txt" --manifest "$dir/od.jsonl" -q || bad "odd name run failed"
grep -q '^{"model":"m\\u003c\\"\\u0026\\t\\rx","seed":1,' "$dir/od.jsonl" && ok || bad "odd name line: $(head -1 "$dir/od.jsonl")"
expect 0 "1 run made, 2 done before" "$T" run "$odd" --size 8 --seeds 1..3 -o "$dir/od/{seed}.txt" --manifest "$dir/od.jsonl" --resume
[ "$(wc -l < "$dir/od.jsonl")" = 3 ] && ok || bad "odd name resume: $(wc -l < "$dir/od.jsonl") lines, not 3"

# The SHA-256 is of the grid's cells, one byte each: the text grid's rows are those bytes as symbols.
line=$(grep '"seed":2,' "$dir/m.jsonl")
sha=$(printf '%s' "$line" | sed 's/.*"sha256":"\([0-9a-f]*\)".*/\1/')
legend=$(sed -n 's/^legend //p' "$dir/m/2.txt")
want=$(sed '1,/^size /d' "$dir/m/2.txt" | tr -d '\n' | tr "$legend" '\000-\377' | sha256sum | cut -d' ' -f1)
[ -n "$legend" ] && [ "$sha" = "$want" ] && ok || bad "sha256 $sha is not that of the cells ($want, legend $legend)"

# Results do not depend on -j: the same files, the same (model, seed, sha256) set.
for j in 1 2 5; do
    "$T" run $M --size 16 --seeds 1..300 -j $j -o "$dir/j$j/{seed}.png" --manifest "$dir/j$j.jsonl" -q || bad "-j $j failed"
    sed 's/"ms":[0-9.]*,//; s/"outputs":\[[^]]*\],//' "$dir/j$j.jsonl" | sort > "$dir/j$j.set"
done
[ "$(wc -l < "$dir/j1.set")" = 300 ] && ok || bad "-j 1 made $(wc -l < "$dir/j1.set") lines, not 300"
for j in 2 5; do
    cmp -s "$dir/j1.set" "$dir/j$j.set" && ok || bad "-j $j manifest differs from -j 1"
    diff -r "$dir/j1" "$dir/j$j" >/dev/null && ok || bad "-j $j files differ from -j 1"
done

# Shards: for several N, the shards' manifests together are the unsharded set, each pair once.
for n in 1 3 7 64; do
    k=1; rm -f "$dir/shards.jsonl"
    while [ $k -le $n ]; do
        "$T" run $M --size 16 --seeds 1..300 --shard $k/$n -j 2 -o "$dir/s$n/{seed}.png" --manifest "$dir/s$n.$k.jsonl" -q || bad "shard $k/$n failed"
        cat "$dir/s$n.$k.jsonl" >> "$dir/shards.jsonl"
        k=$((k + 1))
    done
    sed 's/"ms":[0-9.]*,//; s/"outputs":\[[^]]*\],//' "$dir/shards.jsonl" | sort > "$dir/shards.set"
    cmp -s "$dir/j1.set" "$dir/shards.set" && ok || bad "the $n shards are not the unsharded set"
done
expect 0 "shard 2/3: 100 of 300" "$T" run $M --size 16 --seeds 1..300 --shard 2/3 -o "$dir/s3b/{seed}.png"

# Resume after kill -9: 1000 runs (16x16 PNG); kill partway, resume; every output once, all whole,
# identical to an uninterrupted run, and no temporary file left. Partway on any machine: the output
# of seed 500 is a FIFO that nothing reads, so that its run waits for ever and the whole cannot end;
# the kill comes once 100 runs are in the manifest (the wait for them is bounded: a hang guard).
"$T" run $M --size 16 --seeds 1..1000 -j 2 -o "$dir/full/{seed}.png" --manifest "$dir/full.jsonl" -q || bad "the full run failed"
mkdir -p "$dir/r" && mkfifo "$dir/r/500.png"
"$T" run $M --size 16 --seeds 1..1000 -j 2 -o "$dir/r/{seed}.png" --manifest "$dir/r.jsonl" -q &
pid=$!
i=0
while [ "$(cat "$dir/r.jsonl" 2>/dev/null | wc -l)" -lt 100 ]; do
    if [ $i -ge 3000 ] || ! kill -0 $pid 2>/dev/null; then
        bad "hang guard: the run did not list 100 runs in its manifest within 300 s (or it ended): $(cat "$dir/r.jsonl" 2>/dev/null | wc -l)"
        break
    fi
    sleep 0.1; i=$((i + 1))
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
rm "$dir/r/500.png" # (the FIFO: the resume makes the picture)
before=$(wc -l < "$dir/r.jsonl")
[ "$before" -lt 1000 ] && ok || bad "the run ended before kill -9 ($before lines); the test proves nothing"
# Every file under a final name is whole (the same bytes as the full run's).
for f in "$dir"/r/*.png; do
    [ -e "$f" ] || continue
    cmp -s "$f" "$dir/full/$(basename "$f")" || { bad "partial or different output $f after kill -9"; break; }
done
# A torn last line, as a full disk would leave, is cut off on resume.
printf '{"model":"maze","seed":12' >> "$dir/r.jsonl"
expect 0 "torn last line" "$T" run $M --size 16 --seeds 1..1000 -j 2 -o "$dir/r/{seed}.png" --manifest "$dir/r.jsonl" --resume
[ "$(wc -l < "$dir/r.jsonl")" = 1000 ] && ok || bad "after resume the manifest has $(wc -l < "$dir/r.jsonl") lines, not 1000"
[ "$(sed 's/.*"seed":\([0-9-]*\),.*/\1/' "$dir/r.jsonl" | sort -n | uniq | wc -l)" = 1000 ] && ok || bad "a seed is missing or repeated after resume"
sed 's/"ms":[0-9.]*,//; s/"outputs":\[[^]]*\],//' "$dir/r.jsonl" | sort > "$dir/r.set"
sed 's/"ms":[0-9.]*,//; s/"outputs":\[[^]]*\],//' "$dir/full.jsonl" | sort > "$dir/full.set"
cmp -s "$dir/r.set" "$dir/full.set" && ok || bad "the resumed manifest differs from the uninterrupted one"
diff -r "$dir/r" "$dir/full" >/dev/null && ok || bad "the resumed outputs differ from the uninterrupted run's (or a temporary file is left)"
# A second resume has nothing to do.
expect 0 "0 runs made, 1000 done before" "$T" run $M --size 16 --seeds 1..1000 -o "$dir/r/{seed}.png" --manifest "$dir/r.jsonl" --resume
# An output that went missing is made again.
rm "$dir/r/77.png"
expect 0 "1 run made, 999 done before" "$T" run $M --size 16 --seeds 1..1000 -o "$dir/r/{seed}.png" --manifest "$dir/r.jsonl" --resume
cmp -s "$dir/r/77.png" "$dir/full/77.png" && ok || bad "the remade output differs"

# Two runs on one manifest at once: the second is refused at once (the manifest is locked for the
# whole first run), so no output is made twice. The first run waits, partway, on a FIFO output
# that nothing reads yet; the second starts once the first has a line in the manifest.
mkdir -p "$dir/c" && mkfifo "$dir/c/40.png"
"$T" run $M --size 16 --seeds 1..40 -j 1 -o "$dir/c/{seed}.png" --manifest "$dir/c.jsonl" -q & pid=$!
i=0
while [ ! -s "$dir/c.jsonl" ] && [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if [ -s "$dir/c.jsonl" ] && kill -0 $pid 2>/dev/null; then
    expect 5 "c.jsonl: error: the manifest is in use by another smalti run" \
        guard 300 "$T" run $M --size 16 --seeds 1..40 -o "$dir/c/{seed}.png" --manifest "$dir/c.jsonl" --resume
else bad "hang guard: the first run wrote no manifest line within 300 s (or it ended)"; fi
kill -0 $pid 2>/dev/null && guard 300 cat "$dir/c/40.png" > /dev/null # the first run goes on and ends
await $pid 300 "the first run on the shared manifest"
[ "$waited" = 0 ] && ok || bad "the first run on the shared manifest exited $waited"
[ "$(sed 's/.*"seed":\([0-9-]*\),.*/\1/' "$dir/c.jsonl" | sort -n | uniq -d | wc -l)$(wc -l < "$dir/c.jsonl")" = "040" ] \
    && ok || bad "a seed is repeated or missing in the shared manifest: $(wc -l < "$dir/c.jsonl") lines"
# The lock ends with the run: a resume goes on (and makes again the output that went to the FIFO).
rm "$dir/c/40.png"
expect 0 "1 run made, 39 done before" \
    guard 300 "$T" run $M --size 16 --seeds 1..40 -o "$dir/c/{seed}.png" --manifest "$dir/c.jsonl" --resume

# SIGTERM in the middle of many runs on four threads (each one listing and taking off its
# temporary names all the time): the process dies of the signal, no NAME.tmpPID is left, every
# file under a final name is whole, and no run reports the write that the signal cut short. Done
# three times, as the signal lands at a different moment. It comes once 200 outputs are there; the
# last seed's output is a FIFO that nothing reads, so the run cannot have ended before it. The run
# starts with SIGTERM at its default ($signals_default, lib.sh), whatever its parents ignore.
for k in 1 2 3; do
    mkdir -p "$dir/t$k" && mkfifo "$dir/t$k/100000.png"
    $signals_default "$T" run $M --size 16 --seeds 1..100000 -j 4 -o "$dir/t$k/{seed}.png" -q 2> "$dir/t$k.err" & pid=$!
    i=0
    while [ "$(ls "$dir/t$k" | wc -l)" -lt 200 ]; do
        if [ $i -ge 3000 ] || ! kill -0 $pid 2>/dev/null; then
            echo "hang guard: -j 4 ($k) did not make 200 outputs within 300 s (or it ended)"
            break
        fi
        sleep 0.1; i=$((i + 1))
    done
    kill -s TERM $pid
    await $pid 300 "the run of -j 4 ($k) after SIGTERM"; rc=$waited
    rm "$dir/t$k/100000.png"
    left=$(find "$dir/t$k" -name '*.tmp*' | head -3)
    if [ "$(kill -l $rc 2>/dev/null)" = TERM ] && [ -z "$left" ] && [ ! -s "$dir/t$k.err" ]; then ok; else
        bad "SIGTERM during -j 4 ($k): exit $rc, left: $left; said: $(head -2 "$dir/t$k.err")"; fi
    for f in "$dir"/t$k/*.png; do
        cmp -s "$f" "$dir/full/$(basename "$f")" 2>/dev/null || [ "$(basename "$f" .png)" -gt 1000 ] || { bad "partial output $f after SIGTERM"; break; }
    done
done

# batch with a template: the same pictures as batch into a folder, one manifest line each.
"$T" batch models/models.xml --models models --seed 5 -o "$dir/b1" -q 2>/dev/null
"$T" batch models/models.xml --models models --seed 5 -o "$dir/b2/{model}_{seed}.png" -j 2 --manifest "$dir/b.jsonl" -q || bad "batch with a template failed"
n=0
for f in "$dir"/b1/*.png; do
    cmp -s "$f" "$dir/b2/$(basename "$f")" || bad "batch template output $(basename "$f") differs"; n=$((n + 1))
done
[ $n -gt 10 ] && ok || bad "only $n pictures compared"
[ "$(wc -l < "$dir/b.jsonl")" = "$(ls "$dir/b2" | wc -l)" ] && ok || bad "batch manifest lines != outputs"
expect 2 "put {model} in the name" "$T" batch models/models.xml --models models -o "$dir/b3/{seed}.png"

finish many
