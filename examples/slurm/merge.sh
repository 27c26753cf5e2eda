#!/bin/sh
# merge.sh — join the shard manifests of OUT/manifests/ into OUT/runs.jsonl and check that no
# (model, seed) pair is there twice. With EXPECT=COUNT also that there are COUNT pairs.
#   sh examples/slurm/merge.sh out          (or as a Slurm job: sbatch --dependency=afterok:JOBID ...)
set -eu
OUT=${1:-out}
cat "$OUT"/manifests/shard-*.jsonl > "$OUT/runs.jsonl.tmp"
mv "$OUT/runs.jsonl.tmp" "$OUT/runs.jsonl"
# The pair of a line: its "model" and "seed" fields, which smalti writes first.
pairs=$(sed 's/^{"model":\("[^"]*"\),"seed":\(-\{0,1\}[0-9]*\),.*/\1 \2/' "$OUT/runs.jsonl" | sort)
total=$(printf '%s\n' "$pairs" | grep -c . || true)
twice=$(printf '%s\n' "$pairs" | uniq -d | grep -c . || true)
echo "merge: $total runs in $OUT/runs.jsonl, $twice made twice"
[ "$twice" = 0 ] || exit 1
[ -z "${EXPECT:-}" ] || [ "$total" = "$EXPECT" ] || { echo "merge: expected $EXPECT runs"; exit 1; }
