"""Agents in several git worktrees of one repository: claims seen by every
worktree before the merge (one ledger in git's common directory), then the
branches merged back by the driver into one plan."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support_cli import install_launcher, todo_process
from tests.test_git_merge import Repo, _env
from todocli.document.markdown import parse
from todocli.document.model import Status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TASKS = [f"Task {n}" for n in range(1, 13)]
AGENTS = 4


@pytest.fixture(autouse=True)
def project_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TODOCLI_PROJECT")


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    folder = tmp_path / "bin"
    folder.mkdir()
    install_launcher(folder).chmod(0o755)
    repo = Repo(tmp_path / "main", _env(folder))
    repo.path.mkdir()
    repo.git("init", "-q", "-b", "main")
    (repo.path / "TODO.md").write_text("".join(f"- [ ] {t}\n" for t in TASKS))
    assert todo_process("init", "--project", cwd=repo.path, env=repo.env).code == 0
    repo.git("add", "-A")
    repo.git("commit", "-qm", "plan")
    return repo


def test_four_worktrees_claim_concurrently_and_merge_into_one_plan(repo: Repo) -> None:
    trees = []
    for n in range(1, AGENTS + 1):
        tree = repo.path.parent / f"w{n}"
        repo.git("worktree", "add", "-q", "-b", f"w{n}", str(tree))
        trees.append(tree)
    # Each agent, a real shell loop of real todo processes in its own worktree:
    # claim the next task, finish it, until nothing is left to claim.
    loop = "while todo claim >/dev/null 2>&1; do todo done >/dev/null || exit 3; done"
    agents = [
        subprocess.Popen(["sh", "-c", loop], cwd=tree, env={**repo.env, "TODOCLI_AGENT": f"a{n}"})
        for n, tree in enumerate(trees, 1)
    ]
    assert [agent.wait(timeout=120) for agent in agents] == [0] * AGENTS  # 3: a done failed
    done_in: dict[str, list[str]] = {}
    for n, tree in enumerate(trees, 1):
        plan = parse((tree / "TODO.md").read_text())
        done_in[f"a{n}"] = [t.content for t in plan.tasks() if t.status is Status.COMPLETED]
        assert all(t.meta.owner == f"a{n}" for t in plan.tasks() if t.status is not Status.PENDING)
        Repo(tree, repo.env).git("commit", "-qam", f"a{n}'s work")
    finished = [task for tasks in done_in.values() for task in tasks]
    assert sorted(finished) == sorted(TASKS)  # every task done once, in one worktree
    ledger = json.loads((repo.path / ".git" / "todo" / "claims.json").read_text())["claims"]
    assert {k: v["agent"] for k, v in ledger.items()} == {
        f"text:{task}": agent for agent, tasks in done_in.items() for task in tasks
    }
    for n in range(1, AGENTS + 1):
        merged = repo.git("merge", "--no-edit", f"w{n}", check=False)
        assert merged.returncode == 0, merged.stdout + merged.stderr
    plan = parse((repo.path / "TODO.md").read_text())
    assert [(t.content, t.status) for t in plan.tasks()] == [(t, Status.COMPLETED) for t in TASKS]
    owners = {t.content: t.meta.owner for t in plan.tasks()}
    assert owners == {task: agent for agent, tasks in done_in.items() for task in tasks}


def test_a_task_claimed_in_another_worktree_is_refused_by_name(repo: Repo) -> None:
    other = repo.path.parent / "other"
    repo.git("worktree", "add", "-q", "-b", "other", str(other))
    first = todo_process("--agent", "a1", "claim", cwd=repo.path, env=repo.env)
    assert first.out == "#1 [/] Task 1 (owner: a1)\n"
    taken = todo_process("--agent", "a2", "claim", "Task 1", cwd=other, env=repo.env)
    assert taken.code == 1
    assert 'Task "Task 1" is claimed by agent "a1" in another worktree' in taken.err
    assert "- [ ] Task 1\n" in (other / "TODO.md").read_text()  # nothing written there
    nxt = todo_process("--agent", "a2", "claim", cwd=other, env=repo.env)
    assert nxt.out == "#2 [/] Task 2 (owner: a2)\n"


def test_a_task_started_and_finished_without_a_claim_is_not_offered_elsewhere(
    repo: Repo,
) -> None:
    other = repo.path.parent / "other"
    repo.git("worktree", "add", "-q", "-b", "other", str(other))
    for args in (("start", "Task 1"), ("done",), ("start", "Task 2")):
        run = todo_process("--agent", "a1", *args, cwd=repo.path, env=repo.env)
        assert run.code == 0, run.err
    offered = todo_process("--agent", "a2", "claim", cwd=other, env=repo.env)
    assert offered.out == "#3 [/] Task 3 (owner: a2)\n"
    for task in ("Task 1", "Task 2"):
        taken = todo_process("--agent", "a2", "claim", task, cwd=other, env=repo.env)
        assert f'"{task}" is claimed by agent "a1" in another worktree' in taken.err
