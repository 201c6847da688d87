"""Reliability: concurrent writers lose nothing, killed writers leave a whole file,
failing disks leave the old bytes, and bad input of every kind is refused cleanly.

Sizes are bounded for CI; ``TODOCLI_STRESS=1`` runs the large sizes (marked slow).
"""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import todocli
from tests.support_cli import Todo, start_todo, todo_process

STRESS = os.environ.get("TODOCLI_STRESS") == "1"


def base_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "TODOCLI_HOME": str(tmp_path / "home"),
        "TODOCLI_CONFIG": str(tmp_path / "none.toml"),
        "TODOCLI_MAX_TASKS": "100000",
        "TODOCLI_WIPE_ON_COMPLETE": "false",
        **extra,
    }


# -- concurrency --------------------------------------------------

WORKER = textwrap.dedent(
    """
    import json, subprocess, sys
    worker, count = int(sys.argv[1]), int(sys.argv[2])
    log = []
    def todo(*args, stdin=None):
        proc = subprocess.run([sys.executable, "-m", "todocli", *args], input=stdin,
                              capture_output=True, text=True)
        log.append({"args": list(args), "code": proc.returncode, "err": proc.stderr})
    for j in range(count):
        todo("add", f"w{worker}-{j}", "-q")
        shared = f"shared-{(worker + j) % 5}"
        if j % 5 == 0:
            todo("note", shared, f"note w{worker}-{j}", "-q")
        if j % 7 == 0:
            todo("done", f"w{worker}-{j}", "-q")
        if j % 9 == 0:
            ops = {"ops": [{"op": "note", "task": shared, "text": f"apply w{worker}-{j}"}]}
            todo("apply", "-q", stdin=json.dumps(ops))
    print(json.dumps(log))
    """
)


def run_workers(
    tmp_path: Path, workers: int, count: int, **env_extra: str
) -> list[dict[str, object]]:
    env = base_env(tmp_path, **env_extra)
    shared = [f"shared-{i}" for i in range(5)]
    assert todo_process("init", *shared, env=env).code == 0
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(w), str(count)],
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    log: list[dict[str, object]] = []
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        log += json.loads(out)
    return log


def listed(tmp_path: Path) -> dict[str, dict[str, object]]:
    data = json.loads(todo_process("--json", env=base_env(tmp_path)).out)
    return {t["content"]: t for t in data["data"]["todos"]}


def check_nothing_lost(tmp_path: Path, log: list[dict[str, object]]) -> None:
    """Every update that exited 0 is there; one that exited 5 (lock timeout) is not;
    nothing else failed, except a follow-up on a task whose own add timed out."""
    tasks = listed(tmp_path)
    text = (tmp_path / "home" / "sessions" / "default.md").read_text()
    assert todocli.dumps(todocli.loads(text)) == text
    notes = [n for t in tasks.values() for n in t.get("notes", [])]  # type: ignore[attr-defined]
    timed_out = {e["args"][1] for e in log if e["code"] == 5 and e["args"][0] == "add"}  # type: ignore[index]
    for entry in log:
        args, code = entry["args"], entry["code"]
        assert isinstance(args, list)
        if code == 5:
            assert "another todo process holds the lock" in str(entry["err"])
        elif code == 1:
            assert args[0] == "done", entry
            assert args[1] in timed_out, entry
            assert "not found" in str(entry["err"])
        else:
            assert code == 0, entry
        if args[0] == "add":
            assert (args[1] in tasks) == (code == 0), entry
        if args[0] == "note":
            assert notes.count(args[2]) == (1 if code == 0 else 0), entry
        if args[0] == "done" and code == 0:
            assert tasks[args[1]]["status"] == "completed"


def test_concurrent_writers_lose_no_update(tmp_path: Path) -> None:
    # Every call succeeds at this size: none waits the 10 s lock timeout. (At the
    # stress size below, on a small machine, some do, and exit 5 as they should.)
    workers, count = 8, 25
    log = run_workers(tmp_path, workers, count)
    assert len([e for e in log if e["args"][0] == "add"]) == workers * count  # type: ignore[index]
    assert all(e["code"] == 0 for e in log)
    check_nothing_lost(tmp_path, log)
    tasks = listed(tmp_path)
    applied = [n for t in tasks.values() for n in t.get("notes", []) if n.startswith("apply ")]  # type: ignore[attr-defined]
    assert len(applied) == len([e for e in log if e["args"][0] == "apply"])  # type: ignore[index]


def test_with_a_short_lock_timeout_a_loser_exits_5_and_its_update_is_absent(tmp_path: Path) -> None:
    log = run_workers(tmp_path, 6, 10, TODOCLI_LOCK_TIMEOUT="0.01")
    check_nothing_lost(tmp_path, log)


@pytest.mark.slow
@pytest.mark.skipif(not STRESS, reason="set TODOCLI_STRESS=1 for the large concurrency run")
def test_concurrent_writers_at_stress_size(tmp_path: Path) -> None:
    log = run_workers(tmp_path, 32, 100)
    check_nothing_lost(tmp_path, log)


# -- crashes --------------------------------------------------


def snapshot(k: int) -> dict[str, object]:
    return {"todos": [{"content": f"task {i} " + "x" * 60, "status": "pending"} for i in range(k)]}


def test_writers_killed_at_random_moments_leave_a_whole_file(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    full_env = {**os.environ, **env}
    listing = tmp_path / "home" / "sessions" / "default.md"
    rounds = 150 if STRESS else 40
    rng = random.Random(1234)
    known: set[str | None] = {None}  # no list yet; an empty file is no writer's
    for k in range(1, rounds + 1):
        payload = json.dumps(snapshot(k * 5)).encode()
        proc = start_todo(
            "apply",
            "-q",
            env=full_env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None
        proc.stdin.write(payload)
        proc.stdin.close()
        time.sleep(rng.uniform(0.0, 0.35))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        known.add(_canonical_of(k * 5))
        text = listing.read_text() if listing.exists() else None
        assert text in known, f"round {k}: the list is not a state any writer produced"
        assert text is None or todocli.dumps(todocli.loads(text)) == text
    # A later run is not tripped up by anything a killed writer left.
    final = todo_process("apply", stdin=json.dumps(snapshot(3)), env=env)
    assert final.code == 0
    # A writer killed between the list and its revision copy is no hand edit.
    assert "edited by hand" not in final.out
    assert listing.read_text() == _canonical_of(3)


def _canonical_of(k: int) -> str:
    from todocli.document.model import Phase, Task, TodoList

    tasks = tuple(Task(f"task {i} " + "x" * 60) for i in range(k))
    return todocli.dumps(TodoList("", (Phase("Todos", tasks),))) if k else ""


def test_an_old_temp_file_beside_the_list_is_left_to_the_journal_that_names_it(
    todo: Todo, home: Path
) -> None:
    """Beside a list, an old temporary file no journal of this home names may be a
    person's save another home's killed swap parked there (tests/test_journal.py):
    a write never removes it; only the journal of the write that made it does."""
    todo("add", "A")
    stale = home / "sessions" / ".default.md.dead1234.todo-tmp"
    stale.write_text("a person's save, parked")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = home / "sessions" / ".default.md.live5678.todo-tmp"
    fresh.write_text("another home's writer, mid-write")
    assert todo("add", "B").code == 0
    assert stale.read_text() == "a person's save, parked"
    assert fresh.exists()


def test_an_old_temp_file_of_a_bookkeeping_file_is_cleared_by_its_next_write(
    tmp_path: Path,
) -> None:
    """The home's own files are written with no journal: a killed writer's old
    temporary file is removed by the next write of that file (a new one is spared:
    it may be a live writer's through another home); a journaled write (a tag)
    leaves them to its journal."""
    from todocli.storage.files import atomic_write

    target = tmp_path / "remind"
    stale = tmp_path / ".remind.dead1234.todo-tmp"
    fresh = tmp_path / ".remind.live5678.todo-tmp"
    for path in (stale, fresh):
        path.write_text("half a writ")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    atomic_write(str(target), "1", False, tag="abc")
    assert stale.exists()
    assert fresh.exists()
    atomic_write(str(target), "2", False)
    assert not stale.exists()
    assert fresh.exists()
    assert target.read_text() == "2"


def test_a_lock_held_by_a_killed_process_does_not_deadlock(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    assert todo_process("add", "A", env=env).code == 0
    from todocli.storage.paths import lock_path

    lock = Path(lock_path(str(tmp_path / "home" / "sessions" / "default.md")))
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from filelock import FileLock; "
            f"FileLock({str(lock)!r}).acquire(); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    started = time.monotonic()
    result = todo_process("add", "B", env={**env, "TODOCLI_LOCK_TIMEOUT": "5"})
    assert result.code == 0
    assert time.monotonic() - started < 5


# -- failing storage --------------------------------------------------


def failing(code: int, name: str):  # type: ignore[no-untyped-def]
    def fail(*_: object, **__: object) -> None:
        raise OSError(code, os.strerror(code), name)

    return fail


@pytest.mark.parametrize(
    ("target", "code", "words"),
    [
        ("replace", errno.ENOSPC, "no space left on the device"),
        ("replace", errno.EACCES, "Permission denied"),
        ("fsync", errno.EIO, "Input/output error"),
    ],
)
def test_a_failing_write_keeps_the_old_file_and_exits_6(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, target: str, code: int, words: str
) -> None:
    todo("add", "A")
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    real = getattr(os, target)

    def fail_for_the_list(*args: object) -> object:
        # os.replace(tmp, dst): only the list's replace fails; fsync: only the list
        # is fsynced (revision copies are not).
        if target == "fsync" or args[-1] == str(listing):
            failing(code, str(listing))()
        return real(*args)

    monkeypatch.setattr(os, target, fail_for_the_list)
    result = todo("add", "B")
    monkeypatch.undo()
    assert result.code == 6
    assert str(listing) in result.err
    assert words in result.err
    assert result.err.count("\n") == 1
    assert listing.read_bytes() == before
    assert [n for n in os.listdir(listing.parent) if n.endswith(".todo-tmp")] == []


def test_a_full_disk_while_writing_the_temp_file(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fd: int, mode: str) -> None:
            self.handle = real_fdopen(fd, mode)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *_: object) -> None:
            self.handle.close()

        def write(self, _: bytes) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", Full)
    result = todo("add", "B")
    monkeypatch.undo()
    assert result.code == 6
    assert "no space left on the device" in result.err
    assert listing.read_bytes() == before


def test_a_failing_completion_log_writes_nothing(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    (home / "memory").mkdir()
    (home / "memory" / "todos").write_text("a file where the log folder should be")
    result = todo("done", "A")
    assert result.code == 6
    assert listing.read_bytes() == before


def test_an_unreadable_list_exits_6(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "TODO.md"
    target.write_text("- [ ] a\n")
    real_open = os.open

    def deny(file: str, *args: int) -> int:
        if str(file) == str(target):
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, *args)

    monkeypatch.setattr(os, "open", deny)
    result = todo("--file", str(target))
    monkeypatch.undo()
    assert result.code == 6
    assert f"cannot read {target}: Permission denied" in result.err


def test_a_home_that_cannot_be_created_exits_6(todo: Todo, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = todo("--home", str(blocker / "home"), "add", "A")
    assert result.code == 6
    assert str(blocker) in result.err


# -- bad input --------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b'{"todos": [{"content": "a\\u0000b"}]}', "control character"),
        (b'{"todos": [{"content": "a"}]}\x00', "invalid JSON"),
        (b"\x00", "invalid JSON"),
        (
            b'{"todos": [{"content": "x", "status": null}], "summary": 3}',
            "summary: expected a string",
        ),
        (b'{"todos": [{"content": "x", "status": 1}]}', "todos[0].status: expected a string"),
        (b'{"todos": [{"content": "x", "notes": [1]}]}', "todos[0].notes[0]: expected a string"),
        (b'{"todos": [{"content": "x", "phase": []}]}', "todos[0].phase: expected a string"),
        (
            b'{"todos": [{"content": "x", "activeForm": {}}]}',
            "todos[0].activeForm: expected a string",
        ),
        (b'{"todos": [7]}', "todos[0]: expected an object"),
        (b'{"ops": {}}', "ops: expected an array"),
        (b'{"ops": [7]}', "ops[0]: expected an object"),
        (b'{"ops": [{"op": 7}]}', "ops[0].op: expected a string"),
        (b'{"ops": [{"op": "init", "list": "x"}]}', "ops[0].list: expected an array"),
        (
            b'{"ops": [{"op": "init", "list": [{"phase": "a", "items": "x"}]}]}',
            "ops[0].list[0].items: expected an array",
        ),
        (
            b'{"ops": [{"op": "append", "phase": "a", "items": [1]}]}',
            "ops[0].items[0]: expected a string",
        ),
        (b'{"ops": [{"op": "clear", "all": "yes"}]}', "ops[0].all: expected a boolean"),
        (b'{"ops": [{"op": "note", "task": "a", "text": "x", "extra": 1}]}', 'unknown key "extra"'),
        (b'{"plan": [{"step": "x", "status": "weird"}]}', 'plan[0].status: unknown status "weird"'),
        (b'{"items": "x"}', "items: expected an array"),
        (b"[" * 50 + b"]" * 50, "[0]: expected an object"),
        (b"[" * 200000 + b"]" * 200000, "nested more than 64 levels deep"),
        (b'"just a string"', "expected a JSON object or array, got string"),
    ],
)
def test_bad_json_is_refused_with_one_line_and_writes_nothing(
    todo: Todo, home: Path, payload: bytes, words: str
) -> None:
    todo("add", "existing")
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    result = todo("apply", stdin=payload)
    assert result.code == 1, result.err
    assert words in result.err
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err + result.out
    assert listing.read_bytes() == before


def test_json_with_a_byte_order_mark_is_read(todo: Todo) -> None:
    result = todo("apply", stdin=b'\xef\xbb\xbf{"todos": [{"content": "a"}]}')
    assert result.code == 0
    assert result.out == "Added: a\n[0/1] Pending: a.\n"


def test_a_list_file_with_nul_bytes_still_round_trips(todo: Todo, tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_bytes(b"nul\x00here\n- [ ] a\n")
    assert todo("--file", str(target), "done", "a").code == 0
    assert target.read_bytes() == b"nul\x00here\n- [x] a\n"


# -- fuzzing the JSON dialects -----------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["", "a", "b", "#1", "done", "x\ny", "\x00", "a" * 300]),
)
KEYS = st.sampled_from(
    [
        "content",
        "title",
        "text",
        "step",
        "description",
        "status",
        "activeForm",
        "phase",
        "notes",
        "id",
        "op",
        "task",
        "items",
        "list",
        "summary",
        "todos",
        "ops",
        "plan",
        "all",
        "reason",
        "bogus",
    ]
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(KEYS, children, max_size=4)
    ),
    max_leaves=12,
)
OPS = st.sampled_from(
    [
        "init",
        "start",
        "done",
        "drop",
        "rm",
        "append",
        "note",
        "block",
        "unblock",
        "view",
        "write",
        "clear",
        "nope",
    ]
)
STATUS = st.sampled_from(
    ["pending", "in_progress", "completed", "Done", "cancelled", "working", "In Progress"]
)


@st.composite
def payloads(draw: st.DrawFn) -> object:
    shape = draw(st.sampled_from(["ops", "todos", "plan", "items", "bare", "single", "random"]))
    text = st.sampled_from(["a", "b", "c", "#1", "#2", "new", "", " "])
    if shape == "ops":
        return {
            "ops": draw(
                st.lists(
                    st.fixed_dictionaries(
                        {"op": OPS},
                        optional={
                            "task": text,
                            "phase": text,
                            "text": text,
                            "items": st.lists(text, max_size=2),
                        },
                    ),
                    max_size=4,
                )
            )
        }
    if shape in ("todos", "items", "bare"):
        items = draw(
            st.lists(
                st.fixed_dictionaries(
                    {"content": text},
                    optional={
                        "status": STATUS,
                        "activeForm": text,
                        "notes": st.lists(text, max_size=2),
                    },
                ),
                max_size=4,
            )
        )
        return (
            {"todos": items}
            if shape == "todos"
            else {"items": items}
            if shape == "items"
            else items
        )
    if shape == "plan":
        return {
            "plan": draw(
                st.lists(st.fixed_dictionaries({"step": text, "status": STATUS}), max_size=4)
            )
        }
    if shape == "single":
        return draw(st.fixed_dictionaries({"op": OPS}, optional={"task": text, "phase": text}))
    return draw(JSON_VALUES)


@settings(
    max_examples=300 if not STRESS else 3000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(payloads())
def test_any_payload_in_any_dialect_never_crashes_and_a_rejected_one_writes_nothing(
    todo: Todo, home: Path, payload: object
) -> None:
    listing = home / "sessions" / "default.md"
    listing.parent.mkdir(parents=True, exist_ok=True)
    listing.write_text("# Todos\n- [/] a\n- [ ] b\n  > kept\n")
    # Written seconds ago, as far as todo can tell: not a save under way, which a
    # write would watch for half a second (Store.settle), 300 examples long.
    long_ago = time.time_ns() - 5_000_000_000
    os.utime(listing, ns=(long_ago, long_ago))
    os.utime(listing.parent, ns=(long_ago, long_ago))
    before = listing.read_bytes()
    result = todo("apply", stdin=json.dumps(payload))
    assert result.code in (0, 1), result
    assert "Traceback" not in result.out + result.err
    assert result.out  # never empty
    if result.code == 1:
        assert listing.read_bytes() == before
        assert result.err.startswith("todo: ")
        assert result.err.count("\n") == 1
    else:
        text = listing.read_text()
        assert todocli.dumps(todocli.loads(text)) == text
