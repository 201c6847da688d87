"""Start-up is the product: every agent-path form, on a plain list and on a Claude
Code list (every task with an active form), loads none of the modules the light
stand-ins exist to avoid. (bench/run.py measures the time; this pins the cause.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support_cli import install_launcher

# Which forms keep a module off, each named by what those forms do not do.
EVERY = "every agent-path form"
READS = "a read (show)"
NO_LIST = "a form that prints no list"
PLAIN = "a form with plain output (no --json, no hook reply)"
NO_JSON = "a form with no JSON in or out"
NO_INPUT = "a form that reads no input (show, done, add)"
NO_ENVELOPE = "a form without a hook's envelope or a tool's payload"
NO_HOOK = "a form without a tool's list payload or a hook event"
NO_TODOS = "a form without a TodoWrite"
# On a list no one changed lately: test_a_list_not_changed_lately_loads_no_wait (the
# lists of the other tests were written just before the form runs).
STILL = "a form on a list no one changed lately"

# The one table of the modules kept off a path: an import inside a function names
# one of these and no other (tests/test_layers.py), each entry is checked here on the
# forms that keep it off, and every other import sits at the top of its module.
# Module: (the forms that load none of it, why).
_SLOW = "milliseconds of every call, replaced by a stand-in in todocli.base"
_COMMAND = "the body of a command no agent-path form runs, loaded when it runs"
_EXTRA = "an optional extra's library, for a person at a terminal or `todo mcp`"
KEPT_OFF: dict[str, tuple[str, str]] = {
    # json and re (with enum, functools...), dataclasses (with inspect), typing,
    # pathlib, hashlib (OpenSSL), unicodedata, tomllib: each costs milliseconds.
    "dataclasses": (EVERY, _SLOW),
    "enum": (EVERY, _SLOW),
    "hashlib": (EVERY, _SLOW + " (path_key; a check's digest)"),
    "inspect": (EVERY, _SLOW),
    "json": (EVERY, _SLOW + " (jsontext; an input the light reader refuses)"),
    "pathlib": (EVERY, _SLOW),
    "re": (EVERY, _SLOW),
    "typing": (EVERY, _SLOW + " (TYPE_CHECKING)"),
    "unicodedata": (EVERY, "only text with combining or wide characters needs it"),
    "tomllib": (EVERY, _SLOW + " (read_simple_toml; a config beyond key = value)"),
    "difflib": (EVERY, "only a mistyped word's suggestion or a merge needs it"),
    "traceback": (EVERY, "only an unexpected error's report needs it"),
    "datetime": (EVERY, "only an agent's state and a dated reply need it"),
    "shlex": (EVERY, "only a check's command line needs it"),
    "shutil": (EVERY, "only git and a check's command need it"),
    "signal": (EVERY, "only a check that outlives its time needs it"),
    "importlib.metadata": (EVERY, "only the version of a package needs it (slow to import)"),
    "platformdirs": (EVERY, "only a platform without /tmp needs it"),
    "filelock": (EVERY, "only a platform without fcntl needs it"),
    # What only a write needs: the engine's ops, the input's dialects, the lock (fcntl,
    # and SHA-256 for its file's name). A read pays for none of them.
    "todocli.engine.ops": (READS, "only a write needs the operations"),
    "fcntl": (READS, "only a write takes the lock"),
    "todocli.document.html": (EVERY, "only a line that starts with < needs its patterns"),
    "todocli.document.tree": (EVERY, "only a plan with indented or numbered tasks has subtasks"),
    "todocli.engine.subtasks": (EVERY, "only a plan's ids, a heading path or subtasks need it"),
    "todocli.document.conventions": (
        EVERY,
        "only another tool's file (a marker todo's lists do not use, a stated convention) needs it",
    ),
    "todocli.app.transaction": (READS, "only a write runs the write transaction"),
    "todocli.app.replacement": (EVERY, "only an undo, a redo or an edit writes a whole text"),
    "todocli.app.list_state": (EVERY, "only a batch that logs, clears or numbers tasks"),
    "todocli.storage.commit": (READS, "only a write commits (journal, staged files, replace)"),
    "todocli.storage.views": (
        NO_TODOS,
        "only a snapshot records what an agent has seen (a write looks for a note first)",
    ),
    "todocli.storage.lock": (READS, "only a write takes the lock"),
    "todocli.storage.recovery": (EVERY, "only a killed writer's journal needs recovering"),
    "todocli.storage.takeback": (EVERY, "only a failed write or a killed writer's is taken back"),
    "todocli.storage.settle": (STILL, "only a list changed lately by someone else is waited on"),
    "_sha2": (READS, "only a write names its lock file (3.12 on)"),
    "_sha256": (READS, "only a write names its lock file (3.11)"),
    "todocli.engine.dialects": (NO_INPUT, "only a form that reads input decodes it"),
    "todocli.engine.json_refusals": (
        EVERY,
        "only JSON input that is not JSON, or has a key twice or NaN, needs its errors",
    ),
    "_json": (NO_JSON, "only JSON in or out needs its C scanner and encoder"),
    "todocli.base.jsontext": (PLAIN, "only JSON output needs it"),
    "todocli.app.render": (NO_LIST, "for output: a form that prints no list needs none"),
    # todocli's own ops are read in engine.dialects: an agent's batch of ops loads
    # no agent module (own_ops), only a tool's payload or a hook's envelope does.
    "todocli.agents": (NO_ENVELOPE, "only a tool's payload or a hook's needs the registry"),
    "todocli.agents.request": (NO_ENVELOPE, "only a tool's payload is read into ops there"),
    "todocli.agents.parsed": (EVERY, "only a tool's reader (not todocli's shapes) gives one"),
    "todocli.agents.envelope": (NO_ENVELOPE, "only a hook's stdin is an envelope"),
    "todocli.app.hooks": (NO_HOOK, "only a hook event or a tool's list is answered so"),
    "todocli.agents.echo": (NO_TODOS, "only a tool's own list is echoed back"),
    "todocli.engine.snapshot": (NO_TODOS, "only a tool's whole list is a snapshot"),
    "todocli.engine.merge": (NO_TODOS, "only a snapshot is merged"),
    "todocli.engine.reconcile": (NO_TODOS, "only a snapshot over a list a person wrote"),
    "todocli.app.attribution": (EVERY, "only a merge that kept another's change names who"),
    # What only several agents or dependencies need: a list with neither pays for none of it.
    "todocli.engine.claims": (EVERY, "only several agents or dependencies need claims"),
    # What only a rare batch needs: the careful pass (an edit that would make the file
    # read differently) and the proofs (a completed task with a check).
    "todocli.engine.careful": (EVERY, "only an edit that would make the file read differently"),
    "todocli.engine.proofs": (EVERY, "only a completed task with a check needs its proof"),
    "todocli.app.sharing.agent_state": (EVERY, "only several agents need their state"),
    "todocli.app.sharing.shared_claims": (EVERY, "only several agents share claims"),
    "todocli.app.sharing.backlog": (EVERY, "only an agent session beside a backlog reads it"),
    "todocli.storage.agent_sessions": (NO_HOOK, "only an agent harness's shell or hook asks"),
    "todocli.storage.worktrees": (EVERY, "only a list shared by worktrees needs the ledger"),
    "todocli.agents.numbering": (EVERY, "only a tool's numbered list needs it"),
    # What only a list a person edits by hand needs: the swap that catches a save racing
    # the write (through ctypes). A list no one edits by hand pays for none of it.
    "todocli.storage.swap": (EVERY, "only a list a person edits by hand needs it"),
    "ctypes": (EVERY, "only a list a person edits by hand needs it"),
    "_ctypes": (EVERY, "only a list a person edits by hand needs it"),
    "todocli.storage.memory": (EVERY, "only a list kept in memory (the MCP server's) needs it"),
    # Checks and their evidence: only a task with a check runs one.
    "todocli.app.evidence.checks": (EVERY, "only a task with a check runs one"),
    "todocli.app.evidence.proof": (EVERY, "only a task with a check proves it"),
    "todocli.app.evidence.approvals": (EVERY, "only a task with a check needs its approval"),
    # The other commands' bodies, each loaded when its command runs.
    "todocli.app.evidence.allow": (EVERY, _COMMAND),
    "todocli.app.completion": (EVERY, _COMMAND),
    "todocli.app.configuration": (EVERY, _COMMAND),
    "todocli.app.wiring.doctor": (EVERY, _COMMAND),
    "todocli.app.edit": (EVERY, _COMMAND),
    "todocli.app.wiring.gate": (EVERY, _COMMAND),
    "todocli.app.wiring.gitmerge": (EVERY, _COMMAND),
    "todocli.app.wiring.gitrepo": (EVERY, _COMMAND),
    "todocli.app.history": (EVERY, _COMMAND),
    "todocli.app.logs": (EVERY, _COMMAND),
    "todocli.app.schemas": (EVERY, _COMMAND),
    "todocli.app.sharing.sessions": (EVERY, _COMMAND),
    "todocli.app.wiring.setup": (EVERY, _COMMAND),
    "todocli.engine.schema": (EVERY, _COMMAND + " (todo schema, the MCP tools)"),
    "todocli.engine.filemerge": (EVERY, _COMMAND + " (git's merge driver)"),
    "todocli.cli.watch": (EVERY, _COMMAND),
    "todocli.cli.typer_app": (EVERY, "help, usage errors and people's commands: not the fast path"),
    "todocli.cli.render_rich": (EVERY, "rich output, for a person at a terminal"),
    "todocli.mcp.serve": (EVERY, _COMMAND + " (todo mcp)"),
    "todocli.mcp.mcp_server": (EVERY, _COMMAND + " (todo mcp)"),
    "todocli.serve": (EVERY, _COMMAND + " (todo serve: the board, its app and page)"),
    "webbrowser": (EVERY, _COMMAND + " (todo serve --open)"),
    # Optional extras: a command that needs one loads it.
    "typer": (EVERY, _EXTRA),
    "click": (EVERY, _EXTRA),
    "rich": (EVERY, _EXTRA),
    "mcp": (EVERY, _EXTRA),
    "starlette": (EVERY, _EXTRA),
    "uvicorn": (EVERY, _EXTRA),
}
# The sets the start-up budget was first written with, now rows of the table.
AVOIDED = {
    "dataclasses", "enum", "hashlib", "inspect", "json", "pathlib", "re", "typing",
    "unicodedata",
}  # fmt: skip
# What only a write needs: the engine's ops, the input's dialects, the commit, what
# agents have seen and the reminder's notes, the lock (fcntl, and SHA-256 for its
# file's name). A read pays for none of them.
WRITE_ONLY = {
    "todocli.engine.ops", "todocli.engine.dialects", "todocli.storage.commit",
    "todocli.storage.views", "todocli.storage.lock", "fcntl", "_sha2", "_sha256",
}  # fmt: skip
# What only a call that finds a killed writer's journal (or a write that fails) needs.
RECOVERY_ONLY = {"todocli.storage.recovery", "todocli.storage.takeback"}
# What only a call that finds the list changed lately by someone else needs: the wait
# for a save under way to end (test_a_list_not_changed_lately_loads_no_wait).
SETTLE_ONLY = {"todocli.storage.settle"}
AGENTS_ONLY = {"todocli.engine.claims", "todocli.app.sharing.agent_state"}
# The folders app/ is grouped in by job: each folder's __init__ is a module load of its
# own, and no agent-path form loads one (what a hook or a TodoWrite is answered with,
# app/hooks.py, stays at the top of app/ for that).
APP_FOLDERS = {"todocli.app.evidence", "todocli.app.sharing", "todocli.app.wiring"}
RARE_ROOMS = {"todocli.engine.careful", "todocli.engine.proofs"}
PERSON_ONLY = {"todocli.storage.swap", "_ctypes", "ctypes"}
# What only a list holding an HTML block needs: the block's patterns (through re).
HTML_ONLY = {"todocli.document.html"}
TODO_WRITE = {
    "todos": [
        {"content": f"task {i}", "status": "pending", "activeForm": f"Working on task {i}"}
        for i in range(20)
    ]
}
FORMS = [
    (["show", "--plain"], b""),
    (["show", "--json"], b""),
    (["done", "task 3"], b""),
    (["apply"], json.dumps({"ops": [{"op": "done", "task": "task 4"}]}).encode()),
    (["apply", "--json"], json.dumps({"ops": [{"op": "start", "task": "task 5"}]}).encode()),
    (
        ["apply"],
        json.dumps({"ops": [{"op": "append", "phase": "Todos", "items": ["task 20"]}]}).encode(),
    ),
    (["apply", "--json"], json.dumps(TODO_WRITE).encode()),
]
PROBE = (
    "import sys\n"
    "sys.argv = ['todo', *sys.argv[1:]]\n"
    "from todocli.__main__ import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)))\n"
)


def run(args: list[str], stdin: bytes, home: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "TODOCLI_HOME": str(home), "TODOCLI_CONFIG": str(home / "c.toml")}
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, env=env, check=False
    )


def keeps_off(forms: str, args: list[str], stdin: bytes) -> bool:
    """Whether the form ``args`` with ``stdin`` is one of ``forms``."""
    return {
        EVERY: True,
        READS: args[0] == "show",
        NO_LIST: (args, stdin) in SILENT,
        PLAIN: "--json" not in args and args[0] != "hook",
        NO_JSON: "--json" not in args and not stdin,
        NO_INPUT: not stdin,
        NO_ENVELOPE: not stdin or b'"ops"' in stdin,
        NO_HOOK: b'"todos"' not in stdin and args[0] != "hook",
        NO_TODOS: b'"todos"' not in stdin,
        STILL: False,  # the other tests' lists were written just now
    }[forms]


def loaded_against_the_table(args: list[str], stdin: bytes, modules: set[str]) -> list[str]:
    """The modules of KEPT_OFF this form loaded though it is one that keeps them off
    (a package's entry counts for its modules: ``rich`` for ``rich.console``)."""
    return sorted(
        f"{name} ({why})"
        for name in modules
        for entry, (forms, why) in KEPT_OFF.items()
        if (name == entry or name.startswith(entry + ".")) and keeps_off(forms, args, stdin)
    )


@pytest.mark.parametrize("claude", [False, True], ids=["plain list", "Claude Code list"])
@pytest.mark.parametrize(
    ("args", "stdin"), FORMS, ids=[" ".join(a) + f" ({len(s)} bytes in)" for a, s in FORMS]
)
def test_the_agent_path_loads_none_of_what_the_stand_ins_replace(
    args: list[str], stdin: bytes, claude: bool, tmp_path: Path
) -> None:
    if claude:
        made = run(["apply"], json.dumps(TODO_WRITE).encode(), tmp_path)
        assert made.returncode == 0, made.stderr
        text = (tmp_path / "sessions" / "default.md").read_text()
        assert text.count("<!-- active: ") == 20
    else:
        (tmp_path / "sessions").mkdir()
        lines = [f"- [ ] task {i}" for i in range(20)]
        (tmp_path / "sessions" / "default.md").write_text("# Todos\n" + "\n".join(lines) + "\n")
    proc = run(args, stdin, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"task 3" in proc.stdout
    modules = set(proc.stderr.decode().split("MODULES ", 1)[1].split())
    assert not modules & AVOIDED, sorted(modules & AVOIDED)
    assert not modules & AGENTS_ONLY, sorted(modules & AGENTS_ONLY)
    assert not modules & APP_FOLDERS, sorted(modules & APP_FOLDERS)
    assert not modules & RARE_ROOMS, sorted(modules & RARE_ROOMS)
    assert not modules & PERSON_ONLY, sorted(modules & PERSON_ONLY)
    assert not loaded_against_the_table(args, stdin, modules)
    assert not modules & RECOVERY_ONLY, sorted(modules & RECOVERY_ONLY)
    assert not modules & HTML_ONLY, sorted(modules & HTML_ONLY)
    if args[0] == "show":
        assert not modules & WRITE_ONLY, sorted(modules & WRITE_ONLY)
    else:
        assert {"todocli.engine.ops", "todocli.storage.commit", "fcntl"} <= modules  # a real write


@pytest.mark.parametrize(("args", "stdin"), FORMS[:3], ids=[" ".join(a) for a, _ in FORMS[:3]])
def test_a_list_not_changed_lately_loads_no_wait(
    args: list[str], stdin: bytes, tmp_path: Path
) -> None:
    """A list a person wrote, but not lately: nothing to wait for, and no module for
    the wait (a list written just now is watched until it is still: see test_settle)."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    listing = folder / "default.md"
    listing.write_text("# Todos\n" + "".join(f"- [ ] task {i}\n" for i in range(20)))
    for path in (listing, folder):
        os.utime(path, (1e9, 1e9))
    proc = run(args, stdin, tmp_path)
    assert proc.returncode == 0, proc.stderr
    modules = set(proc.stderr.decode().split("MODULES ", 1)[1].split())
    assert not modules & SETTLE_ONLY, sorted(modules & SETTLE_ONLY)


def test_the_launcher_turns_the_collector_off_before_the_package_loads(tmp_path: Path) -> None:
    """The cyclic collector is off while the package is imported, not only once its
    run() starts: a stand-in package first on the path reports what it found."""
    fake = tmp_path / "fake" / "todocli"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("import gc\nprint('collector on:', gc.isenabled())\n")
    (fake / "__main__.py").write_text(
        "import sys\ndef run(argv):\n    return 0\ndef exit_now(code):\n    sys.exit(code)\n"
    )
    folder = tmp_path / "bin"
    folder.mkdir()
    script = install_launcher(folder)
    env = {**os.environ, "PYTHONPATH": str(fake.parent)}
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "collector on: False\n"


@pytest.mark.parametrize("safe_path", [False, True], ids=["default", "PYTHONSAFEPATH"])
def test_the_launcher_does_not_import_from_its_own_folder(safe_path: bool, tmp_path: Path) -> None:
    """A module lying beside the installed script (a stray todocli.py in a bin folder)
    shadows nothing; with python -P semantics already on, no other path is dropped."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = install_launcher(folder)
    (folder / "todocli.py").write_text("raise SystemExit('the shadow was imported')\n")
    env = {
        **os.environ,
        "TODOCLI_HOME": str(tmp_path / "home"),
        "TODOCLI_CONFIG": str(tmp_path / "c"),
    }
    env.pop("PYTHONSAFEPATH", None)
    if safe_path:
        env["PYTHONSAFEPATH"] = "1"
    proc = subprocess.run(
        [sys.executable, str(script), "add", "Try todocli"],
        capture_output=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Added: Try todocli" in proc.stdout


# Forms that print no list (a quiet write, a hook envelope of another tool, a hook
# event that answers nothing) need no renderer: the output module is for output.
SILENT = [
    (["-q", "done", "task 3"], b""),
    (["-q", "add", "task 20"], b""),
    (["apply"], json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}}).encode()),
    (["hook", "claude"], json.dumps({"hook_event_name": "PreCompact", "session_id": "s"}).encode()),
]


@pytest.mark.parametrize(("args", "stdin"), SILENT, ids=[" ".join(a) for a, _ in SILENT])
def test_a_form_that_prints_no_list_loads_no_renderer(
    args: list[str], stdin: bytes, tmp_path: Path
) -> None:
    (tmp_path / "sessions").mkdir()
    lines = [f"- [ ] task {i}" for i in range(20)]
    (tmp_path / "sessions" / "default.md").write_text("# Todos\n" + "\n".join(lines) + "\n")
    proc = run(args, stdin, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"task 3" not in proc.stdout  # no list printed
    modules = set(proc.stderr.decode().split("MODULES ", 1)[1].split())
    assert "todocli.app.render" not in modules
    assert not loaded_against_the_table(args, stdin, modules)
