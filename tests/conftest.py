"""Shared fixtures: every test runs against its own home, never the real one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support_cli import Run, Todo, todo_in_process
from todocli.base import Value
from todocli.storage import paths


def refuse_a_second_set(self: object, name: str, value: object) -> None:
    """A value's field is set once, by its ``__init__``: a later set is an error."""
    try:
        getattr(self, name)
    except AttributeError:
        object.__setattr__(self, name, value)
        return
    raise AttributeError(f"{type(self).__name__}.{name} changed after it was made")


@pytest.fixture(autouse=True, scope="session")
def values_unchanged() -> Iterator[None]:
    """Every test that runs the code in this process runs it with every value
    refusing a change after it is made (a changed value is a new value)."""
    Value.__setattr__ = refuse_a_second_set  # type: ignore[method-assign]
    yield
    del Value.__setattr__


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
    # A list a test has just written by hand is taken as saved after 0.1 s seen
    # still, not the default 0.5 s (which would cost the suite minutes of waiting);
    # the tests of that wait (tests/test_settle.py) run with the default.
    monkeypatch.setenv("TODOCLI_SAVE_PAUSE", "0.1")
    names = ("TODOCLI_SESSION", "TODOCLI_FILE", "TODOCLI_MEMORY_DIR", "TODOCLI_AGENT", "NO_COLOR")
    # The suite run from an agent's own shell: its harness's session is not the tests'.
    shells = ("TODOCLI_AGENT_SESSION", *(v for s in paths.AGENT_SHELLS for v in s[1:] if v))
    for name in (*names, *shells):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def todo(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Todo:
    """Run the command line in this process (fast), capturing its output."""

    def call(*args: str, stdin: bytes | str | None = None) -> Run:
        return todo_in_process(capsys, monkeypatch, *args, stdin=stdin)

    return call
