"""The project plan through git: ``todo merge-driver`` registered by ``todo init
--project``, run by a real ``git merge``, ``git rebase`` and ``git cherry-pick``; the
same branches merged by git's own text merge, to show what the driver fixes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support_cli import Run, install_launcher, todo_process
from tests.test_filemerge_properties import (
    Entry,
    _halves,
    _render,
    assert_nothing_lost,
    branch_pairs,
)
from todocli.app.wiring.gitrepo import ATTRIBUTE, DRIVER, problems
from todocli.document.markdown import parse
from todocli.engine.filemerge import merge_files

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture(autouse=True)
def project_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup on (conftest turns it off for every other test)."""
    monkeypatch.delenv("TODOCLI_PROJECT")


BASE = """\
# Release 2.0

## Build
- [ ] Parse the config
- [ ] Write the loader
- [ ] Add the cache

## Ship
- [ ] Tag the release
"""

IDS = """\
## Build
- [ ] Parse the config <!-- id: 1 -->
- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->
"""

# name: (base, ours, theirs, merged by the driver, clean)
SCENARIOS: dict[str, tuple[str, str, str, str, bool]] = {
    "ticks": (
        BASE,
        BASE.replace("[ ] Parse", "[x] Parse"),
        BASE.replace("[ ] Write", "[x] Write"),
        BASE.replace("[ ] Parse", "[x] Parse").replace("[ ] Write", "[x] Write"),
        True,
    ),
    "append": (
        BASE,
        BASE.replace("cache\n", "cache\n- [ ] Add metrics\n"),
        BASE.replace("cache\n", "cache\n- [ ] Add logging\n"),
        BASE.replace("cache\n", "cache\n- [ ] Add metrics\n- [ ] Add logging\n"),
        True,
    ),
    "done-and-note": (
        BASE,
        BASE.replace("[ ] Write", "[x] Write"),
        BASE.replace("loader\n", "loader\n  > mmap the file\n"),
        BASE.replace("[ ] Write the loader\n", "[x] Write the loader\n  > mmap the file\n"),
        True,
    ),
    "done-and-rename": (
        BASE,
        BASE.replace("[ ] Write", "[x] Write"),
        BASE.replace("Write the loader", "Write the config loader"),
        BASE.replace("[ ] Write the loader", "[x] Write the config loader"),
        True,
    ),
    "notes": (
        BASE.replace("cache\n", "cache\n  > keyed by path\n"),
        BASE.replace("cache\n", "cache\n  > keyed by path\n  >\n  > LRU\n"),
        BASE.replace("cache\n", "cache\n  > keyed by path\n  >\n  > 64 MiB at most\n"),
        BASE.replace(
            "cache\n", "cache\n  > keyed by path\n  >\n  > LRU\n  >\n  > 64 MiB at most\n"
        ),
        True,
    ),
    "phases": (
        BASE,
        BASE + "\n## Docs\n- [ ] Write the guide\n",
        BASE + "\n## Bench\n- [ ] Measure start-up\n",
        BASE + "\n## Docs\n- [ ] Write the guide\n\n## Bench\n- [ ] Measure start-up\n",
        True,
    ),
    "conflict": (
        BASE,
        BASE.replace("[ ] Add the cache", "[x] Add the cache").replace("[ ] Tag", "[x] Tag"),
        BASE.replace("[ ] Add the cache", "[-] Add the cache").replace("[ ] Parse", "[x] Parse"),
        BASE.replace("[ ] Parse", "[x] Parse")
        .replace(
            "- [ ] Add the cache\n",
            "<<<<<<< ours\n- [x] Add the cache\n=======\n- [-] Add the cache\n>>>>>>> theirs\n",
        )
        .replace("[ ] Tag", "[x] Tag"),
        False,
    ),
    "ids": (
        IDS,
        IDS + "- [ ] Add the cache <!-- id: 3 -->\n",
        IDS
        + "- [ ] Add logging <!-- id: 3 -->\n- [ ] Check the logs <!-- id: 4; blocked-by: 3 -->\n",
        IDS
        + "- [ ] Add the cache <!-- id: 3 -->\n"
        + "- [ ] Add logging <!-- id: 5 -->\n- [ ] Check the logs <!-- id: 4; blocked-by: 5 -->\n",
        True,
    ),
}


def _env(bin_dir: Path) -> dict[str, str]:
    """git alone: no user or system config; ``todo`` (this checkout) on PATH."""
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_EDITOR": "true",
    }


class Repo:
    def __init__(self, path: Path, env: dict[str, str]) -> None:
        self.path = path
        self.env = env

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["git", *args], cwd=self.path, env=self.env, capture_output=True, text=True, check=False
        )
        if check and done.returncode:
            raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
        return done

    def commit(self, text: str, message: str) -> None:
        (self.path / "TODO.md").write_bytes(text.encode())
        self.git("commit", "-qam", message)

    @property
    def plan(self) -> str:
        return (self.path / "TODO.md").read_bytes().decode()


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    install_launcher(folder).chmod(0o755)
    return folder


def _repo(tmp_path: Path, bin_dir: Path, base: str, *, driver: bool) -> Repo:
    repo = Repo(tmp_path / "repo", _env(bin_dir))
    repo.path.mkdir()
    repo.git("init", "-q", "-b", "main")
    (repo.path / "TODO.md").write_bytes(base.encode())
    if driver:
        run = todo_process("init", "--project", cwd=repo.path, env=repo.env)
        assert run.code == 0, run.err
    repo.git("add", "-A")
    repo.git("commit", "-qm", "base")
    return repo


def _branches(repo: Repo, ours: str, theirs: str) -> None:
    repo.git("checkout", "-qb", "theirs")
    repo.commit(theirs, "theirs")
    repo.git("checkout", "-q", "main")
    repo.commit(ours, "ours")


def _shown(repo: Repo) -> list[tuple[str, str]]:
    """What ``todo --json show`` reads, run in the work tree (the project plan)."""
    run = todo_process("--json", "show", cwd=repo.path, env=repo.env)
    envelope = json.loads(run.out)
    assert envelope["context"]["file"] == str(repo.path / "TODO.md")
    return [(t["content"], t["status"]) for t in envelope["data"]["todos"]]


def _parsed(text: str) -> list[tuple[str, str]]:
    return [(t.content, t.status.value) for t in parse(text).tasks()]


def _ids(text: str) -> list[str]:
    return [t.meta.id for t in parse(text).tasks() if t.meta.id]


@pytest.mark.parametrize("name", SCENARIOS)
def test_git_merge_with_the_driver_gives_the_expected_bytes(
    tmp_path: Path, bin_dir: Path, name: str
) -> None:
    base, ours, theirs, expected, clean = SCENARIOS[name]
    repo = _repo(tmp_path, bin_dir, base, driver=True)
    _branches(repo, ours, theirs)
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    assert (merged.returncode == 0) is clean, merged.stdout + merged.stderr
    assert repo.plan == expected
    assert _shown(repo) == _parsed(expected)
    ids = _ids(repo.plan)
    assert len(ids) == len(set(ids)), ids


@pytest.mark.parametrize("name", [n for n, s in SCENARIOS.items() if s[4]])
@pytest.mark.parametrize("how", ["rebase", "cherry-pick"])
def test_git_rebase_and_cherry_pick_go_through_the_driver(
    tmp_path: Path, bin_dir: Path, name: str, how: str
) -> None:
    base, ours, theirs, expected, _ = SCENARIOS[name]
    repo = _repo(tmp_path, bin_dir, base, driver=True)
    _branches(repo, ours, theirs)
    if how == "rebase":  # theirs replayed on main: main's side is "ours" to git
        repo.git("checkout", "-q", "theirs")
        repo.git("rebase", "main")
    else:
        repo.git("cherry-pick", "theirs")
    assert repo.plan == expected
    assert _shown(repo) == _parsed(expected)


def test_a_conflicting_rebase_stops_with_markers_around_the_task_alone(
    tmp_path: Path, bin_dir: Path
) -> None:
    base, ours, theirs, expected, _ = SCENARIOS["conflict"]
    repo = _repo(tmp_path, bin_dir, base, driver=True)
    _branches(repo, ours, theirs)
    repo.git("checkout", "-q", "theirs")
    assert repo.git("rebase", "main", check=False).returncode != 0
    assert repo.plan == expected


@pytest.mark.parametrize("name", SCENARIOS)
def test_without_the_driver_git_merges_the_plan_as_text_and_conflicts(
    tmp_path: Path, bin_dir: Path, name: str
) -> None:
    """What the driver fixes: git's text merge conflicts on every one of these."""
    base, ours, theirs, _, _ = SCENARIOS[name]
    repo = _repo(tmp_path, bin_dir, base, driver=False)
    _branches(repo, ours, theirs)
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    assert merged.returncode != 0
    assert "CONFLICT (content): Merge conflict in TODO.md" in merged.stdout


UNMERGED = 4  # the exit code the README documents for a list with conflict markers


def test_a_list_with_conflict_markers_refuses_every_write_until_resolved(
    tmp_path: Path, bin_dir: Path
) -> None:
    """git's text merge leaves its markers in the plan: reads show both sides,
    and every write door (a command, apply, a hook's TodoWrite, MCP) is refused,
    naming the marker lines, with the file left byte for byte, until the person
    resolves the conflict; then the write goes."""
    from tests.test_hook_command import envelope
    from todocli.app.commands import Options
    from todocli.mcp.mcp_tools import call

    base, ours, theirs, _, _ = SCENARIOS["conflict"]
    repo = _repo(tmp_path, bin_dir, base, driver=False)
    _branches(repo, ours, theirs)
    assert repo.git("merge", "--no-edit", "theirs", check=False).returncode != 0
    conflicted = (repo.path / "TODO.md").read_bytes()
    marks = [
        n
        for n, line in enumerate(conflicted.decode().splitlines(), 1)
        if line.startswith(("<<<<<<< ", "=======", ">>>>>>> "))
    ]
    assert len(marks) == 3
    named = f"(lines {', '.join(map(str, marks))})"
    listing = str(repo.path / "TODO.md")

    def at(*args: str, stdin: str | None = None) -> Run:
        return todo_process("--file", listing, *args, stdin=stdin, cwd=repo.path, env=repo.env)

    shown = at("show")
    assert shown.code == 0  # reads show both sides, as before
    assert "[x] Add the cache" in shown.out  # ours
    assert "[-] Add the cache" in shown.out  # theirs
    ops = json.dumps([{"op": "append", "items": ["From apply"]}])
    hook = json.dumps(envelope("claude-code-posttooluse-todowrite"))
    for args, stdin in (
        (("add", "New task"), None),
        (("done", "Parse the config"), None),
        (("init", "A fresh plan"), None),
        (("apply",), ops),
    ):
        refused = at(*args, stdin=stdin)
        assert refused.code == UNMERGED, (args, refused.out, refused.err)
        assert refused.err.startswith("todo: the list holds git's conflict markers")
        assert named in refused.err
        assert (repo.path / "TODO.md").read_bytes() == conflicted
    as_json = json.loads(at("add", "New task", "--json").out)
    assert as_json["error"]["code"] == "UNMERGED"
    hooked = at("hook", "claude", stdin=hook)
    assert hooked.code == 0  # a hook never fails its harness: the refusal is its reply
    context = json.loads(hooked.out)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Errors: the list holds git's conflict markers")
    assert named in context
    from_mcp = {"ops": [{"op": "append", "items": ["From MCP"]}]}
    mcp = call("todo_write", from_mcp, Options(file=listing))  # the MCP server's tool
    assert mcp.failed
    assert named in mcp.text
    assert (repo.path / "TODO.md").read_bytes() == conflicted
    # The person resolves the conflict (keeps one side, removes the markers).
    lines = conflicted.decode().splitlines(keepends=True)
    kept = [ln for n, ln in enumerate(lines, 1) if not marks[0] <= n <= marks[1]]
    resolved = "".join(ln for ln in kept if not ln.startswith(">>>>>>> "))
    assert "<<<<<<<" not in resolved
    (repo.path / "TODO.md").write_text(resolved)
    written = at("add", "New task")
    assert written.code == 0, written.err
    assert "- [ ] New task" in (repo.path / "TODO.md").read_text()


def test_conflict_markers_go_around_the_tasks_lines_alone() -> None:
    base = "- [ ] a\n- [ ] b\n  > why b\n- [ ] c\n"
    ours = "- [x] a\n- [x] b\n  > why b\n- [ ] c\n"
    theirs = "- [ ] a\n- [/] b\n  > why b\n- [x] c\n"
    merged = merge_files(base, ours, theirs, marker_size=9, labels=("HEAD", "topic"))
    assert merged.conflicts == 1
    assert merged.text == (
        "- [x] a\n<<<<<<<<< HEAD\n- [x] b\n  > why b\n=========\n- [/] b\n  > why b\n"
        ">>>>>>>>> topic\n- [x] c\n"
    )


def test_lines_neither_side_touched_stay_byte_for_byte() -> None:
    base = (
        "# Plan\r\n\r\nSome *prose*  \r\n* [ ] a\r\n* [ ] b\r\n"
        "\r\n```\r\n- [ ] not a task\r\n```\r\n"
    )
    ours = base.replace("* [ ] a", "* [x] a")
    theirs = base.replace("* [ ] b", "* [X] b")
    merged = merge_files(base, ours, theirs)
    assert merged.conflicts == 0
    assert merged.text == base.replace("* [ ] a", "* [x] a").replace("* [ ] b", "* [X] b")


def test_a_task_removed_on_one_side_stays_when_the_other_changed_it() -> None:
    base = "- [ ] a\n- [x] b\n- [ ] c\n"
    ours = "- [ ] a\n- [ ] c\n"  # todo clear
    theirs = "- [ ] a\n- [x] b\n  > it was hard\n- [ ] c\n"
    assert merge_files(base, ours, theirs).text == theirs
    assert merge_files(base, ours, base.replace("[ ] c", "[x] c")).text == "- [ ] a\n- [x] c\n"


def test_a_task_both_sides_moved_comes_once() -> None:
    base = "- [ ] a\n- [ ] b\n- [ ] c\n"
    ours = "- [ ] b\n- [ ] c\n- [ ] a\n"
    theirs = "- [ ] b\n- [ ] a\n- [ ] c\n"
    text = merge_files(base, ours, theirs).text
    assert sorted(_parsed(text)) == sorted(_parsed(base))


def test_the_driver_reports_its_conflicts_through_its_exit_status(tmp_path: Path) -> None:
    base, ours, theirs, expected, _ = SCENARIOS["conflict"]
    files = []
    for name, text in (("o", base), ("a", ours), ("b", theirs)):
        (tmp_path / name).write_bytes(text.encode())
        files.append(str(tmp_path / name))
    run = todo_process("merge-driver", *files, "TODO.md", "--marker-size", "7")
    assert run.code == 1
    assert "1 task was changed on both sides" in run.err
    assert run.out == ""
    assert (tmp_path / "a").read_bytes().decode() == expected


def test_todo_reads_a_file_with_conflict_markers_keeping_both_sides(tmp_path: Path) -> None:
    text = SCENARIOS["conflict"][3]
    plan = tmp_path / "TODO.md"
    plan.write_bytes(text.encode())
    run = todo_process("--json", "--file", str(plan), "show")
    data = json.loads(run.out)["data"]
    tasks = [(t["content"], t["status"]) for t in data["todos"]]
    assert ("Add the cache", "completed") in tasks
    assert ("Add the cache", "abandoned") in tasks
    assert any("merge conflict" in w for w in json.loads(run.out)["warnings"])
    assert "Line 6: a merge conflict" in run.err
    assert plan.read_bytes().decode() == text


def test_problems_names_a_path_without_todo(
    tmp_path: Path, bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "r", _env(bin_dir))
    repo.path.mkdir()
    repo.git("init", "-q")
    git_only = tmp_path / "git-only"
    git_only.mkdir()
    (git_only / "git").symlink_to(str(shutil.which("git")))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{git_only}")
    assert todo_process("setup", "git", cwd=repo.path, env=repo.env).code == 0
    assert problems(str(repo.path)) == []
    monkeypatch.setenv("PATH", str(git_only))
    assert problems(str(repo.path)) == [
        "git runs the merge driver as 'todo', which is not on this PATH"
    ]


def test_setup_git_is_idempotent_and_its_remove_gives_back_every_byte(
    tmp_path: Path, bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", _env(bin_dir)["PATH"])
    repo = Repo(tmp_path / "r", _env(bin_dir))
    (repo.path / "src").mkdir(parents=True)
    repo.git("init", "-q")
    attributes = repo.path / ".gitattributes"
    attributes.write_bytes(b"*.png binary\r\n*.sh text eol=lf")  # no final newline
    config = repo.path / ".git" / "config"
    config_before = config.read_bytes()
    assert problems(str(repo.path)) == [
        "TODO.md is not marked 'merge=todo' in .gitattributes (fix: todo setup git)",
        "this clone lacks merge.todo.driver: git merges TODO.md as text (fix: todo setup git)",
    ]
    dry = todo_process("setup", "git", "--dry-run", cwd=repo.path / "src", env=repo.env)
    assert dry.code == 0
    assert "+/TODO.md merge=todo" in dry.out
    assert not (repo.path / "TODO.md").exists()
    assert attributes.read_bytes() == b"*.png binary\r\n*.sh text eol=lf"
    first = todo_process("setup", "git", cwd=repo.path / "src", env=repo.env)
    assert first.code == 0, first.err
    assert (repo.path / "TODO.md").read_bytes() == b""
    added = attributes.read_bytes()
    assert added.startswith(b"*.png binary\r\n*.sh text eol=lf\r\n")
    assert ATTRIBUTE.encode() + b"\r\n" in added
    assert repo.git("check-attr", "merge", "--", "TODO.md").stdout == "TODO.md: merge: todo\n"
    assert repo.git("config", "--get", "merge.todo.driver").stdout == DRIVER + "\n"
    assert problems(str(repo.path)) == []
    again = todo_process("setup", "git", cwd=repo.path, env=repo.env)
    assert "already set up, nothing changed" in again.out
    assert attributes.read_bytes() == added
    removed = todo_process("setup", "git", "--remove", cwd=repo.path, env=repo.env)
    assert removed.code == 0, removed.err
    assert attributes.read_bytes() == b"*.png binary\r\n*.sh text eol=lf"
    assert config.read_bytes() == config_before
    assert not (repo.path / "TODO.md").exists(), "made empty by setup, untouched: taken out"
    assert problems(str(repo.path)) == [
        "TODO.md is not marked 'merge=todo' in .gitattributes (fix: todo setup git)",
        "this clone lacks merge.todo.driver: git merges TODO.md as text (fix: todo setup git)",
    ]


def test_setup_git_remove_keeps_a_plan_with_tasks(tmp_path: Path, bin_dir: Path) -> None:
    repo = Repo(tmp_path / "r", _env(bin_dir))
    repo.path.mkdir()
    repo.git("init", "-q")
    assert todo_process("setup", "git", cwd=repo.path, env=repo.env).code == 0
    assert todo_process("add", "Ship it", cwd=repo.path, env=repo.env).code == 0
    assert todo_process("setup", "git", "--remove", cwd=repo.path, env=repo.env).code == 0
    assert "Ship it" in (repo.path / "TODO.md").read_text()


def test_doctor_says_when_a_clone_lacks_the_driver(tmp_path: Path, bin_dir: Path) -> None:
    repo = Repo(tmp_path / "r", _env(bin_dir))
    repo.path.mkdir()
    repo.git("init", "-q")
    env = {**repo.env, "TODOCLI_PROJECT": "1"}
    assert todo_process("setup", "git", cwd=repo.path, env=env).code == 0
    assert (
        "git: TODO.md is merged by task in this clone"
        in todo_process("doctor", cwd=repo.path, env=env).out
    )
    repo.git("config", "--remove-section", "merge.todo")
    doctor = todo_process("doctor", "--json", cwd=repo.path, env=env)
    assert (
        "this clone lacks merge.todo.driver: git merges TODO.md as text (fix: todo setup git)"
        in json.loads(doctor.out)["data"]["problems"]
    )


def test_init_project_outside_a_work_tree_is_refused(tmp_path: Path) -> None:
    run = todo_process(
        "init", "--project", cwd=tmp_path, env={"GIT_CEILING_DIRECTORIES": str(tmp_path.parent)}
    )
    assert run.code == 2
    assert "not inside a git work tree" in run.err
    assert not (tmp_path / "TODO.md").exists()


def test_init_project_with_tasks_writes_the_plan_at_the_top(tmp_path: Path, bin_dir: Path) -> None:
    repo = Repo(tmp_path / "r", _env(bin_dir))
    (repo.path / "src").mkdir(parents=True)
    repo.git("init", "-q")
    run = todo_process(
        "init", "--project", "Write code", "Test it", cwd=repo.path / "src", env=repo.env
    )
    assert run.code == 0, run.err
    assert [c for c, _ in _parsed(repo.plan)] == ["Write code", "Test it"]
    assert "Made the project plan" in run.out


def test_the_set_up_in_the_docs_works_as_written(
    tmp_path: Path, bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", _env(bin_dir)["PATH"])
    text = (Path(__file__).resolve().parent.parent / "docs" / "git.md").read_text()
    block = text.split("## Set it up", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    repo = Repo(tmp_path / "r", _env(bin_dir))
    (repo.path / "src").mkdir(parents=True)
    repo.git("init", "-q")
    done = subprocess.run(
        ["bash", "-euc", block],
        cwd=repo.path,
        env=repo.env,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert repo.git("ls-files").stdout == ".gitattributes\nTODO.md\n"
    assert repo.git("check-attr", "merge", "--", "TODO.md").stdout == "TODO.md: merge: todo\n"
    assert problems(str(repo.path)) == []


def test_a_task_replaced_by_an_unlike_one_is_no_rename() -> None:
    base = "- [ ] a\n- [ ] Write the loader\n- [ ] c\n"
    ours = "- [ ] a\n- [ ] Publish the wheel\n- [ ] c\n"  # one removed, another added
    theirs = "- [ ] a\n- [x] Write the loader\n- [ ] c\n"
    merged = merge_files(base, ours, theirs)
    assert merged.text == "- [ ] a\n- [ ] Publish the wheel\n- [x] Write the loader\n- [ ] c\n"


def test_an_id_renumbered_by_a_merge_keeps_the_tasks_check_and_owner() -> None:
    """Two branches each gave a new task the id 1: the merge renumbers one, and that
    task keeps everything else its metadata holds (its check, its owner)."""
    base = "# Todos\n"
    ours = "# Todos\n- [ ] Write it <!-- id: 1 -->\n"
    theirs = "# Todos\n- [ ] Test it <!-- id: 1; owner: bob; check: pytest -q -->\n"
    merged = merge_files(base, ours, theirs)
    tasks = [t for _, t in parse(merged.text).model().tasks()]
    assert sorted(t.meta.id or "" for t in tasks) == ["1", "2"]
    (tested,) = (t for t in tasks if t.content == "Test it")
    assert tested.meta.check == "pytest -q"
    assert tested.meta.owner == "bob"


# -- the driver never drops a task (issue #32) ----------------------------------------------


@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_two_tasks_sharing_an_id_on_one_side_are_both_kept_with_unique_ids(
    tmp_path: Path, bin_dir: Path, side: str
) -> None:
    """A person copied a task's line in an editor, its hidden id comment too, and
    changed the copy's text; the other branch ticked another task."""
    copied = IDS.replace(
        "- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->\n",
        "- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->\n"
        "- [ ] Write the loader tests <!-- id: 2; blocked-by: 1 -->\n",
    )
    ticked = IDS.replace("[ ] Parse", "[x] Parse")
    repo = _repo(tmp_path, bin_dir, IDS, driver=True)
    _branches(repo, *((copied, ticked) if side == "ours" else (ticked, copied)))
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert repo.plan == (
        "## Build\n"
        "- [x] Parse the config <!-- id: 1 -->\n"
        "- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->\n"
        "- [ ] Write the loader tests <!-- id: 3; blocked-by: 1 -->\n"
    )
    assert _ids(repo.plan) == ["1", "2", "3"]
    assert (
        f'todo merge-driver: TODO.md: {side} held two tasks with id 2: "Write the loader tests" '
        "is now 3" in merged.stderr
    )
    assert todo_process("check", cwd=repo.path, env=repo.env).code == 1  # 2 tasks open, read


def test_the_driver_shows_a_shared_id_task_s_control_characters_as_escapes(
    tmp_path: Path, bin_dir: Path
) -> None:
    """Their branch copies a task with its id, the copy's text holding terminal
    sequences (retitle the window, erase the line): the message the driver prints
    in the person's terminal during ``git merge`` shows them as escapes."""
    sequences = "\x1b]0;owned\x07\x1b[2K\x1b[1A"
    copied = IDS.replace(
        "- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->\n",
        "- [ ] Write the loader <!-- id: 2; blocked-by: 1 -->\n"
        f"- [ ] Tests {sequences}done <!-- id: 2 -->\n",
    )
    repo = _repo(tmp_path, bin_dir, IDS, driver=True)
    _branches(repo, IDS.replace("[ ] Parse", "[x] Parse"), copied)
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "\x1b" not in merged.stderr
    assert "\x07" not in merged.stderr
    assert (
        "todo merge-driver: TODO.md: theirs held two tasks with id 2: "
        '"Tests \\x1b]0;owned\\x07\\x1b[2K\\x1b[1Adone" is now 3' in merged.stderr
    )
    assert f"- [ ] Tests {sequences}done <!-- id: 3 -->" in repo.plan  # the bytes kept


RENAMED_AND_DONE = {
    # in its place, a text unlike the old one
    "in place": BASE.replace("[ ] Write the loader", "[x] Loader written"),
    # moved to the end of its phase, a text much like the old one
    "moved": BASE.replace("- [ ] Write the loader\n", "").replace(
        "cache\n", "cache\n- [x] Write the YAML loader\n"
    ),
}


@pytest.mark.parametrize("how", RENAMED_AND_DONE)
@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_a_task_renamed_and_completed_on_one_side_and_abandoned_on_the_other_conflicts(
    tmp_path: Path, bin_dir: Path, how: str, side: str
) -> None:
    renamed = RENAMED_AND_DONE[how]
    new_line = next(ln for ln in renamed.splitlines() if "[x]" in ln)
    abandoned = BASE.replace("[ ] Write the loader", "[-] Write the loader")
    repo = _repo(tmp_path, bin_dir, BASE, driver=True)
    _branches(repo, *((renamed, abandoned) if side == "ours" else (abandoned, renamed)))
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    assert merged.returncode != 0  # git stops, as for any conflict
    assert "1 task was changed on both sides" in merged.stderr
    first, second = (new_line, "- [-] Write the loader")[:: 1 if side == "ours" else -1]
    block = f"<<<<<<< ours\n{first}\n=======\n{second}\n>>>>>>> theirs\n"
    assert block in repo.plan
    # Nothing else of the task is left outside the markers: it is there once, in two states.
    assert repo.plan.replace(block, "") == BASE.replace("- [ ] Write the loader\n", "")


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(branch_pairs())
def test_random_branch_pairs_through_a_real_git_merge_lose_no_task(
    tmp_path: Path, bin_dir: Path, pair: tuple[list[Entry | str], ...]
) -> None:
    """A few of the property test's branch pairs (tests/test_filemerge_properties.py)
    merged by git itself through the driver: the same promises hold."""
    import tempfile

    base, ours, theirs = pair
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    repo = _repo(folder, bin_dir, _render(base), driver=True)
    for branch, side in (("theirs", theirs), ("main", ours)):  # a side may change nothing
        repo.git("checkout", "-q", *(["-b"] if branch == "theirs" else []), branch)
        (repo.path / "TODO.md").write_bytes(_render(side).encode())
        repo.git("commit", "-q", "--allow-empty", "-am", branch)
    merged = repo.git("merge", "--no-edit", "theirs", check=False)
    if _render(base) in (_render(ours), _render(theirs)):
        # One side changed nothing: git takes the other's bytes as they are and runs
        # no merge driver, so what that side's person wrote (a task copied with its
        # id) is the merge.
        changed = theirs if _render(ours) == _render(base) else ours
        assert repo.plan == _render(changed)
        assert merged.returncode == 0
        return
    assert_nothing_lost(base, ours, theirs, repo.plan)
    marked = bool(_halves(repo.plan)[2])
    assert (merged.returncode != 0) is marked  # git stops exactly when a task is marked


def test_the_same_copy_made_on_both_sides_comes_once_and_three_copies_stay_three() -> None:
    base = "- [ ] a <!-- id: 1 -->\n- [ ] b <!-- id: 2 -->\n"
    copied = "- [ ] a <!-- id: 1 -->\n- [ ] a again <!-- id: 1 -->\n- [ ] b <!-- id: 2 -->\n"
    merged = merge_files(base, copied, copied.replace("[ ] b", "[x] b"))
    assert merged.text == copied.replace("again <!-- id: 1", "again <!-- id: 3").replace(
        "[ ] b", "[x] b"
    )
    assert [s[:3] for s in merged.split] == [("ours", "1", "3"), ("theirs", "1", "3")]
    thrice = "- [ ] a <!-- id: 1 -->\n" * 3
    merged = merge_files(base, thrice + "- [ ] b <!-- id: 2 -->\n", thrice)
    assert _ids(merged.text) == ["1", "3", "4"]  # b: removed by theirs, unchanged by ours


def test_a_diff_fenced_in_the_list_is_code_not_a_conflict(tmp_path: Path) -> None:
    """Markers in a code block fenced at the top level (a diff a person pasted into
    the plan) are code: writes go on, and only the task's marker changes."""
    listing = tmp_path / "TODO.md"
    fenced = "```diff\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n```\n"
    listing.write_text(f"# Todos\n\n{fenced}\n- [ ] Alpha\n")
    done = todo_process("--file", str(listing), "done", "Alpha", cwd=tmp_path)
    assert done.code == 0, done.err
    assert listing.read_text() == f"# Todos\n\n{fenced}\n- [x] Alpha\n"
