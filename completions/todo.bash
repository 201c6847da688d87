# bash completion for todo                                    -*- shell-script -*-
# Generated from the command line by tools/generate.py: do not edit by hand.
# Install: source this file, or copy it to ~/.local/share/bash-completion/completions/todo

_todo_candidates() {
    # One candidate a line, from the fast path, for the list the line names.
    todo "${_todo_scope[@]}" __complete "$1" 2>/dev/null
}

_todo_offer() {
    # Offer the candidates of kind $1 that start with what is typed. Never through
    # compgen -W, which would run a $(...) in a task's text; each is inserted
    # quoted (printf %q), so the command line it lands in runs nothing either.
    local line quoted
    COMPREPLY=()
    while IFS= read -r line; do
        if [[ "$line" == "$cur"* ]]; then
            printf -v quoted '%q' "$line"
            COMPREPLY+=("$quoted")
        fi
    done < <(_todo_candidates "$1")
}

_todo() {
    local cur prev cmd="" opts="" i word
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    _todo_scope=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        case "$word" in
            --session|-s|--file|--home)
                # Its value, once typed (the word under the cursor is not yet one).
                ((i + 1 < COMP_CWORD)) && _todo_scope+=("$word" "${COMP_WORDS[i+1]}")
                ((i++)) ;;
            --session=*|--file=*|--home=*|-s?*)
                _todo_scope+=("$word") ;;
            --after|--agent|--as|--base|--check|--digest|--every|--evidence|--host|--if-rev|--input|--memory-dir|--note|--older-than|--phase|--plan|--port|--reason|--summary|-e|-i|-n|-p|-r)
                ((i++)) ;;
            -*) ;;
            *) [[ -z "$cmd" ]] && cmd="$word" ;;
        esac
    done
    case "$prev" in
        --session|-s)
            _todo_offer sessions; return ;;
        --file|--home|--memory-dir|--input|-i|--plan)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
        --phase|-p)
            _todo_offer phases; return ;;
        --after)
            _todo_offer tasks; return ;;
        --if-rev|--base|--agent|--as|--summary|--check|--note|-n|--evidence|--reason|-r|--digest|--every|-e|--older-than|--port|--host)
            return ;;
    esac
    if [[ -z "$cmd" ]]; then
        if [[ "$cur" == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "--session -s --file --project --home --memory-dir --json --plain --quiet -q --no-color --if-rev --base --partial --keep --agent --version --help -h" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "show ls init add a start claim done drop rm note block unblock clear apply log path check allow remind hook setup doctor schema history diff undo redo sessions gc config edit watch mcp serve" -- "$cur")
        fi
        return
    fi
    case "$cmd" in
        show) opts="--all -a --notes --as" ;;
        ls) opts="--all -a --notes --as" ;;
        init) opts="--phase -p --summary" ;;
        add) opts="--phase -p --after --check" ;;
        a) opts="--phase -p --after --check" ;;
        start) opts="" ;;
        claim) opts="" ;;
        done) opts="--phase -p --all -a --note -n --no-check --evidence" ;;
        drop) opts="--phase -p --all -a" ;;
        rm) opts="--phase -p --all -a" ;;
        note) opts="" ;;
        block) opts="--reason -r" ;;
        unblock) opts="" ;;
        clear) opts="--all -a" ;;
        apply) opts="--input -i --markdown" ;;
        log) opts="--list -l" ;;
        path) opts="" ;;
        check) opts="--hook --verify" ;;
        allow) opts="--digest" ;;
        remind) opts="--every -e --hook" ;;
        hook) opts="" ;;
        setup) opts="--user --dry-run --remove --mcp --plan" ;;
        doctor) opts="" ;;
        schema) opts="" ;;
        history) opts="" ;;
        diff) opts="" ;;
        undo) opts="--force" ;;
        redo) opts="" ;;
        sessions) opts="" ;;
        gc) opts="--older-than" ;;
        config) opts="" ;;
        edit) opts="" ;;
        watch) opts="--all -a" ;;
        mcp) opts="" ;;
        serve) opts="--port --host --open" ;;
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts --session -s --file --project --home --memory-dir --json --plain --quiet -q --no-color --if-rev --base --partial --keep --agent --version --help -h" -- "$cur")
        return
    fi
    case "$cmd" in
        start|claim|done|drop|rm|note|block|unblock|allow)
            _todo_offer tasks ;;
        hook)
            mapfile -t COMPREPLY < <(compgen -W "claude codex gemini qwen" -- "$cur") ;;
        setup)
            mapfile -t COMPREPLY < <(compgen -W "claude codex gemini cursor copilot qwen opencode cline git" -- "$cur") ;;
        schema)
            mapfile -t COMPREPLY < <(compgen -W "ops snapshot envelope" -- "$cur") ;;
    esac
}
complete -F _todo todo
