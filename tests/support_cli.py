"""Running the command line in tests: in-process (fast) or as a real subprocess."""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import pytest

from todocli.cli.typer_app import run


def install_launcher(folder: Path) -> Path:
    """``scripts/todo`` as an installer leaves it in ``folder``: its ``#!python``
    line made the path of this Python."""
    source = Path(__file__).resolve().parent.parent / "scripts" / "todo"
    script = folder / "todo"
    script.write_text(source.read_text().replace("#!python", f"#!{sys.executable}", 1))
    return script


@dataclass
class Run:
    code: int
    out: str
    err: str


class Todo(Protocol):
    """The ``todo`` fixture: run the command line with these arguments."""

    def __call__(self, *args: str, stdin: bytes | str | None = None) -> Run: ...


class _Stdin(io.TextIOWrapper):
    def isatty(self) -> bool:
        return False


def todo_in_process(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: bytes | str | None = None,
) -> Run:
    """Call the command line's entry point in this process and capture its output."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    monkeypatch.setattr(sys, "stdin", _Stdin(io.BytesIO(data), encoding="utf-8"))
    capsys.readouterr()
    code = run(list(args))
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def default_signals() -> None:
    """In a child before it runs: SIGINT and SIGQUIT back to their defaults. A shell
    starts a background job with both ignored, and a child inherits that (Python then
    never raises KeyboardInterrupt); ``restore_signals`` resets only SIGPIPE, SIGXFZ
    and SIGXFSZ."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def start_todo(*args: str, **options: Any) -> subprocess.Popen[Any]:
    """Start ``python -m todocli ARGS`` as a running process (``subprocess.Popen``
    ``options``), with default signal handlers: a test's Ctrl-C reaches it."""
    return subprocess.Popen(
        [sys.executable, "-m", "todocli", *args], preexec_fn=default_signals, **options
    )


def todo_process(
    *args: str,
    stdin: bytes | str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 60,
) -> Run:
    """Run ``python -m todocli`` as a real process."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", "todocli", *args],
        input=data if data is not None else b"",
        capture_output=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=timeout,
        check=False,
        preexec_fn=default_signals,
    )
    return Run(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def read_until(stream: IO[bytes], text: bytes, seconds: float = 60) -> bytes:
    """What a running process writes to ``stream`` (its stdout pipe), read until
    ``text`` appears in it: the process has reached the state that output shows.
    Fails after ``seconds`` (generous: a loaded machine is slow, never wrong)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while text not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"waited {seconds} s for {text!r}; the process wrote {seen!r}")
        ready, _, _ = select.select([stream], [], [], left)
        if ready:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                pytest.fail(f"the process closed its output before {text!r}; it wrote {seen!r}")
            seen += chunk
    return seen


# The keys of the versioned --json envelope every command prints (docs/json.md).
ENVELOPE_KEYS = {
    "version",
    "status",
    "data",
    "text",
    "stats",
    "changes",
    "context",
    "warnings",
    "error",
}


def plan_file(folder: Path, text: str, name: str = "tasks.md") -> Path:
    """A plan file of ``text`` in ``folder`` (a ``--file`` list)."""
    path = folder / name
    path.write_text(text)
    return path


def file_todos(path: Path) -> list[dict[str, Any]]:
    """The tasks of the ``--file`` list at ``path``, as ``todo --json show`` gives them."""
    shown = todo_process("--file", str(path), "--json", "show")
    assert shown.code == 0, shown.err
    todos: list[dict[str, Any]] = json.loads(shown.out)["data"]["todos"]
    return todos
