"""Hypothesis properties of the engine: invariants that hold for any batch."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import todocli
from tests.test_markdown_properties import markdownish, todo_lists
from todocli.document.blocks import split_lines
from todocli.document.model import Status
from todocli.engine import Settings
from todocli.engine.ops import Batch, Op, OpKind, apply
from todocli.engine.snapshot import Item

NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "#1", "#3", "nope"])
PHASES = st.sampled_from(["P", "Todos", "New", "H"])


@st.composite
def ops(draw: st.DrawFn) -> Op:
    kind = draw(st.sampled_from(list(OpKind.ALL)))
    if kind is OpKind.WRITE:
        contents = draw(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=5))
        items = tuple(Item(c, draw(st.sampled_from(list(Status.ALL)))) for c in contents)
        return Op(kind, todos=items)
    if kind is OpKind.APPEND:
        return Op(
            kind, phase=draw(PHASES), items=tuple(draw(st.lists(NAMES, min_size=1, max_size=2)))
        )
    target = draw(st.sampled_from(["task", "phase", "all"]))
    return Op(
        kind,
        task=draw(NAMES) if target == "task" else None,
        phase=draw(PHASES) if target == "phase" else None,
        text=draw(st.sampled_from(["note", "two\nlines", ""])),
        all=draw(st.booleans()),
    )


DOCUMENTS = st.one_of(todo_lists().map(todocli.dumps), markdownish())


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS, st.lists(ops(), min_size=1, max_size=6), st.integers(0, 3), st.booleans())
def test_any_batch_keeps_the_in_progress_limit_and_a_rejected_one_writes_nothing(
    text: str, batch: list[Op], limit: int, partial: bool
) -> None:
    doc = todocli.loads(text)
    before = sum(t.status is Status.IN_PROGRESS for t in doc.tasks())
    result, after = apply(
        doc, Batch(tuple(batch), Settings(max_in_progress=limit), partial=partial)
    )
    if result.errors and not partial:
        assert after.text() == text
        assert not result.written
        return
    if result.query:
        return
    in_progress = [t for t in after.tasks() if t.status is Status.IN_PROGRESS]
    if limit:
        # A batch that starts a task, or sends a whole list, keeps to the limit;
        # any other leaves tasks a person set in progress beyond it as they are.
        failed = {e.index for e in result.errors}
        ok = [op.kind for i, op in enumerate(batch) if i not in failed]
        if {OpKind.START, OpKind.WRITE, OpKind.INIT} & set(ok):
            assert len(in_progress) <= limit
        assert len(in_progress) <= max(limit, before)
    assert todocli.loads(after.text()).model() == after.model()


@settings(max_examples=300, deadline=None)
@given(
    DOCUMENTS, st.sampled_from([OpKind.START, OpKind.DONE, OpKind.DROP, OpKind.BLOCK]), st.data()
)
def test_a_status_op_changes_only_the_lines_of_tasks_whose_status_changed(
    text: str, kind: OpKind, data: st.DataObject
) -> None:
    doc = todocli.loads(text)
    tasks = list(doc.tasks())
    assume(tasks and not doc.duplicates)  # the diff tells tasks apart by content
    target = data.draw(st.sampled_from(tasks))
    lines_of = {}
    line = 0
    for seg in doc.segments():
        if seg in doc.index.values():
            lines_of[seg.content] = line  # type: ignore[attr-defined]
        line += len(seg.lines)
    result, after = apply(doc, Batch((Op(kind, task=target.content),)))
    assert result.ok
    before_lines, after_lines = split_lines(text), split_lines(after.text())
    assert len(before_lines) == len(after_lines)
    changed_lines = {
        i for i, (a, b) in enumerate(zip(before_lines, after_lines, strict=True)) if a != b
    }
    allowed = {lines_of[c.content] for c in result.diff.changed if c.content in lines_of}
    assert changed_lines <= allowed
