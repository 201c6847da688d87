"""Crash safety: a write killed at any of its steps is finished or undone by the
next call, whatever that call is; ``todo gc`` takes each list's lock.

Kills are forced through the kill points in the code (``TODOCLI_KILL_AT=NAME:N``
SIGKILLs a real ``todo`` process the N-th time it reaches a point named NAME, or
any point for ``*``): each test below kills the same command at its 1st, 2nd, ...
point until it runs to the end, so every step of it is covered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support_cli import Run, Todo, todo_process
from todocli.storage import swap

NOW = "2026-11-22T10:00:00"
KILLED = -9
MAX_POINTS = 200  # a command with more kill points than this is a loop, not a write


def temps(*folders: Path) -> list[str]:
    """Temporary files (``*.todo-tmp``) anywhere under the folders."""
    return sorted(str(p) for f in folders if f.exists() for p in f.rglob("*.todo-tmp"))


def revisions(state: Path) -> dict[int, str]:
    revs = state / "revs"
    names = sorted(p.name for p in revs.iterdir()) if revs.exists() else []
    assert all(n.endswith(".md") and n[:-3].isdigit() for n in names), names
    return {int(n[:-3]): (revs / n).read_text() for n in names}


def log_blocks(memory: Path) -> list[str]:
    """The completion log's block headings, from every log file."""
    files = sorted(memory.glob("*.md")) if memory.exists() else []
    return [line for f in files for line in f.read_text().splitlines() if line.startswith("# task")]


def each_kill(
    tmp_path: Path,
    set_up: Callable[[dict[str, str]], None],
    command: Callable[[dict[str, str]], Run],
    check: Callable[[dict[str, str], Run], None],
) -> list[str]:
    """For n = 1, 2, ...: a fresh home set up, ``command`` killed at its n-th kill
    point, and ``check`` run on what is left; until the command runs to its end.
    Returns the names of the points, in order."""
    points: list[str] = []
    for n in range(1, MAX_POINTS):
        root = tmp_path / f"run{n}"
        env = {
            "TODOCLI_HOME": str(root / "home"),
            "TODOCLI_LOCK_DIR": os.environ["TODOCLI_LOCK_DIR"],
            "TODOCLI_NOW": NOW,
            "ROOT": str(root),
        }
        set_up(env)
        run = command({**env, "TODOCLI_KILL_AT": f"*:{n}"})
        if run.code != KILLED:
            assert run.code == 0, run.err
            assert n > 1, "the command reached no kill point"
            return points
        points.append(run.err.rsplit("killed at ", 1)[-1].strip())
        check(env, run)
    raise AssertionError(f"more than {MAX_POINTS} kill points")


def ok(*args: str, env: dict[str, str], stdin: str | None = None) -> Run:
    run = todo_process(*args, env=env, stdin=stdin)
    assert run.code == 0, (args, run.err)
    return run


# -- a completing write: the completion log ---------------------------------------------


@pytest.mark.parametrize("where", ["session", "file"])
def test_a_completing_write_killed_at_any_point_logs_once_exactly_when_it_landed(
    tmp_path: Path, where: str
) -> None:
    """`todo done` completing the last task appends a block to the completion log
    (and, on a session list, wipes it). Killed at any step, then any call (here a
    read, `todo show`): the list is the old one or the new one, the log holds the
    block exactly when the new one landed, revisions and state agree, nothing is
    left half-written; the retry of a write that did not land logs it once."""

    def env_of(env: dict[str, str]) -> dict[str, str]:
        if where == "file":
            return {**env, "TODOCLI_FILE": str(Path(env["ROOT"]) / "project" / "TODO.md")}
        return env

    def listing(env: dict[str, str]) -> Path:
        if where == "file":
            return Path(env["ROOT"]) / "project" / "TODO.md"
        return Path(env["TODOCLI_HOME"]) / "sessions" / "default.md"

    def state_dir(env: dict[str, str]) -> Path:
        (state,) = (Path(env["TODOCLI_HOME"]) / "state").glob("*/*")
        return state

    def set_up(env: dict[str, str]) -> None:
        ok("init", "A", "B", env=env_of(env))
        ok("done", "A", "--note", "first", env=env_of(env))
        before[env["ROOT"]] = listing(env).read_text()

    before: dict[str, str] = {}
    outcomes = set()

    def check(env: dict[str, str], _: Run) -> None:
        full = env_of(env)
        ok("show", env=full)  # a read: it settles what the killed writer left
        path, state = listing(env), state_dir(env)
        text = path.read_text() if path.exists() else ""
        revs = revisions(state)
        assert sorted(revs) == list(range(1, len(revs) + 1))
        landed = text != before[env["ROOT"]]
        outcomes.add(landed)
        assert len(revs) == (3 if landed else 2)
        assert revs[max(revs)] == text, "the newest revision is the list"
        memory = Path(env["TODOCLI_HOME"]) / "memory" / "todos"
        assert log_blocks(memory) == (["# task1-20261122-100000"] if landed else [])
        saved = state / "state.json"
        saved_state = json.loads(saved.read_text()) if saved.exists() else {}
        assert saved_state.get("completions") == (1 if landed else None)
        assert not (state / "journal").exists()
        assert temps(Path(env["TODOCLI_HOME"]), path.parent) == []
        assert not list(state.rglob("*.pending"))
        if not landed:  # the retry: logged once, numbered as the first
            ok("done", "B", env=full)
        assert log_blocks(memory) == ["# task1-20261122-100000"]
        assert "- B" in next(memory.glob("*.md")).read_text()

    points = each_kill(
        tmp_path, set_up, lambda env: todo_process("done", "B", env=env_of(env)), check
    )
    assert outcomes == {False, True}, "kills both before and after the list landed"
    assert {"journal", "step", "temp", "replace", "adopt"} <= set(points)


# -- a swapping write: a person edits the list ------------------------------------------

# A `todo` process whose write has an editor's save land just after its last look
# (the window the swap exists for), as tests/test_editor_race.py does in-process.
EDITOR_IN_THE_WINDOW = """
import os, sys
from todocli.storage.store import Store
last_look, saved = Store._still_seen, []
def look_then_save(self):
    last_look(self)
    if not saved:
        saved.append(True)
        path = self.loc.list_file
        with open(path) as f:
            text = f.read()
        with open(path + ".editor", "w") as f:
            f.write(text + "- [ ] saved in the window\\n")
        os.rename(path + ".editor", path)
        open(os.environ["EDITOR_MARK"], "w").close()  # the test knows it was made
Store._still_seen = look_then_save
from todocli.__main__ import run
sys.exit(run(sys.argv[1:]))
"""

needs_swap = pytest.mark.skipif(
    swap._renameat2() is None,
    reason="this system has no renameat2(RENAME_EXCHANGE): a write never swaps here",
)


def editor_process(*args: str, env: dict[str, str]) -> Run:
    mark = str(Path(env.get("ROOT", os.environ["TODOCLI_HOME"])) / "saved")
    proc = subprocess.run(
        [sys.executable, "-c", EDITOR_IN_THE_WINDOW, *args],
        capture_output=True,
        env={**os.environ, **env, "EDITOR_MARK": mark},
        timeout=60,
        check=False,
    )
    return Run(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def person_near(env: dict[str, str]) -> None:
    """A list a person edits: a hand edit, found by the next write."""
    ok("init", "A", "B", env=env)
    path = Path(env["TODOCLI_HOME"]) / "sessions" / "default.md"
    path.write_text(path.read_text() + "- [ ] typed by hand\n")
    ok("start", "B", env=env)


def check_the_persons_lines_are_kept(env: dict[str, str], _: Run) -> None:
    home = Path(env["TODOCLI_HOME"])
    path = home / "sessions" / "default.md"
    ok("show", env=env)
    text = path.read_text()
    saved = (Path(env["ROOT"]) / "saved").exists()
    assert "- [ ] typed by hand\n" in text
    if saved:
        assert "- [ ] saved in the window\n" in text, "the person's save was lost"
    assert text.count("saved in the window") == saved
    assert temps(home) == [], "a temporary file outlived its writer"
    assert not (home / "state" / "sessions" / "default" / "journal").exists()
    revs = revisions(home / "state" / "sessions" / "default")
    assert sorted(revs) == list(range(1, len(revs) + 1))
    ok("done", "A", env=env)  # and the write, done again, keeps them too
    text = path.read_text()
    assert "- [x] A\n" in text
    assert text.count("- [ ] saved in the window\n") == saved


@needs_swap
def test_a_swapping_write_killed_at_any_point_keeps_the_persons_save(tmp_path: Path) -> None:
    """A person edited the list lately, so a write swaps its file in; an editor's
    save lands just after the write's last look, so the swap parks it under the
    temporary name and puts it back. Killed at any step of that, then any call:
    the save is in the list, once, and no temporary file is left."""
    points = each_kill(
        tmp_path,
        person_near,
        lambda env: editor_process("done", "A", env=env),
        check_the_persons_lines_are_kept,
    )
    assert {"swap", "swap-back", "swapped"} <= set(points)


@needs_swap
def test_a_save_parked_by_a_killed_swap_is_put_back_not_removed_as_stale(
    todo: Todo, home: Path
) -> None:
    """The case found: killed between the swap and the swap-back, the person's save
    sat in a hidden temporary file that a later write removed as stale."""
    env = {"TODOCLI_NOW": NOW}
    person_near(env | {"TODOCLI_HOME": str(home)})
    killed = editor_process("done", "A", env={"TODOCLI_KILL_AT": "swap:1"})
    assert killed.code == KILLED, killed.err
    path = home / "sessions" / "default.md"
    parked = [p for p in path.parent.iterdir() if p.name.endswith(".todo-tmp")]
    assert len(parked) == 1  # the save, parked
    old = time.time() - 3600  # as a later write would find it: stale
    os.utime(parked[0], (old, old))
    assert todo("add", "C").code == 0
    assert "- [ ] saved in the window\n" in path.read_text()
    assert not parked[0].exists()


# -- the completion log and revs/ ----------------------------------------------------------


def test_a_kill_after_the_log_append_leaves_no_block_and_the_retry_logs_once(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_NOW", NOW)
    assert todo("init", "A", "B").code == 0
    assert todo("done", "A").code == 0
    killed = todo_process("done", "B", env={"TODOCLI_KILL_AT": "step:1"})
    assert killed.code == KILLED, killed.err
    memory = home / "memory" / "todos"
    assert todo("done", "B").code == 0
    assert log_blocks(memory) == ["# task1-20261122-100000"]


def test_a_kill_mid_write_leaves_no_temporary_file_in_revs(todo: Todo, home: Path) -> None:
    assert todo("add", "A").code == 0
    killed = todo_process("add", "B", env={"TODOCLI_KILL_AT": "temp:1"})  # the revision copy
    assert killed.code == KILLED, killed.err
    revs = home / "state" / "sessions" / "default" / "revs"
    assert temps(revs), "the kill point is in the revision copy's write"
    assert todo("add", "C").code == 0
    assert temps(revs) == []
    assert sorted(p.name for p in revs.iterdir()) == ["00000001.md", "00000002.md"]


# -- gc ---------------------------------------------------------------------------------

OLD = time.time() - 40 * 86400


def old_and_new_sessions(env: dict[str, str]) -> None:
    for session in ("old", "new"):
        both = {**env, "TODOCLI_SESSION": session}
        ok("init", "A", "B", env=both)
        ok("done", "A", env=both)
        ok("done", "B", env=both)  # completes it: a log block, kept by gc
        ok("add", "C", env=both)
    os.utime(Path(env["TODOCLI_HOME"]) / "sessions" / "old.md", (OLD, OLD))


def whole_or_gone(env: dict[str, str]) -> bool:
    """The old session is all there (its list and all its revisions) or all gone;
    the new one and every log block are untouched. Whether it is there."""
    home = Path(env["TODOCLI_HOME"])
    assert log_blocks(home / "memory" / "todos") == ["# task1-20261122-100000"] * 2
    assert revisions(home / "state" / "sessions" / "new").keys() == {1, 2, 3, 4}
    there = (home / "sessions" / "old.md").exists()
    state = home / "state" / "sessions" / "old"
    if there:
        assert revisions(state).keys() == {1, 2, 3, 4}
        assert not (state / "journal").exists()
    else:
        assert not state.exists(), "the removed session's history is left behind"
    assert temps(home) == []
    return there


@pytest.mark.parametrize("then", [["gc", "--older-than", "1d"], ["--session", "old", "show"]])
def test_gc_killed_at_any_point_leaves_a_session_whole_or_gone(
    tmp_path: Path, then: list[str]
) -> None:
    def check(env: dict[str, str], _: Run) -> None:
        ok(*then, env=env)
        whole_or_gone(env)
        ok("gc", "--older-than", "1d", env=env)
        assert not whole_or_gone(env)

    points = each_kill(
        tmp_path,
        old_and_new_sessions,
        lambda env: todo_process("gc", "--older-than", "1d", env=env),
        check,
    )
    assert {"journal", "unlink", "clear"} <= set(points)


def test_gc_keeps_a_session_written_between_its_look_and_its_delete(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `todo add` (a real process) lands just after gc looked at the session's
    age: gc looks again under the lock, and keeps it."""
    assert todo("--session", "s", "add", "A").code == 0
    listing = home / "sessions" / "s.md"
    os.utime(listing, (OLD, OLD))
    real_stat = Path.stat
    looks: list[Path] = []
    added: list[Run] = []

    def stat_then_add(self: Path, **options: bool) -> os.stat_result:
        """gc's looks at the list: what kind of file it is, then its age; the add
        lands just after the second."""
        seen = real_stat(self, **options)
        if self == listing:
            looks.append(self)
            if len(looks) == 2:
                added.append(todo_process("--session", "s", "add", "B"))
        return seen

    monkeypatch.setattr(Path, "stat", stat_then_add)
    run = todo("gc", "--older-than", "1d")
    assert run.code == 0, run.err
    assert added, "the seam ran"
    assert added[0].code == 0, added[0].err
    assert listing.exists(), "gc removed a list written after it looked"
    assert "- [ ] B\n" in listing.read_text()
    assert (home / "state" / "sessions" / "s" / "revs" / "00000002.md").exists()
