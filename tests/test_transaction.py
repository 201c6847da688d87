"""The write transaction (``app.transaction``): every write runs its named steps in
order, a ``todo done`` on a task with a check takes the list's lock once, a check
may itself run todo on the list, a list changed while the checks ran is planned
again, and a TodoWrite reads its list and builds its reply a counted number of
times. Races are forced through the steps themselves (each a module function),
never by sleeping."""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections import Counter
from contextlib import AbstractContextManager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

from tests.support import git
from tests.support_cli import Todo
from todocli.agents import claude_todowrite
from todocli.app import commands, replacement, transaction
from todocli.app.commands import Context, Options
from todocli.document import markdown
from todocli.errors import BusyError, ConflictError
from todocli.storage.store import Store

TODO = f"{shlex.quote(sys.executable)} -m todocli"  # `todo` as a check runs it


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    return repo


def context(repo: Path) -> Context:
    return Context(Options(file=str(repo / "TODO.md")))


def steps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each step of the transaction as it runs (the steps are called through
    the module, so wrapping them there sees every call)."""
    seen: list[str] = []
    for module, name in (
        *((transaction, name) for name in ("read", "settle", "plan", "prove", "commit")),
        (replacement, "commit_text"),  # a whole text's commit (undo, redo, edit)
    ):
        step = getattr(module, name)

        def wrapped(*args: Any, _step: Any = step, _name: str = name, **kwargs: Any) -> Any:
            seen.append(_name)
            return _step(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapped)
    return seen


def count_locks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often this process takes a list's lock."""
    taken: list[int] = []
    locked = Store.locked

    def counted(self: Store) -> AbstractContextManager[object]:
        taken.append(1)
        return locked(self)

    monkeypatch.setattr(Store, "locked", counted)
    return taken


def test_a_write_runs_read_settle_plan_commit_in_order(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands.init(context(repo), ["Ship", "Test"])
    seen = steps(monkeypatch)
    outcome = commands.start(context(repo), "Ship")
    assert outcome.exit_code == 0
    assert seen == ["read", "settle", "plan", "commit"]


def test_undo_redo_and_an_edit_write_through_the_transactions_steps(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from todocli.app import edit, history

    commands.init(context(repo), ["Ship", "Test"])
    commands.start(context(repo), "Ship")
    seen = steps(monkeypatch)
    taken = count_locks(monkeypatch)
    assert history.undo(context(repo)).exit_code == 0
    assert history.redo(context(repo)).exit_code == 0
    editor = repo / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf -- "- [ ] Ship\\n" > "$1"\n')
    editor.chmod(0o755)
    ctx = Context(Options(file=str(repo / "TODO.md")), env={**os.environ, "EDITOR": str(editor)})
    assert edit.edit(ctx).exit_code == 0
    # Each a whole text for its plan: read, settle, commit, under one lock.
    assert seen == ["read", "settle", "commit_text"] * 3
    assert len(taken) == 3
    assert (repo / "TODO.md").read_text() == "- [ ] Ship\n"


def test_a_done_with_a_check_plans_proves_then_commits_under_one_lock(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands.add(context(repo), ["Ship"], check="true")  # approved: this person's own
    seen = steps(monkeypatch)
    taken = count_locks(monkeypatch)
    outcome = commands.done(context(repo), ["Ship"])
    assert outcome.exit_code == 0, outcome.error
    # The plan without the lock learns the check; it runs; then one locked round.
    assert seen == ["plan", "prove", "read", "settle", "plan", "commit"]
    assert len(taken) == 1
    assert "- [x] Ship <!-- check: true; checked: passed " in (repo / "TODO.md").read_text()


def test_a_done_with_no_check_skips_the_plan_without_the_lock(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands.add(context(repo), ["Ship"], check="false")
    seen = steps(monkeypatch)
    taken = count_locks(monkeypatch)
    outcome = commands.done(context(repo), ["Ship"], no_check=True)
    assert outcome.exit_code == 0, outcome.error
    assert seen == ["read", "settle", "plan", "commit"]
    assert len(taken) == 1


def test_a_check_that_runs_todo_on_the_list_still_completes_its_task(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_file = shlex.quote(str(repo / "TODO.md"))
    check = f"{TODO} --file {list_file} note Ship checked-by-itself"
    commands.add(context(repo), ["Ship"], check=check)
    taken = count_locks(monkeypatch)
    outcome = commands.done(context(repo), ["Ship"])
    assert outcome.exit_code == 0, outcome.error
    text = (repo / "TODO.md").read_text()
    assert "- [x] Ship" in text
    assert "checked-by-itself" in text  # the check's own write landed first
    assert len(taken) == 1  # this process's; the check's todo took its own


def test_a_done_refused_by_if_rev_runs_no_check(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = repo / "ran"
    commands.add(context(repo), ["Ship"], check=f"touch {shlex.quote(str(marker))}")
    stale = Context(Options(file=str(repo / "TODO.md"), if_rev=0))
    with pytest.raises(ConflictError, match="not 0"):
        commands.done(stale, ["Ship"])
    assert not marker.exists()  # refused before any check ran, as it always was


def test_a_list_changed_while_the_checks_ran_is_planned_again(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands.add(context(repo), ["Ship"], check="true")
    asked: list[list[str]] = []
    prove = transaction.prove

    def prove_then_another_writer(proving: Any, wanted: Any) -> Any:
        asked.append([content for _, content, _ in wanted])
        proofs = prove(proving, wanted)
        if len(asked) == 1:  # another writer adds a task with a check meanwhile
            commands.add(context(repo), ["Docs"], check="true")
        return proofs

    monkeypatch.setattr(transaction, "prove", prove_then_another_writer)
    outcome = commands.done(context(repo), [], everything=True)
    assert outcome.exit_code == 0, outcome.error
    assert asked == [["Ship"], ["Docs"]]  # the new task's check ran in a second round
    text = (repo / "TODO.md").read_text()
    assert "- [x] Ship" in text
    assert "- [x] Docs" in text


def test_a_list_that_keeps_wanting_checks_gives_up_with_exit_5(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands.add(context(repo), ["Ship"], check="true")
    added = iter(range(100))
    prove = transaction.prove

    def prove_then_another_writer(proving: Any, wanted: Any) -> Any:
        proofs = prove(proving, wanted)
        commands.add(context(repo), [f"More {next(added)}"], check="true")
        return proofs

    monkeypatch.setattr(transaction, "prove", prove_then_another_writer)
    with pytest.raises(BusyError, match="kept being completed by others") as raised:
        commands.done(context(repo), [], everything=True)
    assert raised.value.exit_code == 5
    assert "- [x]" not in (repo / "TODO.md").read_text()  # nothing was written


def calls(codes: dict[str, CodeType]) -> tuple[Counter[str], Any]:
    """Count calls of these functions (by their code), in this thread."""
    counted: Counter[str] = Counter()
    names = {code: name for name, code in codes.items()}

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in names:
            counted[names[frame.f_code]] += 1

    return counted, profile


def test_a_todowrite_parses_its_list_and_builds_its_reply_a_counted_number_of_times(
    todo: Todo,
) -> None:
    def payload(done: int) -> str:
        todos = [
            {
                "content": f"task {i}",
                "status": "completed" if i < done else "in_progress" if i == done else "pending",
                "activeForm": f"Working on task {i}",
            }
            for i in range(20)
        ]
        return json.dumps({"todos": todos})

    assert todo("apply", stdin=payload(-1)).code == 0
    counted, profile = calls(
        {"parse": markdown.parse.__code__, "reply": claude_todowrite.reply.__code__}
    )
    sys.setprofile(profile)
    try:
        answer = todo("--json", "apply", stdin=payload(1))
    finally:
        sys.setprofile(None)
    assert answer.code == 0, answer.err
    assert json.loads(answer.out)["data"]["reply"]["todos"][0]["status"] == "completed"
    # Once each: the list read, and the reply the agent gets. The snapshot changes
    # the canonical list's task lines in place (engine/snapshot.py: nothing to read
    # back), and the echo reads only the reply's entries of the tasks the items
    # change (agents/echo.py: no reply of the list as the agent last saw it).
    assert counted == {"parse": 1, "reply": 1}
