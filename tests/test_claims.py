"""Several agents on one plan (issue 15): agent names, claims, owners in the file,
dependencies, stale claims and the per-agent stop gate. Without an agent name
everything is as it was (the rest of the suite runs without one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support_cli import Todo
from todocli.document.markdown import parse
from todocli.engine import Settings
from todocli.engine.ops import Batch, Op, OpKind, apply

NOW = "2026-11-22T12:00:00"
LATER = "2026-11-22T12:31:00"  # 31 minutes on: past the default claim_timeout


def listed(home: Path, session: str = "default") -> str:
    return (home / "sessions" / f"{session}.md").read_text()


def plan(todo: Todo, *tasks: str) -> None:
    """A plan made by an agent: nothing starts by itself."""
    assert todo("init", "--agent", "lead", "-q", *tasks).code == 0


def envelope(todo: Todo, *args: str, stdin: str | None = None) -> dict[str, object]:
    result = todo(*args, "--json", stdin=stdin)
    data = json.loads(result.out)
    assert isinstance(data, dict)
    data["exit"] = result.code
    return data


# -- the agent's name -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "a b", "-x", "a\nb", "x" * 65, "a/b", "é"])
def test_a_bad_agent_name_is_a_usage_error_naming_it(todo: Todo, home: Path, name: str) -> None:
    plan(todo, "A")
    before = listed(home)
    result = todo("claim", "--agent", name)
    assert result.code == 2, result
    assert "invalid agent name" in result.err
    assert "--agent" in result.err
    assert listed(home) == before


def test_the_agent_name_comes_from_todocli_agent_too(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan(todo, "A")
    monkeypatch.setenv("TODOCLI_AGENT", "worker-1")
    assert todo("claim").out == "#1 [/] A (owner: worker-1)\n"
    monkeypatch.setenv("TODOCLI_AGENT", "bad name")
    result = todo("show")
    assert result.code == 2
    assert "TODOCLI_AGENT" in result.err


def test_claim_without_an_agent_is_a_usage_error(todo: Todo) -> None:
    plan(todo, "A")
    result = todo("claim")
    assert result.code == 2
    assert "--agent NAME or TODOCLI_AGENT" in result.err


# -- claim -------------------------------------------------------------------------------------


def test_claim_takes_the_first_free_task_and_writes_the_owner(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B", "C")
    assert todo("claim", "--agent", "a").out == "#1 [/] A (owner: a)\n"
    assert todo("--agent", "b", "claim").out == "#2 [/] B (owner: b)\n"
    assert listed(home) == (
        "# Todos\n- [/] A <!-- owner: a -->\n- [/] B <!-- owner: b -->\n- [ ] C\n"
    )
    shown = todo("show").out
    assert "  #1 [/] A (owner: a)\n  #2 [/] B (owner: b)\n  #3 [ ] C\n" in shown


def test_claim_json_is_the_task_object_in_the_envelope(todo: Todo) -> None:
    plan(todo, "A", "B")
    data = envelope(todo, "claim", "--agent", "a")
    assert data["exit"] == 0
    assert data["status"] == "success"
    task = data["data"]["task"]  # type: ignore[index]
    assert task["content"] == "A"
    assert task["owner"] == "a"
    assert task["status"] == "in_progress"
    assert task["n"] == 1
    assert data["changes"]["released"] == []  # type: ignore[index]


def test_claim_again_gives_back_the_agents_own_claim(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B")
    todo("claim", "--agent", "a")
    before = listed(home)
    assert todo("claim", "--agent", "a").out == "#1 [/] A (owner: a)\n"
    assert listed(home) == before


def test_a_named_claim_takes_that_task(todo: Todo) -> None:
    plan(todo, "A", "B", "C")
    assert todo("claim", "#3", "--agent", "a").out == "#3 [/] C (owner: a)\n"
    assert todo("claim", "B", "--agent", "b").out == "#2 [/] B (owner: b)\n"


def test_a_task_another_agent_holds_cannot_be_claimed(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B")
    todo("claim", "--agent", "a")
    before = listed(home)
    result = todo("claim", "A", "--agent", "b")
    assert result.code == 1
    assert 'Task "A" is claimed by agent "a"' in result.err
    result = todo("start", "A", "--agent", "b")
    assert result.code == 1
    assert 'claimed by agent "a"' in result.err
    assert listed(home) == before


def test_nothing_to_claim_says_done_claimed_or_waiting(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B")
    todo("add", "C", "--after", "#1", "--agent", "lead")
    todo("claim", "--agent", "a")
    todo("claim", "--agent", "b")
    before = listed(home)
    result = todo("claim", "--agent", "c")
    assert result.code == 1
    assert result.err == (
        "todo: Nothing to claim: 2 tasks are claimed (#1 by a, #2 by b); "
        "1 task is waiting (#3 on #1)\n"
    )
    assert listed(home) == before
    todo("done", "--agent", "a")
    todo("done", "--agent", "b")
    assert todo("claim", "--agent", "c").out == "#3 [/] C (owner: c)\n"
    todo("done", "--agent", "c", "--keep")
    result = todo("claim", "--agent", "c", "--file", str(home / "none.md"))
    assert result.code == 1
    assert "the list is empty" in result.err


def test_nothing_to_claim_when_every_task_is_done(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [x] A\n- [-] B\n")
    result = todo("claim", "--agent", "a", "--file", str(path))
    assert result.code == 1
    assert "Nothing to claim: every task is done" in result.err


def test_a_claim_of_a_closed_blocked_or_waiting_task_is_refused(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [x] A\n- [!] B\n- [ ] C <!-- id: 1 -->\n- [ ] D <!-- blocked-by: 1 -->\n")
    before = path.read_bytes()
    for task, message in [
        ("A", 'Task "A" is completed'),
        ("B", 'Task "B" is blocked'),
        ("D", 'Task "D" is waiting on #3 "C"'),
    ]:
        result = todo("claim", task, "--agent", "a", "--file", str(path))
        assert result.code == 1, task
        assert message in result.err
    assert path.read_bytes() == before


# -- one in progress per agent -----------------------------------------------------------------


def test_done_and_drop_without_a_task_act_on_the_agents_own_claim(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B", "C")
    todo("claim", "--agent", "a")
    todo("claim", "--agent", "b")
    assert todo("done", "--agent", "b").out.startswith("Completed: B\n")
    assert todo("drop", "--agent", "a").out.startswith("Abandoned: A\n")
    # Nothing started by itself for an agent; the finished tasks keep who did them.
    assert listed(home) == (
        "# Todos\n- [-] A <!-- owner: a -->\n- [x] B <!-- owner: b -->\n- [ ] C\n"
    )
    result = todo("done", "--agent", "a")
    assert result.code == 1
    assert 'Agent "a" holds no task in progress' in result.err


def test_an_agents_start_demotes_only_its_own_task(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B", "C")
    todo("claim", "--agent", "a")
    todo("claim", "--agent", "b")
    out = todo("start", "C", "--agent", "a").out
    assert out.startswith("Started: C\nBack to pending: A\n")
    assert listed(home) == (
        "# Todos\n- [ ] A\n- [/] B <!-- owner: b -->\n- [/] C <!-- owner: a -->\n"
    )


def test_an_agent_closing_a_task_by_name_becomes_its_owner(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B")
    todo("done", "B", "--agent", "a")
    assert "- [x] B <!-- owner: a -->\n" in listed(home)


def test_without_an_agent_the_one_in_progress_rule_is_todays(todo: Todo, home: Path) -> None:
    todo("init", "A", "B", "C")
    assert listed(home) == "# Todos\n- [/] A\n- [ ] B\n- [ ] C\n"
    todo("start", "C")
    todo("done")
    assert listed(home) == "# Todos\n- [/] A\n- [ ] B\n- [x] C\n"


def test_an_owner_typed_by_hand_is_read_and_kept(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [/] A <!-- owner: alice -->\n- [ ] B\n")
    assert "#1 [/] A (owner: alice)" in todo("show", "--file", str(path)).out
    todo("done", "B", "--file", str(path))
    assert path.read_text() == "- [/] A <!-- owner: alice -->\n- [x] B\n"
    data = envelope(todo, "show", "--file", str(path))
    assert data["data"]["todos"][0]["owner"] == "alice"  # type: ignore[index]


# -- stop gate -------------------------------------------------------------------------------------


def test_check_for_an_agent_is_its_own_stop_gate(todo: Todo) -> None:
    plan(todo, "A", "B")
    todo("claim", "--agent", "a")
    held = todo("check", "--agent", "a")
    assert held.code == 1
    assert held.out.startswith('Open tasks of agent "a" (1):\n  - A [in_progress] (Todos)\n')
    free = todo("check", "--agent", "b")
    assert free.code == 0
    assert free.out.startswith('Agent "b" holds nothing open.\n')
    assert todo("check").code == 1  # plain check: open tasks remain
    data = envelope(todo, "check", "--agent", "a")
    assert data["exit"] == 1
    assert data["error"]["code"] == "OPEN_TASKS"  # type: ignore[index]
    assert data["error"]["message"] == 'agent "a" holds 1 open task'  # type: ignore[index]


# -- dependencies -------------------------------------------------------------------------------


def test_after_gives_the_referenced_task_the_next_free_id(todo: Todo, home: Path) -> None:
    todo("init", "A", "B", "--agent", "lead")
    todo("add", "C", "--after", "#2", "--after", "A", "--agent", "lead")
    assert listed(home) == (
        "# Todos\n- [ ] A <!-- id: 2 -->\n- [ ] B <!-- id: 1 -->\n"
        "- [ ] C <!-- blocked-by: 1, 2 -->\n"
    )
    shown = todo("show").out
    assert "  #3 [ ] C (waiting on #1, #2)\n" in shown
    data = envelope(todo, "show")
    assert data["data"]["todos"][2]["waiting_on"] == [1, 2]  # type: ignore[index]
    assert data["data"]["todos"][2]["blocked_by"] == ["1", "2"]  # type: ignore[index]


def test_a_waiting_task_is_not_started_by_itself(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [/] X\n- [ ] C <!-- blocked-by: 2 -->\n- [ ] B <!-- id: 2 -->\n")
    todo("done", "X", "--file", str(path))
    assert path.read_text() == "- [x] X\n- [ ] C <!-- blocked-by: 2 -->\n- [/] B <!-- id: 2 -->\n"
    todo("done", "B", "--file", str(path))
    assert path.read_text() == "- [x] X\n- [/] C <!-- blocked-by: 2 -->\n- [x] B <!-- id: 2 -->\n"


def test_after_an_unknown_task_is_an_error_and_writes_nothing(todo: Todo, home: Path) -> None:
    plan(todo, "A")
    before = listed(home)
    result = todo("add", "B", "--after", "#7")
    assert result.code == 1
    assert 'Task "#7" not found' in result.err
    assert listed(home) == before


def test_a_dependency_cycle_is_an_error_and_writes_nothing(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [ ] A <!-- id: 1; blocked-by: 2 -->\n- [ ] B <!-- id: 2 -->\n")
    before = path.read_bytes()
    payload = {"merge": True, "todos": [{"id": "2", "blockedBy": ["1"]}]}
    result = todo("apply", "--file", str(path), stdin=json.dumps(payload))
    assert result.code == 1, result
    assert 'Dependency cycle: "A" -> "B" -> "A"' in result.err
    assert path.read_bytes() == before


def test_a_dependency_on_an_id_nobody_has_is_an_error(todo: Todo, tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [ ] A <!-- id: 1 -->\n")
    before = path.read_bytes()
    payload = {"todos": [{"id": "1", "content": "A", "status": "pending", "blockedBy": ["9"]}]}
    result = todo("apply", "--file", str(path), stdin=json.dumps(payload))
    assert result.code == 1, result
    assert 'depends on task id "9", which no task has' in result.err
    assert path.read_bytes() == before


def test_the_engine_checks_only_dependencies_a_batch_adds() -> None:
    """A finished dependency cleared away leaves an id nobody has: no error then."""
    doc = parse("- [ ] B <!-- blocked-by: 1 -->\n")
    result, _ = apply(doc, Batch((Op(OpKind.APPEND, phase="Todos", items=("C",)),), Settings()))
    assert result.ok


# -- the claim op of todo apply ------------------------------------------------------------


def test_a_claim_op_finishes_one_task_and_takes_the_next_in_one_write(
    todo: Todo, home: Path
) -> None:
    plan(todo, "A", "B", "C")
    todo("claim", "--agent", "a")
    batch = {"ops": [{"op": "done", "task": "A"}, {"op": "claim"}]}
    result = todo("apply", "--agent", "a", stdin=json.dumps(batch))
    assert result.code == 0, result
    # Reported as a batch: every change, then the list (not a claim's one line).
    assert result.out.startswith("Completed: A\nStarted: B\n")
    assert listed(home) == (
        "# Todos\n- [x] A <!-- owner: a -->\n- [/] B <!-- owner: a -->\n- [ ] C\n"
    )
    data = envelope(todo, "apply", "--agent", "b", stdin=json.dumps({"ops": [{"op": "claim"}]}))
    assert data["exit"] == 0
    assert data["data"]["task"]["content"] == "C"  # type: ignore[index]
    assert data["data"]["task"]["owner"] == "b"  # type: ignore[index]


def test_a_claim_op_without_an_agent_writes_nothing(todo: Todo, home: Path) -> None:
    plan(todo, "A")
    before = listed(home)
    result = todo("apply", stdin=json.dumps({"ops": [{"op": "claim"}]}))
    assert result.code == 1
    assert "ops[0]: todo claim needs an agent name" in result.err
    assert listed(home) == before


def test_a_claim_op_takes_a_task_and_nothing_else(todo: Todo, home: Path) -> None:
    plan(todo, "A", "B")
    before = listed(home)
    bad = {"ops": [{"op": "claim", "phase": "Todos"}]}
    result = todo("apply", "--agent", "a", stdin=json.dumps(bad))
    assert result.code == 1
    assert 'unknown key "phase" for op "claim" (task)' in result.err
    assert listed(home) == before
    named = {"ops": [{"op": "claim", "task": "#2"}]}
    assert todo("apply", "--agent", "a", "-q", stdin=json.dumps(named)).code == 0
    assert "- [/] B <!-- owner: a -->" in listed(home)


# -- stale claims -----------------------------------------------------------------------------


def test_a_stale_claim_is_released_by_the_next_claim_and_reported(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_NOW", NOW)
    plan(todo, "A")
    todo("claim", "--agent", "a")
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-22T12:29:00")
    result = todo("claim", "--agent", "b")  # a wrote 29 minutes ago: still live
    assert result.code == 1
    assert "1 task is claimed (#1 by a)" in result.err
    monkeypatch.setenv("TODOCLI_NOW", LATER)
    result = todo("claim", "--agent", "b")
    assert result.code == 0
    assert result.out == 'Released: "A" (agent a idle 31 min)\n#1 [/] A (owner: b)\n'
    assert listed(home) == "# Todos\n- [/] A <!-- owner: b -->\n"


def test_the_release_is_a_json_field(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text('claim_timeout = "5m"\n')
    monkeypatch.setenv("TODOCLI_NOW", NOW)
    plan(todo, "A", "B")
    todo("claim", "--agent", "a")
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-22T12:06:00")
    data = envelope(todo, "claim", "A", "--agent", "b")
    assert data["exit"] == 0
    assert data["changes"]["released"] == [  # type: ignore[index]
        {"content": "A", "owner": "a", "idle_seconds": 360.0}
    ]


def test_an_agents_writes_keep_its_claim_live(todo: Todo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TODOCLI_NOW", NOW)
    plan(todo, "A", "B")
    todo("claim", "--agent", "a")
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-22T12:20:00")
    assert todo("note", "A", "half way", "--agent", "a").code == 0
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-22T12:40:00")
    result = todo("claim", "A", "--agent", "b")
    assert result.code == 1  # a wrote 20 minutes ago
    assert 'claimed by agent "a"' in result.err


def test_an_owner_typed_by_hand_gets_the_timeout_from_when_it_is_first_seen(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "TODO.md"
    path.write_text("- [/] A <!-- owner: alice -->\n- [ ] B\n")
    monkeypatch.setenv("TODOCLI_NOW", NOW)
    assert todo("claim", "--agent", "b", "--file", str(path)).out == "#2 [/] B (owner: b)\n"
    monkeypatch.setenv("TODOCLI_NOW", LATER)
    result = todo("claim", "A", "--agent", "c", "--file", str(path))
    assert result.out.startswith('Released: "A" (agent alice idle 31 min)\n')


@pytest.mark.parametrize(
    ("value", "seconds"), [("90", 90.0), ("90s", 90.0), ("30m", 1800.0), ("2h", 7200.0)]
)
def test_claim_timeout_takes_seconds_or_a_duration(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, value: str, seconds: float
) -> None:
    monkeypatch.setenv("TODOCLI_CLAIM_TIMEOUT", value)
    data = json.loads(todo("config", "--json").out)
    assert data["data"]["settings"]["claim_timeout"]["value"] == seconds


@pytest.mark.parametrize("value", ["soon", "-1m", "nan", "5x"])
def test_a_bad_claim_timeout_is_a_usage_error(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TODOCLI_CLAIM_TIMEOUT", value)
    result = todo("show")
    assert result.code == 2
    assert "claim_timeout must be" in result.err


def test_an_id_after_gives_is_above_every_id_the_list_ever_had(todo: Todo, home: Path) -> None:
    for subject in ("One", "Two", "Three"):  # Claude Code's TaskCreate: ids 1, 2, 3
        assert todo("apply", stdin=json.dumps({"subject": subject, "description": "d"})).code == 0
    assert todo("apply", stdin=json.dumps({"taskId": "3", "status": "deleted"})).code == 0
    todo("add", "Plain", "-q")
    todo("add", "Later", "--after", "Plain", "-q")
    text = listed(home)
    assert "Plain <!-- id: 4 -->" in text  # not 3, which Three had
    assert "Later <!-- blocked-by: 4 -->" in text
    # And the next task an agent's tool creates is numbered above it.
    todo("apply", stdin=json.dumps({"subject": "Four", "description": "d"}))
    assert "Four <!-- id: 5 -->" in listed(home)


def test_an_agents_snapshot_does_not_count_another_agents_claim(todo: Todo, home: Path) -> None:
    # Agent b holds A; agent a's TodoWrite carries A in progress as it is in the file
    # and starts B: one task in progress each, within the rule of each agent.
    plan(todo, "A", "B", "C")
    assert todo("claim", "--agent", "b", "-q").code == 0
    snapshot = {
        "todos": [
            {"content": "A", "status": "in_progress", "activeForm": "Doing A"},
            {"content": "B", "status": "in_progress", "activeForm": "Doing B"},
            {"content": "C", "status": "pending", "activeForm": "Doing C"},
        ]
    }
    result = todo("apply", "--agent", "a", stdin=json.dumps(snapshot))
    assert result.code == 0, result
    text = listed(home)
    assert "- [/] A" in text
    assert "owner: b" in text.split("- [/] A", 1)[1].split("\n", 1)[0]
    assert "- [/] B" in text
    # Without an agent name the list-wide rule stands, as before.
    snapshot["todos"][2]["status"] = "in_progress"
    refused = todo("apply", stdin=json.dumps(snapshot))
    assert refused.code == 1
    assert "can be in_progress at a time" in refused.out + refused.err
    # Two of agent a's own are still one too many.
    again = todo("apply", "--agent", "a", stdin=json.dumps(snapshot))
    assert again.code == 1
