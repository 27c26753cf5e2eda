#!/bin/sh
# lint_corpus_test.sh — `check` gives no warning on a correct model: every entry of the MarkovJunior corpus's
# models.xml (at its size and dimension) and of models/models.xml. The one note allowed is that a search without
# a limit may run without end (a run-time budget, not a mistake). SMALTI_MJ_CORPUS names the corpus (default
# ../shared/mj); without it the corpus part is skipped. Usage: lint_corpus_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"
# check_list MODELS.xml MODEL_DIR [options]: check each distinct (model, size) entry; no warning allowed.
check_list() {
    list=$1 models=$2; shift 2
    grep -o '<model [^>]*' "$list" | while read -r line; do
        get() { printf '%s\n' "$line" | sed -n "s/.* $1=\"\([^\"]*\)\".*/\1/p"; }
        args=""
        for side in size length width height; do
            v=$(get $side)
            [ -n "$v" ] && args="$args --$side $v"
        done
        [ "$(get d)" = 3 ] && args="$args --dim 3"
        echo "$(get name)$args"
    done | sort -u > "$dir/entries"
    checked=0
    while read -r name args; do
        checked=$((checked + 1))
        out=$("$T" check "$models/$name.xml" $args "$@" 2>&1 >/dev/null); rc=$?
        out=$(printf '%s\n' "$out" | grep -v 'warning: search without limit may run without end')
        if [ "$rc" = 0 ] && [ -z "$out" ]; then ok; else bad "check $name.xml$args exited $rc: $out"; fi
    done < "$dir/entries"
    echo "lint corpus: $checked entries of $list checked"
}
corpus=${SMALTI_MJ_CORPUS:-../shared/mj}
if [ -f "$corpus/models.xml" ]; then
    check_list "$corpus/models.xml" "$corpus/models"
else
    echo "lint corpus: skipped: corpus not found ($corpus)"
fi
check_list models/models.xml models --resources rules
finish lint_corpus
