"""A repository's planted names never lead todo's writes out of it (issue 32).

A project plan is a file a clone brings: the repository decides what ``TODO.md``,
and every other name in its work tree, is. A committed symlink at ``TODO.md``
leading out of the work tree (to a file of the person's) or into ``.git`` is
refused, naming it; one that stays inside is written through and stays a link;
symlinks at the names of todo's temporary files or its journal are never followed
(temporary files are created exclusively under unguessable names, and everything
else todo keeps lives under its home). In the home, a symlink at a name of todo's
own bookkeeping is replaced, never written through. Each attack is a real ``git``
clone and real ``todo`` processes; the person's file is compared byte for byte.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support_cli import Run, todo_process

# A plan that never used [/] keeps the task in progress in a hidden comment.
STARTED = " <!-- state: in_progress -->"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

SECRET = b"export PATH=/usr/bin\n# the person's own file\n"


def _git(where: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@e"}
    subprocess.run(["git", *args], cwd=where, env=env, check=True, capture_output=True)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the person's, outside any project: what a planted link aims at."""
    folder = tmp_path / "person"
    folder.mkdir()
    target = folder / ".bashrc"
    target.write_bytes(SECRET)
    return target


def clone_of(tmp_path: Path, links: dict[str, str], files: dict[str, str]) -> Path:
    """The attacker's repository, with ``links`` (name -> where it points) and
    ``files`` committed, cloned as the person would."""
    origin = tmp_path / "origin"
    origin.mkdir()
    _git(origin, "init", "-q")
    for name, text in files.items():
        (origin / name).parent.mkdir(parents=True, exist_ok=True)
        (origin / name).write_text(text)
    for name, points in links.items():
        os.symlink(points, origin / name)
    _git(origin, "add", "-A")
    _git(origin, "commit", "-q", "-m", "plan")
    _git(tmp_path, "clone", "-q", str(origin), "clone")
    clone = tmp_path / "clone"
    for name in links:
        assert (clone / name).is_symlink(), f"the clone did not keep the link {name}"
    return clone


def in_project(clone: Path, *args: str) -> Run:
    return todo_process(*args, cwd=clone, env={"TODOCLI_PROJECT": "1"}, timeout=30)


def test_a_plan_linked_out_of_the_project_is_refused_and_the_file_it_names_untouched(
    tmp_path: Path, victim: Path, home: Path
) -> None:
    clone = clone_of(tmp_path, {"TODO.md": str(victim)}, {"README": "hi\n"})
    for args in (["add", "planted"], ["done", "planted"], ["show"]):
        result = in_project(clone, *args)
        assert result.code == 6, (args, result.code, result.out, result.err)
        assert result.err.count("\n") == 1, result.err
        assert f"refused the project plan {clone / 'TODO.md'}" in result.err
        assert f"a symbolic link to {victim}, outside the project's work tree" in result.err
        assert "--file or --session" in result.err
        assert victim.read_bytes() == SECRET
    assert (clone / "TODO.md").is_symlink()
    assert not (home / "sessions").exists()  # not silently another list either


def test_a_plan_linked_into_git_is_refused(tmp_path: Path) -> None:
    clone = clone_of(tmp_path, {"TODO.md": ".git/config"}, {"README": "hi\n"})
    config = (clone / ".git" / "config").read_bytes()
    result = in_project(clone, "add", "planted")
    assert result.code == 6, result.err
    assert f"a symbolic link to {clone / '.git' / 'config'}, outside" in result.err
    assert (clone / ".git" / "config").read_bytes() == config


def test_a_plan_linked_inside_the_project_is_written_through_and_stays_a_link(
    tmp_path: Path,
) -> None:
    clone = clone_of(tmp_path, {"TODO.md": "docs/plan.md"}, {"docs/plan.md": "- [ ] a\n"})
    assert in_project(clone, "add", "b").code == 0
    assert in_project(clone, "done", "a").code == 0
    assert (clone / "TODO.md").is_symlink()
    assert os.readlink(clone / "TODO.md") == "docs/plan.md"
    assert (clone / "docs" / "plan.md").read_text() == f"- [x] a\n- [ ] b{STARTED}\n"


def test_links_at_the_names_of_todos_temporary_files_and_journal_are_never_followed(
    tmp_path: Path, victim: Path
) -> None:
    """The names a write makes beside the list, guessed as an attacker would: no
    write follows them (temporary names are random and created with O_EXCL; the
    journal and the revisions live in the home)."""
    names = [
        ".TODO.md.todo-tmp",
        ".TODO.md.000000000000.todo-tmp",
        ".TODO.md.tmp",
        "TODO.md.pending",
        "journal",
        "TODO.md~",
        ".TODO.md.swp",
    ]
    clone = clone_of(tmp_path, dict.fromkeys(names, str(victim)), {"TODO.md": "- [ ] a\n"})
    assert in_project(clone, "add", "b").code == 0
    assert in_project(clone, "done", "a").code == 0
    assert victim.read_bytes() == SECRET
    for name in names:
        assert os.readlink(clone / name) == str(victim), name
    assert (clone / "TODO.md").read_text() == f"- [x] a\n- [ ] b{STARTED}\n"
    left = sorted(p.name for p in clone.iterdir())
    assert left == sorted([".git", "TODO.md", *names]), left


def test_a_fifo_or_a_device_as_the_plan_is_refused_with_one_line_and_no_hang(
    tmp_path: Path, victim: Path
) -> None:
    clone = clone_of(tmp_path, {}, {"README": "hi\n"})
    os.mkfifo(clone / "TODO.md")
    result = in_project(clone, "add", "x")
    assert result.code == 6, result.err
    fifo = clone / "TODO.md"
    assert result.err == f"todo: cannot read {fifo}: it is a FIFO, not a regular file\n"
    (clone / "TODO.md").unlink()
    os.symlink("/dev/null", clone / "TODO.md")
    result = in_project(clone, "add", "x")
    assert result.code == 6, result.err
    assert "a symbolic link to /dev/null, outside the project's work tree" in result.err


def test_links_at_the_names_of_the_homes_bookkeeping_are_replaced_not_written_through(
    home: Path, victim: Path
) -> None:
    """In the home: a link at the failure notice's or the reminder's name (a home
    shared, or inside a project) gets a file of todo's, never the write."""
    assert todo_process("add", "a").code == 0
    state = home / "state" / "sessions" / "default"
    for name in ("failed", "remind", "state.json"):
        os.symlink(victim, state / name)
    assert todo_process("done", "no such task").code == 1  # records the failure
    assert todo_process("remind").code == 0  # records its counter
    assert todo_process("done", "a").code == 0  # records the completion in state.json
    assert victim.read_bytes() == SECRET
    for name in ("failed", "remind", "state.json"):
        assert not (state / name).is_symlink(), name


def test_a_link_at_the_name_of_setups_temporary_file_is_never_followed(
    tmp_path: Path, victim: Path
) -> None:
    """``todo setup git`` writes ``.gitattributes`` in the clone through a temporary
    file beside it: a link planted at the name it once had is left alone."""
    planted = {".gitattributes.todo-setup.tmp": str(victim)}
    clone = clone_of(tmp_path, planted, {"TODO.md": "- [ ] a\n", ".gitattributes": "*.md text\n"})
    result = in_project(clone, "setup", "git")
    assert result.code == 0, result.err
    assert victim.read_bytes() == SECRET
    assert os.readlink(clone / ".gitattributes.todo-setup.tmp") == str(victim)
    assert "merge=todo" in (clone / ".gitattributes").read_text()
