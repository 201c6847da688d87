"""Shared fixtures: every test runs against its own home, never the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support_cli import Run, Todo, todo_in_process


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("TODOCLI_HOME", str(home))
    # Locks live in the user's lock folder: a private one per test.
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("TODOCLI_LOCK_DIR", str(runtime))
    monkeypatch.setenv("TODOCLI_CONFIG", str(tmp_path / "config.toml"))
    # No test writes a TODO.md at the top of the checkout it runs in (the project
    # plan): the tests of the plan turn the lookup back on.
    monkeypatch.setenv("TODOCLI_PROJECT", "0")
    names = ("TODOCLI_SESSION", "TODOCLI_FILE", "TODOCLI_MEMORY_DIR", "TODOCLI_AGENT", "NO_COLOR")
    for name in names:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def todo(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Todo:
    """Run the command line in this process (fast), capturing its output."""

    def call(*args: str, stdin: bytes | str | None = None) -> Run:
        return todo_in_process(capsys, monkeypatch, *args, stdin=stdin)

    return call
