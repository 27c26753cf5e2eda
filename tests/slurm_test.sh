#!/bin/sh
# slurm_test.sh — a real single-node Slurm cluster on this machine (Debian's slurm-wlm and munge,
# installed with apt-get when missing): munged, slurmctld and slurmd on localhost with their
# configuration, state and sockets in a temporary folder. A 4-task array of
# examples/slurm/smalti-array.sbatch makes 400 (model, seed) runs; the manifests are merged, and
# every pair must be made exactly once with the grid (and file) of a local run. The daemons are
# stopped by their PIDs. Prints "skipped: WHY" and exits 0 only when Slurm cannot be installed;
# any other failure exits 1. Usage: slurm_test.sh ./smalti
set -u
T=$(cd "$(dirname "${1:-./smalti}")" && pwd)/$(basename "${1:-./smalti}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    $SUDO apt-get update -qq >/dev/null 2>&1 && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 \
        || { echo "slurm-test: skipped: cannot install slurm-wlm and munge with apt-get"; exit 0; }
fi
W=$(mktemp -d /tmp/smalti-slurm.XXXXXX)
chmod 755 "$W"
pids=
stop() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done; kill -9 "$p" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap stop EXIT
fail() { echo "slurm-test: FAILED: $*"; for f in "$W"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done; exit 1; }

# munge: a fresh key and its own socket.
mkdir -p "$W/munge" && chmod 711 "$W/munge"
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$W/munge/munge.key"
munged --foreground --force --key-file="$W/munge/munge.key" --socket="$W/munge/munge.sock" --pid-file="$W/munge/munged.pid" \
    --log-file="$W/munged.log" --seed-file="$W/munge/munged.seed" >"$W/munged.log" 2>&1 &
pids="$pids $!"
# (Every wait below is a hang guard: generous, so that only a daemon or job that hangs reaches it.)
i=0; while [ ! -S "$W/munge/munge.sock" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$W/munge/munge.sock" ] || fail "munged did not make its socket within 60 s"

# Two free ports, the node as this host knows itself, its CPUs.
port=$(( 20000 + $$ % 20000 ))
host=$(hostname -s)
cpus=$(nproc)
user=$(id -un)
mkdir -p "$W/state" "$W/spool"
cat > "$W/slurm.conf" <<CONF
ClusterName=smaltitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$W/slurm.conf"
slurmctld -D -i >"$W/slurmctld.out.log" 2>&1 &
pids="$pids $!"
slurmd -D >"$W/slurmd.out.log" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix)'; do
    sleep 0.5; i=$((i + 1))
    [ $i -lt 600 ] || fail "the node did not come up within 300 s: $(sinfo 2>&1 | tail -2)"
done
echo "slurm-test: slurmctld and slurmd up on $host (port $port)"

# The array: 400 runs of a 16x16 maze in 4 shards; then the merge, waiting on the array.
OUT="$W/out"
cd "$W" || exit 1
job=$(SMALTI="$T" SMALTI_ARGS="--size 16" sbatch --parsable --array=1-4 --cpus-per-task=1 --export=ALL \
    "$ROOT/examples/slurm/smalti-array.sbatch" "$ROOT/models/maze.xml" 1..400 "$OUT") || fail "sbatch"
job=${job%%;*}
i=0
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    sleep 1; i=$((i + 1))
    [ $i -lt 900 ] || fail "the array $job did not finish within 15 minutes"
done
ls "$OUT"/manifests/shard-*.jsonl >/dev/null 2>&1 || fail "no manifests (job $job; $(cat "$W"/smalti-*.log 2>/dev/null | tail -5))"
EXPECT=400 sh "$ROOT/examples/slurm/merge.sh" "$OUT" || fail "merge"
[ "$(ls "$OUT"/manifests/shard-*.jsonl | wc -l)" = 4 ] || fail "not 4 shard manifests"

# The same runs locally, in one process: the same (model, seed, grid hash) set and the same files.
"$T" run "$ROOT/models/maze.xml" --size 16 --seeds 1..400 -q -o "$W/local/{model}_{seed}.png" --manifest "$W/local.jsonl" || fail "local run"
strip() { sed 's/"ms":[0-9.]*,//; s/"outputs":\[[^]]*\],//' "$1" | sort; }
strip "$OUT/runs.jsonl" > "$W/cluster.set"
strip "$W/local.jsonl" > "$W/local.set"
cmp -s "$W/cluster.set" "$W/local.set" || fail "the cluster's runs differ from the local ones"
for f in "$W"/local/*.png; do cmp -s "$f" "$OUT/$(basename "$f")" || fail "$(basename "$f") differs"; done
echo "slurm-test: 4-task array (job $job) made 400 runs, each once, identical to a local run"
