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
import re
import shlex
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
    # A ``.hand`` mark beside a copy says that revision is the list as a person left it;
    # a ``.by`` record, which command wrote it.
    marks = (".hand", ".by")
    names = sorted(p.name for p in revs.iterdir() if p.suffix not in marks) if revs.exists() else []
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


class Completing:
    """A list whose last open task `todo done B` completes: a block for the
    completion log (and, on a session list, the list wiped)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.before: dict[str, str] = {}
        self.outcomes: set[bool] = set()

    def env(self, env: dict[str, str]) -> dict[str, str]:
        if self.where == "file":
            return {**env, "TODOCLI_FILE": str(Path(env["ROOT"]) / "project" / "TODO.md")}
        return env

    def listing(self, env: dict[str, str]) -> Path:
        if self.where == "file":
            return Path(env["ROOT"]) / "project" / "TODO.md"
        return Path(env["TODOCLI_HOME"]) / "sessions" / "default.md"

    def set_up(self, env: dict[str, str]) -> None:
        ok("init", "A", "B", env=self.env(env))
        ok("done", "A", "--note", "first", env=self.env(env))
        self.before[env["ROOT"]] = self.listing(env).read_text()

    def complete(self, env: dict[str, str]) -> Run:
        return todo_process("done", "B", env=self.env(env))

    def check(self, env: dict[str, str], _: Run) -> None:
        """After any call (here a read, `todo show`, which settles what the killed
        writer left): the list is the old one or the new one, the log holds the
        block exactly when the new one landed, revisions and state agree, nothing
        is left half-written; the retry of a write that did not land logs once."""
        full = self.env(env)
        ok("show", env=full)
        path = self.listing(env)
        (state,) = (Path(env["TODOCLI_HOME"]) / "state").glob("*/*")
        text = path.read_text() if path.exists() else ""
        revs = revisions(state)
        assert sorted(revs) == list(range(1, len(revs) + 1))
        landed = text != self.before[env["ROOT"]]
        self.outcomes.add(landed)
        assert len(revs) == (3 if landed else 2)
        assert revs[max(revs)] == text, "the newest revision is the list"
        if landed and self.where == "session":
            assert text == "", "a finished session list is wiped"
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


@pytest.mark.parametrize("where", ["session", "file"])
def test_a_completing_write_killed_at_any_point_logs_once_exactly_when_it_landed(
    tmp_path: Path, where: str
) -> None:
    """Killed at any step of a completing `todo done`, then any call: see
    ``Completing.check``."""
    case = Completing(where)
    points = each_kill(tmp_path, case.set_up, case.complete, case.check)
    assert case.outcomes == {False, True}, "kills both before and after the list landed"
    assert {"journal", "step", "temp", "replace", "adopt"} <= set(points)


def test_an_agents_finishing_snapshot_killed_at_any_point_forgets_its_view_only_if_it_landed(
    tmp_path: Path,
) -> None:
    """An agent's snapshot that finishes the list wipes it and forgets every agent's
    view record (the next list starts afresh): killed at any step, then any call,
    the records are gone exactly when the wiped list landed, and logged once."""
    sent = {
        "todos": [{"content": "A", "status": "in_progress"}, {"content": "B", "status": "pending"}]
    }
    done = {"todos": [{"content": c, "status": "completed"} for c in ("A", "B")]}

    def set_up(env: dict[str, str]) -> None:
        ok("apply", env=env, stdin=json.dumps(sent))

    def check(env: dict[str, str], _: Run) -> None:
        home = Path(env["TODOCLI_HOME"])
        ok("show", env=env)
        landed = (home / "sessions" / "default.md").read_text() == ""
        views = sorted(p.name for p in (home / "state").rglob("views/*"))
        assert views == ([] if landed else ["default.md"])
        assert log_blocks(home / "memory" / "todos") == ["# task1-20261122-100000"] * landed
        assert temps(home) == []

    points = each_kill(
        tmp_path, set_up, lambda env: todo_process("apply", env=env, stdin=json.dumps(done)), check
    )
    assert "adopt" in points


@pytest.mark.parametrize(("write_killed_at", "landed"), [("step:1", False), ("adopt:1", True)])
def test_the_call_that_settles_a_killed_write_killed_at_any_point_too(
    tmp_path: Path, write_killed_at: str, landed: bool
) -> None:
    """The call that settles a killed write (undoing it, or finishing it) killed in
    turn at any of its steps: the call after it settles it all the same."""
    case = Completing("session")

    def killed_write(env: dict[str, str]) -> None:
        case.set_up(env)
        run = todo_process("done", "B", env={**env, "TODOCLI_KILL_AT": write_killed_at})
        assert run.code == KILLED, run.err

    def settle(env: dict[str, str]) -> Run:
        return todo_process("show", env=env)

    points = each_kill(tmp_path, killed_write, settle, case.check)
    assert case.outcomes == {landed}
    assert set(points) == ({"adopt"} if landed else {"drop", "cut"})


# -- a swapping write: a person edits the list ------------------------------------------

# A `todo` process whose write has an editor's save land just after its last look
# (the window the swap exists for), as tests/test_editor_race.py does in-process;
# with EDITOR_TWICE, a second save (a second later) just after the swap. Each save
# is noted in EDITOR_MARK, for the test to know what was saved.
EDITOR_IN_THE_WINDOW = """
import os, sys, time
from todocli.storage.store import Store

def save(path, text, later=0):
    with open(path + ".editor", "w") as f:
        f.write(text)
    if later:
        os.utime(path + ".editor", (time.time() + later,) * 2)
    os.rename(path + ".editor", path)
    with open(os.environ["EDITOR_MARK"], "a") as f:
        f.write(text.splitlines()[-1] + "\\n")

last_look, check, saved = Store._still_seen, Store._replaced_was_seen, []

def look_then_save(self):
    last_look(self)
    if not saved:
        saved.append(1)
        with open(self.loc.list_file) as f:
            save(self.loc.list_file, f.read() + "- [ ] saved in the window\\n")

def save_again_then_check(self, parked):
    if os.environ.get("EDITOR_TWICE") and len(saved) == 1:
        saved.append(2)
        with open(parked) as f:  # the first save, and more
            save(self.loc.list_file, f.read() + "- [ ] saved again\\n", later=1)
    check(self, parked)

Store._still_seen, Store._replaced_was_seen = look_then_save, save_again_then_check
from todocli.__main__ import run
sys.exit(run(sys.argv[1:]))
"""


def skip_unless_swapping(folder: Path) -> None:
    """Skip, saying why, where files cannot be swapped in one step here (no
    renameat2, or a file system that refuses RENAME_EXCHANGE): there a write
    replaces, and never parks a person's save."""
    a, b = folder / ".swap-probe-a", folder / ".swap-probe-b"
    folder.mkdir(parents=True, exist_ok=True)
    a.write_text("a")
    b.write_text("b")
    try:
        swaps = swap.exchange(str(a), str(b))
    finally:
        a.unlink()
        b.unlink()
    if not swaps:
        pytest.skip("renameat2(RENAME_EXCHANGE) is not supported here: a write never swaps")


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
    """Each line the person saved is in the list, once (a later save holds the
    earlier one's lines too); no temporary file or journal is left."""
    home = Path(env["TODOCLI_HOME"])
    path = home / "sessions" / "default.md"
    ok("show", env=env)
    mark = Path(env["ROOT"]) / "saved"
    saved = mark.read_text().splitlines() if mark.exists() else []
    text = path.read_text()
    assert "- [ ] typed by hand\n" in text
    for line in ("- [ ] saved in the window", "- [ ] saved again"):
        assert text.count(line + "\n") == (line in saved), f"{line!r} lost or repeated"
    assert temps(home) == [], "a temporary file outlived its writer"
    assert not (home / "state" / "sessions" / "default" / "journal").exists()
    revs = revisions(home / "state" / "sessions" / "default")
    assert sorted(revs) == list(range(1, len(revs) + 1))
    ok("done", "A", env=env)  # and the write, done again, keeps them too
    again = path.read_text()
    assert "- [x] A\n" in again
    for line in ("- [ ] saved in the window", "- [ ] saved again"):
        assert again.count(line + "\n") == (line in saved)


@pytest.mark.parametrize("saves", [1, 2])
def test_a_swapping_write_killed_at_any_point_keeps_the_persons_save(
    tmp_path: Path, saves: int
) -> None:
    """A person edited the list lately, so a write swaps its file in; an editor's
    save lands just after the write's last look, so the swap parks it under the
    temporary name and puts it back (with a second save just after the swap, the
    newer one is put back). Killed at any step of that, then any call: the save
    is in the list, once, and no temporary file is left."""
    skip_unless_swapping(tmp_path)
    twice = {"EDITOR_TWICE": "1"} if saves == 2 else {}
    points = each_kill(
        tmp_path,
        person_near,
        lambda env: editor_process("done", "A", env={**env, **twice}),
        check_the_persons_lines_are_kept,
    )
    assert {"swap", "swap-back", "swapped"} <= set(points)
    assert ("swap-again" in points) == (saves == 2)


def test_a_save_parked_by_a_killed_swap_is_put_back_not_removed_as_stale(
    todo: Todo, home: Path
) -> None:
    """The case found: killed between the swap and the swap-back, the person's save
    sat in a hidden temporary file that a later write removed as stale."""
    skip_unless_swapping(home)
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


def test_a_save_parked_by_a_killed_swap_survives_another_homes_write_and_sweep(
    tmp_path: Path,
) -> None:
    """Two homes (two journals, two locks) write one --file list. Home A is killed at
    its swap: the person's save is parked beside the list, under A's temporary name.
    Home B writes next, over 30 s later (its sweep of old temporary files saw the
    parked save as stale and removed it), and A's recovery found B's newer list and
    removed the parked save as older. Now: B spares it, and A keeps it as a revision
    by hand, says so, and `todo undo` brings it back."""
    listing = tmp_path / "project" / "TODO.md"
    skip_unless_swapping(listing.parent)
    env_a = {
        "TODOCLI_HOME": str(tmp_path / "a"),
        "TODOCLI_LOCK_DIR": str(tmp_path / "locks-a"),
        "TODOCLI_FILE": str(listing),
        "TODOCLI_NOW": NOW,
        "ROOT": str(tmp_path),
    }
    env_b = {
        **env_a,
        "TODOCLI_HOME": str(tmp_path / "b"),
        "TODOCLI_LOCK_DIR": str(tmp_path / "locks-b"),
    }
    ok("init", "A", "B", env=env_a)
    listing.write_text(listing.read_text() + "- [ ] typed by hand\n")
    ok("start", "B", env=env_a)
    killed = editor_process("done", "A", env={**env_a, "TODOCLI_KILL_AT": "swap:1"})
    assert killed.code == KILLED, killed.err
    parked = [p for p in listing.parent.iterdir() if p.name.endswith(".todo-tmp")]
    assert len(parked) == 1  # the save, parked
    assert "- [ ] saved in the window\n" in parked[0].read_text()
    old = time.time() - 3600  # B writes over 30 s after the save (a swap keeps its time)
    os.utime(parked[0], (old, old))
    ok("add", "y", env=env_b)
    assert parked[0].exists(), "another home's write removed the parked save"
    assert "- [ ] y\n" in listing.read_text()
    shown = ok("show", env=env_a)  # A settles its killed write
    assert "- [ ] y\n" in listing.read_text()  # B's newer list stays the list
    assert not parked[0].exists()
    hint = re.search(r"get it back with: (todo [^)]*undo)\)", shown.err)
    assert hint, shown.err
    state = tmp_path / "a" / "state" / "files"
    (folder,) = state.iterdir()
    revs = revisions(folder)
    kept = max(revs)
    assert "- [ ] saved in the window\n" in revs[kept]
    assert (folder / "revs" / f"{kept:08d}.hand").exists()  # marked as by hand
    history = json.loads(ok("history", "--json", env=env_a).out)["data"]
    assert any(r["rev"] == kept and r["by_hand"] for r in history["revisions"]), history
    # The hint as typed in a shell of the person's own: no home, no list in its
    # environment; it names both.
    typed = shlex.split(hint.group(1))[1:]
    clean = {k: v for k, v in env_a.items() if k not in ("TODOCLI_HOME", "TODOCLI_FILE")}
    ok(*typed, env=clean)
    assert "- [ ] saved in the window\n" in listing.read_text()


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
    copies = sorted(p.name for p in revs.iterdir() if p.suffix != ".by")
    assert copies == ["00000001.md", "00000002.md"]


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


def add_with_todo(listing: Path) -> str:
    """A `todo add` (a real process): a write, so a newer list."""
    run = todo_process("--session", listing.stem, "add", "B")
    assert run.code == 0, run.err
    return "- [ ] B\n"


def restore_from_a_backup(listing: Path) -> str:
    """A person puts back an old copy (`cp -p`): as old as the list gc judged, but
    another file."""
    backup = listing.with_name("backup")
    backup.write_text("- [ ] restored\n")
    os.utime(backup, (OLD, OLD))
    os.rename(backup, listing)
    return "- [ ] restored\n"


@pytest.mark.parametrize("change", [add_with_todo, restore_from_a_backup])
def test_gc_keeps_a_session_changed_between_its_look_and_its_delete(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], str]
) -> None:
    """The list changes just after gc looked at its age: gc looks again under the
    lock (its age, and that it is still the same file), and keeps it."""
    assert todo("--session", "s", "add", "A").code == 0
    listing = home / "sessions" / "s.md"
    os.utime(listing, (OLD, OLD))
    real_stat = Path.stat
    looks: list[Path] = []
    changed: list[str] = []

    def stat_then_change(self: Path, **options: bool) -> os.stat_result:
        """gc's looks at the list: what kind of file it is, then its age; the
        change lands just after the second."""
        seen = real_stat(self, **options)
        if self == listing:
            looks.append(self)
            if len(looks) == 2:
                changed.append(change(listing))
        return seen

    monkeypatch.setattr(Path, "stat", stat_then_change)
    run = todo("gc", "--older-than", "1d")
    assert run.code == 0, run.err
    assert changed, "the seam ran"
    assert listing.exists(), "gc removed a list changed after it looked"
    assert changed[0] in listing.read_text()
    assert (home / "state" / "sessions" / "s" / "revs" / "00000001.md").exists()


def test_a_kill_while_recording_a_view_with_no_list_leaves_no_temporary_file(
    todo: Todo, home: Path
) -> None:
    """An agent's snapshot that leaves the list as it is (another writer's task
    kept) records the agent's view with no list to write, outside any journal:
    killed in that write, its temporary file in views/ goes at the next write."""
    sent = json.dumps({"todos": [{"content": "A", "status": "in_progress"}]})
    assert todo("apply", stdin=sent).code == 0
    assert todo("add", "X").code == 0
    killed = todo_process("apply", stdin=sent, env={"TODOCLI_KILL_AT": "temp:1"})
    assert killed.code == KILLED, killed.err
    views = home / "state" / "sessions" / "default" / "views"
    assert temps(views), "the kill point is in the view record's write"
    assert todo("apply", stdin=sent).code == 0
    assert temps(views) == []


def test_a_journal_cut_short_is_a_write_that_had_not_started(todo: Todo, home: Path) -> None:
    """A writer killed while writing its journal took no step yet: the journal,
    not whole (no ``end`` line), is dropped and nothing else is touched."""
    assert todo("add", "A").code == 0
    state = home / "state" / "sessions" / "default"
    before = sorted(p.name for p in state.rglob("*"))
    (state / "journal").write_text("todo journal 1\ntag 0123abcd\nrev 2\nap")
    assert todo("show").code == 0
    assert not (state / "journal").exists()
    assert sorted(p.name for p in state.rglob("*")) == before
    assert todo("add", "B").code == 0
    assert sorted((state / "revs").iterdir())[-1].name == "00000002.md"


@pytest.mark.parametrize("kind", ["a directory", "a FIFO"])
def test_a_journal_that_is_not_a_file_is_named_and_nothing_is_written(
    todo: Todo, home: Path, kind: str
) -> None:
    """A folder or a FIFO where the journal goes: reads go on; a write says what is
    there (exit 6), not that a killed write's journal "could not be settled (see the
    message before)", with no message before; the list is as it was."""
    assert todo("add", "A").code == 0
    state = home / "state" / "sessions" / "default"
    journal = state / "journal"
    journal.mkdir() if kind == "a directory" else os.mkfifo(journal)
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    assert todo("show").code == 0
    added = todo("add", "B")
    assert added.code == 6
    assert added.err == (f"todo: cannot write {journal}: it is {kind}, not a regular file\n"), (
        added.err
    )
    assert listing.read_bytes() == before


def test_a_list_edited_in_place_after_a_write_killed_just_after_landing_keeps_its_log(
    tmp_path: Path,
) -> None:
    """Killed just after the list was replaced, then a person edits it in place before
    any other call: the write did land (the list is the file it wrote), so its
    completion log block, revision and state stay; the person's line too."""
    for n in range(1, MAX_POINTS):
        root = tmp_path / f"run{n}"
        path = root / "TODO.md"
        env = {
            "TODOCLI_HOME": str(root / "home"),
            "TODOCLI_FILE": str(path),
            "TODOCLI_NOW": NOW,
            "TODOCLI_CONFIG": str(root / "none.toml"),
        }
        root.mkdir()
        ok("init", "A", "B", env=env)
        before = path.read_text()
        killed = todo_process("done", "A", "B", env={**env, "TODOCLI_KILL_AT": f"replace:{n}"})
        assert killed.code == KILLED, f"the write has no replace after point {n - 1}"
        if path.read_text() != before:
            break  # killed just after the list's own replace
    with path.open("a") as edit:  # in place: the same file, another content
        edit.write("- [ ] typed after\n")
    ok("show", env=env)
    text = path.read_text()
    assert "- [x] B" in text
    assert "- [ ] typed after\n" in text
    memory = root / "home" / "memory" / "todos"
    assert log_blocks(memory) == ["# task1-20261122-100000"], "the write landed: its block stays"
    (state,) = (root / "home" / "state").glob("*/*")
    assert not (state / "journal").exists()
    revs = revisions(state)
    assert sorted(revs) == [1, 2], "the write's revision is kept"
    assert "- [x] B" in revs[2]


# -- a person's save by rename after a killed write ------------------------------------


def snapshot(count: int) -> str:
    return json.dumps(
        {"todos": [{"content": f"step {i}", "status": "pending"} for i in range(count)]}
    )


def test_a_save_by_rename_after_a_killed_snapshot_loses_no_task(tmp_path: Path) -> None:
    """An agent's snapshot killed at any point, then a person saves the list by rename
    (another file, with a task of theirs) before any other call, then the agent's
    next snapshot: every task of that snapshot and the person's task are in the list.
    (Killed before its temporary file was made, the write did not land, though the
    list is another file than before: taken as landed, the agent would be thought
    to have seen tasks the list never held, and the person to have removed them.)"""

    def set_up(env: dict[str, str]) -> None:
        ok("apply", env=env, stdin=snapshot(2))

    def check(env: dict[str, str], _: Run) -> None:
        listing = Path(env["TODOCLI_HOME"]) / "sessions" / "default.md"
        saved = listing.with_name("saved.md")
        saved.write_text(listing.read_text() + "- [ ] typed by a person\n")
        os.replace(saved, listing)
        ok("apply", env=env, stdin=snapshot(6))
        tasks = [line for line in listing.read_text().splitlines() if line.startswith("- [")]
        assert tasks == [*(f"- [ ] step {i}" for i in range(6)), "- [ ] typed by a person"]

    points = each_kill(
        tmp_path, set_up, lambda env: todo_process("apply", env=env, stdin=snapshot(4)), check
    )
    assert "journal" in points
    assert "noted" in points


def test_a_write_killed_before_its_new_file_holds_anything_leaves_the_list_as_it_was(
    todo: Todo, home: Path
) -> None:
    """Killed with the list's temporary file made but nothing in it yet (or part of
    it): that file is the writer's own, never a person's save to put back; the next
    call removes it, and the list keeps every task."""
    todo("add", "A", "B")
    listing = home / "sessions" / "default.md"
    before = listing.read_text()
    old = time.time() - 3600
    os.utime(listing, (old, old))  # older than the temporary file, as a list often is
    made_at = 0
    for n in range(1, 10):
        killed = todo_process("add", "C", env={"TODOCLI_KILL_AT": f"made:{n}"})
        assert killed.code == KILLED
        if temps(listing.parent):
            made_at = n
            break
    assert made_at, "the list's own temporary file is made at some 'made' point"
    assert todo("show").code == 0
    assert listing.read_text() == before
    assert temps(listing.parent) == []
