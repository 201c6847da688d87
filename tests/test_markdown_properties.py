"""Hypothesis properties of the markdown reader and writer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import todocli
from todocli import Phase, Status, Task, TodoList
from todocli.document.model import Diff

# Characters that exercise the grammar: line endings of every kind, tabs, the BOM,
# brackets, quotes, headings, bullets, fences and HTML.
MARKDOWN_CHARS = st.sampled_from(
    [*list("\n\r\t >#-*+1.)[]xX/!~\\`<!-a b"), "\ufeff", "\xa0", "é", "中"]
)
LINE_PIECES = st.sampled_from(
    [
        "- [ ] a",
        "- [x] b",
        "  - [/] c",
        "1. [-] d",
        "* [!] e",
        "- [?] f",
        "> q",
        "  > note",
        "  >",
        "```",
        "~~~",
        "    code",
        "text",
        "",
        "# H",
        "## P",
        "---",
        "<div>",
        "<!--",
        "-->",
        "- ",
        "\t- [ ] t",
        "- [] g",
        "- \\[x\\] h",
    ]
)
EOLS = st.sampled_from(["\n", "\r\n", "\r", ""])


@st.composite
def markdownish(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.tuples(LINE_PIECES, EOLS), max_size=12))
    return "".join(piece + eol for piece, eol in lines)


@settings(max_examples=400)
@given(st.text(MARKDOWN_CHARS, max_size=80))
def test_round_trip_holds_for_any_text_of_grammar_characters(text: str) -> None:
    assert todocli.dumps(todocli.loads(text)) == text


@settings(max_examples=400)
@given(st.text(max_size=200))
def test_round_trip_holds_for_any_unicode_text(text: str) -> None:
    assert todocli.dumps(todocli.loads(text)) == text


@settings(max_examples=400)
@given(markdownish())
def test_round_trip_holds_for_markdown_shaped_text(text: str) -> None:
    assert todocli.dumps(todocli.loads(text)) == text


# -- models: canonical text reads back into the same model ----------------------------

WORD = st.text(
    st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABC0123456789_*`()[]:/.,'\"é中")),
    min_size=1,
    max_size=8,
)
PHRASE = st.lists(WORD, min_size=1, max_size=4).map(" ".join)


@st.composite
def todo_lists(draw: st.DrawFn) -> TodoList:
    names = draw(st.lists(PHRASE, min_size=0, max_size=4, unique=True))
    contents = iter(draw(st.lists(PHRASE, min_size=len(names) * 3, unique=True)))
    phases = []
    for name in names:
        tasks = []
        for _ in range(draw(st.integers(1, 3))):
            content = next(contents, None)
            if content is None:
                break
            notes = draw(
                st.lists(st.lists(PHRASE, min_size=1, max_size=2).map("\n".join), max_size=2)
            )
            tasks.append(
                Task(
                    content,
                    draw(st.sampled_from(list(Status.ALL))),
                    draw(st.none() | PHRASE),
                    tuple(notes),
                )
            )
        if tasks:
            phases.append(Phase(name, tuple(tasks)))
    summary = draw(st.just("") | PHRASE)
    return TodoList(summary, tuple(phases))


@settings(max_examples=300)
@given(todo_lists())
def test_canonical_text_reads_back_into_the_same_model(todo: TodoList) -> None:
    text = todocli.dumps(todo)
    assert todocli.loads(text).model() == todo


@settings(max_examples=300)
@given(st.one_of(todo_lists().map(todocli.dumps), markdownish()), st.data())
def test_a_status_change_alters_exactly_one_character_of_one_line(
    text: str, data: st.DataObject
) -> None:
    doc = todocli.loads(text)
    candidates = [t for t in doc.tasks() if t.marker_len == 1]
    if not candidates:
        return
    target = data.draw(st.sampled_from(candidates))
    status = data.draw(st.sampled_from([s for s in Status.ALL if s is not target.status]))
    char, hidden = doc.marker_for(status)
    if hidden is not None or target.hidden is not None:
        # A file whose markers cannot show the status keeps it in the task's hidden
        # comment: its task line changes, no other line (tests/test_conventions.py).
        index = next(i for i, t in enumerate(doc.tasks()) if t is target)
        doc.set_status(target, status)
        after = doc.text()
        changed = [
            n
            for n, (a, b) in enumerate(zip(text.splitlines(), after.splitlines(), strict=False))
            if a != b
        ]
        first = target.line_no - 1
        assert changed
        assert set(changed) <= {first, first + target.text_line}
        assert list(todocli.loads(after).tasks())[index].status is status
        return
    doc.set_status(target, status)
    after = doc.text()
    assert len(after) == len(text)
    differing = [i for i, (a, b) in enumerate(zip(text, after, strict=True)) if a != b]
    assert len(differing) == 1
    assert after[differing[0]] == char
    assert todocli.loads(after).find(target.content) is not None


@settings(max_examples=500)
@given(st.one_of(markdownish(), todo_lists().map(todocli.dumps)))
def test_the_scanners_fast_path_reads_lines_as_the_general_path_does(text: str) -> None:
    from todocli.document.blocks import Scanner, split_lines
    from todocli.document.lines import LineInfo, LineKind
    from todocli.document.markdown import Document
    from todocli.document.runs import start_of
    from todocli.document.segments import Builder

    lines = split_lines(text)
    fast, general = Scanner(), Scanner()
    general.fast = False
    fast_infos, general_infos = fast.scan(lines), general.scan(lines)
    seen = []
    for i, info in enumerate(fast_infos):
        if info.kind == LineKind.TASK and info.task is None:
            # A line of a run: its report says only that (runs.py); spelled out
            # here as the general steps' report on it.
            info = LineInfo()
            info.kind, info.owner, info.task = LineKind.TASK, i, start_of(lines[i], i)
        seen.append(vars_of(info))
    assert seen == [vars_of(i) for i in general_infos]
    # The builder makes the same segments of both (of a run's line from the line).
    segments = []
    for infos in (fast_infos, general_infos):
        doc = Document()
        Builder(lines, infos, doc.head).build()
        segments.append([segment_fields(seg) for seg in doc.segments()])
    assert segments[0] == segments[1]


def segment_fields(seg: object) -> tuple[object, ...]:
    names = [n for c in type(seg).__mro__ for n in getattr(c, "__slots__", ())]
    return (type(seg).__name__, *(getattr(seg, n) for n in names if n not in ("prev", "next")))


# Lines of nested quotes and items, the shapes the scanner reads in one step
# (``- - - x``, ``> - > - x``), and near misses of them, with lines that go on.
NESTED_PIECES = ["> ", ">", "- ", "-", "* ", "1. ", "2) ", " ", "  ", "\t", "[ ] ", "[x] ", "x"]


@settings(max_examples=500)
@given(
    st.lists(
        st.lists(st.sampled_from(NESTED_PIECES), max_size=14).map("".join), min_size=1, max_size=4
    )
)
def test_nested_quotes_and_items_are_read_alike_by_the_fast_and_general_paths(
    lines: list[str],
) -> None:
    test_the_scanners_fast_path_reads_lines_as_the_general_path_does.hypothesis.inner_test(  # type: ignore[attr-defined]
        "\n".join(lines) + "\n"
    )


def test_the_lines_after_nested_quotes_and_items_go_on_in_them_as_the_general_path_reads() -> None:
    """Where a nested item's content starts decides which of the next lines go on in
    it: every line of up to three quote or indent steps after each nested shape."""
    import itertools

    from todocli.document.blocks import Scanner, split_lines

    steps = [">" + " " * n for n in range(5)] + [" " * n for n in range(1, 7)]
    prefixes = ["".join(p) for k in range(4) for p in itertools.product(steps, repeat=k)]
    for first in ("> - > - > - x", "- > - > - [ ] x", "> 1. > 1. x", "- - - x"):
        # After a blank line (no lazy paragraph to go on), or as a new item.
        for second in [f"\n{p}y" for p in prefixes] + [f"{p}- [ ] y" for p in prefixes]:
            lines = split_lines(f"{first}\n{second}\n")
            fast, general = Scanner(), Scanner()
            general.fast = False
            seen = [vars_of(i) for i in fast.scan(lines)]
            assert seen == [vars_of(i) for i in general.scan(lines)], (first, second)


# Task lines of the plainest shape (read as a run, ``document.runs``), near misses
# of it, and the lines that may follow a run: its notes, lazy and indented lines,
# nested items, code, blank lines; with each line ending.
RUN_PIECES = [
    "- [ ] a",
    "* [x] b",
    "+ [/] c",
    "- [X] d",
    "- [-] e",
    "- [!] f",
    "- [P] g",
    "- [] h",
    "- [ ]  ",
    "- [ ]\tx",
    "- [\t] y",
    "- [\\] z",
    "-  [ ] w",
    "  > note",
    "  > Another",
    "  > - [ ] quoted",
    "  > # not a heading",
    "  > ",
    "  >",
    "  >  two",
    "  > =",
    "> note",
    "## Phase",
    "# Top ##",
    "#no heading",
    "####### seven",
    "  ## indented",
    "   ",
    "  - [ ] nested",
    "    code or more",
    "lazy text",
    "",
    "```",
    "> quoted",
    "1. [ ] ordered",
    "<div>",
]


@settings(max_examples=500)
@given(
    st.lists(st.sampled_from(RUN_PIECES), min_size=1, max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_runs_of_plain_task_lines_are_read_as_the_general_path_reads_them(
    pieces: list[str], eol: str
) -> None:
    test_the_scanners_fast_path_reads_lines_as_the_general_path_does.hypothesis.inner_test(  # type: ignore[attr-defined]
        "# Plan" + eol + eol.join(pieces) + eol
    )


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize(
    "shape",
    [
        "- [ ] a|  > note||## Phase 2||- [ ] b|- [x] c|||### Three ##|- [ ] d|",
        "- [ ] a|## Two|- [ ] b||# One||  > x|- [ ] c",
        "- [ ] a||## Two||- [ ]  |- [ ] b||#no|- [ ] c",
        "- [ ] a|  > n|  > m||## Two||",
    ],
)
def test_plans_in_phases_are_read_as_the_general_path_reads_them(shape: str, eol: str) -> None:
    test_the_scanners_fast_path_reads_lines_as_the_general_path_does.hypothesis.inner_test(  # type: ignore[attr-defined]
        "# Plan" + eol + eol + shape.replace("|", eol) + eol
    )


def vars_of(info: object) -> tuple[object, ...]:
    task = getattr(info, "task", None)
    task_fields = tuple(getattr(task, n) for n in task.__slots__) if task else None
    return (*(getattr(info, n) for n in info.__slots__ if n != "task"), task_fields)  # type: ignore[attr-defined]


@settings(max_examples=500)
@given(st.text(st.sampled_from(list("*-_=`~ \ta")), max_size=12))
def test_string_checks_match_the_commonmark_patterns_they_replace(rest: str) -> None:
    import re

    from todocli.document.lines import is_thematic_break as _is_thematic_break

    if rest:
        c = rest[0]
        thematic = re.match(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$", rest)
        if c in "*-_":
            assert _is_thematic_break(rest, c) == bool(thematic)
        setext = re.match(r"(?:=+|-+)[ \t]*$", rest)
        if c in "=-":
            assert (not rest.rstrip(" \t").strip(c)) == bool(setext)
        fence = re.match(r"(`{3,}|~{3,})(.*)$", rest)
        if c in "`~":
            run = len(rest) - len(rest.lstrip(c))
            assert (run >= 3) == bool(fence)


@given(st.text(max_size=70))
def test_session_name_check_matches_its_documented_pattern(name: str) -> None:
    import re

    from todocli.base import is_session_name

    assert is_session_name(name) == bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name))


def _plain_list(rows: list[tuple[str, Status]]) -> TodoList:
    return TodoList("", (Phase("Todos", tuple(Task(c, s) for c, s in rows)),) if rows else ())


@settings(max_examples=400)
@given(
    st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from(list(Status.ALL))), max_size=7),
    st.lists(st.sampled_from(list(Status.ALL)), min_size=7, max_size=7),
    st.sampled_from(["statuses", "reversed", "one less", "one more"]),
)
def test_a_diff_of_the_same_texts_read_task_by_task_is_the_diff_read_by_text(
    rows: list[tuple[str, Status]], statuses: list[Status], change: str
) -> None:
    from todocli.document import model

    new_rows = [(c, statuses[i]) for i, (c, _) in enumerate(rows)]
    if change == "reversed":
        new_rows.reverse()
    elif change == "one less":
        new_rows = new_rows[1:]
    elif change == "one more":
        new_rows.append(("f", Status.PENDING))
    old, new = _plain_list(rows), _plain_list(new_rows)
    seen = Diff.between(old, new)
    fast = model._changed_in_place
    model._changed_in_place = lambda old, new: None  # the reading by text alone
    try:
        expected = Diff.between(old, new)
    finally:
        model._changed_in_place = fast
    assert seen == expected


@settings(max_examples=400)
@given(
    st.lists(
        st.tuples(st.sampled_from("abc"), st.sampled_from(list(Status.ALL))), min_size=1, max_size=6
    ),
    st.data(),
)
def test_renames_by_id_alone_read_as_renames_alone(
    rows: list[tuple[str, Status]], data: st.DataObject
) -> None:
    """Tasks with ids, some of one text, in any status. A batch renames some of them
    by id, to new texts or two of them to each other's (a swap), and changes nothing
    else: the diff is those renames (nothing added, removed or changed) and no note
    reads as new, whichever copy of a repeated text each rename took."""
    from todocli.document.model import Meta, notes_added

    texts = [text for text, _ in rows]
    new_texts = list(texts)
    renamed: list[tuple[str, str]] = []
    picked = data.draw(st.lists(st.integers(0, len(rows) - 1), unique=True, max_size=3))
    for i in picked:
        new_texts[i] = f"{texts[i]}{i}"
        renamed.append((texts[i], new_texts[i]))
    rest = [i for i in range(len(rows)) if i not in picked]
    if len(rest) >= 2 and data.draw(st.booleans()):
        i, j = data.draw(st.lists(st.sampled_from(rest), min_size=2, max_size=2, unique=True))
        if texts[i] != texts[j]:
            new_texts[i], new_texts[j] = texts[j], texts[i]
            renamed += [(texts[i], texts[j]), (texts[j], texts[i])]

    def listed(contents: list[str]) -> TodoList:
        tasks = tuple(
            Task(text, status, notes=(f"note {n}",), meta=Meta(id=str(n)))
            for n, (text, (_, status)) in enumerate(zip(contents, rows, strict=True))
        )
        return TodoList("", (Phase("Todos", tasks),))

    old, new = listed(texts), listed(new_texts)
    assert Diff.between(old, new, tuple(renamed)) == Diff(renamed=tuple(renamed))
    assert notes_added(old, new, tuple(renamed)) == ()
