"""A snapshot merged three ways with a person's edits made since its base revision:
one test per rule, the `--base` option, and a property over random edits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support_cli import Run, Todo, todo_process


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def snapshot(*tasks: tuple[str, str]) -> str:
    return json.dumps({"todos": [{"content": c, "status": s} for c, s in tasks]})


def by_hand(home: Path, old: str, new: str) -> None:
    path = listing(home)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def merged(run: Run) -> list[dict[str, object]]:
    """``changes.merged`` without who made each change (tests/test_attribution.py)."""
    return [
        {k: v for k, v in m.items() if k != "by"} for m in json.loads(run.out)["changes"]["merged"]
    ]


def start(todo: Todo) -> None:
    assert todo("apply", stdin=snapshot(("A", "in_progress"), ("B", "pending"), ("C", "pending")))
    # The agent's view from here on is this list, at revision 1.


def test_a_task_added_by_hand_stays_where_it_is(todo: Todo, home: Path) -> None:
    start(todo)
    by_hand(home, "- [ ] B\n", "- [ ] B\n- [ ] typed by hand\n  > with a note\n")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")),
    )
    assert run.code == 0
    assert listing(home).read_text() == (
        "# Todos\n- [x] A\n- [/] B\n- [ ] typed by hand\n  > with a note\n- [ ] C\n"
    )
    assert merged(run) == [
        {"kind": "added_by_hand", "content": "typed by hand", "status": "pending"}
    ]
    assert json.loads(run.out)["changes"]["dropped_open"] == []
    plain = todo(
        "apply", stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    )
    assert "Merged" not in plain.out  # the hand edit is known now: nothing left to merge


def test_a_status_set_by_hand_stays_when_the_snapshot_did_not_change_it(
    todo: Todo, home: Path
) -> None:
    start(todo)
    by_hand(home, "- [ ] C\n", "- [x] C\n")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")),
    )
    assert "- [x] C\n" in listing(home).read_text()
    assert merged(run) == [{"kind": "status_by_hand", "content": "C", "status": "completed"}]
    assert 'kept "C" completed (set by hand)' in json.loads(run.out)["text"]


def test_when_both_change_a_status_the_snapshot_wins_and_says_so(todo: Todo, home: Path) -> None:
    start(todo)
    by_hand(home, "- [ ] C\n", "- [-] C\n")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "in_progress"), ("B", "pending"), ("C", "completed")),
    )
    assert "- [x] C\n" in listing(home).read_text()
    assert merged(run) == [{"kind": "conflict", "content": "C", "status": "completed"}]
    envelope = json.loads(run.out)
    assert envelope["changes"]["hand_edit"]["overridden"] == ["C"]
    assert "(over a hand edit)" in envelope["text"]


def test_a_task_removed_by_hand_is_not_brought_back(todo: Todo, home: Path) -> None:
    start(todo)
    by_hand(home, "- [ ] B\n", "")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "completed"), ("B", "pending"), ("C", "in_progress")),
    )
    assert listing(home).read_text() == "# Todos\n- [x] A\n- [/] C\n"
    assert merged(run) == [{"kind": "removed_by_hand", "content": "B", "status": None}]


def test_a_task_renamed_by_hand_is_not_brought_back_under_its_old_name(
    todo: Todo, home: Path
) -> None:
    start(todo)
    by_hand(home, "- [ ] B\n", "- [ ] B, better worded\n")
    todo("apply", stdin=snapshot(("A", "completed"), ("B", "pending"), ("C", "in_progress")))
    assert listing(home).read_text() == "# Todos\n- [x] A\n- [ ] B, better worded\n- [/] C\n"


def test_a_task_removed_by_hand_but_changed_by_the_agent_comes_back_as_a_conflict(
    todo: Todo, home: Path
) -> None:
    start(todo)
    by_hand(home, "- [ ] B\n", "")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")),
    )
    assert "- [/] B\n" in listing(home).read_text()
    assert merged(run) == [{"kind": "conflict", "content": "B", "status": "in_progress"}]


def test_a_task_started_by_hand_gives_way_to_the_agents_within_the_limit(
    todo: Todo, home: Path
) -> None:
    start(todo)
    by_hand(home, "- [ ] C\n", "- [/] C\n")
    run = todo(
        "--json",
        "apply",
        stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")),
    )
    assert run.code == 0, run.err
    assert listing(home).read_text() == "# Todos\n- [x] A\n- [/] B\n- [ ] C\n"
    assert merged(run) == [{"kind": "conflict", "content": "C", "status": "pending"}]


def test_free_text_and_notes_stay(todo: Todo, home: Path) -> None:
    start(todo)
    by_hand(home, "# Todos\n", "# Todos\n\nSome context a person wrote.\n\n")
    by_hand(home, "- [ ] B\n", "- [ ] B\n  > a note by hand\n")
    todo("apply", stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")))
    assert listing(home).read_text() == (
        "# Todos\n\nSome context a person wrote.\n\n- [x] A\n- [/] B\n  > a note by hand\n- [ ] C\n"
    )


def test_base_names_the_revision_the_snapshot_was_made_from(todo: Todo, home: Path) -> None:
    """Another agent wrote since this agent's read: with --base, its work is merged
    in rather than dropped."""
    start(todo)  # revision 1: the agent reads it
    assert todo("add", "added by another agent").code == 0  # revision 2
    assert todo("done", "A").code == 0  # revision 3
    payload = snapshot(("A", "in_progress"), ("B", "pending"), ("C", "completed"))
    run = todo("--json", "--base", "1", "apply", stdin=payload)
    assert run.code == 0, run.err
    text = listing(home).read_text()
    assert "- [x] A\n" in text  # the other write's status stays: the snapshot left A alone
    assert "- [ ] added by another agent\n" in text
    assert "- [x] C\n" in text
    assert "- [/] B\n" in text  # started by the other write, as the snapshot had it pending
    kinds = {m["content"]: m["kind"] for m in merged(run)}
    assert kinds == {
        "A": "status_by_hand",
        "B": "status_by_hand",
        "added by another agent": "added_by_hand",
    }


def test_base_of_a_revision_no_longer_kept_is_refused(todo: Todo, home: Path) -> None:
    start(todo)
    todo("add", "X")
    (home / "state" / "sessions" / "default" / "revs" / "00000001.md").unlink()
    run = todo("--base", "1", "apply", stdin=snapshot(("A", "pending")))
    assert run.code == 1
    assert "--base 1: that revision is no longer kept" in run.err


def test_without_hand_edits_a_snapshot_is_applied_as_sent(todo: Todo, home: Path) -> None:
    start(todo)
    run = todo("--json", "apply", stdin=snapshot(("A", "completed"), ("C", "in_progress")))
    assert merged(run) == []
    assert listing(home).read_text() == "# Todos\n- [x] A\n- [/] C\n"
    assert json.loads(run.out)["changes"]["dropped_open"] == ["B"]


# -- property: edits to different tasks keep both sides' changes ----------------------------

STATUSES = ["pending", "completed", "abandoned"]
MARK = {"pending": " ", "completed": "x", "abandoned": "-", "in_progress": "/"}


@st.composite
def three_sides(
    draw: st.DrawFn,
) -> tuple[list[str], dict[str, str], dict[str, str], list[str], list[str], list[str]]:
    n = draw(st.integers(4, 10))
    names = [f"t{i}" for i in range(n)]
    # Each task is touched by at most one side.
    owner = {t: draw(st.sampled_from(["none", "hand", "agent"])) for t in names}
    hand_status = {
        t: draw(st.sampled_from(STATUSES))
        for t in names
        if owner[t] == "hand" and draw(st.booleans())
    }
    hand_removed = [
        t for t in names if owner[t] == "hand" and t not in hand_status and draw(st.booleans())
    ]
    agent_status = {t: draw(st.sampled_from(STATUSES)) for t in names if owner[t] == "agent"}
    hand_added = [f"h{i}" for i in range(draw(st.integers(0, 2)))]
    agent_added = [f"a{i}" for i in range(draw(st.integers(0, 2)))]
    return names, hand_status, agent_status, hand_removed, hand_added, agent_added


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(three_sides())
def test_edits_to_different_tasks_keep_both_sides_changes(
    todo: Todo,
    home: Path,
    sides: tuple[list[str], dict[str, str], dict[str, str], list[str], list[str], list[str]],
) -> None:
    names, hand_status, agent_status, hand_removed, hand_added, agent_added = sides
    path = listing(home)
    if path.exists():
        path.unlink()
    for rev in (home / "state").rglob("*.md"):
        rev.unlink()
    base = [(t, "pending") for t in names]
    assert todo("--keep", "apply", stdin=snapshot(*base)).code == 0
    # The person's edits.
    text = path.read_text()
    for t, status in hand_status.items():
        text = text.replace(f"- [ ] {t}\n", f"- [{MARK[status]}] {t}\n")
    for t in hand_removed:
        text = text.replace(f"- [ ] {t}\n", "")
    text += "".join(f"- [ ] {h}\n" for h in hand_added)
    path.write_text(text)
    # The agent's snapshot, made from the base.
    agent = [(t, agent_status.get(t, "pending")) for t in names] + [
        (a, "pending") for a in agent_added
    ]
    run = todo("--keep", "--json", "apply", stdin=snapshot(*agent))
    assert run.code == 0, run.out
    final = {t["content"]: t["status"] for t in json.loads(run.out)["data"]["todos"]}
    for t in names:
        if t in hand_removed:
            assert t not in final
        elif t in hand_status:
            assert final[t] == hand_status[t]
        elif t in agent_status:
            assert final[t] == agent_status[t]
        else:
            assert final[t] in ("pending", "in_progress")  # promotion may start one
    for extra in hand_added + agent_added:
        assert extra in final


def test_notes_a_person_added_stay_when_the_snapshot_sends_the_old_ones(
    todo: Todo, home: Path
) -> None:
    payload = {
        "todos": [
            {"content": "A", "status": "in_progress"},
            {"content": "C", "notes": ["base note"]},
        ]
    }
    todo("apply", stdin=json.dumps(payload))
    by_hand(home, "  > base note\n", "  > base note\n  >\n  > person note\n")
    todo("apply", stdin=json.dumps(payload))
    assert listing(home).read_text().endswith("  > base note\n  >\n  > person note\n")


def test_a_task_a_person_moved_stays_where_they_put_it(todo: Todo, home: Path) -> None:
    todo(
        "apply",
        stdin=snapshot(("A", "in_progress"), ("B", "pending"), ("C", "pending"), ("D", "pending")),
    )
    by_hand(home, "- [ ] D\n", "")
    by_hand(home, "- [/] A\n", "- [ ] D\n- [/] A\n")
    todo(
        "apply",
        stdin=snapshot(
            ("A", "completed"), ("B", "in_progress"), ("C", "pending"), ("D", "pending")
        ),
    )
    assert listing(home).read_text() == "# Todos\n- [ ] D\n- [x] A\n- [/] B\n- [ ] C\n"


def test_a_task_a_person_moved_to_another_phase_stays_there(todo: Todo, home: Path) -> None:
    payload = {
        "todos": [
            {"content": "A", "status": "in_progress", "phase": "One"},
            {"content": "B", "status": "pending", "phase": "One"},
            {"content": "C", "status": "pending", "phase": "Two"},
        ]
    }
    todo("apply", stdin=json.dumps(payload))
    by_hand(home, "- [ ] B\n", "")
    by_hand(home, "- [ ] C\n", "- [ ] C\n- [ ] B\n")
    payload["todos"][0]["status"] = "completed"
    payload["todos"][1]["status"] = "in_progress"
    todo("apply", stdin=json.dumps(payload))
    assert listing(home).read_text().endswith("## Two\n- [ ] C\n- [/] B\n")


def test_a_summary_a_person_changed_stays(todo: Todo, home: Path) -> None:
    first = [{"content": "A", "status": "in_progress"}]
    todo("apply", stdin=json.dumps({"summary": "Base summary", "todos": first}))
    by_hand(home, "# Base summary\n", "# Person summary\n")
    second = [*first, {"content": "B", "status": "pending"}]
    todo("apply", stdin=json.dumps({"summary": "Base summary", "todos": second}))
    assert listing(home).read_text().startswith("# Person summary\n")


@pytest.mark.parametrize("base", ["-1", "99"])
def test_a_base_that_never_existed_is_refused(todo: Todo, base: str) -> None:
    todo("add", "A")
    run = todo("--base", base, "apply", stdin=snapshot(("A", "pending")))
    assert run.code == 1
    assert f"--base {base}: no such revision (this list is at #1" in run.err


def test_a_hook_reply_puts_the_merge_into_the_agents_context(todo: Todo, home: Path) -> None:
    """Closing the loop: the agent's own hook hands todo its snapshot; what the merge
    kept of the person's edits goes back to the model as additionalContext."""

    def envelope(*tasks: tuple[str, str]) -> str:
        return json.dumps(
            {
                "session_id": "s1",
                "hook_event_name": "PostToolUse",
                "tool_name": "TodoWrite",
                "tool_input": {"todos": [{"content": c, "status": s} for c, s in tasks]},
            }
        )

    assert todo("apply", stdin=envelope(("A", "in_progress"), ("B", "pending"))).code == 0
    session = home / "sessions" / "s1.md"
    session.write_text(session.read_text() + "- [ ] typed by hand\n")
    run = todo("apply", stdin=envelope(("A", "completed"), ("B", "in_progress")))
    assert run.code == 0
    reply = json.loads(run.out)
    context = reply["hookSpecificOutput"]["additionalContext"]
    assert reply["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert 'Merged with edits made by hand: kept "typed by hand" (added by hand)' in context
    assert "- [ ] typed by hand\n" in session.read_text()


def test_a_json_result_carries_a_reply_in_an_agents_shape_when_asked(
    todo: Todo, tmp_path: Path
) -> None:
    """Asked by a payload in a tool's shape, ``--as TOOL``, or ``reply = full``; the
    command line's own writes and reads name no tool."""
    for args in (("--json", "add", "A"), ("--json", "show"), ("--json", "done", "A")):
        assert "reply" not in json.loads(todo(*args).out)["data"]
    sent = json.dumps({"todos": [{"content": "B", "status": "pending"}]})
    data = json.loads(todo("--json", "apply", stdin=sent).out)["data"]
    assert data["reply_tool"] == "claude"
    assert data["reply"]["todos"][0]["content"] == "B"
    (tmp_path / "config.toml").write_text('reply = "full"\n')
    for args in (("--json", "add", "C"), ("--json", "show"), ("--json", "done", "C")):
        data = json.loads(todo(*args).out)["data"]
        assert data["reply_tool"] == "claude"
        assert "todos" in data["reply"]


# -- a person's copy of a task a snapshot names ----------------------------------------------


def claude(*tasks: tuple[str, str]) -> str:
    """A TodoWrite payload: every task with an active form ("Doing X")."""
    return json.dumps(
        {"todos": [{"content": c, "status": s, "activeForm": f"Doing {c}"} for c, s in tasks]}
    )


COPY_CASES = {
    "beside": (
        "# Todos\n- [/] A <!-- active: Doing A -->\n- [ ] B <!-- active: Doing B -->\n"
        "- [ ] A\n  > person note\n"
    ),
    "under a new heading": (
        "# Todos\n- [/] A <!-- active: Doing A -->\n- [ ] B <!-- active: Doing B -->\n"
        "\n## Later\n\n- [ ] A\n  > person note\n"
    ),
    "in a later phase": (
        "## Now\n- [/] A <!-- active: Doing A -->\n\n## Later\n"
        "- [ ] B <!-- active: Doing B -->\n- [ ] A\n- [ ] C\n"
    ),
}


@pytest.mark.parametrize("case", sorted(COPY_CASES))
def test_a_copy_of_a_task_a_person_added_stays_byte_for_byte(
    todo: Todo, home: Path, case: str
) -> None:
    """A second line with a task's text, typed by hand, is a task the snapshot does
    not know: it stays, with its note, and only the lines the snapshot changes change."""
    assert todo("apply", stdin=claude(("A", "in_progress"), ("B", "pending"))).code == 0
    hand = COPY_CASES[case]
    listing(home).write_text(hand)
    run = todo("--json", "apply", stdin=claude(("A", "completed"), ("B", "in_progress")))
    assert run.code == 0, run.err
    expected = hand.replace("- [/] A <!-- active", "- [x] A <!-- active").replace(
        "- [ ] B <!-- active", "- [/] B <!-- active"
    )
    assert listing(home).read_text() == expected
    envelope = json.loads(run.out)
    assert {"kind": "added_by_hand", "content": "A", "status": "pending"} in merged(run)
    edit = envelope["changes"]["hand_edit"]
    assert "A" in edit["added"]  # the copy, not a status change of the first A
    assert edit["changed"] == []
    assert edit["overridden"] == []
    assert "Completed: A" in envelope["text"]


def test_a_copy_stays_when_the_snapshot_drops_the_task_it_copies(todo: Todo, home: Path) -> None:
    assert todo("apply", stdin=claude(("A", "in_progress"), ("B", "pending"))).code == 0
    listing(home).write_text(
        "# Todos\n- [/] A <!-- active: Doing A -->\n- [ ] B <!-- active: Doing B -->\n"
        "- [ ] A\n  > person note\n"
    )
    assert todo("apply", stdin=claude(("B", "in_progress"))).code == 0
    assert listing(home).read_text() == (
        "# Todos\n- [/] B <!-- active: Doing B -->\n- [ ] A\n  > person note\n"
    )


# -- a person's edits outlive every later snapshot that does not touch them ---------------------


def test_a_task_added_by_hand_stays_through_later_snapshots(todo: Todo, home: Path) -> None:
    """The agent's tool never learns of the person's task: each later snapshot
    leaves it out, and each is merged with what the agent sent before, not with
    the list todo wrote (which holds the task)."""
    assert todo("apply", stdin=claude(("A", "in_progress"), ("B", "pending"))).code == 0
    listing(home).write_text(listing(home).read_text() + "- [ ] person task\n")
    assert todo("apply", stdin=claude(("A", "completed"), ("B", "in_progress"))).code == 0
    run = todo("--json", "apply", stdin=claude(("A", "completed"), ("B", "completed")))
    assert run.code == 0, run.err
    envelope = json.loads(run.out)
    assert envelope["changes"]["dropped_open"] == []
    assert envelope["changes"]["wiped_on_all_completed"] is False
    assert (
        listing(home).read_text().endswith("- [x] B <!-- active: Doing B -->\n- [ ] person task\n")
    )
    # Once the agent's own snapshot holds the task, it is the agent's like any other.
    both = (("A", "completed"), ("B", "completed"), ("person task", "in_progress"))
    assert todo("apply", stdin=claude(*both)).code == 0
    run = todo("--json", "--keep", "apply", stdin=claude(("A", "completed"), ("B", "completed")))
    assert "person task" not in listing(home).read_text()
    assert json.loads(run.out)["changes"]["dropped_open"] == ["person task"]


def test_a_status_set_by_hand_stays_through_later_snapshots(todo: Todo, home: Path) -> None:
    start(todo)
    by_hand(home, "- [ ] C\n", "- [x] C\n")
    for _ in range(3):
        payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
        assert todo("apply", stdin=payload).code == 0
        assert "- [x] C\n" in listing(home).read_text()


def test_each_agent_keeps_the_tasks_of_the_others(todo: Todo, home: Path) -> None:
    """With --agent, each agent's snapshot is merged with its own last one: what
    another agent added stays, however often the first one writes."""
    assert todo("--agent", "one", "apply", stdin=snapshot(("A", "pending"))).code == 0
    assert todo("--agent", "two", "apply", stdin=snapshot(("B", "pending"))).code == 0
    for status in ("pending", "completed", "pending"):
        assert todo("--agent", "one", "apply", stdin=snapshot(("A", status))).code == 0
    text = listing(home).read_text()
    assert "- [ ] A\n" in text
    assert "- [ ] B\n" in text


def test_a_finished_list_starts_afresh_for_the_next_snapshot(todo: Todo, home: Path) -> None:
    """A list wiped on completion forgets what the agent sent: tasks it sends again
    are written, not taken for tasks a person removed."""
    assert todo("apply", stdin=snapshot(("A", "in_progress"))).code == 0
    assert todo("apply", stdin=snapshot(("A", "completed"))).code == 0
    assert listing(home).read_text() == ""
    run = todo("--json", "apply", stdin=snapshot(("A", "completed"), ("B", "in_progress")))
    assert merged(run) == []
    assert listing(home).read_text() == "# Todos\n- [x] A\n- [/] B\n"


def views(home: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in (home / "state").rglob("views/*.md")}


def test_a_task_another_writer_adds_stays_through_the_agents_snapshots(
    todo: Todo, home: Path
) -> None:
    """A person's `todo add` is a write of its own (a revision, not a hand edit):
    the agent's next snapshots, which leave it out, keep it all the same."""
    start(todo)
    assert todo("add", "X").code == 0
    for status in ("in_progress", "completed"):
        payload = snapshot(("A", "completed"), ("B", status), ("C", "pending"))
        assert todo("apply", stdin=payload).code == 0
        assert "- [ ] X\n" in listing(home).read_text()


def test_the_agents_view_is_a_revision_number_unless_a_merge_kept_something(
    todo: Todo, home: Path
) -> None:
    """Most snapshots leave exactly the list they send: then the record of it is the
    revision that holds it, with no list written now or read next time."""
    start(todo)
    assert views(home) == {"default.md": "<!-- todo view: 1 -->\n"}
    assert todo("apply", stdin=snapshot(("A", "completed"), ("B", "in_progress"))).code == 0
    assert views(home) == {"default.md": "<!-- todo view: 2 -->\n"}
    listing(home).write_text(listing(home).read_text() + "- [ ] person task\n")
    payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    assert todo("apply", stdin=payload).code == 0
    # The list now holds a task the agent does not know: its own list is kept.
    (record,) = views(home).values()
    # Landed with revision 4 (revision 3 records the list as the person left it).
    assert record.startswith("<!-- todo view: list 4 -->\n")
    assert "person task" not in record
    assert "- [ ] C" in record


def test_a_person_task_stays_when_the_revision_the_view_names_is_pruned(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent's view names a revision; other writes push that revision out of
    the history kept: the view keeps the list itself, and the person's task stays."""
    from todocli.storage import store

    monkeypatch.setattr(store, "KEEP_REVISIONS", 5)
    start(todo)
    listing(home).write_text(listing(home).read_text() + "- [ ] person task\n")
    for _ in range(4):  # flag writes: a revision each, the agent's view untouched
        assert todo("block", "C").code == 0
        assert todo("unblock", "C").code == 0
    assert not (home / "state" / "sessions" / "default" / "revs" / "00000001.md").exists()
    (record,) = views(home).values()
    assert record.startswith("<!-- todo view: list -->\n")
    payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    run = todo("--json", "apply", stdin=payload)
    assert run.code == 0, run.err
    assert "- [ ] person task\n" in listing(home).read_text()
    assert json.loads(run.out)["changes"]["dropped_open"] == []


@pytest.mark.parametrize("what", ["directory", "fifo"])
def test_a_view_record_that_is_not_a_file_never_stops_a_write(
    todo: Todo, home: Path, what: str
) -> None:
    start(todo)
    (record,) = (home / "state").rglob("views/default.md")
    record.unlink()
    if what == "directory":
        record.mkdir()
    else:
        os.mkfifo(record)
    payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    assert todo("apply", stdin=payload).code == 0
    assert "- [x] A" in listing(home).read_text()


def test_a_task_a_person_added_already_started_gives_way_to_the_agents(
    todo: Todo, home: Path
) -> None:
    """Kept as added by hand, it must not take the list past max_in_progress: the
    agent's view wins (a conflict), and the person's task waits, pending."""
    start(todo)
    listing(home).write_text(listing(home).read_text() + "- [/] person task\n")
    payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    run = todo("--json", "apply", stdin=payload)
    assert run.code == 0, run.err
    text = listing(home).read_text()
    assert "- [/] B\n" in text
    assert "- [ ] person task\n" in text
    kinds = {m["content"]: m["kind"] for m in merged(run)}
    assert kinds["person task"] == "conflict"


@pytest.mark.parametrize(
    ("copied", "limit"), [("A", 1), ("A", 0), ("B", 1)], ids=["above A", "unlimited", "above B"]
)
def test_a_copy_a_person_put_above_the_task_stays_as_it_is(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, copied: str, limit: int
) -> None:
    """The line the agent's snapshot updates is its task's, the one most like its
    last view, not the first of that text: the person's copy above it stays as
    typed, and nothing is refused for it."""
    monkeypatch.setenv("TODOCLI_MAX_IN_PROGRESS", str(limit))
    start(todo)
    text = listing(home).read_text()
    listing(home).write_text(text.replace("# Todos\n", f"# Todos\n- [ ] {copied}\n", 1))
    run = todo("apply", stdin=snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending")))
    assert run.code == 0, run.err
    assert listing(home).read_text() == (f"# Todos\n- [ ] {copied}\n- [x] A\n- [/] B\n- [ ] C\n")


@pytest.mark.parametrize(("kill_at", "landed"), [("journal:1", False), ("adopt:1", True)])
def test_a_view_record_lands_with_its_list_or_not_at_all(
    todo: Todo, home: Path, kill_at: str, landed: bool
) -> None:
    """A writer killed between its records and its list (before it, or after it
    landed): the next call keeps the agent's view that came with a list that
    landed, and drops one whose list did not (it would be ahead of the file)."""
    start(todo)
    payload = snapshot(("A", "completed"), ("B", "in_progress"), ("C", "pending"))
    killed = todo_process("apply", stdin=payload, env={"TODOCLI_KILL_AT": kill_at})
    assert killed.code == -9, killed.err
    assert todo("show").code == 0  # any call settles what the killed writer left
    assert views(home) == {"default.md": f"<!-- todo view: {2 if landed else 1} -->\n"}
    assert not list((home / "state").rglob("views/*.pending"))
