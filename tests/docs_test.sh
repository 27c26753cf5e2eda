#!/bin/sh
# docs_test.sh — docs that cannot rot: every model shown in README.md and docs/*.md, every
# docs/examples/*.xml, the C program of docs/api.md and every relative link must still work.
# Usage: docs_test.sh SMALTI LIBSMALTI_A [ROOT]   (ROOT holds README.md and docs/; default .)
#
# Conventions (also in docs/testing.md):
#   ```xml            a complete model: `smalti check` then `smalti run -q -o X.png` must succeed;
#                      a list whose root is <samples>: `smalti wfc` must write its pictures
#   <!-- args: ... --> on the line right before a fence: the options for that model (or program),
#                      split at spaces (no quoting);
#                      in a docs/examples/*.xml file, anywhere in the file
#   <!-- fragment -->  on the line right before a fence: not a whole model, only checked non-empty
#   ```c              in docs/api.md, a block with main() is compiled against LIBSMALTI_A and run
#   <!-- expect: RE --> before a ```c fence: its output must match the extended regex RE
# Blocks in other languages (sh, text, ...) are not run. Commands and programs run from the
# current folder (the repository root), so `models/maze.xml` in a program means the bundled one.
SMALTI=${1:-./smalti}
LIB=${2:-build/libsmalti.a}
ROOT=${3:-.}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
fail=0 models=0 fragments=0 programs=0 links=0 pictures=0
bad() { fail=$((fail + 1)); echo "$*"; }

if [ "$ROOT" = . ]; then at=""; else at="$ROOT/"; fi
pages=$(ls "${at}README.md" "${at}"docs/*.md 2>/dev/null)

# Split every page into its fenced blocks: $tmp/bN.LANG, and a line per block in $tmp/index:
# N<TAB>page<TAB>line of the opening fence<TAB>lang<TAB>mark (args/fragment/expect)<TAB>value.
for page in $pages; do
    awk -v page="$page" -v dir="$tmp" -v start="$(cat "$tmp/count" 2>/dev/null || echo 0)" '
        function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
        BEGIN { n = start; inside = 0; prev = "" }
        {
            line = $0
            t = trim(line)
            if (!inside && t ~ /^```/) {
                fence = t; sub(/[^`].*$/, "", fence)          # the run of backticks
                lang = trim(substr(t, length(fence) + 1)); sub(/[ \t{].*$/, "", lang)
                if (lang == "") lang = "none"
                mark = ""; value = ""
                p = trim(prev)
                if (p ~ /^<!-- *fragment *-->$/) mark = "fragment"
                else if (p ~ /^<!-- *args:.*-->$/) { mark = "args"; value = p; sub(/^<!-- *args: */, "", value); sub(/ *-->$/, "", value) }
                else if (p ~ /^<!-- *expect:.*-->$/) { mark = "expect"; value = p; sub(/^<!-- *expect: */, "", value); sub(/ *-->$/, "", value) }
                n++; inside = 1; indent = match(line, /[^ \t]/) - 1
                file = dir "/b" n "." lang
                printf "" > file
                printf "%d\t%s\t%d\t%s\t%s\t%s\n", n, page, NR, lang, mark, value >> (dir "/index")
            } else if (inside && t ~ /^```+$/ && length(t) >= length(fence)) {
                inside = 0; close(file)
            } else if (inside) {
                print (indent > 0 ? substr(line, indent + 1) : line) > file
            }
            prev = line
        }
        END {
            if (inside) printf "%s:%d: a fenced block is never closed\n", page, NR > "/dev/stderr"
            print n > (dir "/count")
        }' "$page" 2>>"$tmp/unclosed"
done
if [ -s "$tmp/unclosed" ]; then
    while read -r msg; do bad "$msg"; done <"$tmp/unclosed"
fi

# Hang guards: a run's own --timeout (600 s, far beyond what any documented model needs on a slow,
# loaded machine, so it never decides a normal result), and timeout(1) a while later for anything
# that would not heed it; either says it was a hang guard.
GUARD=600
guarded() { # command...: the command, killed if still running GUARD + 60 s on
    timeout -k 10 $((GUARD + 60)) "$@"; guarded_rc=$?
    if [ "$guarded_rc" = 124 ] || [ "$guarded_rc" = 137 ]; then echo "hang guard: killed after $((GUARD + 60)) s: $*"; fi
    return "$guarded_rc"
}

# Runs model FILE with ARGS; on failure prints WHERE and smalti's messages, with lines of the
# block (FILE:L) turned into lines of the page (PAGE:OFFSET+L).
run_model() {
    file=$1 args=$2 where=$3 page=$4 offset=$5
    if grep -q '^<samples' "$file"; then run_samples "$@"; return; fi
    # shellcheck disable=SC2086 # args is a list of options
    if ! out=$(guarded "$SMALTI" check "$file" $args 2>&1 </dev/null); then
        what="no longer loads"
    elif ! out=$(guarded "$SMALTI" run "$file" $args --timeout $GUARD -q -o "$tmp/out.png" 2>&1 </dev/null) || [ ! -s "$tmp/out.png" ]; then
        what="no longer runs"
        case $out in *"longer than its timeout of $GUARD s"*) what="did not end within $GUARD s (a hang guard)" ;; esac
    else
        models=$((models + 1)); rm -f "$tmp/out.png"; return
    fi
    if [ -n "$page" ]; then
        out=$(printf '%s\n' "$out" | awk -v f="$file" -v p="$page" -v o="$offset" '{
            i = index($0, f ":")
            if (i) { rest = substr($0, i + length(f) + 1); l = rest + 0; sub(/^[0-9]+/, "", rest)
                     $0 = substr($0, 1, i - 1) p ":" (l + o) rest }
            print }')
    fi
    bad "$where: the model $what${args:+ (with $args)}:"
    printf '%s\n' "$out" | sed 's/^/    /'
}

# The same for a samples.xml list of the classic `smalti wfc` command: every output written.
run_samples() {
    file=$1 args=$2 where=$3
    rm -rf "$tmp/wfc"
    # shellcheck disable=SC2086 # args is a list of options
    if out=$(guarded "$SMALTI" wfc "$file" $args --timeout $GUARD -q -o "$tmp/wfc" 2>&1 </dev/null) &&
        ls "$tmp/wfc" 2>/dev/null | grep -q '\.png$'; then
        models=$((models + 1)); return
    fi
    bad "$where: the sample list no longer runs${args:+ (with $args)}:"
    printf '%s\n' "$out" | sed 's/^/    /'
}

# The blocks of the pages.
if [ -s "$tmp/index" ]; then
    tab=$(printf '\t')
    while IFS="$tab" read -r n page line lang mark value; do
        block="$tmp/b$n.$lang"
        case $lang in
        xml)
            if [ "$mark" = fragment ]; then
                if grep -q '[^[:space:]]' "$block"; then fragments=$((fragments + 1)); else bad "$page:$line: an empty fragment"; fi
            else
                [ "$mark" = args ] || value=""
                run_model "$block" "$value" "$page:$line" "$page" "$line"
            fi ;;
        c)
            case $page in */api.md) ;; *) continue ;; esac
            grep -q 'main *(' "$block" || continue
            cp "$block" "$tmp/program.c"
            if ! out=$($CC -std=c11 -Wall -Wextra -Werror -Iinclude -o "$tmp/program" \
                    "$tmp/program.c" "$LIB" -lxml2 -lgif -lz -lm 2>&1); then
                bad "$page:$line: the C program no longer compiles:"; printf '%s\n' "$out" | sed 's/^/    /'
                continue
            fi
            [ "$mark" = args ] && args=$value || args=""
            # shellcheck disable=SC2086
            if ! out=$(guarded "$tmp/program" $args 2>&1 </dev/null); then
                bad "$page:$line: the C program failed:"; printf '%s\n' "$out" | sed 's/^/    /'
            elif [ "$mark" = expect ] && ! printf '%s\n' "$out" | grep -Eq -- "$value"; then
                bad "$page:$line: the C program's output does not match /$value/:"; printf '%s\n' "$out" | sed 's/^/    /'
            else
                programs=$((programs + 1))
            fi ;;
        esac
    done <"$tmp/index"
fi

# The example models: docs/examples/*.xml, with an optional <!-- args: ... --> in the file.
for f in "${at}"docs/examples/*.xml; do
    [ -e "$f" ] || continue
    args=$(sed -n 's/^.*<!-- *args: *\(.*[^ ]\) *-->.*$/\1/p' "$f" | head -n 1)
    run_model "$f" "$args" "$f" "" 0
done

# The showcase pictures: docs/images/texts/NAME.png is what models/NAME.xml draws now (docs/pictures.mk's
# text-pictures makes them), so a change to a model or a node cannot leave its picture behind.
for pic in "${at}"docs/images/texts/*.png; do
    [ -e "$pic" ] || continue
    model="${at}models/$(basename "$pic" .png).xml"
    if [ ! -e "$model" ]; then bad "$pic: no model $model draws it"; continue; fi
    if guarded "$SMALTI" run "$model" --timeout $GUARD -q -o "$tmp/text.png" </dev/null && cmp -s "$tmp/text.png" "$pic"; then pictures=$((pictures + 1)); else
        bad "$pic: not what $model draws now (make text-pictures)"
    fi
done

# The README is a front page: at most 12 KB, and it links every page of docs/ (issue 13).
if [ -f "${at}README.md" ]; then
    size=$(wc -c <"${at}README.md")
    [ "$size" -le 12288 ] || bad "${at}README.md: $size bytes; the front page must stay within 12 KB (12288): move the detail into docs/"
    for doc in "${at}"docs/*.md; do
        [ -e "$doc" ] || continue
        name=${doc#"${at}"}
        grep -qF "]($name" "${at}README.md" || bad "${at}README.md: no link to $name (every page of docs/ is linked from the front page)"
    done
fi

# The usage example at the top of the public header must load a model that exists.
if [ -f "${at}include/smalti.h" ]; then
    for f in $(sed -n 's/.*smalti_model_load("\([^"]*\)".*/\1/p' "${at}include/smalti.h"); do
        if [ -e "${at}$f" ]; then links=$((links + 1)); else bad "${at}include/smalti.h: the usage example loads $f, which does not exist"; fi
    done
fi

# The output kinds: every kind of the table in src/cli/common/output_kinds.c (as `smalti help
# outputs` prints it) is named, as `.ext`, in the -o row of docs/cli.md and in docs/formats.md.
if [ -f "${at}docs/cli.md" ] && kinds=$("$SMALTI" help outputs 2>/dev/null | awk '/^  \./ {print $1}') && [ -n "$kinds" ]; then
    for ext in $kinds; do
        for page in docs/cli.md docs/formats.md; do
            if grep -q "^| \`-o FILE\`.*\`$ext\`" "${at}$page" 2>/dev/null || { [ "$page" = docs/formats.md ] && grep -q "\`$ext\`" "${at}$page"; }; then
                links=$((links + 1))
            else
                bad "${at}$page: the output kind $ext (smalti help outputs) is not named$([ "$page" = docs/cli.md ] && echo " in the -o FILE row")"
            fi
        done
    done
fi

# The anchors of a Markdown file, one a line, as GitHub makes them from its headings: lower
# case, ASCII punctuation other than - and _ dropped, spaces turned to -, repeats numbered -1, -2.
anchors_of() {
    awk 'BEGIN { punct = "[][!\"#$%&\047()*+,./:;<=>?@\\^`{|}~]" }
        /^[ \t]*```/ { code = !code; next }
        code || !/^#+ / { next }
        {
            h = $0; sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
            s = tolower(h); gsub(punct, "", s); gsub(/ /, "-", s)
            if (s in seen) { seen[s]++; print s "-" seen[s] } else { seen[s] = 0; print s }
        }' "$1"
}

# Relative links and pictures of every page, outside code: each must name an existing file or
# folder, and a #fragment on a Markdown file must name one of its headings. Web addresses are
# not checked.
for page in $pages; do
    pagedir=$(dirname "$page")
    awk '
        /^[ \t]*```/ { code = !code; next }
        code { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)                          # inline code is not a link
            while (match(line, /\]\([^)]*\)|<img [^>]*src="[^"]*"/)) {
                m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
                if (m ~ /^\]/) { m = substr(m, 3, length(m) - 3); sub(/[ \t].*$/, "", m) }
                else { sub(/^.*src="/, "", m); sub(/"$/, "", m) }
                print NR "\t" m
            }
        }' "$page" >"$tmp/links"
    while IFS="$(printf '\t')" read -r line target; do
        case $target in
        http://* | https://* | mailto:* | '') continue ;;
        esac
        path=${target%%#*}
        if [ -z "$path" ]; then file=$page; else file=$pagedir/$path; fi
        if [ ! -e "$file" ]; then
            bad "$page:$line: the link $target points to no file"
            continue
        fi
        case $target in
        *'#'*)
            case $file in
            *.md)
                if ! anchors_of "$file" | grep -qxF -- "${target#*#}"; then
                    bad "$page:$line: the link $target names no heading of $file"
                    continue
                fi ;;
            esac ;;
        esac
        links=$((links + 1))
    done <"$tmp/links"
done

# The element index names every attribute each node kind's table in src/nodes accepts (only for the
# repository's own pages: the rotted fixture has no sources).
if [ "$ROOT" = . ] && [ -f "docs/language.md" ]; then
    if out=$(python3 tests/docs_attrs.py . 2>&1); then attrs=" and every node attribute indexed"; else
        printf '%s\n' "$out" | while IFS= read -r line; do echo "$line"; done; fail=$((fail + $(printf '%s\n' "$out" | wc -l))); fi
fi

summary="docs: $models models ran, $fragments fragments, $programs api.md program$([ "$programs" = 1 ] || echo s) ok, $links links ok$([ "$pictures" = 0 ] || echo ", $pictures showcase pictures current")${attrs:-}"
if [ "$fail" != 0 ]; then
    echo "$summary; $fail FAILED"
    exit 1
fi
echo "$summary"
