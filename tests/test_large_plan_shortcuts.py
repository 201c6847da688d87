"""The shortcuts a large plan is read and written with, attacked: odd plans read
alike by the scanner's fast and general paths, the index made when first asked for
agrees with one made at every reindex, a diff of the same texts reads as by text,
and removing tasks that share a text does not list every task each time."""

from __future__ import annotations

import random

import pytest

from todocli.document.blocks import Scanner
from todocli.document.markdown import Document, TaskNode, parse
from todocli.document.model import Diff, Phase, Status, Task, TodoList

from .test_markdown_properties import (
    test_the_scanners_fast_path_reads_lines_as_the_general_path_does as _fast,
)

compare_readings = _fast.hypothesis.inner_test  # type: ignore[attr-defined]

# Runs of plain task lines next to odd whitespace, comments, notes, phase breaks,
# setext underlines, code, tables, front matter and a missing last line ending.
ODD = [
    "# P|- [ ] a|- [ ] b\x0b|- [ ] c\xa0|- [ ] d\u3000|- [ ] \x0bx|- [ ] e",
    "# P|- [ ] a|- [ ] \x0b|- [ ] \xa0|- [ ] b",
    "# P|- [ ] a <!-- id: 3 -->|- [ ] b <!-- active: B -->|* [X] c|+ [/] d<!--|- [ ] e",
    "# P|- [ ] a|  > Note\xa0|  > Two\x0c||### Q ###||- [ ] b|  > Last",
    "# P|- [ ] a|  > Note|===|- [ ] b",
    "# P|- [ ] a|  > Note|---|- [ ] b",
    "# P|- [ ] a|---|- [ ] b|===",
    "# P|- [ ] a|#|- [ ] b||#\t|- [ ] c|# \\#|- [ ] d",
    "# P|- [ ] a|lazy|- [ ] b|```|- [ ] c|```|- [ ] d",
    "# P|- [ ] a|| t | u ||---|---||- [ ] b",
    "---|t: x|---|- [ ] a|- [ ] b",
    "\ufeff- [ ] a|- [ ] b|  > N",
    "# P|- [ ] a|  - [ ] b|    - [ ] c|      > d|- [ ] e|  > F||## G|- [ ] h",
    "# P|- [ ] a|<!-- c -->|- [ ] b|<div>|- [ ] c",
    "# P|- [ ] a|  > Note",
    "# P|- [ ] a|  > Note||## Q||",
]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("end", ["eol", "none"])
@pytest.mark.parametrize("shape", ODD)
def test_odd_plans_read_alike_fast_and_general(shape: str, eol: str, end: str) -> None:
    text = shape.replace("|", eol) + (eol if end == "eol" else "")
    compare_readings(text)
    assert parse(text).text() == text
    general = Scanner.__init__

    def slow(self: Scanner) -> None:
        general(self)
        self.fast = False

    fast_doc = parse(text)
    Scanner.__init__ = slow  # type: ignore[method-assign]
    try:
        slow_doc = parse(text)
    finally:
        Scanner.__init__ = general  # type: ignore[method-assign]
    assert fast_doc.model() == slow_doc.model()
    assert fast_doc.markers == slow_doc.markers


def _edit(doc: Document, rng: random.Random, eager: bool) -> None:
    tasks = doc.tasks()
    op = rng.choice(["add", "beside", "before", "rm", "rename", "status", "move"])
    text = rng.choice("aabcd")
    if op == "add" or not tasks:
        doc.add_task(rng.choice(["Todos", "Two"]), text)
    else:
        task = rng.choice(tasks)
        if op == "beside":
            doc.insert_task_beside(task, text)
        elif op == "before":
            doc.insert_task_beside(task, text, before=True)
        elif op == "rm":
            doc.remove_task(task)
        elif op == "rename":
            doc.set_content(task, text)
        elif op == "status":
            doc.set_status(task, rng.choice(list(Status.ALL)))
        else:
            doc.move_after(task, rng.choice(tasks))
    if rng.random() < 0.6:
        doc.reindex()
    if eager:
        doc.index  # noqa: B018 (made now, as every reindex made it before)


def _where(doc: Document) -> tuple[dict[str, int], set[str]]:
    at = {id(t): i for i, t in enumerate(t for t in doc.segments() if isinstance(t, TaskNode))}
    return {c: at[id(t)] for c, t in doc.index.items()}, set(doc.duplicates)


@pytest.mark.parametrize("case", range(60))
def test_the_index_made_when_asked_agrees_with_the_one_made_at_every_reindex(case: int) -> None:
    """The same edits on a document whose index is made at every step (as every
    reindex made it before) and on one that makes it only when asked: the same
    copies; after a reindex, the index of the text read afresh. (Between an added
    task and the next reindex the two may name different tasks for a text: the lazy
    one names the first in phase order, which is nearer what a fresh read names.)"""
    plan = [
        "# Plan\n\n- [ ] a\n- [ ] b\n- [ ] a\n\n## Two\n\n- [ ] c\n- [ ] a\n",
        "- [ ] a\n- [ ] b\n\n## Two\n\n- [ ] a\n- [ ] c\n\n## Three\n\n- [ ] b\n",
    ][case % 2]
    lazy, eager = parse(plan), parse(plan)
    eager.index  # noqa: B018
    for step in range(6):
        _edit(lazy, random.Random(case * 100 + step), eager=False)
        _edit(eager, random.Random(case * 100 + step), eager=True)
        assert lazy.text() == eager.text()
    assert lazy.duplicates == eager.duplicates
    lazy.reindex()
    assert _where(lazy) == _where(parse(lazy.text()))


def test_a_diff_of_the_same_texts_with_phases_moved_reads_as_by_text() -> None:
    from todocli.document import model

    old = TodoList("", (Phase("A", (Task("a"), Task("b"))), Phase("B", (Task("c"),))))
    new = TodoList(
        "", (Phase("A", (Task("a", Status.COMPLETED),)), Phase("C", (Task("b"), Task("c"))))
    )
    fast = Diff.between(old, new)
    keep = model._changed_in_place
    model._changed_in_place = lambda old, new: None
    try:
        assert fast == Diff.between(old, new)
    finally:
        model._changed_in_place = keep


def test_removing_tasks_that_share_a_text_does_not_list_every_task_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wipe of a person's plan whose closed tasks repeat a text ("Commit"): each
    removal of a text's first task finds the next copy, and stops there."""
    n = 2000
    doc = parse("# Plan\n\n" + "- [x] Commit\n" * n)
    tasks = doc.tasks()
    assert doc.duplicates == {"Commit"}
    visits = 0
    original = Document.tasks

    def counting(self: Document) -> list[TaskNode]:
        nonlocal visits
        found = original(self)
        visits += len(found)
        return found

    monkeypatch.setattr(Document, "tasks", counting)
    for task in tasks:
        doc.remove_task(task)
    assert not doc.tasks()
    assert visits < 20 * n  # a list of every task a removal would be n * n / 2


@pytest.mark.parametrize(
    ("lines", "written"),
    [([], b"\n"), (["one"], b"one\n"), (["a", "wide \u2014", "b"], "a\nwide \u2014\nb\n".encode())],
)
def test_lines_are_written_each_with_a_newline(lines: list[str], written: bytes) -> None:
    import io

    from todocli.app.output import write

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    write(lines, stream)
    assert raw.getvalue() == written


def test_a_lone_surrogate_in_a_line_is_written_escaped_not_raised() -> None:
    """A list's lines are encoded without a codec looked up by name, as ``safe``
    leaves no lone surrogate; one that reaches ``write`` all the same is written as
    a backslash escape, as before, not raised as a UnicodeEncodeError."""
    import io

    from todocli.app.output import write

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    write(["plain", "byte \udc9b here"], stream)
    assert raw.getvalue() == b"plain\nbyte \\udc9b here\n"
