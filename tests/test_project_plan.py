"""The project plan: ``TODO.md`` at the top of a git work tree, found from the
current folder as git finds ``.git``; its precedence, its opt-out; never wiped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support_cli import Run, todo_process
from todocli.storage.paths import project_plan, resolve

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture(autouse=True)
def project_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup on (conftest turns it off for every other test)."""
    monkeypatch.delenv("TODOCLI_PROJECT")


def _git(where: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@e"}
    subprocess.run(["git", *args], cwd=where, env=env, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    top = tmp_path / "work" / "repo"
    (top / "src" / "deep").mkdir(parents=True)
    _git(top, "init", "-q")
    (top / "TODO.md").write_text("- [ ] Ship it\n")
    return top


def _path(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    run = todo_process(*args, "path", cwd=cwd, env=env)
    assert run.code == 0, run.err
    return run.out.strip()


def test_todo_in_a_work_tree_uses_the_plan_at_its_top(repo: Path) -> None:
    assert _path(repo / "src" / "deep") == str(repo / "TODO.md")
    assert _path(repo) == str(repo / "TODO.md")


def test_no_plan_at_the_top_means_the_session_list(repo: Path, home: Path) -> None:
    (repo / "TODO.md").unlink()
    (repo / "src" / "TODO.md").write_text("- [ ] not the plan\n")  # below the top: not it
    assert _path(repo / "src" / "deep") == str(home / "sessions" / "default.md")


def test_the_walk_stops_at_the_work_tree_top(repo: Path, home: Path) -> None:
    inner = repo / "src" / "inner"
    inner.mkdir()
    _git(inner, "init", "-q")  # a repository of its own, without a plan
    assert _path(inner) == str(home / "sessions" / "default.md")


def test_a_todo_md_above_the_work_tree_is_not_used(tmp_path: Path, home: Path) -> None:
    (tmp_path / "TODO.md").write_text("- [ ] someone else's\n")
    top = tmp_path / "repo"
    top.mkdir()
    _git(top, "init", "-q")
    assert _path(top) == str(home / "sessions" / "default.md")
    outside = tmp_path / "plain"
    outside.mkdir()
    assert _path(outside) == str(home / "sessions" / "default.md")


def test_a_linked_worktree_uses_its_own_plan(repo: Path) -> None:
    _git(repo, "add", "TODO.md")
    _git(repo, "commit", "-qm", "plan")
    linked = repo.parent / "linked"
    _git(repo, "worktree", "add", "-q", str(linked))
    assert (linked / ".git").is_file()
    assert _path(linked) == str(linked / "TODO.md")


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (("-s", "work"), {}, "sessions/work.md"),
        ((), {"TODOCLI_SESSION": "work"}, "sessions/work.md"),
        (("-s", "default"), {}, "sessions/default.md"),
        ((), {"TODOCLI_PROJECT": "0"}, "sessions/default.md"),
        ((), {"TODOCLI_PROJECT": "off"}, "sessions/default.md"),
    ],
)
def test_a_session_named_or_the_opt_out_wins_over_the_plan(
    repo: Path, home: Path, args: tuple[str, ...], env: dict[str, str], expected: str
) -> None:
    assert _path(repo, *args, env=env) == str(home / expected)


def test_a_file_named_wins_over_the_plan(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.md"
    assert _path(repo, "--file", str(other)) == str(other)
    assert _path(repo, env={"TODOCLI_FILE": str(other)}) == str(other)


def test_the_lookup_runs_no_git(repo: Path) -> None:
    """Found by stat calls alone: it works with no git on PATH."""
    run = subprocess.run(
        [sys.executable, "-m", "todocli", "path"],
        cwd=repo / "src",
        env={**os.environ, "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.stdout.strip() == str(repo / "TODO.md"), run.stderr


def test_resolve_marks_the_plan_as_a_project_list(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / "src")
    loc = resolve(env={"TODOCLI_HOME": "/h"})
    assert (loc.list_file, loc.project, loc.is_session) == (str(repo / "TODO.md"), True, False)
    assert project_plan(str(repo / "src"), {"GIT_CEILING_DIRECTORIES": str(repo)}) is None


def _json(run: Run) -> dict[str, Any]:
    assert run.code == 0, run.err
    data: dict[str, Any] = json.loads(run.out)
    return data


def test_a_finished_project_plan_is_kept_and_logged(repo: Path, home: Path) -> None:
    done = _json(todo_process("--json", "done", "Ship it", cwd=repo))
    changes = done["changes"]
    assert changes["wiped_on_all_completed"] is False
    assert changes["logged_to"].startswith(str(home / "memory" / "todos"))
    assert (repo / "TODO.md").read_text() == "- [x] Ship it\n"


def test_a_project_plan_is_kept_even_when_the_config_wipes_lists(
    repo: Path, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text("wipe_on_complete = true\n")
    assert todo_process("done", "Ship it", cwd=repo).code == 0
    assert (repo / "TODO.md").read_text() == "- [x] Ship it\n"


def test_todo_clear_removes_the_finished_tasks_of_the_plan(repo: Path) -> None:
    (repo / "TODO.md").write_text("- [x] Ship it\n- [ ] Tell people\n- [-] Dropped\n")
    assert todo_process("clear", cwd=repo).code == 0
    # The next one started, in a hidden comment: the file never used [/].
    assert (repo / "TODO.md").read_text() == "- [ ] Tell people <!-- state: in_progress -->\n"


def test_a_hook_payload_keeps_writing_its_session_list(repo: Path, home: Path) -> None:
    hook = {
        "tool_name": "TodoWrite",
        "session_id": "hooked",
        "tool_input": {"todos": [{"content": "A", "status": "pending", "activeForm": "A"}]},
    }
    run = todo_process("apply", stdin=json.dumps(hook), cwd=repo)
    assert run.code == 0, run.err
    assert (repo / "TODO.md").read_text() == "- [ ] Ship it\n"
    assert "A" in (home / "sessions" / "hooked.md").read_text()
