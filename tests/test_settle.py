"""Saves that take time, and coarse timestamps, lose nothing (issue 22).

An editor's save is not one step: it may empty the file and write it a moment
later, or rename the old file away and write a new one. A ``todo`` call that lands
in between waits for the save (``Store.settle``); one that lands where the list
stays empty refuses (exit 5) rather than take the pause for the list. The races are
forced through the seam ``settle.pause``, where a waiting call sleeps: the editor's
save ends there, so a call that does not wait never sees it end.

On a file system with 1-second timestamps a hand edit of the same size within the
same second as todo's read leaves the file's size and time as they were: such a
file is compared by its bytes (``Store._holds``). The clock is made coarse through
``files.signature`` (every time todo looks at), and on a real ext4 with 128-byte
inodes where this machine can mount one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support_cli import Todo, start_todo, todo_process
from todocli.storage import commit as commit_module
from todocli.storage import files
from todocli.storage import settle as settle_module
from todocli.storage import store as store_module
from todocli.storage.store import Store

SECOND = 1_000_000_000


@pytest.fixture(autouse=True)
def default_save_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are of the wait itself: its default, not the suite's shorter one."""
    monkeypatch.delenv("TODOCLI_SAVE_PAUSE", raising=False)


Look = Callable[[os.stat_result], "tuple[int, int, int, int] | None"]


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def revisions(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "state" / "sessions" / "default" / "revs").iterdir())


class SlowSave:
    """An editor's save of the list with one line added by hand, begun long ago
    (the file emptied in place, emptied and its first chunk written, cut within a
    line, or renamed away) and ended by ``finish``."""

    def __init__(self, path: Path, how: str) -> None:
        self.path = path
        self.how = how
        self.full = path.read_text() + "- [ ] added by hand\n"
        self.written = 0  # how much of it the file holds
        self.handle: object = None
        self.finished = False

    def begin(self) -> None:
        if self.how in ("in-place", "first-chunk"):  # vim with backupcopy=yes
            handle = open(self.path, "r+")  # noqa: SIM115 - kept open until finish()
            handle.truncate(0)
            if self.how == "first-chunk":  # the next chunk delayed past save_pause
                self.written = self.full.index("task5") + 2
                handle.write(self.full[: self.written])
            handle.flush()
            self.handle = handle
        else:  # the old file renamed away, a new one written later
            os.replace(self.path, self.path.with_name(self.path.name + "~"))
        # The save began well before the agent came: nothing about it is recent.
        long_ago = time.time_ns() - 5 * SECOND
        if self.path.exists():
            os.utime(self.path, ns=(long_ago, long_ago))
        os.utime(self.path.parent, ns=(long_ago, long_ago))

    def finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        if self.how in ("in-place", "first-chunk"):
            handle = self.handle
            assert handle is not None
            handle.write(self.full[self.written :])  # type: ignore[attr-defined]
            handle.close()  # type: ignore[attr-defined]
        else:
            self.path.write_text(self.full)


class Clock:
    """todo's own clock (the seam ``files.monotonic``), moved on by the test: a
    call waiting for a save takes no time of the test's, and how long it waited is
    what its pauses add up to."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = time.monotonic()
        monkeypatch.setattr(files, "monotonic", lambda: self.now)

    def pause(self, seconds: float) -> None:
        self.now += seconds

    def pauses(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Every pause of a waiting call moves the clock on, and nothing else."""
        monkeypatch.setattr(settle_module, "pause", self.pause)


def save_ends_while_waiting(monkeypatch: pytest.MonkeyPatch, save: SlowSave) -> list[float]:
    """The seam: the editor's save ends the first time a call waits for it. (Set
    without ``raising``: a version of todo that never waits never gets there.)"""
    waits: list[float] = []
    clock = Clock(monkeypatch)

    def pause(seconds: float) -> None:
        waits.append(seconds)
        save.finish()
        clock.pause(seconds)

    monkeypatch.setattr(settle_module, "pause", pause, raising=False)
    return waits


def wall_clock_at(monkeypatch: pytest.MonkeyPatch, ns: list[int]) -> None:
    """The seam ``files.now_ns``: the wall clock todo compares with file times
    reads ``ns[0]``, which the test sets (no sleeping to the edge of a second)."""
    monkeypatch.setattr(files, "now_ns", lambda: ns[0])


def a_second_long_ago() -> int:
    """The start of a whole second well in the past: every time a test sets in it
    is one no clock has moved past by accident."""
    return (time.time_ns() // SECOND - 100) * SECOND


def ten_tasks(todo: Todo, home: Path) -> Path:
    assert todo("add", *[f"task{i}" for i in range(10)]).code == 0
    return listing(home)


def assert_all_kept(text: str) -> None:
    missing = [f"task{i}" for i in range(10) if not re.search(rf"^- \[.\] task{i}\b", text, re.M)]
    assert missing == [], f"tasks lost: {missing}\n{text}"
    assert "- [ ] added by hand\n" in text, f"the hand edit lost:\n{text}"


# -- writes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["in-place", "first-chunk", "rename-away"])
def test_a_write_waits_for_a_save_begun_long_before_it_came(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The file emptied (or gone) seconds ago, the editor still writing: the agent
    waits for the save and adds to it, whenever the save began."""
    path = ten_tasks(todo, home)
    save = SlowSave(path, how)
    save.begin()
    waits = save_ends_while_waiting(monkeypatch, save)
    result = todo("add", "agent")
    save.finish()  # where the agent did not wait, the save ends after it
    assert result.code == 0, result.err
    text = path.read_text()
    assert_all_kept(text)
    assert "- [ ] agent\n" in text or "- [/] agent\n" in text, f"the agent's update lost:\n{text}"
    assert waits, "the agent did not wait for the save"


def test_a_list_a_person_cut_within_a_line_is_taken_after_the_wait(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The beginning of what todo wrote, cut within a line, that stays so: taken as
    the person's after ``SETTLE_MAX`` (on todo's own clock), and written on."""
    path = ten_tasks(todo, home)
    cut = path.read_text()
    cut = cut[: cut.index("task5") + 2]
    path.write_text(cut)
    long_ago = time.time_ns() - 5 * SECOND
    os.utime(path, ns=(long_ago, long_ago))
    os.utime(path.parent, ns=(long_ago, long_ago))
    clock = Clock(monkeypatch)
    clock.pauses(monkeypatch)
    started = clock.now
    result = todo("add", "agent")
    assert result.code == 0, result.err
    assert clock.now - started >= store_module.SETTLE_MAX
    assert path.read_text().startswith(cut)
    assert "agent" in path.read_text()


@pytest.mark.parametrize("how", ["in-place", "rename-away"])
def test_a_list_left_empty_is_refused_with_exit_5_and_nothing_written(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    path = ten_tasks(todo, home)
    monkeypatch.setattr(store_module, "SETTLE_MAX", 0.2)
    Clock(monkeypatch).pauses(monkeypatch)
    SlowSave(path, how).begin()  # and never finished
    before = revisions(home)
    result = todo("add", "agent")
    assert result.code == 5, (result.code, result.out, result.err)
    state = "is empty" if how == "in-place" else "is gone"
    assert f"{path} {state}, but todo last wrote 10 tasks to it (revision 1)" in result.err
    assert "an editor may still be saving it, or it was emptied by hand" in result.err
    assert "nothing was written" in result.err
    assert "todo init TASK..." in result.err
    assert "todo clear --all" in result.err
    assert revisions(home) == before
    if how == "in-place":
        assert path.read_bytes() == b""
    else:
        assert not path.exists()


@pytest.mark.parametrize("command", [["clear", "--all"], ["init", "fresh"]])
def test_a_list_emptied_on_purpose_goes_on_with_init_or_clear_all(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """The refusal's hint, kept: after ``todo clear --all`` or ``todo init`` on the
    emptied list, writes go on without waiting."""
    path = ten_tasks(todo, home)
    monkeypatch.setattr(store_module, "SETTLE_MAX", 0.2)
    clock = Clock(monkeypatch)
    clock.pauses(monkeypatch)
    path.write_text("")
    assert todo("add", "agent").code == 5
    result = todo(*command)
    assert result.code == 0, result.err
    waits: list[float] = []

    def pause(seconds: float) -> None:
        waits.append(seconds)
        clock.pause(seconds)

    monkeypatch.setattr(settle_module, "pause", pause)
    result = todo("add", "next")
    assert result.code == 0, result.err
    assert waits == []  # the emptied list is on record: nothing to wait for
    text = path.read_text()
    assert "next\n" in text
    assert "task0" not in text
    assert ("fresh\n" in text) == (command[0] == "init")


def test_a_call_refused_on_an_empty_list_waits_two_seconds_first(home: Path) -> None:
    """A real process: the bound is 2 s, then exit 5 with one line on stderr."""
    assert todo_process("add", "a", "b").code == 0
    path = listing(home)
    path.write_text("")
    started = time.monotonic()
    result = todo_process("done", "a")
    waited = time.monotonic() - started
    assert result.code == 5, result.err
    assert result.err.startswith("todo: the list file ")
    assert "todo last wrote 2 tasks to it (revision 1)" in result.err
    assert "waited 2 s" in result.err
    assert waited >= 2.0
    assert path.read_text() == ""


def lock_is_held(lock_file: str) -> bool:
    import fcntl

    try:
        fd = os.open(lock_file, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock taken here
    return False


@pytest.mark.parametrize("how", ["in-place", "first-chunk"])
def test_a_real_agent_process_waits_for_a_slow_in_place_save(home: Path, how: str) -> None:
    """The tester's case with a real ``todo`` process: the editor finishes its save
    a second after the agent holds the list's lock (the agent then waits up to 2 s
    for the emptied list to fill, or for the first chunk to go on), or as soon as a
    todo that does not wait is done."""
    from todocli.app.commands import Context, Options

    assert todo_process("add", *[f"task{i}" for i in range(10)]).code == 0
    path = listing(home)
    save = SlowSave(path, how)
    save.begin()
    lock_file = Context(Options()).loc.lock_file
    agent = start_todo(
        "add",
        "agent",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    held_at = None
    while agent.poll() is None:
        if held_at is None and lock_is_held(lock_file):
            held_at = time.monotonic()
        if held_at is not None and time.monotonic() - held_at >= 1.0:
            break
        time.sleep(0.005)
    save.finish()
    _, err = agent.communicate(timeout=60)
    assert agent.returncode == 0, err
    text = path.read_text()
    assert_all_kept(text)
    assert re.search(r"^- \[.\] agent$", text, re.M), f"the agent's update lost:\n{text}"


# -- reads -------------------------------------------------------------------------------------


def test_json_show_mid_save_waits_and_shows_the_saved_list(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ten_tasks(todo, home)
    save = SlowSave(path, "in-place")
    save.begin()
    save_ends_while_waiting(monkeypatch, save)
    result = todo("--json", "show")
    save.finish()
    assert result.code == 0, result.err
    contents = [t["content"] for t in json.loads(result.out)["data"]["todos"]]
    assert contents == [*(f"task{i}" for i in range(10)), "added by hand"]


def test_check_mid_save_does_not_let_the_agent_stop(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ten_tasks(todo, home)
    save = SlowSave(path, "rename-away")
    save.begin()
    save_ends_while_waiting(monkeypatch, save)
    result = todo("check")
    save.finish()
    assert result.code == 1, "an empty list mid-save let the stop gate pass"
    assert "Open tasks (11)" in result.out


def test_claim_mid_save_takes_a_task_and_claims_no_removal(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ten_tasks(todo, home)
    save = SlowSave(path, "in-place")
    save.begin()
    save_ends_while_waiting(monkeypatch, save)
    result = todo("--json", "--agent", "bot", "claim")
    save.finish()
    assert result.code == 0, result.out
    assert "the list is empty" not in result.out
    hand_edit = json.loads(result.out)["changes"]["hand_edit"]
    assert hand_edit is not None
    assert (hand_edit["added"], hand_edit["removed"]) == (["added by hand"], []), hand_edit
    assert_all_kept(path.read_text())


def test_remind_mid_save_does_not_report_every_task_removed(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ten_tasks(todo, home)
    save = SlowSave(path, "in-place")
    save.begin()
    save_ends_while_waiting(monkeypatch, save)
    result = todo("remind")
    save.finish()
    assert result.code == 0, result.err
    assert "removed" not in result.out
    assert 'added "added by hand"' in result.out


def test_a_read_of_a_list_left_empty_says_what_happened(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read changes nothing: it shows the empty list (exit 0), and says why it
    may not be the list."""
    path = ten_tasks(todo, home)
    monkeypatch.setattr(store_module, "SETTLE_MAX", 0.2)
    Clock(monkeypatch).pauses(monkeypatch)
    path.write_text("")
    result = todo("--json", "show")
    assert result.code == 0, result.err
    warnings = json.loads(result.out)["warnings"]
    assert any(
        "is empty, but todo last wrote 10 tasks to it (revision 1)" in w
        and "an editor may still be saving it" in w
        and "todo init TASK..." in w
        for w in warnings
    ), warnings


# -- coarse timestamps -------------------------------------------------------------------------


def tick_while_a_write_is_in_flight(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, path: Path, where: list[str], look: Look
) -> tuple[bool, str]:
    """todo writes the list, an agent reads it, and a person ticks a box (same size,
    in place), all within one second; the agent's write goes on in the next second.
    The test sets each moment: the file's times (``os.utime``) and the clock todo
    compares them with (``files.now_ns``). ``look``: how todo sees a file's status.
    Returns whether the tick left the status as it was, and the list after the
    agent's write."""
    assert todo(*where, "init", "A", "B", "C").code == 0
    second = a_second_long_ago()
    written = second + SECOND // 10  # todo's write, a tenth into the second
    os.utime(path, ns=(written, written))
    os.utime(path.parent, ns=(written, written))
    now = [second + SECOND // 5]  # the agent reads the list
    wall_clock_at(monkeypatch, now)
    Clock(monkeypatch).pauses(monkeypatch)  # the tick found is waited for: no time of ours
    real_commit = Store.commit
    ticked: list[bool] = []

    def commit(self: Store, text: str | None, *args: Any, **kwargs: Any) -> int:
        if not ticked:
            before = look(os.stat(path))
            data = path.read_bytes()
            with open(path, "r+b") as handle:  # the person's save, in place
                handle.write(data.replace(b"- [ ] B", b"- [x] B"))
            tick = second + SECOND * 3 // 10  # the same second
            os.utime(path, ns=(tick, tick))
            ticked.append(look(os.stat(path)) == before)
            now[0] = second + SECOND + SECOND // 20  # the write goes on in the next second
        return real_commit(self, text, *args, **kwargs)

    monkeypatch.setattr(Store, "commit", commit)
    result = todo(*where, "done", "A")
    assert result.code == 0, result.err
    assert ticked
    text = path.read_text()
    assert "- [x] A\n" in text, (result.out, text)
    return ticked[0], text


def whole_seconds(info: os.stat_result | None) -> tuple[int, int, int, int] | None:
    if info is None:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns // SECOND * SECOND)


def test_a_tick_within_the_same_second_is_kept_when_times_are_whole_seconds(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seam: every file time todo looks at is cut to whole seconds."""
    monkeypatch.setattr(files, "signature", whole_seconds)
    monkeypatch.setattr(store_module, "signature", whole_seconds)
    monkeypatch.setattr(commit_module, "signature", whole_seconds)
    path = listing(home)
    unseen, text = tick_while_a_write_is_in_flight(todo, monkeypatch, path, [], whole_seconds)
    assert unseen, "the scenario needs a tick the file's status does not show"
    assert "- [x] B\n" in text, f"the person's tick was lost:\n{text}"


def _run(*command: str) -> bool:
    return subprocess.run(command, capture_output=True, check=False).returncode == 0


@pytest.fixture
def one_second_fs(tmp_path: Path) -> Iterator[Path]:
    """A small ext4 with 128-byte inodes (1-second timestamps), loop-mounted."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a loop device needs root")
    if shutil.which("mkfs.ext4") is None or shutil.which("mount") is None:
        pytest.skip("mkfs.ext4 or mount is not installed")
    image, mount = tmp_path / "fs.img", tmp_path / "mnt"
    mount.mkdir()
    with open(image, "wb") as handle:
        handle.truncate(16 << 20)
    if not _run("mkfs.ext4", "-q", "-F", "-I", "128", str(image)):
        pytest.skip("mkfs.ext4 failed here")
    if not _run("mount", "-o", "loop", str(image), str(mount)):
        pytest.skip("this machine cannot loop-mount a file system")
    try:
        probe = mount / "probe"
        probe.write_text("x")
        if os.stat(probe).st_mtime_ns % SECOND:
            pytest.skip("the mounted file system keeps finer times than seconds")
        probe.unlink()
        yield mount
    finally:
        _run("umount", str(mount))


def test_a_tick_within_the_same_second_is_kept_on_ext4_with_128_byte_inodes(
    todo: Todo, one_second_fs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = one_second_fs / "TODO.md"
    where = ["--file", str(path)]
    unseen, text = tick_while_a_write_is_in_flight(todo, monkeypatch, path, where, files.signature)
    assert unseen, "the scenario needs a tick the file's status does not show"
    assert "- [x] B\n" in text, f"the person's tick was lost:\n{text}"


def test_a_tick_within_the_same_second_is_kept_on_this_file_system(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: with fine times the tick shows in the file's status."""
    path = tmp_path / "TODO.md"
    where = ["--file", str(path)]
    unseen, text = tick_while_a_write_is_in_flight(todo, monkeypatch, path, where, files.signature)
    assert not unseen
    assert "- [x] B\n" in text, f"the person's tick was lost:\n{text}"


def half_saved_late_in_a_second(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, path: Path, where: list[str]
) -> None:
    """An editor has written half its save in place, a third of a second into a
    second; an agent comes at once. Cut to the second, the file's time looks a
    third of a second old: no save under way, by the time alone. (The test sets
    the file's time and todo's wall clock: see ``tick_while_a_write_is_in_flight``.)"""
    assert todo(*where, "add", *[f"task{i}" for i in range(10)]).code == 0
    save = SlowSave(path, "in-place")
    handle = open(path, "r+")  # noqa: SIM115 - the editor's, closed by finish()
    handle.truncate(0)
    handle.write(save.full[: len(save.full) // 2])
    handle.flush()
    second = a_second_long_ago()
    half = second + SECOND * 3 // 10
    os.utime(path, ns=(half, half))
    os.utime(path.parent, ns=(second - 5 * SECOND,) * 2)  # the folder: long before
    wall_clock_at(monkeypatch, [half + SECOND // 100])  # the agent comes at once
    save.handle = handle
    save.full = save.full[len(save.full) // 2 :]
    waits = save_ends_while_waiting(monkeypatch, save)
    result = todo(*where, "add", "agent")
    save.finish()
    assert result.code == 0, result.err
    text = path.read_text()
    assert_all_kept(text)
    assert re.search(r"^- \[.\] agent$", text, re.M), f"the agent's update lost:\n{text}"
    assert waits


def test_a_half_written_save_is_waited_for_when_times_are_whole_seconds(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "signature", whole_seconds)
    monkeypatch.setattr(store_module, "signature", whole_seconds)
    monkeypatch.setattr(commit_module, "signature", whole_seconds)
    half_saved_late_in_a_second(todo, monkeypatch, listing(home), [])


def test_a_half_written_save_is_waited_for_on_ext4_with_128_byte_inodes(
    todo: Todo, one_second_fs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = one_second_fs / "TODO.md"
    half_saved_late_in_a_second(todo, monkeypatch, path, ["--file", str(path)])


def test_the_stat_vouches_for_a_list_only_when_its_change_is_old_enough(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cheap look stays where it is sound: a list changed more than a second
    before it was read is not read again; one changed just before is."""
    from todocli.app.commands import Context, Options

    assert todo("init", "A").code == 0
    path = listing(home)
    reads: list[str] = []
    real_read_text = files.read_text

    def counted(*args: object, **kwargs: object) -> str:
        reads.append(str(args[0]))
        return real_read_text(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store_module, "read_text", counted)
    long_ago = time.time_ns() - 5 * SECOND
    os.utime(path, ns=(long_ago, long_ago))
    store = Context(Options()).store
    store.read()
    assert store.unchanged()
    assert reads == []
    os.utime(path)  # changed now
    store.read()
    assert store.unchanged()
    assert reads == [str(path)]


def test_a_list_of_prose_left_empty_says_todo_wrote_text_not_zero_tasks(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Todo last wrote prose and no task (``todo clear`` kept the person's notes): the
    refusal on the emptied file says what todo wrote, not "todo last wrote 0 tasks"."""
    monkeypatch.setattr(store_module, "SETTLE_MAX", 0.2)
    Clock(monkeypatch).pauses(monkeypatch)
    path = listing(home)
    path.parent.mkdir(parents=True)
    path.write_text("# Notes\n\nprose\n\n- [x] a\n")
    assert todo("clear").code == 0
    assert path.read_text() == "# Notes\n\nprose\n\n"
    path.write_text("")
    result = todo("add", "agent")
    assert result.code == 5, result.err
    assert "todo last wrote text (and no task) to it (revision 2)" in result.err
    assert "0 tasks" not in result.err
    assert path.read_bytes() == b""


# -- saves in chunks (issue 32) ----------------------------------------------------------------
#
# An editor saves in two chunks with a 300 ms pause between them while `todo add` runs.
# A real `todo` process is stopped (SIGSTOP, through the seam TODOCLI_STOP_AT) just
# before it reads the list, or just after its list landed; the editor (this process)
# writes its chunk there and lets it go on: the race is hit every time.

EDITOR_PAUSE = 0.3
TYPED = "- [ ] a line typed by hand, saved in two chunks\n"


@pytest.fixture(autouse=True)
def no_stopped_todo_left() -> Iterator[None]:
    """A test that fails while its ``todo`` is stopped does not leave it behind."""
    yield
    while STOPPED:
        agent = STOPPED.pop()
        if agent.poll() is None:
            agent.kill()
            agent.communicate()


STOPPED: list[subprocess.Popen[str]] = []


def stopped_todo(stop_at: str, *args: str) -> subprocess.Popen[str]:
    """A real ``todo`` process, stopped at the step ``stop_at`` names ("read:1")."""
    agent = start_todo(
        *args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TODOCLI_STOP_AT": stop_at},
    )
    STOPPED.append(agent)
    _, status = os.waitpid(agent.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), f"todo did not stop at {stop_at}: {agent.communicate()}"
    return agent


def go_on(agent: subprocess.Popen[str]) -> None:
    import signal

    os.kill(agent.pid, signal.SIGCONT)


def finished(agent: subprocess.Popen[str]) -> str:
    _, err = agent.communicate(timeout=60)
    assert agent.returncode == 0, err
    return err


def assert_saved_whole(text: str) -> None:
    """The person's whole save is there, todo's line too, and no cut-off line of the
    save became a task."""
    missing = [f"task{i}" for i in range(10) if not re.search(rf"^- \[.\] task{i}\b", text, re.M)]
    assert missing == [], f"tasks lost: {missing}\n{text}"
    assert TYPED in text, f"the line typed by hand was lost or cut:\n{text}"
    assert re.search(r"^- \[.\] agent$", text, re.M), f"the agent's update lost:\n{text}"
    typed = [line for line in text.splitlines() if "typed by hand" in line]
    assert typed == [TYPED.rstrip("\n")], f"a cut-off line became a task: {typed}"


@pytest.mark.parametrize("how", ["in-place", "by-rename", "empty-first"])
def test_a_save_in_two_chunks_with_a_pause_is_taken_whole_by_a_real_todo_add(
    home: Path, how: str
) -> None:
    """The issue's reproduction: the editor writes most of its save (in place after
    truncating it; as a new file after renaming the old away; or emptying the file,
    pausing, then writing), todo reads it there, and the rest comes 300 ms later.
    todo waits until the list has been still longer than that pause."""
    assert todo_process("add", *[f"task{i}" for i in range(10)]).code == 0
    path = listing(home)
    save = (path.read_text() + TYPED).encode()
    cut = len(save) - len(TYPED) // 2  # the typed line cut in the middle
    agent = stopped_todo("read:1", "add", "agent")
    if how == "by-rename":
        os.replace(path, path.with_name(path.name + "~"))
    editor = open(path, "r+b" if path.exists() else "xb")  # noqa: SIM115 - the editor's
    editor.truncate(0)
    if how == "empty-first":
        editor.flush()
        go_on(agent)
        time.sleep(EDITOR_PAUSE)
    editor.write(save[:cut])
    editor.flush()
    if how != "empty-first":
        go_on(agent)
    time.sleep(EDITOR_PAUSE)
    editor.write(save[cut:])
    editor.close()
    finished(agent)
    assert_saved_whole(path.read_text())


def test_a_chunk_that_lands_on_the_replaced_file_is_put_back_and_the_command_applied_again(
    home: Path,
) -> None:
    """The editor paused longer than todo waits: todo took its first chunk (the list
    still for seconds), and the editor's rest lands, through the handle it kept, on
    the file todo's write just replaced. todo sees it there, puts the person's save
    back and applies the command to it again."""
    assert todo_process("add", *[f"task{i}" for i in range(10)]).code == 0
    path = listing(home)
    save = (path.read_text() + TYPED).encode()
    cut = len(save) - len(TYPED) // 2
    editor = open(path, "r+b")  # noqa: SIM115 - the editor's
    editor.truncate(0)
    editor.write(save[:cut])
    editor.flush()
    long_ago = time.time_ns() - 5 * SECOND  # the editor paused long: nothing recent
    os.utime(path, ns=(long_ago, long_ago))
    os.utime(path.parent, ns=(long_ago, long_ago))
    agent = stopped_todo("landed:1", "add", "agent")
    assert "- [ ] agent" in path.read_text()  # todo's write landed, on the cut save
    editor.write(save[cut:])  # the rest, on the file that is no longer the list
    editor.close()
    go_on(agent)
    finished(agent)
    assert_saved_whole(path.read_text())


def test_a_pause_between_chunks_is_waited_for_through_the_seam(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process: the editor's rest lands when todo has waited 300 ms in ``pause``
    (its seam), however fast this machine is; a todo that stops watching sooner
    writes the cut save."""
    path = ten_tasks(todo, home)
    save = path.read_text() + "- [ ] added by hand\n"
    cut = len(save) - 8
    path.write_text(save[:cut])
    waited = [0.0]
    clock = Clock(monkeypatch)

    def pause(seconds: float) -> None:
        waited[0] += seconds
        if waited[0] >= EDITOR_PAUSE and path.read_text() != save:
            with open(path, "a") as editor:
                editor.write(save[cut:])
        clock.pause(seconds)

    monkeypatch.setattr(settle_module, "pause", pause)
    result = todo("add", "agent")
    assert result.code == 0, result.err
    text = path.read_text()
    assert_all_kept(text)
    assert "- [ ] added by" not in text.replace("- [ ] added by hand\n", "")


def test_a_list_edited_by_hand_long_ago_costs_no_wait(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand edit whose file and folder last changed seconds ago is taken at once:
    ``pause``, the only place todo waits, is never reached."""
    path = ten_tasks(todo, home)
    path.write_text(path.read_text() + "- [ ] added by hand\n")
    long_ago = time.time_ns() - 5 * SECOND
    os.utime(path, ns=(long_ago, long_ago))
    os.utime(path.parent, ns=(long_ago, long_ago))
    waits: list[float] = []
    monkeypatch.setattr(settle_module, "pause", waits.append)
    result = todo("add", "agent")
    assert result.code == 0, result.err
    assert waits == [], "a list unchanged for seconds was waited for"
    assert_all_kept(path.read_text())


def two_seconds(info: os.stat_result | None) -> tuple[int, int, int, int] | None:
    """A file's status as FAT keeps it: times in steps of 2 seconds."""
    if info is None:
        return None
    step = 2 * SECOND
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns // step * step)


def test_a_save_in_chunks_is_waited_for_when_times_are_in_2_second_steps(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seam ``signature``: every file time todo looks at is cut to 2 seconds. A
    change made 1.2 s into such a step looks 1.2 s old the moment it is made, and
    must not pass for an old one: todo watches the list on its own clock, and the
    editor's rest, 300 ms later, is waited for."""
    monkeypatch.setattr(files, "signature", two_seconds)
    monkeypatch.setattr(store_module, "signature", two_seconds)
    monkeypatch.setattr(commit_module, "signature", two_seconds)
    path = ten_tasks(todo, home)
    save = path.read_text() + "- [ ] added by hand\n"
    cut = len(save) - 8
    path.write_text(save[:cut])
    step = a_second_long_ago() // (2 * SECOND) * (2 * SECOND)
    chunk = step + SECOND * 6 // 5  # 1.2 s into a 2-second step
    os.utime(path, ns=(chunk, chunk))
    os.utime(path.parent, ns=(step - 5 * SECOND,) * 2)  # the folder: long before
    wall_clock_at(monkeypatch, [chunk + SECOND // 100])  # the agent comes at once
    waited = [0.0]
    clock = Clock(monkeypatch)

    def pause(seconds: float) -> None:
        waited[0] += seconds
        if waited[0] >= EDITOR_PAUSE and path.read_text() != save:
            with open(path, "a") as editor:
                editor.write(save[cut:])
        clock.pause(seconds)

    monkeypatch.setattr(settle_module, "pause", pause)
    result = todo("add", "agent")
    assert result.code == 0, result.err
    assert_all_kept(path.read_text())


def test_the_save_pause_setting_sets_how_long_a_changed_list_must_stay_still(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``save_pause`` (config key, TODOCLI_SAVE_PAUSE) is the quiet period: a
    person whose editor pauses longer can raise it; a bad value is refused."""
    from tests.support_cli import todo_process as run

    home = tmp_path / "home"
    monkeypatch.setenv("TODOCLI_HOME", str(home))
    assert run("add", "first").code == 0
    waits: list[float] = []
    path = listing(home)
    for pause in ("0.05", "1.5"):
        path.write_text(path.read_text() + "- [ ] by hand\n")
        began = time.monotonic()
        assert run("show", env={"TODOCLI_SAVE_PAUSE": pause}).code == 0
        waits.append(time.monotonic() - began)
    # A list just changed is seen still for 1.5 s before it is read: at least that.
    assert waits[1] >= 1.5
    refused = run("show", env={"TODOCLI_SAVE_PAUSE": "0"})
    assert refused.code == 2
    assert "save_pause must be a number from 0.05 to 10" in refused.err


@pytest.mark.parametrize("stop_at", ["temp:1", "journal:1"])
def test_an_undo_raced_by_a_persons_save_is_refused_and_the_save_kept(
    home: Path, stop_at: str
) -> None:
    """A whole-text write (undo) that a person's save races is not chosen again from
    the save: that would take back the save instead of the write it was asked to
    undo. It is refused, as any write a save races, and the save stays on disk."""
    assert todo_process("init", "Alpha", "Beta").code == 0
    assert todo_process("add", "Zed").code == 0
    path = listing(home)
    agent = stopped_todo(stop_at, "undo")
    save = "# Todos\n- [/] Alpha\n  person note\n- [ ] Beta\n- [ ] Person task\n"
    path.write_text(save)
    go_on(agent)
    _, err = agent.communicate(timeout=60)
    assert agent.returncode == 4, err
    assert "nothing was written" in err
    assert path.read_text() == save
