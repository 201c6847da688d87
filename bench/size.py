#!/usr/bin/env python3
"""What an agent reads: the characters of each agent-path output, and a token
estimate (characters / 4), on lists of 5, 10 and 20 tasks.

Standard library only (the MCP server is spoken to over its stdio, as a client
does). For each list, written the way an agent writes one (``todo apply`` of a
Claude Code TodoWrite payload, the first task in progress, tasks of about 25
characters), each form runs on a fresh copy, plain and with ``--json``:

- ``show``; ``done`` (the task in progress; the next starts); ``start`` of the
  next task; ``apply`` of ops (one done, the next started); ``apply`` of a
  TodoWrite snapshot making the same step; and ``done`` on a list made by ``todo
  init`` (no active forms);
- ``todo mcp``: ``todo_write`` of that step (its text content and its structured
  content), and once, ``tools/list`` (every tool with its schemas);
- ``--server-time``: the server-side time of a ``todo_write`` step on the 20-task
  list (the tool's function, called in this process as the server calls it: no
  start-up, no JSON-RPC), median of 200 steps. The write's ``fsync`` calls are
  most of it on a disk: ``TMPDIR=/dev/shm`` puts the lists on tmpfs, to time the
  rest.

Usage: ``python bench/size.py [--server-time]``. Run it from an installed checkout:
it calls the ``todo`` script beside this Python.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (5, 10, 20)


def todo_command() -> list[str]:
    script = Path(sys.executable).parent / "todo"
    return [str(script)] if script.exists() else [sys.executable, "-m", "todocli"]


def task(i: int) -> str:
    return f"Step {i:02d} of the bug fix plan"  # 26 characters


def todo_write(count: int, done: int) -> dict[str, object]:
    """TodoWrite's payload: the first ``done`` tasks completed, the next in progress."""
    todos = [
        {
            "content": task(i),
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
            "activeForm": f"Working on step {i:02d}",
        }
        for i in range(count)
    ]
    return {"todos": todos}


def step_ops() -> dict[str, object]:
    return {"ops": [{"op": "done", "task": task(0)}, {"op": "start", "task": task(1)}]}


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TODOCLI_")}
    env["TODOCLI_HOME"] = str(home)
    return env


def make_list(home: Path, count: int) -> None:
    payload = json.dumps(todo_write(count, 0)).encode()
    made = subprocess.run(
        [*todo_command(), "apply"], input=payload, env=env_for(home), capture_output=True
    )
    if made.returncode != 0:
        raise SystemExit(f"todo apply failed: {made.stderr!r}")


def forms(count: int) -> list[tuple[str, list[str], bytes]]:
    snapshot = json.dumps(todo_write(count, 1)).encode()
    return [
        ("show", ["show"], b""),
        ("done", ["done"], b""),
        ("start next", ["start", task(1)], b""),
        ("apply ops", ["apply"], json.dumps(step_ops()).encode()),
        ("apply TodoWrite", ["apply"], snapshot),
    ]


def measure(pristine: Path, work: Path, argv: list[str], stdin: bytes) -> int:
    """Characters of stdout of one run on a fresh copy of the list."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work)
    proc = subprocess.run(
        [*todo_command(), *argv], input=stdin, env=env_for(work), capture_output=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"todo {' '.join(argv)} failed: {proc.stderr!r}")
    return len(proc.stdout.decode())


class Server:
    """``todo mcp`` over stdio, spoken to with newline-delimited JSON-RPC."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            [*todo_command(), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env_for(home),
            text=True,
        )
        self.next_id = 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, object]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, object] | None = None) -> dict[str, object]:
        self.next_id += 1
        message: dict[str, object] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        assert self.proc.stdout is not None
        while True:
            answer = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self.next_id:
                result = answer["result"]
                assert isinstance(result, dict)
                return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def row(name: str, chars: int) -> str:
    return f"{name:<40} {chars:>7,} chars  {chars // 4:>6,} tokens"


def sizes(root: Path) -> list[str]:
    lines = []
    for count in SIZES:
        pristine = root / f"list{count}"
        make_list(pristine, count)
        for name, argv, stdin in forms(count):
            for flags in ([], ["--json"]):
                label = f"{count} tasks: {name}{' --json' if flags else ''}"
                lines.append(row(label, measure(pristine, root / "work", [*argv, *flags], stdin)))
        flags_list = root / f"flags{count}"  # made by `todo init`: no active forms
        made = subprocess.run(
            [*todo_command(), "init", *(task(i) for i in range(count))],
            env=env_for(flags_list),
            capture_output=True,
        )
        if made.returncode != 0:
            raise SystemExit(f"todo init failed: {made.stderr!r}")
        for flags in ([], ["--json"]):
            label = f"{count} tasks (todo init): done{' --json' if flags else ''}"
            lines.append(row(label, measure(flags_list, root / "work", ["done", *flags], b"")))
        shutil.rmtree(root / "work", ignore_errors=True)
        shutil.copytree(pristine, root / "work")
        server = Server(root / "work")
        try:
            result = server.request("tools/call", {"name": "todo_write", "arguments": step_ops()})
        finally:
            server.close()
        content = result.get("content")
        assert isinstance(content, list)
        text = "".join(str(part.get("text", "")) for part in content)
        structured = json.dumps(result.get("structuredContent"))
        lines.append(row(f"{count} tasks: mcp todo_write text", len(text)))
        lines.append(row(f"{count} tasks: mcp todo_write structured", len(structured)))
        lines.append(row(f"{count} tasks: mcp todo_write result", len(json.dumps(result))))
    server = Server(root / "list5")
    try:
        tools = server.request("tools/list")
    finally:
        server.close()
    lines.append(row("mcp tools/list", len(json.dumps(tools))))
    for tool in tools.get("tools", []):  # type: ignore[attr-defined]
        lines.append(row(f"  {tool['name']}", len(json.dumps(tool))))
    return lines


def server_time(root: Path, steps: int = 200) -> str:
    """Median server-side time of one todo_write step (one done, the next started)
    on a 20-task list: ``mcp_tools.call`` as the server runs it, in this process."""
    home = root / "server"
    os.environ["TODOCLI_HOME"] = str(home)
    for key in ("TODOCLI_FILE", "TODOCLI_SESSION", "TODOCLI_AGENT"):
        os.environ.pop(key, None)
    from todocli.app.commands import Options
    from todocli.mcp import mcp_tools

    defaults = Options()
    times = []
    for n in range(steps):
        i = n % 19
        if i == 0:  # back to the first task in progress (untimed)
            mcp_tools.call("todo_write", todo_write(20, 0), defaults)
        args = {"ops": [{"op": "done", "task": task(i)}, {"op": "start", "task": task(i + 1)}]}
        began = time.perf_counter()
        reply = mcp_tools.call("todo_write", args, defaults)
        times.append(time.perf_counter() - began)
        if reply.failed:
            raise SystemExit(f"todo_write failed: {reply.text}")
    median = statistics.median(times) * 1000
    return f"{'mcp todo_write step, server side (20)':<40} {median:>7.2f} ms (median of {steps})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-time", action="store_true", help="also time a todo_write step")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for line in sizes(root):
            print(line)
        if args.server_time:
            print(server_time(root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
