"""Hostile files and inputs: what an adversary puts where a list, a config or an
argument should be. Each test names the case it pins; real objects where the claim
is about them (a FIFO, a device node, a sparse file, a closed or full stdout)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support_cli import Todo, todo_in_process, todo_process
from todocli.errors import StorageError
from todocli.storage import files

ROOT_ONLY = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="os.mknod of a character device needs root",
)


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def state_files(home: Path) -> dict[str, bytes]:
    """Every file under the home, by path: 'nothing changed' means this is equal
    before and after. (But ``failed``: a rejected request leaves its notice there
    on purpose, for ``todo remind`` to tell the agent once.)"""
    found = {}
    for path in sorted(home.rglob("*")):
        if path.is_file() and path.name != "failed":
            found[str(path.relative_to(home))] = path.read_bytes()
    return found


# -- only regular files ---------------------------------------------------------------------


def char_device(path: Path, minor: int) -> Path:
    """A character device node like /dev/null (minor 3) or /dev/zero (minor 5),
    made in a temporary folder: a bug here must never touch the real ones."""
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return path


@ROOT_ONLY
def test_a_character_device_as_the_list_is_refused_and_left_a_device(tmp_path: Path) -> None:
    null = char_device(tmp_path / "null", 3)
    for args in (("add", "X"), ("done", "X"), ("show",)):
        result = todo_process("--file", str(null), *args, timeout=10)
        assert result.code == 6, args
        assert (
            result.err
            == f"todo: cannot read {null}: it is a character device, not a regular file\n"
        )
        assert stat.S_ISCHR(os.stat(null).st_mode), "the device node was replaced"


@ROOT_ONLY
def test_an_endless_device_as_the_list_or_the_config_is_refused_at_once(tmp_path: Path) -> None:
    zero = char_device(tmp_path / "zero", 5)
    result = todo_process("--file", str(zero), timeout=10)
    assert result.code == 6
    assert "it is a character device" in result.err
    result = todo_process("show", env={"TODOCLI_CONFIG": str(zero)}, timeout=10)
    assert result.code == 6
    assert f"cannot read {zero}: it is a character device" in result.err


def test_a_fifo_as_the_list_never_hangs(tmp_path: Path) -> None:
    fifo = tmp_path / "list.md"
    os.mkfifo(fifo)
    for args in (("show",), ("add", "X"), ("--json", "show")):
        result = todo_process("--file", str(fifo), *args, timeout=10)
        assert result.code == 6, args
        assert f"cannot read {fifo}: it is a FIFO, not a regular file" in result.err
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    completion = todo_process("--file", str(fifo), "__complete", "tasks", timeout=10)
    assert (completion.code, completion.out) == (0, "")


def test_odd_entries_in_sessions_are_skipped_and_reported(home: Path) -> None:
    assert todo_process("add", "A").code == 0
    sessions = home / "sessions"
    os.mkfifo(sessions / "pipe.md")
    (sessions / "folder.md").mkdir()
    with open(sessions / "huge.md", "wb") as handle:  # sparse: 1 GiB of nothing
        handle.truncate(1 << 30)
    result = todo_process("sessions", timeout=20)
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].startswith("* default  0/1 done")
    assert "  folder   skipped: a directory, not a regular file" in lines
    assert "  pipe     skipped: a FIFO, not a regular file" in lines
    huge = next(line for line in lines if "huge" in line)
    assert "skipped: cannot read" in huge
    assert "over the limit of 4194304 bytes" in huge
    names = todo_process("__complete", "sessions", timeout=10)
    assert names.code == 0
    gc = todo_process("gc", "--older-than", "0s", timeout=10)
    assert gc.code == 0
    assert stat.S_ISFIFO(os.stat(sessions / "pipe.md").st_mode), "gc removed a FIFO"


def test_a_list_over_the_size_limit_is_an_error_not_memory_exhaustion(tmp_path: Path) -> None:
    sparse = tmp_path / "TODO.md"
    with open(sparse, "wb") as handle:
        handle.truncate(2 << 30)
    result = todo_process("--file", str(sparse), "add", "X", timeout=20)
    assert result.code == 6
    assert (
        f"cannot read {sparse}: it is over the limit of 4194304 bytes "
        "(2147483648 bytes; raise max_file_bytes to read it)"
    ) in result.err
    assert sparse.stat().st_size == 2 << 30


def test_max_file_bytes_bounds_a_list_that_grows_while_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "TODO.md"
    path.write_bytes(b"- [ ] a\n" * 100)
    assert files.read_bytes(str(path), 800) == b"- [ ] a\n" * 100
    with pytest.raises(StorageError, match="over the limit of 799 bytes"):
        files.read_bytes(str(path), 799)


def test_a_device_in_place_of_the_completion_log_is_refused(todo: Todo, home: Path) -> None:
    todo("add", "A")
    before = state_files(home)
    memory = home / "memory" / "todos"
    memory.mkdir(parents=True)
    os.mkfifo(memory / "todoList-20260101-000000.md")
    state = home / "state" / "sessions" / "default" / "state.json"
    state.write_text(json.dumps({"log": "todoList-20260101-000000.md"}))
    before = state_files(home)
    result = todo("done", "A")
    assert result.code == 6
    assert "it is a FIFO, not a regular file" in result.err
    assert state_files(home) == before


# -- exit 6 means nothing changed -----------------------------------------------------------


def fail_writes_to(monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    """Make every atomic write or append to a path ending in ``suffix`` fail as a
    full disk would (the revision copy, the state file, the log; a file staged
    beside its place, ``.pending``, is that file too)."""
    real_write, real_append = files.atomic_write, files.append

    def full(path: str) -> StorageError:
        return StorageError(f"cannot write {path}: no space left on the device")

    def atomic_write(path: str, text: str, durable: bool = True, **options: Any) -> None:
        if path.endswith(suffix) or path.removesuffix(".pending").endswith(suffix):
            raise full(path)
        real_write(path, text, durable, **options)

    def append(path: str, data: bytes, separator: bytes = b"") -> Callable[[], None]:
        if path.endswith(suffix):
            raise full(path)
        return real_append(path, data, separator)

    import todocli.storage.commit
    import todocli.storage.memory
    import todocli.storage.store
    import todocli.storage.views

    for module in (todocli.storage.store, todocli.storage.commit, todocli.storage.views):
        monkeypatch.setattr(module, "atomic_write", atomic_write)
    monkeypatch.setattr(todocli.storage.memory, "append", append)


@pytest.mark.parametrize("suffix", [".md.pending", "state.json", ".md"])
def test_a_failing_step_before_the_list_changes_nothing(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """The revision copy, the state (auto-clear times) and the completion log are
    written before the list: any of them failing leaves every file as it was."""
    monkeypatch.setenv("TODOCLI_CLEAR_DELAY", "3600")  # so the write saves state too
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-22T10:00:00")
    todo("add", "A", "B")
    todo("note", "A", "first")
    before = state_files(home)
    with monkeypatch.context() as patch:
        fail_writes_to(patch, suffix)
        result = todo("done", "A", "B", "--note", "again")
    assert result.code == 6
    assert "no space left on the device" in result.err
    assert state_files(home) == before, "a failed write changed a file"
    retry = todo("done", "A", "B", "--note", "again")
    assert retry.code == 0, retry.err
    log = next((home / "memory" / "todos").glob("*.md")).read_text()
    assert log == (  # one block, each note once: the failed call left no trace
        "# task1-20261122-100000\n\n[2/2] Completed:\n"
        "- A\n  > first\n  >\n  > again\n- B\n  > again\n"
    )


def test_a_killed_writer_between_list_and_revision_is_no_hand_edit(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A", "B")
    real_replace = os.replace

    def stopped_before_rename(src: str, dst: str) -> None:
        if src.endswith(".pending"):
            raise OSError("the writer was killed here")
        real_replace(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", stopped_before_rename)
        assert todo("done", "A").code == 0
    revs = home / "state" / "sessions" / "default" / "revs"
    assert copies(revs) == ["00000001.md", "00000002.md.pending"]
    assert "edited by hand" not in todo("history").out
    assert todo("diff").out.startswith("--- #1\n+++ #2\n")
    assert todo("remind", "--every", "1").out.count("edited by hand") == 0
    after = todo("--json", "add", "C")
    envelope = json.loads(after.out)
    assert envelope["changes"]["hand_edit"] is None
    assert envelope["context"]["rev"] == 3
    assert copies(revs) == ["00000001.md", "00000002.md", "00000003.md"]


def test_a_writer_killed_before_the_list_replace_leaves_no_trace(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    revs = home / "state" / "sessions" / "default" / "revs"
    (revs / "00000002.md.pending").write_text("- [x] A\n- [/] B\n")  # never reached the list
    result = todo("--json", "done", "A")
    envelope = json.loads(result.out)
    assert envelope["changes"]["hand_edit"] is None
    assert envelope["context"]["rev"] == 2
    assert copies(revs) == ["00000001.md", "00000002.md"]


def copies(revs: Path) -> list[str]:
    """The revision copies in ``revs`` (and staged ones), without the record of
    which command wrote each (``NNNNNNNN.by``)."""
    return sorted(p.name for p in revs.iterdir() if p.suffix != ".by")


# -- settings -------------------------------------------------------------------------------

NUMERIC = [
    "max_tasks",
    "max_field_bytes",
    "max_note_bytes",
    "max_input_bytes",
    "max_file_bytes",
    "max_in_progress",
    "remind_every",
    "lock_timeout",
    "clear_delay",
    "claim_timeout",
]


@pytest.mark.parametrize("key", NUMERIC)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "9223372036854775808", "-5", "1e400"])
def test_every_setting_is_finite_and_in_range(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, key: str, value: str
) -> None:
    variable = f"TODOCLI_{key.upper()}"
    monkeypatch.setenv(variable, value)
    result = todo("add", "X")
    assert result.code == 2, (key, value, result.err)
    assert result.err.startswith(f"todo: environment variable {variable}: {key} must be a number")


def test_a_nan_lock_timeout_in_the_config_file_is_refused(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("lock_timeout = nan\n")
    monkeypatch.setenv("TODOCLI_CONFIG", str(config))
    result = todo("show")
    assert result.code == 2
    assert f"config file {config}: lock_timeout must be a number from 0 to 86400" in result.err


# -- arguments and JSON ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ((b"add", b"bad \xff arg"), 2, 'TASKS is not UTF-8 (byte \\xff in "bad \\xff arg")'),
        ((b"note", b"A", b"bad \xff"), 2, 'TEXT is not UTF-8 (byte \\xff in "bad \\xff")'),
        ((b"init", b"\xc3\x28"), 2, "TASKS is not UTF-8 (byte \\xc3"),
        ((b"add", b"--phase", b"P\x80", b"X"), 2, "PHASE is not UTF-8 (byte \\x80"),
        # A task named by text that is not UTF-8 was "not found" (exit 1).
        ((b"done", b"A\xff"), 2, "TASKS is not UTF-8 (byte \\xff"),
        ((b"start", b"\xfe"), 2, "TASK is not UTF-8 (byte \\xfe"),
        ((b"done", b"--note", b"n\xff", b"A"), 2, "NOTE is not UTF-8"),
        ((b"-s", b"s\xfe", b"show"), 2, "invalid session name 's\\xfe'"),
        ((b"--agent", b"a\xfe", b"claim"), 2, "invalid agent name 'a\\xfe'"),
    ],
)
def test_an_argument_that_is_not_utf8_is_refused_naming_its_field(
    tmp_path: Path, home: Path, args: tuple[bytes, ...], code: int, message: str
) -> None:
    """Python hands bytes that are not UTF-8 over as lone surrogates. A task, note
    or name holding one could not be written to the UTF-8 list faithfully: a usage
    error (exit 2) naming the argument and the byte, as for a session name. Never
    exit 3, and nothing written."""
    assert todo_process("add", "A").code == 0
    before = state_files(home)
    proc = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"todocli", *args],
        capture_output=True,
        env={**os.environ},
        timeout=30,
        check=False,
    )
    err = proc.stderr.decode()
    assert proc.returncode == code, err
    assert err.startswith(f"todo: {message}")
    assert err.count("\n") == 1
    assert state_files(home) == before


@pytest.mark.parametrize("option", [b"--file", b"--home", b"--memory-dir"])
def test_a_path_that_is_not_utf8_is_a_legal_path(tmp_path: Path, option: bytes) -> None:
    """A file name may hold any bytes on Linux: --file, --home and --memory-dir take it."""
    place = os.fsencode(tmp_path) + b"/odd\xff"
    value = place + b".md" if option == b"--file" else place
    proc = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"todocli", option, value, b"add", b"A"],
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    if option == b"--file":
        assert Path(os.fsdecode(value)).read_bytes() == b"# Todos\n- [/] A\n"
    elif option == b"--home":
        assert Path(os.fsdecode(place), "sessions", "default.md").exists()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.binary(min_size=0, max_size=12), min_size=0, max_size=5))
def test_any_argv_bytes_never_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, raw: list[bytes]
) -> None:
    for command in ([], ["add"], ["note", "A"], ["done"], ["--json", "init"]):
        args = [*command, *(os.fsdecode(b) for b in raw)]
        result = todo_in_process(capsys, monkeypatch, *args)
        assert result.code != 3, (args, result.err)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ('{"op":"done","op":"start","task":"B"}', 'duplicate key "op"'),
        ('{"ops":[{"op":"start","task":"B","task":"A"}]}', 'duplicate key "task"'),
        ('{"todos":[],"todos":[{"content":"x","status":"pending"}]}', 'duplicate key "todos"'),
    ],
)
def test_duplicate_json_keys_are_refused_naming_the_key(
    todo: Todo, home: Path, payload: str, message: str
) -> None:
    todo("add", "A", "B")
    before = state_files(home)
    result = todo("apply", stdin=payload)
    assert result.code == 1
    assert message in result.err
    assert state_files(home) == before


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ('{"todos":[{"content":"x \\ud800","status":"pending"}]}', "todos[0].content"),
        (
            '{"todos":[{"content":"x","status":"pending","activeForm":"\\udfff"}]}',
            "todos[0].activeForm",
        ),
        ('{"op":"note","task":"A","text":"\\ud83d"}', "text"),
        ('{"ops":[{"op":"append","items":["ok","\\udc00 low"]}]}', "ops[0].items[1]"),
    ],
)
def test_a_lone_surrogate_in_json_is_refused_naming_the_field(
    todo: Todo, home: Path, payload: str, path: str
) -> None:
    todo("add", "A")
    before = state_files(home)
    result = todo("apply", stdin=payload)
    assert result.code == 1
    assert result.err.startswith(f"todo: {path}: a lone surrogate escape")
    assert state_files(home) == before


def test_a_surrogate_pair_escape_is_text(todo: Todo, home: Path) -> None:
    result = todo(
        "apply", stdin='{"todos":[{"content":"rocket \\ud83d\\ude80","status":"pending"}]}'
    )
    assert result.code == 0
    assert "rocket \U0001f680" in listing(home).read_text()


def test_an_active_form_error_names_the_active_form(todo: Todo) -> None:
    payload = {"todos": [{"content": "ok", "status": "pending", "active_form": "a\nb"}]}
    result = todo("apply", stdin=json.dumps(payload))
    assert result.code == 1
    assert result.err == (
        "todo: todos[0].active_form: Active form contains a newline or control character (\\n)\n"
    )


def test_an_option_missing_its_value_at_the_end_says_so(todo: Todo, home: Path) -> None:
    for option in ("-s", "--session", "--file", "--if-rev"):
        result = todo("add", "X", option)
        assert result.code == 2
        assert f"option {option} needs a value" in result.err
    assert not listing(home).exists()


def test_an_empty_file_option_is_a_usage_error(todo: Todo, home: Path) -> None:
    result = todo("--file", "", "add", "X")
    assert result.code == 2
    assert result.err == "todo: --file needs a path (it was given an empty one)\n"
    assert not home.exists()
    assert todo("--memory-dir", "", "show").code == 2


# -- standard streams -----------------------------------------------------------------------


def in_bash(script: str, home: Path) -> subprocess.CompletedProcess[bytes]:
    """Run a bash script in which ``$T`` is the todo command, on this home."""
    return subprocess.run(
        ["bash", "-c", f'T="{sys.executable} -m todocli"; {script}'],
        env={**os.environ, "TODOCLI_HOME": str(home)},
        capture_output=True,
        timeout=30,
        check=False,
    )


def test_a_full_stdout_exits_6_without_a_traceback_and_the_write_stands(home: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "todocli", "add", "Y"],
            env={**os.environ, "TODOCLI_HOME": str(home)},
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=30,
            check=False,
        )
    assert proc.returncode == 6
    err = proc.stderr.decode()
    assert err == (
        "todo: cannot write to standard output: no space left on the device; "
        "the command itself ran (any change it made stands)\n"
    )
    assert listing(home).read_text() == "# Todos\n- [/] Y\n"


def test_a_closed_stdout_does_nothing_and_exits_6(home: Path) -> None:
    proc = in_bash("$T add Y >&-", home)
    assert proc.returncode == 6
    assert proc.stderr.decode() == "todo: standard output is closed; nothing was done\n"
    assert not listing(home).exists()


def test_closed_stdin_and_stderr_still_work_and_land_in_no_file(home: Path) -> None:
    proc = in_bash('$T add Y <&- 2>&-; echo "exit $?"', home)
    assert proc.stdout.decode().endswith("exit 0\n")
    assert listing(home).read_text() == "# Todos\n- [/] Y\n"
    # Nothing meant for a standard stream reached the list or its state.
    for path in home.rglob("*"):
        if path.is_file():
            assert b"Added:" not in path.read_bytes()


STATUS = 'echo "${PIPESTATUS[0]}"'


def test_a_reader_that_goes_away_is_not_an_error(home: Path) -> None:
    assert todo_process("add", *[f"task {i}" for i in range(40)]).code == 0
    proc = in_bash('$T show | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}"', home)
    assert proc.stdout.decode() == "0\n"
    assert proc.stderr == b""


# -- private folders ------------------------------------------------------------------------


def test_every_folder_created_is_private_whatever_the_umask(tmp_path: Path) -> None:
    home = tmp_path / "deep" / "er" / "home"
    proc = in_bash("umask 022; $T add A && $T done A", home)
    assert proc.returncode == 0, proc.stderr
    folders = [tmp_path / "deep", tmp_path / "deep" / "er"]
    folders += [home, *(p for p in home.rglob("*") if p.is_dir())]
    assert home / "memory" / "todos" in folders
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for path in home.rglob("*"):
        if path.is_file():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


# -- fuzzing JSON text: duplicate keys and lone surrogates anywhere -------------------------

ODD_TEXT = st.text(
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.sampled_from("ab #1\n"),
    max_size=4,
)
PAIR_KEYS = st.sampled_from(["op", "task", "todos", "content", "status", "text", "items", "x"])
PAIR_VALUES = st.one_of(
    ODD_TEXT, st.sampled_from(["start", "done", "pending", "in_progress", "a", "b"]), st.none()
)


@st.composite
def raw_json(draw: st.DrawFn) -> str:
    """JSON text with keys that may repeat and strings with lone surrogate escapes
    (json.dumps writes them as \\udxxx), at the top level or inside a todo item."""

    def obj() -> str:
        pairs = draw(st.lists(st.tuples(PAIR_KEYS, PAIR_VALUES), max_size=4))
        return "{" + ",".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in pairs) + "}"

    if draw(st.booleans()):
        return obj()
    return '{"todos":[' + ",".join(obj() for _ in range(draw(st.integers(0, 3)))) + "]}"


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw_json())
def test_any_json_text_never_exits_3_and_a_refused_one_writes_nothing(
    todo: Todo, home: Path, text: str
) -> None:
    path = listing(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Todos\n- [/] a\n- [ ] b\n")
    before = path.read_bytes()
    result = todo("apply", stdin=text)
    assert result.code in (0, 1), (text, result)
    assert result.err.count("\n") <= 2
    if result.code == 1:
        assert path.read_bytes() == before


# -- found by an adversarial review ---------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    ['{"completions": "x"}', '{"completions": 1e999}', '{"completions": [1]}', "[1, 2]"],
)
def test_a_damaged_state_file_does_not_stop_a_completion(
    todo: Todo, home: Path, state: str
) -> None:
    todo("add", "A")
    (home / "state" / "sessions" / "default" / "state.json").write_text(state)
    result = todo("done", "A")
    assert result.code == 0, result.err
    log = next((home / "memory" / "todos").glob("todoList-*.md")).read_text()
    assert log.startswith("# task1-")


def test_a_log_name_with_a_path_in_state_json_stays_in_the_memory_folder(
    todo: Todo, home: Path, tmp_path: Path
) -> None:
    todo("add", "A")
    state = home / "state" / "sessions" / "default" / "state.json"
    state.write_text(json.dumps({"log": "../../../escape.md", "completions": 2}))
    assert todo("done", "A").code == 0
    assert not list(tmp_path.rglob("escape.md"))
    assert [p.name.startswith("todoList-") for p in (home / "memory" / "todos").iterdir()] == [True]


def test_a_failed_log_append_leaves_no_empty_log(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        if b"Completed:" in data:
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", full)
        result = todo("done", "A")
    assert result.code == 6
    assert list((home / "memory" / "todos").glob("*.md")) == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("home = 5\n", "home must be a non-empty string"),
        ('memory_dir = ""\n', "memory_dir must be a non-empty string"),
        ("home = true\n", "home must be a non-empty string"),
        ("max_tasks = 3.7\n", "max_tasks must be a number"),
    ],
)
def test_config_values_of_the_wrong_kind_are_refused(
    todo: Todo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, message: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(line)
    monkeypatch.setenv("TODOCLI_CONFIG", str(config))
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    result = todo("add", "X")
    assert result.code == 2
    assert message in result.err
    assert sorted(os.listdir(tmp_path)) == before  # no folder named "5" or "True"


@ROOT_ONLY
def test_a_write_as_root_keeps_the_lists_owner(todo: Todo, tmp_path: Path) -> None:
    listing_file = tmp_path / "TODO.md"
    listing_file.write_text("- [ ] a\n")
    os.chown(listing_file, 65534, 65534)
    listing_file.chmod(0o640)
    assert todo("--file", str(listing_file), "add", "b").code == 0
    info = listing_file.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (65534, 65534, 0o640)


def test_help_to_a_full_stdout_exits_6(home: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "todocli", "--help"],
            env={**os.environ, "TODOCLI_HOME": str(home)},
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=30,
            check=False,
        )
    assert proc.returncode == 6
    assert (
        proc.stderr.decode()
        == "todo: cannot write to standard output: no space left on the device\n"
    )


def test_closed_stdout_and_stderr_together_exit_6_and_do_nothing(home: Path) -> None:
    proc = in_bash('$T add Y >&- 2>&-; echo "exit $?"', home)
    assert proc.stdout.decode() == "exit 6\n"
    assert not listing(home).exists()


def editor(tmp_path: Path, body: str) -> str:
    script = tmp_path / "editor.sh"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


def test_an_editor_that_removes_its_file_writes_nothing(
    todo: Todo, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A", "B")
    before = listing(home).read_bytes()
    monkeypatch.setenv("EDITOR", editor(tmp_path, 'rm "$1"'))
    result = todo("edit")
    assert result.code == 1
    assert "the edited file is gone; nothing was written" in result.err
    assert listing(home).read_bytes() == before


def test_an_edit_the_editor_failed_on_is_kept(
    todo: Todo, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    monkeypatch.setenv("EDITOR", editor(tmp_path, 'echo "- [ ] typed" >> "$1"; exit 3'))
    result = todo("edit")
    assert result.code == 1
    kept = result.err.split("Your edit is kept in ")[1].strip()
    assert Path(kept).read_text().endswith("- [ ] typed\n")


def test_an_edit_warning_with_stderr_closed_is_no_crash(home: Path, tmp_path: Path) -> None:
    assert todo_process("add", "Z").code == 0
    script = editor(tmp_path, 'printf -- "- [?] x\\n" > "$1"')
    proc = in_bash(f'EDITOR={script} $T edit 2>&-; echo "exit $?"', home)
    assert proc.stdout.decode().endswith("exit 1\n")


def test_taking_back_an_append_keeps_a_log_that_was_there_empty(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_CLEAR_DELAY", "3600")  # so the write saves state too
    todo("add", "A")
    log = home / "memory" / "todos" / "todoList-20260101-000000.md"
    log.parent.mkdir(parents=True)
    log.write_text("")
    state = home / "state" / "sessions" / "default" / "state.json"
    state.write_text(json.dumps({"log": log.name}))
    with monkeypatch.context() as patch:
        fail_writes_to(patch, "state.json")  # fails after the log was appended to
        assert todo("done", "A").code == 6
    assert log.exists()
    assert log.read_bytes() == b""


def test_a_folder_another_process_makes_meanwhile_is_no_obstacle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two writers of a new home: one looks, finds the folder missing, and the other
    # makes it before the first looks again. That is not "a file in the way".
    target = tmp_path / "home" / "sessions"
    real_isdir = os.path.isdir
    seen: list[str] = []

    def racing_isdir(path: str) -> bool:
        if os.fspath(path) == str(target) and not seen:
            seen.append(str(path))
            os.makedirs(target)  # the other process, between the two looks
            return False
        return real_isdir(path)

    monkeypatch.setattr(os.path, "isdir", racing_isdir)
    files.make_dir(str(target))
    assert seen
    assert target.is_dir()
    # A real file in the way is still refused.
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    monkeypatch.setattr(os.path, "isdir", real_isdir)
    with pytest.raises(StorageError, match="in the way"):
        files.make_dir(str(blocker))
    # A file above it is named, not the folder asked for.
    with pytest.raises(StorageError, match=f"{blocker} is not a directory"):
        files.make_dir(str(blocker / "sub" / "deeper"))
