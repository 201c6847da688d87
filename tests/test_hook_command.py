"""``todo hook AGENT`` and the hook path of ``todo apply``: every reply, success or
refusal, in the hook protocol's JSON, since a hook's plain stdout never reaches
the model (and Gemini CLI wants nothing but JSON there)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support_cli import Todo, todo_process

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "agents" / "hooks"


def envelope(name: str) -> dict[str, object]:
    found: dict[str, object] = json.loads((FIXTURES / f"{name}.json").read_text())["stdin"]
    return found


def too_long(name: str) -> dict[str, object]:
    """The envelope with its first item 205 bytes long (the limit is 200)."""
    value = envelope(name)
    tool_input = value["tool_input"]
    assert isinstance(tool_input, dict)
    first = dict(tool_input["todos"][0])
    key = "content" if "content" in first else "description"
    first[key] = "x" * 205
    return value | {"tool_input": {"todos": [first]}}


def test_a_refused_hook_write_reaches_the_model_in_json(todo: Todo) -> None:
    for name in ("claude-code-posttooluse-todowrite", "gemini-aftertool-write-todos"):
        for args in (("apply", "-q"), ("hook", "claude")):
            run = todo(*args, stdin=json.dumps(too_long(name)))
            assert run.code == 0  # the harness reads the JSON on exit 0 only
            reply = json.loads(run.out)["hookSpecificOutput"]
            assert reply["additionalContext"].startswith("Errors: ")
            assert "205 bytes; the limit is 200" in reply["additionalContext"]


def test_a_mirrored_snapshot_with_nothing_new_for_the_agent_prints_nothing(todo: Todo) -> None:
    value = envelope("claude-code-posttooluse-todowrite")
    run = todo("hook", "claude", stdin=json.dumps(value))
    assert run.code == 0
    assert run.out == ""  # what it sent, it knows: as apply -q
    # What it has to learn comes back, as the plain write prints it: a person's note
    session = str(value["session_id"])
    assert todo("-s", session, "note", "Add the --json flag to export", "use orjson").code == 0
    text = json.loads(todo("hook", "claude", stdin=json.dumps(value)).out)
    told = text["hookSpecificOutput"]["additionalContext"]
    assert '"use orjson"' in told
    # once: the next snapshot, with nothing new again, is silent
    assert todo("hook", "claude", stdin=json.dumps(value)).out == ""


def test_apply_q_in_a_hook_tells_the_notes_of_the_task_in_progress(todo: Todo) -> None:
    value = envelope("claude-code-posttooluse-todowrite")
    stdin = json.dumps(value)
    assert todo("apply", "-q", stdin=stdin).out == ""  # nothing to learn: silent
    session = str(value["session_id"])
    assert todo("-s", session, "note", "Add the --json flag to export", "use orjson").code == 0
    reply = json.loads(todo("apply", "-q", stdin=stdin).out)["hookSpecificOutput"]
    assert "use orjson" in reply["additionalContext"]


def test_the_stop_gate_lets_the_agent_stop_when_every_open_task_waits_on_the_person(
    todo: Todo,
) -> None:
    stop = {"session_id": "s1", "hook_event_name": "Stop", "stop_hook_active": False}
    assert todo("-s", "s1", "init", "Deploy", "Announce").code == 0
    blocked = json.loads(todo("hook", "claude", stdin=json.dumps(stop)).out)
    assert blocked["decision"] == "block"
    assert "still open: Deploy; Announce." in blocked["reason"]
    assert todo("-s", "s1", "block", "Deploy", "--reason", "which region?").code == 0
    assert todo("-s", "s1", "block", "Announce").code == 0
    run = todo("hook", "claude", stdin=json.dumps(stop))
    assert run.code == 0
    reply = json.loads(run.out)
    assert "decision" not in reply
    assert reply["systemMessage"] == (
        "todo: 2 open tasks blocked on you: Deploy (which region?); Announce"
    )


def test_the_stop_reason_names_the_list_once_and_stays_under_300_characters() -> None:
    """A real ``todo hook claude`` fed Claude Code's Stop envelope: five open tasks
    of ordinary length, a 36-character session id."""
    session = "3f2b9c1e-8a47-4d2e-9b6f-0c5d7e1a2b34"
    tasks = (
        "Read the config loader",
        "Add retry to the HTTP client",
        "Write tests for retries",
        "Update the README",
        "Run the full test suite",
    )
    assert todo_process("-s", session, "init", *tasks).code == 0
    stop = {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/p/{session}.jsonl",
        "cwd": "/home/u/p",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    run = todo_process("hook", "claude", stdin=json.dumps(stop))
    assert run.code == 0, run.err
    reply = json.loads(run.out)
    assert reply["decision"] == "block"
    reason = reply["reason"]
    assert len(reason) < 300, reason
    assert session not in reason  # its shell's plain `todo` is its plan
    assert "todo done TASK" in reason
    assert all(task in reason for task in tasks)
    assert "drop TASK" in reason
    assert 'block TASK -r "what you need"' in reason
    many = [f"Step {n} of the migration plan, with its own tests" for n in range(12)]
    assert todo_process("-s", session, "add", *many).code == 0
    longer = json.loads(todo_process("hook", "claude", stdin=json.dumps(stop)).out)["reason"]
    assert len(longer) < 300, longer  # the tasks that do not fit are counted
    assert "; and " in longer
    assert " more. Before you stop" in longer


def test_the_stop_gate_is_silent_when_nothing_is_open(todo: Todo) -> None:
    stop = {"session_id": "s2", "hook_event_name": "Stop", "stop_hook_active": False}
    run = todo("hook", "codex", stdin=json.dumps(stop))
    assert (run.code, run.out) == (0, "")


def test_a_new_session_in_the_project_continues_its_open_plan(todo: Todo, tmp_path: Path) -> None:
    first = {
        "session_id": "one",
        "cwd": str(tmp_path),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    assert todo("hook", "claude", stdin=json.dumps(first)).out == ""  # nothing planned yet
    assert todo("-s", "one", "init", "Plan", "Build").code == 0
    other = first | {"session_id": "two"}
    text = json.loads(todo("hook", "claude", stdin=json.dumps(other)).out)
    assert (
        "[0/2] In progress: Plan. Pending: Build."
        in text["hookSpecificOutput"]["additionalContext"]
    )
    stop = {"session_id": "two", "hook_event_name": "Stop", "stop_hook_active": False}
    assert (
        "2 todo tasks still open: Plan; Build" in todo("hook", "claude", stdin=json.dumps(stop)).out
    )
    elsewhere = first | {"session_id": "three", "cwd": str(tmp_path / "elsewhere")}
    assert todo("hook", "claude", stdin=json.dumps(elsewhere)).out == ""


def test_session_start_tells_claude_code_s_shell_which_list(
    todo: Todo, tmp_path: Path, monkeypatch: object
) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    env_file = tmp_path / "env.sh"
    monkeypatch.setenv("CLAUDE_ENV_FILE", str(env_file))
    start = {
        "session_id": "abc",
        "cwd": str(tmp_path),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    assert todo("hook", "claude", stdin=json.dumps(start)).code == 0
    assert env_file.read_text() == "export TODOCLI_AGENT_SESSION=abc\n"


def test_a_hook_on_another_tool_is_silent(todo: Todo) -> None:
    run = todo("hook", "claude", stdin=json.dumps(envelope("claude-code-posttooluse-bash")))
    assert (run.code, run.out) == (0, "")


def test_check_hook_lets_a_stop_through_once_blocked_or_waiting_on_the_person(
    todo: Todo,
) -> None:
    stop = {"session_id": "s3", "hook_event_name": "Stop", "stop_hook_active": False}
    assert todo("-s", "s3", "init", "Deploy").code == 0
    assert todo("check", "--hook", stdin=json.dumps(stop)).code == 1
    again = stop | {"stop_hook_active": True}
    assert todo("check", "--hook", stdin=json.dumps(again)).code == 0  # never twice in a row
    assert todo("-s", "s3", "block", "Deploy", "-r", "which region?").code == 0
    assert todo("check", "--hook", stdin=json.dumps(stop)).code == 0
    assert todo("-s", "s3", "check").code == 1  # without --hook: the plain gate, as before


def test_a_hook_given_no_json_says_so_on_stderr_only_and_never_fails(todo: Todo) -> None:
    run = todo("hook", "gemini", stdin="not json")
    assert (run.code, run.out) == (0, "")  # Gemini CLI reads stdout as JSON alone
    assert run.err.startswith("todo: invalid JSON")


def test_codex_replies_hold_to_codex_s_own_output_schemas(todo: Todo) -> None:
    import jsonschema

    def schema(name: str) -> dict[str, object]:
        found: dict[str, object] = json.loads((FIXTURES / f"{name}.output.schema.json").read_text())
        return found

    start = {
        "session_id": "cx",
        "hook_event_name": "SessionStart",
        "source": "startup",
        "cwd": "/p",
        "model": "gpt-5.1-codex",
        "transcript_path": None,
    }
    empty = json.loads(todo("hook", "codex", stdin=json.dumps(start)).out)
    jsonschema.validate(empty, schema("codex-session-start"))
    # Codex applies the env to the agent's shell commands: plain `todo` is the hook's list
    assert empty["hookSpecificOutput"] == {
        "hookEventName": "SessionStart",
        "env": {"TODOCLI_AGENT_SESSION": "cx"},
    }
    assert todo("-s", "cx", "init", "Patch").code == 0
    restored = json.loads(todo("hook", "codex", stdin=json.dumps(start)).out)
    jsonschema.validate(restored, schema("codex-session-start"))
    assert "[0/1] In progress: Patch." in restored["hookSpecificOutput"]["additionalContext"]
    stop = start | {"hook_event_name": "Stop", "stop_hook_active": False, "turn_id": "t"}
    blocked = json.loads(todo("hook", "codex", stdin=json.dumps(stop)).out)
    jsonschema.validate(blocked, schema("codex-stop"))
    assert blocked["decision"] == "block"
    assert todo("-s", "cx", "block", "Patch", "-r", "which branch?").code == 0
    allowed = json.loads(todo("hook", "codex", stdin=json.dumps(stop)).out)
    jsonschema.validate(allowed, schema("codex-stop"))
    assert "decision" not in allowed


def test_after_a_compaction_without_session_start_the_next_prompt_gets_the_plan_once(
    todo: Todo,
) -> None:
    import jsonschema

    schema = json.loads((FIXTURES / "codex-user-prompt-submit.output.schema.json").read_text())
    for agent, compact, prompt in (
        ("gemini", "PreCompress", "BeforeAgent"),
        ("codex", "PostCompact", "UserPromptSubmit"),
    ):
        base = {"session_id": f"c-{agent}", "cwd": "/p", "turn_id": "t", "model": "m"}
        assert todo("-s", f"c-{agent}", "init", "Patch", "Test").code == 0
        asked = json.dumps(base | {"hook_event_name": prompt, "prompt": "go on"})
        assert todo("hook", agent, stdin=asked).out == ""  # no compaction: nothing
        noted = json.dumps(base | {"hook_event_name": compact, "trigger": "auto"})
        assert (todo("hook", agent, stdin=noted).out) == ""
        reply = json.loads(todo("hook", agent, stdin=asked).out)
        context = reply["hookSpecificOutput"]
        assert context["hookEventName"] == prompt
        assert "[0/2] In progress: Patch. Pending: Test." in context["additionalContext"]
        if agent == "codex":
            jsonschema.validate(reply, schema)
        assert todo("hook", agent, stdin=asked).out == ""  # once


def test_the_plan_put_back_carries_the_notes_of_the_task_in_progress(todo: Todo) -> None:
    """A person's instruction on the task under way outlives /clear and compaction:
    the plan SessionStart puts back carries its notes, bounded; a note left out is
    counted, with where to read it."""
    from todocli.app.hooks import NOTES_BOUND

    start = {"session_id": "nb", "hook_event_name": "SessionStart", "source": "compact"}
    assert todo("-s", "nb", "init", "Compare dates", "Write tests").code == 0
    assert todo("-s", "nb", "note", "Compare dates", "use <= not <").code == 0
    assert todo("-s", "nb", "note", "Write tests", "not this one: pending").code == 0
    put_back = json.loads(todo("hook", "claude", stdin=json.dumps(start)).out)
    context = put_back["hookSpecificOutput"]["additionalContext"]
    assert "Note on Compare dates: use <= not <" in context
    assert "not this one" not in context  # only the tasks in progress
    long_note = "x" * (NOTES_BOUND + 100)
    assert todo("-s", "nb", "note", "Compare dates", long_note).code == 0
    assert todo("-s", "nb", "note", "Compare dates", "the last word").code == 0
    put_back = json.loads(todo("hook", "claude", stdin=json.dumps(start)).out)
    context = put_back["hookSpecificOutput"]["additionalContext"]
    notes = [line for line in context.splitlines() if line.startswith("Note on ")]
    assert sum(len(line.split(": ", 1)[1]) for line in notes) <= NOTES_BOUND
    assert "(1 more note: todo show --notes)" in context
    assert "the last word" in todo("-s", "nb", "show", "--notes").out  # the hint holds
