"""A snapshot removes only what its sender has seen (issue 22): the tasks of its own
earlier snapshots and of a list it read under its name. Every other task stays,
with its notes, the agent's first snapshot included; closed tasks a snapshot
leaves out go to the completion log, once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support_cli import Todo


def listing(home: Path, session: str = "default") -> Path:
    return home / "sessions" / f"{session}.md"


def todo_write(*tasks: tuple[str, str]) -> str:
    """Claude Code's TodoWrite payload."""
    return json.dumps(
        {"todos": [{"content": c, "status": s, "activeForm": f"Doing {c}"} for c, s in tasks]}
    )


def codex_plan(*tasks: tuple[str, str]) -> str:
    """Codex's update_plan payload."""
    return json.dumps({"plan": [{"step": c, "status": s} for c, s in tasks]})


def hook(*tasks: tuple[str, str]) -> str:
    """Claude Code's PostToolUse hook on TodoWrite."""
    return json.dumps(
        {
            "session_id": "s1",
            "hook_event_name": "PostToolUse",
            "tool_name": "TodoWrite",
            "tool_input": json.loads(todo_write(*tasks)),
        }
    )


def logs(home: Path) -> str:
    folder = home / "memory" / "todos"
    return "".join(p.read_text() for p in sorted(folder.glob("*.md"))) if folder.is_dir() else ""


HAND = "# Todos\n- [ ] typed by hand\n  > a note the person wrote\n- [x] done by hand\n"


# -- the first snapshot of an agent --------------------------------------------------------------


def test_a_first_todowrite_keeps_the_tasks_a_person_typed(todo: Todo, home: Path) -> None:
    path = listing(home)
    path.parent.mkdir(parents=True)
    path.write_text(HAND)
    run = todo("apply", stdin=todo_write(("Agent task", "in_progress")))
    assert run.code == 0, run.err
    text = path.read_text()
    assert "- [ ] typed by hand\n  > a note the person wrote\n" in text, "hand task and note stay"
    assert "- [x] done by hand\n" in text, "a closed hand task stays too"
    assert "- [/] Agent task" in text
    assert logs(home) == "", "nothing left the list: nothing logged"
    assert "logged" not in run.out


def test_a_named_agents_first_snapshot_keeps_what_others_added_by_command(
    todo: Todo, home: Path
) -> None:
    assert todo("--agent", "two", "add", "Two's task").code == 0
    assert todo("--agent", "two", "note", "Two's task", "two's note").code == 0
    assert todo("add", "Person's task").code == 0
    run = todo("--agent", "one", "apply", stdin=todo_write(("One's task", "pending")))
    assert run.code == 0, run.err
    text = listing(home).read_text()
    assert "Two's task\n  > two's note\n" in text, "another agent's task keeps its note"
    assert "- [ ] Person's task\n" in text
    assert "One's task" in text


def test_an_unnamed_agents_first_snapshot_keeps_what_commands_added(todo: Todo, home: Path) -> None:
    assert todo("add", "Added with a command").code == 0
    assert todo("note", "Added with a command", "its note").code == 0
    assert todo("apply", stdin=todo_write(("Agent task", "pending"))).code == 0
    assert "Added with a command\n  > its note\n" in listing(home).read_text()


def test_a_first_codex_plan_keeps_the_tasks_a_person_typed(todo: Todo, home: Path) -> None:
    path = listing(home)
    path.parent.mkdir(parents=True)
    path.write_text(HAND)
    run = todo("--agent", "codex", "apply", stdin=codex_plan(("Step one", "in_progress")))
    assert run.code == 0, run.err
    text = path.read_text()
    assert "- [ ] typed by hand\n  > a note the person wrote\n" in text
    assert "- [/] Step one" in text


def test_a_first_todowrite_through_the_hook_keeps_the_tasks_a_person_typed(
    todo: Todo, home: Path
) -> None:
    path = listing(home, "s1")
    path.parent.mkdir(parents=True)
    path.write_text(HAND)
    run = todo("apply", stdin=hook(("Agent task", "in_progress")))
    assert run.code == 0, run.err
    text = path.read_text()
    assert "- [ ] typed by hand\n  > a note the person wrote\n" in text
    assert "- [/] Agent task" in text


def test_a_first_snapshot_still_keeps_a_status_a_person_set(todo: Todo, home: Path) -> None:
    """With no view on record, the tasks the agent sends are taken as it knew them
    when todo last wrote them: a status set by hand since stays."""
    assert todo("--agent", "two", "add", "A", "B").code == 0
    path = listing(home)
    path.write_text(path.read_text().replace("- [ ] A", "- [x] A"))
    run = todo("--agent", "one", "apply", stdin=todo_write(("A", "pending"), ("B", "pending")))
    assert run.code == 0, run.err
    assert "- [x] A " in path.read_text()


# -- what counts as seen ---------------------------------------------------------------------------


def test_a_snapshot_removes_the_tasks_it_sent_before(todo: Todo, home: Path) -> None:
    assert todo("apply", stdin=todo_write(("A", "pending"), ("B", "pending"))).code == 0
    assert todo("apply", stdin=todo_write(("A", "pending"))).code == 0
    assert "B" not in listing(home).read_text()


@pytest.mark.parametrize("found", ["a file todo never wrote", "a hand edit"])
def test_a_snapshot_that_changed_nothing_still_counts_as_seen(
    todo: Todo, home: Path, found: str
) -> None:
    """A snapshot that sends the list exactly as it is writes nothing; the agent has
    seen what it sent all the same (not the revision before it, which does not hold
    that list): its next snapshot, leaving B out, removes B."""

    def plain(*names: str) -> str:  # no activeForm: nothing but the list to write
        return json.dumps({"todos": [{"content": n, "status": "pending"} for n in names]})

    path = listing(home)
    if found == "a hand edit":
        assert todo("add", "A").code == 0
        path.write_text("# Todos\n- [ ] A\n- [ ] B\n")
    else:
        path.parent.mkdir(parents=True)
        path.write_text("# Todos\n- [ ] A\n- [ ] B\n")
    same = todo("--agent", "x", "apply", stdin=plain("A", "B"))
    assert same.code == 0
    assert path.read_text() == "# Todos\n- [ ] A\n- [ ] B\n"  # nothing to write
    assert todo("--agent", "x", "apply", stdin=plain("A")).code == 0
    assert path.read_text() == "# Todos\n- [ ] A\n"


def test_a_list_read_under_the_agents_name_is_seen(todo: Todo, home: Path) -> None:
    """`todo show` (plain or --json) with the agent's name: what it showed, the
    agent's next snapshot may remove."""
    for show in (("show",), ("--json", "show")):
        assert todo("add", "Read by the agent").code == 0
        assert todo("--agent", "one", *show).code == 0
        run = todo("--agent", "one", "apply", stdin=todo_write(("One's task", "pending")))
        assert run.code == 0, run.err
        assert "Read by the agent" not in listing(home).read_text(), show


def test_a_read_through_apply_is_seen_but_a_hooks_read_is_not(todo: Todo, home: Path) -> None:
    """OpenHands' `{"command": "view"}` piped to `todo apply` answers the agent
    with the list: seen. The same read through a hook answers a harness the model
    never hears from: not seen."""
    view = json.dumps({"command": "view"})
    assert todo("add", "Read through apply").code == 0
    assert todo("--agent", "one", "apply", stdin=view).code == 0
    assert todo("--agent", "one", "apply", stdin=todo_write(("One's", "pending"))).code == 0
    assert "Read through apply" not in listing(home).read_text()
    session = listing(home, "s1")
    session.parent.mkdir(parents=True, exist_ok=True)
    session.write_text("# Todos\n- [ ] Person's task\n")
    read = {"session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "TodoRead"}
    assert todo("--agent", "one", "apply", stdin=json.dumps(read | {"tool_input": {}})).code == 0
    assert todo("--agent", "one", "apply", stdin=hook(("One's", "pending"))).code == 0
    assert "- [ ] Person's task\n" in session.read_text()


def test_a_list_read_without_a_name_is_seen_by_no_agent(todo: Todo, home: Path) -> None:
    """A plain `todo show` may be the person's own look: it makes no task removable."""
    assert todo("apply", stdin=todo_write(("Agent task", "pending"))).code == 0
    assert todo("add", "Person's task").code == 0
    assert todo("show").code == 0
    assert todo("apply", stdin=todo_write(("Agent task", "completed"))).code == 0
    assert "- [ ] Person's task\n" in listing(home).read_text()


def test_the_stop_gate_is_not_a_read_of_the_list(todo: Todo, home: Path) -> None:
    """`todo check` tells an agent its open tasks, not the list: nothing it makes
    removable."""
    assert todo("--agent", "one", "apply", stdin=todo_write(("One's", "pending"))).code == 0
    assert todo("add", "Person's task").code == 0
    assert todo("--agent", "one", "check").code in (0, 1)
    assert todo("--agent", "one", "apply", stdin=todo_write(("One's", "completed"))).code == 0
    assert "Person's task\n" in listing(home).read_text()


def test_a_read_under_another_name_is_not_seen_by_this_agent(todo: Todo, home: Path) -> None:
    assert todo("add", "Person's task").code == 0
    assert todo("--agent", "two", "show").code == 0
    assert todo("--agent", "one", "apply", stdin=todo_write(("One's", "pending"))).code == 0
    assert "Person's task\n" in listing(home).read_text()


def test_the_reply_of_a_write_does_not_make_other_tasks_seen(todo: Todo, home: Path) -> None:
    """The reply of a write lists the whole list, but only what the agent sent
    counts as seen: each agent's later snapshots keep the others' tasks."""
    assert todo("add", "Person's task").code == 0
    assert todo("--agent", "one", "--json", "apply", stdin=todo_write(("A", "pending"))).code == 0
    assert todo("--agent", "one", "apply", stdin=todo_write(("A", "completed"))).code == 0
    assert todo("--agent", "one", "apply", stdin=todo_write(("A", "completed"))).code == 0
    assert "Person's task\n" in listing(home).read_text()


def test_a_read_does_not_bring_back_a_task_the_person_removed(todo: Todo, home: Path) -> None:
    """A read adds to what the agent has seen: a task it sent before and the person
    removed since stays removed when the agent sends it again unchanged."""
    assert todo("--agent", "one", "apply", stdin=todo_write(("A", "pending"), ("B", "pending")))
    path = listing(home)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not line.startswith("- [ ] B ")))
    assert todo("--agent", "one", "show").code == 0
    run = todo("--agent", "one", "apply", stdin=todo_write(("A", "pending"), ("B", "pending")))
    assert run.code == 0, run.err
    assert "B" not in path.read_text()


# -- closed tasks that leave go to the completion log ------------------------------------------


def test_an_empty_todowrite_logs_the_completed_tasks_it_removes(todo: Todo, home: Path) -> None:
    """The tester's case: three completed tasks and a person's pending one; an empty
    TodoWrite removes the three (the agent sent them) and logs them, once."""
    assert todo("apply", stdin=todo_write(("A", "in_progress"), ("B", "pending"), ("C", "pending")))
    path = listing(home)
    path.write_text(path.read_text() + "- [ ] Person's task\n")
    done = todo_write(("A", "completed"), ("B", "completed"), ("C", "completed"))
    assert todo("apply", stdin=done).code == 0
    assert logs(home) == "", "the person's pending task keeps the list unfinished"
    run = todo("apply", stdin=json.dumps({"todos": []}))
    assert run.code == 0, run.err
    assert path.read_text() == "# Todos\n- [ ] Person's task\n"
    log = logs(home)
    assert "Completed:\n- A\n- B\n- C\n" in log, log
    assert "Person's task" not in log
    assert "logged to" in run.out
    assert todo("apply", stdin=json.dumps({"todos": []})).code == 0
    assert logs(home) == log, "logged exactly once"


def test_a_finished_list_logged_already_is_not_logged_again_when_it_leaves(
    todo: Todo, home: Path, tmp_path: Path
) -> None:
    """A --file list is not wiped when finished; it is logged then, and its tasks
    leaving later are not logged a second time."""
    path = tmp_path / "TODO.md"
    assert todo("--file", str(path), "apply", stdin=todo_write(("A", "in_progress"))).code == 0
    assert todo("--file", str(path), "apply", stdin=todo_write(("A", "completed"))).code == 0
    once = logs(home)
    assert once.count("- A\n") == 1
    assert todo("--file", str(path), "apply", stdin=todo_write(("B", "pending"))).code == 0
    assert "A" not in path.read_text()
    assert logs(home) == once


def test_a_closed_task_left_out_and_a_finishing_list_log_one_block(todo: Todo, home: Path) -> None:
    assert todo("apply", stdin=todo_write(("A", "completed"), ("B", "in_progress"))).code == 0
    assert todo("apply", stdin=todo_write(("B", "completed"))).code == 0
    log = logs(home)
    assert log.count("# task") == 1, log
    assert "Completed:\n- A\n- B\n" in log, log


# -- the property ----------------------------------------------------------------------------------

NAMES = ["P1", "P2", "P3", "Q1", "Q2"]  # P: typed by hand; Q: added with a command
AGENT_TASKS = ["a", "b", "c"]

step = st.one_of(
    st.tuples(st.just("hand"), st.sampled_from(["P1", "P2", "P3"])),
    st.tuples(st.just("add"), st.sampled_from(["Q1", "Q2"])),
    st.tuples(
        st.just("snapshot"),
        st.sampled_from([None, "one", "two"]),
        st.lists(
            st.tuples(
                st.sampled_from(AGENT_TASKS),
                st.sampled_from(["pending", "in_progress", "completed"]),
            ),
            max_size=3,
            unique_by=lambda t: t[0],
        ),
    ),
    st.tuples(st.just("done"), st.sampled_from(NAMES)),
    st.tuples(st.just("note"), st.sampled_from(NAMES)),
    st.tuples(st.just("read"), st.sampled_from(["one", "two"])),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=7))
def test_no_task_a_person_added_is_lost_unless_an_agent_that_saw_it_removed_it(
    todo: Todo, tmp_path_factory: object, steps: list[tuple[object, ...]]
) -> None:
    """Any interleaving of hand edits (direct writes adding tasks), commands (add,
    done, note, show under a name) and snapshots under no name or one of two names
    (first ones included): a task a person added is in the list, with its notes,
    unless an agent that had read it left it out."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "TODO.md"
        path.write_text("")
        f = ("--file", str(path))
        seen: dict[str | None, set[str]] = {None: set(), "one": set(), "two": set()}
        present: set[str] = set()  # the person's tasks that must be there
        noted: set[str] = set()  # ... and those of them that have a note
        for move in steps:
            kind = move[0]
            if kind == "hand":
                name = str(move[1])
                text = path.read_text()
                if not _holds(text, name):
                    gap = "\n" if text and not text.endswith("\n") else ""
                    path.write_text(f"{text}{gap}- [ ] {name}\n")
                    present.add(name)
            elif kind == "add":
                name = str(move[1])
                if not _holds(path.read_text(), name):
                    assert todo(*f, "add", name).code == 0
                    present.add(name)
            elif kind == "done":
                todo(*f, "done", str(move[1]))
            elif kind == "note":
                name = str(move[1])
                if name in present and todo(*f, "note", name, f"note of {name}").code == 0:
                    noted.add(name)
            elif kind == "read":
                reader = str(move[1])
                assert todo(*f, "--agent", reader, "show").code == 0
                seen[reader] |= present
            else:
                sender = None if move[1] is None else str(move[1])
                tasks = move[2]
                assert isinstance(tasks, list)
                named = ("--agent", sender) if sender is not None else ()
                run = todo(*f, *named, "apply", stdin=todo_write(*tasks))
                assert run.code in (0, 1), run.err
                if run.code == 0:
                    present -= seen[sender]  # what it saw it may remove
                    seen[sender] = set()  # its view is its snapshot now
            noted &= present
            text = path.read_text()
            for name in present:
                assert _holds(text, name), (name, steps, text)
            for name in noted:
                assert f"> note of {name}\n" in text, (name, steps, text)


def _holds(text: str, name: str) -> bool:
    """Whether the file holds a task of this text (in a file that never used [/],
    one in progress keeps its state in a hidden comment after its text)."""
    return f"] {name}\n" in text or f"] {name} <!-- state: " in text
