"""Who made a change a snapshot did not know: another ``todo`` process's write is
told as that revision and the command (and agent) that wrote it, in the plain
reply, the ``--json`` reply and a hook's reply; only a change made outside todo is
"by hand". Every call is a real ``todo`` process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support_cli import todo_process
from todocli.app.commands import Options
from todocli.mcp.mcp_tools import call

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "agents" / "hooks"
SESSION = "3f1c2a9e-5b7d-4e21-9c4a-8d6f0b2e7a13"  # the fixture envelope's session id

PLAN = [
    {"content": "Fix login", "status": "in_progress", "activeForm": "Fixing login"},
    {"content": "Write tests", "status": "pending", "activeForm": "Writing tests"},
    {"content": "Update docs", "status": "pending", "activeForm": "Updating docs"},
]
SHIP = {"content": "Ship", "status": "pending", "activeForm": "Shipping"}


def other(*args: str) -> None:
    """Another todo process writes the agent's list."""
    run = todo_process("-s", SESSION, *args)
    assert run.code == 0, run.err


def hand_edit(old: str, new: str) -> None:
    """A person edits the list in an editor (the test writes the file)."""
    path = Path(todo_process("-s", SESSION, "path").out.strip())
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def send(todos: list[dict[str, str]], how: str) -> tuple[str, list[dict[str, object]] | None]:
    """The agent's snapshot, sent as ``how`` says: ``todo apply`` (plain), ``todo
    apply --json``, or Claude Code's PostToolUse TodoWrite to ``todo hook claude``.
    Returns the text the agent reads and, for ``--json``, ``changes.merged``."""
    if how == "hook":
        fixture = json.loads((FIXTURES / "claude-code-posttooluse-todowrite.json").read_text())
        envelope = fixture["stdin"] | {"tool_input": {"todos": todos}}
        run = todo_process("hook", "claude", stdin=json.dumps(envelope))
        assert run.code == 0, run.err
        if not run.out:
            return "", None
        reply = json.loads(run.out)["hookSpecificOutput"]
        assert reply["hookEventName"] == "PostToolUse"
        return str(reply["additionalContext"]), None
    args = ("--json",) if how == "json" else ()
    run = todo_process("-s", SESSION, *args, "apply", stdin=json.dumps({"todos": todos}))
    assert run.code == 0, run.err
    if how == "json":
        data = json.loads(run.out)
        return str(data["text"]), list(data["changes"]["merged"])
    return run.out, None


HOW = ("plain", "json", "hook")


def writes_done() -> None:
    other("done", "Fix login")


def writes_note() -> None:
    other("note", "Write tests", "use the staging database")


def writes_add() -> None:
    other("add", "Rotate keys")


def writes_as_agent_b() -> None:
    other("--agent", "b", "add", "Rotate keys")


# What another process does after the agent's first snapshot (revision 1), the
# line the agent's next snapshot must read, and what ``changes.merged`` holds.
CASES: dict[str, tuple[Callable[[], None], str, list[tuple[str, str, str | None]]]] = {
    "done": (
        writes_done,
        'Merged with #2 (todo done): kept "Fix login" completed (set in #2); '
        'kept "Write tests" in_progress (set in #2)',
        [("status_by_hand", "Fix login", None), ("status_by_hand", "Write tests", None)],
    ),
    "note": (
        writes_note,
        'Merged with #2 (todo note):\n  note on "Write tests": "use the staging database"',
        [("noted", "Write tests", None)],
    ),
    "add": (
        writes_add,
        'Merged with #2 (todo add): kept "Rotate keys" (added in #2)',
        [("added_by_hand", "Rotate keys", None)],
    ),
    "agent": (
        writes_as_agent_b,
        'Merged with #2 (todo add, agent b): kept "Rotate keys" (added in #2)',
        [("added_by_hand", "Rotate keys", "b")],
    ),
}


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("case", sorted(CASES))
def test_another_todo_process_s_write_is_told_as_its_revision_and_command(
    case: str, how: str
) -> None:
    write, line, merged = CASES[case]
    command = "todo add" if case == "agent" else f"todo {case}"
    send(PLAN, how)
    write()
    text, changes = send(PLAN, how)
    assert line in text
    assert "by hand" not in text
    if changes is not None:
        assert [(c["kind"], c["content"], c["by"]) for c in changes] == [
            (kind, content, {"hand": False, "rev": 2, "command": command, "agent": agent})
            for kind, content, agent in merged
        ]


@pytest.mark.parametrize("how", HOW)
def test_an_undo_by_another_process_is_told_as_the_undo(how: str) -> None:
    """The agent's own write taken back by ``todo undo`` elsewhere: its next
    snapshot, still carrying the task, is told the undo removed it."""
    send(PLAN, how)
    send([*PLAN, SHIP], how)  # revision 2
    other("undo")  # revision 3: revision 1 again, without "Ship"
    text, changes = send([*PLAN, SHIP], how)
    assert 'Merged with #3 (todo undo): left out "Ship" (removed in #3)' in text
    assert "by hand" not in text
    if changes is not None:
        assert changes == [
            {
                "kind": "removed_by_hand",
                "content": "Ship",
                "status": None,
                "by": {"hand": False, "rev": 3, "command": "todo undo", "agent": None},
            }
        ]


@pytest.mark.parametrize("how", HOW)
def test_an_edit_made_outside_todo_is_still_by_hand(how: str) -> None:
    send(PLAN, how)
    hand_edit("- [ ] Update docs", "- [x] Update docs")
    text, changes = send(PLAN, how)
    assert 'Merged with edits made by hand: kept "Update docs" completed (set by hand)' in text
    if changes is not None:
        # The snapshot leaves the list as the person did: their edit is no revision.
        assert changes[0]["by"] == {"hand": True, "rev": None, "command": None, "agent": None}


def test_a_hand_edit_a_later_write_recorded_is_by_hand_and_the_write_is_its_command() -> None:
    """A person's edit, then ``todo add`` (which keeps the edit as revision 2, by
    hand, and writes revision 3): each change is told as whoever made it."""
    send(PLAN, "json")
    hand_edit("- [ ] Update docs", "- [x] Update docs")
    writes_add()
    text, changes = send(PLAN, "json")
    assert (
        'Merged with #3 (todo add) and edits made by hand: kept "Update docs" completed '
        '(set by hand); kept "Rotate keys" (added in #3)'
    ) in text
    assert changes is not None
    assert [c["by"] for c in changes] == [
        {"hand": True, "rev": 2, "command": None, "agent": None},
        {"hand": False, "rev": 3, "command": "todo add", "agent": None},
    ]


def test_a_revision_written_before_revisions_named_their_command_reads_as_todo() -> None:
    """State written without the record of its command (an older todo, or a writer
    killed after its list landed) still reads: the revision is todo's."""
    send(PLAN, "plain")
    writes_add()
    path = Path(todo_process("-s", SESSION, "path").out.strip())
    home = Path(path).parent.parent  # <home>/sessions/<s>.md
    records = list(home.glob(f"state/sessions/{SESSION}/revs/00000002.by"))
    assert len(records) == 1
    records[0].unlink()
    text, _ = send(PLAN, "plain")
    assert 'Merged with #2 (todo): kept "Rotate keys" (added in #2)' in text


def test_what_a_merge_told_is_not_told_again() -> None:
    """The next snapshot after the one told of another's write hears nothing more."""
    send(PLAN, "plain")
    writes_add()
    assert "Merged with #2" in send(PLAN, "plain")[0]
    assert "Merged" not in send(PLAN, "plain")[0]


def test_history_names_the_command_and_agent_of_each_revision() -> None:
    send(PLAN, "plain")
    writes_as_agent_b()
    hand_edit("- [ ] Update docs", "- [x] Update docs")
    writes_done()
    lines = todo_process("-s", SESSION, "history").out.splitlines()
    assert [line.split("  ")[0] for line in lines] == ["#4", "#3", "#2", "#1"]
    assert lines[0].endswith("  (todo done)  (current)")
    assert lines[1].endswith("  (by hand)")
    assert lines[2].endswith("  (todo add, agent b)")
    assert lines[3].endswith("  (todo apply)")
    rows = json.loads(todo_process("-s", SESSION, "--json", "history").out)["data"]["revisions"]
    assert [(r["command"], r["agent"], r["by_hand"]) for r in rows] == [
        ("todo done", None, False),
        (None, None, True),
        ("todo add", "b", False),
        ("todo apply", None, False),
    ]


def test_an_mcp_call_s_write_is_told_as_the_mcp_tool() -> None:
    """``todo mcp``'s server writes for its client: its revision names the tool
    (called here in this process, as the server calls it)."""
    send(PLAN, "plain")
    ops = {"ops": [{"op": "append", "phase": "Todos", "items": ["Rotate keys"]}]}
    assert not call("todo_write", ops, Options(session=SESSION)).failed
    text, _ = send(PLAN, "plain")
    assert 'Merged with #2 (todo mcp todo_write): kept "Rotate keys" (added in #2)' in text


def test_a_status_both_changed_is_told_as_over_the_other_call_s_revision() -> None:
    send(PLAN, "plain")
    writes_done()  # revision 2: "Fix login" completed, "Write tests" started
    mine = [PLAN[0], PLAN[1] | {"status": "completed"}, PLAN[2]]
    text, _ = send(mine, "plain")
    assert '"Write tests" is completed as the snapshot says (over #2)' in text
    assert "hand" not in text
