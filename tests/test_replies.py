"""What an agent reads after each call: the lean reply of a write (what changed,
the person's edits and notes, the notes of the task in progress, warnings, the
recap), the ``reply = full`` setting, notes and block reasons, the slimmer
``--json`` envelope, and what the reply must get right."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.support_cli import Todo

# Tasks of 26 characters, as an agent names steps.
TASKS = [f"Step {i:02d} of the bug fix plan" for i in range(20)]


def session_file(home: Path) -> Path:
    return home / "sessions" / "default.md"


def make_list(todo: Todo, count: int) -> None:
    made = todo("init", *TASKS[:count])
    assert made.code == 0, made.err


def add_note_by_hand(home: Path, task: str, note: str) -> None:
    path = session_file(home)
    text = path.read_text()
    line = next(x for x in text.splitlines() if f"] {task}" in x)
    path.write_text(text.replace(line + "\n", f"{line}\n  > {note}\n", 1))


# -- the lean reply of a write -------------------------------------------------------------


def test_a_step_on_a_20_task_list_reads_under_400_characters(todo: Todo) -> None:
    make_list(todo, 20)
    step = todo("done")  # the task in progress done, the next started
    assert step.code == 0
    assert step.out.splitlines()[:2] == [f"Completed: {TASKS[0]}", f"Started: {TASKS[1]}"]
    assert step.out.splitlines()[-1].startswith("[1/20] In progress: Step 01")
    assert "Remaining items" not in step.out  # the list is not repeated
    assert f"#3 [ ] {TASKS[2]}" not in step.out
    assert len(step.out) <= 400


def test_a_step_reads_the_same_on_any_length_of_list_but_the_recap(todo: Todo) -> None:
    replies = []
    for count in (5, 20):
        make_list(todo, count)
        replies.append(todo("done").out.splitlines())
    short, long = replies
    assert short[:-1] == long[:-1]  # only the recap knows how long the list is
    assert short[-1].startswith("[1/5] ")
    assert long[-1].startswith("[1/20] ")


def test_start_says_the_task_it_set_aside_went_back_to_pending(todo: Todo) -> None:
    make_list(todo, 3)
    out = todo("start", TASKS[2]).out
    assert out.splitlines()[:2] == [f"Started: {TASKS[2]}", f"Back to pending: {TASKS[0]}"]
    assert "Reopened" not in out


def test_a_completed_task_made_pending_again_is_reopened(todo: Todo) -> None:
    make_list(todo, 2)
    todo("done")
    out = todo("apply", stdin=json.dumps({"ops": [{"op": "unblock", "task": TASKS[1]}]})).out
    assert "Reopened" not in out  # nothing reopened by an unblock of a task not blocked
    out = todo(
        "apply",
        stdin=json.dumps(
            {"todos": [{"content": TASKS[0], "status": "pending"}, {"content": TASKS[1]}]}
        ),
    ).out
    assert f"Reopened: {TASKS[0]}" in out


def test_the_notes_of_the_task_in_progress_are_quoted_and_bounded(todo: Todo) -> None:
    make_list(todo, 3)
    for i in range(5):
        todo("note", TASKS[0], f"finding {i} " + "x" * 300)
    out = todo("add", "One more").out
    lines = out.splitlines()
    at = lines.index(f'Notes on "{TASKS[0]}" (in progress):')
    quoted = lines[at + 1 : at + 4]
    assert [q.split(" x")[0] for q in quoted] == [
        '  > "finding 2',
        '  > "finding 3',
        '  > "finding 4',
    ]
    assert all(len(q) <= 210 for q in quoted)  # each cut to 200 characters
    assert lines[at + 4] == "  (+2 earlier: todo show --notes)"


def test_a_write_that_changes_nothing_says_so(todo: Todo) -> None:
    make_list(todo, 2)
    out = todo("start", TASKS[0]).out
    assert out.splitlines() == [
        "No change.",
        "[0/2] In progress: Step 00 of the bug fix plan. Pending: Step 01 of the bug fix plan.",
    ]


def test_show_keeps_the_whole_list(todo: Todo) -> None:
    make_list(todo, 3)
    out = todo("show").out
    assert "Remaining items (3):" in out
    assert f"  #3 [ ] {TASKS[2]}" in out


# -- reply = full ---------------------------------------------------------------------------


def test_reply_full_in_the_config_shows_the_list_after_every_write(
    todo: Todo, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text('reply = "full"\n')
    make_list(todo, 3)
    out = todo("done").out
    assert out.startswith(f"Completed: {TASKS[0]}\nStarted: {TASKS[1]}\nRemaining items (2):")
    assert f"  #3 [ ] {TASKS[2]}" in out
    data = json.loads(todo("done", "--json").out)
    assert data["data"]["phases"][0]["name"] == "Todos"
    assert data["data"]["reply_tool"] == "claude"


def test_reply_full_from_the_environment(todo: Todo, monkeypatch: pytest.MonkeyPatch) -> None:
    make_list(todo, 3)
    assert "Remaining items" not in todo("done").out  # lean unless asked
    monkeypatch.setenv("TODOCLI_REPLY", "FULL")
    assert "Remaining items (1):" in todo("done").out


def test_a_reply_setting_that_is_neither_lean_nor_full_is_refused(
    todo: Todo, tmp_path: Path, home: Path
) -> None:
    (tmp_path / "config.toml").write_text('reply = "short"\n')
    run = todo("add", "A")
    assert run.code == 2
    assert "reply must be lean or full, got 'short'" in run.err
    assert not session_file(home).exists()


# -- a person's notes reach the agent ---------------------------------------------------------


NOTE = "the flaky test is test_lexer, skip it"


def test_a_hand_note_under_a_pending_task_reaches_the_flag_path(todo: Todo, home: Path) -> None:
    make_list(todo, 4)
    add_note_by_hand(home, TASKS[3], NOTE)
    out = todo("done").out
    assert "Note: the file was edited by hand since the last write:" in out
    assert f'  note on "{TASKS[3]}": "{NOTE}"' in out
    # told once: the next write has nothing new from the person
    assert NOTE not in todo("done").out


def test_a_hand_note_under_a_pending_task_reaches_apply(todo: Todo, home: Path) -> None:
    make_list(todo, 3)
    add_note_by_hand(home, TASKS[2], NOTE)
    run = todo("apply", "--json", stdin=json.dumps({"ops": [{"op": "done"}]}))
    data = json.loads(run.out)
    assert f'  note on "{TASKS[2]}": "{NOTE}"' in data["text"]
    assert data["changes"]["hand_edit"]["notes"] == [{"content": TASKS[2], "note": NOTE}]


def test_a_hand_note_reaches_the_hook_reply(todo: Todo, home: Path) -> None:
    todos = [{"content": t, "status": "pending", "activeForm": t} for t in TASKS[:3]]
    hook = {"hook_event_name": "PostToolUse", "tool_name": "TodoWrite", "session_id": "default"}
    todo("apply", stdin=json.dumps({**hook, "tool_input": {"todos": todos}}))
    add_note_by_hand(home, TASKS[2], NOTE)
    path = session_file(home)
    path.write_text(path.read_text() + "- [ ] Added by hand\n")
    todos[0]["status"] = "in_progress"
    run = todo("apply", stdin=json.dumps({**hook, "tool_input": {"todos": todos}}))
    told = json.loads(run.out)["hookSpecificOutput"]["additionalContext"]
    assert f'  note on "{TASKS[2]}": "{NOTE}"' in told


def test_a_long_hand_note_is_cut_and_many_are_counted(todo: Todo, home: Path) -> None:
    make_list(todo, 5)
    for i in range(1, 5):
        add_note_by_hand(home, TASKS[i], f"n{i} " + "y" * 500)
    lines = todo("done").out.splitlines()
    quoted = [line for line in lines if line.startswith("  note on ")]
    assert len(quoted) == 3
    assert all(len(q) < 260 for q in quoted)
    assert "  (+1 more notes: todo show --notes)" in lines


# -- notes and block reasons in show ------------------------------------------------------


def test_show_notes_prints_every_task_s_notes(todo: Todo) -> None:
    make_list(todo, 3)
    todo("note", TASKS[2], "first\nsecond line")
    out = todo("show", "--notes").out
    assert f"  #3 [ ] {TASKS[2]}\n    > first\n    > second line\n" in out
    assert "(+1 note)" not in out
    assert "(+1 note)" in todo("show").out


def test_a_block_reason_is_beside_the_blocked_task_in_show_and_the_recap(todo: Todo) -> None:
    make_list(todo, 3)
    todo("block", TASKS[2], "-r", "waiting for the release number")
    out = todo("show").out
    assert f"  #3 [!] {TASKS[2]} (blocked: waiting for the release number)" in out
    assert out.splitlines()[-1].endswith(f"Blocked: {TASKS[2]} (waiting for the release number).")
    assert f"Blocked: {TASKS[2]} (waiting for the release number)." in todo("done").out


# -- the --json envelope ------------------------------------------------------------------


def test_a_write_s_json_carries_the_list_once(todo: Todo) -> None:
    make_list(todo, 20)
    run = todo("done", "--json")
    data = json.loads(run.out)
    assert "phases" not in data["data"]
    assert "reply" not in data["data"]  # a flag write names no agent tool
    assert data["data"]["todos"][1] == {
        "n": 2,
        "content": TASKS[1],
        "status": "in_progress",
        "phase": "Todos",
    }
    assert data["changes"]["old_todos"][0] == {"content": TASKS[0], "status": "in_progress"}
    assert data["changes"]["new_todos"][0] == {"content": TASKS[0], "status": "completed"}
    assert data["text"].startswith(f"Completed: {TASKS[0]}\n")
    assert len(run.out) <= 14_440 * 0.4


def test_a_read_s_json_keeps_the_phases(todo: Todo) -> None:
    make_list(todo, 2)
    data = json.loads(todo("show", "--json").out)
    assert data["data"]["phases"][0]["tasks"][0] == {"content": TASKS[0], "status": "in_progress"}


def test_a_payload_in_a_tool_s_shape_gets_the_reply_in_it(todo: Todo) -> None:
    payload = {"todos": [{"content": "A", "status": "in_progress", "activeForm": "Doing A"}]}
    data = json.loads(todo("apply", "--json", stdin=json.dumps(payload)).out)
    assert data["data"]["reply_tool"] == "claude"
    assert data["data"]["reply"] == {
        "todos": [{"content": "A", "status": "in_progress", "activeForm": "Doing A"}]
    }
    ops = json.loads(todo("apply", "--json", stdin='{"ops": [{"op": "done"}]}').out)
    assert "reply" not in ops["data"]  # todocli's own ops name no tool


def test_show_as_a_tool_with_json_carries_its_reply(todo: Todo) -> None:
    make_list(todo, 1)
    data = json.loads(todo("show", "--as", "codex", "--json").out)
    assert data["data"]["reply"] == {"plan": [{"step": TASKS[0], "status": "in_progress"}]}


def test_todo_schema_envelope_describes_what_json_prints(todo: Todo) -> None:
    found = json.loads(todo("schema", "envelope").out)
    make_list(todo, 3)
    todo("block", TASKS[2], "-r", "why")
    for args in (["done"], ["show"], ["note", TASKS[1], "n"], ["add", "X"]):
        jsonschema.validate(json.loads(todo(*args, "--json").out), found)
    task = found["properties"]["data"]["properties"]["todos"]["items"]
    assert task["required"] == ["n", "content", "status", "phase"]


# -- what the agent reads must be right ------------------------------------------------------


def test_a_snapshot_carrying_a_task_removed_by_hand_is_told_on_every_write(
    todo: Todo, home: Path
) -> None:
    def send(*statuses: str) -> str:
        names = ("Alpha", "Beta", "Gamma")
        todos = [{"content": n, "status": s} for n, s in zip(names, statuses, strict=True)]
        return todo("apply", stdin=json.dumps({"todos": todos})).out

    send("in_progress", "pending", "pending")
    path = session_file(home)
    path.write_text("".join(x for x in path.read_text().splitlines(True) if "Beta" not in x))
    told = 'left out "Beta" (removed by hand)'
    assert told in send("completed", "pending", "in_progress")
    assert told in send("completed", "pending", "in_progress")  # a write that changes nothing
    assert told in send("completed", "pending", "completed")  # and one that finishes the list


def test_done_note_without_a_task_notes_the_task_in_progress(todo: Todo, home: Path) -> None:
    make_list(todo, 2)
    run = todo("done", "--note", "fixed in abc123")
    assert run.code == 0, run.err
    assert run.out.startswith(f"Completed: {TASKS[0]}\nStarted: {TASKS[1]}\n")
    assert f"- [x] {TASKS[0]}\n  > fixed in abc123\n" in session_file(home).read_text()


def test_done_note_with_phase_is_refused(todo: Todo, home: Path) -> None:
    make_list(todo, 2)
    before = session_file(home).read_bytes()
    run = todo("done", "--all", "--note", "x")
    assert run.code == 2
    assert run.err == (
        "todo: done: --note is about one TASK (or, with none, the task in progress)\n"
    )
    assert session_file(home).read_bytes() == before


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("complete", "done"),
        ("finish", "done"),
        ("status", "show"),
        ("delete", "rm"),
        ("strat", "start"),
    ],
)
def test_a_synonym_or_typo_of_a_command_suggests_the_command_meant(
    todo: Todo, typed: str, meant: str
) -> None:
    run = todo(typed)
    assert run.code == 2
    assert run.err.startswith(f"todo: No such command '{typed}'. Did you mean '{meant}'?")
    assert run.err.count("\n") == 1  # one line
    assert "__complete" not in run.err


def test_codex_s_explanation_is_told_not_made_the_heading(todo: Todo, home: Path) -> None:
    plan = [{"step": "Read", "status": "in_progress"}, {"step": "Fix", "status": "pending"}]
    first = todo("apply", stdin=json.dumps({"plan": plan, "explanation": "First plan"}))
    assert "Why: First plan\n" in first.out
    plan[0]["status"], plan[1]["status"] = "completed", "in_progress"
    data = json.loads(
        todo("apply", "--json", stdin=json.dumps({"plan": plan, "explanation": "Read it"})).out
    )
    assert "Why: Read it\n" in data["text"]
    assert data["data"]["summary"] == ""
    assert "First plan" not in session_file(home).read_text()
    assert "Read it" not in session_file(home).read_text()


def test_a_person_at_a_terminal_sees_the_block_reason_and_every_note(todo: Todo) -> None:
    import io

    from todocli.app import commands
    from todocli.app.commands import Context, Options
    from todocli.cli import render_rich

    make_list(todo, 3)
    todo("block", TASKS[2], "-r", "needs review")
    todo("note", TASKS[1], "a finding")
    shown = commands.show(Context(Options()))
    for notes in (False, True):
        out = io.StringIO()
        render_rich.render(shown, out, show_all=False, color=False, notes=notes)
        assert f"#3 [!] {TASKS[2]} (blocked: needs review)" in out.getvalue()
        assert ("a finding" in out.getvalue()) is notes
