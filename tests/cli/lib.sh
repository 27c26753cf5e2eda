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
finish() {
    echo "cli $1: $pass passed, $fail failed"
    [ "$fail" = 0 ]
}
