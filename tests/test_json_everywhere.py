"""``--json`` on every command `todo --help` lists: one versioned envelope with the
same top-level keys, whatever the command answers with."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support_cli import ENVELOPE_KEYS, Todo, start_todo, todo_process

CLAUDE = json.dumps({"todos": [{"content": "X", "status": "completed"}, {"content": "Y"}]})

# Each listed command with arguments that make it succeed; (args, stdin, what data holds).
CASES: dict[str, tuple[list[str], str | None, str]] = {
    "show": ([], None, "todos"),
    "ls": (["--all"], None, "todos"),
    "init": (["P", "Q"], None, "todos"),
    "add": (["W"], None, "todos"),
    "a": (["W"], None, "todos"),
    "start": (["Y"], None, "todos"),
    "claim": (["--agent", "a"], None, "task"),
    "done": (["X"], None, "todos"),
    "drop": (["Z"], None, "todos"),
    "rm": (["Z"], None, "todos"),
    "note": (["X", "a note"], None, "todos"),
    "block": (["Y", "-r", "why"], None, "todos"),
    "unblock": (["Y"], None, "todos"),
    "clear": ([], None, "todos"),
    "apply": ([], CLAUDE, "todos"),
    "log": (["--list"], None, "logs"),
    "path": ([], None, "path"),
    "check": ([], None, "todos"),
    "remind": (["--every", "1"], None, "reminders"),
    "schema": (["ops"], None, "schema"),
    "history": ([], None, "revisions"),
    "diff": ([], None, "diff"),
    "undo": ([], None, "todos"),
    "redo": ([], None, "todos"),
    "sessions": ([], None, "sessions"),
    "gc": (["--older-than", "9999d"], None, "removed"),
    "config": ([], None, "settings"),
    "setup": (["cline", "--dry-run"], None, "files"),
    "doctor": ([], None, "lines"),
    "edit": ([], None, "todos"),
    "allow": ([], None, "checks"),
}
LONG_RUNNING = {"watch", "mcp", "serve"}  # tested as the processes they are (serve: test_serve)
PROTOCOL_REPLIES = {"hook"}  # answers in the harness's JSON (tests/test_hook_command.py)


def listed_commands() -> list[str]:
    help_text = todo_process("--help").out
    commands = help_text.split("Commands:\n", 1)[1]
    return re.findall(r"^  (\S+)", commands, re.M)


def test_every_listed_command_has_a_case() -> None:
    assert set(listed_commands()) == set(CASES) | LONG_RUNNING | PROTOCOL_REPLIES


def check_envelope(data: dict[str, Any]) -> None:
    assert set(data) - {"instructions"} == ENVELOPE_KEYS
    assert data["version"] == 1
    assert data["status"] in ("success", "error")
    assert isinstance(data["text"], str)


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_gives_the_envelope(
    name: str, todo: Todo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("EDITOR", "true")  # todo edit: saved unchanged
    assert todo("add", "X", "Y", "Z").code == 0
    if name == "redo":
        assert todo("undo").code == 0  # something to redo
    args, stdin, key = CASES[name]
    run = todo(name, *args, "--json", stdin=stdin)
    data = json.loads(run.out)
    check_envelope(data)
    assert key in data["data"], data["data"]
    expected = 1 if name == "check" else 0  # check: tasks are open
    assert run.code == expected, run.err
    assert data["status"] == ("error" if expected else "success")


def test_a_data_command_s_envelope_says_so(todo: Todo, home: Path) -> None:
    todo("add", "X")
    path = json.loads(todo("path", "--json").out)
    assert path["data"] == {"path": str(home / "sessions" / "default.md")}
    assert (path["stats"], path["changes"]) == (None, None)
    assert path["context"]["session"] == "default"
    assert path["text"] == str(home / "sessions" / "default.md") + "\n"
    sessions = json.loads(todo("sessions", "--json").out)["data"]["sessions"]
    assert [(s["name"], s["current"], s["done"], s["total"]) for s in sessions] == [
        ("default", True, 0, 1)
    ]
    history = json.loads(todo("history", "--json").out)
    assert history["context"]["rev"] == 1
    assert [r["rev"] for r in history["data"]["revisions"]] == [1]
    remind = json.loads(todo("remind", "--every", "1", "--json").out)["data"]
    assert remind["reminders"] == ["<reminder>Update your todos.</reminder>"]
    assert remind["recap"] == "[0/1] In progress: X."


def test_quiet_silences_every_command_that_succeeds(todo: Todo) -> None:
    todo("add", "X")
    for args in (["sessions"], ["path"], ["history"], ["config"], ["remind", "-e", "1"]):
        run = todo(*args, "-q")
        assert (run.code, run.out) == (0, ""), args


def test_remind_never_fails_even_in_json(todo: Todo) -> None:
    run = todo("remind", "--json", "-s", "../bad")
    assert run.code == 0
    assert json.loads(run.out)["error"]["code"] == "USAGE"
    assert "invalid session name" in run.err


def test_watch_json_prints_one_envelope_a_line(tmp_path: Path) -> None:
    env = {**os.environ}
    assert todo_process("add", "X", env=env).code == 0
    proc = start_todo(
        "watch",
        "--json",
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        check_envelope(first)
        assert first["data"]["todos"][0]["content"] == "X"
        assert todo_process("done", "X", "--keep", env=env).code == 0
        second = json.loads(proc.stdout.readline())
        assert second["data"]["todos"][0]["status"] == "completed"
        assert second["context"]["rev"] == first["context"]["rev"] + 1
    finally:
        proc.kill()
        proc.wait()


def test_mcp_json_replies_carry_the_envelope() -> None:
    """Stdout is the protocol's: every tool result carries the envelope as its
    structured content, --json or not (less its text, which is the content)."""
    pytest.importorskip("mcp")
    proc = start_todo(
        "mcp",
        "--json",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    lines: queue.Queue[bytes] = queue.Queue()
    out = proc.stdout
    assert out is not None
    assert proc.stdin is not None

    def pump() -> None:
        for line in out:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()

    def send(message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()

    def reply(n: int) -> dict[str, Any]:
        while True:
            message = json.loads(lines.get(timeout=30))
            if message.get("id") == n:
                return dict(message)

    try:
        info = {"name": "raw", "version": "1"}
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
        reply(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "todo_read", "arguments": {}}
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        result = reply(2)["result"]
        structured = result["structuredContent"]
        assert set(structured) == ENVELOPE_KEYS - {"text"}
        assert structured["version"] == 1
        assert structured["status"] == "success"
        assert isinstance(result["content"][0]["text"], str)
    finally:
        proc.kill()
        proc.wait()


def test_if_rev_guards_undo_and_edit_too(
    todo: Todo, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", "true")
    todo("add", "A")
    todo("add", "B")
    listing = home / "sessions" / "default.md"
    before = listing.read_bytes()
    stale = todo("undo", "--if-rev", "1")
    assert stale.code == 4
    assert "the list is at revision 2, not 1" in stale.err
    assert todo("edit", "--if-rev", "1").code == 4
    assert listing.read_bytes() == before
    assert todo("undo", "--if-rev", "2").code == 0
    assert b"B" not in listing.read_bytes()
