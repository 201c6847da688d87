"""Each list written in its own convention: on files in spec-kit's, Kiro's (its
optional ``- [ ]*`` tasks too), OpenSpec's, GSD's, Backlog.md's and a plain GitHub
shape, real ``todo`` processes write no marker
the file did not already use, read other tools' markers in their tools' meaning,
change only the bytes an operation must, keep every task a checkbox where cmark-gfm
renders one, and ``undo`` gives the original bytes back."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import todocli
from tests.support_cli import Run, todo_process
from tests.support_gfm import gfm_task_items
from todocli.document.model import Status

SPECKIT = """\
# Tasks: Photo Albums

**Input**: Design documents from `/specs/001-photo-albums/`

## Format: `[ID] [P?] [Story] Description`

- [P] tasks = different files, no dependencies
- [Story] = which user story this task belongs to (US1, US2)

## Phase 1: Setup (Shared Infrastructure)

- [X] T001 Create project structure per implementation plan
- [ ] T002 Initialize Python project with FastAPI dependencies
- [ ] T003 [P] Configure linting and formatting tools

## Phase 3: User Story 1 - Create albums (Priority: P1)

- [ ] T010 [P] [US1] Contract test for POST /albums in tests/contract/test_albums.py
- [ ] T011 [US1] Implement Album model in src/models/album.py
"""

KIRO = """\
# Implementation Plan

- [x] 1. Set up project structure and core interfaces
  - Create directory structure for models, services, repositories
  - _Requirements: 1.1_

- [-] 2. Implement data models and validation
  - [x] 2.1 Create core data model interfaces
    - _Requirements: 2.1, 3.3, 1.2_
  - [ ] 2.2 Implement User model with validation
    - Write User class with validation methods
    - _Requirements: 1.2_
  - [ ]* 2.3 Write unit tests for User model
    - _Requirements: 1.2_

- [ ] 3. Create storage mechanism
  - _Requirements: 4.1_
"""

OPENSPEC = """\
## 1. Implementation

- [x] 1.1 Create database migration
- [ ] 1.2 Implement API endpoint
- [ ] 1.3 Add frontend component

## 2. Testing

- [ ] 2.1 Write unit tests
"""

GSD = """\
# Roadmap: Photo Albums

## Phases

- [x] **Phase 1: Foundation** - project setup
- [~] **Phase 2: Core API** - code-complete, verify pending
- [ ] **Phase 3: Frontend** - albums UI
"""

# Backlog.md's task file (backlog/tasks/task-7 - ....md): front matter, sections
# between its comment markers, acceptance criteria numbered #1... by Backlog.md.
BACKLOG = """\
---
id: task-7
title: Export the albums
status: In Progress
assignee:
  - '@codex'
created_date: '2025-06-12 10:04'
labels:
  - export
dependencies: []
---

## Description

<!-- SECTION:DESCRIPTION:BEGIN -->
Let a person download an album as a zip file.
<!-- SECTION:DESCRIPTION:END -->

## Acceptance Criteria
<!-- AC:BEGIN -->
- [x] #1 GET /albums/:id/export returns a zip of the album's photos
- [ ] #2 The zip keeps the photos' original file names
- [ ] #3 An empty album exports an empty zip
<!-- AC:END -->

## Implementation Plan

<!-- SECTION:PLAN:BEGIN -->
1. Stream the zip instead of building it in memory
<!-- SECTION:PLAN:END -->
"""

# A hand-kept TODO.md: CRLF line endings, no final newline.
PLAIN = "# TODO\r\n\r\n- [ ] Write the parser\r\n- [x] Set up CI\r\n- [ ] Ship it"

MARKER = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[(.)\]", re.MULTILINE)


def markers(text: str) -> set[str]:
    return set(MARKER.findall(text))


def statuses(text: str) -> list[Status]:
    return [t.status for t in todocli.loads(text).tasks()]


def todo(path: Path, *args: str) -> Run:
    return todo_process("--file", str(path), *args)


def checkboxes_hold(text: str) -> None:
    """Every task spelled with GitHub's markers is a checkbox in cmark-gfm's
    rendering, and a checked one exactly when it is ticked; Kiro's optional task
    (``- [ ]*``) is none, as Kiro writes it."""
    rendered = gfm_task_items(text)
    for task in todocli.loads(text).tasks():
        line = task.lines[0]
        marker = line[task.marker_pos - 1 : task.marker_pos + 2]
        if task.optional:
            assert task.line_no - 1 not in rendered
        elif marker in ("[ ]", "[x]", "[X]"):
            assert task.line_no - 1 in rendered, f"not a checkbox: {line!r}"
            assert rendered[task.line_no - 1][0] is (marker != "[ ]")


# (name, text, a task to finish, a task to note, a task already done, a phase to add to)
CASES = [
    ("spec-kit", SPECKIT, "#2", "#3", "#1", "Phase 3: User Story 1 - Create albums (Priority: P1)"),
    ("kiro", KIRO, "#2", "#4", "#1", "Implementation Plan"),
    # Kiro's optional task (#5, "- [ ]* 2.3"): finished, noted in its own shape.
    ("kiro-optional", KIRO, "2.3", "#5", "#3", "Implementation Plan"),
    ("backlog", BACKLOG, "#2", "#3", "#1", "Acceptance Criteria"),
    ("openspec", OPENSPEC, "#2", "#3", "#1", "2. Testing"),
    ("gsd", GSD, "#2", "#3", "#1", "Phases"),
    ("plain", PLAIN, "#1", "#3", "#2", "TODO"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "finish", "noted", "finished", "phase"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_write_keeps_the_files_markers_and_undo_gives_its_bytes_back(
    tmp_path: Path, text: str, finish: str, noted: str, finished: str, phase: str
) -> None:
    path = tmp_path / "tasks.md"
    path.write_bytes(text.encode())
    known = markers(text)
    texts = [text]
    for args in (
        ("done", finish),
        ("note", noted, "checked with the team"),
        ("done", finished),
        ("add", "--phase", phase, "Write the release notes"),
    ):
        run = todo(path, *args)
        assert run.code == 0, run.err
        assert "unknown status marker" not in run.err
        after = path.read_bytes().decode()
        assert markers(after) <= known, f"{args}: a marker the file never used"
        checkboxes_hold(after)
        texts.append(after)
    done, noted_text, remarked, added = texts[1:]
    # done: one task closed, the next started (in the open in a marker the file uses,
    # else in its hidden comment): only those task lines change.
    changed = [(a, b) for a, b in zip(text.splitlines(), done.splitlines(), strict=True) if a != b]
    assert 1 <= len(changed) <= 2
    assert Status.IN_PROGRESS in statuses(done)
    # note: one quoted line added, nothing else changed.
    new = [line for line in noted_text.splitlines() if line not in done.splitlines()]
    assert [line.strip() for line in new] == ["> checked with the team"]
    assert [line for line in noted_text.splitlines() if line not in new] == done.splitlines()
    # a re-mark of a task already done changes nothing.
    assert remarked == noted_text
    # add: one new unticked task line, in the file's bullet style.
    new = [line for line in added.splitlines() if line not in remarked.splitlines()]
    assert len(new) == 1
    assert new[0].endswith("[ ] Write the release notes")
    while todo(path, "undo").code == 0:
        pass
    assert path.read_bytes() == text.encode()


def test_a_file_ticked_with_capital_x_keeps_it_and_hides_its_task_in_progress(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tasks.md"
    path.write_text(SPECKIT)
    run = todo(path, "done", "#2")
    assert run.code == 0, run.err
    assert "Started: T003" in run.out
    assert path.read_text() == SPECKIT.replace("- [ ] T002", "- [X] T002").replace(
        "- [ ] T003 [P] Configure linting and formatting tools",
        "- [ ] T003 [P] Configure linting and formatting tools <!-- state: in_progress -->",
    )
    # The recap, --json and the gate know the task in progress.
    shown = json.loads(todo(path, "--json", "show").out)["data"]["todos"]
    assert [t["status"] for t in shown][:3] == ["completed", "completed", "in_progress"]
    gate = todo(path, "check")
    assert gate.code == 1
    assert "T003 [P] Configure linting and formatting tools [in_progress]" in gate.out
    # Finishing it removes the comment with the state.
    todo(path, "done", "#3")
    assert "- [X] T003 [P] Configure linting and formatting tools\n" in path.read_text()


def test_a_plain_crlf_file_without_a_final_newline_changes_only_what_it_must(
    tmp_path: Path,
) -> None:
    path = tmp_path / "TODO.md"
    path.write_bytes(PLAIN.encode())
    assert todo(path, "done", "Write the parser").code == 0
    assert path.read_bytes() == (
        b"# TODO\r\n\r\n- [x] Write the parser\r\n- [x] Set up CI\r\n"
        b"- [ ] Ship it <!-- state: in_progress -->"
    )
    assert todo(path, "block", "Ship it", "--reason", "waiting on the release").code == 0
    assert b"- [ ] Ship it <!-- state: blocked -->\r\n" in path.read_bytes()
    assert todo(path, "drop", "Ship it").code == 0
    assert b"- [x] Ship it <!-- state: abandoned -->\r\n" in path.read_bytes()
    shown = json.loads(todo(path, "--json", "show").out)["data"]["todos"]
    assert shown[-1]["status"] == "abandoned"


def test_kiro_in_progress_dash_is_open_for_the_gate(tmp_path: Path) -> None:
    path = tmp_path / "tasks.md"
    path.write_text(KIRO)
    gate = todo(path, "check")
    assert gate.code == 1
    assert "2. Implement data models and validation [in_progress]" in gate.out
    # Finishing the task in progress starts the next in Kiro's own marker.
    todo(path, "done", "2. Implement data models and validation")
    text = path.read_text()
    assert "- [x] 2. Implement data models and validation\n" in text
    assert "  - [-] 2.2 Implement User model with validation\n" in text
    # An optional task (``[ ]*``, #5) is not a checkbox, and the gate never asks for it.
    for args in (("done", "2.2 Implement User model with validation"), ("done", "#6")):
        assert todo(path, *args).code == 0
    assert todo(path, "check").code == 0
    assert "  - [ ]* 2.3 Write unit tests for User model\n" in path.read_text()


def test_gsd_tilde_is_a_task_under_way(tmp_path: Path) -> None:
    path = tmp_path / "ROADMAP.md"
    path.write_text(GSD)
    gate = todo(path, "check")
    assert gate.code == 1
    assert "[in_progress]" in gate.out
    assert statuses(GSD) == [Status.COMPLETED, Status.IN_PROGRESS, Status.PENDING]


def test_todos_own_markers_keep_their_meanings() -> None:
    # In a list that uses todo's own markers, [-] and [~] are abandoned.
    text = "- [/] a\n- [-] b\n- [~] c\n"
    assert statuses(text) == [Status.IN_PROGRESS, Status.ABANDONED, Status.ABANDONED]
    # [-] without Kiro's requirement lines is todo's abandoned too.
    assert statuses("- [x] a\n- [-] b\n") == [Status.COMPLETED, Status.ABANDONED]


def test_a_session_list_keeps_todos_markers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = todo_process("add", "a", "b", env={"TODOCLI_HOME": str(home)})
    assert run.code == 0, run.err
    sessions = list((home / "sessions").glob("*.md"))
    assert len(sessions) == 1
    # A person's edit leaves no marker only todo writes; todo's own list still gets [/].
    sessions[0].write_text("# Todos\n\n- [x] a\n- [ ] b\n\nmine\n")
    assert todo_process("done", "a", env={"TODOCLI_HOME": str(home)}).code == 0
    assert "- [/] b\n" in sessions[0].read_text()


def test_a_stated_convention_wins(tmp_path: Path) -> None:
    # A Kiro file without its requirement lines, stated in a comment line.
    stated = "<!-- todo-convention: kiro -->\n\n- [x] 1. a\n- [-] 2. b\n- [ ] 3. c\n"
    assert statuses(stated) == [Status.COMPLETED, Status.IN_PROGRESS, Status.PENDING]
    # A plain file stated to be todo's own gets todo's markers.
    path = tmp_path / "TODO.md"
    path.write_text("<!-- todo-convention: todo -->\n- [x] a\n- [ ] b\n- [ ] c\n")
    assert todo(path, "done", "b").code == 0
    assert path.read_text().endswith("- [x] b\n- [/] c\n")


def test_a_known_legend_is_not_warned_about_but_a_mistyped_marker_is(tmp_path: Path) -> None:
    path = tmp_path / "tasks.md"
    path.write_text(SPECKIT + "- [?] T012 Document the API\n")
    run = todo(path, "show")
    assert run.code == 0
    assert "[P]" not in run.err
    assert 'unknown status marker "[?]"' in run.err


def test_an_unknown_stated_convention_is_said_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    text = "<!-- todo-convention: jira -->\n- [ ] a\n"
    path.write_text(text)
    run = todo(path, "show")
    assert run.code == 0
    assert "Line 1: unknown convention 'jira' (use todo, gfm, kiro, gsd)" in run.err
    assert path.read_text() == text


def test_a_kiro_optional_task_is_listed_named_and_written_in_kiros_shape(tmp_path: Path) -> None:
    path = tmp_path / "tasks.md"
    path.write_text(KIRO)
    shown = todo(path, "show", "--plain")
    assert "#5 [ ] 2.3 Write unit tests for User model (optional)" in shown.out
    assert "  - 2.3 Write unit tests for User model [pending, optional] (" in shown.out
    entry = json.loads(todo(path, "--json", "show").out)["data"]["todos"][4]
    assert entry["content"] == "2.3 Write unit tests for User model"
    assert (entry["optional"], entry["parent"], entry["status"]) == (True, 2, "pending")
    assert "optional" not in json.loads(todo(path, "--json", "show").out)["data"]["todos"][3]
    line = "  - [{}]* 2.3 Write unit tests for User model\n"
    # Named by its plan id; each write keeps the "*" after the box.
    assert todo(path, "start", "2.3").code == 0
    assert line.format("-") in path.read_text()
    assert todo(path, "note", "2.3", "property tests too").code == 0
    assert line.format("-") + "    > property tests too\n" in path.read_text()
    assert todo(path, "done", "2.3 Write unit tests for User model").code == 0
    text = path.read_text()
    assert line.format("x") + "    > property tests too\n    - _Requirements: 1.2_\n" in text
    todos = json.loads(todo(path, "--json", "show").out)["data"]["todos"]
    assert [t["n"] for t in todos if t.get("optional")] == [5]
    # An agent tool's snapshot of the plan, applied back, changes nothing.
    before = path.read_bytes()
    snapshot = todo(path, "show", "--as", "claude").out
    assert todo_process("--file", str(path), "apply", stdin=snapshot).code == 0
    assert path.read_bytes() == before


def test_the_gate_never_holds_an_agent_for_an_optional_task_nor_starts_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tasks.md"
    path.write_text(KIRO)
    assert todo(path, "done", "2.2").code == 0
    # The next required task starts, not the optional one standing between.
    text = path.read_text()
    assert "  - [ ]* 2.3 Write unit tests for User model\n" in text
    assert "- [-] 3. Create storage mechanism\n" in text
    # Its parent's required subtasks are done: the parent is done with them.
    assert "- [x] 2. Implement data models and validation\n" in text
    run = todo(path, "done", "3")
    assert run.code == 0, run.err
    assert "[-]" not in path.read_text()  # the last required task starts nothing
    gate = todo(path, "check")
    assert gate.code == 0, gate.out
    assert gate.out.startswith("Nothing open.\n")
    assert "Optional: 2.3 Write unit tests for User model." in gate.out
    # Claiming takes no optional task unnamed.
    claim = todo(path, "--agent", "kiro", "claim")
    assert claim.code != 0
    assert "every task is done (an optional one is claimed by its name)" in claim.err


def test_a_fresh_kiro_plan_is_known_by_its_optional_tasks_and_requirement_lines() -> None:
    # No task started yet, so no "[-]": "[ ]*" beside "_Requirements:" says Kiro.
    fresh = "- [ ] 1. Set up\n  - _Requirements: 1.1_\n- [ ]* 2. Write tests\n"
    tasks = list(todocli.loads(fresh).tasks())
    assert [(t.content, t.optional) for t in tasks] == [
        ("1. Set up", False),
        ("2. Write tests", True),
    ]
    assert todocli.dumps(todocli.loads(fresh)) == fresh
    # Stated, without requirement lines.
    stated = "<!-- todo-convention: kiro -->\n- [ ] a\n- [x]* b\n"
    assert [t.optional for _, t in todocli.loads(stated).model().tasks()] == [False, True]


@pytest.mark.parametrize(
    "text",
    [
        "- [ ] a\n- [ ]* b\n",  # a plain file: no requirement lines
        "- [ ] a\n- [/] c\n- [ ]* b\n  - _Requirements: 1.1_\n",  # todo's own markers
        "- [ ] 1. a\n  - _Requirements: 1.1_\n\n```\n- [ ]* b\n```\n",  # in code
        "<!-- todo-convention: gfm -->\n- [ ] a\n- [ ]* b\n  - _Requirements: 1.1_\n",
    ],
)
def test_outside_a_kiro_file_a_starred_box_stays_text(text: str) -> None:
    doc = todocli.loads(text)
    assert "b" not in [t.content for t in doc.tasks()]
    assert not any(t.optional for t in doc.tasks())
    assert todocli.dumps(doc) == text


def test_the_rich_view_marks_an_optional_task() -> None:
    from rich.console import Console

    from todocli.cli import render_rich

    out = io.StringIO()
    view = render_rich.tree(todocli.loads(KIRO).model(), show_all=True)
    Console(file=out, color_system=None, width=120).print(view)
    assert "#5 [ ] 2.3 Write unit tests for User model (optional)" in out.getvalue()
    assert "#4 [ ] 2.2 Implement User model with validation\n" in out.getvalue()


def test_the_stop_hook_and_the_plan_put_back_hold_nothing_for_an_optional_task(
    tmp_path: Path,
) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "home")}
    assert todo_process("-s", "k1", "init", "a", env=env).code == 0
    (session,) = (tmp_path / "home" / "sessions").glob("*.md")
    finished = KIRO.replace("[-] 2.", "[x] 2.").replace("[ ] 2.2", "[x] 2.2")
    session.write_text(finished.replace("[ ] 3.", "[x] 3."))
    stop = {"session_id": "k1", "hook_event_name": "Stop", "stop_hook_active": False}
    start = {"session_id": "k1", "hook_event_name": "SessionStart", "source": "resume"}
    start["cwd"] = str(tmp_path)
    for event in (stop, start):
        run = todo_process("hook", "claude", stdin=json.dumps(event), env=env)
        assert (run.code, run.out) == (0, ""), event
    # With a required task open, the same stop is held and the plan put back.
    session.write_text(finished)
    held = json.loads(todo_process("hook", "claude", stdin=json.dumps(stop), env=env).out)
    assert held["decision"] == "block"
    assert "3. Create storage mechanism" in held["reason"]
    assert "2.3" not in held["reason"]
    run = todo_process("hook", "claude", stdin=json.dumps(start), env=env)
    plan = json.loads(run.out)["hookSpecificOutput"]["additionalContext"]
    assert "Pending: 3. Create storage mechanism. Optional: 2.3 Write unit tests" in plan
