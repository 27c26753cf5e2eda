#!/bin/sh
# run-on-hosts.sh — many runs over ssh hosts with GNU parallel, the simple path without a
# scheduler: one shard per host slot, each with its own manifest, then the Slurm example's merge.
#
#   sh examples/parallel/run-on-hosts.sh hosts.txt MODEL.xml 1..10000 /shared/out
#
# hosts.txt lists ssh logins, one a line, as GNU parallel's --sshloginfile reads them
# ("4/alice@node1" runs 4 shards at once there). smalti must be on every host's PATH, and OUT and
# MODEL on a folder all hosts see (NFS). A shard that fails (a host gone) is run again by
# running this script again: --resume skips what is done.
set -eu
HOSTS=${1:?usage: run-on-hosts.sh HOSTS MODEL.xml SEEDS OUT}
MODEL=${2:?}
SEEDS=${3:-1..1000}
OUT=${4:-out}
SHARDS=${SHARDS:-$(grep -c . "$HOSTS")}
mkdir -p "$OUT/manifests"
seq 1 "$SHARDS" | parallel --sshloginfile "$HOSTS" --retries 2 --halt never \
    "smalti run '$MODEL' --seeds '$SEEDS' --shard {}/$SHARDS -q -o '$OUT/{model}_{seed}.png' --manifest '$OUT/manifests/shard-{}.jsonl' --resume" \
    || echo "some shards failed; run this again to finish them"
sh "$(dirname "$0")/../slurm/merge.sh" "$OUT"
