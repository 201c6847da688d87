"""Every agent's own todo tool, both ways (issue 12).

Payloads come from ``tests/fixtures/agents/<tool>.json``, shaped exactly as each
tool's input schema at the source the fixture names (docs/agent-tools.md); hook
envelopes from ``tests/fixtures/agents/hooks/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import todocli
from tests.support_cli import Todo
from todocli.agents import TOOL_NAMES, TOOLS

FIXTURES = Path(__file__).parent / "fixtures" / "agents"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def calls(name: str) -> list[dict[str, Any]]:
    return [c["input"] for c in fixture(name)["calls"]]


def apply(todo: Todo, payload: object, *args: str) -> dict[str, Any]:
    run = todo("--json", *args, "apply", stdin=json.dumps(payload))
    data: dict[str, Any] = json.loads(run.out)
    data["exit"] = run.code
    return data


def tasks(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(t["content"], t["status"]) for t in data["data"]["todos"]]


READ = "Read the export command"
ADD = "Add the --json flag to export"
TESTS = "Write tests for export --json"
README_ = "Update the README"


# -- one test per tool: its payloads as its schema has them, in sequence ---------------------


def test_claude_code_todowrite(todo: Todo) -> None:
    """npm @anthropic-ai/claude-code@2.1.30 cli.js; sdk-tools.d.ts TodoWriteInput."""
    first, second, _, legacy, read = calls("claude-code-todowrite")
    data = apply(todo, first)
    assert data["exit"] == 0
    assert data["data"]["todos"][0]["active_form"] == "Reading the export command"
    data = apply(todo, second)
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]
    assert data["data"]["reply"]["todos"][1] == {
        "content": ADD,
        "status": "in_progress",
        "activeForm": "Adding the --json flag to export",
    }
    data = apply(todo, legacy)  # 1.0.x: id and priority kept
    assert data["data"]["todos"][2]["id"] == "3"
    assert data["data"]["todos"][2]["priority"] == "medium"
    assert apply(todo, read)["context"]["rev"] == data["context"]["rev"]  # TodoRead {}: no write


def test_claude_code_task_tools(todo: Todo) -> None:
    """npm @anthropic-ai/claude-agent-sdk@0.3.328 sdk-tools.d.ts TaskCreate/TaskUpdate."""
    steps = calls("claude-code-tasks")
    for payload in steps[:3]:
        assert apply(todo, payload)["exit"] == 0
    data = apply(todo, steps[3])  # TaskUpdate {"taskId": "1", "status": "in_progress"}
    assert [t["id"] for t in data["data"]["todos"]] == ["1", "2", "3"]
    assert tasks(data)[0] == (READ, "in_progress")
    assert data["data"]["todos"][0]["notes"] == [steps[0]["description"]]
    data = apply(todo, steps[4])  # addBlockedBy ["2"]
    assert data["data"]["todos"][2]["blocked_by"] == ["2"]
    data = apply(todo, steps[5])  # task 1 completed: 3 waits on 2, 2 is not auto-started
    assert tasks(data)[0] == (READ, "completed")
    rev = data["context"]["rev"]
    listed = apply(todo, steps[6])  # TaskList {}: a read ({} alone names no tool)
    assert listed["context"]["rev"] == rev
    assert json.loads(todo("show", "--as", "claude-tasks").out)["tasks"][2] == {
        "id": "3",
        "subject": TESTS,
        "status": "pending",
        "blockedBy": ["2"],
    }
    assert apply(todo, steps[7])["context"]["rev"] == rev  # TaskGet: a read
    data = apply(todo, steps[8])  # status "deleted" removes task 3, no drop warning
    assert [t["id"] for t in data["data"]["todos"]] == ["1", "2"]
    assert data["changes"]["dropped_open"] == []
    data = apply(todo, {"subject": "Another", "description": "d"})
    assert data["data"]["todos"][-1]["id"] == "4"  # 3 was deleted: never given again


def test_codex_update_plan(todo: Todo) -> None:
    """openai/codex codex-rs/protocol/src/plan_tool.rs@71163530."""
    first, second = calls("codex-update-plan")
    # The explanation says why the plan changed: told in the reply, not the heading.
    told = apply(todo, first)
    assert told["data"]["summary"] == ""
    assert f"Why: {first['explanation']}\n" in told["text"]
    data = apply(todo, second)
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]
    assert data["data"]["reply"]["plan"][1] == {"step": ADD, "status": "in_progress"}


def test_gemini_write_todos(todo: Todo) -> None:
    """google-gemini/gemini-cli packages/core/src/tools/write-todos.ts@5411f113."""
    first, second, clear = calls("gemini-write-todos")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[2:] == [(TESTS, "blocked"), (README_, "abandoned")]
    assert data["data"]["reply"]["todos"][3] == {"description": README_, "status": "cancelled"}
    assert apply(todo, clear)["data"]["todos"] == []


def test_qwen_todo_write_keeps_ids_and_omitted_dependencies(todo: Todo) -> None:
    """QwenLM/qwen-code packages/core/src/tools/todoWrite.ts@00f36e4e."""
    first, second, clear = calls("qwen-todo-write")
    data = apply(todo, first)
    assert data["data"]["todos"][2]["blocked_by"] == ["2"]
    data = apply(todo, second)  # blockedBy left out: kept for the same id
    assert data["data"]["todos"][2]["blocked_by"] == ["2"]
    assert data["data"]["reply"]["todos"][2]["blockedBy"] == ["2"]
    renamed = [*second["todos"][:3], {"id": "4", "content": "Update the docs", "status": "pending"}]
    before = (Path(todo("path").out.strip())).read_text()
    data = apply(todo, {"todos": renamed})  # the same id: renamed in place, not dropped
    assert data["changes"]["dropped_open"] == []
    assert data["changes"]["renamed"] == [{"from": README_, "to": "Update the docs"}]
    assert "Renamed: Update the README -> Update the docs\n" in data["text"]
    assert "Added:" not in data["text"]
    after = Path(todo("path").out.strip()).read_text()
    assert after == before.replace("Update the README", "Update the docs")
    assert apply(todo, clear)["data"]["todos"] == []


def test_kimi_set_todo_list(todo: Todo) -> None:
    """MoonshotAI/kimi-cli src/kimi_cli/tools/todo/__init__.py@4a550eff."""
    first, second, query, clear = calls("kimi-set-todo-list")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[0] == (READ, "completed")  # "done"
    assert data["data"]["reply"]["todos"][0] == {"title": READ, "status": "done"}
    assert apply(todo, query)["context"]["rev"] == data["context"]["rev"]
    assert apply(todo, clear)["data"]["todos"] == []


def test_cursor_todo_write_merge_updates_by_id(todo: Todo) -> None:
    """x1xhlol/system-prompts-and-models-of-ai-tools
    Cursor Prompts/Agent Prompt 2.0.txt@97081cd5."""
    first, second, third = calls("cursor-todo-write")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data) == [
        (READ, "completed"),
        (ADD, "in_progress"),
        (TESTS, "pending"),
        (README_, "pending"),
    ]
    data = apply(todo, third)  # cancelled, and an unknown id with content is added
    assert tasks(data)[3:] == [(README_, "abandoned"), ("Add a CHANGELOG entry", "pending")]
    assert data["data"]["todos"][4]["id"] == "add-changelog"
    assert data["data"]["reply"]["todos"][3]["status"] == "cancelled"
    missing = apply(todo, {"merge": True, "todos": [{"id": "nope", "status": "completed"}]})
    assert missing["exit"] == 1
    assert 'No task has id "nope"' in missing["error"]["message"]


def test_equal_texts_with_distinct_ids_are_two_tasks(todo: Todo) -> None:
    payload = {
        "todos": [
            {"id": "1", "content": "Run tests", "status": "completed"},
            {"id": "2", "content": "Run tests", "status": "in_progress"},
        ]
    }
    assert tasks(apply(todo, payload)) == [("Run tests", "completed"), ("Run tests", "in_progress")]
    payload["todos"][1]["status"] = "completed"
    payload["todos"].append({"id": "3", "content": "Ship", "status": "in_progress"})
    data = apply(todo, payload)
    assert [t["id"] for t in data["data"]["todos"]] == ["1", "2", "3"]
    assert [s for _, s in tasks(data)] == ["completed", "completed", "in_progress"]
    same = apply(todo, {"todos": [{"content": "a"}, {"content": "a"}]})
    assert same["exit"] == 1  # without ids, one text is one task
    assert 'Duplicate task "a"' in same["error"]["message"]


def test_id_only_items_update_only_the_tasks_they_name(todo: Todo) -> None:
    first, *_ = calls("qwen-todo-write")
    apply(todo, first)
    data = apply(todo, {"todos": [{"id": "1", "status": "completed"}]})
    assert [s for _, s in tasks(data)] == ["completed", "pending", "pending", "pending"]
    assert len(data["data"]["todos"]) == 4


def test_vscode_manage_todo_list(todo: Todo) -> None:
    """microsoft/vscode .../manageTodoListTool.ts@01272b92 and @91f89d9c."""
    first, second, read, older, _ = calls("vscode-manage-todo-list")
    data = apply(todo, first)
    assert [t["id"] for t in data["data"]["todos"]] == ["1", "2", "3", "4"]
    data = apply(todo, second)
    assert tasks(data)[1] == (ADD, "in_progress")
    assert data["data"]["reply"]["todoList"][1] == {"id": 2, "title": ADD, "status": "in-progress"}
    assert apply(todo, read)["context"]["rev"] == data["context"]["rev"]
    data = apply(todo, older)  # the older schema's description becomes a note
    assert data["data"]["todos"][0]["notes"] == [older["todoList"][0]["description"]]


def test_amp_todo_write_and_read(todo: Todo) -> None:
    """npm @sourcegraph/amp@0.0.1767830505-ga62310 dist/main.js."""
    first, second, read, with_priority = calls("amp-todo")
    assert tasks(apply(todo, first))[1] == (ADD, "pending")  # "todo"
    data = apply(todo, second)
    assert data["data"]["reply"]["todos"][1] == {"id": "2", "content": ADD, "status": "in-progress"}
    assert apply(todo, read)["context"]["rev"] == data["context"]["rev"]
    assert apply(todo, with_priority)["data"]["todos"][3]["priority"] == "low"


def test_opencode_and_kilo_todowrite(todo: Todo) -> None:
    """anomalyco/opencode packages/opencode/src/tool/todo.ts@0fbbcdb5; Kilo-Org/kilocode
    packages/opencode/src/tool/todo.ts@b5220452 (todos as a JSON string)."""
    first, second, legacy, read = calls("opencode-todowrite")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[3] == (README_, "abandoned")
    assert data["data"]["reply"]["todos"][3]["priority"] == "low"
    assert apply(todo, legacy)["data"]["todos"][0]["id"] == "1"
    assert apply(todo, read)["exit"] == 0
    kilo_first, kilo_string = calls("kilo-todowrite")
    apply(todo, kilo_first, "-s", "kilo")
    data = apply(todo, kilo_string, "-s", "kilo")
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]


def test_roo_update_todo_list_reads_its_own_markers(todo: Todo) -> None:
    """RooCodeInc/Roo-Code src/core/tools/UpdateTodoListTool.ts@cb836567: [-] is in progress."""
    first, second = calls("roo-update-todo-list")
    data = apply(todo, first)
    assert tasks(data)[0] == (READ, "in_progress")
    assert data["data"]["reply"]["todos"].splitlines()[0] == f"[-] {READ}"
    # Its second call has both [-] and [~] (both in progress to Roo): over max_in_progress.
    data = apply(todo, second)
    assert data["exit"] == 1
    assert "Only one task can be in_progress" in data["error"]["message"]
    fine = second["todos"].replace("[~]", "[ ]")
    assert tasks(apply(todo, {"todos": fine}))[:2] == [(READ, "completed"), (ADD, "in_progress")]


def test_a_drop_warning_in_the_text_is_in_json_warnings_too(todo: Todo) -> None:
    first, *_ = calls("codex-update-plan")
    apply(todo, first)
    data = apply(todo, {"plan": first["plan"][:2]})
    assert data["changes"]["dropped_open"] == [TESTS, README_]
    assert any(
        w.startswith("Warning: this snapshot dropped 2 open tasks") for w in data["warnings"]
    )


def test_lines_of_a_checklist_string_that_are_not_items_are_warned_about(todo: Todo) -> None:
    data = apply(todo, {"todos": "[x] a\nnot an item\n[?] b"})
    assert tasks(data) == [("a", "completed"), ("b", "pending")]
    assert data["warnings"] == [
        "todos: line 2 is not a checklist item, ignored: not an item",
        "todos: line 3: unknown status marker, read as pending",
    ]


def test_roo_lines_sent_as_markdown_never_empty_the_list(todo: Todo) -> None:
    first, _ = calls("roo-update-todo-list")
    apply(todo, first)
    run = todo("--json", "apply", "--markdown", stdin=first["todos"])
    assert run.code == 1
    assert "holds no task item" in json.loads(run.out)["error"]["message"]
    assert len(apply(todo, {})["data"]["todos"]) == 4


def test_cline_task_progress_inside_any_tool(todo: Todo) -> None:
    """cline/cline .../system-prompt/types.ts@864419d8 (TASK_PROGRESS_PARAMETER)."""
    first, second = calls("cline-task-progress")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[0] == (READ, "completed")
    assert data["data"]["reply"]["task_progress"].startswith(f"- [x] {READ}\n- [ ] {ADD}")


def test_openhands_task_tracker(todo: Todo) -> None:
    """OpenHands/software-agent-sdk .../task_tracker/definition.py@03532eb8."""
    view, plan, plan2, view2 = calls("openhands-task-tracker")
    assert apply(todo, view)["data"]["todos"] == []
    data = apply(todo, plan)
    assert data["data"]["todos"][2]["notes"] == ["Cover the empty list"]
    assert "notes" not in data["data"]["todos"][0]  # a task's fields are those it has
    data = apply(todo, plan2)
    assert tasks(data)[0] == (READ, "completed")  # "done"
    reply = data["data"]["reply"]
    assert reply["task_list"][0] == {
        "id": "1",
        "title": READ,
        "status": "done",
        "notes": "Format switch is in export.py",
    }
    assert apply(todo, view2)["context"]["rev"] == data["context"]["rev"]


def test_goose_todo_write_free_text(todo: Todo) -> None:
    """block/goose crates/goose/src/agents/platform_extensions/todo.rs@08dc4786."""
    first, second = calls("goose-todo-write")
    apply(todo, first)
    data = apply(todo, second)  # a notes line beside the checklist: not kept, and said so
    assert data["exit"] == 0
    assert data["warnings"] == [
        "content: line 7 is not a checklist item, ignored: Notes: keep the text output unchanged."
    ]
    assert (READ, "completed") in tasks(data)
    assert len(tasks(data)) == 5


def test_crush_todos(todo: Todo) -> None:
    """charmbracelet/crush internal/agent/tools/todos.go@37f36e93."""
    first, second = calls("crush-todos")
    apply(todo, first)
    data = apply(todo, second)
    assert data["data"]["todos"][1]["active_form"] == "Adding the --json flag to export"
    assert data["data"]["reply"]["todos"][1]["active_form"] == "Adding the --json flag to export"


def test_zed_update_plan(todo: Todo) -> None:
    """zed-industries/zed crates/agent/src/tools/update_plan_tool.rs@0d29a79c."""
    first, second = calls("zed-update-plan")
    assert apply(todo, first)["data"]["summary"] == "export --json"
    data = apply(todo, second)
    assert tasks(data)[2] == (TESTS, "in_progress")
    assert data["data"]["reply"]["steps"][2] == {"title": TESTS, "status": "in_progress"}


def test_continue_checklist_and_unmerged_shapes(todo: Todo) -> None:
    """continuedev/continue extensions/cli/src/tools/writeChecklist.ts@d0a3c0b6; PR #6714,
    PR #11884 (unmerged)."""
    checklist, markdown, read, todos = calls("continue-checklist")
    assert tasks(apply(todo, checklist))[0] == (READ, "completed")
    data = apply(todo, markdown)  # [*] in progress, [~] cancelled; the legend comment skipped
    assert tasks(data) == [
        (READ, "completed"),
        (ADD, "in_progress"),
        ("Print the list as a JSON array", "pending"),
        (TESTS, "pending"),
        (README_, "abandoned"),
    ]
    assert apply(todo, read)["exit"] == 0
    data = apply(todo, todos)  # completed: true, order, a numeric id
    assert tasks(data)[0] == (READ, "completed")
    assert data["data"]["todos"][2]["id"] == "3"


def test_augment_task_tools(todo: Todo) -> None:
    """npm @augmentcode/auggie@0.36.0 augment.mjs (add_tasks, update_tasks, view, reorganize)."""
    add, update, _, view, reorganize = calls("augment-tasks")
    data = apply(todo, add)
    assert [t["id"] for t in data["data"]["todos"]] == ["1", "2", "3", "4"]
    assert data["data"]["todos"][0]["notes"] == ["Find the format switch in export.py"]
    more = {"tasks": [{"name": "Extra", "description": "d", "state": "IN_PROGRESS"}]}
    extra = apply(todo, more, "-s", "augment-state")
    assert tasks(extra) == [("Extra", "in_progress")]
    # update_tasks names tasks by the ids todocli gave them (Augment's own are its UUIDs)
    ours = {
        "tasks": [{"task_id": "1", "state": "COMPLETE"}, {"task_id": "2", "state": "IN_PROGRESS"}]
    }
    data = apply(todo, ours)
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]
    assert apply(todo, update)["exit"] == 1  # ids no task has: an error, nothing written
    assert apply(todo, view)["exit"] == 0
    data = apply(todo, reorganize)
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]
    assert data["data"]["todos"][0]["id"] == "Bq7uLm2XeR9wTk4nHs6dJa"
    assert (
        data["data"]["reply"]["markdown"]
        .splitlines()[1]
        .startswith("-[x] UUID:Bq7uLm2XeR9wTk4nHs6dJa NAME:Read the export command")
    )


def test_droid_todowrite_numbered_lines(todo: Todo) -> None:
    """npm @factory/cli-linux-x64@0.225.2 bin/droid (TodoWrite parser)."""
    first, second, as_json = calls("droid-todowrite")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[:2] == [(READ, "completed"), (ADD, "in_progress")]
    assert data["data"]["reply"]["todos"].splitlines()[0] == f"1. [completed] {READ}"
    assert len(tasks(apply(todo, as_json))) == 2


def test_oh_my_pi_ops(todo: Todo) -> None:
    """oh-my-pi's todo_write (ops on phases and tasks): as before."""
    first, second = calls("oh-my-pi-todo-write")
    apply(todo, first)
    data = apply(todo, second)
    assert tasks(data)[-1] == ("Add a CHANGELOG entry", "pending")


# -- status words, errors, ids in the file ---------------------------------------------------


@pytest.mark.parametrize(
    ("word", "status"),
    [
        ("todo", "pending"),
        ("not-started", "pending"),
        ("NOT_STARTED", "pending"),
        ("in-progress", "in_progress"),
        ("IN_PROGRESS", "in_progress"),
        ("COMPLETE", "completed"),
        ("done", "completed"),
        ("CANCELLED", "abandoned"),
        ("blocked", "blocked"),
    ],
)
def test_every_tools_status_words_in_any_case(todo: Todo, word: str, status: str) -> None:
    data = apply(todo, {"todos": [{"content": "a", "status": word}]}, "--keep")
    assert tasks(data) == [("a", status)]


def test_unknown_tools_are_usage_errors(todo: Todo) -> None:
    assert todo("show", "--as", "nope").code == 2
    run = todo("schema", "nope")
    assert run.code == 2
    assert "copilot" in run.err


def test_an_unknown_key_names_the_nearest_shape(todo: Todo) -> None:
    data = apply(todo, {"todoLis": []})
    assert data["exit"] == 1
    assert data["error"]["message"].startswith('unknown key "todoLis": did you mean "todoList"?')
    item = apply(todo, {"todos": [{"content": "a", "stauts": "pending"}]})
    assert 'did you mean "status"?' in item["error"]["message"]


def test_metadata_has_limits_too(todo: Todo) -> None:
    data = apply(todo, {"todos": [{"content": "a", "id": "x" * 501}]})
    assert (data["exit"], data["error"]["message"]) == (1, "todos[0].id: over 500 bytes")
    data = apply(todo, {"todos": [{"content": "a", "priority": "p" * 501}]})
    assert data["error"]["message"] == "todos[0].priority: over 500 bytes"


def test_the_metadata_comment_round_trips_and_hides_in_markdown() -> None:
    text = (
        "- [ ] A <!-- id: 3; priority: high; blocked-by: 1, x%2Cy; active: Doing; it -->\n"
        "- [/] B <!-- active: b -->\n"
        "- [ ] C <!-- a comment of a person's -->\n"
    )
    doc = todocli.loads(text)
    assert todocli.dumps(doc) == text
    a, b, c = (t for _, t in doc.model().tasks())
    assert (a.content, a.active_form, a.meta.id, a.meta.blocked_by) == (
        "A",
        "Doing; it",
        "3",
        ("1", "x,y"),
    )
    assert (b.active_form, bool(b.meta)) == ("b", False)
    assert c.content == "C <!-- a comment of a person's -->"


def test_a_change_of_one_task_changes_only_its_line(todo: Todo) -> None:
    first, second, _ = calls("qwen-todo-write")
    apply(todo, first)
    path = Path(todo("path").out.strip())
    text = path.read_text()
    path.write_text("Intro\n\n" + text)  # not canonical: edited in place from now on
    apply(todo, {"todos": [dict(t) for t in first["todos"]]})
    before = path.read_text().splitlines()
    apply(todo, second)
    after = path.read_text().splitlines()
    changed = [i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y]
    assert len(changed) == 2  # task 1 completed, task 2 started
    assert "blocked-by: 2" in after[-2]


# -- hook envelopes ----------------------------------------------------------------------------


def hook(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "hooks" / f"{name}.json").read_text())
    return data


@pytest.mark.parametrize(
    "name",
    [
        "claude-code-posttooluse-todowrite",
        "gemini-aftertool-write-todos",
        "qwen-code-posttooluse-todo-write",
    ],
)
def test_a_hook_envelope_is_unwrapped_into_its_session(todo: Todo, name: str) -> None:
    envelope = hook(name)["stdin"]
    run = todo("apply", stdin=json.dumps(envelope))
    assert run.code == 0, run.err
    listed = apply(todo, {}, "-s", envelope["session_id"])
    assert tasks(listed)[1] == (ADD, "in_progress")
    assert apply(todo, {})["data"]["todos"] == []  # the default session is untouched


@pytest.mark.parametrize(
    "name",
    [
        "claude-code-posttooluse-bash",
        "claude-code-pretooluse-bash",
        "gemini-beforetool-run-shell-command",
        "gemini-aftertool-run-shell-command",
        "qwen-code-pretooluse-run-shell-command",
    ],
)
def test_a_hook_on_another_tool_writes_nothing(todo: Todo, name: str) -> None:
    envelope = hook(name)["stdin"]
    run = todo("apply", stdin=json.dumps(envelope))
    assert (run.code, run.out) == (0, "")
    assert not Path(todo("-s", envelope["session_id"], "path").out.strip()).exists()


def test_cline_task_progress_in_any_tools_envelope(todo: Todo) -> None:
    envelope = hook("claude-code-posttooluse-bash")["stdin"]
    envelope["tool_input"] = calls("cline-task-progress")[1]
    assert todo("-s", "c", "apply", stdin=json.dumps(envelope)).code == 0
    assert tasks(apply(todo, {}, "-s", "c"))[0] == (READ, "completed")


def test_a_hook_session_id_is_made_a_safe_session_name(todo: Todo) -> None:
    envelope = hook("claude-code-posttooluse-todowrite")["stdin"]
    envelope["session_id"] = "../../etc/x y"
    assert todo("apply", stdin=json.dumps(envelope)).code == 0
    assert len(tasks(apply(todo, {}, "-s", "etc-x-y"))) == 4


def test_a_persons_edit_reaches_the_model_through_the_hook_reply(todo: Todo) -> None:
    envelope = hook("claude-code-posttooluse-todowrite")["stdin"]
    session = envelope["session_id"]
    assert todo("apply", stdin=json.dumps(envelope)).code == 0
    path = Path(todo("-s", session, "path").out.strip())
    path.write_text(path.read_text().replace("- [ ] Update the README", "- [x] Update the README"))
    run = todo("apply", stdin=json.dumps(envelope))
    assert run.code == 0
    reply = json.loads(run.out)
    assert reply["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert "Update the README" in reply["hookSpecificOutput"]["additionalContext"]
    gemini = hook("gemini-aftertool-write-todos")["stdin"]
    todo("apply", stdin=json.dumps(gemini))
    path = Path(todo("-s", gemini["session_id"], "path").out.strip())
    path.write_text(path.read_text() + "- [ ] Added by hand\n")
    reply = json.loads(todo("apply", stdin=json.dumps(gemini)).out)
    assert reply["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    assert "Added by hand" in reply["hookSpecificOutput"]["additionalContext"]


def test_the_hook_reply_stays_json_when_a_hand_edit_holds_control_characters(
    todo: Todo,
) -> None:
    # A C1 control (CSI), a bidi override and ESC typed by hand: never raw in the
    # reply, which stays valid JSON carrying the escaped text a plain write prints.
    envelope = hook("claude-code-posttooluse-todowrite")["stdin"]
    assert todo("apply", stdin=json.dumps(envelope)).code == 0
    path = Path(todo("-s", envelope["session_id"], "path").out.strip())
    hostile = "Hand \x9b31m red \u202e evil \x1b[2J"
    path.write_text(path.read_text() + f"- [ ] {hostile}\n")
    run = todo("apply", stdin=json.dumps(envelope))
    assert run.code == 0
    for raw in ("\x9b", "\u202e", "\x1b"):
        assert raw not in run.out
    reply = json.loads(run.out)
    # the text a plain write prints, escapes and all, read back intact from the JSON
    shown = "Hand \\x9b31m red \\u202e evil \\x1b[2J"
    assert shown in reply["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("tool", ["claude", "augment", "goose"])
def test_show_as_stays_json_when_the_file_holds_bytes_that_are_not_utf8(
    todo: Todo, tool: str
) -> None:
    # A byte that is not UTF-8 and ESC typed by hand: shown as JSON escapes
    # (\udcff, \u001b), never as the terminal's \xff, which is no JSON.
    assert todo("init", "-q", "x").code == 0
    path = Path(todo("path").out.strip())
    path.write_bytes(b"- [ ] c\xffd\n- [ ] e\x1bf\n- [ ] ok\n")
    run = todo("show", "--as", tool)
    assert run.code == 0
    assert "\\xff" not in run.out
    assert "\x1b" not in run.out
    shown = json.dumps(json.loads(run.out))
    assert "c\\udcffd" in shown
    assert "e\\u001bf" in shown


# -- replies, show --as, schema TOOL -----------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(TOOL_NAMES))
def test_schema_of_every_tool_is_valid_and_takes_its_own_reply(todo: Todo, tool: str) -> None:
    first, *_ = calls("claude-code-todowrite")
    apply(todo, first)
    schema = json.loads(todo("schema", tool).out)
    jsonschema.Draft202012Validator.check_schema(schema)
    shown = json.loads(todo("show", "--as", tool).out)
    if tool != "claude-tasks":  # its reply is TaskList's output: the Task tools have no bulk write
        jsonschema.validate(shown, schema)


SAFE = st.text(st.sampled_from("abcdefghij KLMNO0123_.'"), min_size=1, max_size=12).map(str.strip)
ALL = ["pending", "in_progress", "completed", "abandoned", "blocked"]
BASIC = ALL[:3]
EXPRESSIBLE = dict.fromkeys(TOOLS, BASIC) | {
    "gemini": ALL,
    "goose": ALL,
    "oh-my-pi": ALL,
    "cursor": [*BASIC, "abandoned"],
    "opencode": [*BASIC, "abandoned"],
    "kilo": [*BASIC, "abandoned"],
    "augment": [*BASIC, "abandoned"],
    "cline": ["pending", "completed"],
    "continue": ["pending", "completed"],
}


@pytest.mark.parametrize("tool", sorted(TOOLS))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_show_as_a_tool_then_apply_gives_the_same_list(
    todo: Todo, tool: str, data: st.DataObject
) -> None:
    contents = data.draw(st.lists(SAFE.filter(bool), max_size=6, unique=True), label="tasks")
    statuses = data.draw(
        st.lists(st.sampled_from(EXPRESSIBLE[tool]), min_size=len(contents), max_size=len(contents))
    )
    assume(statuses.count("in_progress") <= 1)
    if tool == "oh-my-pi":  # a batch of ops starts the first pending task when none is
        assume("in_progress" in statuses or "pending" not in statuses)
    if not contents:
        return
    source = [{"content": c, "status": s} for c, s in zip(contents, statuses, strict=True)]
    session = f"p{abs(hash((tool, tuple(contents), tuple(statuses))))}"
    assert apply(todo, {"todos": source}, "-s", f"{session}a", "--keep")["exit"] == 0
    shown = todo("-s", f"{session}a", "show", "--as", tool).out
    copied = todo("--json", "-s", f"{session}b", "--keep", "apply", stdin=shown)
    assert copied.code == 0, copied.out
    assert tasks(json.loads(copied.out)) == [
        (c, s) for c, s in zip(contents, statuses, strict=True)
    ]


def _task_fields(tool: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What a task is, as ``--json`` gives it; oh-my-pi's ops have no active form,
    id or priority to send (its ``init`` makes the list anew)."""
    kept: tuple[str, ...] = ("content", "status", "notes", "phase")
    if tool != "oh-my-pi":
        kept += ("active_form", "id", "priority", "blocked_by")
    return [{k: t.get(k) for k in kept} for t in data["data"]["todos"]]


ITEM = st.fixed_dictionaries(
    {"status": st.sampled_from(ALL)},
    optional={
        "activeForm": SAFE.filter(bool),
        "notes": st.lists(SAFE.filter(bool), max_size=2),
        "phase": st.sampled_from(["Build", "Ship"]),
        "priority": st.sampled_from(["high", "low"]),
    },
)


@pytest.mark.parametrize("tool", sorted(TOOLS))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_a_reply_sent_back_to_its_own_list_changes_nothing(
    todo: Todo, tool: str, data: st.DataObject
) -> None:
    # Issue 12's promise: show --as TOOL -> apply gives the same list, for every tool,
    # also where the tool has no word for a status (a person's drop or block stays),
    # no notes, no active form or no ids (what its reply fills in adds nothing).
    contents = data.draw(st.lists(SAFE.filter(bool), min_size=1, max_size=6, unique=True))
    items = [data.draw(ITEM) | {"content": c} for c in contents]
    statuses = [item["status"] for item in items]
    assume(statuses.count("in_progress") <= 1)
    if tool == "oh-my-pi":  # a batch of ops starts the first pending task when none is
        assume("in_progress" in statuses or "pending" not in statuses)
    if data.draw(st.booleans(), label="ids"):
        for n, item in enumerate(items):
            item["id"] = str(n + 5)
    session = f"r{abs(hash((tool, json.dumps(items))))}"
    made = apply(todo, {"todos": items}, "-s", session, "--keep")
    assert made["exit"] == 0, made
    before = _task_fields(tool, made)
    shown = todo("-s", session, "show", "--as", tool).out
    back = todo("--json", "-s", session, "--keep", "apply", stdin=shown)
    assert back.code == 0, back.out
    assert _task_fields(tool, json.loads(back.out)) == before


# -- a reply sent back: what it approximated or filled in changes nothing ---------------------


def _file(todo: Todo) -> str:
    return Path(todo("path").out.strip()).read_text(encoding="utf-8")


def test_claude_task_lists_reply_sent_back_changes_nothing(todo: Todo) -> None:
    # TaskList's output ({"tasks": [{"id", "subject", ...}]}) is Claude Code's,
    # matched by id: it is not Augment's add_tasks (which would add every task again).
    assert todo("apply", stdin=json.dumps({"subject": "Read code", "description": "d"})).code == 0
    assert todo("apply", stdin=json.dumps({"subject": "Write test", "description": "e"})).code == 0
    todo("drop", "Write test")
    before = _file(todo)
    shown = todo("show", "--as", "claude-tasks").out
    for _ in range(2):
        run = todo("--json", "apply", stdin=shown)
        assert run.code == 0
        assert json.loads(run.out)["data"]["reply_tool"] == "claude-tasks"
        assert _file(todo) == before
    update = {"tasks": [{"id": "1", "subject": "Read code", "status": "completed"}]}
    assert todo("--keep", "apply", stdin=json.dumps(update)).code == 0  # a real change
    assert "- [x] Read code <!-- id: 1 -->" in _file(todo)


@pytest.mark.parametrize("tool", ["codex", "claude", "opencode", "kimi", "continue", "cline"])
def test_a_status_a_tool_cannot_say_stays_when_its_reply_comes_back(todo: Todo, tool: str) -> None:
    assert todo("init", "-q", "A", "B", "C").code == 0
    todo("drop", "-q", "B")
    todo("block", "-q", "C")
    before = _file(todo)
    assert todo("apply", stdin=todo("show", "--as", tool).out).code == 0
    assert _file(todo) == before  # B stays abandoned, C blocked, A in progress
    # A change the reply would not show still applies.
    shown = json.loads(todo("show", "--as", "codex").out)
    shown["plan"][2]["status"] = "in_progress"
    shown["plan"][0]["status"] = "completed"
    assert todo("apply", stdin=json.dumps(shown)).code == 0
    assert "- [x] A\n- [-] B\n- [/] C\n" in _file(todo)


def test_what_a_reply_fills_in_is_not_written_back(todo: Todo) -> None:
    # Claude's activeForm (the text), OpenCode's and Kilo's "medium" priority, the
    # ids a reply numbers tasks with: none of them is the task's, none is stored.
    assert todo("init", "-q", "A", "B").code == 0
    before = _file(todo)
    for tool in ("claude", "crush", "opencode", "kilo", "qwen", "amp", "cursor", "augment"):
        assert todo("apply", stdin=todo("show", "--as", tool).out).code == 0, tool
        assert _file(todo) == before, tool
    fresh = apply(todo, [{"content": "A", "status": "pending"}], "-s", "f")
    assert todo("-s", "f", "apply", stdin=json.dumps(fresh["data"]["reply"])).code == 0
    assert todo("-s", "f", "show", "--plain").code == 0
    assert "active" not in Path(todo("-s", "f", "path").out.strip()).read_text()


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_claude_reply_entries_read_back_one_at_a_time_as_the_whole_reply_does(
    data: st.DataObject,
) -> None:
    # The echo reads only the entries of the tasks an item changes (agents.echo):
    # each must read back exactly as it does within the whole reply.
    from todocli.agents import echo, entry_of
    from todocli.document.model import Meta, Phase, Status, Task, TodoList

    contents = data.draw(st.lists(SAFE.filter(bool), min_size=1, max_size=6, unique=True))
    statuses = st.sampled_from(list(Status.ALL))
    active = st.one_of(st.none(), SAFE.filter(bool))
    meta = st.builds(Meta, id=st.one_of(st.none(), st.sampled_from(["1", "7", "a"])))
    tasks = tuple(
        Task(c, data.draw(statuses), data.draw(active), (), data.draw(meta)) for c in contents
    )
    todo = TodoList(summary=data.draw(SAFE), phases=(Phase("Todos", tasks),))
    entry = entry_of("claude")
    assert entry is not None
    whole = echo._shown("claude", todo, list(tasks))
    assert whole is not None
    one_at_a_time = echo._Entries(entry, list(tasks))
    assert [one_at_a_time[k] for k in range(len(tasks))] == whole[0]
    assert whole[1]  # a whole list, not updates


def test_the_oh_my_pi_reply_keeps_notes_and_a_block_reason_once(todo: Todo) -> None:
    assert todo("init", "-q", "--phase", "Build", "A", "B").code == 0
    todo("note", "-q", "A", "keep me")
    todo("block", "-q", "B", "--reason", "waiting on CI")
    before = _file(todo)
    assert before.count("waiting on CI") == 1
    assert todo("apply", stdin=todo("show", "--as", "oh-my-pi").out).code == 0
    assert _file(todo) == before
