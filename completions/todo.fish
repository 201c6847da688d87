# fish completion for todo. Generated from the command line by tools/generate.py:
# do not edit by hand. Install: copy to ~/.config/fish/completions/todo.fish

function __todo_scope
    set -l tokens (commandline -opc)
    set -l scope
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case --session -s --file --home
                if test (math $i + 1) -le (count $tokens)
                    set -a scope $tokens[$i] $tokens[(math $i + 1)]
                end
            case '--session=*' '--file=*' '--home=*'
                set -a scope $tokens[$i]
        end
    end
    printf '%s\n' $scope
end

function __todo_candidates
    todo (__todo_scope) __complete $argv[1] 2>/dev/null
end

complete -c todo -f
complete -c todo -n __fish_use_subcommand -a show -d 'Show the list.'
complete -c todo -n __fish_use_subcommand -a ls -d 'Show the list (alias of show).'
complete -c todo -n __fish_use_subcommand -a init -d 'Replace the list with these tasks (--project: make the repository\'s TODO.md, registering git\'s merge driver for it; no TASK: keep the plan it has).'
complete -c todo -n __fish_use_subcommand -a add -d 'Append tasks (to --phase, else the last phase).'
complete -c todo -n __fish_use_subcommand -a a -d 'Append tasks (alias of add).'
complete -c todo -n __fish_use_subcommand -a start -d 'Mark a task in progress.'
complete -c todo -n __fish_use_subcommand -a claim -d 'Take the next task free to start (or TASK) for this --agent, under the lock.'
complete -c todo -n __fish_use_subcommand -a done -d 'Mark tasks completed (no task: the one in progress).'
complete -c todo -n __fish_use_subcommand -a drop -d 'Mark tasks abandoned (no task: the one in progress).'
complete -c todo -n __fish_use_subcommand -a rm -d 'Remove tasks from the list.'
complete -c todo -n __fish_use_subcommand -a note -d 'Add a note to a task.'
complete -c todo -n __fish_use_subcommand -a block -d 'Mark a task blocked (never started automatically).'
complete -c todo -n __fish_use_subcommand -a unblock -d 'Make a blocked task pending again.'
complete -c todo -n __fish_use_subcommand -a clear -d 'Remove completed and abandoned tasks.'
complete -c todo -n __fish_use_subcommand -a apply -d 'Apply JSON from stdin: ops, or a snapshot in any agent\'s shape.'
complete -c todo -n __fish_use_subcommand -a log -d 'Print this list\'s completion log (or list them all).'
complete -c todo -n __fish_use_subcommand -a path -d 'Print the list\'s path.'
complete -c todo -n __fish_use_subcommand -a check -d 'Exit 0 when nothing is open and every check\'s evidence holds, else 1 (a stop gate).'
complete -c todo -n __fish_use_subcommand -a allow -d 'Approve tasks\' checks to run, by the digest shown (no TASK: list those not approved).'
complete -c todo -n __fish_use_subcommand -a remind -d 'Count one agent round; print a reminder when one is due (always exits 0).'
complete -c todo -n __fish_use_subcommand -a hook -d 'Answer an agent harness\'s hook (its JSON on stdin) in that harness\'s JSON.'
complete -c todo -n __fish_use_subcommand -a setup -d 'Wire todo into an agent: its hooks and instructions (project, or --user).'
complete -c todo -n __fish_use_subcommand -a doctor -d 'Say what is wired for each agent, which list this project uses, what is wrong.'
complete -c todo -n __fish_use_subcommand -a schema -d 'Print a JSON Schema (draft 2020-12): apply\'s input, or what --json prints.'
complete -c todo -n __fish_use_subcommand -a history -d 'List the revisions of the list.'
complete -c todo -n __fish_use_subcommand -a diff -d 'Show hand edits since the last write, or what revision REV changed.'
complete -c todo -n __fish_use_subcommand -a undo -d 'Put back the list as it was before the last change (as a new revision).'
complete -c todo -n __fish_use_subcommand -a redo -d 'Take the last undo back (as a new revision).'
complete -c todo -n __fish_use_subcommand -a sessions -d 'List every session with its progress and last update.'
complete -c todo -n __fish_use_subcommand -a gc -d 'Remove sessions not written for a while (their logs stay).'
complete -c todo -n __fish_use_subcommand -a config -d 'Print the effective settings and where each came from.'
complete -c todo -n __fish_use_subcommand -a edit -d 'Open the list in $VISUAL or $EDITOR; check it and save it as a revision.'
complete -c todo -n __fish_use_subcommand -a watch -d 'Show the list live, re-rendered on every change, until Ctrl-C.'
complete -c todo -n __fish_use_subcommand -a mcp -d 'Serve the lists to MCP clients over stdio (pip install \'todocli-md[mcp]\').'
complete -c todo -l session -s s -r -a '(__todo_candidates sessions)' -d 'Session name (default: default).'
complete -c todo -l file -r -F -d 'Use this markdown file as the list.'
complete -c todo -l project -d 'Use the repository\'s TODO.md (the project plan), in an agent session too.'
complete -c todo -l home -r -F -d 'Where lists and state live.'
complete -c todo -l memory-dir -r -F -d 'Where completion logs go.'
complete -c todo -l json -d 'Print one JSON object.'
complete -c todo -l plain -d 'Print plain text.'
complete -c todo -l quiet -s q -d 'Print nothing on success.'
complete -c todo -l no-color -d 'No colour.'
complete -c todo -l if-rev -r -d 'Fail with exit 4 unless at this revision.'
complete -c todo -l base -r -d 'The revision a snapshot was made from: merge with edits since.'
complete -c todo -l partial -d 'Apply the good ops of a batch, report the rest.'
complete -c todo -l keep -d 'Keep a finished list instead of wiping it.'
complete -c todo -l agent -r -d 'The agent this call works for: its claims, its own task in progress.'
complete -c todo -l version -d 'Print the version.'
complete -c todo -l help -s h -d 'Show help and exit.'
complete -c todo -n '__fish_seen_subcommand_from show' -l all -s a -d 'Do not collapse long phases.'
complete -c todo -n '__fish_seen_subcommand_from show' -l notes -d 'Print every task\'s notes under it.'
complete -c todo -n '__fish_seen_subcommand_from show' -l as -r -d 'Print the list in an agent tool\'s own shape (claude, codex, copilot, ...).'
complete -c todo -n '__fish_seen_subcommand_from ls' -l all -s a -d 'Do not collapse long phases.'
complete -c todo -n '__fish_seen_subcommand_from ls' -l notes -d 'Print every task\'s notes under it.'
complete -c todo -n '__fish_seen_subcommand_from ls' -l as -r -d 'Print the list in an agent tool\'s own shape (claude, codex, copilot, ...).'
complete -c todo -n '__fish_seen_subcommand_from init' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from init' -l summary -r -d 'What the list is for.'
complete -c todo -n '__fish_seen_subcommand_from add' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from add' -l after -r -a '(__todo_candidates tasks)' -d 'A task (#N or text) the new ones wait on; again for more.'
complete -c todo -n '__fish_seen_subcommand_from add' -l check -r -d 'A shell command that proves the tasks done: done runs it first.'
complete -c todo -n '__fish_seen_subcommand_from a' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from a' -l after -r -a '(__todo_candidates tasks)' -d 'A task (#N or text) the new ones wait on; again for more.'
complete -c todo -n '__fish_seen_subcommand_from a' -l check -r -d 'A shell command that proves the tasks done: done runs it first.'
complete -c todo -n '__fish_seen_subcommand_from done' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from done' -l all -s a -d 'Every task.'
complete -c todo -n '__fish_seen_subcommand_from done' -l note -s n -r -d 'Add a note first.'
complete -c todo -n '__fish_seen_subcommand_from done' -l no-check -d 'Complete a task with a check without running it (recorded so).'
complete -c todo -n '__fish_seen_subcommand_from done' -l evidence -r -d 'What shows it done (a commit, a test, a link): kept and logged.'
complete -c todo -n '__fish_seen_subcommand_from drop' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from drop' -l all -s a -d 'Every task.'
complete -c todo -n '__fish_seen_subcommand_from rm' -l phase -s p -r -a '(__todo_candidates phases)' -d 'A phase name.'
complete -c todo -n '__fish_seen_subcommand_from rm' -l all -s a -d 'Every task.'
complete -c todo -n '__fish_seen_subcommand_from block' -l reason -s r -r -d 'Kept as a note.'
complete -c todo -n '__fish_seen_subcommand_from clear' -l all -s a -d 'Remove open tasks too.'
complete -c todo -n '__fish_seen_subcommand_from apply' -l input -s i -r -F -d 'Read from FILE instead of stdin.'
complete -c todo -n '__fish_seen_subcommand_from apply' -l markdown -d 'The input is markdown, not JSON.'
complete -c todo -n '__fish_seen_subcommand_from log' -l list -s l -d 'List every log file.'
complete -c todo -n '__fish_seen_subcommand_from check' -l hook -d 'Read a harness hook\'s JSON on stdin: its session_id names the list.'
complete -c todo -n '__fish_seen_subcommand_from check' -l verify -d 'Run stale checks again; reopen a task whose check now fails.'
complete -c todo -n '__fish_seen_subcommand_from allow' -l digest -r -d 'The digest todo allow showed beside the check you read; again for more.'
complete -c todo -n '__fish_seen_subcommand_from remind' -l every -s e -r -d 'Nag every N rounds (config remind_every).'
complete -c todo -n '__fish_seen_subcommand_from remind' -l hook -d 'Read a harness hook\'s JSON on stdin: its session_id names the list.'
complete -c todo -n '__fish_seen_subcommand_from setup' -l user -d 'The user\'s configuration, not the project\'s.'
complete -c todo -n '__fish_seen_subcommand_from setup' -l dry-run -d 'Print the diff; write nothing.'
complete -c todo -n '__fish_seen_subcommand_from setup' -l remove -d 'Take out what setup added.'
complete -c todo -n '__fish_seen_subcommand_from setup' -l mcp -d 'Register todo mcp as an MCP server too.'
complete -c todo -n '__fish_seen_subcommand_from setup' -l plan -r -F -d 'git: the project\'s plan is this file, not TODO.md (a spec\'s tasks.md).'
complete -c todo -n '__fish_seen_subcommand_from undo' -l force -d 'Accepted, changes nothing: a hand edit is kept as a revision first.'
complete -c todo -n '__fish_seen_subcommand_from gc' -l older-than -r -d 'Age, e.g. 30d, 12h.'
complete -c todo -n '__fish_seen_subcommand_from watch' -l all -s a -d 'Do not collapse long phases.'
complete -c todo -n '__fish_seen_subcommand_from start claim done drop rm note block unblock allow' -a '(__todo_candidates tasks)'
complete -c todo -n '__fish_seen_subcommand_from hook' -a 'claude codex gemini qwen'
complete -c todo -n '__fish_seen_subcommand_from setup' -a 'claude codex gemini cursor copilot qwen opencode cline git'
complete -c todo -n '__fish_seen_subcommand_from schema' -a 'ops snapshot envelope'
