"""Task ids that agents' tools give: Claude Code's high-water mark, Augment's UUIDs,
Roo's markers (issue 12; sources in docs/agent-tools.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support_cli import Todo, todo_process
from todocli.errors import StorageError

FIXTURES = Path(__file__).parent / "fixtures" / "agents"


def apply(todo: Todo, payload: object, *args: str) -> dict[str, Any]:
    run = todo("--json", *args, "apply", stdin=json.dumps(payload))
    data: dict[str, Any] = json.loads(run.out)
    data["exit"] = run.code
    return data


def ids(data: dict[str, Any]) -> list[str | None]:
    return [t.get("id") for t in data["data"]["todos"]]


def create(subject: str) -> dict[str, str]:
    """Claude Code TaskCreateInput (sdk-tools.d.ts of @anthropic-ai/claude-agent-sdk@0.3.328)."""
    return {"subject": subject, "description": f"About {subject}"}


def delete(task_id: str) -> dict[str, str]:
    return {"taskId": task_id, "status": "deleted"}


def hook(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "hooks" / f"{name}.json").read_text())
    return data


# -- Claude Code: "1", "2", ... and never an id again once its task is deleted ---------------


def test_a_deleted_claude_task_id_is_never_given_again(todo: Todo) -> None:
    """cli.js of @anthropic-ai/claude-code@2.1.30: ``String(highest + 1)``, the highest
    read from the task files and the ``.highwatermark`` a deletion writes."""
    for subject in ("a", "b", "c"):
        apply(todo, create(subject))
    assert ids(apply(todo, delete("3"))) == ["1", "2"]
    assert ids(apply(todo, create("d"))) == ["1", "2", "4"]
    apply(todo, delete("4"))
    apply(todo, delete("2"))
    assert ids(apply(todo, create("e"))) == ["1", "5"]


def test_the_high_water_mark_outlives_a_hand_edit(todo: Todo) -> None:
    for subject in ("a", "b", "c"):
        apply(todo, create(subject))
    path = Path(todo("path").out.strip())
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(
        "".join(line for line in lines if "c <!--" not in line and "About c" not in line)
    )
    assert ids(apply(todo, {})) == ["1", "2"]  # the person removed task 3
    assert ids(apply(todo, create("d"))) == ["1", "2", "4"]


def test_the_high_water_mark_is_kept_across_processes(tmp_path: Path) -> None:
    """Real ``todo apply`` processes, one call each, as a hook runs them."""

    def call(payload: object) -> dict[str, Any]:
        run = todo_process("--json", "-s", "claude", "apply", stdin=json.dumps(payload))
        assert run.code == 0, run.err
        data: dict[str, Any] = json.loads(run.out)
        return data

    for subject in ("a", "b", "c"):
        call(create(subject))
    call(delete("3"))
    assert ids(call(create("d"))) == ["1", "2", "4"]


def test_a_failed_batch_moves_no_mark(todo: Todo) -> None:
    apply(todo, create("a"))
    apply(todo, create("b"))
    assert apply(todo, create("x" * 300))["exit"] == 1  # over max_field_bytes: nothing written
    assert ids(apply(todo, create("c"))) == ["1", "2", "3"]


def test_the_mark_is_taken_back_with_a_write_that_fails(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 6 means nothing changed: state.json (and the mark in it) included."""
    apply(todo, create("a"))
    apply(todo, create("b"))
    apply(todo, delete("2"))
    path = todo("path").out.strip()
    from todocli.storage import commit, files

    real = files.atomic_write

    def failing(target: str, *args: Any, **kwargs: Any) -> None:
        if target == path:
            raise StorageError("disk full")
        real(target, *args, **kwargs)

    monkeypatch.setattr(commit, "atomic_write", failing)
    assert apply(todo, create("c"))["exit"] == 6
    monkeypatch.setattr(commit, "atomic_write", real)
    assert ids(apply(todo, create("c"))) == ["1", "3"]


def test_a_taskcreate_hook_keeps_the_id_claude_code_gave(todo: Todo) -> None:
    """PostToolUse for TaskCreate: tool_response is TaskCreateOutput ``{task: {id, ...}}``."""
    envelope = hook("claude-code-posttooluse-taskcreate")["stdin"]
    session = envelope["session_id"]
    assert todo("apply", stdin=json.dumps(envelope)).code == 0
    assert ids(apply(todo, {}, "-s", session)) == ["2"]  # the tool's own id, not todo's "1"
    assert ids(apply(todo, create("next"), "-s", session)) == ["2", "3"]


# -- Augment: the tool makes its ids; todo learns them from add_tasks's result ---------------

AUGMENT = "augment-posttooluse-add-tasks"
READ, ADD, TESTS = (
    "Read the export command",
    "Add the --json flag to export",
    "Write tests for export --json",
)
READ_ID, ADD_ID, TESTS_ID = (
    "8n1WPVYv5XwFXr7BX7cZGX",
    "kYCHAkovGRZgr6DF55yrzF",
    "vKiAwtc9AwjLxMXmfNP7En",
)


def augment_session(todo: Todo) -> str:
    envelope = hook(AUGMENT)["stdin"]
    run = todo("apply", stdin=json.dumps(envelope))
    assert run.code == 0, run.err
    return str(envelope["conversation_id"])  # Augment's hook input has no session_id


def test_an_augment_add_tasks_hook_records_augments_ids(todo: Todo) -> None:
    """augment.mjs: PostToolUse stdin carries tool_output, the text add_tasks returned
    (``## Created Tasks`` then ``[ ] UUID:<short uuid> NAME:<name> DESCRIPTION:<text>``)."""
    session = augment_session(todo)
    data = apply(todo, {}, "-s", session)
    assert ids(data) == [READ_ID, ADD_ID, TESTS_ID]
    assert [t["content"] for t in data["data"]["todos"]] == [READ, ADD, TESTS]
    assert data["data"]["todos"][1]["notes"] == ["Print the list as a JSON array"]
    assert apply(todo, {})["data"]["todos"] == []  # the default session is untouched


def test_an_augment_call_that_failed_writes_nothing(todo: Todo) -> None:
    """augment.mjs: PostToolUse's tool_error is the result's text when the call failed
    (update_tasks' ``sn("No task list found. [TL002]")``)."""
    session = augment_session(todo)
    before = apply(todo, {}, "-s", session)
    envelope = hook(AUGMENT)["stdin"] | {
        "tool_name": "update_tasks",
        "tool_input": {"tasks": [{"task_id": READ_ID, "state": "COMPLETE"}]},
        "tool_output": "No task list found. [TL002]",
        "tool_error": "No task list found. [TL002]",
    }
    run = todo("apply", stdin=json.dumps(envelope))
    assert (run.code, run.out) == (0, "")
    assert apply(todo, {}, "-s", session)["context"]["rev"] == before["context"]["rev"]


def test_augment_update_tasks_by_its_ids_changes_tasks_in_place(todo: Todo) -> None:
    """update_tasks ``{tasks: [{task_id, state?, name?, description?}]}`` (augment.mjs)."""
    session = augment_session(todo)
    update = {
        "tasks": [
            {"task_id": READ_ID, "state": "COMPLETE"},
            {"task_id": ADD_ID, "state": "IN_PROGRESS", "name": "Add --json to export"},
        ]
    }
    data = apply(todo, update, "-s", session)
    assert data["exit"] == 0
    todos = data["data"]["todos"]
    assert [(t["content"], t["status"], t["id"]) for t in todos] == [
        (READ, "completed", READ_ID),
        ("Add --json to export", "in_progress", ADD_ID),
        (TESTS, "pending", TESTS_ID),
    ]
    assert todos[1]["notes"] == ["Print the list as a JSON array"]  # kept: not re-added
    assert data["changes"]["dropped_open"] == []


def test_augment_takes_a_task_id_in_its_long_form_too(todo: Todo) -> None:
    """augment.mjs converts a task_id with short-uuid's toUUID and shows the short form:
    both name the same task."""
    session = augment_session(todo)
    long_form = {
        "tasks": [{"task_id": "f0e4d8c2-6a1b-4c9d-8e7f-3a2b5c6d9e01", "state": "CANCELLED"}]
    }
    data = apply(todo, long_form, "-s", session)
    assert data["exit"] == 0
    assert data["data"]["todos"][2]["status"] == "abandoned"


def test_augment_reorganize_markdown_matches_tasks_by_uuid(todo: Todo) -> None:
    """reorganize_tasklist ``{markdown}``: the view's format, NEW_UUID for new tasks;
    its result's ``## Created Tasks`` gives the new task's id."""
    session = augment_session(todo)
    markdown = "\n".join(
        [
            "[ ] UUID:ksnVrwPhkmnYXMbDCWGWD1 NAME:Current Task List "
            "DESCRIPTION:Root task for conversation 7c9e6679-7425-40de-944b-e07fc1f90ae7",
            f"-[/] UUID:{ADD_ID} NAME:Add the --json option DESCRIPTION:Print the list as JSON",
            f"-[x] UUID:{READ_ID} NAME:{READ} DESCRIPTION:Find the format switch in export.py",
            f"-[ ] UUID:{TESTS_ID} NAME:{TESTS} DESCRIPTION:Empty list, one task, unicode",
            "-[ ] UUID:NEW_UUID NAME:Add a CHANGELOG entry DESCRIPTION:Mention --json",
        ]
    )
    result = (
        "Task list updated successfully. Created: 1, Updated: 3, Deleted: 0.\n\n# Task Changes\n\n"
        "## Created Tasks\n\n[ ] UUID:2uLasqMUSA7QmE83wSqfEt NAME:Add a CHANGELOG entry "
        "DESCRIPTION:Mention --json\n"
    )
    envelope = hook(AUGMENT)["stdin"] | {
        "tool_name": "reorganize_tasklist",
        "tool_input": {"markdown": markdown},
        "tool_output": result,
    }
    assert todo("apply", stdin=json.dumps(envelope)).code == 0
    data = apply(todo, {}, "-s", session)
    assert [(t["content"], t["status"], t["id"]) for t in data["data"]["todos"]] == [
        ("Add the --json option", "in_progress", ADD_ID),  # renamed by id, not dropped + added
        (READ, "completed", READ_ID),
        (TESTS, "pending", TESTS_ID),
        ("Add a CHANGELOG entry", "pending", "2uLasqMUSA7QmE83wSqfEt"),
    ]
    assert data["changes"]["dropped_open"] == []


def test_an_augment_id_todo_cannot_know_is_a_one_line_error(todo: Todo) -> None:
    """Without the hook's result (a pipe, or PreToolUse), todo numbers the new tasks;
    Augment's UUIDs then name no task: exit 1, nothing written, the list's ids named."""
    add = hook(AUGMENT)["stdin"]["tool_input"]
    before = apply(todo, add)
    assert ids(before) == ["1", "2", "3"]
    data = apply(todo, {"tasks": [{"task_id": READ_ID, "state": "COMPLETE"}]})
    assert data["exit"] == 1
    message = data["error"]["message"]
    assert "\n" not in message
    assert f'No task has id "{READ_ID}" (this list\'s ids: 1, 2, 3)' in message
    assert "add_tasks's result" in message
    assert "PostToolUse" in message
    assert data["context"]["rev"] == before["context"]["rev"]


# -- Roo Code: [-] and [~] both mean in progress ----------------------------------------------


def test_roo_tilde_is_in_progress(todo: Todo) -> None:
    """RooCodeInc/Roo-Code src/core/tools/UpdateTodoListTool.ts@cb836567 parseMarkdownChecklist:
    ``match[1] === "-" || match[1] === "~"`` is in_progress (the prompt shows only [-])."""
    data = apply(todo, {"todos": "[x] a\n[~] b\n[ ] c"})
    assert [(t["content"], t["status"]) for t in data["data"]["todos"]] == [
        ("a", "completed"),
        ("b", "in_progress"),
        ("c", "pending"),
    ]
    assert data["data"]["reply"]["todos"].splitlines()[1] == "[-] b"  # Roo's own marker back


def test_roo_with_two_in_progress_follows_max_in_progress(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Roo sets no limit; todo's snapshot rule (more than max_in_progress is
    refused, nothing written) holds, and a raised limit takes both."""
    two = {"todos": "[-] a\n[~] b\n[ ] c"}
    refused = apply(todo, two)
    assert refused["exit"] == 1
    assert 'got 2: "a", "b"' in refused["error"]["message"]
    monkeypatch.setenv("TODOCLI_MAX_IN_PROGRESS", "2")
    data = apply(todo, two)
    assert data["exit"] == 0
    assert [t["status"] for t in data["data"]["todos"]] == ["in_progress", "in_progress", "pending"]


def test_an_augment_stop_hook_checks_the_conversations_list(todo: Todo) -> None:
    """augment.mjs Stop input: ``{hook_event_name, conversation_id, workspace_roots,
    agent_stop_cause}``; ``todo check --hook`` reads the session from conversation_id."""
    session = augment_session(todo)
    stop = {
        "hook_event_name": "Stop",
        "conversation_id": session,
        "workspace_roots": ["/home/dev/todocli"],
        "agent_stop_cause": "end_turn",
    }
    assert todo("check", "--hook", stdin=json.dumps(stop)).code == 1  # three tasks open
    other = stop | {"conversation_id": "another-conversation"}
    assert todo("check", "--hook", stdin=json.dumps(other)).code == 0


# -- Gemini CLI's tracker tools: the tracker makes 6-hex ids, its AfterTool result says them ------


def tracker_calls() -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads((FIXTURES / "gemini-tracker.json").read_text())
    return list(data["calls"])


def test_gemini_tracker_tools(todo: Todo) -> None:
    """google-gemini/gemini-cli@5411f113 packages/core/src/tools/definitions/trackerTools.ts:
    create through AfterTool hooks (tool_response.llmContent "Created task <id>: <title>"),
    then updates, a dependency and the reads, as the fixture has them."""
    calls = tracker_calls()
    envelope = hook("gemini-aftertool-tracker-create-task")["stdin"]
    session = envelope["session_id"]
    for call in calls[:3]:
        step = envelope | {
            "tool_input": call["input"],
            "tool_response": {"llmContent": call["result"], "returnDisplay": {"todos": []}},
        }
        run = todo("apply", stdin=json.dumps(step))
        assert run.code == 0, run.err
    data = apply(todo, {}, "-s", session)
    assert ids(data) == ["3f9a2c", "a07e51", "9c4d10"]
    assert data["data"]["todos"][1]["blocked_by"] == ["3f9a2c"]
    assert data["data"]["todos"][0]["notes"] == ["Find the format switch in export.py"]
    data = apply(todo, calls[3]["input"], "-s", session)  # closed
    assert data["data"]["todos"][0]["status"] == "completed"
    data = apply(todo, calls[4]["input"], "-s", session)  # in_progress, a new description
    second = data["data"]["todos"][1]
    assert (second["status"], second["notes"]) == (
        "in_progress",
        ["Print the list as JSON; keep the order"],
    )
    assert data["data"]["reply"]["todos"][1] == {
        "description": "Add the --json flag to export",
        "status": "in_progress",
    }  # the tracker shows its tasks as write_todos' todos
    data = apply(todo, calls[5]["input"], "-s", session)  # 9c4d10 waits on a07e51
    assert data["data"]["todos"][2]["blocked_by"] == ["a07e51"]
    rev = data["context"]["rev"]
    for read in calls[6:]:  # list, get, visualize: reads
        assert apply(todo, read["input"], "-s", session)["context"]["rev"] == rev


def test_a_tracker_task_type_other_than_task_is_warned_about(todo: Todo) -> None:
    bug = tracker_calls()[2]["input"]
    data = apply(todo, bug)
    assert data["exit"] == 0
    assert data["warnings"] == [
        'tracker_create_task: type "bug" is not kept (todocli has no types)'
    ]


def test_a_tracker_id_todo_cannot_know_is_a_one_line_error(todo: Todo) -> None:
    """Piped (no result), a created task is numbered: the tracker's id then names none."""
    assert ids(apply(todo, tracker_calls()[0]["input"])) == ["1"]
    data = apply(todo, {"id": "3f9a2c", "status": "closed"})
    assert data["exit"] == 1
    assert data["error"]["message"] == (
        'No task has id "3f9a2c" (this list\'s ids: 1); '
        "Gemini CLI's tracker gives its tasks their ids, which todo learns only from "
        "tracker_create_task's result: run todo apply from an AfterTool hook"
    )


def test_a_gemini_call_that_failed_writes_nothing(todo: Todo) -> None:
    """AfterTool's tool_response carries ``error`` when the tool failed."""
    envelope = hook("gemini-aftertool-tracker-create-task")["stdin"]
    envelope["tool_response"] = {
        "llmContent": "Error creating task: Parent task with ID 000000 not found.",
        "returnDisplay": "Failed to create task.",
        "error": {"message": "Parent task with ID 000000 not found."},
    }
    run = todo("apply", stdin=json.dumps(envelope))
    assert (run.code, run.out) == (0, "")
    assert not Path(todo("-s", envelope["session_id"], "path").out.strip()).exists()


# -- renames by id, told as they happened -------------------------------------------------


def test_two_tasks_that_swap_texts_by_id_are_told_as_two_renames(todo: Todo) -> None:
    """One snapshot gives task 1 the text of task 2 and task 2 the text of task 1:
    two renames, each told from its old text to its new one (not one task renamed
    twice and back to its own text)."""
    start = [
        {"id": "1", "content": "Write the parser", "status": "pending"},
        {"id": "2", "content": "Test the parser", "status": "pending"},
    ]
    apply(todo, {"todos": start})
    swapped = [
        {"id": "1", "content": "Test the parser", "status": "pending"},
        {"id": "2", "content": "Write the parser", "status": "pending"},
    ]
    data = apply(todo, {"todos": swapped})
    assert data["changes"]["renamed"] == [
        {"from": "Write the parser", "to": "Test the parser"},
        {"from": "Test the parser", "to": "Write the parser"},
    ]
    told = "Renamed: Write the parser -> Test the parser; Test the parser -> Write the parser\n"
    assert told in data["text"]
    assert "Added:" not in data["text"]
    assert "Removed:" not in data["text"]
    assert [(t["id"], t["content"]) for t in data["data"]["todos"]] == [
        ("1", "Test the parser"),
        ("2", "Write the parser"),
    ]


def test_a_task_renamed_by_two_writes_of_one_batch_is_told_once(todo: Todo) -> None:
    """The same task renamed by a write and again by the next write of the batch:
    one rename, from its first text to its last."""
    apply(todo, {"ops": [{"op": "write", "todos": [{"id": "1", "content": "Draft"}]}]})
    writes = [
        {"op": "write", "todos": [{"id": "1", "content": "Outline"}]},
        {"op": "write", "todos": [{"id": "1", "content": "Final text"}]},
    ]
    data = apply(todo, {"ops": writes})
    assert data["changes"]["renamed"] == [{"from": "Draft", "to": "Final text"}]


def test_one_of_two_tasks_of_a_text_renamed_by_id_is_told_as_a_rename_alone(
    todo: Todo, tmp_path: Path
) -> None:
    """A plan holds "Commit" twice, the first with id 1 and the second with a note. A
    snapshot renames task 1 and keeps the other: one rename, nothing added, removed
    or noted (the other "Commit" keeps its text, its note and its line)."""
    plan = tmp_path / "plan.md"
    plan.write_text(
        "# Plan\n\n## Todos\n\n- [ ] Commit <!-- id: 1 -->\n- [x] Build\n"
        "- [ ] Commit\n  > a note on the second\n"
    )
    snapshot = [
        {"id": "1", "content": "Commit X"},
        {"content": "Build", "status": "completed"},
        {"content": "Commit", "notes": ["a note on the second"]},
    ]
    data = apply(todo, {"ops": [{"op": "write", "todos": snapshot}]}, "--file", str(plan))
    assert data["changes"]["renamed"] == [{"from": "Commit", "to": "Commit X"}]
    assert "Renamed: Commit -> Commit X\n" in data["text"]
    for told in ("Added:", "Removed:", "Noted:"):
        assert told not in data["text"]
    assert plan.read_text() == (
        "# Plan\n\n## Todos\n\n- [ ] Commit X <!-- id: 1 -->\n- [x] Build\n"
        "- [ ] Commit\n  > a note on the second\n"
    )
