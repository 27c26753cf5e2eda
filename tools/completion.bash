# bash completion for smalti: commands, pack commands, each command's options (read from
# `smalti help COMMAND`, so they follow the installed version) and the files each takes.
# Installed as share/bash-completion/completions/smalti.

# The options a command's help lists: the -x and --word of its option lines.
_smalti_options() {
    "$1" help $2 2>/dev/null | sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/   .*//' |
        grep -o -- '\(^\|[ ,]\)--*[a-z0-9][-a-z0-9]*' | tr -d ' ,' | sort -u
}

# Names of files ending in one of the extensions (a|b|c), and folders.
_smalti_files() {
    local cur=$1 exts=$2 f
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    for f in $(compgen -d -- "$cur"); do COMPREPLY+=("$f"); done
    for f in $(compgen -f -- "$cur"); do
        [[ -d $f ]] && continue
        if [[ -z $exts ]] || [[ ${f,,} =~ \.($exts)$ ]]; then COMPREPLY+=("$f"); fi
    done
}

_smalti() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prog=${COMP_WORDS[0]}
    local cmd=${COMP_WORDS[1]:-} sub
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "run check batch wfc view pack help --help --version" -- "$cur"))
        return
    fi
    case $cmd in
    pack)
        if ((COMP_CWORD == 2)); then
            COMPREPLY=($(compgen -W "check list new build gallery" -- "$cur"))
            return
        fi
        sub="pack ${COMP_WORDS[2]}" ;;
    help)
        if ((COMP_CWORD == 2)); then COMPREPLY=($(compgen -W "run check batch wfc view pack help" -- "$cur"))
        elif ((COMP_CWORD == 3)) && [[ ${COMP_WORDS[2]} == pack ]]; then
            COMPREPLY=($(compgen -W "check list new build gallery" -- "$cur"))
        fi
        return ;;
    *) sub=$cmd ;;
    esac

    # The value of an option that takes one.
    case $prev in
    -o|--output)
        case $sub in
        run) _smalti_files "$cur" 'png|txt|vox' ;;
        batch|wfc) _smalti_files "$cur" '/' ;;   # folders only
        view|"pack gallery") _smalti_files "$cur" 'html' ;;
        "pack build") _smalti_files "$cur" 'zip' ;;
        *) _smalti_files "$cur" '' ;;
        esac
        return ;;
    --gif) _smalti_files "$cur" 'gif'; return ;;
    --trace) _smalti_files "$cur" 'trace'; return ;;
    --palette) _smalti_files "$cur" 'xml'; return ;;
    --frames|--resources|--models|--samples) _smalti_files "$cur" '/'; return ;;
    --dim) COMPREPLY=($(compgen -W "2 3" -- "$cur")); return ;;
    --size|--length|--width|--height|--seed|--steps|--set|--timeout|--max-work|--max-memory|--max-unpacked|--pixel-size|--every|--delay|--runs|--tries|--backtrack|--blocks|-j|--jobs|--name)
        return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_smalti_options "$prog" "$sub")" -- "$cur"))
        return
    fi
    case $sub in
    run|check|batch) _smalti_files "$cur" 'xml|zip' ;;
    wfc) _smalti_files "$cur" 'xml' ;;
    view) _smalti_files "$cur" 'trace' ;;
    "pack check"|"pack list"|"pack gallery") _smalti_files "$cur" 'zip' ;;
    "pack new"|"pack build") _smalti_files "$cur" '/' ;;
    esac
}
complete -F _smalti smalti
