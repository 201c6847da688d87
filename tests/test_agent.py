"""Agent-facing extras: stop gate, reminders, schemas, revisions and undo, sessions,
edit, watch, auto-clear."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from tests.support_cli import Todo, read_until, start_todo, todo_process

from .test_cli import DIALECTS


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


# -- check: the stop gate -----------------------------------------------------------------


def test_check_passes_only_when_nothing_is_open(todo: Todo) -> None:
    empty = todo("check")
    assert (empty.code, empty.out) == (0, "Nothing open.\n[0/0] No tasks.\n")
    todo("add", "A", "B")
    open_ = todo("check")
    assert open_.code == 1
    assert open_.out == (
        "Open tasks (2):\n  - A [in_progress] (Todos)\n  - B [pending] (Todos)\n"
        "[0/2] In progress: A. Pending: B.\n"
    )
    todo("done", "A", "B", "--keep")
    assert todo("check").code == 0


def test_check_in_json(todo: Todo) -> None:
    todo("add", "A")
    data = json.loads(todo("check", "--json").out)
    assert data["status"] == "error"
    assert data["error"]["code"] == "OPEN_TASKS"
    assert data["error"]["message"] == "1 task is still open"


# -- remind: the nag --------------------------------------------------------------------------


def test_remind_speaks_every_third_round_and_is_quiet_otherwise(todo: Todo) -> None:
    todo("add", "A", "B")
    outputs = [todo("remind") for _ in range(7)]
    assert all(r.code == 0 for r in outputs)
    nag = "<reminder>Update your todos.</reminder>\n[0/2] In progress: A. Pending: B.\n"
    assert [r.out for r in outputs] == ["", "", nag, "", "", nag, ""]


FAILED_NOTICE = "<reminder>Your last todo update failed ("


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (
            ("apply",),
            '{"todos": [{"content": "A", "status": "working"}]}',
            'todos[0].status: unknown status "working"',
        ),
        (("apply",), "not json", "invalid JSON: Expecting value"),
        (("apply", "--markdown"), b"\xff", "input is not valid UTF-8 (byte 0)"),
        (("rm",), None, "rm: name the TASK to remove"),
        (("add", "B", "--if-rev", "7"), None, "the list is at revision 1, not 7"),
    ],
)
def test_remind_tells_once_of_a_write_rejected_before_the_engine(
    todo: Todo, args: tuple[str, ...], stdin: str | bytes | None, message: str
) -> None:
    # Input rejected while it was read, a usage error, --if-rev: the update
    # failed as surely as one the engine refused (which was all remind told of).
    todo("add", "A")
    assert todo(*args, stdin=stdin).code != 0
    told = todo("remind").out
    assert told.startswith(FAILED_NOTICE + message), told
    assert told.endswith("[0/1] In progress: A.\n")
    assert todo("remind").out == ""  # once


def test_remind_tells_of_a_rejected_hook_payload_in_the_hook_s_session(todo: Todo) -> None:
    hook = {
        "tool_name": "TodoWrite",
        "session_id": "hooked",
        "tool_input": {"todos": [{"content": "A", "status": "working"}]},
    }
    assert todo("apply", stdin=json.dumps(hook)).code == 1
    assert 'unknown status "working"' in todo("-s", "hooked", "remind").out
    assert todo("remind").out == ""  # not the default session


def test_remind_stays_quiet_after_a_read_only_failure_or_another_tool_s_hook(todo: Todo) -> None:
    todo("add", "A")
    assert todo("log", "../x").code == 2  # a read-only command
    assert todo("schema", "nope").code == 2
    other = {"tool_name": "Bash", "tool_input": "ls"}  # not a todo tool: harmless
    assert todo("apply", stdin=json.dumps(other)).code == 1
    assert todo("remind").out == ""


def test_a_write_resets_the_round_count(todo: Todo) -> None:
    todo("add", "A", "B")
    todo("remind")
    todo("remind")
    todo("note", "A", "progress")
    assert [todo("remind").out for _ in range(3)][:2] == ["", ""]


def test_remind_every_n(todo: Todo) -> None:
    todo("add", "A")
    assert [bool(todo("remind", "--every", "2").out) for _ in range(4)] == [
        False,
        True,
        False,
        True,
    ]


def test_remind_tells_once_that_the_last_write_failed(todo: Todo) -> None:
    todo("add", "A")
    todo("done", "nope")
    first, second = todo("remind"), todo("remind")
    assert first.out.startswith(
        '<reminder>Your last todo update failed (Task "nope" not found (see: todo show)). '
        "Todo progress is not visible until you retry it.</reminder>\n"
    )
    assert second.out == ""


def test_remind_tells_once_what_a_hand_edit_changed(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    text = listing(home).read_text().replace("- [ ] B", "- [x] B") + "- [ ] C\n"
    listing(home).write_text(text)
    first, second = todo("remind"), todo("remind")
    assert first.out == (
        '<reminder>The todo list was edited by hand since your last update: added "C"; '
        '"B" pending -> completed.</reminder>\n[1/3] In progress: A. Pending: C.\n'
    )
    assert second.out == ""


def test_remind_never_fails(todo: Todo, tmp_path: Path) -> None:
    folder = tmp_path / "dir.md"
    folder.mkdir()
    result = todo("remind", "--file", str(folder))
    assert result.code == 0


# -- hand edits are reported once by a write ----------------------------------------------------


def test_a_write_over_a_hand_edit_reports_it_once(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    listing(home).write_text(listing(home).read_text() + "- [ ] C\n")
    first = json.loads(todo("note", "A", "x", "--json").out)
    assert first["changes"]["hand_edit"] == {
        "added": ["C"],
        "removed": [],
        "changed": [],
        "notes": [],
        "overridden": [],
    }
    assert 'Note: the file was edited by hand since the last write: added "C"' in first["text"]
    second = json.loads(todo("note", "A", "y", "--json").out)
    assert second["changes"]["hand_edit"] is None


def test_a_snapshot_overriding_a_hand_edit_says_so(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    listing(home).write_text(listing(home).read_text().replace("- [ ] B", "- [x] B"))
    # The snapshot changes B's status too (from the pending it last saw): it wins.
    payload = (
        '{"todos": [{"content": "A", "status": "in_progress"}, '
        '{"content": "B", "status": "abandoned"}]}'
    )
    result = todo("apply", stdin=payload)
    assert (
        'Warning: this write overrode hand edits to "B" (get them back with: todo undo)'
        in result.out
    )


def test_a_snapshot_that_did_not_change_a_hand_edited_task_keeps_the_hand_edit(
    todo: Todo, home: Path
) -> None:
    todo("add", "A", "B")
    listing(home).write_text(listing(home).read_text().replace("- [ ] B", "- [x] B"))
    payload = '{"todos": [{"content": "A", "status": "in_progress"}, {"content": "B"}]}'
    result = todo("apply", stdin=payload)
    assert "overrode" not in result.out
    assert 'kept "B" completed (set by hand)' in result.out
    assert "- [x] B" in listing(home).read_text()


# -- revisions ----------------------------------------------------


def test_every_write_is_a_revision_and_if_rev_guards_it(todo: Todo) -> None:
    todo("add", "A")
    todo("add", "B")
    assert json.loads(todo("--json").out)["context"]["rev"] == 2
    history = todo("history").out.splitlines()
    assert history[0].startswith("#2  ")
    assert history[0].endswith("[0/2] In progress: A. Pending: B.  (todo add)  (current)")
    assert history[1].startswith("#1  ")
    assert todo("add", "C", "--if-rev", "1").code == 4
    assert "C" not in todo().out


def test_undo_after_a_snapshot_drop_brings_the_tasks_back(todo: Todo, home: Path) -> None:
    todo("apply", stdin='{"todos": [{"content": "A"}, {"content": "B"}, {"content": "C"}]}')
    before = listing(home).read_bytes()
    dropped = todo("apply", stdin='{"todos": [{"content": "A", "status": "in_progress"}]}')
    assert 'dropped 2 open tasks: "B", "C"' in dropped.out
    undone = todo("undo")
    assert undone.code == 0
    assert "Restored revision #1 (now #3)." in undone.out
    assert listing(home).read_bytes() == before


def test_undo_goes_further_back_each_time_and_stops_at_the_start(todo: Todo, home: Path) -> None:
    todo("add", "A")
    todo("add", "B")
    todo("add", "C")
    todo("undo")
    assert listing(home).read_text() == "# Todos\n- [/] A\n- [ ] B\n"
    todo("undo")
    assert listing(home).read_text() == "# Todos\n- [/] A\n"
    todo("undo")
    assert listing(home).read_text() == ""
    last = todo("undo")
    assert last.code == 1
    assert "nothing to undo" in last.err


def test_undo_keeps_a_hand_edit_as_a_revision_and_force_changes_nothing(
    todo: Todo, home: Path
) -> None:
    todo("add", "A")
    todo("add", "B")
    listing(home).write_text(listing(home).read_text() + "- [ ] by hand\n")
    edited = listing(home).read_bytes()
    undone = todo("undo")
    assert undone.code == 0
    assert "The hand edit is kept as revision #3 (get it back with: todo redo)." in undone.out
    assert listing(home).read_text() == "# Todos\n- [/] A\n- [ ] B\n"
    assert todo("redo").code == 0
    assert listing(home).read_bytes() == edited
    assert todo("undo", "--force").code == 0  # accepted: it means what undo means
    assert listing(home).read_text() == "# Todos\n- [/] A\n- [ ] B\n"


def test_diff_shows_hand_edits_or_a_revisions_change(todo: Todo, home: Path) -> None:
    todo("add", "A")
    todo("add", "B")
    assert todo("diff").out == "--- #1\n+++ #2\n@@ -1,2 +1,3 @@\n # Todos\n - [/] A\n+- [ ] B\n"
    assert todo("diff", "1").out.startswith("--- #0\n+++ #1\n")
    listing(home).write_text(listing(home).read_text() + "- [ ] C\n")
    assert todo("diff").out.endswith("+- [ ] C\n")
    assert todo("diff", "9").code == 1


def test_at_least_fifty_revisions_are_kept(todo: Todo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TODOCLI_MAX_TASKS", "100")
    for i in range(60):
        todo("add", f"t{i}", "-q")
    revs = todo("history").out.splitlines()
    assert len(revs) == 60
    assert revs[-1].startswith("#1  ")


def test_if_rev_race_between_two_real_processes(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "none.toml")}
    assert todo_process("add", "base", env=env).code == 0
    procs = [
        start_todo(
            "add",
            name,
            "--if-rev",
            "1",
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("first", "second")
    ]
    codes = sorted(p.wait(timeout=60) for p in procs)
    assert codes == [0, 4]
    listed = json.loads(todo_process("--json", env=env).out)
    contents = {t["content"] for t in listed["data"]["todos"]}
    assert "base" in contents
    assert len(contents & {"first", "second"}) == 1
    assert listed["context"]["rev"] == 2


# -- schema ----------------------------------------------------


def schema_of(todo: Todo, kind: str | None = None) -> dict[str, object]:
    result = todo("schema", *([kind] if kind else []))
    assert result.code == 0
    data: dict[str, object] = json.loads(result.out)
    jsonschema.Draft202012Validator.check_schema(data)
    return data


SNAPSHOT_EXAMPLES = ["claude-code", "nexo-rs", "todocli-snapshot", "kimi", "gemini"]


@pytest.mark.parametrize("name", SNAPSHOT_EXAMPLES)
def test_snapshot_schema_accepts_the_documented_payloads(todo: Todo, name: str) -> None:
    jsonschema.validate(DIALECTS[name], schema_of(todo, "snapshot"))


def test_ops_schema_accepts_the_documented_payloads(todo: Todo) -> None:
    jsonschema.validate(DIALECTS["ops"], schema_of(todo, "ops"))
    every_op = {
        "ops": [
            {"op": "init", "list": [{"phase": "A", "items": ["x"]}]},
            {"op": "start", "task": "x"},
            {"op": "append", "phase": "A", "items": ["y"]},
            {"op": "note", "task": "x", "text": "n"},
            {"op": "block", "task": "y", "reason": "r"},
            {"op": "unblock", "phase": "A"},
            {"op": "done", "task": "x"},
            {"op": "drop", "phase": "A"},
            {"op": "rm"},
            {"op": "view"},
            {"op": "clear", "all": True},
        ]
    }
    jsonschema.validate(every_op, schema_of(todo, "ops"))
    assert todo("apply", stdin=json.dumps(every_op)).code == 0


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("snapshot", {"todos": [{"content": "a", "status": "working"}]}),
        ("snapshot", {"todos": [{"status": "pending"}]}),
        ("snapshot", {"todos": [{"content": "a", "stauts": "done"}]}),
        ("snapshot", {"todoz": []}),
        ("ops", {"ops": [{"op": "finish"}]}),
        ("ops", {"ops": [{"op": "start"}]}),
        ("ops", {"ops": []}),
        ("ops", {"ops": [{"op": "done", "task": 3}]}),
    ],
)
def test_schemas_reject_what_apply_rejects(todo: Todo, kind: str, payload: object) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(payload, schema_of(todo, kind))
    assert todo("apply", stdin=json.dumps(payload)).code == 1


def test_the_combined_schema_takes_either(todo: Todo) -> None:
    combined = schema_of(todo)
    jsonschema.validate(DIALECTS["claude-code"], combined)
    jsonschema.validate(DIALECTS["ops"], combined)
    assert todo("schema", "bogus").code == 2


# -- sessions and gc ----------------------------------------------------


def test_sessions_lists_progress_and_gc_removes_old_ones(todo: Todo, home: Path) -> None:
    todo("add", "A", "-s", "old")
    todo("add", "B", "C", "-s", "new")
    todo("done", "B", "-s", "new")
    lines = todo("sessions").out.splitlines()
    assert lines[0].startswith("  new  1/2 done  updated ")
    assert lines[1].startswith("  old  0/1 done  updated ")
    old = home / "sessions" / "old.md"
    os.utime(old, (time.time() - 40 * 86400, time.time() - 40 * 86400))
    assert todo("gc", "--older-than", "30d").out == "Removed 1 session: old\n"
    assert not old.exists()
    assert not (home / "state" / "sessions" / "old").exists()
    assert (home / "sessions" / "new.md").exists()
    assert todo("gc", "--older-than", "soon").code == 2


def test_gc_keeps_completion_logs(todo: Todo, home: Path) -> None:
    todo("add", "A", "-s", "s")
    todo("done", "A", "-s", "s")
    session = home / "sessions" / "s.md"
    os.utime(session, (0, 0))
    todo("gc", "--older-than", "1d")
    assert len(os.listdir(home / "memory" / "todos")) == 1


# -- edit ----------------------------------------------------


def editor_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\npath = sys.argv[-1]\n{body}\n")
    return f"{sys.executable} {script}"


def test_edit_with_a_scripted_editor_saves_a_revision_and_reports_the_change(
    todo: Todo, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A", "B")
    body = (
        "text = open(path).read().replace('- [ ] B', '- [x] B')\n"
        "open(path, 'w').write(text + '- [ ] C\\n')"
    )
    monkeypatch.setenv("EDITOR", editor_script(tmp_path, body))
    monkeypatch.delenv("VISUAL", raising=False)
    result = todo("edit")
    assert result.code == 0
    assert "Completed: B" in result.out
    assert "Added: C" in result.out
    assert listing(home).read_text() == "# Todos\n- [/] A\n- [x] B\n- [ ] C\n"
    assert json.loads(todo("--json").out)["context"]["rev"] == 2
    assert [
        n for n in os.listdir(home / "state" / "sessions" / "default") if n.startswith("edit-")
    ] == []


def test_edit_with_unknown_markers_writes_nothing_off_a_terminal(
    todo: Todo, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    before = listing(home).read_bytes()
    monkeypatch.setenv("EDITOR", editor_script(tmp_path, "open(path, 'a').write('- [?] odd\\n')"))
    result = todo("edit")
    assert result.code == 1
    assert 'Line 3: unknown status marker "[?]"' in result.err
    assert "nothing was written" in result.err
    assert listing(home).read_bytes() == before


def test_edit_without_an_editor_or_with_a_failing_one(
    todo: Todo, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    assert todo("edit").code == 2
    monkeypatch.setenv("VISUAL", editor_script(tmp_path, "sys.exit(3)"))
    failed = todo("edit")
    assert failed.code == 1
    assert "the editor exited with status 3" in failed.err
    monkeypatch.setenv("VISUAL", "/no/such/editor")
    assert todo("edit").code == 2


def test_edit_runs_the_editor_without_a_shell(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "pwned"
    monkeypatch.setenv("EDITOR", f"{editor_script(tmp_path, 'pass')} ; touch {marker}")
    todo("edit")
    assert not marker.exists()


# -- watch ----------------------------------------------------


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_watch_shows_a_change_made_by_another_process_within_a_second(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "none.toml")}
    todo_process("add", "first task", env=env)
    name = f"todowatch{os.getpid()}"
    command = " ".join(
        [f"{k}={v}" for k, v in env.items()]
        + ["NO_COLOR=1", sys.executable, "-m", "todocli", "watch"]
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", command], check=True
    )
    try:
        assert _wait_for(name, "first task", 60)  # watching (a busy machine starts slowly)
        todo_process("add", "second task", env=env)
        started = time.monotonic()
        assert _wait_for(name, "second task", 30)
        assert time.monotonic() - started < 1.5
        # The pane stays when watch ends, so its end and its screen can be read.
        subprocess.run(["tmux", "set-option", "-w", "-t", name, "remain-on-exit", "on"], check=True)
        subprocess.run(["tmux", "send-keys", "-t", name, "C-c"], check=True)
        _wait_for_end(name, 30)
        screen = _screen(name)
        assert "Traceback" not in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False, capture_output=True)


def _screen(name: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True, check=False
    ).stdout


def _wait_for(name: str, text: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in _screen(name):
            return True
        time.sleep(0.05)
    return False


def _wait_for_end(name: str, seconds: float) -> str:
    """The exit status of the pane's command once it has ended ("" if a signal ended it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        shown = subprocess.run(
            ["tmux", "display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status}"],
            capture_output=True,
            text=True,
            check=False,
        )
        dead, _, status = shown.stdout.strip().partition(" ")
        if dead == "1":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the watch in {name} did not end within {seconds} s of Ctrl-C")


def test_watch_off_a_terminal_prints_the_plain_view(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "none.toml")}
    todo_process("add", "A", env=env)
    proc = start_todo(
        "watch",
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        shown = read_until(proc.stdout, b"#1 [/] A")  # watching: the first view is out
        todo_process("add", "B", env=env)
        shown += read_until(proc.stdout, b"#2 [ ] B")  # and the change seen
        proc.send_signal(2)  # SIGINT, as Ctrl-C
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # when it failed: no watch left running
        proc.wait()
    assert proc.returncode == 0
    assert b"#1 [/] A" in shown
    assert b"#2 [ ] B" in shown + out
    assert b"Traceback" not in err


# -- auto-clear ----------------------------------------------------


def test_clear_delay_removes_closed_tasks_at_a_later_write(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_CLEAR_DELAY", "60")
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T10:00:00")
    todo("add", "A", "B", "C")
    todo("done", "A")
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T10:00:30")
    todo("note", "B", "half a minute later")
    assert "- [x] A" in listing(home).read_text()
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T10:01:01")
    todo("note", "B", "a minute later")
    assert "A" not in listing(home).read_text()


def test_a_successful_call_that_changes_nothing_restarts_the_count(todo: Todo) -> None:
    todo("add", "A", "B")
    todo("remind")
    todo("remind")
    assert todo("start", "A").code == 0  # already in progress: nothing to write
    assert [todo("remind").out for _ in range(2)] == ["", ""]


def test_each_failure_is_told_once_even_at_the_same_revision(todo: Todo) -> None:
    todo("add", "A")
    todo("done", "nope")
    assert todo("remind", "-e", "10").out.startswith("<reminder>Your last todo update failed")
    todo("done", "nope again")
    assert 'failed (Task "nope again" not found' in todo("remind", "-e", "10").out
    assert todo("remind", "-e", "10").out == ""


@pytest.mark.parametrize(
    "args", [("remind", "--every", "1"), ("check",), ("sessions",), ("diff",), ("history",)]
)
def test_text_commands_escape_control_characters_from_the_file(
    todo: Todo, home: Path, args: tuple[str, ...]
) -> None:
    todo("add", "A")
    with listing(home).open("ab") as file:
        file.write(b"- [ ] clear\x1b[2J screen\n")
    if args == ("history",):
        todo("add", "B")  # a revision that holds the hand-added line
    result = todo(*args)
    assert "\x1b" not in result.out
    assert "clear\\x1b[2J screen" in result.out
