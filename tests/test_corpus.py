"""The shared corpus of real checklists: read losslessly, edited surgically, and
read the way a real GFM parser reads them."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

import todocli
from tests.support import CORPUS, corpus_files
from tests.support_gfm import gfm_task_items, our_gfm_task_items
from todocli import Status

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the shared corpus is not beside this checkout ({CORPUS})"
)

FILES = corpus_files()
IDS = [p.name[:40] for p in FILES]


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def test_the_corpus_is_there_when_its_folder_is() -> None:
    assert len(FILES) >= 78


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_corpus_file_round_trips_byte_for_byte(path: Path) -> None:
    text = read(path)
    assert todocli.dumps(todocli.loads(text)).encode("utf-8") == path.read_bytes()


def has_tasks(path: Path) -> bool:
    return bool(todocli.loads(read(path)).tasks())


WITH_TASKS = [p for p in FILES if has_tasks(p)]


@pytest.mark.parametrize("path", WITH_TASKS, ids=[p.name[:40] for p in WITH_TASKS])
def test_toggling_one_task_changes_only_its_marker(path: Path) -> None:
    """Check an open task off (or, in a file with none open, reopen a closed one)."""
    text = read(path)
    doc = todocli.loads(text)
    all_tasks = list(doc.tasks())
    one_char = [t for t in all_tasks if t.marker_len == 1]
    open_ones = [t for t in one_char if t.status is Status.PENDING]
    target = (open_ones or one_char)[len(open_ones or one_char) // 2]
    new_status = Status.COMPLETED if open_ones else Status.PENDING
    doc.set_status(target, new_status)
    after = doc.text()
    differing = [i for i, (a, b) in enumerate(zip(text, after, strict=True)) if a != b]
    assert len(differing) == 1
    assert after[differing[0]] == new_status.marker
    reread = list(todocli.loads(after).tasks())[all_tasks.index(target)]
    assert (reread.content, reread.status) == (target.content, new_status)


def markdown_it_tasks(text: str) -> dict[int, tuple[bool, str]]:
    """Task items outside block quotes, by 0-based line, as markdown-it reads them."""
    md = MarkdownIt("commonmark").use(tasklists_plugin).use(front_matter_plugin)
    tokens = md.parse(text)
    found: dict[int, tuple[bool, str]] = {}
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.type == "blockquote_open":
            depth += 1
        elif tok.type == "blockquote_close":
            depth -= 1
        elif (
            tok.type == "list_item_open"
            and depth == 0
            and "task-list-item" in str(tok.attrGet("class") or "")
        ):
            inline = tokens[i + 2]
            assert tok.map is not None
            assert inline.children is not None
            checked = "checked=" in inline.children[0].content
            # The item's first paragraph, its lines joined with a space.
            joined = " ".join(part.strip() for part in inline.content.split("\n"))
            found[tok.map[0]] = (checked, " ".join(joined.split(" ")).strip())
    return found


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_gfm_task_item_is_a_task_with_the_same_text_and_state(path: Path) -> None:
    """cmark-gfm, GitHub's parser, decides which items are tasks and whether they are
    checked. It renders their text as HTML, so the raw text is compared with what
    markdown-it reads, on the lines where its tasklist plugin sees a task too (the
    two disagree on a marker with only spaces after it, a task text underlined into
    a setext heading and similar corners, where cmark-gfm is followed)."""
    text = read(path)
    normalized = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    ours = our_gfm_task_items(text)
    cmark = gfm_task_items(normalized)
    assert {line: checked for line, (checked, _) in ours.items()} == {
        line: checked for line, (checked, _) in cmark.items()
    }
    raw = markdown_it_tasks(normalized)
    texts = {line: task for line, task in ours.items() if task[1] is not None}
    assert {line: texts[line] for line in raw if line in texts} == {
        line: task for line, task in raw.items() if line in texts
    }
