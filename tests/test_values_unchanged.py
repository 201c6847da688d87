"""A value is not changed once made: a changed value is a new value (``replace``).

Every test of the suite that runs the code in this process runs it with every
``Value`` refusing a field set twice (the first set is its ``__init__``'s: the
``values_unchanged`` fixture of ``conftest.py``), so a change made after creation
fails the test instead of passing unseen. These tests name the cases that once
changed a value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from todocli.app.commands import Context, Options, apply_input
from todocli.document.model import OpError, Result, Task


def run(tmp_path: Path, payload: object) -> Result:
    ctx = Context(Options(file=str(tmp_path / "todo.md")))
    outcome = apply_input(ctx, json.dumps(payload).encode())
    assert outcome.error is None
    assert outcome.result is not None
    return outcome.result


def test_the_guard_refuses_a_change() -> None:
    task = Task("a")
    with pytest.raises(AttributeError, match="changed after it was made"):
        task.content = "b"
    assert task.replace(content="b") == Task("b")


def test_a_snapshot_keeps_the_ids_of_its_tasks_in_new_values(tmp_path: Path) -> None:
    """A snapshot of tasks with ids makes each task with its metadata at once."""
    todos = [{"id": "7", "content": "Write it", "status": "pending"}]
    run(tmp_path, {"todos": todos})
    result = run(tmp_path, {"todos": [{**todos[0], "status": "in_progress"}]})
    (task,) = [t for _, t in result.new.tasks()]
    assert (task.meta.id, task.status.value) == ("7", "in_progress")


def test_the_hint_for_an_unknown_tracker_id_is_a_new_result(tmp_path: Path) -> None:
    """The hint is added to a new Result's errors, not written into the engine's."""
    run(tmp_path, {"title": "Write it", "description": "the docs", "type": "task"})
    ctx = Context(Options(file=str(tmp_path / "todo.md")))
    outcome = apply_input(ctx, json.dumps({"id": "3f9a2c", "status": "closed"}).encode())
    assert outcome.result is not None
    (error,) = outcome.result.errors
    assert isinstance(error, OpError)
    assert error.message.startswith('No task has id "3f9a2c"')
    assert error.message.endswith("run todo apply from an AfterTool hook")
