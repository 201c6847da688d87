"""The command line, end to end, with real files on disk."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import todocli
from tests.support import corpus_files
from tests.support_cli import ENVELOPE_KEYS, Todo, todo_process
from todocli.document.model import Status


def session_file(home: Path, name: str = "default") -> Path:
    return home / "sessions" / f"{name}.md"


# -- the main job ------------------------------------------------------------------------


def test_add_then_show_on_the_default_home(todo: Todo, home: Path) -> None:
    first = todo("add", "Try todocli")
    assert first.code == 0
    assert session_file(home).read_bytes() == b"# Todos\n- [/] Try todocli\n"
    shown = todo()
    assert shown.code == 0
    assert shown.out == (
        "Remaining items (1):\n"
        "  - Try todocli [in_progress] (Todos)\n"
        'Phase 1/1 "Todos" — 0/1 tasks complete\n'
        "Todos\n"
        "  #1 [/] Try todocli\n"
        "[0/1] In progress: Try todocli.\n"
    )
    assert shown.err == ""


def test_a_flag_session_of_tasks(todo: Todo, home: Path) -> None:
    assert todo("init", "--summary", "Fix bug", "--phase", "Work", "A", "B", "C").code == 0
    assert todo("start", "B").code == 0
    assert todo("note", "B", "found it").code == 0
    assert todo("done", "B", "--note", "fixed").code == 0
    assert todo("block", "C", "--reason", "needs review").code == 0
    assert todo("drop", "A").code == 0
    text = session_file(home).read_text()
    assert text == (
        "# Fix bug\n\n## Work\n- [-] A\n- [x] B\n  > found it\n  >\n  > fixed\n"
        "- [!] C\n  > Blocked: needs review\n"
    )
    assert todo("unblock", "C").code == 0
    result = todo("done", "C")
    assert result.code == 0
    assert "Todo list cleared." in result.out
    assert session_file(home).read_text() == ""


def test_several_tasks_in_one_call_are_one_atomic_batch(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    before = session_file(home).read_bytes()
    result = todo("done", "A", "nope")
    assert result.code == 1
    assert result.out.startswith('Errors: Task "nope" not found')
    assert result.err == 'todo: Task "nope" not found (see: todo show)\n'
    assert session_file(home).read_bytes() == before


def test_partial_applies_the_good_tasks(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    result = todo("done", "A", "nope", "--partial")
    assert result.code == 1
    assert "Completed: A" in result.out
    assert "- [x] A" in session_file(home).read_text()


def test_done_without_a_task_finishes_the_one_in_progress(todo: Todo, home: Path) -> None:
    todo("add", "A", "B")
    assert todo("done").code == 0
    assert session_file(home).read_text() == "# Todos\n- [x] A\n- [/] B\n"


def test_done_with_nothing_in_progress_says_what_to_do(todo: Todo) -> None:
    result = todo("done")
    assert result.code == 1
    assert (
        "No task is in progress: name one (todo done TASK), or use --phase P or --all" in result.err
    )


def test_rm_and_clear(todo: Todo, home: Path) -> None:
    todo("add", "A", "B", "C")
    todo("done", "A")
    assert todo("rm").code == 2
    assert todo("rm", "C").code == 0
    assert todo("clear").code == 0
    assert session_file(home).read_text() == "# Todos\n- [/] B\n"
    assert todo("clear", "--all").code == 0
    assert session_file(home).read_text() == ""


def test_add_to_a_phase_creates_it(todo: Todo, home: Path) -> None:
    todo("add", "A")
    todo("add", "--phase", "Ship", "B")
    assert session_file(home).read_text() == "# Todos\n- [/] A\n\n# Ship\n- [ ] B\n"


def test_global_options_work_before_and_after_the_command(todo: Todo, home: Path) -> None:
    todo("-s", "s1", "add", "X")
    todo("add", "Y", "-s", "s2")
    assert session_file(home, "s1").read_text() == "# Todos\n- [/] X\n"
    assert session_file(home, "s2").read_text() == "# Todos\n- [/] Y\n"
    before, after = todo("--json", "show", "-s", "s1"), todo("show", "--json", "--session=s1")
    assert json.loads(before.out)["data"] == json.loads(after.out)["data"]


def test_path_prints_the_list_path(todo: Todo, home: Path) -> None:
    assert todo("path").out == f"{session_file(home)}\n"
    assert todo("path", "-s", "x").out == f"{session_file(home, 'x')}\n"


def test_version(todo: Todo) -> None:
    result = todo("--version")
    assert result.code == 0
    assert result.out.startswith("todo ")


# -- apply: every dialect -------------------------------------------------------------------

DIALECTS = {
    "claude-code": {
        "todos": [
            {"content": "Run tests", "status": "in_progress", "activeForm": "Running tests"},
            {"content": "Fix bug", "status": "pending", "activeForm": "Fixing bug"},
        ]
    },
    "nexo-rs": {
        "todos": [
            {"content": "Run tests", "status": "in_progress", "active_form": "Running tests"},
            {"content": "Fix bug", "status": "pending", "active_form": "Fixing bug"},
        ]
    },
    "todocli-snapshot": {
        "summary": "Ship",
        "todos": [
            {"id": "t1", "content": "Run tests", "status": "in_progress"},
            {"id": "t2", "content": "Fix bug", "status": "pending"},
        ],
    },
    "kimi": {
        "todos": [
            {"title": "Run tests", "status": "in_progress"},
            {"title": "Fix bug", "status": "pending"},
        ]
    },
    "gemini": {
        "todos": [
            {"description": "Run tests", "status": "in_progress"},
            {"description": "Fix bug", "status": "pending"},
        ]
    },
    "codex": {
        "plan": [
            {"step": "Run tests", "status": "in_progress"},
            {"step": "Fix bug", "status": "pending"},
        ],
        "explanation": "Ship",
    },
    "learn-claude-code": {
        "items": [
            {"id": "1", "text": "Run tests", "status": "in_progress"},
            {"id": "2", "text": "Fix bug", "status": "pending"},
        ]
    },
    "bare-list": [{"content": "Run tests", "status": "in_progress"}, {"content": "Fix bug"}],
    "ops": {
        "ops": [
            {"op": "init", "list": [{"phase": "Todos", "items": ["Run tests", "Fix bug"]}]},
            {"op": "start", "task": "Run tests"},
        ]
    },
    "bare-ops": [
        {"op": "init", "list": [{"phase": "Todos", "items": ["Run tests", "Fix bug"]}]},
        {"op": "start", "task": "Run tests"},
    ],
}


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_apply_reads_every_dialect(todo: Todo, home: Path, dialect: str) -> None:
    payload = DIALECTS[dialect]
    result = todo("apply", "--json", stdin=json.dumps(payload))
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [(t["content"], t["status"]) for t in data["data"]["todos"]] == [
        ("Run tests", "in_progress"),
        ("Fix bug", "pending"),
    ]
    assert data["context"]["params_input"] == payload
    if dialect == "todocli-snapshot":
        assert data["data"]["summary"] == "Ship"
    if dialect == "codex":  # why the plan changed: told, not made the heading
        assert data["data"]["summary"] == ""
        assert "Why: Ship\n" in data["text"]
    if dialect in ("claude-code", "nexo-rs"):
        assert data["data"]["todos"][0]["active_form"] == "Running tests"


def test_apply_a_single_op_object(todo: Todo, home: Path) -> None:
    todo("add", "A")
    result = todo("apply", stdin='{"op": "done", "task": "A"}')
    assert result.code == 0
    assert "Completed: A" in result.out


@pytest.mark.parametrize("payload", ["{}", '{"todos": null}', '{"op": "view"}'])
def test_queries_show_the_list_and_write_nothing(todo: Todo, home: Path, payload: str) -> None:
    todo("add", "A")
    before = session_file(home).read_bytes()
    state_dir = home / "state" / "sessions" / "default"
    state = {p.name: p.read_bytes() for p in state_dir.iterdir() if p.is_file()}
    result = todo("apply", stdin=payload)
    assert result.code == 0
    assert "#1 [/] A" in result.out
    assert session_file(home).read_bytes() == before
    assert {p.name: p.read_bytes() for p in state_dir.iterdir() if p.is_file()} == state


def test_empty_todos_clears_the_list(todo: Todo, home: Path) -> None:
    todo("apply", stdin='{"todos": [{"content": "A"}]}')  # a snapshot removes what it sent
    result = todo("apply", stdin='{"todos": []}')
    assert result.code == 0
    assert "Todo list cleared." in result.out


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("not json", "invalid JSON: Expecting value (line 1, column 1)"),
        ('{"todoz": []}', 'unknown key "todoz"'),
        ("42", "expected a JSON object or array, got number"),
        ('{"todos": {}}', "todos: expected an array, got object"),
        ('{"todos": [{"content": 5}]}', "todos[0].content: expected a string, got number"),
        (
            '{"todos": [{"content": "a", "status": "working"}]}',
            'todos[0].status: unknown status "working"',
        ),
        ('{"todos": [{"content": "a", "stauts": "done"}]}', 'todos[0]: unknown key "stauts"'),
        ('{"todos": [{"content": "a\\nb"}]}', "todos[0].content: Task content contains a newline"),
        ('{"ops": [{"op": "finish"}]}', 'ops[0].op: unknown op "finish"'),
        ('{"ops": [{"op": "done", "task": 3}]}', "ops[0].task: expected a string, got number"),
        ('{"ops": [{"op": "done", "task": "zz"}]}', 'ops[0]: Task "zz" not found'),
        ("", "input is empty"),
    ],
)
def test_bad_input_is_one_line_naming_the_json_path(
    todo: Todo, home: Path, payload: str, message: str
) -> None:
    todo("add", "A")
    before = session_file(home).read_bytes()
    result = todo("apply", stdin=payload)
    assert result.code == 1
    assert message in result.err
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err
    assert session_file(home).read_bytes() == before


def test_input_over_the_size_limit_is_refused_before_parsing(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_MAX_INPUT_BYTES", "100")
    for size in (200, 100_000):
        result = todo("apply", stdin="[" + " " * size + "]")
        assert result.code == 1
        # Only limit + 1 bytes are read: the message claims no size it did not see.
        assert result.err == "todo: input is over the limit of 100 bytes (max_input_bytes)\n"


def test_invalid_utf8_on_stdin_is_refused(todo: Todo) -> None:
    result = todo("apply", stdin=b'{"todos": [{"content": "\xff"}]}')
    assert result.code == 1
    assert "input is not valid UTF-8" in result.err


def test_apply_markdown_replaces_the_list(todo: Todo, home: Path) -> None:
    todo("apply", "--markdown", stdin="- [ ] old\n")  # a snapshot removes what it sent
    result = todo("apply", "--markdown", stdin="# Goal\n\n## P\n- [/] a\n  > n\n- [ ] b\n")
    assert result.code == 0
    assert session_file(home).read_text() == "# Goal\n\n## P\n- [/] a\n  > n\n- [ ] b\n"


def test_apply_reads_a_file(todo: Todo, tmp_path: Path) -> None:
    payload = tmp_path / "p.json"
    payload.write_text('{"todos": [{"content": "from file"}]}')
    result = todo("apply", "-i", str(payload))
    assert result.code == 0
    assert "from file" in result.out


# -- JSON output ------------------------------------------------------------------------------


def test_json_envelope_on_success(todo: Todo, home: Path) -> None:
    result = todo("add", "A", "B", "--json")
    data = json.loads(result.out)
    assert set(data) == ENVELOPE_KEYS | {"instructions"}
    assert data["version"] == 1
    assert data["status"] == "success"
    assert data["error"] is None
    assert data["stats"] == {
        "total": 2,
        "pending": 1,
        "in_progress": 1,
        "completed": 0,
        "abandoned": 0,
        "blocked": 0,
    }
    assert data["data"]["recap"] == "[0/2] In progress: A. Pending: B."
    # Each task once, with the fields it has (no null or empty ones), and its phase.
    assert data["data"]["todos"][1] == {
        "n": 2,
        "content": "B",
        "status": "pending",
        "phase": "Todos",
    }
    assert data["changes"]["old_todos"] == []
    assert data["changes"]["new_todos"] == [
        {"content": "A", "status": "in_progress"},
        {"content": "B", "status": "pending"},
    ]
    assert data["context"] == {
        "session": "default",
        "file": str(session_file(home)),
        "rev": 1,
        "params_input": None,
    }
    assert data["instructions"].startswith("Todos updated. Keep exactly one item `in_progress`")
    assert data["text"].endswith("[0/2] In progress: A. Pending: B.\n")


def test_json_envelope_on_error_has_the_same_keys(todo: Todo) -> None:
    todo("add", "A")
    data = json.loads(todo("done", "zz", "--json").out)
    assert set(data) == ENVELOPE_KEYS | {"instructions"}
    assert data["status"] == "error"
    assert data["error"]["code"] == "NOT_FOUND"
    assert data["error"]["details"][0]["message"] == 'Task "zz" not found (see: todo show)'
    early = json.loads(todo("--json", "-s", "../bad", "show").out)
    assert set(early) == ENVELOPE_KEYS
    assert early["error"]["code"] == "USAGE"


def test_json_on_an_empty_list_has_no_instructions(todo: Todo) -> None:
    data = json.loads(todo("--json").out)
    assert "instructions" not in data
    assert data["text"] == "Todo list is empty.\n"


# -- exit codes ---------------------------------------------------------------------------------


LIST_OF_A = (
    "Remaining items (1):\n"
    "  - A [in_progress] (Todos)\n"
    'Phase 1/1 "Todos" — 0/1 tasks complete\n'
    "Todos\n"
    "  #1 [/] A\n"
    "[0/1] In progress: A.\n"
)


@pytest.mark.parametrize(
    ("stdin", "error"),
    [
        ("not json", "invalid JSON: Expecting value (line 1, column 1)"),
        ('{"todos": [{"content": "A", "status": "working"}]}', "todos[0].status: unknown status"),
        ('{"todoz": []}', 'unknown key "todoz"'),
        (
            '{"tool_name": "TodoWrite"}',
            'a hook envelope needs "tool_name" and "tool_input" (the tool\'s arguments); '
            '"tool_input" is missing',
        ),
    ],
)
def test_apply_input_rejected_while_read_still_shows_the_list(
    todo: Todo, home: Path, stdin: str, error: str
) -> None:
    # As an engine's rejection does: "Errors: ..." then the state.
    todo("add", "A")
    before = session_file(home).read_bytes()
    result = todo("apply", stdin=stdin)
    assert result.code == 1
    first, rest = result.out.split("\n", 1)
    assert first.startswith(f"Errors: {error}")
    assert rest == LIST_OF_A
    assert result.err == f"todo: {first.removeprefix('Errors: ')}\n"
    assert 'did you mean "tool_name"' not in result.out
    envelope = json.loads(todo("--json", "apply", stdin=stdin).out)
    assert envelope["status"] == "error"
    assert [t["content"] for t in envelope["data"]["todos"]] == ["A"]
    assert session_file(home).read_bytes() == before


def test_a_command_s_usage_error_says_todo_once(todo: Todo) -> None:
    result = todo("rm")
    assert result.code == 2
    assert result.err == "todo: rm: name the TASK to remove, or use --phase P or --all\n"


def test_a_long_task_reference_is_echoed_shortened(todo: Todo) -> None:
    todo("add", "A")
    result = todo("done", "x" * 100_000)
    assert result.code == 1
    assert len(result.err) < 300
    assert "…(+99880 characters)" in result.err
    assert len(result.out) < 300 + len(LIST_OF_A)
    big = json.dumps({"ops": [{"op": "done", "task": "y" * 900_000}]})
    via_apply = todo("apply", stdin=big)
    assert via_apply.code == 1
    assert len(via_apply.err) < 300
    assert len(via_apply.out) < 300 + len(LIST_OF_A)


def test_exit_2_for_usage_errors(todo: Todo, home: Path) -> None:
    assert todo("bogus").code == 2
    assert todo("start").code == 2
    bad = todo("-s", "../etc", "show")
    assert bad.code == 2
    assert "invalid session name" in bad.err
    assert not (home / "sessions").exists()


@pytest.mark.parametrize("name", ["..", "a/b", "/abs", "", "x" * 65, "a\x00b", ".hidden"])
def test_bad_session_names_are_usage_errors_and_create_nothing(
    todo: Todo, home: Path, name: str
) -> None:
    result = todo("add", "A", "-s", name)
    assert result.code == 2
    assert not home.exists()


def test_exit_3_for_an_internal_error_without_traceback(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    import todocli.app.commands

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(todocli.app.commands, "show", boom)
    result = todo("show")
    assert result.code == 3
    assert result.err == "todo: internal error: RuntimeError: kaboom\n"


def test_exit_4_when_the_revision_moved(todo: Todo) -> None:
    todo("add", "A")
    assert json.loads(todo("--json").out)["context"]["rev"] == 1
    assert todo("add", "B", "--if-rev", "1").code == 0
    stale = todo("add", "C", "--if-rev", "1")
    assert stale.code == 4
    assert "the list is at revision 2, not 1" in stale.err


def test_exit_5_when_the_lock_is_held(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    from filelock import FileLock

    todo("add", "A")
    monkeypatch.setenv("TODOCLI_LOCK_TIMEOUT", "0.2")
    from todocli.storage.paths import lock_path

    lock_file = lock_path(str(home / "sessions" / "default.md"))
    os.makedirs(os.path.dirname(lock_file), mode=0o700, exist_ok=True)
    lock = FileLock(lock_file)
    with lock:
        result = todo("done", "A")
    assert result.code == 5
    assert "another todo process holds the lock" in result.err
    assert "- [/] A" in session_file(home).read_text()


def test_exit_6_when_the_list_is_a_directory(todo: Todo, tmp_path: Path) -> None:
    folder = tmp_path / "folder.md"
    folder.mkdir()
    result = todo("--file", str(folder), "add", "A")
    assert result.code == 6
    assert str(folder) in result.err


def _without_the_power_to_write_any_file() -> list[str]:
    """A prefix that runs a command as root would run without its override of file
    permissions (nothing when not root: the permissions hold already)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root, and no setpriv to give up the override of file permissions")
    caps = "-dac_override,-dac_read_search,-fowner"
    return [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]


def test_exit_6_when_the_list_is_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "TODO.md"
    target.write_text("- [ ] a\n")
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "c.toml")}
    command = [sys.executable, "-m", "todocli", "--file", str(target), "done", "a"]
    try:
        proc = subprocess.run(
            [*_without_the_power_to_write_any_file(), *command],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
            check=False,
        )
    finally:
        folder.chmod(stat.S_IRWXU)
    assert proc.returncode == 6, proc.stderr
    assert target.read_text() == "- [ ] a\n"


def test_exit_6_and_nothing_written_when_the_list_file_itself_is_read_only(
    tmp_path: Path,
) -> None:
    """The write replaces the file through its folder, which permissions of the file
    do not govern: a list made read-only must still be refused, by root as well."""
    target = tmp_path / "TODO.md"
    target.write_text("- [ ] a\n")
    target.chmod(0o444)
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "c.toml")}
    command = [sys.executable, "-m", "todocli", "--file", str(target), "add", "B"]
    proc = subprocess.run(
        command,  # as root too: a file with no write bit for anyone is read-only
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    assert proc.returncode == 6, proc.stderr
    assert proc.stderr == f"todo: cannot write {target}: the file is read-only\n"
    assert target.read_text() == "- [ ] a\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    left = [p.name for p in (tmp_path / "h").rglob("*") if p.is_file() and "pending" in p.name]
    assert left == []


def test_a_write_that_would_pass_max_file_bytes_is_refused_and_the_list_stays_usable(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every read refuses a file over the limit, so no write may make one: the list
    would be locked out of show, undo and clear alike."""
    monkeypatch.setenv("TODOCLI_MAX_FILE_BYTES", "1000")
    assert todo("init", "a", "b").code == 0
    note = "n" * 300
    path = Path(todo("path").out.strip())
    for _ in range(3):  # 3 notes fit in 1000 bytes, a fourth does not
        assert todo("note", "a", note).code == 0
    before = path.read_bytes()
    assert len(before) + len(note) > 1000
    refused = todo("note", "a", note)
    assert refused.code == 1
    assert "the limit is 1000 (max_file_bytes)" in refused.err
    assert path.read_bytes() == before
    batch = todo("apply", stdin=json.dumps({"ops": [{"op": "note", "task": "b", "text": note}]}))
    assert batch.code == 1
    assert path.read_bytes() == before
    # Within the limit, everything still works: a read, a change that does not grow it.
    assert todo("show").code == 0
    assert todo("done", "a").code == 0
    assert "[x] a" in path.read_text()


# -- --file lists ----------------------------------------------------------------------------------


def _first_open_task(path: Path) -> int | None:
    tasks = list(todocli.loads(path.read_bytes().decode("utf-8", "surrogateescape")).tasks())
    for n, task in enumerate(tasks, start=1):
        if task.status is Status.PENDING and task.content not in {
            t.content for t in tasks[: n - 1]
        }:
            return n
    return None


WITH_OPEN_TASKS = [p for p in corpus_files() if _first_open_task(p)][:15]


@pytest.mark.parametrize("source", WITH_OPEN_TASKS, ids=[p.name[:30] for p in WITH_OPEN_TASKS])
def test_file_list_on_a_corpus_file_keeps_every_untouched_byte(
    todo: Todo, tmp_path: Path, source: Path
) -> None:
    target = tmp_path / "TODO.md"
    shutil.copyfile(source, target)
    original = target.read_bytes().splitlines(keepends=True)
    n = _first_open_task(source)
    result = todo("--file", str(target), "--keep", "done", f"#{n}")
    assert result.code == 0, result.err
    after = target.read_bytes().splitlines(keepends=True)
    assert len(after) == len(original)
    changed = [i for i, (a, b) in enumerate(zip(original, after, strict=True)) if a != b]
    # The task's own marker, and at most the task promoted after it: its marker, or
    # in a file that never used [/], the hidden comment that keeps its state.
    assert 1 <= len(changed) <= 2
    hidden = b" <!-- state: in_progress -->"
    for i in changed:
        if hidden in after[i] and hidden not in original[i]:
            at = after[i].index(hidden)
            assert after[i][:at] + after[i][at + len(hidden) :] == original[i]
            continue
        diff = [k for k, (a, b) in enumerate(zip(original[i], after[i], strict=True)) if a != b]
        assert len(diff) == 1
    assert sorted(os.listdir(tmp_path)) == ["TODO.md", "home", "run"]  # run: the fixture's locks


def test_file_lists_keep_state_under_the_home_not_beside_the_file(
    todo: Todo, tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "TODO.md").write_text("# Plan\n\n- [ ] a\n")
    assert todo("--file", str(project / "TODO.md"), "done", "a").code == 0
    assert sorted(os.listdir(project)) == ["TODO.md"]
    assert (project / "TODO.md").read_text() == "# Plan\n\n- [x] a\n"  # --file lists are not wiped
    assert (home / "state" / "files").is_dir()


def test_symlinked_list_stays_a_symlink(todo: Todo, tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("- [ ] a\n- [ ] b\n")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert todo("--file", str(link), "done", "a").code == 0
    assert link.is_symlink()
    # The file never used [/]: the task in progress keeps its state in a hidden comment.
    assert real.read_text() == "- [x] a\n- [ ] b <!-- state: in_progress -->\n"


def test_files_and_directories_are_private(todo: Todo, home: Path) -> None:
    todo("add", "A")
    assert stat.S_IMODE(session_file(home).stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "sessions").stat().st_mode) == 0o700


def test_a_users_file_keeps_its_mode(todo: Todo, tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_text("- [ ] a\n")
    target.chmod(0o644)
    todo("--file", str(target), "done", "a")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_crlf_file_gets_crlf_lines(todo: Todo, tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_bytes(b"# T\r\n\r\n- [ ] a\r\n")
    todo("--file", str(target), "add", "b")
    assert target.read_bytes() == b"# T\r\n\r\n- [ ] a <!-- state: in_progress -->\r\n- [ ] b\r\n"


def test_a_file_with_invalid_utf8_still_reads_and_keeps_its_bytes(
    todo: Todo, tmp_path: Path
) -> None:
    target = tmp_path / "TODO.md"
    target.write_bytes(b"caf\xe9\n- [ ] a\n")
    result = todo("--file", str(target), "done", "a")
    assert result.code == 0
    assert target.read_bytes() == b"caf\xe9\n- [x] a\n"


# -- the completion log -------------------------------------------------------------------------


def test_completion_log_exact_text_and_second_completion_appends(
    todo: Todo, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T17:42:33")
    todo(
        "init",
        "--summary",
        "Fix multi_edit overlap detection",
        "--phase",
        "Investigate",
        "Reproduce the bug",
        "Patch the interval check",
        "Add a regression test",
        "Benchmark script",
    )
    todo("note", "Patch the interval check", "off-by-one at the range end")
    todo("drop", "Benchmark script")
    result = todo("done", "Reproduce the bug", "Patch the interval check", "Add a regression test")
    log = home / "memory" / "todos" / "todoList-20261121-174233.md"
    assert f"All tasks closed: logged to {log}" in result.out
    expected_first = (
        "# task1-20261121-174233\n\n"
        "Summary: Fix multi_edit overlap detection\n\n"
        "[3/4] Completed:\n"
        "- Reproduce the bug\n"
        "- Patch the interval check\n"
        "  > off-by-one at the range end\n"
        "- Add a regression test\n\n"
        "[1/4] Cancelled:\n"
        "- ~~Benchmark script~~\n"
    )
    assert log.read_text() == expected_first
    assert session_file(home).read_text() == ""
    monkeypatch.setenv("TODOCLI_NOW", "2026-11-21T18:00:00")
    todo("add", "Another")
    todo("done", "Another")
    assert (
        log.read_text()
        == expected_first + "\n# task2-20261121-180000\n\n[1/1] Completed:\n- Another\n"
    )
    assert os.listdir(log.parent) == [log.name]
    assert todo("log").out == log.read_text()
    assert todo("log", "--list").out == f"{log}\n"


def test_keep_leaves_a_finished_list(todo: Todo, home: Path) -> None:
    todo("add", "A")
    result = todo("done", "A", "--keep")
    assert "logged to" in result.out
    assert session_file(home).read_text() == "# Todos\n- [x] A\n"


def test_a_file_list_logs_with_its_own_counter(todo: Todo, tmp_path: Path, home: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_text("- [ ] a\n")
    result = todo("--file", str(target), "done", "a", "--json")
    data = json.loads(result.out)
    assert data["changes"]["logged_to"].startswith(str(home / "memory" / "todos"))
    assert data["changes"]["wiped_on_all_completed"] is False


# -- warnings and odd files ------------------------------------------------------------------------


def test_unknown_markers_are_warned_about_on_stderr(todo: Todo, tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_text("- [ ] a\n- [?] b\n")
    result = todo("--file", str(target))
    assert result.code == 0
    assert (
        result.err
        == 'todo: warning: Line 2: unknown status marker "[?]" (use [ ], [x], [/], [-])\n'
    )


def test_control_characters_in_a_hand_edited_task_are_escaped(todo: Todo, tmp_path: Path) -> None:
    target = tmp_path / "TODO.md"
    target.write_bytes(b"- [ ] clear\x1b[2J screen\n")
    result = todo("--file", str(target), "--plain")
    assert "\x1b" not in result.out
    assert "clear\\x1b[2J screen" in result.out


# -- real processes -----------------------------------------------------------------


def test_python_dash_m_runs_the_tool(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h")}
    assert todo_process("add", "A", env=env).code == 0
    shown = todo_process(env=env)
    assert shown.code == 0
    assert "#1 [/] A" in shown.out


def test_a_traceback_never_reaches_the_user(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "h"), "TODOCLI_CONFIG": str(tmp_path / "c.toml")}
    (tmp_path / "c.toml").write_text("max_tasks = [\n")
    result = todo_process("show", env=env)
    assert result.code == 2
    assert "Traceback" not in result.err
    assert "c.toml" in result.err
    assert "line" in result.err


def test_quiet_prints_nothing_on_success_but_still_reports_failure(todo: Todo) -> None:
    quiet = todo("add", "A", "--quiet")
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    failed = todo("done", "zz", "-q")
    assert failed.code == 1
    assert failed.err == 'todo: Task "zz" not found (see: todo show)\n'


def test_log_prints_a_named_log_and_refuses_paths(
    todo: Todo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TODOCLI_NOW", "2026-01-02T03:04:05")
    todo("add", "A")
    todo("done", "A")
    assert todo("log", "todoList-20260102-030405.md").out.startswith("# task1-20260102-030405\n")
    assert todo("log", "../../etc/passwd").code == 2
    assert todo("log", "-s", "other").out == "No completions logged for this list yet.\n"
