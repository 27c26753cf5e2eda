# lib.sh — helpers shared by the CLI test scripts in tests/cli/: sourced, with T set to the smalti binary.
# Each script: `T=${1:-./smalti}; . "$(dirname "$0")/lib.sh"`, its checks, then `finish NAME`.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect CODE PATTERN -- command...: exit code and a line of stderr+stdout matching PATTERN
expect() {
    code=$1 pattern=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" != "$code" ]; then bad "$* exited $rc, expected $code: $out"; return; fi
    if [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -q -- "$pattern"; then bad "$*: no '$pattern' in: $out"; return; fi
    ok
}
# only CODE LINE -- command...: exit code, and stderr+stdout is exactly that one line
only() {
    code=$1 line=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" = "$code" ] && [ "$out" = "$line" ]; then ok; else bad "$* exited $rc (expected $code) and said: $out"; fi
}
# lacks PATTERN -- command...: the command's stderr+stdout has no line matching PATTERN (any exit code)
lacks() {
    pattern=$1; shift
    out=$("$@" 2>&1)
    if printf '%s\n' "$out" | grep -q -- "$pattern"; then bad "$*: unexpected '$pattern' in: $out"; else ok; fi
}
# guard SECONDS command...: the command, killed if still running after SECONDS, a hang guard only:
# generous, so that no machine however slow or loaded reaches it unless the command hangs. Then it
# says so (on stderr, which expect and only show) and returns 124. (-k: KILL 10 s after TERM, for a
# command that keeps the TERM its parent ignored; --foreground: the command may use the terminal,
# as script(1) does, and only it is killed.)
guard() {
    guard_secs=$1; shift
    timeout --foreground -k 10 "$guard_secs" "$@"; guard_rc=$?
    if [ "$guard_rc" = 124 ] || [ "$guard_rc" = 137 ]; then
        echo "hang guard: still running after $guard_secs s, so killed: $*" >&2
        return 124
    fi
    return "$guard_rc"
}
# await PID SECONDS WHAT: wait for the background job PID to end, with its exit status in $waited
# (as `wait` gives it). A hang guard only (generous, as guard): if it is still running after SECONDS,
# it is killed (KILL), a line says that WHAT did not end, and await returns 1 ($waited 124).
await() {
    await_n=0
    while kill -0 "$1" 2>/dev/null; do
        if [ "$await_n" -ge $(($2 * 10)) ]; then
            kill -9 "$1" 2>/dev/null
            { wait "$1"; } 2>/dev/null
            echo "hang guard: $3 had not ended after $2 s, so it was killed"
            waited=124
            return 1
        fi
        sleep 0.1
        await_n=$((await_n + 1))
    done
    { wait "$1"; } 2>/dev/null
    waited=$?
}
# $signals_default: a prefix that starts a command with SIGHUP, SIGINT, SIGPIPE and SIGTERM at their
# defaults (env --default-signal, coreutils 8.31), for the tests that signal a run: a background job
# of a script starts with SIGINT ignored, and under parents that ignore a signal (`nohup make test`)
# smalti rightly keeps it ignored. Empty where env cannot: those tests then need parents that ignore none.
if env --default-signal=HUP,INT,PIPE,TERM true 2>/dev/null; then
    signals_default="env --default-signal=HUP,INT,PIPE,TERM"
else
    signals_default=
fi
finish() {
    echo "cli $1: $pass passed, $fail failed"
    [ "$fail" = 0 ]
}
# tile_sheet FILE.png: a sheet of 4x2 tiles of 2x2 pixels, tile i all of red 16 i (an RGBA PNG).
tile_sheet() {
    python3 -c '
import struct, zlib, sys
w, h = 8, 4
rows = b"".join(b"\0" + b"".join(bytes([16 * ((x // 2) + 4 * (y // 2)), 0, 0, 255]) for x in range(w)) for y in range(h))
c = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + c(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + c(b"IDAT", zlib.compress(rows)) + c(b"IEND", b""))' "$1"
}
