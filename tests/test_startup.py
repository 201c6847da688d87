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

# Each costs milliseconds of every call: json and re (with enum, functools...),
# dataclasses (with inspect), typing, pathlib, hashlib (OpenSSL), unicodedata.
AVOIDED = {
    "dataclasses", "enum", "hashlib", "inspect", "json", "pathlib", "re", "typing",
    "unicodedata",
}  # fmt: skip
# What only a write needs: the engine's ops, the input's dialects, the lock (fcntl,
# and SHA-256 for its file's name). A read pays for none of them.
WRITE_ONLY = {"todocli.engine.ops", "todocli.engine.dialects", "fcntl", "_sha2", "_sha256"}
# What only several agents or dependencies need: a list with neither pays for none of it.
AGENTS_ONLY = {"todocli.engine.claims", "todocli.app.agent_state"}
# What only a list a person edits by hand needs: the swap that catches a save racing
# the write (through ctypes). A list no one edits by hand pays for none of it.
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
    assert not modules & PERSON_ONLY, sorted(modules & PERSON_ONLY)
    assert not modules & HTML_ONLY, sorted(modules & HTML_ONLY)
    if args[0] == "show":
        assert not modules & WRITE_ONLY, sorted(modules & WRITE_ONLY)
    else:
        assert {"todocli.engine.ops", "fcntl"} <= modules  # the probe sees a real write


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
