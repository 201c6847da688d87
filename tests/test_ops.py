"""The operation engine: its ops and error strings, batches, snapshots, limits."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import pytest

import todocli
from todocli.document.markdown import Document
from todocli.document.model import Phase, Result, Status, Task, TodoList
from todocli.engine import DropPolicy, Settings
from todocli.engine.ops import HANDLERS, Batch, Engine, Op, OpKind, PhaseItems, apply
from todocli.engine.snapshot import Item

T = TypeVar("T")

P, W, C, A, B = (
    Status.PENDING,
    Status.IN_PROGRESS,
    Status.COMPLETED,
    Status.ABANDONED,
    Status.BLOCKED,
)


def make(*tasks: tuple[str, Status], summary: str = "") -> Document:
    todo = TodoList(summary, (Phase("Work", tuple(Task(c, s) for c, s in tasks)),))
    return todocli.loads(todocli.dumps(todo))


def run(doc: Document, *ops: Op, **kw: object) -> tuple[Result, Document]:
    return apply(doc, Batch(ops, **kw))  # type: ignore[arg-type]


def states(doc: Document) -> dict[str, Status]:
    return {t.content: t.status for t in doc.tasks()}


# -- the ops' state-transition table ---------------------------------------------------
# For a target task in each status, what each op leaves it as (before normalization,
# which the table isolates by keeping another task in progress where it matters).

TRANSITIONS = {
    # op:      pending, in_progress, completed, abandoned, blocked
    "start": {P: W, W: W, C: W, A: W, B: W},
    "done": {P: C, W: C, C: C, A: C, B: C},
    "drop": {P: A, W: A, C: A, A: A, B: A},
    "note": {P: P, W: W, C: C, A: A, B: B},
    "block": {P: B, W: B, C: B, A: B, B: B},
    "unblock": {P: P, W: W, C: C, A: A, B: P},
}


@pytest.mark.parametrize("op", sorted(TRANSITIONS))
@pytest.mark.parametrize("status", list(Status.ALL))
def test_state_transition_table(op: str, status: Status) -> None:
    # An in-progress bystander keeps normalization from promoting the target;
    # "start" demotes it (one task in progress).
    bystander = W if status is not W else P
    doc = make(("target", status), ("bystander", bystander))
    result, doc = run(doc, Op(OpKind.of(op), task="target", text="a note"))
    assert result.ok
    assert states(doc)["target"] is TRANSITIONS[op][status]
    if op == "start":
        assert states(doc)["bystander"] is (P if bystander is W else bystander)


@pytest.mark.parametrize("status", list(Status.ALL))
def test_rm_removes_a_task_in_any_status(status: Status) -> None:
    result, doc = run(make(("target", status), ("other", W)), Op(OpKind.RM, task="target"))
    assert result.ok
    assert "target" not in states(doc)


@pytest.mark.parametrize("status", list(Status.ALL))
def test_append_adds_pending_tasks_and_leaves_others_alone(status: Status) -> None:
    doc = make(("existing", status), ("other", W))
    result, doc = run(doc, Op(OpKind.APPEND, phase="Work", items=("new",)))
    assert result.ok
    assert states(doc)["existing"] is status
    assert states(doc)["new"] is P


# -- targeting: one task, one phase, or everything ------------------------------------------


def two_phases() -> Document:
    todo = TodoList(
        "",
        (
            Phase("A", (Task("a1", W), Task("a2"))),
            Phase("B", (Task("b1"), Task("b2"))),
        ),
    )
    return todocli.loads(todocli.dumps(todo))


def test_done_targets_a_phase() -> None:
    _, doc = run(two_phases(), Op(OpKind.DONE, phase="A"))
    assert states(doc) == {"a1": C, "a2": C, "b1": W, "b2": P}


def test_drop_without_target_abandons_everything() -> None:
    result, doc = run(two_phases(), Op(OpKind.DROP))
    assert set(states(doc).values()) == {A}
    assert result.completed is not None


def test_rm_phase_clears_it_and_its_heading() -> None:
    _, doc = run(two_phases(), Op(OpKind.RM, phase="B"))
    assert doc.text() == "## A\n- [/] a1\n- [ ] a2\n"


def test_append_creates_a_missing_phase() -> None:
    _, doc = run(two_phases(), Op(OpKind.APPEND, phase="C", items=("c1", "c2")))
    assert [p.name for p in doc.model().phases] == ["A", "B", "C"]
    assert doc.text().endswith("\n## C\n- [ ] c1\n- [ ] c2\n")


def test_append_without_phase_from_the_flag_form_goes_to_the_last_phase() -> None:
    _, doc = run(two_phases(), Op(OpKind.APPEND, items=("b3",), default_phase=True))
    assert [t.content for t in doc.model().phases[-1].tasks] == ["b1", "b2", "b3"]


def test_task_reference_by_number_uses_the_numbering_the_batch_started_with() -> None:
    ops = [Op(OpKind.RM, task="#1"), Op(OpKind.DONE, task="#3")]
    _, doc = run(two_phases(), *ops)
    assert states(doc) == {"a2": W, "b1": C, "b2": P}


def test_clear_removes_closed_tasks_or_all() -> None:
    doc = make(("a", C), ("b", A), ("c", W), ("d", B))
    _, cleared = run(doc, Op(OpKind.CLEAR))
    assert states(cleared) == {"c": W, "d": B}
    _, emptied = run(make(("a", C), ("c", W)), Op(OpKind.CLEAR, all=True))
    assert emptied.text() == ""


def test_block_keeps_the_reason_as_a_note_and_unblock_reopens() -> None:
    result, doc = run(make(("a", W), ("b", P)), Op(OpKind.BLOCK, task="b", text="waiting on CI"))
    assert result.ok
    assert doc.model().phases[0].tasks[1] == Task("b", B, None, ("Blocked: waiting on CI",))
    _, doc = run(doc, Op(OpKind.UNBLOCK, task="b"))
    assert states(doc)["b"] is P


def test_view_changes_nothing_and_is_a_query() -> None:
    doc = make(("a", P))
    result, after = run(doc, Op(OpKind.VIEW))
    assert result.query
    assert not result.written
    assert after.text() == doc.text()


# -- the engine's error strings, verbatim ------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (Op(OpKind.INIT), "Missing list for init operation"),
        (Op(OpKind.START), "Missing task content"),
        (Op(OpKind.DONE, phase=" "), "Missing phase name"),
        (Op(OpKind.DONE, phase="Nope"), 'Phase "Nope" not found.'),
        (Op(OpKind.APPEND, items=("x",)), "Missing phase name for append operation"),
        (Op(OpKind.APPEND, phase="Work"), "Missing items for append operation"),
        (Op(OpKind.APPEND, phase="Work", items=("a",)), 'Task "a" already exists'),
        (Op(OpKind.APPEND, phase="Work", items=("x", "x")), 'Task "x" already exists'),
        (Op(OpKind.NOTE, task="a"), "Missing text for note operation"),
        (Op(OpKind.NOTE, task="a", text="   "), "Missing text for note operation"),
        (Op(OpKind.DONE, task="zzz"), 'Task "zzz" not found (see: todo show)'),
        (Op(OpKind.DONE, task="#7"), 'Task "#7" not found: the list has 1 tasks (see: todo show)'),
    ],
)
def test_error_strings(op: Op, message: str) -> None:
    result, _ = run(make(("a", W)), op)
    assert [e.message for e in result.errors] == [message]


def test_not_found_on_an_empty_list_says_so() -> None:
    result, _ = run(todocli.loads(""), Op(OpKind.DONE, task="x"))
    assert result.errors[0].message == (
        'Task "x" not found: the list is empty (add tasks first: todo add, or an init op)'
    )
    assert result.errors[0].code == "NOT_FOUND"


def test_not_found_names_the_closest_tasks() -> None:
    doc = make(("Run the tests", W), ("Write docs", P))
    result, _ = run(doc, Op(OpKind.DONE, task="Run tests"))
    assert result.errors[0].message == (
        'Task "Run tests" not found. Did you mean "Run the tests"? (see: todo show)'
    )


# -- batches: order, normalization, atomicity -------------------------------------------------


def test_normalization_leaves_hand_made_in_progress_tasks_over_the_limit_alone() -> None:
    # It changes no line the batch did not touch: only "start" demotes (see below).
    text = "- [/] a\n- [/] b\n- [/] c\n"
    _, doc = run(todocli.loads(text), Op(OpKind.NOTE, task="c", text="n"))
    assert states(doc) == {"a": W, "b": W, "c": W}
    assert doc.text() == text + "  > n\n"


def test_start_demotes_the_others_in_progress_down_to_the_limit_earliest_first() -> None:
    text = "- [/] a\n- [/] b\n- [ ] c\n- [/] d\n"
    _, doc = run(todocli.loads(text), Op(OpKind.START, task="c"))
    assert states(doc) == {"a": P, "b": P, "c": W, "d": P}
    two = Settings(max_in_progress=2)
    _, doc = run(todocli.loads(text), Op(OpKind.START, task="c"), settings=two)
    assert states(doc) == {"a": P, "b": P, "c": W, "d": W}
    # Tasks the batch started count after those in progress before it, in its order.
    ops = [Op(OpKind.START, task="c"), Op(OpKind.START, task="a")]
    _, doc = run(todocli.loads("- [ ] a\n- [/] b\n- [ ] c\n"), *ops, settings=two)
    assert states(doc) == {"a": W, "b": P, "c": W}


def test_normalization_promotes_the_first_pending_task_but_never_a_blocked_one() -> None:
    doc = make(("a", W), ("b", B), ("c", P))
    result, doc = run(doc, Op(OpKind.DONE, task="a"))
    assert states(doc) == {"a": C, "b": B, "c": W}
    assert [(c.content, c.new) for c in result.diff.changed] == [("a", C), ("c", W)]


def test_a_batch_may_pass_through_an_invalid_state_before_normalization() -> None:
    ops = [Op(OpKind.START, task="b"), Op(OpKind.DONE, task="b"), Op(OpKind.DONE, task="a")]
    _, doc = run(make(("a", W), ("b", P), ("c", P)), *ops)
    assert states(doc) == {"a": C, "b": C, "c": W}


def test_max_in_progress_allows_parallel_work() -> None:
    settings = Settings(max_in_progress=2)
    doc = make(("a", W), ("b", P), ("c", P))
    _, doc = run(doc, Op(OpKind.START, task="b"), settings=settings)
    assert states(doc) == {"a": W, "b": W, "c": P}
    _, doc = run(doc, Op(OpKind.START, task="c"), settings=settings)
    assert states(doc) == {"a": P, "b": W, "c": W}
    unlimited = Settings(max_in_progress=0)
    _, doc = run(doc, Op(OpKind.START, task="a"), settings=unlimited)
    assert states(doc) == {"a": W, "b": W, "c": W}


def test_atomic_batch_writes_nothing_and_reports_every_error_with_its_index() -> None:
    doc = make(("a", W), ("b", P))
    before = doc.text()
    ops = [
        Op(OpKind.DONE, task="a"),
        Op(OpKind.DONE, task="x"),
        Op(OpKind.NOTE, task="y", text="t"),
    ]
    result, after = run(doc, *ops)
    assert [(e.index, e.code) for e in result.errors] == [(1, "NOT_FOUND"), (2, "NOT_FOUND")]
    assert not result.written
    assert after.text() == before
    assert result.new == result.old


def test_partial_batch_applies_the_good_ops_and_still_reports_errors() -> None:
    ops = [Op(OpKind.DONE, task="a"), Op(OpKind.DONE, task="x")]
    result, doc = run(make(("a", W), ("b", P)), *ops, partial=True)
    assert [e.index for e in result.errors] == [1]
    assert result.written
    assert states(doc) == {"a": C, "b": W}


def test_completed_transitions_are_reported() -> None:
    result, _ = run(make(("a", W), ("b", P)), Op(OpKind.DONE, task="a"))
    assert [c.content for c in result.diff.changed if c.new is C] == ["a"]


# -- snapshots ------------------------------------------------------


def write(*items: Item, summary: str | None = None) -> Op:
    return Op(OpKind.WRITE, todos=items, summary=summary)


def test_snapshot_is_stored_as_sent_without_promotion() -> None:
    result, doc = run(todocli.loads(""), write(Item("a"), Item("b"), summary="S"))
    assert result.ok
    assert doc.text() == "# S\n\n## Todos\n- [ ] a\n- [ ] b\n"


def test_a_snapshot_written_anew_is_not_read_a_second_time_to_check_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tool-made list takes a snapshot by being written anew and read back: that
    reading is what the final check would read again, so it counts as the check.
    An edit after it in the same batch changes the text, and the check reads again."""
    import todocli.engine.ops as ops_module
    import todocli.engine.snapshot as snapshot_module

    reads: list[str] = []
    from todocli.document.markdown import parse as real_parse

    def counting_parse(text: str) -> Document:
        reads.append(text)
        return real_parse(text)

    monkeypatch.setattr(ops_module, "parse", counting_parse)
    monkeypatch.setattr(snapshot_module, "parse", counting_parse)
    doc = make(("a", P), ("b", P))
    snapshot = write(Item("a", C), Item("b", W), Item("c"))
    result, doc = run(doc, snapshot)
    assert result.ok
    assert len(reads) == 1  # the document written anew; no second read of the same text
    assert real_parse(doc.text()).model() == result.new

    reads.clear()
    result, doc = run(make(("a", P)), snapshot, Op(OpKind.APPEND, phase="Work", items=("d",)))
    assert result.ok
    assert [t.content for _, t in result.new.tasks()] == ["a", "b", "c", "d"]
    assert len(reads) == 2  # written anew, then the appended text read to check it
    assert reads[1] == doc.text()


def test_snapshot_with_more_in_progress_than_allowed_is_rejected() -> None:
    result, doc = run(make(("x", P)), write(Item("a", W), Item("b", W)))
    assert result.errors[0].message == (
        'Only one task can be in_progress at a time (got 2: "a", "b")'
    )
    assert states(doc) == {"x": P}


def test_snapshot_and_init_reject_duplicates() -> None:
    result, _ = run(
        todocli.loads(""), write(Item("a", path="todos[1]"), Item("a", path="todos[2]"))
    )
    assert (result.errors[0].message, result.errors[0].path) == (
        'Duplicate task "a"',
        "todos[2].content",
    )
    init = Op(OpKind.INIT, phases=(PhaseItems("A", ("x",)), PhaseItems("A", ("y",))))
    result, _ = run(todocli.loads(""), init)
    assert result.errors[0].message == 'Duplicate phase "A"'
    init = Op(OpKind.INIT, phases=(PhaseItems("A", ("x", "x")),))
    result, _ = run(todocli.loads(""), init)
    assert result.errors[0].message == 'Duplicate task "x"'


def test_empty_snapshot_clears_the_list() -> None:
    result, doc = run(make(("a", C)), write())
    assert result.ok
    assert doc.text() == ""


def test_snapshot_over_a_hand_edited_file_keeps_every_line_it_does_not_change() -> None:
    text = (
        "# My project\n\nSome notes.\n\n## Tasks\n* [ ] alpha\n* [x] beta\n"
        "  > a note\n\n| a | b |\n|---|---|\n\nMore prose.\n"
    )
    snapshot = write(Item("alpha", C), Item("gamma", W), Item("beta", C))
    result, doc = run(todocli.loads(text), snapshot)
    assert result.ok
    # A file that never used [/] keeps the task in progress in a hidden comment.
    started = "* [x] alpha\n* [ ] gamma <!-- state: in_progress -->\n"
    assert doc.text() == text.replace("* [ ] alpha\n", started)


def test_snapshot_reorders_and_moves_tasks_between_phases() -> None:
    text = "Intro.\n\n## A\n- [ ] a1\n- [ ] a2\n\n## B\n- [ ] b1\n"
    items = (Item("a2", phase="A"), Item("a1", phase="A"), Item("b1", phase="A"))
    _, doc = run(todocli.loads(text), write(*items))
    assert doc.text() == "Intro.\n\n## A\n- [ ] a2\n- [ ] a1\n- [ ] b1\n"


def test_snapshot_without_phases_keeps_tasks_in_their_phases() -> None:
    text = "Notes\n\n## A\n- [x] a1\n\n## B\n- [ ] b1\n"
    _, doc = run(todocli.loads(text), write(Item("a1", C), Item("b1", W), Item("b2")))
    started = "- [ ] b1 <!-- state: in_progress -->"  # the file never used [/]
    assert doc.text() == f"Notes\n\n## A\n- [x] a1\n\n## B\n{started}\n- [ ] b2\n"


def test_snapshot_keeps_notes_it_does_not_mention_and_replaces_those_it_does() -> None:
    doc = todocli.loads("x\n\n- [ ] a\n  > kept\n")
    _, doc = run(doc, write(Item("a")))
    assert doc.model().phases[0].tasks[0].notes == ("kept",)
    _, doc = run(doc, write(Item("a", notes=("new",))))
    assert doc.text() == "x\n\n- [ ] a\n  > new\n"


# -- drop protection and hand edits ------------------------------------------------------


def test_snapshot_dropping_open_tasks_warns_by_default() -> None:
    result, doc = run(make(("a", W), ("b", P), ("c", C)), write(Item("a", W)))
    assert result.ok
    assert result.dropped_open == ("b",)
    assert states(doc) == {"a": W}


def test_snapshot_dropping_open_tasks_can_be_rejected_or_allowed() -> None:
    doc = make(("a", W), ("b", P))
    reject = Settings(snapshot_drop=DropPolicy.REJECT)
    result, after = run(doc, write(Item("a", W)), settings=reject)
    assert 'drops open tasks "b"' in result.errors[0].message
    assert after.text() == doc.text()
    allow = Settings(snapshot_drop=DropPolicy.ALLOW)
    result, _ = run(make(("a", W), ("b", P)), write(Item("a", W)), settings=allow)
    assert result.ok
    assert result.dropped_open == ()


def test_hand_edits_since_the_last_write_are_reported_and_overrides_named() -> None:
    written = make(("a", W), ("b", P)).model()
    by_hand = todocli.loads(todocli.dumps(written).replace("- [ ] b", "- [x] b") + "- [ ] c\n")
    # The snapshot sends b back as it last saw it and knows nothing of c: the merge
    # keeps both hand edits (see test_merge.py), so nothing is overridden...
    result, _ = run(by_hand, write(Item("a", W), Item("b", P)), baseline=written)
    assert result.hand_edit is not None
    assert result.hand_edit.added == ("c",)
    assert [(c.content, c.new) for c in result.hand_edit.changed] == [("b", C)]
    assert result.overridden == ()
    assert [(m.kind, m.content) for m in result.merged] == [
        ("status_by_hand", "b"),
        ("added_by_hand", "c"),
    ]
    # ...unless it changes b itself: then it wins, and says so.
    result, _ = run(by_hand, write(Item("a", W), Item("b", A)), baseline=written)
    assert result.overridden == ("b",)


# -- limits ------------------------------------------------------


def test_task_count_limit_guards_growth_only() -> None:
    settings = Settings(max_tasks=2)
    result, _ = run(
        make(("a", W), ("b", P)), Op(OpKind.APPEND, phase="Work", items=("c",)), settings=settings
    )
    assert result.errors[0].message == "The list would have 3 tasks; the limit is 2 (max_tasks)"
    big = make(("a", W), ("b", P), ("c", P))  # over the limit already, by hand
    result, doc = run(big, Op(OpKind.DONE, task="a"), settings=settings)
    assert result.ok
    assert states(doc)["a"] is C


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            Op(OpKind.APPEND, phase="W", items=("x" * 201,)),
            "Task content is 201 bytes; the limit is 200 (max_field_bytes)",
        ),
        (
            Op(OpKind.APPEND, phase="W", items=("é" * 101,)),
            "Task content is 202 bytes; the limit is 200 (max_field_bytes)",
        ),
        (
            Op(OpKind.APPEND, phase="p" * 201, items=("x",)),
            "Phase name is 201 bytes; the limit is 200 (max_field_bytes)",
        ),
        (
            Op(OpKind.NOTE, task="a", text="n" * 2001),
            "Note is 2001 bytes; the limit is 2000 (max_note_bytes)",
        ),
        (
            write(Item("a", active_form="f" * 201)),
            "Active form is 201 bytes; the limit is 200 (max_field_bytes)",
        ),
        (
            write(Item("a"), summary="s" * 201),
            "Summary is 201 bytes; the limit is 200 (max_field_bytes)",
        ),
    ],
)
def test_field_limits(op: Op, message: str) -> None:
    result, _ = run(make(("a", W)), op)
    assert [e.message for e in result.errors] == [message]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("two\nlines", "Task content contains a newline or control character (\\n)"),
        ("bell\x07", "Task content contains a newline or control character (\\x07)"),
        ("bidi \u202e", "Task content contains a newline or control character (\\u202e)"),
        ("a <!-- b", 'Task content contains "<!--" or "-->", which would break the markdown'),
        ("a --> b", 'Task content contains "<!--" or "-->", which would break the markdown'),
    ],
)
def test_text_that_would_break_the_markdown_is_rejected(text: str, message: str) -> None:
    result, _ = run(make(("a", W)), Op(OpKind.APPEND, phase="W", items=(text,)))
    assert [e.message for e in result.errors] == [message]


def test_note_with_a_blank_line_is_rejected_but_multi_line_notes_are_kept() -> None:
    result, _ = run(make(("a", W)), Op(OpKind.NOTE, task="a", text="one\n\ntwo"))
    assert result.errors[0].message == "Note text cannot contain a blank line"
    result, doc = run(make(("a", W)), Op(OpKind.NOTE, task="a", text="one\ntwo  \n"))
    assert result.ok
    assert doc.model().phases[0].tasks[0].notes == ("one\ntwo",)


# -- completion ------------------------------------------------------


def test_finishing_the_list_reports_it_and_wipes_when_asked() -> None:
    result, doc = run(make(("a", C), ("b", W), summary="S"), Op(OpKind.DONE, task="b"), wipe=True)
    assert result.completed is not None
    assert result.completed.summary == "S"
    assert result.wiped
    assert doc.text() == ""
    assert result.new == TodoList()


def test_a_finished_list_is_kept_when_wipe_is_off() -> None:
    result, doc = run(make(("a", W)), Op(OpKind.DONE, task="a"), wipe=False)
    assert result.completed is not None
    assert not result.wiped
    assert states(doc) == {"a": C}


def test_a_list_that_was_already_finished_is_not_completed_again() -> None:
    result, _ = run(make(("a", C)), Op(OpKind.NOTE, task="a", text="later"))
    assert result.completed is None


def test_wipe_of_a_persons_file_keeps_their_other_text() -> None:
    doc = todocli.loads("Notes.\n\n- [/] a\n")
    _, doc = run(doc, Op(OpKind.DONE, task="a"), wipe=True)
    assert doc.text() == "Notes.\n\n"


def test_expired_closed_tasks_are_cleared_at_the_next_write() -> None:
    doc = make(("a", C), ("b", W), ("c", P))
    _, doc = run(doc, Op(OpKind.NOTE, task="b", text="x"), expired={"a", "c"})
    assert states(doc) == {"b": W, "c": P}


# -- recap ------------------------------------------------------


def todo_of(n: int) -> TodoList:
    statuses = [W, P, P, P, P, A, A, A, C, C, B, P]
    return TodoList("", (Phase("P", tuple(Task(f"task {i}", statuses[i]) for i in range(n))),))


@pytest.mark.parametrize(
    ("n", "recap"),
    [
        (0, "[0/0] No tasks."),
        (1, "[0/1] In progress: task 0."),
        (5, "[0/5] In progress: task 0. Pending: task 1; task 2; task 3 (+1 more)."),
        (
            12,
            "[5/12] In progress: task 0. Pending: task 1; task 2; task 3 (+2 more). "
            "Blocked: task 10. Cancelled: task 5; task 6 (+1 more).",
        ),
    ],
)
def test_recap(n: int, recap: str) -> None:
    assert todo_of(n).recap() == recap
    assert len(recap) < 300


def test_recap_stays_under_300_characters_with_long_tasks() -> None:
    long = TodoList(
        "", (Phase("P", tuple(Task("x" * 195 + str(i), W if i == 0 else P) for i in range(6))),)
    )
    text = long.recap()
    assert len(text) < 300
    assert text.startswith("[0/6] In progress: xxx")


# -- cost is linear ------------------------------------------------------


def test_a_batch_visits_each_task_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    n, k = 2000, 300
    todo = TodoList("", (Phase("P", tuple(Task(f"t{i}") for i in range(n))),))
    doc = todocli.loads(todocli.dumps(todo))
    visits = 0
    original_tasks, original_segments = Document.tasks, Document.segments

    def counting(original: Callable[[Document], Iterable[T]]) -> Callable[[Document], list[T]]:
        def wrapper(self: Document) -> list[T]:
            nonlocal visits
            items = list(original(self))
            visits += len(items)
            return items

        return wrapper

    monkeypatch.setattr(Document, "tasks", counting(original_tasks))
    monkeypatch.setattr(Document, "segments", counting(original_segments))
    ops = [Op(OpKind.DONE, task=f"t{i}") for i in range(k)]
    ops += [Op(OpKind.NOTE, task=f"#{i + 1}", text="n") for i in range(k)]
    ops += [Op(OpKind.APPEND, phase="P", items=(f"new{i}",)) for i in range(k)]
    result, _ = apply(doc, Batch(tuple(ops), Settings(max_tasks=n + k)))
    assert result.ok
    # A product of list size and batch size would be n * 3k = 1.8 million visits.
    assert visits < 20 * (n + 3 * k)


def document_steps(batch: Callable[[], object]) -> int:
    """The lines the document layer (markdown.py) runs for a batch: work, counted
    rather than timed. (Lines, not opcodes: on Python 3.12.1 a frame's
    ``f_trace_opcodes`` set in the first call event of a trace gives no opcode
    events, so the first count was 0.)"""
    import sys
    from types import FrameType
    from typing import Any

    from todocli.document import markdown

    steps = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += event == "line"
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != markdown.__file__:
            return None
        return local

    previous = sys.gettrace()  # a coverage tool's, if any: put back after
    sys.settrace(calls)
    try:
        batch()
    finally:
        sys.settrace(previous)
    return steps


def test_notes_on_one_task_cost_the_same_however_many_it_has() -> None:
    """N notes on one task: each is added after the last without going over the
    ones before it (that made 10,000 notes take seconds)."""

    def notes(n: int) -> int:
        doc = todocli.loads("- [/] a\n")
        ops = [Op(OpKind.NOTE, task="a", text=f"n{i}") for i in range(n)]

        def batch() -> None:
            result, _ = apply(doc, Batch(tuple(ops), Settings()))
            assert result.ok

        return document_steps(batch)

    small, large = notes(300), notes(1200)
    # Linear: four times the notes, about four times the work (a cost that grows
    # with the notes already there would make it about sixteen times).
    assert large < 5 * small


def test_settings_are_plain_values() -> None:
    changed = Settings().replace(max_tasks=5)
    assert (changed.max_tasks, Settings().max_tasks) == (5, 50)


def test_every_op_kind_has_exactly_one_handler() -> None:
    """The dispatch table names one method per kind, the one named for it, and no
    method of the engine is left out of it."""
    assert list(HANDLERS) == list(OpKind.ALL)
    for kind, handler in HANDLERS.items():
        assert handler is getattr(Engine, f"_op_{kind.value}")
    methods = {name for name in vars(Engine) if name.startswith("_op_")}
    assert methods == {f"_op_{kind.value}" for kind in OpKind.ALL}
    assert len(set(HANDLERS.values())) == len(HANDLERS)
