"""Subtasks: a nested task (Kiro's ``- [ ] 1.`` / ``  - [ ] 1.1``), or flat numbering
(``17.`` then ``17.1``), belongs to the task above it. Finishing one starts its next
open sibling; a parent whose subtasks are all done is done; ``--json`` and Augment's
tree carry the parent. Real ``todo`` processes on ``--file`` plans."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import CORPUS, corpus_files
from tests.support_cli import file_todos, plan_file, todo_process
from tests.support_gfm import gfm_html, gfm_task_items
from todocli.document.markdown import parse
from todocli.document.tree import parents, plan_id

KIRO = (
    "# Implementation Plan\n"
    "\n"
    "- [ ] 1. Set up the project\n"
    "  - [ ] 1.1 Create folders\n"
    "    - _Requirements: 1.2_\n"
    "  - [ ] 1.2 Write the config\n"
    "    - _Requirements: 2.1_\n"
    "- [ ] 2. Build the parser\n"
    "  - [ ] 2.1 Read tokens\n"
    "  - [ ] 2.2 Build the tree\n"
)

FLAT = (
    "## Roadmap\n"
    "\n"
    "- [ ] 17. Storage\n"
    "- [ ] 17.1 Pick a format\n"
    "- [ ] 17.2 Write the reader\n"
    "- [ ] 18. Release\n"
)


def _status(path: Path) -> dict[str, str]:
    return {t["content"]: t["status"] for t in file_todos(path)}


def test_finishing_a_subtask_starts_its_next_sibling_not_its_parent(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    done = todo_process("--file", str(plan), "done", "1.1 Create folders")
    assert done.code == 0, done.err
    status = _status(plan)
    assert status["1.2 Write the config"] == "in_progress"
    assert status["1. Set up the project"] == "pending"
    assert "Started: 1.2 Write the config" in done.out


def test_a_parent_whose_subtasks_are_all_done_is_done_and_the_reply_says_so(
    tmp_path: Path,
) -> None:
    plan = plan_file(tmp_path, KIRO)
    assert todo_process("--file", str(plan), "done", "1.1 Create folders").code == 0
    done = todo_process("--file", str(plan), "done", "1.2 Write the config")
    assert done.code == 0, done.err
    status = _status(plan)
    assert status["1. Set up the project"] == "completed"
    assert "1. Set up the project" in done.out.splitlines()[0]  # "Completed: ..." names it
    # Then the parent's next sibling's first open subtask: 2. is done through 2.1 and 2.2.
    assert status["2.1 Read tokens"] == "in_progress"
    assert status["2. Build the parser"] == "pending"
    # Only the marker characters changed: every other byte of the plan is as it was.
    after = plan.read_text().splitlines()
    before = KIRO.splitlines()
    assert [a for a, b in zip(after, before, strict=True) if a != b] == [
        line for line in after if line.lstrip().startswith("- [") and line not in before
    ]


def test_agents_claim_subtasks_not_their_parent(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    first = todo_process("--file", str(plan), "--agent", "ann", "claim")
    second = todo_process("--file", str(plan), "--agent", "bob", "claim")
    assert first.code == 0, first.err
    assert second.code == 0, second.err
    owners = {t["content"]: t.get("owner") for t in file_todos(plan)}
    assert owners["1.1 Create folders"] == "ann"
    assert owners["1.2 Write the config"] == "bob"
    assert owners["1. Set up the project"] is None


def test_a_parent_with_open_subtasks_stays_open_for_the_gate(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    assert todo_process("--file", str(plan), "done", "1.1 Create folders").code == 0
    gate = todo_process("--file", str(plan), "check")
    assert gate.code == 1
    assert "1. Set up the project" in gate.out
    assert "1.2 Write the config" in gate.out


def test_json_gives_each_subtask_its_parents_number(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    parents = {t["content"]: t.get("parent") for t in file_todos(plan)}
    assert parents == {
        "1. Set up the project": None,
        "1.1 Create folders": 1,
        "1.2 Write the config": 1,
        "2. Build the parser": None,
        "2.1 Read tokens": 4,
        "2.2 Build the tree": 4,
    }
    # The nesting is GitHub's: cmark-gfm puts 1.1 and 1.2 in a list inside 1.'s item.
    html = gfm_html(KIRO)
    outer = html.index("1. Set up the project")
    inner = html.index("<ul ", outer)
    assert inner < html.index("1.1 Create folders") < html.index("</li>", inner)


def test_flat_numbering_nests_as_indentation_does(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, FLAT)
    parents = {t["content"]: t.get("parent") for t in file_todos(plan)}
    assert parents == {
        "17. Storage": None,
        "17.1 Pick a format": 1,
        "17.2 Write the reader": 1,
        "18. Release": None,
    }
    assert todo_process("--file", str(plan), "done", "17.1").code == 0
    status = _status(plan)
    assert status["17.2 Write the reader"] == "in_progress"
    assert status["17. Storage"] == "pending"
    assert todo_process("--file", str(plan), "done", "17.2").code == 0
    status = _status(plan)
    assert status["17. Storage"] == "completed"
    assert status["18. Release"] == "in_progress"


def test_a_flat_list_has_no_parents(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, "- [ ] 3 files to move\n- [ ] Write the tests\n")
    assert all("parent" not in t for t in file_todos(plan))


def test_augments_tree_nests_subtasks_and_reads_back(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, KIRO)
    shown = todo_process("--file", str(plan), "show", "--as", "augment")
    assert shown.code == 0, shown.err
    lines = json.loads(shown.out)["markdown"].splitlines()
    assert lines[1].startswith("-[ ] UUID:1 NAME:1. Set up the project")
    assert lines[2].startswith("--[ ] UUID:2 NAME:1.1 Create folders")
    assert lines[4].startswith("-[ ] UUID:4 NAME:2. Build the parser")
    back = todo_process("--file", str(plan), "apply", stdin=shown.out)
    assert back.code == 0, back.err
    assert [t["content"] for t in file_todos(plan)][:3] == [
        "1. Set up the project",
        "1.1 Create folders",
        "1.2 Write the config",
    ]


_ITEM = re.compile(r'<li data-sourcepos="(\d+):\d+-\d+:\d+">(<input type="checkbox")?|</li>')


def _gfm_parents(text: str) -> dict[int, int | None]:
    """cmark-gfm's nesting: each task item's 0-based line, with the line of the
    nearest task item it sits in (None: none)."""
    stack: list[tuple[int, bool]] = []
    found: dict[int, int | None] = {}
    for m in _ITEM.finditer(gfm_html(text)):
        if m.group(0) == "</li>":
            stack.pop()
            continue
        line, task = int(m.group(1)) - 1, m.group(2) is not None
        if task:
            found[line] = next((at for at, is_task in reversed(stack) if is_task), None)
        stack.append((line, task))
    return found


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS})")
def test_subtasks_in_the_corpus_nest_as_github_nests_them() -> None:
    # Every task both read as a task has the parent cmark-gfm's nesting gives it,
    # except where todo reads more than GitHub: a parent GFM does not take for a
    # task ("[]", "[/]"), and flat numbering (17.1 under 17.), which GFM does not nest.
    compared = 0
    for path in corpus_files():
        text = path.read_bytes().decode("utf-8").replace("\r\n", "\n")
        nodes = list(parse(text).tasks())
        theirs, tasks = _gfm_parents(text), gfm_task_items(text)
        for node, up in zip(nodes, parents(nodes), strict=True):
            line = node.line_no - 1
            ours = None if up is None else nodes[up].line_no - 1
            own = plan_id(node.content)
            if line not in tasks or (ours is not None and ours not in tasks):
                continue
            if own is not None and "." in own and ours != theirs.get(line):
                continue
            compared += 1
            assert ours == theirs.get(line), f"{path.name}:{line + 1} {node.content[:40]!r}"
    assert compared > 6000
