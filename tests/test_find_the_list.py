"""A person finds the list an agent is writing without knowing any session id:
``todo sessions`` names each hooked list's agent and project; ``todo watch`` and
``todo edit`` with no list named take the current project's most recent one;
``todo watch`` shows the real revision and says where a finished list went."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console

from tests.support_cli import Todo
from todocli.app.commands import Context, Options
from todocli.cli import watch as watch_module


def start(todo: Todo, session: str, project: Path) -> None:
    stdin = {
        "session_id": session,
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    assert todo("hook", "claude", stdin=json.dumps(stdin)).code == 0


def test_sessions_name_each_hooked_list_s_agent_and_project(todo: Todo, tmp_path: Path) -> None:
    start(todo, "9f1c2e7a-0b4d", tmp_path)
    assert todo("-s", "9f1c2e7a-0b4d", "init", "Fix it").code == 0
    line = todo("sessions").out.splitlines()[0]
    assert f"claude in {tmp_path}" in line
    (row,) = json.loads(todo("sessions", "--json").out)["data"]["sessions"]
    assert (row["agent"], row["project"]) == ("claude", str(tmp_path))


def test_watch_and_edit_with_no_session_take_the_project_s_newest_list(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(todo, "older", tmp_path)
    start(todo, "latest", tmp_path)  # before "older" has a plan: a list of its own
    start(todo, "newer", tmp_path / "other")  # another project
    assert todo("-s", "older", "init", "Old plan").code == 0
    assert todo("-s", "newer", "init", "Not this one").code == 0
    assert todo("-s", "latest", "init", "New plan").code == 0
    os.utime(todo("-s", "older", "path").out.strip(), (1, 1))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDITOR", "true")
    edited = todo("edit", "--json")
    assert json.loads(edited.out)["context"]["session"] == "latest"
    from todocli.cli.dispatch import Call, _project_context

    call = Call.__new__(Call)
    call.options = Options()
    assert _project_context(call).loc.session == "latest"


def live_view(ctx: Context) -> str:
    buffer = io.StringIO()
    original = Console.__init__

    def to_buffer(self: Console, *args: object, **kwargs: object) -> None:
        kwargs["file"] = buffer
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Console, "__init__", to_buffer)
        watch_module._live(ctx, color=False, show_all=False, once=True)
    return buffer.getvalue()


def test_watch_shows_the_real_revision(todo: Todo) -> None:
    assert todo("init", "A", "B").code == 0
    assert todo("done", "A").code == 0
    assert "(rev 2; Ctrl-C to stop)" in live_view(Context(Options()))


def test_watch_says_a_finished_list_was_completed_and_logged_where(
    todo: Todo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert todo("init", "A").code == 0
    assert todo("done", "A").code == 0
    ctx = Context(Options())
    logged = json.loads(todo("log", "--json").out)["data"]["log"]
    expected = f"The list was completed and logged to {logged} (todo log)"
    assert "".join(expected.split()) in "".join(live_view(ctx).split())  # rich wraps lines
    watch_module.watch(ctx, rich=False, color=False, json=False, once=True)
    assert capsys.readouterr().out.startswith("The list was completed and logged to ")
