"""Input that is too big to read by the usual means (numbers past ``int``'s digit
limit, JSON nested past the stack) gets a one-line error with a documented exit
code, never an internal error; a dependency cycle written by hand is named, and
``todo claim`` ends a drain loop with exit 7; each message says what happened."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support_cli import Todo, todo_process

DIGITS = "1" * 5000  # past int()'s limit of 4,300 digits


def listing(home: Path) -> Path:
    return home / "sessions" / "default.md"


def assert_one_line_error(err: str) -> None:
    assert err.startswith("todo: ")
    assert err.count("\n") == 1, err
    assert "internal error" not in err
    assert len(err) < 400, "the message echoes a bounded part of the input"


# -- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("digits", ["1" * 4301, DIGITS, "0" * 30 + "2"])
def test_a_task_number_of_any_length_is_read_without_an_internal_error(
    todo: Todo, home: Path, digits: str
) -> None:
    todo("add", "A", "B")
    before = listing(home).read_bytes()
    result = todo("done", f"#{digits}")
    if digits.lstrip("0") == "2":  # leading zeros: still task #2
        assert result.code == 0, result.err
        assert "- [x] B" in listing(home).read_text()
        return
    assert result.code == 1
    assert_one_line_error(result.err)
    assert "not found: the list has 2 tasks" in result.err
    assert listing(home).read_bytes() == before


@pytest.mark.parametrize("task_id", [DIGITS, "²"])
def test_a_hand_written_id_that_is_no_number_is_not_read_as_one(
    todo: Todo, home: Path, task_id: str
) -> None:
    # "²" is a digit to str.isdigit and not to int(); 5,000 digits are past int()'s limit.
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(f"# Todos\n- [ ] X <!-- id: {task_id} -->\n- [ ] W\n")
    added = todo("add", "Y", "--after", "W")
    assert added.code == 0, added.err
    assert "- [ ] Y <!-- blocked-by: 1 -->" in listing(home).read_text()
    # VS Code's reply numbers its ids: an id that is no number gets its position.
    shown = json.loads(todo("--json", "show", "--as", "copilot").out)
    assert shown["data"]["reply"]["todoList"][0]["id"] == 1
    copilot = {"todoList": [{"id": 9, "title": "Z", "status": "not-started"}]}
    assert todo("apply", stdin=json.dumps(copilot)).code == 0


def test_a_snapshot_order_too_large_for_a_float_still_sorts(todo: Todo, home: Path) -> None:
    # float(10**400) overflows: the order is compared as given.
    items = [
        {"content": "Last", "status": "pending", "order": 10**400},
        {"content": "First", "status": "pending", "order": 1.5},
        {"content": "Middle", "status": "pending", "order": 10**300},
    ]
    result = todo("apply", stdin=json.dumps({"todos": items}))
    assert result.code == 0, result.err
    assert listing(home).read_text() == "# Todos\n- [ ] First\n- [ ] Middle\n- [ ] Last\n"


def test_a_numeric_id_is_kept_as_its_digits_and_one_too_long_is_refused(
    todo: Todo, home: Path
) -> None:
    # float() of a 400-digit id overflows; int ids keep every digit (a float loses them).
    kept = {"todos": [{"content": "A", "status": "pending", "id": 10**30 + 1}]}
    assert todo("apply", stdin=json.dumps(kept)).code == 0
    assert "<!-- id: 1000000000000000000000000000001 -->" in listing(home).read_text()
    before = listing(home).read_bytes()
    long_id = {"todos": [{"content": "B", "status": "pending", "id": 10**600}]}
    result = todo("apply", stdin=json.dumps(long_id))
    assert result.code == 1
    assert_one_line_error(result.err)
    assert "todos[0].id: over 500 bytes" in result.err
    assert listing(home).read_bytes() == before


# -- JSON depth ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (json.dumps({"todos": "[" * 3000}), "todos: the array in the string: JSON nested"),
        (json.dumps({"todos": "[" * 3000 + "]" * 3000}), "todos: the array in the string"),
        ("[" * 3000 + "]" * 3000, "input: JSON nested more than 64 levels deep"),
        ('{"ops": ' + "[" * 200 + "]" * 200 + "}", "input: JSON nested more than 64"),
    ],
)
def test_json_nested_thousands_deep_is_refused_in_one_line(
    todo: Todo, home: Path, payload: str, words: str
) -> None:
    todo("add", "A")
    before = listing(home).read_bytes()
    result = todo("apply", stdin=payload)
    assert result.code == 1
    assert_one_line_error(result.err)
    assert words in result.err
    assert listing(home).read_bytes() == before


def test_json_a_little_nested_is_read_as_before(todo: Todo) -> None:
    # 64 levels are allowed (no agent sends more than a handful): the error is the
    # dialect's own, not the depth's.
    result = todo("apply", stdin="[" * 64 + "]" * 64)
    assert result.code == 1
    assert "[0]: expected an object, got array" in result.err


def test_a_deep_hook_envelope_is_refused_by_the_hook_commands(todo: Todo) -> None:
    deep = '{"session_id": "s", "x": ' + "[" * 3000 + "]" * 3000 + "}"
    result = todo("check", "--hook", stdin=deep)
    assert result.code == 1
    assert_one_line_error(result.err)
    assert "nested more than 64 levels deep" in result.err


def test_a_deep_payload_as_a_real_process(tmp_path: Path) -> None:
    env = {"TODOCLI_HOME": str(tmp_path / "home")}
    assert todo_process("add", "A", env=env).code == 0
    result = todo_process("apply", stdin=json.dumps({"todos": "[" * 3000}), env=env)
    assert result.code == 1
    assert_one_line_error(result.err)
    big = todo_process("done", f"#{DIGITS}", env=env)
    assert big.code == 1
    assert_one_line_error(big.err)


# -- markdown nesting ------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "".join(f"{'  ' * i}- [ ] t{i}\n" for i in range(700)),  # lists 700 deep
        ">" * 5000 + " - [ ] x\n",  # blockquotes 5,000 deep
        "- " * 5000 + "[ ] x\n",  # list items 5,000 deep on one line
        "> - " * 2500 + "[ ] x\n",
        "1. " * 3000 + "[ ] x\n",
    ],
    ids=["indented-lists", "blockquotes", "list-items", "quoted-items", "ordered-items"],
)
def test_markdown_nested_thousands_deep_reads_and_writes_without_an_internal_error(
    todo: Todo, home: Path, body: str
) -> None:
    text = "# Todos\n- [ ] top\n" + body
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(text)
    for args in (("show",), ("--json", "show"), ("check",), ("add", "new")):
        result = todo(*args)
        assert result.code in (0, 1), (args, result.err)
        assert "internal error" not in result.err
    assert body in listing(home).read_text()  # the person's lines kept
    piped = todo("apply", "--markdown", stdin=text)
    assert "internal error" not in piped.err
    assert piped.code in (0, 1)
    sent = todo("apply", stdin=json.dumps({"markdown": text}))
    assert "internal error" not in sent.err
    assert sent.code in (0, 1)


def test_reading_markdown_nested_deeper_costs_no_more_than_the_square_of_its_depth() -> None:
    # Each line of a list n deep has n containers; a copy of the rest of the line for
    # each of them made it n cubed (800 levels: 2 s). Four times deeper must cost
    # about 16 times more (quadratic), far from the 64 times a cubic reader takes.
    import time

    from todocli.document.markdown import parse

    def best(depth: int) -> float:
        text = "# Todos\n" + "".join("  " * i + f"- [ ] t{i}\n" for i in range(depth))
        times = []
        for _ in range(3):
            start = time.process_time()
            parse(text)
            times.append(time.process_time() - start)
        return min(times)

    # The least of a few attempts: a busy machine can slow one measurement (seen: 37),
    # never every attempt of a reader that really is cubic.
    ratios = []
    for _ in range(3):
        ratios.append(best(800) / max(best(200), 1e-4))
        if ratios[-1] < 30:
            break
    assert min(ratios) < 30, ratios


# -- a dependency cycle written by hand ------------------------------------------------

CYCLE = (
    "# Todos\n"
    "- [ ] A <!-- id: 1; blocked-by: 2 -->\n"
    "- [ ] B <!-- id: 2; blocked-by: 1 -->\n"
    "- [x] C\n"
)
NAMED = '#1 "A" -> #2 "B" -> #1'


def test_show_names_a_cycle_written_by_hand(todo: Todo, home: Path) -> None:
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE)
    shown = todo("show")
    assert shown.code == 0
    assert f"Dependency cycle {NAMED}: they wait on each other, so none can start" in shown.out
    data = json.loads(todo("--json", "show").out)["data"]["todos"]
    assert [t.get("cycle") for t in data] == [[1, 2], [1, 2], None]
    assert listing(home).read_text() == CYCLE


def test_a_cycle_behind_a_task_in_progress_is_no_dead_end(todo: Todo, home: Path) -> None:
    # A task in progress can still be finished, and what waits on it then starts.
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE.replace("- [ ] A", "- [/] A"))
    assert "cycle" not in todo("show").out.lower()
    assert todo("claim", "--agent", "x").code == 1


def test_check_names_a_cycle(todo: Todo, home: Path) -> None:
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE)
    checked = todo("check")
    assert checked.code == 1
    assert f"Dependency cycle {NAMED}" in checked.out
    error = json.loads(todo("--json", "check").out)["error"]
    assert error["code"] == "OPEN_TASKS"
    assert f"dependency cycle {NAMED}" in error["message"]


def test_claim_exits_7_naming_a_cycle_written_by_hand(todo: Todo, home: Path) -> None:
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE)
    claimed = todo("claim", "--agent", "x")
    assert claimed.code == 7
    assert claimed.err == (
        f"todo: Nothing to claim: dependency cycle {NAMED}: they wait on each other, so "
        "none can start; remove a blocked-by from one (todo edit) or drop one\n"
    )
    envelope = json.loads(todo("--json", "claim", "--agent", "x").out)
    assert envelope["error"]["code"] == "CYCLE"
    named = todo("claim", "--agent", "x", "B")
    assert named.code == 7
    assert f'Task "B" cannot start: dependency cycle {NAMED}' in named.err
    assert listing(home).read_text() == CYCLE
    # The hint is a promise: dropping one task of the cycle frees the other.
    assert todo("drop", "A", "--agent", "x").code == 0
    assert todo("claim", "--agent", "x").code == 0


def test_claim_waits_while_a_task_outside_the_cycle_can_still_start(todo: Todo, home: Path) -> None:
    # C is in progress and D waits on it: D can start once C is done, so the loop
    # is told to wait (exit 1), not to end (exit 7), until only the cycle is left.
    listing(home).parent.mkdir(parents=True)
    hand = "- [ ] C <!-- id: 3 -->\n- [ ] D <!-- blocked-by: 3 -->"
    listing(home).write_text(CYCLE.replace("- [x] C", hand))
    assert todo("claim", "--agent", "y").code == 0  # takes C
    waiting = todo("claim", "--agent", "x")
    assert waiting.code == 1
    assert "cycle" not in waiting.err
    assert todo("done", "--agent", "y").code == 0
    assert todo("claim", "--agent", "x").code == 0  # takes D
    assert todo("done", "--agent", "x").code == 0
    ended = todo("claim", "--agent", "x")
    assert ended.code == 7
    assert f"dependency cycle {NAMED}" in ended.err


def test_claiming_a_task_that_waits_on_a_cycle_names_the_cycle(todo: Todo, home: Path) -> None:
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE + "- [ ] D <!-- blocked-by: 2 -->\n")
    named = todo("claim", "--agent", "x", "D")
    assert named.code == 7
    assert f'Task "D" cannot start: dependency cycle {NAMED}' in named.err


def test_claim_takes_a_free_task_before_it_reports_a_cycle(todo: Todo, home: Path) -> None:
    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE.replace("- [x] C", "- [ ] C"))
    taken = todo("claim", "--agent", "x")
    assert taken.code == 0
    assert "#3 [/] C" in taken.out


# -- messages that say what happened ---------------------------------------------------


def test_edit_on_a_full_disk_says_so_and_names_the_file(
    todo: Todo, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo("add", "A")
    before = listing(home).read_bytes()
    marker = tmp_path / "editor-ran"
    editor = tmp_path / "editor.py"
    editor.write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {editor}")
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
    result = todo("edit")
    monkeypatch.undo()
    assert result.code == 6
    state = home / "state" / "sessions" / "default"
    assert result.err.startswith(f"todo: cannot write the copy to edit, {state}/edit-")
    assert "no space left on the device; nothing was written" in result.err
    assert "standard output" not in result.err
    assert not marker.exists(), "the editor is not started on a copy that was not written"
    assert listing(home).read_bytes() == before
    assert [n for n in os.listdir(state) if n.startswith("edit-")] == []


# -- through todo mcp ------------------------------------------------------------------


def test_the_same_inputs_through_mcp_are_tool_errors_not_internal_errors(home: Path) -> None:
    from tests.test_mcp_server import connect, envelope_of, run, text_of

    deep_args: object = []
    for _ in range(100):
        deep_args = [deep_args]

    async def body() -> None:
        async with connect("--agent", "x") as conn:
            first = await conn.call("todo_write", {"todos": [{"content": "A"}]})
            assert not first.is_error, text_of(first)
            calls: list[tuple[str, dict[str, Any], str]] = [
                ("todo_write", {"todos": "[" * 3000}, "nested more than 64 levels deep"),
                ("todo_write", {"ops": [{"op": "done", "task": f"#{DIGITS}"}]}, "not found"),
                ("todo_claim", {"task": f"#{DIGITS}"}, "not found"),
                ("todo_write", {"todos": deep_args}, "arguments: JSON nested more than 64"),
            ]
            for name, arguments, words in calls:
                result = await conn.call(name, arguments)
                assert result.is_error, (name, words)
                text = text_of(result)
                assert "internal error" not in text
                assert words in text, text
                assert envelope_of(result)["error"]["code"] in ("INVALID_PARAM", "NOT_FOUND")
            # The server goes on serving.
            assert not (await conn.call("todo_read", {})).is_error

    run(body)


def test_a_cycle_through_mcp_is_a_tool_error_with_its_code(home: Path) -> None:
    from tests.test_mcp_server import connect, envelope_of, run, text_of

    listing(home).parent.mkdir(parents=True)
    listing(home).write_text(CYCLE)

    async def body() -> None:
        async with connect("--agent", "x") as conn:
            result = await conn.call("todo_claim", {})
            assert result.is_error
            assert f"dependency cycle {NAMED}" in text_of(result)
            assert envelope_of(result)["error"]["code"] == "CYCLE"

    run(body)


def test_an_mcp_resource_shows_a_byte_that_is_not_utf8_as_the_command_line_does(
    home: Path,
) -> None:
    from mcp import types

    from tests.test_mcp_server import connect, run

    listing(home).parent.mkdir(parents=True)
    listing(home).write_bytes(b"# Todos\n- [ ] caf\xff\n")

    async def body() -> None:
        async with connect() as conn:
            read = await conn.session.read_resource("todo://sessions/default")
            content = read.contents[0]
            assert isinstance(content, types.TextResourceContents)
            assert content.text == "# Todos\n- [ ] caf\\xff\n"  # as `todo show` prints it

    run(body)
    assert "caf\\xff" in todo_process("show").out


# -- hook session ids ------------------------------------------------------------------


def test_two_long_hook_session_ids_that_differ_past_64_characters_get_two_lists(
    todo: Todo, home: Path
) -> None:
    def envelope(session: str, task: str) -> str:
        todos = [{"content": task, "status": "pending", "activeForm": task}]
        return json.dumps(
            {"session_id": session, "tool_name": "TodoWrite", "tool_input": {"todos": todos}}
        )

    first, second = "s" * 70 + "-one", "s" * 70 + "-two"
    assert todo("apply", stdin=envelope(first, "First")).code == 0
    assert todo("apply", stdin=envelope(second, "Second")).code == 0
    names = sorted(p.name for p in (home / "sessions").iterdir())
    assert len(names) == 2
    assert all(len(n) == 64 + len(".md") and n.startswith("s" * 47) for n in names)
    texts = sorted((home / "sessions" / n).read_text() for n in names)
    assert ["First" in texts[0], "Second" in texts[1]] == [True, True]
    # The hook commands find the same list for the same id.
    hook = json.dumps({"session_id": second, "hook_event_name": "Stop"})
    checked = todo("check", "--hook", stdin=hook)
    assert checked.code == 1
    assert "Second" in checked.out
    assert "First" not in checked.out


def test_a_short_hook_session_id_keeps_its_name(todo: Todo, home: Path) -> None:
    session = "0b6c9a4e-5f3d-4c1e-9a7b-2d8e6f1a3c5b"
    payload = {"session_id": session, "tool_name": "TodoWrite", "tool_input": {"todos": []}}
    assert todo("apply", stdin=json.dumps(payload)).code == 0
    assert todo("-s", session, "path").out.strip().endswith(f"sessions/{session}.md")


# -- checklists in a string ------------------------------------------------------------

FENCED = (
    "# Plan\n- [ ] a\n```\n- [ ] b\n```\n- [x] c\n~~~~md\n- [ ] d\n~~~\n- [ ] e\n~~~~\n- [ ] f\n"
)


def test_a_markdown_payload_reads_no_task_inside_a_code_fence_as_apply_markdown(
    todo: Todo,
) -> None:
    def contents(out: str) -> list[tuple[str, str]]:
        return [(t["content"], t["status"]) for t in json.loads(out)["data"]["todos"]]

    piped = todo("--json", "apply", "--markdown", stdin=FENCED)
    sent = todo("--json", "-s", "other", "apply", stdin=json.dumps({"markdown": FENCED}))
    assert piped.code == sent.code == 0
    assert contents(piped.out) == [("a", "pending"), ("c", "completed"), ("f", "pending")]
    assert contents(sent.out) == contents(piped.out)
    assert "markdown: lines 3-5 are a code block, not read" in sent.err
    unclosed = todo("--json", "apply", stdin=json.dumps({"markdown": "- [ ] a\n```\n- [ ] b\n"}))
    assert contents(unclosed.out) == [("a", "pending")]
    assert "lines 2- are a code block (never closed), not read" in unclosed.err
