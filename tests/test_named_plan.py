"""A project names its plan: ``todo setup git --plan PATH`` makes a spec's
``tasks.md`` (spec-kit, Kiro, OpenSpec) the repository's plan in this clone, in
place of ``TODO.md``: the person's ``todo``, ``--project``, the agent session's
backlog (its gate and the plan put back) and git's merge driver all use it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import git
from tests.support_cli import Run, todo_process

PLAN_PATH = "specs/001-auth/tasks.md"
TASKS = (
    "# Tasks\n\n## Phase 1: Setup\n\n- [ ] T001 Create the project\n- [ ] T002 [P] Add the model\n"
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("TODOCLI_PROJECT")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    top = tmp_path / "repo"
    (top / "specs" / "001-auth").mkdir(parents=True)
    git(top, "init", "-q")
    (top / PLAN_PATH).write_text(TASKS)
    return top


def run(cwd: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> Run:
    return todo_process(*args, cwd=cwd, env=env, stdin=stdin)


def test_setup_git_plan_makes_another_tool_s_tasks_file_the_project_s_plan(
    repo: Path, home: Path
) -> None:
    named = run(repo, "setup", "git", "--plan", PLAN_PATH)
    assert named.code == 0, named.err
    assert f"/{PLAN_PATH} merge=todo" in (repo / ".gitattributes").read_text()
    assert git(repo, "check-attr", "merge", "--", PLAN_PATH).strip().endswith("merge: todo")
    for where in (repo, repo / "specs"):  # from any folder of the work tree
        assert run(where, "path").out == f"{repo / PLAN_PATH}\n"
    assert "T001 Create the project" in run(repo).out
    assert run(repo, "--project", "path").out == f"{repo / PLAN_PATH}\n"
    assert run(repo, "done", "-q", "T001 Create the project").code == 0
    assert "- [x] T001 Create the project" in (repo / PLAN_PATH).read_text()
    doctor = run(repo, "doctor").out
    assert f"git: {PLAN_PATH} is merged by task in this clone" in doctor
    # Run again: nothing changes; --remove forgets it, and TODO.md is the plan again.
    assert "already set up, nothing changed" in run(repo, "setup", "git").out
    assert run(repo, "setup", "git", "--remove").code == 0
    assert not (repo / ".gitattributes").exists()  # setup made it; it left it empty
    assert run(repo, "path").out == f"{home / 'sessions' / 'default.md'}\n"


def test_an_agent_session_s_backlog_is_the_named_plan(repo: Path) -> None:
    assert run(repo, "setup", "git", "--plan", PLAN_PATH).code == 0
    start = {"session_id": "s1", "cwd": str(repo), "hook_event_name": "SessionStart"}
    assert run(repo, "hook", "claude", stdin=json.dumps(start)).code == 0
    env = {"TODOCLI_AGENT_SESSION": "s1"}
    assert run(repo, "--project", "claim", "-q", "T002 [P] Add the model", env=env).code == 0
    # the spec's own markers: in progress said in the hidden comment, not with [/]
    taken = "- [ ] T002 [P] Add the model <!-- owner: s1; state: in_progress -->"
    assert taken in (repo / PLAN_PATH).read_text()
    stop = start | {"hook_event_name": "Stop"}
    reason = json.loads(run(repo, "hook", "claude", stdin=json.dumps(stop)).out)["reason"]
    assert "T002 [P] Add the model (backlog)" in reason
    assert "T001" not in reason
    back = json.loads(run(repo, "hook", "claude", stdin=json.dumps(start)).out)
    assert "T002 [P] Add the model" in back["hookSpecificOutput"]["additionalContext"]
    refused = run(repo, "--project", "init", "Mine", env=env)
    assert refused.code == 1
    assert "T001 Create the project" in (repo / PLAN_PATH).read_text()


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("../outside.md", "not inside this work tree"),
        (".git/tasks.md", "outside .git"),
        ("specs/a plan.md", "no spaces"),
        ("specs/[x].md", "glob characters"),
    ],
)
def test_a_plan_outside_the_work_tree_or_git_s_folder_is_refused(
    repo: Path, home: Path, given: str, why: str
) -> None:
    refused = run(repo, "setup", "git", "--plan", given)
    assert refused.code == 2
    assert refused.err.count("\n") == 1
    assert why in refused.err
    assert not (repo / ".gitattributes").exists()
    assert not (home / "state" / "projects").exists()


def test_plan_is_for_git_only(repo: Path) -> None:
    refused = run(repo, "setup", "claude", "--plan", PLAN_PATH)
    assert (refused.code, refused.err) == (
        2,
        "todo: --plan names a repository's plan: todo setup git --plan PATH\n",
    )
    assert not (repo / ".claude").exists()


def test_a_record_that_leaves_the_work_tree_is_no_plan(repo: Path, home: Path) -> None:
    """The record lives in the home, but a hand-edited one is checked all the same."""
    from todocli.storage import agent_sessions

    record = Path(agent_sessions.plan_record(str(home), str(repo.resolve())))
    record.parent.mkdir(parents=True)
    (repo / "TODO.md").write_text("- [ ] The plan\n")
    for bad in ("../../etc/passwd", ".git/config", "/etc/passwd"):
        record.write_text(bad + "\n")
        assert run(repo, "path").out == f"{repo / 'TODO.md'}\n"


def test_a_folder_link_a_pull_plants_on_the_named_plan_s_way_is_refused(
    repo: Path, tmp_path: Path
) -> None:
    """The plan was named inside the work tree; a later pull turns its folder into a
    link to a folder of the person's: todo writes nothing there (exit 6, one line)."""
    assert run(repo, "setup", "git", "--plan", PLAN_PATH).code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "tasks.md").write_text("- [ ] victim\n")
    shutil.rmtree(repo / "specs" / "001-auth")
    (repo / "specs" / "001-auth").symlink_to(outside)
    refused = run(repo, "done", "victim")
    assert refused.code == 6
    assert refused.err.count("\n") == 1
    assert f"a symbolic link to {outside / 'tasks.md'}, outside the project's work tree" in (
        refused.err
    )
    assert (outside / "tasks.md").read_text() == "- [ ] victim\n"
