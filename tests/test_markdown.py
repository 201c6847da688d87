"""The markdown reader and writer: what is a task, and that nothing else changes."""

from __future__ import annotations

import pytest

import todocli
from todocli import Phase, Status, Task, TodoList
from todocli.document.markdown import Document, TaskNode, parse


def model(text: str) -> TodoList:
    return todocli.loads(text).model()


def tasks(text: str) -> list[tuple[str, Status]]:
    return [(t.content, t.status) for _, t in model(text).tasks()]


def node(doc: Document, content: str) -> TaskNode:
    found = doc.find(content)
    assert found is not None, f"no task {content!r}"
    return found


# -- reading: statuses ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("- [ ] a", Status.PENDING),
        ("- [] a", Status.PENDING),
        ("- [\t] a", Status.PENDING),
        ("- [/] a", Status.IN_PROGRESS),
        ("- [>] a", Status.IN_PROGRESS),
        ("- [x] a", Status.COMPLETED),
        ("- [X] a", Status.COMPLETED),
        ("- [-] a", Status.ABANDONED),
        # In a file with none of todo's own markers, [~] is GSD's and Gemini
        # Conductor's task under way (tests/test_conventions.py: todo's abandoned else).
        ("- [~] a", Status.IN_PROGRESS),
        ("- [!] a", Status.BLOCKED),
        ("- \\[x\\] a", Status.COMPLETED),
        ("- \\[ \\] a", Status.PENDING),
    ],
)
def test_every_marker_spelling_reads_as_its_status(line: str, status: Status) -> None:
    assert tasks(line + "\n") == [("a", status)]


@pytest.mark.parametrize("bullet", ["-", "*", "+", "1.", "7)", "123."])
def test_every_bullet_kind_holds_a_task(bullet: str) -> None:
    assert tasks(f"{bullet} [ ] a\n") == [("a", Status.PENDING)]


def test_unknown_marker_stays_text_and_warns_with_its_line_number() -> None:
    doc = todocli.loads("# T\n\n- [ ] a\n- [?] b\n")
    assert [t.content for t in doc.tasks()] == ["a"]
    assert doc.warnings == ['Line 4: unknown status marker "[?]" (use [ ], [x], [/], [-])']


def test_links_and_multi_character_brackets_are_not_warned_about() -> None:
    doc = todocli.loads("- [link](x) a\n- [ab] b\n- [a]\n")
    assert doc.warnings == []
    assert list(doc.tasks()) == []


# -- reading: what is and is not a task -------------------------------------------


def test_nested_tasks_are_tasks_in_document_order() -> None:
    text = "- [ ] parent\n  - [x] child\n    - [ ] grandchild\n- [ ] next\n"
    assert [c for c, _ in tasks(text)] == ["parent", "child", "grandchild", "next"]


def test_tasks_inside_code_html_front_matter_and_quotes_are_not_tasks() -> None:
    text = (
        "---\n- [ ] front\n---\n"
        "```\n- [ ] fenced\n```\n"
        "~~~~\n- [ ] tilde\n~~~~\n"
        "\n    - [ ] indented code\n\n"
        "<div>\n- [ ] html\n</div>\n\n"
        "<!--\n- [ ] comment\n-->\n"
        "> - [ ] quoted\n\n"
        "- [ ] real\n"
    )
    assert [c for c, _ in tasks(text)] == ["real"]


def test_a_fence_opened_inside_a_list_item_ends_with_that_item() -> None:
    text = "- item\n  ```\n  - [ ] in fence\n- [ ] after\n"
    assert [c for c, _ in tasks(text)] == ["after"]


def test_indented_text_after_a_paragraph_is_continuation_not_a_task() -> None:
    assert tasks("para\n    - [ ] x\n") == []
    assert [c for c, _ in tasks("para\n- [ ] x\n")] == ["x"]


def test_a_marker_that_ends_its_line_is_text_and_one_followed_by_a_space_a_task() -> None:
    # cmark-gfm's rule (GitHub's parser): whitespace must follow the marker on its line.
    assert tasks("- [ ]\n") == []
    assert tasks("- [ ] \n") == [("", Status.PENDING)]


def test_task_text_underlined_into_a_setext_heading_stays_a_task_as_in_cmark_gfm() -> None:
    assert tasks("- [ ] a\n  ---\n") == [("a", Status.PENDING)]


def test_byte_order_mark_does_not_hide_a_task_on_the_first_line() -> None:
    text = "\ufeff- [ ] first\n"
    doc = todocli.loads(text)
    assert [t.content for t in doc.tasks()] == ["first"]
    doc.set_status(node(doc, "first"), Status.COMPLETED)
    assert doc.text() == "\ufeff- [x] first\n"


# -- reading: phases, summary, notes, active form ---------------------------------


def test_phases_are_headings_with_tasks_and_orphans_go_to_todos() -> None:
    text = "- [ ] orphan\n# Title\n## Empty\ntext\n## A\n- [ ] a\n### B\n- [x] b\n"
    m = model(text)
    assert [p.name for p in m.phases] == ["Todos", "A", "B"]
    assert m.summary == "Title"


def test_first_h1_with_tasks_under_it_is_a_phase_not_the_summary() -> None:
    m = model("# Todos\n- [ ] a\n")
    assert m.summary == ""
    assert [p.name for p in m.phases] == ["Todos"]


def test_closing_hashes_are_not_part_of_a_heading() -> None:
    assert model("## Ship ##\n- [ ] a\n").phases[0].name == "Ship"


def test_notes_split_on_bare_quote_lines_and_span_lines() -> None:
    text = "- [/] a <!-- active: Doing a -->\n  > one\n  > more\n  >\n  > two\n- [ ] b\n"
    first = model(text).phases[0].tasks[0]
    assert first == Task("a", Status.IN_PROGRESS, "Doing a", ("one\nmore", "two"))


def test_a_quote_at_column_zero_is_not_a_note() -> None:
    text = "- [ ] a\n> not a note\n"
    assert model(text).phases[0].tasks[0].notes == ()


# -- lossless round trip ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "no newline",
        "- [ ] a",
        "- [ ] a\r\n- [x] b\r\n",
        "- [ ] a\r- [x] b\r",
        "- [ ] a\n- [x] b\r\n\r- [?] c",
        "\ufeff# T\r\n\r\n- [ ] a\r\n",
        "\t- [ ]\ttabs\t\n",
        "| a | b |\n|---|---|\n| - [ ] x | y |\n",
        "<!-- - [ ] x -->\n- [ ] y <!-- active: z -->  \n",
        "a\x0cb\x1c\u2028c\n- [ ] x\x85y\n",
    ],
)
def test_round_trip_is_exact(text: str) -> None:
    assert todocli.dumps(todocli.loads(text)) == text


def test_form_feed_and_unicode_separators_are_not_line_breaks() -> None:
    assert [c for c, _ in tasks("- [ ] a\u2028b\n")] == ["a\u2028b"]


# -- editing primitives ---------------------------------------------------------------


def test_set_status_changes_exactly_the_marker_character() -> None:
    text = "# T\n\n- [ ] a\n- [ ] b\n"
    doc = todocli.loads(text)
    doc.set_status(node(doc, "b"), Status.COMPLETED)
    assert doc.text() == "# T\n\n- [ ] a\n- [x] b\n"


def test_set_status_on_empty_brackets_fills_them() -> None:
    doc = todocli.loads("- [] a\n")
    doc.set_status(node(doc, "a"), Status.COMPLETED)
    assert doc.text() == "- [x] a\n"


def test_set_status_to_the_same_state_keeps_the_users_spelling() -> None:
    doc = todocli.loads("- [X] a\n")
    doc.set_status(node(doc, "a"), Status.COMPLETED)
    assert doc.text() == "- [X] a\n"


def test_active_form_is_added_replaced_and_removed_on_its_line() -> None:
    doc = todocli.loads("- [ ] a\n- [ ] b\n")
    a = node(doc, "a")
    doc.set_active_form(a, "Doing a")
    assert doc.text() == "- [ ] a <!-- active: Doing a -->\n- [ ] b\n"
    doc.set_active_form(a, "Still doing a")
    assert doc.text() == "- [ ] a <!-- active: Still doing a -->\n- [ ] b\n"
    doc.set_active_form(a, None)
    assert doc.text() == "- [ ] a\n- [ ] b\n"


def test_new_task_copies_bullet_indent_and_line_ending_of_its_phase() -> None:
    doc = todocli.loads("# T\r\n\r\n## P\r\n  * [ ] a\r\n\r\nafter\r\n")
    doc.add_task("P", "b")
    assert doc.text() == "# T\r\n\r\n## P\r\n  * [ ] a\r\n  * [ ] b\r\n\r\nafter\r\n"


def test_new_task_in_an_ordered_list_counts_on() -> None:
    doc = todocli.loads("1. [x] a\n2. [ ] b\n")
    doc.add_task("Todos", "c")
    assert doc.text() == "1. [x] a\n2. [ ] b\n3. [ ] c\n"


def test_file_without_final_newline_still_has_none_after_an_append() -> None:
    doc = todocli.loads("- [ ] a")
    doc.add_task("Todos", "b")
    assert doc.text() == "- [ ] a\n- [ ] b"


def test_new_phase_goes_at_the_end_with_a_blank_line_before_it() -> None:
    doc = todocli.loads("# Summary\n\n## A\n- [ ] a\n")
    doc.add_task("B", "b")
    assert doc.text() == "# Summary\n\n## A\n- [ ] a\n\n## B\n- [ ] b\n"


def test_task_for_an_existing_empty_heading_goes_at_the_end_of_its_section() -> None:
    doc = todocli.loads("## Later\nSome prose.\n\n## Next\ntext\n")
    doc.add_task("Later", "x")
    assert doc.text() == "## Later\nSome prose.\n\n- [ ] x\n\n## Next\ntext\n"
    assert [c for c, _ in tasks(doc.text())] == ["x"]


def test_indented_text_under_a_heading_does_not_join_a_new_task() -> None:
    doc = todocli.loads("# H\n\t- [ ] code, not a task\n")
    doc.add_task("H", "x")
    assert [c for c, _ in tasks(doc.text())] == ["x"]


def test_appending_after_an_unclosed_fence_closes_it_first() -> None:
    doc = todocli.loads("```\ncode")
    doc.add_task("P", "x")
    assert doc.text() == "```\ncode\n```\n\n## P\n- [ ] x"
    assert [c for c, _ in tasks(doc.text())] == ["x"]


def test_first_task_of_an_empty_list_is_written_canonically() -> None:
    doc = todocli.loads("")
    doc.add_task("Todos", "Try todocli")
    assert doc.text() == "# Todos\n- [ ] Try todocli\n"


def test_notes_are_added_under_their_task_with_a_separator() -> None:
    doc = todocli.loads("1. [ ] a\n2. [ ] b\n")
    a = node(doc, "a")
    doc.add_note(a, "first")
    doc.add_note(a, "second\nline")
    assert doc.text() == "1. [ ] a\n   > first\n   >\n   > second\n   > line\n2. [ ] b\n"
    assert model(doc.text()).phases[0].tasks[0].notes == ("first", "second\nline")


def test_an_item_nested_on_the_line_of_another_is_no_task_as_in_cmark_gfm() -> None:
    # cmark-gfm reads a task marker only right after the first bullet of a line.
    assert tasks("- - [ ] a\n1. * [x] b\n") == []
    assert tasks("- a\n  - [ ] b\n") == [("b", Status.PENDING)]


def test_note_copies_the_prefix_of_existing_notes() -> None:
    doc = todocli.loads("- [ ] a\n    >  old\n")
    doc.add_note(node(doc, "a"), "new")
    assert doc.text() == "- [ ] a\n    >  old\n    >\n    > new\n"


def test_removing_a_task_removes_its_notes_but_not_nested_tasks() -> None:
    doc = todocli.loads("- [ ] a\n  > note\n  - [ ] child\n- [ ] b\n")
    doc.remove_task(node(doc, "a"))
    assert doc.text() == "- [ ] child\n- [ ] b\n"


def test_removing_a_phases_last_task_removes_its_now_empty_heading() -> None:
    text = "# S\n\n## A\n- [ ] a\n\n## B\n- [ ] b\n"
    doc = todocli.loads(text)
    doc.remove_task(node(doc, "b"))
    assert doc.text() == "# S\n\n## A\n- [ ] a\n"
    doc = todocli.loads(text)
    doc.remove_task(node(doc, "a"))
    assert doc.text() == "# S\n\n## B\n- [ ] b\n"


def test_a_heading_that_still_heads_prose_is_kept() -> None:
    doc = todocli.loads("## A\n- [ ] a\n\nprose\n")
    doc.remove_task(node(doc, "a"))
    assert doc.text() == "## A\n\nprose\n"


def test_summary_is_replaced_in_place_or_added_at_the_top() -> None:
    doc = todocli.loads("# Old\n\nprose\n\n## P\n- [ ] a\n")
    doc.set_summary("New")
    assert doc.text() == "# New\n\nprose\n\n## P\n- [ ] a\n"
    doc = todocli.loads("---\nk: v\n---\n- [ ] a\n")
    doc.set_summary("Top")
    assert doc.text() == "---\nk: v\n---\n# Top\n\n## Todos\n- [ ] a\n"
    assert model(doc.text()) == TodoList("Top", (Phase("Todos", (Task("a"),)),))


# -- canonical form -------------------------------------------------------------------

FORMAT_EXAMPLE = """\
# Fix multi_edit overlap detection

## Investigate
- [x] Reproduce the bug
- [/] Patch the interval check <!-- active: Patching the interval check -->
  > off-by-one at the range end
  >
  > second note
- [ ] Add a regression test

## Ship
- [-] Benchmark script
- [ ] Update docs
"""

FORMAT_EXAMPLE_MODEL = TodoList(
    summary="Fix multi_edit overlap detection",
    phases=(
        Phase(
            "Investigate",
            (
                Task("Reproduce the bug", Status.COMPLETED),
                Task(
                    "Patch the interval check",
                    Status.IN_PROGRESS,
                    "Patching the interval check",
                    ("off-by-one at the range end", "second note"),
                ),
                Task("Add a regression test"),
            ),
        ),
        Phase("Ship", (Task("Benchmark script", Status.ABANDONED), Task("Update docs"))),
    ),
)


def test_the_format_example_reads_into_its_model_and_is_its_canonical_form() -> None:
    assert model(FORMAT_EXAMPLE) == FORMAT_EXAMPLE_MODEL
    assert todocli.dumps(FORMAT_EXAMPLE_MODEL) == FORMAT_EXAMPLE


# oh-my-pi's phasesToMarkdown output: every phase an H1, notes as "  > ", a bare "  >"
# between notes (and for an empty line inside one), "# Todos" for an empty list.
OH_MY_PI_CASES = [
    ("# Todos\n", TodoList()),
    (
        "# Investigate\n- [x] Reproduce\n- [/] Patch\n  > off by one\n  >\n  > second\n"
        "\n# Ship\n- [-] Bench\n- [ ] Docs\n",
        TodoList(
            "",
            (
                Phase(
                    "Investigate",
                    (
                        Task("Reproduce", Status.COMPLETED),
                        Task("Patch", Status.IN_PROGRESS, None, ("off by one", "second")),
                    ),
                ),
                Phase("Ship", (Task("Bench", Status.ABANDONED), Task("Docs"))),
            ),
        ),
    ),
    (
        "# Todos\n- [>] a\n- [~] b\n- [X] c\n- [] d\n- [!] e\n",
        TodoList(
            "",
            (
                Phase(
                    "Todos",
                    (
                        Task("a", Status.IN_PROGRESS),
                        Task("b", Status.ABANDONED),
                        Task("c", Status.COMPLETED),
                        Task("d"),
                        Task("e", Status.BLOCKED),
                    ),
                ),
            ),
        ),
    ),
    (
        "# Build\n- [x] one\n  > line one\n  > line two\n",
        TodoList(
            "", (Phase("Build", (Task("one", Status.COMPLETED, None, ("line one\nline two",)),)),)
        ),
    ),
]


@pytest.mark.parametrize(("text", "expected"), OH_MY_PI_CASES)
def test_oh_my_pi_phases_to_markdown_output_reads_into_its_model(
    text: str, expected: TodoList
) -> None:
    doc = todocli.loads(text)
    assert doc.model() == expected
    assert todocli.dumps(doc) == text


def test_a_task_added_to_an_empty_todos_list_goes_under_its_heading() -> None:
    doc = todocli.loads("# Todos\n")
    doc.add_task("Todos", "a")
    assert doc.text() == "# Todos\n- [ ] a\n"


def test_lone_todos_phase_without_summary_is_written_as_h1() -> None:
    assert todocli.dumps(TodoList(phases=(Phase("Todos", (Task("a"),)),))) == "# Todos\n- [ ] a\n"


def test_empty_list_is_an_empty_file() -> None:
    assert todocli.dumps(TodoList()) == ""


def test_removing_a_parent_lifts_its_nested_tasks_one_level() -> None:
    doc = todocli.loads("- [x] done parent\n\t- [ ] child\n      > child note\n- [ ] next\n")
    doc.remove_task(node(doc, "done parent"))
    assert doc.text() == "  - [ ] child\n    > child note\n- [ ] next\n"
    assert [c for c, _ in tasks(doc.text())] == ["child", "next"]


@pytest.mark.parametrize("asked_first", [False, True])
def test_the_index_knows_an_added_task_whether_it_was_made_before_or_after(
    asked_first: bool,
) -> None:
    # The index is made when first asked for (a show never asks): an index made
    # while a task is being added must not take the new task for a copy of itself.
    doc = parse("# Plan\n\n## Phase 1\n- [ ] First\n- [x] Second\n")
    if asked_first:
        assert doc.find("First") is not None
    new = doc.add_task("Phase 1", "Third")
    assert doc.duplicates == set()
    assert doc.find("Third") is new
    copy = doc.add_task("Phase 1", "First")
    assert doc.duplicates == {"First"}
    assert doc.find("First") is not copy
    doc.reindex()
    assert doc.duplicates == {"First"}
    assert doc.find("First") is doc.tasks()[0]
