"""Properties of the listing a read prints (``render.list_lines``): its quick paths
for a large plan read as the general ones."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from todocli import escapes
from todocli.app import render
from todocli.document.model import Meta, Phase, Status, Task, TodoList

NOTES = st.lists(
    st.sampled_from(["a note", "Blocked: on review", "Blocked:  ", "two\nlines"]), max_size=3
)


@st.composite
def tasks(draw: st.DrawFn) -> Task:
    """A task with any of the fields that give its listing line a tail."""
    meta = Meta(
        id=draw(st.sampled_from([None, "1", "2", "3"])),
        owner=draw(st.sampled_from([None, "", "alice"])),
        blocked_by=tuple(draw(st.lists(st.sampled_from(["1", "2", "3"]), max_size=2))),
    )
    return Task(
        draw(st.sampled_from(["Write docs", "Ship", "Write docs"])),
        draw(st.sampled_from(Status.ALL)),
        notes=tuple(draw(NOTES)),
        meta=meta,
        optional=draw(st.booleans()),
    )


LISTS = st.lists(
    st.builds(Phase, st.sampled_from(["Build", "Check"]), st.lists(tasks(), max_size=4).map(tuple)),
    min_size=1,
    max_size=4,
).map(lambda phases: TodoList(phases=tuple(phases)))


def _current_phase(todo: TodoList) -> int:
    """The current phase as the listing has always defined it, task by task."""
    for i, phase in enumerate(todo.phases):
        if any(t.status is Status.IN_PROGRESS for t in phase.tasks):
            return i
    for i, phase in enumerate(todo.phases):
        if any(t.status.is_open for t in phase.tasks):
            return i
    return len(todo.phases) - 1


@settings(max_examples=300)
@given(LISTS, st.booleans())
def test_each_tree_line_of_the_listing_is_the_task_line_of_its_task(
    todo: TodoList, notes: bool
) -> None:
    # The listing works out a line's tail only for a task with a field that gives
    # it one: whatever the task, its line is the one ``task_line`` makes.
    tree = [line for line in render.list_lines(todo, notes=notes) if line.startswith("  #")]
    waits = render._waits(todo)
    assert tree == [
        f"  {render.task_line(n, task, waits, notes=notes)}"
        for n, (_, task) in enumerate(todo.tasks(), start=1)
    ]
    for n, (_, task) in enumerate(todo.tasks(), start=1):
        if not (waits or task.notes or task.optional or task.meta.owner):
            assert render.task_tail(n, task, waits, notes=notes) == ""


@settings(max_examples=300)
@given(LISTS)
def test_the_current_phase_is_the_one_with_the_task_in_progress_else_the_first_open(
    todo: TodoList,
) -> None:
    assert render.current_phase(todo) == _current_phase(todo)


def test_a_task_with_no_rare_field_is_listed_as_number_mark_and_text() -> None:
    todo = TodoList(phases=(Phase("Build", (Task("Ship", Status.COMPLETED), Task("Test"))),))
    lines = render.list_lines(todo)
    assert lines[lines.index("Build") + 1 :][:2] == ["  #1 [x] Ship", "  #2 [ ] Test"]


def test_a_plain_task_is_listed_without_working_out_a_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    # What a plan of 1,500 plain tasks is spared: a call a task for a tail it has not.
    def no_tail(*args: object, **kwargs: object) -> str:
        raise AssertionError("a tail worked out for a task with none")

    monkeypatch.setattr(render, "task_tail", no_tail)
    todo = TodoList(phases=(Phase("Build", (Task("Ship", Status.COMPLETED), Task("Test"))),))
    assert "  #2 [ ] Test" in render.list_lines(todo)


@settings(max_examples=300)
@given(LISTS, st.booleans())
def test_the_notes_of_each_task_in_progress_follow_the_list(todo: TodoList, notes: bool) -> None:
    """Below the tree (and its cycle line), the notes of every task in progress
    that has notes, in list order, each under its name; none with ``--notes``,
    which shows them in the tree. Then the recap, last."""
    assume(todo.tasks())  # a list with no task is not listed: "Todo list is empty."
    lines = render.list_lines(todo, notes=notes)
    expected: list[str] = []
    for _, task in todo.tasks():
        if task.status is Status.IN_PROGRESS and task.notes and not notes:
            expected.append(f'Notes on "{task.content}":')
            expected += [f"  > {part}" for note in task.notes for part in note.split("\n")]
    names = {phase.name for phase in todo.phases}
    tree_end = max(
        i for i, line in enumerate(lines) if line.startswith(("  #", "    > ")) or line in names
    )
    after = lines[tree_end + 1 : -1]
    if after and after[0].startswith("Dependency cycle"):
        after = after[1:]
    assert after == expected
    assert lines[-1] == todo.recap()


# Texts a plan someone else wrote may hold: controls that drive a terminal, a bidi
# override, a byte that was not UTF-8, wide characters, and a long ASCII run (the
# listing's texts are looked at together, searched for each control at once).
PIECES = ["Ship", " it", "\x1b[2J", "\x07", "\u202e", "\udc9b", "\x9b", "\t", "é", "\u2028"]
HOSTILE = st.lists(st.sampled_from([*PIECES, "x" * 1200]), max_size=4).map("".join)


@st.composite
def hostile_tasks(draw: st.DrawFn) -> Task:
    """A task with hostile text in every field the listing shows."""
    notes = draw(st.lists(HOSTILE | HOSTILE.map(lambda t: f"Blocked: {t}"), max_size=2))
    return Task(
        draw(HOSTILE),
        draw(st.sampled_from(Status.ALL)),
        notes=tuple(notes),
        meta=Meta(
            id=draw(st.sampled_from([None, "1", "2"])),
            owner=draw(st.none() | HOSTILE),
            blocked_by=tuple(draw(st.lists(st.sampled_from(["1", "2"]), max_size=2))),
        ),
        optional=draw(st.booleans()),
    )


HOSTILE_LISTS = st.lists(
    st.builds(Phase, HOSTILE, st.lists(hostile_tasks(), max_size=3).map(tuple)),
    min_size=1,
    max_size=3,
).map(lambda phases: TodoList(phases=tuple(phases)))


@settings(max_examples=300)
@given(HOSTILE_LISTS, st.booleans())
def test_the_listing_shown_by_parts_is_the_listing_shown_line_by_line(
    todo: TodoList, notes: bool
) -> None:
    """``list_lines`` escapes what it is made of (the texts together, the rest part
    by part), not its lines: the same lines as escaping each line of the listing
    made of the raw texts, whatever the texts hold."""
    assume(todo.tasks())
    assert render.list_lines(todo, notes=notes) == _escaped_line_by_line(todo, notes)


def _escaped_line_by_line(todo: TodoList, notes: bool) -> list[str]:
    """The listing made of the raw texts (nothing escaped), each line escaped."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render, "safe", lambda text: text)
        patch.setattr(render, "all_shown", lambda texts: True)
        raw = render.list_lines(todo, notes=notes)
    return [escapes.safe(line) for line in raw]


# The hostile lists above seldom hold a dependency cycle: one, with hostile text in
# every other part of the listing beside it.
EVIL = "\x1b[2J\x07\x9b\u202e\udc9b\u2028\x7f"


def _cycle_list() -> TodoList:
    first = Task(
        f"A{EVIL}",
        notes=(f"why{EVIL}\nsecond",),
        meta=Meta(id="1", blocked_by=("2",), owner=f"o{EVIL}"),
    )
    second = Task(f"B{EVIL}", meta=Meta(id="2", blocked_by=("1",)))
    started = Task(f"C{'x' * 1200}{EVIL}", Status.IN_PROGRESS, notes=(f"n{EVIL}",))
    blocked = Task("D", Status.BLOCKED, notes=(f"Blocked: r{EVIL}",))
    return TodoList(f"S{EVIL}", (Phase(f"P{EVIL}", (first, second, started, blocked)),))


@pytest.mark.parametrize("notes", [False, True])
def test_a_hostile_cycle_is_listed_as_escaping_each_line_shows_it(notes: bool) -> None:
    todo = _cycle_list()
    assert render.cycle_line(todo) is not None
    shown = render.list_lines(todo, notes=notes)
    assert shown == _escaped_line_by_line(todo, notes)
    assert any(line.startswith("Dependency cycle #1") for line in shown)
    for line in shown:
        assert escapes.safe(line) == line  # nothing left to escape, in any part
