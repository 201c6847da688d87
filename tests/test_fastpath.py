"""The agent's fast path against the Typer app: for every command form the fast path
serves, both must give the same stdout, stderr, exit code and bytes on disk. And the
agent path must not import Typer, Click, rich or pydantic."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support_cli import _Stdin
from todocli.cli import fastpath, typer_app

CLAUDE = json.dumps(
    {
        "todos": [
            {"content": "A", "status": "completed"},
            {"content": "B", "status": "in_progress", "activeForm": "Doing B"},
        ]
    }
)
OPS = json.dumps(
    {"ops": [{"op": "note", "task": "B", "text": "via ops"}, {"op": "done", "task": "A"}]}
)

# (arguments, stdin)
FORMS: list[tuple[list[str], str | None]] = [
    ([], None),
    (["show"], None),
    (["show", "--all"], None),
    (["show", "-a"], None),
    (["ls"], None),
    (["ls", "--json"], None),
    (["a", "D", "-p", "Ship"], None),
    (["__complete", "tasks"], None),
    (["__complete", "sessions"], None),
    (["__complete", "phases", "-s", "other"], None),
    (["--json"], None),
    (["show", "--json"], None),
    (["--plain", "show"], None),
    (["-q"], None),
    (["show", "-s", "other"], None),
    (["--session=other", "show"], None),
    (["-sother", "add", "X"], None),
    (["add", "D"], None),
    (["add", "D", "E", "--phase", "Ship"], None),
    (["add", "-p", "Ship", "D"], None),
    (["add", "--phase=Ship", "D", "--json"], None),
    (["add", "A"], None),
    (["add", "--", "-dash task"], None),
    (["add"], None),
    (["init", "X", "Y", "--summary", "Goal", "-p", "P"], None),
    (["init"], None),
    (["start", "C"], None),
    (["start", "#3"], None),
    (["start", "nope"], None),
    (["done"], None),
    (["done", "A"], None),
    (["done", "A", "C", "--json"], None),
    (["done", "A", "nope"], None),
    (["done", "A", "nope", "--partial"], None),
    (["done", "--phase", "Todos"], None),
    (["done", "--all"], None),
    (["done", "--all", "--keep"], None),
    (["done", "A", "--all"], None),
    (["done", "B", "--note", "finished it"], None),
    (["done", "B", "-n", "short"], None),
    (["done", "--note", "x"], None),
    (["drop"], None),
    (["drop", "C"], None),
    (["drop", "--phase", "Nope"], None),
    (["rm"], None),
    (["rm", "C"], None),
    (["rm", "--all"], None),
    (["note", "B", "a note"], None),
    (["note", "B", ""], None),
    (["block", "C", "--reason", "waiting"], None),
    (["block", "C", "-r", "waiting", "--json"], None),
    (["unblock", "C"], None),
    (["clear"], None),
    (["clear", "--all"], None),
    (["apply"], CLAUDE),
    (["apply", "--json"], CLAUDE),
    (["apply"], OPS),
    (["apply"], "{}"),
    (["apply"], "not json"),
    (["apply"], '{"todos": [{"content": "x", "status": "bogus"}]}'),
    (["apply", "--markdown"], "# G\n\n## P\n- [/] m\n"),
    (["apply", "-i", "{payload}"], None),
    (["apply", "--input={payload}", "--json"], None),
    (["check"], None),
    (["check", "--json"], None),
    (["check", "-q"], None),
    (["remind"], None),
    (["remind", "--every", "1"], None),
    (["remind", "-e", "1", "--json"], None),
    (["path"], None),
    (["path", "--file", "{todo_md}"], None),
    (["--file", "{todo_md}", "done", "one"], None),
    (["--file", "{todo_md}", "show", "--json"], None),
    (["add", "Z", "--if-rev", "1"], None),
    (["add", "Z", "--if-rev", "7"], None),
    (["--home", "{elsewhere}", "add", "Z"], None),
    (["-s", "../bad", "show"], None),
    (["show", "--memory-dir", "{elsewhere}"], None),
    (["show", "--as", "codex"], None),
    (["show", "--as", "nope"], None),
    (["show", "--as=gemini", "--json"], None),
    (["path", "--json"], None),
    (["check", "--hook"], '{"session_id": "other"}'),
    (["remind", "-s", "../bad"], None),
    (["remind", "-s", "../bad", "--json"], None),
    (["remind", "-q", "-e", "1"], None),
    (["__complete", "tasks", "--json"], None),
    (["__complete", "tasks", "-s", "../bad"], None),
    # Several agents (issue 15).
    (["claim", "--agent", "a"], None),
    (["--agent=a", "claim", "--json"], None),
    (["claim", "C", "--agent", "a"], None),
    (["claim", "B", "--agent", "a"], None),
    (["claim", "nope", "--agent", "a"], None),
    (["claim"], None),
    (["claim", "--agent", "bad name"], None),
    (["done", "--agent", "a"], None),
    (["start", "C", "--agent", "a", "--json"], None),
    (["add", "D", "--after", "#3"], None),
    (["add", "D", "--after", "C", "--json"], None),
    (["add", "D", "--after", "#9"], None),
    (["check", "--agent", "a"], None),
    (["check", "--agent", "a", "--json"], None),
    (["add", "D", "--after", "#1", "--after=C"], None),
]

# Forms the fast path must hand to the Typer app.
NOT_SERVED = [
    ["--help"],
    ["show", "--help"],
    ["-h"],
    ["--version"],
    ["bogus"],
    ["start"],
    ["start", "a", "b"],
    ["note", "only-one"],
    ["show", "--bogus"],
    ["--json=1"],
    ["add", "-x"],
    ["remind", "--every", "abc"],
    ["add", "A", "--if-rev", "x"],
    ["history"],
    ["edit"],
    ["log"],
    ["add", "-"],
    ["add", "--phase"],
    ["claim", "A", "B"],
]


def setup_home(root: Path) -> dict[str, str]:
    home = root / "home"
    (home / "sessions").mkdir(parents=True)
    (home / "sessions" / "default.md").write_text("# Todos\n- [x] A\n- [/] B\n- [ ] C\n")
    (root / "TODO.md").write_text("Plan:\n\n* [ ] one\n* [ ] two\n")
    (root / "payload.json").write_text(CLAUDE)
    (root / "elsewhere").mkdir()
    return {
        "TODOCLI_HOME": str(home),
        "TODOCLI_CONFIG": str(root / "none.toml"),
        "TODOCLI_NOW": "2026-11-21T17:42:33",
    }


def snapshot(root: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name != "lock":
            # A --file list's state folder is named by a hash of its real path.
            name = re.sub(
                r"state/files/[0-9a-f]{16}", "state/files/KEY", str(path.relative_to(root))
            )
            data = path.read_bytes().replace(str(root).encode(), b"$ROOT")
            if path.name == "failed":  # its second line is a random token per failure
                lines = data.split(b"\n")
                data = b"\n".join([lines[0], b"TOKEN", *lines[2:]])
            files[name] = data
    return files


def run_with(
    runner: Callable[[list[str]], int | None],
    root: Path,
    argv: list[str],
    stdin: str | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int | None, str, str, dict[str, bytes]]:
    env = setup_home(root)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    args = [
        a.replace("{payload}", str(root / "payload.json"))
        .replace("{todo_md}", str(root / "TODO.md"))
        .replace("{elsewhere}", str(root / "elsewhere"))
        for a in argv
    ]
    import io

    monkeypatch.setattr(sys, "stdin", _Stdin(io.BytesIO((stdin or "").encode()), encoding="utf-8"))
    capsys.readouterr()
    code = runner(args)
    out, err = capsys.readouterr()
    clean = str(root)
    return code, out.replace(clean, "$ROOT"), err.replace(clean, "$ROOT"), snapshot(root)


@pytest.mark.parametrize(("argv", "stdin"), FORMS, ids=[" ".join(f[0]) or "(none)" for f in FORMS])
def test_fast_path_and_typer_app_agree(
    argv: list[str],
    stdin: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fast = run_with(fastpath.run, tmp_path / "fast", argv, stdin, monkeypatch, capsys)
    assert fast[0] is not None, "the fast path should serve this form"
    typer_ = run_with(typer_app.run, tmp_path / "typer", argv, stdin, monkeypatch, capsys)
    assert fast[0] == typer_[0], "exit codes differ"
    assert fast[1] == typer_[1], "stdout differs"
    assert fast[2] == typer_[2], "stderr differs"
    assert fast[3] == typer_[3], "files on disk differ"


@pytest.mark.parametrize("argv", NOT_SERVED, ids=[" ".join(a) for a in NOT_SERVED])
def test_the_fast_path_leaves_other_forms_to_typer(argv: list[str]) -> None:
    assert fastpath.parse(fastpath.hoist(argv)) is None or argv[0] in (
        "history",
        "edit",
        "log",
    )
    assert fastpath.run(argv) is None


AGENT_CALLS = [
    ["show", "--plain"],
    ["--json"],
    ["add", "X"],
    ["done", "X"],
    ["apply"],
    ["check"],
    ["remind"],
    ["done", "nope"],
    ["-s", "../bad"],
]


@pytest.mark.parametrize("argv", AGENT_CALLS, ids=[" ".join(a) for a in AGENT_CALLS])
def test_the_agent_path_imports_no_typer_click_rich_or_pydantic(
    argv: list[str], tmp_path: Path
) -> None:
    probe = (
        "import sys\n"
        f"sys.argv = ['todo', *{argv!r}]\n"
        "from todocli.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        input=b'{"todos": [{"content": "X"}]}',
        capture_output=True,
        env={
            **os.environ,
            "TODOCLI_HOME": str(tmp_path / "h"),
            "TODOCLI_CONFIG": str(tmp_path / "c.toml"),
        },
        check=False,
    )
    modules = proc.stderr.decode().split("MODULES ", 1)[1].split()
    loaded = {m.split(".")[0] for m in modules}
    assert not loaded & {"typer", "click", "rich", "pydantic"}, sorted(loaded)
