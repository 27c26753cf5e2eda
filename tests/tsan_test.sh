#!/bin/sh
# tsan_test.sh — the commands that run on threads, built with ThreadSanitizer: `run --seeds -j`,
# `batch -o TEMPLATE -j`, `wfc -j`, `pack check -j` and `studio` (server, runner and watcher). Each
# must finish with no report (a race makes TSan exit 66), and the first three must make the same
# files as the plain build with -j 1. With UNIT_TSAN, first the unit groups that start threads
# (api: runs of one model on threads; budget: a cancel from another thread).
# Usage: tsan_test.sh SMALTI_TSAN SMALTI [UNIT_TSAN]
TSAN=$1 PLAIN=$2 UNIT=$3
. "$(dirname "$0")/cli/lib.sh"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
SAMPLES=tests/badinput

# Some kernels' address-space layouts keep TSan from starting at all ("unexpected memory
# mapping"); that says nothing about smalti, so it is a skip with the reason, not a failure.
if ! start=$("$TSAN" --version 2>&1); then
    if printf '%s\n' "$start" | grep -q "ThreadSanitizer"; then
        echo "cli tsan: skipped: ThreadSanitizer cannot start here: $(printf '%s\n' "$start" | grep -m1 ThreadSanitizer)"
        exit 0
    fi
    echo "cli tsan: $TSAN --version failed: $start"
    exit 1
fi

# same LABEL DIR_A DIR_B: both folders hold the same files, byte for byte
same() {
    if [ -n "$(ls -A "$2" 2>/dev/null)" ] && diff -r "$2" "$3" >/dev/null; then ok; else bad "$1: the threads' files are not -j 1's"; fi
}
# clean LABEL PROGRAM ARGS...: a TSan-built program exits 0 (no race reported). Its hang guard, 1200 s,
# is some ten times what the slowest (the unit groups) takes under TSan on a loaded machine: it only
# turns a hang into a failure that says so.
clean() {
    label=$1; shift
    guard 1200 "$@" > "$dir/tsan.out" 2>&1; rc=$?
    if [ "$rc" = 0 ]; then ok; else bad "$label: exit $rc under ThreadSanitizer: $(grep -m1 -A3 'WARNING: ThreadSanitizer' "$dir/tsan.out" || tail -3 "$dir/tsan.out")"; fi
}
under_tsan() { label=$1; shift; clean "$label" "$TSAN" "$@"; }

[ -z "$UNIT" ] || clean "unit groups api, budget" "$UNIT" api budget

# run --seeds: one model shared by four threads, each with its own run. 96 outputs: with 24, the
# race the temporary-file list once had (tempfiles.c) was reported in 2 runs of 6; with 96, in 6 of 6.
under_tsan "run --seeds -j 4" run models/maze.xml --size 16 --seeds 1..96 -j 4 -o "$dir/seeds_t/{seed}.png" -q
"$PLAIN" run models/maze.xml --size 16 --seeds 1..96 -j 1 -o "$dir/seeds_p/{seed}.png" -q
same "run --seeds" "$dir/seeds_t" "$dir/seeds_p"

# batch with a template: two models' outputs as one work list.
mkdir -p "$dir/models"
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/models/m.xml"
printf '<one values="BRW" origin="True" in="RBB" out="WWR"/>\n' > "$dir/models/walk.xml"
printf '<models>\n  <model name="m" size="12" amount="6"/>\n  <model name="walk" size="20" amount="6"/>\n</models>\n' > "$dir/list.xml"
under_tsan "batch -j 3" batch "$dir/list.xml" --seed 5 -j 3 -o "$dir/batch_t/{model}_{seed}.png" -q
"$PLAIN" batch "$dir/list.xml" --seed 5 -j 1 -o "$dir/batch_p/{model}_{seed}.png" -q
same "batch" "$dir/batch_t" "$dir/batch_p"

# wfc: one sample shared by three solvers, the pictures written in order.
printf '<samples>\n  <overlapping name="Stripes" N="3" size="16" symmetry="1"/>\n</samples>\n' > "$dir/samples.xml"
under_tsan "wfc -j 3" wfc "$dir/samples.xml" --samples "$SAMPLES" --runs 6 -j 3 -q -o "$dir/wfc_t"
"$PLAIN" wfc "$dir/samples.xml" --samples "$SAMPLES" --runs 6 -j 1 -q -o "$dir/wfc_p"
same "wfc" "$dir/wfc_t" "$dir/wfc_p"

# pack check: models checked on two threads.
under_tsan "pack check -j 2" pack check models/ -j 2 -q

# studio: the web server's connection threads, the runner and the file watcher at once. A client
# listens to the events while six runs are asked for at once, the model is rewritten (the watcher
# runs it again) and three more are asked for; then SIGTERM ends studio, which must exit 0. Each
# step waits for what studio says in its event stream, not for a time: every wait has a hang guard
# (HANG, far beyond a TSan build on a loaded machine) that fails naming what it waited for.
HANG=300
# running PID: the process is alive (a zombie, ended but not yet waited for, is not)
running() { [ -r "/proc/$1/stat" ] && read -r _ _ state _ < "/proc/$1/stat" && [ "$state" != Z ]; }
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/studio.xml"
"$TSAN" studio "$dir/studio.xml" --size 32 > "$dir/studio.url" 2> "$dir/studio.err" &
pid=$!
i=0
while [ ! -s "$dir/studio.url" ] && running $pid && [ $i -lt $((HANG * 10)) ]; do sleep 0.1; i=$((i + 1)); done
if [ ! -s "$dir/studio.url" ]; then
    echo "studio printed no URL within $HANG s (hang guard), or exited" > "$dir/studio.client"
else
    # The client: each of its waits has the hang guard HANG; the guard around it is for one that has none.
    guard $((HANG * 3)) python3 - "$(cat "$dir/studio.url")" "$dir/studio.xml" "$HANG" > "$dir/studio.client" 2>&1 <<'PY'
import json, sys, threading, time, urllib.request
url, model, hang = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = []  # the seeds of the runs the event stream reported, in order
lines = 0
stream_ended = None  # why the event stream ended, once it has
seen = threading.Condition()
def listen():
    global lines, stream_ended
    event, why = None, "closed by studio"
    try:
        with urllib.request.urlopen(url + "events", timeout=hang) as r:
            while True:
                line = r.readline()
                if not line:
                    return
                with seen:
                    lines += 1
                    if line.startswith(b"event: "):
                        event = line[7:].strip()
                    elif line.startswith(b"data: ") and event == b"run":
                        runs.append(json.loads(line[6:])["seed"])
                    seen.notify_all()
    except Exception as e:
        why = str(e)
    finally:
        with seen:
            stream_ended = why
            seen.notify_all()
def wait_for(what, done):
    """Wait until done() (under the lock): a hang guard, not a verdict of speed."""
    until = time.monotonic() + hang
    with seen:
        while not done():
            if stream_ended:
                print("the event stream ended (%s) before the %s (runs reported: %s)" % (stream_ended, what, runs))
                sys.exit(1)
            if not seen.wait(max(0.0, until - time.monotonic())) and time.monotonic() >= until:
                print("hang guard: no %s within %d s (runs reported: %s)" % (what, hang, runs))
                sys.exit(1)
failures = []
def run(seed, size=""):
    try:
        urllib.request.urlopen(urllib.request.Request(url + "api/run?seed=%d%s" % (seed, size), method="POST"), timeout=hang).read()
    except Exception as e:  # said below: a request that failed fails the check
        failures.append("POST api/run?seed=%d: %s" % (seed, e))
def joined(threads):
    for t in threads: t.join()
    if failures:
        print("requests failed: " + "; ".join(failures))
        sys.exit(1)
threading.Thread(target=listen, daemon=True).start()
wait_for("first run", lambda: runs)
ts = [threading.Thread(target=run, args=(k, "&size=24")) for k in range(1, 7)]
for t in ts: t.start()
urllib.request.urlopen(url + "api/source", timeout=hang).read()
joined(ts)
# One more request after those six: once its run is reported, studio has done (or dropped) theirs.
run(100)
joined([])
wait_for("run of seed 100", lambda: 100 in runs)
# The watcher's run: nothing else asks for one now, so the next run reported is the rewrite's.
before = len(runs)
with open(model, "w") as f:
    f.write('<one values="BWR" in="B" out="R"/>\n')
wait_for("run after the model was rewritten", lambda: len(runs) > before)
ts = [threading.Thread(target=run, args=(k,)) for k in range(7, 10)]
for t in ts: t.start()
joined(ts)
wait_for("run of seed 7, 8 or 9", lambda: set(runs) & {7, 8, 9})
print("event lines", lines, "runs", runs)
PY
    client=$?
fi
# SIGTERM, with a hang guard: a studio that does not end is killed and the check fails.
kill -TERM $pid 2>/dev/null
i=0
while running $pid && [ $i -lt $((HANG * 10)) ]; do sleep 0.1; i=$((i + 1)); done
if running $pid; then
    kill -KILL $pid
    echo "studio: still running $HANG s after SIGTERM (hang guard), killed" >> "$dir/studio.client"
fi
wait $pid
rc=$?
if [ "$rc" = 0 ] && [ "${client:-1}" = 0 ] && grep -q "^event lines [1-9]" "$dir/studio.client"; then ok; else
    bad "studio: exit $rc under ThreadSanitizer; client: $(tail -2 "$dir/studio.client"); $(grep -m1 -A3 'WARNING: ThreadSanitizer' "$dir/studio.err" || tail -3 "$dir/studio.err")"; fi
finish tsan
