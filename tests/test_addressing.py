"""Naming a task: by its text, ``#N``, the id its plan gives it (``T019``, ``1.1``,
``P11-5``) or its heading path (``PHASE/TASK``); a name several tasks fit is refused
listing them; duplicate texts get one bounded warning a write and none on a read.
Real ``todo`` processes on ``--file`` plans."""

from __future__ import annotations

from pathlib import Path

from tests.support_cli import file_todos, plan_file, todo_process

SPECKIT = (
    "# Tasks: Photo albums\n"
    "\n"
    "## Phase 1: Setup\n"
    "\n"
    "- [ ] T001 Create project structure per implementation plan\n"
    "- [ ] T002 [P] Configure linting and formatting tools\n"
    "\n"
    "## Phase 2: User Story 1\n"
    "\n"
    "- [ ] **T019** [FN] Implement the album service in src/services/album.py\n"
    "- [ ] P11-5 Wire the upload endpoint\n"
    "- [ ] Step 5: Commit\n"
    "\n"
    "## Phase 3: Polish\n"
    "\n"
    "- [ ] Step 5: Commit\n"
)

KIRO = "# Implementation Plan\n\n- [ ] 1. Set up\n  - [ ] 1.1 Create folders\n  - [ ] 1.2 Config\n"

BACKLOG = (
    "---\n"
    "id: task-7\n"
    "title: Export\n"
    "---\n"
    "\n"
    "## Acceptance Criteria\n"
    "<!-- AC:BEGIN -->\n"
    "- [ ] #1 Export writes a CSV file\n"
    "- [ ] #2 Export keeps the column order\n"
    "<!-- AC:END -->\n"
)


def _completed(path: Path) -> list[int]:
    return [t["n"] for t in file_todos(path) if t["status"] == "completed"]


def test_a_task_is_named_by_the_id_its_plan_gives_it(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, SPECKIT)
    done = todo_process("--file", str(plan), "done", "T019")
    assert done.code == 0, done.err
    assert _completed(plan) == [3]
    assert todo_process("--file", str(plan), "done", "P11-5").code == 0
    assert _completed(plan) == [3, 4]
    assert todo_process("--file", str(plan), "note", "T001", "made the folders").code == 0
    assert "made the folders" in plan.read_text()


def test_kiros_dotted_ids_name_their_tasks(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    assert todo_process("--file", str(plan), "done", "1.1").code == 0
    assert _completed(plan) == [2]
    assert todo_process("--file", str(plan), "start", "1.").code == 0
    assert [t["n"] for t in file_todos(plan) if t["status"] == "in_progress"] == [1]
    assert todo_process("--file", str(plan), "note", "1", "named by its number").code == 0
    assert "named by its number" in plan.read_text().split("1.1")[0]


def test_a_heading_path_names_one_of_two_tasks_of_the_same_text(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, SPECKIT)
    done = todo_process("--file", str(plan), "done", "Phase 3: Polish/Step 5: Commit")
    assert done.code == 0, done.err
    assert "Completed: Step 5: Commit" in done.out  # the reply names it, though a copy
    assert _completed(plan) == [6]
    assert todo_process("--file", str(plan), "done", "#5").code == 0
    assert _completed(plan) == [5, 6]


def test_a_text_several_tasks_have_is_refused_listing_them(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, SPECKIT)
    done = todo_process("--file", str(plan), "done", "Step 5: Commit")
    assert done.code == 1
    refusal = [line for line in done.err.splitlines() if "Step 5: Commit" in line]
    assert len(refusal) == 1
    assert "#5 (Phase 2: User Story 1)" in refusal[0]
    assert "#6 (Phase 3: Polish)" in refusal[0]
    assert plan.read_text() == SPECKIT


def test_an_id_several_tasks_have_is_refused(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, "## A\n\n- [ ] T001 one\n\n## B\n\n- [ ] T001 two\n")
    before = plan.read_text()
    done = todo_process("--file", str(plan), "done", "T001")
    assert done.code == 1
    assert "2 tasks are named" in done.err
    assert "#1 (A)" in done.err
    assert "#2 (B)" in done.err
    assert plan.read_text() == before


def test_a_missing_id_is_not_found(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, SPECKIT)
    done = todo_process("--file", str(plan), "done", "T999")
    assert done.code == 1
    assert 'Task "T999" not found' in done.err
    assert plan.read_text() == SPECKIT


def test_backlog_criteria_keep_working_as_text(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, BACKLOG)
    done = todo_process("--file", str(plan), "done", "#2 Export keeps the column order")
    assert done.code == 0, done.err
    assert _completed(plan) == [2]
    changed = [
        b
        for a, b in zip(BACKLOG.splitlines(), plan.read_text().splitlines(), strict=True)
        if a != b
    ]
    assert "- [x] #2 Export keeps the column order" in changed
    assert all(line.startswith("- [") for line in changed)  # the criteria's markers only


def _generated(tasks: int, steps: int) -> str:
    """A plan of ``tasks`` tasks in parts of ``steps``, each part ending in the same step."""
    lines = ["# Plan", ""]
    for part in range(tasks // steps):
        lines += [f"## Task {part + 1}: Part {part + 1}", ""]
        lines += [f"- [ ] Step {s + 1}: work {part}.{s}" for s in range(steps - 1)]
        lines += ["- [ ] Step 5: Commit", ""]
    return "\n".join(lines)


def test_duplicates_get_one_bounded_warning_a_write_and_none_on_a_read(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, _generated(1500, 5))
    shown = todo_process("--file", str(plan), "show")
    assert shown.code == 0, shown.err
    assert shown.err == ""
    done = todo_process("--file", str(plan), "done", "Task 7: Part 7/Step 5: Commit")
    assert done.code == 0, done.err
    warnings = done.err.splitlines()
    assert len(warnings) == 1
    assert len(done.err) < 500
    assert "299 tasks repeat" in warnings[0]
    assert "and 296 more" in warnings[0]
    assert _completed(plan) == [35]


def test_a_write_tells_no_note_of_one_of_two_tasks_of_a_text_as_new(tmp_path: Path) -> None:
    """Two tasks of one text, the later with a note: a write on another task says
    nothing of notes (the tasks of a text are matched in order, the second with the
    second, not each with the first)."""
    plan = plan_file(
        tmp_path,
        "# Plan\n\n## Todos\n\n- [ ] Commit\n- [ ] Build\n- [ ] Commit\n  > a note on the second\n",
    )
    done = todo_process("--file", str(plan), "done", "Build")
    assert done.code == 0, done.err
    assert "Completed: Build" in done.out
    assert "Noted" not in done.out
    noted = todo_process("--file", str(plan), "note", "#3", "another")
    assert noted.code == 0, noted.err
    assert "Noted: Commit" in noted.out  # a note that is new is still told
